# SPDX-License-Identifier: GPL-2.0
#
# guest-lib.sh - helpers for test scripts running inside the test guest
# (busybox ash; bash is also in the image).  Source it with
#
#	. /bds/guest-lib.sh
#
# Environment provided by the harness (tests/vm/guest-run.sh, and /bds/env):
#   BDS_TEST         test name
#   BDS_KSERIES      6.1 | 6.12 | 7.2 | debug
#   BDS_KVER         uname -r of the guest kernel
#   BDS_CTL_DISKS    disks per controller as configured, e.g. "2 2 1" (in a
#                    second boot: that boot's own controllers)
#   BDS_TOPOLOGY     the boot's topology (header "topology:" or, in a second
#                    boot, "reboot-topology:")
#   BDS_BOOT         1, or 2 in the second boot of a test with a
#                    "# reboot-topology:" header (vm-run --help)
#   BDS_BOOTS        how many boots the test has (1 or 2)
#   BDS_MODULE       path of the module under test in the guest
#                    (/lib/bds/dm-bds-stripe.ko) or empty when none was given
#   BDS_TIME_SCALE   how much slower than on a stock kernel the guest is
#                    taken to run: 1, or 4 on the debug kernel (for a
#                    test's own bounds on hangs: bds_scaled)
#   BDS_SAMPLE       1 under make check: a test with a long sweep over cases
#                    of one kind (failslab's allocation sites) runs a fixed
#                    sample of them; 0 (make check-debug, check-all): all
#   DM_DISABLE_UDEV  1 (no udev in the guest)
#
# Exit codes understood by the harness: 0 pass, 1 fail, 77 skip.
#
# A test may share its boot with others of its topology (run-suite; the
# header "boot: own" says it needs a boot of its own).  After it, the
# harness fails it if it left a dm device, a mount, a process, a module in
# use or a changed setting behind, and gives the next test disks that
# read as zeroes, an empty /tmp and /root, and an empty kernel log
# (tests/vm/guest-run.sh).  A test must not rely on the kernel log of the
# boot before it started, nor on the disks' kernel names.

BDS_FAILS=0
BDS_CHECKS=0

# --- reporting --------------------------------------------------------------

# log MSG: "bds: [uptime] MSG" on the console.
log() {
	read -r _up _ </proc/uptime
	echo "bds: [$_up] $*"
}

# fail MSG: report and exit 1.
fail() {
	echo "bds: FAIL: $*"
	exit 1
}

# die MSG: same as fail (for "cannot continue" situations).
die() { fail "$@"; }

# pass [MSG]: exit 0, unless a check() failed earlier.
pass() {
	if [ "$BDS_FAILS" -ne 0 ]; then
		fail "$BDS_FAILS of $BDS_CHECKS checks failed"
	fi
	echo "bds: PASS${1:+: $*}"
	exit 0
}

# skip MSG: exit 77 (reported as "ok ... # SKIP MSG").
skip() {
	echo "bds: SKIP: $*"
	exit 77
}

# run CMD...: log the command, run it, fail the test if it fails.
run() {
	log "+ $*"
	"$@" || fail "command failed ($?): $*"
}

# check DESC CMD...: run CMD, record success or failure, keep going.
check() {
	_desc=$1
	shift
	BDS_CHECKS=$((BDS_CHECKS + 1))
	if "$@"; then
		echo "bds: ok: $_desc"
	else
		BDS_FAILS=$((BDS_FAILS + 1))
		echo "bds: not ok: $_desc"
	fi
}

# expect_eq ACTUAL EXPECTED DESC: a check() on string equality.
expect_eq() {
	BDS_CHECKS=$((BDS_CHECKS + 1))
	if [ "$1" = "$2" ]; then
		echo "bds: ok: $3 ($1)"
	else
		BDS_FAILS=$((BDS_FAILS + 1))
		echo "bds: not ok: $3: got '$1', expected '$2'"
	fi
}

# --- topology ---------------------------------------------------------------

# bds_controllers: number of controllers that have disks.
bds_controllers() { cat /run/bds/controllers; }

# bds_host C: SCSI host number of controller C.
bds_host() { cat "/run/bds/c$1.host"; }

# bds_members C: /dev/bds/cCdD of controller C, ordered by D (one per line).
bds_members() {
	for _m in /dev/bds/c"$1"d*; do
		[ -e "$_m" ] && echo "${_m##*d}"
	done | sort -n | sed "s|^|/dev/bds/c$1d|"
}

# bds_all_members: members of all controllers, controller-major order.
bds_all_members() {
	_n=$(bds_controllers)
	_c=0
	while [ "$_c" -lt "$_n" ]; do
		bds_members "$_c"
		_c=$((_c + 1))
	done
}

