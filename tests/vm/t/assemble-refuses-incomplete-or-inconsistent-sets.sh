#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm assemble never builds a volume from a partial or inconsistent
# member set.  Four disks (A B C D) on two controllers; for each case the
# labels are made so (bdsadm create, or the bds-mklabels fixture for
# states create cannot make), and "bdsadm assemble NAME" must exit 1 with
# the message that names the volume and the member and says why, create
# no dm device and leave no holder:
#  - missing: member 2's disk wiped (bdsadm wipe);
#  - duplicate: member 2's labels cloned onto D (a cloned disk);
#  - stale: members 0 and 2 at generation 2, member 1 at generation 1
#    (named as a stale copy of that member: its disk is missing);
#  - disagreeing: member 1 of the same generation with another stripe unit;
#  - name clash: two volumes of one name (bdsadm list says neither
#    assembles by name); --uuid then assembles one;
#  - shrunk: member 2 seen through a linear mapping of half its size (the
#    disk itself, held by the mapping, is not read twice).
# Then a member whose primary copy is zeroed: the volume assembles from
# its backup copy, and bdsadm says which member and copy; --scan with
# nothing complete exits 1.  Last, assemble waits while another process
# holds the assembly lock (/run/bds-stripe/lock, as incremental does) and
# assembles once it is free.
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
S=$(bds_sectors "$C")
BK=$((S / 8 * 8 - 16))
U1=21111111-1415-4617-9819-1a1b1c1d1e1f
U2=22222222-1415-4617-9819-1a1b1c1d1e1f
U3=23333333-1415-4617-9819-1a1b1c1d1e1f
U4=24444444-1415-4617-9819-1a1b1c1d1e1f

# zero_labels DEV...: both copies gone (not bdsadm wipe: also for junk)
zero_labels() {
	for _d in "$@"; do
		dd if=/dev/zero of="$_d" bs=512 seek=8 count=16 conv=notrunc status=none
		dd if=/dev/zero of="$_d" bs=512 seek="$BK" count=16 conv=notrunc status=none
	done
	sync
}

# refused DESC NAME TEXT...: bdsadm assemble NAME exits 1, its message has
# every TEXT, nothing is created and no disk is held.
refused() {
	_desc=$1 _name=$2
	shift 2
	if bdsadm assemble "$_name" >/tmp/out 2>/tmp/err; then
		check "$_desc: refused" false
		bdsadm stop "$_name"
		return
	fi
	log "$_desc: $(cat /tmp/err)"
	for _t in "$@"; do
		check "$_desc: says '$_t'" grep -qF -- "$_t" /tmp/err
	done
	expect_eq "$(dmsetup ls 2>&1)" "No devices found" "$_desc: no dm device created"
	expect_eq "$(bds_holders "$A")$(bds_holders "$B")$(bds_holders "$C")$(bds_holders "$D")" "" \
		"$_desc: no disk held"
}

# --- missing -------------------------------------------------------------------
run bdsadm create vol --chunk 64K "$A" "$B" "$C"
VU=$(bdsadm examine --export "$A" | sed -n 's/^BDS_VOLUME_UUID=//p')
run bdsadm stop vol
run bdsadm wipe "$C"
refused "missing" vol "volume vol ($VU)" "member 2 (UUID" "serial bds-c1d0 at creation" \
	"controller host1" "is missing (1 of 3 members missing)" "not assembling a partial volume"
if bdsadm assemble --scan >/tmp/out 2>/tmp/err; then
	check "--scan with only an incomplete volume: exit 1" false
fi
check "--scan says the same" grep -qF "is missing (1 of 3 members missing)" /tmp/err

# --- duplicate: member 2's labels on two disks -------------------------------------
run bdsadm wipe "$A" "$B"
run bdsadm create vol --chunk 64K "$A" "$B" "$C"
VU=$(bdsadm examine --export "$A" | sed -n 's/^BDS_VOLUME_UUID=//p')
run bdsadm stop vol
dd if="$C" of="$D" bs=512 skip=8 seek=8 count=16 conv=notrunc status=none
dd if="$C" of="$D" bs=512 skip="$BK" seek="$BK" count=16 conv=notrunc status=none
sync
refused "duplicate" vol "volume vol ($VU)" "member 2 (UUID" "is claimed by both" \
	"a cloned disk?" "bdsadm wipe"
zero_labels "$A" "$B" "$C" "$D"

# --- stale: member 1 one generation behind ------------------------------------------
bds-mklabels --name svol "$U1" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
bds-mklabels --name svol --gen 2 --only 0 "$U1" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
bds-mklabels --name svol --gen 2 --only 2 "$U1" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
refused "stale" svol "volume svol ($U1)" "member 1 (UUID" "serial BDSTEST-1 at creation" \
	"carries that member only at generation 1, older than the volume's 2"

