# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# kernel-sid.sh - the Linux 7.x (Debian sid) part of kernel.sh.  Sourced by
# kernel.sh (after its log/die/find_uri helpers, CACHE/KCACHE and the lock),
# never run on its own.
#
# sid's kernel headers need sid's compiler (gcc-16) and pahole, which bookworm
# does not have, so modules are built inside a minimal sid root made with
# debootstrap:
#
#   $CACHE/apt-sid/                 private apt state for suite sid
#   $CACHE/sid-root-<pkgver>/       debootstrap root: linux-headers-amd64, gcc,
#                                   make, kmod, libc6-dev, dwarves, sparse
#   $CACHE/kernels/sid_<pkgver>/    dpkg -x of linux-{binary,modules,base}-<abi>
#
# <pkgver> is the version of sid's linux-image-amd64 (both are reused while
# the mirror serves that version).  Builds go through tests/vm/kbuild-root
# with the BUILD_ROOT / BUILD_KDIR variables printed here.

SID_APTDIR=$CACHE/apt-sid
SID_APTCONF=$SID_APTDIR/apt.conf
SID_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# Packages of the build root besides linux-headers-amd64.
SID_ROOT_PKGS=make,kmod,libc6-dev,dwarves,sparse

sid_mirror() {
	local m
	m=${BDS_DEBIAN_MIRROR:-$(find_uri bookworm)}
	[ -n "$m" ] || m=$(find_uri sid)
	[ -n "$m" ] || die "no Debian apt source found in /etc/apt (set BDS_DEBIAN_MIRROR)"
	printf '%s\n' "${m%/}"
}

sid_setup_apt() {
	local mirror=$1 opt=""
	[ -r "$SID_KEYRING" ] && opt="[signed-by=$SID_KEYRING] "
	private_apt "$SID_APTDIR" "deb ${opt}$mirror sid main"
}

sid_apt() { apt-get -c "$SID_APTCONF" -o Debug::NoLocking=1 -q "$@"; }
sid_cache() { apt-cache -c "$SID_APTCONF" -o Debug::NoLocking=1 "$@"; }

# sid_deps and sid_version: tests/vm/apt-lib.sh.

sid_series_ok() { # $1 = version; does it belong to the requested series?
	case "$SERIES" in
	sid | 7) [[ "$1" == 7.* ]] ;;
	*) [[ "$1" == "$SERIES".* ]] ;;
	esac
}

# The debootstrap'ed build root for headers version $1 (ABI $2).
sid_make_root() { # $1 = pkgver, $2 = abi, $3 = mirror
	local ver=$1 abi=$2 mirror=$3 dir tmp t0 kr=()
	dir=$CACHE/sid-root-$ver
	[ -e "$dir/.complete" ] && return 0
	command -v debootstrap >/dev/null ||
		die "debootstrap is not installed (apt-get install debootstrap)"
	t0=$(date +%s)
	tmp=$(mktemp -d "$CACHE/.sid-root.XXXXXX")
	chmod 0755 "$tmp"
	SID_CLEAN=$tmp
	[ -r "$SID_KEYRING" ] && kr=(--keyring="$SID_KEYRING")
	log "creating sid build root for $abi (debootstrap, about a minute)"
	# In a private mount namespace: whatever debootstrap mounts in the root
	# (proc, sys, a /dev bind mount in containers) goes away with it, even
	# when it fails half-way, so removing $tmp can never reach the host's.
	if ! unshare --mount --propagation private \
		debootstrap --variant=minbase "${kr[@]}" \
		--include="linux-headers-amd64,$SID_ROOT_PKGS" sid "$tmp" "$mirror" >&2; then
		[ -r "$tmp/debootstrap/debootstrap.log" ] &&
			tail -n 20 "$tmp/debootstrap/debootstrap.log" >&2
		die "debootstrap of sid failed"
	fi
	[ -f "$tmp/usr/src/linux-headers-$abi/Makefile" ] ||
		die "sid root has no linux-headers-$abi (mirror moved on? retry with BDS_APT_REFRESH=1)"
	# The mirror may be a snapshot whose Release files are past Valid-Until.
	printf 'Acquire::Check-Valid-Until "false";\n' >"$tmp/etc/apt/apt.conf.d/99bds-snapshot"
	rm -rf "$tmp/usr/share/doc" "$tmp/usr/share/man" "$tmp/usr/share/info" \
		"$tmp/usr/share/locale" "$tmp/var/cache/apt/archives/"*.deb \
		"$tmp/var/lib/apt/lists/"*_Packages
	mkdir -p "$tmp/build"
	printf 'ABI=%s\nPKGVER=%s\n' "$abi" "$ver" >"$tmp/.bds-root.env"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	SID_CLEAN=""
	touch "$dir/.complete"
	log "sid build root ready in $dir ($(du -sh "$dir" | cut -f1), $(($(date +%s) - t0))s)"
}

