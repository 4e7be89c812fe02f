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
#           again; then the packaged bds-stripe-monitor.service, with
#           the unit's hardening and a drop-in that adds a --program
#           which hangs on MemberFailed, ignoring SIGTERM (a mailer that
#           never returns): the disks are wiped and made into dm-linear
#           members of a volume "bdsmon" (dmsetup), one member is
#           switched to the error target and read; the monitor must
#           report it (journal) and start the program, which must run
#           with no signal blocked or ignored, in its own process group,
#           unable to write to /var/lib (ProtectSystem=strict); then
#           systemctl stop must end the monitor while the program hangs:
#           the monitor kills the program's group itself (SIGTERM, then
#           SIGKILL) and exits 0, within TimeoutStopSec, so that systemd
#           kills nothing (unit result "success"); then a volume of two
#           members with 64 MiB of data is grown by the other two (grow
#           --add --rate 2) and the power is cut mid-restripe (sysrq o),
#           with bds-stripe-assemble.service masked first
#   boot 3  the udev rule alone (its bdsadm incremental, the unit
#           bds-stripe-assemble@<uuid>.service at coldplug: the global
#           unit is masked) brings the volume up mid-restripe, and
#           assembly starts the packaged bds-stripe-grow@.service (with
#           its sandbox), which must finish the restripe: four members,
#           the volume longer, the data as written; then it powers off
# No boot may find an ordering cycle among the units (systemd would drop
# a job to break it: a PrivateTmp= in a unit ordered before
# local-fs.target made one, which dropped local-fs.target).
#
# The guest's console is $BDS_CACHE/deb-boot/boot-{1,2,3}.log, boots 2 and
# 3's test lines also in boot-{2,3}.txt (the images are removed afterwards, the logs
# stay).  Nothing is
# installed on the host and nothing is loaded into its kernel.  TAP output.
set -uo pipefail

BOOT_NAME='deb-boot'
# shellcheck source=tests/deb/boot-lib.sh
. "$(dirname "$0")/boot-lib.sh"

root=$(mktemp -d "$dir/root.XXXXXX")
trap 'rm -rf --one-file-system "$root"' EXIT
t0=$(date +%s)
guest_root_install "$root" systemd-sysv udev linux-image-amd64

# The test's own unit and script: not part of the packages.
mkdir -p "$root/usr/local/lib/bds-test" "$root/var/lib/bds-test"
# The monitor's --program (a drop-in): it says how it was called and how
# it runs (the signal state as a command it runs sees it), tries to
# write to /var/lib, and hangs on MemberFailed, ignoring SIGTERM.
cat >"$root/usr/local/lib/bds-test/alert" <<'EOS'
#!/bin/sh
echo "bds-alert: start pid=$$ pgid=$(cut -d' ' -f5 /proc/$$/stat)" \
	"$(grep -E '^Sig(Blk|Ign):' /proc/self/status | tr -s '\t\n' '  ')call: $*"
if touch /var/lib/bds-test/alert-wrote 2>/dev/null; then
	echo "bds-alert: could write to /var/lib"
else
	echo "bds-alert: /var/lib is read-only"
fi
[ "$1" = MemberFailed ] || exit 0
trap '' TERM
sleep infinity &
echo "bds-alert: hanging, sleep pid=$!"
wait
echo "bds-alert: end"
EOS
chmod 0755 "$root/usr/local/lib/bds-test/alert"
mkdir -p "$root/etc/systemd/system/bds-stripe-monitor.service.d"
cat >"$root/etc/systemd/system/bds-stripe-monitor.service.d/bds-test.conf" <<'EOS'
[Service]
ExecStart=
ExecStart=/usr/sbin/bdsadm monitor --program /usr/local/lib/bds-test/alert --program-timeout 3600
EOS
cat >"$root/usr/local/lib/bds-test/run.sh" <<'EOS'
#!/bin/sh
# boot-check.sh's guest side: boot 1 makes the volume, boot 2 reports.
exec >/dev/ttyS0 2>&1
mon=bds-stripe-monitor.service

