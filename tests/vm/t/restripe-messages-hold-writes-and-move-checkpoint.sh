#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The copier's messages move a restripe on, one held band at a time, and
# never let a write reach a place that a copy or a checkpoint would make
# stale.  A volume growing from 2 members (A, B) to 3 (A, B; C), 64 KiB
# unit, labelled at checkpoint CK = 100 (bds-mklabels), holds 120 units of
# random data.  Then, with the copier's part played by dd between the
# members' old and new places (an independent model in shell arithmetic,
# as in restripe-table-maps-both-geometries):
#  - "reshape status" gives "checkpoint 100 hold 100 held 0";
#  - "reshape hold CK+4" returns; a direct write of new data to unit CK+1
#    is held (status "held 1", waited for) while a read of the same unit
#    goes through and returns its old data, and the unit's old place still
#    holds the old data;
#  - the copier copies units CK .. CK+3 from their old places to their new
#    ones; "reshape checkpoint CK+4" returns, the held write ends, and its
#    data is at unit CK+1's new place, not at its old one; the status and
#    "dmsetup table" give the new checkpoint; every unit reads back through
#    the volume as written;
#  - "reshape hold" past the frontier, "reshape checkpoint" past the held
#    band, a hold while suspended, an unknown message and any message to
#    a table without a restripe are refused, with their reasons in the
#    kernel log, and change nothing;
#  - a write held in band CK+4 .. CK+7 is let go by "dmsetup suspend" to
#    its old place and to its new one (a suspend never waits for the
#    copier, whose labels may say a checkpoint past it), the band is
#    dropped, and a checkpoint over it is refused until it is held again.
# The module then unloads with nothing held.
#
# topology: ctl=2 ctl=2
# timeout: 300
# exec: bds-mklabels
# check-kernels: 6.1 7.2 debug

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2034,SC2154
. /bds/guest-lib.sh

command -v bds-mklabels >/dev/null || fail "bds-mklabels not in the guest (# exec: header)"
bds_load_module
A=/dev/bds/c0d0 B=/dev/bds/c0d1 C=/dev/bds/c1d0
for d in $A $B $C; do
	[ -b "$d" ] || fail "need 2 + 2 disks: no $d"
done
MEM_0=$A MEM_1=$B MEM_2=$C
U=30313233-3435-4637-9839-3a3b3c3d3e3f
VOL=restripe-msg
DMV=/dev/mapper/$VOL
CHUNK=128                       # sectors
CB=$((CHUNK * 512))             # bytes of a stripe unit
CK=100                          # the checkpoint the labels record, in units
UNITS=120                       # units written
DATA=/tmp/rsmsg.data            # what the volume must hold

# msg WORDS...: send a message to the volume.
msg() { dmsetup message $VOL 0 "$@"; }

# status_is WANT: "reshape status" says WANT.
status_is() { [ "$(msg reshape status)" = "$1" ]; }

# wait_status WANT: wait (bounded) until "reshape status" says WANT.
wait_status() {
	_end=$(($(bds_uptime) + $(bds_scaled 30)))
	until status_is "$1"; do
		[ "$(bds_uptime)" -lt "$_end" ] ||
			fail "status is '$(msg reshape status)', never '$1'"
		sleep 0.1
	done
}

# place_md5 G K: md5 of unit K's place in geometry G, from its member.
place_md5() { bds_rs_place_md5 "$1" "$2" $CHUNK; }

