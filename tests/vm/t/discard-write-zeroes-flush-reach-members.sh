#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Write-zeroes, discard and flush issued on a bds-stripe volume reach the
# members exactly as documented ("I/O handling"):
#   (a) write-zeroes (blkdiscard -z, BLKZEROOUT) over a range that is not
#       aligned to the stripe unit and spans several stripes: exactly that
#       range reads as zeroes through the volume; every member got one write
#       of exactly its share (/sys/block/<dev>/stat write sectors) and holds
#       zeroes exactly in the member range computed here by an independent
#       shell model (unit by unit), with its other data intact, including the
#       sectors right at both ends of the range; the per-group read/write
#       counters do not count it (so it went down as write-zeroes, not as
#       the block layer's zero-page fallback);
#   (b) discard (blkdiscard) over ranges aligned to the members' discard
#       granularity but not to the stripe unit: every member's discarded
#       sector count (stat field 14, "discard sectors") grew by exactly its
#       share in the model, 0 for the members a short range misses; the data
#       outside the ranges is intact on the volume and on every member;
#   (c) fsync of the volume: every member's write cache is "write back" and
#       every member's completed flush count (stat field 16) grew, also for
#       members that got no data; flushes are not counted per group.
# Uses a 96 KiB (non-power-of-two) unit, three groups (2+2+1, one per
# controller) and nonzero member offsets.
#
# topology: ctl=2 ctl=2 ctl=1
# timeout: 300
# memory: 1024
# check-kernels: 6.1 7.2

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2154
. /bds/guest-lib.sh

V=bdsrange
DMV=/dev/mapper/$V
CHUNK=192                    # sectors (96 KiB)
DATA=/tmp/range.data         # what was written through the volume
EXP=/tmp/range.expected      # what the volume must hold now
# util-linux blkdiscard (busybox's has no -z); -f: no signature probing,
# which would read the volume.
BLKDISCARD="/usr/sbin/blkdiscard -f"

# --- helpers -----------------------------------------------------------------

# stat_field I DEV: field I (1-based) of /sys/block/<dev>/stat.
stat_field() {
	awk -v f="$1" '{ print $f }' "/sys/block/$(bds_dev "$2")/stat"
}

# snap_stat I: STAT_m = stat field I of every member.
snap_stat() {
	_m=0
	while [ "$_m" -lt "$N" ]; do
		eval "STAT_$_m=\$(stat_field $1 \$MEM_$_m)"
		_m=$((_m + 1))
	done
}

# group_counters: the per-group counters of `dmsetup status`.
group_counters() {
	dmsetup status $V | awk '{ s = ""; for (i = 9; i <= NF; i++) s = s " " $i; print s }'
}

# model_range START END: the independent model of where the volume range
# [START, END) (sectors) lies.  Walks the range stripe unit by stripe unit:
# unit k is on member ORD_(k mod N) at member sector (k div N) * CHUNK + the
# offset in the unit.  Sets MS_m, ME_m (member-relative start/end) and MN_m
# (sectors) for every member, MN_m = 0 for members the range misses.
# Returns 1 if some member's pieces are not one contiguous range.
model_range() {
	_m=0
	while [ "$_m" -lt "$N" ]; do
		eval "MS_$_m=0 ME_$_m=0 MN_$_m=0"
		_m=$((_m + 1))
	done
	_contig=0
	_k=$(($1 / CHUNK))
	while [ $((_k * CHUNK)) -lt "$2" ]; do
		_a=$((_k * CHUNK))
		[ "$_a" -lt "$1" ] && _a=$1
		_b=$(((_k + 1) * CHUNK))
		[ "$_b" -gt "$2" ] && _b=$2
		eval "_m=\$ORD_$((_k % N))"
		_s=$(((_k / N) * CHUNK + _a - _k * CHUNK))
		eval "_n=\$MN_$_m _e=\$ME_$_m"
		if [ "$_n" -eq 0 ]; then
			eval "MS_$_m=$_s"
		elif [ "$_s" -ne "$_e" ]; then
			_contig=1
		fi
		eval "ME_$_m=$((_s + _b - _a)) MN_$_m=$((_n + _b - _a))"
		_k=$((_k + 1))
	done
	return $_contig
}

