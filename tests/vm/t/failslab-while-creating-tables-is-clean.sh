#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Allocation failures while a bds-stripe table is created (FAILSLAB fault
# injection) end in a clean refusal: an error to the caller, never a hang
# or an oops, and nothing left behind.
#
# Needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS (the debug
# kernel series); skipped where /sys/kernel/debug/failslab or
# /proc/self/fail-nth is absent.  failslab is set to verbose 0 and
# ignore-gfp-wait N (so GFP_KERNEL allocations can fail too).
#
# Tables: 64 KiB unit over 4 disks in two groups with "2 weights
# 2,1,1,2", whose constructor also allocates the weighted slot tables;
# and the same disks labelled as one volume (bds-mklabels) with "4 layout
# sequential volume <uuid>", whose constructor also reads and checks the
# labels (its label buffers are allocations of their own).
# 1. Every allocation of the constructor in turn, for each table:
#    `bds-dmload --sweep`
#    (tests/vm/programs/bds-dmload.c) does what `dmsetup create` does
#    (DM_DEV_CREATE, DM_TABLE_LOAD, resume) with /proc/thread-self/fail-nth
#    armed to N for the table load (the target's constructor and dm's
#    table code), for N = 1, 2, ... until the N-th slab allocation is past
#    the end of the load (fail-nth not consumed).  For each N:
#      - it ends, by itself, within a bound, and the kernel logs no oops,
#        WARNING, KASAN or list corruption report, and no "dm_put_device
#        call missing" (a member the constructor did not put back);
#      - a failed step returns an error (errno set); a failed table load
#        leaves no inactive table; once the device shell is removed it is
#        gone, no disk has a holder and the module's reference count is 0;
#      - a run that succeeded (the failed allocation had a fallback) gives
#        a working volume (health AAAA), which is removed.
#    The number of allocation sites reached, the outcomes per step and
#    errno, and the refusal messages are logged.
# 2. The real `dmsetup create`, restricted with failslab's task-filter
#    to its own task (/proc/self/make-it-fail in the shell that execs
#    it), probability 100, times 1, and "space" stepped up geometrically
#    (the first allocation that no longer fits the space fails), until a
#    create succeeds: every failed create exits non-zero, and leaves
#    nothing behind (no device, no holder).
# At the end the module unloads.
#
# Under make check (BDS_SAMPLE=1) part 1 fails every 8th allocation site
# (N = 1, 9, 17, ...) and part 2 doubles "space" each run: a fixed sample
# that takes about a quarter of the time.  make check-debug and check-all
# run every site and the 9/8 steps.
#
# A failed slab allocation inside kmem_cache_create() (bioset_init()
# creating the bio slab for a new front_pad size) makes the slab code
# print "kmem_cache_create(...) failed" and a stack dump on purpose; the
# "allowed-trace" header tells vm-run that those dumps are expected.  Any
# KASAN, lockdep, BUG or WARNING report still fails the test.
#
# topology: ctl=2 ctl=2
# timeout: 720
# memory: 1536
# kernels: debug
# exec: bds-dmload bds-mklabels
# allowed-trace: kmem_cache_create(_usercopy)?[(]bio-[0-9]+[)] failed with error -[0-9]+
# check-kernels: debug

# shellcheck disable=SC1091
. /bds/guest-lib.sh

FS=/sys/kernel/debug/failslab
[ -d $FS ] || skip "no $FS (needs CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)"
[ -e /proc/self/fail-nth ] || skip "no /proc/self/fail-nth (needs CONFIG_FAULT_INJECTION)"
command -v bds-dmload >/dev/null || fail "bds-dmload not in the guest (# exec: header)"

VOL=fs
MAXN=3000
SWEEP=--sweep
if [ "${BDS_SAMPLE:-0}" = 1 ]; then
	SWEEP=--sweep=8
	log "a sample (make check): every 8th allocation site, space doubled each run"
fi
# Kernel reports that fail a step (vm-run checks the whole log as well,
# stack dumps included, with the allowed-trace exception above).
KBAD='Oops|WARNING:|BUG:|KASAN|general protection|dm_put_device call missing|list_add corruption|list_del corruption'

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
DISKS="$*"
# Weights 2,1,1,2: W = 6, and the weight-2 members hold two units a cycle.
WC=$(($(bds_sectors "$1") / 256))
TABLE="0 $((WC * 6 * 128)) bds-stripe 128 2 2 $(bds_majmin "$1") 0 $(bds_majmin "$2") 0"
TABLE="$TABLE 2 $(bds_majmin "$3") 0 $(bds_majmin "$4") 0 2 weights 2,1,1,2"
log "table: $TABLE"

DISKNAMES=""
for d in $DISKS; do
	DISKNAMES="$DISKNAMES $(bds_dev "$d")"
done

# held: the holders of any of the disks, as one line ("" when none), from
# sysfs without forking (a fork and exec take about a second here).
held() {
	_held=""
	for _d in $DISKNAMES; do
		for _h in "/sys/block/$_d/holders"/*; do
			[ -e "$_h" ] && _held="$_held $_d:${_h##*/}"
		done
	done
	echo "$_held"
}
expect_eq "$(held)" "" "no holders before the test"

