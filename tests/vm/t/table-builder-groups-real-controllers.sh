#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/bds-stripe-table, run in the guest on the disks the guest really
# has, groups them by the virtio-scsi controller (SCSI host) they hang
# off, creates a volume whose table and order match that grouping, and
# refuses a mounted member without creating anything.
#
# topology: ctl=4 ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1

. /bds/guest-lib.sh

command -v bds-stripe-table >/dev/null || fail "bds-stripe-table not in the guest (vm-run -x)"
bds_load_module

# Members in an order that is not controller order: the tool must group.
members=$(bds_interleaved)
# shellcheck disable=SC2086
run bds-stripe-table --chunk 64K --create vol $members
dm=/dev/mapper/vol
[ -b $dm ] || fail "no volume created"

# Expected table: one group per controller, members of each in the order
# given on the command line, 64 KiB unit, whole 1 GiB disks.
want_groups=""
c=0
while [ "$c" -lt "$(bds_controllers)" ]; do
	g=""
	k=0
	for m in $members; do
		case $m in /dev/bds/c${c}d*) ;; *) continue ;; esac
		g="$g $(bds_majmin "$m") 0"
		k=$((k + 1))
	done
	want_groups="$want_groups $k$g"
	c=$((c + 1))
done
len=$(( $(bds_sectors /dev/bds/c0d0) / 128 * 128 * 8 ))
expect_eq "$(dmsetup table vol)" "0 $len bds-stripe 128 3$want_groups" "table groups members by controller"
set -- $(dmsetup status vol)
expect_eq "$7" "0,4,1,6,2,5,3,7" "order of 4+2+2 controllers"
expect_eq "$(bds_queue $dm optimal_io_size)" $((8 * 65536)) "io_opt"

# Data written through the volume reads back.
dd if=/dev/urandom of=/tmp/d bs=64k count=24 status=none
run bds_write $dm 0 /tmp/d
expect_eq "$(bds_md5 $dm 0 $((24 * 65536)))" "$(md5sum </tmp/d | cut -d' ' -f1)" "data round trip"
bds_dm_remove vol

# A mounted member is refused, and nothing is created.
run mkfs.xfs -q -f /dev/bds/c1d1
mkdir -p /mnt/m
run mount -t xfs /dev/bds/c1d1 /mnt/m
# shellcheck disable=SC2086
if bds-stripe-table --chunk 64K --create vol2 $members >/tmp/out 2>&1; then
	fail "a mounted member was accepted"
fi
cat /tmp/out
check "refusal names the mounted member" grep -q "mounted" /tmp/out
check "nothing was created" sh -c '! dmsetup info vol2 >/dev/null 2>&1'
run umount /mnt/m

run rmmod dm_bds_stripe
pass
