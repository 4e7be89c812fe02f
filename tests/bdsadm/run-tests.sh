#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of tools/bds-stripe-table against fake sysfs trees (fixtures.sh),
# built at test time in a temporary directory.  No device node, no
# device-mapper and no root access are needed: devices are named by
# their kernel names and mapped into the tree with --sysfs, the mount
# table comes from --mounts, and --create talks to the fake
# device-mapper of the tool as this directory's Makefile builds it
# (fake-dm.c), which logs its calls.
#
# Usage: run-tests.sh [TOOL]   (default: ../../tools/bds-stripe-table)
# Output is TAP; the last line is "N passed, N failed"; the exit status
# is non-zero if any test failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
TOOL=${1:-$here/../../tools/bds-stripe-table}
TOOL=$(cd "$(dirname "$TOOL")" && pwd)/$(basename "$TOOL")
. "$here/fixtures.sh"

W=$(mktemp -d "${TMPDIR:-/tmp}/bds-bdsadm-tests.XXXXXX")
trap 'rm -rf "$W"' EXIT

# --- harness -----------------------------------------------------------

ntest=0 npass=0 nfail=0

# run TREE ARGS...: the tool on fixture TREE; sets OUT, ERR, RC
run() {
	local tree=$1
	shift
	"$TOOL" --sysfs "$W/$tree/sys" --mounts "$W/$tree/mounts" "$@" \
		> "$W/out" 2> "$W/err"
	RC=$?
	OUT=$(cat "$W/out")
	ERR=$(cat "$W/err")
}

fail() {
	echo "$*"
	echo "--- exit status: $RC"
	echo "--- stdout:"
	echo "$OUT"
	echo "--- stderr:"
	echo "$ERR"
	return 1
}

rc_is() { [ "$RC" -eq "$1" ] || fail "expected exit status $1"; }
line1_is() {
	[ "$(head -n1 <<< "$OUT")" = "$1" ] ||
		fail "expected table line: $1"
}
out_has() { grep -qF -- "$1" <<< "$OUT" || fail "stdout lacks: $1"; }
out_lacks() { ! grep -qF -- "$1" <<< "$OUT" || fail "stdout has: $1"; }
err_has() { grep -qF -- "$1" <<< "$ERR" || fail "stderr lacks: $1"; }
# refused: exit 1, the reason on stderr, nothing on stdout
refused() {
	rc_is 1 && err_has "$1" && err_has "nothing was created" &&
		{ [ -z "$OUT" ] || fail "stdout not empty"; }
}

t() {
	local name=$1 out
	shift
	ntest=$((ntest + 1))
	if out=$("$@" 2>&1); then
		npass=$((npass + 1))
		echo "ok $ntest - $name"
	else
		nfail=$((nfail + 1))
		echo "not ok $ntest - $name"
		sed 's/^/# /' <<< "$out"
	fi
}

# --- fixtures ------------------------------------------------------------

tree_2x4 "$W/2x4"
tree_422 "$W/422"
tree_nvme "$W/nvme"
tree_mixed "$W/mixed"
tree_parts "$W/parts"
tree_t2 "$W/t2"
tree_sizes "$W/sizes"
tree_fabrics "$W/fabrics"

T2X4="0 67108864 bds-stripe 512 2 4 8:16 0 8:32 0 8:48 0 8:64 0 4 8:80 0 8:96 0 8:112 0 8:128 0"
ALL8="sdb sdc sdd sde sdf sdg sdh sdi"

# --- grouping and tables -----------------------------------------------

two_hosts() {
	run 2x4 $ALL8 &&
	rc_is 0 && line1_is "$T2X4" &&
	out_has "host2          SCSI host, PCI 0000:00:10.0        sdb sdc sdd sde" &&
	out_has "host3          SCSI host, PCI 0000:00:11.0        sdf sdg sdh sdi" &&
	out_has "order 0,4,1,5,2,6,3,7" &&
	out_has "    1 ->   4 sdf          host3" &&
	out_has "Stripe unit:  256 KiB (512 sectors)" &&
	out_has "Stripe width: 2 MiB (4096 sectors) = 8 x 256 KiB" &&
	out_has "Usable size:  32 GiB (67108864 sectors), 4 GiB (8388608 sectors) from each member" &&
	out_has "SCSI disk        whole disk"
}
t "2 SCSI hosts x 4 disks: groups, table, order" two_hosts

two_hosts_shuffled() {
	# controllers in natural order, members in command-line order
	run 2x4 /dev/sdf sdb /dev/sdg sdc sdh sdd sdi sde &&
	rc_is 0 && line1_is "$T2X4" &&
	run 2x4 sdi sdh sdg sdf sde sdd sdc sdb &&
	line1_is "0 67108864 bds-stripe 512 2 4 8:64 0 8:48 0 8:32 0 8:16 0 4 8:128 0 8:112 0 8:96 0 8:80 0" &&
	run 2x4 --sort sdi sdh sdg sdf sde sdd sdc sdb &&
	line1_is "$T2X4"
}
t "group order by controller, member order as given (or --sort)" two_hosts_shuffled

major_minor_args() {
	run 2x4 8:16 8:32 8:48 8:64 8:80 8:96 8:112 8:128 --table-only &&
	rc_is 0 && [ "$OUT" = "$T2X4" ] || fail "major:minor arguments"
}
t "members given as major:minor" major_minor_args

