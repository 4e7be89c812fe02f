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
# Table: 64 KiB unit over 4 disks in two groups, "2 layout sequential".
# 1. Every allocation of the constructor in turn: bds-dmload
#    (tests/vm/bin/bds-dmload.c) does what `dmsetup create` does
#    (DM_DEV_CREATE, DM_TABLE_LOAD, resume) with /proc/thread-self/fail-nth
#    armed to N for the table load (the target's constructor and dm's
#    table code), for N = 1, 2, ... until the N-th slab allocation is past
#    the end of the load (fail-nth not consumed).  For each N:
#      - it ends, by itself, within a bound, and the kernel logs no oops,
#        WARNING, KASAN or list corruption report, and no "dm_put_device
#        call missing" (a member the constructor did not put back);
#      - a failed step returns an error (errno set); a failed table load
#        leaves no inactive table and no holder on any disk; the device
#        shell a failed load/resume leaves is removed with `dmsetup
#        remove`, after which `dmsetup ls` is empty and the module's
#        reference count is 0;
#      - a run that succeeded (the failed allocation had a fallback) gives
#        a working volume (status AAAA), which is removed.
#    The number of allocation sites reached, and of failures per step
#    and errno, are logged.
# 2. The real `dmsetup create`, restricted with failslab's task-filter
#    to its own task (/proc/self/make-it-fail in the shell that execs
#    it), probability 100, times 1, and "space" stepped up geometrically
#    (the first allocation that no longer fits the space fails), until a
#    create succeeds: every failed create exits non-zero, and leaves
#    nothing behind (no device, no holder).
# At the end the module unloads.
#
# topology: size=256M backing=file ctl=2 ctl=2
# timeout: 420
# memory: 1536
# kernels: debug
# exec: bds-dmload

# shellcheck disable=SC1091
. /bds/guest-lib.sh

FS=/sys/kernel/debug/failslab
[ -d $FS ] || skip "no $FS (needs CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)"
[ -e /proc/self/fail-nth ] || skip "no /proc/self/fail-nth (needs CONFIG_FAULT_INJECTION)"
command -v bds-dmload >/dev/null || fail "bds-dmload not in the guest (# exec: header)"

VOL=fs
MAXN=3000
KBAD='Oops|WARNING:|BUG:|KASAN|general protection|Call Trace:|dm_put_device call missing|list_add corruption|list_del corruption'

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
DISKS="$*"
MLEN=$(($(bds_sectors "$1") / 128 * 128))
TABLE="0 $((MLEN * 4)) bds-stripe 128 2 2 $(bds_majmin "$1") 0 $(bds_majmin "$2") 0"
TABLE="$TABLE 2 $(bds_majmin "$3") 0 $(bds_majmin "$4") 0 2 layout sequential"
log "table: $TABLE"

# holders_all: the holders of every disk, one line.
holders_all() {
	for _d in $DISKS; do
		printf '%s;' "$(bds_holders "$_d")"
	done
}
NOHOLD=$(holders_all)

echo 0 >$FS/verbose
echo N >$FS/ignore-gfp-wait
echo N >$FS/task-filter
echo 0 >$FS/probability
echo 0 >$FS/space
echo 1 >$FS/interval
echo -1 >$FS/times