# mon_log_wait TEXT: until the monitor unit's journal holds TEXT (60 s).
mon_log_wait() {
	i=0
	until journalctl -b --no-pager -o cat -u $mon | grep -F -- "$1" >/dev/null; do
		i=$((i + 1))
		[ $i -lt 60 ] || return 1
		sleep 1
	done
}

# The packaged monitor, hardened, with the drop-in's --program that
# hangs: a member of a volume over dm-linear members fails, the report
# and the program come, and systemctl stop ends the monitor meanwhile.
monitor_test() {
	# the member's I/O errors are not to cut into the lines below
	dmesg -n 1
	echo "BDS-TEST: monitor $(systemctl is-active $mon) cmd $(systemctl show -p ExecStart --value $mon | sed -n 's/.*argv\[\]=\([^;]*\);.*/\1/p')"
	systemctl show -p NoNewPrivileges -p ProtectSystem -p ProtectHome -p PrivateTmp \
		-p DevicePolicy -p DeviceAllow -p RestrictAddressFamilies -p SystemCallFilter \
		-p TimeoutStopUSec $mon | cut -c1-120 | sed 's/^/BDS-TEST: monitor-prop: /'
	bdsadm stop bdsboot
	bdsadm wipe /dev/vdb /dev/vdc /dev/vdd /dev/vde
	echo "BDS-TEST: wiped rc=$?"
	i=0
	for d in vdb vdc vdd vde; do
		echo "0 $(blockdev --getsz /dev/$d) linear /dev/$d 0" | dmsetup create bdsm$i
		i=$((i + 1))
	done
	# 64 KiB units, groups (bdsm0 bdsm1) (bdsm2 bdsm3): order 0,2,1,3,
	# unit 2 on bdsm1
	echo "0 524288 bds-stripe 128 2 2 /dev/mapper/bdsm0 0 /dev/mapper/bdsm1 0 2 /dev/mapper/bdsm2 0 /dev/mapper/bdsm3 0" |
		dmsetup create bdsmon -u BDS-0d0d0d0d-0000-4000-8000-0000000000b0
	echo "BDS-TEST: bdsmon $(dmsetup status bdsmon 2>&1)"
	mon_log_wait "VolumeAppeared: volume bdsmon" && echo "BDS-TEST: monitor saw bdsmon"
	dmsetup suspend bdsm1
	echo "0 $(blockdev --getsz /dev/vdc) error" | dmsetup load bdsm1
	dmsetup resume bdsm1
	dd if=/dev/mapper/bdsmon of=/dev/null bs=64k skip=2 count=1 iflag=direct 2>/dev/null ||
		echo "BDS-TEST: unit 2 (bdsm1) read failed"
	echo "BDS-TEST: bdsmon health $(dmsetup status bdsmon | cut -d' ' -f5)"
	if mon_log_wait "MemberFailed: volume bdsmon, member 1 " &&
	   mon_log_wait "bds-alert: hanging"; then
		echo "BDS-TEST: monitor reported it, the program hangs"
	fi
	journalctl -b --no-pager -o cat -u $mon | sed -n 's/^bds-alert: start pid=\([0-9]*\) .*call: MemberFailed .*/\1/p' >/run/alert.pid
	journalctl -b --no-pager -o cat -u $mon | sed -n 's/^bds-alert: hanging, sleep pid=\([0-9]*\)$/\1/p' >>/run/alert.pid
	t0=$(date +%s)
	systemctl stop $mon
	t1=$(date +%s)
	echo "BDS-TEST: monitor stop took $((t1 - t0)) s, result $(systemctl show -p Result --value $mon), status $(systemctl show -p ExecMainStatus --value $mon), now $(systemctl is-active $mon)"
	left=""
	while read -r p; do
		if [ -e "/proc/$p" ]; then left="$left $p"; fi
	done </run/alert.pid
	echo "BDS-TEST: program pids $(tr '\n' ' ' </run/alert.pid)left:${left:- none}"
	if [ -e /var/lib/bds-test/alert-wrote ]; then echo "BDS-TEST: the program wrote to /var/lib"; fi
	journalctl -b --no-pager -o cat -u $mon | sed 's/^/BDS-TEST: monitor-log: /'
	# the monitor's last lines come as it exits: journald may find it gone
	# and not know its unit; its syslog ident finds them all
	journalctl -b --no-pager -o cat -t bdsadm-monitor | sed 's/^/BDS-TEST: monitor-syslog: /'
	dmsetup remove bdsmon
	for i in 0 1 2 3; do dmsetup remove bdsm$i; done
}