# --- disagreeing: same generation, another stripe unit --------------------------------
bds-mklabels --name svol "$U1" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
bds-mklabels --name svol --only 1 "$U1" 256 interleave 2,1 "$A" "$B" "$C" >/dev/null
refused "disagreeing" svol "volume svol ($U1)" "disagree on" "at generation 1" "bdsadm examine"
zero_labels "$A" "$B" "$C"

# --- name clash: two volumes called "same" --------------------------------------------
bds-mklabels --name same "$U2" 128 interleave 2 "$A" "$B" >/dev/null
bds-mklabels --name same "$U3" 128 interleave 2 "$C" "$D" >/dev/null
refused "name clash" same "volume name same is carried by two volumes" "$U2" "$U3" \
	"bdsadm assemble --uuid"
bdsadm list >/tmp/list.txt 2>&1
cat /tmp/list.txt
check "name clash: list says assemble by name refuses both" \
	grep -qF "'bdsadm assemble same' refuses both: assemble this one with 'bdsadm assemble --uuid $U2'" /tmp/list.txt
check "name clash: ... for the other one too" \
	grep -qF "assemble this one with 'bdsadm assemble --uuid $U3'" /tmp/list.txt
run bdsadm assemble --uuid "$U3"
check "--uuid assembles one of them" sh -c "dmsetup table same | grep 'volume $U3\$' >/dev/null"
run bdsadm stop same
zero_labels "$A" "$B" "$C" "$D"

# --- shrunk: member 2 through a mapping of half its size -----------------------------------
bds-mklabels --name shvol "$U4" 128 interleave 2,1 "$A" "$B" "$C" >/dev/null
echo "0 $((S / 2)) linear $C 0" | dmsetup create short
bds_mark shrunk
if bdsadm assemble shvol >/tmp/out 2>/tmp/err; then
	check "shrunk: refused" false
	bdsadm stop shvol
fi
log "shrunk: $(cat /tmp/err)"
check "shrunk: says the member is smaller than its data area" \
	grep -qF "member 2 (UUID" /tmp/err
check "shrunk: ... on the mapping, not the disk under it" \
	grep -qF "on /dev/dm-" /tmp/err
check "shrunk: ... why" grep -qF "is smaller than its data area" /tmp/err
check "shrunk: no volume" sh -c '! dmsetup info shvol >/dev/null 2>&1'
bds_dm_remove short

# --- the backup copy stands in for a damaged primary ---------------------------------------
dd if=/dev/zero of="$C" bs=512 seek=8 count=16 conv=notrunc status=none
sync
run bdsadm assemble shvol 2>/tmp/err
cat /tmp/err
check "backup used: assembled" sh -c "dmsetup table shvol | grep 'volume $U4\$' >/dev/null"
check "backup used: bdsadm says which member and copy" \
	grep -qE "volume shvol: member 2 \(/dev/[a-z]+\): its primary label copy is damaged, its backup copy \(sector $BK\) was used" /tmp/err
run bdsadm stop shvol

# --- assemble waits for the assembly lock ------------------------------------------------------
# the lock incremental holds (udev): while another process has it, assemble
# does not create the volume, and creates it once the lock is free
# (the subshell's fd 9 holds the lock, and becomes the sleep: killing it
# frees the lock)
mkdir -p /run/bds-stripe
rm -f /tmp/locked
(
	exec 9>/run/bds-stripe/lock
	flock 9
	: >/tmp/locked
	exec sleep 600
) &
HOLDER=$!
# assemble starts once the holder has the lock (however long that takes)
while [ ! -e /tmp/locked ] && kill -0 $HOLDER 2>/dev/null; do
	sleep 0.1
done
check "locked: the holder has the lock" test -e /tmp/locked
bdsadm assemble shvol >/tmp/out 2>/tmp/err &
ASM=$!
sleep 2
check "locked: assemble is still waiting" kill -0 $ASM
check "locked: no volume yet" sh -c '! dmsetup info shvol >/dev/null 2>&1'
kill $HOLDER
wait $HOLDER 2>/dev/null || true
wait $ASM
expect_eq "$?" 0 "unlocked: assemble exits 0"
check "unlocked: the volume is there" sh -c "dmsetup table shvol | grep 'volume $U4\$' >/dev/null"
run bdsadm stop shvol

zero_labels "$A" "$B" "$C" "$D"
bds_expect_clean "$A" "$B" "$C" "$D"
pass
