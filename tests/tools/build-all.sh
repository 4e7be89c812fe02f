#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build dm-bds-stripe.ko against each kernel in $KERNELS (default "6.1 6.12")
# with W=1 and sparse (C=2), in a scratch copy outside the repository.  Any
# compiler or sparse warning fails the build.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${BDS_CACHE:-$HOME/.cache/bds-stripe}
status=0

for series in ${KERNELS:-6.1 6.12}; do
	vars=$("$top/tests/vm/kernel.sh" "$series")
	KDIR=$(sed -n 's/^KDIR=//p' <<<"$vars")
	KMAKEFLAGS=$(sed -n "s/^KMAKEFLAGS=//p" <<<"$vars" | tr -d "'")
	dir=$cache/lint/$series
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$top"/dm-bds-stripe.c "$top"/dm-bds-stripe.h "$top"/Kbuild "$dir"/
	log=$dir/build.log
	# shellcheck disable=SC2086 # KMAKEFLAGS holds several words
	if ! make -C "$KDIR" M="$dir" W=1 C=2 $KMAKEFLAGS modules >"$log" 2>&1; then
		cat "$log"
		echo "build-all: $series: build failed" >&2
		status=1
		continue
	fi
	if grep -E 'warning|error|: note:' "$log"; then
		echo "build-all: $series: warnings (W=1 / sparse)" >&2
		status=1
		continue
	fi
	echo "build-all: $series: clean W=1 C=2 build ($(sed -n 's/^KVER=//p' <<<"$vars"))"
done
exit $status
