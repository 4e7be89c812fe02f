#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm plan --measure reads the disks' and controllers' bandwidth from
# the devices themselves, and create --measure --weights bandwidth lays
# the volume out by it in one step.  Three disks capped at 10 MB/s
# (10^6 bytes/s, QEMU throttle groups), one alone on a controller capped
# at 15 MB/s, two sharing another capped at 15 MB/s (make bench's T2 in
# small):
#  - plan --measure: a figure for each disk alone, one for the shared
#    controller's two disks together, "one disk" for the lone controller;
#    the measured figures are the plan's speeds; nothing was written
#    (every disk's first 16 MiB unchanged);
#  - plan --measure --json: the figures, logged for make check's JSON
#    schema check, the lone controller's "together" null;
#  - a disk that another reader reads during its measurement is marked
#    busy (a note, and "busy": true in the JSON), the others not;
#  - create --measure refuses a name taken and a disk that holds data
#    (swap) before it reads the disks: no "measuring" line, and no more
#    read from a disk than probes and label reads;
#  - create --measure --weights bandwidth makes a labelled volume of the
#    three disks, each label with what its disk read (examine shows it;
#    the lone controller's disk with no controller limit; examine
#    --json logged for the schema check);
#  - detail --interval compares each group's reads and writes with the
#    figures its members' labels record: the lone disk's group with its
#    disk, the pair's with their disks added or their controller's
#    figure when lower (human and --json, the JSON logged);
#  - grow --weights bandwidth chooses the weights from the figures the
#    labels record: create's own, so nothing to do;
#  - --measure refuses a disk held by device-mapper, naming it (with
#    --force, past plan's own check of disks in use), and
#    --measure with --disk-mbps is a usage error.
# How close the figures come to the caps, and whether the weights they
# give reach the true caps' limit, depend on time and host load: make
# bench's measure-t1 and measure-t2 suites hold them against the caps
# (tests/bench/report-measure), not this test.
#
# topology: size=1G ctl=15000000:1x10000000 ctl=15000000:2x10000000
# timeout: 300
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 3 ] || fail "need 1 + 2 disks, have: $*"
D0=$(bds_dev "$1") D1=$(bds_dev "$2") D2=$(bds_dev "$3")
for d in "$D0" "$D1" "$D2"; do
	dd if="/dev/$d" bs=1M count=16 iflag=direct 2>/dev/null | md5sum >"/tmp/$d.before"
done

bdsadm plan --measure --weights bandwidth --chunk 16K "$@" >/tmp/plan.out 2>/tmp/plan.err
expect_eq "$?" 0 "plan --measure: exit status"
cat /tmp/plan.err /tmp/plan.out
for d in "$D0" "$D1" "$D2"; do
	check "$d alone: a figure" grep -qE "^  $d +alone +[0-9]+\.[0-9] MB/s" /tmp/plan.out
done
check "the shared controller's disks together: a figure" grep -qE "^  [a-z0-9]+ +disks together +[0-9]+\.[0-9] MB/s" /tmp/plan.out
check "the lone controller: one disk, no limit of its own can show" grep -qE "one disk: no limit of its own can show" /tmp/plan.out
check "the measured figures are the plan's speeds" grep -qF "Bandwidth (disks and controllers as measured above):" /tmp/plan.out
for d in "$D0" "$D1" "$D2"; do
	dd if="/dev/$d" bs=1M count=16 iflag=direct 2>/dev/null | md5sum >"/tmp/$d.after"
	check "$d: nothing written by the measurement" cmp -s "/tmp/$d.before" "/tmp/$d.after"
done

bdsadm plan --measure --measure-time 6 --json "$@" >/tmp/plan.json 2>/dev/null
expect_eq "$?" 0 "plan --measure --json: exit status"
bds_json_log plan /tmp/plan.json
check "plan --measure --json: the shared controller's figure" grep -qE '"together_mbps": [0-9]+\.[0-9]' /tmp/plan.json
check "plan --measure --json: the lone controller's, null" grep -qF '"together_mbps": null' /tmp/plan.json

# another reader on the first disk, from before its measurement to after
# (one dd, reading the 1 GiB disk for longer than the measurement: it
# takes about half of the disk's 10 MB/s; a dd per MiB, forked under
# TCG, would read too little to skew the figure, or to be seen)
dd if="/dev/$D0" of=/dev/null bs=1M iflag=direct 2>/dev/null &
reader=$!
bdsadm plan --measure --json "$@" >/tmp/busy.json 2>/tmp/busy.note
expect_eq "$?" 0 "plan --measure --json beside another reader: exit status"
kill "$reader"
wait "$reader" 2>/dev/null
cat /tmp/busy.note
check "$D0, read by another during its measurement: busy" grep -qE "\"device\": \"$D0\", .*\"busy\": true" /tmp/busy.json
for d in "$D1" "$D2"; do
	check "$d, read by nobody else: not busy" grep -qE "\"device\": \"$d\", .*\"busy\": false" /tmp/busy.json
done
check "... and a note names it" grep -qF "$D0 had other I/O during its measurement" /tmp/busy.json

