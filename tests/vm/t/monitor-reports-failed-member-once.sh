#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm monitor reports a member that fails under load within 5 s,
# exactly once, naming the right member; it lives through volumes that
# come and go; --oneshot reports the failed member and exits 1.
#
# Four members m0..m3 (dm-linear over the disks, bds_linear_members), a
# volume "mon" (dm UUID BDS-...) of 64 KiB units over groups (m0 m1)
# (m2 m3): order 0,2,1,3, member 1 at stripe position 2.  The monitor
# runs in the background (--foreground: its reports on stdout too,
# --rescan 1) with --program a script that appends the uptime and its
# arguments to a file.  Then:
#  - fio (random 4 KiB reads and writes, O_DIRECT, errors ignored) runs
#    on the volume and m1 is switched to the error target: the program
#    gets "MemberFailed mon /dev/mapper/m1" no later than 5 s after the
#    switch (the issue's bound; the path is an I/O error, a workqueue
#    event, a woken thread and a fork, well under 1 s even under TCG,
#    so 5 s is generous), and only once, although m1 keeps failing I/O
#    (and raising dm events) for several seconds more; the report on
#    stdout names member 1, stripe position 2, /dev/mapper/m1, the
#    health change A -> D and m1's error count (status field 7, target
#    1.3.0): a number of at least 1 and at most the count the status
#    gives after the load (later errors raise no report);
#  - a volume "tmp" created while the monitor runs is reported
#    (VolumeAppeared), and its removal too (VolumeDisappeared); the
#    monitor is still running;
#  - bdsadm monitor --oneshot says MemberFoundFailed for member 1 of
#    mon with the error count the status gives now, "1 volume, 1 failed
#    member", and exits 1;
#  - --oneshot --mail admin@example.org hands sendmail -t -oi (a stand-in
#    at /usr/sbin/sendmail) one mail, to that address, whose subject
#    names MemberFoundFailed and mon, and whose body names /dev/mapper/m1;
#  - mon removed: the monitor reports VolumeDisappeared, and --oneshot
#    then exits 0 ("0 volumes");
#  - SIGTERM stops the monitor with exit status 0.
#
# topology: size=512M backing=file ctl=2 ctl=2
# timeout: 240
# memory: 1024
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest"
command -v fio >/dev/null || fail "fio not in the guest"
VOL=mon
DM=/dev/mapper/$VOL
CHUNK=128
MLEN=131072			# 64 MiB of each member
EV=/tmp/events
bds_load_module

# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
bds_linear_members "$@"
echo "0 $((MLEN * 4)) bds-stripe $CHUNK 2 \
2 $(bds_majmin /dev/mapper/m0) 0 $(bds_majmin /dev/mapper/m1) 0 \
2 $(bds_majmin /dev/mapper/m2) 0 $(bds_majmin /dev/mapper/m3) 0" |
	dmsetup create $VOL -u BDS-0d0d0d0d-0000-4000-8000-000000000001 ||
	fail "cannot create $VOL"
expect_eq "$(dmsetup status $VOL | cut -d' ' -f7)" "0,2,1,3" "order"

cat >/tmp/prog.sh <<'PROG'
#!/bin/sh
read -r up _ </proc/uptime
echo "$up $*" >>/tmp/events
PROG
chmod +x /tmp/prog.sh
: >$EV

bdsadm monitor --foreground --rescan 1 --program /tmp/prog.sh \
	>/tmp/mon.out 2>/tmp/mon.err &
MON=$!
check "monitor started, watching one volume" bds_wait_text 10 /tmp/mon.out "monitoring 1 bds-stripe volume"

# --- a member fails under load ------------------------------------------------------
timeout -s KILL 80 fio --name=load --filename=$DM --ioengine=libaio \
	--iodepth=8 --direct=1 --rw=randrw --bs=4k --size=64m --time_based \
	--runtime=12 --continue_on_error=all --ignore_error=EIO,EIO \
	--output-format=terse >/tmp/fio.out 2>/tmp/fio.err &
FIO=$!
sleep 2
check "fio is running when m1 fails" kill -0 $FIO
EV0=$(bds_events $VOL)
# T0 before the switch: the measured delay includes the switch, an upper bound
read -r T0 _ </proc/uptime
bds_dm_switch m1 "0 $DISK_SECTORS error"
log "m1 switched to error from $T0 on"
check "the program got MemberFailed" bds_wait_text 10 $EV "MemberFailed $VOL /dev/mapper/m1"
T1=$(sed -n "s|^\\([0-9.]*\\) MemberFailed $VOL /dev/mapper/m1\$|\\1|p" $EV | sed -n 1p)
log "reported at ${T1:-never}"
check "reported within 5 s of the failure ($T0 -> ${T1:-never})" \
	awk -v a="$T0" -v b="${T1:-99999}" 'BEGIN { exit !(b - a <= 5) }'
