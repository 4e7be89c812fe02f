#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm grow --continue where the labels are plain and the new table is loaded
# (BDSADM_TEST_CRASH_AT=grow-reloaded) loses nothing: the second boot, with the
# disks renamed, assembles the volume, fio verifies every block written
# before the cut, and grow --continue finishes the restripe
# (guest-lib.sh: bds_grow_crash).
#
# topology: size=512M ctl=2 ctl=2
# reboot-topology: ctl=c1d0+c1d1 ctl=c0d0+c0d1
# timeout: 300
# exec: bds-mklabels
# kernels: 6.1
# check-kernels: none

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_grow_crash grow-reloaded
