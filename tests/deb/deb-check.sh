#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-check.sh [SUITE...] - "make deb-check": the packages of "make deb"
# (results/deb/, or $BDS_DEB_DIR) installed, removed and purged with apt-get
# in a copy of a debootstrapped root, for each SUITE (default "bookworm sid",
# or $BDS_DEB_SUITES):
#
#   bookworm  $BDS_CACHE/bookworm-root/: minbase + linux-headers-amd64 (6.1),
#             made here once (debootstrap, a few minutes) and reused
#   sid       the 7.x build root of tests/vm/kernel.sh 7.2
#             ($BDS_CACHE/sid-root-<version>/)
#
# In the copy ($BDS_CACHE/deb-check/<suite>.XXXXXX, removed afterwards, so the
# cached roots stay as they are; the last run's apt logs stay in
# $BDS_CACHE/deb-check/<suite>.logs/): apt-get install ./bds-stripe-dkms_*.deb
# ./bds-stripe-tools_*.deb must pull in dkms and the libraries from the
# mirror, DKMS must build and install dm-bds-stripe for the root's headers
# (6.1.* or 7.*: vermagic, name, license), bdsadm --version must print the
# target's version and hold no test hook, the udev rule and the enabled
# units must be in place;
# apt-get remove must take the module, its DKMS tree and sources and the
# tools away; apt-get purge, then autoremove --purge of what the install
# pulled in, must leave the root's files as they were before the install
# (apt's and dpkg's own state, caches and logs aside).
#
# Every chroot runs in a private mount namespace (unshare) with /proc mounted
# in it, so nothing stays mounted whatever happens.  Nothing is installed on
# the host, nothing is loaded.  Output is TAP, then "N passed, N failed".
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../vm/apt-lib.sh
. "$top/tests/vm/apt-lib.sh"
CACHE=${BDS_CACHE:-$HOME/.cache/bds-stripe}
mkdir -p "$CACHE/deb-check"
CACHE=$(cd "$CACHE" && pwd -P)
debdir=${BDS_DEB_DIR:-$top/results/deb}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
version=$(sed -n 's/.*\.version = { *\([0-9]*\), *\([0-9]*\), *\([0-9]*\) *}.*/\1.\2.\3/p' \
	"$top/dm-bds-stripe.c")
name=bds-stripe
mod=dm-bds-stripe

log() { printf 'deb-check: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# shellcheck source=tests/scripts/tap.sh
. "$top/tests/scripts/tap.sh"

debs=()
for p in bds-stripe-dkms bds-stripe-tools; do
	f=$(find "$debdir" -maxdepth 1 -name "${p}_${version}_*.deb" -print)
	[ -n "$f" ] && [ -f "$f" ] || die "no ${p}_${version}_*.deb in $debdir (make deb)"
	debs+=("$f")
done

WORK=""
cleanup() {
	if [ -n "$WORK" ]; then
		rm -rf --one-file-system "$WORK"
	fi
}
trap cleanup EXIT

# in_root ROOT CMD...: CMD in a chroot of ROOT with /proc mounted in a
# private mount namespace; the environment is a clean one.
in_root() {
	local root=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private /bin/sh -c '
		mount -t proc proc "$1/proc" || exit 2
		root=$1; shift
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' sh "$root" "$@"
}
# Quietly, the output kept in $LOGS/$1; on failure its end as TAP comments.
run() { # $1 = log name, $2... = command
	local l=$LOGS/$1
	shift
	if "$@" >"$l" 2>&1; then
		return 0
	fi
	tail -n 30 "$l" | sed 's/^/# /'
	return 1
}

# The files of ROOT that a package may own or leave: all but the state of
# apt and dpkg, caches, logs, /tmp, /proc, /dev and /run.
root_files() { # $1 = root
	(cd "$1" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./run -o -path ./tmp \
		-o -path ./var/tmp -o -path ./var/lib/apt -o -path ./var/lib/dpkg \
		-o -path ./var/cache -o -path ./var/log -o -path ./build \) -prune \
		-o -printf '%y %m %p\n' | LC_ALL=C sort)
}

