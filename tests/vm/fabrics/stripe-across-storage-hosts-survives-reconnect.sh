#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A volume striped over NVMe/TCP namespaces of two storage hosts: bdsadm
# groups them by host, the data lands where the layout says, it survives
# a reconnection in another order (other names), and a host that dies
# takes down only its own members.
#
# Three guests (tests/vm/vm-peers.sh): storage hosts h1 (10.0.1.1) and
# h2 (10.0.2.1), each with two 1 GiB disks behind one cap (their
# "link"), exporting them with nvmet-tcp (peer-nvmet-tcp-host.sh): h1 as
# two subsystems h1-a and h1-b, h2 as one subsystem with two namespaces.
# This guest is the client (10.0.1.2, 10.0.2.2), with native NVMe
# multipath as Debian's kernels have it (nvme_core.multipath=Y).
#  1. It connects the three subsystems (ctrl_loss_tmo=5), h2 first;
#     bdsadm plan of the four namespaces, given in the order h2/1 h1-a
#     h2/2 h1-b, groups them by host: group 0 = h1-a, h1-b (10.0.1.1),
#     group 1 = h2/1, h2/2 (10.0.2.1), two subsystems of h1 in one group;
#     the plan shows each member's host.
#  2. bdsadm create (64 KiB unit): the table has the members in that
#     order and the order 0,2,1,3, so consecutive units alternate hosts.
#     Eight units written through the volume are read back from the
#     namespaces at the place the layout gives (table offset + unit's
#     row x unit).
#  3. XFS (mkfs.xfs takes su=64k, sw=4 by itself), fio writes a file
#     with checksums and verifies it; the eight units are written again
#     at the volume's end.
#  4. Bandwidth, reported (not asserted: timed figures belong in a
#     benchmark): stripe-aligned random reads of half a stripe width at
#     queue depth 1, as make bench's T1, on the volume and on a striped
#     table over the same data with the members in host order (h1-a,
#     h1-b, h2/1, h2/2), and their ratio: "BDS-FABRICS-BW: ...".
#  5. bdsadm stop; every controller disconnected; reconnected in another
#     order (h1-b, h2, h1-a), so the namespaces come back under other
#     names; bdsadm assemble --scan builds the volume again: same UUID,
#     the same namespaces in the same table positions (by subsystem and
#     namespace id); the eight units and the XFS file verify.
#  6. fio (random 64 KiB reads and writes, errors ignored) on the volume;
#     h2 is killed (BDS-PEER-KILL: its QEMU dies, no shutdown): within
#     60 s the health string is AADD; error counts are 0 on h1's members
#     and above 0 on h2's; a unit of h1 still reads back; bdsadm detail
#     says "errors on members 2,3" and --json lists [2, 3]; bdsadm
#     monitor --oneshot reports MemberFoundFailed for members 2 and 3
#     only and exits 1; bdsadm stop removes the volume (bounded); the
#     module unloads (no reference left).
#
# topology: size=64M ctl=1
# peer: h1 peer-nvmet-tcp-host.sh size=1G ctl=4M:2
# peer: h2 peer-nvmet-tcp-host.sh size=1G ctl=4M:2
# timeout: 900
# memory: 1536

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest"
command -v fio >/dev/null || fail "fio not in the guest"
PFX=nqn.2026-12.io.bds-stripe
VOL=fab
DM=/dev/mapper/$VOL
UNIT=65536
NU=8			# units written and checked

bds_load_module
bds_peer_link 1
bds_peer_link 2
run modprobe nvme-tcp
log "nvme_core multipath: $(cat /sys/module/nvme_core/parameters/multipath 2>/dev/null)"

# connect NQN ADDR: connect a subsystem (its host may still be booting:
# 180 s of tries)
connect() {
	_t=0
	until echo "transport=tcp,traddr=$2,trsvcid=4420,nqn=$1,ctrl_loss_tmo=5,reconnect_delay=1" \
		>/dev/nvme-fabrics 2>/dev/null; do
		_t=$((_t + 1))
		[ "$_t" -lt 180 ] || fail "cannot connect $1 at $2"
		sleep 1
	done
	log "connected $1 at $2 after $_t retries"
}

