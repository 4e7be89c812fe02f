#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blkid-check.sh - the libblkid prober for the member label
# (tools/blkid/0001-libblkid-add-bds_stripe_member-prober.patch), tested
# against Debian's util-linux: the source comes from `apt-get source
# util-linux` through the mirror this host's apt already uses (a
# temporary deb-src list, the host's apt configuration untouched), the
# patch goes on a scratch copy, and libblkid, blkid and wipefs are built
# there.  Then, on sparse files standing in for member disks (no
# device-mapper, no loop device):
#  - the golden label (tests/libbds/golden/label-v1.bin) as a primary copy,
#    and a member whose two copies bdsadm's label I/O wrote (mklabel), are
#    reported as TYPE=bds_stripe_member, USAGE=raid, with the UUIDs, name
#    and version of the vector and of `bdsadm examine --export`;
#  - the backup copy alone is found at the device's end;
#  - a member whose backup lies in front of its data (FRONT_BACKUP, the
#    copy at sector 2032) is found by its primary, and by that copy when
#    the primary is gone (the device's end empty or holding a damaged
#    copy); a copy at sector 2032 without FRONT_BACKUP, and an ADOPT copy
#    there, are not.  These labels are the golden vector with head fields
#    set and the crc computed again by tests/blkid/relabel.c, which knows
#    the format from the document alone;
#  - a copy with one byte flipped, a zero file and an ADOPT backup are not;
#  - wipefs lists the signature at its offsets and erases both copies;
#  - mkfs.xfs with the patched libblkid refuses the member, and leaves it
#    as it was; the system's mkfs.xfs does not (the prober is what
#    matters).
#
# Usage: tests/blkid/blkid-check.sh     (root, to install missing packages)
# Environment:
#   BDS_BLKID_PATCH   the patch to test (default: the one in tools/blkid/)
#   BDS_CACHE         cache directory (default ~/.cache/bds-stripe); the
#                     unpacked source is kept in BDS_CACHE/util-linux-src,
#                     and the patched build's programs and libraries in
#                     BDS_CACHE/blkid-build/KEY, KEY a hash of everything
#                     the build depends on (the patch, the source package,
#                     the configure options, the compiler, autotools): a changed patch
#                     is built again, an unchanged one only applied
#   BDS_KEEP=1        keep the scratch directory
# Output is TAP; the last line is "N passed, N failed"; exit 1 on a failure.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
PATCH=${BDS_BLKID_PATCH:-$REPO/tools/blkid/0001-libblkid-add-bds_stripe_member-prober.patch}
CACHE=${BDS_CACHE:-$HOME/.cache/bds-stripe}
SRC=$CACHE/util-linux-src
SUITE=bookworm
GOLDEN=$REPO/tests/libbds/golden/label-v1.bin
ADOPT=$REPO/tests/libbds/golden/label-v1-adopt.bin

# What the build needs: util-linux's autotools build (autogen.sh because
# the patch changes libblkid/src/Makemodule.am), apt-get source's
# unpacking, bdsadm's libraries, and mkfs.xfs.
DEPS=(autoconf automake autopoint bison gcc gettext libtool make patch
	pkg-config dpkg-dev xz-utils libdevmapper-dev libblkid-dev xfsprogs)
# util-linux configured for libblkid, blkid and wipefs only.
CONFIGURE=(--disable-all-programs --enable-libblkid --enable-blkid
	--enable-wipefs --enable-libsmartcols --enable-libuuid --disable-nls
	--disable-asciidoc --disable-bash-completion --disable-static
	--without-python --without-udev --without-systemd --without-econf
	--without-readline --without-ncursesw --without-tinfo --without-cap-ng
	--without-libz --without-btrfs)

