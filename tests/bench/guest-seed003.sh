#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# seed003 (issue 15), seed 003's lmdd block-size sweep: sequential reads
# and writes of 1 KiB to 1 MiB blocks on 8 disks with a 64 KiB unit, at
# queue depth 1, direct through the volume (csv case "direct") and
# buffered through XFS (case "xfs": a file written with the block size
# and fsync'ed at the end, then read back after drop_caches).  On the
# disk model (vm-run backing=model, L = 1000 us, disks 10 MB/s): 4
# controllers of 2 disks, 40 MB/s each (not a limit).  bds-stripe
# (bds-stripe-table), striped and md raid0 (controller order), each
# with its own XFS (mkfs.xfs takes the geometry each reports).
# Run by tests/bench/run-bench (one vCPU).
#
# topology: backing=model latency=1000 path=1000 size=1G ctl=40000000:2x10000000 ctl=40000000:2x10000000 ctl=40000000:2x10000000 ctl=40000000:2x10000000
# timeout: 7200
# memory: 1024
# smp: 1

. /bds/guest-lib.sh
. /bds/bin/bench-lib.sh

CHUNK=65536
bds_load_module
MEMBERS=$(bds_all_members | tr '\n' ' ')
MEMBERS=${MEMBERS% }
for m in $MEMBERS; do
	_q=/sys/block/$(bds_dev "$m")/queue
	cat "$_q/max_hw_sectors_kb" >"$_q/max_sectors_kb"
done
SIZES="1k 2k 4k 8k 16k 32k 64k 128k 256k 512k 1m"
FILE_MIB=128
mkdir -p /mnt/bench

runs() { # TARGET DEV
	for rw in read write; do
		for bs in $SIZES; do
			# shellcheck disable=SC2086
			bench_fio seed003 direct "$1" "$2" "$rw" "$bs" 1 "$MEMBERS" -- \
				--direct=1 --time_based --runtime=$BENCH_SECS --ramp_time=$BENCH_RAMP --size=900M
		done
	done
	mkfs.xfs -f -q "$2" || { log "mkfs.xfs $2 failed"; return 0; }
	mount -t xfs "$2" /mnt/bench || { log "mount $2 failed"; return 0; }
	bench_info "seed003_${1}_xfs_info" "$(xfs_info /mnt/bench | tr '\n' ' ')"
	for bs in $SIZES; do
		rm -f /mnt/bench/file
		sync
		# shellcheck disable=SC2086
		bench_fio seed003 xfs "$1" /mnt/bench/file write "$bs" 1 "$MEMBERS" -- \
			--direct=0 --size=${FILE_MIB}M --end_fsync=1 --runtime=$((BENCH_SECS * 3)) \
			--fallocate=none
		sync
		echo 3 >/proc/sys/vm/drop_caches
		# shellcheck disable=SC2086
		bench_fio seed003 xfs "$1" /mnt/bench/file read "$bs" 1 "$MEMBERS" -- \
			--direct=0 --size=${FILE_MIB}M --runtime=$((BENCH_SECS * 3)) --invalidate=1
	done
	umount /mnt/bench || log "umount failed"
}
bench_each_target seed003 runs --chunk 64K --disk-mbps 10 --controller-mbps 40

rmmod dm_bds_stripe || log "rmmod dm_bds_stripe failed"
pass "seed003 suite done"
