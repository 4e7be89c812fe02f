#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# root-boot-check.sh [initramfs-tools|dracut] - "make root-boot-check":
# Debian bookworm with / on a bds-stripe volume, assembled in the
# initramfs by what the packages ship for that initramfs generator: the
# initramfs-tools hook and local-block script, or the dracut module
# 90bds-stripe.
#
# topology: two virtio-scsi controllers (PCI slots 0x10, 0x11), two
#           1 GiB disks on each (serials bds-r1..bds-r4); a virtio disk
#           with the ext4 system of boot 1
#   root    boot-lib.sh's guest root (bookworm + systemd-sysv udev
#           linux-image-amd64 xfsprogs, dracut for dracut, and the two
#           packages), an ext4 image; its initramfs is the one
#           update-initramfs made when the kernel was installed, or for
#           dracut the one "dracut -f" makes once the packages are in
#           (as the README says to do): it must hold the module, bdsadm,
#           bds-stripe-initrd, the generator's script or hooks and this
#           host's identity (/etc/machine-id, or for dracut's generic
#           initramfs system_id in bds-stripe.conf).  update-initramfs
#           or dracut in the guest takes minutes under TCG and makes the
#           same.
#   boot 1  from ext4: bdsadm create bdsroot over the four SCSI disks;
#           XFS on it; the system copied into it, with fstab naming
#           /dev/mapper/bdsroot and a file of random data
#   boot 2  root=/dev/mapper/bdsroot, no ext4 disk: the initramfs
#           assembles the volume, systemd reaches multi-user on it with
#           no failed unit, the data reads back; a second file is
#           written; poweroff (the machine must power off by itself)
#   boot 3  the controllers' PCI slots swapped and the disks put on the
#           other controller in the other order, root=UUID=<the XFS's
#           UUID>: the same, and the XFS mounts clean (no log recovery:
#           boot 2's shutdown flushed it) with boot 2's file intact
#   boot 4  the third disk left out: the initramfs must not assemble the
#           volume, must say which member is missing (position, serial,
#           controller at creation) and what to do, and give up
#           (initramfs-tools: its prompt, ended by panic=5 and
#           -no-reboot; dracut: rd.retry=20, then its emergency action,
#           rd.emergency=poweroff); the three disks present are
#           unchanged (md5 before and after)
#   boot 5  (initramfs-tools) the guest runs the oldest 6.1 kernel of
#           bookworm main; on the volume, dpkg -i of the newest one's
#           image (its headers were in the root, so DKMS built for it
#           when the packages were installed, as on an upgraded host):
#           the new initramfs must hold DKMS's module for the new kernel
#           and the hook's files; both go to a scratch disk for the host
#   boot 6  the new kernel and its initramfs, disks permuted: as boot 2
# The consoles are $BDS_CACHE/root-boot-<generator>/boot-{1,2,3,4}.log.
# Nothing is installed on the host and nothing is loaded into its
# kernel.  TAP.
set -uo pipefail

gen=${1:-initramfs-tools}
case "$gen" in
initramfs-tools|dracut) ;;
*) echo "usage: $0 [initramfs-tools|dracut]" >&2; exit 2 ;;
esac
BOOT_NAME=root-boot-$gen
# shellcheck source=tests/deb/boot-lib.sh
. "$(dirname "$0")/boot-lib.sh"