# bds_interleaved: members ordered d0 of every controller, then d1, ... (so
# consecutive stripes land on different controllers).
bds_interleaved() {
	for _m in $(bds_all_members); do
		_d=${_m##*d}
		_c=${_m##*/c}
		_c=${_c%%d*}
		echo "$_d $_c $_m"
	done | sort -n -k1,1 -k2,2 | cut -d' ' -f3
}

# bds_serial PATH: the QEMU serial of a disk (VPD page 0x80), e.g. bds-c0d1:
# vm-run names a disk after its node in the first boot, and the name stays
# with the disk when a second boot moves it.
bds_serial() {
	tail -c +5 "/sys/block/$(bds_dev "$1")/device/vpd_pg80" | tr -d '\000 '
}

# bds_by_serial SERIAL: the /dev/bds/cCdD (this boot's name) of the disk
# whose serial is SERIAL; nothing (and status 1) when none has it.
bds_by_serial() {
	for _m in $(bds_all_members); do
		if [ "$(bds_serial "$_m")" = "$1" ]; then
			echo "$_m"
			return 0
		fi
	done
	return 1
}

# bds_dev PATH: kernel name (sdX, dm-N) of a block device node or symlink.
bds_dev() {
	_mm=$(stat -L -c '%t %T' "$1") || return 1
	# shellcheck disable=SC2086
	set -- $_mm
	_p=$(readlink -f "/sys/dev/block/$((0x$1)):$((0x$2))") || return 1
	echo "${_p##*/}"
}

# bds_majmin PATH: "major:minor" of a block device (for dm tables).
bds_majmin() { cat "/sys/block/$(bds_dev "$1")/dev"; }

# bds_stat_field I DISK: field I (1-based) of /sys/block/DISK/stat (DISK a
# kernel name, e.g. sdb).
bds_stat_field() { awk -v f="$1" '{ print $f }' "/sys/block/$2/stat"; }

# bds_scsi_debug_disks N: wait (10 s at most) for the N disks of a
# scsi_debug just loaded and set SD_0..SD_{N-1} to their kernel names, in
# adapter order (one disk per host with add_host=N).
bds_scsi_debug_disks() {
	_i=0
	while :; do
		ls -d /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/* \
			>/tmp/sds 2>/dev/null || true
		[ "$(wc -l </tmp/sds)" -ge "$1" ] && break
		_i=$((_i + 1))
		[ "$_i" -ge 50 ] && fail "scsi_debug made $(wc -l </tmp/sds) disks, not $1"
		sleep 0.2
	done
	_i=0
	while read -r _p; do
		eval "SD_$_i=${_p##*/}"
		_i=$((_i + 1))
	done </tmp/sds
}

# bds_size DEV: size in bytes.  bds_sectors DEV: size in 512-byte sectors.
bds_size() { blockdev --getsize64 "$1"; }
bds_sectors() { blockdev --getsz "$1"; }

# bds_queue DEV ATTR: /sys/block/<dev>/queue/<attr>.
bds_queue() { cat "/sys/block/$(bds_dev "$1")/queue/$2"; }

# --- two boots ----------------------------------------------------------------
# A test with a "# reboot-topology:" header is booted twice over the same
# disks (vm-run --help); BDS_BOOT says which boot this is.

# bds_state_save TEXT...: keep one line of text (the words joined by
# blanks, no newline) for the second boot, where it is a line of
# /bds/state.  guest-init prints the kept lines as "BDS-STATE: TEXT" once
# the test has exited; vm-run copies them from the first boot's log.
bds_state_save() {
	_t=$(printf '%s' "$*" | tr '\n' ' ')
	printf '%s\n' "$_t" >>/run/bds/state
	log "state saved: $_t"
}

# bds_power_cut_armed: the first boot is about to lose its power (the
# test, or a program it runs, does "echo b > /proc/sysrq-trigger", which
# ends QEMU: -no-reboot).  The kept state is printed now, since
# guest-init will not get to it, and vm-run is told that this boot may
# end without an exit code (vm-run --help).  Console messages are held
# back while the state is printed, so that none cuts into it.
bds_power_cut_armed() {
	echo 1 >/proc/sys/kernel/sysrq
	dmesg -n 1
	if [ -f /run/bds/state ]; then
		while IFS= read -r _l; do
			printf 'BDS-STATE: %s\n' "$_l"
		done </run/bds/state
		printf 'BDS-STATE-SUM: %s %s\n' "$(($(wc -l </run/bds/state)))" \
			"$(md5sum </run/bds/state | cut -d' ' -f1)"
	fi
	: >/run/bds/state-printed
	echo "BDS-POWER-CUT-ARMED"
	dmesg -n 7
}

# bds_power_cut: lose the power now (after bds_power_cut_armed).
bds_power_cut() {
	echo b >/proc/sysrq-trigger
	sleep 10
	fail "the power cut did not happen"
}

# bds_state: the first boot's saved lines (the second boot's /bds/state),
# one per line; nothing in a first boot.
bds_state() {
	[ -r /bds/state ] && cat /bds/state
	return 0
}

# bds_state_get KEY: for saved lines "KEY VALUE...", the VALUE of the last
# one with that KEY; status 1 when there is none.
bds_state_get() {
	[ -r /bds/state ] || return 1
	awk -v k="$1" '$1 == k { v = substr($0, length(k) + 2); found = 1 }
		END { if (found) print v; exit !found }' /bds/state
}

# --- bdsadm replace cut short -------------------------------------------------

# bds_four_disks: the test's four disks (topology ctl=2 ctl=2), in
# controller order, as A B C D; fails the test if there are not four.
bds_four_disks() {
	# shellcheck disable=SC2046 # one word per member
	set -- $(bds_all_members)
	[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
	A=$1 B=$2 C=$3 D=$4
}

# bds_gen_of DEV: the label generation bdsadm reads on DEV ("" if none).
bds_gen_of() { bdsadm examine --export "$1" | sed -n 's/^BDS_GENERATION=//p'; }

# bds_fio_verifies WHAT FIO-ARGS...: fio --verify_only with FIO-ARGS (a
# job that wrote a verify pattern) exits 0 and reports no verify error.
bds_fio_verifies() {
	_what=$1
	shift
	fio "$@" --verify_only >/tmp/fio.out 2>&1
	expect_eq "$?" 0 "fio verifies $_what"
	check "no verify error ($_what)" sh -c "! grep -Eiq 'bad magic|mismatch|crc' /tmp/fio.out"
}

# bds_replace_crash POINT SIDE: the body of the replace-crash tests (two
# boots, disks A B C D; header "# reboot-topology:").  Boot 1: a 2+1
# volume over A B C, 256 MiB of it written by fio with a verify pattern,
# random reads going on, then "bdsadm replace vol C D" with the power cut
# at POINT (BDSADM_TEST_CRASH_AT).  Boot 2: "bdsadm assemble --scan"
# brings the volume back with C (SIDE old) or D (SIDE new) as member 2,
# says whether it rolled a change back, and fio verifies every block of
# the pattern.
bds_replace_crash() {
	_pt=$1 _side=$2
	bds_load_module
	# shellcheck disable=SC2046 # one word per member
	set -- $(bds_all_members)
	[ $# -eq 4 ] || fail "need 4 disks, have: $*"
	_job="--name=p --filename=/dev/mapper/vol --direct=1 --ioengine=psync --rw=write --bs=64k --size=256m --verify=crc32c --randseed=77 --output-format=terse --terse-version=3"
	if [ "$BDS_BOOT" = 1 ]; then
		modprobe dm-mirror 2>/dev/null || true
		run bdsadm create vol --chunk 64K "$1" "$2" "$3"
		# shellcheck disable=SC2086
		fio $_job --do_verify=0 >/tmp/fio.out 2>&1 || fail "fio write failed"
		sync
		bds_state_save old "$(bds_serial "$3")"
		bds_state_save new "$(bds_serial "$4")"
		fio --name=r --filename=/dev/mapper/vol --direct=1 --rw=randread \
			--bs=16k --size=256m --time_based --runtime=120 >/dev/null 2>&1 &
		bds_power_cut_armed
		BDSADM_TEST_CRASH_AT=$_pt bdsadm replace vol "$3" "$4"
		fail "bdsadm replace returned ($?): the crash point $_pt was not reached"
	fi
	modprobe dm-mirror 2>/dev/null || true
	run bdsadm assemble --scan 2>/tmp/err
	cat /tmp/err
	case "$_pt" in
	new-labelled | one-primary)
		check "assemble rolled the change back" grep -qF "rolling it back to generation 1" /tmp/err ;;
	*)
		check "assemble had nothing to roll back" sh -c "! grep -q 'rolling it back' /tmp/err" ;;
	esac
	_want=$(bds_state_get "$_side")
	_m2=$(dmsetup table vol | tr ' ' '\n' | grep ':' | sed -n 3p)
	expect_eq "$(tail -c +5 "/sys/dev/block/$_m2/device/vpd_pg80" | tr -d '\000 ')" "$_want" \
		"member 2 is the $_side disk ($_want)"
	check "the table names the volume" sh -c "dmsetup table vol | grep ' volume [0-9a-f-]*\$' >/dev/null"
	check "no mirror left" sh -c '! dmsetup info vol-replace >/dev/null 2>&1'
	# shellcheck disable=SC2086
	bds_fio_verifies "every block written before the power cut" $_job
	run bdsadm stop vol
	bds_wipe_expect_clean "$@"
	pass
}

# bds_adopt_crash POINT OUTCOME [META]: the body of the adopt-cut tests
# (two boots, four disks; header "# reboot-topology:").  Boot 1: md RAID0
# (metadata META, default 1.2; 64 KiB chunk) over the four disks, 128 MiB of it written
# by fio with a verify pattern, then "bdsadm adopt vol --from /dev/md0"
# with the power cut at POINT (BDSADM_TEST_CRASH_AT).  Boot 2, the disks
# renamed, OUTCOME:
#   md      no md superblock was overwritten: "bdsadm assemble --scan"
#           refuses the volume, says the md array is whole and names
#           adopt, and writes nothing (the members' first 16 KiB and
#           last 64 KiB unchanged); with every member marked
#           (adopt-backups) the target refuses a labelled table over the
#           members, and bdsadm wipe of one member erases its marked
#           backup and leaves md's superblock; mdadm
#           --assemble --scan starts the
#           array, fio verifies the pattern through it; adopt again
#           finishes, and fio verifies through the volume;
#   none    nothing written yet: as md, but assemble finds no label at
#           all (and says so, exit 0);
#   finish  md can no longer assemble the array: as another host
#           (system_id), "bdsadm assemble --scan" refuses and writes
#           nothing; as this one it finishes the adoption (it says so)
#           and brings the
#           volume up; fio verifies the pattern; no member holds an md
#           superblock; after a stop, assemble has nothing to finish;
#   complete every label written: as finish, with nothing to finish.
bds_adopt_crash() {
	_pt=$1 _want=$2 _meta=${3:-1.2}
	bds_load_module
	modprobe raid0 2>/dev/null || true
	# shellcheck disable=SC2046 # one word per member
	set -- $(bds_all_members)
	[ $# -eq 4 ] || fail "need 4 disks, have: $*"
	_job="--name=p --direct=1 --ioengine=psync --rw=write --bs=64k --size=128m --verify=crc32c --randseed=35 --output-format=terse --terse-version=3"
	# the volume is this host's (hosta): another host finishes nothing
	mkdir -p /etc/bds-stripe
	echo "system_id = hosta" >/etc/bds-stripe/bds-stripe.conf
	if [ "$BDS_BOOT" = 1 ]; then
		run mdadm --create /dev/md0 --level=0 --raid-devices=4 --metadata="$_meta" \
			--chunk=64 --run "$@"
		# shellcheck disable=SC2086
		fio $_job --filename=/dev/md0 --do_verify=0 >/tmp/fio.out 2>&1 ||
			{ cat /tmp/fio.out; fail "fio write failed"; }
		sync
		bds_power_cut_armed
		BDSADM_TEST_CRASH_AT=$_pt bdsadm adopt vol --from /dev/md0
		fail "bdsadm adopt returned ($?): the crash point $_pt was not reached"
	fi
	_before=$(bds_member_ends "$@")
	if [ "$_want" = finish ]; then
		echo "system_id = hostb" >/etc/bds-stripe/bds-stripe.conf
		log "+ bdsadm assemble --scan (as hostb)"
		bdsadm assemble --scan >/tmp/asm.out 2>&1
		_rc=$?
		cat /tmp/asm.out
		check "another host leaves the volume alone (exit $_rc), saying whose it is" \
			grep -Eq "another host's volume: add --foreign|owned by the host whose system ID is hosta" /tmp/asm.out
		check "another host assembles nothing" sh -c '! dmsetup info vol >/dev/null 2>&1'
		expect_eq "$(bds_member_ends "$@")" "$_before" "another host wrote nothing to the members"
		echo "system_id = hosta" >/etc/bds-stripe/bds-stripe.conf
	fi
	log "+ bdsadm assemble --scan"
	bdsadm assemble --scan >/tmp/asm.out 2>&1
	_rc=$?
	cat /tmp/asm.out
	if [ "$_want" = none ]; then
		expect_eq "$_rc" 0 "assemble --scan exit status"
		check "it finds no label" grep -q "no device carries a bds-stripe label" /tmp/asm.out
		expect_eq "$(bds_member_ends "$@")" "$_before" "assemble wrote nothing to the members"
	fi
	if [ "$_want" = md ]; then
		expect_eq "$_rc" 1 "assemble refuses the volume"
		check "it says md's array is whole" grep -q "the md array is whole" /tmp/asm.out
		check "it names adopt" grep -q "bdsadm adopt vol --from" /tmp/asm.out
		check "no volume" sh -c '! dmsetup info vol >/dev/null 2>&1'
		expect_eq "$(bds_member_ends "$@")" "$_before" "assemble wrote nothing to the members"
	fi
	# every member marked: the target refuses a table over them, and
	# wipe erases a marked backup, never md's superblock
	if [ "$_want" = md ] && [ "$_pt" = adopt-backups ]; then
		_uuid=$(bdsadm examine --export "$1" | sed -n 's/^BDS_VOLUME_UUID=//p')
		_t="0 8192 bds-stripe 128 1 4"
		for _i in 0 1 2 3; do
			for _d in "$@"; do
				bdsadm examine --export "$_d" | grep -x "BDS_MEMBER_INDEX=$_i" >/dev/null &&
					_t="$_t $(bds_majmin "$_d") 2048"
			done
		done
		_t="$_t 4 layout sequential volume $_uuid"
		log "+ dmsetup create adoptchk: $_t"
		check "the target refuses a table over members of an adoption cut short" \
			sh -c "! echo '$_t' | dmsetup create adoptchk"
		check "the kernel says why" sh -c \
			"dmesg | grep \"bds-stripe: Member's adoption from md is not finished: run bdsadm assemble\" >/dev/null"
		bdsadm examine "$1" >/tmp/examine.out 2>&1
		check "examine shows $1's backup marked ADOPT" grep -q "marked ADOPT" /tmp/examine.out
		run bdsadm wipe "$1"
		check "$1: md's superblock is still there after bdsadm wipe" \
			mdadm --examine "$1"
		check "$1: no bds-stripe label left" sh -c "! bdsadm examine '$1'"
	fi
	if [ "$_want" = md ] || [ "$_want" = none ]; then
		run mdadm --assemble --scan
		_md=$(awk '$3 == "active" { print $1 }' /proc/mdstat)
		[ -n "$_md" ] || fail "mdadm --assemble --scan started no array"
		# shellcheck disable=SC2086
		bds_fio_verifies "the pattern through /dev/$_md" $_job --filename="/dev/$_md"
		log "+ bdsadm adopt vol --from /dev/$_md"
		bdsadm adopt vol --from "/dev/$_md" >/tmp/adopt.out 2>&1
		_rc=$?
		cat /tmp/adopt.out
		expect_eq "$_rc" 0 "adopt again finishes"
	else
		expect_eq "$_rc" 0 "assemble --scan exit status"
		if [ "$_want" = finish ]; then
			check "it finished the adoption" grep -q "finished as the volume from its backup labels" /tmp/asm.out
		else
			check "nothing was left to finish" sh -c "! grep finished /tmp/asm.out >/dev/null"
		fi
		for _d in "$@"; do
			check "$_d holds no md superblock" sh -c "! mdadm --examine '$_d' >/dev/null 2>&1"
		done
	fi
	check "the table names the volume, layout sequential" \
		sh -c "dmsetup table vol | grep ' layout sequential volume [0-9a-f-]*\$' >/dev/null"
	# shellcheck disable=SC2086
	bds_fio_verifies "every block written before the power cut" $_job --filename=/dev/mapper/vol
	run bdsadm stop vol
	run bdsadm assemble --scan
	check "nothing left to finish" sh -c "! bdsadm assemble --scan 2>&1 | grep finished >/dev/null"
	run bdsadm stop vol
	rm -f /etc/bds-stripe/bds-stripe.conf
	bds_wipe_expect_clean "$@"
	pass
}

# bds_adopt_table_crash POINT OUTCOME: the body of the adopt-table-cut
# tests (two boots, four disks; header "# reboot-topology:").  Boot 1: a
# striped table st over the four disks (64 KiB chunk, offset 2048),
# 128 MiB of it written by fio with a verify pattern, then "bdsadm adopt
# vol --from-table st" with the power cut at POINT (BDSADM_TEST_CRASH_AT);
# the disks' serials in table order are kept for boot 2.  Boot 2, the
# disks renamed, OUTCOME:
#   remake  cut among the marked backups: "bdsadm assemble --scan" makes
#           no volume, names the disk with member 1's serial and no label
#           and asks whether adopt --from-table was cut short, and writes
#           nothing to the members; the table made again by hand over the
#           same disks (found by serial) reads back the pattern; adopt
#           again takes it;
#   finish  every marked backup written: "bdsadm assemble --scan"
#           finishes the adoption by itself and says so.
# Then fio verifies the pattern through vol, and again through vol
# assembled from its labels, with nothing left to finish.
bds_adopt_table_crash() {
	_pt=$1 _want=$2
	# each member: offset 2048, then 2033 units of 128 sectors, 8 KiB
	# before the backup label's place (sector 262320 of 262336)
	_per=260224
	_job="--name=p --direct=1 --ioengine=psync --rw=write --bs=64k --size=128m --verify=crc32c --randseed=36 --output-format=terse --terse-version=3"
	bds_load_module
	if [ "$BDS_BOOT" = 1 ]; then
		# shellcheck disable=SC2046 # one word per member
		set -- $(bds_all_members)
		[ $# -eq 4 ] || fail "need 4 disks, have: $*"
		_s=""
		for _d in "$@"; do
			_s="$_s $(bds_serial "$_d")"
		done
		bds_state_save "serials$_s"
		bds_striped_table "$_per" "$@" | dmsetup create st || fail "dmsetup create st"
		# shellcheck disable=SC2086
		fio $_job --filename=/dev/mapper/st --do_verify=0 >/tmp/fio.out 2>&1 ||
			{ cat /tmp/fio.out; fail "fio write failed"; }
		sync
		bds_power_cut_armed
		BDSADM_TEST_CRASH_AT=$_pt bdsadm adopt vol --from-table st
		fail "bdsadm adopt returned ($?): the crash point $_pt was not reached"
	fi
	_order=""
	for _sn in $(bds_state_get serials); do
		_d=$(bds_by_serial "$_sn") || fail "no disk has serial $_sn"
		_order="$_order $_d"
	done
	# shellcheck disable=SC2086 # one word per member
	set -- $_order
	log "the table's members, renamed: $*"
	_before=$(bds_member_ends "$@")
	bdsadm examine "$1" >/tmp/examine.out 2>&1
	check "the first member carries the marked backup written before the cut" \
		grep -q "marked ADOPT" /tmp/examine.out
	cat /tmp/examine.out
	log "+ bdsadm assemble --scan"
	bdsadm assemble --scan >/tmp/asm.out 2>&1
	_rc=$?
	cat /tmp/asm.out
	if [ "$_want" = remake ]; then
		check "assemble makes no volume of one member in four (exit $_rc)" \
			sh -c "[ $_rc -ne 0 ] && ! dmsetup info vol >/dev/null 2>&1"
		_s1=$(bds_serial "$2")
		check "it names $2, with member 1's serial ($_s1) and no label, and the adopt cut short" \
			grep -q "volume vol: /dev/[a-z]* has member 1's serial ($_s1) and no bds-stripe label: was 'bdsadm adopt vol --from-table' cut short?" /tmp/asm.out
		expect_eq "$(bds_member_ends "$@")" "$_before" "assemble wrote nothing to the members"
		log "+ dmsetup create st (as before the cut): $(bds_striped_table "$_per" "$@")"
		bds_striped_table "$_per" "$@" | dmsetup create st || fail "dmsetup create st"
		# shellcheck disable=SC2086
		bds_fio_verifies "the pattern through the table made again" $_job --filename=/dev/mapper/st
		log "+ bdsadm adopt vol --from-table st"
		bdsadm adopt vol --from-table st >/tmp/adopt.out 2>&1
		_rc=$?
		cat /tmp/adopt.out
		expect_eq "$_rc" 0 "adopt again finishes"
		check "st is gone" sh -c "! dmsetup info st >/dev/null 2>&1"
	else
		expect_eq "$_rc" 0 "assemble --scan exit status"
		check "it finished the adoption from the table" \
			grep -q "an adoption from a table was cut short; finished as the volume from its backup labels" /tmp/asm.out
	fi
	check "vol's table: layout sequential and the volume's UUID" \
		sh -c "dmsetup table vol | grep ' layout sequential volume [0-9a-f-]*\$' >/dev/null"
	# shellcheck disable=SC2086
	bds_fio_verifies "the pattern through vol" $_job --filename=/dev/mapper/vol
	run bdsadm stop vol
	bdsadm assemble --scan >/tmp/asm.out 2>&1
	_rc=$?
	cat /tmp/asm.out
	expect_eq "$_rc" 0 "assemble --scan from the labels"
	check "nothing left to finish" sh -c "! grep finished /tmp/asm.out >/dev/null"
	# shellcheck disable=SC2086
	bds_fio_verifies "the pattern through vol assembled from its labels" $_job --filename=/dev/mapper/vol
	run bdsadm stop vol
	bds_wipe_expect_clean "$@"
	pass
}

# bds_striped_table PER DEV...: a striped table over the devices in this
# order, 64 KiB chunk, each at offset 2048 with PER sectors of data.
bds_striped_table() {
	_p=$1
	shift
	_t="0 $((_p * $#)) striped $# 128"
	for _d in "$@"; do
		_t="$_t $(bds_majmin "$_d") 2048"
	done
	echo "$_t"
}

# bds_member_ends DEV...: one digest of the first 16 KiB and the last
# 64 KiB of each device, where labels and md's superblocks lie: equal
# before and after a step that must write nothing to them.
bds_member_ends() {
	for _d in "$@"; do
		_sz=$(blockdev --getsz "$_d")
		dd if="$_d" bs=16K count=1 iflag=direct 2>/dev/null | sha256sum
		dd if="$_d" bs=64K skip=$((_sz * 512 - 65536)) count=65536 \
			iflag=direct,skip_bytes,count_bytes 2>/dev/null | sha256sum
	done | tr -d ' \n-'
}

# bds_release_crash POINT OUTCOME: the body of the release-cut tests (two
# boots, four disks; header "# reboot-topology:").  Boot 1: bdsadm create
# vol --layout sequential --chunk 64K over the four disks, 128 MiB of it
# written by fio with a verify pattern, then "bdsadm release vol --to-md"
# with the power cut at POINT (BDSADM_TEST_CRASH_AT).  Boot 2, the disks
# renamed, OUTCOME:
#   volume  md's superblocks are not all written: "bdsadm assemble
#           --scan" brings the volume back (rewriting the marked backups:
#           it says so), fio verifies the pattern through it, no member
#           holds an md superblock;
#   md      every member holds md's superblock: "bdsadm assemble --scan"
#           refuses the volume, says the md array is whole and writes
#           nothing; mdadm --assemble --scan starts the array, and fio
#           verifies the pattern through it.
bds_release_crash() {
	_pt=$1 _want=$2
	bds_load_module
	modprobe raid0 2>/dev/null || true
	# shellcheck disable=SC2046 # one word per member
	set -- $(bds_all_members)
	[ $# -eq 4 ] || fail "need 4 disks, have: $*"
	_job="--name=p --direct=1 --ioengine=psync --rw=write --bs=64k --size=128m --verify=crc32c --randseed=53 --output-format=terse --terse-version=3"
	if [ "$BDS_BOOT" = 1 ]; then
		run bdsadm create vol --layout sequential --chunk 64K "$@"
		# shellcheck disable=SC2086
		fio $_job --filename=/dev/mapper/vol --do_verify=0 >/tmp/fio.out 2>&1 ||
			{ cat /tmp/fio.out; fail "fio write failed"; }
		sync
		bds_power_cut_armed
		BDSADM_TEST_CRASH_AT=$_pt bdsadm release vol --to-md
		fail "bdsadm release returned ($?): the crash point $_pt was not reached"
	fi
	_before=$(bds_member_ends "$@")
	log "+ bdsadm assemble --scan"
	bdsadm assemble --scan >/tmp/asm.out 2>&1
	_rc=$?
	cat /tmp/asm.out
	if [ "$_want" = md ]; then
		expect_eq "$_rc" 1 "assemble refuses the volume"
		check "it says md's array is whole" grep -q "the md array is whole" /tmp/asm.out
		check "no volume" sh -c '! dmsetup info vol >/dev/null 2>&1'
		expect_eq "$(bds_member_ends "$@")" "$_before" "assemble wrote nothing to the members"
		run mdadm --assemble --scan
		_dev=/dev/$(awk '$3 == "active" { print $1 }' /proc/mdstat)
		[ "$_dev" != /dev/ ] || fail "mdadm --assemble --scan started no array"
	else
		expect_eq "$_rc" 0 "assemble --scan exit status"
		check "it put the volume back" grep -q "finished as the volume from its backup labels" /tmp/asm.out
		check "the table names the volume, layout sequential" \
			sh -c "dmsetup table vol | grep ' layout sequential volume [0-9a-f-]*\$' >/dev/null"
		for _d in "$@"; do
			check "$_d holds no md superblock" sh -c "! mdadm --examine '$_d' >/dev/null 2>&1"
		done
		_dev=/dev/mapper/vol
	fi
	# shellcheck disable=SC2086
	bds_fio_verifies "every block written before the power cut, through $_dev" $_job --filename="$_dev"
	if [ "$_want" = md ]; then
		run mdadm --stop "$_dev"
		for _d in "$@"; do
			run mdadm --zero-superblock "$_d"
			bdsadm wipe "$_d" >/dev/null 2>&1 || true
		done
	else
		run bdsadm stop vol
	fi
	bds_wipe_expect_clean "$@"
	pass
}

# --- data ---------------------------------------------------------------------

# bds_read DEV OFFSET LENGTH: raw bytes [OFFSET, OFFSET+LENGTH) to stdout
# (O_DIRECT when both are multiples of 4096, so no page-cache aliasing, in
# reads of up to 1 MiB: 4 KiB ones cost about 8 s per 100 MiB under TCG).
bds_read() {
	if [ $(($2 % 4096)) -eq 0 ] && [ $(($3 % 4096)) -eq 0 ]; then
		dd if="$1" bs=1M iflag=direct,skip_bytes,count_bytes skip="$2" count="$3" status=none
	else
		dd if="$1" bs=1M iflag=skip_bytes,count_bytes skip="$2" count="$3" status=none
	fi
}

# bds_md5 DEV OFFSET LENGTH: md5 of a byte range.
bds_md5() { bds_read "$@" | md5sum | cut -d' ' -f1; }

# bds_write DEV OFFSET FILE: write FILE at byte OFFSET (direct I/O, fsync).
bds_write() {
	dd if="$3" of="$1" bs=1M oflag=seek_bytes,direct seek="$2" conv=fsync status=none 2>/dev/null ||
		dd if="$3" of="$1" bs=1M oflag=seek_bytes seek="$2" conv=fsync status=none
}

# --- device-mapper ---------------------------------------------------------------

# bds_load_module: insmod the module under test (fails the test if absent).
bds_load_module() {
	if [ -z "${BDS_MODULE:-}" ] || [ ! -e "$BDS_MODULE" ]; then
		fail "no module under test (vm-run --module)"
	fi
	run insmod "$BDS_MODULE" "$@"
}

# bds_dm_create NAME TABLE: dmsetup create from a table string.
bds_dm_create() {
	log "dmsetup create $1: $2"
	echo "$2" | dmsetup create "$1" || fail "dmsetup create $1 failed"
	[ -b "/dev/mapper/$1" ] || fail "/dev/mapper/$1 missing"
}

# bds_dm_remove NAME: remove a dm device (retries while busy).
bds_dm_remove() {
	_i=0
	while ! dmsetup remove "$1" 2>/dev/null; do
		_i=$((_i + 1))
		[ "$_i" -ge 20 ] && fail "dmsetup remove $1 failed"
		sleep 0.2
	done
}

# bds_stripe_table CHUNK GROUP...: a bds-stripe table over whole members from
# sector 0; each GROUP is a comma-separated list of member paths.  The
# volume uses as much of the smallest member as is a whole number of chunks.
bds_stripe_table() {
	_chunk=$1
	shift
	_ng=$#
	_n=0
	_min=""
	for _g in "$@"; do
		for _m in $(echo "$_g" | tr , ' '); do
			_n=$((_n + 1))
			_s=$(bds_sectors "$_m") || return 1
			if [ -z "$_min" ] || [ "$_s" -lt "$_min" ]; then
				_min=$_s
			fi
		done
	done
	_t="0 $((_min / _chunk * _chunk * _n)) bds-stripe $_chunk $_ng"
	for _g in "$@"; do
		_cnt=0
		_words=""
		for _m in $(echo "$_g" | tr , ' '); do
			_cnt=$((_cnt + 1))
			_words="$_words $(bds_majmin "$_m") 0"
		done
		_t="$_t $_cnt$_words"
	done
	echo "$_t"
}

# bds_order_vars VOL: the order of a bds-stripe volume (status field 4) as
# ORDER (comma-separated) and ORD_0..ORD_{N-1} (member at each position);
# NPOS = number of positions.
bds_order_vars() {
	ORDER=$(dmsetup status "$1" | awk '{ print $7 }')
	NPOS=0
	for _x in $(echo "$ORDER" | tr , ' '); do
		eval "ORD_$NPOS=$_x"
		NPOS=$((NPOS + 1))
	done
}

# bds_dmesg_since MARK: kernel messages logged after a marker written with
# bds_mark MARK.
bds_mark() { echo "bds-mark: $1" >/dev/kmsg; }
bds_dmesg_since() { dmesg | sed -n "/bds-mark: $1\$/,\$p" | sed 1d; }

# --- faults and load -----------------------------------------------------------

# bds_scaled SECONDS: SECONDS times BDS_TIME_SCALE, for a bound on a hang
# (a bound that a slow kernel must not reach when nothing hangs).
bds_scaled() { echo $(($1 * ${BDS_TIME_SCALE:-1})); }

# bds_uptime: whole seconds since boot.
bds_uptime() { cut -d. -f1 /proc/uptime; }

# bds_counters VOL: the 4 x #groups per-group counters of `dmsetup status
# VOL` (status field 6: the words after #groups, $8, up to the error
# counts), space separated.
bds_counters() {
	dmsetup status "$1" | awk '{ s = $9; for (i = 10; i <= 8 + 4 * $8; i++) s = s " " $i; print s }'
}

# bds_vec_sub A B: element-wise A - B of two counter vectors.
bds_vec_sub() {
	echo "$1 | $2" | awk -F'|' '{
		n = split($1, a, " "); split($2, b, " "); s = ""
		for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") a[i] - b[i]
		print s }'
}

# bds_health VOL: the health string of a bds-stripe volume (status field 2:
# one A or D per member, in table order).
bds_health() { dmsetup status "$1" | cut -d' ' -f5; }

# bds_errors VOL: the error counts of a bds-stripe volume (status field 7,
# target 1.3.0: one per member, table order, comma separated), "" when the
# status has no field 7.
bds_errors() {
	dmsetup status "$1" | awk '{ if (NF == 8 + 4 * $8 + 1) print $NF }'
}

# bds_events VOL: the volume's dm event number (dmsetup info).
bds_events() { dmsetup info "$1" | sed -n 's/^Event number:[[:space:]]*//p'; }

# bds_wait_events_above VOL N [SECONDS]: wait (default 20 s) until the
# volume's event number exceeds N; returns non-zero if it did not.
bds_wait_events_above() {
	_end=$(($(bds_uptime) + ${3:-20}))
	while [ "$(bds_events "$1")" -le "$2" ]; do
		[ "$(bds_uptime)" -lt "$_end" ] || return 1
		sleep 0.2
	done
}

# bds_wait_text SECONDS FILE TEXT: wait until FILE holds the fixed string
# TEXT; non-zero if it did not within SECONDS.
bds_wait_text() {
	_end=$(($(bds_uptime) + $1))
	while ! grep -qF -- "$3" "$2"; do
		[ "$(bds_uptime)" -lt "$_end" ] || return 1
		sleep 0.1
	done
}

# bds_wait_until SECONDS CMD...: wait until CMD succeeds; non-zero if it
# did not within SECONDS.
bds_wait_until() {
	_end=$(($(bds_uptime) + $1))
	shift
	until "$@"; do
		[ "$(bds_uptime)" -lt "$_end" ] || return 1
		sleep 0.1
	done
}

# bds_file_units CHUNK FILE...: one stripe unit (CHUNK sectors) per FILE
# that lies wholly in the file's first extent (xfs_io fiemap), as unit
# numbers of the volume, one per line: units that hold file data, so that
# a placement check compares data, not free space.
bds_file_units() {
	_c=$1
	shift
	for _f in "$@"; do
		xfs_io -r -c fiemap "$_f" |
			sed -n 's/^[[:space:]]*0: \[[0-9]*\.\.[0-9]*\]: \([0-9]*\)\.\.\([0-9]*\)$/\1 \2/p' |
			while read -r _s _e; do
				_u=$(((_s + _c - 1) / _c))
				[ $(((_u + 1) * _c - 1)) -le "$_e" ] && echo "$_u"
			done
	done
}

# bds_slot_rank U SLOTS: the member RM (table index) of stripe unit U of a
# volume whose cycle is SLOTS (the status's slot order, comma-separated:
# a member of weight w in w slots), and RK, the unit's rank among that
# member's units: the member holds it at its data offset + RK units.
bds_slot_rank() {
	_w=0 _before=0 _i=0
	_n=$(echo "$2" | tr ',' '\n' | wc -l)
	_s=$(($1 % _n))
	RM=$(echo "$2" | cut -d, -f$((_s + 1)))
	for _x in $(echo "$2" | tr , ' '); do
		if [ "$_x" = "$RM" ]; then
			_w=$((_w + 1))
			[ $_i -lt $_s ] && _before=$((_before + 1))
		fi
		_i=$((_i + 1))
	done
	_cyc=$(($1 / _n))
	RK=$((_cyc * _w + _before))
}

# bds_units_where_table_says VOL CHUNK FILE...: one stripe unit (CHUNK
# sectors) of each FILE's data (bds_file_units), read through
# /dev/mapper/VOL, is what the member the table puts it on holds at its
# place there (the status's slot order and the member's rank in it,
# bds_slot_rank; the table's data offset), read from the member with
# O_DIRECT: one check per unit, and one unit per FILE.
bds_units_where_table_says() {
	_v=$1 _c=$2
	shift 2
	_slots=$(dmsetup status "$_v" | awk '{ print $7 }')
	dmsetup table "$_v" | awk '{ i = 6; m = 0
		for (g = 0; g < $5; g++) {
			n = $i; i++
			for (k = 0; k < n; k++) { print m, $i, $(i + 1); m++; i += 2 }
		} }' >/tmp/bds-members
	bds_file_units "$_c" "$@" >/tmp/bds-units
	expect_eq "$(wc -l </tmp/bds-units)" "$#" "one unit of file data per file"
	log "slots $_slots; members (index, device, offset): $(tr '\n' ';' </tmp/bds-members)"
	while read -r _u; do
		bds_slot_rank "$_u" "$_slots"
		_w=$(awk -v m="$RM" '$1 == m { print $2, $3 }' /tmp/bds-members)
		_node=/dev/$(sed -n 's/^DEVNAME=//p' "/sys/dev/block/${_w% *}/uevent")
		expect_eq "$(bds_md5 "$_node" $(((${_w#* } + RK * _c) * 512)) $((_c * 512)))" \
			"$(bds_md5 "/dev/mapper/$_v" $((_u * _c * 512)) $((_c * 512)))" \
			"unit $_u on member $RM ($_node) where the table puts it"
	done </tmp/bds-units
}

# bds_unit_member K ORDER: the member (table index) that holds stripe unit
# K of a volume whose order field (status field 4) is ORDER, e.g. 0,2,1,3.
bds_unit_member() {
	_n=$(echo "$2" | tr ',' '\n' | wc -l)
	echo "$2" | cut -d, -f$(($1 % _n + 1))
}

# bds_unit_md5 FILE K UNIT: md5 of the K-th UNIT-byte unit of FILE.
bds_unit_md5() {
	dd if="$1" bs="$3" skip="$2" count=1 status=none | md5sum | cut -d' ' -f1
}

# bds_within SECONDS CMD...: run CMD in the background, its output (both
# streams) in /tmp/within.out, then shown, and its exit status in
# $within_rc; a run still going after SECONDS fails the test
# (bds_wait_bounded).  A guard against a hang, not a timing: the output
# decides.
bds_within() {
	_lim=$1
	shift
	"$@" >/tmp/within.out 2>&1 &
	bds_wait_bounded within_rc $! "$_lim" "$*"
	cat /tmp/within.out
}

# bds_hung_report PID SECS WHAT: print what the command WHAT, process PID
# still running after SECS s, waits on, to the console (the test's own
# output may be redirected): its state and kernel stack, every disk with
# requests in flight and blk-mq's view of them, the dm devices, and the
# kernel's list of blocked tasks.
bds_hung_report() {
	{
		echo "bds: hung after $2 s: $3 (pid $1)"
		grep -E '^(State|wchan)' /proc/"$1"/status 2>/dev/null
		echo "bds: its kernel stack:"
		cat /proc/"$1"/stack 2>/dev/null
		for _hd in /sys/block/*; do
			{ read -r _hr _hw <"$_hd/inflight"; } 2>/dev/null || continue
			[ "$_hr$_hw" = 00 ] && continue
			echo "bds: ${_hd##*/} in flight: $_hr reads, $_hw writes"
			grep -H . /sys/kernel/debug/block/"${_hd##*/}"/hctx*/busy \
				/sys/kernel/debug/block/"${_hd##*/}"/hctx*/dispatch \
				/sys/kernel/debug/block/"${_hd##*/}"/requeue_list \
				/sys/kernel/debug/block/"${_hd##*/}"/state 2>/dev/null
		done
		dmsetup info -c 2>&1
		dmsetup status 2>&1
	} >/dev/console 2>&1
	echo w >/proc/sysrq-trigger 2>/dev/null
}

# bds_wait_bounded VAR PID SECS WHAT: wait for the background command WHAT,
# process PID, and store its exit status in VAR.  Still running after SECS
# s, it fails the test, after bds_hung_report: a process stuck in the
# kernel does not die of a kill, so the test does not wait for it (as
# `timeout` would).  A guard against a hang, not a timing.
bds_wait_bounded() {
	read -r _bt _ </proc/uptime
	_bt=$((${_bt%.*} + $3))
	_bn=0
	while kill -0 "$2" 2>/dev/null; do
		{ read -r _bs </proc/"$2"/stat; } 2>/dev/null || break
		_bs=${_bs#*) }
		[ "${_bs%% *}" = Z ] && break
		read -r _bu _ </proc/uptime
		if [ "${_bu%.*}" -ge "$_bt" ]; then
			bds_hung_report "$2" "$3" "$4"
			kill -KILL "$2" 2>/dev/null
			fail "hung (no end after $3 s): $4"
		fi
		# short commands are seen ending soon, long ones cost few polls
		case $_bn in
		0) sleep 0.01 ;;
		1) sleep 0.02 ;;
		2) sleep 0.05 ;;
		3) sleep 0.1 ;;
		*) sleep 0.2 ;;
		esac
		_bn=$((_bn + 1))
	done
	wait "$2"
	_bw=$?
	eval "$1=\$_bw"
}

