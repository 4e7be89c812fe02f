#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every stripe unit written through a bds-stripe volume lands where the
# documented layout says: unit k on member order[k mod N] (order as printed
# by `dmsetup status`, field 4) at member sector offset + (k div N) * chunk.
# The placement is computed here in shell arithmetic (an independent model,
# not the module's code): every member is read directly with O_DIRECT, the
# volume is rebuilt from the members unit by unit by the model and must equal
# the random data written (a mismatch is reported per unit, by md5).
# Data: 3 stripes and 3 units from sector 0, fresh for every case.  Cases:
#   - 2 groups of 4, chunk 128: the order is exactly 0,4,1,5,2,6,3,7;
#   - groups 4+2+2 (one per controller): the order is exactly
#     0,4,1,6,2,5,3,7 and no 4 cyclically consecutive positions are all
#     group 0;
#   - groups 2+2+1, chunk 192 (96 KiB, not a power of two), nonzero member
#     offsets: the order is a permutation keeping each group's members in
#     table order and spreading every group within the documented bound;
#   - a single group of 8 in a scrambled table order, chunk 64: the order is
#     the table order;
#   - `layout sequential` is interchangeable with the in-kernel `striped`
#     target over the same members, chunk and offsets, in both directions
#     (written by one, read back identically by the other).
#
# topology: ctl=4 ctl=2 ctl=2
# timeout: 300
# memory: 1024
# check-kernels: 6.1 6.12 7.2

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2154
. /bds/guest-lib.sh

V=bdsplace
DMV=/dev/mapper/$V
DATA=/tmp/placement.data

# --- helpers -----------------------------------------------------------------

# new_case CHUNK GROUP...: describe the members of a table.  Each GROUP is a
# comma-separated list of NODE@OFFSET (NODE = c<C>d<D> under /dev/bds, OFFSET
# in sectors).  Sets CHUNK, N, NG, MEM_i, OFF_i, GRP_i, GSZ_g and GROUPWORDS
# (the table words from <#groups> on, members as major:minor).
new_case() {
	CHUNK=$1
	shift
	N=0
	NG=$#
	GROUPWORDS=$NG
	_g=0
	for _grp in "$@"; do
		_n=0
		_w=""
		for _e in $(echo "$_grp" | tr , ' '); do
			_dev=/dev/bds/${_e%@*}
			[ -b "$_dev" ] || fail "no member $_dev"
			eval "MEM_$N=$_dev OFF_$N=${_e#*@} GRP_$N=$_g"
			_w="$_w $(bds_majmin "$_dev") ${_e#*@}"
			N=$((N + 1))
			_n=$((_n + 1))
		done
		eval "GSZ_$_g=$_n"
		GROUPWORDS="$GROUPWORDS $_n$_w"
		_g=$((_g + 1))
	done
}

# striped_words: the in-kernel striped target's words for the same members.
striped_words() {
	_s="$N $CHUNK"
	_i=0
	while [ "$_i" -lt "$N" ]; do
		eval "_s=\"\$_s \$(bds_majmin \$MEM_$_i) \$OFF_$_i\""
		_i=$((_i + 1))
	done
	echo "$_s"
}

# status_field I: field I of the target's status (1 = #members, 4 = order).
status_field() {
	dmsetup status "$V" | awk -v f=$(($1 + 3)) '{ print $f }'
}

# load_order CSV: ORD_p = member at position p.  Returns 1 unless CSV is a
# permutation of 0..N-1.
load_order() {
	_p=0
	_seen=" "
	for _x in $(echo "$1" | tr , ' '); do
		case "$_x" in
		'' | *[!0-9]*) return 1 ;;
		esac
		[ "$_x" -lt "$N" ] || return 1
		case "$_seen" in *" $_x "*) return 1 ;; esac
		_seen="$_seen$_x "
		eval "ORD_$_p=$_x"
		_p=$((_p + 1))
	done
	[ "$_p" -eq "$N" ]
}

# members_in_table_order: each group's members appear in table order.
members_in_table_order() {
	_g=0
	while [ "$_g" -lt "$NG" ]; do
		_last=-1
		_p=0
		while [ "$_p" -lt "$N" ]; do
			eval "_m=\$ORD_$_p"
			eval "_mg=\$GRP_$_m"
			if [ "$_mg" = "$_g" ]; then
				[ "$_m" -gt "$_last" ] || return 1
				_last=$_m
			fi
			_p=$((_p + 1))
		done
		_g=$((_g + 1))
	done
}

