#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "Layout of the tree" in Documentation/developer-guide.rst against the
# tree (make unit):
#  - every path an entry begins with exists (a word ending in / a folder);
#  - every folder of the tree, two levels down (git ls-files), has an
#    entry of its own;
#  - every C file of tools/ is named in the tools/ entry, and every C file
#    that entry names exists.
# Prints TAP; exits 1 when any check fails.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
guide=Documentation/developer-guide.rst

# The section: from its heading to the next heading (a line of dashes:
# the guide's sections are reStructuredText headings underlined with
# '-').  The entries are a literal block ("::") indented by two blanks,
# so that they keep the form the checks below read.
section=$(awk '
	/^Layout of the tree$/ { on = 1; getline; next }
	on && /^-+$/ { exit }
	on { if (n++) print prev; prev = $0 }
	' "$guide")
[ -n "$section" ] || { echo "not ok 1 - $guide has a section 'Layout of the tree'"; exit 1; }

n=0 bad=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); bad=$((bad + 1)); echo "not ok $n - $1"; }

# Entries: lines that start with two blanks and a path; "A, B" is two.
entries=$(printf '%s\n' "$section" | sed -n 's/^  \([^ ][^ ]*\(, [^ ][^ ]*\)*\)  .*/\1/p' | tr -d ',' | tr ' ' '\n' | sed '/^$/d')

for e in $entries; do
	if [ "${e%/}" != "$e" ]; then
		if [ -d "$e" ]; then ok "entry $e is a folder"; else notok "entry $e is a folder"; fi
	else
		if [ -e "$e" ]; then ok "entry $e exists"; else notok "entry $e exists"; fi
	fi
done

folders=$(git ls-files | awk -F/ 'NF > 1 { print $1 "/" } NF > 2 { print $1 "/" $2 "/" }' | sort -u)
for f in $folders; do
	case $f in
	.ci/) continue ;;	# named by its files (.ci/run)
	esac
	if printf '%s\n' "$entries" | grep -xF "$f" >/dev/null; then
		ok "folder $f has an entry"
	else
		notok "folder $f has an entry"
	fi
done

# The tools/ entry: from its line to the next entry.
tools=$(printf '%s\n' "$section" | awk '/^  tools\/ / { on = 1; print; next } on && /^  [^ ]/ { on = 0 } on { print }')
for c in $(git ls-files 'tools/*.c'); do
	b=${c#tools/}
	if printf '%s\n' "$tools" | grep -E "(^|[ (])${b//./\\.}([,;) ]|$)" >/dev/null; then
		ok "$c named in the tools/ entry"
	else
		notok "$c named in the tools/ entry"
	fi
done
for b in $(printf '%s\n' "$tools" | grep -oE '[a-z0-9-]+\.c\b' | sort -u); do
	if [ -e "tools/$b" ]; then
		ok "tools/$b (named in the tools/ entry) exists"
	else
		notok "tools/$b (named in the tools/ entry) exists"
	fi
done

echo "1..$n"
echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
