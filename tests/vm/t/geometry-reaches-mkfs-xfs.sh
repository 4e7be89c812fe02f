#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The stripe geometry reaches the block layer and, through it, mkfs.xfs:
# for every volume below, /sys/block/dm-N/queue/minimum_io_size is the
# stripe unit in bytes (chunk x 512), optimal_io_size is the stripe width
# (chunk x 512 x N) and chunk_sectors is the chunk; `mkfs.xfs -f` given no
# stripe option then reports sunit = chunk and swidth = chunk x N in 4 KiB
# filesystem blocks, and so does xfs_info on the mounted filesystem.
#
#   64 KiB x 8 members, 2 groups (4 + 4)       sunit=16  swidth=128
#   96 KiB x 5 members, 3 groups (2 + 2 + 1)   sunit=24  swidth=120
#   512 KiB x 3 members, 3 groups of 1         sunit=128 swidth=384
#   512 KiB x 3 members, 1 group of 3          sunit=128 swidth=384
#
# Every volume is >= 3 GiB (mkfs.xfs ignores the geometry below 1 GiB).
# The disks are sparse files: only metadata is ever written.
#
# Disks: A, the four of controller 0, and B, the two of controller 1 and
# the two of controller 2 (the 4 + 2 + 2 topology of placement-matches-
# layout, whose boot the test shares); the tables group them explicitly,
# so which controller a disk is on does not matter here.
#
# topology: ctl=4 ctl=2 ctl=2
# timeout: 300
# memory: 1536
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=geom
DM=/dev/mapper/$VOL
MNT=/mnt/geom

# sunit_swidth FILE: "SUNIT SWIDTH" of the data section of mkfs.xfs or
# xfs_info output (the first sunit=/swidth= pair; the log's comes later).
sunit_swidth() {
	sed -n 's/.*sunit=\([0-9]*\)[[:space:]]*swidth=\([0-9]*\) blks.*/\1 \2/p' "$1" |
		sed -n 1p
}

# bsize FILE: data block size from mkfs.xfs / xfs_info output.
data_bsize() {
	sed -n 's/^data[[:space:]]*=.*bsize=\([0-9]*\).*/\1/p' "$1" | sed -n 1p
}

# geometry NAME CHUNK GROUP...: build the volume, check the queue limits,
# mkfs.xfs, mount, xfs_info, unmount, remove.
geometry() {
	_name=$1
	_ck=$2
	shift 2
	_nm=0
	for _g in "$@"; do
		_nm=$((_nm + $(echo "$_g" | tr , '\n' | wc -l)))
	done
	_table=$(bds_stripe_table "$_ck" "$@") || fail "$_name: cannot build the table"
	bds_dm_create $VOL "$_table"
	_len=$(bds_sectors $DM)
	log "$_name: $(bds_dev $DM), $_len sectors, status: $(dmsetup status $VOL)"
	check "$_name: volume is at least 1 GiB" [ "$_len" -ge 2097152 ]

	expect_eq "$(bds_queue $DM minimum_io_size)" $((_ck * 512)) \
		"$_name: minimum_io_size = chunk x 512"
	expect_eq "$(bds_queue $DM optimal_io_size)" $((_ck * 512 * _nm)) \
		"$_name: optimal_io_size = chunk x 512 x $_nm"
	expect_eq "$(bds_queue $DM chunk_sectors)" "$_ck" \
		"$_name: queue chunk_sectors = chunk"

	# Filesystem blocks are 4 KiB: a chunk of C sectors is C / 8 blocks.
	_su=$((_ck / 8))
	_sw=$((_ck * _nm / 8))
	if ! mkfs.xfs -f $DM >/tmp/mkfs.out 2>&1; then
		cat /tmp/mkfs.out
		fail "$_name: mkfs.xfs failed"
	fi
	cat /tmp/mkfs.out
	expect_eq "$(data_bsize /tmp/mkfs.out)" 4096 "$_name: mkfs.xfs block size"
	expect_eq "$(sunit_swidth /tmp/mkfs.out)" "$_su $_sw" \
		"$_name: mkfs.xfs sunit swidth (blocks)"

	run mount -t xfs $DM $MNT
	if command -v xfs_info >/dev/null 2>&1; then
		if xfs_info $MNT >/tmp/info.out 2>&1; then
			cat /tmp/info.out
			expect_eq "$(sunit_swidth /tmp/info.out)" "$_su $_sw" \
				"$_name: xfs_info sunit swidth (blocks)"
		else
			cat /tmp/info.out
			check "$_name: xfs_info runs" false
		fi
	else
		log "$_name: no xfs_info in the guest, skipping that check"
	fi
	run umount $MNT
	bds_dm_remove $VOL
	check "$_name: volume removed" [ ! -e $DM ]
}

bds_load_module
mkdir -p $MNT

A=$(bds_members 0 | tr '\n' ' ')
B=$({ bds_members 1; bds_members 2; } | tr '\n' ' ')
# shellcheck disable=SC2086
set -- $A
a0=$1 a1=$2 a2=$3 a3=$4
# shellcheck disable=SC2086
set -- $B
b0=$1 b1=$2 b2=$3 b3=$4
if [ -z "$a3" ] || [ -z "$b3" ]; then
	fail "need 4 + 4 disks, have: $A / $B"
fi

geometry "64K x 8 (4+4)" 128 "$a0,$a1,$a2,$a3" "$b0,$b1,$b2,$b3"
geometry "96K x 5 (2+2+1)" 192 "$a0,$a1" "$b0,$b1" "$a2"
geometry "512K x 3 (1+1+1)" 1024 "$a0" "$b0" "$a1"
geometry "512K x 3 (3)" 1024 "$b1,$a3,$b2"

run rmmod dm_bds_stripe
pass "geometry reaches the queue limits, mkfs.xfs and xfs_info"
