#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm adopt at adopt-primary-1 (BDSADM_TEST_CRASH_AT) loses
# nothing: the second boot, with the disks renamed, finds md's array
# broken (one primary label is over its superblock): bdsadm assemble
# finishes the adoption from the backup labels, fio verifies every block
# written before the cut, and nothing is left to finish (guest-lib.sh:
# bds_adopt_crash).
#
# The disks are 128 MiB, so md's data (1 MiB in, 64 KiB chunk) runs to
# each member's end and adopt puts the backup labels in front of the
# data, at sector 2032 (FRONT_BACKUP): the members whose primary place
# still holds md's superblock are read from that copy, by bdsadm and by
# the kernel, past the end place, which holds md's data.
#
# topology: size=128M ctl=2 ctl=2
# reboot-topology: ctl=c1d1+c0d0 ctl=c1d0+c0d1
# timeout: 300
# kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_adopt_crash adopt-primary-1 finish
