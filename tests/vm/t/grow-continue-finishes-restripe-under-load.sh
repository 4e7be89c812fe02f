#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm grow --continue carries a volume's restripe to its end while fio
# writes and verifies through it, pauses on SIGINT where the labels say,
# and leaves a volume of the new geometry and length that assembles
# again.  Three 512 MiB disks on two controllers carry the labels of a
# volume "grower" growing from 2 members (A, B) to 3 (A, B; C), 64 KiB
# unit (bds-mklabels --old-members 2), at checkpoint C = U - 1024 (U the
# old length in units): 64 MiB are left to copy.  Then:
#  - bdsadm assemble brings it up mid-restripe; 32 MiB of random data R1
#    go to units C .. C+511;
#  - "grow --continue --rate 4" is interrupted (SIGINT) once the target's
#    checkpoint has passed C: it exits 0 saying it paused, nothing is held
#    ("reshape status": hold = checkpoint, held 0), the checkpoint is
#    below the end, and detail (and --json) shows the restripe there,
#    idle;
#  - "grow --continue --rate 4" runs again while fio writes 16 MiB of
#    units C+512 .. C+767 at random (64 KiB, 16 a second: the copy passes
#    them meanwhile), and finishes: exit 0, "done";
#  - fio verifies all it wrote; R1 reads back through the volume, and
#    every 8th unit of R1 lies where the new geometry puts it on the
#    members (an independent model in shell arithmetic);
#  - the table has no "reshape", the volume is the new length,
#    optimal_io_size is 3 units;
#  - after bdsadm stop and assemble the same table comes back (the
#    labels are plain), R1 reads back, and "grow --continue" says there
#    is nothing to resume (exit 0).
#
# topology: size=512M ctl=2 ctl=2
# timeout: 600
# exec: bds-mklabels
# check-kernels: 6.1 7.2

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2034,SC2154
. /bds/guest-lib.sh

command -v bds-mklabels >/dev/null || fail "bds-mklabels not in the guest (# exec: header)"
bds_load_module
A=/dev/bds/c0d0 B=/dev/bds/c0d1 C=/dev/bds/c1d0
for d in $A $B $C; do
	[ -b "$d" ] || fail "need 2 + 2 disks: no $d"
done
MEM_0=$A MEM_1=$B MEM_2=$C
U=50515253-5455-4657-9859-5a5b5c5d5e5f
VOL=grower
DMV=/dev/mapper/$VOL
CHUNK=128                       # sectors
CB=$((CHUNK * 512))             # bytes of a stripe unit
R1=/tmp/grow.r1

# msg WORDS...: send a message to the volume.
msg() { dmsetup message $VOL 0 "$@"; }

# ckpt_of: the target's checkpoint ("reshape status").
ckpt_of() { msg reshape status | awk '{ print $2 }'; }

# place_md5 G K: md5 of unit K's place in geometry G, from its member.
place_md5() { bds_rs_place_md5 "$1" "$2" $CHUNK; }

# The geometry (at checkpoint 0), then the labels at checkpoint CK.
bds_restripe_labels $U $CHUNK 0 "$A" "$B" "$C"
UNITS=$((RS_OLDLEN / CHUNK))
CK=$((UNITS - 1024))
bds-mklabels --name $VOL --old-members 2 --ckpt $CK $U $CHUNK interleave 2,1 \
	"$A" "$B" "$C" >/dev/null || fail "bds-mklabels (checkpoint $CK) failed"
log "old length $UNITS units, checkpoint $CK, new length $((RS_NEWLEN / CHUNK)) units"

run bdsadm assemble $VOL
check "assembled mid-restripe" sh -c "dmsetup table $VOL | grep ' reshape forward $CK ' >/dev/null"
dd if=/dev/urandom of=$R1 bs=$CB count=512 status=none || fail "cannot make test data"
run dd if=$R1 of=$DMV bs=$CB seek=$CK oflag=direct conv=fsync status=none

# --- a pause -------------------------------------------------------------------------

bdsadm grow --continue $VOL --rate 4 >/tmp/grow1.out 2>&1 &
GROW=$!
end=$(($(bds_uptime) + $(bds_scaled 60)))
while [ "$(ckpt_of)" -le $CK ]; do
	[ "$(bds_uptime)" -lt "$end" ] || fail "the checkpoint never passed $CK"
	kill -0 $GROW 2>/dev/null || break
	sleep 0.2
