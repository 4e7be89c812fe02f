#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# options-check.sh [BDSADM]: bdsadm's options, its --help and its man page
# say the same (make unit):
#  - every long option in a verb's option table (struct option in the
#    verb's file) is in `bdsadm VERB --help`, which prints to stdout and
#    exits 0 (an option with a short form may appear as that: -H); plan
#    and create share plan-options.c, and each must refuse, as a usage
#    error, the options of that table it does not take;
#  - every long option of the code is in tools/bdsadm.8 or
#    bds-stripe-table.8 (--name and --create are that name's only);
#  - every --option in those pages is in the code (an option table or a
#    "--x" the code parses itself), or belongs to another program named
#    on the same line (mdadm, systemctl, lvs, dmsetup).
# --help and --version themselves are not asked of each verb's help.
# Prints TAP; exits 1 when one fails.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
bdsadm=${1:-$top/tools/bdsadm}
man="$top/tools/bdsadm.8 $top/tools/bds-stripe-table.8"
# shellcheck source=tests/scripts/tap.sh
. "$top/tests/scripts/tap.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# options FILE: "name short" per long option of FILE's tables (short: the
# option's letter, or - when it has none)
options() {
	sed -n "s/.*{ *\"\([a-z][a-z0-9-]*\)\", *[a-z_]*_argument, *NULL, *\('\(.\)'\)\{0,1\}.*/\1 \3/p" "$1" |
		awk '{ print $1, ($2 == "" ? "-" : $2) }'
}

declare -A verb_file=(
	[adopt]=adopt.c [assemble]=assemble-cmd.c [check]=check-cmd.c
	[create]=plan-options.c [detail]=detail.c [examine]=examine.c
	[grow]=grow.c [import]=import.c [list]=list.c [monitor]=monitor-cmd.c
	[plan]=plan-options.c [release]=release.c [replace]=replace.c
)
# what plan and create do not take of plan-options.c's table
declare -A not_taken=(
	[plan]="name create read-ahead"
	[create]="name create table-only paths sysfs mounts json unlabelled"
)

for verb in $(printf '%s\n' "${!verb_file[@]}" | sort); do
	st=0
	"$bdsadm" "$verb" --help >"$W/help" 2>"$W/err" || st=$?
	ok $((st != 0 || $(wc -c <"$W/err") != 0)) "$verb --help: stdout, exit 0"
	while read -r opt short; do
		case " help version ${not_taken[$verb]:-} " in
		*" $opt "*) continue ;;
		esac
		st=1
		grep -e "--$opt\\b" "$W/help" >/dev/null && st=0
		[ "$st" = 1 ] && [ "$short" != - ] && grep -e "-$short\\b" "$W/help" >/dev/null && st=0
		ok $st "$verb --help names --$opt"
	done < <(options "$top/tools/${verb_file[$verb]}")
	for opt in ${not_taken[$verb]:-}; do
		st=0
		"$bdsadm" "$verb" "--$opt" x sdb >/dev/null 2>"$W/err" || st=$?
		ok $((st != 2)) "$verb refuses --$opt as a usage error (exit 2)"
	done
done

# The code's options, and the man page's
for f in "$top"/tools/*.c; do options "$f"; done | awk '{ print $1 }' | sort -u >"$W/code"
sed -n 's/.*"--\([a-z][a-z0-9-]*\).*/\1/p' "$top"/tools/*.c | sort -u >"$W/literal"
# shellcheck disable=SC2086 # the two pages
grep -ho '\\-\\-[a-z][a-z0-9]*\(\\-[a-z0-9][a-z0-9]*\)*' $man |
	sed 's/\\-/-/g; s/^--//' | sort -u >"$W/man"
while read -r opt; do
	st=0
	grep -x -e "$opt" "$W/man" >/dev/null || st=1
	ok $st "bdsadm.8 or bds-stripe-table.8 documents --$opt"
done <"$W/code"
while read -r opt; do
	if grep -x -e "$opt" "$W/code" "$W/literal" >/dev/null; then
		continue
	fi
	# the option itself, not a longer one (\-\-table, not \-\-table\-only)
	pat="\\\\-\\\\-${opt//-/\\\\-}(\\\\[^-]|[^\\\\a-z0-9]|\$)"
	st=0
	# shellcheck disable=SC2086
	grep -h -E -e "$pat" $man >"$W/lines" || true
	grep -v -E 'mdadm|systemctl|lvs|dmsetup' "$W/lines" >/dev/null && st=1
	ok $st "the man pages' --$opt: not bdsadm's, and another program's where it appears"
done <"$W/man"
tap_end
