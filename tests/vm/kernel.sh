#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel.sh <6.1|6.12|7.2|debug> [ARCH] - fetch a Debian kernel (image + headers)
# into a cache folder without installing anything on the host, and print
# shell-sourceable variables describing it on stdout (progress goes to stderr).
#
#   6.1  : newest linux-image-amd64 6.1.* from bookworm (+ -updates/-security)
#   6.12 : newest linux-image-amd64 6.12.* from bookworm-backports
#   7.2  : linux-image-amd64 7.2.* from sid ("7" or "sid": any 7.x), built
#          in a debootstrap'ed sid root; see kernel-sid.sh (also prints
#          BUILD_ROOT and BUILD_KDIR, for tests/vm/kbuild-root)
#   debug: linux-source-6.1 built with the debug fragment (KASAN, lockdep,
#          kmemleak, KUnit); handed over to kernel-debug.sh
#
# ARCH (6.1 and 6.12 only; default amd64) fetches another architecture's
# kernel for a cross build: arm64 (flavour arm64, image and headers),
# i386 (686-pae, headers) or armhf (armmp, headers).  Its headers come with
# the amd64 linux-kbuild of the same version (kbuild's programs run on this
# host), and KMAKEFLAGS then carries ARCH=, CROSS_COMPILE= and CC= for
# Debian's cross compilers (gcc-aarch64-linux-gnu, gcc-i686-linux-gnu,
# gcc-arm-linux-gnueabihf).
#
# The packages come from a private apt configuration (own lists, cache and
# sources) whose mirror URI is taken from the host's apt sources, so the host's
# apt state is never touched.  Unpacked trees are keyed by the exact package
# version and reused.
#
# Environment:
#   BDS_CACHE          cache root (default ~/.cache/bds-stripe)
#   BDS_APT_REFRESH    1: always run apt-get update on the private lists;
#                      0: never (use what is there); default: when older than 12h
#   BDS_DEBIAN_MIRROR  override the mirror URI found in the host's sources
#   BDS_OFFLINE        1: do not touch the network, use the newest cached tree
#
# Output (stdout):
#   KVER=...  VMLINUZ=...  MODDIR=...  KDIR=...  KMAKEFLAGS=...  KPKGVER=...
#   KROOT=... KSERIES=... KARCH=...

set -euo pipefail

log() { printf 'kernel.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
# shellcheck source=apt-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/apt-lib.sh"

SERIES=${1:-}
case "$SERIES" in
6.1) SUITE_RE='bookworm(-updates|-security)?' ;;
6.12) SUITE_RE='bookworm-backports' ;;
7 | 7.* | sid) SUITE_RE='sid' ;;
debug) exec "$(dirname "${BASH_SOURCE[0]}")/kernel-debug.sh" ;;
*) die "usage: $0 <6.1|6.12|7.2|sid|debug> [amd64|arm64|i386|armhf]" ;;
esac
KARCH=${2:-amd64}
# Debian's flavour, GNU triplet and kernel ARCH of each architecture.
case "$KARCH" in
amd64) FLAVOUR=amd64 TRIPLET="" KBARCH="" ;;
arm64) FLAVOUR=arm64 TRIPLET=aarch64-linux-gnu KBARCH=arm64 ;;
i386) FLAVOUR=686-pae TRIPLET=i686-linux-gnu KBARCH=x86 ;;
armhf) FLAVOUR=armmp TRIPLET=arm-linux-gnueabihf KBARCH=arm ;;
*) die "unknown architecture '$KARCH' (amd64, arm64, i386 or armhf)" ;;
esac
if [ "$KARCH" != amd64 ] && [ "$SUITE_RE" = sid ]; then
	die "other architectures only for 6.1 and 6.12"
fi
# The cache folder of this series and architecture.
TAG=$SERIES
[ "$KARCH" = amd64 ] || TAG=$SERIES-$KARCH

CACHE=${BDS_CACHE:-$HOME/.cache/bds-stripe}
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd -P)
# Other architectures' lists (amd64's with them) live in lists of their own.
APTDIR=$CACHE/apt
[ "$KARCH" = amd64 ] || APTDIR=$CACHE/apt-$KARCH
KCACHE=$CACHE/kernels
mkdir -p "$APTDIR" "$KCACHE"
KCACHE=$CACHE/kernels