sleep 4				# fio keeps hitting m1
EV1=$(bds_events $VOL)
check "m1's errors raised more than one dm event ($EV0 -> $EV1)" [ "$EV1" -ge $((EV0 + 2)) ]
wait $FIO
log "fio exit status $?"
expect_eq "$(grep -c "MemberFailed" $EV)" 1 "exactly one MemberFailed report"
expect_eq "$(grep -c "Member" $EV)" 1 "no other member report"
expect_eq "$(bds_health $VOL)" ADAA "health string (table order: member 1)"
check "stdout names member 1, position 2, /dev/mapper/m1, A -> D, an error count" grep -qE \
	"MemberFailed: volume $VOL, member 1 \\(stripe position 2, /dev/mapper/m1, serial none, controller none\\): health A -> D; errors [0-9]+;" /tmp/mon.out
# errors_in FILE EVENT: the error count of member 1 in FILE's EVENT report.
errors_in() {
	sed -n "s|^.*$2: volume $VOL, member 1 (.*): health A -> D[^;]*; errors \\([0-9][0-9]*\\);.*|\\1|p" "$1" | sed -n 1p
}
# status field 7 of member 1: the second of the counts
ERR_NOW=$(bds_errors $VOL | cut -d, -f2)
ERR_REP=$(errors_in /tmp/mon.out MemberFailed)
log "m1's error count: ${ERR_REP:-none} in the report, $ERR_NOW in the status now"
check "the report's error count is a number >= 1 (${ERR_REP:-none})" [ "${ERR_REP:-0}" -ge 1 ]
check "... and at most the status' count now ($ERR_NOW)" [ "${ERR_REP:-0}" -le "${ERR_NOW:-0}" ]

# --- volumes come and go ----------------------------------------------------------
echo "0 $((CHUNK * 16)) bds-stripe $CHUNK 1 2 $(bds_majmin /dev/mapper/m0) $MLEN $(bds_majmin /dev/mapper/m2) $MLEN" |
	dmsetup create tmp -u BDS-0d0d0d0d-0000-4000-8000-000000000002 ||
	fail "cannot create tmp"
check "VolumeAppeared tmp" bds_wait_text 5 $EV "VolumeAppeared tmp"
run dmsetup remove tmp
check "VolumeDisappeared tmp" bds_wait_text 5 $EV "VolumeDisappeared tmp"
check "monitor still running" kill -0 $MON

# --- oneshot ------------------------------------------------------------------------
bdsadm monitor --oneshot --foreground >/tmp/one.out 2>/tmp/one.err
RC=$?
cat /tmp/one.out /tmp/one.err
expect_eq "$RC" 1 "--oneshot with a failed member: exit status"
check "--oneshot: MemberFoundFailed for member 1" grep -qF \
	"MemberFoundFailed: volume $VOL, member 1 (stripe position 2, /dev/mapper/m1" /tmp/one.out
ERR_NOW=$(bds_errors $VOL | cut -d, -f2)
expect_eq "$(errors_in /tmp/one.out MemberFoundFailed)" "$ERR_NOW" "--oneshot: member 1's error count is the status' (>= 1)"
check "--oneshot: the count is >= 1 ($ERR_NOW)" [ "${ERR_NOW:-0}" -ge 1 ]
check "--oneshot: the summary" grep -qxF "1 volume, 1 failed member" /tmp/one.out

# --- --mail: through /usr/sbin/sendmail -t -oi (a stand-in that keeps the mail)
mkdir -p /usr/sbin
cat >/usr/sbin/sendmail <<'EOS'
#!/bin/sh
{ echo "ARGS: $*"; cat; } >/tmp/mail.$$
EOS
chmod 0755 /usr/sbin/sendmail
bdsadm monitor --oneshot --mail admin@example.org >/tmp/mail.out 2>&1
expect_eq "$?" 1 "--oneshot --mail with a failed member: exit status"
cat /tmp/mail.[0-9]* >/tmp/mails 2>/dev/null || true
cat /tmp/mails
expect_eq "$(grep -c '^ARGS: ' /tmp/mails)" 1 "--mail: one mail for the one failed member"
check "--mail: sendmail -t -oi" grep -qxF "ARGS: -t -oi" /tmp/mails
check "--mail: To: the address" grep -qxF "To: admin@example.org" /tmp/mails
check "--mail: the subject names the event and the volume" grep -qE "^Subject: MemberFoundFailed event on bds-stripe volume $VOL:" /tmp/mails
check "--mail: the body names the member device" grep -qF "member device /dev/mapper/m1" /tmp/mails
rm -f /usr/sbin/sendmail

# --- the volume goes -------------------------------------------------------------
run dmsetup remove $VOL
check "VolumeDisappeared $VOL" bds_wait_text 5 $EV "VolumeDisappeared $VOL"
bdsadm monitor --oneshot --foreground >/tmp/one.out 2>&1
expect_eq "$?" 0 "--oneshot without volumes: exit status"
check "--oneshot: 0 volumes" grep -qxF "0 volumes, 0 failed members" /tmp/one.out
check "monitor still running" kill -0 $MON
kill -TERM $MON
wait $MON
expect_eq "$?" 0 "monitor stopped by SIGTERM: exit status"
log "program calls:"
cat $EV
log "monitor stdout:"
cat /tmp/mon.out
log "monitor stderr:"
cat /tmp/mon.err
expect_eq "$(grep -c . $EV)" 4 "four program calls: MemberFailed, tmp appeared and disappeared, mon disappeared"
for m in m0 m1 m2 m3; do run dmsetup remove $m; done
pass
