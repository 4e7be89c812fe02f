#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm adopt at adopt-backups (BDSADM_TEST_CRASH_AT) loses
# nothing: the second boot, with the disks renamed, finds md's array
# whole: bdsadm assemble refuses the volume and names adopt, writing
# nothing; mdadm starts the array, fio verifies every block written
# before the cut, and adopt run again makes the volume (guest-lib.sh:
# bds_adopt_crash).
#
# The disks are 128 MiB, so md's data (1 MiB in, 64 KiB chunk) runs to
# each member's end and adopt puts the backup labels in front of the
# data, at sector 2032 (FRONT_BACKUP): the kernel finds the marked copy
# there (its primary place holds md's superblock, its end md's data) and
# refuses the table, and bdsadm wipe erases that copy, not md's data at
# the member's end.
#
# topology: size=128M ctl=2 ctl=2
# reboot-topology: ctl=c1d1+c0d0 ctl=c1d0+c0d1
# timeout: 300
# kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_adopt_crash adopt-backups md
