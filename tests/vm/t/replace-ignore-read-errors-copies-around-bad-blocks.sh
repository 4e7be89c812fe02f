#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm replace --ignore-read-errors moves a member whose disk cannot
# read some blocks: everything else arrives on NEW, the unreadable blocks
# are zeros there, and the replace says which ranges were lost.
#
# Four 512 MiB disks on two controllers: a 1+2 volume over A, B and L (L
# a linear mapping over disk C, so that 64 of its sectors can be made
# unreadable, far beyond what fio touches), D spare.  Member L's data
# area past 400 MiB is filled with random data first (so zeros on D
# show), then sectors 900000..900063 of L, and the 8 sectors 16 before
# the end of its data (in the last mirror region, shorter than the
# others), are switched to the error target.
#  - without the option the replace fails, as replace-moves-member-under-
#    load proves, and says to run it again with --ignore-read-errors;
#  - with it, under a fio write+verify job on the first 300 MiB of the
#    volume, the replace ends (exit 0) on D: it lists device sectors
#    900000-900063 of L and the last window as unreadable and says 72
#    sectors were read as zeros;
#  - D's data area equals C's byte for byte (from 400 MiB on, past
#    what fio wrote), except those 72 sectors,
#    which are zeros on D (the rest of their mirror regions was copied
#    by bdsadm itself, with the volume suspended); fio verifies;
#  - the table has D in L's place with "volume <uuid>", L carries no
#    label, and stopped and assembled again the volume is on D, where fio
#    verifies again.
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
BAD=900000 NBAD=64
F=819200			# 400 MiB of the data area: past what fio writes
bds_dm_create L "0 $S linear $(bds_majmin "$C") 0"
run bdsadm create vol --chunk 64K "$A" "$B" /dev/mapper/L
T0=$(dmsetup table vol)
log "volume: $T0"
# the member's data: its sectors in the volume and L's data offset
LEN=$(( $(echo "$T0" | cut -d' ' -f2) / 3 ))
OFF=$(echo "$T0" | sed -n "s/.* $(bds_majmin /dev/mapper/L) \([0-9]*\) .*/\1/p")
[ -n "$OFF" ] || fail "no offset of L in the table"
log "member 2: $LEN sectors from sector $OFF of L"
[ $((BAD + NBAD)) -lt $((OFF + LEN)) ] || fail "the bad window is outside the data"
BAD2=$((OFF + LEN - 16)) NBAD2=8

# random data in L's data area from F on, through L (not the volume)
run dd if=/dev/urandom of=/dev/mapper/L bs=1M seek=$(((OFF + F) * 512)) \
	count=$(((LEN - F) / 2048)) iflag=fullblock oflag=direct,seek_bytes status=none
REST=$(((LEN - F) % 2048))	# and the sectors past the last whole MiB
run dd if=/dev/urandom of=/dev/mapper/L bs=512 seek=$((OFF + LEN - REST)) \
	count=$REST iflag=fullblock oflag=direct status=none

bds_dm_switch L "0 $BAD linear $(bds_majmin "$C") 0
$BAD $NBAD error
$((BAD + NBAD)) $((BAD2 - BAD - NBAD)) linear $(bds_majmin "$C") $((BAD + NBAD))
$BAD2 $NBAD2 error
$((BAD2 + NBAD2)) $((S - BAD2 - NBAD2)) linear $(bds_majmin "$C") $((BAD2 + NBAD2))"

# --- without the option: refused, with the way on -----------------------------------
if bdsadm replace vol /dev/mapper/L "$D" >/tmp/out 2>/tmp/err; then
	check "without --ignore-read-errors: the replace fails" false
fi
check "... and says to run it again with --ignore-read-errors" \
	grep -qF "run the replace again with --ignore-read-errors" /tmp/err
expect_eq "$(dmsetup table vol)" "$T0" "... and the table is unchanged"

