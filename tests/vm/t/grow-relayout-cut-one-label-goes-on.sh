#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm grow --layout after the first member's labels
# took the restripe and before the others did
# (BDSADM_TEST_CRASH_AT=relayout-one-label) loses nothing.  The labels
# keep their generation (no member came or went): one member's say the
# restripe has started, the others' are plain.  Boot 1: a sequential
# 2 + 2 volume of 128 MiB disks, fio writes 128 MiB with a verify header
# in every block, then "grow vol --layout interleave" is cut.  Boot 2
# (the disks renamed): bdsadm assemble --scan takes the labels as the
# restripe at its start, says it wrote the restripe into the plain
# members' labels, and maps the volume mid-restripe; fio verifies every
# block; grow --continue finishes; fio verifies again, and the table is
# interleaved with no restripe; stop and assemble give it back.
#
# topology: size=128M ctl=2 ctl=2
# reboot-topology: ctl=c1d0+c1d1 ctl=c0d0+c0d1
# timeout: 400
# kernels: 6.1
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 4 ] || fail "need 4 disks, have: $*"
JOB="--name=p --filename=/dev/mapper/vol --direct=1 --ioengine=psync --rw=write --bs=64k --size=128m --verify=crc32c --randseed=77 --output-format=terse --terse-version=3"
if [ "$BDS_BOOT" = 1 ]; then
	run bdsadm create vol --chunk 64K --layout sequential "$@"
	# shellcheck disable=SC2086
	fio $JOB --do_verify=0 >/tmp/fio.out 2>&1 || fail "fio write failed"
	sync
	bds_power_cut_armed
	BDSADM_TEST_CRASH_AT=relayout-one-label bdsadm grow vol --layout interleave
	fail "bdsadm grow returned ($?): the crash point was not reached"
fi
run bdsadm assemble --scan 2>/tmp/err
cat /tmp/err
check "assemble says it wrote the restripe into a plain member's labels" \
	grep -qF "the restripe had started on the other members" /tmp/err
log "table after the cut: $(dmsetup table vol)"
check "the volume is mapped mid-restripe" sh -c "dmsetup table vol | grep -w reshape >/dev/null"
# shellcheck disable=SC2086
fio $JOB --verify_only >/tmp/fio.out 2>&1
expect_eq "$?" 0 "fio verifies every block written before the power cut"
check "no verify error" sh -c "! grep -Eiq 'bad magic|mismatch|crc' /tmp/fio.out"
run bdsadm grow --continue vol
# shellcheck disable=SC2086
fio $JOB --verify_only >/tmp/fio.out 2>&1
expect_eq "$?" 0 "fio verifies every block after the restripe"
check "no restripe left in the table" sh -c "! dmsetup table vol | grep -w reshape >/dev/null"
check "the table is interleaved" sh -c "! dmsetup table vol | grep -w sequential >/dev/null"
TABLE=$(dmsetup table vol)
run bdsadm stop vol
run bdsadm assemble vol
expect_eq "$(dmsetup table vol)" "$TABLE" "assemble gives the same table"
run bdsadm stop vol
# shellcheck disable=SC2046
set -- $(bds_all_members)
bds_expect_clean "$@"
pass