# The unpacked kernel image + modules for pkgver $1 (ABI $2).
sid_unpack_kernel() { # $1 = pkgver, $2 = abi
	local ver=$1 abi=$2 dir tmp p pkgs=() t0
	dir=$KCACHE/sid_$ver
	[ -e "$dir/.complete" ] && return 0
	t0=$(date +%s)
	while IFS= read -r p; do
		case "$p" in
		linux-binary-* | linux-modules-* | linux-base-*) pkgs+=("$p=$ver") ;;
		esac
	done < <(sid_deps "linux-image-$abi")
	[ "${#pkgs[@]}" -ge 2 ] || die "cannot resolve the packages of linux-image-$abi"
	log "7.x: $ver -> ${pkgs[*]}"
	tmp=$(mktemp -d "$KCACHE/.tmp.XXXXXX")
	SID_CLEAN=$tmp
	mkdir -p "$tmp/debs" "$tmp/root"
	(cd "$tmp/debs" && sid_apt download "${pkgs[@]}" >&2)
	for p in "$tmp"/debs/*.deb; do
		log "unpacking ${p##*/}"
		dpkg -x "$p" "$tmp/root"
	done
	# Modules live in /usr/lib/modules; the host's kmod (-b ROOT) looks in
	# ROOT/lib/modules.
	[ -e "$tmp/root/lib" ] || ln -s usr/lib "$tmp/root/lib"
	[ -d "$tmp/root/lib/modules/$abi" ] || die "no modules/$abi in ${pkgs[*]}"
	rm -rf "$tmp/root/usr/share/doc" "$tmp/root/usr/share/lintian" "$tmp/root/usr/share/bug"
	printf 'KVER_=%s\n' "$abi" >"$tmp/root/.bds-kernel.env"
	rm -rf "$dir"
	mv "$tmp/root" "$dir"
	rm -rf "$tmp"
	SID_CLEAN=""
	touch "$dir/.complete"
	log "cached 7.x kernel $abi in $dir ($(($(date +%s) - t0))s)"
}

# Debian's headers packages lack scripts/checker-valid.sh, which the kernel
# Makefile runs for C=1/C=2; without it kbuild disables sparse with a mere
# "$(CHECK) is not available" notice.  Provide one: print 1 when the checker
# runs and reports no error on a __typeof_unqual__ test (what the kernel needs).
sid_fixup_root() { # $1 = root
	local f
	for f in "$1"/usr/src/linux-headers-*-common/scripts; do
		[ -d "$f" ] || continue
		[ -e "$f/checker-valid.sh" ] && continue
		cat >"$f/checker-valid.sh.tmp" <<-'EOS'
		#!/bin/sh
		# SPDX-License-Identifier: GPL-2.0
		# Written by bds-stripe's tests/vm/kernel-sid.sh: usage CHECKER [FLAGS...]
		command -v "$1" >/dev/null 2>&1 || { echo 0; exit 0; }
		src=$(mktemp --suffix=.c) || { echo 0; exit 0; }
		trap 'rm -f "$src"' EXIT
		printf '%s\n' 'static inline int bds_probe(const int *p)' '{' \
			'	__typeof_unqual__(*p) v = *p;' '	v++;' '	return v;' '}' >"$src"
		if "$@" "$src" 2>&1 | grep -i 'error' >/dev/null; then echo 0; else echo 1; fi
		EOS
		chmod 0755 "$f/checker-valid.sh.tmp"
		mv "$f/checker-valid.sh.tmp" "$f/checker-valid.sh"
	done
}

