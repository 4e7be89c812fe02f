#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-json-check.sh [RESULTS]: the JSON that bdsadm printed in the VM tests
# (their "bds-json DEFINITION: {...}" lines, guest-lib.sh's bds_json_log)
# against Documentation/bdsadm.schema.json, with json-schema-check.  It
# reads every log under RESULTS (default: tests/vm/results, or
# $BDS_RESULTS), and needs list-and-detail-report-volumes' list and
# detail objects in each log of that test: without them (a test that did
# not run or stopped early) it fails rather than pass on nothing.
# Run by make check after the VM suite.  Prints TAP; exits 1 on a failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
results=${1:-${BDS_RESULTS:-$top/tests/vm/results}}
# shellcheck source=tests/scripts/tap.sh
. "$top/tests/scripts/tap.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

mapfile -t logs < <(grep -rlas '^bds-json [a-z]*: ' "$results" --include='*.log' | sort || true)
mapfile -t need < <(find "$results" -name 'list-and-detail-report-volumes.log' | sort)
ok $((${#need[@]} == 0)) "list-and-detail-report-volumes ran (its log under $results)"
for log in "${need[@]}"; do
	for def in list detail; do
		st=0
		grep -a "^bds-json $def: " "$log" >/dev/null || st=1
		ok $st "$log: has $def --json output"
	done
done
for log in "${logs[@]}"; do
	i=0
	while IFS= read -r line; do
		i=$((i + 1))
		def=${line#bds-json }
		def=${def%%:*}
		printf '%s\n' "${line#bds-json "$def": }" >"$W/$i.json"
		if "$top/tests/scripts/json-schema-check" "$def" "$W/$i.json" >"$W/why" 2>&1; then
			ok 0 "$log: $def object $i conforms to the schema"
		else
			ok 1 "$log: $def object $i conforms to the schema"
			sed 's/^/# /' "$W/why"
		fi
	done < <(tr -d '\r' <"$log" | grep -a '^bds-json [a-z]*: ' || true)
done
tap_end
