# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tap.sh - TAP lines for the shell tests that are not VM tests
# (tests/deb/, tests/install/): sourced.
#   ok STATUS DESCRIPTION...   "ok N - ..." when STATUS is 0, else "not ok"
#   tap_end                    the plan and the count; fails when one failed

n=0
passed=0
failed=0
ok() {
	local st=$1
	shift
	n=$((n + 1))
	if [ "$st" -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok $n - $*"
	else
		failed=$((failed + 1))
		echo "not ok $n - $*"
	fi
}

tap_end() {
	echo "1..$n"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
