#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm adopt --from-table after the first member's
# marked backup label (adopt-table-backup-1, BDSADM_TEST_CRASH_AT) loses
# nothing.  Boot 1: a striped table st over the four disks (64 KiB
# chunk, offset 2048), 128 MiB of it written by fio with a verify
# pattern, then "bdsadm adopt vol --from-table st" cut short.  Boot 2,
# the disks renamed:
#  - bdsadm assemble --scan makes no volume (three members without a
#    label), names the disk that has member 1's serial and no label and
#    asks whether adopt --from-table was cut short, and writes nothing
#    to the members;
#  - the table made again by hand over the same disks (found by serial)
#    reads back the pattern: the label written is outside the data;
#  - bdsadm adopt vol --from-table st again takes it, and fio verifies
#    the pattern through vol, then through vol assembled from its labels
#    (bds_adopt_table_crash in guest-lib.sh).
#
# topology: size=131168K ctl=2 ctl=2
# reboot-topology: ctl=c1d1+c0d0 ctl=c1d0+c0d1
# timeout: 300
# kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest (run-suite gives it with -x)"
bds_adopt_table_crash adopt-table-backup-1 remake
