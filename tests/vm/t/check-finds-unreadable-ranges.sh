#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm check reads every sector of every member and reports exactly the
# ranges that cannot be read, by member and by volume sector.
#
# Four members m0..m3 (dm-linear over the disks, bds_linear_members), a
# volume "ck" of 64 KiB units over groups (m0 m1) (m2 m3): order 0,2,1,3,
# so member 1 is at stripe position 2; 64 MiB of each member is used.
#  - On the clean volume check exits 0, says "0 unreadable ranges", and
#    its last progress line (stderr, not a terminal) is at 100.0%.
#  - With --rate 100 (MB/s) it reads the 256 MiB in no less than 2 s
#    (a lower bound only: the rate is a cap, and TCG is slow anyway).
#  - m1 then gets two error-target windows (table: linear, error,
#    linear, error, linear): 64 sectors inside stripe unit 100, and 64
#    sectors across the end of unit 300 and the start of unit 301.
#    check exits 1 and lists exactly two unreadable ranges: member 1
#    (stripe position 2, /dev/mapper/m1), the device sectors of each
#    window, and the volume sectors the layout maps them to (one range
#    for the first; two for the second, one per unit), computed here
#    from the layout rule: volume = (unit x 4 + position) x 128 + offset.
#  - The volume health stays AAAA (members are read directly); reading
#    the volume sectors check names fails and the sectors next to them
#    read, through the volume.
#  - check of a name that is not a volume exits 1, usage errors exit 2.
#
# topology: size=512M backing=file ctl=2 ctl=2
# timeout: 240
# memory: 1024
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest"
VOL=ck
DM=/dev/mapper/$VOL
CHUNK=128
MLEN=131072			# 64 MiB of each member
bds_load_module

# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
bds_linear_members "$@"
bds_dm_create $VOL "0 $((MLEN * 4)) bds-stripe $CHUNK 2 \
2 $(bds_majmin /dev/mapper/m0) 0 $(bds_majmin /dev/mapper/m1) 0 \
2 $(bds_majmin /dev/mapper/m2) 0 $(bds_majmin /dev/mapper/m3) 0"
expect_eq "$(dmsetup status $VOL | cut -d' ' -f7)" "0,2,1,3" "order"
# the volume is a bdsadm volume by its dm UUID only; check needs no label
dmsetup rename $VOL --setuuid BDS-0c0c0c0c-0000-4000-8000-000000000001 ||
	fail "cannot set the dm UUID of $VOL"

# check_to ARGS...: bdsadm check ARGS; stdout /tmp/ck.out, stderr
# /tmp/ck.err, exit status RC, seconds taken SECS.
check_to() {
	_t0=$(bds_uptime)
	bdsadm check "$@" >/tmp/ck.out 2>/tmp/ck.err
	RC=$?
	SECS=$(($(bds_uptime) - _t0))
	log "bdsadm check $* -> $RC in ${SECS}s"
	cat /tmp/ck.out
	tail -n 3 /tmp/ck.err
}

# --- clean ------------------------------------------------------------------------
check_to $VOL
expect_eq "$RC" 0 "clean volume: exit status"
check "clean volume: no unreadable range" grep -qF "$VOL: 4 members of $MLEN sectors read, 0 unreadable ranges" /tmp/ck.out
check "clean volume: progress reaches 100.0%" grep -qF "check $VOL: 100.0% member 3 of 4" /tmp/ck.err
check_to --rate 100 $VOL
expect_eq "$RC" 0 "--rate 100: exit status"
check "--rate 100: 256 MiB take at least 2 s (took ${SECS}s)" [ "$SECS" -ge 2 ]

# --- two unreadable windows on m1 --------------------------------------------------
A1=$((100 * CHUNK + 32)) N1=64
A2=$((300 * CHUNK + 96)) N2=64
E1=$((A1 + N1)) E2=$((A2 + N2))
bds_dm_switch m1 "0 $A1 linear $D1 0
$A1 $N1 error
$E1 $((A2 - E1)) linear $D1 $E1
$A2 $N2 error
$E2 $((DISK_SECTORS - E2)) linear $D1 $E2"
# volume sector of member 1 (position 2) sector S: (S/128 x 4 + 2) x 128 + S%128
vs() { echo $((($1 / CHUNK * 4 + 2) * CHUNK + $1 % CHUNK)); }
V1=$(vs $A1)
V2A=$(vs $A2) V2B=$(vs $((301 * CHUNK)))
check_to $VOL
expect_eq "$RC" 1 "unreadable ranges: exit status"
expect_eq "$(grep -c '^unreadable:' /tmp/ck.out)" 2 "two unreadable ranges listed"
check "window 1: member 1, its device sectors, one volume range" grep -qxF \
	"unreadable: member 1 (stripe position 2, /dev/mapper/m1), device sectors $A1-$((E1 - 1)) ($N1 sectors), volume sectors $V1-$((V1 + N1 - 1))" /tmp/ck.out
check "window 2: member 1, its device sectors, a volume range per unit" grep -qxF \
	"unreadable: member 1 (stripe position 2, /dev/mapper/m1), device sectors $A2-$((E2 - 1)) ($N2 sectors), volume sectors $V2A-$((V2A + 31)) $V2B-$((V2B + 31))" /tmp/ck.out
check "the summary counts them" grep -qF "$VOL: 4 members of $MLEN sectors read, 2 unreadable ranges" /tmp/ck.out
expect_eq "$(bds_health $VOL)" AAAA "check reads the members directly: health unchanged"

# the volume itself agrees: the named sectors fail, their neighbours read
rd() { dd if=$DM of=/dev/null bs=512 skip="$1" count=1 iflag=direct status=none 2>/dev/null; }
check "volume sector $V1 (first of window 1) fails" sh -c "! dd if=$DM of=/dev/null bs=512 skip=$V1 count=1 iflag=direct status=none 2>/dev/null"
check "volume sector $((V1 - 1)) reads" rd $((V1 - 1))
check "volume sector $((V1 + N1)) reads" rd $((V1 + N1))
check "volume sector $((V2B + 31)) (last of window 2) fails" sh -c "! dd if=$DM of=/dev/null bs=512 skip=$((V2B + 31)) count=1 iflag=direct status=none 2>/dev/null"
check "volume sector $((V2B + 32)) reads" rd $((V2B + 32))

# --- refusals --------------------------------------------------------------------------
check_to nosuchvolume
expect_eq "$RC" 1 "check of no volume: exit status"
check "says how to find the volumes" grep -qF "'bdsadm list' shows the volumes" /tmp/ck.err
check_to
expect_eq "$RC" 2 "check without NAME: exit status"
check_to --rate fast $VOL
expect_eq "$RC" 2 "--rate fast: exit status"

run dmsetup remove $VOL
for m in m0 m1 m2 m3; do run dmsetup remove $m; done
pass
