#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh - build (or reuse) the debug kernel: Debian's
# linux-source-6.1 (apt-get download, never installed) configured with
# x86_64_defconfig + tests/debug/config.fragment (KASAN, lockdep, kmemleak,
# KUnit, fault injection; see the fragment).
#
# The result is cached outside the repository in
#   $BDS_CACHE/debug/<source-version>-<fragment-sha>/
#     src/          the built source tree (usable as KDIR for out-of-tree
#                   modules)
#     bzImage       the kernel
#     root/lib/modules/<kver>/   make modules_install INSTALL_MOD_PATH=root
#     build.log     the build's output
#     .complete     written last; with it a second run does nothing
# and the directory is printed on stdout (progress goes to stderr).
# <fragment-sha> is the first 12 hex digits of the fragment's sha256; the
# kernel release is <version>-<first 8 of them>-bds-debug (a localversion
# file in the tree) so that caches keyed by the release (initramfs, module
# builds) follow a fragment change.  ccache is not used: a cold machine
# would not gain from it, and a fragment change is a rare full rebuild.
#
# Environment:
#   BDS_CACHE       cache root (default ~/.cache/bds-stripe)
#   BDS_OFFLINE     1: never touch apt; use the newest complete cached build
#   BDS_JOBS        make -j (default: number of CPUs)
#   BDS_NICE        nice level of the build (default 10)

set -euo pipefail

log() { printf 'build-kernel: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
FRAG=$HERE/config.fragment
CACHE=${BDS_CACHE:-$HOME/.cache/bds-stripe}
DCACHE=$CACHE/debug
mkdir -p "$DCACHE"
DCACHE=$(cd "$DCACHE" && pwd -P)
PKG=linux-source-6.1

FSHA=$(sha256sum "$FRAG" | cut -c1-12)

if [ "${BDS_OFFLINE:-0}" = 1 ]; then
	best=$(find "$DCACHE" -mindepth 2 -maxdepth 2 -name .complete -path "*-$FSHA/*" \
		-printf '%h\n' | sort -V | tail -n 1)
	[ -n "$best" ] || die "BDS_OFFLINE=1 and no cached debug kernel for fragment $FSHA"
	printf '%s\n' "$best"
	exit 0
fi

# The version apt would download (from the host's own apt lists, read
# again from the mirror once if they do not know the package).
# shellcheck source=../vm/apt-lib.sh
. "$HERE/../vm/apt-lib.sh"
pkgver() { candidate_version "$PKG"; }
VER=$(pkgver)
if [ -z "$VER" ] && [ "$(id -u)" = 0 ]; then
	log "apt knows no $PKG: apt-get update"
	apt-get update -q >/dev/null 2>&1 || log "apt-get update failed"
	VER=$(pkgver)
fi
[ -n "$VER" ] || die "apt knows no $PKG (apt-get update?)"
OUT=$DCACHE/$VER-$FSHA
if [ -e "$OUT/.complete" ]; then
	log "using cached debug kernel $OUT"
	printf '%s\n' "$OUT"
	exit 0
fi

exec 9>"$DCACHE/.lock"
flock 9
if [ -e "$OUT/.complete" ]; then
	printf '%s\n' "$OUT"
	exit 0
fi

T0=$(date +%s)
rm -rf "$OUT"
mkdir -p "$OUT/dl"
log "fetching $PKG $VER"
(cd "$OUT/dl" && apt-get -o APT::Sandbox::User=root download -q "$PKG=$VER" >&2) || die "apt-get download $PKG=$VER failed"
log "unpacking"
dpkg-deb --fsys-tarfile "$OUT"/dl/"${PKG}"_*.deb |
	tar -x -C "$OUT/dl" --wildcards './usr/src/linux-source-*.tar.xz'
tar -xJf "$OUT"/dl/usr/src/linux-source-*.tar.xz -C "$OUT"
rm -rf "$OUT/dl"
mv "$OUT"/linux-source-* "$OUT/src"
SRCDIR=$OUT/src

# Kernel release: <version>-<fragment hash>-bds-debug.
printf -- '-%s\n' "${FSHA:0:8}" >"$SRCDIR/localversion-bds"

JOBS=${BDS_JOBS:-$(nproc)}
NICE=${BDS_NICE:-10}
mk() { nice -n "$NICE" make -C "$SRCDIR" -j"$JOBS" "$@"; }

log "configuring: x86_64_defconfig + ${FRAG#"$HERE"/}"
{
	mk x86_64_defconfig
	(cd "$SRCDIR" && scripts/kconfig/merge_config.sh -m .config "$FRAG")
	mk olddefconfig
} >"$OUT/build.log" 2>&1 || { tail -n 30 "$OUT/build.log" >&2; die "configuration failed"; }

# Every line of the fragment must be in the final .config.  A module (=m)
# that something built-in selects ends up =y: that is fine.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		opt=${line%%=*} want=${line#*=}
		have=$(sed -n "s/^$opt=//p" "$SRCDIR/.config")
		[ "$have" = "$want" ] && continue
		[ "$want" = m ] && [ "$have" = y ] && continue
		log "config: $opt=${have:-<not set>}, fragment wants $want"
		bad=1
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		if grep -q "^$opt=" "$SRCDIR/.config"; then
			log "config: $opt is set, fragment wants it unset"
			bad=1
		fi
		;;
	esac
done <"$FRAG"
[ "$bad" = 0 ] || die "the fragment did not survive olddefconfig"

log "building (make -j$JOBS, nice $NICE; log in $OUT/build.log)"
mk bzImage modules >>"$OUT/build.log" 2>&1 ||
	{ tail -n 40 "$OUT/build.log" >&2; die "kernel build failed"; }
mk modules_install INSTALL_MOD_PATH="$OUT/root" >>"$OUT/build.log" 2>&1 ||
	{ tail -n 20 "$OUT/build.log" >&2; die "modules_install failed"; }
cp "$SRCDIR/arch/x86/boot/bzImage" "$OUT/bzImage"
KVER=$(cat "$SRCDIR/include/config/kernel.release")
[ -d "$OUT/root/lib/modules/$KVER" ] || die "no module tree for $KVER"
printf 'KVER_=%s\n' "$KVER" >"$OUT/.bds-kernel.env"
touch "$OUT/.complete"
log "built $KVER in $(($(date +%s) - T0))s: $OUT"
printf '%s\n' "$OUT"
