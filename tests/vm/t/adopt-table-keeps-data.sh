#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm adopt NAME --from-table DMNAME makes an unlabelled striped or
# bds-stripe table a labelled volume in place, and refuses the tables it
# cannot take, changing nothing.
#
#  - striped over 4 disks (2 + 2), 64 KiB chunk, offset 2048: XFS and
#    files; mounted, adopt is refused ("in use"); unmounted, "adopt vol
#    --from-table st" exits 0: st is gone, vol's table has the same
#    members and offsets, layout sequential, "volume <uuid>"; sampled
#    units read through vol are the bytes at member k mod 4, offset +
#    (k div 4) units; the files have their sha256; after bdsadm stop,
#    bdsadm assemble vol brings it back from the labels, sums again;
#  - an unlabelled bds-stripe table (interleave, groups 2 + 2) adopted
#    under its own name: fio verifies through the labelled volume the
#    pattern written through the table, which keeps its groups and
#    layout (no "layout sequential");
#  - refused, nothing changed: a striped table at offset 0 (the
#    primary label's place), and an LVM striped logical volume (out of
#    scope).
#
# topology: size=256M ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest (run-suite gives it with -x)"
MNT=/mnt/vol

# refused WHAT WORD DMNAME: adopt from DMNAME exits 1 saying WORD; DMNAME stays.
refused() {
	_t=$(dmsetup table "$3")
	log "+ bdsadm adopt vol --from-table $3 ($1)"
	bdsadm adopt vol --from-table "$3" >/tmp/out 2>&1
	_rc=$?
	cat /tmp/out
	expect_eq "$_rc" 1 "$1: exit status"
	check "$1: the message says '$2'" grep -q -- "$2" /tmp/out
	check "$1: the message says nothing was changed" grep -q "nothing was changed" /tmp/out
	expect_eq "$(dmsetup table "$3")" "$_t" "$1: $3 is as it was"
	check "$1: no volume" sh -c '! dmsetup info vol >/dev/null 2>&1'
}

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
mkdir -p $MNT
# 4079 units of 64 KiB a member from sector 2048: the backup label fits
LEN=$((4 * 4079 * 128))
M=""
for d in "$@"; do
	M="$M $(bds_majmin "$d") 2048"
done

# --- striped ------------------------------------------------------------------
log "+ dmsetup create st: 0 $LEN striped 4 128$M"
echo "0 $LEN striped 4 128$M" | dmsetup create st || fail "dmsetup create st"
run mkfs.xfs -q -f /dev/mapper/st
run mount -t xfs /dev/mapper/st $MNT
for f in f1:3 f2:7 f3:12; do
	head -c $((${f#*:} << 20)) /dev/urandom >"/tmp/${f%:*}"
	run cp "/tmp/${f%:*}" "$MNT/${f%:*}"
done
refused "mounted" "in use" st
run umount $MNT
log "+ bdsadm adopt vol --from-table st"
bdsadm adopt vol --from-table st >/tmp/adopt.out 2>&1
rc=$?
cat /tmp/adopt.out
expect_eq "$rc" 0 "adopt --from-table st exit status"
check "st is gone" sh -c '! dmsetup info st >/dev/null 2>&1'
table=$(dmsetup table vol)
log "table: $table"
want="0 $LEN bds-stripe 128 2 2 $(bds_majmin "$1") 2048 $(bds_majmin "$2") 2048 2 $(bds_majmin "$3") 2048 $(bds_majmin "$4") 2048 4 layout sequential volume"
check "the table: the same members and offsets, sequential, labelled" \
	sh -c "echo '$table' | grep -E '^$want [0-9a-f-]{36}\$' >/dev/null"
for k in 0 1 2 3 7 100 16315; do
	i=$((k % 4 + 1))
	eval "m=\${$i}"
	at=$((2048 + (k / 4) * 128))
	a=$(dd if=/dev/mapper/vol bs=64K skip="$k" count=1 iflag=direct 2>/dev/null | sha256sum)
	# shellcheck disable=SC2154 # m is set by the eval
	b=$(dd if="$m" bs=512 skip=$at count=128 iflag=direct 2>/dev/null | sha256sum)
	expect_eq "$a" "$b" "unit $k is at $m sector $at"
done
sums() {
	run mount -t xfs /dev/mapper/vol $MNT
	for f in f1 f2 f3; do
		expect_eq "$(sha256sum <"$MNT/$f" | cut -d' ' -f1)" \
			"$(sha256sum <"/tmp/$f" | cut -d' ' -f1)" "$1: $f has its sha256"
	done
	run umount $MNT
}
sums "adopted"
run bdsadm stop vol
run bdsadm assemble vol
sums "assembled from the labels"
run xfs_repair -n /dev/mapper/vol
run bdsadm stop vol
for d in "$@"; do
	run bdsadm wipe "$d"
done

# --- an unlabelled bds-stripe table, adopted under its own name ------------------
M1="" M2=""
for d in "$1" "$2"; do M1="$M1 $(bds_majmin "$d") 2048"; done
for d in "$3" "$4"; do M2="$M2 $(bds_majmin "$d") 2048"; done
log "+ dmsetup create vol: 0 $LEN bds-stripe 128 2 2$M1 2$M2"
echo "0 $LEN bds-stripe 128 2 2$M1 2$M2" | dmsetup create vol || fail "dmsetup create vol"
job="--name=p --filename=/dev/mapper/vol --direct=1 --ioengine=psync --rw=write --bs=64k --size=96m --verify=crc32c --randseed=12 --output-format=terse --terse-version=3"
# shellcheck disable=SC2086
fio $job --do_verify=0 >/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio write"; }
log "+ bdsadm adopt vol --from-table vol"
bdsadm adopt vol --from-table vol >/tmp/adopt.out 2>&1
rc=$?
cat /tmp/adopt.out
expect_eq "$rc" 0 "adopt vol --from-table vol exit status"
table=$(dmsetup table vol)
log "table: $table"
check "labelled, groups 2 + 2 kept, interleave" \
	sh -c "echo '$table' | grep -E '^0 $LEN bds-stripe 128 2 2 .* 2 volume [0-9a-f-]{36}\$' >/dev/null"
# shellcheck disable=SC2086
fio $job --verify_only >/tmp/fio.out 2>&1
expect_eq "$?" 0 "fio verifies through the labelled volume the pattern written through the table"
run bdsadm stop vol
for d in "$@"; do
	run bdsadm wipe "$d"
done

# --- refusals ---------------------------------------------------------------------
M0=""
for d in "$@"; do M0="$M0 $(bds_majmin "$d") 0"; done
echo "0 $LEN striped 4 128$M0" | dmsetup create st0 || fail "dmsetup create st0"
refused "striped at offset 0" "where the primary label goes" st0
bds_dm_remove st0
# lvm's own warnings (no metadata backup here) stay out of the log
lvm_q() {
	log "+ $*"
	"$@" >/tmp/lvm.out 2>&1 || { cat /tmp/lvm.out; fail "$*"; }
}
lvm_q pvcreate -q "$1" "$2"
lvm_q vgcreate -q bdsvg "$1" "$2"
lvm_q lvcreate -q -y -i 2 -I 64k -L 64m -n lv bdsvg
refused "LVM striped LV" "LVM logical volume" bdsvg-lv
lvm_q vgremove -q -f bdsvg
lvm_q pvremove -q "$1" "$2"
bds_expect_clean "$@"
pass "striped and bds-stripe tables adopted in place; the others refused"
