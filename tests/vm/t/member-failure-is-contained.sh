#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A failing member fails only the I/O that touches it, is reported, and
# stays in service.
#
# Each of the four members is its own dm "linear" device (m0..m3) over a
# disk, so that it can be switched to another target underneath a live
# bds-stripe volume: 64 KiB unit, groups (m0 m1) (m2 m3), order 0,2,1,3.
#
# 1. m2 switched to the "error" target (suspend, load, resume):
#    - direct reads and writes of stripe units on m2 fail, and so does a
#      read that crosses from a unit on m0 into one on m2;
#    - direct reads of units on the other members return the data written
#      before, writes to them succeed and read back, a read spanning two
#      units on m1 and m3 succeeds;
#    - `dmsetup status` shows D at m2's place in the health string (table
#      order, not stripe position: "AADA") and A elsewhere, and (field 7,
#      target 1.3.0) m2's error count is the number of requests that
#      failed on it: 6 (four unit reads, one unit write, the read across
#      units 0/1; each is one bio to m2), "0,0,6,0";
#    - the volume's event number (dmsetup info) went up;
#    - once m2 is switched back to linear, its units read back the data of
#      before (the failed write changed nothing) and the volume serves them
#      again; the health string still shows D for m2, the counts "0,0,6,0";
#    - the volume can be removed (dmsetup remove, no retry).
# 2. A new volume over the same members starts all A.  m1 switched to
#    "flakey" with error_writes: reads everywhere, m1's units included,
#    still return the data, writes to m1's units fail, writes elsewhere
#    succeed, status "ADAA", error counts "0,1,0,0" (the one failed
#    write), event number up, volume removable.
#
# topology: size=1G backing=file ctl=2 ctl=2
# timeout: 240
# memory: 1024
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=mf
DM=/dev/mapper/$VOL
CHUNK=128			# 64 KiB
UNIT=$((CHUNK * 512))
NUNITS=16			# units written and checked (4 stripes)

# read_units FIRST COUNT OUT: direct read of whole stripe units into OUT.
read_units() {
	dd if=$DM of="$3" bs=$UNIT skip="$1" count="$2" iflag=direct status=none 2>/tmp/dd.err
}

# write_unit K FILE: direct write of one stripe unit from FILE.
write_unit() {
	dd if="$2" of=$DM bs=$UNIT seek="$1" count=1 oflag=direct conv=notrunc \
		status=none 2>/tmp/dd.err
}

# check_units WHEN BAD: read every unit of /tmp/data on its own (one
# bio each); units on member BAD must fail, the others return their data.
check_units() {
	_k=0
	while [ "$_k" -lt $NUNITS ]; do
		_m=$(bds_unit_member $_k 0,2,1,3)
		rm -f /tmp/u
		if read_units $_k 1 /tmp/u; then _rc=0; else _rc=1; fi
		if [ "$_m" = "$2" ]; then
			check "$1: reading unit $_k (m$_m) fails" [ "$_rc" = 1 ]
		else
			check "$1: reading unit $_k (m$_m) succeeds" [ "$_rc" = 0 ]
			expect_eq "$(md5sum </tmp/u | cut -d' ' -f1)" \
				"$(bds_unit_md5 /tmp/data $_k $UNIT)" "$1: unit $_k (m$_m) data"
		fi
		_k=$((_k + 1))
	done
}

# volume_table: the bds-stripe table over m0..m3.
volume_table() {
	echo "0 $((MLEN * 4)) bds-stripe $CHUNK 2" \
		"2 $(bds_majmin /dev/mapper/m0) 0 $(bds_majmin /dev/mapper/m1) 0" \
		"2 $(bds_majmin /dev/mapper/m2) 0 $(bds_majmin /dev/mapper/m3) 0"
}

# fresh_volume: create the volume and write NUNITS units of /tmp/data.
fresh_volume() {
	bds_dm_create $VOL "$(volume_table)"
	log "status: $(dmsetup status $VOL)"
	expect_eq "$(dmsetup status $VOL | cut -d' ' -f7)" "0,2,1,3" "order"
	expect_eq "$(bds_health $VOL)" AAAA "health of a new volume"
	expect_eq "$(bds_errors $VOL)" 0,0,0,0 "error counts of a new volume"
	run dd if=/tmp/data of=$DM bs=$UNIT count=$NUNITS oflag=direct status=none
	rm -f /tmp/all
	check "all units read back before the failure" read_units 0 $NUNITS /tmp/all
	check "data before the failure" cmp -s /tmp/data /tmp/all
}

bds_load_module
modprobe dm-flakey 2>/dev/null

# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
bds_linear_members "$@"
MLEN=$((DISK_SECTORS / CHUNK * CHUNK))

head -c $((NUNITS * UNIT)) /dev/urandom >/tmp/data
head -c $UNIT /dev/urandom >/tmp/new

# --- 1. m2 -> error ------------------------------------------------------------
fresh_volume
ev0=$(bds_events $VOL)
bds_dm_switch m2 "0 $DISK_SECTORS error"
check_units "m2 error" 2

