#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-debug.sh - the "debug" kernel series: Debian's linux-source-6.1
# built with tests/debug/config.fragment (KASAN, lockdep, kmemleak, KUnit,
# fault injection) by tests/debug/build-kernel.sh (about 11 minutes on 2
# cores the first time, cached afterwards).  Prints the same shell-sourceable
# variables as kernel.sh (which hands "debug" over to this script):
#
#   KSERIES=debug  KPKGVER=<linux-source version>  KVER=<release>
#   KROOT=<modules_install root>  VMLINUZ=<bzImage>
#   MODDIR=<KROOT>/lib/modules/<KVER>  KDIR=<built source tree>  KMAKEFLAGS=''
#
# Environment: BDS_CACHE, BDS_OFFLINE (see build-kernel.sh).

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
OUT=$("$HERE/../debug/build-kernel.sh")
[ -e "$OUT/.complete" ] || { echo "kernel-debug.sh: no complete build in $OUT" >&2; exit 1; }
KVER_=""
# shellcheck disable=SC1091
. "$OUT/.bds-kernel.env"
dir=${OUT##*/}
printf 'KSERIES=debug\n'
printf 'KPKGVER=%s\n' "${dir%-*}"
printf 'KVER=%s\n' "$KVER_"
printf 'KROOT=%s\n' "$OUT/root"
printf 'VMLINUZ=%s\n' "$OUT/bzImage"
printf 'MODDIR=%s\n' "$OUT/root/lib/modules/$KVER_"
printf 'KDIR=%s\n' "$OUT/src"
printf "KMAKEFLAGS='%s'\n" ""
