#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A volume made by bdsadm create is found again by its labels after the
# disks moved: the guest boots twice over the same eight disks, and in
# the second boot every disk is on another controller or at another
# target (other sd names, other major:minor).
#
# Boot 1 (4 + 2 + 2 disks on three controllers):
#  - bdsadm create vol --chunk 64K over all eight (controller order):
#    /dev/mapper/vol with dm UUID BDS-<volume uuid>, a table "0 LEN
#    bds-stripe 128 3 4 ... 2 2 ... 2 volume <uuid>" whose members are
#    the disks in the order given;
#  - mkfs.xfs takes the geometry (sunit 16, swidth 128 blocks); four
#    files of random data (1 to 6 MiB) go on it;
#  - kept for boot 2 (bds_state_save): the volume UUID, the sha256 of
#    every file, and the table's members as serial:offset (the serial
#    is bds-cCdD, the disk's first-boot name) and as major:minor;
#  - umount, bdsadm stop vol; nothing is left and the module unloads.
# Boot 2 (controllers permuted, disks reordered, and mixed):
#  - the members' major:minor are not those of boot 1 (at least one
#    differs, and /dev/bds/c0d0 is another disk: the disks did move);
#  - bdsadm assemble --scan exits 0 and creates /dev/mapper/vol, dm UUID
#    BDS-<the same uuid>; its table lists the same disks (by serial) in
#    the same order with the same offsets;
#  - the filesystem mounts, every file has its sha256, xfs_repair -n
#    finds nothing;
#  - umount, bdsadm stop vol; nothing is left and the module unloads.
#
# topology: size=1G ctl=4 ctl=2 ctl=2
# reboot-topology: ctl=c2d1+c0d2+c1d0 ctl=c0d3+c0d1+c2d0 ctl=c1d1+c0d0
# timeout: 240
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=vol
DM=/dev/mapper/$VOL
MNT=/mnt/vol
FILES="f1:1 f2:3 f3:4 f4:6" # name:MiB

command -v bdsadm >/dev/null || fail "bdsadm not in the guest (run-suite gives it with -x)"

# serial_of MAJ:MIN: the QEMU serial (bds-cCdD of boot 1) of a disk.
serial_of() {
	tail -c +5 "/sys/dev/block/$1/device/vpd_pg80" | tr -d '\000 '
}

