#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suite passes on the debug kernel (KASAN, lockdep, kmemleak):
# load the KUnit module (tests/kunit/build; the harness puts it in
# /lib/bds, vm-run -e), which runs its suite on load, then read the
# suite's KTAP result from debugfs: the suite and each of its cases must
# be "ok", none "not ok"; the module must unload.  tests/kunit/run runs
# it in a boot of its own; make check (tests/vm/run-suite, BDS_KUNIT=1)
# in the debug kernel's boot of the common topology, whose disks it does
# not use.
#
# topology: ctl=2 ctl=2
# timeout: 120
# kernels: debug
# check-kernels: debug
# memory: 1024

# shellcheck disable=SC1091
. /bds/guest-lib.sh

SUITE=bds-stripe-layout
CASES=13
RES=/sys/kernel/debug/kunit/$SUITE/results

[ -d /sys/kernel/debug/kunit ] || skip "no KUnit in this kernel (needs the debug kernel)"
KO=/lib/bds/bds_stripe_kunit.ko
[ -r $KO ] || fail "no $KO (vm-run -e)"
run insmod $KO
[ -r "$RES" ] || fail "no $RES after insmod"
cat "$RES" >/tmp/ktap
sed 's/^/ktap: /' /tmp/ktap

# The debugfs log of a case is bounded (512 bytes in 6.1): the kernel log
# has every line.
if grep -q 'not ok' /tmp/ktap || dmesg | grep 'not ok' >/dev/null; then
	dmesg | grep -E 'not ok|EXPECTATION|ASSERTION|Expected' | sed -n 1,40p
	fail "KUnit: results not ok"
fi
[ "$(tail -n 1 /tmp/ktap)" = "ok 1 $SUITE" ] || fail "KUnit: the suite's result line is missing"
n=$(grep -c '^    ok [0-9]* ' /tmp/ktap)
[ "$n" -eq "$CASES" ] || fail "KUnit: $n of $CASES cases reported ok"
# 6.1 keeps only the last parameter set's line in debugfs: count from the
# kernel log's totals (cases and parameter sets).
totals=$(dmesg | sed -n 's/.*# Totals: //p' | tail -n 1)
case "$totals" in
"pass:"*" fail:0 skip:0 total:"*) ;;
*) fail "KUnit: totals '$totals'" ;;
esac
log "KUnit: suite $SUITE ok, $n cases ok, totals $totals"
run rmmod bds_stripe_kunit
pass "KUnit suite $SUITE"