root=$(mktemp -d "$dir/root.XXXXXX")
trap 'rm -rf --one-file-system "$root"' EXIT
t0=$(date +%s)
# in_root COMMAND...: COMMAND in the guest root, with its own /proc
in_root() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private /bin/sh -c \
		'mount -t proc proc "$1/proc" && root=$1 && shift && exec chroot "$root" "$@"' \
		sh "$root" "$@"
}
lsinitrd_out=$dir/lsinitrd.txt
old_k=''
new_k=''
no_upgrade='the kernel upgrade is tested with initramfs-tools'
if [ "$gen" = initramfs-tools ]; then
	# The oldest and the newest 6.1 kernel of bookworm main: the guest
	# runs the old one, and is upgraded to the new one in boot 5 (the
	# root has the new one's headers, linux-headers-amd64, so DKMS builds
	# for it when the packages are installed, as on an upgraded host).
	kernels=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' |
		cut -d' ' -f1 | while read -r p; do
			apt-cache madison "$p" | grep ' bookworm/main ' >/dev/null && echo "${p#linux-image-}"
		done | sort -V)
	old_k=$(echo "$kernels" | sed -n 1p)
	new_k=$(echo "$kernels" | sed -n '$p')
	[ -n "$old_k" ] || die "no linux-image-6.1.0-*-amd64 in bookworm main (apt-get update?)"
	no_upgrade='one 6.1 kernel in bookworm main'
	[ "$old_k" = "$new_k" ] && new_k=''
	log "kernels of bookworm main: $(echo "$kernels" | tr '\n' ' '); booting $old_k${new_k:+, upgraded to $new_k}"
	guest_root_install "$root" systemd-sysv udev "linux-image-$old_k" "linux-headers-$old_k" xfsprogs
	if [ -n "$new_k" ]; then
		# shellcheck disable=SC2016 # expanded by the inner shell
		in_root /bin/sh -c 'mkdir -p /var/lib/bds-test && cd /var/lib/bds-test &&
			apt-get -q download "linux-image-$1" && echo "$1" >new-kver' sh "$new_k" \
			>"$dir/download.log" 2>&1
		ok $? "the upgrade: linux-image-$new_k downloaded into the guest root"
	fi
	in_root lsinitramfs "/boot/initrd.img-$kver" >"$lsinitrd_out" 2>&1
	grep -q '^scripts/local-block/bds-stripe$' "$lsinitrd_out" &&
		grep -q '^etc/machine-id$' "$lsinitrd_out"
	ok $? "initramfs-tools: the initramfs made when the kernel was installed holds the local-block script and /etc/machine-id"
else
	guest_root_install "$root" systemd-sysv udev linux-image-amd64 xfsprogs dracut
	in_root dracut -q -f "/boot/initrd.img-$kver" "$kver" >"$dir/dracut.log" 2>&1
	ok $? "dracut -f (log: $dir/dracut.log)"
	in_root lsinitrd "/boot/initrd.img-$kver" >"$lsinitrd_out" 2>&1
	in_root lsinitrd -f etc/bds-stripe/bds-stripe.conf "/boot/initrd.img-$kver" \
		>"$dir/initrd-conf.txt" 2>&1
	grep -q ' usr/lib/dracut/hooks/initqueue/settled/60-bds-stripe-settled\.sh$' "$lsinitrd_out" &&
		grep -q ' usr/lib/dracut/hooks/initqueue/timeout/60-bds-stripe-timeout\.sh$' "$lsinitrd_out" &&
		grep -q "^system_id = $(cat "$root/etc/machine-id")\$" "$dir/initrd-conf.txt"
	ok $? "dracut: the initramfs holds 90bds-stripe's hooks, and this host's machine ID as system_id"
fi
grep -Eq '(^| )(usr/)?lib/modules/.*/dm-bds-stripe\.ko' "$lsinitrd_out" &&
	grep -Eq '(^| )(usr/)?sbin/bdsadm$' "$lsinitrd_out" &&
	grep -Eq '(^| )(usr/)?sbin/bds-stripe-initrd$' "$lsinitrd_out"
ok $? "$gen: the initramfs holds dm-bds-stripe.ko (DKMS's), bdsadm and bds-stripe-initrd (list: $lsinitrd_out)"

mkdir -p "$root/usr/local/lib/bds-test" "$root/var/lib/bds-test"
cat >"$root/usr/local/lib/bds-test/run.sh" <<'EOS'
#!/bin/sh
# root-boot-check.sh's guest side, by what / is.
exec >/dev/ttyS0 2>&1
src=$(findmnt -n -o SOURCE /)
if [ "$src" = /dev/vda ]; then
	echo "BDS-TEST: boot 1"
	disks=$(lsblk -d -n -o SERIAL,PATH | sort | awk '$1 ~ /^bds-r[1-4]$/ { print $2 }')
	# shellcheck disable=SC2086 # the four paths
	bdsadm create bdsroot --chunk 64K $disks
	echo "BDS-TEST: create rc=$?"
	bdsadm detail bdsroot | sed 's/^/BDS-TEST: detail: /'
	mkfs.xfs -q /dev/mapper/bdsroot
	echo "BDS-TEST: mkfs rc=$?"
	mount /dev/mapper/bdsroot /mnt
	# the system, without what a boot does not need
	tar -C / --one-file-system --exclude=./usr/src --exclude=./usr/share/doc \
		--exclude=./usr/share/man --exclude=./usr/share/locale \
		--exclude=./var/cache/apt --exclude=./var/lib/apt/lists -cf - . |
		tar -C /mnt -xpf -
	echo "BDS-TEST: copy rc=$?"
	echo '/dev/mapper/bdsroot / xfs defaults 0 1' >/mnt/etc/fstab
	dd if=/dev/urandom of=/mnt/var/lib/bds-test/data bs=1M count=32 status=none
	md5sum /mnt/var/lib/bds-test/data | cut -d' ' -f1 >/mnt/var/lib/bds-test/data.md5
	umount /mnt
	echo "BDS-TEST: fsuuid $(blkid -o value -s UUID /dev/mapper/bdsroot)"
	bdsadm stop bdsroot
	echo "BDS-TEST: stop rc=$?"
	sync
