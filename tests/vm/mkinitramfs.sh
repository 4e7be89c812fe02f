#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh <6.1|6.12> [ARCH] - build (or reuse) the base initramfs for a
# kernel and print its path on stdout.  Progress goes to stderr.
#
# The base cpio holds the host's own binaries (busybox-static, dmsetup, fio,
# xfsprogs, mdadm, lvm2, kmod, util-linux pieces) with their shared
# libraries (libdevmapper and libblkid among them, which tools/bdsadm,
# given to the guest by vm-run --exec, links), the
# kernel modules the tests need (decompressed, with a depmod'ed guest module
# tree) and tests/vm/guest-init as /init.  It is cached under
# $BDS_CACHE/initramfs/, keyed by the kernel version and a hash of this script
# and guest-init, so editing either rebuilds it.
#
# ARCH arm64 takes the programs and libraries from Debian's arm64 packages
# instead (tests/vm/guest-root.sh: unpacked, never run here), the libraries
# found through each ELF file's DT_NEEDED as the guest's loader would find
# them, and the modules of kernel.sh's arm64 kernel.

set -euo pipefail

log() { printf 'mkinitramfs: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
SERIES=${1:-}
ARCH=${2:-amd64}
[ -n "$SERIES" ] || die "usage: $0 <6.1|6.12> [arm64]"

# Reuse the caller's kernel.sh output when it is for this series.
if [ "${KSERIES:-}" != "$SERIES" ] || [ "${KARCH:-amd64}" != "$ARCH" ] ||
	[ -z "${KVER:-}" ] || [ ! -d "${MODDIR:-}" ] || [ -z "${KROOT:-}" ]; then
	KVER="" MODDIR="" KROOT=""
	eval "$("$HERE/kernel.sh" "$SERIES" "$ARCH")"
fi
# Where the guest's programs come from: the host's root, or another
# architecture's unpacked packages (R is prefixed to every path).
R=""
LIBDIRS=()
if [ "$ARCH" != amd64 ]; then
	R=$("$HERE/guest-root.sh" "$ARCH")
	LIBDIRS=(/lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu /lib /usr/lib)
fi
if [ -z "$KVER" ] || [ ! -d "$MODDIR" ]; then
	die "kernel.sh gave no module tree"
fi

CACHE=${BDS_CACHE:-$HOME/.cache/bds-stripe}
OUTDIR=$CACHE/initramfs
mkdir -p "$OUTDIR"
KEY=$(cat "$HERE/mkinitramfs.sh" "$HERE/guest-init" "$HERE/guest-root.sh" | sha256sum | cut -c1-16)
OUT=$OUTDIR/base-$KVER-$KEY.cpio
if [ -s "$OUT" ]; then
	touch "$OUT"
	printf '%s\n' "$OUT"
	exit 0
fi

exec 9>"$OUTDIR/.lock"
flock 9
if [ -s "$OUT" ]; then
	printf '%s\n' "$OUT"
	exit 0
fi

log "building base initramfs for $KVER"
ST=$(mktemp -d "$OUTDIR/.stage.XXXXXX")
trap 'rm -rf "$ST"' EXIT

# Programs copied from the host (absolute paths resolved via PATH).
PROGS=(
	dmsetup fio mkfs.xfs xfs_repair xfs_io xfs_db xfs_spaceman xfs_info
	xfs_growfs xfs_admin mdadm kmod blkdiscard blockdev lsblk losetup
	findmnt wipefs blkid bash dd sfdisk lvm flock
)
# lvm2's commands are lvm itself under another name.
LVM_CMDS=(pvcreate pvremove pvs pvdisplay vgcreate vgremove vgs lvcreate lvremove lvs)
# Optional ones: copied when the host (or the sid root) has them; jq for
# the man page's examples (man-page-examples-run-as-written, 6.1 only).
OPT_PROGS=(sg_inq lsscsi jq)

# Kernel modules (names as modprobe knows them; missing ones are skipped,
# built-in ones need nothing).
MODS=(
	dm-mod dm-flakey dm-delay dm-zero dm-snapshot dm-mirror dm-log-writes md-mod raid0 raid456 linear xfs
	libcrc32c crc32c_generic crc32c-intel
	virtio_pci virtio_scsi virtio_blk sd_mod scsi_mod scsi_debug
	null_blk loop brd
	virtio_net nvme-tcp nvmet-tcp
)

mkdir -p "$ST"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,usr/lib,etc,proc,sys,dev,tmp,run,mnt,root,var/tmp}
mkdir -p "$ST/lib/modules/$KVER" "$ST/lib/bds" "$ST/bds"
chmod 1777 "$ST/tmp" "$ST/var/tmp"