# ns NQN NSID: the block device (nvmeXnY) of namespace NSID of NQN, "" if
# none (multipath heads and plain namespaces alike: both have device/
# subsysnqn; the hidden path devices nvmeXcYnZ are not looked at)
ns() {
	for _b in /sys/block/nvme*n*; do
		_n=${_b##*/}
		case "$_n" in *c*) continue ;; esac
		[ "$(cat "$_b/device/subsysnqn" 2>/dev/null)" = "$1" ] || continue
		[ "$(cat "$_b/nsid" 2>/dev/null)" = "$2" ] || continue
		echo "$_n"
		return 0
	done
}

# wait_ns: wait (60 s) until the four namespaces are there; sets A B C D
wait_ns() {
	_t=0
	while :; do
		A=$(ns $PFX:h1-a 1) B=$(ns $PFX:h1-b 1)
		C=$(ns $PFX:h2 1) D=$(ns $PFX:h2 2)
		[ -n "$A" ] && [ -n "$B" ] && [ -n "$C" ] && [ -n "$D" ] && break
		_t=$((_t + 1))
		[ "$_t" -lt 600 ] || fail "namespaces missing: A=$A B=$B C=$C D=$D"
		sleep 0.1
	done
	log "namespaces: h1-a/1=$A h1-b/1=$B h2/1=$C h2/2=$D"
}

# nvme_disks: the NVMe block devices there are, on one line
nvme_disks() {
	for _b in /sys/block/nvme*; do
		[ -e "$_b" ] && printf '%s ' "${_b##*/}"
	done
}

# disconnect_all: delete every NVMe controller, wait until no namespace
disconnect_all() {
	for _c in /sys/class/nvme/nvme*; do
		[ -e "$_c/delete_controller" ] && echo 1 >"$_c/delete_controller"
	done
	_t=0
	while [ -n "$(nvme_disks)" ]; do
		_t=$((_t + 1))
		[ "$_t" -lt 300 ] || fail "namespaces still there after disconnecting: $(nvme_disks)"
		sleep 0.1
	done
}

# devs_of NAME...: their MAJ:MIN, each followed by a blank
devs_of() {
	for _x in "$@"; do
		printf '%s ' "$(cat "/sys/block/$_x/dev")"
	done
}

# members: the table's members, one "MAJ:MIN OFFSET" per line
members() {
	dmsetup table $VOL | awk '{
		i = 6
		for (g = 0; g < $5 && i <= NF; g++) {
			c = $i; i++
			for (k = 0; k < c; k++) { print $i, $(i + 1); i += 2 }
		}
	}'
}

# check_units WHAT: the NU units of /tmp/units (written through the
# volume at its start) are on the members where the order puts them:
# unit k on member order[k mod 4] at the member's table offset + (k div 4)
# units
check_units() {
	_order=$(dmsetup status $VOL | cut -d' ' -f7)
	members >/tmp/members
	_k=0
	while [ "$_k" -lt $NU ]; do
		_m=$(bds_unit_member $_k "$_order")
		# shellcheck disable=SC2046 # MAJ:MIN OFFSET
		set -- $(sed -n "$((_m + 1))p" /tmp/members)
		_dev=/dev/$(basename "$(readlink -f "/sys/dev/block/$1")")
		_at=$(($2 * 512 / UNIT + _k / 4))
		expect_eq "$(bds_unit_md5 "$_dev" $_at $UNIT)" "$(bds_unit_md5 /tmp/units $_k $UNIT)" \
			"$1: unit $_k on member $_m ($_dev, unit $_at): $1"
		_k=$((_k + 1))
	done
}

# --- 1. connect, plan ----------------------------------------------------------------
connect $PFX:h2 10.0.2.1
connect $PFX:h1-a 10.0.1.1
connect $PFX:h1-b 10.0.1.1
wait_ns
A0=$A B0=$B C0=$C D0=$D
bdsadm plan "$C" "$A" "$D" "$B" >/tmp/plan.out 2>&1
RC=$?
cat /tmp/plan.out
expect_eq "$RC" 0 "bdsadm plan"
check "plan: groups by storage host" grep -qF "Groups (table order), one per storage host:" /tmp/plan.out
check "plan: group 0 is h1's two subsystems" grep -qE "^  group 0: $A $B  \\(10\\.0\\.1\\.1\\)$" /tmp/plan.out
check "plan: group 1 is h2's namespaces" grep -qE "^  group 1: $C $D  \\(10\\.0\\.2\\.1\\)$" /tmp/plan.out
check "plan: $B's host" grep -qE "^  $B +host tcp 10\\.0\\.1\\.1 port 4420 +via nvme[0-9]+ +$PFX:h1-b$" /tmp/plan.out
check "plan: $D's host" grep -qE "^  $D +host tcp 10\\.0\\.2\\.1 port 4420 +via nvme[0-9]+ +$PFX:h2$" /tmp/plan.out

