# SPDX-License-Identifier: GPL-2.0
#
# bench-lib.sh - guest-side helpers of the benchmark (make bench), sourced
# after /bds/guest-lib.sh by the guest scripts in tests/bench/.  POSIX sh
# (busybox ash).  run-bench puts it in the guest as /bds/bin/bench-lib.sh.
#
# Every figure is printed as one line on the console:
#
#   csv:SUITE,CASE,TARGET,RW,BS,QD,VALUE,UNIT,MEMBERS,MIB,REQS,REQS_PER_MIB
#
#   SUITE   cpu | t1 | t2 | t3 | buffered | replace
#   CASE    what was measured (4k-randread, seq, aligned, ra-auto, ...;
#           t3: capacity, at-<region offset in MiB>)
#   TARGET  raw | linear | striped | bds-stripe | md-raid0; with weights
#           (issue 14) bds-stripe-w (listed or bandwidth weights) and
#           bds-stripe-cap (capacity weights)
#   RW      fio rw (read, write, randread, randwrite)
#   BS      transfer size in bytes; QD queue depth
#   VALUE   instructions per I/O (UNIT instr, icount guests) or MB/s
#           (UNIT MBps, 10^6 bytes/s), or for t3 capacity the volume's
#           size in per cent of the members' (UNIT pct)
#   MEMBERS number of member disks
#   MIB     MiB the members transferred during the run (sectors from
#           /sys/block/<member>/stat)
#   REQS    requests the members completed during the run (reads + writes)
#   REQS_PER_MIB  REQS / MIB: requests the members served per MiB they
#           transferred, the same for each member when the load is even
#           (1024 / the mean request size in KiB: one 64 KiB stripe unit
#           per request gives 16)

BENCH_SECS=${BENCH_SECS:-2}
# ramp-up before each measured bandwidth run (fio time: 500ms, 1s): QEMU's
# throttle lets about 100 ms worth of bytes through at once after idling
BENCH_RAMP=${BENCH_RAMP:-500ms}
BENCH_TMP=/tmp/bench
mkdir -p "$BENCH_TMP"

# bench_stat_files MEMBER...: remember the members' stat files (resolving
# names costs forks, slow under TCG; done once per member list, in the
# current shell).  bench_stat: "requests sectors" summed over them (stat
# fields: 1 reads completed, 3 sectors read, 5 writes completed, 7
# sectors written).
BENCH_STAT_FOR=""
BENCH_STAT_FILES=""
bench_stat_files() {
	[ "$*" = "$BENCH_STAT_FOR" ] && return 0
	BENCH_STAT_FILES=""
	for _m in "$@"; do
		BENCH_STAT_FILES="$BENCH_STAT_FILES /sys/block/$(bds_dev "$_m")/stat"
	done
	BENCH_STAT_FOR="$*"
}
bench_stat() {
	# shellcheck disable=SC2086
	awk '{ r += $1 + $5; s += $3 + $7 } END { printf "%d %d\n", r, s }' $BENCH_STAT_FILES
}

