#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm adopt takes an md RAID0 array of metadata 1.1, whose superblock
# lies at sector 0, where no label goes: step 2 erases each member's
# superblock (libblkid) before writing its primary label.  A power cut
# right after the first member's superblock is erased
# (adopt-erased-1, BDSADM_TEST_CRASH_AT) loses nothing: the second boot,
# with the disks renamed, finds one member with neither md's superblock
# nor a primary label, so md cannot assemble the array; bdsadm assemble
# finishes the adoption from the marked backups, erasing the other
# members' superblocks (mdadm --examine finds none after), fio verifies
# every block written before the cut, and nothing is left to finish
# (guest-lib.sh: bds_adopt_crash).
#
# The disks are 128 MiB, so md's data runs to each member's end and the
# backup labels lie in front of it, at sector 2032 (FRONT_BACKUP), which
# md's metadata 1.1 leaves unused too.
#
# topology: size=128M ctl=2 ctl=2
# reboot-topology: ctl=c1d1+c0d0 ctl=c1d0+c0d1
# timeout: 300
# kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_adopt_crash adopt-erased-1 finish 1.1
