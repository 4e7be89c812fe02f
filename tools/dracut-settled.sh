#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dracut module 90bds-stripe: sourced by dracut's initqueue each time
# udev's queue settles until the root device is there.  Assembles what
# is complete: the volume of rd.bds.uuid= on the kernel command line,
# else every volume of this host; never one with a member missing.

# shellcheck disable=SC1091 # dracut's own
type getarg >/dev/null 2>&1 || . /lib/dracut-lib.sh

/sbin/bds-stripe-initrd assemble "$(getarg rd.bds.uuid=)" >&2
