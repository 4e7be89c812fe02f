#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bds.assemble=0 on the kernel command line turns automatic assembly off
# for the boot: with systemd-udevd and the bds-stripe rule running, a
# labelled volume's disks, deleted and added back, bring no volume and no
# record of bdsadm incremental; assemble --scan --auto (the boot unit)
# says automatic assembly is off; assemble by hand still works.
#
# topology: ctl=2 ctl=2
# append: bds.assemble=0
# timeout: 240
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

[ -x /bds/bin/69-bds-stripe.rules ] || fail "the udev rule is not in the guest (run-suite gives it)"
bds_load_module
bds_four_disks
expect_eq "$(bds_cmdline_arg bds.assemble)" 0 "bds.assemble=0 is on the command line"
run bdsadm create vol --chunk 64K "$A" "$B" "$C"
run bdsadm stop vol
UUID=$(bdsadm examine --export "$A" | sed -n 's/^BDS_VOLUME_UUID=//p')

ADDRS=""
for m in "$A" "$B" "$C"; do
	dev=$(bds_dev "$m")
	ADDRS="$ADDRS $(basename "$(readlink -f "/sys/block/$dev/device")")"
	echo 1 >"/sys/block/$dev/device/delete"
done
cp /bds/bin/69-bds-stripe.rules /etc/udev/rules.d/69-bds-stripe.rules
chmod 0644 /etc/udev/rules.d/69-bds-stripe.rules
env -u DM_DISABLE_UDEV /lib/systemd/systemd-udevd --daemon ||
	fail "systemd-udevd did not start"
run udevadm settle -t 30
for addr in $ADDRS; do
	IFS=: read -r h c t l <<AD
$addr
AD
	echo "$c $t $l" >"/sys/class/scsi_host/host$h/scan"
done
run udevadm settle -t 60
# the disks are back, and udev has handled their events (settle)
for m in "$A" "$B" "$C"; do
	check "$m is back" [ -b "$m" ]
	udevadm info --query=property "$m" >/tmp/prop
	check "$m: udev read its label" grep -qx "BDS_VOLUME_UUID=$UUID" /tmp/prop
done
check "no record of incremental" [ ! -e "/run/bds-stripe/$UUID" ]
check "no volume" sh -c '! dmsetup info vol >/dev/null 2>&1'
run bdsadm assemble --scan --auto >/tmp/out 2>&1
check "the boot unit's scan says it is off" grep -qF "automatic assembly is off (bds.assemble=0 on the kernel command line)" /tmp/out
check "still no volume" sh -c '! dmsetup info vol >/dev/null 2>&1'
run bdsadm assemble vol
run bdsadm stop vol
udevadm control --exit || true
for d in "$A" "$B" "$C"; do
	bdsadm wipe "$d" >/dev/null 2>&1 || true
done
bds_expect_clean "$A" "$B" "$C" "$D"
pass
