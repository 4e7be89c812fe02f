#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CPU cost per I/O, deterministic: run by tests/bench/run-bench with
# vm-run --icount (one virtual ns = one guest instruction), so fio's
# 1e9 / IOPS is instructions per I/O.  Eight null_blk members (no
# memory backing, completions inline: irqmode=0, no I/O scheduler), a
# 64 KiB stripe unit; instructions per I/O = fio's mean latency per I/O
# (see bench-lib.sh); raw null_blk (one member), dm linear (one member),
# striped, bds-stripe (two groups of four, as two controllers) and md
# raid0 (mdadm --build), each with the same fio jobs.  fio buffers are in
# huge pages, so a 1 MiB bio carries one or two bvecs, not 256.
# bds-stripe-w (issue 14): the same two groups with weights
# 2,1,1,1,2,1,1,1 (a cycle of 10 units), the 4 KiB random read job only:
# the cost of the weighted mapping against unit weights.
#
# topology:
# timeout: 900
# memory: 1024

. /bds/guest-lib.sh
. /bds/bin/bench-lib.sh

# read by bench_fio (bench-lib.sh)
# shellcheck disable=SC2034
BENCH_ICOUNT=1
# I/Os per job (override with BENCH_CPU_SCALE=0.5 etc. from the host).
SCALE=${BENCH_CPU_SCALE:-1}
n_ios() { awk -v n="$1" -v s="$SCALE" 'BEGIN { x = int(n * s); if (x < 10) x = 10; print x }'; }

bds_load_module
# max_sectors: the default (255 sectors, 124 KiB requests) would split
# every larger request in null_blk itself and hide what the targets do;
# 65535 gives 32 MiB requests (max_hw_sectors_kb is recorded below).
run modprobe null_blk nr_devices=8 queue_mode=2 irqmode=0 no_sched=1 \
	submit_queues=1 gb=64 bs=4096 max_sectors=65535
MEMBERS=""
i=0
while [ "$i" -lt 8 ]; do
	[ -b /dev/nullb$i ] || fail "/dev/nullb$i missing"
	q=/sys/block/nullb$i/queue
	cat "$q/max_hw_sectors_kb" >"$q/max_sectors_kb"
	MEMBERS="$MEMBERS /dev/nullb$i"
	i=$((i + 1))
done
MEMBERS=${MEMBERS# }
bench_info null_blk_max_sectors_kb "$(cat /sys/block/nullb0/queue/max_sectors_kb)"
bench_info null_blk_max_segments "$(cat /sys/block/nullb0/queue/max_segments)"
bench_info null_blk_scheduler "$(cat /sys/block/nullb0/queue/scheduler)"

echo 32 >/proc/sys/vm/nr_hugepages
bench_info hugepages "$(cat /proc/sys/vm/nr_hugepages)"
MEM=--mem=mmaphuge
[ "$(cat /proc/sys/vm/nr_hugepages)" -ge 8 ] || { MEM=""; log "no huge pages: fio buffers in small pages"; }

# jobs: "case rw bs ios"
JOBS="4k-randread:randread:4k:$(n_ios 3000)
4k-randwrite:randwrite:4k:$(n_ios 3000)
1m-read:read:1M:$(n_ios 300)
1m-write:write:1M:$(n_ios 300)
4m-read:read:4M:$(n_ios 100)
4m-write:write:4M:$(n_ios 100)"

run_jobs() { # TARGET DEV MEMBERS [JOBS]
	for j in ${4:-$JOBS}; do
		c=${j%%:*}; r=${j#*:}
		rw=${r%%:*}; r=${r#*:}
		bs=${r%%:*}; ios=${r#*:}
		# shellcheck disable=SC2086
		bench_fio cpu "$c" "$1" "$2" "$rw" "$bs" 1 "$3" -- \
			--direct=1 --size=16G --number_ios="$ios" --norandommap \
			--randrepeat=1 --clocksource=clock_gettime $MEM
	done
}

# raw null_blk: one member
run_jobs raw /dev/nullb0 /dev/nullb0

# dm linear over one member
echo "0 $(bds_sectors /dev/nullb0) linear $(bds_majmin /dev/nullb0) 0" | dmsetup create lin ||
	fail "dmsetup create lin"
run_jobs linear /dev/mapper/lin /dev/nullb0
bench_dm_remove lin

# striped over 8, 64 KiB
# shellcheck disable=SC2086
bench_striped_table 128 $MEMBERS | dmsetup create str || fail "dmsetup create str"
run_jobs striped /dev/mapper/str "$MEMBERS"
bench_dm_remove str

# bds-stripe, two groups of four (two "controllers"), 64 KiB
g0="/dev/nullb0,/dev/nullb1,/dev/nullb2,/dev/nullb3"
g1="/dev/nullb4,/dev/nullb5,/dev/nullb6,/dev/nullb7"
bds_stripe_table 128 "$g0" "$g1" | dmsetup create bds || fail "dmsetup create bds"
bench_info bds_table "$(dmsetup table bds)"
run_jobs bds-stripe /dev/mapper/bds "$MEMBERS"
bench_dm_remove bds

# bds-stripe with weights, the same groups: 4 KiB random reads
WTBL=$(bds_stripe_table 128 "$g0" "$g1" | bench_weigh_table 2,1,1,1,2,1,1,1) ||
	fail "weighted table"
echo "$WTBL" | dmsetup create bds || fail "dmsetup create bds (weights): $WTBL"
bench_info bds_w_table "$(dmsetup table bds)"
run_jobs bds-stripe-w /dev/mapper/bds "$MEMBERS" "$(echo "$JOBS" | grep '^4k-randread:')"
bench_dm_remove bds

# md raid0 over 8, 64 KiB chunk
# shellcheck disable=SC2086
if bench_md_build 64 $MEMBERS; then
	run_jobs md-raid0 /dev/md0 "$MEMBERS"
	bench_md_stop
fi

rmmod dm_bds_stripe || log "rmmod dm_bds_stripe failed"
pass "cpu suite done"
