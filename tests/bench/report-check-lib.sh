# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# report-check-lib.sh - what the report tests (report-test.sh,
# report-model-test.sh) share, sourced after tests/scripts/tap.sh.

# has FILE TEXT: TEXT is a line, or part of one, of FILE (else FILE is
# shown as TAP comments)
has() {
	grep -qF -- "$2" "$1" && return 0
	echo "# not in $1: $2"
	sed 's/^/#   /' "$1"
	return 1
}
# hasnt FILE TEXT: TEXT is in no line of FILE
hasnt() {
	grep -qF -- "$2" "$1" || return 0
	echo "# in $1 but should not be: $2"
	return 1
}
# t DESCRIPTION COMMAND...: one TAP line, COMMAND's status
t() {
	local desc=$1 st=0
	shift
	"$@" || st=$?
	ok "$st" "$desc"
}