t422() {
	run 422 --chunk 64K $ALL8 &&
	rc_is 0 &&
	line1_is "0 33554432 bds-stripe 128 3 4 8:16 0 8:32 0 8:48 0 8:64 0 2 8:80 0 8:96 0 2 8:112 0 8:128 0" &&
	out_has "order 0,4,1,6,2,5,3,7" &&
	out_has "group 1: sdf sdg  (host3)" && out_has "group 2: sdh sdi  (host4)"
}
t "4+2+2 over three hosts: order as documented" t422

nvme() {
	run nvme nvme10n1 nvme0n1 nvme2n1 nvme0n2 &&
	rc_is 0 &&
	line1_is "0 8388608 bds-stripe 512 3 2 259:0 0 259:1 0 1 259:3 0 1 259:2 0" &&
	out_has "nvme0          NVMe controller, PCI 0000:00:04.0  nvme0n1 nvme0n2" &&
	out_has "nvme2          NVMe controller, PCI 0000:00:06.0  nvme2n1" &&
	out_has "nvme10         NVMe controller, PCI 0000:00:05.0  nvme10n1" &&
	out_has "NVMe namespace"
}
t "NVMe: grouped by controller, natural order (nvme2 < nvme10)" nvme

mixed() {
	run mixed sdb nvme0n1 loop0 sdc &&
	rc_is 0 &&
	line1_is "0 8388608 bds-stripe 512 3 2 8:16 0 8:32 0 1 7:0 0 1 259:0 0" &&
	out_has "loop0          loop device, no controller" &&
	out_has "loop0 is a loop device: it has no controller and forms its own group" &&
	out_has "order 0,2,1,3"
}
t "mixed SCSI + NVMe + loop" mixed

virtual_devices() {
	run mixed loop0 nullb0 dm-0 &&
	rc_is 0 &&
	line1_is "0 6291456 bds-stripe 512 3 1 253:0 0 1 7:0 0 1 252:0 0" &&
	out_has "nullb0 is a null_blk device" &&
	out_has "dm-0 is a device-mapper device"
}
t "loop, null_blk, dm: each its own group, with a note" virtual_devices

virtio_blk() {
	run mixed vdb vda &&
	rc_is 0 &&
	line1_is "0 4194304 bds-stripe 512 2 1 254:0 0 1 254:16 0" &&
	out_has "0000:00:07.0   virtio-blk PCI function" &&
	out_has "each one is its own controller"
}
t "virtio-blk: each disk its own PCI controller" virtio_blk

multipath() {
	run mixed nvme1n1 sdb &&
	rc_is 0 &&
	line1_is "0 4194304 bds-stripe 512 2 1 8:16 0 1 259:5 0" &&
	out_has "nvme1          NVMe controller, PCI 0000:00:0a.0" &&
	out_has "NVMe multipath namespace of nvme-subsys0 (paths: nvme1, nvme3); grouped with its first controller, nvme1"
}
t "NVMe multipath namespace: first controller, noted" multipath

fabrics_by_host() {
	run fabrics nvme0n1 nvme1n1 nvme2n1 nvme3n1 &&
	rc_is 0 &&
	line1_is "0 8388608 bds-stripe 512 2 2 259:1 0 259:2 0 2 259:0 0 259:3 0" &&
	out_has "10.0.1.1       NVMe/TCP storage host              nvme1n1 nvme2n1" &&
	out_has "10.0.2.1       NVMe/TCP storage host              nvme0n1 nvme3n1" &&
	out_has "Storage hosts (NVMe over Fabrics, grouped by host):" &&
	out_has "nvme2n1    host tcp 10.0.1.1 port 4421   via nvme2    nqn.2026-12.io.bds-stripe:h1-b" &&
	out_has "nvme0n1    host tcp 10.0.2.1 port 4420   via nvme0    nqn.2026-12.io.bds-stripe:h2-c" &&
	out_has "Groups (table order), one per storage host:" &&
	out_has "  0   nvme1n1    259:1    NVMe/TCP namespace whole disk" &&
	out_has "NVMe/TCP namespace" &&
	out_has "nvme1n1 is an NVMe/TCP namespace of nqn.2026-12.io.bds-stripe:h1-a on tcp 10.0.1.1 port 4420 (controller nvme1)"
}
t "NVMe/TCP: grouped by storage host, two subsystems of one host together" fabrics_by_host

fabrics_by_subsystem() {
	run fabrics --group-by subsystem nvme0n1 nvme1n1 nvme2n1 nvme3n1 &&
	rc_is 0 &&
	line1_is "0 8388608 bds-stripe 512 3 1 259:1 0 1 259:2 0 2 259:0 0 259:3 0" &&
	out_has "grouped by subsystem" &&
	out_has "Groups (table order), one per NVMe subsystem:" &&
	out_has "nqn.2026-12.io.bds-stripe:h1-b NVMe/TCP subsystem on host 10.0.1.1"
}
t "NVMe/TCP: --group-by subsystem" fabrics_by_subsystem

fabrics_by_controller() {
	run fabrics --group-by controller nvme3n1 nvme2n1 nvme1n1 nvme0n1 &&
	rc_is 0 &&
	line1_is "0 8388608 bds-stripe 512 4 1 259:0 0 1 259:1 0 1 259:2 0 1 259:3 0" &&
	out_has "nvme3          NVMe/TCP controller, host 10.0.2.1"
}
t "NVMe/TCP: --group-by controller" fabrics_by_controller

fabrics_bad_group_by() {
	run fabrics --group-by disk nvme0n1 nvme1n1 &&
	rc_is 2 &&
	err_has "--group-by disk: accepted are host, subsystem and controller"
}
t "--group-by: an unknown value is a usage error" fabrics_bad_group_by

