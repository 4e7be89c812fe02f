#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-build.sh - installation tests, run by "make install-check".
#
# For each kernel in $BDS_DKMS_KERNELS (default "6.1 6.12": the kernels whose
# headers build with this host's compiler; 7.x needs sid's, which only its
# build root has.  Debian headers unpacked in the cache by tests/vm/kernel.sh,
# never installed):
#
#   dkms      "make dkms-install" / dkms build + install with every DKMS tree
#             (--sourcetree, --dkmstree, --installtree) and the signing key
#             in a temporary directory; the built module must carry the
#             right name, license and vermagic; "make dkms-remove" must
#             remove it all again.
#   install   "make install DESTDIR=<tmp> INSTALL_MOD_PATH=<tmp> KDIR=..."
#             from a scratch copy of the tree must stage the module under
#             <tmp>/lib/modules/<kver>/ and the tool and its man page under
#             <tmp>/usr/local/; "make uninstall" must remove them.
#
# Nothing is loaded, and the host's /usr/src, /var/lib/dkms and /lib/modules
# are not written (checked).  Output is TAP, then "N passed, N failed".
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
name=bds-stripe
mod=dm-bds-stripe
version=$(sed -n 's/.*\.version = { *\([0-9]*\), *\([0-9]*\), *\([0-9]*\) *}.*/\1.\2.\3/p' \
	"$top/$mod.c")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bds-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log=$tmp/log
mkdir -p "$log"