# what create refuses anyway is refused before --measure reads the disks
# for seconds: no "measuring" line, and no more read from a disk than
# its probe and label reads (a measurement reads tens of MiB)
DISKS="$*"
refused_unmeasured() { # WHAT MESSAGE
	r0=$(bds_stat_field 3 "$D1")
	# shellcheck disable=SC2086 # one word per disk
	bdsadm create fast --measure --weights bandwidth --chunk 16K $DISKS \
		>/tmp/early.out 2>/tmp/early.err
	expect_eq "$?" 1 "create --measure, $1: exit status"
	cat /tmp/early.err
	check "... refused: $2" grep -qF "$2" /tmp/early.err
	check "... before measuring" sh -c "! grep -q 'measuring (reads only)' /tmp/early.err"
	r1=$(bds_stat_field 3 "$D1")
	check "... $D1 not read for a measurement ($((r1 - r0)) sectors read)" \
		[ $((r1 - r0)) -lt 16384 ]
}
dmsetup create fast --table "0 8 zero" || fail "cannot create dm device fast"
refused_unmeasured "the name taken" "a device-mapper device named 'fast' already exists"
dmsetup remove fast
mkswap "/dev/$D2" >/dev/null || fail "cannot put a swap signature on $D2"
refused_unmeasured "$D2 holds swap" "refusing to make devices that hold data into members"
check "... naming $D2 ($3)" grep -qE "^bdsadm: $3 holds .*swap" /tmp/early.err
run wipefs -q -a "/dev/$D2"

run bdsadm create fast --measure --weights bandwidth --chunk 16K "$@"
expect_eq "$(dmsetup table fast | tr ' ' '\n' | grep -c '^[0-9]*:[0-9]*$')" 3 \
	"create --measure --weights bandwidth: a volume of the three disks"
check "... labelled" sh -c "bdsadm examine /dev/$D0 >/dev/null"
# each member's label records its own figures (compat MEASURED)
for d in "$D0" "$D1" "$D2"; do
	bdsadm examine "/dev/$d" >"/tmp/$d.examine" 2>&1
	grep "Measured :" "/tmp/$d.examine" || true
	check "$d's label: what its disk read alone" \
		grep -qE "^ +Measured : [0-9.]+ MB/s alone, .*; --measure\)\$" "/tmp/$d.examine"
done
check "$D0, alone on its controller: no controller limit recorded" \
	grep -qE "^ +Measured : [0-9.]+ MB/s alone, its controller no limit" "/tmp/$D0.examine"
bdsadm examine --json "/dev/$D1" >/tmp/examine.json 2>/dev/null
bds_json_log examine /tmp/examine.json
check "examine --json: the figures as measured" \
	grep -qE '"measured": \{"disk_mbps": [0-9.]+, "controller_mbps": ([0-9.]+|null), "time": [0-9]+\}' /tmp/examine.json

# detail --interval compares each group's rates with the recorded
# figures: D0's group with D0's disk, D1 and D2's with their disks added
# or their controller's figure when lower
fig() { # DEV KEY: the figure KEY of DEV's label (examine --json)
	bdsadm examine --json "/dev/$1" 2>/dev/null |
		sed -n "s/.*\"measured\": {.*\"$2\": \([0-9.]*\).*/\1/p"
}
want=$(awk -v a="$(fig "$D0" disk_mbps)" -v b="$(fig "$D1" disk_mbps)" \
	-v c="$(fig "$D2" disk_mbps)" -v l="$(fig "$D1" controller_mbps)" \
	'BEGIN { s = b + c; if (l != "" && l < s) s = l; printf "%.2f", a + s }')
dd if=/dev/mapper/fast of=/dev/null bs=1M count=24 iflag=direct status=none &
bdsadm detail fast --interval 1 >/tmp/detail.out 2>&1
bdsadm detail fast --interval 1 --json >/tmp/detail.json 2>/dev/null
wait
cat /tmp/detail.out
bds_json_log detail /tmp/detail.json
check "detail --interval: each group against what create --measure read" \
	grep -qF "Against what create --measure read" /tmp/detail.out
expect_eq "$(grep -cE '^  group [0-9]+ \(.*\): [0-9.]+ MB/s now of [0-9.]+ MB/s measured \([0-9]+ %\)$' /tmp/detail.out)" 2 \
	"detail --interval: a line for each of the two groups"
expect_eq "$(tr ',{' '\n' </tmp/detail.json | sed -n 's/^ *"measured_mbps": \([0-9.]*\).*/\1/p' |
	awk '{ s += $1 } END { printf "%.2f", s }')" "$want" \
	"detail --json: the groups' measured_mbps are the labels' figures (D0; D1 + D2 or their controller)"

# grow --weights bandwidth goes by the figures the labels record: the
# figures create --measure chose its weights by give the same weights,
# so there is nothing to restripe
bdsadm grow fast --weights bandwidth >/tmp/grow.out 2>&1
expect_eq "$?" 0 "grow --weights bandwidth by the recorded figures: exit status"
cat /tmp/grow.out
check "... by the speeds the labels record" \
	grep -qF "from the speeds create --measure recorded in the labels on" /tmp/grow.out
check "... the weights create chose from them: nothing to do" \
	grep -qF "it has that layout and those weights already; nothing to do" /tmp/grow.out

# --force gets past plan's own check of disks in use: --measure itself
# must refuse, as its exclusive open fails
bdsadm plan --force --measure "$@" >/tmp/busy.out 2>/tmp/busy.err
expect_eq "$?" 1 "plan --force --measure of disks held by the volume: exit status"
cat /tmp/busy.err
check "... refused by --measure, naming the disk and why" \
	grep -qE "^bdsadm: --measure: /dev/$D0 is in use \(an exclusive open fails" /tmp/busy.err
bdsadm plan --measure --disk-mbps 10 "$@" >/dev/null 2>/tmp/usage.err
expect_eq "$?" 2 "--measure with --disk-mbps: a usage error"
check "... saying they exclude each other" grep -qF "exclude each other" /tmp/usage.err
run bdsadm stop fast
run bdsadm wipe "$@"
bds_expect_clean
pass