# sect_md5 FILE START COUNT: md5 of COUNT sectors of FILE from sector START.
sect_md5() {
	dd if="$1" bs=512 skip="$2" count="$3" status=none | md5sum | cut -d' ' -f1
}

# nonzero_bytes FILE START COUNT: bytes other than 0 in those sectors.
nonzero_bytes() {
	dd if="$1" bs=512 skip="$2" count="$3" status=none | tr -d '\000' | wc -c
}

# rebuild: read the ROWS written rows of every member once (O_DIRECT,
# straight from the member) and put the volume's UNITS units together from
# them by the model (unit k = row k div N of member ORD_(k mod N)) in
# /tmp/rebuilt; keep the rows in /tmp/member.m.
rebuild() {
	_m=0
	while [ "$_m" -lt "$N" ]; do
		eval "_dev=\$MEM_$_m _off=\$OFF_$_m"
		bds_read "$_dev" $((_off * 512)) $((ROWS * CHUNK * 512)) >/tmp/member.$_m ||
			fail "cannot read member $_m"
		_m=$((_m + 1))
	done
	rm -f /tmp/rebuilt
	_k=0
	while [ "$_k" -lt "$UNITS" ]; do
		eval "_m=\$ORD_$((_k % N))"
		dd if=/tmp/member.$_m of=/tmp/rebuilt bs=$((CHUNK * 512)) skip=$((_k / N)) \
			seek="$_k" count=1 conv=notrunc status=none || fail "cannot rebuild unit $_k"
		_k=$((_k + 1))
	done
}