# A volume grown from 2 to 4 members, cut mid-restripe: 64 MiB of
# random data written first (its md5 kept), then grow --add at 2 MB/s,
# and once the copy has moved, the power goes (sysrq o: no sync, no
# unit stopped).
grow_cut() {
	bdsadm create bdsgrow --chunk 64K /dev/vdb /dev/vdc
	echo "BDS-TEST: grow: create rc=$?"
	dd if=/dev/urandom of=/run/grow.data bs=1M count=64 status=none
	dd if=/run/grow.data of=/dev/mapper/bdsgrow bs=1M oflag=direct conv=fsync status=none
	md5sum </run/grow.data | cut -d' ' -f1 >/var/lib/bds-test/grow.md5
	blockdev --getsz /dev/mapper/bdsgrow >/var/lib/bds-test/grow.old
	touch /var/lib/bds-test/grow-cut
	# boot 3: the udev rule alone assembles at coldplug
	systemctl mask bds-stripe-assemble.service
	sync
	bdsadm grow bdsgrow --add /dev/vdd /dev/vde --rate 2 >/run/grow.out 2>&1 &
	i=0
	done_units=0
	while [ "$done_units" -lt 32 ] && [ $i -lt 300 ]; do
		sleep 1
		i=$((i + 1))
		done_units=$(bdsadm detail --json bdsgrow 2>/dev/null | sed -n 's/.*"done_units": \([0-9]*\).*/\1/p')
		done_units=${done_units:-0}
	done
	echo "BDS-TEST: grow: cut at $done_units units copied, table $(dmsetup table bdsgrow | sed 's/.* reshape/reshape/')"
	echo o >/proc/sysrq-trigger
}

# Boot 3: nobody runs anything by hand; assembly at boot brings bdsgrow up
# mid-restripe and starts bds-stripe-grow@bdsgrow.service, which must
# finish the restripe (waited for up to 600 s, or until the unit has not
# been running for 30 s).
grow_report() {
	u=bds-stripe-grow@bdsgrow.service
	i=0
	idle=0
	while [ $i -lt 600 ] && [ $idle -lt 30 ]; do
		t=$(dmsetup table bdsgrow 2>/dev/null)
		st=$(systemctl is-active $u)
		case "$st" in
		active | activating) idle=0 ;;
		*) idle=$((idle + 1)) ;;
		esac
		case "$t" in
		"" | *reshape*) ;;
		*) [ "$st" = active ] || [ "$st" = activating ] || break ;;
		esac
		sleep 1
		i=$((i + 1))
	done
	echo "BDS-TEST: grow: unit $u result $(systemctl show -p Result --value $u) status $(systemctl show -p ExecMainStatus --value $u)"
	echo "BDS-TEST: grow: table $(dmsetup table bdsgrow 2>&1)"
	echo "BDS-TEST: grow: members $(dmsetup table bdsgrow | grep -o ' [0-9]*:[0-9]* ' | wc -l)"
	echo "BDS-TEST: grow: sectors $(cat /var/lib/bds-test/grow.old) -> $(blockdev --getsz /dev/mapper/bdsgrow)"
	if [ "$(dd if=/dev/mapper/bdsgrow bs=1M count=64 iflag=direct status=none | md5sum | cut -d' ' -f1)" = "$(cat /var/lib/bds-test/grow.md5)" ]; then
		echo "BDS-TEST: grow: the data reads back"
	fi
	journalctl -b --no-pager -o cat -u $u | sed 's/^/BDS-TEST: grow-log: /'
	journalctl -b --no-pager -o cat -t bdsadm | sed 's/^/BDS-TEST: bdsadm-log: /'
	echo "BDS-TEST: coldplug: bds-stripe-assemble.service $(systemctl is-enabled bds-stripe-assemble.service 2>&1) $(systemctl show -p ActiveEnterTimestampMonotonic --value bds-stripe-assemble.service)"
	journalctl -b --no-pager -o cat -u 'bds-stripe-assemble@*' | sed 's/^/BDS-TEST: coldplug-log: /'
}

