# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# /bds/guest-run.sh - the harness's side of a test guest, sourced by /init
# (tests/vm/guest-init) once the disks are found.  vm-run puts it in every
# guest's overlay.  It runs the boot's tests, /bds/plan, one after the
# other, each as /bin/sh /bds/tests/NAME.sh, and sets rc for /init's
# power-off.
#
# /bds/plan, one line per test, in the order to run them:
#   NAME CHECK ALLOWED
# CHECK 1: the test may share its boot (vm-run --check), so after it the
# harness checks that it left nothing behind and, when another test
# follows, puts the guest back as a fresh boot has it (below).  ALLOWED 1:
# the test has an "allowed-trace" header (the guest does not judge its
# kernel log; vm-run does).
#
# Console lines for vm-run (written to /dev/kmsg at KERN_EMERG, so that
# the kernel prints each whole, with its time stamp, whatever the console
# log level; vm-run splits the serial log at them):
#   bds-test-start: NAME
#   bds-test-end: NAME RC
#   bds-test-done: NAME clean|dirty|unchecked
# and, on the console directly, "bds-check: NAME: ..." lines that say what
# a test left behind.
#
# The check after a test with CHECK 1, against a snapshot taken before the
# boot's first test (modules, mounts, swaps, partitions, /dev/mapper, md
# arrays, loop devices, sysctls, block queue settings of the disks, module
# parameters, fault-injection settings, the /dev/bds links and the disks'
# serials):
#   - no dm device; dm_bds_stripe, if loaded, has a use count of 0 and is
#     unloaded; every module the test loaded has a use count of 0 and is
#     unloaded (the test's own rmmod is not required: a fresh boot has
#     them unloaded);
#   - no process of the test is still running (10 s for any that is
#     exiting);
#   - the snapshot is as before;
#   - no kernel problem (vm-run's pattern, BDS_BAD_RE in /bds/env) in the
#     kernel log since the test started (unless ALLOWED);
#   - on the debug kernel, kmemleak found no object of the target (as
#     after any test; in a boot of several tests, one scan after the last
#     of them, each leaked object charged to the test during which it was
#     allocated: see kmemleak_charge).
# Any of these failing makes the test "dirty": the boot ends there, and
# vm-run fails the test and runs the rest of the plan in a fresh boot.
#
# The reset before the next test: every disk of the topology discarded
# whole (a file-backed disk is a sparse file again: it reads as zeroes, as
# a fresh boot's), its first and last MiB checked to read as zeroes;
# /tmp, /root, /run/bds-stripe and the saved state emptied; empty
# directories under /mnt removed; the kernel log and kmemleak cleared.

GRUN_BASE=/run/bds/check.base
GRUN_NOW=/run/bds/check.now
KMEMLEAK=/sys/kernel/debug/kmemleak

# kmemleak (only the debug kernel has it; see tests/debug/): forget what
# boot and the module loads allocated, so that only objects the test
# allocated can be reported; after the test, scan and fail the run when a
# leaked object was allocated by the target.  The target is mostly unloaded
# by then: kmemleak prints the frames of unloaded code as raw addresses, so
# an unresolved frame counts as the target's too.  Other leaks are printed
# but fail nothing (not this project's code).
# Known kernel leaks, counted apart even under the target's frames: the
# name of a kobject whose kobject_init_and_add() failed, in 6.1's
# sysfs_slab_add() (a slab cache made by bioset_init()) and dm's
# dm_setup_md_queue() (dm_sysfs_init()): neither calls kobject_put() on
# that failure.  Only fault injection (failslab) makes those fail.
# kmemleak_scan: scan as the documentation says; the report kept in
# /run/bds/kmemleak and printed.
kmemleak_scan() {
	ilog "kmemleak: scanning"
	# Objects younger than 5 s are not reported; scan twice, as
	# Documentation/dev-tools/kmemleak.rst recommends (an object whose
	# contents changed since the scan before is not reported yet).
	sleep 5
	if ! echo scan >"$KMEMLEAK" || ! { sleep 2; echo scan >"$KMEMLEAK"; }; then
		echo "bds-kmemleak: LEAK CHECK FAILED: kmemleak refused to scan (disabled?)"
		return 1
	fi
	cat "$KMEMLEAK" >/run/bds/kmemleak 2>/dev/null
	sed 's/^/bds-kmemleak: /' /run/bds/kmemleak
}