# Writes: unit 5 is on m2, unit 4 on m0.
if write_unit 5 /tmp/new; then rc=0; else rc=1; fi
check "m2 error: writing unit 5 (m$(bds_unit_member 5 0,2,1,3)) fails" [ "$rc" = 1 ]
check "m2 error: writing unit 4 (m$(bds_unit_member 4 0,2,1,3)) succeeds" write_unit 4 /tmp/new
rm -f /tmp/u
check "m2 error: unit 4 reads back" read_units 4 1 /tmp/u
check "m2 error: unit 4 holds the new data" cmp -s /tmp/new /tmp/u
# 8 KiB straddling units 0 (m0) and 1 (m2): fails.
if dd if=$DM of=/dev/null bs=4096 skip=$((UNIT / 4096 - 1)) count=2 iflag=direct \
	status=none 2>/dev/null; then rc=0; else rc=1; fi
check "m2 error: read across units 0/1 (m0/m2) fails" [ "$rc" = 1 ]
# Units 2 and 3 (m1, m3) in one read: succeeds.
rm -f /tmp/u
dd if=/tmp/data of=/tmp/u23 bs=$UNIT skip=2 count=2 status=none
check "m2 error: read of units 2-3 (m1, m3) succeeds" read_units 2 2 /tmp/u
check "m2 error: units 2-3 data" cmp -s /tmp/u23 /tmp/u

log "status: $(dmsetup status $VOL)"
expect_eq "$(bds_health $VOL)" AADA "m2 error: health string"
expect_eq "$(bds_errors $VOL)" 0,0,6,0 "m2 error: m2's count is its 6 failed requests, the others 0"
bds_wait_events_above $VOL "$ev0"
ev1=$(bds_events $VOL)
log "event number $ev0 -> $ev1"
check "m2 error: a dm event was raised ($ev0 -> $ev1)" [ "$ev1" -gt "$ev0" ]

# m2 back: its units hold what they held, and are served again.
bds_dm_switch m2 "0 $DISK_SECTORS linear $D2 0"
# unit 4 now holds /tmp/new: update the reference.
dd if=/tmp/new of=/tmp/data bs=$UNIT seek=4 count=1 conv=notrunc status=none
check_units "m2 back" none
expect_eq "$(bds_health $VOL)" AADA "m2 back: m2 still marked D"
expect_eq "$(bds_errors $VOL)" 0,0,6,0 "m2 back: the counts unchanged"
if dmsetup remove $VOL; then rc=0; else rc=1; fi
check "volume with a failed member can be removed" [ "$rc" = 0 ]
[ -e $DM ] && bds_dm_remove $VOL

# --- 2. m1 -> flakey error_writes ----------------------------------------------
if dmsetup targets | grep '^flakey' >/dev/null; then
	head -c $((NUNITS * UNIT)) /dev/urandom >/tmp/data
	fresh_volume
	ev0=$(bds_events $VOL)
	bds_dm_switch m1 "0 $DISK_SECTORS flakey $D1 0 0 1 1 error_writes"
	# Reads still work everywhere, m1 included.
	check_units "m1 flakey" none
	# Unit 2 is on m1, unit 3 on m3.
	if write_unit 2 /tmp/new; then rc=0; else rc=1; fi
	check "m1 flakey: writing unit 2 (m$(bds_unit_member 2 0,2,1,3)) fails" [ "$rc" = 1 ]
	check "m1 flakey: writing unit 3 (m$(bds_unit_member 3 0,2,1,3)) succeeds" write_unit 3 /tmp/new
	rm -f /tmp/u
	check "m1 flakey: units 2-3 read back" read_units 2 2 /tmp/u
	check "m1 flakey: unit 2 unchanged" \
		[ "$(bds_unit_md5 /tmp/u 0 $UNIT)" = "$(bds_unit_md5 /tmp/data 2 $UNIT)" ]
	check "m1 flakey: unit 3 holds the new data" \
		[ "$(bds_unit_md5 /tmp/u 1 $UNIT)" = "$(md5sum </tmp/new | cut -d' ' -f1)" ]
	log "status: $(dmsetup status $VOL)"
	expect_eq "$(bds_health $VOL)" ADAA "m1 flakey: health string"
	expect_eq "$(bds_errors $VOL)" 0,1,0,0 "m1 flakey: m1's count is its 1 failed write"
	bds_wait_events_above $VOL "$ev0"
	ev1=$(bds_events $VOL)
	log "event number $ev0 -> $ev1"
	check "m1 flakey: a dm event was raised ($ev0 -> $ev1)" [ "$ev1" -gt "$ev0" ]
	if dmsetup remove $VOL; then rc=0; else rc=1; fi
	check "volume with a flakey member can be removed" [ "$rc" = 0 ]
	[ -e $DM ] && bds_dm_remove $VOL
else
	check "dm-flakey is available in the guest" false
fi

for i in 0 1 2 3; do
	bds_dm_remove m$i
done
run rmmod dm_bds_stripe
pass "member failures are contained and reported"
