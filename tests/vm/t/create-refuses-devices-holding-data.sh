#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm create does not make a disk that holds data into a member: given
# a disk with an XFS filesystem, a partition table (dos, with one
# partition, then with none), an LVM physical volume, an md superblock
# (1.2, of a stopped raid0: the debug kernel has no raid1) or the label
# of another bds-stripe volume, next to a clean disk,
#  - it exits 1 and says, on one line, which device holds what (xfs,
#    partition table, LVM2_member, linux_raid_member, bds-stripe member);
#  - it says nothing of the clean disk;
#  - no dm device is left;
#  - neither disk changed: the sha256 of the first and of the last 2 MiB
#    of both are those from before (the label copies are at sector 8
#    and at the end).
# With --force, the XFS disk and the clean one become a volume (the
# filesystem signature is gone, both carry a label); bdsadm stop removes
# it, and then those labels are the other volume's that must be refused.
# Without the module (not loaded, not installed: a kernel DKMS has not
# built it for), create refuses, says that the module is not built for
# the running kernel and to run dkms, and erases its labels again.
# The module unloads with nothing held at the end.
#
# The seven disks are the first seven of the 4 + 2 + 2 topology of
# placement-matches-layout (c2d1 stays unused), whose boot the test shares;
# which controller each hangs off does not matter here.
#
# topology: ctl=4 ctl=2 ctl=2
# timeout: 180
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest (run-suite gives it with -x)"
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -ge 7 ] || fail "need 7 disks, have: $*"
XFS=$1 PT=$2 PV=$3 MD1=$4 MD2=$5 CLEAN=$6 CLEAN2=$7
MIB2=2097152

# ends DISK: sha256 of its first and of its last 2 MiB.
ends() {
	_sz=$(bds_size "$1")
	echo "$(bds_read "$1" 0 $MIB2 | sha256sum | cut -d' ' -f1)" \
		"$(bds_read "$1" $((_sz - MIB2)) $MIB2 | sha256sum | cut -d' ' -f1)"
}

# names DISK: the names bdsadm may give it: as given, and /dev/<kernel name>.
names() { echo "$1 /dev/$(bds_dev "$1")"; }

# said_of FILE DISK TEXT: a line of FILE names DISK (either name) and TEXT.
said_of() {
	for _n in $(names "$2"); do
		grep -F -- "$_n" "$1" | grep -F -- "$3" >/dev/null && return 0
	done
	return 1
}

# refused DESC TEXT DISK: bdsadm create of a volume "new" over DISK and
# CLEAN fails as it should, saying TEXT of DISK, and changes nothing.
refused() {
	_d=$3
	_b1=$(ends "$_d")
	_b2=$(ends "$CLEAN")
	log "+ bdsadm create new --chunk 64K $_d $CLEAN ($1)"
	bdsadm create new --chunk 64K "$_d" "$CLEAN" >/tmp/out 2>&1
	_rc=$?
	cat /tmp/out
	expect_eq "$_rc" 1 "$1: bdsadm create exit status"
	check "$1: the message names $_d and '$2'" said_of /tmp/out "$_d" "$2"
	check "$1: nothing is said to be on the clean disk" \
		sh -c "! grep -E ' ($CLEAN|/dev/$(bds_dev "$CLEAN")) holds' /tmp/out >/dev/null"
	expect_eq "$(dmsetup ls 2>&1)" "No devices found" "$1: no dm device"
	expect_eq "$(ends "$_d")" "$_b1" "$1: $_d unchanged (first and last 2 MiB)"
	expect_eq "$(ends "$CLEAN")" "$_b2" "$1: the clean disk unchanged"
}

# Without the module, as on a kernel DKMS has not built it for: create
# refuses, says so with what to do, and erases the labels it wrote.
bdsadm create nomod --chunk 64K "$CLEAN" "$CLEAN2" >/tmp/nomod 2>&1
expect_eq "$?" 1 "create without the module: exit status"
cat /tmp/nomod
check "... says the module is not built for the running kernel" \
	grep -qF "the module dm-bds-stripe is not built for the running kernel $(uname -r)" /tmp/nomod
check "... and what to do (dkms)" grep -qF "then 'dkms autoinstall'" /tmp/nomod
check "... and erased the labels again" sh -c "! bdsadm examine $CLEAN >/dev/null 2>&1"
expect_eq "$(dmsetup ls 2>&1)" "No devices found" "create without the module: no dm device"
bds_load_module

# --- the signatures ----------------------------------------------------------
run mkfs.xfs -q -f "$XFS"
echo ',,83' | sfdisk -q --label dos "$PT" >/tmp/sfdisk.out 2>&1 ||
	{ cat /tmp/sfdisk.out; fail "sfdisk"; }
run pvcreate -q "$PV"
run mdadm --create /dev/md0 --level=0 --raid-devices=2 --metadata=1.2 --run \
	"$MD1" "$MD2"
run mdadm --stop /dev/md0
for d in "$XFS" "$PT" "$PV" "$MD1" "$CLEAN"; do
	log "$d ($(bds_dev "$d")): $(blkid -p -o export "$d" 2>&1 | tr '\n' ' ')"
done
expect_eq "$(blkid -p -s TYPE -o value "$CLEAN")" "" "the clean disk holds no signature"

# --- each refused --------------------------------------------------------------
refused "XFS" xfs "$XFS"
refused "partition table" "partition table" "$PT"
# The table without its partition (no sdX1 to be in use): the signature.
run sfdisk -q --delete "$PT"
refused "empty partition table" "partition table (dos)" "$PT"
refused "LVM PV" LVM2_member "$PV"
refused "md superblock" linux_raid_member "$MD1"

# --- --force over the XFS disk -----------------------------------------------------
log "+ bdsadm create vol --chunk 64K --force $XFS $CLEAN"
bdsadm create vol --chunk 64K --force "$XFS" "$CLEAN" >/tmp/out 2>&1
rc=$?
cat /tmp/out
expect_eq "$rc" 0 "--force: bdsadm create exit status"
check "--force: /dev/mapper/vol exists" [ -b /dev/mapper/vol ]
log "table: $(dmsetup table vol 2>&1)"
check "--force: the table names its volume" \
	sh -c "dmsetup table vol | grep -E ' 2 volume [0-9a-f-]{36}\$' >/dev/null"
expect_eq "$(blkid -p -s TYPE -o value "$XFS")" "" "--force: the XFS signature is gone"
check "--force: $XFS carries a label" bdsadm examine "$XFS"
check "--force: $CLEAN carries a label" bdsadm examine "$CLEAN"
run bdsadm stop vol
check "bdsadm stop removed /dev/mapper/vol" [ ! -e /dev/mapper/vol ]
expect_eq "$(dmsetup ls 2>&1)" "No devices found" "no dm device after bdsadm stop"

# --- a member of another volume ---------------------------------------------------
# $CLEAN is now a member of vol (stopped): a volume "new" over it and a
# disk still clean is refused.
CLEAN_WAS=$CLEAN
CLEAN=$CLEAN2
refused "bds label" "bds-stripe member" "$CLEAN_WAS"

bds_expect_clean "$@"
pass
