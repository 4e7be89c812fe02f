#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm replace moves a member to another disk while the volume is in
# use, through the kernel's mirror target, and the data is intact.  Four
# 512 MiB disks on two controllers: a 1+2 volume over L, A and B (L, a
# linear mapping over disk C so that it can be made to fail, is a group
# of its own), D spare.
#  - refused, with nothing changed (same table, no mirror, D unlabelled):
#    D held by another mapping (in use); a mapping of 256 MiB of D (too
#    small); D holding XFS (without --force); a NEW that is a member;
#  - a read error on OLD mid-copy (an error window in L's data area):
#    the replace stops, says the copy failed, lists the unreadable range
#    (as bdsadm check does), and the volume stays on L; a slow fio
#    write+verify job beyond the copy's reach (the mirror holds its
#    writes back once OLD failed) goes on and verifies;
#  - under a fio write+verify job, replace L by D: fio verifies all it
#    wrote, the table has D as member 2 with "volume <uuid>", the labels
#    of A B D are generation 2 (both copies), L carries no label; stopped
#    and assembled again (--scan) the volume is on D, and a second fio
#    pass verifies the data written during the replace.
# Each refusal and the failed copy leave the module and disks clean.
#
# topology: size=512M ctl=2 ctl=2
# kernels: 6.1 7.2
# check-kernels: 6.1
# timeout: 400

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
modprobe dm-mirror 2>/dev/null || true
bds_four_disks
S=$(bds_sectors "$C")
bds_dm_create L "0 $S linear $(bds_majmin "$C") 0"
run bdsadm create vol --chunk 64K "$A" "$B" /dev/mapper/L
T0=$(dmsetup table vol)
log "volume: $T0"

# unchanged DESC: the table, no mirror, D without a label
unchanged() {
	expect_eq "$(dmsetup table vol)" "$T0" "$1: the table is unchanged"
	check "$1: no mirror left" sh -c '! dmsetup info vol-replace >/dev/null 2>&1'
	check "$1: D carries no label" sh -c "! bdsadm examine $D >/dev/null 2>&1"
}
# refused DESC TEXT ARGS...: bdsadm replace ARGS exits 1 saying TEXT
refused() {
	_d=$1 _t=$2
	shift 2
	if bdsadm replace "$@" >/tmp/out 2>/tmp/err; then
		check "$_d: refused" false
	fi
	log "$_d: $(cat /tmp/err)"
	check "$_d: says '$_t'" grep -qF -- "$_t" /tmp/err
	unchanged "$_d"
}

# --- refusals ---------------------------------------------------------------------
bds_dm_create hold "0 2048 linear $(bds_majmin "$D") 0"
refused "NEW in use" "in use" vol /dev/mapper/L "$D"
bds_dm_remove hold
bds_dm_create small "0 524288 linear $(bds_majmin "$D") 0"
refused "NEW too small" "is too small" vol /dev/mapper/L /dev/mapper/small
bds_dm_remove small
refused "NEW a member" "of the volume already" vol /dev/mapper/L "$A"
run mkfs.xfs -q -f "$D"
refused "NEW holds XFS" "holds a filesystem (xfs)" vol /dev/mapper/L "$D"
run wipefs -q -a "$D"
refused "OLD not a member" "is not one of its members" vol "$D" "$B"

# --- a read error on OLD mid-copy -----------------------------------------------------------
# L with sectors 400000..400063 unreadable (inside member 2's data area)
bds_dm_switch L "0 400000 linear $(bds_majmin "$C") 0
400000 64 error
400064 $((S - 400064)) linear $(bds_majmin "$C") 400064"
# meanwhile fio writes, slowly, where the mirror has not copied yet when
# it meets the error (volume 750..814 MiB, for 16 s: ~250 MiB into each member):
# the mirror holds such writes back once OLD failed, and they must reach
# OLD when the volume goes back on it
far() {
	echo "--name=far --filename=/dev/mapper/vol --direct=1 --ioengine=psync"
	echo "--rw=randwrite --bs=64k --offset=750m --size=64m --rate=4m"
	echo "--verify=crc32c --verify_fatal=1 --randseed=99"
	echo "--output-format=terse --terse-version=3"
}
# shellcheck disable=SC2046
fio $(far) --do_verify=1 >/tmp/fio0.out 2>&1 &
FIO=$!
sleep 1
if bdsadm replace vol /dev/mapper/L "$D" >/tmp/out 2>/tmp/err; then
	check "read error on OLD: the replace fails" false
fi
cat /tmp/out /tmp/err
wait $FIO
rc=$?
bds_expect_fio_verified /tmp/fio0.out "$rc" far
check "read error on OLD: says the copy failed and the volume stays" \
	grep -qF "the copy failed (mirror health" /tmp/err
check "... and OLD could not be read" grep -qF "OLD could not be read" /tmp/err
check "... and lists the unreadable range of OLD (check)" \
	grep -qE "unreadable: member 0 \(.*device sectors 400000-400063 \(64 sectors\)" /tmp/out
unchanged "read error on OLD"
bds_dm_switch L "0 $S linear $(bds_majmin "$C") 0"

# --- the replace under load --------------------------------------------------------------------
job() {
	echo "--name=w --filename=/dev/mapper/vol --direct=1 --ioengine=psync"
	echo "--rw=randwrite --bs=64k --size=400m --verify=crc32c"
	echo "--verify_fatal=1 --randseed=4242 --output-format=terse --terse-version=3"
}
# shellcheck disable=SC2046
fio $(job) --do_verify=1 >/tmp/fio1.out 2>&1 &
FIO=$!
sleep 1
bds_mark replace
run bdsadm replace vol /dev/mapper/L "$D"
check "fio still running at the end of the replace (it overlapped)" kill -0 $FIO
wait $FIO
rc=$?
bds_expect_fio_verified /tmp/fio1.out "$rc" w
T1=$(dmsetup table vol)
log "after: $T1"
check "D took L's place, at its data offset" sh -c "echo '$T1' | grep -F ' 1 $(bds_majmin "$D") 2048 2 ' >/dev/null"
check "... and the table names the volume" sh -c "echo '$T1' | grep ' 2 volume [0-9a-f-]*\$' >/dev/null"
check "no mirror left" sh -c '! dmsetup info vol-replace >/dev/null 2>&1'
expect_eq "$(bds_gen_of "$A")$(bds_gen_of "$B")$(bds_gen_of "$D")" 222 "A, B and D carry generation 2"
bdsadm examine "$A" >/tmp/ex.txt
check "A's backup copy is generation 2 too" grep -q "Backup copy : valid at sector [0-9]*, generation 2" /tmp/ex.txt
check "L (OLD) carries no label" sh -c '! bdsadm examine /dev/mapper/L >/dev/null 2>&1'
run bdsadm stop vol
bds_dm_remove L
run bdsadm assemble --scan
expect_eq "$(dmsetup table vol)" "$T1" "assembled again: the same table, on D"
# shellcheck disable=SC2046
fio $(job) --verify_only >/tmp/fio2.out 2>&1
rc=$?
cat /tmp/fio2.out
expect_eq "$rc" 0 "fio --verify_only after assembly"
check "no verify error after assembly" sh -c "! grep -Eiq 'bad magic|mismatch|crc' /tmp/fio2.out"
bds_replaced_end
pass