# spread_ok: for every window of w consecutive positions (cyclic) and every
# group g, |count * N - w * n_g| < BOUND * N with BOUND 1 for equal groups or
# two groups and 2 otherwise (Documentation/bds-stripe.rst, Layout).
spread_ok() {
	_bound=1
	if [ "$NG" -gt 2 ]; then
		_g=1
		while [ "$_g" -lt "$NG" ]; do
			eval "[ \$GSZ_$_g -eq \$GSZ_0 ]" || _bound=2
			_g=$((_g + 1))
		done
	fi
	_g=0
	while [ "$_g" -lt "$NG" ]; do
		eval "_ng=\$GSZ_$_g"
		_a=0
		while [ "$_a" -lt "$N" ]; do
			_cnt=0
			_w=1
			while [ "$_w" -le "$N" ]; do
				eval "_m=\$ORD_$(((_a + _w - 1) % N))"
				eval "_mg=\$GRP_$_m"
				[ "$_mg" = "$_g" ] && _cnt=$((_cnt + 1))
				_d=$((_cnt * N - _w * _ng))
				[ "$_d" -lt 0 ] && _d=$((-_d))
				if [ "$_d" -ge $((_bound * N)) ]; then
					log "group $_g: $_cnt in the $_w positions from $_a"
					return 1
				fi
				_w=$((_w + 1))
			done
			_a=$((_a + 1))
		done
		_g=$((_g + 1))
	done
}

# no_run_of_group0 LEN: no LEN cyclically consecutive positions are all group 0.
no_run_of_group0() {
	_a=0
	while [ "$_a" -lt "$N" ]; do
		_all=1
		_i=0
		while [ "$_i" -lt "$1" ]; do
			eval "_m=\$ORD_$(((_a + _i) % N))"
			eval "_mg=\$GRP_$_m"
			[ "$_mg" = 0 ] || _all=0
			_i=$((_i + 1))
		done
		if [ "$_all" = 1 ]; then
			log "positions $_a..$((_a + $1 - 1)) (mod $N) are all group 0"
			return 1
		fi
		_a=$((_a + 1))
	done
}

# make_data UNITS: fresh random data of UNITS stripe units in $DATA.
make_data() {
	dd if=/dev/urandom of="$DATA" bs=$((CHUNK * 512)) count="$1" status=none ||
		fail "cannot make test data"
}

# placement_ok DESC UNITS: units 0..UNITS-1 of $DATA are, byte for byte, on
# member ORD_(k mod N) at member sector OFF + (k div N) * CHUNK.  Each
# member's rows are read once, with O_DIRECT, straight from the member; the
# volume is then rebuilt from them by the model, unit by unit, and compared
# with $DATA (and on a mismatch unit by unit with md5, to name the units).
placement_ok() {
	_rows=$((($2 + N - 1) / N))
	_cb=$((CHUNK * 512))
	_m=0
	while [ "$_m" -lt "$N" ]; do
		eval "_dev=\$MEM_$_m _off=\$OFF_$_m"
		bds_read "$_dev" $((_off * 512)) $((_rows * _cb)) >/tmp/member.$_m ||
			fail "cannot read member $_m ($_dev)"
		_m=$((_m + 1))
	done
	rm -f /tmp/rebuilt
	_k=0
	while [ "$_k" -lt "$2" ]; do
		eval "_m=\$ORD_$((_k % N))"
		dd if=/tmp/member.$_m of=/tmp/rebuilt bs=$_cb skip=$((_k / N)) seek="$_k" \
			count=1 conv=notrunc status=none || fail "cannot rebuild unit $_k"
		_k=$((_k + 1))
	done
	cmp -s /tmp/rebuilt "$DATA" && return 0
	_k=0
	while [ "$_k" -lt "$2" ]; do
		if [ "$(bds_unit_md5 "$DATA" "$_k" $_cb)" != \
			"$(bds_unit_md5 /tmp/rebuilt "$_k" $_cb)" ]; then
			eval "_m=\$ORD_$((_k % N))"
			eval "_dev=\$MEM_$_m _off=\$OFF_$_m"
			log "$1: unit $_k is not on member $_m ($_dev) at sector $((_off + (_k / N) * CHUNK))"
		fi
		_k=$((_k + 1))
	done
	return 1
}

# write_volume DEV: write $DATA at offset 0 of DEV with O_DIRECT.
write_volume() {
	run dd if="$DATA" of="$1" bs=$((CHUNK * 512)) oflag=direct conv=fsync status=none
}

# data_md5: md5 of the whole of $DATA.
data_md5() { md5sum <"$DATA" | cut -d' ' -f1; }