# bds_bounded VAR CMD...: run CMD with a 60 s limit (bds_wait_bounded), its
# exit status into VAR.
bds_bounded() {
	_var=$1
	shift
	"$@" &
	bds_wait_bounded "$_var" $! 60 "$*"
}

# bds_check_failed_units DM UNIT NUNITS ORDER BAD DATA NEW: units
# 0..NUNITS-1 (UNIT bytes each) of the volume DM whose member BAD has
# failed: each read and write of a unit on BAD fails (an error, not a
# hang), every other unit reads back its data from the file DATA, takes a
# direct write of the unit in file NEW and reads that back (DATA is updated
# to match).
bds_check_failed_units() {
	_k=0
	while [ "$_k" -lt "$3" ]; do
		_m=$(bds_unit_member $_k "$4")
		rm -f /tmp/u
		bds_bounded _rc dd if="$1" of=/tmp/u bs="$2" skip=$_k count=1 iflag=direct \
			status=none 2>/dev/null
		if [ "$_m" = "$5" ]; then
			check "unit $_k (m$_m) read fails" [ "$_rc" != 0 ]
			bds_bounded _rc dd if="$7" of="$1" bs="$2" seek=$_k count=1 oflag=direct \
				conv=notrunc status=none 2>/dev/null
			check "unit $_k (m$_m) write fails" [ "$_rc" != 0 ]
		else
			check "unit $_k (m$_m) read succeeds" [ "$_rc" = 0 ]
			expect_eq "$(md5sum </tmp/u | cut -d' ' -f1)" \
				"$(bds_unit_md5 "$6" $_k "$2")" "unit $_k (m$_m) data"
			bds_bounded _rc dd if="$7" of="$1" bs="$2" seek=$_k count=1 oflag=direct \
				conv=notrunc status=none
			check "unit $_k (m$_m) write succeeds" [ "$_rc" = 0 ]
			rm -f /tmp/u
			bds_bounded _rc dd if="$1" of=/tmp/u bs="$2" skip=$_k count=1 \
				iflag=direct status=none
			check "unit $_k (m$_m) holds the new data" cmp -s "$7" /tmp/u
			dd if="$7" of="$6" bs="$2" seek=$_k count=1 conv=notrunc status=none
		fi
		_k=$((_k + 1))
	done
}