else
	echo "BDS-TEST: root $src $(findmnt -n -o FSTYPE /)"
	echo "BDS-TEST: table $(dmsetup table bdsroot 2>&1)"
	echo "BDS-TEST: state $(systemctl is-system-running --wait)"
	systemctl --failed --no-legend --plain | sed 's/^/BDS-TEST: failed: /'
	if [ "$(md5sum </var/lib/bds-test/data | cut -d' ' -f1)" = "$(cat /var/lib/bds-test/data.md5)" ]; then
		echo "BDS-TEST: data reads back"
	fi
	if [ -e /var/lib/bds-test/boot2 ]; then
		echo "BDS-TEST: boot 2's file: $(cat /var/lib/bds-test/boot2)"
	else
		echo "written at boot 2 $(cat /proc/sys/kernel/random/uuid)" >/var/lib/bds-test/boot2
	fi
	bdsadm detail bdsroot | sed 's/^/BDS-TEST: detail: /'
	echo "BDS-TEST: kernel $(uname -r)"
	case " $(cat /proc/cmdline) " in
	*" bds.test=upgrade "*)
		# a kernel upgrade with / on the volume: DKMS's module and the
		# hook's files must be in the new kernel's initramfs; the new
		# kernel and initramfs go to the scratch disk for the host
		new=$(cat /var/lib/bds-test/new-kver)
		dpkg -i /var/lib/bds-test/linux-image-"$new"_*.deb >/run/upgrade.log 2>&1
		echo "BDS-TEST: upgrade rc=$?"
		tail -n 12 /run/upgrade.log | sed 's/^/BDS-TEST: upgrade-log: /'
		lsinitramfs "/boot/initrd.img-$new" |
			grep -E 'dm-bds-stripe\.ko$|bin/bds-stripe-initrd$|local-block/bds-stripe$' |
			sed 's/^/BDS-TEST: new-initramfs: /'
		tar -C /boot -cf /dev/vda "vmlinuz-$new" "initrd.img-$new"
		echo "BDS-TEST: new kernel copied rc=$?"
		;;
	esac
fi
echo "BDS-TEST: done"
systemctl poweroff
EOS
# Type=simple: the unit is not part of the boot it waits for.
guest_image "$root" bdsroot bdssys 1G simple local-fs.target

# boot N INITRD APPEND ext4|scratch|none LAYOUT: LAYOUT is "c0:1,2
# c1:3,4" (disks m1..m4 on the controller in slot 0x10 and 0x11, in that
# order), with the ext4 system disk or a 64 MiB scratch disk as well.
boot() {
	local nr=$1 ird=$2 append=$3 sys=$4 layout=$5 kernel=${6:-$dir/vmlinuz}
	local args=() c slot d id=0
	[ "$sys" = ext4 ] && args+=(-drive "file=$img,if=virtio,format=raw")
	[ "$sys" = scratch ] && args+=(-drive "file=$dir/scratch.img,if=virtio,format=raw")
	for c in $layout; do
		slot=$((0x10 + ${c:1:1}))
		args+=(-device "virtio-scsi-pci,id=scsi${c:1:1},bus=pci.0,addr=$(printf '0x%x' "$slot")")
	done
	for c in $layout; do
		for d in $(echo "${c#*:}" | tr , ' '); do
			args+=(-drive "file=$dir/m$d.img,if=none,format=raw,id=d$d"
			       -device "scsi-hd,bus=scsi${c:1:1}.0,channel=0,scsi-id=$id,lun=0,drive=d$d,serial=bds-r$d")
			id=$((id + 1))
		done
	done
	# -nodefaults: no floppy drive, whose reads fail for every scan
	timeout "$BOOT_TIMEOUT" qemu-system-x86_64 -accel tcg -m 1024 -smp 1 -no-reboot \
		-nodefaults -display none -serial "file:$dir/boot-$nr.log" -monitor none \
		-kernel "$kernel" -initrd "$ird" \
		-append "$append console=ttyS0" "${args[@]}" >"$dir/qemu-$nr.log" 2>&1
}