# table_vars: parse `dmsetup table vol` into GRPS (group sizes, blank
# separated), MEMBERS (MAJ:MIN:OFFSET per member, table order, blank
# separated), TAIL (the words after the groups) and CHUNK.
table_vars() {
	# shellcheck disable=SC2046 # one word per table field
	set -- $(dmsetup table $VOL)
	[ "$3" = bds-stripe ] || fail "not a bds-stripe table: $*"
	CHUNK=$4
	_ng=$5
	shift 5
	GRPS="" MEMBERS=""
	_g=0
	while [ "$_g" -lt "$_ng" ]; do
		_n=$1
		shift
		GRPS="$GRPS $_n"
		_i=0
		while [ "$_i" -lt "$_n" ]; do
			MEMBERS="$MEMBERS $1:$2"
			shift 2
			_i=$((_i + 1))
		done
		_g=$((_g + 1))
	done
	GRPS=${GRPS# }
	MEMBERS=${MEMBERS# }
	TAIL=$*
}

# by_serial: MEMBERS as SERIAL:OFFSET; majmins: MEMBERS as MAJ:MIN.
by_serial() {
	_out=""
	for _m in $MEMBERS; do
		_out="$_out $(serial_of "${_m%:*}"):${_m##*:}"
	done
	echo "${_out# }"
}
majmins() {
	_out=""
	for _m in $MEMBERS; do
		_out="$_out ${_m%:*}"
	done
	echo "${_out# }"
}

dm_uuid() { dmsetup info -c --noheadings -o uuid $VOL; }

# stop_and_check DISK...: bdsadm stop, nothing left behind.
stop_and_check() {
	run bdsadm stop $VOL
	check "$DM is gone after bdsadm stop" [ ! -e $DM ]
	bds_expect_clean "$@"
}

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 8 ] || fail "need 4 + 2 + 2 disks, have: $*"
for m in "$@"; do
	log "boot $BDS_BOOT: $m is $(bds_dev "$m") ($(bds_majmin "$m")), serial $(bds_serial "$m")"
done
mkdir -p $MNT

if [ "$BDS_BOOT" = 1 ]; then
	log "+ bdsadm create $VOL --chunk 64K $*"
	bdsadm create $VOL --chunk 64K "$@" >/tmp/create.out 2>&1
	rc=$?
	cat /tmp/create.out
	expect_eq "$rc" 0 "bdsadm create exit status"
	[ -b $DM ] || fail "bdsadm create made no $DM"
	log "table: $(dmsetup table $VOL)"
	table_vars
	expect_eq "$CHUNK" 128 "stripe unit: 64 KiB"
	expect_eq "$GRPS" "4 2 2" "one group per controller, in controller order"
	UUID=${TAIL#2 volume }
	check "the table ends in '2 volume <uuid>' ($TAIL)" \
		sh -c "echo '$UUID' | grep -Ex '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' >/dev/null"
	expect_eq "$(dm_uuid)" "BDS-$UUID" "dm UUID"
	want=""
	for m in "$@"; do
		want="$want $(bds_serial "$m")"
	done
	got=""
	for m in $(by_serial); do
		got="$got ${m%:*}"
	done
	expect_eq "${got# }" "${want# }" "members in the order given"

	log "mkfs.xfs"
	mkfs.xfs -f $DM >/tmp/mkfs.out 2>&1 || { cat /tmp/mkfs.out; fail "mkfs.xfs"; }
	cat /tmp/mkfs.out
	check "mkfs.xfs takes the geometry (sunit=16 swidth=128 blks)" \
		grep -E 'sunit=16 +swidth=128 blks' /tmp/mkfs.out
	run mount -t xfs $DM $MNT
	for f in $FILES; do
		head -c $((${f#*:} << 20)) /dev/urandom >/tmp/data
		run cp /tmp/data "$MNT/${f%:*}"
		bds_state_save sum "${f%:*}" "$(sha256sum </tmp/data | cut -d' ' -f1)"
	done
	rm -f /tmp/data
	run umount $MNT
	bds_state_save uuid "$UUID"
	bds_state_save members "$(by_serial)"
	bds_state_save majmin "$(majmins)"
	stop_and_check "$@"
	pass "volume made, filled and stopped"
fi

# --- boot 2 -----------------------------------------------------------------
UUID=$(bds_state_get uuid) || fail "no state from boot 1 (/bds/state: $(bds_state))"
WANT_MEMBERS=$(bds_state_get members)
WAS_MAJMIN=$(bds_state_get majmin)
check "the disks moved: /dev/bds/c0d0 is no longer bds-c0d0 ($(bds_serial /dev/bds/c0d0))" \
	[ "$(bds_serial /dev/bds/c0d0)" != bds-c0d0 ]
check "nothing is assembled before bdsadm assemble" [ ! -e $DM ]

log "+ bdsadm assemble --scan"
bdsadm assemble --scan >/tmp/assemble.out 2>&1
rc=$?
cat /tmp/assemble.out
expect_eq "$rc" 0 "bdsadm assemble --scan exit status"
[ -b $DM ] || fail "bdsadm assemble --scan made no $DM"
log "table: $(dmsetup table $VOL)"
table_vars
expect_eq "$(dm_uuid)" "BDS-$UUID" "dm UUID is boot 1's"
expect_eq "$TAIL" "2 volume $UUID" "the table names boot 1's volume"
expect_eq "$GRPS" "4 2 2" "the groups of boot 1"
expect_eq "$(by_serial)" "$WANT_MEMBERS" "the same disks (by serial) in the same order, same offsets"
now=$(majmins)
log "members' major:minor: boot 1 $WAS_MAJMIN; boot 2 $now"
moved=0
i=1
for mm in $now; do
	[ "$mm" = "$(echo "$WAS_MAJMIN" | cut -d' ' -f$i)" ] || moved=$((moved + 1))
	i=$((i + 1))
done
check "the members' major:minor changed ($moved of 8)" [ "$moved" -gt 0 ]

run mount -t xfs $DM $MNT
n=0
while read -r key name sum; do
	[ "$key" = sum ] || continue
	n=$((n + 1))
	expect_eq "$(sha256sum <"$MNT/$name" | cut -d' ' -f1)" "$sum" "$name has its sha256"
done </bds/state
expect_eq "$n" 4 "files checked"
run umount $MNT
run xfs_repair -n $DM
stop_and_check "$@"
pass "volume assembled from moved disks, data intact"
