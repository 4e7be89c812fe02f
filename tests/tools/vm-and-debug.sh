#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's VM part: the stock-kernel VM suite (tests/vm/run-suite on
# $KERNELS) and the debug leg (wait for the debug kernel, then the KUnit
# suite and the VM tests given as arguments on it) side by side.
#
# Why side by side: a guest keeps one of the host's two cores busy (its
# vCPUs share one host thread, see vm-run's BDS_TCG_THREAD; even with a
# thread each, its boot, a single fio job and the test's shell mostly ran
# on one).  Run one after the other, the stock suite left the second core
# to the debug kernel's background build and then idle, and the debug leg
# came after it: make check took 88 minutes on CI.  Here the debug leg
# starts as soon as the debug kernel is built, and the two suites share
# the cores.
#
# The debug leg has its own results directory ($BDS_RESULTS/debug-ci), so
# the two runs never build the same guest program in one place; the tools
# are built first, once, for both.  Its output is kept in
# $BDS_RESULTS/debug-ci.log and printed after the stock suite's.  Either
# failing fails the run, after both have finished.
#
# Usage: tests/tools/vm-and-debug.sh DEBUG-TEST...
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd -P)
results=${BDS_RESULTS:-$top/tests/vm/results}
mkdir -p "$results"
results=$(cd "$results" && pwd -P)
dlog=$results/debug-ci.log

make -C "$top/tools" >"$results/tools-build.log" 2>&1 || {
	echo "vm-and-debug: building tools/ failed, see $results/tools-build.log" >&2
	exit 1
}

debug_leg() {
	local rc=0
	"$top/tests/debug/build-kernel.sh" >/dev/null || return 1
	echo "# debug leg: the debug kernel is ready, starting at $(date -u +%H:%M:%S)"
	BDS_RESULTS=$results/debug-ci "$top/tests/kunit/run" || rc=1
	BDS_RESULTS=$results/debug-ci KERNELS=debug "$top/tests/vm/run-suite" "$@" || rc=1
	return $rc
}

echo "vm-and-debug: the debug leg runs beside the stock suite; its output: $dlog"
debug_leg "$@" >"$dlog" 2>&1 &
dpid=$!

rc=0
"$top/tests/vm/run-suite" || rc=1
drc=0
wait "$dpid" || drc=1

echo "=== debug leg (KUnit and ${#@} VM tests on the debug kernel), from $dlog"
cat "$dlog"
[ "$drc" = 0 ] || echo "vm-and-debug: the debug leg failed" >&2
[ "$rc" = 0 ] || echo "vm-and-debug: the stock-kernel VM suite failed" >&2
[ "$rc" = 0 ] && [ "$drc" = 0 ]
