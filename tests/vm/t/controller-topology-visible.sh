#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Harness self-test: every virtio-scsi controller is its own SCSI host, the
# per-controller disk counts and /dev/bds names match the topology, and the
# in-kernel `striped` target works over all members (data round trip, layout,
# mkfs.xfs with stripe geometry).
#
# topology: size=1G backing=file ctl=2 ctl=2 ctl=1
# timeout: 240
# memory: 1536
# check-kernels: 6.1

. /bds/guest-lib.sh

EXPECT="2 2 1"         # disks per controller
CHUNK=512              # sectors (256 KiB)

# --- controllers and hosts ---------------------------------------------------
nctl=$(bds_controllers)
expect_eq "$nctl" 3 "controller count"

prev=-1
hosts=""
c=0
for want in $EXPECT; do
	h=$(bds_host "$c" 2>/dev/null || echo none)
	hosts="$hosts $h"
	check "controller $c has a SCSI host ($h)" [ -d "/sys/class/scsi_host/host$h" ]
	check "host of controller $c ($h) is after controller $((c - 1)) ($prev)" [ "$h" -gt "$prev" ]
	check "host$h is a virtio-scsi host" grep -qx virtio_scsi "/sys/class/scsi_host/host$h/proc_name"
	prev=$h
	n=0
	for m in $(bds_members "$c"); do
		n=$((n + 1))
		dev=$(bds_dev "$m")
		check "$m -> $dev is a block device" [ -b "$m" ]
		hctl=$(basename "$(readlink -f "/sys/block/$dev/device")")
		expect_eq "${hctl%%:*}" "$h" "$m is on host$h"
		# QEMU serial (VPD page 0x80) names the node as vm-run built it.
		name=${m#/dev/bds/}
		check "$m serial is bds-$name" grep -aq "bds-$name" "/sys/block/$dev/device/vpd_pg80"
	done
	expect_eq "$n" "$want" "disks on controller $c"
	c=$((c + 1))
done
dups=$(echo "$hosts" | tr ' ' '\n' | sed '/^$/d' | sort | uniq -d)
expect_eq "$dups" "" "distinct host numbers"
log "hosts:$hosts"
lsblk -o NAME,HCTL,SIZE,SERIAL 2>/dev/null || true

# Stop here if the topology is wrong: the rest needs all five disks.
[ "$BDS_FAILS" -eq 0 ] || fail "topology checks failed"

# --- striped target over all members -------------------------------------------
members=$(bds_all_members)
# shellcheck disable=SC2086
set -- $members
nm=$#
msz=$(bds_sectors "$1")
len=$(( (msz / CHUNK) * CHUNK * nm ))
table="0 $len striped $nm $CHUNK"
for m in $members; do
	table="$table $(bds_majmin "$m") 0"
done
bds_dm_create bdsref "$table"
dm=/dev/mapper/bdsref
expect_eq "$(bds_sectors $dm)" "$len" "striped size"
log "io_min=$(bds_queue $dm minimum_io_size) io_opt=$(bds_queue $dm optimal_io_size)"
expect_eq "$(bds_queue $dm minimum_io_size)" $((CHUNK * 512)) "io_min = chunk"
expect_eq "$(bds_queue $dm optimal_io_size)" $((CHUNK * 512 * nm)) "io_opt = chunk x stripes"

# Data round trip: 8 MiB of random data at 3 MiB.
dd if=/dev/urandom of=/tmp/data bs=1M count=8 status=none
off=$((3 << 20))
run bds_write $dm $off /tmp/data
want=$(md5sum </tmp/data | cut -d' ' -f1)
expect_eq "$(bds_md5 $dm $off $((8 << 20)))" "$want" "read back through dm"
# Layout: stripe unit k of the volume is on member k % n at (k / n) * chunk
# (checked over one stripe plus one unit inside the written range).
cb=$((CHUNK * 512))
k=$(( (off + cb - 1) / cb ))
kend=$((k + nm + 1))
ok=1
while [ "$k" -lt "$kend" ]; do
	i=$((k % nm + 1))
	mem=$(echo "$members" | sed -n "${i}p")
	a=$(bds_md5 $dm $((k * cb)) $cb)
	b=$(bds_md5 "$mem" $(( (k / nm) * cb )) $cb)
	[ "$a" = "$b" ] || { ok=0; log "unit $k differs on $mem"; }
	k=$((k + 1))
done
log "layout checked"
check "stripe units are on the expected members" [ "$ok" = 1 ]

# mkfs.xfs picks up the geometry (volume >= 1 GiB).
log "mkfs.xfs"
mkfs.xfs -f -K $dm >/tmp/mkfs.out 2>&1 || { cat /tmp/mkfs.out; fail "mkfs.xfs"; }
cat /tmp/mkfs.out
check "mkfs.xfs sunit=64 swidth=$((64 * nm))" grep -q "sunit=64 *swidth=$((64 * nm)) blks" /tmp/mkfs.out
run xfs_repair -n $dm
mkdir -p /mnt/x
run mount -t xfs $dm /mnt/x
run cp /tmp/data /mnt/x/data
run umount /mnt/x
run mount -t xfs $dm /mnt/x
check "file survives remount" cmp -s /tmp/data /mnt/x/data
run umount /mnt/x
bds_dm_remove bdsref
check "bdsref removed" [ ! -e $dm ]

pass "topology and striped sanity"