# bench_fio_value JSONFILE RW MODE: from fio's JSON output, MODE "iops"
# (the I/Os per second of the read or write side), "lat" (mean latency in
# ns, lat_ns.mean) or "mbps" (bytes/s / 10^6).  Read side for
# read/randread, write side otherwise.
bench_fio_value() {
	case "$2" in
	*read) _side="read" ;;
	*) _side="write" ;;
	esac
	awk -v side="$_side" -v mode="$3" '
		/"read" : \{/ { cur = "read" }
		/"write" : \{/ { cur = "write" }
		/"trim" : \{/ { cur = "trim" }
		/"sync" : \{/ { cur = "sync" }
		cur == side && /"lat_ns" : \{/ { inlat = 1 }
		cur == side && inlat && /"mean" :/ && lat == "" {
			v = $0; sub(/.*"mean" : /, "", v); sub(/,.*/, "", v); lat = v
		}
		cur == side && /"iops" :/ && iops == "" {
			v = $0; sub(/.*"iops" : /, "", v); sub(/,.*/, "", v); iops = v
		}
		cur == side && /"bw_bytes" :/ && bw == "" {
			v = $0; sub(/.*"bw_bytes" : /, "", v); sub(/,.*/, "", v); bw = v
		}
		END {
			if (mode == "iops" && iops != "") printf "%.6f\n", iops
			else if (mode == "lat" && lat != "") printf "%.1f\n", lat
			else if (mode == "mbps" && bw != "") printf "%.2f\n", bw / 1e6
			else exit 1
		}' "$1"
}

# bench_emit SUITE CASE TARGET RW BS QD VALUE UNIT BEFORE AFTER MEMBER...
# BEFORE/AFTER: "requests sectors" from bench_stat.
bench_emit() {
	_s=$1 _c=$2 _t=$3 _rw=$4 _bs=$5 _qd=$6 _v=$7 _u=$8 _b=$9
	shift 9
	_a=$1
	shift
	_n=$#
	# shellcheck disable=SC2086
	set -- $_b $_a
	awk -v s="$_s" -v c="$_c" -v t="$_t" -v rw="$_rw" -v bs="$_bs" \
		-v qd="$_qd" -v v="$_v" -v u="$_u" -v n="$_n" \
		-v r0="$1" -v s0="$2" -v r1="$3" -v s1="$4" 'BEGIN {
		reqs = r1 - r0; mib = (s1 - s0) / 2048
		per = (mib > 0) ? reqs / mib : 0
		printf "csv:%s,%s,%s,%s,%s,%s,%s,%s,%d,%.2f,%d,%.3f\n",
			s, c, t, rw, bs, qd, v, u, n, mib, reqs, per
	}'
}

# bench_fio SUITE CASE TARGET DEV RW BS QD MEMBERS -- FIO-ARGS...
# One fio job on DEV (direct I/O unless FIO-ARGS say otherwise); emits a
# csv line with MB/s, or with instructions per I/O when BENCH_ICOUNT=1.
# MEMBERS is a space-separated list of member device paths.  With
# BENCH_REPEAT=N (bandwidth only) the job runs N times and the best run
# is kept: host load under TCG only ever lowers a bandwidth figure.
# With BENCH_RETRY_BELOW=X (MB/s), a run below X is repeated once and
# the better of the two kept (the same reasoning, for the points that
# need it only; both values are logged as info:runs:...).
bench_fio() {
	_fs=$1 _fc=$2 _ft=$3 _fdev=$4 _frw=$5 _fbs=$6 _fqd=$7 _fmem=$8
	shift 8
	[ "${1:-}" = "--" ] && shift
	_engine=psync
	[ "$_fqd" -gt 1 ] && _engine=libaio
	# shellcheck disable=SC2086
	bench_stat_files $_fmem
	_rep=${BENCH_REPEAT:-1}
	[ "${BENCH_ICOUNT:-0}" = 1 ] && _rep=1
	_best="" _all="" _retried=""
	while [ "$_rep" -gt 0 ]; do
		_rep=$((_rep - 1))
		_b=$(bench_stat)
		# --thread, --disk_util=0: less start-up and sysfs work, which
		# is slow under TCG (the members are measured here instead)
		fio --name=bench --filename="$_fdev" --rw="$_frw" --bs="$_fbs" \
			--ioengine="$_engine" --iodepth="$_fqd" --output-format=json \
			--thread --disk_util=0 \
			--output="$BENCH_TMP/fio.json" "$@" >"$BENCH_TMP/fio.out" 2>&1 || {
			log "fio failed ($_fs $_fc $_ft $_frw $_fbs qd$_fqd): $(tail -n 3 "$BENCH_TMP/fio.out" | tr '\n' ' ')"
			continue
		}
		_a=$(bench_stat)
		if [ "${BENCH_ICOUNT:-0}" = 1 ]; then
			# One virtual ns = one instruction.  fio's IOPS comes from
			# a runtime in whole ms (10^6 instructions), too coarse for
			# short jobs; its mean latency per I/O (ns, from the
			# submitting call to the completion: the kernel's path,
			# fio's loop excluded) is exact.
			_v=$(bench_fio_value "$BENCH_TMP/fio.json" "$_frw" lat) ||
				{ log "no latency in fio output"; continue; }
			_iops=$(bench_fio_value "$BENCH_TMP/fio.json" "$_frw" iops) || _iops=0
			bench_info "iops:$_fs,$_fc,$_ft,$_fbs" "$_iops"
			_unit=instr
		else
			_v=$(bench_fio_value "$BENCH_TMP/fio.json" "$_frw" mbps) ||
				{ log "no bandwidth in fio output"; continue; }
			_unit=MBps
		fi
		_all="$_all${_all:+/}$_v"
		if [ -z "$_best" ] || awk -v a="$_v" -v b="$_best" 'BEGIN { exit !(a > b) }'; then
			_best=$_v _before=$_b _after=$_a
		fi
		if [ "$_rep" -eq 0 ] && [ -z "$_retried" ] && [ "$_unit" = MBps ] &&
			[ -n "${BENCH_RETRY_BELOW:-}" ] &&
			awk -v a="$_best" -v b="$BENCH_RETRY_BELOW" 'BEGIN { exit !(a < b) }'; then
			_retried=1 _rep=1
		fi
	done
	[ -n "$_best" ] || return 0
	case "$_all" in
	*/*) bench_info "runs:$_fs,$_fc,$_ft,$_frw,$_fbs,$_fqd" "$_all" ;;
	esac
	# shellcheck disable=SC2086
	bench_emit "$_fs" "$_fc" "$_ft" "$_frw" "$(bench_bytes "$_fbs")" "$_fqd" \
		"$_best" "$_unit" "$_before" "$_after" $_fmem
}

# bench_bytes SIZE: 4k, 64K, 1M, 1048576 -> bytes
bench_bytes() {
	echo "$1" | awk '{
		n = $0 + 0; u = toupper(substr($0, length($0)))
		if (u == "K") n *= 1024; else if (u == "M") n *= 1048576
		else if (u == "G") n *= 1073741824
		printf "%d\n", n }'
}

# bench_striped_table CHUNK_SECTORS MEMBER...: an in-kernel striped table
# over whole members, in the order given.
bench_striped_table() {
	_ck=$1
	shift
	_min=""
	for _m in "$@"; do
		_s=$(bds_sectors "$_m")
		if [ -z "$_min" ] || [ "$_s" -lt "$_min" ]; then _min=$_s; fi
	done
	_t="0 $((_min / _ck * _ck * $#)) striped $# $_ck"
	for _m in "$@"; do
		_t="$_t $(bds_majmin "$_m") 0"
	done
	echo "$_t"
}

# bench_md_build CHUNK_KIB MEMBER...: md raid0 without superblock on
# /dev/md0 (null members drop writes, so no superblock would survive).
bench_md_build() {
	_ck=$1
	shift
	mdadm --build /dev/md0 --level=0 --chunk="$_ck" --raid-devices=$# \
		--force "$@" </dev/null >"$BENCH_TMP/mdadm.out" 2>&1 || {
		log "mdadm --build failed: $(tr '\n' ' ' <"$BENCH_TMP/mdadm.out")"
		return 1
	}
	[ -b /dev/md0 ] || { log "/dev/md0 missing"; return 1; }
}

bench_md_stop() {
	mdadm --stop /dev/md0 >/dev/null 2>&1 || log "mdadm --stop /dev/md0 failed"
}

# bench_dm_remove NAME: remove a dm device, quietly retrying while busy.
bench_dm_remove() {
	_i=0
	while ! dmsetup remove "$1" 2>/dev/null; do
		_i=$((_i + 1))
		[ "$_i" -ge 20 ] && { log "dmsetup remove $1 failed"; return 1; }
		sleep 0.2
	done
}

# bench_info KEY VALUE: a line the host copies into the report.
bench_info() { echo "info:$1=$2"; }

# bench_each_target PREFIX FN BUILDER_OPTION...: run `FN TARGET DEV` on
# each of bds-stripe (made by `bds-stripe-table BUILDER_OPTION... --create
# bds $MEMBERS`; its table and order are recorded as PREFIX_bds_table and
# PREFIX_bds_order), dm striped and md raid0 (both over $MEMBERS in that
# order, unit $CHUNK bytes), one after the other, each removed after use.
# BENCH_ROUNDS times (default 3), interleaved: bds striped md, bds striped
# md, ..., so that a change of the host's load in the meantime hits the
# three alike.  Every round emits its own csv lines; the reports take
# the median of the rounds and show min-max (PREFIX_rounds says how many).
# A suite that measures a layout of its own beside the three names the
# function that does it in BENCH_AFTER_ROUND: it runs at the end of every
# round, so that its figures get the rounds' medians and spread too.
bench_each_target() {
	_pfx=$1 _fn=$2 _round=0
	shift 2
	bench_info "${_pfx}_rounds" "${BENCH_ROUNDS:-3}"
	while [ "$_round" -lt "${BENCH_ROUNDS:-3}" ]; do
		_round=$((_round + 1))
		bench_each_target_once "$_pfx" "$_fn" "$@"
		[ -z "${BENCH_AFTER_ROUND:-}" ] || "$BENCH_AFTER_ROUND"
	done
}
bench_each_target_once() {
	_pfx=$1 _fn=$2
	shift 2
	# shellcheck disable=SC2086 # one word per member
	run bds-stripe-table "$@" --create bds $MEMBERS
	bench_info "${_pfx}_bds_table" "$(dmsetup table bds)"
	bench_info "${_pfx}_bds_order" "$(dmsetup status bds | awk '{ print $7 }')"
	"$_fn" bds-stripe /dev/mapper/bds
	bench_dm_remove bds

	# shellcheck disable=SC2086
	bench_striped_table $((CHUNK / 512)) $MEMBERS | dmsetup create str ||
		fail "dmsetup create str"
	"$_fn" striped /dev/mapper/str
	bench_dm_remove str

	# shellcheck disable=SC2086
	if bench_md_build $((CHUNK / 1024)) $MEMBERS; then
		"$_fn" md-raid0 /dev/md0
		bench_md_stop
	fi
}

# bench_weigh_table MODE < TABLE: a bds-stripe table line (dmsetup table
# format, members as MAJ:MIN or paths) with the optional words
# "weights LIST" added and the length recomputed for them: the fallback
# for a bds-stripe-table without --weights.  MODE: a list in table order
# (2,1,1,1), "capacity" (member size / the smallest, rounded) or
# "bandwidth" (the T2 rule: 4 for a member alone in its group, 3 for each
# member of a two-member group).
bench_weigh_table() {
	awk -v mode="$1" '
	function msize(d,   f, s, p) {
		if (d ~ /^[0-9]+:[0-9]+$/) f = "/sys/dev/block/" d "/size"
		else { p = d; sub(/.*\//, "", p); f = "/sys/class/block/" p "/size" }
		s = ""; if ((getline s < f) <= 0) { print "no size for " d > "/dev/stderr"; exit 1 }
		close(f); return s + 0
	}
	{
		chunk = $4; ng = $5; i = 6; n = 0
		for (g = 0; g < ng; g++) {
			c = $i; i++
			for (j = 0; j < c; j++) { n++; D[n] = $i; OFF[n] = $(i + 1); GN[n] = c; i += 2 }
		}
		head = $1 " LEN"; for (k = 3; k < i; k++) head = head " " $k
		nopt = 0; rest = ""
		if (i <= NF) { nopt = $i; for (k = i + 1; k <= NF; k++) rest = rest " " $k }
		min = -1
		for (m = 1; m <= n; m++) { S[m] = msize(D[m]) - OFF[m]; if (min < 0 || S[m] < min) min = S[m] }
		if (mode == "capacity") for (m = 1; m <= n; m++) { w = int(S[m] / min + 0.5); WT[m] = w < 1 ? 1 : w }
		else if (mode == "bandwidth") for (m = 1; m <= n; m++) WT[m] = GN[m] == 1 ? 4 : 3
		else { if (split(mode, L, ",") != n) { print "weights: " n " members" > "/dev/stderr"; exit 1 }
			for (m = 1; m <= n; m++) WT[m] = L[m] + 0 }
		W = 0; cyc = -1; list = ""
		for (m = 1; m <= n; m++) {
			W += WT[m]; x = int(S[m] / (chunk * WT[m]))
			if (cyc < 0 || x < cyc) cyc = x
			list = list (m > 1 ? "," : "") WT[m]
		}
		sub(/ LEN/, " " cyc * W * chunk, head)
		printf "%s %d%s weights %s\n", head, nopt + 2, rest, list
	}'
}

# bench_bds_create MODE BUILDER_OPTION...: dm device "bds" over $MEMBERS
# made by `bds-stripe-table BUILDER_OPTION... --weights MODE`; when that
# fails (a builder without --weights), from its plain table with the
# weights added by bench_weigh_table (logged as info:weights_fallback).
# MODE "" builds the plain (unit-weight) table.
bench_bds_create() {
	_wm=$1
	shift
	if [ -z "$_wm" ]; then
		# shellcheck disable=SC2086 # one word per member
		run bds-stripe-table "$@" --create bds $MEMBERS
		return
	fi
	# shellcheck disable=SC2086
	if bds-stripe-table "$@" --weights "$_wm" --create bds $MEMBERS \
		>"$BENCH_TMP/bst.out" 2>&1; then
		return 0
	fi
	log "bds-stripe-table --weights $_wm failed: $(tail -n 3 "$BENCH_TMP/bst.out" | tr '\n' ' '); adding the weights to its plain table"
	bench_info weights_fallback "$_wm"
	# shellcheck disable=SC2086
	_tbl=$(bds-stripe-table "$@" --table-only $MEMBERS) || fail "bds-stripe-table --table-only"
	_tbl=$(echo "$_tbl" | bench_weigh_table "$_wm") || fail "bench_weigh_table $_wm"
	echo "$_tbl" | dmsetup create bds || fail "dmsetup create bds: $_tbl"
}

# bench_bds_target PREFIX TARGET FN WEIGHTS BUILDER_OPTION...: run
# `FN TARGET /dev/mapper/bds` on one bds-stripe volume made by
# bench_bds_create (table and order recorded as PREFIX_bds_table and
# PREFIX_bds_order), then remove it.
bench_bds_target() {
	_pfx=$1 _tgt=$2 _fn=$3 _wm=$4
	shift 4
	bench_bds_create "$_wm" "$@"
	bench_info "${_pfx}_bds_table" "$(dmsetup table bds)"
	bench_info "${_pfx}_bds_order" "$(dmsetup status bds | awk '{ print $7 }')"
	"$_fn" "$_tgt" /dev/mapper/bds
	bench_dm_remove bds
}

# bench_measure SUITE DISK_CAP CTRL_CAP CHUNK: bdsadm plan --measure over
# $MEMBERS, whose disks QEMU caps at DISK_CAP MB/s each and controllers at
# CTRL_CAP MB/s (issue 38).  Emits, for tests/bench/report-measure:
#   SUITE,cap,disk|controller,-,0,0,CAP,MBps,...  the true caps
#   SUITE,disk-alone,sdX,read,...,MBps            each disk alone
#   SUITE,controller,hostN,read,...,MBps          each controller's disks
#     together, where it has two or more (its limit when below their sum)
#   SUITE,all-together,all,read,...,MBps          every disk together
#   SUITE,weights-limit,measured|true-caps,read,CHUNK,1,MBps
#     the sequential-stream limit, under the true caps, of the weights
#     --weights bandwidth chose from the measurement, and of the weights
#     the true caps give (bdsadm plan's bandwidth model)
#   SUITE,time,plan-measure,-,0,0,SECONDS,s       the measurement's time
bench_measure() {
	_ms=$1 _dcap=$2 _ccap=$3 _mchunk=$4
	_mo=$BENCH_TMP/$_ms.measure
	echo "csv:$_ms,cap,disk,-,0,0,$_dcap,MBps,1,0.00,0,0.000"
	echo "csv:$_ms,cap,controller,-,0,0,$_ccap,MBps,1,0.00,0,0.000"
	_t0=$(date +%s)
	# shellcheck disable=SC2086 # one word per member
	bdsadm plan --measure --weights bandwidth --chunk "$_mchunk" $MEMBERS \
		>"$_mo" 2>"$_mo.err" || { cat "$_mo.err" "$_mo"; fail "plan --measure failed"; }
	_t1=$(date +%s)
	cat "$_mo.err" "$_mo"
	echo "csv:$_ms,time,plan-measure,-,0,0,$((_t1 - _t0)),s,1,0.00,0,0.000"
	sed -n 's/^  \([a-z0-9]*\) *alone *\([0-9.]*\) MB\/s.*/\1 \2/p' "$_mo" |
		while read -r _d _mb; do
			echo "csv:$_ms,disk-alone,$_d,read,1048576,1,$_mb,MBps,1,0.00,0,0.000"
		done
	sed -n 's/^  \([a-z0-9]*\) *disks together *\([0-9.]*\) MB\/s.*/\1 \2/p' "$_mo" |
		while read -r _c _mb; do
			[ "$_c" = all ] && continue
			echo "csv:$_ms,controller,$_c,read,1048576,1,$_mb,MBps,1,0.00,0,0.000"
		done
	sed -n 's/^  all disks together *\([0-9.]*\) MB\/s.*/\1/p' "$_mo" |
		while read -r _mb; do
			echo "csv:$_ms,all-together,all,read,1048576,1,$_mb,MBps,1,0.00,0,0.000"
		done
	# the measured weights, in table order (none: every weight 1)
	_w=$(sed -n '1s/.* weights \([0-9,]*\).*/\1/p' "$_mo")
	if [ -z "$_w" ]; then
		_w=$(echo "$MEMBERS" | awk '{ for (i = 1; i <= NF; i++) printf "%s1", (i > 1 ? "," : "") }')
	fi
	for _which in measured true-caps; do
		_wo=$BENCH_TMP/$_ms.$_which
		_wopt=$_w
		[ "$_which" = true-caps ] && _wopt=bandwidth
		# shellcheck disable=SC2086
		bdsadm plan --weights "$_wopt" --chunk "$_mchunk" --disk-mbps "$_dcap" \
			--controller-mbps "$_ccap" $MEMBERS >"$_wo" 2>&1 ||
			{ cat "$_wo"; fail "plan --weights $_wopt with the true caps failed"; }
		_lim=$(sed -n 's/.*sequential streams: *\([0-9.]*\) MB\/s with these weights.*/\1/p' "$_wo")
		[ -n "$_lim" ] || { cat "$_wo"; fail "plan printed no stream limit for --weights $_wopt"; }
		log "$_ms: weights $_wopt ($_which): $_lim MB/s under the true caps"
		echo "csv:$_ms,weights-limit,$_which,read,$_mchunk,1,$_lim,MBps,1,0.00,0,0.000"
	done
	bench_info "${_ms}_weights" "$_w"
}

# bench_measure_suite SUITE DISK_CAP CTRL_CAP CHUNK: a measure guest's
# whole body: bench_measure over every disk, in controller order.
bench_measure_suite() {
	bds_load_module
	MEMBERS=$(bds_all_members | tr '\n' ' ')
	MEMBERS=${MEMBERS% }
	log "members (controller order): $MEMBERS"
	bench_measure "$@"
	rmmod dm_bds_stripe || log "rmmod dm_bds_stripe failed"
	pass "$1 suite done"
}
