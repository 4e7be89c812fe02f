#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The module registers the "bds-stripe" target (v1.10.0) on insmod and
# unregisters it on rmmod, and every table holds a module reference for
# exactly as long as it exists:
#  - `dmsetup targets` lists bds-stripe v1.10.0 after insmod and not before;
#  - /sys/module/dm_bds_stripe/refcnt is 0 with no table, > 0 while a
#    volume (1 group or several groups) or an inactive table exists, and
#    back to 0 once they are removed (also after a refused table);
#  - rmmod is refused while a volume exists and succeeds after removal;
#  - after rmmod the target is no longer listed, and a second
#    insmod/create/remove/rmmod cycle works the same.
#
# topology: ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1 6.12 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

CHUNK=128			# sectors (64 KiB)
REFCNT=/sys/module/dm_bds_stripe/refcnt

# bds_listed: the "bds-stripe" line of `dmsetup targets`, blanks squeezed
# (empty when the target is not registered).
bds_listed() {
	dmsetup targets | awk '$1 == "bds-stripe" { print $1, $2 }'
}

# refcnt: the module's reference count ("gone" when it is not loaded).
refcnt() {
	cat "$REFCNT" 2>/dev/null || echo gone
}

# table_over LEN_STRIPES GROUP... : a bds-stripe table with CHUNK and
# LEN_STRIPES stripes, where each GROUP is a comma-separated list of member
# paths; members start at sector 0.  Prints "length params".
table_over() {
	_stripes=$1
	shift
	_n=0
	_p="$CHUNK $#"
	for _g in "$@"; do
		_cnt=0
		_words=""
		for _m in $(echo "$_g" | tr ',' ' '); do
			_cnt=$((_cnt + 1))
			_words="$_words $_m 0"
		done
		_p="$_p $_cnt$_words"
		_n=$((_n + _cnt))
	done
	echo "0 $((_stripes * CHUNK * _n)) bds-stripe $_p"
}

# is_positive VALUE: VALUE is a decimal number greater than 0.
is_positive() {
	case "$1" in
	'' | *[!0-9]*) return 1 ;;
	esac
	[ "$1" -gt 0 ]
}

# expect_refs_positive DESC: refcnt must be a number > 0.
expect_refs_positive() {
	_r=$(refcnt)
	check "module refcount > 0 $1 ($_r)" is_positive "$_r"
}

# rmmod_refused DESC: rmmod must fail and leave the module loaded.
rmmod_refused() {
	if rmmod dm_bds_stripe 2>/tmp/rmmod.err; then
		BDS_CHECKS=$((BDS_CHECKS + 1))
		BDS_FAILS=$((BDS_FAILS + 1))
		echo "bds: not ok: rmmod succeeded $1"
		fail "module unloaded under a live table: cannot continue"
	fi
	log "rmmod refused $1: $(cat /tmp/rmmod.err)"
	check "module still loaded after refused rmmod $1" [ -e "$REFCNT" ]
}

# shellcheck disable=SC2046
set -- $(bds_all_members)
[ $# -eq 4 ] || fail "expected 4 members, found $#: $*"
m0=$1 m1=$2 m2=$3 m3=$4

# --- before insmod ---------------------------------------------------------------
dmsetup targets
expect_eq "$(bds_listed)" "" "bds-stripe not listed before insmod"
check "module not loaded before insmod" [ ! -e /sys/module/dm_bds_stripe ]

cycle=1
while [ "$cycle" -le 2 ]; do
	log "=== load cycle $cycle"
	bds_load_module
	dmsetup targets
	expect_eq "$(bds_listed)" "bds-stripe v1.10.0" "cycle $cycle: dmsetup targets lists bds-stripe v1.10.0"
	expect_eq "$(refcnt)" 0 "cycle $cycle: refcount 0 with no table"

	# One group of 4.
	bds_dm_create bdsmod1 "$(table_over 64 "$m0,$m1,$m2,$m3")"
	expect_refs_positive "with a 1-group volume"
	rmmod_refused "with a 1-group volume"
	run dmsetup status bdsmod1
	bds_dm_remove bdsmod1
	expect_eq "$(refcnt)" 0 "cycle $cycle: refcount 0 after removing the 1-group volume"

	if [ "$cycle" -eq 1 ]; then
		# Two volumes at once: 1 group of 2 and 2 groups of 1.
		bds_dm_create bdsmod2 "$(table_over 64 "$m0,$m1")"
		bds_dm_create bdsmod3 "$(table_over 64 "$m2" "$m3")"
		expect_refs_positive "with two volumes"
		r2=$(refcnt)
		bds_dm_remove bdsmod2
		expect_refs_positive "with one of two volumes left"
		r1=$(refcnt)
		check "refcount dropped when a volume went away ($r2 -> $r1)" [ "$r1" -lt "$r2" ]
		rmmod_refused "with one of two volumes left"
		bds_dm_remove bdsmod3
		expect_eq "$(refcnt)" 0 "refcount 0 after removing both volumes"

		# Two groups of 2, then four groups of 1.
		bds_dm_create bdsmod4 "$(table_over 64 "$m0,$m1" "$m2,$m3")"
		expect_refs_positive "with a 2x2 volume"
		run dmsetup status bdsmod4
		bds_dm_remove bdsmod4
		expect_eq "$(refcnt)" 0 "refcount 0 after removing the 2x2 volume"

		bds_dm_create bdsmod5 "$(table_over 64 "$m0" "$m1" "$m2" "$m3")"
		expect_refs_positive "with a 4x1 volume"
		bds_dm_remove bdsmod5
		expect_eq "$(refcnt)" 0 "refcount 0 after removing the 4x1 volume"

		# An inactive (loaded, not resumed) table holds a reference too,
		# and `dmsetup clear` drops it.
		run dmsetup create bdsmod6 --table "0 $((64 * CHUNK * 2)) linear $(bds_majmin "$m0") 0"
		expect_eq "$(refcnt)" 0 "refcount 0 with only a linear device"
		table_over 64 "$m2" "$m3" | dmsetup reload bdsmod6 ||
			fail "dmsetup reload bdsmod6 failed"
		expect_refs_positive "with an inactive bds-stripe table"
		rmmod_refused "with an inactive bds-stripe table"
		run dmsetup clear bdsmod6
		expect_eq "$(refcnt)" 0 "refcount 0 after dmsetup clear"
		bds_dm_remove bdsmod6

		# A refused table leaves no reference behind.
		bds_mark refused
		if echo "0 $((CHUNK * 2)) bds-stripe $CHUNK 1 2 $m0 0 $m0 0" |
			dmsetup create bdsmod7 2>/dev/null; then
			bds_dm_remove bdsmod7
			check "table naming one member twice is refused" false
		fi
		check "refused table is logged" sh -c \
			"dmesg | sed -n '/bds-mark: refused\$/,\$p' | grep 'bds-stripe: Member device listed more than once' >/dev/null"
		expect_eq "$(refcnt)" 0 "refcount 0 after a refused table"
	fi

	expect_eq "$(dmsetup ls 2>&1)" "No devices found" "cycle $cycle: no dm devices left"
	run rmmod dm_bds_stripe
	dmsetup targets
	expect_eq "$(bds_listed)" "" "cycle $cycle: bds-stripe not listed after rmmod"
	check "cycle $cycle: module gone after rmmod" [ ! -e /sys/module/dm_bds_stripe ]
	cycle=$((cycle + 1))
done

pass "registers, holds references per table, unloads"