# bds_expect_reported VOL HEALTH EV0: the volume's health string is HEALTH
# and a dm event was raised since event number EV0 (`dmsetup wait VOL EV0`
# returns, bounded, and the number went up).
bds_expect_reported() {
	log "status: $(dmsetup status "$1")"
	expect_eq "$(bds_health "$1")" "$2" "health string (table order)"
	bds_bounded _rc dmsetup wait "$1" "$3"
	check "dmsetup wait $1 $3 returned" [ "$_rc" = 0 ]
	_ev=$(bds_events "$1")
	check "a dm event was raised ($3 -> $_ev)" [ "$_ev" -gt "$3" ]
}

# bds_expect_removable VOL: the volume (with a failed member) is removed by
# one plain `dmsetup remove`, bounded.
bds_expect_removable() {
	bds_bounded _rc dmsetup remove "$1"
	check "volume $1 removed" [ "$_rc" = 0 ]
	if [ -e "/dev/mapper/$1" ]; then
		bds_dm_remove "$1"
	fi
}

# bds_linear_members DISK...: a linear dm device mI over the whole of the
# I-th DISK (from 0), so that a test can swap a member's table (error,
# flakey) under a volume built on /dev/mapper/mI.  Sets DISKI (the disk),
# DI (its major:minor) and DISK_SECTORS (the size of the last disk).
bds_linear_members() {
	_i=0
	for _d in "$@"; do
		DISK_SECTORS=$(bds_sectors "$_d")
		eval "DISK$_i=\$_d D$_i=\$(bds_majmin \$_d)"
		eval "bds_dm_create m$_i \"0 $DISK_SECTORS linear \$D$_i 0\""
		_i=$((_i + 1))
	done
}