# kmemleak_check NAME: after a boot's only test, NAME (kmemleak_tally
# with NAME as the only test, from jiffies 0).
kmemleak_check() {
	kmemleak_scan || return 1
	echo "0 $1" >/run/bds/kmemleak.starts
	if kmemleak_tally /run/bds/kmemleak.starts /run/bds/kmemleak >/run/bds/kmemleak.charged; then
		sed -n 1p /run/bds/kmemleak.charged
		return 0
	fi
	sed -n 1p /run/bds/kmemleak.charged
	echo "bds-kmemleak: LEAK: objects allocated by the target (or by unloaded code) leaked"
	return 1
}

# kmemleak_jiffies: the kernel's jiffies now (/proc/timer_list), or
# nothing when it cannot be read.
kmemleak_jiffies() {
	sed -n 's/^jiffies: \([0-9][0-9]*\)$/\1/p' /proc/timer_list 2>/dev/null | sed -n '$p'
}

# kmemleak_charge STARTS: one scan for a boot of several tests (a scan
# takes a minute or two under KASAN and TCG: one after each test was
# most of a debug boot).  STARTS holds "JIFFIES NAME" for each test run,
# in order.  A leaked object of the target (counted as kmemleak_check
# counts them) is charged to the last test that started at or before
# the jiffies kmemleak recorded at its allocation: the check and reset
# after a test count as that test's.  For each test charged, the mark
# "bds-test-leak: NAME N" by which vm-run fails it.  Returns 1 when an
# object was charged or the scan failed.
kmemleak_charge() {
	kmemleak_scan || return 1
	kmemleak_tally "$1" /run/bds/kmemleak >/run/bds/kmemleak.charged
	_rc=$?
	sed -n 1p /run/bds/kmemleak.charged
	[ "$_rc" != 0 ] || return 0
	sed 1d /run/bds/kmemleak.charged | while read -r _t _n; do
		echo "bds-kmemleak: target objects leaked during test $_t: $_n"
		grun_mark "bds-test-leak: $_t $_n"
	done
	return 1
}

# kmemleak_tally STARTS REPORT: a summary line, then "NAME N" for each
# test of STARTS charged with N leaked objects of the target in
# kmemleak's REPORT (see kmemleak_charge).  The target's objects are
# those with its functions, or raw addresses (unloaded code), in their
# backtrace; the known kernel leaks (above) are counted apart.  An object
# whose report gives no jiffies cannot be placed: it is charged to every
# test.  Returns 1 when any object was charged.
kmemleak_tally() {
	awk -v starts="$1" '
		BEGIN {
			while ((getline l < starts) > 0) {
				split(l, f, " "); ns++; sj[ns] = f[1] + 0; sn[ns] = f[2]
			}
		}
		function charge(i, t) {
			if (!n)
				return
			if (kname && ksite) {
				known++
				return
			}
			if (!hit)
				return
			nbad++
			if (!jif) {
				for (i = 1; i <= ns; i++)
					bad[sn[i]]++
				return
			}
			t = sn[1]
			for (i = 1; i <= ns; i++)
				if (sj[i] <= jif)
					t = sn[i]
			bad[t]++
		}
		/^unreferenced object/ { charge(); n++; hit = kname = ksite = jif = 0 }
		/ jiffies [0-9]+/ { x = $0; sub(/^.* jiffies /, "", x); sub(/[^0-9].*$/, "", x); jif = x + 0 }
		/dm_bds_stripe|dm-bds-stripe|[^a-z_]bds_[a-z_0-9]+\+0x|\] 0x[0-9a-f]+$/ { hit = 1 }
		/ kobject_set_name_vargs\+0x/ { kname = 1 }
		/ (sysfs_slab_add|dm_setup_md_queue)\+0x/ { ksite = 1 }
		END {
			charge()
			printf "bds-kmemleak: %d unreferenced object(s) in this boot, %d from the target, %d known kernel leak(s)\n", n, nbad, known + 0
			for (t in bad)
				printf "%s %d\n", t, bad[t]
			exit nbad ? 1 : 0
		}' "$2"
}

