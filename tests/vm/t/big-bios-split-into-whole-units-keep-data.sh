#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A read or write that spans several stripe units reaches each member as
# one request carrying all of that member's units.  A member request holds
# at most 256 bvecs: when one would need more, the target takes only the
# whole units that fit and device-mapper hands it the rest as a new bio.
# This test forces that path and checks that nothing is lost or misplaced:
#   - 2 groups of 1 member, 4 KiB stripe unit; fio writes 64 MiB in 4 MiB
#     O_DIRECT requests from a hugepage buffer (one bio of a few physically
#     contiguous bvecs per request), so each member's share of a request is
#     512 units of one bvec each: every request must reach the members as
#     exactly 4 requests (2 per member) of 256 units, and the per-group
#     counters must show 32 writes and 32 reads per group, 64 MiB in all;
#   - fio's crc32c verify reads every block back through the same path;
#   - stripe units read directly from the members hold exactly the volume's
#     units the layout puts there (unit k on member k mod 2, at member
#     offset (k div 2) * 4 KiB), across the 1 MiB and 2 MiB boundaries where
#     the requests were cut.
#
# The volume is c0d0 and c1d0 of the common 2 + 2 topology (the other two
# disks stay unused), so that the test shares its boot with the others of
# that topology.
#
# topology: ctl=2 ctl=2
# timeout: 240
# memory: 1024
# check-kernels: 6.1 6.12 7.2 debug

# shellcheck disable=SC1091
. /bds/guest-lib.sh

V=bdsbig
DMV=/dev/mapper/$V
CHUNK=8 # sectors (4 KiB)

bds_load_module
A=/dev/bds/c0d0
B=/dev/bds/c1d0
bds_dm_create $V "$(bds_stripe_table $CHUNK $A $B)"
expect_eq "$(dmsetup status $V | awk '{ print $5, $7 }')" "AA 0,1" "health and order"

# fio's shmhuge buffer needs reserved huge pages (4 MiB buffer, 2 MiB pages);
# they are given back at the end (a test may share its boot).
HUGE0=$(cat /proc/sys/vm/nr_hugepages)
echo 8 >/proc/sys/vm/nr_hugepages
expect_eq "$(cat /proc/sys/vm/nr_hugepages)" 8 "huge pages reserved"

run fio --name=big --filename=$DMV --rw=write --bs=4M --size=64M --direct=1 \
	--ioengine=psync --mem=shmhuge --verify=crc32c --do_verify=1 \
	--verify_fatal=1 --output=/tmp/fio.out
cat /tmp/fio.out
check "fio reports no verify error" sh -c '! grep -qi "verify.*fail\|bad magic\|crc32c.*wanted" /tmp/fio.out'

# shellcheck disable=SC2046 # the counters are separate words
set -- $(dmsetup status $V | awk '{ for (i = 9; i <= 8 + 4 * $8; i++) printf "%s ", $i }')
expect_eq "$*" "32 32 65536 65536 32 32 65536 65536" \
	"per group: reads, writes, sectors read, sectors written"

for k in 0 1 2 3 255 256 257 511 512 513 1023 1024 1025 16383; do
	m=$A
	[ $((k % 2)) -eq 1 ] && m=$B
	expect_eq "$(bds_md5 $m $((k / 2 * 4096)) 4096)" "$(bds_md5 $DMV $((k * 4096)) 4096)" \
		"unit $k is on member $((k % 2)) at $((k / 2 * 4096))"
done

bds_dm_remove $V
run rmmod dm_bds_stripe
echo "$HUGE0" >/proc/sys/vm/nr_hugepages
pass "big bios split into whole units keep their data"
