#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm adopt makes an md RAID0 array a labelled bds-stripe volume in
# place, its data where md put it, and the volume lives on as any other:
# it assembles after the disks moved, and grow --layout interleave
# spreads it over the controllers under XFS.  The disks are 256 MiB, so
# md's data (64K chunk, data offset 2 MiB) ends exactly at each member's
# end: no 8 KiB are free after it, and adopt must put every member's
# backup label copy in front of the data, at sector 2032 (FRONT_BACKUP,
# issue 35); readers find that copy when the primary is damaged.  The
# 1 MiB between sector 2048 and md's data is the room grow's restripe
# moves the data through: a front member's data may not go below sector
# 2048 (over its backup copy) nor past the member's end, so with md's
# default 1 MiB offset there is none and grow refuses ("0 sectors of
# room below its data"); with one chunk of it the restripe crawls.
#
# Boot 1:
#  - mdadm --create /dev/md0 --level=0 --metadata=META --chunk=64
#    --data-offset=2M over the four disks (c0d0 c0d1 c1d0 c1d1 in role
#    order); md's data offset is 4096 sectors and its length is 4 x
#    (member size - offset): it ends at each member's end; XFS, four
#    files of random data; umount.
#    META (bds.md_metadata=) is 1.2, md's
#    default, whose superblock 4 KiB in lies under the primary label; on
#    7.x kernels 1.1, whose superblock at sector 0 adopt erases, so that
#    make check adopts each of md's two front superblocks whole;
#  - bdsadm adopt vol --from /dev/md0 exits 0; /dev/md0 is gone and no
#    member holds an md superblock any more (mdadm --examine);
#  - bdsadm examine of every member shows its backup copy valid at
#    sector 2032 (in front of the data);
#  - the table of /dev/mapper/vol: chunk 128, the members in md's role
#    order (by serial) at md's data offset, layout sequential, "volume
#    <uuid>"; its length is the array's;
#  - every stripe unit k of a sample, read through the volume, is the
#    bytes at member k mod 4, sector offset + (k div 4) x 128: where
#    md's RAID0 and the sequential layout both put it;
#  - md's last stripe (each member's last 64 KiB, where an end backup
#    would lie) reads through the volume as it read through /dev/md0
#    before adopt;
#  - the files have their sha256; bdsadm stop; then the primary label
#    copy of the member in role 1 (sectors 8 to 23) is zeroed (dd), its
#    serial kept for boot 2.
# Boot 2 (controllers permuted, disks reordered):
#  - bdsadm examine of the damaged member (found by serial): its primary
#    copy is not valid, the backup copy counts, valid at sector 2032;
#  - bdsadm assemble --scan brings vol back over the moved disks, the
#    same members in the same order: bdsadm and the kernel (the table's
#    load checks each member's label) take the damaged member's front
#    copy; the files have their sha256;
#  - bdsadm grow vol --layout interleave, mounted: the table's layout is
#    interleave; the files have their sha256; xfs_repair -n is clean;
#    grow's labels keep every member's backup copy at sector 2032, and
#    the damaged member's primary copy is valid again;
#  - bdsadm release vol --to-md is refused (interleave: it names grow
#    --layout sequential; after that grow, mounted: in use); then it
#    exits 0: no member
#    carries a bds-stripe label (the copies at sector 2032 are erased
#    too); mdadm --assemble --scan starts the
#    array, XFS mounts from it, the files have their sha256, xfs_repair
#    -n is clean.
#
# topology: size=256M ctl=2 ctl=2
# reboot-topology: ctl=c1d1+c0d0 ctl=c1d0+c0d1
# timeout: 480
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=vol
DM=/dev/mapper/$VOL
MNT=/mnt/vol
FILES="f1:2 f2:5 f3:9 f4:17" # name:MiB

command -v bdsadm >/dev/null || fail "bdsadm not in the guest (run-suite gives it with -x)"
command -v mdadm >/dev/null || fail "mdadm not in the guest"

serial_of() {
	tail -c +5 "/sys/dev/block/$1/device/vpd_pg80" | tr -d '\000 '
}

# members: the table's members as SERIAL:OFFSET, in table order.
members() {
	dmsetup table $VOL | awk '{
		n = $5; i = 6
		for (g = 0; g < n; g++) {
			c = $i; i++
			for (m = 0; m < c; m++) { printf "%s:%s\n", $i, $(i + 1); i += 2 }
		}
	}' | while IFS=: read -r maj min off; do
		printf '%s:%s ' "$(serial_of "$maj:$min")" "$off"
	done
}

# sums_match WHEN STATE-FILE: every file has the sha256 boot 1 saved.
sums_match() {
	n=0
	while read -r key name sum; do
		[ "$key" = sum ] || continue
		n=$((n + 1))
		expect_eq "$(sha256sum <"$MNT/$name" | cut -d' ' -f1)" "$sum" "$1: $name has its sha256"
	done <"$2"
	expect_eq "$n" 4 "$1: files checked"
}