# Every boot ends by itself, even one that fails: initramfs-tools
# reboots from its prompt at once with panic=-1 (-no-reboot ends QEMU),
# dracut powers off instead of its emergency shell.  Boot 4 fails on
# purpose: dracut waits rd.retry=20 seconds, initramfs-tools its 30.
if [ "$gen" = dracut ]; then
	fail_end="rd.shell=0 rd.emergency=poweroff"
	giveup="rd.retry=20 $fail_end"
else
	fail_end="panic=-1"
	giveup="panic=5"
fi

t1=$(date +%s)
boot 1 "$dir/initrd.img" "root=/dev/vda rw $fail_end" ext4 "c0:1,2 c1:3,4"
ok $? "boot 1 ended by itself ($(($(date +%s) - t1))s)"
console_text 1
b1=$dir/boot-1.txt
grep -q '^BDS-TEST: create rc=0' "$b1" && grep -q '^BDS-TEST: mkfs rc=0' "$b1" &&
	grep -q '^BDS-TEST: copy rc=0' "$b1" && grep -q '^BDS-TEST: stop rc=0' "$b1"
ok $? "boot 1: bdsadm create bdsroot over the four disks, XFS, the system copied into it"
fsuuid=$(sed -n 's/^BDS-TEST: fsuuid \([0-9a-f-]*\)$/\1/p' "$b1")
[ -n "$fsuuid" ]
ok $? "boot 1: the XFS's UUID is $fsuuid"
rinitrd=$dir/initrd.img
rm -f "$img"

# check_root_boot N WHAT: boot N came up on the volume
check_root_boot() {
	local b=$dir/boot-$1.txt
	grep -aq 'bdsadm: assembled /dev/mapper/bdsroot from 4 members' "$b"
	ok $? "boot $1 ($2): the initramfs assembled bdsroot from its 4 members"
	grep -q '^BDS-TEST: root /dev/mapper/bdsroot xfs$' "$b" &&
		grep -Eq '^BDS-TEST: table 0 [0-9]+ bds-stripe 128 ' "$b" &&
		grep -Eq '^BDS-TEST: state (running|degraded)$' "$b"
	ok $? "boot $1 ($2): / is XFS on /dev/mapper/bdsroot, systemd reached multi-user"
	grep -q '^BDS-TEST: state ' "$b" && ! grep -q '^BDS-TEST: failed: ' "$b"
	ok $? "boot $1 ($2): no unit failed"
	grep -q '^BDS-TEST: data reads back$' "$b"
	ok $? "boot $1 ($2): the 32 MiB written at boot 1 read back (md5)"
	grep -aq 'reboot: Power down' "$dir/boot-$1.log"
	ok $? "boot $1 ($2): powered off by itself"
}

t1=$(date +%s)
boot 2 "$rinitrd" "root=/dev/mapper/bdsroot ro $fail_end" none "c0:1,2 c1:3,4"
ok $? "boot 2 ended by itself ($(($(date +%s) - t1))s)"
console_text 2
check_root_boot 2 "root=/dev/mapper/bdsroot"

t1=$(date +%s)
boot 3 "$rinitrd" "root=UUID=$fsuuid ro $fail_end" none "c1:2,1 c0:4,3"
ok $? "boot 3 ended by itself ($(($(date +%s) - t1))s)"
console_text 3
check_root_boot 3 "root=UUID=, controllers swapped, disks reordered"
grep -q "^BDS-TEST: boot 2's file: written at boot 2 " "$dir/boot-3.txt"
ok $? "boot 3: the file boot 2 wrote before its poweroff is there"
grep -aq 'XFS (dm-[0-9]*): Ending clean mount' "$dir/boot-3.log" &&
	! grep -aq 'XFS (dm-[0-9]*): Starting recovery' "$dir/boot-3.log"
ok $? "boot 3: the XFS mounted clean (boot 2's shutdown flushed the volume)"

