#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pvh-kernel.sh BZIMAGE - print the path of the kernel image vm-run should
# give QEMU's -kernel for the x86 bzImage BZIMAGE: its uncompressed ELF
# vmlinux, when the kernel has a PVH entry point, else BZIMAGE itself.
#
# Why: under TCG a bzImage spends about 4 s of every boot in the firmware
# and in decompressing itself (xz, zstd, gzip), measured on this project's
# machine: 6.9 s against 3.1 s from QEMU's start to a panic at /init with
# the same 6.1 kernel and initramfs.  QEMU starts an ELF vmlinux that holds
# the PVH entry note (Xen note 18, XEN_ELFNOTE_PHYS32_ENTRY, CONFIG_PVH=y,
# which Debian's amd64 kernels have) straight at that entry.  The kernel
# is the same: only its unpacking moves to the host, once per kernel.
# (A PVH boot leaves KASLR out: "Kernel Offset: disabled".)
#
# The payload is found by the boot protocol's setup header (protocol 2.08
# and later): setup_sects at 0x1f1, payload_offset at 0x248 and
# payload_length at 0x24c; the payload is the compressed vmlinux followed
# by its uncompressed size (4 bytes, little-endian; gzip's own trailer ends
# with it), which is checked.
# The result is cached in $BDS_CACHE/pvh/, named after BZIMAGE's name,
# size and time, and written under a temporary name first, so guests
# started at once by run-suite either find it whole or make it again.
#
# Prints BZIMAGE when anything is missing: no PVH note (the debug kernel's
# own config), a compression without a tool here, an old boot protocol;
# $BDS_CACHE/pvh/<name>.none then says why, and keeps later boots from
# trying again.  An unpacking that failed or came out short (a full disk,
# say) is not remembered: the next boot tries again.
# BDS_PVH=0 prints BZIMAGE always.

set -euo pipefail

bz=$1
[ -r "$bz" ] || { echo "pvh-kernel.sh: cannot read $bz" >&2; exit 1; }
if [ "${BDS_PVH:-1}" = 0 ]; then
	printf '%s\n' "$bz"
	exit 0
fi

CACHE=${BDS_CACHE:-$HOME/.cache/bds-stripe}/pvh
out=$CACHE/$(basename "$bz")-$(stat -c '%s-%Y' "$bz").elf
if [ -s "$out" ]; then
	printf '%s\n' "$out"
	exit 0
elif [ -e "$out.none" ]; then
	printf '%s\n' "$bz"
	exit 0
fi

# le BYTES OFFSET: the little-endian unsigned number at OFFSET of $bz.
le() { od -An -tu"$1" -j "$2" -N "$1" "$bz" | tr -d ' \n'; }

# fallback WHY: BZIMAGE it is, for this run and (by $out.none) the next.
fallback() {
	mkdir -p "$CACHE"
	printf '%s\n' "$*" >"$out.none"
	this_time "$@"
}

# this_time WHY: BZIMAGE it is, for this run only.
this_time() {
	echo "pvh-kernel.sh: booting $bz as it is: $*" >&2
	printf '%s\n' "$bz"
	exit 0
}

[ "$(od -An -c -j $((0x202)) -N4 "$bz" | tr -d ' \n')" = HdrS ] ||
	fallback "no boot protocol header"
[ "$(le 2 $((0x206)))" -ge $((0x208)) ] || fallback "boot protocol older than 2.08"
sects=$(le 1 $((0x1f1)))
[ "$sects" != 0 ] || sects=4
start=$(((sects + 1) * 512 + $(le 4 $((0x248)))))
len=$(le 4 $((0x24c)))
[ "$len" -gt 4 ] || fallback "no payload"
magic=$(od -An -tx1 -j "$start" -N6 "$bz" | tr -d ' \n')
# Every compressor but gzip has the size appended after its stream.
trailer=4
case "$magic" in
1f8b*) tool=(gzip -dc) trailer=0 ;;
fd377a585a00) tool=(xz -dc --single-stream) ;;
28b52ffd*) tool=(zstd -dcq) ;;
02214c18*) tool=(lz4 -dcq) ;;
425a68*) tool=(bzip2 -dc) ;;
*) fallback "payload compression not known (magic $magic)" ;;
esac
# not remembered: make setup may install it
command -v "${tool[0]}" >/dev/null || this_time "no ${tool[0]} on this machine"

size=$(le 4 $((start + len - 4)))

mkdir -p "$CACHE"
tmp=$(mktemp "$CACHE/.vmlinux.XXXXXX")
trap 'rm -f "$tmp" "$tmp.notes"' EXIT
dd if="$bz" iflag=skip_bytes,count_bytes skip="$start" count=$((len - trailer)) bs=1M status=none |
	"${tool[@]}" >"$tmp" 2>/dev/null || this_time "${tool[0]} could not unpack the payload"
[ "$(stat -c %s "$tmp")" = "$size" ] ||
	this_time "the payload unpacked to $(stat -c %s "$tmp") bytes, its trailer says $size"
# Xen's note 0x12, XEN_ELFNOTE_PHYS32_ENTRY: the PVH entry point.
readelf -n "$tmp" >"$tmp.notes" 2>/dev/null || true
pvh=$(grep -c -E '^ *Xen .*(\(0x00000012\)|PHYS32_ENTRY)' "$tmp.notes" || true)
rm -f "$tmp.notes"
[ "$pvh" -gt 0 ] || fallback "no PVH entry note (CONFIG_PVH)"
mv -f "$tmp" "$out"
trap - EXIT
printf '%s\n' "$out"
