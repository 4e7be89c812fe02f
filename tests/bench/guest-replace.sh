#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Replace: what `bdsadm replace` costs a volume in use, and how long it
# takes.  Two controllers x 2 disks of 1 GiB, every disk capped at
# 40 MB/s and every controller at 80 MB/s (10^6 bytes/s); a 3-member
# bds-stripe volume (64 KiB unit) over A, B and C, D spare.  The member
# moves C -> D -> C -> D -> C:
#   1. idle: 64 KiB random reads, then random writes, direct, qd 4,
#      BENCH_REPLACE_SECS each (case idle);
#   2. a replace with no load: its copy rate (case copy-idle, member MB
#      per second of the whole replace);
#   3. the random reads while a replace copies, then the random writes
#      during the next one (case during); each job starts once the mirror
#      is in the volume's table, and the replace must still be running
#      when it ends (info:replace_outlived_job says whether it did);
#   4. a replace under a 64 KiB random-write load (qd 1) for its whole
#      length: its copy rate (case copy-loaded).
# The ratio during/idle is the part of its bandwidth the volume keeps
# while a member is copied.  Run by tests/bench/run-bench (one vCPU).
#
# topology: size=1G ctl=80000000:2x40000000 ctl=80000000:2x40000000
# timeout: 1200
# memory: 1024
# smp: 1

. /bds/guest-lib.sh
. /bds/bin/bench-lib.sh

SECS=${BENCH_REPLACE_SECS:-5}
VOL=rv
DEV=/dev/mapper/$VOL

bds_load_module
modprobe dm-mirror 2>/dev/null || true
command -v bdsadm >/dev/null || fail "bdsadm not in the guest"
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
A=$1 B=$2 C=$3 D=$4
run bdsadm create $VOL --chunk 64K "$A" "$B" "$C"
LEN=$(dmsetup table $VOL | cut -d' ' -f2)
MEMBER_MB=$(awk -v s="$LEN" 'BEGIN { printf "%.1f", s / 3 * 512 / 1e6 }')
bench_info replace_member_mb "$MEMBER_MB"

JOB="--direct=1 --time_based --runtime=$SECS --ramp_time=$BENCH_RAMP --size=2G --randseed=9"

# now_cs: centiseconds since boot (no fork for date under busybox)
now_cs() { tr -d . </proc/uptime | cut -d' ' -f1; }

# copy_rate CASE SECONDS*100: the member's MB per second of the replace
copy_rate() {
	_r=$(awk -v mb="$MEMBER_MB" -v cs="$2" 'BEGIN { printf "%.2f", mb / (cs / 100) }')
	log "replace $1: $MEMBER_MB MB in $2 cs: $_r MB/s"
	bench_emit replace "$1" bds-stripe copy 0 0 "$_r" MBps "0 0" "0 0" "$A" "$B" "$C"
}

# replace_from OLD NEW: in the background; sets RP
replace_from() {
	bdsadm replace $VOL "$1" "$2" >"$BENCH_TMP/replace.out" 2>&1 &
	RP=$!
	_i=0
	while ! dmsetup info $VOL-replace >/dev/null 2>&1 && [ $_i -lt 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}

replace_wait() {
	wait "$RP" || { cat "$BENCH_TMP/replace.out"; fail "bdsadm replace failed"; }
}

# 1. idle
bench_fio replace idle bds-stripe $DEV randread 65536 4 "$A $B $C" -- $JOB
bench_fio replace idle bds-stripe $DEV randwrite 65536 4 "$A $B $C" -- $JOB

# 2. a replace with no load
t0=$(now_cs)
run bdsadm replace $VOL "$C" "$D"
copy_rate copy-idle $(($(now_cs) - t0))

# 3. the jobs during a replace
outlived=yes
replace_from "$D" "$C"
bench_fio replace during bds-stripe $DEV randread 65536 4 "$A $B $D" -- $JOB
kill -0 "$RP" 2>/dev/null || outlived=no
replace_wait
replace_from "$C" "$D"
bench_fio replace during bds-stripe $DEV randwrite 65536 4 "$A $B $C" -- $JOB
kill -0 "$RP" 2>/dev/null || outlived=no
replace_wait
bench_info replace_outlived_job "$outlived"

# 4. a replace under a write load for all of it
fio --name=load --filename=$DEV --rw=randwrite --bs=64k --direct=1 \
	--ioengine=psync --time_based --runtime=600 --size=2G \
	--output=/dev/null >/dev/null 2>&1 &
LOAD=$!
sleep 1
t0=$(now_cs)
run bdsadm replace $VOL "$D" "$C"
copy_rate copy-loaded $(($(now_cs) - t0))
kill "$LOAD" 2>/dev/null || true
wait "$LOAD" 2>/dev/null || true

run bdsadm stop $VOL
pass
