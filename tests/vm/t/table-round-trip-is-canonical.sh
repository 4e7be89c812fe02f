#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `dmsetup table` prints the canonical table, and feeding it back gives the
# same device.  For tables with 1 to 4 groups, both layouts (default,
# explicit "2 layout interleave", "2 layout sequential", mixed-case words),
# a power-of-two (128) and a 96 KiB (192) stripe unit, nonzero member
# offsets and members given by /dev path or by major:minor:
#  - `dmsetup table` is exactly the canonical string computed here: members
#    as major:minor, offsets as given, "2 layout sequential" only for the
#    sequential layout (interleave, the default, is omitted);
#  - `dmsetup status` shows N, all members alive, the layout word, the
#    order (checked against the doc's worked examples where the doc gives
#    one, else a permutation of 0..N-1) and #groups;
#  - data written through the volume lies where the doc's formula puts it
#    (unit k on member order[k mod N] at offset + (k div N) * chunk);
#  - after removing the volume and creating it again from the printed
#    table, `dmsetup table` and the status order are unchanged and the data
#    reads back identical.
#
# topology: ctl=4 ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

STRIPES=256			# volume length in stripes
NCASES=0

# is_permutation N LIST: LIST (comma separated) holds each of 0..N-1 once.
is_permutation() {
	_want=$(seq 0 $(($1 - 1)) | tr '\n' ' ')
	_got=$(echo "$2" | tr ',' '\n' | sort -n | tr '\n' ' ')
	[ "$_want" = "$_got" ]
}

# set_array NAME WORD...: NAME_0, NAME_1, ... = WORD...
set_array() {
	_a=$1
	shift
	_i=0
	# shellcheck disable=SC2034 # _w is read through eval
	for _w in "$@"; do
		eval "${_a}_$_i=\$_w"
		_i=$((_i + 1))
	done
}

# get_status NAME: split the target part of `dmsetup status NAME` into
# st_n st_health st_layout st_order st_groups.
get_status() {
	_st=$(dmsetup status "$1")
	echo "$1: $_st"
	# shellcheck disable=SC2086
	set -- $_st
	st_n=$4 st_health=$5 st_layout=$6 st_order=$7 st_groups=$8
}

# rt_case DESC CHUNK OPT LAYOUT ORDER GROUP...
#   OPT     the optional words as given in the table ("" for none)
#   LAYOUT  expected layout: interleave | sequential
#   ORDER   expected order (comma separated) or "-" to only require a
#           permutation
#   GROUP   comma-separated MEMBER@OFFSET; MEMBER is cCdD (given to dmsetup
#           as /dev/bds/cCdD) or =cCdD (given as its major:minor)
rt_case() {
	desc=$1 chunk=$2 opt=$3 layout=$4 order=$5
	shift 5
	NCASES=$((NCASES + 1))
	log "=== case $NCASES: $desc"

	ngroups=$#
	params="$chunk $ngroups"
	canon="$chunk $ngroups"
	paths=""
	offs=""
	n=0
	for g in "$@"; do
		cnt=0
		pw=""
		cw=""
		for spec in $(echo "$g" | tr ',' ' '); do
			name=${spec%@*}
			off=${spec#*@}
			case "$name" in
			=*)
				name=${name#=}
				word=$(bds_majmin "/dev/bds/$name")
				;;
			*)
				word=/dev/bds/$name
				;;
			esac
			[ -b "/dev/bds/$name" ] || fail "no member /dev/bds/$name"
			pw="$pw $word $off"
			cw="$cw $(bds_majmin "/dev/bds/$name") $off"
			paths="$paths /dev/bds/$name"
			offs="$offs $off"
			cnt=$((cnt + 1))
		done
		params="$params $cnt$pw"
		canon="$canon $cnt$cw"
		n=$((n + cnt))
	done
	[ -n "$opt" ] && params="$params $opt"
	[ "$layout" = sequential ] && canon="$canon 2 layout sequential"
	len=$((STRIPES * chunk * n))
	want_table="0 $len bds-stripe $canon"

	# --- first device, from the table as written -----------------------------
	bds_dm_create bdsrt1 "0 $len bds-stripe $params"
	vol=/dev/mapper/bdsrt1
	table1=$(dmsetup table bdsrt1)
	expect_eq "$table1" "$want_table" "$desc: dmsetup table is canonical"
	expect_eq "$(bds_sectors $vol)" "$len" "$desc: volume size"
	get_status bdsrt1
	expect_eq "$st_n" "$n" "$desc: status N"
	expect_eq "$st_health" "$(printf '%*s' "$n" '' | tr ' ' A)" "$desc: status health"
	expect_eq "$st_layout" "$layout" "$desc: status layout"
	order1=$st_order
	if [ "$order" != - ]; then
		expect_eq "$order1" "$order" "$desc: status order"
	fi
	check "$desc: order $order1 is a permutation of 0..$((n - 1))" is_permutation "$n" "$order1"
	expect_eq "$st_groups" "$ngroups" "$desc: status #groups"

	# Random data over three stripes, starting one unit into stripe 1.
	cb=$((chunk * 512))
	wb=$((cb * n))
	doff=$((wb + cb))
	dsize=$((3 * wb))
	run dd if=/dev/urandom of=/tmp/rt.data bs="$cb" count=$((3 * n)) status=none
	want=$(md5sum </tmp/rt.data | cut -d' ' -f1)
	run bds_write $vol "$doff" /tmp/rt.data
	expect_eq "$(bds_md5 $vol "$doff" "$dsize")" "$want" "$desc: data reads back through the volume"

	# Placement: gather N + 1 units (every position, two stripes) from the
	# members the doc's formula names, in volume order; the result must be
	# the data written there.
	# shellcheck disable=SC2046,SC2086
	set_array op $(echo "$order1" | tr ',' ' ')
	# shellcheck disable=SC2086
	set_array mp $paths
	# shellcheck disable=SC2086
	set_array mo $offs
	k=$((doff / cb))
	kend=$((k + n + 1))
	: >/tmp/rt.placed
	m="" mpath="" moff=""
	while [ "$k" -lt "$kend" ]; do
		eval "m=\$op_$((k % n))"
		eval "mpath=\$mp_$m moff=\$mo_$m"
		bds_read "$mpath" $(((moff + (k / n) * chunk) * 512)) "$cb" >>/tmp/rt.placed
		k=$((k + 1))
	done
	run dd if=/tmp/rt.data of=/tmp/rt.head bs="$cb" count=$((n + 1)) status=none
	if ! cmp -s /tmp/rt.placed /tmp/rt.head; then
		first=$(cmp /tmp/rt.placed /tmp/rt.head 2>&1 | sed -n 1p)
		log "placement differs: $first (units of $cb bytes from unit $((doff / cb)))"
	fi
	check "$desc: unit k is on member order[k mod N] at offset + (k div N) x chunk" \
		cmp -s /tmp/rt.placed /tmp/rt.head
	bds_dm_remove bdsrt1

	# --- second device, from the printed table ---------------------------------
	bds_dm_create bdsrt2 "$table1"
	vol=/dev/mapper/bdsrt2
	expect_eq "$(dmsetup table bdsrt2)" "$table1" "$desc: table of the recreated device is the same"
	get_status bdsrt2
	expect_eq "$st_layout" "$layout" "$desc: recreated layout"
	expect_eq "$st_order" "$order1" "$desc: recreated order"
	expect_eq "$(bds_md5 $vol "$doff" "$dsize")" "$want" "$desc: data reads back through the recreated device"
	bds_dm_remove bdsrt2
}

