#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm adopt at adopt-stopped (BDSADM_TEST_CRASH_AT) loses
# nothing: the second boot, with the disks renamed, finds no label at all and md's array whole: mdadm starts it, fio
# verifies every block written before the cut, and adopt run again makes
# the volume
# (guest-lib.sh: bds_adopt_crash).
#
# topology: size=131168K ctl=2 ctl=2
# reboot-topology: ctl=c1d1+c0d0 ctl=c1d0+c0d1
# timeout: 300
# kernels: 6.1
# check-kernels: none

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_adopt_crash adopt-stopped none
