#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A member that is a suspended device-mapper device would hold every read
# of it, and a table loaded over it, until it is resumed.  bdsadm says so
# at once instead of waiting (issue 39, item 6).  A volume over m0 (a
# linear device over A), B and C; D spare:
#  - with m0 suspended, assemble --scan names m0 as suspended and left out
#    (not "did not answer within 10 s"), and assembles nothing; examine
#    and incremental of m0 say the same;
#  - m0 suspended between the scan and the table (a test hook at
#    assemble-table): assemble refuses, naming member 0 and m0, and loads
#    nothing;
#  - create and replace refuse a suspended device as a new member;
#  - resumed, everything goes, and the labels are unchanged.
#
# topology: ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1
# boot: own

# shellcheck disable=SC1091,SC2154 # within_rc: set by bds_within
. /bds/guest-lib.sh

bds_load_module
bds_four_disks

S=$(bds_sectors "$A")
bds_dm_create m0 "0 $S linear $(bds_majmin "$A") 0"
M0=/dev/$(bds_dev /dev/mapper/m0)
# what every verb says of a suspended device
susp() { echo "$1 is a suspended device-mapper device ($2): its I/O waits for 'dmsetup resume $2'"; }
# refused WHAT TEXT: the last bds_within run failed, said TEXT, and left
# no volume "vol"
refused() {
	check "$1: fails" [ "$within_rc" -ne 0 ]
	check "$1: says why and what to do" grep -qF "$2" /tmp/within.out
	check "$1: vol not assembled" sh -c '! dmsetup info vol >/dev/null 2>&1'
}
run bdsadm create vol --chunk 64K "$M0" "$B" "$C"
run bdsadm stop vol
G0=$(bds_gen_of "$M0")

run dmsetup suspend m0
bds_within 60 bdsadm assemble --scan
refused "assemble --scan, m0 suspended" "$(susp "$M0" m0); left out"
check "assemble --scan: no time limit was waited out" \
	sh -c '! grep -qF "did not answer" /tmp/within.out'
bds_within 60 bdsadm examine "$M0"
check "examine m0: fails" [ "$within_rc" -ne 0 ]
check "examine m0: says it is suspended" grep -qxF "bdsadm: $(susp "$M0" m0)" /tmp/within.out
bds_within 60 bdsadm incremental "$M0"
refused "incremental m0" "bdsadm: $(susp "$M0" m0)"
bds_within 60 bdsadm create other --chunk 64K "$M0" "$D"
check "create over m0: refused" [ "$within_rc" -ne 0 ]
check "create over m0: says why and what to do" grep -qF "$(susp "$M0" m0)" /tmp/within.out
run dmsetup resume m0

# suspended after the scan, before the table
BDSADM_TEST_RUN_AT=assemble-table BDSADM_TEST_RUN="dmsetup suspend m0" \
	bds_within 60 bdsadm assemble --scan
refused "assemble, m0 suspended before the table" \
	"volume vol: member 0: $(susp "$M0" m0), and so would loading the volume; nothing was assembled"
run dmsetup resume m0

bds_within 60 bdsadm assemble --scan
expect_eq "$within_rc" 0 "assemble --scan after the resume"
check "vol assembled" dmsetup info vol
expect_eq "$(bds_gen_of "$M0")" "$G0" "m0's label generation unchanged"

# a suspended device as the new member of a replace
bds_dm_create m3 "0 $(bds_sectors "$D") linear $(bds_majmin "$D") 0"
M3=/dev/$(bds_dev /dev/mapper/m3)
run dmsetup suspend m3
bds_within 60 bdsadm replace vol "$C" "$M3"
check "replace onto m3: refused" [ "$within_rc" -ne 0 ]
check "replace onto m3: says why" grep -qF "$(susp "$M3" m3)" /tmp/within.out
run dmsetup resume m3
check "vol still over m0, B and C" sh -c "dmsetup table vol | grep -F '$(bds_majmin "$C")' >/dev/null"
bds_dm_remove m3

run bdsadm stop vol
for d in "$M0" "$B" "$C"; do
	bdsadm wipe "$d" >/dev/null 2>&1 || true
done
bds_dm_remove m0
bds_expect_clean "$A" "$B" "$C" "$D"
pass
