#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build the module for Debian's 6.1 kernel, boot it in QEMU with
# two throttled controllers of four disks each, and show the target at
# work.  Results go to results/demo/ (serial log and a CSV).
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
series=${BDS_DEMO_KERNEL:-6.1}
out=$top/results/demo
mkdir -p "$out"

KERNELS=$series "$top/tests/scripts/build-all.sh" >&2
make -s -C "$top/tools" >&2
ko=${BDS_CACHE:-$HOME/.cache/bds-stripe}/lint/$series/dm-bds-stripe.ko

"$top/tests/vm/vm-run" -k "$series" -s "$top/tests/vm/demo/demo-guest.sh" \
	-m "$ko" -x "$top/tools/bdsadm" -l "$out/serial.log" >&2 || {
	echo "demo: the guest failed; see $out/serial.log" >&2
	exit 1
}
# The guest's own output, without kernel messages and harness lines.
sed -n '/^bds-init: running test/,$p' "$out/serial.log" |
	grep -v -e '^\[ *[0-9.]*\]' -e '^csv:' -e '^bds-init' -e '^bds: + ' |
	sed 's/^bds: PASS: /demo: /'
sed -n 's/^csv://p' "$out/serial.log" >"$out/demo.csv"
echo
echo "demo: results in $out (demo.csv, serial.log)"
