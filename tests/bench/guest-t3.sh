#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# T3, unequal member sizes (issue 14): 2 controllers x 4 disks, on each
# controller two disks of 1 GiB and two of 2 GiB (12 GiB in all), every
# disk capped at 20 MB/s, controllers at 80 MB/s (10^6 bytes/s).  64 KiB
# unit.  Targets: bds-stripe-cap (bds-stripe-table --weights capacity:
# weights 1 and 2, the whole 12 GiB), md raid0 (mdadm --build with
# raid0.default_layout=2: zones, the whole 12 GiB, the last 4 GiB on the
# 4 large disks only) and
# bds-stripe with unit weights (8 x 1 GiB).  For each: the capacity used
# (volume size / sum of the member sizes, csv case "capacity", unit pct)
# and sequential direct reads of 3 MiB at queue depth 4, time-based over
# a 1 GiB region at 9 offsets from the start to the end of the volume
# (csv case "at-<offset MiB>"; 0 = start, the 5th = middle, the last =
# end).  Limits: unit weights 8 x 20 = 160 MB/s; capacity weights: the
# large disks carry 2 of 12 units, 20 x 12 / 2 = 120 MB/s everywhere;
# md raid0: 160 MB/s in its first 8 GiB, 80 MB/s in the last 4 GiB.
# Run by tests/bench/run-bench (one vCPU).
#
# topology: backing=null ctl=80000000:2x20000000/size=1G+2x20000000/size=2G ctl=80000000:2x20000000/size=1G+2x20000000/size=2G
# timeout: 1200
# memory: 1024
# smp: 1

. /bds/guest-lib.sh
. /bds/bin/bench-lib.sh

CHUNK=65536
BS=3M
REGION=1073741824
POINTS=8
bds_load_module
MEMBERS=$(bds_all_members | tr '\n' ' ')
MEMBERS=${MEMBERS% }
SUM=0
for m in $MEMBERS; do
	SUM=$((SUM + $(bds_sectors "$m")))
done
bench_info t3_member_sectors "$SUM"
log "members (controller order): $MEMBERS; $SUM sectors in all"

runs() { # TARGET DEV
	_vs=$(bds_sectors "$2")
	bench_info "t3_${1}_sectors" "$_vs"
	# shellcheck disable=SC2086 # one word per member
	bench_emit t3 capacity "$1" size 0 0 \
		"$(awk -v a="$_vs" -v b="$SUM" 'BEGIN { printf "%.2f", 100 * a / b }')" pct \
		"0 0" "0 0" $MEMBERS
	_vb=$((_vs * 512))
	_span=$((_vb - REGION))
	_al=3145728
	_i=0
	while [ "$_i" -le "$POINTS" ]; do
		# region start: i/POINTS of the way, a whole number of 3 MiB
		_off=$(awk -v s="$_span" -v i="$_i" -v p="$POINTS" -v a="$_al" \
			'BEGIN { printf "%.0f\n", int(s / p * i / a) * a }')
		# shellcheck disable=SC2086
		bench_fio t3 "at-$((_off / 1048576))" "$1" "$2" read "$BS" 4 "$MEMBERS" -- \
			--direct=1 --time_based --runtime="$BENCH_SECS" --ramp_time="$BENCH_RAMP" \
			--offset="$_off" --size="$REGION"
		_i=$((_i + 1))
	done
}

bench_bds_target t3cap bds-stripe-cap runs capacity --chunk 64K
bench_bds_target t3eq bds-stripe runs "" --chunk 64K

# md raid0 over members of unequal sizes has several zones, which the
# kernel refuses to assemble without a layout (raid0.default_layout):
# 2, the alternate multi-zone layout
modprobe raid0 2>/dev/null || log "modprobe raid0 failed"
if [ -w /sys/module/raid0/parameters/default_layout ]; then
	echo 2 >/sys/module/raid0/parameters/default_layout
	bench_info t3_md_default_layout "$(cat /sys/module/raid0/parameters/default_layout)"
else
	log "no /sys/module/raid0/parameters/default_layout"
fi
# shellcheck disable=SC2086
if bench_md_build $((CHUNK / 1024)) $MEMBERS; then
	runs md-raid0 /dev/md0
	bench_md_stop
fi

rmmod dm_bds_stripe || log "rmmod dm_bds_stripe failed"
pass "t3 suite done"
