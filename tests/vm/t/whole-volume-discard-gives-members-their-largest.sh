#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A discard of a whole bds-stripe volume reaches each member as discards
# as large as the member takes, as `striped` does on 7.x; a partial one
# still reaches each member as exactly its share.
#  (a) limits: members that take 512 KiB discards (discard_max_hw_bytes)
#      give a volume of 4 members a discard_max_hw_bytes of 4 x 512 KiB
#      rounded down to a whole number of stripes (2 MiB with 64 KiB units,
#      1920 KiB with 96 KiB units) on the kernels where a queue's discard
#      limit follows max_hw_discard_sectors (6.9 on: 6.12 and 7.2), and
#      512 KiB on 6.1; `striped` on the same members does so on 7.2 and
#      gives 512 KiB on 6.12 and 6.1.
#  (b) blkdiscard of the whole volume, bds-stripe and then striped on the
#      same members, with both units: every member discards exactly its
#      share (stat field 14), in as many discard bios (completed + merged,
#      fields 12 and 13) as volume bios of the limit above: 64 and 69 per
#      member where the limit is raised, the same as striped's on 7.2
#      (striped's 256 on 6.12), and 256 on 6.1, as striped's.  A member
#      given more than it takes would split it and count more bios.  The
#      counts are in the log for the closing note.
#  (c) a discard of a range that starts and ends inside stripe units and
#      covers several stripes: exactly that range reads as zeroes through
#      the volume (scsi_debug returns zeroes for unmapped blocks), the
#      sectors on both sides keep their data, and each member discarded
#      exactly its share by an independent unit-by-unit model.
#
# Members: four scsi_debug disks made in the guest, one SCSI host each
# (each its own controller), per_host_store=1, 32 MiB of 512-byte blocks,
# UNMAP with at most 1024 blocks (512 KiB) per command.  The virtio disk
# of the topology is not used.
#
# topology: size=64M ctl=1
# timeout: 300
# memory: 1024
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091,SC2154,SC2086
. /bds/guest-lib.sh

V=bdsdisc
DMV=/dev/mapper/$V
CHUNK=128                    # sectors (64 KiB)
N=4
BLKDISCARD="/usr/sbin/blkdiscard -f"


# snap: D_m = discard bios (completed + merged), Z_m = discarded sectors.
snap() {
	_m=0
	while [ "$_m" -lt "$N" ]; do
		eval "D_$_m=\$((\$(bds_stat_field 12 \$SD_$_m) + \$(bds_stat_field 13 \$SD_$_m)))"
		eval "Z_$_m=\$(bds_stat_field 14 \$SD_$_m)"
		_m=$((_m + 1))
	done
}

# since_snap: "bios:sectors" per member since snap, blank separated.
since_snap() {
	_out=""
	_m=0
	while [ "$_m" -lt "$N" ]; do
		eval "_d=\$((\$(bds_stat_field 12 \$SD_$_m) + \$(bds_stat_field 13 \$SD_$_m) - D_$_m))"
		eval "_z=\$((\$(bds_stat_field 14 \$SD_$_m) - Z_$_m))"
		_out="$_out $_d:$_z"
		_m=$((_m + 1))
	done
	echo "${_out# }"
}

# repeat N WORD: WORD N times, blank separated.
repeat() { awk -v n="$1" -v w="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s%s", i ? " " : "", w; print "" }'; }

# --- members -------------------------------------------------------------------

bds_load_module
run modprobe scsi_debug add_host=4 per_host_store=1 dev_size_mb=32 lbpu=1 unmap_max_blocks=1024
bds_scsi_debug_disks $N
MEMBERS="/dev/$SD_0 /dev/$SD_1 /dev/$SD_2 /dev/$SD_3"
log "members: $MEMBERS"
expect_eq "$(cat /sys/block/$SD_0/queue/discard_max_hw_bytes)" 524288 "a member takes 512 KiB discards"

KV=$(uname -r | awk -F'[.-]' '{ print $1 * 100 + $2 }')
RAISE=0 ST_RAISE=0
[ "$KV" -ge 609 ] && RAISE=1
[ "$KV" -ge 700 ] && ST_RAISE=1