# shellcheck source=tests/scripts/tap.sh
. "$top/tests/scripts/tap.sh"
# Run a command quietly; on failure show the end of its output as TAP comments.
run() { # $1 = log name, $2... = command
	local l=$log/$1
	shift
	if "$@" >"$l" 2>&1; then
		return 0
	fi
	tail -n 25 "$l" | sed 's/^/# /'
	return 1
}
modfield() { # $1 = field, $2 = module file
	modinfo -F "$1" "$2" 2>/dev/null | sed -n 1p
}
# The module file in a directory: plain or compressed (6.12 installs .ko.xz).
modfile() { # $1 = directory
	local f
	for f in "$1/$mod.ko" "$1/$mod.ko.xz" "$1/$mod.ko.zst" "$1/$mod.ko.gz"; do
		[ -e "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}
check_module() { # $1 = what, $2 = module file, $3 = kver
	local f=$2 kv=$3 vm
	[ "$(modfield name "$f")" = dm_bds_stripe ]
	ok $? "$1: modinfo name dm_bds_stripe"
	[ "$(modfield license "$f")" = GPL ]
	ok $? "$1: modinfo license GPL"
	vm=$(modfield vermagic "$f")
	[ "${vm%% *}" = "$kv" ]
	ok $? "$1: vermagic starts with $kv ($vm)"
}

# Host state that must not change.
host_state() {
	ls -A /var/lib/dkms 2>/dev/null
	ls -d /usr/src/$name-* 2>/dev/null
	find /lib/modules/ -name "$mod.ko*" 2>/dev/null
}
host_before=$(host_state)

dcf=$(sed -n 's/^PACKAGE_VERSION="*\([^"]*\)"*/\1/p' "$top/dkms.conf")
[ -n "$version" ] && [ "$dcf" = "$version" ]
ok $? "dkms.conf PACKAGE_VERSION ($dcf) = module .version ($version)"

# Scratch copy of the tree for "make install" (it builds in place).
tree=$tmp/tree
mkdir -p "$tree/tools"
cp -r "$top/Makefile" "$top/Kbuild" "$top/$mod.c" "$top/$mod.h" "$top/libbds" \
	"$top/dkms.conf" "$tree/"
# Every file of tools/ (a list of patterns here missed the man page of
# section 5 and then the example configuration), without what a build left.
cp -r "$top/tools/." "$tree/tools/"
make -s -C "$tree/tools" clean >/dev/null

src=$tmp/src
dkmstree=$tmp/dkms
insttree=$tmp/modules
mkdir -p "$src" "$dkmstree" "$insttree"
# dkms signs with sign_file / mok_* from its environment (framework.conf is
# sourced in a subshell that inherits it): keep the key out of /var/lib/dkms.
export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub
treeargs=(--dkmstree "$dkmstree" --installtree "$insttree" --no-depmod)
added=0

for series in ${BDS_DKMS_KERNELS:-6.1 6.12}; do
	if ! vars=$("$top/tests/vm/kernel.sh" "$series" 2>"$log/kernel-$series"); then
		sed 's/^/# /' "$log/kernel-$series"
		ok 1 "$series: kernel headers (tests/vm/kernel.sh)"
		continue
	fi
	KVER=$(sed -n 's/^KVER=//p' <<<"$vars")
	KDIR=$(sed -n 's/^KDIR=//p' <<<"$vars")
	KMAKEFLAGS=$(sed -n 's/^KMAKEFLAGS=//p' <<<"$vars" | tr -d "'")
	echo "# $series: $KVER, $KDIR${KMAKEFLAGS:+, $KMAKEFLAGS}"
	if [ -x "$KDIR/scripts/sign-file" ]; then
		export sign_file=$KDIR/scripts/sign-file
	else
		export sign_file=/nonexistent
	fi
	kargs=(-k "$KVER" --kernelsourcedir "$KDIR")
	# dkms installs only for kernels that have a module directory.
	mkdir -p "$insttree/$KVER"

	# --- DKMS: add (once) + build + install -------------------------------
	if [ $added = 0 ]; then
		BDS_KMAKEFLAGS=$KMAKEFLAGS run "dkms-install-$series" \
			make -C "$top" --no-print-directory dkms-install \
			DKMS_SRCTREE="$src" DKMS_FLAGS="${treeargs[*]} ${kargs[*]}"
		st=$?
		ok $st "$series: make dkms-install (dkms add, build, install)"
		[ $st = 0 ] && added=1
	else
		BDS_KMAKEFLAGS=$KMAKEFLAGS run "dkms-build-$series" \
			dkms build -m "$name" -v "$version" --sourcetree "$src" "${treeargs[@]}" "${kargs[@]}" &&
			run "dkms-install-$series" \
				dkms install -m "$name" -v "$version" --sourcetree "$src" "${treeargs[@]}" "${kargs[@]}"
		ok $? "$series: dkms build, dkms install"
	fi
	f=$(modfile "$dkmstree/$name/$version/$KVER/x86_64/module")
	ok $? "$series: dkms built ${f#"$tmp"/}"
	if [ -n "$f" ]; then
		check_module "$series dkms" "$f" "$KVER"
		if [ "$sign_file" != /nonexistent ]; then
			[ "$(modfield signer "$f")" = "DKMS module signing key" ]
			ok $? "$series dkms: signed with the temporary DKMS key"
		fi
	fi
	f=$(modfile "$insttree/$KVER/updates/dkms")
	ok $? "$series: dkms installed ${f#"$tmp"/}"

	# --- make install / uninstall, staged ---------------------------------
	stage=$tmp/stage-$series
	# shellcheck disable=SC2086 # KMAKEFLAGS holds several words
	run "make-install-$series" make -C "$tree" --no-print-directory install \
		DESTDIR="$stage" INSTALL_MOD_PATH="$stage" KDIR="$KDIR" $KMAKEFLAGS
	ok $? "$series: make install DESTDIR=<tmp> INSTALL_MOD_PATH=<tmp> KDIR=<$series>"
	f=$(modfile "$stage/lib/modules/$KVER/extra")
	ok $? "$series: staged ${f#"$stage"/}"
	[ -n "$f" ] && check_module "$series make install" "$f" "$KVER"
	[ -x "$stage/usr/local/sbin/bds-stripe-table" ]
	ok $? "$series: staged usr/local/sbin/bds-stripe-table"
	[ -f "$stage/usr/local/share/man/man8/bds-stripe-table.8" ]
	ok $? "$series: staged usr/local/share/man/man8/bds-stripe-table.8"
	[ -x "$stage/usr/local/sbin/bdsadm" ]
	ok $? "$series: staged usr/local/sbin/bdsadm"
	[ -f "$stage/usr/local/share/man/man8/bdsadm.8" ]
	ok $? "$series: staged usr/local/share/man/man8/bdsadm.8"
	[ -f "$stage/usr/local/share/bash-completion/completions/bdsadm" ]
	ok $? "$series: staged usr/local/share/bash-completion/completions/bdsadm"
	grep -q '^RUN+="/usr/local/sbin/bdsadm incremental \$devnode"$' \
		"$stage/lib/udev/rules.d/69-bds-stripe.rules" &&
		grep -q '^IMPORT{program}="/usr/local/sbin/bdsadm examine --export \$devnode"$' \
			"$stage/lib/udev/rules.d/69-bds-stripe.rules"
	ok $? "$series: staged lib/udev/rules.d/69-bds-stripe.rules, naming the installed bdsadm"
	grep -q '^ExecStart=/usr/local/sbin/bdsadm assemble --scan --auto$' \
		"$stage/lib/systemd/system/bds-stripe-assemble.service"
	ok $? "$series: staged lib/systemd/system/bds-stripe-assemble.service"
	run "make-uninstall-$series" make -C "$tree" --no-print-directory uninstall \
		DESTDIR="$stage" INSTALL_MOD_PATH="$stage" KDIR="$KDIR" &&
		[ -z "$(find "$stage" -type f)" ]
	ok $? "$series: make uninstall leaves no files in the stage"
	make -C "$tree" --no-print-directory KDIR="$KDIR" clean >/dev/null 2>&1
done

# --- DKMS: remove everything -----------------------------------------------
if [ $added = 1 ]; then
	unset sign_file
	run dkms-remove make -C "$top" --no-print-directory dkms-remove \
		DKMS_SRCTREE="$src" DKMS_FLAGS="${treeargs[*]}"
	ok $? "make dkms-remove"
	[ ! -e "$src/$name-$version" ] && [ ! -e "$dkmstree/$name" ] &&
		[ -z "$(find "$insttree" -name "$mod.ko*")" ]
	ok $? "dkms-remove: no sources, DKMS tree or installed module left"
fi

[ "$(host_state)" = "$host_before" ]
ok $? "host /var/lib/dkms, /usr/src/$name-*, /lib/modules untouched"

tap_end
