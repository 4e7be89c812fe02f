#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The README's "Quick start on real disks" runs as written.  The lines
# between README-BEGIN and README-END below are the README's block, byte
# for byte (tests/scripts/readme-commands-check.sh, in make check's unit
# stage, compares them); each runs here in a shell of its own, in order,
# on eight disks of two controllers, and must exit 0, but for what a
# bare guest cannot do, which the stand-ins below do instead and say so:
#  - make deb and apt install (no apt, no build here; the tools and the
#    module are the test build's, as in every VM test): skipped;
#  - udev's /dev/disk/by-id links: made by hand, wwn-0x5000c500a1b2c3d0
#    to ...d7 for the disks of controller 0 then 1, so the README's glob
#    names them in that order;
#  - systemctl (no systemd here): a stand-in that records its arguments
#    and does nothing.
# Then what the README says of them holds: plan printed the table that
# create then made, /dev/mapper/data exists over the eight disks,
# mkfs.xfs picked sunit=16 swidth=128 (4 KiB blocks), the fstab line
# mounted it at /srv/data, systemctl was asked to enable and start the
# monitor, and detail says eight members carry the newest label.
#
# topology: size=512M ctl=4 ctl=4
# timeout: 300
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 8 ] || fail "need 4 + 4 disks, have: $*"

mkdir -p /dev/disk/by-id /srv
i=0
for m in "$@"; do
	ln -sf "/dev/$(bds_dev "$m")" "/dev/disk/by-id/wwn-0x5000c500a1b2c3d$i"
	i=$((i + 1))
done
mkdir -p /tmp/stand-in
cat >/tmp/stand-in/systemctl <<'EOS'
#!/bin/sh
echo "$*" >>/tmp/systemctl.log
EOS
chmod 0755 /tmp/stand-in/systemctl
: >/etc/fstab

cat >/tmp/readme.txt <<'README'
# README-BEGIN quick start
    make deb                                     # results/deb/*.deb
    apt install ./results/deb/bds-stripe-dkms_*.deb \
        ./results/deb/bds-stripe-tools_*.deb     # DKMS builds the module
    ls -l /dev/disk/by-id/ | grep -v -- -part    # serials -> sdX
    bdsadm plan --chunk 64K /dev/disk/by-id/wwn-0x5000c500a1b2c3d[0-7]
    bdsadm create data --chunk 64K /dev/disk/by-id/wwn-0x5000c500a1b2c3d[0-7]
    mkfs.xfs /dev/mapper/data                    # sunit=16 swidth=128 blks
    mkdir -p /srv/data
    echo '/dev/mapper/data /srv/data xfs defaults,nofail 0 0' >>/etc/fstab
    systemctl daemon-reload && mount /srv/data
    systemctl enable --now bds-stripe-monitor.service  # failing members
    bdsadm detail data                           # members, serials, health
# README-END
README

# The commands: the block's lines, a continued line joined to the next.
sed -e '1d' -e '$d' -e 's/^    //' /tmp/readme.txt |
	awk '/\\$/ { sub(/\\$/, ""); line = line $0; next } { print line $0; line = "" }' >/tmp/commands
n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	case "$cmd" in
	"make deb"* | "apt install"*)
		log "README line $n, skipped (the test build's tools and module are here): $cmd"
		continue ;;
	esac
	log "README line $n: $cmd"
	PATH=/tmp/stand-in:$PATH sh -c "$cmd" >"/tmp/out.$n" 2>&1
	rc=$?
	sed 's/^/    /' "/tmp/out.$n"
	expect_eq "$rc" 0 "README line $n exits 0: $cmd"
done </tmp/commands
expect_eq "$n" 11 "the block has 11 commands"

check "plan printed the table over eight members" grep -qE '^0 [0-9]+ bds-stripe 128 2 4 ' /tmp/out.4
check "create made /dev/mapper/data" [ -b /dev/mapper/data ]
# create's table adds "volume UUID" (plan cannot know the new UUID)
expect_eq "$(sed -n 1p /tmp/out.4)" "$(dmsetup table data | sed 's/ 2 volume [0-9a-f-]*$//')" \
	"plan's table is the one create made, but the volume's UUID"
expect_eq "$(dmsetup table data | tr ' ' '\n' | grep -c '^[0-9]*:[0-9]*$')" 8 "the volume has eight members"
check "mkfs.xfs picked sunit=16 swidth=128 blks, as the README's comment says" \
	grep -qE 'sunit=16 +swidth=128 blks' /tmp/out.6
grep " /srv/data xfs " /proc/mounts >/tmp/mounted || true
check "the fstab line mounted the volume at /srv/data" grep -q "^/dev/mapper/data " /tmp/mounted
check "systemctl was asked to enable and start the monitor" grep -qxF "enable --now bds-stripe-monitor.service" /tmp/systemctl.log
check "detail: eight members, each with the newest label" grep -qF "8 of 8 members carry the newest label at their position" /tmp/out.11
run umount /srv/data
run bdsadm stop data
bds_expect_clean
pass