fabrics_multipath() {
	run fabrics nvme4n1 nvme5n1 nvme8n1 nvme9n1 &&
	rc_is 0 &&
	line1_is "0 8388608 bds-stripe 512 4 1 259:4 0 1 259:5 0 1 259:8 0 1 259:9 0" &&
	out_has "NVMe/TCP multipath namespace" &&
	out_has "nvme5n1: its paths lead to different groups (10.0.2.1 by nvme5, 10.0.1.1 by nvme7); grouped by the first path's" &&
	out_lacks "nvme4n1: its paths lead" &&
	out_has "local          NVMe loop storage host" &&
	out_has "nvme9          NVMe controller, PCI 0000:00:04.0" &&
	out_has "Groups (table order), one per controller or storage host:"
}
t "NVMe over Fabrics multipath: the host its paths reach; loop; local NVMe" fabrics_multipath

partitions() {
	run parts sdb1 sdc1 sdd1 &&
	rc_is 0 &&
	line1_is "0 6291456 bds-stripe 512 2 2 8:17 0 8:33 0 1 8:49 0" &&
	out_has "partition 1 of sdb" && out_has "partition 1 of sdd" &&
	out_has "unused on sdd1: 2 MiB (4096 sectors)" &&
	out_lacks "unused on sdb1"
}
t "partitions: grouped by their disk's controller, unused space" partitions

same_disk() {
	run parts sdb1 sdb2 sdd1 &&
	rc_is 0 &&
	out_has "sdb1 and sdb2 are partitions of the same disk sdb" &&
	out_has "Usable size:  2.99 GiB (6285312 sectors), 1023 MiB (2095104 sectors) from each member"
}
t "two partitions of one disk: noted; smallest member bounds the size" same_disk

# --- options -------------------------------------------------------------

layout_seq() {
	run 2x4 --layout sequential --table-only $ALL8 &&
	rc_is 0 && [ "$OUT" = "$T2X4 2 layout sequential" ] ||
		fail "sequential table"
	run 2x4 --layout sequential $ALL8 && out_has "order 0,1,2,3,4,5,6,7"
}
t "--layout sequential: canonical optional words" layout_seq

table_only() {
	run 2x4 --table-only $ALL8 &&
	rc_is 0 && [ "$OUT" = "$T2X4" ] || fail "not just the table line"
}
t "--table-only prints exactly the table line" table_only

chunk_forms() {
	run 2x4 --chunk 1M --table-only $ALL8 && rc_is 0 &&
	[ "${OUT%% 2 4 *}" = "0 67108864 bds-stripe 2048" ] || fail 1M
	run 2x4 --chunk 96K --table-only $ALL8 && rc_is 0 &&
	[ "${OUT%% 2 4 *}" = "0 67108864 bds-stripe 192" ] || fail 96K
	run 2x4 --chunk 64s --table-only $ALL8 && rc_is 0 &&
	[ "${OUT%% 2 4 *}" = "0 67108864 bds-stripe 64" ] || fail 64s
	run 2x4 --chunk 8192 --table-only $ALL8 && rc_is 0 &&
	[ "${OUT%% 2 4 *}" = "0 67108864 bds-stripe 16" ] || fail 8192
}
t "--chunk: K, M, s suffixes and bytes" chunk_forms

length_rounds_down() {
	# 96 KiB does not divide 4 GiB: floor(8388608 / 192) * 192 = 8388480
	run 2x4 --chunk 96K $ALL8 && rc_is 0 &&
	line1_is "0 67107840 bds-stripe 192 2 4 8:16 0 8:32 0 8:48 0 8:64 0 4 8:80 0 8:96 0 8:112 0 8:128 0" &&
	out_has "unused on sdb: 64 KiB (128 sectors)"
}
t "length = floor(min size / chunk) * chunk * N" length_rounds_down

groups_counts() {
	run mixed --groups 2,2 sdb sdc loop0 nullb0 && rc_is 0 &&
	line1_is "0 8388608 bds-stripe 512 2 2 8:16 0 8:32 0 2 7:0 0 252:0 0" &&
	out_has "from --groups" &&
	out_has "group 1 spans several controllers (loop0, nullb0"
}
t "--groups 2,2: counts in argument order" groups_counts

groups_names() {
	run 2x4 --groups 'sdb,sdf;sdc,/dev/sdg' sdb sdc sdf sdg && rc_is 0 &&
	line1_is "0 33554432 bds-stripe 512 2 2 8:16 0 8:80 0 2 8:32 0 8:96 0" &&
	out_has "controller host2 is split over groups 0 and 1" &&
	run 2x4 --groups 'sdb,sdc;sdd,sde' && rc_is 0 &&
	line1_is "0 33554432 bds-stripe 512 2 2 8:16 0 8:32 0 2 8:48 0 8:64 0"
}
t "--groups by name, also without device arguments" groups_names

groups_bad() {
	run 2x4 --groups 3,4 $ALL8 && refused "the counts add up to 7" &&
	run 2x4 --groups 'sdb;sdx' sdb sdc && refused "'sdx' is not one of the devices given" &&
	run 2x4 --groups 'sdb' sdb sdc && refused "device 'sdc' is not in any group" &&
	run 2x4 --groups 'sdb,sdb;sdc' sdb sdc && refused "'sdb' is listed twice" &&
	run 2x4 --groups 'sdb;;sdc' sdb sdc && refused "empty group" &&
	run 2x4 --groups 0,2 sdb sdc && refused "Invalid group: #devs must be at least 1"
}
t "--groups: mismatches refused" groups_bad

