#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot-check.sh - "make deb-boot-check": a QEMU guest that boots Debian
# bookworm with systemd as init, with only the packages of "make deb"
# installed (and the kernel, udev and dmsetup they work with), must
# assemble a labelled volume at boot through the packaged udev rule and
# bds-stripe-assemble.service.
#
#   root    a copy of tests/deb/deb-check.sh's bookworm root
#           ($BDS_CACHE/bookworm-root/) + apt-get install systemd-sysv
#           udev linux-image-amd64 ./bds-stripe-dkms_*.deb
#           ./bds-stripe-tools_*.deb (DKMS builds for that kernel), made
#           into an ext4 image (mkfs.ext4 -d), in $BDS_CACHE/deb-boot/
#   boot 1  a test unit (not part of the packages) makes the volume with
#           bdsadm create over four virtio disks, stops it, powers off
#   boot 2  nobody assembles anything by hand: the test unit, ordered
#           after local-fs.target and the packaged unit, reports whether
#           /dev/mapper/bdsboot is a bds-stripe volume over the four
#           members and whether bds-stripe-assemble.service ran; then it
#           stops the volume and replays the members' udev add events,
#           and the packaged rule's bdsadm incremental must assemble it
#           again; then it powers off
#
# The guest's console is $BDS_CACHE/deb-boot/boot-{1,2}.log (the images are
# removed afterwards, the logs stay).  Nothing is
# installed on the host and nothing is loaded into its kernel.  TAP output.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${BDS_CACHE:-$HOME/.cache/bds-stripe}
mkdir -p "$CACHE/deb-boot"
CACHE=$(cd "$CACHE" && pwd -P)
debdir=${BDS_DEB_DIR:-$top/results/deb}
version=$(sed -n 's/.*\.version = { *\([0-9]*\), *\([0-9]*\), *\([0-9]*\) *}.*/\1.\2.\3/p' \
	"$top/dm-bds-stripe.c")
base=$CACHE/bookworm-root
dir=$CACHE/deb-boot
BOOT_TIMEOUT=${BDS_BOOT_TIMEOUT:-1200}

