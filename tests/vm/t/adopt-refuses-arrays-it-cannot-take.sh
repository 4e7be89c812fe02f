#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm adopt refuses every md array that is not provably a sequential
# bds-stripe volume, or that is in use, saying why, and changes nothing:
# each refusal exits 1, names the array and the reason, ends in "nothing
# was changed", leaves no dm device, and leaves the first and last 2 MiB
# of every disk as they were (the array, when it ran, still runs).
#
#  - not md: a bare disk;
#  - RAID5 (3 disks, --assume-clean): "is a raid5 array";
#  - RAID0 over members of unequal size (a 262240K and a 256M disk: two
#    zones): "unequal size";
#  - RAID0 with no place for a member's backup label copy (two 256M
#    disks, a 64K chunk and md's data offset 512 KiB: md's data ends at
#    each member's end, and starts below sector 2048, over the place in
#    front of it, sector 2032): "no room for the backup label", naming
#    where md's data starts (1024) and that the label cannot go in front
#    of the data either;
#  - RAID0 with metadata 1.0 (the superblock at the end): "metadata 1.0";
#  - RAID0 with XFS mounted on it: "in use"; still mounted after;
#  - RAID0 with three of its four members given to mdadm --incremental
#    (inactive): "degraded or inactive".
#
# topology: size=262240K ctl=4 ctl=2/size=256M
# timeout: 240
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest (run-suite gives it with -x)"

# ends DISK: sha256 of its first and last 2 MiB.
ends() {
	_sz=$(blockdev --getsz "$1")
	{
		dd if="$1" bs=1M count=2 iflag=direct 2>/dev/null
		dd if="$1" bs=1M skip=$((_sz * 512 - 2097152)) count=2097152 \
			iflag=direct,skip_bytes,count_bytes 2>/dev/null
	} | sha256sum | cut -d' ' -f1
}

all_ends() {
	for _d in $DISKS; do
		printf '%s ' "$(ends "$_d")"
	done
}

# refused WHAT WORD FROM [REGEX]: adopt from FROM is refused, the message
# has WORD (and a line matching the extended REGEX).
refused() {
	_before=$(all_ends)
	log "+ bdsadm adopt vol --from $3 ($1)"
	bdsadm adopt vol --from "$3" >/tmp/out 2>&1
	_rc=$?
	cat /tmp/out
	expect_eq "$_rc" 1 "$1: exit status"
	check "$1: the message says '$2'" grep -q -- "$2" /tmp/out
	[ -z "${4:-}" ] || check "$1: the message matches '$4'" grep -Eq -- "$4" /tmp/out
	check "$1: the message says nothing was changed" grep -q "nothing was changed" /tmp/out
	expect_eq "$(dmsetup ls 2>&1)" "No devices found" "$1: no dm device"
	expect_eq "$(all_ends)" "$_before" "$1: every disk's ends unchanged"
}

md_create() {
	_md=$1
	shift
	run mdadm --create "$_md" --run --chunk=64 "$@"
}

bds_load_module
modprobe raid0 2>/dev/null || true
modprobe raid456 2>/dev/null || true
# shellcheck disable=SC2046 # one word per disk
set -- $(bds_all_members)
[ $# -eq 6 ] || fail "need 4 + 2 disks, have: $*"
A1=$1 A2=$2 A3=$3 A4=$4 B1=$5 B2=$6
DISKS="$*"

refused "a bare disk" "is not an md array" "$A1"

md_create /dev/md1 --level=5 --raid-devices=3 --metadata=1.2 --assume-clean "$A1" "$A2" "$A3"
refused "RAID5" "is a raid5 array" /dev/md1
check "RAID5: md1 still runs" grep -q "^md1 : active" /proc/mdstat
run mdadm --stop /dev/md1

md_create /dev/md2 --level=0 --raid-devices=2 --metadata=1.2 "$A1" "$B1"
refused "unequal members" "unequal size" /dev/md2
run mdadm --stop /dev/md2

md_create /dev/md3 --level=0 --raid-devices=2 --metadata=1.2 --data-offset=512K "$B1" "$B2"
off=$(cat /sys/block/md3/md/dev-"$(bds_dev "$B1")"/offset)
expect_eq "$off" 1024 "md3's data offset (sectors)"
expect_eq "$(blockdev --getsz /dev/md3)" $((2 * ($(blockdev --getsz "$B1") - off))) \
	"md3's data ends at each member's end"
refused "no room at the end nor in front" "no room for the backup label" /dev/md3 \
	"[^0-9]${off}[^0-9].*in front"
run mdadm --stop /dev/md3

md_create /dev/md4 --level=0 --raid-devices=2 --metadata=1.0 "$A1" "$A2"
refused "metadata 1.0" "metadata 1.0" /dev/md4
run mdadm --stop /dev/md4

md_create /dev/md5 --level=0 --raid-devices=4 --metadata=1.2 "$A1" "$A2" "$A3" "$A4"
run mkfs.xfs -q -f /dev/md5
mkdir -p /mnt/md
run mount -t xfs /dev/md5 /mnt/md
# a mounted, idle XFS writes nothing; its log may on umount
refused "mounted" "in use" /dev/md5
check "mounted: still mounted" grep -q " /mnt/md " /proc/mounts
run umount /mnt/md
run mdadm --stop /dev/md5

# mdadm --incremental keeps an array it cannot start yet, inactive
for d in "$A1" "$A2" "$A3"; do
	log "+ mdadm --incremental $d"
	mdadm --incremental "$d" || true
done
MD=$(awk '$3 == "inactive" { print $1 }' /proc/mdstat)
log "/proc/mdstat: $(tr '\n' ' ' </proc/mdstat)"
[ -n "$MD" ] || fail "no inactive array after mdadm --incremental of 3 of 4 members"
log "md5 without $A4: $(grep -A1 '^md5' /proc/mdstat | tr '\n' ' ')"
refused "a member missing" "degraded or inactive" "/dev/$MD"
run mdadm --stop "/dev/$MD"

for d in $DISKS; do
	run mdadm --zero-superblock --force "$d"
done
# shellcheck disable=SC2086 # one word per disk
bds_expect_clean $DISKS
pass "every array adopt cannot take is refused, nothing changed"
