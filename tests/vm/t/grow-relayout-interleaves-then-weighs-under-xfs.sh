#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm grow NAME --layout and --weights restripe a mounted XFS volume
# over the same disks while files are written: a sequential volume
# becomes controller-interleaved (forward), then takes its disks'
# weights (backward).  Two controllers, each with a 128 MiB disk and a
# 256 MiB one (A B on controller 0, C D on 1):
#  - bdsadm create vol --layout sequential A B C D (equal shares of
#    128 MiB), mkfs.xfs, mount, 24 files of 4 MiB with their md5 sums;
#  - refused, changing nothing (the table and the labels' generation):
#    weights on a sequential volume; "--layout sequential" has nothing to
#    do and exits 0;
#  - "grow vol --layout interleave" runs while a writer adds 8 files:
#    exit 0, done; forward (member 0's data moves down into the room
#    below it); the table says interleave, no restripe, the same length;
#    the generation is the same (no member came or went); bdsadm
#    monitor, running, reports RestripeStarted and RestripeFinished to
#    its --program;
#  - "grow vol --weights capacity" with a writer: backward (no room below
#    the data now, the room above it; member 0's data moves up), the
#    256 MiB disks weigh 2 (the table's "weights 1,2,1,2"), the volume no
#    shorter, the same generation;
#  - every file keeps its md5 sum after each step; one stripe unit of
#    each file's data, read through the volume, lies where the final
#    table puts it (the status's member order, the table's offsets),
#    read from the members with O_DIRECT;
#  - after umount, stop and assemble, the same table comes back.
#
# topology: ctl=1/size=128M+1/size=256M ctl=1/size=128M+1/size=256M
# timeout: 600
# check-kernels: 6.1

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2034,SC2154
. /bds/guest-lib.sh

bds_load_module
A=/dev/bds/c0d0 B=/dev/bds/c0d1 C=/dev/bds/c1d0 D=/dev/bds/c1d1
for d in $A $B $C $D; do
	[ -b "$d" ] || fail "need 2 + 2 disks: no $d"
done
VOL=vol
DMV=/dev/mapper/$VOL
MNT=/mnt/grow

# writer PREFIX: 8 files of 4 MiB in the background; WRITER is its pid.
writer() {
	bds_random_files $MNT "$1" 8 fsync &
	WRITER=$!
}

# verify: every file written so far has its md5 sum, read from the disks.
verify() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	check "$1: every file keeps its data" sh -c "cd $MNT && md5sum -c /tmp/all.md5 >/dev/null"
}

# grow_ok DESC ARGS...: bdsadm grow vol ARGS, with a writer; exit 0, done.
grow_ok() {
	_d=$1
	shift
	writer "$_d"
	bdsadm grow $VOL "$@" >/tmp/grow.out 2>&1
	_rc=$?
	cat /tmp/grow.out
	wait $WRITER || fail "$_d: the writer failed"
	expect_eq "$_rc" 0 "$_d: bdsadm grow $* exit status"
	check "$_d: it says done" grep -qF "bdsadm: grow $VOL: done:" /tmp/grow.out
	sync
	(cd $MNT && md5sum "$_d".* >>/tmp/all.md5) || fail "md5sum failed"
}

run bdsadm create $VOL --chunk 64K --layout sequential "$A" "$B" "$C" "$D"
run mkfs.xfs -q $DMV
mkdir -p $MNT
run mount -t xfs $DMV $MNT
bds_random_files $MNT old 24
sync
(cd $MNT && md5sum old.* >/tmp/all.md5) || fail "md5sum failed"
TABLE0=$(dmsetup table $VOL)
GEN0=$(bds_gen_of "$A")
# off0: member 0's data offset in the table
off0() { dmsetup table $VOL | awk '{ print $8 }'; }
OFF0=$(off0)
LEN0=$(bds_sectors $DMV)
check "the volume starts sequential" sh -c "dmsetup table $VOL | grep -w sequential >/dev/null"