sid_emit() { # $1 = pkgver
	local ver=$1 kroot broot abi vmlinuz kdir flags=""
	kroot=$KCACHE/sid_$ver
	broot=$CACHE/sid-root-$ver
	# shellcheck disable=SC1091
	abi=$(. "$kroot/.bds-kernel.env" && printf '%s' "$KVER_")
	vmlinuz=$kroot/usr/lib/modules/$abi/vmlinuz
	[ -e "$vmlinuz" ] || vmlinuz=$(find "$kroot" \( -name "vmlinuz-$abi" -o -name vmlinuz \) -type f -print -quit)
	[ -n "$vmlinuz" ] || die "no vmlinuz in $kroot"
	kdir=$broot/usr/src/linux-headers-$abi
	[ -f "$kdir/Makefile" ] || die "headers missing in $broot"
	if grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$kdir/.config"; then
		# No vmlinux in a headers package: no BTF for out-of-tree modules.
		flags="CONFIG_DEBUG_INFO_BTF_MODULES="
	fi
	printf 'KSERIES=%s\n' "$SERIES"
	printf 'KPKGVER=%s\n' "$ver"
	printf 'KVER=%s\n' "$abi"
	printf 'KROOT=%s\n' "$kroot"
	printf 'VMLINUZ=%s\n' "$vmlinuz"
	printf 'MODDIR=%s\n' "$kroot/lib/modules/$abi"
	printf 'KDIR=%s\n' "$kdir"
	printf "KMAKEFLAGS='%s'\n" "$flags"
	# Build inside the root: tests/vm/kbuild-root BUILD_ROOT BUILD_KDIR DIR ...
	printf 'BUILD_ROOT=%s\n' "$broot"
	printf 'BUILD_KDIR=%s\n' "/usr/src/linux-headers-$abi"
}

sid_newest_cached() {
	local d best="" v
	for d in "$KCACHE"/sid_*/; do
		[ -e "$d/.complete" ] || continue
		v=${d%/}; v=${v##*/sid_}
		[ -e "$CACHE/sid-root-$v/.complete" ] || continue
		sid_series_ok "$v" || continue
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then
			best=$v
		fi
	done
	[ -n "$best" ] && printf '%s\n' "$best"
}

sid_main() {
	local mirror ver hver abi img v
	SID_CLEAN=""
	trap 'if [ -n "$SID_CLEAN" ]; then rm -rf --one-file-system "$SID_CLEAN"; fi' EXIT
	if [ "${BDS_OFFLINE:-0}" = 1 ]; then
		v=$(sid_newest_cached) || die "BDS_OFFLINE=1 and no cached $SERIES kernel"
		sid_emit "$v"
		return 0
	fi
	mirror=$(sid_mirror)
	sid_setup_apt "$mirror"
	if ! update_lists "$SID_APTDIR" "$SID_APTCONF" sid; then
		if v=$(sid_newest_cached); then
			log "warning: apt unavailable, using cached $v"
			sid_emit "$v"
			return 0
		fi
		die "apt-get update (sid) failed and nothing cached"
	fi
	ver=$(sid_version linux-image-amd64)
	[ -n "$ver" ] || die "no linux-image-amd64 in sid"
	sid_series_ok "$ver" || die "sid has linux-image-amd64 $ver, not $SERIES.*"
	hver=$(sid_version linux-headers-amd64)
	[ "$hver" = "$ver" ] || die "sid: linux-headers-amd64 $hver != linux-image-amd64 $ver"
	img=$(sid_deps linux-image-amd64 | first_match '^linux-image-')
	[ -n "$img" ] || die "cannot resolve the ABI image package of linux-image-amd64 $ver"
	abi=${img#linux-image-}
	if [ -e "$CACHE/sid-root-$ver/.complete" ] && [ -e "$KCACHE/sid_$ver/.complete" ]; then
		log "using cached $SERIES kernel $ver"
	fi
	sid_make_root "$ver" "$abi" "$mirror"
	sid_fixup_root "$CACHE/sid-root-$ver"
	sid_unpack_kernel "$ver" "$abi"
	sid_emit "$ver"
}
