#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-sweep.sh: build the module for Debian's 6.1 kernel and the tools,
# boot the classic box (2 controllers x 4 null disks, disks 20 MB/s,
# controllers 40 MB/s) in QEMU, run tools/bds-sweep there, and plot the
# results.  Output in results/sweep/: serial.log, sweep.csv, table.txt,
# size.png, aligned.png.
#
# Environment: BDS_SWEEP_KERNEL (6.1), BDS_SWEEP_SECS (seconds per point,
# 3), BDS_SWEEP_SIZES (transfer sizes, 4K,64K,256K,1M,4M), BDS_CACHE.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
series=${BDS_SWEEP_KERNEL:-6.1}
out=$top/results/sweep
guest=$top/tests/vm/sweep/sweep-guest.sh
mkdir -p "$out"

command -v gnuplot >/dev/null || {
	echo "run-sweep: installing gnuplot-nox" >&2
	apt-get install -y gnuplot-nox >&2
}

KERNELS=$series "$top/tests/scripts/build-all.sh" >&2
make -s -C "$top/tools" >&2
ko=${BDS_CACHE:-$HOME/.cache/bds-stripe}/lint/$series/dm-bds-stripe.ko
topo=$(sed -n 's/^#[[:space:]]*topology:[[:space:]]*//p' "$guest" | sed -n 1p)

# The guest script has its own defaults; when BDS_SWEEP_SECS or
# BDS_SWEEP_SIZES are set, run a copy of it that sets them.
script=$guest
if [ -n "${BDS_SWEEP_SECS:-}${BDS_SWEEP_SIZES:-}" ]; then
	script=$(mktemp --suffix=.sh)
	trap 'rm -f "$script"' EXIT
	{
		sed -n '1,/^\. \/bds\/guest-lib.sh/p' "$guest"
		[ -z "${BDS_SWEEP_SECS:-}" ] || echo "BDS_SWEEP_SECS=$BDS_SWEEP_SECS"
		[ -z "${BDS_SWEEP_SIZES:-}" ] || echo "BDS_SWEEP_SIZES=$BDS_SWEEP_SIZES"
		sed '1,/^\. \/bds\/guest-lib.sh/d' "$guest"
	} >"$script"
fi

start=$(date +%s)
"$top/tests/vm/vm-run" -k "$series" -s "$script" -m "$ko" \
	-x "$top/tools/bds-sweep" -x "$top/tools/bds-stripe-table" \
	-l "$out/serial.log" >&2 || {
	echo "run-sweep: the guest failed; see $out/serial.log" >&2
	exit 1
}
echo "run-sweep: guest run took $(($(date +%s) - start)) s" >&2

sed -n 's/^csv://p' "$out/serial.log" | tr -d '\r' >"$out/sweep.csv"
# The table bds-sweep printed (from its "# bds-sweep:" line to the end of
# its output), without kernel messages.
sed -n '/^# bds-sweep:/,/^bds: \[[0-9.]*\] + rmmod/p' "$out/serial.log" | tr -d '\r' |
	grep -v -e '^\[ *[0-9.]*\]' -e '^bds: ' >"$out/table.txt"
cat "$out/table.txt"

[ "$(wc -l <"$out/sweep.csv")" -gt 1 ] || {
	echo "run-sweep: no CSV results in $out/serial.log" >&2
	exit 1
}

# --- plots -----------------------------------------------------------------
title="bds-stripe sweep, Linux $series guest (QEMU TCG): $topo, chunk 64K"
dat=$out/.plot
mkdir -p "$dat"
targets="bds-stripe striped md-raid0"
for t in $targets; do
	awk -F, -v t="$t" '$1 == "size" && $2 == t && $3 == "read" { print $4, $7 }' \
		"$out/sweep.csv" | sort -n >"$dat/size-$t.dat"
done
awk -F, '$1 == "aligned" { printf "\"%s\" %s\n", $2, $7 }' "$out/sweep.csv" \
	>"$dat/aligned.dat"
mdlabel="md raid0"
grep -q '^# md-raid0: mdadm --build' "$out/table.txt" && mdlabel="md raid0 (mdadm --build)"
half=$(awk -F, '$1 == "aligned" { print $4 / 1024 "K"; exit }' "$out/sweep.csv")

gnuplot <<GP
set terminal pngcairo size 1000,600 noenhanced font ",11"
set output "$out/size.png"
set title "Sequential reads, direct I/O, queue depth 1: MB/s vs transfer size\n$title"
set xlabel "transfer size (bytes, log scale)"
set ylabel "throughput (MB/s, 10^6 bytes/s)"
set logscale x 2
set xtics ("1K" 1024, "4K" 4096, "16K" 16384, "64K" 65536, "256K" 262144, "1M" 1048576, "4M" 4194304, "16M" 16777216)
set yrange [0:*]
set grid
set key bottom right
plot "$dat/size-bds-stripe.dat" using 1:2 with linespoints lw 2 pt 7 title "bds-stripe", \
     "$dat/size-striped.dat" using 1:2 with linespoints lw 2 pt 5 title "striped (controller order)", \
     "$dat/size-md-raid0.dat" using 1:2 with linespoints lw 2 pt 9 title "$mdlabel, controller order"

set output "$out/aligned.png"
unset logscale x
set xtics auto
set title "Random reads of 1/2 stripe width ($half), stripe-aligned: MB/s\n$title"
set xlabel "target"
set style fill solid 0.6 border -1
set boxwidth 0.6
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set key off
plot "$dat/aligned.dat" using 0:2:xtic(1) with boxes lc rgb "#4070a0", \
     "" using 0:2:(sprintf("%.1f", \$2)) with labels offset 0,1
GP
rm -rf "$dat"
echo
echo "run-sweep: results in $out (sweep.csv, table.txt, size.png, aligned.png, serial.log)"
