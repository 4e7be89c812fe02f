#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Atomic writes (pwritev2 RWF_ATOMIC, O_DIRECT) on a bds-stripe volume
# reach one member whole, where the layout puts them, or are refused with
# EINVAL; they are never split.  On 7.2 (device-mapper has
# DM_TARGET_ATOMIC_WRITES since 6.14):
#  (a) limits: members that take 128 KiB atomic writes under a 64 KiB
#      stripe unit give a volume with atomic_write_unit_max_bytes 64 KiB
#      (capped at the unit, never across it), the members' unit_min, and
#      the same four atomic_write_* values as `striped` on those members;
#      with one member that has no atomic writes (the guest's virtio disk)
#      the volume offers none;
#  (b) atomic writes of 4, 16 and 64 KiB, aligned to their size, on every
#      stripe position: each is accepted, raises exactly one member's
#      completed writes by 1 and its written sectors by its size (stat
#      fields 5 and 7): the member the layout gives, which holds the data
#      at the member sector the layout gives;
#  (c) 128 KiB (over the unit), 12 KiB (not a power of two) and 64 KiB at
#      a 4 KiB offset (misaligned): EINVAL, no member written;
#  (d) a table of two targets, 64 KiB of linear and then bds-stripe with a
#      128 KiB unit, so that the target's units do not start on the
#      device's 128 KiB boundaries: the volume offers 128 KiB atomic
#      writes; one of 128 KiB that the block layer takes but that would
#      span two of the target's units fails with EINVAL and writes no
#      member (the target refuses to split it); 64 KiB ones within a unit
#      reach their member whole;
#  (e) fio write+verify (direct, 4 KiB to 256 KiB) over the volume of (b).
# On 6.12 (atomic writes in the block layer, not in its device-mapper) the
# members offer atomic writes, the volume none (all four limits 0), and an
# atomic write to it is refused with EOPNOTSUPP, as on any device without
# them.  On 6.1 the block layer has no atomic
# writes (no atomic_write_* in sysfs, RWF_ATOMIC unknown): the test checks
# that and says so.
#
# Members: five scsi_debug disks made in the guest, one SCSI host each
# (each its own controller), per_host_store=1 (each its own data), 32 MiB
# of 512-byte blocks; on 6.12 and 7.2 atomic_wr=1 with a 128 KiB maximum
# (256 blocks) and a 4 KiB granularity and alignment.  Four are the
# members; the fifth carries the linear target of (d).  The virtio disk of
# the topology is the member without atomic writes of (a).
#
# topology: size=64M ctl=1
# timeout: 300
# memory: 1024
# exec: bds-atomicw

# shellcheck disable=SC1091,SC2154,SC2086
. /bds/guest-lib.sh

command -v bds-atomicw >/dev/null || fail "bds-atomicw not in the guest (# exec: header)"
V=bdsatom
DMV=/dev/mapper/$V
CHUNK=128                    # sectors (64 KiB)
N=4

# --- helpers -----------------------------------------------------------------


# snap: W_m, S_m = completed writes and sectors written of disk m (0..4).
snap() {
	_m=0
	while [ "$_m" -le "$N" ]; do
		eval "W_$_m=\$(bds_stat_field 5 \$SD_$_m) S_$_m=\$(bds_stat_field 7 \$SD_$_m)"
		_m=$((_m + 1))
	done
}

# written_since_snap: "m:writes:sectors" for every disk written since snap.
written_since_snap() {
	_out=""
	_m=0
	while [ "$_m" -le "$N" ]; do
		eval "_dw=\$((\$(bds_stat_field 5 \$SD_$_m) - W_$_m))"
		eval "_ds=\$((\$(bds_stat_field 7 \$SD_$_m) - S_$_m))"
		[ "$_dw" -ne 0 ] || [ "$_ds" -ne 0 ] && _out="$_out $_m:$_dw:$_ds"
		_m=$((_m + 1))
	done
	echo "${_out# }"
}

# atomic DEV OFFSET LENGTH BYTE: one atomic write; prints the helper's word.
atomic() { bds-atomicw "$@" || true; }

# all_bytes_are DEV OFFSET LENGTH BYTE: the range holds only BYTE.
all_bytes_are() {
	_o=$(printf '\\%03o' "$4")
	[ "$(bds_read "$1" "$2" "$3" | tr -d "$_o" | wc -c)" -eq 0 ]
}

# qlim DEV NAME: /sys/block/<dev>/queue/NAME for a /dev path.
qlim() { bds_queue "$1" "$2"; }