# whole_volume_discard TARGET C RAISED: make a TARGET ("bds-stripe" or
# "striped") volume of unit C over the members, check its discard limit and
# what a blkdiscard of all of it sends each member.  RAISED: 1 where the
# target raises the limit.  Sets GOT to the members' "bios:sectors".
whole_volume_discard() {
	_t=$(bds_stripe_table "$2" $MEMBERS)
	_len=$(echo "$_t" | cut -d' ' -f2)
	[ "$1" = striped ] &&
		_t="0 $_len striped $N $2 /dev/$SD_0 0 /dev/$SD_1 0 /dev/$SD_2 0 /dev/$SD_3 0"
	_share=$((_len / N))
	# The volume's limit: a member's 1024 sectors, or N x that, down to a
	# whole number of stripes of N x C sectors.  Each volume bio of it
	# covers at least N units, so every member gets one piece of each.
	_max=1024
	[ "$3" -eq 1 ] && _max=$((N * 1024 / (N * $2)))
	[ "$3" -eq 1 ] && _max=$((_max * N * $2))
	_bios=$(((_len + _max - 1) / _max))
	bds_dm_create dv "$_t"
	expect_eq "$(bds_queue /dev/mapper/dv discard_max_hw_bytes)" $((_max * 512)) \
		"$1, $(($2 / 2)) KiB unit: discard_max_hw_bytes"
	snap
	run $BLKDISCARD /dev/mapper/dv
	GOT=$(since_snap)
	log "$1, $(($2 / 2)) KiB unit, blkdiscard of the whole volume: member discard bios:sectors: $GOT"
	expect_eq "$GOT" "$(repeat $N $_bios:$_share)" \
		"$1, $(($2 / 2)) KiB unit: each member discards its $_share sectors in $_bios bios"
	bds_dm_remove dv
}

# --- (a), (b): bds-stripe, then striped on the same members ----------------------

# 64 KiB: 4 x 512 KiB is 8 whole stripes.  96 KiB: it is not (2 MiB is
# 5.33 stripes): the limit must drop to 5 stripes, or some member would get
# 6 units (576 KiB) of one discard, more than it takes.
for C in 128 192; do
	whole_volume_discard bds-stripe $C $RAISE
	BDS=$GOT
	whole_volume_discard striped $C $ST_RAISE
	[ "$KV" -ge 700 ] && expect_eq "$BDS" "$GOT" \
		"$(uname -r), $((C / 2)) KiB unit: bds-stripe sends the members what striped sends"
	log "$((C / 2)) KiB unit: discard bios per member for the whole volume: bds-stripe ${BDS%%:*}, striped ${GOT%%:*}"
done

# --- (c) a partial discard: exactly its range, exactly each member's share -------

bds_dm_create $V "$(bds_stripe_table $CHUNK $MEMBERS)"
bds_order_vars $V
# 8 MiB of 0xaa at the start of the volume.
dd if=/dev/zero bs=1M count=8 status=none | tr '\000' '\252' >/tmp/aa
bds_write $DMV 0 /tmp/aa
S=100                        # inside unit 0
E=$((S + 5 * N * CHUNK + 37)) # inside a unit, 5 stripes on
snap
run $BLKDISCARD -o $((S * 512)) -l $(((E - S) * 512)) $DMV
GOT=$(since_snap)
# The model: walk the range unit by unit; unit k is on member ORD_(k mod N).
WANT=$(awk -v s=$S -v e=$E -v c=$CHUNK -v n=$N -v ord="$ORDER" 'BEGIN {
	split(ord, o, ",")
	for (k = int(s / c); k * c < e; k++) {
		a = k * c; if (a < s) a = s
		b = (k + 1) * c; if (b > e) b = e
		share[o[k % n + 1]] += b - a
	}
	for (m = 0; m < n; m++) printf "%s%d", m ? " " : "", share[m]
	print ""
}')
expect_eq "$(echo "$GOT" | tr ' ' '\n' | cut -d: -f2 | tr '\n' ' ' | sed 's/ $//')" "$WANT" \
	"members discarded exactly their shares of [$S, $E)"
nz() { bds_read $DMV $(($1 * 512)) $(($2 * 512)) | tr -d '\000' | wc -c; }
naa() { bds_read $DMV $(($1 * 512)) $(($2 * 512)) | tr -d '\252' | wc -c; }
expect_eq "$(nz $S $((E - S)))" 0 "the discarded range reads as zeroes"
expect_eq "$(naa 0 $S)" 0 "the $S sectors before it keep their data"
expect_eq "$(naa $E $((16384 - E)))" 0 "the sectors after it, to 8 MiB, keep their data"
bds_dm_remove $V

pass
