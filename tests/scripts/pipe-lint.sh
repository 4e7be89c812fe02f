#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pipe-lint.sh - part of make lint: no shell script of the project may
# have a pipeline whose reader can stop before its writer is done
# (tests/scripts/pipe-lint.pl says why and what it flags).
#
# First the checker checks itself on tests/scripts/pipe-lint-cases.txt: every
# case marked "bad" must be flagged and every "good" one must pass, among
# them the dep_of() and pkgver() that failed with exit 141 on fresh
# machines (issue 12).  Then
# it runs over every shell script in the tree: *.sh files and files whose
# first line starts a shell.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
lint=$top/tests/scripts/pipe-lint.pl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail=0
# The cases (tests/scripts/pipe-lint-cases.txt) into one file each, named
# NAME.bad.sh or NAME.good.sh.
awk -v dir="$tmp" '
	/^### (bad|good) / { if (f != "") close(f); f = dir "/" $3 "." $2 ".sh"; next }
	f != "" { print >f }' "$top/tests/scripts/pipe-lint-cases.txt"
n=0
for f in "$tmp"/*.sh; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	want=${f%.sh}
	want=${want##*.}
	if perl "$lint" "$f" >"$f.out"; then got=good; else got=bad; fi
	if [ "$got" != "$want" ]; then
		echo "pipe-lint: self-test $(basename "$f"): expected $want, got $got" >&2
		cat "$f.out" >&2
		fail=1
	fi
done
[ "$n" -ge 30 ] || { echo "pipe-lint: only $n self-test cases found" >&2; fail=1; }
[ "$fail" = 0 ] || { echo "pipe-lint: the checker itself is broken" >&2; exit 1; }

# The tree: tracked files when this is a git checkout, else every file.
cd "$top"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -co --exclude-standard >"$tmp/files"
else
	find . -path ./.git -prune -o -path ./results -prune -o -type f -print >"$tmp/files"
fi
scripts=()
while IFS= read -r f; do
	[ -f "$f" ] || continue
	case "$f" in
	*.sh) scripts+=("$f"); continue ;;
	*.c | *.h | *.md | *.rst | *.csv | *.png | *.8 | *.txt) continue ;;
	esac
	IFS= read -r first <"$f" || true
	case "$first" in
	'#!'*/sh | '#!'*/bash | '#!'*/sh\ * | '#!'*/bash\ * | '#!/usr/bin/env bash'*) scripts+=("$f") ;;
	esac
done <"$tmp/files"
[ ${#scripts[@]} -gt 20 ] || { echo "pipe-lint: found only ${#scripts[@]} shell scripts" >&2; exit 1; }
if ! perl "$lint" "${scripts[@]}"; then
	echo "pipe-lint: a reader above may stop before its writer (exit 141 under pipefail); let it read to the end" >&2
	exit 1
fi
echo "pipe-lint: ${#scripts[@]} shell scripts, no early-exit reader in a pipeline"