udevadm settle
if [ -e /var/lib/bds-test/grow-cut ]; then
	echo "BDS-TEST: boot 3"
	grow_report
elif [ ! -e /var/lib/bds-test/created ]; then
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
	monitor_test
	grow_cut
fi
echo "BDS-TEST: done"
systemctl poweroff
EOS
guest_image "$root" bdsboot bdsroot 256M oneshot \
	"local-fs.target bds-stripe-assemble.service systemd-udev-settle.service"
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
# systemd's console status (the spinner of a job that runs long, as the
# test's does) can start a line with its text and escape sequences: the
# checks read the log from each line's BDS-TEST on.
b2=$dir/boot-2.txt
console_text 2
grep -q '^BDS-TEST: volume present' "$b2" &&
	grep -q '^BDS-TEST: table 0 [0-9]* bds-stripe .*volume ' "$b2"
ok $? "boot 2: /dev/mapper/bdsboot assembled at boot (labelled bds-stripe table)"
grep -q '^BDS-TEST: assemble unit active success' "$b2"
ok $? "boot 2: bds-stripe-assemble.service ran and succeeded"
grep -q '^BDS-TEST: udev vdb BDS_VOLUME_UUID=' "$b2"
ok $? "boot 2: the packaged udev rule imported the member's label (BDS_VOLUME_UUID)"
grep -q '^BDS-TEST: stopped rc=0 present=no' "$b2" &&
	grep -q '^BDS-TEST: udev rule assembled it again' "$b2"
ok $? "boot 2: stopped, the members' udev events replayed: the rule assembles it"
grep -q '^BDS-TEST: monitor active cmd /usr/sbin/bdsadm monitor --program /usr/local/lib/bds-test/alert' "$b2" &&
	grep -q '^BDS-TEST: monitor-prop: NoNewPrivileges=yes' "$b2" &&
	grep -q '^BDS-TEST: monitor-prop: ProtectSystem=strict' "$b2" &&
	grep -q '^BDS-TEST: monitor-prop: DevicePolicy=closed' "$b2" &&
	grep -q '^BDS-TEST: monitor-prop: SystemCallFilter=' "$b2"
ok $? "boot 2: bds-stripe-monitor.service runs hardened, with the drop-in's --program"
grep -q '^BDS-TEST: monitor saw bdsmon' "$b2" &&
	grep -q '^BDS-TEST: bdsmon health ADAA' "$b2" &&
	grep -q '^BDS-TEST: monitor reported it, the program hangs' "$b2" &&
	grep -q '^BDS-TEST: monitor-log: MemberFailed: volume bdsmon, member 1 (stripe position 2, /dev/mapper/bdsm1' "$b2"
ok $? "boot 2: the hardened monitor reports a failed member and starts the program for it"
grep -Eq '^BDS-TEST: monitor-log: bds-alert: start pid=([0-9]+) pgid=\1 SigBlk: 0+ SigIgn: 0+ call: MemberFailed bdsmon /dev/mapper/bdsm1' "$b2" &&
	grep -q '^BDS-TEST: monitor-log: bds-alert: /var/lib is read-only' "$b2" &&
	! grep -q '^BDS-TEST: monitor-log: bds-alert: could write' "$b2" &&
	! grep -q '^BDS-TEST: the program wrote to /var/lib' "$b2"
