#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Polled I/O (io_uring with hipri, REQ_POLLED) and I/O that must not
# wait (REQ_NOWAIT) complete and keep their data.  device-mapper polls a polled bio through the one clone it sent;
# member requests the target built itself would sit in the members' poll
# queues with nobody polling them, so the target must send polled bios one
# stripe unit at a time through device-mapper, as striped does:
#   - 4 memory-backed null_blk members (each with a poll queue) in 2
#     groups, 64 KiB unit; the volume's queue polls (io_poll = 1);
#   - fio, io_uring, hipri, O_DIRECT, 1 MiB writes with crc32c verify,
#     queue depth 4: completes (no hang; the test's timeout would end it)
#     with no verify error;
#   - the per-group counters show one write and one read per stripe unit
#     (16 per MiB), not one per member (4 per MiB): the polled path ran;
#   - non-polled 1 MiB writes on the same volume are counted one per
#     member (4 per MiB), so the counters tell the two paths apart;
#   - 1 MiB writes and reads that must not wait (pvsync2, RWF_NOWAIT:
#     REQ_NOWAIT) complete without "would block" and with no verify
#     error, one request per stripe unit: a member request of several
#     units may exceed the member's limits, which blk-mq will not split
#     for a NOWAIT bio (it would end it EAGAIN while other members have
#     written).
# On the debug kernel (kmemleak present) the members are not memory-backed
# and fio does not verify: 6.1's null_blk allocates its backing pages
# inside its poll loop under a spinlock, which the debug kernel reports as
# sleeping in atomic context (null_blk's bug, not the target's); the
# target's polled path is still run and counted there.
#
# The test uses no disk of the topology: it declares the common 2 + 2
# one only so that it shares its boot with the tests of that topology.
#
# topology: ctl=2 ctl=2
# timeout: 240
# memory: 1024
# check-kernels: 6.1 6.12 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

V=bdspoll
DMV=/dev/mapper/$V
CHUNK=128 # sectors (64 KiB)

BACKED=1 VERIFY="--verify=crc32c --do_verify=1 --verify_fatal=1" READS=512
if [ -e /sys/kernel/debug/kmemleak ]; then
	log "debug kernel: null_blk not memory-backed, no verify (see the header)"
	BACKED=0 VERIFY="" READS=0
fi
run modprobe null_blk nr_devices=4 gb=1 memory_backed=$BACKED poll_queues=1
for i in 0 1 2 3; do
	expect_eq "$(cat /sys/block/nullb$i/queue/io_poll)" 1 "nullb$i polls"
done
bds_load_module
bds_dm_create $V "$(bds_stripe_table $CHUNK /dev/nullb0,/dev/nullb1 /dev/nullb2,/dev/nullb3)"
dm=$(grep -lx $V /sys/block/dm-*/dm/name | cut -d/ -f4)
expect_eq "$(cat "/sys/block/$dm/queue/io_poll")" 1 "the volume ($dm) polls"

# counters: reads and writes summed over the groups.
counters() {
	dmsetup status $V | awk '{ r = 0; w = 0
		for (i = 9; i < 9 + 4 * $8; i += 4) { r += $i; w += $(i + 1) }
		print r, w }'
}

expect_eq "$(counters)" "0 0" "counters start at zero"
# shellcheck disable=SC2086 # VERIFY holds several options
run fio --name=polled --filename=$DMV --ioengine=io_uring --hipri=1 \
	--direct=1 --rw=write --bs=1M --size=32M --iodepth=4 \
	$VERIFY --output=/tmp/fio.out
cat /tmp/fio.out
expect_eq "$(counters)" "$READS 512" "polled: one request per stripe unit"

bds_dm_remove $V
bds_dm_create $V "$(bds_stripe_table $CHUNK /dev/nullb0,/dev/nullb1 /dev/nullb2,/dev/nullb3)"
run fio --name=plain --filename=$DMV --ioengine=psync --direct=1 \
	--rw=write --bs=1M --size=32M --output=/tmp/fio2.out
expect_eq "$(counters)" "0 128" "not polled: one write per member"

bds_dm_remove $V
bds_dm_create $V "$(bds_stripe_table $CHUNK /dev/nullb0,/dev/nullb1 /dev/nullb2,/dev/nullb3)"
# shellcheck disable=SC2086 # VERIFY holds several options
run fio --name=nowait --filename=$DMV --ioengine=pvsync2 --nowait=1 \
	--direct=1 --rw=write --bs=1M --size=32M $VERIFY --output=/tmp/fio3.out
cat /tmp/fio3.out
expect_eq "$(counters)" "$READS 512" "nowait: one request per stripe unit"

bds_dm_remove $V
run rmmod dm_bds_stripe
run rmmod null_blk
pass "polled and nowait I/O go unit by unit and complete"
