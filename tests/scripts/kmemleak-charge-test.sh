#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak-charge-test.sh - guest-run.sh's kmemleak_tally, on the host:
# a debug boot of several tests is scanned once at its end, and every
# leaked object of the target must be charged to the test during which it
# was allocated (by the jiffies kmemleak records), never to another and
# never lost.  The report below has, in order of allocation:
#   - an object of the target allocated before the first test started
#     (charged to the first);
#   - a known kernel leak under the target's frames (kobject name from
#     sysfs_slab_add: counted apart, charged to nobody);
#   - an object of the kernel alone (printed, charged to nobody);
#   - two objects of the target during test b (one by name, one as a raw
#     address of unloaded code), one in 6.x's "(age ...)" form;
#   - one of the target during test c, allocated exactly at its start.
# Test a leaks nothing of its own, test d nothing at all.  Then: an
# object of the target whose report gives no jiffies (charged to every
# test: it cannot be placed), and the check after a boot's only test
# (kmemleak_check's tally, from jiffies 0).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC1091 # the guest's library, functions only
GRUN_LIB_ONLY=1 . "$top/tests/vm/guest-run.sh"

cat >"$tmp/starts" <<'END'
1000 a
2000 b
3000 c
4000 d
END

obj() { # JIFFIES FRAME...
	local j=$1
	shift
	printf 'unreferenced object 0xffff888001e29c58 (size 64):\n'
	printf '  comm "dmsetup", pid 204, jiffies %s%s\n' "$j" "${AGE:-}"
	printf '  hex dump (first 8 bytes):\n    62 69 6f 2d 33 33 36 00  bio-336.\n'
	printf '  backtrace:\n'
	for f in "$@"; do
		printf '    [<00000000720bc289>] %s\n' "$f"
	done
}
{
	obj 900 '__kmalloc+0x49/0x150' 'bds_ctr+0x1c/0x300 [dm_bds_stripe]'
	obj 1500 'kstrdup_const+0x43/0x80' 'kobject_set_name_vargs+0x3f/0x110' \
		'sysfs_slab_add+0x18e/0x210' 'bioset_init+0x10/0x40' '0xffffffffc0123456'
	obj 1600 'kmalloc_trace+0x20/0x90' 'ext4_fill_super+0x1/0x2'
	obj 2500 '__kmalloc+0x49/0x150' 'bds_alloc_ctx+0x20/0x90 [dm_bds_stripe]'
	AGE=' (age 12.345s)' obj 2999 '__kmalloc+0x49/0x150' '0xffffffffc0123456'
	obj 3000 'kmem_cache_alloc+0x1/0x2' 'dm_bds_stripe_map+0x5/0x9'
} >"$tmp/report"

rc=0
kmemleak_tally "$tmp/starts" "$tmp/report" >"$tmp/out" || rc=$?
fails=0
expect() { # DESCRIPTION, then the command
	local what=$1
	shift
	if "$@"; then
		echo "ok - $what"
	else
		echo "not ok - $what"
		fails=$((fails + 1))
	fi
}
expect "tally returns 1 when the target leaked (rc $rc)" [ "$rc" = 1 ]
expect "summary: 6 objects, 4 of the target, 1 known" \
	[ "$(sed -n 1p "$tmp/out")" = "bds-kmemleak: 6 unreferenced object(s) in this boot, 4 from the target, 1 known kernel leak(s)" ]
expect "charges: a 1, b 2, c 1, nothing else" \
	[ "$(sed 1d "$tmp/out" | sort | tr '\n' ' ')" = "a 1 b 2 c 1 " ]

# Nothing of the target: returns 0 and charges nobody.
{
	obj 1500 'kstrdup_const+0x43/0x80' 'kobject_set_name_vargs+0x3f/0x110' \
		'dm_setup_md_queue+0x18e/0x210' '0xffffffffc0123456'
	obj 1600 'kmalloc_trace+0x20/0x90' 'ext4_fill_super+0x1/0x2'
} >"$tmp/report2"
rc=0
kmemleak_tally "$tmp/starts" "$tmp/report2" >"$tmp/out2" || rc=$?
expect "no leak of the target: returns 0 (rc $rc)" [ "$rc" = 0 ]
expect "no leak of the target: nobody charged" [ "$(sed 1d "$tmp/out2" | wc -l)" = 0 ]
# No jiffies in the report: every test is charged.
obj 2500 '__kmalloc+0x49/0x150' 'bds_alloc_ctx+0x20/0x90 [dm_bds_stripe]' |
	sed 's/, jiffies [0-9]*//' >"$tmp/report3"
rc=0
kmemleak_tally "$tmp/starts" "$tmp/report3" >"$tmp/out3" || rc=$?
expect "no jiffies: returns 1 (rc $rc)" [ "$rc" = 1 ]
expect "no jiffies: one object, charged to a, b, c and d" \
	[ "$(sed -n 1p "$tmp/out3" | sed 's/.* in this boot, //')$(sed 1d "$tmp/out3" | sort | tr '\n' ' ')" = \
		"1 from the target, 0 known kernel leak(s)a 1 b 1 c 1 d 1 " ]

# One test alone, from jiffies 0: everything of the target is its.
echo "0 only" >"$tmp/one"
rc=0
kmemleak_tally "$tmp/one" "$tmp/report" >"$tmp/out4" || rc=$?
expect "one test: all 4 objects of the target are its (rc $rc)" \
	[ "$rc $(sed 1d "$tmp/out4")" = "1 only 4" ]

: >"$tmp/empty"
expect "an empty report charges nobody" kmemleak_tally "$tmp/starts" "$tmp/empty" >/dev/null

[ "$fails" = 0 ] || { echo "kmemleak-charge-test: $fails failed"; exit 1; }
echo "kmemleak-charge-test: all passed"
