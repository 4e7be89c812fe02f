#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm(8)'s EXAMPLES run as written, in their order.  The lines
# between MAN-BEGIN and MAN-END below are the page's command lines as
# man renders them (tests/scripts/readme-commands-check.sh, in make
# check's unit stage, compares them with tools/bdsadm.8); each runs here
# in a shell of its own and must exit 0.  What a bare guest lacks is
# made first and said so:
#  - udev's /dev/disk/by-id links: made by hand, wwn-0x5000c500a1b2c3dX
#    with X = 0 1 2 3 8 9 for the six disks of controller 0 and 4 5 6 7
#    a for the five of controller 1, so that the page's c3d[0-7] are four
#    disks of each;
#  - /usr/local/sbin/bds-report, the admin's own program: a stand-in
#    that records its arguments;
#  - the md RAID0 array the adopt example takes over: made with mdadm
#    over c3d0 c3d1 c3d2 c3d4 c3d5 c3d6 (three disks of each controller)
#    once the volume before it is taken apart, with XFS and a file on it,
#    mounted at /srv/data (the disks are 96 KiB over 64 MiB: md leaves
#    the end of each, where adopt puts the backup label).
# Then what the page says of each holds: plan's table is the one create
# made; the file written after the first mount reads back after replace,
# grow, assembly, adopt and release; jq, list -H and examine --export
# print what the page shows; the replaced disk left the table and the
# two added ones joined it; wipe left no label; release gave back an md
# array that mdadm assembles under /dev/md/data.
#
# topology: size=65632K ctl=6 ctl=5
# timeout: 900
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 11 ] || fail "need 6 + 5 disks, have: $*"
command -v jq >/dev/null || fail "jq is not in the guest (tests/vm/mkinitramfs.sh takes it from the host: .ci/packages)"

ID=/dev/disk/by-id/wwn-0x5000c500a1b2c3d
mkdir -p /dev/disk/by-id /srv /usr/local/sbin
set -- "$@"
for x in 0 1 2 3 8 9 4 5 6 7 a; do
	ln -sf "/dev/$(bds_dev "$1")" "$ID$x"
	shift
done
cat >/usr/local/sbin/bds-report <<'EOS'
#!/bin/sh
echo "$*" >>/tmp/bds-report.log
EOS
chmod 0755 /usr/local/sbin/bds-report
: >/etc/fstab
majmin() { bds_majmin "$(readlink "$ID$1")"; }

cat >/tmp/man.txt <<'MAN'
# MAN-BEGIN examples
# bdsadm plan --chunk 64K /dev/disk/by-id/wwn-0x5000c500a1b2c3d[0-7]
# bdsadm plan --chunk 64K --weights bandwidth \
      --disk-mbps 200 --controller-mbps 600 \
      /dev/disk/by-id/wwn-0x5000c500a1b2c3d[0-7]
# bdsadm create data --chunk 64K /dev/disk/by-id/wwn-0x5000c500a1b2c3d[0-7]
# mkfs.xfs /dev/mapper/data
# mkdir -p /srv/data
# echo '/dev/mapper/data /srv/data xfs defaults,nofail 0 0' >> /etc/fstab
# mount /srv/data
# bdsadm list
# bdsadm list -H
# bdsadm detail data
# bdsadm detail --json data | jq '.members[] | {index, device, health}'
# bdsadm list --json | jq '.active[].name'
# bdsadm examine /dev/disk/by-id/wwn-0x5000c500a1b2c3d0
# bdsadm examine --export /dev/disk/by-id/wwn-0x5000c500a1b2c3d0
# bdsadm check data --rate 50
# bdsadm replace data /dev/disk/by-id/wwn-0x5000c500a1b2c3d7 \
      /dev/disk/by-id/wwn-0x5000c500a1b2c3d8
# bdsadm grow data --add /dev/disk/by-id/wwn-0x5000c500a1b2c3d9 \
      /dev/disk/by-id/wwn-0x5000c500a1b2c3da --rate 100
# xfs_growfs /srv/data
# bdsadm monitor --oneshot --program /usr/local/sbin/bds-report
# umount /srv/data
# bdsadm stop data
# bdsadm assemble --scan
# bdsadm stop data
# bdsadm wipe /dev/disk/by-id/wwn-0x5000c500a1b2c3d[0-689a]
# umount /srv/data
# bdsadm adopt data --from /dev/md0
# mount /dev/mapper/data /srv/data
# bdsadm grow data --layout interleave
# bdsadm grow data --layout sequential
# umount /srv/data
# bdsadm release data --to-md
# mount /dev/md/data /srv/data
# MAN-END
MAN

# sums_ok WHAT: the file written after the first mount reads back
sums_ok() {
	check "$1: the file reads back" sh -c 'md5sum /srv/data/file | cut -d" " -f1 >/tmp/sum.now && cmp -s /tmp/sum /tmp/sum.now'
}
# remount_and_check WHAT: mount the stopped-or-unmounted volume, check
# the file, unmount it again
remount_and_check() {
	run mount /dev/mapper/data /srv/data
	sums_ok "$1"
	run umount /srv/data
}