# grun_mark WORDS: a line in the kernel log, printed on the console whole.
grun_mark() { echo "<0>$*" >/dev/kmsg; }

# grun_said NAME TEXT: a bds-check line (what the check found).
grun_said() { echo "bds-check: $1: $2"; }

# grun_modules: the loaded modules' names, sorted.
grun_modules() { cut -d' ' -f1 /proc/modules | sort; }

# grun_not_kept [FIELD]: stdin without the lines whose FIELD-th
# "/"-separated field (whole line when none) names a module the kernel
# kept during the run (/run/bds/kept.mods, see grun_unload).  awk loads
# the list itself, so an empty or missing list drops nothing.
grun_not_kept() {
	awk -v f="${1:-0}" '
		BEGIN {
			while ((getline l <"/run/bds/kept.mods") > 0)
				k[l] = 1
		}
		{
			n = $0
			if (f > 0) {
				split($0, p, "/")
				n = p[f]
			}
			if (!(n in k))
				print
		}'
}

# grun_disks: the kernel names of the topology's disks, one a line.
grun_disks() {
	for _l in /dev/bds/c*d*; do
		[ -L "$_l" ] && echo "${_l##*/} $(readlink "$_l")"
	done
}

# grun_snapshot FILE: what a test must leave as it found it.  Values that
# change by themselves (counters, random state, the taint of the
# out-of-tree module) are left out.
grun_snapshot() {
	{
		echo "## modules"
		grun_modules | grun_not_kept
		echo "## module parameters"
		sed 's|^\([^ ]*\) .*|/sys/module/\1/parameters|' /proc/modules |
			xargs grep -r . 2>/dev/null | grun_not_kept 4 | sort
		echo "## mounts"
		cat /proc/mounts
		echo "## swaps"
		cat /proc/swaps
		echo "## partitions"
		cat /proc/partitions
		echo "## /dev/mapper"
		ls /dev/mapper
		echo "## md arrays"
		grep '^md' /proc/mdstat 2>/dev/null
		echo "## loop devices in use"
		ls /sys/block/*/loop/backing_file 2>/dev/null
		echo "## sysctls"
		grep -r . /proc/sys/kernel /proc/sys/vm /proc/sys/dev /proc/sys/fs 2>/dev/null |
			grep -v -E '^/proc/sys/(kernel/(random/|ns_last_pid|tainted|pty/nr|sched_domain/|perf_event_max)|fs/(dentry-state|inode-nr|inode-state|file-nr|quota/|aio-nr|fscache/))' |
			sort
		echo "## disks: queue settings, read-only, fault injection"
		for _l in /dev/bds/c*d*; do
			[ -L "$_l" ] || continue
			_d=$(readlink "$_l")
			_d=${_d##*/}
			grep -r . "/sys/block/$_d/queue" "/sys/block/$_d/ro" "/sys/block/$_d/make-it-fail" \
				"/sys/block/$_d/device/timeout" "/sys/block/$_d/device/state" 2>/dev/null |
				grep -v -E '/queue/(stats|dax|iostats_passthrough)' | sort
		done
		echo "## fault injection"
		grep -r . /sys/kernel/debug/fail_* /sys/kernel/debug/failslab 2>/dev/null | sort
		echo "## /dev/bds"
		for _l in /dev/bds/c*d*; do
			[ -L "$_l" ] || continue
			_d=$(readlink "$_l")
			printf '%s %s %s\n' "${_l##*/}" "$_d" \
				"$(tail -c +5 "/sys/block/${_d##*/}/device/vpd_pg80" 2>/dev/null | tr -d '\000 ')"
		done
	} >"$1" 2>/dev/null
}

