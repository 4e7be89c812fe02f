#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Restored clones of a volume's disks, and one current member late at
# boot, never make assembly erase a label (issue 40's reproduction).  A
# volume over A B C (2+1), with a file's worth of data; whole-disk clones
# of A B C onto E F G (as restored backup images would be), taken out of
# the kernel; C replaced by D (generation 2) and more data written.  Then
# the clones come back and B is late (deleted from the kernel):
#  - bdsadm assemble --scan, assemble by name and incremental of every
#    disk there refuse: no dm device, and not a byte of any label area
#    changes on any disk; the refusal names the clones as a complete
#    older generation and says how to choose it;
#  - with B back, assemble --scan assembles generation 2 over A B D, names
#    E and F as left out (stale copies of their members) and G too (a
#    copy of C, which left the volume), and the data reads back as
#    generation 2 wrote it.
#
# topology: size=64M ctl=2 ctl=2 ctl=3
# timeout: 300
# check-kernels: 6.1
# boot: own

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
modprobe dm-mirror 2>/dev/null || true
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 7 ] || fail "need 2 + 2 + 3 disks, have: $*"
A=$1 B=$2 C=$3 D=$4 E=$5 F=$6 G=$7

# labels_sum DEV...: md5 of both label areas of each DEV (the backup is the
# last 16 sectors below a 4 KiB boundary)
labels_sum() {
	for _d in "$@"; do
		_bk=$(( $(bds_sectors "$_d") / 8 * 8 - 16 ))
		dd if="$_d" bs=512 skip=8 count=16 status=none
		dd if="$_d" bs=512 skip="$_bk" count=16 status=none
	done | md5sum
}
# out DEV: take a disk out of the kernel, remembering its SCSI address
# and serial
out() {
	_dev=$(bds_dev "$1")
	basename "$(readlink -f "/sys/block/$_dev/device")" >"/tmp/addr.$(basename "$1")"
	bds_serial "$1" >"/tmp/serial.$(basename "$1")"
	echo 1 >"/sys/block/$_dev/device/delete"
}
# back DEV: scan its address again, and wait for its node to be that disk
# again (the kernel gives it back its name, the lowest free one)
back() {
	IFS=: read -r _h _c _t _l <"/tmp/addr.$(basename "$1")"
	echo "$_c $_t $_l" >"/sys/class/scsi_host/host$_h/scan"
	_i=0
	while [ ! -b "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -b "$1" ] || fail "$1 did not come back"
	[ "$(bds_serial "$1")" = "$(cat "/tmp/serial.$(basename "$1")")" ] ||
		fail "$1 came back as another disk ($(bds_serial "$1"))"
}

run bdsadm create vol --chunk 64K "$A" "$B" "$C"
UUID=$(bdsadm examine --export "$A" | sed -n 's/^BDS_VOLUME_UUID=//p')
head -c 4194304 /dev/urandom >/tmp/g1
run bds_write /dev/mapper/vol 0 /tmp/g1
run bdsadm stop vol

# the clones: whole disks, as images restored from a backup would be
for pair in "$A $E" "$B $F" "$C $G"; do
	# shellcheck disable=SC2086
	set -- $pair
	run dd if="$1" of="$2" bs=1M conv=fsync status=none
done
out "$E"
out "$F"
out "$G"
run bdsadm assemble vol
run bdsadm replace vol "$C" "$D"
expect_eq "$(bds_gen_of "$A")" 2 "after the replace: generation 2"
head -c 4194304 /dev/urandom >/tmp/g2
run bds_write /dev/mapper/vol 0 /tmp/g2
run bdsadm stop vol

# the boot: the clones are there, B is late
back "$E"
back "$F"
back "$G"
out "$B"
expect_eq "$(bds_gen_of "$E")" 1 "the clones carry generation 1"
SUM=$(labels_sum "$A" "$C" "$D" "$E" "$F" "$G")

if bdsadm assemble --scan >/tmp/out 2>/tmp/err; then
	check "B late: assemble --scan refused" false
fi
cat /tmp/err
expect_eq "$(labels_sum "$A" "$C" "$D" "$E" "$F" "$G")" "$SUM" \
	"B late: assemble --scan wrote not a byte of any label"
check "B late: no rollback" sh -c "! grep -q 'rolling it back' /tmp/err"
check "B late: the clones named as a complete older generation" \
	grep -qF "hold a complete older generation 1 of this volume (3 members)" /tmp/err
check "B late: how to choose it" grep -qF "bdsadm assemble --uuid $UUID --generation 1" /tmp/err
if bdsadm assemble vol 2>/tmp/err; then
	check "B late: assemble vol refused" false
fi
for d in "$A" "$C" "$D" "$E" "$F" "$G"; do
	bdsadm incremental "$d" >>/tmp/inc.out 2>&1 || true
done
cat /tmp/inc.out
expect_eq "$(labels_sum "$A" "$C" "$D" "$E" "$F" "$G")" "$SUM" \
	"B late: assemble and incremental of every disk wrote not a byte"
expect_eq "$(dmsetup ls 2>&1)" "No devices found" "B late: no dm device"
expect_eq "$(bds_gen_of "$A")" 2 "B late: A still carries generation 2"
expect_eq "$(bds_gen_of "$D")" 2 "B late: D still carries generation 2"

# B is back: generation 2, the clones left out
back "$B"
run bdsadm assemble --scan 2>/tmp/err
cat /tmp/err
for c in "$E" "$F"; do
	check "$c named as a stale copy of its member, left out" \
		grep -qE "/dev/$(bds_dev "$c") left out, not written to: it carries member [0-9] at generation 1, not the volume's 2 \\(a stale copy of that member" /tmp/err
done
check "$G (C's clone) named as a disk that left the volume, left out" \
	grep -qE "/dev/$(bds_dev "$G") left out, not written to: it carries member 2 at generation 1, not the volume's 2 \\(a disk that left the volume" /tmp/err
MEMBERS=$(dmsetup table vol | tr ' ' '\n' | grep ':' | tr '\n' ' ')
expect_eq "$MEMBERS" "$(bds_majmin "$A") $(bds_majmin "$B") $(bds_majmin "$D") " \
	"assembled over A B D"
bds_read /dev/mapper/vol 0 4194304 >/tmp/r2
check "generation 2's data reads back" cmp -s /tmp/g2 /tmp/r2
run bdsadm stop vol
for d in "$A" "$B" "$D" "$E" "$F" "$G"; do
	bdsadm wipe "$d" >/dev/null 2>&1 || true
done
bds_expect_clean "$A" "$B" "$C" "$D" "$E" "$F" "$G"
pass