if bdsadm grow $VOL --weights 2,1,1,1 >/tmp/grow.out 2>&1; then
	check "weights on a sequential volume: refused" false
fi
cat /tmp/grow.out
check "weights on a sequential volume: says the geometry is refused" \
	grep -qF "the new geometry is refused" /tmp/grow.out
expect_eq "$(dmsetup table $VOL)" "$TABLE0" "weights refused: the table is unchanged"
expect_eq "$(bds_gen_of "$A")" "$GEN0" "weights refused: the labels are unchanged"
bdsadm grow $VOL --layout sequential >/tmp/grow.out 2>&1
rc=$?
cat /tmp/grow.out
expect_eq "$rc" 0 "--layout sequential on a sequential volume: exit status"
check "--layout sequential: nothing to do" grep -qF "nothing to do" /tmp/grow.out
expect_eq "$(dmsetup table $VOL)" "$TABLE0" "nothing to do: the table is unchanged"

# bdsadm monitor reports the restripe: its --program logs the events
cat >/tmp/prog.sh <<'PROG'
#!/bin/sh
echo "$*" >>/tmp/events
PROG
chmod +x /tmp/prog.sh
: >/tmp/events
bdsadm monitor --foreground --rescan 1 --program /tmp/prog.sh >/tmp/mon.out 2>&1 &
MON=$!
check "the monitor watches the volume" bds_wait_text 10 /tmp/mon.out "monitoring 1 bds-stripe volume"

grow_ok inter --layout interleave
check "the monitor reported RestripeStarted" bds_wait_text 10 /tmp/events "RestripeStarted $VOL"
check "the monitor reported RestripeFinished" bds_wait_text 10 /tmp/events "RestripeFinished $VOL"
kill $MON
wait $MON
cat /tmp/mon.out
check "interleaved: the table says so" sh -c "! dmsetup table $VOL | grep -w sequential >/dev/null"
check "interleaved: no restripe in the table" sh -c "! dmsetup table $VOL | grep -w reshape >/dev/null"
check "interleaved: restriped forward" grep -qF "restriping forward" /tmp/grow.out
expect_eq "$(bds_sectors $DMV)" "$LEN0" "interleaved: the same length"
OFF1=$(off0)
check "interleaved: member 0's data moved down ($OFF0 -> $OFF1)" [ "$OFF1" -lt "$OFF0" ]
expect_eq "$(bds_gen_of "$A")" "$GEN0" "interleaved: the same generation"
verify interleaved

# new weights: no room below the data now, the room above it
grow_ok weigh --weights capacity
check "weighed: restriped backward" grep -qF "restriping backward" /tmp/grow.out
check "weighed: the 256 MiB disks weigh 2 (weights 1,2,1,2)" \
	sh -c "dmsetup table $VOL | grep 'weights 1,2,1,2' >/dev/null"
LEN=$(bds_sectors $DMV)
check "weighed: no shorter ($LEN0 -> $LEN sectors)" [ "$LEN" -ge "$LEN0" ]
OFF2=$(off0)
check "weighed: member 0's data moved up ($OFF1 -> $OFF2)" [ "$OFF2" -gt "$OFF1" ]
expect_eq "$(bds_gen_of "$A")" "$GEN0" "weighed: the same generation"
verify weighed

SLOTS=$(dmsetup status $VOL | awk '{ print $7 }')
expect_eq "$(echo "$SLOTS" | tr ',' '\n' | wc -l)" 6 "the cycle has 6 slots (1 + 2 + 1 + 2)"
bds_units_where_table_says $VOL 128 $MNT/*

TABLE1=$(dmsetup table $VOL)
run umount $MNT
run bdsadm stop $VOL
run bdsadm assemble $VOL
expect_eq "$(dmsetup table $VOL)" "$TABLE1" "assemble gives the same table"
run bdsadm stop $VOL
bds_expect_clean "$A" "$B" "$C" "$D"
pass
