#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The power cut half way through the copy of a bdsadm replace loses nothing: boot 1
# replaces member 2 (disk C) of a 2+1 volume by disk D under random
# reads, and the guest loses its power there (BDSADM_TEST_CRASH_AT=copy-half);
# boot 2, with the controllers swapped, assembles the volume with the
# old disk as member 2, and fio verifies every block written
# before the replace (guest-lib.sh: bds_replace_crash).  Runs on 6.1
# only: the replace itself is tested on 6.1 and 7.2 by
# replace-moves-member-under-load.
#
# topology: size=512M ctl=2 ctl=2
# reboot-topology: ctl=c1d0+c1d1 ctl=c0d0+c0d1
# timeout: 240
# kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_replace_crash copy-half old
