#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm adopt at adopt-labelled (BDSADM_TEST_CRASH_AT) loses
# nothing: the second boot, with the disks renamed, finds every label written: bdsadm assemble brings the volume
# up with nothing to finish, and fio verifies every block written before
# the cut
# (guest-lib.sh: bds_adopt_crash).
#
# topology: size=131168K ctl=2 ctl=2
# reboot-topology: ctl=c1d1+c0d0 ctl=c1d0+c0d1
# timeout: 300
# kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_adopt_crash adopt-labelled complete
