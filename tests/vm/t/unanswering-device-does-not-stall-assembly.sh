#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A device whose reads never answer (a dm-delay device over D with a delay
# of an hour: a dead disk, a path that queues) costs assembly its read
# time limit and no more.  A volume over A B C; beside it, "slow":
#  - assemble --scan returns, names slow as not answering and left out,
#    and assembles the volume; so do examine and incremental of slow
#    (each bounded), and incremental of a member;
#  - every run is waited for with a deadline, never a sleep.
# Then slow's delay is flushed (a suspend releases what dm-delay holds)
# and everything goes.
#
# topology: ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1
# boot: own

# shellcheck disable=SC1091,SC2154 # within_rc: set by bds_within
. /bds/guest-lib.sh

bds_load_module
modprobe dm-delay 2>/dev/null || true
bds_four_disks

run bdsadm create vol --chunk 64K "$A" "$B" "$C"
run bdsadm stop vol
S=$(bds_sectors "$D")
bds_dm_create slow "0 $S delay $(bds_majmin "$D") 0 3600000"
SLOW=/dev/$(bds_dev /dev/mapper/slow)

bds_within 60 bdsadm assemble --scan
expect_eq "$within_rc" 0 "assemble --scan: done"
check "assemble --scan: slow named as not answering" \
	grep -qE "$SLOW: did not answer within 10 s; left out" /tmp/within.out
check "assemble --scan: vol assembled beside it" dmsetup info vol
run bdsadm stop vol
bds_within 30 bdsadm examine /dev/mapper/slow
check "examine slow: bounded, and says so" grep -qF "did not answer within 10 s" /tmp/within.out
bds_within 30 bdsadm incremental /dev/mapper/slow
check "incremental slow: bounded, and says so" grep -qF "did not answer within 10 s" /tmp/within.out
bds_within 60 bdsadm incremental "$A"
bds_within 60 bdsadm incremental "$B"
bds_within 60 bdsadm incremental "$C"
check "incremental of the members: vol assembled" dmsetup info vol
run bdsadm stop vol

# release what dm-delay holds: a suspend flushes its queue
run dmsetup suspend slow
run dmsetup resume slow
bds_dm_remove slow
for d in "$A" "$B" "$C"; do
	bdsadm wipe "$d" >/dev/null 2>&1 || true
done
bds_expect_clean "$A" "$B" "$C" "$D"
pass
