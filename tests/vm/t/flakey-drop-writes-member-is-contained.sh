#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A member under dm-flakey in drop_writes mode loses writes silently: the
# target cannot see that (the write completes without error), so what it
# can promise is checked instead: nothing hangs, nothing is reported that
# did not happen, and every unit written through the volume lands exactly
# where the layout says, on the healthy members intact.
# (member-failure-is-contained covers the error target and flakey's
# error_writes mode.)
#
# Each of four members is its own dm device (m0..m3) over a disk; the
# volume is a 64 KiB unit over groups (m0 m1) (m2 m3), order 0,2,1,3.
# 32 units of data A are written and read back; then m1 is switched to
# "flakey ... 0 1 1 drop_writes" (down all the time) and 32 units of data
# B are written through the volume (direct, then fsync and a flush):
#   - every write and the flush complete, with success, within a bound;
#   - the health string stays AAAA (no error was seen, none is invented)
#     and the event number is unchanged;
#   - reading the volume: units on m1 still hold A (their writes were
#     dropped), all others hold B;
#   - the raw disks, read directly at the member sectors the layout gives
#     for each unit (offset + (k div 4) x chunk), hold the same: B on the
#     disks of m0, m2, m3, A on m1's disk;
#   - fio write+verify (crc32c) confined to one stripe unit of m0 (the
#     unit range of a healthy member, every 4th unit) passes while m1
#     drops writes;
#   - with m1 back to linear, a unit on m1 takes a write again;
#   - the volume is removed, nothing holds the members, the module
#     unloads.
#
# topology: size=512M backing=file ctl=2 ctl=2
# timeout: 240
# memory: 1024
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=fd
DM=/dev/mapper/$VOL
CHUNK=128			# 64 KiB
UNIT=$((CHUNK * 512))
NUNITS=32

bds_load_module
modprobe dm-flakey 2>/dev/null
dmsetup targets | grep '^flakey' >/dev/null || fail "dm-flakey is not available in the guest"

# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
DISKS="$*"
bds_linear_members "$@"
MLEN=$((DISK_SECTORS / CHUNK * CHUNK))
bds_dm_create $VOL "0 $((MLEN * 4)) bds-stripe $CHUNK 2 \
2 $(bds_majmin /dev/mapper/m0) 0 $(bds_majmin /dev/mapper/m1) 0 \
2 $(bds_majmin /dev/mapper/m2) 0 $(bds_majmin /dev/mapper/m3) 0"
expect_eq "$(dmsetup status $VOL | cut -d' ' -f7)" "0,2,1,3" "order"

head -c $((NUNITS * UNIT)) /dev/urandom >/tmp/a
head -c $((NUNITS * UNIT)) /dev/urandom >/tmp/b
run dd if=/tmp/a of=$DM bs=$UNIT count=$NUNITS oflag=direct status=none
dd if=$DM of=/tmp/r bs=$UNIT count=$NUNITS iflag=direct status=none
check "data A reads back" cmp -s /tmp/a /tmp/r

# --- m1 drops writes ---------------------------------------------------------------
bds_dm_switch m1 "0 $DISK_SECTORS flakey $D1 0 0 1 1 drop_writes"
ev0=$(bds_events $VOL)
timeout -s KILL 60 dd if=/tmp/b of=$DM bs=$UNIT count=$NUNITS oflag=direct conv=fsync \
	status=none
rc=$?
check "writing B completes (no hang)" [ "$rc" != 137 ]
expect_eq "$rc" 0 "writing B succeeds (the drop is invisible to the target)"
timeout -s KILL 60 blockdev --flushbufs $DM
check "a flush completes" [ "$?" = 0 ]
sync
expect_eq "$(bds_health $VOL)" AAAA "health: no error seen, none reported"
expect_eq "$(bds_events $VOL)" "$ev0" "event number unchanged"

rm -f /tmp/r
timeout -s KILL 60 dd if=$DM of=/tmp/r bs=$UNIT count=$NUNITS iflag=direct status=none
check "reading the volume back succeeds" [ "$?" = 0 ]
k=0
while [ "$k" -lt $NUNITS ]; do
	m=$(bds_unit_member $k 0,2,1,3)
	if [ "$m" = 1 ]; then
		want=$(bds_unit_md5 /tmp/a $k $UNIT) what="A (write dropped)"
	else
		want=$(bds_unit_md5 /tmp/b $k $UNIT) what=B
	fi
	expect_eq "$(bds_unit_md5 /tmp/r $k $UNIT)" "$want" "volume unit $k (m$m) holds $what"
	# The member disk itself, at the member sector the layout gives.
	eval "disk=\$DISK$m"
	msec=$((k / 4 * CHUNK))
	# shellcheck disable=SC2154 # set by the eval above
	expect_eq "$(bds_md5 "$disk" $((msec * 512)) $UNIT)" "$want" \
		"disk of m$m, sector $msec: unit $k holds $what"
	k=$((k + 1))
done

# fio write+verify on units of m0 only: unit 4j (+ 0..63 KiB) is on m0.
# Four jobs, one per unit 4j, j = 40..43, each confined to its unit.
args=""
for j in 40 41 42 43; do
	args="$args --name=u$j --offset=$((4 * j * UNIT)) --size=$UNIT"
done
# shellcheck disable=SC2086
timeout -s KILL 120 fio --filename=$DM --ioengine=libaio --iodepth=4 --direct=1 \
	--rw=randwrite --bs=4k --verify=crc32c --do_verify=1 --verify_fatal=1 \
	--loops=4 --output-format=terse --terse-version=3 $args >/tmp/fio.out 2>&1
rc=$?
grep -Ei 'error|verify|bad' /tmp/fio.out | sed -n 1,5p
expect_eq "$rc" 0 "fio write+verify on m0's units while m1 drops writes"
expect_eq "$(bds_health $VOL)" AAAA "health after fio"

# --- m1 back ---------------------------------------------------------------------------
bds_dm_switch m1 "0 $DISK_SECTORS linear $D1 0"
head -c $UNIT /dev/urandom >/tmp/new
run dd if=/tmp/new of=$DM bs=$UNIT seek=2 count=1 oflag=direct conv=notrunc status=none
check "unit 2 (m1) takes a write again" \
	[ "$(bds_md5 $DM $((2 * UNIT)) $UNIT)" = "$(md5sum </tmp/new | cut -d' ' -f1)" ]

if dmsetup remove $VOL; then rc=0; else rc=1; fi
check "volume removed" [ "$rc" = 0 ]
[ -e $DM ] && bds_dm_remove $VOL
for i in 0 1 2 3; do
	bds_dm_remove m$i
done
# shellcheck disable=SC2086
bds_expect_clean $DISKS
pass "drop_writes under a member: no hang, no false report, layout exact"
