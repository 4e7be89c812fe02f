# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# boot-lib.sh - what the QEMU boots of Debian with the packages share
# (boot-check.sh, root-boot-check.sh): TAP lines, the packages of
# "make deb", and a guest root made from deb-check.sh's bookworm root.
# Sourced, with $BOOT_NAME set (the log prefix and the directory under
# $BDS_CACHE).

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${BDS_CACHE:-$HOME/.cache/bds-stripe}
mkdir -p "$CACHE/$BOOT_NAME"
CACHE=$(cd "$CACHE" && pwd -P)
debdir=${BDS_DEB_DIR:-$top/results/deb}
version=$(sed -n 's/.*\.version = { *\([0-9]*\), *\([0-9]*\), *\([0-9]*\) *}.*/\1.\2.\3/p' \
	"$top/dm-bds-stripe.c")
base=$CACHE/bookworm-root
dir=$CACHE/$BOOT_NAME
# shellcheck disable=SC2034 # the includer's
BOOT_TIMEOUT=${BDS_BOOT_TIMEOUT:-1200}

log() { printf '%s: %s\n' "$BOOT_NAME" "$*" >&2; }
die() { log "error: $*"; exit 1; }
# shellcheck source=tests/scripts/tap.sh
. "$top/tests/scripts/tap.sh"

# guest_root_install ROOT PACKAGE...: ROOT becomes a copy of the bookworm
# root with apt-get install PACKAGE... and the two packages of make deb
# (DKMS builds the module for the kernel installed).  TAP line; the log
# is $dir/install.log.  Sets vmlinuz, initrd and kver.
guest_root_install() {
	local root=$1 p f
	local debs=()
	shift
	[ -e "$base/.complete" ] || die "no bookworm root in $base (make deb-check makes it)"
	for p in bds-stripe-dkms bds-stripe-tools; do
		f=$(find "$debdir" -maxdepth 1 -name "${p}_${version}_*.deb" -print)
		{ [ -n "$f" ] && [ -f "$f" ]; } || die "no ${p}_${version}_*.deb in $debdir (make deb)"
		debs+=("$f")
	done
	cp -a "$base/." "$root/"
	rm -f "$root/.complete"
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	mkdir -p "$root/tmp/debs"
	cp "${debs[@]}" "$root/tmp/debs/"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private /bin/sh -c '
		mount -t proc proc "$1/proc" || exit 2
		root=$1
		shift
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/sh -c "
			apt-get -q update && cd /tmp/debs &&
			apt-get install -y -q $* ./*.deb"' \
		sh "$root" "$@" >"$dir/install.log" 2>&1
	ok $? "guest root: apt-get install $* ./*.deb (log: $dir/install.log)"
	rm -rf "$root/tmp/debs" "$root/var/cache/apt/archives/"*.deb
	vmlinuz=$(find "$root/boot" -name 'vmlinuz-*' -print)
	initrd=$(find "$root/boot" -name 'initrd.img-*' -print)
	kver=${vmlinuz##*/vmlinuz-}
	[ -n "$vmlinuz" ] && [ -n "$initrd" ] && [ -e "$root/lib/modules/$kver/updates/dkms/dm-bds-stripe.ko" ]
	ok $? "guest root: kernel $kver, its initrd, and DKMS's dm-bds-stripe.ko for it"
	grep -q 'dm-bds-stripe.ko' "$root/lib/modules/$kver/modules.dep" 2>/dev/null
	ok $? "guest root: modules.dep lists it (the kernel loads it on demand)"
}

# guest_image ROOT HOSTNAME LABEL MEMBER_SIZE TYPE AFTER: the test's
# script (the caller wrote /usr/local/lib/bds-test/run.sh) run by
# bds-test.service (Type=TYPE, After=AFTER), enabled; HOSTNAME, an fstab of
# /dev/vda, no login prompt on the console the test writes to; ROOT made
# into $dir/root.img (ext4, LABEL; sets img) and removed, with the
# kernel and initramfs as $dir/vmlinuz and $dir/initrd.img; four empty
# members $dir/m1.img .. m4.img of MEMBER_SIZE.  Ends the preparation.
guest_image() {
	local root=$1 i
	chmod 0755 "$root/usr/local/lib/bds-test/run.sh"
	printf '%s\n' "[Unit]" "Description=bds-stripe $BOOT_NAME test" "After=$6" \
		"[Service]" "Type=$5" "ExecStart=/usr/local/lib/bds-test/run.sh" \
		"[Install]" "WantedBy=multi-user.target" \
		>"$root/etc/systemd/system/bds-test.service"
	ln -sf /etc/systemd/system/bds-test.service \
		"$root/etc/systemd/system/multi-user.target.wants/bds-test.service"
	printf '%s\n' "$2" >"$root/etc/hostname"
	printf '/dev/vda / ext4 rw 0 1\n' >"$root/etc/fstab"
	ln -sf /dev/null "$root/etc/systemd/system/serial-getty@ttyS0.service"
	ln -sf /dev/null "$root/etc/systemd/system/getty@tty1.service"
	img=$dir/root.img
	rm -f "$img"
	mkfs.ext4 -q -F -L "$3" -d "$root" "$img" 3G >"$dir/mkfs.log" 2>&1
	ok $? "guest root: ext4 image (mkfs.ext4 -d)"
	cp "$vmlinuz" "$dir/vmlinuz" && cp "$initrd" "$dir/initrd.img"
	rm -rf --one-file-system "$root"
	trap - EXIT
	# shellcheck disable=SC2154 # t0: when the includer began
	log "guest prepared in $(($(date +%s) - t0))s"
	for i in 1 2 3 4; do
		rm -f "$dir/m$i.img"
		truncate -s "$4" "$dir/m$i.img"
	done
}

# console_text N: boot N's console from each line's BDS-TEST on (systemd's
# status spinner can start a line with its own text) into boot-N.txt.
console_text() {
	sed 's/.*\(BDS-TEST: \)/\1/; s/\r$//' "$dir/boot-$1.log" >"$dir/boot-$1.txt"
	grep -a '^BDS-TEST' "$dir/boot-$1.txt" | sed 's/^/# /'
}