done
kill -INT $GROW
wait $GROW
rc=$?
cat /tmp/grow1.out
expect_eq "$rc" 0 "grow --continue exits 0 when paused"
check "it says it paused" grep -qF "bdsadm: grow $VOL: paused at stripe unit" /tmp/grow1.out
STATUS=$(msg reshape status)
P=$(ckpt_of)
expect_eq "$STATUS" "checkpoint $P hold $P held 0" "nothing held after the pause"
check "paused between $CK and the end ($P)" sh -c "[ $P -gt $CK ] && [ $P -lt $UNITS ]"
bdsadm detail $VOL >/tmp/detail.out 2>&1 || fail "bdsadm detail failed"
check "detail shows the restripe, idle, at $P" \
	grep -qE "Restripe : forward, at stripe unit $P of $UNITS \(.*\), idle" /tmp/detail.out
bdsadm detail --json $VOL >/tmp/detail.json 2>&1 || fail "bdsadm detail --json failed"
check "detail --json gives the restripe" grep -qF \
	"\"restripe\": {\"state\": \"idle\", \"direction\": \"forward\", \"checkpoint_units\": $P, \"total_units\": $UNITS, \"done_units\": $P, \"held_bios\": 0}" \
	/tmp/detail.json
bds_json_log detail /tmp/detail.json

# --- to the end, under fio ------------------------------------------------------------

fio --filename=$DMV --ioengine=libaio --iodepth=2 --direct=1 \
	--verify=crc32c --do_verify=1 --verify_fatal=1 --verify_dump=0 \
	--output-format=terse --terse-version=3 \
	--name=g --rw=randwrite --bs=64k --rate_iops=16 \
	--offset=$(((CK + 512) * CB)) --size=16m >/tmp/fio.out 2>&1 &
FIO=$!
bdsadm grow --continue $VOL --rate 4 >/tmp/grow2.out 2>&1
rc=$?
cat /tmp/grow2.out
expect_eq "$rc" 0 "grow --continue exit status"
check "it says it is done" grep -qF "bdsadm: grow $VOL: done:" /tmp/grow2.out
check "it gives the xfs_growfs step" grep -qF "xfs_growfs" /tmp/grow2.out
wait $FIO
rc=$?
bds_expect_fio_verified /tmp/fio.out "$rc" g

check "the table has no restripe any more" sh -c "! dmsetup table $VOL | grep reshape >/dev/null"
bdsadm detail --json $VOL >/tmp/detail.json 2>&1 || fail "bdsadm detail --json failed"
check "detail --json: no restripe" grep -qF '"restripe": null' /tmp/detail.json
expect_eq "$(bds_sectors $DMV)" "$RS_NEWLEN" "the volume has the new length"
expect_eq "$(bds_queue $DMV optimal_io_size)" $((3 * CB)) "optimal_io_size is the new width"
expect_eq "$(bds_md5 $DMV $((CK * CB)) $((512 * CB)))" "$(md5sum <$R1 | cut -d' ' -f1)" \
	"R1 reads back through the volume"
k=0
while [ $k -lt 512 ]; do
	expect_eq "$(place_md5 NEW $((CK + k)))" "$(bds_unit_md5 $R1 $k $CB)" \
		"unit $((CK + k)) where the new geometry puts it"
	k=$((k + 8))
done

# --- the labels say the same -----------------------------------------------------------

TABLE=$(dmsetup table $VOL)
run bdsadm stop $VOL
run bdsadm assemble $VOL
expect_eq "$(dmsetup table $VOL)" "$TABLE" "assemble gives the same table"
expect_eq "$(bds_md5 $DMV $((CK * CB)) $((512 * CB)))" "$(md5sum <$R1 | cut -d' ' -f1)" \
	"R1 reads back after assemble"
bdsadm grow --continue $VOL >/tmp/grow3.out 2>&1
rc=$?
cat /tmp/grow3.out
expect_eq "$rc" 0 "grow --continue of a volume not mid-restripe"
check "nothing to resume" grep -qF "not mid-restripe; nothing to resume" /tmp/grow3.out
run bdsadm stop $VOL
bds_expect_clean "$A" "$B" "$C"
pass