transfer() {
	run 2x4 --transfer-size 1M $ALL8 && rc_is 0 &&
	line1_is "0 67108864 bds-stripe 256 2 4 8:16 0 8:32 0 8:48 0 8:64 0 4 8:80 0 8:96 0 8:112 0 8:128 0" &&
	out_has "Transfer:     1 MiB = 1 stripe width (k = 1)" &&
	run 422 --transfer-size 768K sdb sdc sdd sde sdf sdg &&
	rc_is 0 && out_has "Stripe unit:  128 KiB (256 sectors)"
}
t "--transfer-size: largest chunk, k = 1" transfer

transfer_big() {
	# 64 GiB over 8: the width must fit 32 bits, so k = 32 (chunk 256 MiB)
	run 2x4 --transfer-size 64G $ALL8 && rc_is 0 &&
	out_has "Stripe unit:  256 MiB (524288 sectors)" &&
	out_has "Transfer:     64 GiB = 32 stripe widths (k = 32)"
}
t "--transfer-size beyond a 32-bit width: smallest k that fits" transfer_big

transfer_bad() {
	run 2x4 --transfer-size 100K $ALL8 &&
	refused "--transfer-size 100K (100 KiB) is impossible: with 8 members and a stripe unit that is a multiple of 4 KiB, a whole number of stripe widths is a multiple of 32 KiB (nearest: 96 KiB or 128 KiB)" &&
	run 2x4 --transfer-size 16K $ALL8 && refused "(smallest: 32 KiB)" &&
	run 2x4 --transfer-size 1X $ALL8 && refused "not a size" &&
	run 2x4 --transfer-size 1M --chunk 64K sdb && rc_is 2
}
t "--transfer-size impossible: refused with the reason" transfer_bad

bandwidth() {
	run 2x4 --disk-mbps 20 --controller-mbps 40 $ALL8 && rc_is 0 &&
	out_has "host2          4 members -> 40 MB/s" &&
	out_has "limit for a transfer of one stripe width: 80 MB/s" &&
	out_has "a transfer of 4 stripe units from a stripe boundary: 80 MB/s (sequential layout: 40 MB/s)" &&
	run 422 --disk-mbps 20 --controller-mbps 40 $ALL8 && rc_is 0 &&
	out_has "limit for a transfer of one stripe width: 120 MB/s" &&
	out_has "(one such transfer alone, waiting for its busiest controller: 80 MB/s)" &&
	run 2x4 --disk-mbps 150 sdb sdc sdf && rc_is 0 &&
	out_has "limit for a transfer of one stripe width: 450 MB/s" &&
	run 2x4 --disk-mbps 20 --controller-mbps 100 $ALL8 &&
	out_has "limit for a transfer of one stripe width: 160 MB/s" &&
	run 2x4 $ALL8 && out_lacks "Bandwidth"
}
t "bandwidth: sum over controllers of min(C, n * D)" bandwidth

mkfs() {
	run 2x4 --chunk 64K $ALL8 && rc_is 0 &&
	out_has "mkfs.xfs will pick: sunit=16 swidth=128 blks (4 KiB blocks; su=64k,sw=8)" &&
	out_lacks "smaller than 1 GiB" &&
	new_tree "$W/tiny" &&
	scsi_disk "$W/tiny" 0000:00:10.0 2 0 sdb 8:16 $((GIB_S / 4)) &&
	scsi_disk "$W/tiny" 0000:00:11.0 3 0 sdc 8:32 $((GIB_S / 4)) &&
	run tiny sdb sdc && rc_is 0 &&
	out_has "Usable size:  512 MiB" &&
	out_has "mkfs.xfs will pick: sunit=64 swidth=128 blks" &&
	out_has "smaller than 1 GiB: mkfs.xfs ignores the device geometry there (give -d su=256k,sw=2 to set it)"
}
t "mkfs.xfs sunit/swidth, and the < 1 GiB case" mkfs

paths() {
	run 2x4 --paths --table-only sdb sdf && rc_is 0 &&
	[ "$OUT" = "0 16777216 bds-stripe 512 2 1 /dev/sdb 0 1 /dev/sdf 0" ] ||
		fail "--paths"
}
t "--paths: members as /dev/NAME" paths

# --- refusals --------------------------------------------------------------

mounted() {
	cp -a "$W/2x4" "$W/m" &&
	printf '%s\n' '/dev/sdc /mnt/my\040data xfs rw 0 0' > "$W/m/mounts" &&
	run m sdb sdc && refused "sdc is mounted on /mnt/my data (xfs)" &&
	err_has "refusing the devices above (1 problem: in use, or a whole disk with partitions); --force takes them anyway, but a device that is mounted or held open stays refused when create opens it exclusively" &&
	run m --force sdb sdc && rc_is 0 && err_has "warning: sdc is mounted" &&
	line1_is "0 16777216 bds-stripe 512 1 2 8:16 0 8:32 0"
}
t "mounted member refused (the refusal says what --force can and cannot take)" mounted

mounted_partition() {
	cp -a "$W/parts" "$W/mp" &&
	echo '/dev/sdb1 /boot ext4 rw 0 0' > "$W/mp/mounts" &&
	run mp sdb sdd1 && refused "sdb: its partition sdb1 is mounted on /boot (ext4)" &&
	run mp sdb1 sdd1 && refused "sdb1 is mounted on /boot"
}
t "mounted partition of a whole disk refused" mounted_partition