ok $? "boot 2: the program runs with no signal blocked or ignored, in its own process group, /var/lib read-only"
grep -Eq '^BDS-TEST: monitor stop took ([0-9]|1[0-9]) s, result success, status 0, now inactive' "$b2" &&
	grep -q '^BDS-TEST: monitor-log: /usr/local/lib/bds-test/alert MemberFailed bdsmon /dev/mapper/bdsm1: still running as the monitor is stopping: SIGTERM' "$b2" &&
	grep -q '^BDS-TEST: monitor-syslog: /usr/local/lib/bds-test/alert MemberFailed bdsmon /dev/mapper/bdsm1: still running 5 s after SIGTERM: SIGKILL' "$b2" &&
	grep -Eq '^BDS-TEST: program pids [0-9]+ [0-9]+ left: none' "$b2" &&
	! grep -Eq '^BDS-TEST: monitor-log: .*(timed out\. Killing|with signal SIGKILL|Failed with result)' "$b2"
ok $? "boot 2: systemctl stop ends the monitor while the program hangs (under 20 s, exit 0, nothing killed by systemd, the program gone)"
grep -q '^BDS-TEST: grow: create rc=0' "$b2" &&
	grep -Eq '^BDS-TEST: grow: cut at [0-9]*[1-9][0-9]* units copied, table reshape forward' "$b2"
ok $? "boot 2: a 2-member volume with 64 MiB of data, grow --add of two disks cut mid-restripe (sysrq o)"
t1=$(date +%s)
boot 3
ok $? "boot 3 ended by itself ($(($(date +%s) - t1))s)"
b3=$dir/boot-3.txt
console_text 3
grep -q '^BDS-TEST: grow: unit bds-stripe-grow@bdsgrow.service result success status 0$' "$b3" &&
	grep -q '^BDS-TEST: grow-log: Started bds-stripe-grow@bdsgrow.service' "$b3" &&
	grep -Eq '^BDS-TEST: grow-log: bdsadm: grow bdsgrow: restriping forward from stripe unit [1-9][0-9]* ' "$b3" &&
	grep -q '^BDS-TEST: grow-log: bdsadm: grow bdsgrow: done: ' "$b3"
ok $? "boot 3: assembly at boot started bds-stripe-grow@bdsgrow.service, which went on from the cut and exited 0"
grep -q '^BDS-TEST: grow: members 4$' "$b3" &&
	grep -Eq '^BDS-TEST: grow: table 0 [0-9]+ bds-stripe 128 ' "$b3" &&
	! grep -q '^BDS-TEST: grow: table .*reshape' "$b3" &&
	grep -Eq '^BDS-TEST: grow: sectors ([0-9]+) -> ([0-9]+)$' "$b3" &&
	[ "$(sed -n 's/^BDS-TEST: grow: sectors \([0-9]*\) -> \([0-9]*\)$/\2 \1/p' "$b3" | awk '{ print ($1 > $2) }')" = 1 ]
ok $? "boot 3: the restripe ended: four members, no restripe in the table, the volume longer"
grep -q '^BDS-TEST: grow: the data reads back' "$b3"
ok $? "boot 3: the 64 MiB written before the cut read back (md5)"
grep -q '^BDS-TEST: coldplug: bds-stripe-assemble.service masked 0$' "$b3" &&
	grep -q '^BDS-TEST: coldplug-log: bdsadm: assembled /dev/mapper/bdsgrow from 4 members' "$b3"
ok $? "boot 3: with bds-stripe-assemble.service masked, the udev rule assembled bdsgrow at coldplug (bds-stripe-assemble@<uuid>.service)"
cycles=$(cat "$dir"/boot-[123].log | grep -a -c 'Found ordering cycle')
[ "$cycles" = 0 ]
ok $? "boots 1 to 3: no ordering cycle among the units ($cycles lines 'Found ordering cycle')"
log "total $(($(date +%s) - t0))s"
rm -f "$dir"/m?.img "$img" "$dir/vmlinuz" "$dir/initrd.img"

tap_end
