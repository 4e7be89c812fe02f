#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report-model-test.sh - tests/bench/report-model on synthetic figures:
# seed000 measured in three interleaved rounds, where bds-stripe and
# striped
#   - overlap at 64 KiB (10-12 against 11.5-13): "~", no difference;
#   - lie apart at 128 KiB (20-22 against 15-17): 1.31, above;
#   - lie apart at 192 KiB (5-7 against 9-11): 0.60, below;
# each figure the median of its rounds with min-max, and the
# "differences" line counting one point each way.  The same figures
# measured once: no "~" at all, and the summary says that one run
# cannot call a difference.  seed001rot (issue 38) in three rounds:
# striped at w = 2 against its own w = 1, below beyond the spread for one
# disk (0.65), no difference for two, counted on a line of its own; its
# cells medians with min-max.
# Run by make check (unit-scripts).
# Output is TAP; the last line is "N passed, N failed".
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/scripts/tap.sh disable=SC1091
. "$HERE/../scripts/tap.sh"
# shellcheck source=tests/bench/report-check-lib.sh disable=SC1091
. "$HERE/report-check-lib.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/report-model-test.XXXXXX")
trap 'rm -rf "$W"' EXIT

# row TARGET SIZE MBPS: one seed000 csv line (bench.csv's columns)
row() { echo "6.1,6.1.0,seed000,seq,$1,read,$2,1,$3,MBps,10,1.00,16,16.000"; }
# run ROUNDS: the figures of ROUNDS rounds (1 or 3) into $W/N/bench.csv
make_run() {
	local d=$W/$1 r
	mkdir -p "$d"
	echo "kernel,kver,suite,case,target,rw,bs,qd,value,unit,members,mib,reqs,reqs_per_mib" >"$d/bench.csv"
	for r in $(seq 1 "$1"); do
		{
			row bds-stripe 65536 $((9 + r))
			row striped 65536 "$(echo "11.5 12.5 13" | cut -d' ' -f"$r")"
			row bds-stripe 131072 $((19 + r))
			row striped 131072 $((14 + r))
			row bds-stripe 196608 $((4 + r))
			row striped 196608 $((8 + r))
		} >>"$d/bench.csv"
	done
	echo "kernel=6.1" >"$d/info.txt"
	: >"$d/summary.md"
	"$HERE/report-model" "$d" >"$d/out" 2>&1
}

st=0
make_run 3 || st=$?
ok "$st" "report-model runs on three rounds"
S=$W/3/summary.md
# row_and_ratio ROW RATIO: the table has the row's cells and the ratio
row_and_ratio() { has "$S" "$1" && has "$S" "$2"; }
t "overlapping ranges: medians with min-max, the ratio marked ~ (no difference)" \
	row_and_ratio "| 64K | 11.00 (10.00-12.00) | 12.50 (11.50-13.00) |" "| ~0.88 |"
t "ranges apart, above: the ratio without ~" \
	row_and_ratio "| 128K | 21.00 (20.00-22.00) | 16.00 (15.00-17.00) |" "| 1.31 |"
t "ranges apart, below: the ratio without ~" \
	row_and_ratio "| 192K | 6.00 (5.00-7.00) | 10.00 (9.00-11.00) |" "| 0.60 |"
t "the differences line counts one point each way and one without" \
	has "$S" "- seed000: bds-stripe above striped beyond the spread at 1 points, below at 1, no difference at 1"
t "the summary says the figures are medians of 3 rounds" \
	has "$S" "Figures: medians of 3 rounds"

st=0
make_run 1 || st=$?
ok "$st" "report-model runs on one round"
S=$W/1/summary.md
one_run() {
	hasnt "$S" "~" &&
		has "$S" "one run each (BENCH_ROUNDS=1): no spread, so no difference can be called"
}
t "one run: no ratio marked ~, and the summary says why" one_run

# seed001rot: three rounds of volumes of 1 and 2 disks, w = 1 and 2
rot_row() { echo "6.1,6.1.0,seed001rot,n$1-w$2,$3,read,$(($1 * $2 * 16384)),1,$4,MBps,1,1.00,64,64.000"; }
d=$W/rot
mkdir -p "$d"
echo "kernel,kver,suite,case,target,rw,bs,qd,value,unit,members,mib,reqs,reqs_per_mib" >"$d/bench.csv"
for r in 1 2 3; do
	{
		rot_row 1 1 bds-stripe "6.$r"
		rot_row 1 1 striped "$(echo "6.0 6.2 6.4" | cut -d' ' -f"$r")"
		rot_row 1 2 bds-stripe "7.$r"
		rot_row 1 2 striped "$(echo "3.9 4.0 4.1" | cut -d' ' -f"$r")"
		rot_row 2 1 striped "$(echo "12.0 12.5 13.0" | cut -d' ' -f"$r")"
		rot_row 2 2 striped "$(echo "11.0 12.6 14.0" | cut -d' ' -f"$r")"
	} >>"$d/bench.csv"
done
echo "kernel=6.1" >"$d/info.txt"
: >"$d/summary.md"
st=0
"$HERE/report-model" "$d" >"$d/out" 2>&1 || st=$?
ok "$st" "report-model runs on seed001rot"
S=$d/summary.md
t "seed001rot: striped w=2 / w=1 below beyond the spread for 1 disk" \
	has "$S" "| ~1.00 1.80 - - | 0.65 |"
t "seed001rot: each cell the median with min-max" \
	has "$S" "| 1 | 6.20 (6.10-6.30) / 6.20 (6.00-6.40) / - | 7.20 (7.10-7.30) / 4.00 (3.90-4.10) / - |"
t "seed001rot: no difference for 2 disks" \
	has "$S" "| ~1.01 |"
t "seed001rot: its own line counts the drop" \
	has "$S" "- seed001rot: striped w=2 above its w=1 beyond the spread at 0 points, below at 1, no difference at 1"
tap_end