held() {
	cp -a "$W/mixed" "$W/h" &&
	holder "$W/h" sdc dm-0 vg-lv &&
	run h sdb sdc && refused "sdc is in use by dm-0 (dm vg-lv)" &&
	run h --force sdb sdc && rc_is 0
}
t "member with holders (dm/md) refused" held

has_partitions() {
	run parts sdb sdd1 &&
	refused "sdb is a whole disk with partitions (sdb1 sdb2)" &&
	run parts sdb sdb1 && refused "sdb and sdb1 overlap" &&
	run parts --force sdb sdb1 && refused "overlap"
}
t "whole disk with partitions refused; disk + own partition refused" has_partitions

duplicate() {
	run 2x4 sdb sdc /dev/sdb && refused "sdb is given twice (as 'sdb' and '/dev/sdb')" &&
	run 2x4 sdb 8:16 && refused "sdb is given twice" &&
	run 2x4 --force sdb sdb && refused "given twice"
}
t "duplicate members refused, even with --force" duplicate

too_small() {
	cp -a "$W/2x4" "$W/s" &&
	echo 400 > "$W/s/sys/devices/pci0000:00/0000:00:11.0/virtio3/host3/target3:0:1/3:0:1:0/block/sdg/size" &&
	run s $ALL8 && refused "sdg is too small: 200 KiB, less than one stripe unit (256 KiB)" &&
	run s --chunk 64K $ALL8 && rc_is 0 &&
	line1_is "0 3072 bds-stripe 128 2 4 8:16 0 8:32 0 8:48 0 8:64 0 4 8:80 0 8:96 0 8:112 0 8:128 0" &&
	echo 0 > "$W/s/sys/devices/pci0000:00/0000:00:11.0/virtio3/host3/target3:0:1/3:0:1:0/block/sdg/size" &&
	run s sdb sdg && refused "sdg has size 0"
}
t "member too small refused" too_small

bad_chunk() {
	run 2x4 --chunk 6K $ALL8 &&
	refused "--chunk 6K: invalid chunk size: must be a multiple of 8 sectors (4 KiB)" &&
	run 2x4 --chunk 0 $ALL8 && refused "--chunk 0: invalid chunk size: must be greater than 0" &&
	run 2x4 --chunk 1000 $ALL8 && refused "not a whole number of 512-byte sectors" &&
	run 2x4 --chunk 4G $ALL8 && refused "stripe unit in bytes exceeds 32 bits" &&
	run 2x4 --chunk 1G $ALL8 && refused "--chunk 1G: stripe width too large" &&
	run 2x4 --chunk -4K sdb && refused "not a size" &&
	run 2x4 --chunk 4KB sdb && refused "not a size"
}
t "bad chunk sizes refused with the kernel's reasons" bad_chunk

lbs() {
	cp -a "$W/2x4" "$W/l" &&
	echo 8192 > "$W/l/sys/devices/pci0000:00/0000:00:10.0/virtio2/host2/target2:0:1/2:0:1:0/block/sdc/queue/logical_block_size" &&
	run l --chunk 4K sdb sdc &&
	refused "Chunk size is not a multiple of a member's logical block size: sdc has 8192-byte blocks" &&
	run l --chunk 8K sdb sdc && rc_is 0 &&
	run l --transfer-size 32K sdb sdc && rc_is 0 &&
	out_has "Stripe unit:  16 KiB" &&
	run l --transfer-size 24K sdb sdc &&
	refused "a stripe unit that is a multiple of 8 KiB, a whole number of stripe widths is a multiple of 16 KiB (nearest: 16 KiB or 32 KiB)"
}
t "logical block size: chunk must be a multiple" lbs

too_many() {
	local r="$W/big" i names=""
	new_tree "$r"
	for i in $(seq 0 128); do
		scsi_disk "$r" 0000:00:1$((i % 2)).0 $((i % 2)) $i d$i 65:$i $GIB_S
		names="$names d$i"
	done
	run big $names && refused "Too many members: at most 128 are supported" &&
	run big --chunk 4K ${names% d128} && rc_is 0 &&
	out_has "Volume: 128 members in 2 groups"
}
t "129 members refused, 128 accepted" too_many

too_many_groups() {
	local r="$W/loops" i names=""
	new_tree "$r"
	for i in $(seq 0 32); do
		virtual_dev "$r" loop$i 7:$i $GIB_S
		names="$names loop$i"
	done
	run loops $names &&
	refused "Invalid number of groups: at most 32 are supported (33 controllers found; merge some with --groups)" &&
	run loops --groups 11,11,11 $names && rc_is 0
}
t "33 controllers refused, --groups merges them" too_many_groups

unknown_dev() {
	run 2x4 sdb sdz && refused "sdz: no such block device" &&
	run 2x4 && rc_is 2 && err_has "no devices given" &&
	run 2x4 --layout striped sdb && rc_is 2 &&
	run 2x4 --bogus sdb && rc_is 2
}
t "unknown device and usage errors" unknown_dev

# --- --create ---------------------------------------------------------------

# The fake device-mapper (fake-dm.c) logs its calls in $W/dm.log, in
# dmsetup's words; NAME exists when $W/dm/NAME does; "create" makes it
# (then fails if BDSADM_TEST_DM_FAIL is set, as a half-created device
# would); "remove" deletes it.
mkdir -p "$W/dm"
export BDSADM_TEST_DM_DIR="$W/dm" BDSADM_TEST_DM_LOG="$W/dm.log"