# bds_dm_switch NAME TABLE: replace the table of a live dm device
# (suspend, load, resume).
bds_dm_switch() {
	run dmsetup suspend "$1"
	echo "$2" | dmsetup load "$1" || fail "dmsetup load $1 failed"
	run dmsetup resume "$1"
	log "$1 is now: $(dmsetup table "$1")"
}

# bds_holders DEV: the holders (dm-N ...) of a block device, one line.
bds_holders() {
	ls "/sys/block/$(bds_dev "$1")/holders/" 2>/dev/null | tr '\n' ' ' | sed 's/ $//'
}

# bds_expect_refused DESC REASON TABLE KLOG NAME DEV...: "dmsetup create
# NAME" of TABLE fails, the kernel log since bds_mark DESC gives REASON as
# the bds-stripe error and a line matching the extended regular expression
# KLOG (which member, say), and nothing is left: no NAME, no holder of
# any DEV.  The kernel log of the refusal stays in /tmp/refused.log.
bds_expect_refused() {
	_d=$1 _why=$2 _t=$3 _klog=$4 _n=$5
	shift 5
	bds_mark "$_d"
	if echo "$_t" | dmsetup create "$_n" 2>/dev/null; then
		check "$_d: refused" false
		bds_dm_remove "$_n"
		return
	fi
	bds_dmesg_since "$_d" >/tmp/refused.log
	check "$_d: refused with '$_why'" grep -qF "bds-stripe: $_why" /tmp/refused.log
	check "$_d: the kernel says which ($_klog)" grep -qE "$_klog" /tmp/refused.log
	check "$_d: no device left" sh -c "! dmsetup info $_n >/dev/null 2>&1"
	_h=""
	for _x in "$@"; do
		_h="$_h$(bds_holders "$_x")"
	done
	expect_eq "$_h" "" "$_d: no holders"
}