atomic_limits() { # DEV: the four atomic_write_* limits, one line
	echo "$(qlim "$1" atomic_write_unit_min_bytes) $(qlim "$1" atomic_write_unit_max_bytes)" \
		"$(qlim "$1" atomic_write_max_bytes) $(qlim "$1" atomic_write_boundary_bytes)"
}

# --- members -------------------------------------------------------------------

bds_load_module
modinfo -p scsi_debug >/tmp/sdparms 2>/dev/null || fail "modinfo scsi_debug failed"
ATOMIC=0
grep -q '^atomic_wr:' /tmp/sdparms && ATOMIC=1
SDARGS="add_host=5 per_host_store=1 dev_size_mb=32"
[ "$ATOMIC" -eq 1 ] && SDARGS="$SDARGS atomic_wr=1 atomic_wr_max_length=256 atomic_wr_max_length_bndry=256 atomic_wr_gran=8 atomic_wr_align=8"
# shellcheck disable=SC2086
run modprobe scsi_debug $SDARGS
bds_scsi_debug_disks 5
log "disks: $SD_0 $SD_1 $SD_2 $SD_3 (members), $SD_4 (linear)"

bds_dm_create $V "$(bds_stripe_table $CHUNK /dev/$SD_0 /dev/$SD_1 /dev/$SD_2 /dev/$SD_3)"
bds_order_vars $V
log "order: $ORDER"

if [ ! -e "/sys/block/$(bds_dev $DMV)/queue/atomic_write_unit_max_bytes" ]; then
	# 6.1: no atomic writes in the block layer.
	check "the members have no atomic_write_* limits either" \
		[ ! -e "/sys/block/$SD_0/queue/atomic_write_unit_max_bytes" ]
	expect_eq "$(atomic $DMV 0 65536 7)" "refused ENOTSUP" \
		"$(uname -r): RWF_ATOMIC is unknown to this kernel"
	bds_dm_remove $V
	pass "$(uname -r) has no atomic writes: nothing to offer"
fi

# --- (a) limits ----------------------------------------------------------------

MEM=$(atomic_limits /dev/$SD_0)
log "member atomic limits (unit_min unit_max max boundary): $MEM"
expect_eq "$(echo "$MEM" | cut -d' ' -f2)" 131072 "a member takes 128 KiB atomic writes"
VOL=$(atomic_limits $DMV)
log "volume atomic limits: $VOL"

# major x 100 + minor of the running kernel: 612 for 6.12, 702 for 7.2.
KV=$(uname -r | awk -F'[.-]' '{ print $1 * 100 + $2 }')
if [ "$KV" -lt 614 ]; then
	# 6.12: device-mapper passes no atomic writes (no
	# DM_TARGET_ATOMIC_WRITES before 6.14); nothing may claim them.
	expect_eq "$VOL" "0 0 0 0" "$(uname -r): the volume offers no atomic writes"
	expect_eq "$(atomic $DMV 0 65536 7)" "refused ENOTSUP" \
		"$(uname -r): an atomic write to the volume is refused (EOPNOTSUPP)"
	bds_dm_remove $V
	pass "$(uname -r): members offer atomic writes, device-mapper passes none"
fi

expect_eq "$(echo "$VOL" | cut -d' ' -f1)" "$(echo "$MEM" | cut -d' ' -f1)" \
	"volume unit_min = the members'"
expect_eq "$(echo "$VOL" | cut -d' ' -f2)" 65536 "volume unit_max = the 64 KiB stripe unit, not the members' 128 KiB"
{
	echo "0 $(bds_sectors $DMV) striped $N $CHUNK /dev/$SD_0 0 /dev/$SD_1 0 /dev/$SD_2 0 /dev/$SD_3 0"
} >/tmp/striped.table
bds_dm_remove $V
bds_dm_create sref "$(cat /tmp/striped.table)"
SREF=$(atomic_limits /dev/mapper/sref)
bds_dm_remove sref
expect_eq "$VOL" "$SREF" "striped on the same members has the same atomic_write_* limits"
# One member without atomic writes (the guest's virtio disk): none.
bds_dm_create mixed "$(bds_stripe_table $CHUNK /dev/$SD_0 /dev/$SD_1 /dev/$SD_2 /dev/bds/c0d0)"
expect_eq "$(atomic_limits /dev/mapper/mixed)" "0 0 0 0" \
	"a volume with one member that has no atomic writes offers none"
