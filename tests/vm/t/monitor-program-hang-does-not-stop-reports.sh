#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A --program that hangs does not stop bdsadm monitor: other failures are
# still reported at once, the program is killed at its timeout and the
# next report's program runs; SIGTERM ends the monitor while a program
# runs, and the program with it.  The program runs with no signal
# blocked or ignored, in a process group of its own.
#
# Four members m0..m3 (dm-linear over the disks, bds_linear_members), a
# volume "mon" (dm UUID BDS-...) of 64 KiB units over groups (m0 m1)
# (m2 m3).  The monitor runs in the background (--foreground, --rescan
# 1, --program-timeout 20; the test's shell starts it with SIGINT and
# SIGQUIT ignored, as sh does with "&") with --program a script that
# appends its call, the signal mask (SigBlk) and ignored signals
# (SigIgn) it gives its commands, and its process group to a file, and
# then hangs for two calls: on MemberFailed of m1 it ignores SIGTERM (so
# does the sleep it waits for, which inherits that), on MemberFailed of
# m3 it does not.  Then:
#  - m1 is switched to the error target and a stripe unit on it is read:
#    the program starts with MemberFailed mon /dev/mapper/m1, with SigBlk
#    and SigIgn 0 and a process group of its own (pgid = pid), and hangs;
#  - m3 fails the same way: the monitor's own report of it (stdout)
#    arrives while the first program still hangs, before its timeout;
#  - the first program is stopped at its timeout: the monitor says it
#    timed out, naming the program, MemberFailed, mon and /dev/mapper/m1;
#    it ignores SIGTERM, so SIGKILL ends it, and the sleep it waited for
#    (same process group) too; the program then runs for m3's report;
#  - SIGTERM to the monitor while the second program hangs (its timeout
#    is 20 s away): the monitor exits with status 0 within 10 s, says it
#    stopped the program, and the program and its sleep are gone;
#  - the program was called exactly twice, m1's report first.
#
# topology: size=512M backing=file ctl=2 ctl=2
# timeout: 300
# memory: 1024
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest"
VOL=mon
DM=/dev/mapper/$VOL
CHUNK=128
UNIT=$((CHUNK * 512))
MLEN=131072			# 64 MiB of each member
EV=/tmp/events
TIMEOUT=20
bds_load_module

# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
bds_linear_members "$@"
echo "0 $((MLEN * 4)) bds-stripe $CHUNK 2 \
2 $(bds_majmin /dev/mapper/m0) 0 $(bds_majmin /dev/mapper/m1) 0 \
2 $(bds_majmin /dev/mapper/m2) 0 $(bds_majmin /dev/mapper/m3) 0" |
	dmsetup create $VOL -u BDS-0d0d0d0d-0000-4000-8000-000000000003 ||
	fail "cannot create $VOL"
bds_order_vars $VOL
log "order $ORDER"

# The signal state is read by sed from its own /proc/self/status: busybox
# ash ignores SIGQUIT itself, and gives the commands it runs what it
# inherited.
cat >/tmp/prog.sh <<'PROG'
#!/bin/sh
echo "start $$ pgid=$(cut -d' ' -f5 /proc/$$/stat)" \
	"blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' /proc/self/status)" \
	"ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status) call: $*" >>/tmp/events
case "$1 $3" in
"MemberFailed /dev/mapper/m1")
	trap '' TERM
	sleep 100000 &
	echo "$$ $!" >/tmp/hang1
	wait
	;;
"MemberFailed /dev/mapper/m3")
	sleep 100000 &
	echo "$$ $!" >/tmp/hang2
	wait
	;;
esac
echo "end $$ call: $*" >>/tmp/events
PROG
chmod +x /tmp/prog.sh
: >$EV

# alive PID: the process exists and is not a zombie.
alive() {
	_s=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	[ -n "$_s" ] && [ "$_s" != Z ]
}

# gone SECONDS PID...: until none of the PIDs is alive (false at once
# for a PID that is empty or 0: a process the test did not learn of).
gone() {
	_end=$(($(bds_uptime) + $1))
	shift
	for _p in "$@"; do
		[ "${_p:-0}" -gt 0 ] || return 1
		while alive "$_p"; do
			[ "$(bds_uptime)" -lt "$_end" ] || return 1
			sleep 0.1
		done
	done
}

# fail_member M: switch mM to the error target and read a stripe unit of
# the volume that lives on it (the read fails: the member goes D).
fail_member() {
	_k=0
	while [ "$(bds_unit_member $_k "$ORDER")" != "$1" ]; do _k=$((_k + 1)); done
	bds_dm_switch "m$1" "0 $DISK_SECTORS error"
	if dd if=$DM of=/dev/null bs=$UNIT skip=$_k count=1 iflag=direct status=none 2>/dev/null; then
		fail "unit $_k (m$1) read after m$1 failed"
	fi
	log "unit $_k on m$1 read: failed, as it should"
}

