#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# With "volume <uuid>" the target reads every member's label at table load
# and refuses a table that would misplace data, so that a stale or
# hand-written table cannot scramble a labelled volume.  Three disks on two
# controllers get the labels of one volume (bds-mklabels: groups 2+1, 64
# KiB unit, data from sector 2048).  Then:
#  - the table the labels describe loads; "dmsetup table" gives back
#    "... 2 volume <uuid>"; a stripe unit written at volume sector 0 is on
#    member 0 at sector 2048 and unit 1 on member 1 (the order 0,1,2);
#  - each of these is refused with its own reason, after a kernel line that
#    names the member, and leaves no dm device and no holder:
#      two members swapped; a data offset of 0; another volume's UUID; a
#      chunk of 256 (length kept whole stripes); one stripe less; a member
#      labelled for another volume; a member without a label; a member
#      whose two copies are of different volumes; a member one generation
#      ahead of member 0;
#  - a member whose primary copy is destroyed still loads (the backup
#    copy counts);
#  - a member whose primary copy gives I/O errors (dm "error" target over
#    its sectors) loads too, the kernel saying that the backup counts, and
#    bdsadm examine shows the same; with both copies unreadable the table
#    is refused with "Member's label could not be read";
#  - without "volume", the swapped table loads as before (no label read).
# The module then unloads with nothing held.
#
# A and B are the two disks of controller 0, C the first of controller 1
# (c1d1 stays unused): the common 2 + 2 topology, whose boot the test
# shares.
#
# topology: ctl=2 ctl=2
# timeout: 300
# exec: bds-mklabels
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bds-mklabels >/dev/null || fail "bds-mklabels not in the guest (# exec: header)"
bds_load_module
A=/dev/bds/c0d0 B=/dev/bds/c0d1 C=/dev/bds/c1d0
for d in $A $B $C; do
	[ -b "$d" ] || fail "need 2 + 2 disks: no $d"
done
U=10111213-1415-4617-9819-1a1b1c1d1e1f
OTHER=99999999-1415-4617-9819-1a1b1c1d1e1f
VOL=lv

T=$(bds-mklabels "$U" 128 interleave 2,1 "$A" "$B" "$C") || fail "bds-mklabels failed"
log "labelled table: $T"
LEN=$(echo "$T" | cut -d' ' -f2)
# table_with WORD...: the labelled table's words with the member words and
# the UUID given: FIELD=VALUE pairs are sed substitutions on the table.
swap_ab=$(echo "$T" | sed "s|$A 2048 $B 2048|$B 2048 $A 2048|")

# refused DESC REASON TABLE: dmsetup create fails, the kernel gives REASON
# as the bds-stripe error after a line naming the member, nothing is left.
refused() {
	bds_expect_refused "$1" "$2" "$3" 'bds-stripe: member [0-9]+ \(' $VOL "$A" "$B" "$C"
}

# --- the table the labels describe ---------------------------------------------
head -c 131072 /dev/urandom >/tmp/units
bds_dm_create $VOL "$T"
expect_eq "$(dmsetup table $VOL | sed 's/.* \([0-9]* volume [0-9a-f-]*\)$/\1/')" "2 volume $U" \
	"dmsetup table ends in 2 volume <uuid>"
run dd if=/tmp/units of=/dev/mapper/$VOL bs=65536 count=2 oflag=direct status=none
bds_dm_remove $VOL
dd if=/tmp/units bs=65536 count=1 status=none >/tmp/u0
dd if=/tmp/units bs=65536 skip=1 count=1 status=none >/tmp/u1
dd if="$A" bs=512 skip=2048 count=128 iflag=direct status=none >/tmp/a0
dd if="$B" bs=512 skip=2048 count=128 iflag=direct status=none >/tmp/b0
check "unit 0 is on member 0 at its data offset" cmp -s /tmp/u0 /tmp/a0
check "unit 1 is on member 1 at its data offset" cmp -s /tmp/u1 /tmp/b0

# --- refusals ------------------------------------------------------------------
refused "two members swapped" "Member is not at the position its label gives it" "$swap_ab"
refused "data offset 0" "Member offset is not its label's data offset" \
	"$(echo "$T" | sed "s|$A 2048|$A 0|")"
refused "another volume's UUID" "Member's label is of another volume" \
	"$(echo "$T" | sed "s|volume $U|volume $OTHER|")"
refused "chunk 256" "Member's label geometry differs from the table" \
	"$(echo "$T" | sed "s|bds-stripe 128 |bds-stripe 256 |; s|^0 $LEN |0 $((LEN / 768 * 768)) |")"
refused "one stripe less" "Target length is not the length its labels give the volume" \
	"$(echo "$T" | sed "s|^0 $LEN |0 $((LEN - 384)) |")"

