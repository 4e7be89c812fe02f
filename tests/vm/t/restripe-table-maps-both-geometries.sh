#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A volume mid-restripe (the table's "reshape" argument, forward) is mapped
# through both geometries at the checkpoint its table gives: stripe units
# below the checkpoint where the new geometry (the table's own groups and
# offsets) puts them, the others where the old one (the reshape words)
# puts them.  Three disks on two controllers get the labels of a volume
# growing from 2 members (A, B in one group) to 3 (groups 2+1: A, B on
# controller 0, C on controller 1), 64 KiB unit, checkpoint CK = 100
# units (bds-mklabels --old-members 2 --ckpt 100).  Then:
#  - the table bds-mklabels prints loads; "dmsetup table" gives it back
#    word for word (members as major:minor); optimal_io_size is the old
#    geometry's stripe width;
#  - 150 units of random data written through the volume with O_DIRECT in
#    requests of 7 units (one of them crosses the checkpoint) lie, every
#    one of them, where an independent model in shell arithmetic says:
#    unit k of geometry G on member order_G[k mod N_G] at sector
#    off_G(member) + (k div N_G) * chunk, G the new geometry below CK and
#    the old one from CK on; each geometry's order is the kernel's status
#    of a plain table (no volume, no reshape) over the same members and
#    offsets; every member is read directly with O_DIRECT;
#  - the 150 units read back through the volume as written;
#  - write-zeroes (blkdiscard -z) over units CK-3 .. CK+2 leaves those six
#    units zero on the members where the model puts them (three in each
#    geometry), units CK-4 and CK+3 and all the others as they were;
#  - each of these is refused with its own reason and leaves no dm device
#    and no holder: the table with checkpoint CK + 1 (the labels record
#    CK); the plain new table (volume, no reshape) over these labels; the
#    table with member 1's old offset changed, and with the old layout
#    changed; after relabelling without a restripe, the reshape table.
# The module then unloads with nothing held.
#
# A and B are the two disks of controller 0, C the first of controller 1
# (c1d1 stays unused): the common 2 + 2 topology, whose boot the test
# shares.
#
# topology: ctl=2 ctl=2
# timeout: 300
# exec: bds-mklabels
# check-kernels: 6.1 7.2 debug

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2034,SC2154
. /bds/guest-lib.sh

command -v bds-mklabels >/dev/null || fail "bds-mklabels not in the guest (# exec: header)"
bds_load_module
A=/dev/bds/c0d0 B=/dev/bds/c0d1 C=/dev/bds/c1d0
for d in $A $B $C; do
	[ -b "$d" ] || fail "need 2 + 2 disks: no $d"
done
MEM_0=$A MEM_1=$B MEM_2=$C
U=20212223-2425-4627-9829-2a2b2c2d2e2f
VOL=restripe
DMV=/dev/mapper/$VOL
CHUNK=128                       # sectors
CB=$((CHUNK * 512))             # bytes of a stripe unit
CK=100                          # the checkpoint, in units
UNITS=150                       # units written
DATA=/tmp/restripe.data         # what was written through the volume
EXP=/tmp/restripe.expected      # what the volume must hold now
# util-linux blkdiscard (busybox's has no -z); -f: no signature probing,
# which would read the volume.
BLKDISCARD="/usr/sbin/blkdiscard -f"

# --- helpers -----------------------------------------------------------------

# refused DESC REASON TABLE KLOG: dmsetup create fails, the kernel gives
# REASON and a line matching KLOG (which member, or which checkpoints),
# nothing is left (guest-lib.sh: bds_expect_refused).
refused() {
	bds_expect_refused "$1" "$2" "$3" "$4" $VOL "$A" "$B" "$C"
}
NAMES_MEMBER='bds-stripe: member [0-9]+ \('

