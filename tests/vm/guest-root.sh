#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-root.sh ARCH - the Debian bookworm userland of another architecture
# (arm64) for its test guests, and for cross-building bdsadm: the packages
# below and everything they depend on, downloaded with apt-get (the lists
# of tests/vm/kernel.sh's $BDS_CACHE/apt-ARCH, an empty dpkg status, so
# that apt resolves every dependency) and unpacked with dpkg -x into
# $BDS_CACHE/guest-root/ARCH-<key>, whose path goes to stdout.  Nothing is
# run from it on this host, nothing is installed.  The key is a hash of
# this script: editing the package list makes a new root.
#
# mkinitramfs.sh ARCH copies the guest's programs and their libraries from
# it as it copies the host's for amd64; run-suite (BDS_ARCH=ARCH) links
# bdsadm against its libdevmapper and libblkid.

set -euo pipefail

log() { printf 'guest-root.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
ARCH=${1:-}
case "$ARCH" in
arm64) ;;
*) die "usage: $0 arm64" ;;
esac

# The guest's programs (mkinitramfs.sh's list) and the -dev packages that
# bdsadm links.
PKGS=(
	busybox-static dmsetup fio xfsprogs mdadm kmod util-linux mount fdisk
	lvm2 bash coreutils udev libdevmapper-dev libblkid-dev
)

CACHE=${BDS_CACHE:-$HOME/.cache/bds-stripe}
mkdir -p "$CACHE/guest-root"
CACHE=$(cd "$CACHE" && pwd -P)
KEY=$(sha256sum "$HERE/guest-root.sh" | cut -c1-16)
ROOT=$CACHE/guest-root/$ARCH-$KEY
if [ -e "$ROOT/.complete" ]; then
	printf '%s\n' "$ROOT"
	exit 0
fi

exec 9>"$CACHE/guest-root/.lock"
flock 9
if [ -e "$ROOT/.complete" ]; then
	printf '%s\n' "$ROOT"
	exit 0
fi

# kernel.sh makes (and refreshes) the lists of amd64 and ARCH.
"$HERE/kernel.sh" 6.1 "$ARCH" >/dev/null
APTDIR=$CACHE/apt-$ARCH
[ -r "$APTDIR/apt.conf" ] || die "no $APTDIR/apt.conf after kernel.sh 6.1 $ARCH"

TMP=$(mktemp -d "$CACHE/guest-root/.tmp.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/archives/partial" "$TMP/root"
: >"$TMP/status"
# The same lists, with ARCH as the native architecture, nothing installed.
sed -e "s|^\\([[:space:]]*APT::Architecture\\) .*|\\1 \"$ARCH\";|" \
	-e "s|^\\([[:space:]]*APT::Architectures\\) .*|\\1 { \"$ARCH\"; };|" \
	-e "s|^\\([[:space:]]*Dir::State::status\\) .*|\\1 \"$TMP/status\";|" \
	-e "s|^\\([[:space:]]*Dir::Cache::archives\\) .*|\\1 \"$TMP/archives\";|" \
	"$APTDIR/apt.conf" >"$TMP/apt.conf"
log "downloading ${PKGS[*]} and their dependencies ($ARCH)"
apt-get -c "$TMP/apt.conf" -o Debug::NoLocking=1 -q -y --download-only \
	install "${PKGS[@]}" >"$TMP/apt.log" 2>&1 ||
	die "apt-get failed: $(tail -n 5 "$TMP/apt.log")"
for deb in "$TMP"/archives/*.deb; do
	dpkg -x "$deb" "$TMP/root"
done
log "unpacked $(find "$TMP/archives" -name '*.deb' | wc -l) packages"
rm -rf "$TMP/root/usr/share/doc" "$TMP/root/usr/share/man" \
	"$TMP/root/usr/share/locale" "$TMP/root/usr/share/i18n"
# bookworm's packages still ship /bin, /sbin and /lib; a system merges
# them into /usr when it is installed (usrmerge): the root does so too,
# so that /usr/sbin/blkdiscard and /sbin/blkdiscard are one file, as in
# the amd64 guest.
for d in bin sbin lib; do
	if [ ! -d "$TMP/root/$d" ] || [ -L "$TMP/root/$d" ]; then
		continue
	fi
	mkdir -p "$TMP/root/usr/$d"
	cp -a "$TMP/root/$d/." "$TMP/root/usr/$d/"
	rm -rf "${TMP:?}/root/$d"
	ln -s "usr/$d" "$TMP/root/$d"
done
rm -rf "$ROOT"
mv "$TMP/root" "$ROOT"
# Absolute symlinks (libfoo.so -> /lib/.../libfoo.so.1) become relative
# ones, so that they point into the root here too (the linker follows
# them).
while IFS= read -r -d '' l; do
	ln -sfn --relative "$ROOT$(readlink "$l")" "$l"
done < <(find "$ROOT" -type l -lname '/*' -print0)
touch "$ROOT/.complete"
# Roots of older keys go.
find "$CACHE/guest-root" -mindepth 1 -maxdepth 1 -name "$ARCH-*" ! -path "$ROOT" \
	-exec rm -rf {} +
printf '%s\n' "$ROOT"