bdsadm monitor --foreground --rescan 1 --program /tmp/prog.sh \
	--program-timeout $TIMEOUT >/tmp/mon.out 2>/tmp/mon.err &
MON=$!
check "monitor started, watching one volume" bds_wait_text 10 /tmp/mon.out "monitoring 1 bds-stripe volume"

# --- the first program hangs ---------------------------------------------------
fail_member 1
check "the program started for MemberFailed of m1" \
	bds_wait_text 10 $EV "call: MemberFailed $VOL /dev/mapper/m1"
check "the hung program's pids are known" bds_wait_text 10 /tmp/hang1 " "
read -r H1 S1 </tmp/hang1 || true
log "first program: pid ${H1:-?}, its sleep ${S1:-?}"
L1=$(grep -F "call: MemberFailed $VOL /dev/mapper/m1" $EV)
log "$L1"
expect_eq "$(echo "$L1" | sed -n 's/.* blk=\([0-9a-f]*\) .*/\1/p')" 0000000000000000 \
	"the program's blocked signals (SigBlk)"
expect_eq "$(echo "$L1" | sed -n 's/.* ign=\([0-9a-f]*\) .*/\1/p')" 0000000000000000 \
	"the program's ignored signals (SigIgn)"
expect_eq "$(echo "$L1" | sed -n 's/.* pgid=\([0-9]*\) .*/\1/p')" "${H1:-?}" \
	"the program leads a process group of its own"

# --- another failure is reported while it hangs --------------------------------
fail_member 3
check "the monitor reports m3's failure" \
	bds_wait_text 10 /tmp/mon.out "MemberFailed: volume $VOL, member 3 "
check "... while the first program still hangs" alive "${H1:-0}"
check "... before its timeout" sh -c "! grep -q 'timed out' /tmp/mon.out"

# --- the timeout ---------------------------------------------------------------
check "the program runs for m3 once the first one is stopped" \
	bds_wait_text $((TIMEOUT + 20)) $EV "call: MemberFailed $VOL /dev/mapper/m3"
check "the monitor says the program timed out, naming it, the event and the volume" \
	grep -qE "/tmp/prog.sh MemberFailed $VOL /dev/mapper/m1: .*timed out" /tmp/mon.out
check "it ignored SIGTERM: SIGKILL ended it" \
	grep -qE "/tmp/prog.sh MemberFailed $VOL /dev/mapper/m1: .*SIGKILL" /tmp/mon.out
check "the first program and its sleep are gone" gone 10 "${H1:-}" "${S1:-}"
check "the second program's pids are known" bds_wait_text 10 /tmp/hang2 " "
read -r H2 S2 </tmp/hang2 || true
log "second program: pid ${H2:-?}, its sleep ${S2:-?}"

# --- SIGTERM while a program runs ----------------------------------------------
check "the second program hangs" alive "${H2:-0}"
kill -TERM $MON
check "SIGTERM: the monitor ends within 10 s, before the program's timeout" gone 10 $MON
if alive $MON; then
	log "the monitor did not stop: SIGKILL"
	kill -KILL $MON
fi
wait $MON
expect_eq "$?" 0 "monitor stopped by SIGTERM: exit status"
check "the second program and its sleep are gone" gone 10 "${H2:-}" "${S2:-}"
check "the monitor says it stopped the program" \
	grep -qE "/tmp/prog.sh MemberFailed $VOL /dev/mapper/m3: .*stopping" /tmp/mon.out

log "program calls:"
cat $EV
log "monitor stdout:"
cat /tmp/mon.out
log "monitor stderr:"
cat /tmp/mon.err
expect_eq "$(grep -c '^start ' $EV)" 2 "two program calls"
expect_eq "$(grep '^start ' $EV | sed 's/.* call: //' | tr '\n' ';')" \
	"MemberFailed $VOL /dev/mapper/m1;MemberFailed $VOL /dev/mapper/m3;" \
	"the calls, in the order of the failures"
expect_eq "$(grep -c '^end ' $EV)" 0 "no hung program ran on to its end"
for p in "${H1:-}" "${S1:-}" "${H2:-}" "${S2:-}"; do
	[ -n "$p" ] && kill -KILL "$p" 2>/dev/null
done
run dmsetup remove $VOL
for m in m0 m1 m2 m3; do run dmsetup remove $m; done
pass