# bds_module_refcnt: reference count of dm_bds_stripe ("" when not loaded).
bds_module_refcnt() { cat /sys/module/dm_bds_stripe/refcnt 2>/dev/null; }

# bds_replaced_end: the end of a replace test over bds_four_disks, C
# replaced by D: stop vol, wipe A, B and D, and bds_expect_clean all four.
bds_replaced_end() {
	run bdsadm stop vol
	for _d in "$A" "$B" "$D"; do
		run bdsadm wipe "$_d"
	done
	bds_expect_clean "$A" "$B" "$C" "$D"
}

# bds_wipe_expect_clean DEV...: the end of the crash tests: every DEV's
# labels erased (whatever is left of them), then bds_expect_clean.
bds_wipe_expect_clean() {
	for _d in "$@"; do
		bdsadm wipe "$_d" >/dev/null 2>&1 || true
	done
	bds_expect_clean "$@"
}

# bds_expect_clean DEV...: check()s that no dm device is left, that no DEV
# has a holder, that the module's reference count is 0 and that it unloads.
bds_expect_clean() {
	expect_eq "$(dmsetup ls 2>&1)" "No devices found" "no dm devices left"
	for _m in "$@"; do
		expect_eq "$(bds_holders "$_m")" "" "$_m has no holders"
	done
	expect_eq "$(bds_module_refcnt)" 0 "module refcount"
	check "rmmod dm_bds_stripe" rmmod dm_bds_stripe
	check "module gone" [ ! -e /sys/module/dm_bds_stripe ]
}

# bds_json_log DEFINITION FILE: bdsadm's JSON output in FILE to the log as
# one line, "bds-json DEFINITION: {...}" (JSON keeps no newline inside a
# string), for the host's tests/scripts/vm-json-check.sh to hold against
# Documentation/bdsadm.schema.json's DEFINITION.
bds_json_log() { echo "bds-json $1: $(tr -d '\n' <"$2")"; }

# bds_fio_json FILE KEY [N]: the N-th (default 1st) integer value of "KEY"
# in a fio JSON output (first per job: "read" before "write").
bds_fio_json() {
	grep "\"$2\" : " "$1" | sed -n "${3:-1}s/.*\"$2\" : \\([0-9-]*\\).*/\\1/p"
}