# --- 1. fail-nth over every allocation ----------------------------------------------
n=1 bad=0 sites=0
: >/tmp/fs.stats
while [ "$n" -le $MAXN ]; do
	dmesg -c >/dev/null
	out=$(timeout -s KILL 60 bds-dmload $VOL "$TABLE" $n)
	rc=$?
	[ "$rc" = 137 ] && fail "N=$n: bds-dmload hung"
	# step=S errno=E injected=I remaining=R
	step="" errno="" injected=""
	case "$out" in
	"step="*" errno="*" injected="*" remaining="*) eval "$out" ;;
	*) fail "N=$n: no result from bds-dmload ($rc): $out" ;;
	esac
	msg=$(dmesg | grep -o 'bds-stripe: .*' | head -n 1)
	if dmesg | grep -Eq "$KBAD"; then
		echo "bds: N=$n ($out): kernel problem:"
		dmesg | grep -E "$KBAD" | head -n 3
		bad=$((bad + 1))
	fi
	echo "$step $errno ${msg:+msg}" >>/tmp/fs.stats
	if [ "$step" = "done" ]; then
		if [ "$(bds_health $VOL)" != AAAA ]; then
			echo "bds: N=$n: created, but status: $(dmsetup status $VOL)"
			bad=$((bad + 1))
		fi
	else
		if [ "$errno" = 0 ]; then
			echo "bds: N=$n: step $step failed without an errno"
			bad=$((bad + 1))
		fi
		if [ "$step" = load ] && [ "$(holders_all)" != "$NOHOLD" ]; then
			echo "bds: N=$n: failed load left holders: $(holders_all)"
			bad=$((bad + 1))
		fi
		if [ "$step" = load ] && [ -n "$(dmsetup table --inactive $VOL 2>/dev/null)" ]; then
			echo "bds: N=$n: failed load left an inactive table"
			bad=$((bad + 1))
		fi
	fi
	if dmsetup info $VOL >/dev/null 2>&1; then
		timeout -s KILL 60 dmsetup remove $VOL || {
			echo "bds: N=$n: cannot remove $VOL"
			bad=$((bad + 1))
		}
	fi
	if [ "$(dmsetup ls 2>&1)" != "No devices found" ] || [ "$(holders_all)" != "$NOHOLD" ] ||
		[ "$(bds_module_refcnt)" != 0 ]; then
		echo "bds: N=$n ($out): left behind: $(dmsetup ls | tr '\n' ' ')" \
			"holders $(holders_all) refcnt $(bds_module_refcnt)"
		bad=$((bad + 1))
		dmsetup remove_all
	fi
	if [ "$injected" = 0 ]; then
		sites=$((n - 1))
		break
	fi
	n=$((n + 1))
done
[ "$n" -le $MAXN ] || fail "more than $MAXN allocations: fail-nth never ran out"
log "fail-nth: $sites allocation sites failed in turn; outcomes (step errno msg):"
sort /tmp/fs.stats | uniq -c
dmesg | tail -n 3
expect_eq "$bad" 0 "fail-nth runs with a problem"
check "the create succeeded once nothing failed" [ "$step" = "done" ]
check "allocation sites were reached ($sites)" [ "$sites" -gt 0 ]
FAULTS1=$sites

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
	if dmesg -c | grep -Eq "$KBAD"; then
		echo "bds: space $space: kernel problem logged"
		bad=$((bad + 1))
	fi
	if [ "$rc" = 0 ]; then
		injected=$((1 - $(cat $FS/times)))
		log "space $space: dmsetup create succeeded (fault injected: $injected)"
		expect_eq "$(bds_health $VOL)" AAAA "volume made at space $space works"
		bds_dm_remove $VOL
		[ "$injected" = 0 ] && break
	else
		failed=$((failed + 1))
		dmsetup info $VOL >/dev/null 2>&1 && {
			echo "bds: space $space: a failed dmsetup create left $VOL"
			bad=$((bad + 1))
			dmsetup remove $VOL
		}
	fi
	if [ "$(dmsetup ls 2>&1)" != "No devices found" ] || [ "$(holders_all)" != "$NOHOLD" ]; then
		echo "bds: space $space: left behind: $(dmsetup ls | tr '\n' ' ') $(holders_all)"
		bad=$((bad + 1))
		dmsetup remove_all
	fi
	space=$((space * 9 / 8 + 64))
	[ "$space" -lt 67108864 ] || fail "space reached 64 MiB without a successful create"
done
echo 0 >$FS/probability
echo N >$FS/task-filter
log "space stepping: $runs dmsetup runs, $failed failed by injection, last space $space"
expect_eq "$bad" 0 "space-stepping runs with a problem"
log "faults injected: $((FAULTS1 + failed)) ($FAULTS1 fail-nth, $failed task-filter)"

# shellcheck disable=SC2086
bds_expect_clean $DISKS
pass "$FAULTS1 + $failed allocation failures while creating tables, all clean"