# in_root PATH: PATH with its symlinks resolved inside $R (an absolute
# link means $R's own root), printed without $R.
in_root() {
	local p=$1 t n=0
	[ -z "$R" ] && { readlink -f "$p"; return; }
	while [ -L "$R$p" ]; do
		t=$(readlink "$R$p")
		case "$t" in
		/*) p=$t ;;
		*) p=$(dirname "$p")/$t ;;
		esac
		n=$((n + 1))
		[ "$n" -lt 40 ] || die "symlink loop at $R$1"
	done
	realpath -m -s "$p"
}

copy_file() { # copy $1 (following symlinks) to the same path in the stage
	local src=$R$1 dst=$ST$1
	[ -e "$dst" ] && return 0
	mkdir -p "$(dirname "$dst")"
	[ -z "$R" ] || src=$R$(in_root "$1")
	cp -L "$src" "$dst"
}

# find_lib NAME [DIR...]: the path (without $R) of library NAME in the
# DIRs (an ELF file's RUNPATH) or $R's loader directories.
find_lib() {
	local d n=$1
	shift
	for d in "$@" "${LIBDIRS[@]}"; do
		if [ -e "$R$d/$n" ]; then
			printf '%s\n' "$d/$n"
			return 0
		fi
	done
	return 1
}

# elf_needs FILE: the loader and the DT_NEEDED libraries of an ELF file
# of $R, as paths without $R, recursively (nothing for a script).
declare -A NEEDED_SEEN=()
elf_needs() {
	local f=$1 lib p
	local -a run=()
	readelf -h "$R$f" >/dev/null 2>&1 || return 0
	readelf -l "$R$f" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p'
	IFS=: read -r -a run < <(readelf -d "$R$f" 2>/dev/null |
		sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]$/\2/p') || true
	while IFS= read -r lib; do
		p=$(find_lib "$lib" "${run[@]}") || die "$f needs $lib, not in $R"
		[ -n "${NEEDED_SEEN[$p]:-}" ] && continue
		NEEDED_SEEN[$p]=1
		printf '%s\n' "$p"
		elf_needs "$(in_root "$p")"
	done < <(readelf -d "$R$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
}

copy_libs() { # shared libraries of an ELF file, via ldd (or its DT_NEEDED)
	local lib
	if [ -n "$R" ]; then
		# a file, not a pipe: a library elf_needs cannot find must
		# stop the build (its die ends only its own subshell)
		elf_needs "$1" >"$ST/.needs" || die "the libraries of $1: see above"
		while IFS= read -r lib; do
			[ -n "$lib" ] && copy_file "$lib"
		done <"$ST/.needs"
		rm -f "$ST/.needs"
		return 0
	fi
	while IFS= read -r lib; do
		[ -n "$lib" ] && copy_file "$lib"
	done < <(ldd "$1" 2>/dev/null | awk '
		/=> \// { print $3; next }
		/^[ \t]*\// { print $1 }')
}

# prog_path NAME: where the program is, as command -v finds it on the
# host, or in $R's bin directories.
prog_path() {
	local d
	if [ -z "$R" ]; then
		command -v "$1"
		return
	fi
	for d in /usr/sbin /usr/bin /sbin /bin; do
		if [ -e "$R$d/$1" ] || [ -L "$R$d/$1" ]; then
			printf '%s\n' "$d/$1"
			return 0
		fi
	done
	return 1
}

copy_prog() {
	local p real
	p=$(prog_path "$1") || return 1
	copy_file "$p"
	real=$(in_root "$p")
	# ldd prints nothing useful (and fails) for scripts: fine.
	copy_libs "$real"
}

for p in "${PROGS[@]}"; do
	copy_prog "$p" || die "host program '$p' not found"
done
for p in "${OPT_PROGS[@]}"; do
	copy_prog "$p" || true
done

# Shared libraries of the programs vm-run puts into the guest (--exec:
# tools/bdsadm links libdevmapper and libblkid), with what they link: the
# programs above bring them too, but the guest must not depend on that.
EXEC_LIBS=(libdevmapper.so.1.02.1 libblkid.so.1)
for l in "${EXEC_LIBS[@]}"; do
	if [ -n "$R" ]; then
		p=$(find_lib "$l") || die "library '$l' not in $R"
	else
		p=$(ldconfig -p | sed -n "s|^[[:space:]]*$l (libc6,x86-64) => ||p" | sed -n 1p)
	fi
	[ -n "$p" ] || die "host library '$l' not found (tests/scripts/setup.sh installs it)"
	copy_file "$p"
	copy_libs "$(in_root "$p")"
done

# udev, for the tests that start it (systemd-udevd --daemon): the daemon,
# udevadm, scsi_id, and the rules that name block devices and make
# device-mapper's nodes; the bds-stripe rule itself comes with the test
# (run-suite, -x).  Nothing starts udev unless a test does.
UDEV_RULES=(50-udev-default.rules 60-block.rules 60-persistent-storage.rules
	55-dm.rules 60-persistent-storage-dm.rules 95-dm-notify.rules)
for f in /lib/systemd/systemd-udevd /bin/udevadm /lib/udev/scsi_id; do
	[ -e "$R$f" ] || die "file '$R$f' not found (package udev)"
	copy_file "$f"
	copy_libs "$(in_root "$f")"
done
for r in "${UDEV_RULES[@]}"; do
	[ -e "$R/lib/udev/rules.d/$r" ] || die "udev rule $R/lib/udev/rules.d/$r not found"
	copy_file "/lib/udev/rules.d/$r"
done
mkdir -p "$ST/etc/udev/rules.d"
printf 'udev_log=info\n' >"$ST/etc/udev/udev.conf"

lvm=$(prog_path lvm)
for p in "${LVM_CMDS[@]}"; do
	ln -sf "$lvm" "$ST$(dirname "$lvm")/$p"
done

# kmod multi-call links (real kmod, not busybox's, for .ko handling / depmod).
kmod=$(prog_path kmod)
for p in insmod rmmod modprobe lsmod depmod modinfo; do
	ln -sf "$kmod" "$ST/sbin/$p"
done
# busybox applets where no real program was copied (the host's
# busybox-static lists them: bookworm's, as the guest's own).
cp "$R/bin/busybox" "$ST/bin/busybox"
while IFS= read -r a; do
	a=/${a#/}
	[ -e "$ST$a" ] || [ -L "$ST$a" ] && continue
	[ -e "$ST/usr$a" ] || [ -e "$ST${a/\/usr/}" ] && continue
	mkdir -p "$ST$(dirname "$a")"
	ln -s /bin/busybox "$ST$a"
done < <(/bin/busybox --list-full)
[ -e "$ST/bin/sh" ] || ln -s busybox "$ST/bin/sh"

# Kernel modules: resolve with modprobe --show-depends against the cached
# tree (depmod'ed once), copy decompressed, then depmod the guest tree.
if [ ! -e "$MODDIR/modules.dep" ]; then
	log "depmod for the cached tree"
	depmod -b "$KROOT" "$KVER"
fi
declare -A seen=()
for m in "${MODS[@]}"; do
	if ! out=$(modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" 2>/dev/null); then
		log "note: module $m not available for $KVER, skipped"
		continue
	fi
	while read -r kind path _; do
		[ "$kind" = insmod ] || continue
		[ -n "${seen[$path]:-}" ] && continue
		seen[$path]=1
		rel=${path#"$MODDIR"/}
		dst=$ST/lib/modules/$KVER/$rel
		mkdir -p "$(dirname "$dst")"
		case "$path" in
		*.ko.xz) xz -dc "$path" >"${dst%.xz}" ;;
		*.ko.zst) zstd -qdc "$path" >"${dst%.zst}" ;;
		*.ko.gz) gzip -dc "$path" >"${dst%.gz}" ;;
		*) cp "$path" "$dst" ;;
		esac
	done <<<"$out"
done
cp "$MODDIR"/modules.builtin "$MODDIR"/modules.builtin.modinfo "$MODDIR"/modules.order \
	"$ST/lib/modules/$KVER/" 2>/dev/null || true
depmod -b "$ST" "$KVER"

# /init and a few config files.
install -m 0755 "$HERE/guest-init" "$ST/init"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$ST/etc/passwd"
printf 'root:x:0:\ndisk:x:6:\n' >"$ST/etc/group"
: >"$ST/etc/fstab"
# lvm2 and mdadm without udev (there is none in the guest) and without
# the host's configuration: device nodes are made by the tools, no
# metadata backups (/etc/lvm would fill up with them), no lvmetad or
# devices file.
mkdir -p "$ST/etc/lvm" "$ST/etc/mdadm" "$ST/run/lvm"
cat >"$ST/etc/lvm/lvm.conf" <<'LVMCONF'
devices {
	obtain_device_list_from_udev = 0
	external_device_info_source = "none"
	use_devicesfile = 0
}
activation {
	udev_sync = 0
	udev_rules = 0
	monitoring = 0
}
backup {
	backup = 0
	archive = 0
}
global {
	locking_dir = "/run/lvm"
}
LVMCONF
printf 'DEVICE partitions\nCREATE owner=root group=disk mode=0660 auto=yes\n' \
	>"$ST/etc/mdadm/mdadm.conf"
ln -sf /proc/mounts "$ST/etc/mtab"
printf '%s\n' "$KVER" >"$ST/bds/kver"
printf '%s\n' "$SERIES" >"$ST/bds/kseries"

(cd "$ST" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
# Drop stale images for this kernel: those nobody used for a day (each
# use touches its image).  Another tree's suite may be using an image of
# another key right now (two worktrees, one cache): deleting it would
# fail that suite's next boot.
find "$OUTDIR" -maxdepth 1 -name "base-$KVER-*.cpio" ! -name "${OUT##*/}" -mmin +1440 -delete
log "built $OUT ($(du -h "$OUT" | cut -f1))"
printf '%s\n' "$OUT"
