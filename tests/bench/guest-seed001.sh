#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# seed001 (issue 15), seed 001's LVM/DM scaling thread: volumes of 1 to
# 10 disks with a 16 KiB stripe unit, sequential transfers of 1, 2, 3 and
# 4 x 16 KiB per disk (csv case "n<disks>-w<wraps>", BS = the transfer).
# On the disk model (vm-run backing=model, L = 1000 us, disks 10 MB/s,
# controllers 15 MB/s): 8 controllers, 6 with one disk and 2 with two.
# Volumes of 1 to 8 disks take one disk of each controller (each on its
# own controller); 9 adds the second disk of controller 6 (one controller
# shared), 10 that of controller 7 too (two shared), as in the thread's
# volumes 9 and 10.  Direct reads at queue depth 1 on bds-stripe
# (bds-stripe-table over the volume's disks), striped and md raid0 (the
# disks in controller order).
#
# The model's limits: striped and md raid0 send one request per unit, so
# each disk serves w requests of L + 1.64 ms per transfer; bds-stripe one
# request of L + w x 1.64 ms.  Striped is flat in w, bds-stripe rises.
# Run by tests/bench/run-bench (one vCPU).
#
# topology: backing=model latency=1000 path=1000 size=1G ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:2x10000000 ctl=15000000:2x10000000
# timeout: 5400
# memory: 1024
# smp: 1

. /bds/guest-lib.sh
. /bds/bin/bench-lib.sh

# the csv suite name (guest-seed001rot.sh sets its own and sources this)
SUITE=${SEED001_SUITE:-seed001}
CHUNK=16384
bds_load_module
# the first disk of each controller, then the second disks
FIRST="" SECOND=""
c=0
while [ "$c" -lt "$(bds_controllers)" ]; do
	set -- $(bds_members "$c")
	FIRST="$FIRST $1"
	[ $# -gt 1 ] && SECOND="$SECOND $2"
	c=$((c + 1))
done
for m in $FIRST $SECOND; do
	_q=/sys/block/$(bds_dev "$m")/queue
	cat "$_q/max_hw_sectors_kb" >"$_q/max_sectors_kb"
done
FIO="--direct=1 --time_based --runtime=$BENCH_SECS --ramp_time=$BENCH_RAMP --size=900M"

runs() { # TARGET DEV
	for w in 1 2 3 4; do
		# shellcheck disable=SC2086
		bench_fio "$SUITE" "n$N-w$w" "$1" "$2" read $((w * CHUNK * N)) 1 "$MEMBERS" -- $FIO
	done
}
N=1
while [ "$N" -le 10 ]; do
	# controller order: the volume's disks sorted by controller
	MEMBERS=""
	i=0
	for m in $FIRST; do
		[ "$i" -lt "$N" ] && [ "$i" -lt 8 ] && MEMBERS="$MEMBERS $m"
		i=$((i + 1))
		if [ "$i" = 7 ] && [ "$N" -ge 9 ]; then
			MEMBERS="$MEMBERS $(echo $SECOND | cut -d' ' -f1)"
		fi
		if [ "$i" = 8 ] && [ "$N" -ge 10 ]; then
			MEMBERS="$MEMBERS $(echo $SECOND | cut -d' ' -f2)"
		fi
	done
	MEMBERS=${MEMBERS# }
	log "volume of $N disks: $MEMBERS"
	bench_info "${SUITE}_n${N}_members" "$MEMBERS"
	bench_each_target "${SUITE}_n$N" runs --chunk 16K --disk-mbps 10 --controller-mbps 15
	N=$((N + 1))
done

rmmod dm_bds_stripe || log "rmmod dm_bds_stripe failed"
pass "$SUITE suite done"
