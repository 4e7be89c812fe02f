# SPDX-License-Identifier: GPL-2.0
#
# Fake sysfs trees for the bds-stripe-table tests.  Sourced by
# run-tests.sh.  The trees have the shape of the real one: every block
# device is a directory under <root>/sys/devices/..., reached through the
# symlinks <root>/sys/class/block/NAME and <root>/sys/dev/block/MAJ:MIN,
# and holds dev, size, queue/logical_block_size,
# queue/physical_block_size and holders/.  Partitions are subdirectories
# of their disk with a "partition" file (and no queue/).

# new_tree DIR: an empty tree, plus an empty mount table DIR/mounts
new_tree() {
	rm -rf "$1"
	mkdir -p "$1/sys/devices" "$1/sys/class/block" "$1/sys/dev/block"
	: > "$1/mounts"
}

# _blockdev ROOT PARENT_REL NAME MAJ:MIN SIZE_SECTORS [LBS [PBS]]
# PARENT_REL is the directory below sys/devices that holds NAME.
_blockdev() {
	local root=$1 rel=$2 name=$3 dev=$4 size=$5 lbs=${6:-512} pbs=${7:-}
	local dir="$root/sys/devices/$rel/$name"

	mkdir -p "$dir/holders" "$dir/queue"
	echo "$dev" > "$dir/dev"
	echo "$size" > "$dir/size"
	echo "$lbs" > "$dir/queue/logical_block_size"
	echo "${pbs:-$lbs}" > "$dir/queue/physical_block_size"
	ln -s "../../devices/$rel/$name" "$root/sys/class/block/$name"
	ln -s "../../devices/$rel/$name" "$root/sys/dev/block/$dev"
}

# scsi_disk ROOT PCI HOSTNUM TARGET NAME MAJ:MIN SIZE [LBS [PBS]]
# (a virtio-scsi HBA at PCI function PCI, as in a QEMU guest)
scsi_disk() {
	local root=$1 pci=$2 h=$3 t=$4
	shift 4
	_blockdev "$root" \
		"pci0000:00/$pci/virtio$h/host$h/target$h:0:$t/$h:0:$t:0/block" \
		"$@"
}

# nvme_ns ROOT PCI CTRLNUM NAME MAJ:MIN SIZE [LBS [PBS]]
nvme_ns() {
	local root=$1 pci=$2 c=$3
	shift 3
	_blockdev "$root" "pci0000:00/$pci/nvme/nvme$c" "$@"
}

# virtio_blk ROOT PCI VIRTIONUM NAME MAJ:MIN SIZE
virtio_blk() {
	local root=$1 pci=$2 v=$3
	shift 3
	_blockdev "$root" "pci0000:00/$pci/virtio$v/block" "$@"
}

# virtual_dev ROOT NAME MAJ:MIN SIZE (loop, nullb, ram, dm-, md)
virtual_dev() {
	local root=$1
	shift
	_blockdev "$root" "virtual/block" "$@"
}