log() { printf 'boot-check: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
n=0
passed=0
failed=0
ok() {
	local st=$1
	shift
	n=$((n + 1))
	if [ "$st" -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok $n - $*"
	else
		failed=$((failed + 1))
		echo "not ok $n - $*"
	fi
}

[ -e "$base/.complete" ] || die "no bookworm root in $base (make deb-check makes it)"
debs=()
for p in bds-stripe-dkms bds-stripe-tools; do
	f=$(find "$debdir" -maxdepth 1 -name "${p}_${version}_*.deb" -print)
	[ -n "$f" ] && [ -f "$f" ] || die "no ${p}_${version}_*.deb in $debdir (make deb)"
	debs+=("$f")
done

root=$(mktemp -d "$dir/root.XXXXXX")
trap 'rm -rf --one-file-system "$root"' EXIT
t0=$(date +%s)
cp -a "$base/." "$root/"
rm -f "$root/.complete"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
mkdir -p "$root/tmp/debs"
cp "${debs[@]}" "$root/tmp/debs/"

# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount --propagation private /bin/sh -c '
	mount -t proc proc "$1/proc" || exit 2
	exec chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/sh -c "
		apt-get -q update && cd /tmp/debs &&
		apt-get install -y -q systemd-sysv udev linux-image-amd64 ./*.deb"' \
	sh "$root" >"$dir/install.log" 2>&1
ok $? "guest root: apt-get install systemd-sysv udev linux-image-amd64 ./*.deb (log: $dir/install.log)"
vmlinuz=$(find "$root/boot" -name 'vmlinuz-*' -print)
initrd=$(find "$root/boot" -name 'initrd.img-*' -print)
kver=${vmlinuz##*/vmlinuz-}
[ -n "$vmlinuz" ] && [ -n "$initrd" ] && [ -e "$root/lib/modules/$kver/updates/dkms/dm-bds-stripe.ko" ]
ok $? "guest root: kernel $kver, its initrd, and DKMS's dm-bds-stripe.ko for it"
grep -q 'dm-bds-stripe.ko' "$root/lib/modules/$kver/modules.dep" 2>/dev/null
ok $? "guest root: modules.dep lists it (the kernel loads it on demand)"

# The test's own unit and script: not part of the packages.
mkdir -p "$root/usr/local/lib/bds-test" "$root/var/lib/bds-test"
cat >"$root/usr/local/lib/bds-test/run.sh" <<'EOS'
#!/bin/sh
# boot-check.sh's guest side: boot 1 makes the volume, boot 2 reports.
exec >/dev/ttyS0 2>&1
udevadm settle
if [ ! -e /var/lib/bds-test/created ]; then
	echo "BDS-TEST: boot 1: bdsadm create"
	bdsadm create bdsboot --chunk 64K /dev/vdb /dev/vdc /dev/vdd /dev/vde
	echo "BDS-TEST: create rc=$?"
	udevadm settle
	bdsadm stop bdsboot
	echo "BDS-TEST: stop rc=$?"
	touch /var/lib/bds-test/created
	sync
else
	echo "BDS-TEST: boot 2"
	echo "BDS-TEST: assemble unit $(systemctl is-active bds-stripe-assemble.service) $(systemctl show -p Result --value bds-stripe-assemble.service)"
	echo "BDS-TEST: monitor unit $(systemctl is-active bds-stripe-monitor.service)"
	echo "BDS-TEST: table $(dmsetup table bdsboot 2>&1)"
	if [ -b /dev/mapper/bdsboot ]; then echo "BDS-TEST: volume present"; fi
	journalctl -b --no-pager -o cat -u bds-stripe-assemble.service | sed 's/^/BDS-TEST: journal: /'
	journalctl -b --no-pager -o cat | grep -i -e bdsadm -e bds-stripe | sed 's/^/BDS-TEST: log: /'
	bdsadm list 2>&1 | sed 's/^/BDS-TEST: list: /'
	echo "BDS-TEST: udev vdb $(udevadm info -q property /dev/vdb | grep '^BDS_VOLUME_UUID=')"
	ls /run/bds-stripe 2>&1 | sed 's/^/BDS-TEST: run: /'
	# The packaged udev rule alone: stop the volume, replay the members'
	# events; the rule's bdsadm incremental must assemble it again.
	bdsadm stop bdsboot
	echo "BDS-TEST: stopped rc=$? present=$(test -b /dev/mapper/bdsboot && echo yes || echo no)"
	rm -rf /run/bds-stripe
	udevadm trigger --action=add --settle /dev/vdb /dev/vdc /dev/vdd /dev/vde
	udevadm settle
	i=0
	while [ ! -b /dev/mapper/bdsboot ] && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
	if [ -b /dev/mapper/bdsboot ]; then echo "BDS-TEST: udev rule assembled it again"; fi
	journalctl -b --no-pager -o cat -t bdsadm | sed 's/^/BDS-TEST: bdsadm-log: /'
fi
echo "BDS-TEST: done"
systemctl poweroff
EOS
chmod 0755 "$root/usr/local/lib/bds-test/run.sh"
cat >"$root/etc/systemd/system/bds-test.service" <<'EOS'
[Unit]
Description=bds-stripe boot-check.sh test
After=local-fs.target bds-stripe-assemble.service systemd-udev-settle.service
[Service]
Type=oneshot
ExecStart=/usr/local/lib/bds-test/run.sh
[Install]
WantedBy=multi-user.target
EOS
ln -sf /etc/systemd/system/bds-test.service "$root/etc/systemd/system/multi-user.target.wants/bds-test.service"
printf 'bdsboot\n' >"$root/etc/hostname"
printf '/dev/vda / ext4 rw 0 1\n' >"$root/etc/fstab"
# No login prompt on the console the test writes to.
ln -sf /dev/null "$root/etc/systemd/system/serial-getty@ttyS0.service"
ln -sf /dev/null "$root/etc/systemd/system/getty@tty1.service"
rm -rf "$root/tmp/debs" "$root/var/cache/apt/archives/"*.deb

img=$dir/root.img
rm -f "$img"
mkfs.ext4 -q -F -L bdsroot -d "$root" "$img" 3G >"$dir/mkfs.log" 2>&1
ok $? "guest root: ext4 image (mkfs.ext4 -d)"
cp "$vmlinuz" "$dir/vmlinuz" && cp "$initrd" "$dir/initrd.img"
rm -rf --one-file-system "$root"
trap - EXIT
log "guest prepared in $(($(date +%s) - t0))s"

for i in 1 2 3 4; do
	rm -f "$dir/m$i.img"
	truncate -s 256M "$dir/m$i.img"
done
boot() { # $1 = boot number
	local drives=(-drive "file=$dir/root.img,if=virtio,format=raw")
	local i
	for i in 1 2 3 4; do
		drives+=(-drive "file=$dir/m$i.img,if=virtio,format=raw")
	done
	timeout "$BOOT_TIMEOUT" qemu-system-x86_64 -accel tcg -m 1024 -smp 1 -no-reboot \
		-display none -serial "file:$dir/boot-$1.log" -monitor none \
		-kernel "$dir/vmlinuz" -initrd "$dir/initrd.img" \
		-append "root=/dev/vda rw console=ttyS0 panic=-1" "${drives[@]}" \
		>"$dir/qemu-$1.log" 2>&1
}
t1=$(date +%s)
boot 1
ok $? "boot 1 ended by itself ($(($(date +%s) - t1))s)"
grep -q '^BDS-TEST: create rc=0' "$dir/boot-1.log" && grep -q '^BDS-TEST: stop rc=0' "$dir/boot-1.log"
ok $? "boot 1: bdsadm create bdsboot over vdb..vde, bdsadm stop"
t1=$(date +%s)
boot 2
ok $? "boot 2 ended by itself ($(($(date +%s) - t1))s)"
grep '^BDS-TEST' "$dir/boot-2.log" | sed 's/^/# /'
grep -q '^BDS-TEST: volume present' "$dir/boot-2.log" &&
	grep -q '^BDS-TEST: table 0 [0-9]* bds-stripe .*volume ' "$dir/boot-2.log"
ok $? "boot 2: /dev/mapper/bdsboot assembled at boot (labelled bds-stripe table)"
grep -q '^BDS-TEST: assemble unit active success' "$dir/boot-2.log"
ok $? "boot 2: bds-stripe-assemble.service ran and succeeded"
grep -q '^BDS-TEST: udev vdb BDS_VOLUME_UUID=' "$dir/boot-2.log"
ok $? "boot 2: the packaged udev rule imported the member's label (BDS_VOLUME_UUID)"
grep -q '^BDS-TEST: stopped rc=0 present=no' "$dir/boot-2.log" &&
	grep -q '^BDS-TEST: udev rule assembled it again' "$dir/boot-2.log"
ok $? "boot 2: stopped, the members' udev events replayed: the rule assembles it"
log "total $(($(date +%s) - t0))s"
rm -f "$dir"/m?.img "$img" "$dir/vmlinuz" "$dir/initrd.img"

echo "1..$n"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
