#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A volume over disks of unequal size, made by `bdsadm create --weights
# capacity`, uses their capacity, keeps its weights in its labels and
# comes back with them, and its members can be replaced and checked with
# their own shares:
#  - two controllers, each with a 256 MiB and a 512 MiB disk: create gives
#    the 512 MiB disks weight 2 and the 256 MiB disks weight 1 (the table's
#    "weights" words, in table order), and the volume holds at least 98 %
#    of the disks' space for data (an equal-share volume holds 2/3 of
#    it);
#  - every label says the weights (bdsadm examine) and its member's
#    share;
#  - data written at the start, the middle and the end of the volume
#    reads back the same after bdsadm stop and bdsadm assemble --scan,
#    which loads the same table, weights included;
#  - bdsadm replace moves a weight-2 member (twice the share of a
#    weight-1 member: the volume's last units are on it) to the spare
#    512 MiB disk on a third controller: the table keeps its weights, the
#    new member's label has them, bdsadm check reads every member's share
#    without an error, detail shows the weights, and the data reads back,
#    again after stop and assemble --scan;
#  - the kernel refuses the labelled volume's table with other weights
#    ("Member's label geometry differs from the table"), and with none.
#
# The target's side (the labels' check of weights) is the same code on
# every kernel and weighted-layout-places-and-keeps-data runs the map
# path on all of them: this one runs where the bdsadm tests of replace do.
#
# topology: ctl=1/size=256M+1/size=512M ctl=1/size=256M+1/size=512M ctl=1/size=512M
# timeout: 420
# kernels: 6.1 7.2
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest (run-suite with BDS_VM_ARGS=\"-x tools/bdsadm\")"
bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 5 ] || fail "need 2 + 2 disks and a spare, have: $*"
SPARE=$5
set -- "$1" "$2" "$3" "$4"
VOL=wvol
DMV=/dev/mapper/$VOL
SUM=0
for d in "$@"; do
	log "$d: $(bds_sectors "$d") sectors"
	SUM=$((SUM + $(bds_sectors "$d")))
done

run bdsadm create $VOL --chunk 64K --weights capacity "$@"
TABLE=$(dmsetup table $VOL)
log "table: $TABLE"
SIZE=$(bds_sectors $DMV)

# The weights, in table order: the 512 MiB disks carry two units a cycle.
W="" BIG=""
for mm in $(echo "$TABLE" | awk '{ for (i = 7; i <= NF; i++) if ($i ~ /^[0-9]+:[0-9]+$/) print $i }'); do
	if [ "$(cat /sys/dev/block/"$mm"/size)" -gt 750000 ]; then
		W="$W,2"
		BIG=$mm
	else
		W="$W,1"
	fi
done
W=${W#,}
check "the table gives the 512 MiB disks weight 2, the 256 MiB disks 1 ($W)" \
	sh -c "dmsetup table $VOL | grep -E ' weights $W( |\$)' >/dev/null"
check "the volume holds >= 98 % of the disks ($SIZE of $SUM sectors)" \
	[ $((SIZE * 100)) -ge $((SUM * 98)) ]

# Every label: the weights, and its member's share.
for d in "$@"; do
	bdsadm examine "$d" >/tmp/ex.txt 2>&1 || fail "bdsadm examine $d failed"
	cat /tmp/ex.txt
	check "examine $d shows the weights $W" grep -qF "$W" /tmp/ex.txt
done

# Data at the start, the middle and the end.
dd if=/dev/urandom of=/tmp/d.bin bs=1M count=8 status=none || fail "no test data"
for off in 0 $((SIZE / 2 / 2048)) $((SIZE / 2048 - 8)); do
	run dd if=/tmp/d.bin of=$DMV bs=1M seek="$off" oflag=direct conv=fsync status=none
done
want=$(md5sum </tmp/d.bin | cut -d' ' -f1)
sums() {
	for _o in 0 $((SIZE / 2 / 2048)) $((SIZE / 2048 - 8)); do
		bds_md5 $DMV $((_o * 1048576)) 8388608
	done
}
expect_eq "$(sums | sort -u)" "$want" "data at the start, middle and end read back"

run bdsadm stop $VOL
run bdsadm assemble --scan
expect_eq "$(dmsetup table $VOL)" "$TABLE" "assemble --scan loads the same table, weights included"
expect_eq "$(sums | sort -u)" "$want" "the data after stop and assemble"

# Replace the last weight-2 member by the spare: its whole share (twice a
# weight-1 member's) is copied, and the weights stay.
OLD=/dev/$(basename "$(readlink /sys/dev/block/"$BIG")")
run bdsadm replace $VOL "$OLD" "$SPARE"
NEWT=$(dmsetup table $VOL)
log "after replace: $NEWT"
expect_eq "$(echo "$NEWT" | sed "s/ $(bds_majmin "$SPARE") / $BIG /")" "$TABLE" \
	"replace puts the spare in the old member's place, weights unchanged"
expect_eq "$(sums | sort -u)" "$want" "the data after replace"
bdsadm examine "$SPARE" >/tmp/ex.txt 2>&1 || fail "bdsadm examine $SPARE failed"
cat /tmp/ex.txt
check "the new member's label shows the weights $W" grep -qF "$W" /tmp/ex.txt
run bdsadm check $VOL
bdsadm detail $VOL >/tmp/detail.txt 2>&1 || fail "bdsadm detail $VOL failed"
cat /tmp/detail.txt
check "detail shows the weights $W" grep -qF "$W" /tmp/detail.txt
TABLE=$NEWT
run bdsadm stop $VOL
run bdsadm assemble --scan
expect_eq "$(dmsetup table $VOL)" "$TABLE" "assemble --scan after replace loads the new table"
expect_eq "$(sums | sort -u)" "$want" "the data after replace, stop and assemble"
run bdsadm stop $VOL

# The labels refuse the volume with other weights, or none, over the
# same members with lengths that fit them.
# shellcheck disable=SC2086 # the table's words
set -- $TABLE
C=$(($2 / (6 * 128)))		# cycles of W = 6
OTHER=$(echo "$TABLE" | sed "s/^0 $2 /0 $((C * 5 * 128)) /; s/ weights $W/ weights 1,1,1,2/")
NONE=$(echo "$TABLE" | sed "s/^0 $2 /0 $((C * 4 * 128)) /; s/ weights $W//; s/ 4 volume / 2 volume /")
dmesg -c >/dev/null
for t in "$OTHER" "$NONE"; do
	log "table: $t"
	if echo "$t" | dmsetup create wbad 2>/dev/null; then
		dmsetup remove wbad
		fail "a table with other weights over the labelled members was taken"
	fi
done
dmesg
expect_eq "$(dmesg | grep -c "bds-stripe: Member's label geometry differs from the table")" 2 \
	"both refused for the labels' geometry (weights)"
check "no device left" [ ! -e /dev/mapper/wbad ]

run rmmod dm_bds_stripe
pass "a weighted volume keeps its weights across stop, assemble and replace"
