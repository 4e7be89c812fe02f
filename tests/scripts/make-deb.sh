#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-deb.sh - "make deb": build the Debian packages bds-stripe-dkms and
# bds-stripe-tools with dpkg-buildpackage (debhelper, dh-dkms) from a copy
# of the tree in a temporary directory, so that the repository stays as it
# is, then run lintian on them.
#
# Output in $BDS_DEB_DIR (default <top>/results/deb/, which git ignores):
#   bds-stripe-dkms_<v>_all.deb  bds-stripe-tools_<v>_<arch>.deb
#   bds-stripe_<v>_<arch>.changes .buildinfo  build.log  lintian.txt
# Fails when debian/changelog's version is not the target's .version
# (dm-bds-stripe.c) or dkms.conf's, or when lintian reports an error or a
# warning (info and pedantic tags are printed, overrides in debian/ say why).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${BDS_DEB_DIR:-$top/results/deb}
log() { printf 'make-deb: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

version=$(sed -n 's/.*\.version = { *\([0-9]*\), *\([0-9]*\), *\([0-9]*\) *}.*/\1.\2.\3/p' \
	"$top/dm-bds-stripe.c")
[ -n "$version" ] || die "no .version in dm-bds-stripe.c"
debver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
[ "$debver" = "$version" ] ||
	die "debian/changelog is at $debver, the target (dm-bds-stripe.c .version) at $version: add an entry (dch -v $version)"
dkmsver=$(sed -n 's/^PACKAGE_VERSION="*\([^"]*\)"*/\1/p' "$top/dkms.conf")
[ "$dkmsver" = "$version" ] ||
	die "dkms.conf PACKAGE_VERSION is $dkmsver, the target's .version $version"
for c in dpkg-buildpackage dh dh_dkms lintian; do
	command -v "$c" >/dev/null || die "$c missing (make setup installs .ci/packages)"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bds-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src=$tmp/bds-stripe-$version
mkdir -p "$src"
# The tree as git sees it (tracked and new files, not ignored build output);
# without git, everything but results/.
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	# shellcheck disable=SC2016 # the inner shell (xargs sh -c) expands $f
	(cd "$top" && git ls-files -z -c -o --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		cpio -0 -pdm --quiet "$src")
else
	(cd "$top" && tar --exclude=./.git --exclude=./results -cf - .) | tar -C "$src" -xf -
fi

log "dpkg-buildpackage -b -us -uc in $src"
if ! (cd "$src" && dpkg-buildpackage -b -us -uc) >"$tmp/build.log" 2>&1; then
	tail -n 40 "$tmp/build.log" >&2
	mkdir -p "$out" && cp "$tmp/build.log" "$out/"
	die "dpkg-buildpackage failed (log: $out/build.log)"
fi
changes=$(find "$tmp" -maxdepth 1 -name 'bds-stripe_*.changes' -print)
[ -n "$changes" ] || die "no .changes file"

rc=0
# (lintian's "running with root privileges is not recommended" is left out.)
lintian --info --display-info --pedantic --fail-on error,warning \
	"$changes" 2>&1 | grep -v -e '^running with root privileges' -e '^N: *$' \
	>"$tmp/lintian.txt" || rc=${PIPESTATUS[0]}

mkdir -p "$out"
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
cp "$tmp"/*.deb "$tmp"/*.changes "$tmp"/*.buildinfo "$tmp/build.log" "$tmp/lintian.txt" "$out/"
for f in "$out"/*.deb; do
	log "built ${f#"$top"/}"
done
if [ -s "$out/lintian.txt" ]; then
	sed 's/^/lintian: /' "$out/lintian.txt" >&2
else
	log "lintian: no tags"
fi
[ "$rc" -eq 0 ] || die "lintian failed (exit $rc)"