bds_load_module

# One group of four, members by path, power-of-two chunk, offsets.
rt_case "1x4 chunk 128" 128 "" interleave 0,1,2,3 \
	c0d0@0,c0d1@8,c1d0@16,c2d0@2048

# Two equal groups alternate (doc), 96 KiB unit.
rt_case "2x2 chunk 192" 192 "" interleave 0,2,1,3 \
	c0d0@8,c0d1@0 c1d0@24,c1d1@4096

rt_case "2x2 sequential" 128 "2 layout sequential" sequential 0,1,2,3 \
	c0d0@0,c0d1@0 c1d0@8,c1d1@8

# Explicit default: omitted from the canonical table; majmin members.
rt_case "2x2 explicit interleave, major:minor members" 192 "2 layout interleave" interleave 0,2,1,3 \
	c0d2@16,=c0d3@0 =c2d0@8,c2d1@1024

rt_case "3 groups 2+2+1" 192 "" interleave - \
	c0d0@0,c0d1@8 c1d0@16,c1d1@24 c2d0@32

# Groups of one member each: all due at once, ties to the lower group.
rt_case "4 groups of 1" 128 "" interleave 0,1,2,3 \
	c0d0@8 c1d0@0 c2d0@16 c0d1@2048

# The doc's worked example: two groups of four.
rt_case "doc example 2x4" 128 "" interleave 0,4,1,5,2,6,3,7 \
	c0d0@0,c0d1@0,c0d2@0,c0d3@0 c1d0@0,c1d1@0,c2d0@0,c2d1@0

# The doc's second example: groups of 4, 2 and 2.
rt_case "doc example 4+2+2" 128 "" interleave 0,4,1,6,2,5,3,7 \
	c0d0@8,c0d1@16,c0d2@24,c0d3@32 c1d0@40,c1d1@48 c2d0@56,c2d1@64

# Option words are case-insensitive; the canonical form is lowercase.
rt_case "3 groups, LAYOUT Sequential" 192 "2 LAYOUT Sequential" sequential 0,1,2,3,4 \
	c0d2@0,=c0d3@8 c1d1@0,c1d0@8 c2d1@16

rt_case "2x2, Layout INTERLEAVE" 128 "2 Layout INTERLEAVE" interleave 0,2,1,3 \
	c2d1@8,c2d0@0 c0d3@0,c0d0@16

# A single group keeps an explicit sequential layout in its table.
rt_case "1x3 sequential" 128 "2 layout sequential" sequential 0,1,2 \
	c0d3@8,c1d1@0,=c2d1@16

log "$NCASES tables checked"
expect_eq "$(dmsetup ls 2>&1)" "No devices found" "no dm devices left"
run rmmod dm_bds_stripe
pass "$NCASES tables round-trip canonically"
