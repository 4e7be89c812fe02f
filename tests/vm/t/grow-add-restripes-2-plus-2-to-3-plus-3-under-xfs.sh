#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm grow NAME --add restripes a mounted XFS volume onto more disks
# while files are written, and the result is the volume bdsadm create
# would make of all of them.  Six 256 MiB disks on two controllers
# (A B E on controller 0, C D F on controller 1):
#  - bdsadm create vol --chunk 64K A B C D (2 + 2), mkfs.xfs, mount,
#    32 files of 4 MiB with their md5 sums;
#  - refused, each naming the device, changing nothing (the table and
#    the labels' generation as they were): adding a member of the
#    volume, and a disk that holds an XFS file system (without --force);
#  - "grow vol --add E F --force" (E still holds the partition table)
#    runs while a writer adds 16 files: exit 0, it says done and gives
#    the xfs_growfs step; E's partition table is gone (--force erases the
#    new disks' signatures, as create --force does);
#  - the table has 6 members in groups 3 + 3, interleaved, no restripe;
#    the volume's length is what the labels give, optimal_io_size is 6
#    units, the labels' generation is one more;
#  - every file, old and new, has its md5 sum; xfs_growfs grows the file
#    system; one stripe unit of each file's data, read through the
#    volume, lies where the new table puts it (the status order, the
#    table's offsets), read from its member with O_DIRECT
#    (bds_units_where_table_says);
#  - after umount, stop and assemble, the same table comes back.
#
# topology: size=256M ctl=3 ctl=3
# timeout: 600
# check-kernels: 6.1

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2034,SC2154
. /bds/guest-lib.sh

bds_load_module
A=/dev/bds/c0d0 B=/dev/bds/c0d1 E=/dev/bds/c0d2
C=/dev/bds/c1d0 D=/dev/bds/c1d1 F=/dev/bds/c1d2
for d in $A $B $C $D $E $F; do
	[ -b "$d" ] || fail "need 3 + 3 disks: no $d"
done
VOL=vol
DMV=/dev/mapper/$VOL
MNT=/mnt/grow
CB=65536

gen_of() { bds_gen_of "$1"; }

run bdsadm create $VOL --chunk 64K "$A" "$B" "$C" "$D"
run mkfs.xfs -q $DMV
mkdir -p $MNT
run mount -t xfs $DMV $MNT
bds_random_files $MNT old 32
sync
(cd $MNT && md5sum old.* >/tmp/old.md5) || fail "md5sum failed"
TABLE0=$(dmsetup table $VOL)
GEN0=$(gen_of "$A")

# refused_grow DESC WHY DEVICE...: grow refuses, naming WHY; nothing changes.
refused_grow() {
	_d=$1 _why=$2
	shift 2
	if bdsadm grow $VOL --add "$@" >/tmp/grow.out 2>&1; then
		check "$_d: refused" false
	fi
	cat /tmp/grow.out
	check "$_d: says '$_why'" grep -qF -- "$_why" /tmp/grow.out
	expect_eq "$(dmsetup table $VOL)" "$TABLE0" "$_d: the table is unchanged"
	expect_eq "$(gen_of "$A")" "$GEN0" "$_d: the labels are unchanged"
}
refused_grow "a member of the volume" "$A is member 0 of the volume already" "$A"
echo 'label: dos' | sfdisk -q "$E" || fail "sfdisk on E failed"
refused_grow "a disk that holds a partition table" "refusing to add devices that hold data" "$E" "$F"

# the writer: 16 more files while the restripe runs
bds_random_files $MNT new 16 fsync &
WRITER=$!
bdsadm grow $VOL --add "$E" "$F" --force >/tmp/grow.out 2>&1
rc=$?
cat /tmp/grow.out
expect_eq "$rc" 0 "bdsadm grow --add exit status"
check "it says done" grep -qF "bdsadm: grow $VOL: done:" /tmp/grow.out
check "it gives the xfs_growfs step" grep -qF "xfs_growfs" /tmp/grow.out
wait $WRITER || fail "the writer failed"
sync
(cd $MNT && md5sum new.* >/tmp/new.md5) || fail "md5sum failed"

# shellcheck disable=SC2046 # the table's words
set -- $(dmsetup table $VOL)
expect_eq "$3 $4 $5 $6 ${13} ${20} ${21}" "bds-stripe 128 2 3 3 2 volume" \
	"6 members in groups 3 + 3, interleaved, labelled, no restripe"
LEN=$2
expect_eq "$(bds_sectors $DMV)" "$LEN" "the volume's length is the table's"
expect_eq "$(bds_queue $DMV optimal_io_size)" $((6 * CB)) "optimal_io_size is 6 units"
expect_eq "$(gen_of "$A")" $((GEN0 + 1)) "the labels' generation is one more"
expect_eq "$(gen_of "$F")" $((GEN0 + 1)) "the new disks carry it too"
check "--force erased E's partition table (blkid sees the label only)" \
	sh -c "! blkid -p -o export $E | grep -E '^PTTYPE=' >/dev/null"

echo 3 >/proc/sys/vm/drop_caches
check "the old files keep their data" sh -c "cd $MNT && md5sum -c /tmp/old.md5 >/dev/null"
check "the files written during the restripe keep theirs" sh -c "cd $MNT && md5sum -c /tmp/new.md5 >/dev/null"
run xfs_growfs $MNT
SIZE_KB=$(df -k $MNT | awk 'NR == 2 { print $2 }')
check "xfs_growfs grew the file system ($SIZE_KB KiB)" sh -c "[ $SIZE_KB -gt $((1024 * 1024 + 256 * 1024)) ]"

# one unit of each file's data, through the volume and from its member
bds_units_where_table_says $VOL 128 $MNT/*

TABLE1=$(dmsetup table $VOL)
run umount $MNT
run bdsadm stop $VOL
run bdsadm assemble $VOL
expect_eq "$(dmsetup table $VOL)" "$TABLE1" "assemble gives the same table"
run bdsadm stop $VOL
bds_expect_clean "$A" "$B" "$C" "$D" "$E" "$F"
pass
