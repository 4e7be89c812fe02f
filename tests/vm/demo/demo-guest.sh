#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo, inside the guest: the classic bulk-data box, two controllers
# with four disks each, every controller able to carry only half of its
# disks' combined speed (disks 20 MB/s, controllers 40 MB/s).
#
# topology: size=1G backing=file ctl=40M:4x20M ctl=40M:4x20M
# timeout: 600
# memory: 1536

. /bds/guest-lib.sh

CHUNK=128			# 64 KiB stripe unit
SECS=${BDS_DEMO_SECS:-6}

say() { printf '\n=== %s\n' "$*"; }
csv() { echo "csv:$*"; }

say "Topology seen by the guest"
nctl=$(bds_controllers)
c=0
while [ "$c" -lt "$nctl" ]; do
	devs=""
	for m in $(bds_members "$c"); do
		devs="$devs $(bds_dev "$m")"
	done
	echo "controller $c = SCSI host$(bds_host "$c"):$devs"
	c=$((c + 1))
done

bds_load_module
say "dmsetup targets"
dmsetup targets | grep -E 'bds-stripe|striped'

set -- $(bds_all_members)
n=$#

say "bdsadm plan groups the disks by controller (it changes nothing)"
run bdsadm plan --chunk 64K --disk-mbps 20 --controller-mbps 40 "$@"
say "bdsadm create labels the disks and creates the volume"
run bdsadm create bds --chunk 64K "$@"
len=$(bds_sectors /dev/mapper/bds)
# striped gets the same disks in controller order, from the same data
# offset (the labels' default for a 64 KiB unit: 1 MiB)
striped_members=""
for m in "$@"; do
	striped_members="$striped_members $(bds_majmin "$m") 2048"
done
say "dmsetup table / status"
dmsetup table bds
dmsetup status bds
echo "minimum_io_size=$(bds_queue /dev/mapper/bds minimum_io_size)" \
	"optimal_io_size=$(bds_queue /dev/mapper/bds optimal_io_size)"

say "mkfs.xfs picks the stripe geometry by itself"
mkfs.xfs -f /dev/mapper/bds | grep -E 'sunit|swidth|bsize=' | sed -n 1,3p
mkdir -p /mnt/demo
run mount -t xfs /dev/mapper/bds /mnt/demo
dd if=/dev/urandom of=/mnt/demo/file bs=1M count=16 status=none
sync
df -h /mnt/demo | tail -1
run umount /mnt/demo

say "bdsadm stop, then assemble --scan finds the members by their labels"
run bdsadm stop bds
run bdsadm assemble --scan
bdsadm examine "$1" | sed -n '1,12p'

# fio run: print MB/s of one job.
bw() {
	fio --name=demo --filename="$1" --direct=1 --ioengine=psync --iodepth=1 \
		--rw="$2" --bs="$3" --time_based --runtime="$SECS" \
		${4:+--blockalign=$4} --size=1G --output-format=terse \
		--terse-version=3 2>/dev/null |
		awk -F';' '{ printf "%.1f", ($7 + $48) * 1.024 / 1000 }'
}

width=$((CHUNK * 512 * n))
half=$((width / 2))
say "Throughput, one stream, direct I/O (limit: 8 disks x min(20, 40/4) = 80 MB/s)"
bds_dm_create striped "0 $len striped $n $CHUNK$striped_members"
printf '%-52s %12s %12s\n' "pattern" "bds-stripe" "striped"
csv "pattern,bds_stripe_MBps,striped_MBps"
for p in "randread $half $width random reads of 1/2 stripe width, stripe-aligned" \
	 "read $width - sequential reads of 1 stripe width" \
	 "read $((4 * width)) - sequential reads of 4 stripe widths"; do
	set -- $p
	rw=$1 bs=$2 al=$3
	shift 3
	[ "$al" = - ] && al=""
	a=$(bw /dev/mapper/bds "$rw" "$bs" "$al")
	b=$(bw /dev/mapper/striped "$rw" "$bs" "$al")
	printf '%-52s %7s MB/s %7s MB/s\n' "$*" "$a" "$b"
	csv "$*,$a,$b"
done
echo "(striped is given the disks in controller order, as a user lists them:"
echo " its first half stripe is all on controller 0; bds-stripe alternates.)"

bds_dm_remove striped
run bdsadm stop bds
run rmmod dm_bds_stripe
pass "demo complete"
