#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# readme-commands-check.sh: the command blocks of the README and of
# bdsadm(8)'s EXAMPLES that VM tests run are, byte for byte, the ones
# they run (make unit).  For each README pair below, the README's first
# literal block under the heading (the lines indented by four blanks,
# from the first to the next line that is not blank and not indented)
# against the lines of the VM test between "# README-BEGIN NAME" and
# "# README-END".  For the man page, every command line of its EXAMPLES
# (in its .nf blocks, the lines that start with "# " and the lines that
# continue one ending in "\e"), as man renders them, against the lines
# between "# MAN-BEGIN examples" and "# MAN-END".  Prints TAP; exits 1
# when they differ, with the difference.
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

man_test=tests/vm/t/man-page-examples-run-as-written.sh
awk '
	/^\.SH / { inex = ($0 == ".SH EXAMPLES"); next }
	!inex { next }
	/^\.nf/ { nf = 1; next }
	/^\.fi/ { nf = 0; next }
	!nf { next }
	/^# / || cont { line = $0; cont = (line ~ /\\e$/)
		gsub(/\\-/, "-", line); gsub(/\\e/, "\\", line); gsub(/\\&/, "", line)
		print line }
	' "$top/tools/bdsadm.8" >"$W/man"
sed -n '/^# MAN-BEGIN examples$/,/^# MAN-END$/p' "$top/$man_test" |
	sed -e '1d' -e '$d' >"$W/test"
st=0
[ "$(grep -c '^# ' "$W/man")" -ge 20 ] || st=1
ok $st "bdsadm.8 has its EXAMPLES' command lines ($(grep -c '^# ' "$W/man") of them)"
st=0
diff -u "$W/man" "$W/test" >"$W/diff" || st=1
ok $st "$man_test runs bdsadm(8)'s EXAMPLES as written"
[ "$st" = 0 ] || sed 's/^/# /' "$W/diff"
tap_end