# bds_expect_fio_verified OUT RC JOB...: check()s a fio write+verify run
# (--output-format=terse --terse-version=3 in file OUT, exit status RC):
# it exited 0, reported no verify error, and each JOB had no error, wrote
# something and read back (verified) as many KiB as it wrote.
bds_expect_fio_verified() {
	_out=$1
	expect_eq "$2" 0 "fio exit status"
	check "no verify error reported" \
		sh -c "! grep -Eiq 'verify|bad magic|mismatch|crc' '$_out'"
	shift 2
	for _jn in "$@"; do
		_line=$(grep "^3;[^;]*;$_jn;" "$_out")
		expect_eq "$(echo "$_line" | cut -d';' -f5)" 0 "job $_jn error"
		_rkb=$(echo "$_line" | cut -d';' -f6)
		_wkb=$(echo "$_line" | cut -d';' -f47)
		check "job $_jn wrote something ($_wkb KiB)" [ "${_wkb:-0}" -gt 0 ]
		expect_eq "$_rkb" "$_wkb" "job $_jn KiB verified = written"
	done
}

# bds_kmsg_clean MARK: check()s that the kernel logged no allocation
# failure, OOM kill or hung task since bds_mark MARK.
bds_kmsg_clean() {
	bds_dmesg_since "$1" >/tmp/kmsg.since
	check "no allocation failure logged" \
		sh -c "! grep -Eq 'page allocation failure|Out of memory|oom-kill|blocked for more than' /tmp/kmsg.since"
}

# bds_rnd_seed SEED, then bds_rnd N: RND = 0..N-1, a sequence fixed by
# the seed (a linear congruential generator, so that a run can be
# repeated); call bds_rnd in the test's own shell, not in a subshell.
bds_rnd_seed() { BDS_RND_STATE=$1; }
# shellcheck disable=SC2034 # RND is the caller's
bds_rnd() {
	BDS_RND_STATE=$(((BDS_RND_STATE * 1103515245 + 12345) % 2147483648))
	RND=$((BDS_RND_STATE / 65536 % $1))
}

# bds_random_files DIR PREFIX N [fsync]: files DIR/PREFIX.0 to .N-1 of
# 4 MiB of random data each (each written with conv=fsync when asked);
# fails the test (or the subshell it runs in) if one cannot be written.
bds_random_files() {
	_rf=0
	while [ $_rf -lt "$3" ]; do
		dd if=/dev/urandom of="$1/$2.$_rf" bs=1M count=4 ${4:+conv=$4} status=none ||
			fail "cannot write $1/$2.$_rf"
		_rf=$((_rf + 1))
	done
}

# bds_cmdline_arg NAME [DEFAULT]: value of NAME=... on the kernel command
# line (vm-run -a NAME=VALUE).
bds_cmdline_arg() {
	_v=$(tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -n 1)
	echo "${_v:-${2:-}}"
}

# --- peers (vm-peers.sh): other guests on links of their own --------------

# bds_peer_iface I [SIDE]: the network interface of link I (from 1) on
# this guest: SIDE 01 in peer I, 02 (default) in the test's guest.
bds_peer_iface() {
	_mac=$(printf '52:54:00:bd:%02x:%s' "$1" "${2:-02}")
	for _d in /sys/class/net/*; do
		[ "$(cat "$_d/address")" = "$_mac" ] && { echo "${_d##*/}"; return 0; }
	done
	return 1
}

# bds_peer_link I [SIDE]: bring link I up with this guest's address on
# it: 10.0.I.1 in peer I (SIDE 01), 10.0.I.2 in the test's guest.
bds_peer_link() {
	modprobe -q virtio_net 2>/dev/null
	_side=${2:-02}
	_i=0
	until _if=$(bds_peer_iface "$1" "$_side"); do
		_i=$((_i + 1))
		[ "$_i" -lt 100 ] || fail "no network interface for link $1"
		sleep 0.1
	done
	ip link set lo up
	ip link set "$_if" up
	ip addr add "10.0.$1.$((${_side#0}))/24" dev "$_if" ||
		fail "cannot set 10.0.$1.${_side#0} on $_if"
	log "link $1: $_if, 10.0.$1.${_side#0}"
}

# bds_peer_serve: in a peer, after it set up what it serves: wait until
# the test's guest (10.0.I.2) answers (300 s at most), then until it has
# not answered for 5 s in a row: it is done (or dead).  Fails if it never
# answered.
bds_peer_serve() {
	_i=$(bds_cmdline_arg bds.peer_index)
	_t=0
	until ping -c 1 -W 1 "10.0.$_i.2" >/dev/null 2>&1; do
		_t=$((_t + 1))
		[ "$_t" -lt 300 ] || fail "the test's guest never answered on link $_i"
	done
	log "the test's guest answers on link $_i: serving"
	_miss=0
	while [ "$_miss" -lt 5 ]; do
		if ping -c 1 -W 1 "10.0.$_i.2" >/dev/null 2>&1; then
			_miss=0
			sleep 1
		else
			_miss=$((_miss + 1))
		fi
	done
	log "the test's guest has not answered for 5 s: done"
}

# --- a volume mid-restripe --------------------------------------------------------

# bds_plain_order G TABLE: load TABLE (a plain one: no volume, no
# reshape) as bds-plain, keep its order (status field 4) as G_0, G_1, ...
# and its number of positions as G_N, and remove it.  Fails unless the
# order is a permutation of the members.
bds_plain_order() {
	bds_dm_create bds-plain "$2"
	_ord=$(dmsetup status bds-plain | awk '{ print $7 }')
	bds_dm_remove bds-plain
	log "$1 geometry: order $_ord"
	_p=0
	_seen=" "
	for _x in $(echo "$_ord" | tr , ' '); do
		case "$_x" in
		'' | *[!0-9]*) fail "$1 order '$_ord': not a list of members" ;;
		esac
		case "$_seen" in
		*" $_x "*) fail "$1 order '$_ord': member $_x twice" ;;
		esac
		_seen="$_seen$_x "
		eval "${1}_$_p=$_x"
		_p=$((_p + 1))
	done
	eval "${1}_N=$_p"
}