# 2 GiB members, as the golden label says: the backup copy at sector
# 4194288, byte 0x7fffe000; in front of the data (FRONT_BACKUP, incompat
# bit 3) at sector 2032, byte 0xfe000.
SIZE=2G
PRIMARY_OFF=4096
BACKUP_SECTOR=4194288
BACKUP_OFF=$((BACKUP_SECTOR * 512))
FRONT_SECTOR=2032
FRONT_OFF=$((FRONT_SECTOR * 512))
FRONT_BACKUP=0x8

# shellcheck source=tests/scripts/tap.sh disable=SC1091 # run shellcheck -x to follow it
. "$REPO/tests/scripts/tap.sh"

W=$(mktemp -d "${TMPDIR:-/tmp}/blkid-check.XXXXXX")
if [ "${BDS_KEEP:-0}" = 1 ]; then
	trap 'echo "# kept $W"' EXIT
else
	trap 'rm -rf "$W"' EXIT
fi

# --- helpers -----------------------------------------------------------
T0=$(date +%s)
PHASE_T=$T0
PHASE=
phase() { # NAME: ends the phase before, starts NAME
	local now
	now=$(date +%s)
	[ -z "$PHASE" ] || echo "# time: $PHASE $((now - PHASE_T)) s"
	PHASE=$1
	PHASE_T=$now
}
diag() { sed 's/^/# /' "$@" || true; }
# t DESCRIPTION COMMAND...: one TAP line, COMMAND's status
t() {
	local desc=$1 st=0
	shift
	"$@" || st=$?
	ok "$st" "$desc"
	return 0
}
bail() { # a step that the rest needs failed
	phase end
	echo "# total $(($(date +%s) - T0)) s"
	tap_end || exit 1
}

