#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The target reads the labels of a table's members together, not one
# member after the other: loading a table over members that are slow to
# answer waits about one read's time, not the sum (issue 39, item 6).
# A volume over A B C D, stopped; d0..d3: dm-delay devices over A..D that
# hold every read 4 s.  The volume's own table with d0..d3 in place of
# A..D is loaded; while it loads, the four delay devices are seen holding
# a read each at the same time (dm-delay's status), which one read at a
# time never gives.  The volume then maps the data written before.
#
# topology: ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1
# boot: own

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
modprobe dm-delay 2>/dev/null || true
bds_four_disks

run bdsadm create vol --chunk 64K "$A" "$B" "$C" "$D"
run dd if=/dev/urandom of=/tmp/data bs=1M count=8 status=none
run dd if=/tmp/data of=/dev/mapper/vol bs=8M oflag=direct status=none
TABLE=$(dmsetup table vol)
run bdsadm stop vol

i=0
for d in "$A" "$B" "$C" "$D"; do
	bds_dm_create "d$i" "0 $(bds_sectors "$d") delay $(bds_majmin "$d") 0 4000"
	TABLE=$(echo "$TABLE" | sed "s/ $(bds_majmin "$d") / $(bds_majmin "/dev/mapper/d$i") /")
	i=$((i + 1))
done
log "table over the delay devices: $TABLE"

# the reads dm-delay holds now on delay device $1 (its status: "<reads>
# <writes>" after the target's name)
held_reads() { dmsetup status "$1" | sed -n 's/^[0-9]* [0-9]* delay \([0-9]*\) .*/\1/p'; }
all_four_reading() {
	for _d in d0 d1 d2 d3; do
		[ "$(held_reads "$_d")" -ge 1 ] 2>/dev/null || return 1
	done
}

echo "$TABLE" | dmsetup create vol2 >/tmp/create.out 2>&1 &
CREATE=$!
check "all four members' label reads in flight together" \
	bds_wait_until 60 all_four_reading
wait "$CREATE"
expect_eq "$?" 0 "the table over the delay devices loads"
cat /tmp/create.out
run dd if=/dev/mapper/vol2 of=/tmp/back bs=8M count=1 iflag=direct status=none
check "vol2 reads back the data written through vol" cmp -s /tmp/back /tmp/data

bds_dm_remove vol2
for i in 0 1 2 3; do
	bds_dm_remove "d$i"
done
for d in "$A" "$B" "$C" "$D"; do
	bdsadm wipe "$d" >/dev/null 2>&1 || true
done
bds_expect_clean "$A" "$B" "$C" "$D"
pass