# --- 2. create, placement ------------------------------------------------------------
run bdsadm create $VOL --chunk 64K "$C" "$A" "$D" "$B"
UUID=$(dmsetup info -c --noheadings -o uuid $VOL)
log "table: $(dmsetup table $VOL)"
members | cut -d' ' -f1 >/tmp/m1
expect_eq "$(tr '\n' ' ' </tmp/m1)" "$(devs_of "$A" "$B" "$C" "$D")" \
	"table order: h1-a h1-b h2/1 h2/2"
expect_eq "$(dmsetup status $VOL | cut -d' ' -f7)" "0,2,1,3" "order: units alternate hosts"
run dd if=/dev/urandom of=/tmp/units bs=$UNIT count=$NU status=none
run dd if=/tmp/units of=$DM bs=$UNIT oflag=direct conv=notrunc status=none
check_units "after create"

# --- 3. XFS, fio verify ------------------------------------------------------------
mkfs.xfs -f -K $DM >/tmp/mkfs.out 2>&1 || { cat /tmp/mkfs.out; fail "mkfs.xfs"; }
cat /tmp/mkfs.out
check "mkfs.xfs took sunit=16 swidth=64 blks" grep -qE "sunit=16 +swidth=64 blks" /tmp/mkfs.out
mkdir -p /mnt/x
run mount -t xfs $DM /mnt/x
run fio --name=w --filename=/mnt/x/f --size=48M --bs=256k --rw=write --direct=1 \
	--verify=crc32c --do_verify=1 --output=/tmp/fio-w.out
run umount /mnt/x
# XFS wrote over the units at the start; the same units again at the
# volume's end, which a nearly empty XFS leaves alone, for after the
# reconnection
UNITS_AT=$(($(blockdev --getsz $DM) * 512 / UNIT - NU))
run dd if=/tmp/units of=$DM bs=$UNIT seek=$UNITS_AT oflag=direct conv=notrunc status=none

# --- 4. bandwidth ----------------------------------------------------------------
LEN=$(blockdev --getsz $DM)
members >/tmp/mm
TAB="0 $LEN striped 4 $((UNIT / 512))"
while read -r mm off; do TAB="$TAB $mm $off"; done </tmp/mm
log "striped: $TAB"
echo "$TAB" | dmsetup create fabstr || fail "cannot create the striped table"
bw() { # DEV -> MB/s of stripe-aligned half-width random reads at qd 1
	fio --name=a --filename="$1" --rw=randread --bs=$((2 * UNIT)) --blockalign=$((4 * UNIT)) \
		--iodepth=1 --direct=1 --time_based --runtime=8 --ramp_time=1 --norandommap \
		--randrepeat=1 --size=2G --output-format=terse --terse-version=3 >/tmp/bw.out ||
		fail "fio on $1"
	# terse v3: field 7 is the read bandwidth in KiB/s
	awk -F';' '{ printf "%.1f\n", $7 * 1024 / 1e6 }' /tmp/bw.out
}
BW_BDS=$(bw $DM)
BW_STR=$(bw /dev/mapper/fabstr)
run dmsetup remove fabstr
echo "BDS-FABRICS-BW: bds-stripe=$BW_BDS striped=$BW_STR ratio=$(echo "$BW_BDS $BW_STR" | awk '{ printf "%.2f", $1 / $2 }') (MB/s, 128 KiB reads at qd 1 from stripe boundaries, 2 hosts of 2 namespaces, 4 MiB/s per host)"

# --- 5. disconnect, reconnect in another order, assemble ----------------------------
run bdsadm stop $VOL
disconnect_all
connect $PFX:h1-b 10.0.1.1
connect $PFX:h2 10.0.2.1
connect $PFX:h1-a 10.0.1.1
wait_ns
check "the namespaces came back under other names ($A0 $B0 $C0 $D0 -> $A $B $C $D)" \
	[ "$A $B $C $D" != "$A0 $B0 $C0 $D0" ]