# --- with it, under load -----------------------------------------------------------
job() {
	echo "--name=w --filename=/dev/mapper/vol --direct=1 --ioengine=psync"
	echo "--rw=randwrite --bs=64k --size=300m --verify=crc32c"
	echo "--verify_fatal=1 --randseed=77 --output-format=terse --terse-version=3"
}
# shellcheck disable=SC2046
fio $(job) --do_verify=1 >/tmp/fio1.out 2>&1 &
FIO=$!
sleep 1
rc=0
bdsadm replace --ignore-read-errors vol /dev/mapper/L "$D" >/tmp/out 2>/tmp/err || rc=$?
cat /tmp/out /tmp/err
expect_eq "$rc" 0 "replace --ignore-read-errors exits 0"
check "it lists the unreadable range of L" \
	grep -qE "unreadable: member [0-9] \(stripe position [0-9], /dev/mapper/L\), device sectors $BAD-$((BAD + NBAD - 1)) \($NBAD sectors\)" /tmp/out
check "... and the one in its last, short region" \
	grep -qE "unreadable: member [0-9] \(stripe position [0-9], /dev/mapper/L\), device sectors $BAD2-$((BAD2 + NBAD2 - 1)) \($NBAD2 sectors\)" /tmp/out
check "it says $((NBAD + NBAD2)) sectors were read as zeros and are lost" \
	grep -qF "2 unreadable ranges of /dev/mapper/L ($((NBAD + NBAD2)) sectors) read as zeros on $D: the data there is lost" /tmp/out
wait $FIO
rc=$?
bds_expect_fio_verified /tmp/fio1.out "$rc" w

T1=$(dmsetup table vol)
log "after: $T1"
NOFF=$(echo "$T1" | sed -n "s/.* $(bds_majmin "$D") \([0-9]*\) .*/\1/p")
check "D took L's place" test -n "$NOFF"
check "... and the table names the volume" sh -c "echo '$T1' | grep ' 2 volume [0-9a-f-]*\$' >/dev/null"
check "no mirror left" sh -c '! dmsetup info vol-replace >/dev/null 2>&1'
check "L (OLD) carries no label" sh -c '! bdsadm examine /dev/mapper/L >/dev/null 2>&1'

# --- the data, member against member --------------------------------------------------
# C (read directly, L's bad window aside) against D, over the member's data
# from 400 MiB on: fio's 300 MiB of the volume reach at most 100 MiB of
# each member, and what it wrote after the switch is on D alone
run bdsadm stop vol
bds_dm_remove L
# By md5 of 1 MiB reads: cmp with skip offsets reads through the skipped
# bytes a byte at a time, about 95 s per kernel under emulation.
cmp_span() { # FROM COUNT: sectors of the data area, C against D
	_c=$(bds_md5 "$C" $((OFF * 512 + $1 * 512)) $(($2 * 512)))
	_d=$(bds_md5 "$D" $((NOFF * 512 + $1 * 512)) $(($2 * 512)))
	if [ -z "$_c" ] || [ "$_c" != "$_d" ]; then
		log "sectors $1..$(($1 + $2 - 1)) of the data: C $_c, D $_d"
		return 1
	fi
}
W=$((BAD - OFF))		# the window, in data sectors
check "D equals C before the unreadable window" cmp_span $F $((W - F))
W2=$((BAD2 - OFF))
check "D equals C between the windows" cmp_span $((W + NBAD)) $((W2 - W - NBAD))
check "D equals C after the last" cmp_span $((W2 + NBAD2)) $((LEN - W2 - NBAD2))
lost() { # FROM COUNT: a window, data sectors: zeros on D, data on C
	dd if="$D" bs=512 skip=$((NOFF + $1)) count="$2" status=none | od -An -tx1 -v | tr -d ' \n' >/tmp/win
	check "the window at $1 is zeros on D" sh -c "! grep '[1-9a-f]' /tmp/win >/dev/null"
	dd if="$C" bs=512 skip=$((OFF + $1)) count="$2" status=none | od -An -tx1 -v | tr -d ' \n' >/tmp/cwin
	check "... where C holds data (it was lost, not just zero)" grep '[1-9a-f]' /tmp/cwin
}
lost "$W" "$NBAD"
lost "$W2" "$NBAD2"

run bdsadm assemble --scan
expect_eq "$(dmsetup table vol)" "$T1" "assembled again: the same table, on D"
# shellcheck disable=SC2046
fio $(job) --verify_only >/tmp/fio2.out 2>&1
rc=$?
expect_eq "$rc" 0 "fio --verify_only after assembly"
bds_replaced_end
pass
