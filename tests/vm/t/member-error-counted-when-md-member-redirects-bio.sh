#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A member that is an md array is counted for its own errors.  md (raid0,
# linear) sends the bio it receives on to its own disk (bio_set_dev() on
# it), so when the bio comes back failed its device is no longer the
# member's: the target must know the member from its own records, not from
# the bio's device.
#   - member 0 is /dev/md0, an md raid0 of one device over a dm device
#     "fl" (linear over a disk); member 1 a disk; 64 KiB unit, two groups
#     of one (unit 0 on md0, unit 1 on the disk);
#   - two units written and read back: health AA, errors 0,0;
#   - "fl" switched to the error target: a direct write of unit 0 fails,
#     and the volume reports it against member 0: health DA, errors 1,0,
#     and an event; a write of unit 1 (the disk) still succeeds;
#   - the volume, md0 and fl are removed, the module unloads.
#
# topology: ctl=2 ctl=2
# timeout: 180
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

V=mdm
DMV=/dev/mapper/$V
D0=/dev/bds/c0d0 D1=/dev/bds/c1d0
UNIT=65536

bds_load_module
S=$(bds_sectors $D0)
bds_dm_create fl "0 $S linear $D0 0"
run mdadm --create /dev/md0 --run --force --level=0 --raid-devices=1 \
	--metadata=1.2 /dev/mapper/fl
bds_dm_create $V "$(bds_stripe_table 128 /dev/md0 $D1)"
expect_eq "$(dmsetup status $V | cut -d' ' -f7)" "0,1" "unit 0 on md0, unit 1 on the disk"

dd if=/dev/urandom of=/tmp/a bs=$UNIT count=2 status=none || fail "no test data"
run dd if=/tmp/a of=$DMV bs=$UNIT count=2 oflag=direct status=none
dd if=$DMV of=/tmp/r bs=$UNIT count=2 iflag=direct status=none || fail "read failed"
check "two units read back" cmp -s /tmp/a /tmp/r
expect_eq "$(bds_health $V)" AA "health before the error"
expect_eq "$(bds_errors $V)" "0,0" "no errors before"
EV0=$(bds_events $V)

run dmsetup suspend fl
run dmsetup reload fl --table "0 $S error"
run dmsetup resume fl
if dd if=/tmp/a of=$DMV bs=$UNIT count=1 oflag=direct status=none 2>/dev/null; then
	check "a write of unit 0 through the failed md0 fails" false
fi
expect_eq "$(bds_health $V)" DA "member 0 (md0) is reported failed"
expect_eq "$(bds_errors $V)" "1,0" "its error is counted against it"
check "an event was raised" bds_wait_events_above $V "$EV0"
run dd if=/tmp/a of=$DMV bs=$UNIT seek=1 skip=1 count=1 oflag=direct conv=notrunc status=none

bds_dm_remove $V
run mdadm --stop /dev/md0
bds_dm_remove fl
run rmmod dm_bds_stripe
pass