sums() { md5sum "$dir/m1.img" "$dir/m2.img" "$dir/m4.img"; }
before=$(sums)
t1=$(date +%s)
boot 4 "$rinitrd" "root=/dev/mapper/bdsroot ro $giveup" none "c0:1,2 c1:4"
ok $? "boot 4 ended by itself ($(($(date +%s) - t1))s)"
b4=$dir/boot-4.log
tr -d '\r' <"$b4" | grep -a 'bds-stripe: ' | sed 's/^/# /'
! grep -aq 'bdsadm: assembled ' "$b4" && ! grep -aq 'BDS-TEST' "$b4"
ok $? "boot 4 (member 2 missing): the volume was not assembled, the system did not start"
grep -aq 'bds-stripe: gave up after [0-9]* s waiting for the root device /dev/mapper/bdsroot' "$b4" &&
	grep -aq "bds-stripe: bdsadm: volume bdsroot ([0-9a-f-]*): member [0-9] (UUID [0-9a-f-]*, serial bds-r3 at creation, controller [^)]*) is missing (1 of 4 members missing); not assembling a partial volume" "$b4" &&
	grep -aq "bds-stripe: nothing was written to the members present\.  Attach the missing disk, then at the prompt run 'bdsadm assemble --scan'" "$b4"
ok $? "boot 4: the initramfs says which member is missing (position, serial, controller), what it waited for, what to do"
if [ "$gen" = dracut ]; then
	grep -aq 'Could not boot\.' "$b4"
	ok $? "boot 4: dracut gave up (its emergency: poweroff)"
else
	grep -aq 'ALERT!  /dev/mapper/bdsroot does not exist\.  Dropping to a shell!' "$b4"
	ok $? "boot 4: initramfs-tools dropped to its prompt"
fi
[ "$before" = "$(sums)" ]
ok $? "boot 4: the three members present are unchanged (md5)"

if [ -n "$new_k" ]; then
	rm -f "$dir/scratch.img"
	truncate -s 64M "$dir/scratch.img"
	t1=$(date +%s)
	# dpkg -i and update-initramfs under TCG: allow it twice the time
	BOOT_TIMEOUT=$((BOOT_TIMEOUT * 2)) \
		boot 5 "$rinitrd" "root=/dev/mapper/bdsroot ro $fail_end bds.test=upgrade" scratch "c0:1,2 c1:3,4"
	ok $? "boot 5 ended by itself ($(($(date +%s) - t1))s)"
	console_text 5
	b5=$dir/boot-5.txt
	check_root_boot 5 "kernel $old_k, upgraded to $new_k"
	grep -q '^BDS-TEST: upgrade rc=0$' "$b5" &&
		grep -Eq '^BDS-TEST: new-initramfs: (usr/)?lib/modules/'"$new_k"'/updates/dkms/dm-bds-stripe\.ko$' "$b5" &&
		grep -q '^BDS-TEST: new-initramfs: scripts/local-block/bds-stripe$' "$b5" &&
		grep -Eq '^BDS-TEST: new-initramfs: (usr/)?s?bin/bds-stripe-initrd$' "$b5"
	ok $? "boot 5: dpkg -i linux-image-$new_k with / on the volume: its initramfs holds DKMS's module for it and the hook's files"
	mkdir -p "$dir/new" && tar -C "$dir/new" -xf "$dir/scratch.img" 2>/dev/null
	ok $? "boot 5: the new kernel and initramfs copied out"
	t1=$(date +%s)
	boot 6 "$dir/new/initrd.img-$new_k" "root=/dev/mapper/bdsroot ro $fail_end" none "c1:3,4 c0:1,2" \
		"$dir/new/vmlinuz-$new_k"
	ok $? "boot 6 ended by itself ($(($(date +%s) - t1))s)"
	console_text 6
	check_root_boot 6 "the new kernel"
	grep -q "^BDS-TEST: kernel $new_k\$" "$dir/boot-6.txt"
	ok $? "boot 6: runs $new_k"
	rm -rf "$dir/new" "$dir/scratch.img"
else
	echo "ok $((n + 1)) # SKIP kernel upgrade: $no_upgrade"
	n=$((n + 1))
fi

log "total $(($(date +%s) - t0))s"
rm -f "$dir"/m?.img "$dir/vmlinuz" "$dir/initrd.img"

tap_end
