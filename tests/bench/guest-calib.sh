#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# calib: the disk model of the seed suites (issue 15; vm-run's
# "backing=model", tests/vm/disk-model.c) checked against its formula.
#  1. One disk (L = 1000 us, 10 MB/s, no controller limit), direct
#     sequential reads at queue depth 1 of 4 KiB to 2.5 MiB: each must
#     follow size / (L + size / bandwidth) within 10 % (csv case "disk";
#     the report draws both).
#     The same sweep on a model disk with no time at all (L = 0, no
#     bandwidth limit; csv case "zero") gives what the path itself costs
#     per request (guest, QEMU's NBD client, nbdkit), o(size): the report
#     sets it beside the formula.
#  2. The shared controller: two disks (10 MB/s each) on one controller of
#     15 MB/s, read together with 1 MiB transfers at queue depth 1 each,
#     then one alone (csv case "ctl-both" and "ctl-one", MB/s summed over
#     the disks): the pair must stay within 10 % of 15 MB/s, above one
#     disk's 10.
#  3. The missed revolution (issue 38; rotation=4000): one disk (L =
#     1000 us, R = 4000 us, 10 MB/s), direct sequential reads at queue
#     depth 1: 16 KiB (csv case "rot-one"), each request finding the disk
#     idle and paying L as without rotation, then 32 KiB with the disk's
#     max_sectors_kb at 16 (case "rot-split"): the block layer sends two
#     16 KiB requests at once, as striped sends a disk its units, and the
#     second, queued behind the first, waits R instead of L.  Within
#     10 % of 16 KiB / (L + 16 KiB / bandwidth) and 32 KiB / (L + R +
#     32 KiB / bandwidth): 3.96 MB/s.  Without the missed revolution
#     the second would pay L instead, and the pair would read at
#     32 KiB / (2 L + 32 KiB / bandwidth): 6.21 MB/s, 57 % faster.
# Run by tests/bench/run-bench (one vCPU).
#
# topology: backing=model latency=1000 path=1000 size=1G ctl=1x10000000 ctl=15000000:2x10000000 latency=0 ctl=1 latency=1000 rotation=4000 ctl=1x10000000
# timeout: 1200
# memory: 1024
# smp: 1

. /bds/guest-lib.sh
. /bds/bin/bench-lib.sh

DISK=$(bds_members 0)
ZERO=$(bds_members 2)
ROT=$(bds_members 3)
set -- $(bds_members 1)
C1=$1 C2=$2
# no request cut below what is asked (the model charges L per request)
for d in $DISK $C1 $C2 $ZERO $ROT; do
	_q=/sys/block/$(bds_dev "$d")/queue
	cat "$_q/max_hw_sectors_kb" >"$_q/max_sectors_kb"
	bench_info "calib_max_sectors_kb_$(bds_dev "$d")" "$(cat "$_q/max_sectors_kb")"
done
FIO="--direct=1 --time_based --runtime=$BENCH_SECS --ramp_time=$BENCH_RAMP --size=512M"

for bs in 4k 8k 16k 32k 64k 128k 256k 512k 1m 2m 2560k; do
	# shellcheck disable=SC2086
	bench_fio calib disk raw "$DISK" read "$bs" 1 "$DISK" -- $FIO
	# shellcheck disable=SC2086
	bench_fio calib zero raw "$ZERO" read "$bs" 1 "$ZERO" -- $FIO
done

# two disks of one controller at once: two fio jobs, one per disk
pair() { # CASE DEV...
	_case=$1
	shift
	bench_stat_files "$@"
	_b=$(bench_stat)
	_args=""
	for _d in "$@"; do
		_args="$_args --name=d --filename=$_d"
	done
	# shellcheck disable=SC2086
	fio --rw=read --bs=1m --ioengine=psync --iodepth=1 --thread --disk_util=0 \
		--group_reporting --output-format=json --output="$BENCH_TMP/fio.json" \
		$FIO $_args >"$BENCH_TMP/fio.out" 2>&1 ||
		{ log "fio failed ($_case): $(tail -n 3 "$BENCH_TMP/fio.out" | tr '\n' ' ')"; return 0; }
	_a=$(bench_stat)
	_v=$(bench_fio_value "$BENCH_TMP/fio.json" read mbps) || { log "no bandwidth ($_case)"; return 0; }
	# shellcheck disable=SC2086
	bench_emit calib "$_case" raw read 1048576 1 "$_v" MBps "$_b" "$_a" "$@"
}
pair ctl-both "$C1" "$C2"
pair ctl-one "$C1"
# shellcheck disable=SC2086
bench_fio calib rot-one raw "$ROT" read 16k 1 "$ROT" -- $FIO
echo 16 >"/sys/block/$(bds_dev "$ROT")/queue/max_sectors_kb"
# shellcheck disable=SC2086
bench_fio calib rot-split raw "$ROT" read 32k 1 "$ROT" -- $FIO
pass "calib suite done"