# grun_procs FILE: "PID STATE COMM" of every process that is neither a
# kernel thread nor PID 1, nor this listing's own.
grun_procs() {
	sh -c 'echo "$$"; exec cat /proc/[0-9]*/stat' >/run/bds/procs.raw 2>/dev/null
	awk '
		NR == 1 { self = $1; next }
		{
			# "pid (comm) state ppid ...": comm may hold blanks and parens
			i = index($0, " (")
			j = length($0)
			while (j > 0 && substr($0, j, 2) != ") ")
				j--
			pid = substr($0, 1, i - 1)
			comm = substr($0, i + 2, j - i - 2)
			split(substr($0, j + 2), f, " ")
			state = f[1]; ppid = f[2]
			if (pid == 1 || pid == 2 || ppid == 2 || pid == self || ppid == self)
				next
			if (state == "Z")
				next
			print pid, state, comm
		}' /run/bds/procs.raw >"$1"
}

# grun_crypto_pinned MODULE: MODULE provides a crypto algorithm and
# nothing else holds it; the crypto API's users (built-in ones among them)
# keep such a module referenced for good.
grun_crypto_pinned() {
	[ -z "$(ls "/sys/module/$1/holders" 2>/dev/null)" ] || return 1
	grep -x "module       : $1" /proc/crypto >/dev/null 2>&1
}

# grun_held_by_kept MODULE: MODULE has holders, and every one of them is a
# module the kernel keeps (crct10dif_common under crct10dif_generic).
grun_held_by_kept() {
	_hs=$(ls "/sys/module/$1/holders" 2>/dev/null)
	[ -n "$_hs" ] || return 1
	for _h in $_hs; do
		grep -x -F "$_h" /run/bds/kept.mods >/dev/null 2>&1 || return 1
	done
}

# grun_keep MODULE: MODULE stays loaded for the rest of the boot, and the
# checks leave it out from now on.
grun_keep() {
	echo "$1" >>/run/bds/check.mods
	echo "$1" >>/run/bds/kept.mods
}

# grun_unload NAME: unload what the test left loaded.  Every module not
# loaded before the first test (dm_bds_stripe among them) must have a use
# count of 0, apart from the modules that use it, and is unloaded, users
# first; a module that cannot be unloaded is reported.  Returns 1 when one
# was in use or stayed loaded.
grun_unload() {
	_bad=0
	_left=$(grun_modules | grep -v -x -F -f /run/bds/check.mods)
	[ -n "$_left" ] || return 0
	_pass=0
	while [ -n "$_left" ] && [ "$_pass" -lt 10 ]; do
		_again=""
		for _m in $_left; do
			if grun_held_by_kept "$_m"; then
				grun_keep "$_m"
				continue
			fi
			if [ -n "$(ls "/sys/module/$_m/holders" 2>/dev/null)" ]; then
				_again="$_again $_m"
				continue
			fi
			read -r _rc <"/sys/module/$_m/refcnt" 2>/dev/null || _rc=0
			if [ "$_rc" != 0 ] && grun_crypto_pinned "$_m"; then
				# A crypto algorithm the kernel itself took (the
				# built-in crc-t10dif takes crct10dif_generic as
				# soon as it loads): it stays, as in any boot that
				# loaded it; not the test's.
				grun_keep "$_m"
				continue
			fi
			if [ "$_rc" != 0 ]; then
				grun_said "$1" "module $_m in use (use count $_rc)"
				_bad=1
				continue
			fi
			rmmod "$_m" 2>/dev/null || _again="$_again $_m"
		done
		_left=$(grun_modules | grep -v -x -F -f /run/bds/check.mods)
		_pass=$((_pass + 1))
	done
	for _m in $_left; do
		grun_said "$1" "module $_m left loaded (use count $(cat "/sys/module/$_m/refcnt" 2>/dev/null))"
		_bad=1
	done
	return $_bad
}

