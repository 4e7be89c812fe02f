#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# seed000 (issue 15), seed 000's BDSpro rule: a 10-disk volume with a
# 64 KiB stripe unit keeps every drive busy only with transfers of a
# stripe width (640 KiB) or more; at 320 KiB five drives work and
# throughput halves.  On the disk model (vm-run backing=model): 10 disks
# on 5 controllers, every disk L = 1000 us per request and 10 MB/s, the
# controllers at 40 MB/s (not a limit: 2 x 10).  Direct sequential reads
# and writes at queue depth 1 of 64 KiB to 2.5 MiB, on bds-stripe
# (bds-stripe-table), striped and md raid0 (controller order).
#
# The model's limits at queue depth 1 (one request of T = L + s / 10 MB/s
# per disk and unit run): a transfer of k units on n = min(k, 10) disks
# takes ceil(k / 10) unit times on striped and md raid0 (one request
# per unit), and L + ceil(k / 10) x 6.55 ms on bds-stripe (one request
# per disk): the same below 640 KiB, rising above it for bds-stripe only.
# Measured (developer guide, make bench): at whole widths the block layer merges striped's and
# md's per-unit clones on each member, so they too pay one L per member
# there and bds-stripe leads by only 2-4 %; it leads by 8-9 % at 768 and
# 960 KiB, where they are not merged.
# Run by tests/bench/run-bench (one vCPU).
#
# topology: backing=model latency=1000 path=1000 size=1G ctl=40000000:2x10000000 ctl=40000000:2x10000000 ctl=40000000:2x10000000 ctl=40000000:2x10000000 ctl=40000000:2x10000000
# timeout: 3600
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
log "members (controller order): $MEMBERS"
FIO="--direct=1 --time_based --runtime=$BENCH_SECS --ramp_time=$BENCH_RAMP --size=900M"
# KiB: 1 to 10 units, then 1.2 to 4 stripe widths
SIZES="64 128 192 320 448 640 768 960 1280 1600 1920 2560"

runs() { # TARGET DEV
	for rw in read write; do
		for k in $SIZES; do
			# shellcheck disable=SC2086
			bench_fio seed000 seq "$1" "$2" "$rw" "${k}k" 1 "$MEMBERS" -- $FIO
		done
	done
}
bench_each_target seed000 runs --chunk 64K --disk-mbps 10 --controller-mbps 40

rmmod dm_bds_stripe || log "rmmod dm_bds_stripe failed"
pass "seed000 suite done"