# copy_line DEV WHICH: the text of bdsadm examine's "WHICH copy :" line.
copy_line() {
	bdsadm examine "$1" >/tmp/examine.out 2>&1
	sed -n "s/^ *$2 copy : //p" /tmp/examine.out
}

# backup_in_front WHEN DEV: bdsadm examine DEV shows its backup copy
# valid at sector 2032, in front of the data.
backup_in_front() {
	_b=$(copy_line "$2" Backup)
	case $_b in
	*"not valid"* | *cannot* | "") _ok=no ;;
	*"sector 2032" | *"sector 2032"[!0-9]*) _ok=yes ;;
	*) _ok=no ;;
	esac
	[ "$_ok" = yes ] || cat /tmp/examine.out
	check "$1: $2's backup copy is valid at sector 2032 ($_b)" [ "$_ok" = yes ]
}

bds_load_module
modprobe raid0 2>/dev/null || true
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
mkdir -p $MNT

if [ "$BDS_BOOT" = 1 ]; then
	case "$BDS_KSERIES" in
	7.*) META=$(bds_cmdline_arg bds.md_metadata 1.1) ;;
	*) META=$(bds_cmdline_arg bds.md_metadata 1.2) ;;
	esac
	run mdadm --create /dev/md0 --level=0 --raid-devices=4 --metadata="$META" \
		--chunk=64 --data-offset=2M --run "$@"
	expect_eq "$(mdadm --examine "$1" | sed -n 's/^ *Version : //p')" "$META" \
		"member 0's md superblock is metadata $META"
	off=$(cat /sys/block/md0/md/dev-"$(bds_dev "$1")"/offset)
	len=$(blockdev --getsz /dev/md0)
	size=$(blockdev --getsz "$1")
	log "md0: $len sectors, data offset $off; members of $size sectors"
	expect_eq "$off" 4096 "md's data offset: 2 MiB (the front place and a restripe's room below it)"
	expect_eq "$len" $((4 * (size - off))) \
		"md's data ends at each member's end: no room for a backup after it"
	# data in the units the placement check reads (mkfs -K keeps it)
	for k in 1001 2222 4079; do
		run dd if=/dev/urandom of=/dev/md0 bs=64K seek=$k count=1 oflag=direct status=none
	done
	run mkfs.xfs -q -f -K /dev/md0
	run mount -t xfs /dev/md0 $MNT
	for f in $FILES; do
		head -c $((${f#*:} << 20)) /dev/urandom >/tmp/data
		run cp /tmp/data "$MNT/${f%:*}"
		bds_state_save sum "${f%:*}" "$(sha256sum </tmp/data | cut -d' ' -f1)"
	done
	rm -f /tmp/data
	run umount $MNT
	# md's last stripe: each member's last 64 KiB
	last=$((len / 128 - 4))
	tail=$(dd if=/dev/md0 bs=64K skip=$last count=4 iflag=direct 2>/dev/null | sha256sum)

	log "+ bdsadm adopt $VOL --from /dev/md0"
	bdsadm adopt $VOL --from /dev/md0 >/tmp/adopt.out 2>&1
	rc=$?
	cat /tmp/adopt.out
	expect_eq "$rc" 0 "bdsadm adopt exit status"
	[ -b $DM ] || fail "bdsadm adopt made no $DM"
	check "/dev/md0 is stopped" sh -c '! grep -q "^md0 " /proc/mdstat'
	for m in "$@"; do
		check "$m holds no md superblock any more" \
			sh -c "! mdadm --examine '$m' >/dev/null 2>&1"
	done
	for m in "$@"; do
		backup_in_front "adopted" "$m"
	done
	table=$(dmsetup table $VOL)
	log "table: $table"
	# shellcheck disable=SC2086 # the table's words
	expect_eq "$(echo $table | cut -d' ' -f2-6)" "$len bds-stripe 128 2 2" \
		"length, target, chunk, groups (one per controller run, 2 members each)"
	check "layout sequential, labelled" \
		sh -c "echo '$table' | grep -E ' layout sequential volume [0-9a-f-]{36}\$' >/dev/null"
	want=""
	for m in "$@"; do
		want="$want$(bds_serial "$m"):$off "
	done
	expect_eq "$(members)" "$want" "md's role order, md's data offset"

	# unit k at member k mod 4, sector off + (k div 4) x 128
	for k in 0 1 2 3 5 6 11 40 41 42 43 1001 2222 4079; do
		i=$((k % 4 + 1))
		eval "m=\${$i}"
		a=$(dd if=$DM bs=64K skip="$k" count=1 iflag=direct 2>/dev/null | sha256sum)
		at=$((off + (k / 4) * 128))
		b=$(dd if="$m" bs=512 skip=$at count=128 iflag=direct 2>/dev/null | sha256sum)
		expect_eq "$a" "$b" "unit $k is at $m sector $at"
	done
	expect_eq "$(dd if=$DM bs=64K skip=$last count=4 iflag=direct 2>/dev/null | sha256sum)" \
		"$tail" "md's last stripe (units $last to $((last + 3))) reads as before adopt"

	run mount -t xfs $DM $MNT
	sums_match "adopted" /run/bds/state
	run umount $MNT
	bds_state_save members "$(members)"
	run bdsadm stop $VOL
	# boot 2 must take this member's front copy
	bds_state_save damaged "$(bds_serial "$2")"
	run dd if=/dev/zero of="$2" bs=512 seek=8 count=16 oflag=direct conv=notrunc status=none
	bds_expect_clean "$@"
	pass "md0 adopted, backups in front, data in place"
fi

# --- boot 2 -----------------------------------------------------------------
D=$(bds_by_serial "$(bds_state_get damaged)") || fail "no disk has serial $(bds_state_get damaged)"
p=$(copy_line "$D" Primary)
cat /tmp/examine.out
case $p in
*"not valid"*) ok=yes ;;
*) ok=no ;;
esac
check "$D's primary copy is damaged ($p)" [ "$ok" = yes ]
backup_in_front "damaged" "$D"
expect_eq "$(bdsadm examine --export "$D" | sed -n 's/^BDS_LABEL_COPY=//p')" backup \
	"$D: the backup copy counts"
log "+ bdsadm assemble --scan"
bdsadm assemble --scan >/tmp/assemble.out 2>&1
rc=$?
cat /tmp/assemble.out
expect_eq "$rc" 0 "bdsadm assemble --scan exit status"
[ -b $DM ] || fail "bdsadm assemble --scan made no $DM"
log "table: $(dmsetup table $VOL)"
# shellcheck disable=SC2046,SC2005 # blanks normalised
expect_eq "$(echo $(members))" "$(echo $(bds_state_get members))" "the disks of boot 1 in md's role order (serial:offset)"
check "still layout sequential" sh -c "dmsetup table $VOL | grep ' layout sequential ' >/dev/null"
run mount -t xfs $DM $MNT
sums_match "assembled" /bds/state
log "+ bdsadm grow $VOL --layout interleave"
bdsadm grow $VOL --layout interleave >/tmp/grow.out 2>&1
rc=$?
cat /tmp/grow.out
expect_eq "$rc" 0 "bdsadm grow --layout interleave exit status"
check "the layout is interleave: $(dmsetup table $VOL)" \
	sh -c "! dmsetup table $VOL | grep 'layout sequential' >/dev/null"
sums_match "interleaved" /bds/state
run umount $MNT
run xfs_repair -n $DM
for m in "$@"; do
	backup_in_front "interleaved" "$m"
done
p=$(copy_line "$D" Primary)
case $p in
*"not valid"* | *cannot* | "") ok=no ;;
*) ok=yes ;;
esac
check "grow wrote $D's primary copy again ($p)" [ "$ok" = yes ]