expect_eq "$(atomic /dev/mapper/mixed 0 4096 7)" "refused ENOTSUP" "... and refuses them (EOPNOTSUPP)"
bds_dm_remove mixed
bds_dm_create $V "$(bds_stripe_table $CHUNK /dev/$SD_0 /dev/$SD_1 /dev/$SD_2 /dev/$SD_3)"

# --- (b) accepted ones reach one member, whole, where the layout says --------

BYTE=16
for SZ in 4096 16384 65536; do
	p=0
	while [ "$p" -lt "$N" ]; do
		k=$((N + p))                        # second row: unit k
		in=$((CHUNK * 512 - SZ))            # last SZ bytes of the unit
		off=$((k * CHUNK * 512 + in))
		m=$(bds_unit_member $k "$ORDER")
		eval "sd=\$SD_$m"
		snap
		expect_eq "$(atomic $DMV $off $SZ $BYTE)" written "$SZ bytes at $off (unit $k): accepted"
		expect_eq "$(written_since_snap)" "$m:1:$((SZ / 512))" \
			"... one write of $((SZ / 512)) sectors, to member $m only"
		check "... member $m holds it at member byte $(((k / N) * CHUNK * 512 + in))" \
			all_bytes_are /dev/$sd $(((k / N) * CHUNK * 512 + in)) $SZ $BYTE
		check "... and the volume reads it back" all_bytes_are $DMV $off $SZ $BYTE
		BYTE=$((BYTE + 1))
		p=$((p + 1))
	done
done

# --- (c) refused ones write nothing --------------------------------------------

for c in "0 131072 over the 64 KiB unit" "0 12288 not a power of two" \
	"4096 65536 not aligned to its size"; do
	# shellcheck disable=SC2086
	set -- $c
	off=$1 sz=$2
	shift 2
	snap
	expect_eq "$(atomic $DMV $off $sz 99)" "refused EINVAL" "$sz bytes at $off ($*): refused"
	expect_eq "$(written_since_snap)" "" "... and no member was written"
done

# --- (e) fio write+verify with atomic writes on -----------------------------------

fio --name=v --filename=$DMV --direct=1 --ioengine=psync --rw=randwrite \
	--bsrange=4k-256k --size=48m --verify=crc32c --verify_fatal=1 --randseed=18 \
	--do_verify=1 --output-format=terse --terse-version=3 >/tmp/fio.out 2>&1
rc=$?
bds_expect_fio_verified /tmp/fio.out "$rc" v
bds_dm_remove $V

# --- (d) a target not on the device's unit boundaries: never split ------------------

L=$(bds_stripe_table 256 /dev/$SD_0 /dev/$SD_1 /dev/$SD_2 /dev/$SD_3 | cut -d' ' -f2)
LIN=128
bds_dm_create two "0 $LIN linear /dev/$SD_4 0
$LIN $L bds-stripe 256 4 1 $(bds_majmin /dev/$SD_0) 0 1 $(bds_majmin /dev/$SD_1) 0 1 $(bds_majmin /dev/$SD_2) 0 1 $(bds_majmin /dev/$SD_3) 0"
# The order of the second target (status line 2, field 4).
ORDER=$(dmsetup status two | awk 'NR == 2 { print $7 }')
log "order of the bds-stripe target: $ORDER"
TWO=$(atomic_limits /dev/mapper/two)
log "two-target volume atomic limits: $TWO"
expect_eq "$(echo "$TWO" | cut -d' ' -f2)" 131072 "the two-target volume offers 128 KiB atomic writes"
# Volume byte 128 KiB = target byte 64 KiB: 128 KiB from there spans units 0
# and 1 of the target.
snap
expect_eq "$(atomic /dev/mapper/two 131072 131072 55)" "refused EINVAL" \
	"128 KiB at volume byte 128 KiB (target units 0 and 1): refused, not split"
expect_eq "$(written_since_snap)" "" "... and no member was written"
for c in "131072 0 65536" "196608 1 0"; do
	# shellcheck disable=SC2086
	set -- $c
	k=$2
	m=$(bds_unit_member "$k" "$ORDER")
	eval "sd=\$SD_$m"
	snap
	expect_eq "$(atomic /dev/mapper/two "$1" 65536 66)" written \
		"64 KiB at volume byte $1 (target unit $k): accepted"
	expect_eq "$(written_since_snap)" "$m:1:128" "... one write of 128 sectors, to member $m only"
	check "... member $m holds it at member byte $3" all_bytes_are /dev/$sd "$3" 65536 66
done
bds_dm_remove two

pass
