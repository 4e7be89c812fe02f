#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm adopt --from-table after the first member's
# labels (adopt-table-labelled-1, BDSADM_TEST_CRASH_AT) loses nothing.
# Boot 1: a striped table st over the four disks (64 KiB chunk, offset
# 2048), 128 MiB of it written by fio with a verify pattern, then "bdsadm
# adopt vol --from-table st" cut short; the disks' serials in table
# order are kept for boot 2.  Boot 2, the disks renamed:
#  - bdsadm assemble --scan makes no volume (three members missing),
#    names the disk that has member 1's serial and no label and asks
#    whether adopt --from-table was cut short, and writes nothing to the
#    members;
#  - the table made again by hand over the same disks (found by serial)
#    reads back the pattern: the label written is outside the data;
#  - bdsadm adopt vol --from-table st again takes it, and fio verifies
#    the pattern through vol, then through vol assembled from its labels.
#
# topology: size=131168K ctl=2 ctl=2
# reboot-topology: ctl=c1d1+c0d0 ctl=c1d0+c0d1
# timeout: 300
# kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest (run-suite gives it with -x)"
JOB="--name=p --direct=1 --ioengine=psync --rw=write --bs=64k --size=128m --verify=crc32c --randseed=36 --output-format=terse --terse-version=3"
# each member: offset 2048, then 2033 units of 128 sectors, 8 KiB before
# the backup label's place (sector 262320 of 262336)
PER=260224

# table DEV...: striped over the devices in this order
table() {
	_t="0 $((PER * 4)) striped 4 128"
	for _d in "$@"; do
		_t="$_t $(bds_majmin "$_d") 2048"
	done
	echo "$_t"
}

bds_load_module
if [ "$BDS_BOOT" = 1 ]; then
	# shellcheck disable=SC2046 # one word per member
	set -- $(bds_all_members)
	[ $# -eq 4 ] || fail "need 4 disks, have: $*"
	_s=""
	for _d in "$@"; do
		_s="$_s $(bds_serial "$_d")"
	done
	bds_state_save "serials$_s"
	table "$@" | dmsetup create st || fail "dmsetup create st"
	# shellcheck disable=SC2086
	fio $JOB --filename=/dev/mapper/st --do_verify=0 >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio write failed"; }
	sync
	bds_power_cut_armed
	BDSADM_TEST_CRASH_AT=adopt-table-labelled-1 bdsadm adopt vol --from-table st
	fail "bdsadm adopt returned ($?): the crash point was not reached"
fi

_order=""
for _sn in $(bds_state_get serials); do
	_d=$(bds_by_serial "$_sn") || fail "no disk has serial $_sn"
	_order="$_order $_d"
done
# shellcheck disable=SC2086 # one word per member
set -- $_order
log "the table's members, renamed: $*"
_before=$(bds_member_ends "$@")
bdsadm examine "$1" >/tmp/examine.out 2>&1
expect_eq "$?" 0 "the first member carries the label written before the cut"
cat /tmp/examine.out

log "+ bdsadm assemble --scan"
bdsadm assemble --scan >/tmp/asm.out 2>&1
_rc=$?
cat /tmp/asm.out
check "assemble makes no volume of one member in four (exit $_rc)" \
	sh -c "[ $_rc -ne 0 ] && ! dmsetup info vol >/dev/null 2>&1"
_s1=$(bds_serial "$2")
check "it names $2, with member 1's serial ($_s1) and no label, and the adopt cut short" \
	grep -q "volume vol: /dev/[a-z]* has member 1's serial ($_s1) and no bds-stripe label: was 'bdsadm adopt vol --from-table' cut short?" /tmp/asm.out
expect_eq "$(bds_member_ends "$@")" "$_before" "assemble wrote nothing to the members"

log "+ dmsetup create st (as before the cut): $(table "$@")"
table "$@" | dmsetup create st || fail "dmsetup create st"
# shellcheck disable=SC2086
bds_fio_verifies "the pattern through the table made again" $JOB --filename=/dev/mapper/st

log "+ bdsadm adopt vol --from-table st"
bdsadm adopt vol --from-table st >/tmp/adopt.out 2>&1
_rc=$?
cat /tmp/adopt.out
expect_eq "$_rc" 0 "adopt again finishes"
check "st is gone" sh -c "! dmsetup info st >/dev/null 2>&1"
check "vol's table: layout sequential and the volume's UUID" \
	sh -c "dmsetup table vol | grep ' layout sequential volume [0-9a-f-]*\$' >/dev/null"
# shellcheck disable=SC2086
bds_fio_verifies "the pattern through vol" $JOB --filename=/dev/mapper/vol
run bdsadm stop vol
run bdsadm assemble --scan
# shellcheck disable=SC2086
bds_fio_verifies "the pattern through vol assembled from its labels" $JOB --filename=/dev/mapper/vol
run bdsadm stop vol
for _d in "$@"; do
	bdsadm wipe "$_d" >/dev/null 2>&1 || true
done
bds_expect_clean "$@"
pass