# copy_unit K: the copier's part: unit K from its old place to its new one.
copy_unit() {
	_o=$(bds_rs_place OLD "$1" $CHUNK)
	_n=$(bds_rs_place NEW "$1" $CHUNK)
	eval "_from=\$MEM_${_o% *} _to=\$MEM_${_n% *}"
	bds_read "$_from" $((${_o#* } * 512)) $CB >/tmp/rsmsg.unit ||
		fail "cannot read unit $1's old place"
	bds_write "$_to" $((${_n#* } * 512)) /tmp/rsmsg.unit ||
		fail "cannot write unit $1's new place"
}

# refused_msg DESC REASON ERRNO WORDS...: the message fails with ERRNO's
# text, the kernel says REASON, the status stays what it was.
refused_msg() {
	_d=$1 _why=$2 _errno=$3
	shift 3
	_before=$(msg reshape status 2>&1)
	bds_mark "$_d"
	if msg "$@" 2>/tmp/rsmsg.err; then
		check "$_d: refused" false
		return
	fi
	check "$_d: fails with '$_errno'" grep -qF "$_errno" /tmp/rsmsg.err
	bds_dmesg_since "$_d" >/tmp/rsmsg.klog
	check "$_d: the kernel says '$_why'" grep -qF "bds-stripe: $_why" /tmp/rsmsg.klog
	expect_eq "$(msg reshape status 2>&1)" "$_before" "$_d: the status is unchanged"
}

# unit_of_data K: md5 of unit K of $DATA.
unit_of_data() { bds_unit_md5 $DATA "$1" $CB; }

bds_restripe_labels $U $CHUNK $CK "$A" "$B" "$C"
bds_dm_create $VOL "$RS_TABLE"
dd if=/dev/urandom of=$DATA bs=$CB count=$UNITS status=none || fail "cannot make test data"
run dd if=$DATA of=$DMV bs=$((4 * CB)) oflag=direct conv=fsync status=none
expect_eq "$(msg reshape status)" "checkpoint $CK hold $CK held 0" "status at load"

# --- a held write, a copy, a checkpoint ----------------------------------------

W=$((CK + 1))
dd if=/dev/urandom of=/tmp/rsmsg.new bs=$CB count=1 status=none
NEWMD5=$(md5sum </tmp/rsmsg.new | cut -d' ' -f1)
OLDMD5=$(unit_of_data $W)
run msg reshape hold $((CK + 4))
expect_eq "$(msg reshape status)" "checkpoint $CK hold $((CK + 4)) held 0" "status after the hold"
dd if=/tmp/rsmsg.new of=$DMV bs=$CB seek=$W oflag=direct conv=fsync status=none &
WRITER=$!
wait_status "checkpoint $CK hold $((CK + 4)) held 1"
log "the write to unit $W is held"
expect_eq "$(bds_md5 $DMV $((W * CB)) $CB)" "$OLDMD5" \
	"a read of the held unit goes through, with its old data"
expect_eq "$(place_md5 OLD $W)" "$OLDMD5" "the held write has not reached the old place"
check "the writer still waits" kill -0 $WRITER

k=$CK
while [ $k -lt $((CK + 4)) ]; do
	copy_unit $k
	k=$((k + 1))
done
run msg reshape checkpoint $((CK + 4))
wait $WRITER || fail "the held write failed"
dd if=/tmp/rsmsg.new of=$DATA bs=$CB seek=$W conv=notrunc status=none
expect_eq "$(msg reshape status)" "checkpoint $((CK + 4)) hold $((CK + 4)) held 0" \
	"status after the checkpoint"
expect_eq "$(place_md5 NEW $W)" "$NEWMD5" "the held write is at the unit's new place"
expect_eq "$(place_md5 OLD $W)" "$OLDMD5" "and not at its old place"
expect_eq "$(dmsetup table $VOL | sed -n 's/.* reshape forward \([0-9]*\) .*/\1/p')" \
	$((CK + 4)) "dmsetup table gives the new checkpoint"
expect_eq "$(bds_md5 $DMV 0 $((UNITS * CB)))" "$(md5sum <$DATA | cut -d' ' -f1)" \
	"every unit reads back through the volume"
for k in $CK $((CK + 2)) $((CK + 3)); do
	expect_eq "$(place_md5 NEW "$k")" "$(unit_of_data "$k")" "copied unit $k at its new place"
done

# --- refusals ---------------------------------------------------------------------

refused_msg "hold past the frontier" \
	"Hold refused: past the frontier, the copy would write over data not yet copied" \
	"Numerical result out of range" reshape hold 100000
refused_msg "checkpoint past the held band" \
	"Checkpoint refused: the units up to it are not held (hold, copy, then checkpoint)" \
	"Numerical result out of range" reshape checkpoint $((CK + 8))
refused_msg "unknown message" "Unknown message: accepted are 'reshape hold <unit>'" \
	"Invalid argument" reshape release
refused_msg "unit not a number" "Message's stripe unit is not a decimal number" \
	"Invalid argument" reshape hold 10x
run dmsetup suspend $VOL
refused_msg "hold while suspended" \
	"Message refused: the device is suspended, resume it and hold again" \
	"Device or resource busy" reshape hold $((CK + 8))
run dmsetup resume $VOL

# --- a suspend lets a held write go, to its old place ---------------------------------

W=$((CK + 5))
run msg reshape hold $((CK + 8))
dd if=/tmp/rsmsg.new of=$DMV bs=$CB seek=$W oflag=direct conv=fsync status=none &
WRITER=$!
wait_status "checkpoint $((CK + 4)) hold $((CK + 8)) held 1"
bds_bounded rc dmsetup suspend $VOL
expect_eq "$rc" 0 "suspend with a held write"
# The write has ended (dm waits for it before a suspend completes); its
# fsync waits for the resume.
expect_eq "$(place_md5 OLD $W)" "$NEWMD5" "the write let go at suspend is at its old place"
expect_eq "$(place_md5 NEW $W)" "$NEWMD5" \
	"and at its new place (labels may already give a checkpoint past it)"
run dmsetup resume $VOL
wait $WRITER || fail "the write held at suspend failed"
dd if=/tmp/rsmsg.new of=$DATA bs=$CB seek=$W conv=notrunc status=none
expect_eq "$(msg reshape status)" "checkpoint $((CK + 4)) hold $((CK + 4)) held 0" \
	"the suspend dropped the band"
refused_msg "checkpoint over a band dropped at suspend" \
	"Checkpoint refused: the units up to it are not held (hold, copy, then checkpoint)" \
	"Numerical result out of range" reshape checkpoint $((CK + 8))
expect_eq "$(bds_md5 $DMV 0 $((UNITS * CB)))" "$(md5sum <$DATA | cut -d' ' -f1)" \
	"every unit reads back through the volume"
bds_dm_remove $VOL

# --- no restripe, no messages ---------------------------------------------------------

bds-mklabels "$U" $CHUNK interleave 2,1 "$A" "$B" "$C" >/tmp/rsmsg.plain ||
	fail "bds-mklabels (no restripe) failed"
bds_dm_create $VOL "$(cat /tmp/rsmsg.plain)"
bds_mark "no restripe"
if msg reshape status 2>/tmp/rsmsg.err; then
	check "a message to a table without a restripe: refused" false
fi
bds_dmesg_since "no restripe" >/tmp/rsmsg.klog
check "no restripe: the kernel says why" \
	grep -qF "bds-stripe: Message refused: the table has no restripe" /tmp/rsmsg.klog
bds_dm_remove $VOL

bds_expect_clean "$A" "$B" "$C"
pass
