#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A disk whose labels were made to look like a volume's (the fixture
# bds-mklabels writes them) never takes that volume, nor its name, nor a
# dm-crypt mapping's name.  A volume "vol" over A B C; on D in turn:
#  - a label with vol's UUID, generation 2^64-1, one member: assemble
#    refuses both sets (a newer generation with fewer members), names
#    them and how to choose, writes no label; the real set assembles by
#    --uuid and --generation, and its data reads back;
#  - a one-member volume named cryptroot, a name /etc/crypttab lists:
#    assemble --scan assembles vol and refuses cryptroot, naming the
#    crypttab; under another name (--dm-name) it assembles;
#  - a one-member volume of another UUID named vol: a scan assembles
#    neither of the two vols; --uuid assembles the real one.
#
# topology: ctl=2 ctl=2
# timeout: 300
# exec: bds-mklabels
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bds-mklabels >/dev/null || fail "bds-mklabels not in the guest (# exec: header)"
bds_load_module
bds_four_disks
BK=$(( $(bds_sectors "$A") / 8 * 8 - 16 ))
labels_sum() {
	for _d in "$@"; do
		dd if="$_d" bs=512 skip=8 count=16 status=none
		dd if="$_d" bs=512 skip="$BK" count=16 status=none
	done | md5sum
}

run bdsadm create vol --chunk 64K "$A" "$B" "$C"
UUID=$(bdsadm examine --export "$A" | sed -n 's/^BDS_VOLUME_UUID=//p')
head -c 1048576 /dev/urandom >/tmp/data
run bds_write /dev/mapper/vol 0 /tmp/data
run bdsadm stop vol

# --- the volume's UUID, generation 2^64-1, one member ------------------------
run bds-mklabels --gen 18446744073709551615 --name vol "$UUID" 128 interleave 1 "$D"
SUM=$(labels_sum "$A" "$B" "$C" "$D")
if bdsadm assemble vol 2>/tmp/err; then
	check "forged newest: refused" false
	bdsadm stop vol
fi
cat /tmp/err
check "forged newest: both sets named, neither assembled" \
	grep -qF "the newest generation 18446744073709551615 (on /dev/$(bds_dev "$D")) has 1 members, but" /tmp/err
check "forged newest: how to choose" grep -qF "bdsadm assemble --uuid $UUID --generation G" /tmp/err
if bdsadm assemble --scan 2>/tmp/err; then
	check "forged newest: a scan refuses too" false
fi
expect_eq "$(labels_sum "$A" "$B" "$C" "$D")" "$SUM" "forged newest: not a label written"
expect_eq "$(dmsetup ls 2>&1)" "No devices found" "forged newest: no dm device"
run bdsadm assemble --uuid "$UUID" --generation 1
expect_eq "$(dmsetup table vol | tr ' ' '\n' | grep -c ':')" 3 "the real set: 3 members"
bds_read /dev/mapper/vol 0 1048576 >/tmp/back
check "the real set: its data reads back" cmp -s /tmp/data /tmp/back
run bdsadm stop vol

# --- a volume named as a dm-crypt mapping -------------------------------------
echo "cryptroot UUID=0f0e0d0c-0b0a-4909-8807-060504030201 none luks" >/etc/crypttab
run bds-mklabels --name cryptroot 41111111-1415-4617-9819-1a1b1c1d1e1f 128 interleave 1 "$D"
if bdsadm assemble --scan 2>/tmp/err; then
	check "cryptroot: the scan fails for it" false
fi
cat /tmp/err
check "cryptroot: refused, naming the crypttab" \
	grep -qF "cryptroot is the name of a dm-crypt mapping in /etc/crypttab" /tmp/err
check "cryptroot: no /dev/mapper/cryptroot" sh -c '! dmsetup info cryptroot >/dev/null 2>&1'
check "cryptroot: vol assembled beside it" dmsetup info vol
run bdsadm stop vol
run bdsadm assemble cryptroot --dm-name notcrypt
check "cryptroot: under another name it assembles" dmsetup info notcrypt
run bdsadm stop notcrypt
rm -f /etc/crypttab

# --- another volume of the same name ----------------------------------------------
run bds-mklabels --name vol 51111111-1415-4617-9819-1a1b1c1d1e1f 128 interleave 1 "$D"
if bdsadm assemble --scan 2>/tmp/err; then
	check "two vols: the scan fails for them" false
fi
cat /tmp/err
check "two vols: the clash said" grep -qF "carries the same name; a scan assembles neither" /tmp/err
expect_eq "$(dmsetup ls 2>&1)" "No devices found" "two vols: neither assembled"
run bdsadm assemble --uuid "$UUID"
expect_eq "$(dmsetup table vol | tr ' ' '\n' | grep -c ':')" 3 "two vols: the real one by --uuid"
run bdsadm stop vol

for d in "$A" "$B" "$C" "$D"; do
	bdsadm wipe "$d" >/dev/null 2>&1 || true
done
bds_expect_clean "$A" "$B" "$C" "$D"
pass