run bdsadm assemble --scan
expect_eq "$(dmsetup info -c --noheadings -o uuid $VOL)" "$UUID" "the same volume (dm UUID)"
members | cut -d' ' -f1 >/tmp/m2
expect_eq "$(tr '\n' ' ' </tmp/m2)" "$(devs_of "$A" "$B" "$C" "$D")" \
	"table order after reconnecting: h1-a h1-b h2/1 h2/2 under their new names"
# the units at the end of the volume
_k=0
while [ $_k -lt $NU ]; do
	expect_eq "$(bds_unit_md5 $DM $((UNITS_AT + _k)) $UNIT)" "$(bds_unit_md5 /tmp/units $_k $UNIT)" \
		"unit $((UNITS_AT + _k)) reads back after reassembly"
	_k=$((_k + 1))
done
run mount -t xfs $DM /mnt/x
run fio --name=w --filename=/mnt/x/f --size=48M --bs=256k --rw=read --direct=1 \
	--verify=crc32c --verify_only=1 --output=/tmp/fio-v.out
run umount /mnt/x

# --- 6. a storage host dies -------------------------------------------------------------
EV0=$(bds_events $VOL)
fio --name=load --filename=$DM --rw=randrw --bs=64k --iodepth=4 --ioengine=libaio --direct=1 \
	--time_based --runtime=300 --size=1G --continue_on_error=all --output=/tmp/fio-k.out &
FIO=$!
sleep 3
log "killing h2"
echo "BDS-PEER-KILL: h2"
_t=0
until [ "$(bds_health $VOL)" = AADD ]; do
	_t=$((_t + 1))
	[ "$_t" -lt 300 ] || break
	sleep 0.2
done
log "health after $((_t / 5)) s: $(bds_health $VOL)"
sleep 2
kill $FIO 2>/dev/null
wait $FIO
log "status: $(dmsetup status $VOL)"
expect_eq "$(bds_health $VOL)" AADD "health: h2's members failed, h1's not"
ERR=$(bds_errors $VOL)
expect_eq "$(echo "$ERR" | cut -d, -f1-2)" "0,0" "no error on h1's members ($ERR)"
E2=$(echo "$ERR" | cut -d, -f3) E3=$(echo "$ERR" | cut -d, -f4)
check "errors on h2's members ($ERR)" [ "${E2:-0}" -gt 0 -a "${E3:-0}" -gt 0 ]
check "a dm event was raised" [ "$(bds_events $VOL)" -gt "$EV0" ]
_rc=0
bds_bounded _rc dd if=$DM of=/tmp/u bs=$UNIT skip=0 count=1 iflag=direct status=none
check "a unit on h1 still reads" [ "$_rc" = 0 ]
bdsadm detail $VOL >/tmp/detail.out 2>&1
cat /tmp/detail.out
check "detail: errors on members 2,3" grep -qF "State : errors on members 2,3" /tmp/detail.out
bdsadm detail --json $VOL >/tmp/detail.json 2>&1
check "detail --json: error_members [2, 3]" grep -qF '"error_members": [2, 3]' /tmp/detail.json
bds_bounded _rc bdsadm monitor --oneshot --foreground >/tmp/one.out 2>&1
cat /tmp/one.out
expect_eq "$_rc" 1 "monitor --oneshot with failed members: exit status"
check "monitor: member 2 failed" grep -qF "MemberFoundFailed: volume $VOL, member 2 " /tmp/one.out
check "monitor: member 3 failed" grep -qF "MemberFoundFailed: volume $VOL, member 3 " /tmp/one.out
check "monitor: h1's members not reported" sh -c "! grep -qE 'MemberFoundFailed: volume $VOL, member [01] ' /tmp/one.out"
bds_bounded _rc bdsadm stop $VOL
expect_eq "$_rc" 0 "bdsadm stop with a dead host"
check "volume gone" [ ! -e $DM ]
disconnect_all
run rmmod dm_bds_stripe
pass "striped over two NVMe/TCP hosts: grouped by host, reassembled after reconnection, a dead host confined"