# Before command N (its text $2): what the page's session has by then.
before() {
	case "$2" in
	"umount /srv/data")
		[ -n "${wiped:-}" ] || return 0
		log "(made here: an md RAID0 array over c3d0 c3d1 c3d2 c3d4 c3d5 c3d6, with XFS and a file, at /srv/data)"
		run mdadm --create /dev/md0 --run --level=0 --metadata=1.2 --chunk=64 --raid-devices=6 \
			"${ID}0" "${ID}1" "${ID}2" "${ID}4" "${ID}5" "${ID}6"
		run mkfs.xfs -q /dev/md0
		run mount /dev/md0 /srv/data
		run dd if=/dev/urandom of=/srv/data/file bs=1M count=32 conv=fsync
		md5sum /srv/data/file | cut -d' ' -f1 >/tmp/sum
		wiped=
		;;
	"bdsadm stop data")
		# the second stop: the volume assembled again, unmounted
		[ -n "${assembled:-}" ] && remount_and_check "after assemble --scan"
		;;
	esac
	return 0
}

# After command N: what the page says of it.
after() {
	o=/tmp/out.$1
	case "$2" in
	"bdsadm plan --chunk 64K /dev/disk"*)
		sed -n 1p "$o" >/tmp/plan.table ;;
	*"--weights bandwidth"*)
		check "plan --weights bandwidth: the bandwidth part" grep -q "^Bandwidth" "$o" ;;
	"bdsadm create data"*)
		expect_eq "$(dmsetup table data | sed 's/ 2 volume [0-9a-f-]*$//')" "$(cat /tmp/plan.table)" \
			"plan's table is the one create made, but the volume's UUID" ;;
	"mount /srv/data")
		run dd if=/dev/urandom of=/srv/data/file bs=1M count=32 conv=fsync
		md5sum /srv/data/file | cut -d' ' -f1 >/tmp/sum ;;
	"bdsadm list -H")
		check "list -H: data's line, tab-separated, no header" grep -q "^active	data	" "$o" ;;
	"bdsadm detail --json"*)
		check "detail --json | jq: eight members, the last index 7" grep -q '"index": 7' "$o"
		check "... each healthy (A)" [ "$(grep -c '"health": "A"' "$o")" = 8 ] ;;
	"bdsadm list --json"*)
		expect_eq "$(cat "$o")" '"data"' "list --json | jq: the active volume's name" ;;
	"bdsadm examine --export"*)
		printf 'BDS_LABEL_VERSION=1\nBDS_LABEL_COPY=primary\nBDS_VOLUME_NAME=data\n' >/tmp/shown
		sed -n 1,3p "$o" >/tmp/first3
		check "examine --export: the first lines the page shows" cmp -s /tmp/shown /tmp/first3 ;;
	"bdsadm replace data"*)
		dmsetup table data >/tmp/t
		check "replace: c3d8 is in the table" grep -q " $(majmin 8) " /tmp/t
		check "... c3d7 is not" sh -c "! grep -q ' $(majmin 7) ' /tmp/t"
		sums_ok "after replace" ;;
	"xfs_growfs /srv/data")
		dmsetup table data >/tmp/t
		check "grow: c3d9 and c3da are in the table" sh -c "grep -q ' $(majmin 9) ' /tmp/t && grep -q ' $(majmin a) ' /tmp/t"
		sums_ok "after grow" ;;
	"bdsadm assemble --scan")
		# generation 3: create, replace, grow
		check "assemble --scan: the line the page shows" \
			grep -qxF "bdsadm: assembled /dev/mapper/data from 10 members (generation 3)" "$o"
		assembled=1 ;;
	"bdsadm wipe"*)
		for x in 0 1 2 3 4 5 6 8 9 a; do
			st=0
			bdsadm examine "$ID$x" >/dev/null 2>&1 || st=$?
			expect_eq "$st" 1 "wipe: c3d$x has no label left"
		done
		wiped=1 assembled= ;;
	"bdsadm grow data --layout interleave")
		sums_ok "after adopt and grow --layout interleave"
		check "the volume is interleaved" sh -c "dmsetup status data | grep ' interleave ' >/dev/null" ;;
	"mount /dev/md/data /srv/data")
		sums_ok "after release to md"
		check "release: md0's members are md's again" sh -c 'mdadm --detail /dev/md/data | grep "Raid Level : raid0" >/dev/null' ;;
	esac
	return 0
}

# The commands: the block's "# " lines, a continued line joined to the next.
sed -e '1d' -e '$d' /tmp/man.txt |
	awk '/^# / { sub(/^# /, "") } /^      / { sub(/^ +/, "") }
	     /\\$/ { sub(/\\$/, ""); line = line $0; next } { print line $0; line = "" }' >/tmp/commands
n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	before "$n" "$cmd" </dev/null
	log "bdsadm(8) EXAMPLES, command $n: $cmd"
	sh -c "$cmd" >"/tmp/out.$n" 2>&1 </dev/null
	rc=$?
	sed 's/^/    /' "/tmp/out.$n"
	expect_eq "$rc" 0 "command $n exits 0: $cmd"
	after "$n" "$cmd" </dev/null
done </tmp/commands
expect_eq "$n" 32 "the page has 32 commands"
run umount /srv/data
run mdadm --stop /dev/md/data
bds_expect_clean
pass