# Serialise concurrent invocations (apt lists and unpacking are shared).
exec 9>"$CACHE/.kernel.lock"
flock 9

# Mirror discovery (host_sources, find_uri): tests/vm/apt-lib.sh.

# private_apt DIR SOURCES: an apt configuration of its own in DIR (lists,
# cache, status and DIR/apt.conf) whose only sources are the lines SOURCES,
# so that the host's apt state is never touched.  New sources forget the
# lists fetched for the old ones.
private_apt() { # DIR SOURCES [FOREIGN-ARCH]
	local dir=$1
	mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial" \
		"$dir/sources.list.d" "$dir/preferences.d" "$dir/apt.conf.d"
	[ -e "$dir/status" ] || : >"$dir/status"
	printf '%s\n' "$2" >"$dir/sources.list.tmp"
	if ! cmp -s "$dir/sources.list.tmp" "$dir/sources.list" 2>/dev/null; then
		mv "$dir/sources.list.tmp" "$dir/sources.list"
		rm -f "$dir/state/.updated"
	else
		rm -f "$dir/sources.list.tmp"
	fi
	cat >"$dir/apt.conf" <<-EOF
	Dir::State "$dir/state";
	Dir::State::lists "$dir/state/lists";
	Dir::State::status "$dir/status";
	Dir::Cache "$dir/cache";
	Dir::Cache::archives "$dir/cache/archives";
	Dir::Cache::pkgcache "";
	Dir::Cache::srcpkgcache "";
	Dir::Etc::sourcelist "$dir/sources.list";
	Dir::Etc::sourceparts "$dir/sources.list.d";
	Dir::Etc::preferences "$dir/preferences";
	Dir::Etc::preferencesparts "$dir/preferences.d";
	APT::Architecture "amd64";
	APT::Architectures { "amd64"; ${3:+\"$3\";} };
	Acquire::Check-Valid-Until "false";
	Acquire::Languages "none";
	APT::Sandbox::User "root";
	#clear APT::Update::Post-Invoke;
	#clear APT::Update::Post-Invoke-Success;
	#clear DPkg::Post-Invoke;
	#clear APT::Update::Pre-Invoke;
	EOF
}

# update_lists DIR CONF WHAT: refresh the private apt lists in DIR (with
# apt.conf CONF) when older than 12 h or BDS_APT_REFRESH=1; never with
# BDS_APT_REFRESH=0; on failure keep the old lists if there are any.
update_lists() {
	local stamp=$1/state/.updated refresh=${BDS_APT_REFRESH:-}
	if [ "$refresh" != 1 ] && [ -e "$stamp" ]; then
		[ "$refresh" = 0 ] && return 0
		[ -z "$(find "$stamp" -mmin +720)" ] && return 0
	fi
	log "updating private apt lists ($3)"
	if apt-get -c "$2" -o Debug::NoLocking=1 -q update >&2; then
		touch "$stamp"
	elif [ -e "$stamp" ]; then
		log "warning: apt-get update failed, using the old $3 lists"
	elif [ "$KARCH" != amd64 ] &&
		[ -n "$(find "$1/state/lists" -name '*_Packages*' -print -quit)" ]; then
		# A cross build needs only some kernel's headers: a suite
		# whose index failed (a mirror mid-sync) is left out, and the
		# next run tries it again.
		log "warning: apt-get update failed for some $3 lists, using the others"
	else
		return 1
	fi
}

if [ "$SUITE_RE" = sid ]; then
	# shellcheck source=kernel-sid.sh
	. "$(dirname "${BASH_SOURCE[0]}")/kernel-sid.sh"
	sid_main
	exit 0
fi

# ---------------------------------------------------------------------------
# Private apt configuration.
APTCONF=$APTDIR/apt.conf
setup_apt() {
	local main sec keyring opt
	main=${BDS_DEBIAN_MIRROR:-$(find_uri bookworm)}
	[ -n "$main" ] || die "no apt source serving suite 'bookworm' found in /etc/apt (set BDS_DEBIAN_MIRROR)"
	main=${main%/}
	sec=$(find_uri bookworm-security)
	sec=${sec%/}
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	opt=""
	[ -r "$keyring" ] && opt="[signed-by=$keyring] "

	private_apt "$APTDIR" "$(
		echo "deb ${opt}$main bookworm main"
		echo "deb ${opt}$main bookworm-updates main"
		echo "deb ${opt}$main bookworm-backports main"
		[ -n "$sec" ] && echo "deb ${opt}$sec bookworm-security main"
	)" "${TRIPLET:+$KARCH}"
}

apt_q() { apt-cache -c "$APTCONF" -o Debug::NoLocking=1 "$@"; }


# Newest version of a package whose version starts with the series and that
# comes from a suite matching SUITE_RE.
newest_version() { # $1 = package
	local best="" v
	while IFS= read -r v; do
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then
			best=$v
		fi
	done < <(apt_q madison "$1" | awk -F ' *\\| *' -v ser="$SERIES" -v re="^($SUITE_RE)/" '
		{ split($3, a, " ") }
		index($2, ser ".") == 1 && a[2] ~ re { print $2 }')
	printf '%s\n' "$best"
}

# dep_of: tests/vm/apt-lib.sh.

# ---------------------------------------------------------------------------
# Fix-ups so the unpacked headers work as KDIR.
fixup_tree() { # $1 = root
	local root=$1 l t f
	# absolute symlinks -> into the root
	while IFS= read -r -d '' l; do
		t=$(readlink "$l")
		case "$t" in
		/usr/src/* | /usr/lib/* | /lib/*) ln -sfn "$root$t" "$l" ;;
		esac
	done < <(find "$root" -type l -lname '/*' -print0)
	# Makefiles (and friends) that include /usr/src/... or /usr/lib/linux-kbuild-...
	for f in "$root"/usr/src/linux-headers-*/Makefile \
		"$root"/usr/src/linux-headers-*/.kernelvariables; do
		[ -f "$f" ] || continue
		if grep -qE '(^|[^[:alnum:]_/])/usr/(src/linux-headers|lib/linux-kbuild)' "$f"; then
			sed -i -E "s#(^|[^[:alnum:]_/])/usr/(src/linux-headers|lib/linux-kbuild)#\\1$root/usr/\\2#g" "$f"
		fi
	done
}

emit() { # $1 = root dir, $2 = package version
	local root=$1 ver=$2 kver moddir kdir vmlinuz flags=""
	# shellcheck disable=SC1091
	. "$root/.bds-kernel.env"
	kver=$KVER_
	vmlinuz=$root/boot/vmlinuz-$kver
	[ -e "$vmlinuz" ] || vmlinuz=$(find "$root" -name "vmlinuz-$kver" -print -quit)
	moddir=$(find "$root/lib/modules" "$root/usr/lib/modules" -maxdepth 1 -name "$kver" -print -quit 2>/dev/null)
	kdir=$root/usr/src/linux-headers-$kver
	[ -f "$kdir/Makefile" ] || die "headers missing in $root"
	if grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$kdir/.config"; then
		# No vmlinux in a headers package: pahole could only print
		# "Skipping BTF generation" per module.  Turn BTF for modules off.
		flags="CONFIG_DEBUG_INFO_BTF_MODULES="
	fi
	if [ -n "$TRIPLET" ]; then
		# Debian's headers name their compiler gcc-<major>; the cross
		# one is <triplet>-gcc-<major>.
		flags="${flags:+$flags }ARCH=$KBARCH CROSS_COMPILE=$TRIPLET-"
		flags="$flags CC=$TRIPLET-$(sed -n 's/^CONFIG_CC_VERSION_TEXT="[^ ]* (.*) \([0-9]*\)\..*/gcc-\1/p' "$kdir/.config")"
	fi
	printf 'KSERIES=%s\n' "$SERIES"
	printf 'KARCH=%s\n' "$KARCH"
	printf 'KPKGVER=%s\n' "$ver"
	printf 'KVER=%s\n' "$kver"
	printf 'KROOT=%s\n' "$root"
	printf 'VMLINUZ=%s\n' "$vmlinuz"
	printf 'MODDIR=%s\n' "$moddir"
	printf 'KDIR=%s\n' "$kdir"
	printf "KMAKEFLAGS='%s'\n" "$flags"
}

newest_cached() {
	local d best="" bv="" v
	for d in "$KCACHE/$TAG"_*/; do
		[ -e "$d/.complete" ] || continue
		v=${d%/}; v=${v##*/"$TAG"_}
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$bv"; then
			best=${d%/}; bv=$v
		fi
	done
	[ -n "$best" ] && printf '%s\t%s\n' "$best" "$bv"
}

# ---------------------------------------------------------------------------
if [ "${BDS_OFFLINE:-0}" = 1 ]; then
	c=$(newest_cached) || die "BDS_OFFLINE=1 and no cached $TAG kernel"
	emit "${c%%$'\t'*}" "${c#*$'\t'}"
	exit 0
fi

setup_apt
if ! update_lists "$APTDIR" "$APTCONF" "bookworm, -updates, -security, -backports"; then
	if c=$(newest_cached); then
		log "warning: apt unavailable, using cached ${c#*$'\t'}"
		emit "${c%%$'\t'*}" "${c#*$'\t'}"
		exit 0
	fi
	die "apt-get update failed and nothing cached"
fi

# Foreign packages are asked for as NAME:ARCH.
Q=""
[ "$KARCH" = amd64 ] || Q=:$KARCH
META_VER=$(newest_version "linux-image-$FLAVOUR$Q")
[ -n "$META_VER" ] || die "no linux-image-$FLAVOUR$Q $SERIES.* found in $SUITE_RE"
ROOT=$KCACHE/${TAG}_$META_VER
if [ -e "$ROOT/.complete" ]; then
	log "using cached $TAG kernel $META_VER"
	emit "$ROOT" "$META_VER"
	exit 0
fi

IMG=$(dep_of "linux-image-$FLAVOUR$Q" "$META_VER" '^linux-image-')
HMETA_VER=$(newest_version "linux-headers-$FLAVOUR$Q")
[ "$HMETA_VER" = "$META_VER" ] || die "linux-headers-$FLAVOUR$Q version $HMETA_VER != image $META_VER"
HDR=$(dep_of "linux-headers-$FLAVOUR$Q" "$META_VER" '^linux-headers-')
if [ -z "$IMG" ] || [ -z "$HDR" ]; then
	die "cannot resolve the ABI packages of $META_VER"
fi
COMMON=$(dep_of "$HDR$Q" "$META_VER" '^linux-headers-.*-common$')
KBUILD=$(dep_of "$HDR$Q" "$META_VER" '^linux-kbuild-')
if [ -z "$COMMON" ] || [ -z "$KBUILD" ]; then
	die "cannot resolve -common / linux-kbuild for $HDR"
fi
log "$TAG: $META_VER -> $IMG $HDR $COMMON $KBUILD"
# A guest of this architecture needs the image; a cross build only the
# headers.
GET=("$HDR$Q=$META_VER" "$COMMON=$META_VER" "$KBUILD:amd64=$META_VER")
case "$KARCH" in amd64 | arm64) GET+=("$IMG$Q=$META_VER") ;; esac

TMP=$(mktemp -d "$KCACHE/.tmp.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/debs" "$TMP/root"
(cd "$TMP/debs" && apt-get -c "$APTCONF" -o Debug::NoLocking=1 -q download "${GET[@]}" >&2)
for deb in "$TMP"/debs/*.deb; do
	log "unpacking ${deb##*/}"
	dpkg -x "$deb" "$TMP/root"
done
KVER_=$(find "$TMP/root" -mindepth 3 -maxdepth 4 -type d -path '*/modules/*' -name '[0-9]*' -printf '%f\n' | sed -n 1p)
[ -n "$KVER_" ] || die "no lib/modules/<kver> in $IMG"
rm -rf "$ROOT"
mv "$TMP/root" "$ROOT"
printf 'KVER_=%s\n' "$KVER_" >"$ROOT/.bds-kernel.env"
fixup_tree "$ROOT"
# The guest needs no docs / firmware metadata.
rm -rf "$ROOT/usr/share/doc" "$ROOT/usr/share/lintian" "$ROOT/usr/share/bug"
touch "$ROOT/.complete"
log "cached $TAG kernel $KVER_ in $ROOT"
emit "$ROOT" "$META_VER"