# run_case NAME LAYOUT WANT_ORDER: create the volume for the current case
# (LAYOUT interleave|sequential; WANT_ORDER exact order or "" to check only
# the order's properties), write 3 stripes and 3 units of random data from
# sector 0 and check the placement on every member.
run_case() {
	_name=$1
	_layout=$2
	_wantorder=$3
	_opt=""
	[ "$_layout" = sequential ] && _opt=" 2 layout sequential"
	LEN=$((16 * CHUNK * N))
	bds_dm_create $V "0 $LEN bds-stripe $CHUNK $GROUPWORDS$_opt"
	expect_eq "$(status_field 1)" "$N" "$_name: status #members"
	expect_eq "$(status_field 3)" "$_layout" "$_name: status layout word"
	ORDER=$(status_field 4)
	log "$_name: order $ORDER"
	check "$_name: order $ORDER is a permutation of 0..$((N - 1))" load_order "$ORDER"
	load_order "$ORDER" || fail "$_name: cannot use order '$ORDER'"
	[ -n "$_wantorder" ] && expect_eq "$ORDER" "$_wantorder" "$_name: order"
	check "$_name: each group's members in table order" members_in_table_order
	[ "$_layout" = interleave ] && [ "$NG" -gt 1 ] &&
		check "$_name: every group spread within the documented bound" spread_ok

	UNITS=$((3 * N + 3))
	make_data "$UNITS"
	write_volume $DMV
	expect_eq "$(bds_md5 $DMV 0 $((UNITS * CHUNK * 512)))" "$(data_md5)" \
		"$_name: read back through the volume"
	check "$_name: $UNITS units on the members where the layout puts them" \
		placement_ok "$_name" "$UNITS"
}

# --- the cases ------------------------------------------------------------------

bds_load_module
expect_eq "$(bds_controllers)" 3 "controllers"
expect_eq "$(bds_members 0 | wc -l) $(bds_members 1 | wc -l) $(bds_members 2 | wc -l)" \
	"4 2 2" "disks per controller"

# 1. Two groups of four (the documentation's worked example).
new_case 128 "c0d0@0,c0d1@0,c0d2@0,c0d3@0" "c1d0@0,c1d1@0,c2d0@0,c2d1@0"
run_case "2x4" interleave "0,4,1,5,2,6,3,7"
bds_dm_remove $V

# 2. Groups 4+2+2, one per controller.
new_case 128 "c0d0@0,c0d1@0,c0d2@0,c0d3@0" "c1d0@0,c1d1@0" "c2d0@0,c2d1@0"
run_case "4+2+2" interleave "0,4,1,6,2,5,3,7"
check "4+2+2: no 4 consecutive positions (cyclic) all group 0" no_run_of_group0 4
bds_dm_remove $V

# 3. Groups 2+2+1, 96 KiB unit, nonzero member offsets.
new_case 192 "c0d0@2048,c0d1@4096" "c1d0@6144,c1d1@8192" "c2d0@10240"
run_case "2+2+1/192" interleave ""
bds_dm_remove $V

# 4. A single group: table order, whatever the layout word.
new_case 64 "c0d3@0,c2d1@0,c0d0@0,c1d1@0,c0d2@0,c1d0@0,c2d0@0,c0d1@0"
run_case "1x8/64" interleave "0,1,2,3,4,5,6,7"
bds_dm_remove $V

# 5. layout sequential <-> striped, 96 KiB unit, nonzero offsets, 4+2+2.
new_case 192 "c0d0@2048,c0d1@4096,c0d2@6144,c0d3@8192" "c1d0@10240,c1d1@12288" \
	"c2d0@14336,c2d1@16384"
run_case "sequential" sequential "0,1,2,3,4,5,6,7"
want=$(data_md5)
bytes=$((UNITS * CHUNK * 512))
bds_dm_remove $V
bds_dm_create bdsstriped "0 $LEN striped $(striped_words)"
expect_eq "$(bds_md5 /dev/mapper/bdsstriped 0 $bytes)" "$want" \
	"written by bds-stripe sequential, read by striped"
# The reverse direction: fresh data written by striped.
make_data "$UNITS"
want=$(data_md5)
write_volume /dev/mapper/bdsstriped
bds_dm_remove bdsstriped
check "striped's placement is the model's too" placement_ok "striped" "$UNITS"
bds_dm_create $V "0 $LEN bds-stripe $CHUNK $GROUPWORDS 2 layout sequential"
expect_eq "$(bds_md5 $DMV 0 $bytes)" "$want" \
	"written by striped, read by bds-stripe sequential"
bds_dm_remove $V

run rmmod dm_bds_stripe
pass "placement matches the documented layout"