# ---------------------------------------------------------------------------
# The bookworm root, made once: minbase + linux-headers-amd64.
bookworm_root() {
	local dir=$CACHE/bookworm-root tmp mirror kr=() t0
	if [ -e "$dir/.complete" ]; then
		printf '%s\n' "$dir"
		return 0
	fi
	command -v debootstrap >/dev/null || die "debootstrap is not installed"
	mirror=${BDS_DEBIAN_MIRROR:-$(find_uri bookworm)}
	[ -n "$mirror" ] || die "no bookworm apt source in /etc/apt (set BDS_DEBIAN_MIRROR)"
	mirror=${mirror%/}
	[ -r "$KEYRING" ] && kr=(--keyring="$KEYRING")
	t0=$(date +%s)
	tmp=$(mktemp -d "$CACHE/.bookworm-root.XXXXXX")
	chmod 0755 "$tmp"
	WORK=$tmp
	log "creating the bookworm root (debootstrap minbase + linux-headers-amd64)"
	if ! unshare --mount --propagation private \
		debootstrap --variant=minbase "${kr[@]}" --include=linux-headers-amd64 \
		bookworm "$tmp" "$mirror" >"$CACHE/deb-check/bookworm-debootstrap.log" 2>&1; then
		tail -n 20 "$CACHE/deb-check/bookworm-debootstrap.log" >&2
		die "debootstrap of bookworm failed"
	fi
	printf 'Acquire::Check-Valid-Until "false";\n' >"$tmp/etc/apt/apt.conf.d/99bds-snapshot"
	rm -f "$tmp/var/cache/apt/archives/"*.deb
	rm -rf "$dir"
	mv "$tmp" "$dir"
	WORK=""
	touch "$dir/.complete"
	log "bookworm root ready in $dir ($(du -sh "$dir" | cut -f1), $(($(date +%s) - t0))s)"
	printf '%s\n' "$dir"
}

sid_root() {
	local vars
	vars=$("$top/tests/vm/kernel.sh" 7.2) || die "tests/vm/kernel.sh 7.2 failed"
	sed -n 's/^BUILD_ROOT=//p' <<<"$vars"
}