# bds_restripe_labels UUID CHUNK CK A B C: label A, B and C as a volume
# growing from 2 members (A, B in one group) to 3 (groups 2+1: A, B; C),
# interleaved, unit CHUNK sectors, at checkpoint CK (bds-mklabels
# --old-members 2 --ckpt CK), and check the table it prints word by
# word.  Sets RS_TABLE (that table, with the paths), RS_OLDLEN and
# RS_NEWLEN (sectors), OLDOFF_0..1 and NEWOFF_0..2 (data offsets), and the
# orders of both geometries (bds_plain_order: OLD_* and NEW_*).
bds_restripe_labels() {
	RS_TABLE=$(bds-mklabels --old-members 2 --ckpt "$3" "$1" "$2" interleave 2,1 "$4" "$5" "$6") ||
		fail "bds-mklabels failed"
	log "labelled table: $RS_TABLE"
	# shellcheck disable=SC2086 # the table's words
	set -- "$1" "$2" "$3" "$4" "$5" "$6" $RS_TABLE
	[ $# -eq 29 ] || fail "the labelled table has $(($# - 6)) words, not 23: $RS_TABLE"
	expect_eq "$7 $9 ${10} ${11} ${12} ${13} ${15} ${17} ${18} ${20} ${21} ${22} ${23} ${24} ${25} ${27} ${28}" \
		"0 bds-stripe $2 2 2 $4 $5 1 $6 9 volume $1 reshape forward $3 2 interleave" \
		"the labelled table's words"
	RS_OLDLEN=$8 RS_NEWLEN=${26}
	NEWOFF_0=${14} NEWOFF_1=${16} NEWOFF_2=${19}
	# <index>:<offset>:<weight> of old members 0 and 1: table members 0 and 1
	_i=0
	for _e in $(echo "${29}" | tr , ' '); do
		expect_eq "${_e%%:*}:${_e##*:}" "$_i:1" "old member $_i: table member $_i, weight 1"
		_o=${_e#*:}
		eval "OLDOFF_$_i=${_o%:*}"
		_i=$((_i + 1))
	done
	expect_eq "$_i" 2 "old members"
	_ds=$((RS_OLDLEN / 2))
	expect_eq "$((_ds % $2)) $RS_NEWLEN" "0 $((_ds * 3))" \
		"each member holds the same whole units in both geometries"
	log "old offsets $OLDOFF_0 $OLDOFF_1, new offsets $NEWOFF_0 $NEWOFF_1 $NEWOFF_2," \
		"$_ds sectors of data per member"
	check "the restripe moves the old members' data down" \
		sh -c "[ $NEWOFF_0 -lt $OLDOFF_0 ] && [ $NEWOFF_1 -lt $OLDOFF_1 ]"
	_ma=$(bds_majmin "$4") _mb=$(bds_majmin "$5") _mc=$(bds_majmin "$6")
	bds_plain_order OLD "0 $RS_OLDLEN bds-stripe $2 1 2 $_ma $OLDOFF_0 $_mb $OLDOFF_1"
	expect_eq "$OLD_N" 2 "old geometry: positions"
	bds_plain_order NEW \
		"0 $RS_NEWLEN bds-stripe $2 2 2 $_ma $NEWOFF_0 $_mb $NEWOFF_1 1 $_mc $NEWOFF_2"
	expect_eq "$NEW_N" 3 "new geometry: positions"
}

# bds_rs_place G K CHUNK: "member sector" of unit K in geometry G (OLD or
# NEW, after bds_restripe_labels): on member G_(K mod G_N), at its data
# offset GOFF_m plus (K div G_N) units.  An independent model: shell
# arithmetic over the orders the kernel reports for plain tables.
bds_rs_place() {
	eval "_n=\$${1}_N"
	eval "_m=\$${1}_$(($2 % _n))"
	eval "_off=\$${1}OFF_$_m"
	[ -n "$_off" ] || fail "model: member $_m has no $1 offset"
	echo "$_m $((_off + ($2 / _n) * $3))"
}

# bds_rs_place_md5 G K CHUNK: md5 of the stripe unit at unit K's place in
# geometry G (bds_rs_place), read straight from its member, MEM_<m>.
bds_rs_place_md5() {
	_p=$(bds_rs_place "$1" "$2" "$3")
	eval "_dev=\$MEM_${_p% *}"
	bds_md5 "$_dev" $((${_p#* } * 512)) $(($3 * 512))
}

# bds_grow_crash POINT: a power cut at POINT of "bdsadm grow --continue"
# loses nothing, and the restripe then finishes.  Boot 1: 512 MiB disks
# A, B, C get the labels of a volume "grower" growing from 2 members (A,
# B) to 3 (A, B; C), 64 KiB unit, at checkpoint CK = U - 1024 (U the old
# length in units; bds-mklabels); bdsadm assemble brings it up; fio
# writes 68 MiB from unit CK - 64 (a verify header in every block), then
# "grow --continue --rate 16" (a checkpoint about every 30 MiB) runs with
# BDSADM_TEST_CRASH_AT=POINT.  Boot 2 (the disks renamed): bdsadm
# assemble --scan brings the volume up (mid-restripe, or plain after the
# labels' end), fio verifies every block, "grow --continue" finishes (exit
# 0), fio verifies again, and the volume has the new length and no
# restripe in its table.
bds_grow_crash() {
	_pt=$1
	bds_load_module
	# shellcheck disable=SC2046 # one word per member
	set -- $(bds_all_members)
	[ $# -ge 3 ] || fail "need 3 disks, have: $*"
	_vol=grower
	_uuid=60616263-6465-4667-9869-6a6b6c6d6e6f
	if [ "$BDS_BOOT" = 1 ]; then
		# shellcheck disable=SC2046 # the table's words
		set -- $(bds-mklabels --name $_vol --old-members 2 --ckpt 0 $_uuid 128 \
			interleave 2,1 "$1" "$2" "$3") || fail "bds-mklabels failed"
		_u=$(($2 / 128))
		_ck=$((_u - 1024))
		_new=$(echo "$*" | sed 's/.* reshape forward [0-9]* \([0-9]*\) .*/\1/')
		# shellcheck disable=SC2046
		set -- $(bds_all_members)
		bds-mklabels --name $_vol --old-members 2 --ckpt $_ck $_uuid 128 \
			interleave 2,1 "$1" "$2" "$3" >/dev/null || fail "bds-mklabels failed"
		bds_state_save ck "$_ck"
		bds_state_save new "$_new"
		run bdsadm assemble $_vol
	else
		_ck=$(bds_state_get ck) _new=$(bds_state_get new)
		run bdsadm assemble --scan 2>/tmp/err
		cat /tmp/err
	fi
	_job="--name=p --filename=/dev/mapper/$_vol --direct=1 --ioengine=psync --rw=write --bs=64k --offset=$(((_ck - 64) * 65536)) --size=68m --verify=crc32c --randseed=77 --output-format=terse --terse-version=3"
	if [ "$BDS_BOOT" = 1 ]; then
		# shellcheck disable=SC2086
		fio $_job --do_verify=0 >/tmp/fio.out 2>&1 || fail "fio write failed"
		sync
		bds_power_cut_armed
		BDSADM_TEST_CRASH_AT=$_pt bdsadm grow --continue $_vol --rate 16
		fail "bdsadm grow returned ($?): the crash point $_pt was not reached"
	fi
	log "table after the cut: $(dmsetup table $_vol)"
	# shellcheck disable=SC2086
	bds_fio_verifies "every block written before the power cut" $_job
	run bdsadm grow --continue $_vol
	# shellcheck disable=SC2086
	fio $_job --verify_only >/tmp/fio.out 2>&1
	expect_eq "$?" 0 "fio verifies every block after the restripe"
	check "no restripe left in the table" sh -c "! dmsetup table $_vol | grep reshape >/dev/null"
	expect_eq "$(bds_sectors /dev/mapper/$_vol)" "$_new" "the volume has the new length"
	run bdsadm stop $_vol
	# shellcheck disable=SC2046
	set -- $(bds_all_members)
	bds_expect_clean "$@"
	pass
}

# bds_grow_add_crash POINT WANT: a power cut at POINT of "bdsadm grow
# --add" loses nothing, and assembly after it gives WANT: "rolled-back"
# (the 2 + 2 volume, no restripe) or "restripe" (the table has one).  Boot 1: a 2 + 2 volume "vol" of bdsadm create over four
# of six 256 MiB disks (two controllers of three), fio writes 128 MiB
# with a verify header in every block, then "grow vol --add" of the
# other two runs with BDSADM_TEST_CRASH_AT=POINT.  Boot 2 (the disks
# renamed): bdsadm assemble --scan brings the volume up (the old
# generation when the change was cut before its commit point, rolled
# back; else the new one mid-restripe), fio verifies every block; then
# the grow is finished (grow --continue) or done again (grow --add), fio
# verifies again, and the volume has 6 members and no restripe.
bds_grow_add_crash() {
	_pt=$1 _want=$2
	[ "$_want" = rolled-back ] || [ "$_want" = restripe ] || fail "bds_grow_add_crash: WANT is rolled-back or restripe"
	bds_load_module
	# shellcheck disable=SC2046 # one word per member
	set -- $(bds_all_members)
	[ $# -eq 6 ] || fail "need 6 disks, have: $*"
	_job="--name=p --filename=/dev/mapper/vol --direct=1 --ioengine=psync --rw=write --bs=64k --size=128m --verify=crc32c --randseed=77 --output-format=terse --terse-version=3"
	if [ "$BDS_BOOT" = 1 ]; then
		run bdsadm create vol --chunk 64K "$1" "$2" "$4" "$5"
		# shellcheck disable=SC2086
		fio $_job --do_verify=0 >/tmp/fio.out 2>&1 || fail "fio write failed"
		sync
		bds_state_save e "$(bds_serial "$3")"
		bds_state_save f "$(bds_serial "$6")"
		bds_power_cut_armed
		BDSADM_TEST_CRASH_AT=$_pt bdsadm grow vol --add "$3" "$6"
		fail "bdsadm grow returned ($?): the crash point $_pt was not reached"
	fi
	run bdsadm assemble --scan 2>/tmp/err
	cat /tmp/err
	log "table after the cut: $(dmsetup table vol)"
	_got=rolled-back
	if dmsetup table vol | grep ' reshape ' >/dev/null; then _got=restripe; fi
	expect_eq "$_got" "$_want" "assembly after the cut: $_want"
	# shellcheck disable=SC2086
	bds_fio_verifies "every block written before the power cut" $_job
	if dmsetup table vol | grep ' reshape ' >/dev/null; then
		run bdsadm grow --continue vol
	else
		_e=$(bds_by_serial "$(bds_state_get e)") _f=$(bds_by_serial "$(bds_state_get f)")
		log "rolled back: adding $_e and $_f again"
		run bdsadm grow vol --add "$_e" "$_f"
	fi
	# shellcheck disable=SC2086
	fio $_job --verify_only >/tmp/fio.out 2>&1
	expect_eq "$?" 0 "fio verifies every block after the grow"
	# shellcheck disable=SC2046 # the table's words
	set -- $(dmsetup table vol)
	expect_eq "$3 $5 $6 ${13} ${20}" "bds-stripe 2 3 3 2" "6 members in groups 3 + 3, no restripe"
	run bdsadm stop vol
	# shellcheck disable=SC2046
	set -- $(bds_all_members)
	bds_expect_clean "$@"
	pass
}

# Environment written by vm-run.
# shellcheck disable=SC1091
[ -r /bds/env ] && . /bds/env
BDS_KVER=$(uname -r)
export BDS_KVER
export DM_DISABLE_UDEV=1
# Programs given to vm-run with --exec.
PATH=/bds/bin:$PATH
export PATH
