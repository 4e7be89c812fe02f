#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Grow: how fast `bdsadm grow --add` restripes, against the bound the
# throttles set, and what it costs a volume in use.  Two controllers x 3
# disks of 512 MiB, every disk capped at 40 MB/s and every controller at
# 80 MB/s (10^6 bytes/s).  Each grow starts from a new 2 + 2 volume
# (64 KiB unit) over A B (controller 0) and C D (controller 1) and adds E
# (controller 0) and F (controller 1): 3 + 3.
#   1. idle: 64 KiB random reads, then random writes, direct, qd 4,
#      BENCH_REPLACE_SECS each (case idle), on the 2 + 2 volume;
#   2. a grow with no load (case copy-idle: old volume MB per second of
#      the whole grow, labels and reload included).  The bound: every
#      byte is read once from its old place and written once to its new
#      one, so each controller moves the old volume's size (its two old
#      members' shares read, its three members' new shares written),
#      at most 80 MB/s: old volume MB / (old volume MB / 80) = 80 MB/s
#      (info:grow_bound_mbps); the disks (40 MB/s) bound it less;
#   3. a grow with --rate 20 (case copy-rate20), to be within 10 % of 20;
#   4. the random reads, then the random writes, while a grow runs at
#      full rate (case during), and at half the bound, --rate 40 (case
#      during-half); each job starts once the restripe's table is live,
#      and the grow must still be running when it ends
#      (info:grow_outlived_job says whether every one did).
# The four steps run BENCH_GROW_ROUNDS times (default 3), one after the
# other, so that drift in the host's load hits every case alike; each
# round emits its own csv lines, and the report gives each figure's
# median with its min-max.
# Run by tests/bench/run-bench (one vCPU).
#
# topology: size=512M ctl=80000000:3x40000000 ctl=80000000:3x40000000
# timeout: 3600
# memory: 1024
# smp: 1

. /bds/guest-lib.sh
. /bds/bin/bench-lib.sh

SECS=${BENCH_REPLACE_SECS:-5}
VOL=gv
DEV=/dev/mapper/$VOL

bds_load_module
command -v bdsadm >/dev/null || fail "bdsadm not in the guest"
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 6 ] || fail "need 3 + 3 disks, have: $*"
A=$1 B=$2 E=$3 C=$4 D=$5 F=$6

JOB="--direct=1 --time_based --runtime=$SECS --ramp_time=$BENCH_RAMP --size=1G --randseed=9"

# now_cs: centiseconds since boot (no fork for date under busybox)
now_cs() { tr -d . </proc/uptime | cut -d' ' -f1; }

# fresh: a new 2 + 2 volume over A B C D, E and F blank.
fresh() {
	if dmsetup info $VOL >/dev/null 2>&1; then
		run bdsadm stop $VOL
	fi
	for _d in "$A" "$B" "$C" "$D" "$E" "$F"; do
		bdsadm wipe "$_d" >/dev/null 2>&1 || true
		wipefs -a -q "$_d" 2>/dev/null || true
	done
	run bdsadm create $VOL --chunk 64K "$A" "$B" "$C" "$D"
	OLD_MB=$(awk -v s="$(dmsetup table $VOL | cut -d' ' -f2)" 'BEGIN { printf "%.1f", s * 512 / 1e6 }')
}

# copy_rate CASE CENTISECONDS: the old volume's MB per second of the grow
copy_rate() {
	_r=$(awk -v mb="$OLD_MB" -v cs="$2" 'BEGIN { printf "%.2f", mb / (cs / 100) }')
	log "grow $1: $OLD_MB MB in $2 cs: $_r MB/s"
	bench_emit grow "$1" bds-stripe copy 0 0 "$_r" MBps "0 0" "0 0" "$A" "$B" "$C" "$D" "$E" "$F"
}

# grow_bg [--rate R]: grow in the background (GP); returns once the
# restripe's table is live.
grow_bg() {
	bdsadm grow $VOL --add "$E" "$F" "$@" >"$BENCH_TMP/grow.out" 2>&1 &
	GP=$!
	_i=0
	while ! dmsetup table $VOL 2>/dev/null | grep ' reshape ' >/dev/null; do
		kill -0 "$GP" 2>/dev/null || break
		[ $_i -lt 600 ] || fail "the restripe's table never came"
		sleep 0.05
		_i=$((_i + 1))
	done
}

grow_wait() {
	wait "$GP" || { cat "$BENCH_TMP/grow.out"; fail "bdsadm grow failed"; }
}

# during CASE [--rate R]: random reads, then random writes, during a grow
during() {
	_case=$1
	shift
	fresh
	grow_bg "$@"
	bench_fio grow "$_case" bds-stripe $DEV randread 65536 4 "$A $B $C $D $E $F" -- $JOB
	bench_fio grow "$_case" bds-stripe $DEV randwrite 65536 4 "$A $B $C $D $E $F" -- $JOB
	kill -0 "$GP" 2>/dev/null || outlived=no
	grow_wait
}

ROUNDS=${BENCH_GROW_ROUNDS:-3}
fresh
bench_info grow_old_mb "$OLD_MB"
bench_info grow_bound_mbps 80
bench_info grow_rounds "$ROUNDS"
outlived=yes
round=1
while [ $round -le "$ROUNDS" ]; do
	log "grow bench: round $round of $ROUNDS"
	# 1. idle
	fresh
	bench_fio grow idle bds-stripe $DEV randread 65536 4 "$A $B $C $D" -- $JOB
	bench_fio grow idle bds-stripe $DEV randwrite 65536 4 "$A $B $C $D" -- $JOB

	# 2. a grow with no load
	t0=$(now_cs)
	run bdsadm grow $VOL --add "$E" "$F"
	copy_rate copy-idle $(($(now_cs) - t0))

	# 3. --rate 20
	fresh
	t0=$(now_cs)
	run bdsadm grow $VOL --add "$E" "$F" --rate 20
	copy_rate copy-rate20 $(($(now_cs) - t0))

	# 4. the jobs during a grow, at full and at half rate
	during during
	during during-half --rate 40
	round=$((round + 1))
done
bench_info grow_outlived_job "$outlived"

run bdsadm stop $VOL
pass