# failslab's settings as they were, put back at the end (a test may share
# its boot).
: >/tmp/failslab.saved
for f in verbose ignore-gfp-wait task-filter probability space interval times; do
	read -r v <"$FS/$f"
	echo "$f $v" >>/tmp/failslab.saved
done
echo 0 >$FS/verbose
echo N >$FS/ignore-gfp-wait
echo N >$FS/task-filter
echo 0 >$FS/probability
echo 0 >$FS/space
echo 1 >$FS/interval
echo -1 >$FS/times

# --- 1. fail-nth over every allocation ----------------------------------------------
# One bds-dmload process walks N = 1, 2, ... and checks each step itself:
# forking the checks per step from the shell took about 30 s a step on the
# debug kernel.
# sweep TABLE: part 1 for one table; adds the sites reached to FAULTS1.
FAULTS1=0
sweep() {
	dmesg -c >/dev/null
	# shellcheck disable=SC2086 # one word per disk
	timeout -s KILL 1500 bds-dmload $SWEEP $VOL "$1" $MAXN $DISKNAMES >/tmp/fs.out
	rc=$?
	[ "$rc" = 137 ] && fail "bds-dmload --sweep hung"
	grep '^problem:' /tmp/fs.out | sed -n 1,20p
	summary=$(grep '^sweep:' /tmp/fs.out)
	log "$summary (exit $rc)"
	sites=$(echo "$summary" | sed -n 's/.* sites=\([0-9]*\).*/\1/p')
	log "fail-nth: outcomes (step errno) over $sites allocation sites:"
	sed -n 's/^n=[0-9]* step=\([a-z]*\) errno=\([0-9]*\) .*/\1 \2/p' /tmp/fs.out | sort | uniq -c
	log "refusal messages logged:"
	dmesg | grep -o 'bds-stripe: .*' | sed 's/([^)]*)$//' | sort | uniq -c
	expect_eq "$(grep -c '^problem:' /tmp/fs.out)" 0 "fail-nth steps with a problem"
	check "the sweep ended by itself (before N = $MAXN)" [ -n "$summary" ]
	expect_eq "$(grep '^n=' /tmp/fs.out | tail -n 1 | cut -d' ' -f2)" "step=done" \
		"the create succeeded once nothing failed"
	expect_eq "$rc" 0 "bds-dmload --sweep exit status"
	check "allocation sites were reached ($sites)" [ "${sites:-0}" -gt 0 ]
	check "no kernel problem logged" sh -c "! dmesg | grep -E '$KBAD' >/dev/null"
	FAULTS1=$((FAULTS1 + ${sites:-0}))
}
sweep "$TABLE"
# shellcheck disable=SC2086 # one word per disk
LTABLE=$(bds-mklabels 10111213-1415-4617-9819-1a1b1c1d1e1f 128 sequential 2,2 $DISKS) ||
	fail "bds-mklabels failed"
log "labelled table: $LTABLE"
sweep "$LTABLE"

# --- 2. dmsetup create, task-filter, space stepping ------------------------------------
echo Y >$FS/task-filter
echo 100 >$FS/probability
space=64 runs=0 failed=0 bad=0
while :; do
	echo $space >$FS/space
	echo 1 >$FS/times
	runs=$((runs + 1))
	# shellcheck disable=SC2016
	timeout -s KILL 60 sh -c 'echo 1 >/proc/self/make-it-fail && exec dmsetup create "$1" --table "$2"' \
		sh $VOL "$TABLE" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 137 ] && fail "space $space: dmsetup create hung"
	if [ "$rc" = 0 ]; then
		read -r left <$FS/times
		injected=$((1 - left))
		log "space $space: dmsetup create succeeded (fault injected: $injected)"
		expect_eq "$(bds_health $VOL)" AAAA "volume made at space $space works"
		bds_dm_remove $VOL
		[ "$injected" = 0 ] && break
	else
		failed=$((failed + 1))
		if [ -e /dev/mapper/$VOL ] || dmsetup info $VOL >/dev/null 2>&1; then
			echo "bds: space $space: a failed dmsetup create left $VOL"
			bad=$((bad + 1))
			dmsetup remove $VOL
		fi
	fi
	h=$(held)
	if [ -n "$h" ]; then
		echo "bds: space $space: left holders:$h"
		bad=$((bad + 1))
		dmsetup remove_all
	fi
	if [ "${BDS_SAMPLE:-0}" = 1 ]; then
		space=$((space * 2 + 64))
	else
		space=$((space * 9 / 8 + 64))
	fi
	[ "$space" -lt 67108864 ] || fail "space reached 64 MiB without a successful create"
done
echo 0 >$FS/probability
echo N >$FS/task-filter
log "space stepping: $runs dmsetup runs, $failed failed by injection, last space $space"
expect_eq "$bad" 0 "space-stepping runs with a problem"
expect_eq "$(dmsetup ls 2>&1)" "No devices found" "no dm devices left"
check "no kernel problem logged" sh -c "! dmesg | grep -E '$KBAD' >/dev/null"
log "faults injected: $((FAULTS1 + failed)) ($FAULTS1 fail-nth, $failed task-filter)"

# shellcheck disable=SC2086
bds_expect_clean $DISKS
while read -r f v; do
	echo "$v" >"$FS/$f" || check "failslab's $f put back ($v)" false
done </tmp/failslab.saved
pass "$FAULTS1 + $failed allocation failures while creating tables, all clean"