# release_refused WHEN WORDS: release exits 1 saying WORDS; the volume stays.
release_refused() {
	log "+ bdsadm release $VOL --to-md ($1)"
	bdsadm release $VOL --to-md >/tmp/release.out 2>&1
	rc=$?
	cat /tmp/release.out
	expect_eq "$rc" 1 "release of a volume $1 is refused"
	check "$1: it says '$2'" grep -q -- "$2" /tmp/release.out
	check "$1: the volume is still there" [ -b $DM ]
}
release_refused "interleaved" "grow $VOL --layout sequential"
run bdsadm grow $VOL --layout sequential
run mount -t xfs $DM $MNT
release_refused "mounted" "is in use"
run umount $MNT
log "+ bdsadm release $VOL --to-md"
bdsadm release $VOL --to-md >/tmp/release.out 2>&1
rc=$?
cat /tmp/release.out
expect_eq "$rc" 0 "bdsadm release --to-md exit status"
check "$DM is gone" [ ! -e $DM ]
for m in "$@"; do
	check "$m: no bds-stripe label left" sh -c "! bdsadm examine '$m' >/dev/null 2>&1"
done
run mdadm --stop /dev/md/$VOL
run mdadm --assemble --scan
md=$(awk '$3 == "active" { print $1 }' /proc/mdstat)
[ -n "$md" ] || fail "mdadm --assemble --scan started no array"
log "mdadm --detail: $(mdadm --detail --export "/dev/$md" | tr '\n' ' ')"
run mount -t xfs "/dev/$md" $MNT
sums_match "released to md" /bds/state
run umount $MNT
run xfs_repair -n "/dev/$md"
run mdadm --stop "/dev/$md"
for m in "$@"; do
	run mdadm --zero-superblock "$m"
done
bds_expect_clean "$@"
pass "adopted volume assembled from moved disks, interleaved, released to md, data intact"
