#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A member's failed cache flush is counted and reported like any other
# member error, on every kernel: the empty flush goes through the target
# (not straight to the members, as device-mapper's flush bypass would
# send it from 6.12 on, where the target never sees its result).
#   - members m0..m3 (dm-linear over the disks), volume of 64 KiB units
#     over groups (m0 m1) (m2 m3);
#   - a flush of the volume (fsync of its block device, no dirty data: one
#     empty flush per member) succeeds: health AAAA, errors 0,0,0,0;
#   - m2 switched to dm-flakey failing its writes (error_writes; an empty
#     flush is a write): a flush of the volume fails, and the volume
#     reports it against m2 alone: health AADA, m2's count at least 1,
#     the others 0, and an event; reads of every member still work.
#
# topology: ctl=2 ctl=2
# timeout: 180
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

V=fl
DMV=/dev/mapper/$V
bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
bds_linear_members "$@"
bds_dm_create $V "$(bds_stripe_table 128 /dev/mapper/m0,/dev/mapper/m1 /dev/mapper/m2,/dev/mapper/m3)"

run xfs_io -c fsync $DMV
expect_eq "$(bds_health $V)" AAAA "health after a good flush"
expect_eq "$(bds_errors $V)" "0,0,0,0" "no errors after a good flush"
EV0=$(bds_events $V)

bds_dm_switch m2 "0 $DISK_SECTORS flakey $D2 0 0 1 1 error_writes"
if xfs_io -c fsync $DMV 2>/dev/null; then
	check "a flush of the volume fails while m2 fails its writes" false
fi
expect_eq "$(bds_health $V)" AADA "m2 is reported failed"
E=$(bds_errors $V)
check "m2's flush error is counted, nobody else's ($E)" \
	sh -c "echo $E | grep -E '^0,0,[1-9][0-9]*,0\$' >/dev/null"
check "an event was raised" bds_wait_events_above $V "$EV0"
run dd if=$DMV of=/dev/null bs=256k count=4 iflag=direct status=none

bds_dm_remove $V
for m in m0 m1 m2 m3; do
	bds_dm_remove $m
done
run rmmod dm_bds_stripe
pass