create_ok() {
	rm -f "$W/dm.log" "$W/dm/"*
	run 2x4 --create vol $ALL8 && rc_is 0 &&
	line1_is "$T2X4" && err_has "created /dev/mapper/vol" &&
	[ "$(cat "$W/dm.log")" = "info vol
create vol --table $T2X4" ] || fail "dmsetup calls: $(cat "$W/dm.log")"
}
t "--create creates the device with the printed table" create_ok

create_fails() {
	rm -f "$W/dm.log" "$W/dm/"*
	BDSADM_TEST_DM_FAIL=1 run 2x4 --create vol $ALL8 &&
	rc_is 1 && err_has "dmsetup create vol failed" &&
	[ ! -e "$W/dm/vol" ] &&
	[ "$(cat "$W/dm.log")" = "info vol
create vol --table $T2X4
info vol
remove vol" ] || fail "dmsetup calls: $(cat "$W/dm.log")"
}
t "--create failure: the half-created device is removed" create_fails

create_exists() {
	rm -f "$W/dm.log" "$W/dm/"*
	touch "$W/dm/vol"
	run 2x4 --create vol $ALL8 && rc_is 1 &&
	err_has "named 'vol' already exists" && [ -e "$W/dm/vol" ] &&
	[ "$(cat "$W/dm.log")" = "info vol" ] || fail "calls: $(cat "$W/dm.log")"
}
t "--create refuses an existing name and leaves it alone" create_exists

create_refused() {
	rm -f "$W/dm.log" "$W/dm/"*
	run 2x4 --create vol sdb sdb && refused "twice" &&
	[ ! -e "$W/dm.log" ] || fail "device-mapper was called"
	run 2x4 --create 'a/b' sdb && rc_is 2
}
t "refusals never call device-mapper" create_refused

# --- --create: read-ahead ---------------------------------------------------

# The fake device-mapper can also make the device appear in the fake
# sysfs (BDSADM_TEST_DM_SYSFS), as dm-3 with dm/name and
# queue/read_ahead_kb (BDSADM_TEST_DM_RA, default 128).
cp -r "$W/2x4" "$W/ra"
RA=$W/ra/sys/devices/virtual/block/dm-3/queue/read_ahead_kb

# ra_create [ARGS...]: --create vol over the 8 disks, appearing in sysfs
ra_create() {
	rm -rf "$W/dm.log" "$W/dm/"* "$W/ra/sys/class/block/dm-3" \
		"$W/ra/sys/devices/virtual/block/dm-3"
	BDSADM_TEST_DM_SYSFS="$W/ra/sys" run ra "$@" --create vol $ALL8
}

ra_auto() {
	# 256 KiB x 8 = 2 MiB stripe width: at least 4 MiB of read-ahead
	ra_create && rc_is 0 && line1_is "$T2X4" &&
	err_has "read-ahead of vol (dm-3): 4096 KiB (was 128 KiB)" &&
	[ "$(cat "$RA")" = 4096 ] || fail "read_ahead_kb: $(cat "$RA")"
	ra_create --chunk 64K && rc_is 0 && [ "$(cat "$RA")" = 1024 ] ||
		fail "64K x 8: read_ahead_kb $(cat "$RA")"
}
t "--create raises read-ahead to 2 stripe widths" ra_auto

ra_larger() {
	BDSADM_TEST_DM_RA=8192 ra_create && rc_is 0 &&
	err_has "is 8192 KiB, at least 2 stripe widths already" &&
	[ "$(cat "$RA")" = 8192 ] || fail "read_ahead_kb: $(cat "$RA")"
}
t "--create leaves a larger read-ahead alone" ra_larger

ra_options() {
	ra_create --read-ahead off && rc_is 0 && [ "$(cat "$RA")" = 128 ] ||
		fail "off: read_ahead_kb $(cat "$RA")"
	BDSADM_TEST_DM_RA=8192 ra_create --read-ahead 1M && rc_is 0 &&
	err_has "1024 KiB (was 8192 KiB)" && [ "$(cat "$RA")" = 1024 ] ||
		fail "1M: read_ahead_kb $(cat "$RA")"
	ra_create --read-ahead 6000 && rc_is 0 && [ "$(cat "$RA")" = 6 ] ||
		fail "6000 bytes: read_ahead_kb $(cat "$RA")"
	ra_create --read-ahead auto && rc_is 0 && [ "$(cat "$RA")" = 4096 ] ||
		fail "auto: read_ahead_kb $(cat "$RA")"
	run ra --read-ahead lots sdb && rc_is 2 &&
	run ra --read-ahead 1X sdb && rc_is 2
}
t "--read-ahead off, SIZE, auto and bad values" ra_options

ra_no_device() {
	# without BDSADM_TEST_DM_SYSFS no sysfs entry: created, but warned
	rm -f "$W/dm.log" "$W/dm/"*
	run 2x4 --create vol $ALL8 && rc_is 0 &&
	err_has "created /dev/mapper/vol" && err_has "read-ahead not set"
}
t "--create without the device in sysfs: a warning, not a failure" ra_no_device

# --- weights (issue 14) --------------------------------------------------------

T2ALL="sdb sdc sdd sde sdf sdg sdh sdi sdj sdk"
T2TABLE="0 37748736 bds-stripe 32 8 1 8:16 0 1 8:32 0 1 8:48 0 1 8:64 0 1 8:80 0 1 8:96 0 2 8:112 0 8:128 0 2 8:144 0 8:160 0 2 weights 4,4,4,4,4,4,3,3,3,3"

weights_bandwidth_t2() {
	# the documented T2 example: its table, 90 MB/s against 75
	run t2 --chunk 16K --disk-mbps 10 --controller-mbps 15 \
		--weights bandwidth $T2ALL &&
	rc_is 0 && line1_is "$T2TABLE" &&
	out_has "Weights (by bandwidth: the fastest sequential streams, then the most space):" &&
	out_has "  0   sdb             4  11.1 %  2 GiB (4194304 sectors)          0 B (0 sectors)" &&
	out_has "  9   sdk             3   8.3 %  1.50 GiB (3145728 sectors)       512 MiB (1048576 sectors)" &&
	out_has "W = 36: a cycle of 36 stripe units (576 KiB); in the table: weights 4,4,4,4,4,4,3,3,3,3" &&
	out_has "space used: 18 GiB of 20 GiB (90.0 %); equal shares use 20 GiB (100.0 %): 2 GiB given up" &&
	out_has "sequential streams: 90 MB/s with these weights, 75 MB/s with equal shares (the disks and controllers allow 90 MB/s at best)" &&
	out_has "slots 6,8,0,1,2,3,4,5,7,9,0,1,2,3,4,5,6,8,7,9,0,1,2,3,4,5,6,8,0,1,2,3,4,5,7,9  (as 'dmsetup status' shows it)" &&
	out_has "Cycle:        576 KiB (1152 sectors) = 36 x 16 KiB, the sum of the weights" &&
	out_has "mkfs.xfs will pick: sunit=4 swidth=144 blks (4 KiB blocks; su=16k,sw=36)" &&
	out_has "limit for a transfer of one cycle (36 stripe units): 90 MB/s" &&
	# one limit per controller, in name order: the same
	run t2 --chunk 16K --disk-mbps 10 --controller-mbps 15,15,15,15,15,15,15,15 \
		--weights bandwidth --table-only $T2ALL &&
	rc_is 0 && [ "$OUT" = "$T2TABLE" ] || fail "per-controller list"
}
t "--weights bandwidth: the T2 example, 90 MB/s instead of 75" weights_bandwidth_t2

weights_capacity() {
	run sizes --chunk 64K --weights capacity sdb sdc sdd sde &&
	rc_is 0 &&
	line1_is "0 31457280 bds-stripe 128 2 2 8:16 0 8:32 0 2 8:48 0 8:64 0 2 weights 2,4,6,3" &&
	out_has "Weights (by capacity: the most of the members' space):" &&
	out_has "  2   sdd             6  40.0 %  6 GiB (12582912 sectors)         0 B (0 sectors)" &&
	out_has "space used: 15 GiB of 15 GiB (100.0 %); equal shares use 8 GiB (53.3 %): 7 GiB more" &&
	out_has "Usable size:  15 GiB (31457280 sectors), 1 GiB (2097152 sectors) from each member per unit of weight" &&
	out_lacks "unused on" && out_lacks "sequential streams" &&
	# equal disks: every weight 1, the table as without --weights
	run 2x4 --weights capacity $ALL8 && rc_is 0 && line1_is "$T2X4" &&
	out_has "every weight is 1: equal shares, and no weights in the table" &&
	out_has "order 0,4,1,5,2,6,3,7"
}
t "--weights capacity: shares by size, all 1 for equal disks" weights_capacity

weights_list() {
	# the documentation's worked example: 2 controllers of 2, 2,1,1,1
	run 2x4 --chunk 4K --weights 2,1,1,1 sdb sdc sdf sdg && rc_is 0 &&
	line1_is "0 20971520 bds-stripe 8 2 2 8:16 0 8:32 0 2 8:80 0 8:96 0 2 weights 2,1,1,1" &&
	out_has "Weights (as given, in table order):" &&
	out_has "slots 0,2,0,1,3" &&
	out_has "  0   sdb        8:16     SCSI disk        whole disk           4 GiB      512   0     0" &&
	out_has "  3   sdg        8:96     SCSI disk        whole disk           4 GiB      512   1     4" &&
	out_has "unused on sdc: 2 GiB (4194304 sectors)" &&
	# in table order, whatever the argument order
	run 2x4 --chunk 4K --weights 2,1,1,1 --table-only sdc sdb sdg sdf && rc_is 0 &&
	[ "$OUT" = "0 20971520 bds-stripe 8 2 2 8:32 0 8:16 0 2 8:96 0 8:80 0 2 weights 2,1,1,1" ] ||
		fail "list in table order" &&
	# a list of ones: no weights
	run 2x4 --weights 1,1,1,1,1,1,1,1 --table-only $ALL8 && rc_is 0 &&
	[ "$OUT" = "$T2X4" ] || fail "all ones" &&
	# --transfer-size: a whole number of cycles
	run 2x4 --weights 2,1,1,1 --transfer-size 20K sdb sdc sdf sdg && rc_is 0 &&
	out_has "Stripe unit:  4 KiB (8 sectors)" &&
	out_has "Transfer:     20 KiB = 1 cycle (k = 1)" &&
	run 2x4 --weights 2,1,1,1 --transfer-size 16K sdb sdc sdf sdg &&
	refused "with weights adding up to 5 and a stripe unit that is a multiple of 4 KiB, a whole number of cycles is a multiple of 20 KiB"
}
t "--weights LIST: in table order, the documented slots" weights_list

weights_speeds() {
	# one speed per device in argument order: shares 1:1:2:2
	run 2x4 --disk-mbps 200,100,200,100 --weights bandwidth sdf sdb sdg sdc &&
	rc_is 0 &&
	line1_is "0 25165824 bds-stripe 512 2 2 8:16 0 8:32 0 2 8:80 0 8:96 0 2 weights 1,1,2,2" &&
	out_has "Bandwidth (disks and controllers as --disk-mbps and --controller-mbps give them):" &&
	out_has "host2          2 members -> 200 MB/s" &&
	out_has "sequential streams: 600 MB/s with these weights, 400 MB/s with equal shares" &&
	# speeds alone change nothing without --weights
	run 2x4 --disk-mbps 200,100,200,100 --table-only sdf sdb sdg sdc &&
	rc_is 0 && [ "$OUT" = "0 33554432 bds-stripe 512 2 2 8:16 0 8:32 0 2 8:80 0 8:96 0" ] ||
		fail "speeds without weights"
}
t "--disk-mbps per device (argument order) for --weights bandwidth" weights_speeds

weights_create() {
	rm -f "$W/dm.log" "$W/dm/"*
	run 2x4 --chunk 4K --weights 2,1,1,1 --create wvol sdb sdc sdf sdg &&
	rc_is 0 && err_has "created /dev/mapper/wvol" &&
	[ "$(cat "$W/dm.log")" = "info wvol
create wvol --table 0 20971520 bds-stripe 8 2 2 8:16 0 8:32 0 2 8:80 0 8:96 0 2 weights 2,1,1,1" ] ||
		fail "dmsetup calls: $(cat "$W/dm.log")"
}
t "--create with weights: the table with its weights" weights_create

weights_refused() {
	run 2x4 --weights 2,1 --layout sequential sdb sdc && rc_is 2 &&
	err_has "--weights 2,1: weights need --layout interleave; with --layout sequential every member holds an equal share" &&
	run 2x4 --weights capacity --layout sequential sdb sdc && rc_is 2 &&
	run 2x4 --weights bandwidth sdb sdc && rc_is 2 &&
	err_has "--weights bandwidth needs the disks' speeds: give --measure, or --disk-mbps" &&
	run 2x4 --weights most sdb sdc && rc_is 2 &&
	err_has "--weights most: accepted are capacity, bandwidth and a list of weights in table order" &&
	run 2x4 --weights capacity --transfer-size 1M sdb sdc && rc_is 2 &&
	err_has "--transfer-size and --weights capacity exclude each other" &&
	run 2x4 --weights 2,1,1 sdb sdc && refused "--weights 2,1,1: invalid weights: the list must give exactly one weight per member (2 members, table order)" &&
	run 2x4 --weights 2,,1 sdb sdc sdd && refused "--weights 2,,1: invalid weights: expected unsigned decimal numbers separated by single commas" &&
	run 2x4 --weights 0,1 sdb sdc && refused "--weights 0,1: invalid weight: each member's weight must be 1 to 255" &&
	run 2x4 --weights 1,256 sdb sdc && refused "--weights 1,256: invalid weight: each member's weight must be 1 to 255" &&
	run 2x4 --weights 255,255,255,255,5 sdb sdc sdd sde sdf && refused "--weights 255,255,255,255,5: weights too large: their sum must be at most 1024" &&
	run 2x4 --chunk 8M --weights 255,255,2 sdb sdc sdf &&
	refused "--weights 255,255,2: weighted cycle too large: chunk x sum of weights in bytes exceeds 32 bits (a stripe unit of 16384 sectors: at most 511 stripe units per cycle)" &&
	run 2x4 --disk-mbps 10,20 --weights bandwidth $ALL8 &&
	refused "--disk-mbps gives 2 speeds for 8 devices: give one for all of them, or one per device in the order of the arguments" &&
	run 2x4 --disk-mbps 10 --controller-mbps 10,20,30 $ALL8 &&
	refused "--controller-mbps gives 3 limits for 2 controllers (host2, host3): give one for all of them, or one per controller in this order" &&
	run 2x4 --disk-mbps 10,,20 sdb sdc && rc_is 2 &&
	run 2x4 --disk-mbps 10, sdb sdc && rc_is 2 &&
	run 2x4 --disk-mbps 0,10 sdb sdc && rc_is 2 &&
	cp -a "$W/sizes" "$W/ws" &&
	echo 200 > "$W/ws/sys/devices/pci0000:00/0000:00:10.0/virtio2/host2/target2:0:0/2:0:0:0/block/sdb/size" &&
	run ws --weights capacity sdb sdc && refused "--weights capacity: sdb is too small: 100 KiB, with no room for a stripe unit (256 KiB) between a label's data offset and its backup copy" &&
	run ws --weights 1,2 --chunk 64K sdc sdb && refused "sdb is too small: 100 KiB, less than its 2 stripe units of a cycle (128 KiB)"
}
t "--weights refusals: sequential, counts, ranges, sum, cycle, speeds" weights_refused

misc() {
	run 2x4 --help && rc_is 0 && out_has "Usage: bds-stripe-table" &&
	run 2x4 --version && rc_is 0 &&
	out_has "bds-stripe-table $(sed -n 's/.*\.version = { *\([0-9]*\), *\([0-9]*\), *\([0-9]*\) *}.*/\1.\2.\3/p' "$here/../../dm-bds-stripe.c")" &&
	run 2x4 --name vol sdb sdc && rc_is 0 &&
	out_has "dmsetup create vol --table '0 16777216 bds-stripe 512 1 2 8:16 0 8:32 0'"
}
t "--help, --version, --name" misc

echo "1..$ntest"
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
