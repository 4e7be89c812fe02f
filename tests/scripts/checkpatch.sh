#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the kernel's checkpatch.pl --strict --no-tree on the given files.
# checkpatch.pl and its data files are taken from Debian's linux-source-6.1
# package (downloaded with apt-get, never installed) and cached.
set -euo pipefail

cache=${BDS_CACHE:-$HOME/.cache/bds-stripe}/checkpatch
if [ ! -x "$cache/checkpatch.pl" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	echo "checkpatch: fetching linux-source-6.1" >&2
	(cd "$tmp" && apt-get download -q linux-source-6.1 >/dev/null 2>&1) ||
		{ echo "checkpatch: apt-get download linux-source-6.1 failed" >&2; exit 1; }
	dpkg-deb --fsys-tarfile "$tmp"/linux-source-6.1_*.deb |
		tar -x -C "$tmp" --wildcards './usr/src/linux-source-*.tar.xz'
	tar -xJf "$tmp"/usr/src/linux-source-*.tar.xz -C "$tmp" --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	mkdir -p "$cache"
	cp "$tmp"/linux-source-*/scripts/{checkpatch.pl,spelling.txt,const_structs.checkpatch} "$cache"/
	chmod +x "$cache/checkpatch.pl"
fi
exec perl "$cache/checkpatch.pl" --strict --no-tree --no-summary --quiet \
	--show-types -f "$@"
