#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build dm-bds-stripe.ko against each kernel in $KERNELS (default "6.1 6.12";
# 7.2 builds inside kernel.sh's sid root via tests/vm/kbuild-root) and each
# SERIES/ARCH in $CROSS_KERNELS (Debian's arm64, i386 686-pae and armhf
# armmp headers, with Debian's cross compilers: 64-bit divisions that 32-bit
# kernels do not link, arm's alignment and types) with W=1 and sparse
# (C=2), in a scratch copy outside the repository.  Any compiler, sparse or
# modpost warning fails the build.  bookworm-backports has no i386 6.12.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${BDS_CACHE:-$HOME/.cache/bds-stripe}
status=0

for item in ${KERNELS:-6.1 6.12} ${CROSS_KERNELS-6.1/arm64 6.1/i386 6.1/armhf 6.12/arm64 6.12/armhf}; do
	series=${item%/*}
	arch=amd64
	[ "$item" = "$series" ] || arch=${item#*/}
	vars=$("$top/tests/vm/kernel.sh" "$series" "$arch")
	KDIR=$(sed -n 's/^KDIR=//p' <<<"$vars")
	KMAKEFLAGS=$(sed -n "s/^KMAKEFLAGS=//p" <<<"$vars" | tr -d "'")
	BUILD_ROOT=$(sed -n 's/^BUILD_ROOT=//p' <<<"$vars")
	BUILD_KDIR=$(sed -n 's/^BUILD_KDIR=//p' <<<"$vars")
	dir=$cache/lint/$series
	[ "$arch" = amd64 ] || dir=$dir-$arch
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
		echo "build-all: $item: build failed" >&2
		status=1
		continue
	fi
	# kbuild only notes it when it cannot run sparse: that is a failure.
	if grep -E 'warning|WARNING|error|: note:|sparse is not available' "$log"; then
		echo "build-all: $item: warnings (W=1 / sparse / modpost)" >&2
		status=1
		continue
	fi
	if ! grep -q ' CHECK ' "$log"; then
		echo "build-all: $item: sparse did not run" >&2
		status=1
		continue
	fi
	# the compat probes that fired (Kbuild), as the compiler saw them
	probes=$(grep -o 'BDS_HAVE_[A-Z_]*' "$dir/.dm-bds-target.o.cmd" | sort -u | tr '\n' ' ' || true)
	echo "build-all: $item: clean W=1 C=2 build ($(sed -n 's/^KVER=//p' <<<"$vars")); probes: ${probes:-none}"
	# Once: a probe whose header is missing stops the build, loudly.
	if [ -z "$BUILD_ROOT" ] && [ "$arch" = amd64 ] && [ -z "${probe_checked:-}" ]; then
		probe_checked=1
		# shellcheck disable=SC2086 # KMAKEFLAGS holds several words
		if make -C "$KDIR" M="$dir" $KMAKEFLAGS BDS_PROBE_ROOT=/nonexistent \
			modules >"$dir/probe.log" 2>&1 ||
			! grep -F 'blk_types.h not found: the compat probes read it' "$dir/probe.log" >/dev/null; then
			cat "$dir/probe.log"
			echo "build-all: $item: a probe without its header did not stop the build" >&2
			status=1
		else
			echo "build-all: $item: a probe without its header stops the build"
		fi
	fi
done
exit $status