# grun_zeroed DEV: the first and the last MiB of DEV read as zeroes.
grun_zeroed() {
	_d=$(readlink -f "$1")
	read -r _sz <"/sys/block/${_d##*/}/size" || return 1
	_t=$(((_sz - 2048) / 128))
	[ "$_t" -ge 0 ] || _t=0
	# (busybox cmp reads up to a skip; dd seeks; the tail goes to a file,
	# so that no reader leaves a pipe early)
	cmp -s -n 1048576 "$1" /dev/zero || return 1
	dd if="$1" of=/run/bds/zero-tail bs=65536 skip="$_t" count=16 status=none || return 1
	cmp -s -n 1048576 /run/bds/zero-tail /dev/zero
	_z=$?
	rm -f /run/bds/zero-tail
	return "$_z"
}

# grun_check NAME ALLOWED: after test NAME, 0 when it left nothing behind.
grun_check() {
	_dirty=0
	if [ "$(dmsetup ls 2>&1)" != "No devices found" ]; then
		grun_said "$1" "dm devices left: $(dmsetup ls 2>&1 | cut -f1 | tr '\n' ' ')"
		_dirty=1
	fi
	grun_procs /run/bds/procs
	_i=0
	while [ -s /run/bds/procs ] && [ "$_i" -lt 50 ]; do
		sleep 0.2
		grun_procs /run/bds/procs
		_i=$((_i + 1))
	done
	if [ -s /run/bds/procs ]; then
		while read -r _p _s _c; do
			grun_said "$1" "process left running: $_p ($_c, state $_s); killed"
			kill -9 "$_p" 2>/dev/null
		done </run/bds/procs
		_dirty=1
	fi
	grun_unload "$1" || _dirty=1
	grun_snapshot "$GRUN_NOW"
	if ! cmp -s "$GRUN_BASE" "$GRUN_NOW"; then
		diff "$GRUN_BASE" "$GRUN_NOW" | sed -n '/^[-+][^-+]/p' | sed "s/^/bds-check: $1: changed: /"
		_dirty=1
	fi
	if [ "$2" != 1 ] && [ -n "${BDS_BAD_RE:-}" ] &&
		dmesg | grep -E "$BDS_BAD_RE" >/run/bds/check.kbad; then
		sed "s/^/bds-check: $1: kernel: /" /run/bds/check.kbad
		_dirty=1
	fi
	return $_dirty
}

