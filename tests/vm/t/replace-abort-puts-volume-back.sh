#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A replace that does not finish puts the volume back on the old member:
#  - SIGTERM to a running replace (mid-copy): it exits 1, the volume's
#    table is the one before, no mirror is left, the new disk has no label;
#  - a replace killed outright (SIGKILL, mid-copy) leaves its mirror in the
#    volume's table; "bdsadm replace --abort vol" puts the volume back on
#    the old member with its labelled table and removes the mirror; a
#    second --abort says there is nothing to abort;
#  - killed as the mirror was made, the volume suspended and not on it
#    yet: --abort removes the mirror and resumes the volume on C; with no
#    mirror and the volume suspended (killed while saving regions for
#    --ignore-read-errors), --abort resumes it;
#  - killed in the label switch before its commit point (after the first
#    primary): --abort rolls the labels back (A, B and C carry generation
#    1 again, D none) and puts the volume back on C;
#  - killed at the commit point (every primary at generation 2): --abort
#    finishes the replace instead: the volume on D with its labelled
#    table, A, B and D at generation 2 (backups too), C without a label.
# Data written before stays readable throughout (fio verify).
#
# topology: size=512M ctl=2 ctl=2
# timeout: 300
# kernels: 6.1 7.2
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
modprobe dm-mirror 2>/dev/null || true
bds_four_disks
run bdsadm create vol --chunk 64K "$A" "$B" "$C"
T0=$(dmsetup table vol)
JOB="--name=p --filename=/dev/mapper/vol --direct=1 --ioengine=psync --rw=write --bs=64k --size=128m --verify=crc32c --randseed=5 --output-format=terse --terse-version=3"
# shellcheck disable=SC2086
fio $JOB --do_verify=0 >/dev/null 2>&1 || fail "fio write failed"

# state: the volume's state, ACTIVE or SUSPENDED
state() { dmsetup info vol | sed -n 's/^State: *\([A-Z]*\).*/\1/p'; }

# wait_mirror: until the replace's mirror is in the volume's table
wait_mirror() {
	_i=0
	while ! dmsetup info vol-replace >/dev/null 2>&1 && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	sleep 1
	check "the replace put its mirror in place" dmsetup info vol-replace
}
back() {
	expect_eq "$(dmsetup table vol)" "$T0" "$1: the volume's table is the one before"
	check "$1: no mirror left" sh -c '! dmsetup info vol-replace >/dev/null 2>&1'
	check "$1: D carries no label" sh -c "! bdsadm examine $D >/dev/null 2>&1"
	# shellcheck disable=SC2086
	check "$1: the data verifies" sh -c "fio $JOB --verify_only >/dev/null 2>&1"
}

bdsadm replace vol "$C" "$D" >/tmp/out 2>/tmp/err &
P=$!
wait_mirror
kill -TERM $P
wait $P
expect_eq "$?" 1 "SIGTERM: replace exits 1"
check "SIGTERM: it says it was aborted" grep -qF "aborted; the volume stays on $C, nothing was changed" /tmp/err
back SIGTERM

bdsadm replace vol "$C" "$D" >/tmp/out 2>/tmp/err &
P=$!
wait_mirror
kill -KILL $P
wait $P
check "SIGKILL: the mirror is still in the table" sh -c "dmsetup table vol | grep -v '$(bds_majmin "$C") 2048' >/dev/null"
run bdsadm replace --abort vol
back "--abort"
if bdsadm replace --abort vol >/tmp/out 2>/tmp/err; then
	check "a second --abort: refused" false
fi
check "a second --abort: nothing to abort" grep -qF "no replace to abort" /tmp/err

# killed with the volume suspended, its mirror made but not in its table
rc=0
BDSADM_TEST_KILL_AT=mirror-made bdsadm replace vol "$C" "$D" >/tmp/out 2>/tmp/err || rc=$?
expect_eq "$rc" 137 "killed as the mirror was made (SIGKILL)"
expect_eq "$(state)" SUSPENDED "... the volume is left suspended"
bdsadm replace --abort vol >/tmp/out 2>/tmp/err || true
cat /tmp/out /tmp/err
check "--abort: before the volume was on the mirror" \
	grep -qF "aborted before the volume was on the mirror; the volume is on $(readlink -f "$C") again" /tmp/out
expect_eq "$(state)" ACTIVE "... the volume is active again"
[ "$(state)" = ACTIVE ] || dmsetup resume vol
back "--abort as the mirror was made"
# no mirror, the volume suspended (killed while saving regions for
# --ignore-read-errors): --abort resumes it
run dmsetup suspend vol
bdsadm replace --abort vol >/tmp/out 2>/tmp/err || true
check "--abort without a mirror, the volume suspended: resumes it" \
	grep -qF "no mirror, the volume was suspended (a replace killed as it began): resumed" /tmp/out
expect_eq "$(state)" ACTIVE "... the volume is active again"
[ "$(state)" = ACTIVE ] || dmsetup resume vol

rc=0
BDSADM_TEST_KILL_AT=one-primary bdsadm replace vol "$C" "$D" >/tmp/out 2>/tmp/err || rc=$?
expect_eq "$rc" 137 "killed after the first primary (SIGKILL)"
check "... where one member's primary is at generation 2" sh -c \
	"for d in $A $B $C; do bdsadm examine \$d; done | grep 'Primary copy : valid at sector [0-9]*, generation 2' >/dev/null"
bdsadm replace --abort vol >/tmp/out 2>/tmp/err || true
cat /tmp/out /tmp/err
check "--abort before the commit point: rolls the labels back" \
	grep -qF "aborted (the labels rolled back); the volume is on $(readlink -f "$C") again" /tmp/out
back "--abort before the commit point"
expect_eq "$(bds_gen_of "$A")$(bds_gen_of "$B")$(bds_gen_of "$C")" 111 "... A, B and C carry generation 1 again"

rc=0
BDSADM_TEST_KILL_AT=committed bdsadm replace vol "$C" "$D" >/tmp/out 2>/tmp/err || rc=$?
expect_eq "$rc" 137 "killed at the commit point (SIGKILL)"
bdsadm replace --abort vol >/tmp/out 2>/tmp/err || true
cat /tmp/out /tmp/err
check "--abort past the commit point: finishes the replace" \
	grep -qF "had passed its commit point: finished; member" /tmp/out
T1=$(dmsetup table vol)
log "after: $T1"
check "... the volume is on D, with its labelled table" sh -c \
	"echo '$T1' | grep -F ' $(bds_majmin "$D") 2048 ' | grep ' volume [0-9a-f-]*\$' >/dev/null"
check "... no mirror left" sh -c '! dmsetup info vol-replace >/dev/null 2>&1'
expect_eq "$(bds_gen_of "$A")$(bds_gen_of "$B")$(bds_gen_of "$D")" 222 "... A, B and D carry generation 2"
check "... A's backup copy too" sh -c \
	"bdsadm examine $A | grep 'Backup copy : valid at sector [0-9]*, generation 2' >/dev/null"
check "... C carries no label" sh -c "! bdsadm examine $C >/dev/null 2>&1"
# shellcheck disable=SC2086
check "... the data verifies" sh -c "fio $JOB --verify_only >/dev/null 2>&1"
run bdsadm stop vol
run bdsadm assemble vol
expect_eq "$(dmsetup table vol)" "$T1" "... and assembles again on D"
bds_replaced_end
pass
