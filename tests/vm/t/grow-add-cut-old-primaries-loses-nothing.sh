#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm grow --add where every member has its primary
# label of the next generation and no backup yet (before the commit
# point)
# (BDSADM_TEST_CRASH_AT=grow-old-primaries) loses nothing: the second
# boot, with the disks renamed, assembles the volume mid-restripe at its
# start (every member carries the new generation, so assembly takes it:
# at checkpoint 0 it maps every unit where the old one did; a rollback is
# for a generation some member lacks), fio verifies every block written
# before the cut, and the grow is finished or done
# again (guest-lib.sh: bds_grow_add_crash).
#
# topology: size=256M ctl=3 ctl=3
# reboot-topology: ctl=c1d0+c1d1+c1d2 ctl=c0d0+c0d1+c0d2
# timeout: 400
# kernels: 6.1
# check-kernels: none

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_grow_add_crash grow-old-primaries restripe
