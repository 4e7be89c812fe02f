#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A SCSI member that disappears while fio runs through the volume
# (`echo 1 > /sys/block/sdX/device/delete`) fails exactly the I/O that
# touches it, loudly, and nothing hangs.
#
# Volume: 64 KiB unit over 4 whole disks, groups (c0d0 c0d1) (c1d0 c1d1),
# order 0,2,1,3.  Units 0..15 hold known data; fio (libaio, iodepth 8,
# O_DIRECT, random 4 KiB reads and writes, continue_on_error=all,
# time-based) runs on the 64 MiB after them.  Three seconds into the run
# member 2 (c1d0) is deleted.  Then:
#   - fio runs to the end of its runtime (ENODEV and EIO ignored, so that
#     I/O goes on after the deletion) and ends by itself (no hang: it is
#     killed after its runtime + 60 s, and one stuck in the kernel fails
#     the test at + 70 s with a report of what it waits on), and reports
#     I/O errors (total_err > 0; the first one EIO, or ENODEV
#     for requests in flight on the dying SCSI device, BLK_STS_OFFLINE) as
#     well as completed I/O;
#   - every unit of the known region that lies on member 2 fails to read
#     and to write (an error, not a hang: each dd is bounded), every other
#     unit reads back its data, takes a write and reads that back;
#   - `dmsetup status` shows D at member 2's place in table order
#     ("AADA") and A elsewhere;
#   - a dm event was raised: `dmsetup wait` on the event number of before
#     returns, and the number went up;
#   - the volume can be removed (dmsetup remove, no retry), no remaining
#     disk has a holder, and the module unloads.
#
# topology: size=1G backing=file ctl=2 ctl=2
# timeout: 300
# memory: 1024
# check-kernels: 6.1 7.2
# boot: own

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=md
DM=/dev/mapper/$VOL
CHUNK=128			# 64 KiB
UNIT=$((CHUNK * 512))
NUNITS=16			# known units (4 stripes)
RUNTIME=12			# fio seconds
BAD=2				# member deleted (table order)

bds_load_module

# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
MEMBERS="$*"
bds_dm_create $VOL "$(bds_stripe_table $CHUNK "$1,$2" "$3,$4")"
log "status: $(dmsetup status $VOL)"
expect_eq "$(dmsetup status $VOL | cut -d' ' -f7)" "0,2,1,3" "order"
VICTIM=$(bds_dev "$3")
log "member $BAD is $3 = $VICTIM ($(cat /sys/block/"$VICTIM"/dev))"

head -c $((NUNITS * UNIT)) /dev/urandom >/tmp/data
head -c $UNIT /dev/urandom >/tmp/new
run dd if=/tmp/data of=$DM bs=$UNIT count=$NUNITS oflag=direct status=none
dd if=$DM of=/tmp/all bs=$UNIT count=$NUNITS iflag=direct status=none
check "known units read back before the failure" cmp -s /tmp/data /tmp/all
ev0=$(bds_events $VOL)

# --- fio; member 2 deleted under it -----------------------------------------------
timeout -s KILL $((RUNTIME + 60)) fio --name=load --filename=$DM --ioengine=libaio \
	--iodepth=8 --direct=1 --rw=randrw --bs=4k --offset=$((NUNITS * UNIT)) \
	--size=64m --time_based --runtime=$RUNTIME --continue_on_error=all \
	--ignore_error=EIO:ENODEV,EIO:ENODEV \
	--output-format=json >/tmp/fio.json 2>/tmp/fio.err &
FIO=$!
sleep 3
check "fio is running when the member is deleted" kill -0 $FIO
log "deleting $VICTIM under fio"
echo 1 >"/sys/block/$VICTIM/device/delete" || fail "cannot delete $VICTIM"
check "$VICTIM is gone" [ ! -e "/sys/block/$VICTIM" ]
bds_wait_bounded rc $FIO $((RUNTIME + 70)) fio
# shellcheck disable=SC2154 # rc: set by bds_wait_bounded
log "fio exit status $rc"
check "fio was not killed (no hang)" [ "$rc" != 137 ]
sed -n '/"jobs"/,/"disk_util"/p' /tmp/fio.json |
	grep -E '"(error|total_err|first_error|io_bytes|total_ios|job_runtime)"'
tail -n 5 /tmp/fio.err
terr=$(bds_fio_json /tmp/fio.json total_err)
ferr=$(bds_fio_json /tmp/fio.json first_error)
rbytes=$(bds_fio_json /tmp/fio.json io_bytes 1)
wbytes=$(bds_fio_json /tmp/fio.json io_bytes 2)
jrt=$(bds_fio_json /tmp/fio.json job_runtime)
check "fio ran its whole runtime despite the errors (${jrt}ms)" \
	[ "${jrt:-0}" -ge $(((RUNTIME - 1) * 1000)) ]
check "fio saw many I/O errors (total_err $terr)" [ "${terr:-0}" -gt 10 ]
check "fio's first error is EIO or ENODEV ($ferr)" sh -c "[ '$ferr' = 5 ] || [ '$ferr' = 19 ]"
check "fio completed reads ($rbytes bytes)" [ "${rbytes:-0}" -gt 0 ]
check "fio completed writes ($wbytes bytes)" [ "${wbytes:-0}" -gt 0 ]

# --- every known unit: member 2 fails, the others serve ------------------------------
bds_check_failed_units $DM $UNIT $NUNITS 0,2,1,3 $BAD /tmp/data /tmp/new
# A read spanning units 1 (m2) and 2 (m1) fails as a whole.
bds_bounded rc dd if=$DM of=/dev/null bs=4096 skip=$((2 * UNIT / 4096 - 1)) count=2 \
	iflag=direct status=none 2>/dev/null
check "read across units 1/2 (m2/m1) fails" [ "$rc" != 0 ]

# --- status and event -----------------------------------------------------------------
bds_expect_reported $VOL AADA "$ev0"

# --- removal ---------------------------------------------------------------------------
bds_expect_removable $VOL
# shellcheck disable=SC2086
set -- $MEMBERS
bds_expect_clean "$1" "$2" "$4"
pass "a member deleted under fio fails only its own I/O, and is reported"
