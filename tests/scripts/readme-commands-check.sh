#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# readme-commands-check.sh: the README's command blocks that a VM test
# runs are, byte for byte, the ones it runs (make unit).  For each pair
# below, the README's first literal block under the heading (the lines
# indented by four blanks, from the first to the next line that is not
# blank and not indented) against the lines of the VM test between
# "# README-BEGIN NAME" and "# README-END".  Prints TAP; exits 1 when
# they differ, with the difference.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/scripts/tap.sh
. "$top/tests/scripts/tap.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# heading|test|block name
pairs=(
	"Quick start on real disks|tests/vm/t/readme-quick-start-runs-as-written.sh|quick start"
)

for p in "${pairs[@]}"; do
	IFS='|' read -r heading test name <<<"$p"
	awk -v h="$heading" '
		$0 == h { found = 1; next }
		found && !inblock && /^    / { inblock = 1 }
		inblock && /^    / { print; next }
		inblock && /^$/ { next }
		inblock { exit }
		' "$top/README" >"$W/readme"
	sed -n "/^# README-BEGIN $name\$/,/^# README-END\$/p" "$top/$test" |
		sed -e '1d' -e '$d' >"$W/test"
	st=0
	[ -s "$W/readme" ] || st=1
	ok $st "README has a command block under \"$heading\""
	st=0
	diff -u "$W/readme" "$W/test" >"$W/diff" || st=1
	ok $st "$test runs the README's \"$heading\" block as written"
	[ "$st" = 0 ] || sed 's/^/# /' "$W/diff"
done
tap_end