# uuid_at FILE OFFSET: the 16 bytes there as 8-4-4-4-12
uuid_at() {
	local h
	h=$(od -An -tx1 -v -j "$2" -N 16 "$1" | tr -d ' \n')
	echo "${h:0:8}-${h:8:4}-${h:12:4}-${h:16:4}-${h:20:12}"
}
# text_at FILE OFFSET LEN: a NUL-padded text field
text_at() { dd if="$1" bs=1 skip="$2" count="$3" status=none | tr -d '\000'; }
# flip FILE OFFSET: invert one byte
flip() {
	local b
	b=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
	printf '%b' "\\0$(printf '%03o' $((b ^ 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# put FILE OFFSET SRC: write SRC into FILE at byte OFFSET
put() { dd if="$3" of="$1" bs=512 seek=$(($2 / 512)) conv=notrunc status=none; }
blank() { rm -f "$1"; truncate -s "$SIZE" "$1"; }
copy() { cp --sparse=always "$1" "$2"; }

# The patched programs, with the patched libraries.
pblkid() { LD_LIBRARY_PATH=$B/.libs "$B/.libs/blkid" "$@"; }
pwipefs() { LD_LIBRARY_PATH=$B/.libs "$B/.libs/wipefs" "$@"; }
# probe IMAGE: pblkid -p -o export into $W/probe.IMAGE, its status in
# PRC; PROBE_AT, when set, is the byte offset where probing starts
PROBE_AT=0
probe() {
	local f=$W/probe.${1##*/}
	PRC=0
	pblkid -p -O "$PROBE_AT" -o export "$1" >"$f" 2>&1 || PRC=$?
	PROBE=$f
}
val() { sed -n "s/^$1=//p" "$PROBE"; }
# is_member IMAGE VOLUME_UUID MEMBER_UUID NAME VERSION
is_member() {
	probe "$1"
	if [ "$PRC" -eq 0 ] && [ "$(val TYPE)" = bds_stripe_member ] &&
		[ "$(val USAGE)" = raid ] && [ "$(val UUID)" = "$2" ] &&
		[ "$(val UUID_SUB)" = "$3" ] && [ "$(val LABEL)" = "$4" ] &&
		[ "$(val VERSION)" = "$5" ]; then
		return 0
	fi
	echo "# blkid -p -o export $1: exit $PRC"
	diag "$PROBE"
	return 1
}
# no_signature IMAGE: blkid finds nothing (exit 2)
no_signature() {
	probe "$1"
	[ "$PRC" -eq 2 ] && ! grep -q '^TYPE=' "$PROBE" && return 0
	echo "# blkid -p -o export $1: exit $PRC"
	diag "$PROBE"
	return 1
}
# wipefs_offsets IMAGE OFFSET...: wipefs lists bds_stripe_member at
# exactly these offsets
wipefs_offsets() {
	local img=$1 want got
	shift
	pwipefs --noheadings --output OFFSET,TYPE "$img" >"$W/wipefs.out" 2>&1 || true
	got=$(awk '$2 == "bds_stripe_member" { print $1 }' "$W/wipefs.out" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$got" = "$want" ] && return 0
	echo "# wipefs $img: want $want, got:"
	diag "$W/wipefs.out"
	return 1
}
# uses_lib PROGRAM: the loader takes libblkid.so.1 from the patched build
uses_lib() {
	LD_LIBRARY_PATH=$B/.libs ldd "$1" >"$W/ldd.out" 2>&1 || true
	grep -q "libblkid\.so\.1 => $B/\.libs/libblkid\.so\.1 " "$W/ldd.out" && return 0
	diag "$W/ldd.out"
	return 1
}

# --- build dependencies ------------------------------------------------
phase deps
missing=()
for p in "${DEPS[@]}"; do
	dpkg-query -W -f '${db:Status-Status}\n' "$p" 2>/dev/null | grep -qx installed ||
		missing+=("$p")
done
st=0
if [ "${#missing[@]}" -gt 0 ]; then
	echo "# installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		"${missing[@]}" >"$W/apt-install.log" 2>&1 || { st=$?; diag "$W/apt-install.log"; }
fi
ok "$st" "build dependencies installed (${#missing[@]} were missing)"
[ "$st" -eq 0 ] || bail

# --- util-linux's Debian source ------------------------------------------
phase source
# The URIs (and keyrings) of the host's $SUITE sources, one-line and
# deb822 files alike, as "URI KEYRING" ("-": apt's default keys).
host_uris() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v suite="$SUITE" '
			$1 != "deb" { next }
			{
				i = 2; key = "-"
				if ($2 ~ /^\[/) {
					for (; i <= NF; i++) {
						if ($i ~ /signed-by=/) {
							key = $i
							sub(/.*signed-by=/, "", key)
							sub(/\]$/, "", key)
						}
						if ($i ~ /\]$/) break
					}
					i++
				}
				if ($(i + 1) == suite) print $i, key
			}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v suite="$SUITE" '
			function flush(  n, u, s, i, j, ok) {
				if (types ~ /(^| )deb( |$)/ && enabled != "no") {
					n = split(suites, s, " ")
					for (i = 1; i <= n; i++) if (s[i] == suite) ok = 1
					if (ok) {
						n = split(uris, u, " ")
						for (j = 1; j <= n; j++) print u[j], (key == "" ? "-" : key)
					}
				}
				types = uris = suites = key = enabled = ""
			}
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^[A-Za-z-]+:/ {
				f = tolower($1); v = $0; sub(/^[^:]*:[ \t]*/, "", v)
				if (f == "types:") types = v
				else if (f == "uris:") uris = v
				else if (f == "suites:") suites = v
				else if (f == "enabled:") enabled = tolower(v)
				else if (f == "signed-by:" && v ~ /^\//) key = v
			}
			END { flush() }' "$f"
	done
}
fetch_source() {
	local apt=$W/apt uri key dl
	local -a opts
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
	chmod -R a+rX "$W" # apt's download sandbox user reads and writes in it
	host_uris | sort -u | while read -r uri key; do
		if [ "$key" = - ]; then
			echo "deb-src $uri $SUITE main"
		else
			echo "deb-src [signed-by=$key] $uri $SUITE main"
		fi
	done >"$apt/sources.list"
	if [ ! -s "$apt/sources.list" ]; then
		echo "# no '$SUITE' source in /etc/apt/sources.list or sources.list.d"
		return 1
	fi
	opts=(-o "Dir::Etc::SourceList=$apt/sources.list"
		-o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$apt/lists"
		-o "Dir::Cache=$apt/cache")
	if ! apt-get "${opts[@]}" update >"$W/apt-update.log" 2>&1; then
		diag "$W/apt-update.log"
		return 1
	fi
	dl=$SRC.new
	rm -rf "$dl"
	mkdir -p "$dl"
	if ! (cd "$dl" && apt-get "${opts[@]}" source util-linux) >"$W/apt-source.log" 2>&1; then
		diag "$W/apt-source.log"
		return 1
	fi
	rm -rf "$SRC"
	mv "$dl" "$SRC"
	touch "$SRC/.complete"
}
st=0
how=cached
if [ ! -e "$SRC/.complete" ]; then
	how=fetched
	fetch_source || st=$?
fi
UL=
if [ "$st" -eq 0 ]; then
	for d in "$SRC"/util-linux-*/; do
		[ -d "$d" ] && UL=${d%/}
	done
	[ -n "$UL" ] || st=1
fi
ok "$st" "util-linux source $how: ${UL##*/} (${SRC})"
[ "$st" -eq 0 ] || bail
dsc=$(echo "$SRC"/util-linux_*.dsc)
echo "# ${dsc##*/}"

# --- patch and build -----------------------------------------------------
phase build
B=$W/util-linux
cp -a "$UL" "$B"
st=0
(cd "$B" && patch -p1 --batch --forward -i "$PATCH") >"$W/patch.log" 2>&1 ||
	{ st=$?; diag "$W/patch.log"; }
ok "$st" "the patch applies: ${PATCH##*/}"
[ "$st" -eq 0 ] || bail
# The build (about two minutes here) is kept per key; the programs and
# libraries are libtool's .libs, which is all the checks below use.
# autogen.sh makes the build system with the host's autotools, so their
# versions are part of the key too.
BUILD_KEY=$({
	sha256sum <"$PATCH"
	sha256sum <"$dsc"
	printf '%s\n' "${CONFIGURE[@]}" "make blkid wipefs"
	gcc -dumpfullversion -dumpmachine
	for t in autoconf automake libtoolize autopoint; do
		"$t" --version 2>/dev/null | sed -n 1p || echo "$t: none"
	done
} | sha256sum | cut -c1-16)
BUILT=$CACHE/blkid-build/$BUILD_KEY
st=0
if [ -e "$BUILT/.complete" ]; then
	how="cached in $BUILT"
else
	how="built, kept in $BUILT"
	(cd "$B" && ./autogen.sh && ./configure "${CONFIGURE[@]}" &&
		make -j"$(nproc)" blkid wipefs) >"$W/build.log" 2>&1 ||
		{ st=$?; tail -n 40 "$W/build.log" | diag; }
	if [ "$st" -eq 0 ]; then
		rm -rf "$CACHE/blkid-build"
		mkdir -p "$BUILT.new"
		cp -a "$B/.libs" "$BUILT.new/" && mv "$BUILT.new" "$BUILT" &&
			touch "$BUILT/.complete" || st=$?
	fi
fi
ok "$st" "libblkid, blkid and wipefs: $how"
[ "$st" -eq 0 ] || bail
B=$BUILT
patched_libs() { uses_lib "$B/.libs/blkid" && uses_lib "$B/.libs/wipefs"; }
t "patched blkid and wipefs load the patched libblkid" patched_libs

phase tools
# bdsadm's test build and mklabel, from a copy of the tree (nothing is
# built inside it).
st=0
mkdir -p "$W/tree" "$W/bin"
tar -C "$REPO" --exclude=./.git -cf - . | tar -C "$W/tree" -xf -
{ make -C "$W/tree/tools" test-build TEST_DIR="$W/bin" &&
	make -C "$W/tree/tests/bdsadm" mklabel; } >"$W/tools.log" 2>&1 ||
	{ st=$?; tail -n 40 "$W/tools.log" | diag; }
ok "$st" "bdsadm (tools/ test-build) and mklabel build"
[ "$st" -eq 0 ] || bail
BDSADM=$W/bin/bdsadm
MKLABEL=$W/tree/tests/bdsadm/mklabel
st=0
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$W/relabel" "$REPO/tests/blkid/relabel.c" \
	>"$W/relabel.log" 2>&1 || { st=$?; diag "$W/relabel.log"; }
ok "$st" "relabel (tests/blkid/relabel.c) builds"
[ "$st" -eq 0 ] || bail
RELABEL=$W/relabel

# --- images --------------------------------------------------------------
phase images
I=$W/img
mkdir -p "$I"
# golden: the golden vector as the primary copy, nothing else
blank "$I/golden"
put "$I/golden" "$PRIMARY_OFF" "$GOLDEN"
# member: both copies as bdsadm writes them
"$MKLABEL" "$I/member" >"$W/mklabel.log" 2>&1 || diag "$W/mklabel.log"
# backup: the member without its primary copy
copy "$I/member" "$I/backup"
dd if=/dev/zero of="$I/backup" bs=512 seek=8 count=16 conv=notrunc status=none
# flipped: the golden primary with one byte inverted in the member table
copy "$I/golden" "$I/flipped"
flip "$I/flipped" $((PRIMARY_OFF + 0x1000))
# flipped-member: the member with the same byte inverted in its primary
copy "$I/member" "$I/flipped-member"
flip "$I/flipped-member" $((PRIMARY_OFF + 0x1000))
# disk: a disk whose last partition, from 1 MiB on, is a member with its
# backup copy only; the whole disk's backup place holds that copy
dd if="$I/member" of="$W/backup.bin" bs=512 skip="$BACKUP_SECTOR" count=16 status=none
rm -f "$I/disk"
truncate -s $((BACKUP_OFF + 8192 + 1048576)) "$I/disk"
put "$I/disk" $((1048576 + BACKUP_OFF)) "$W/backup.bin"
# zero, and the ADOPT backup copy alone (md's superblock would be at 4096)
blank "$I/zero"
blank "$I/adopt"
put "$I/adopt" "$BACKUP_OFF" "$ADOPT"
# The golden member with its backup in front of its data (FRONT_BACKUP;
# the golden incompat is 0, its data_offset 2048), made by relabel.
# First relabel's own check: with no field set it gives the golden vector
# back, and with the backup's label_sector the backup copy bdsadm wrote
# (so it computes the crc as the label code does).  Then:
#  front-member     the primary and the copy at sector 2032, as a
#                   front-backup member's label has them
#  front            the copy at sector 2032 alone (the primary erased)
#  front-stale-end  that, and at the device's end a copy that fails its
#                   checksum (the end copy bdsadm wrote, one byte inverted)
#  front-nobit      a copy at sector 2032 that says so (label_sector and
#                   backup_sector 2032) but lacks FRONT_BACKUP
#  front-adopt      the ADOPT backup copy moved in front (md's superblock
#                   would be at 4096)
front_images() {
	local r=$RELABEL g=$GOLDEN b=$W/member-backup.bin
	local at=(label_sector="$FRONT_SECTOR" backup_sector="$FRONT_SECTOR")
	dd if="$I/member" of="$b" bs=512 skip="$BACKUP_SECTOR" count=16 status=none &&
		"$r" "$g" "$W/same.bin" && cmp "$g" "$W/same.bin" &&
		"$r" "$g" "$W/end.bin" label_sector="$BACKUP_SECTOR" &&
		cmp "$b" "$W/end.bin" || return 1
	"$r" "$g" "$W/front-primary.bin" incompat="$FRONT_BACKUP" \
		backup_sector="$FRONT_SECTOR" &&
		"$r" "$g" "$W/front-backup.bin" incompat="$FRONT_BACKUP" "${at[@]}" &&
		"$r" "$g" "$W/front-nobit.bin" incompat=0 "${at[@]}" &&
		"$r" "$ADOPT" "$W/front-adopt.bin" \
			incompat=$((0x4 | FRONT_BACKUP)) "${at[@]}" || return 1
	blank "$I/front-member" &&
		put "$I/front-member" "$PRIMARY_OFF" "$W/front-primary.bin" &&
		put "$I/front-member" "$FRONT_OFF" "$W/front-backup.bin" &&
		blank "$I/front" &&
		put "$I/front" "$FRONT_OFF" "$W/front-backup.bin" &&
		copy "$I/front" "$I/front-stale-end" &&
		put "$I/front-stale-end" "$BACKUP_OFF" "$b" &&
		flip "$I/front-stale-end" $((BACKUP_OFF + 0x1000)) &&
		blank "$I/front-nobit" &&
		put "$I/front-nobit" "$FRONT_OFF" "$W/front-nobit.bin" &&
		blank "$I/front-adopt" &&
		put "$I/front-adopt" "$FRONT_OFF" "$W/front-adopt.bin"
}
st=0
front_images >"$W/front-images.log" 2>&1 || { st=1; diag "$W/front-images.log"; }
ok "$st" "front-backup images made by relabel, which gives back the golden vector and bdsadm's backup copy byte for byte"
[ "$st" -eq 0 ] || bail

# --- checks --------------------------------------------------------------
phase checks
GV_UUID=$(uuid_at "$GOLDEN" $((0x30)))
GV_SUB=$(uuid_at "$GOLDEN" $((0x40)))
GV_NAME=$(text_at "$GOLDEN" $((0x100)) 128)
GV_VER=$(od -An -tu4 -j 8 -N 4 "$GOLDEN" | tr -d ' ')
echo "# golden vector: volume $GV_UUID, member $GV_SUB, name $GV_NAME, version $GV_VER"
t "golden primary: bds_stripe_member, raid, UUID/UUID_SUB/LABEL/VERSION as in the vector" \
	is_member "$I/golden" "$GV_UUID" "$GV_SUB" "$GV_NAME" "$GV_VER"

"$BDSADM" examine --export "$I/member" >"$W/examine" 2>&1 || diag "$W/examine"
ex() { sed -n "s/^$1=//p" "$W/examine"; }
echo "# bdsadm examine --export: volume $(ex BDS_VOLUME_UUID), member $(ex BDS_MEMBER_UUID)"
t "bdsadm member: UUID/UUID_SUB/LABEL/VERSION as bdsadm examine --export says" \
	is_member "$I/member" "$(ex BDS_VOLUME_UUID)" "$(ex BDS_MEMBER_UUID)" \
	"$(ex BDS_VOLUME_NAME)" "$(ex BDS_LABEL_VERSION)"
# golden IMAGE OFFSET...: the golden member; wipefs lists its signature
# at these offsets only
golden() {
	local img=$1
	shift
	is_member "$img" "$GV_UUID" "$GV_SUB" "$GV_NAME" "$GV_VER" &&
		wipefs_offsets "$img" "$@"
}
t "backup copy alone (primary erased): found at the device's end" \
	golden "$I/backup" 0x7fffe000
t "golden primary with one byte flipped (bad crc32c): not recognised" \
	no_signature "$I/flipped"
# wipefs probes with BLKID_SUBLKS_BADCSUM: a copy failing its checksum is
# still listed, to be erased.
t "wipefs still lists the flipped copy at 0x1000 (bad checksums accepted)" \
	wipefs_offsets "$I/flipped" 0x1000
t "member with a flipped primary: found by its backup copy" \
	golden "$I/flipped-member" 0x1000 0x7fffe000
t "zero file: not recognised" no_signature "$I/zero"
t "a member partition's backup copy is not reported for the whole disk" \
	no_signature "$I/disk"
in_partition() {
	local rc=0
	PROBE_AT=1048576
	is_member "$1" "$GV_UUID" "$GV_SUB" "$GV_NAME" "$GV_VER" || rc=1
	PROBE_AT=0
	return "$rc"
}
t "... but for the partition (blkid -O 1 MiB)" in_partition "$I/disk"
t "ADOPT backup copy alone (md still owns the disk): not recognised" \
	no_signature "$I/adopt"
t "front-backup member (FRONT_BACKUP, incompat bit 3): found; wipefs lists 0x1000 and 0xfe000" \
	golden "$I/front-member" 0x1000 0xfe000
t "front backup copy alone (primary erased, device's end empty): found at sector 2032" \
	golden "$I/front" 0xfe000
t "front backup copy, the device's end holding a copy with a bad checksum: found; wipefs lists both" \
	golden "$I/front-stale-end" 0x7fffe000 0xfe000
t "copy at sector 2032 without FRONT_BACKUP: not recognised" \
	no_signature "$I/front-nobit"
t "ADOPT copy at sector 2032 (FRONT_BACKUP too; md still owns the disk): not recognised" \
	no_signature "$I/front-adopt"
t "wipefs lists the golden primary at offset 0x1000" \
	wipefs_offsets "$I/golden" 0x1000
t "wipefs lists the member's copies at 0x1000 and 0x7fffe000" \
	wipefs_offsets "$I/member" 0x1000 0x7fffe000
copy "$I/member" "$I/wiped"
pwipefs -a "$I/wiped" >"$W/wipefs-a.out" 2>&1 || diag "$W/wipefs-a.out"
wiped() {
	no_signature "$1" || return 1
	"$BDSADM" examine "$1" >/dev/null 2>&1 || return 0
	echo "# bdsadm examine $1 still finds a label"
	return 1
}
t "wipefs -a erases both copies: blkid and bdsadm examine find no label" \
	wiped "$I/wiped"

# mkfs.xfs: with the patched libblkid it refuses the member ...
MKFS=$(command -v mkfs.xfs)
t "mkfs.xfs loads the patched libblkid under LD_LIBRARY_PATH" uses_lib "$MKFS"
copy "$I/member" "$I/mkfs"
mkfs_rc=0
LD_LIBRARY_PATH=$B/.libs "$MKFS" "$I/mkfs" >"$W/mkfs.out" 2>&1 || mkfs_rc=$?
mkfs_refuses() {
	[ "$mkfs_rc" -ne 0 ] && grep -q 'existing .*(bds_stripe_member)' "$W/mkfs.out" &&
		cmp -s "$I/member" "$I/mkfs" && return 0
	echo "# mkfs.xfs (patched libblkid): exit $mkfs_rc"
	diag "$W/mkfs.out"
	return 1
}
t "mkfs.xfs (patched libblkid) without -f refuses the member, names the signature, writes nothing" \
	mkfs_refuses
# ... and with the system's it does not: the refusal is the prober's.
copy "$I/member" "$I/mkfs-sys"
sys_rc=0
"$MKFS" "$I/mkfs-sys" >"$W/mkfs-sys.out" 2>&1 || sys_rc=$?
mkfs_sys_takes() {
	[ "$sys_rc" -eq 0 ] && ! cmp -s "$I/member" "$I/mkfs-sys" && return 0
	echo "# mkfs.xfs (system libblkid): exit $sys_rc"
	diag "$W/mkfs-sys.out"
	return 1
}
t "mkfs.xfs (system libblkid) does not see the member and formats it" mkfs_sys_takes

phase end
echo "# total $(($(date +%s) - T0)) s"
tap_end || exit 1
