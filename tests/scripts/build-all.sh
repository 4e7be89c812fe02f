#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build dm-bds-stripe.ko against each kernel in $KERNELS (default "6.1 6.12";
# 7.2 builds inside kernel.sh's sid root via tests/vm/kbuild-root) with W=1
# and sparse (C=2), in a scratch copy outside the repository.  Any compiler or
# sparse warning fails the build.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${BDS_CACHE:-$HOME/.cache/bds-stripe}
status=0

for series in ${KERNELS:-6.1 6.12}; do
	vars=$("$top/tests/vm/kernel.sh" "$series")
	KDIR=$(sed -n 's/^KDIR=//p' <<<"$vars")
	KMAKEFLAGS=$(sed -n "s/^KMAKEFLAGS=//p" <<<"$vars" | tr -d "'")
	BUILD_ROOT=$(sed -n 's/^BUILD_ROOT=//p' <<<"$vars")
	BUILD_KDIR=$(sed -n 's/^BUILD_KDIR=//p' <<<"$vars")
	dir=$cache/lint/$series
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -r "$top"/dm-bds-stripe.c "$top"/dm-bds-stripe.h "$top"/libbds "$top"/Kbuild "$dir"/
	log=$dir/build.log
	rc=0
	if [ -n "$BUILD_ROOT" ]; then
		# shellcheck disable=SC2086 # KMAKEFLAGS holds several words
		"$top/tests/vm/kbuild-root" "$BUILD_ROOT" "$BUILD_KDIR" "$dir" \
			W=1 C=2 $KMAKEFLAGS >"$log" 2>&1 || rc=$?
	else
		# shellcheck disable=SC2086 # KMAKEFLAGS holds several words
		make -C "$KDIR" M="$dir" W=1 C=2 $KMAKEFLAGS modules >"$log" 2>&1 || rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		cat "$log"
		echo "build-all: $series: build failed" >&2
		status=1
		continue
	fi
	# kbuild only notes it when it cannot run sparse: that is a failure.
	if grep -E 'warning|error|: note:|sparse is not available' "$log"; then
		echo "build-all: $series: warnings (W=1 / sparse)" >&2
		status=1
		continue
	fi
	if ! grep -q ' CHECK ' "$log"; then
		echo "build-all: $series: sparse did not run" >&2
		status=1
		continue
	fi
	echo "build-all: $series: clean W=1 C=2 build ($(sed -n 's/^KVER=//p' <<<"$vars"))"
done
exit $status
