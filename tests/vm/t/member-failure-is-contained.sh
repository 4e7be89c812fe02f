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
#      order, not stripe position: "AADA") and A elsewhere;
#    - the volume's event number (dmsetup info) went up;
#    - once m2 is switched back to linear, its units read back the data of
#      before (the failed write changed nothing) and the volume serves them
#      again; the health string still shows D for m2;
#    - the volume can be removed (dmsetup remove, no retry).
# 2. A new volume over the same members starts all A.  m1 switched to
#    "flakey" with error_writes: reads everywhere, m1's units included,
#    still return the data, writes to m1's units fail, writes elsewhere
#    succeed, status "ADAA", event number up, volume removable.
#
# topology: size=1G backing=file ctl=2 ctl=2
# timeout: 240
# memory: 1024

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=mf
DM=/dev/mapper/$VOL
CHUNK=128			# 64 KiB
UNIT=$((CHUNK * 512))
NUNITS=16			# units written and checked (4 stripes)

# member_of K: member index holding stripe unit K (order 0,2,1,3).
member_of() {
	set -- 0 2 1 3 "$1"
	_p=$(($5 % 4 + 1))
	eval "echo \${$_p}"
}

# health: the health string (field 2 of the target status).
health() { dmsetup status $VOL | cut -d' ' -f5; }

# events: the volume's dm event number.
events() { dmsetup info $VOL | sed -n 's/^Event number:[[:space:]]*//p'; }

# wait_events_above N: poll (up to 20 s of uptime) until the event number
# exceeds N.
wait_events_above() {
	_end=$(($(cut -d. -f1 /proc/uptime) + 20))
	while [ "$(events)" -le "$1" ] &&
		[ "$(cut -d. -f1 /proc/uptime)" -lt "$_end" ]; do
		sleep 0.2
	done
}

# read_units FIRST COUNT OUT: direct read of whole stripe units into OUT.
read_units() {
	dd if=$DM of="$3" bs=$UNIT skip="$1" count="$2" iflag=direct status=none 2>/tmp/dd.err
}

# write_unit K FILE: direct write of one stripe unit from FILE.
write_unit() {
	dd if="$2" of=$DM bs=$UNIT seek="$1" count=1 oflag=direct conv=notrunc \
		status=none 2>/tmp/dd.err
}

# unit_md5 FILE K: md5 of unit K of a file holding units 0..NUNITS-1.
unit_md5() {
	dd if="$1" bs=$UNIT skip="$2" count=1 status=none | md5sum | cut -d' ' -f1
}

# switch NAME TABLE: replace the table of a live member device.
switch() {
	run dmsetup suspend "$1"
	echo "$2" | dmsetup load "$1" || fail "dmsetup load $1 failed"
	run dmsetup resume "$1"
	log "$1 is now: $(dmsetup table "$1")"
}

# check_units WHEN BAD: read every unit; units on member BAD must fail,
# the others must return their data from /tmp/data.
check_units() {
	_k=0
	while [ "$_k" -lt $NUNITS ]; do
		_m=$(member_of $_k)
		rm -f /tmp/u
		if read_units $_k 1 /tmp/u; then
			_rc=0
		else
			_rc=1
		fi
		if [ "$_m" = "$2" ]; then
			check "$1: reading unit $_k (m$_m) fails" [ "$_rc" = 1 ]
		else
			check "$1: reading unit $_k (m$_m) succeeds" [ "$_rc" = 0 ]
			expect_eq "$(md5sum </tmp/u | cut -d' ' -f1)" \
				"$(unit_md5 /tmp/data $_k)" "$1: unit $_k (m$_m) data"
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
	expect_eq "$(health)" AAAA "health of a new volume"
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
i=0
for d in "$@"; do
	DISK_SECTORS=$(bds_sectors "$d")
	eval "D$i=\$(bds_majmin \$d)"
	eval "bds_dm_create m$i \"0 $DISK_SECTORS linear \$D$i 0\""
	i=$((i + 1))
done
MLEN=$((DISK_SECTORS / CHUNK * CHUNK))

head -c $((NUNITS * UNIT)) /dev/urandom >/tmp/data
head -c $UNIT /dev/urandom >/tmp/new

# --- 1. m2 -> error ------------------------------------------------------------
fresh_volume
ev0=$(events)
switch m2 "0 $DISK_SECTORS error"
check_units "m2 error" 2

# Writes: unit 5 is on m2, unit 4 on m0.
if write_unit 5 /tmp/new; then rc=0; else rc=1; fi
check "m2 error: writing unit 5 (m$(member_of 5)) fails" [ "$rc" = 1 ]
check "m2 error: writing unit 4 (m$(member_of 4)) succeeds" write_unit 4 /tmp/new
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
expect_eq "$(health)" AADA "m2 error: health string"
wait_events_above "$ev0"
ev1=$(events)
log "event number $ev0 -> $ev1"
check "m2 error: a dm event was raised ($ev0 -> $ev1)" [ "$ev1" -gt "$ev0" ]

# m2 back: its units hold what they held, and are served again.
switch m2 "0 $DISK_SECTORS linear $D2 0"
# unit 4 now holds /tmp/new: update the reference.
dd if=/tmp/new of=/tmp/data bs=$UNIT seek=4 count=1 conv=notrunc status=none
check_units "m2 back" none
expect_eq "$(health)" AADA "m2 back: m2 still marked D"
if dmsetup remove $VOL; then rc=0; else rc=1; fi
check "volume with a failed member can be removed" [ "$rc" = 0 ]
[ -e $DM ] && bds_dm_remove $VOL

# --- 2. m1 -> flakey error_writes ----------------------------------------------
if dmsetup targets | grep -q '^flakey'; then
	head -c $((NUNITS * UNIT)) /dev/urandom >/tmp/data
	fresh_volume
	ev0=$(events)
	switch m1 "0 $DISK_SECTORS flakey $D1 0 0 1 1 error_writes"
	# Reads still work everywhere, m1 included.
	check_units "m1 flakey" none
	# Unit 2 is on m1, unit 3 on m3.
	if write_unit 2 /tmp/new; then rc=0; else rc=1; fi
	check "m1 flakey: writing unit 2 (m$(member_of 2)) fails" [ "$rc" = 1 ]
	check "m1 flakey: writing unit 3 (m$(member_of 3)) succeeds" write_unit 3 /tmp/new
	rm -f /tmp/u
	check "m1 flakey: units 2-3 read back" read_units 2 2 /tmp/u
	check "m1 flakey: unit 2 unchanged" \
		[ "$(unit_md5 /tmp/u 0)" = "$(unit_md5 /tmp/data 2)" ]
	check "m1 flakey: unit 3 holds the new data" \
		[ "$(unit_md5 /tmp/u 1)" = "$(md5sum </tmp/new | cut -d' ' -f1)" ]
	log "status: $(dmsetup status $VOL)"
	expect_eq "$(health)" ADAA "m1 flakey: health string"
	wait_events_above "$ev0"
	ev1=$(events)
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