# ---------------------------------------------------------------------------
check_suite() { # $1 = suite, $2 = cached root, $3 = kernel ERE
	local suite=$1 base=$2 kre=$3 root abi f vm out t0 before before2 after d p st pkgs pkgs_before bad
	t0=$(date +%s)
	root=$(mktemp -d "$CACHE/deb-check/$suite.XXXXXX")
	WORK=$root
	LOGS=$CACHE/deb-check/$suite.logs
	rm -rf "$LOGS"
	mkdir -p "$LOGS"
	cp -a "$base/." "$root/"
	rm -f "$root/.complete"
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	mkdir -p "$root/tmp/debs"
	cp "${debs[@]}" "$root/tmp/debs/"

	# The headers: /lib/modules/<abi>/build, an absolute link inside the root.
	abi=""
	for d in "$root"/lib/modules/*/; do
		d=${d%/}
		f=$(readlink "$d/build") || continue
		case "$f" in /*) f=$root$f ;; *) f=$d/$f ;; esac
		[ -f "$f/Makefile" ] && abi=${d##*/}
	done
	[[ "$abi" =~ $kre ]]
	ok $? "$suite: the root has kernel headers $abi (/lib/modules/$abi/build)"

	run "$suite-update" in_root "$root" apt-get -q update
	ok $? "$suite: apt-get update in the root"
	before=$(root_files "$root")
	pkgs_before=$(in_root "$root" dpkg-query -W -f='${Package}\n' | LC_ALL=C sort)

	# shellcheck disable=SC2016
	run "$suite-install" in_root "$root" /bin/sh -c 'cd /tmp/debs && apt-get install -y -q ./*.deb'
	ok $? "$suite: apt-get install ./bds-stripe-dkms_*.deb ./bds-stripe-tools_*.deb"
	for p in bds-stripe-dkms bds-stripe-tools; do
		[ "$(in_root "$root" dpkg-query -W -f='${Status} ${Version}' "$p" 2>/dev/null)" = \
			"install ok installed $version" ]
		ok $? "$suite: $p $version installed"
	done
	out=$(in_root "$root" dkms status -m "$name" -v "$version" 2>&1)
	echo "# dkms status: $out"
	[[ "$out" == *"$name/$version, $abi, "*": installed"* ]]
	ok $? "$suite: dkms status: $name/$version installed for $abi"
	f=""
	for d in "$root/lib/modules/$abi/updates/dkms/$mod".ko*; do
		[ -e "$d" ] && f=$d
	done
	[ -n "$f" ]
	ok $? "$suite: module ${f#"$root"}"
	if [ -n "$f" ]; then
		vm=$(modinfo -F vermagic "$f" 2>/dev/null)
		[ "${vm%% *}" = "$abi" ]
		ok $? "$suite: vermagic $vm"
		[ "$(modinfo -F name "$f" 2>/dev/null)" = dm_bds_stripe ] &&
			[ "$(modinfo -F license "$f" 2>/dev/null)" = GPL ]
		ok $? "$suite: modinfo name dm_bds_stripe, license GPL"
		# sid's dkms runs depmod only for kernels whose image is installed
		# (their modules.dep exists); these roots have headers only.
		# bookworm's runs it anyway and makes the index.
		if [ ! -e "$root/lib/modules/$abi/modules.dep" ]; then
			ok 0 "$suite: depmod # SKIP no modules.dep: dkms leaves depmod out without linux-image"
		else
			grep -q "updates/dkms/$mod.ko" "$root/lib/modules/$abi/modules.dep" 2>/dev/null
			ok $? "$suite: depmod ran (modules.dep lists it)"
		fi
	fi
	out=$(in_root "$root" bdsadm --version 2>&1)
	echo "# bdsadm --version: $out"
	[[ "$out" == *"$version"* ]]
	ok $? "$suite: bdsadm --version prints $version"
	out=$(in_root "$root" bds-stripe-table --version 2>&1)
	[[ "$out" == *"$version"* ]]
	ok $? "$suite: bds-stripe-table --version prints $version"
	# the test build's hooks (tools/test-hooks.c) are never packaged
	[ -f "$root/usr/sbin/bdsadm" ] &&
		! grep -aq 'BDSADM_TEST_' "$root/usr/sbin/bdsadm"
	ok $? "$suite: the packaged bdsadm has no test hooks (no BDSADM_TEST_ in it)"
	grep -q 'IMPORT{program}="/usr/sbin/bdsadm examine --export' \
		"$root/lib/udev/rules.d/69-bds-stripe.rules" 2>/dev/null
	ok $? "$suite: udev rule 69-bds-stripe.rules runs /usr/sbin/bdsadm"
	grep -q '^ExecStart=/usr/sbin/bdsadm assemble --scan' \
		"$root/lib/systemd/system/bds-stripe-assemble.service" 2>/dev/null &&
		[ -L "$root/etc/systemd/system/local-fs-pre.target.wants/bds-stripe-assemble.service" ]
	ok $? "$suite: bds-stripe-assemble.service installed and enabled (local-fs-pre.target.wants)"
	grep -q '^ExecStart=/usr/sbin/bdsadm monitor' \
		"$root/lib/systemd/system/bds-stripe-monitor.service" 2>/dev/null &&
		[ -L "$root/etc/systemd/system/multi-user.target.wants/bds-stripe-monitor.service" ]
	ok $? "$suite: bds-stripe-monitor.service installed and enabled (multi-user.target.wants)"
	[ -f "$root/usr/share/man/man8/bdsadm.8.gz" ] &&
		[ -f "$root/usr/share/doc/bds-stripe-tools/copyright" ] &&
		[ -f "$root/usr/share/doc/bds-stripe-tools/bdsadm.schema.json" ]
	ok $? "$suite: man page and docs (the JSON schema uncompressed, where bdsadm(8) says)"

	run "$suite-remove" in_root "$root" apt-get remove -y -q bds-stripe-dkms bds-stripe-tools
	ok $? "$suite: apt-get remove bds-stripe-dkms bds-stripe-tools"
	[ -z "$(find "$root/lib/modules" "$root/usr/lib/modules" -name "$mod.ko*" 2>/dev/null)" ] &&
		[ ! -e "$root/var/lib/dkms/$name" ] && [ ! -e "$root/usr/src/$name-$version" ]
	ok $? "$suite: remove: no module, DKMS tree or /usr/src/$name-$version left"
	[ ! -e "$root/usr/sbin/bdsadm" ] && [ ! -e "$root/lib/udev/rules.d/69-bds-stripe.rules" ] &&
		[ ! -e "$root/lib/systemd/system/bds-stripe-assemble.service" ]
	ok $? "$suite: remove: no bdsadm, udev rule or unit left"

	run "$suite-purge" in_root "$root" apt-get purge -y -q bds-stripe-dkms bds-stripe-tools
	ok $? "$suite: apt-get purge bds-stripe-dkms bds-stripe-tools"
	for p in bds-stripe-dkms bds-stripe-tools; do
		st=$(in_root "$root" dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)
		[ -z "$st" ] || [ "$st" = "pn " ]
		ok $? "$suite: purge: $p not installed, no config files (${st:-unknown to dpkg})"
	done
	out=$(cd "$root" && find . -xdev \( -path ./proc -o -path ./tmp \) -prune -o \
		\( -name "*bds-stripe*" -o -name "*bds_stripe*" \) -print)
	[ -z "$out" ] || sed 's/^/# left: /' <<<"$out"
	[ -z "$out" ]
	ok $? "$suite: purge: no file named after bds-stripe anywhere"
	# dkms recommends sudo, whose prerm refuses removal in a root without
	# a root password unless told.
	# Round two, with the dependencies now in place: the root's files
	# before installing the two packages again and after purging them must
	# be the same, none new, none gone (depmod's index of the root's kernel,
	# made in round one, is there both times).
	before2=$(root_files "$root")
	# shellcheck disable=SC2016
	run "$suite-install2" in_root "$root" /bin/sh -c 'cd /tmp/debs && apt-get install -y -q ./*.deb' &&
		[ -n "$(find "$root/lib/modules/$abi/updates/dkms" -name "$mod.ko*" 2>/dev/null)" ]
	ok $? "$suite: again, with dkms installed: apt-get install ./*.deb builds the module"
	run "$suite-purge2" in_root "$root" apt-get purge -y -q bds-stripe-dkms bds-stripe-tools
	ok $? "$suite: apt-get purge (without remove first)"
	after=$(root_files "$root")
	out=$(diff <(printf '%s\n' "$before2") <(printf '%s\n' "$after"))
	[ -z "$out" ] || sed -n '1,40s/^/# /p' <<<"$out"
	[ -z "$out" ]
	ok $? "$suite: install + purge leave the root's files exactly as they were"

	# Round one's leftovers: autoremove what the install pulled in; apt keeps
	# the packages an installed one recommends (gcc's libc6-dev and so on),
	# and their maintainer scripts leave files no package owns (alternatives,
	# depmod's index): none of those may name the target, in path or content.
	# shellcheck disable=SC2016
	run "$suite-autoremove" in_root "$root" /usr/bin/env SUDO_FORCE_REMOVE=yes \
		apt-get autoremove --purge -y -q
	ok $? "$suite: apt-get autoremove --purge (what the install pulled in)"
	after=$(root_files "$root")
	out=$(comm -23 <(printf '%s\n' "$before") <(printf '%s\n' "$after"))
	[ -z "$out" ] || sed -n '1,40s/^/# gone: /p' <<<"$out"
	[ -z "$out" ]
	ok $? "$suite: no file of the root before the install is gone"
	pkgs=$(comm -13 <(printf '%s\n' "$pkgs_before") \
		<(in_root "$root" dpkg-query -W -f='${Package}\n' | LC_ALL=C sort))
	echo "# still installed from the install's dependencies: $(wc -w <<<"$pkgs") packages"
	out=$(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") |
		awk 'NR == FNR {
			own[$0] = 1
			if ($0 ~ /^\/(lib|lib32|lib64|libx32|bin|sbin)(\/|$)/) own["/usr" $0] = 1
			next
		}
		{ p = $0; sub(/^[^ ]* [^ ]* \./, "", p); if (!(p in own)) print p }' \
			<(cat "$root"/var/lib/dpkg/info/*.list) -)
	echo "# new files no package owns (dependencies' maintainer scripts): $(grep -c . <<<"$out")"
	bad=$(while IFS= read -r f; do
		[ -n "$f" ] || continue
		case "$f" in *bds-stripe* | *bds_stripe*) echo "$f"; continue ;; esac
		[ -f "$root$f" ] && [ ! -L "$root$f" ] &&
			grep -l -a -e bds-stripe -e dm_bds_stripe "$root$f" 2>/dev/null
	done <<<"$out")
	[ -z "$bad" ] || sed 's/^/# names the target: /' <<<"$bad"
	[ -z "$bad" ]
	ok $? "$suite: none of them names bds-stripe (path or content)"

	rm -rf --one-file-system "$root"
	WORK=""
	log "$suite: $(($(date +%s) - t0))s (logs in $LOGS)"
}

for suite in ${*:-${BDS_DEB_SUITES:-bookworm sid}}; do
	case "$suite" in
	bookworm)
		base=$(bookworm_root) || exit 1
		check_suite bookworm "$base" '^6\.1\.'
		;;
	sid)
		base=$(sid_root)
		[ -n "$base" ] && [ -d "$base" ] || die "no sid root"
		check_suite sid "$base" '^7\.'
		;;
	*) die "unknown suite $suite (bookworm, sid)" ;;
	esac
done

tap_end
