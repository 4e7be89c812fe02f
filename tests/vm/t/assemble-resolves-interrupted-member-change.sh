#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A membership change (member 2 of a 2+1 volume, disk C, replaced by disk
# D) interrupted at each point of the label update order of
# Documentation/bds-stripe-label.rst ("Membership changes") is resolved by
# bdsadm assemble as that order promises.  The labels of each state are
# written with the bds-stripe fixture (generation 1 on A B C; generation 2
# names D at position 2):
#  - D's primary written, no other member updated: assemble rolls back:
#    the table has C at position 2, D no longer carries a label;
#  - D's and member 0's primary written (A's backup still generation 1):
#    rolled back too, and A carries generation 1 in both copies again;
#  - every member that stays has its primary at generation 2, D's backup
#    not yet written: generation 2 is complete, assemble takes D (until
#    the commit point the old and the new disk hold the same data);
#  - D's backup written too (the commit point): assemble takes D, the
#    kernel accepts the table (it reads the newer copy), C is left out;
#  - the same with D gone: refused, naming C as the disk that left the
#    volume: never assembled from C again;
#  - D with both copies and no other member updated (the order of bdsadm
#    before 1.6.0, or D beside stale copies of the others): nothing proves
#    a change cut short: refused, and not a label written.
# Each rollback is said on stderr; no state leaves a dm device behind.
#
# topology: ctl=2 ctl=2
# timeout: 300
# exec: bds-mklabels
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bds-mklabels >/dev/null || fail "bds-mklabels not in the guest (# exec: header)"
bds_load_module
bds_four_disks
U=31111111-1415-4617-9819-1a1b1c1d1e1f
S=$(bds_sectors "$C")
BK=$((S / 8 * 8 - 16))

# old: generation 1 on A B C; new OPTIONS: generation 2 with D as member 2
old() { bds-mklabels --name rvol "$U" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null; }
new() {
	bds-mklabels --name rvol --gen 2 --new 2 "$@" "$U" 128 interleave 2,1 \
		"$A" "$B" "$D" >/dev/null
}
zero() {
	for _d in "$@"; do
		dd if=/dev/zero of="$_d" bs=512 seek=8 count=16 conv=notrunc status=none
		dd if=/dev/zero of="$_d" bs=512 seek="$BK" count=16 conv=notrunc status=none
	done
	sync
}
# member2 VOL: the major:minor of the table's member 2 (the third device)
member2() { dmsetup table "$1" | tr ' ' '\n' | grep ':' | sed -n 3p; }

# labels_sum DEV...: md5 of the label areas (both copies) of each DEV
labels_sum() {
	for _d in "$@"; do
		dd if="$_d" bs=512 skip=8 count=16 status=none
		dd if="$_d" bs=512 skip="$BK" count=16 status=none
	done | md5sum
}

# --- D's primary, nobody else updated --------------------------------------------
old
new --only 2 --copies primary
run bdsadm assemble rvol 2>/tmp/err
cat /tmp/err
check "D only: said it rolls back" grep -qF "a membership change to generation 2 was interrupted before its commit point: rolling it back to generation 1" /tmp/err
expect_eq "$(member2 rvol)" "$(bds_majmin "$C")" "D only: member 2 is C"
check "D only: D no longer carries a label" sh -c "! bdsadm examine $D >/dev/null 2>&1"
run bdsadm stop rvol

# --- D's and member 0's primary updated ------------------------------------------
zero "$A" "$B" "$C" "$D"
old
new --only 2 --copies primary
new --only 0 --copies primary
expect_eq "$(bds_gen_of "$A")" 2 "A's label counts at generation 2 before assembly"
run bdsadm assemble rvol 2>/tmp/err
cat /tmp/err
check "A updated: rolled back" grep -qF "rolling it back to generation 1" /tmp/err
check "A updated: said A carries generation 1 again" \
	grep -qF "member 0 (/dev/$(bds_dev "$A")) carries generation 1 again" /tmp/err
expect_eq "$(member2 rvol)" "$(bds_majmin "$C")" "A updated: member 2 is C"
bdsadm examine "$A" >/tmp/ex.txt
check "A updated: A's primary is generation 1 again" grep -q "Primary copy : valid at sector 8, generation 1" /tmp/ex.txt
check "A updated: ... and its backup too" grep -q "Backup copy : valid at sector $BK, generation 1" /tmp/ex.txt
run bdsadm stop rvol

# --- both members that stay updated, D's backup not yet -----------------------------
zero "$A" "$B" "$C" "$D"
old
new --only 2 --copies primary
new --only 0 --copies primary
new --only 1 --copies primary
run bdsadm assemble rvol 2>/tmp/err
cat /tmp/err
check "complete before the commit write: no rollback" sh -c "! grep -q 'rolling it back' /tmp/err"
expect_eq "$(member2 rvol)" "$(bds_majmin "$D")" "complete before the commit write: member 2 is D"
run bdsadm stop rvol

# --- the commit point: D's backup written ------------------------------------------
new --only 2
run bdsadm assemble rvol 2>/tmp/err
cat /tmp/err
check "committed: no rollback" sh -c "! grep -q 'rolling it back' /tmp/err"
expect_eq "$(member2 rvol)" "$(bds_majmin "$D")" "committed: member 2 is D"
check "committed: the kernel loaded the labelled table" \
	sh -c "dmsetup table rvol | grep ' 2 volume $U\$' >/dev/null"
run bdsadm stop rvol

# --- committed, then D lost: never back to C -------------------------------------------
zero "$D"
if bdsadm assemble rvol >/tmp/out 2>/tmp/err; then
	check "committed, D gone: refused" false
	bdsadm stop rvol
fi
cat /tmp/err
check "committed, D gone: C is named as the disk that left" \
	grep -qE "member 2 \(UUID [0-9a-f-]+, serial BDSTEST-NEW at creation, controller ctl1\) is only on /dev/[a-z]+, whose label is at generation 1, older than the volume's 2" /tmp/err
expect_eq "$(dmsetup ls 2>&1)" "No devices found" "committed, D gone: no dm device"

# --- D with both copies, nobody else updated: nothing proves a cut ------------------
zero "$A" "$B" "$C" "$D"
old
new --only 2
SUM=$(labels_sum "$A" "$B" "$C" "$D")
if bdsadm assemble rvol >/tmp/out 2>/tmp/err; then
	check "D committed alone: refused" false
	bdsadm stop rvol
fi
cat /tmp/err
check "D committed alone: no rollback" sh -c "! grep -q 'rolling it back' /tmp/err"
expect_eq "$(labels_sum "$A" "$B" "$C" "$D")" "$SUM" "D committed alone: not a label written"
expect_eq "$(dmsetup ls 2>&1)" "No devices found" "D committed alone: no dm device"

zero "$A" "$B" "$C" "$D"
bds_expect_clean "$A" "$B" "$C" "$D"
pass
