#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pipe-readers-test.sh - the apt readers of tests/vm/apt-lib.sh against a
# writer that keeps writing after the reader has what it wants (issue 12).
#
# Each helper runs under `set -o pipefail` with apt-cache replaced by a
# function that prints the record the helper looks for first, then 4 MiB
# of further records (much more than a pipe holds), then a last record
# with other values.  A reader that stops at the first match (awk's exit,
# grep -m1, head) leaves the writer blocked on a full pipe with no reader:
# its next write gets SIGPIPE and the helper returns 141, every time, not
# by luck of timing.  A helper that reads to the end returns 0 and the
# values of the first record.
#
# Usage: pipe-readers-test.sh [APT-LIB]   (default: tests/vm/apt-lib.sh)
# Output: one line per check, then "N passed, N failed"; exit 1 on a failure.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
lib=${1:-$top/tests/vm/apt-lib.sh}
# shellcheck source=tests/vm/apt-lib.sh
. "$lib"

npass=0 nfail=0
ok() { echo "ok - $*"; npass=$((npass + 1)); }
notok() { echo "not ok - $*"; nfail=$((nfail + 1)); }

# 4 MiB of lines: 4096 lines of 1 KiB.
filler() {
	local line i
	line=$(printf 'Description-md5: %01000d' 0)
	for ((i = 0; i < 4096; i++)); do
		printf '%s\n' "$line"
	done
}

# spew RECORD: what apt-cache show prints when the mirror has more.
spew() {
	printf '%s\n\n' "$1"
	printf 'Package: filler\n'
	filler
	printf '\nPackage: late\nVersion: 9.9-late\nDepends: linux-image-late, linux-headers-late\n'
}

IMAGE_RECORD='Package: linux-image-amd64
Version: 6.1.999-1
Depends: linux-image-6.1.0-99-amd64 (= 6.1.999-1), other (>= 1) | alt
Description: Linux for 64-bit PCs (meta-package)'
HEADER_RECORD='Package: linux-headers-6.1.0-99-amd64
Version: 6.1.999-1
Depends: linux-headers-6.1.0-99-common (= 6.1.999-1), linux-kbuild-6.1 (= 6.1.999-1), libc6'

# shellcheck disable=SC2317 # called by apt-lib.sh's functions
apt_q() { spew "$IMAGE_RECORD"; }
sid_cache() { spew "$IMAGE_RECORD"; }
apt-cache() { spew "$IMAGE_RECORD"; }

# expect NAME WANT CMD...: CMD under pipefail must exit 0 and print WANT.
expect() {
	local name=$1 want=$2 got rc
	shift 2
	got=$(set -o pipefail; "$@")
	rc=$?
	if [ "$rc" -ne 0 ]; then
		if [ "$rc" -eq 141 ]; then
			notok "$name: exit 141 (SIGPIPE: the reader left before the writer was done)"
		else
			notok "$name: exit $rc"
		fi
	elif [ "$got" != "$want" ]; then
		notok "$name: printed '$got', want '$want'"
	else
		ok "$name"
	fi
}

expect "dep_of picks the image package" linux-image-6.1.0-99-amd64 \
	dep_of linux-image-amd64 6.1.999-1 '^linux-image-'
expect "dep_of: no match is empty, not an error" "" \
	dep_of linux-image-amd64 6.1.999-1 '^nothing-'
apt_q() { spew "$HEADER_RECORD"; }
expect "dep_of picks -common" linux-headers-6.1.0-99-common \
	dep_of linux-headers-6.1.0-99-amd64 6.1.999-1 '^linux-headers-.*-common$'
expect "dep_of picks linux-kbuild" linux-kbuild-6.1 \
	dep_of linux-headers-6.1.0-99-amd64 6.1.999-1 '^linux-kbuild-'
expect "sid_version reads the first record's version" 6.1.999-1 \
	sid_version linux-image-amd64
expect "sid_deps lists the first record's first alternatives" \
	"$(printf '%s\n' linux-image-6.1.0-99-amd64 other)" sid_deps linux-image-amd64
image_of_sid() { sid_deps linux-image-amd64 | first_match '^linux-image-'; }
expect "sid_deps | first_match" linux-image-6.1.0-99-amd64 image_of_sid
expect "candidate_version (build-kernel.sh's pkgver)" 6.1.999-1 \
	candidate_version linux-source-6.1

# kernel.sh's find_uri: host_sources | first_uri, with many sources.
sources() {
	printf 'http://first.invalid/debian\tbookworm\n'
	printf 'http://second.invalid/debian\tbookworm\n'
	filler
	printf 'http://late.invalid/debian\tbookworm-security\n'
}
uri_of() { sources | first_uri "$1"; }
expect "first_uri picks the first source of a suite" http://first.invalid/debian \
	uri_of bookworm
expect "first_uri finds a suite after 4 MiB" http://late.invalid/debian \
	uri_of bookworm-security

echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
