#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut in bdsadm grow --add where the first new disk's backup
# label, the commit point, is written
# (BDSADM_TEST_CRASH_AT=grow-committed) loses nothing: the second boot, with
# the disks renamed, assembles the volume (rolled back to the 2 + 2
# volume before the commit point, mid-restripe after it), fio verifies
# every block written before the cut, and the grow is finished or done
# again (guest-lib.sh: bds_grow_add_crash).
#
# topology: size=256M ctl=3 ctl=3
# reboot-topology: ctl=c1d0+c1d1+c1d2 ctl=c0d0+c0d1+c0d2
# timeout: 400
# kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_grow_add_crash grow-committed restripe