# C labelled for another volume
bds-mklabels --only 2 "$OTHER" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
refused "a member of another volume" "Member's label is of another volume" "$T"

# C without a label
dd if=/dev/zero of="$C" bs=4096 seek=1 count=2 conv=notrunc status=none
dd if=/dev/zero of="$C" bs=512 seek=$(($(bds_sectors "$C") / 8 * 8 - 16)) count=16 \
	conv=notrunc status=none
sync
refused "a member without a label" "Member has no valid bds-stripe label" "$T"
check "the kernel says why, for both copies" \
	grep -qF "no valid label: primary: no bds-stripe label (magic); backup: no bds-stripe label (magic)" /tmp/refused.log

# C with copies of two volumes: its own primary, another volume's backup
bds-mklabels --only 2 "$OTHER" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
dd if="$C" of=/tmp/other-backup bs=512 skip=$(($(bds_sectors "$C") / 8 * 8 - 16)) count=16 \
	status=none
bds-mklabels --only 2 "$U" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
dd if=/tmp/other-backup of="$C" bs=512 seek=$(($(bds_sectors "$C") / 8 * 8 - 16)) \
	conv=notrunc status=none
sync
refused "a member with conflicting copies" "Member's two label copies conflict" "$T"

# B one generation ahead of A (A and C stale, as after a missed update)
bds-mklabels --only 2 "$U" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
bds-mklabels --only 1 --gen 2 "$U" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
refused "a member one generation ahead" \
	"Member's label disagrees with member 0's (generation or member table)" "$T"
bds-mklabels --only 1 "$U" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null

# --- the backup copy counts when the primary is gone ------------------------------
dd if=/dev/zero of="$B" bs=4096 seek=1 count=2 conv=notrunc status=none
sync
bds_dm_create $VOL "$T"
log "loaded with member 1's primary copy zeroed"
bds_dm_remove $VOL

# --- a copy that cannot be read: the other one counts ------------------------------
# C seen through a dm device whose sectors of one or both label copies give
# I/O errors (the "error" target); the table names that device instead of C.
S=$(bds_sectors "$C")
BK=$((S / 8 * 8 - 16))
bds-mklabels --only 2 "$U" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
printf '0 8 linear %s 0\n8 16 error\n24 %s linear %s 24\n' "$C" $((S - 24)) "$C" |
	dmsetup create cerr1
printf '0 8 linear %s 0\n8 16 error\n24 %s linear %s 24\n%s 16 error\n' \
	"$C" $((BK - 24)) "$C" "$BK" | dmsetup create cerr2
[ $((BK + 16)) -eq "$S" ] || fail "backup copy not at the end: $BK + 16 != $S"
bds_mark "primary unreadable"
T1=$(echo "$T" | sed "s|$C 2048|/dev/mapper/cerr1 2048|")
bds_dm_create $VOL "$T1"
bds_dmesg_since "primary unreadable" >/tmp/k.log
check "primary unreadable: the kernel uses the backup and says so" \
	grep -qE "bds-stripe: member 2 \(.*\): primary label copy unreadable \(error -5\), the backup counts" /tmp/k.log
bds_dm_remove $VOL
run bdsadm examine /dev/mapper/cerr1 >/tmp/ex.txt
check "examine: the primary cannot be read, the backup counts" \
	grep -q "Primary copy : cannot be read at sector 8" /tmp/ex.txt
check "examine: ... backup copy counts" grep -q "backup copy counts" /tmp/ex.txt
bds_mark "both unreadable"
if echo "$T" | sed "s|$C 2048|/dev/mapper/cerr2 2048|" | dmsetup create $VOL 2>/dev/null; then
	check "both copies unreadable: refused" false
	bds_dm_remove $VOL
fi
bds_dmesg_since "both unreadable" >/tmp/k.log
check "both copies unreadable: refused with 'Member's label could not be read'" \
	grep -qF "bds-stripe: Member's label could not be read" /tmp/k.log
check "both copies unreadable: no device left" sh -c "! dmsetup info $VOL >/dev/null 2>&1"
if bdsadm examine /dev/mapper/cerr2 >/tmp/ex.txt 2>&1; then
	check "examine of a member with no readable copy: exit 1" false
fi
check "examine says the read failed" grep -q "read error" /tmp/ex.txt
bds_dm_remove cerr1
bds_dm_remove cerr2

# --- without "volume", labels are not read ------------------------------------------
bds_dm_create $VOL "$(echo "$swap_ab" | sed "s| 2 volume $U\$||")"
log "the swapped table without volume loads: $(dmsetup table $VOL)"
bds_dm_remove $VOL

bds_expect_clean "$A" "$B" "$C"
pass
