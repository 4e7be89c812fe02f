#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm grow NAME --add restripes a mounted weighted XFS volume onto
# one more disk while files are written, with the weights of the whole
# set chosen as the volume's were (by capacity: the labels keep how).
# A 128 MiB and a 256 MiB disk on controller 0 (A B), a 256 MiB disk on
# controller 1 (C):
#  - bdsadm create vol --weights capacity A B (the 256 MiB disk's weight
#    about twice the other's); examine says "Weights mode : capacity";
#    mkfs.xfs, mount, 16 files of 4 MiB with their md5 sums;
#  - "grow vol --add C --weights bandwidth" is refused, saying a new
#    disk has no speed, changing nothing (the table, the
#    generation);
#  - "grow vol --add C", without --weights, runs while a writer adds 8
#    files: it says the weights are by capacity, as the volume's were;
#    exit 0, done; the table has 3 members in groups 2 + 1,
#    the 256 MiB disks' weights equal and about twice the other's, no
#    restripe; the volume grew by at least 60 %; the
#    labels' generation is one more, and the new disk's says "Weights
#    mode : capacity" too;
#  - every file has its md5 sum; xfs_growfs grows the file system; one
#    stripe unit of each file's data, read through the volume, lies
#    where the new table puts it (the status's slot order and each
#    member's rank in it, the table's offsets), read from the members
#    with O_DIRECT;
#  - after umount, stop and assemble, the same table comes back.
#
# topology: ctl=1/size=128M+1/size=256M ctl=1/size=256M
# timeout: 420
# kernels: 6.1 7.2
# check-kernels: 6.1

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2034,SC2154
. /bds/guest-lib.sh

bds_load_module
A=/dev/bds/c0d0 B=/dev/bds/c0d1 C=/dev/bds/c1d0
for d in $A $B $C; do
	[ -b "$d" ] || fail "need 2 + 1 disks: no $d"
done
VOL=vol
DMV=/dev/mapper/$VOL
MNT=/mnt/grow

run bdsadm create $VOL --chunk 64K --weights capacity "$A" "$B"
# weights W0,W1: the words after "weights" in the table
weights_of() { dmsetup table $VOL | sed -n 's/.* weights \([0-9,]*\).*/\1/p'; }
W2=$(weights_of)
log "weights $W2"
check "the volume has weights, the 256 MiB disk's about twice the other's ($W2)" \
	sh -c "[ $((${W2#*,} * 10 / ${W2%,*})) -ge 19 ]"
check "examine says the weights are by capacity" sh -c "bdsadm examine $A | grep '^ *Weights mode : capacity ' >/dev/null"
run mkfs.xfs -q $DMV
mkdir -p $MNT
run mount -t xfs $DMV $MNT
bds_random_files $MNT old 16
sync
(cd $MNT && md5sum old.* >/tmp/all.md5) || fail "md5sum failed"
TABLE0=$(dmsetup table $VOL)
GEN0=$(bds_gen_of "$A")
LEN0=$(bds_sectors $DMV)

if bdsadm grow $VOL --add "$C" --weights bandwidth >/tmp/grow.out 2>&1; then
	check "--weights bandwidth without speeds: refused" false
fi
cat /tmp/grow.out
check "--weights bandwidth: says a new disk has no speed" grep -qF "needs every member's speed, and a new disk has none" /tmp/grow.out
expect_eq "$(dmsetup table $VOL)" "$TABLE0" "--weights bandwidth: the table is unchanged"
expect_eq "$(bds_gen_of "$A")" "$GEN0" "--weights bandwidth: the labels are unchanged"

bds_random_files $MNT new 8 fsync &
WRITER=$!
bdsadm grow $VOL --add "$C" >/tmp/grow.out 2>&1
rc=$?
cat /tmp/grow.out
wait $WRITER || fail "the writer failed"
expect_eq "$rc" 0 "bdsadm grow --add without --weights: exit status"
check "it says the weights are by capacity, as the volume's were" grep -qF "the new set's weights by capacity, as the volume's were chosen" /tmp/grow.out
check "it says done" grep -qF "bdsadm: grow $VOL: done:" /tmp/grow.out
sync
(cd $MNT && md5sum new.* >>/tmp/all.md5) || fail "md5sum failed"

# shellcheck disable=SC2046 # the table's words
set -- $(dmsetup table $VOL)
log "table: $*"
expect_eq "$5 $6 ${11}" "2 2 1" "3 members in groups 2 + 1"
W3=$(weights_of)
check "the new weights give the two 256 MiB disks the same, twice the other's ($W3)" \
	sh -c "[ ${W3#*,*,} = \$(echo $W3 | cut -d, -f2) ] && [ $((${W3#*,*,} * 10 / ${W3%%,*})) -ge 19 ]"
check "no restripe in the table" sh -c "! dmsetup table $VOL | grep -w reshape >/dev/null"
LEN=$2
expect_eq "$(bds_sectors $DMV)" "$LEN" "the volume's length is the table's"
check "the volume grew by at least 60 % ($LEN0 -> $LEN sectors)" \
	sh -c "[ $((LEN * 10 / LEN0)) -ge 16 ]"
expect_eq "$(bds_gen_of "$A")" $((GEN0 + 1)) "the labels' generation is one more"
expect_eq "$(bds_gen_of "$C")" $((GEN0 + 1)) "the new disk carries it too"
check "the new disk's label keeps the weights mode" sh -c "bdsadm examine $C | grep '^ *Weights mode : capacity ' >/dev/null"

echo 3 >/proc/sys/vm/drop_caches
check "every file keeps its data" sh -c "cd $MNT && md5sum -c /tmp/all.md5 >/dev/null"
run xfs_growfs $MNT
SIZE_KB=$(df -k $MNT | awk 'NR == 2 { print $2 }')
check "xfs_growfs grew the file system ($SIZE_KB KiB)" sh -c "[ $SIZE_KB -gt $((LEN0 * 3 / 4)) ]"

bds_units_where_table_says $VOL 128 $MNT/*

TABLE1=$(dmsetup table $VOL)
run umount $MNT
run bdsadm stop $VOL
run bdsadm assemble $VOL
expect_eq "$(dmsetup table $VOL)" "$TABLE1" "assemble gives the same table"
run bdsadm stop $VOL
bds_expect_clean "$A" "$B" "$C"
pass
