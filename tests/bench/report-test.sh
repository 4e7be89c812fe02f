#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report-test.sh - tests/bench/report's T1 and T2 tables on synthetic
# figures, measured in three interleaved rounds, where at T1's whole
# width (512 KiB, qd 1)
#   - bds-stripe (78-80) and striped (77-79.5) overlap: "~", no difference;
#   - bds-stripe and md raid0 (70-72) lie apart: 1.11, above;
# and at T2's 160 KiB bds-stripe-w (85-89) lies above bds-stripe (70-74)
# and below nothing: each figure the median of its rounds with min-max,
# and each table's differences lines counting those points.  The same
# figures measured once: no "~" at all, and the table says that one run
# cannot call a difference.  Run by make check (unit-scripts).
# Output is TAP; the last line is "N passed, N failed".
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/scripts/tap.sh disable=SC1091
. "$HERE/../scripts/tap.sh"
# shellcheck source=tests/bench/report-check-lib.sh disable=SC1091
. "$HERE/report-check-lib.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/report-test.XXXXXX")
trap 'rm -rf "$W"' EXIT

# row SUITE TARGET SIZE MBPS: one csv line (bench.csv's columns)
row() { echo "6.1,6.1.0,$1,seq,$2,read,$3,1,$4,MBps,8,10.00,160,16.000"; }
# nth N WORDS...: the N-th of the words
nth() { shift "$1"; echo "$1"; }
# make_run ROUNDS: the figures of ROUNDS rounds (1 or 3) into $W/N/
make_run() {
	local d=$W/$1 r
	mkdir -p "$d"
	echo "kernel,kver,suite,case,target,rw,bs,qd,value,unit,members,mib,reqs,reqs_per_mib" >"$d/bench.csv"
	for r in $(seq 1 "$1"); do
		{
			row t1 bds-stripe 524288 "$(nth "$r" 79 78 80)"
			row t1 striped 524288 "$(nth "$r" 77 79.5 78)"
			row t1 md-raid0 524288 "$(nth "$r" 71 70 72)"
			row t2 bds-stripe-w 163840 "$(nth "$r" 87 85 89)"
			row t2 bds-stripe 163840 "$(nth "$r" 72 70 74)"
		} >>"$d/bench.csv"
	done
	printf 'kernel=6.1.0\nkernel_series=6.1\n' >"$d/info.txt"
	: >"$W/base.csv"
	"$HERE/report" "$d" "$W/base.csv" >"$d/out" 2>&1 || { cat "$d/out"; return 1; }
}

st=0
make_run 3 || st=$?
ok "$st" "report runs on three rounds"
S=$W/3/summary.md
t "T1 whole width: medians with min-max, bds/striped ~ (overlap), bds/md 1.11 (apart)" \
	has "$S" "| seq read 1 width | 512K | 1 | 79.00 (78.00-80.00) | 78.00 (77.00-79.50) | 71.00 (70.00-72.00) | 99 % | ~1.01 | 1.11 |"
t "T1: a differences line against striped" \
	has "$S" "- T1: bds-stripe above striped beyond the spread at 0 points, below at 0, no difference at 1"
t "T1: a differences line against md raid0" \
	has "$S" "- T1: bds-stripe above md raid0 beyond the spread at 1 points, below at 0, no difference at 0"
t "T2: the weighted layout above bds-stripe beyond the spread" \
	has "$S" "- T2: bds-stripe-w above bds-stripe beyond the spread at 1 points, below at 0, no difference at 0"
t "T1 says its figures are medians of 3 rounds" \
	has "$S" "Figures: medians of 3 rounds"

st=0
make_run 1 || st=$?
ok "$st" "report runs on one round"
S=$W/1/summary.md
one_run() {
	! grep -E '\| ~[0-9]' "$S" >/dev/null &&
		has "$S" "one run each (BENCH_ROUNDS=1): no spread, so no difference can be called"
}
t "one run: no ratio marked ~, and the tables say why" one_run
tap_end
