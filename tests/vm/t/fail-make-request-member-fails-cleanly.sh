#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bios that the block layer fails on one member (fail_make_request fault
# injection) fail through bds-stripe with EIO, only where they touch that
# member, and the member is reported.
#
# Needs CONFIG_FAIL_MAKE_REQUEST and CONFIG_FAULT_INJECTION_DEBUG_FS (the
# debug kernel series); skipped where /sys/kernel/debug/fail_make_request
# is absent.
#
# Volume: 64 KiB unit over 4 disks, groups (c0d0 c0d1) (c1d0 c1d1), order
# 0,2,1,3; units 0..15 hold known data.  fail_make_request is set to fail
# every bio (probability 100, interval 1, verbose 0, times FAULTS) of the
# disks marked with make-it-fail, and member 1 (c0d1) is marked.  Then:
#   - fio (libaio, iodepth 8, O_DIRECT, random 4 KiB reads and writes,
#     continue_on_error) over the 64 MiB after the known units reports
#     errors, the first of them EIO, and also completes reads and writes;
#   - every known unit on member 1 fails to read and to write, every other
#     one reads back its data and takes a write;
#   - `dmsetup status` shows D for member 1 only ("ADAA"), and a dm event
#     was raised (`dmsetup wait` returns, the event number went up);
#   - faults were injected (times went down; the count is logged);
#   - with make-it-fail cleared, member 1's units read back the data of
#     before (the failed writes did not reach the disk), and the health
#     string still shows the D;
#   - the volume is removed, nothing holds the disks, the module unloads.
#
# topology: ctl=2 ctl=2
# timeout: 240
# memory: 1536
# kernels: debug
# check-kernels: debug

# shellcheck disable=SC1091
. /bds/guest-lib.sh

FMR=/sys/kernel/debug/fail_make_request
[ -d $FMR ] || skip "no $FMR (needs CONFIG_FAIL_MAKE_REQUEST, CONFIG_FAULT_INJECTION_DEBUG_FS)"

VOL=fm
DM=/dev/mapper/$VOL
CHUNK=128
UNIT=$((CHUNK * 512))
NUNITS=16
FAULTS=1000000
BAD=1

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
DISKS="$*"
VICTIM=$(bds_dev "$2")
bds_dm_create $VOL "$(bds_stripe_table $CHUNK "$1,$2" "$3,$4")"
expect_eq "$(dmsetup status $VOL | cut -d' ' -f7)" "0,2,1,3" "order"
head -c $((NUNITS * UNIT)) /dev/urandom >/tmp/data
head -c $UNIT /dev/urandom >/tmp/new
run dd if=/tmp/data of=$DM bs=$UNIT count=$NUNITS oflag=direct status=none
ev0=$(bds_events $VOL)

# --- fail every bio of member 1 ----------------------------------------------------
# fail_make_request's settings as they were, put back at the end (a test
# may share its boot).
for f in verbose space interval times probability; do
	eval "FMR0_$f=\$(cat $FMR/$f)"
done
echo 0 >$FMR/verbose
echo 0 >$FMR/space
echo 1 >$FMR/interval
echo $FAULTS >$FMR/times
echo 100 >$FMR/probability
log "marking member $BAD ($2 = $VICTIM) make-it-fail"
echo 1 >"/sys/block/$VICTIM/make-it-fail" || fail "cannot set make-it-fail on $VICTIM"

timeout -s KILL 120 fio --name=load --filename=$DM --ioengine=libaio --iodepth=8 \
	--direct=1 --rw=randrw --bs=4k --offset=$((NUNITS * UNIT)) --size=64m \
	--number_ios=500 --continue_on_error=all --output-format=json \
	>/tmp/fio.json 2>/tmp/fio.err
rc=$?
check "fio was not killed (no hang)" [ "$rc" != 137 ]
sed -n '/"jobs"/,/"disk_util"/p' /tmp/fio.json | grep -E '"(error|total_err|first_error|io_bytes)"'
terr=$(bds_fio_json /tmp/fio.json total_err)
check "fio saw I/O errors (total_err $terr)" [ "${terr:-0}" -gt 0 ]
expect_eq "$(bds_fio_json /tmp/fio.json first_error)" 5 "fio's first error is EIO"
check "fio completed reads" [ "$(bds_fio_json /tmp/fio.json io_bytes 1)" -gt 0 ]
check "fio completed writes" [ "$(bds_fio_json /tmp/fio.json io_bytes 2)" -gt 0 ]

bds_check_failed_units $DM $UNIT $NUNITS 0,2,1,3 $BAD /tmp/data /tmp/new

bds_expect_reported $VOL ADAA "$ev0"
left=$(cat $FMR/times)
log "fail_make_request: $((FAULTS - left)) faults injected"
check "faults were injected ($((FAULTS - left)))" [ "$left" -lt $FAULTS ]

# --- member 1 back -------------------------------------------------------------------
echo 0 >"/sys/block/$VICTIM/make-it-fail"
echo 0 >$FMR/probability
rm -f /tmp/all
bds_bounded rc dd if=$DM of=/tmp/all bs=$UNIT count=$NUNITS iflag=direct status=none
check "all known units read once member $BAD is back" [ "$rc" = 0 ]
check "all known units hold their data (failed writes changed nothing)" cmp -s /tmp/data /tmp/all
expect_eq "$(bds_health $VOL)" ADAA "health still shows member $BAD"

bds_expect_removable $VOL
# shellcheck disable=SC2086
bds_expect_clean $DISKS
for f in verbose space interval times probability; do
	eval "echo \"\$FMR0_$f\"" >"$FMR/$f"
done
pass "fail_make_request on one member: EIO there only, reported, removable"