# grun_reset NAME: the guest as a fresh boot has it, for the next test.
grun_reset() {
	_ok=0
	for _l in /dev/bds/c*d*; do
		[ -L "$_l" ] || continue
		if ! blkdiscard -f "$_l" 2>/run/bds/discard.err || ! grun_zeroed "$_l"; then
			# A disk that does not take a discard is zeroed.
			blkdiscard -f -z "$_l" 2>>/run/bds/discard.err
			if ! grun_zeroed "$_l"; then
				grun_said "$1" "cannot zero $_l: $(cat /run/bds/discard.err)"
				_ok=1
			fi
		fi
	done
	rm -rf /tmp/* /tmp/.[!.]* /root/* /root/.[!.]* /run/bds-stripe /run/bds/state \
		/run/bds/kmemleak 2>/dev/null
	for _d in /mnt/*; do
		[ -d "$_d" ] && ! grep -q " $_d " /proc/mounts && rmdir "$_d" 2>/dev/null
	done
	cd /root || _ok=1
	return $_ok
}

# grun_main: run the plan (read on fd 8: the tests and the checks keep
# stdin); sets rc.
grun_main() {
	rc=1
	GRUN_N=$(grep -c . /bds/plan)
	grun_modules >/run/bds/check.mods
	: >/run/bds/kept.mods
	if grep -q ' 1 [01]$' /bds/plan; then
		grun_snapshot "$GRUN_BASE"
	fi
	grun_i=0
	grun_ran=0
	# kmemleak: one scan at the end when the plan has several tests and
	# jiffies can be read to charge what it finds; else one after each.
	grun_leak_starts=""
	if [ -w "$KMEMLEAK" ] && [ "$GRUN_N" -gt 1 ] && [ -n "$(kmemleak_jiffies)" ]; then
		grun_leak_starts=/run/bds/kmemleak.starts
		: >$grun_leak_starts
		echo clear >"$KMEMLEAK"
		# (vm-run: a boot that ends before the scan runs its tests again)
		echo "bds-kmemleak: one scan after the last test of this boot"
	fi
	exec 8</bds/plan
	while read -r grun_name grun_check grun_allowed <&8; do
		[ -n "$grun_name" ] || continue
		grun_i=$((grun_i + 1))
		dmesg -c >/dev/null 2>&1
		if [ -n "$grun_leak_starts" ]; then
			echo "$(kmemleak_jiffies) $grun_name" >>$grun_leak_starts
		elif [ -w "$KMEMLEAK" ]; then
			echo clear >"$KMEMLEAK"
		fi
		grun_mark "bds-test-start: $grun_name"
		ilog "running test $grun_name on $(uname -r)"
		cd /root || true
		BDS_TEST=$grun_name /bin/sh "/bds/tests/$grun_name.sh" 8<&-
		rc=$?
		ilog "test exited with $rc"
		[ "$rc" -ge 0 ] && [ "$rc" -le 127 ] || rc=1
		if [ -z "$grun_leak_starts" ] && [ -w "$KMEMLEAK" ] && ! kmemleak_check "$grun_name"; then
			ilog "test fails: kmemleak"
			rc=1
		fi
		grun_mark "bds-test-end: $grun_name $rc"
		grun_ran=$((grun_ran + 1))
		if [ "$grun_check" != 1 ]; then
			grun_mark "bds-test-done: $grun_name unchecked"
			continue
		fi
		if ! grun_check "$grun_name" "$grun_allowed"; then
			grun_mark "bds-test-done: $grun_name dirty"
			ilog "$grun_name left something behind: the boot ends here"
			break
		fi
		if [ "$grun_i" -lt "$GRUN_N" ] && ! grun_reset "$grun_name"; then
			grun_mark "bds-test-done: $grun_name dirty"
			ilog "cannot reset the guest after $grun_name: the boot ends here"
			break
		fi
		grun_mark "bds-test-done: $grun_name clean"
	done
	exec 8<&-
	# The boot's kmemleak scan, also after a test that ended the boot.
	if [ -n "$grun_leak_starts" ] && [ "$grun_ran" -gt 0 ] &&
		! kmemleak_charge $grun_leak_starts; then
		ilog "kmemleak: target objects leaked (the bds-test-leak marks say in which test)"
	fi
	# A boot of several tests ends with 0 once they all ran (vm-run judges
	# each from the lines above); one of a single test with the test's code.
	if [ "$GRUN_N" -gt 1 ]; then
		if [ "$grun_ran" = "$GRUN_N" ]; then rc=0; else rc=1; fi
	fi
}

# Sourced with GRUN_LIB_ONLY=1 (a probe of the check itself), only the
# functions above are defined.
[ "${GRUN_LIB_ONLY:-0}" = 1 ] && return 0
grun_main
# State for a second boot (vm-run --reboot-topology): the texts the test
# kept with bds_state_save, printed once the test is over (no kernel
# message of the test's work can cut into them now), one "BDS-STATE:
# <text>" line each, then their count and md5 for vm-run to check its
# copy against.
if [ -f /run/bds/state ] && [ ! -e /run/bds/state-printed ]; then
	while IFS= read -r line; do
		printf 'BDS-STATE: %s\n' "$line"
	done </run/bds/state
	printf 'BDS-STATE-SUM: %s %s\n' "$(($(wc -l </run/bds/state)))" \
		"$(md5sum </run/bds/state | cut -d' ' -f1)"
fi