# model: the independent model of where each unit lies: unit k below CK in
# the new geometry, from CK on in the old one; in geometry G on member
# G_(k mod G_N) at sector GOFF_m + (k div G_N) * CHUNK.  Sets GEO_k (NEW or
# OLD), UM_k (member) and US_k (sector) for every unit written, and END_m,
# the end (sectors, rounded up to 4 KiB) of what member m holds of them.
model() {
	END_0=0 END_1=0 END_2=0
	_k=0
	while [ "$_k" -lt "$UNITS" ]; do
		_g=OLD
		[ "$_k" -lt "$CK" ] && _g=NEW
		_p=$(bds_rs_place $_g "$_k" $CHUNK)
		_m=${_p% *} _s=${_p#* }
		eval "GEO_$_k=$_g UM_$_k=$_m US_$_k=$_s"
		eval "_e=\$END_$_m"
		[ $((_s + CHUNK)) -gt "$_e" ] && eval "END_$_m=$(((_s + CHUNK + 7) / 8 * 8))"
		_k=$((_k + 1))
	done
}

# unit_md5 FILE K: md5 of unit K of FILE.
unit_md5() { bds_unit_md5 "$1" "$2" $CB; }

# rebuild: read every member once, from sector 0 to the end of what the
# model puts on it (O_DIRECT, straight from the member), into
# /tmp/member.m, and put the UNITS units together from them by the model
# in /tmp/rebuilt.
rebuild() {
	for _m in 0 1 2; do
		eval "_dev=\$MEM_$_m _e=\$END_$_m"
		bds_read "$_dev" 0 $((_e * 512)) >/tmp/member.$_m ||
			fail "cannot read member $_m ($_dev)"
	done
	rm -f /tmp/rebuilt
	_k=0
	while [ "$_k" -lt "$UNITS" ]; do
		eval "_m=\$UM_$_k _s=\$US_$_k"
		dd if="/tmp/member.$_m" of=/tmp/rebuilt bs=$CB iflag=skip_bytes \
			skip=$((_s * 512)) seek="$_k" count=1 conv=notrunc status=none ||
			fail "cannot rebuild unit $_k"
		_k=$((_k + 1))
	done
}

# units_where_model_says DESC WANT: after rebuild, every unit is, byte for
# byte, unit k of WANT; else names each unit that is not, with its
# geometry, member and sector.
units_where_model_says() {
	cmp -s /tmp/rebuilt "$2" && return 0
	_k=0
	while [ "$_k" -lt "$UNITS" ]; do
		if [ "$(unit_md5 "$2" "$_k")" != "$(unit_md5 /tmp/rebuilt "$_k")" ]; then
			eval "_g=\$GEO_$_k _m=\$UM_$_k _s=\$US_$_k"
			eval "_dev=\$MEM_$_m"
			log "$1: unit $_k is not where the $_g geometry puts it:" \
				"member $_m ($_dev) sector $_s"
		fi
		_k=$((_k + 1))
	done
	return 1
}

# member_unit_md5 M S: md5 of the unit at sector S of member M as rebuild
# read it.
member_unit_md5() {
	dd if="/tmp/member.$1" bs=$CB iflag=skip_bytes skip=$(($2 * 512)) count=1 status=none |
		md5sum | cut -d' ' -f1
}

# range_md5 FILE FIRST COUNT: md5 of COUNT units of FILE from unit FIRST.
range_md5() {
	dd if="$1" bs=$CB skip="$2" count="$3" status=none | md5sum | cut -d' ' -f1
}

# majmin_table TABLE: TABLE with the members' paths as major:minor.
majmin_table() {
	echo "$1" | sed "s|$A |$(bds_majmin $A) |; s|$B |$(bds_majmin $B) |; s|$C |$(bds_majmin $C) |"
}

# --- the labels and the two geometries ------------------------------------------

bds_restripe_labels $U $CHUNK $CK "$A" "$B" "$C"
T=$RS_TABLE OLDLEN=$RS_OLDLEN NEWLEN=$RS_NEWLEN
model
log "member ends read: $END_0 $END_1 $END_2 sectors"

# --- the volume mid-restripe -----------------------------------------------------

bds_dm_create $VOL "$T"
expect_eq "$(dmsetup table $VOL)" "$(majmin_table "$T")" "dmsetup table is the table loaded"
expect_eq "$(bds_queue $DMV optimal_io_size)" $((2 * CB)) \
	"optimal_io_size is the old geometry's stripe width"
log "status: $(dmsetup status $VOL)"

# 150 units in requests of 7 units: [98, 105) crosses the checkpoint.
dd if=/dev/urandom of=$DATA bs=$CB count=$UNITS status=none || fail "cannot make test data"
run dd if=$DATA of=$DMV bs=$((7 * CB)) oflag=direct conv=fsync status=none
expect_eq "$(bds_md5 $DMV 0 $((UNITS * CB)))" "$(md5sum <$DATA | cut -d' ' -f1)" \
	"$UNITS units read back through the volume"
rebuild
check "every unit where the model puts it" units_where_model_says "written" $DATA
expect_eq "$(range_md5 /tmp/rebuilt 0 $CK)" "$(range_md5 $DATA 0 $CK)" \
	"units 0 .. $((CK - 1)) where the new geometry puts them"
expect_eq "$(range_md5 /tmp/rebuilt $CK $((UNITS - CK)))" \
	"$(range_md5 $DATA $CK $((UNITS - CK)))" \
	"units $CK .. $((UNITS - 1)) where the old geometry puts them"

# write-zeroes over units CK-3 .. CK+2, three in each geometry
cp $DATA $EXP
dd if=/dev/zero of=$EXP bs=$CB seek=$((CK - 3)) count=6 conv=notrunc status=none
run $BLKDISCARD -z -o $(((CK - 3) * CB)) -l $((6 * CB)) $DMV
expect_eq "$(bds_md5 $DMV 0 $((UNITS * CB)))" "$(md5sum <$EXP | cut -d' ' -f1)" \
	"write-zeroes: units $((CK - 3)) .. $((CK + 2)) zero through the volume, the others kept"
rebuild
check "write-zeroes: every unit where the model puts it" units_where_model_says "zeroed" $EXP
ZERO=$(dd if=/dev/zero bs=$CB count=1 status=none | md5sum | cut -d' ' -f1)
k=$((CK - 4))
while [ "$k" -le $((CK + 3)) ]; do
	eval "g=\$GEO_$k m=\$UM_$k s=\$US_$k"
	want=$ZERO what="zero"
	if [ "$k" -lt $((CK - 3)) ] || [ "$k" -gt $((CK + 2)) ]; then
		want=$(unit_md5 $DATA $k) what="its data"
	fi
	expect_eq "$(member_unit_md5 "$m" "$s")" "$want" \
		"unit $k ($g geometry) holds $what on member $m at sector $s"
	k=$((k + 1))
done
bds_dm_remove $VOL

# --- refusals ------------------------------------------------------------------

refused "checkpoint CK + 1" "Restripe checkpoint is not one the members' labels record" \
	"$(echo "$T" | sed "s| reshape forward $CK | reshape forward $((CK + 1)) |")" \
	"bds-stripe: .*checkpoint $((CK + 1)).*$CK"
refused "no reshape over restripe labels" \
	"Member's label records a restripe: the table needs its 'reshape' argument" \
	"0 $NEWLEN bds-stripe $CHUNK 2 2 $A $NEWOFF_0 $B $NEWOFF_1 1 $C $NEWOFF_2 2 volume $U" \
	"$NAMES_MEMBER"
# Member 1's old offset halfway down to its new one, in 4 KiB: a table the
# target maps by itself, but not the labels' restripe.  (A higher one
# would leave no room for its old share: refused as too small for it
# before the labels are read.)
MID=$(((NEWOFF_1 + OLDOFF_1) / 2))
MID=$((MID - MID % 8))
check "old offset $MID lies between $NEWOFF_1 and $OLDOFF_1" \
	sh -c "[ $NEWOFF_1 -le $MID ] && [ $MID -lt $OLDOFF_1 ]"
refused "another old offset" \
	"Member's label records another restripe than the table (direction or old geometry)" \
	"$(echo "$T" | sed "s|,1:$OLDOFF_1:1\$|,1:$MID:1|")" "$NAMES_MEMBER"
refused "another old layout" \
	"Member's label records another restripe than the table (direction or old geometry)" \
	"$(echo "$T" | sed "s| $CK $NEWLEN 2 interleave | $CK $NEWLEN 2 sequential |")" \
	"$NAMES_MEMBER"

bds-mklabels "$U" $CHUNK interleave 2,1 "$A" "$B" "$C" >/dev/null ||
	fail "bds-mklabels (no restripe) failed"
refused "reshape over plain labels" "Member's label records no restripe, the table gives one" \
	"$T" "$NAMES_MEMBER"

bds_expect_clean "$A" "$B" "$C"
pass