# members_hold_expected SKIP_RANGES: every sector of the written units, read
# straight from its member by the model, equals $EXP, except the sectors in
# SKIP_RANGES ("start:end ..." volume sectors, whose content is undefined
# after a discard).  On a mismatch names the first differing sector, its unit
# and its member.
members_hold_expected() {
	rebuild
	cp $EXP /tmp/want
	for _r in $1; do
		_rs=${_r%:*}
		dd if=/tmp/rebuilt of=/tmp/want bs=512 skip="$_rs" seek="$_rs" \
			count=$((${_r#*:} - _rs)) conv=notrunc status=none
	done
	_diff=$(cmp /tmp/rebuilt /tmp/want 2>&1) && return 0
	_byte=$(echo "$_diff" | sed -n 's/.* char \([0-9]*\).*/\1/p')
	if [ -n "$_byte" ]; then
		_s=$(((_byte - 1) / 512))
		_k=$((_s / CHUNK))
		eval "_m=\$ORD_$((_k % N))"
		log "first wrong sector: volume sector $_s (unit $_k, member $_m," \
			"member sector $(((_k / N) * CHUNK + _s % CHUNK)))"
	else
		log "$_diff"
	fi
	return 1
}

# gran_not_unit_aligned SECTOR GRAN: SECTOR is a multiple of GRAN sectors
# but not of the stripe unit.
gran_not_unit_aligned() {
	[ $(($1 % $2)) -eq 0 ] && [ $(($1 % CHUNK)) -ne 0 ]
}

# stat_grew_by I DESC: every member's stat field I grew by exactly MN_m since
# snap_stat I.
stat_grew_by() {
	_m=0
	while [ "$_m" -lt "$N" ]; do
		eval "_was=\$STAT_$_m _want=\$MN_$_m _dev=\$MEM_$_m"
		_now=$(stat_field "$1" "$_dev")
		expect_eq $((_now - _was)) "$_want" "$2: member $_m ($_dev)"
		_m=$((_m + 1))
	done
}

# --- the volume -----------------------------------------------------------------

bds_load_module
expect_eq "$(bds_controllers)" 3 "controllers"

N=0
GROUPWORDS=3
for c in 0 1 2; do
	GROUPWORDS="$GROUPWORDS $(bds_members $c | wc -l)"
	for m in $(bds_members $c); do
		# Nonzero offsets, multiples of 1 MiB (and so of the granularity).
		eval "MEM_$N=$m OFF_$N=$((2048 * (N + 1)))"
		GROUPWORDS="$GROUPWORDS $(bds_majmin "$m") $((2048 * (N + 1)))"
		N=$((N + 1))
	done
done
expect_eq "$N" 5 "members"
LEN=$((16 * CHUNK * N))
bds_dm_create $V "0 $LEN bds-stripe $CHUNK $GROUPWORDS"
bds_order_vars $V
log "order $ORDER"
expect_eq "$NPOS" "$N" "positions in the order"

# 12 stripes of random data from sector 0.
ROWS=12
UNITS=$((ROWS * N))
dd if=/dev/urandom of=$DATA bs=$((CHUNK * 512)) count=$UNITS status=none || fail "test data"
run dd if=$DATA of=$DMV bs=$((CHUNK * 512)) oflag=direct conv=fsync status=none
cp $DATA $EXP
expect_eq "$(bds_md5 $DMV 0 $((UNITS * CHUNK * 512)))" "$(md5sum <$DATA | cut -d' ' -f1)" \
	"data written through the volume"

# --- (a) write-zeroes --------------------------------------------------------------

check "volume advertises write-zeroes" [ "$(bds_queue $DMV write_zeroes_max_bytes)" -gt 0 ]
Z0=$((1 * CHUNK + 37))       # unit 1, sector 37
Z1=$((17 * CHUNK + 101))     # unit 17, sector 101: 3.4 stripes
check "model: write-zeroes range is contiguous on every member" model_range $Z0 $Z1
snap_stat 7
gc=$(group_counters)
run $BLKDISCARD -z -o $((Z0 * 512)) -l $(((Z1 - Z0) * 512)) $DMV
dd if=/dev/zero of=$EXP bs=512 seek=$Z0 count=$((Z1 - Z0)) conv=notrunc status=none
stat_grew_by 7 "write-zeroes: sectors written"
expect_eq "$(group_counters)" "$gc" "write-zeroes not counted as reads/writes per group"
expect_eq "$(bds_md5 $DMV 0 $((UNITS * CHUNK * 512)))" "$(md5sum <$EXP | cut -d' ' -f1)" \
	"volume: zeroes exactly in [$Z0, $Z1), data elsewhere intact"
check "members: zeroes exactly in the model's unit pieces, data elsewhere intact" \
	members_hold_expected ""
m=0
while [ "$m" -lt "$N" ]; do
	eval "ms=\$MS_$m me=\$ME_$m mn=\$MN_$m"
	log "member $m: zeroed member sectors [$ms, $me)"
	expect_eq "$(nonzero_bytes /tmp/member.$m "$ms" "$mn")" 0 "member $m: [$ms, $me) is zero"
	if [ "$ms" -gt 0 ]; then
		check "member $m: sector $((ms - 1)) (before the range) kept its data" \
			[ "$(nonzero_bytes /tmp/member.$m $((ms - 1)) 1)" -gt 0 ]
	fi
	check "member $m: sector $me (after the range) kept its data" \
		[ "$(nonzero_bytes /tmp/member.$m "$me" 1)" -gt 0 ]
	m=$((m + 1))
done

# --- (b) discard -------------------------------------------------------------------

gran=0
nodisc=0
m=0
while [ "$m" -lt "$N" ]; do
	eval "dev=\$MEM_$m"
	g=$(bds_queue "$dev" discard_granularity)
	mx=$(bds_queue "$dev" discard_max_bytes)
	log "member $m: discard_granularity $g discard_max_bytes $mx"
	[ "$g" -gt "$gran" ] && gran=$g
	[ "$mx" -eq 0 ] && nodisc=1
	m=$((m + 1))
done
if [ "$nodisc" = 1 ]; then
	log "a member does not support discard: only checking the volume does not advertise it"
	expect_eq "$(bds_queue $DMV discard_max_bytes)" 0 "volume discard_max_bytes"
else
	check "volume advertises discard" [ "$(bds_queue $DMV discard_max_bytes)" -gt 0 ]
	D1s=$((20 * CHUNK + 64))     # 2.6 stripes, every member
	D1e=$((33 * CHUNK + 128))
	D2s=$((41 * CHUNK + 24))     # 3 units: misses 2 of the 5 members
	D2e=$((43 * CHUNK + 40))
	gs=$((gran / 512))
	for b in $D1s $D1e $D2s $D2e; do
		check "discard bound $b is granularity-aligned, not unit-aligned" \
			gran_not_unit_aligned "$b" "$gs"
	done
	gc=$(group_counters)

	check "model: discard 1 is contiguous on every member" model_range $D1s $D1e
	snap_stat 14
	run $BLKDISCARD -o $((D1s * 512)) -l $(((D1e - D1s) * 512)) $DMV
	stat_grew_by 14 "discard 1 [$D1s, $D1e): sectors discarded"

	check "model: discard 2 is contiguous on every member" model_range $D2s $D2e
	missed=0
	m=0
	while [ "$m" -lt "$N" ]; do
		eval "[ \$MN_$m -eq 0 ]" && missed=$((missed + 1))
		m=$((m + 1))
	done
	expect_eq "$missed" 2 "model: members discard 2 misses"
	snap_stat 14
	run $BLKDISCARD -o $((D2s * 512)) -l $(((D2e - D2s) * 512)) $DMV
	stat_grew_by 14 "discard 2 [$D2s, $D2e): sectors discarded"

	expect_eq "$(group_counters)" "$gc" "discards not counted as reads/writes per group"
	expect_eq "$(bds_md5 $DMV 0 $((D1s * 512)))" "$(sect_md5 $EXP 0 $D1s)" \
		"volume: data before discard 1 intact"
	expect_eq "$(bds_md5 $DMV $((D1e * 512)) $(((D2s - D1e) * 512)))" \
		"$(sect_md5 $EXP $D1e $((D2s - D1e)))" "volume: data between the discards intact"
	expect_eq "$(bds_md5 $DMV $((D2e * 512)) $(((UNITS * CHUNK - D2e) * 512)))" \
		"$(sect_md5 $EXP $D2e $((UNITS * CHUNK - D2e)))" "volume: data after discard 2 intact"
	check "members: data outside the discarded pieces intact" \
		members_hold_expected "$D1s:$D1e $D2s:$D2e"
fi

# --- (c) flush -----------------------------------------------------------------------

m=0
while [ "$m" -lt "$N" ]; do
	eval "dev=\$MEM_$m"
	expect_eq "$(bds_queue "$dev" write_cache)" "write back" "member $m write_cache"
	m=$((m + 1))
done
expect_eq "$(bds_queue $DMV write_cache)" "write back" "volume write_cache"

# One 4 KiB O_DIRECT write (one member) and fsync: a flush for every member.
snap_stat 16
run xfs_io -d -c "pwrite -q 0 4096" -c fsync $DMV
m=0
while [ "$m" -lt "$N" ]; do
	eval "was=\$STAT_$m dev=\$MEM_$m"
	now=$(stat_field 16 "$dev")
	check "write+fsync: member $m flushes $was -> $now" [ "$now" -gt "$was" ]
	m=$((m + 1))
done
# fsync alone (nothing written): still every member, and no group counts it.
gc=$(group_counters)
snap_stat 16
run xfs_io -c fsync $DMV
m=0
while [ "$m" -lt "$N" ]; do
	eval "was=\$STAT_$m dev=\$MEM_$m"
	now=$(stat_field 16 "$dev")
	check "fsync: member $m flushes $was -> $now" [ "$now" -gt "$was" ]
	m=$((m + 1))
done
expect_eq "$(group_counters)" "$gc" "flushes not counted as reads/writes per group"

bds_dm_remove $V
run rmmod dm_bds_stripe
pass "write-zeroes, discard and flush reach the members exactly"
