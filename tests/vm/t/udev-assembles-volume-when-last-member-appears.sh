#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# With systemd-udevd running and the bds-stripe udev rule installed (the
# rule 'make install' writes, naming the guest's bdsadm), a labelled volume
# comes back by itself when its disks appear.  Four disks on two
# controllers become a volume (bdsadm create), with XFS and a file on it;
# the volume is stopped and every disk is deleted from the kernel (SCSI
# delete).  udev is started, and the disks are added back one by one, each
# with a SCSI scan of its own target, in another order than before:
#  - after each of the first three, udev has run the rule (bdsadm
#    incremental recorded the member in /run/bds-stripe/<uuid>/<device>)
#    and there is no volume;
#  - after the last, /dev/mapper/vol appears; its table has the members in
#    their labelled order (checked by serial) and "volume <uuid>", and the
#    file reads back with its checksum;
#  - udev gives each member ID_FS_TYPE=bds_stripe_member, ID_FS_USAGE=raid,
#    ID_FS_UUID (the volume's) and ID_FS_UUID_SUB (the member's, as its
#    label says), lsblk shows them, and /dev/disk/by-id/bds-member-<member
#    UUID> leads to the disk.
# Then the volume is stopped, udev exits and the module unloads.
#
# topology: ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1 7.2
# boot: own

# shellcheck disable=SC1091
. /bds/guest-lib.sh

[ -x /bds/bin/69-bds-stripe.rules ] || fail "the udev rule is not in the guest (run-suite gives it)"
bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"

# serial_of MAJ:MIN: the QEMU serial of that disk
serial_of() { tail -c +5 "/sys/dev/block/$1/device/vpd_pg80" | tr -d '\000 '; }
# table_serials VOL: the serials of the volume's members, in table order
table_serials() {
	for _w in $(dmsetup table "$1"); do
		case "$_w" in
		*:*) printf '%s ' "$(serial_of "$_w")" ;;
		esac
	done
}

run bdsadm create vol --chunk 64K "$@"
UUID=$(bdsadm examine --export "$1" | sed -n 's/^BDS_VOLUME_UUID=//p')
[ -n "$UUID" ] || fail "no volume UUID in the label of $1"
ORDER=$(table_serials vol)
log "created: $(dmsetup table vol); serials in table order: $ORDER"
run mkfs.xfs -q /dev/mapper/vol
run mount -t xfs /dev/mapper/vol /mnt
head -c 8388608 /dev/urandom >/mnt/file
SUM=$(sha256sum </mnt/file)
run umount /mnt
run bdsadm stop vol

# Every disk out of the kernel; remember its SCSI address.
ADDRS=""
for m in "$@"; do
	dev=$(bds_dev "$m")
	addr=$(basename "$(readlink -f "/sys/block/$dev/device")")
	ADDRS="$ADDRS $addr"
	echo 1 >"/sys/block/$dev/device/delete"
done
log "deleted the disks at$ADDRS"
check "no disk left" sh -c '! ls /sys/block | grep "^sd" >/dev/null'

# udev with the rule, as on an installed system (dm's rules make /dev/mapper).
cp /bds/bin/69-bds-stripe.rules /etc/udev/rules.d/69-bds-stripe.rules
chmod 0644 /etc/udev/rules.d/69-bds-stripe.rules
env -u DM_DISABLE_UDEV /lib/systemd/systemd-udevd --daemon ||
	fail "systemd-udevd did not start"
run udevadm settle -t 30

# seen: members bdsadm incremental has recorded (a file each)
seen() { find "/run/bds-stripe/$UUID" -type f 2>/dev/null | wc -l; }
# Add back in the order 4th, 2nd, 1st, 3rd (addresses are H:C:T:L).
set -- $ADDRS
n=0
for addr in "$4" "$2" "$1" "$3"; do
	n=$((n + 1))
	IFS=: read -r h c t l <<EOF
$addr
EOF
	echo "$c $t $l" >"/sys/class/scsi_host/host$h/scan"
	run udevadm settle -t 30
	i=0
	while [ "$(seen)" -lt "$n" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	expect_eq "$(seen)" "$n" "after disk $n ($addr): members recorded by udev"
	if [ $n -lt 4 ]; then
		check "after disk $n: no volume yet" sh -c '! dmsetup info vol >/dev/null 2>&1'
	fi
done
i=0
while [ ! -b /dev/mapper/vol ] && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "after the last disk: /dev/mapper/vol exists" [ -b /dev/mapper/vol ]
log "records: $(cat "/run/bds-stripe/$UUID"/*)"
[ -b /dev/mapper/vol ] || fail "the volume did not appear"
log "assembled by udev: $(dmsetup table vol)"
expect_eq "$(table_serials vol)" "$ORDER" "members in their labelled order (serials)"
check "the table names the volume" sh -c "dmsetup table vol | grep ' 2 volume $UUID\$' >/dev/null"
# Each member is visible as one (the rule's ID_FS_* and by-id link).
for mm in $(dmsetup table vol | tr ' ' '\n' | grep '^[0-9]*:[0-9]*$'); do
	dev=/dev/$(basename "$(readlink -f "/sys/dev/block/$mm")")
	MU=$(bdsadm examine --export "$dev" | sed -n 's/^BDS_MEMBER_UUID=//p')
	udevadm info --query=property --name="$dev" >/tmp/props
	check "$dev: udev says ID_FS_TYPE=bds_stripe_member" grep -qx ID_FS_TYPE=bds_stripe_member /tmp/props
	check "$dev: udev says ID_FS_USAGE=raid" grep -qx ID_FS_USAGE=raid /tmp/props
	check "$dev: udev says ID_FS_UUID is the volume's" grep -qx "ID_FS_UUID=$UUID" /tmp/props
	check "$dev: udev says ID_FS_UUID_SUB is the member's ($MU)" grep -qx "ID_FS_UUID_SUB=$MU" /tmp/props
	expect_eq "$(lsblk -dno FSTYPE,UUID "$dev" | tr -s ' ')" "bds_stripe_member $UUID" "$dev: lsblk's FSTYPE and UUID"
	expect_eq "$(readlink -f "/dev/disk/by-id/bds-member-$MU")" "$dev" "$dev: /dev/disk/by-id/bds-member-$MU"
done
run mount -t xfs /dev/mapper/vol /mnt
expect_eq "$(sha256sum </mnt/file)" "$SUM" "the file's checksum"
run umount /mnt
run bdsadm stop vol
udevadm control --exit || true
bds_expect_clean
pass
