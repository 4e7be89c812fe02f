#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pipe-lint.sh - part of make lint: no shell script of the project may
# have a pipeline whose reader can stop before its writer is done
# (tests/tools/pipe-lint.pl says why and what it flags).
#
# First the checker checks itself: every case below marked "bad" must be
# flagged and every "good" one must pass, among them the dep_of() and
# pkgver() that failed with exit 141 on fresh machines (issue 12).  Then
# it runs over every shell script in the tree: *.sh files and files whose
# first line starts a shell.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
lint=$top/tests/tools/pipe-lint.pl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail=0
# case NAME bad|good: the script on stdin must be flagged / pass.
case_() {
	cat >"$tmp/$1.sh"
	if perl "$lint" "$tmp/$1.sh" >"$tmp/$1.out"; then got=good; else got=bad; fi
	if [ "$got" != "$2" ]; then
		echo "pipe-lint: self-test $1: expected $2, got $got" >&2
		cat "$tmp/$1.out" >&2
		fail=1
	fi
}

# The two readers of issue 12, as they were.
case_ old-dep-of bad <<'T'
dep_of() { # $1 = pkg, $2 = version, $3 = regex
	apt_q show "$1=$2" 2>/dev/null | awk -v re="$3" '
		/^Depends:/ {
			n = split($0, d, /,[ \t]*/)
			for (i = 1; i <= n; i++)
				if (d[i] ~ re) { print d[i]; exit }
			exit
		}'
}
T
case_ old-pkgver bad <<'T'
pkgver() { apt-cache show --no-all-versions "$PKG" 2>/dev/null | awk '/^Version:/ { print $2; exit }'; }
T
case_ head-in-subst bad <<'T'
v=$(find / -name x -printf '%f\n' | head -n1)
T
case_ head-in-quoted-subst bad <<'T'
echo "first: $(ls | head -n 1)"
T
case_ head-continued bad <<'T'
sed -n 's/x/y/p' file |
	head -n 1
T
case_ grep-q bad <<'T'
dmesg | grep -q 'not ok' && echo bad
T
case_ grep-bundled-q bad <<'T'
if dmesg | grep -Eqi 'x|y'; then :; fi
T
case_ grep-m1 bad <<'T'
img=$(deps | grep -m1 '^linux-image-')
T
case_ grep-long-quiet bad <<'T'
deps | grep --quiet foo
T
case_ sed-q bad <<'T'
x=$(apt-cache policy x | sed -n '/Candidate/{p;q}')
T
case_ read-one bad <<'T'
cmd | read -r first
T
case_ group-read bad <<'T'
cmd | { read -r a; echo "$a"; }
T
case_ while-break bad <<'T'
cmd | while read -r l; do
	[ "$l" = x ] && break
done
T
case_ process-subst bad <<'T'
while read -r x; do :; done < <(apt-cache madison x | awk '{ print; exit }')
T
case_ dd-count bad <<'T'
cat /dev/zero | dd of=/dev/null bs=1 count=1
T
case_ yes-writer bad <<'T'
yes | apt-get install foo
T
case_ backticks bad <<'T'
a=`ls | head -1`
T
case_ sh-c-double bad <<'T'
check "clean" sh -c "! dmesg | grep -Eq '$BAD'"
T
case_ sh-c-single bad <<'T'
sh -c 'dmesg | head -n 3'
T
# What the tree does instead, and things that look alike but are fine.
case_ sh-c-no-pipe good <<'T'
check "no error" sh -c "! grep -Eiq 'verify|bad magic' /tmp/fio.out"
T
case_ flag-instead-of-exit good <<'T'
apt_q show "$1" | awk '!done && $1 == "Version:" { print $2; done = 1 }'
T
case_ sed-1p good <<'T'
v=$(find / -name x | sed -n 1p)
T
case_ grep-to-null good <<'T'
dmesg | grep 'not ok' >/dev/null && echo bad
T
case_ grep-q-on-file good <<'T'
grep -q 'x' /tmp/file && head -n 1 /tmp/file
T
case_ here-string good <<'T'
[ "$(head -n1 <<< "$OUT")" = x ]
T
case_ awk-exit-no-pipe good <<'T'
awk '/x/ { exit 1 }' file
T
case_ quoted-pipe good <<'T'
echo "a | head" 'b | grep -q' | cat
T
case_ param-pipe good <<'T'
x=${a%%|*}; y=$(( a | 4 ))
T
case_ case-pattern good <<'T'
case "$x" in
a | head) echo ;;
esac
T
case_ comment good <<'T'
# cmd | head -n 1
echo ok # | head
T
case_ heredoc-body good <<'T'
cat <<END
x | head -n 1
END
T
case_ while-no-break good <<'T'
cmd | while read -r l; do echo "$l"; done
T
case_ sed-s-q good <<'T'
cmd | sed 's/q/x/'
T
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
