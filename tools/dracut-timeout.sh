#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dracut module 90bds-stripe: sourced by dracut's initqueue when its
# wait for the root device runs out (two thirds of rd.retry=): says,
# once, which member of a volume is missing and what to do.

# shellcheck disable=SC1091 # dracut's own
type getarg >/dev/null 2>&1 || . /lib/dracut-lib.sh

/sbin/bds-stripe-initrd report - "$(getarg root=)" >&2
