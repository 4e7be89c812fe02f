#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm adopt --from-table once every member's marked
# backup label is written (adopt-table-backups, BDSADM_TEST_CRASH_AT)
# loses nothing, and bdsadm assemble finishes the adoption by itself.
# Boot 1: a striped table st over the four disks (64 KiB chunk, offset
# 2048), 128 MiB of it written by fio with a verify pattern, then
# "bdsadm adopt vol --from-table st" cut short.  Boot 2, the disks
# renamed: no member holds an md superblock, so bdsadm assemble --scan
# finishes the adoption from the marked backups (every primary, then
# every backup without the mark) and says so; fio verifies the pattern
# through vol, then through vol assembled from its labels, with nothing
# left to finish (bds_adopt_table_crash in guest-lib.sh).
#
# topology: size=131168K ctl=2 ctl=2
# reboot-topology: ctl=c1d1+c0d0 ctl=c1d0+c0d1
# timeout: 300
# kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest (run-suite gives it with -x)"
bds_adopt_table_crash adopt-table-backups finish