# nvme_multipath ROOT SUBSYSNUM NAME MAJ:MIN SIZE CTRL:PCI...
# A native-multipath namespace: the block device lives under
# virtual/nvme-subsystem/nvme-subsysN, whose nvmeX entries link to the
# controllers (which are created here too).
nvme_multipath() {
	local root=$1 s=$2 name=$3 dev=$4 size=$5 cp c pci
	shift 5
	_blockdev "$root" "virtual/nvme-subsystem/nvme-subsys$s" \
		"$name" "$dev" "$size"
	for cp in "$@"; do
		c=${cp%%:*}
		pci=${cp#*:}
		mkdir -p "$root/sys/devices/pci0000:00/$pci/nvme/nvme$c"
		ln -s "../../../pci0000:00/$pci/nvme/nvme$c" \
			"$root/sys/devices/virtual/nvme-subsystem/nvme-subsys$s/nvme$c"
	done
}

# fabrics_ctrl ROOT CTRLNUM TRANSPORT ADDRESS NQN
# An NVMe over Fabrics controller nvmeN under virtual/nvme-fabrics/ctl,
# with its transport, address (as the kernel prints it; "" for none, as
# nvme-loop) and subsysnqn attributes.
fabrics_ctrl() {
	local dir="$1/sys/devices/virtual/nvme-fabrics/ctl/nvme$2"

	mkdir -p "$dir"
	echo "$3" > "$dir/transport"
	[ -z "$4" ] || echo "$4" > "$dir/address"
	echo "$5" > "$dir/subsysnqn"
}

# fabrics_ns ROOT CTRLNUM NAME MAJ:MIN SIZE: a namespace of controller
# nvmeN without native multipath (nvme_core.multipath=N)
fabrics_ns() {
	local root=$1 c=$2
	shift 2
	_blockdev "$root" "virtual/nvme-fabrics/ctl/nvme$c" "$@"
}

# fabrics_multipath ROOT SUBSYSNUM NAME MAJ:MIN SIZE CTRLNUM...: a
# native-multipath namespace whose paths are the fabrics controllers
# CTRLNUM (made by fabrics_ctrl first)
fabrics_multipath() {
	local root=$1 s=$2 name=$3 dev=$4 size=$5 c
	shift 5
	_blockdev "$root" "virtual/nvme-subsystem/nvme-subsys$s" \
		"$name" "$dev" "$size"
	for c in "$@"; do
		[ -e "$root/sys/devices/virtual/nvme-subsystem/nvme-subsys$s/nvme$c" ] ||
			ln -s "../../nvme-fabrics/ctl/nvme$c" \
				"$root/sys/devices/virtual/nvme-subsystem/nvme-subsys$s/nvme$c"
	done
}

# partition ROOT DISK NAME PARTNO MAJ:MIN SIZE
partition() {
	local root=$1 disk=$2 name=$3 pn=$4 dev=$5 size=$6 ddir

	ddir=$(readlink -f "$root/sys/class/block/$disk")
	mkdir -p "$ddir/$name/holders"
	echo "$dev" > "$ddir/$name/dev"
	echo "$size" > "$ddir/$name/size"
	echo "$pn" > "$ddir/$name/partition"
	ln -s "../../${ddir#"$root"/sys/}/$name" "$root/sys/class/block/$name"
	ln -s "../../${ddir#"$root"/sys/}/$name" "$root/sys/dev/block/$dev"
}

# holder ROOT DEV HOLDER [DMNAME]: HOLDER (a dm/md device) holds DEV
holder() {
	local root=$1 dev=$2 h=$3 dmname=${4:-} hdir

	hdir=$(readlink -f "$root/sys/class/block/$h")
	if [ -n "$dmname" ]; then
		mkdir -p "$hdir/dm"
		echo "$dmname" > "$hdir/dm/name"
	fi
	ln -s "../../$h" "$(readlink -f "$root/sys/class/block/$dev")/holders/$h"
}

# --- the layouts used by the tests -------------------------------------

GIB_S=2097152			# sectors in 1 GiB

# two SCSI hosts x 4 disks: sdb..sde on host2, sdf..sdi on host3, 4 GiB
tree_2x4() {
	local r=$1 i=0 d
	new_tree "$r"
	for d in b c d e; do
		scsi_disk "$r" 0000:00:10.0 2 $i sd$d 8:$((16 * (i + 1))) \
			$((4 * GIB_S))
		i=$((i + 1))
	done
	for d in f g h i; do
		scsi_disk "$r" 0000:00:11.0 3 $((i - 4)) sd$d \
			8:$((16 * (i + 1))) $((4 * GIB_S))
		i=$((i + 1))
	done
}

# 4 + 2 + 2 on hosts 2, 3, 4 (sdb..sde, sdf..sdg, sdh..sdi), 2 GiB each
tree_422() {
	local r=$1 i=0 d h t
	new_tree "$r"
	for d in b c d e f g h i; do
		if [ $i -lt 4 ]; then h=2 t=$i
		elif [ $i -lt 6 ]; then h=3 t=$((i - 4))
		else h=4 t=$((i - 6)); fi
		scsi_disk "$r" 0000:00:1$h.0 $h $t sd$d 8:$((16 * (i + 1))) \
			$((2 * GIB_S))
		i=$((i + 1))
	done
}

# NVMe: nvme0 (0000:00:04.0) with 2 namespaces, nvme2 and nvme10 with 1
tree_nvme() {
	local r=$1
	new_tree "$r"
	nvme_ns "$r" 0000:00:04.0 0 nvme0n1 259:0 $GIB_S
	nvme_ns "$r" 0000:00:04.0 0 nvme0n2 259:1 $GIB_S
	nvme_ns "$r" 0000:00:05.0 10 nvme10n1 259:2 $GIB_S
	nvme_ns "$r" 0000:00:06.0 2 nvme2n1 259:3 $GIB_S
}

# mixed: sdb, sdc on host2; nvme0n1; loop0; nullb0; vda, vdb (virtio-blk)
tree_mixed() {
	local r=$1
	new_tree "$r"
	scsi_disk "$r" 0000:00:10.0 2 0 sdb 8:16 $GIB_S
	scsi_disk "$r" 0000:00:10.0 2 1 sdc 8:32 $GIB_S
	nvme_ns "$r" 0000:00:04.0 0 nvme0n1 259:0 $GIB_S
	virtual_dev "$r" loop0 7:0 $GIB_S
	virtual_dev "$r" nullb0 252:0 $GIB_S
	virtio_blk "$r" 0000:00:07.0 5 vda 254:0 $GIB_S
	virtio_blk "$r" 0000:00:08.0 6 vdb 254:16 $GIB_S
	nvme_multipath "$r" 0 nvme1n1 259:5 $GIB_S 1:0000:00:0a.0 3:0000:00:0b.0
	virtual_dev "$r" dm-0 253:0 $GIB_S
}

# partitions: sdb (sdb1, sdb2), sdc (sdc1) on host2, sdd (sdd1) on host3
tree_parts() {
	local r=$1
	new_tree "$r"
	scsi_disk "$r" 0000:00:10.0 2 0 sdb 8:16 $((2 * GIB_S))
	scsi_disk "$r" 0000:00:10.0 2 1 sdc 8:32 $((2 * GIB_S))
	scsi_disk "$r" 0000:00:11.0 3 0 sdd 8:48 $((2 * GIB_S))
	partition "$r" sdb sdb1 1 8:17 $GIB_S
	partition "$r" sdb sdb2 2 8:18 $((GIB_S - 2048))
	partition "$r" sdc sdc1 1 8:33 $GIB_S
	partition "$r" sdd sdd1 1 8:49 $((GIB_S + 4096))
}

# make bench's T2 (Documentation/bds-stripe.rst, Weights): 10 disks of
# 2 GiB on 8 SCSI hosts, sdb..sdg alone on hosts 2..7, sdh, sdi on host
# 8 and sdj, sdk on host 9
tree_t2() {
	local r=$1 i=0 d h t
	new_tree "$r"
	for d in b c d e f g h i j k; do
		if [ $i -lt 6 ]; then h=$((i + 2)) t=0
		else h=$((8 + (i - 6) / 2)) t=$(((i - 6) % 2)); fi
		scsi_disk "$r" 0000:00:1$h.0 $h $t sd$d 8:$((16 * (i + 1))) \
			$((2 * GIB_S))
		i=$((i + 1))
	done
}

# disks of unequal sizes: sdb (2 GiB) and sdc (4 GiB) on host2, sdd
# (6 GiB) and sde (3 GiB) on host3
tree_sizes() {
	local r=$1
	new_tree "$r"
	scsi_disk "$r" 0000:00:10.0 2 0 sdb 8:16 $((2 * GIB_S))
	scsi_disk "$r" 0000:00:10.0 2 1 sdc 8:32 $((4 * GIB_S))
	scsi_disk "$r" 0000:00:11.0 3 0 sdd 8:48 $((6 * GIB_S))
	scsi_disk "$r" 0000:00:11.0 3 1 sde 8:64 $((3 * GIB_S))
}

# NVMe over Fabrics: storage hosts 10.0.1.1 (two subsystems, a and b,
# on ports 4420 and 4421) and 10.0.2.1 (one, c), over TCP, controllers
# numbered out of host order as after a reconnect.  Without multipath:
# nvme0n1 (host 2, c), nvme1n1 (host 1, a), nvme2n1 (host 1, b),
# nvme3n1 (host 2, c, a second namespace... of its own controller
# nvme3).  With multipath: nvme4n1 (host 1, a, paths nvme4 and nvme6,
# both to host 1) and nvme5n1 (host 2, c, paths nvme5 to host 2 and
# nvme7 to host 1: split).  A loop namespace nvme8n1.
tree_fabrics() {
	local r=$1 a=nqn.2026-12.io.bds-stripe:h1-a b=nqn.2026-12.io.bds-stripe:h1-b
	local c=nqn.2026-12.io.bds-stripe:h2-c
	new_tree "$r"
	fabrics_ctrl "$r" 0 tcp "traddr=10.0.2.1,trsvcid=4420,src_addr=10.0.2.2" $c
	fabrics_ctrl "$r" 1 tcp "traddr=10.0.1.1,trsvcid=4420" $a
	fabrics_ctrl "$r" 2 tcp "traddr=10.0.1.1,trsvcid=4421" $b
	fabrics_ctrl "$r" 3 tcp "traddr=10.0.2.1,trsvcid=4420" $c
	fabrics_ns "$r" 0 nvme0n1 259:0 $GIB_S
	fabrics_ns "$r" 1 nvme1n1 259:1 $GIB_S
	fabrics_ns "$r" 2 nvme2n1 259:2 $GIB_S
	fabrics_ns "$r" 3 nvme3n1 259:3 $GIB_S
	fabrics_ctrl "$r" 4 tcp "traddr=10.0.1.1,trsvcid=4420" $a
	fabrics_ctrl "$r" 6 rdma "traddr=10.0.1.1,trsvcid=4420" $a
	fabrics_multipath "$r" 4 nvme4n1 259:4 $GIB_S 4 6
	fabrics_ctrl "$r" 5 tcp "traddr=10.0.2.1,trsvcid=4420" $c
	fabrics_ctrl "$r" 7 tcp "traddr=10.0.1.1,trsvcid=4420" $c
	fabrics_multipath "$r" 5 nvme5n1 259:5 $GIB_S 5 7
	fabrics_ctrl "$r" 8 loop "" nqn.2026-12.io.bds-stripe:loop
	fabrics_ns "$r" 8 nvme8n1 259:8 $GIB_S
	nvme_ns "$r" 0000:00:04.0 9 nvme9n1 259:9 $GIB_S
}
