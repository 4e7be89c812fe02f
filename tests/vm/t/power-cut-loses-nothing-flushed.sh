#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut loses nothing that was flushed, on any member.  Each member
# of a bds-stripe volume sits on the kernel's log-writes target, with its
# own log disk; XFS on the volume runs bds-crashload (durable files
# written once, fsync'ed and their directory fsync'ed, then never touched;
# churn files created, overwritten, appended, truncated, renamed and
# unlinked, with fdatasync and sync_file_range), and after each durable
# file every member's log gets a mark "d<n>".  Then crash states are
# rebuilt from the logs (bds-logreplay) and checked:
#
#   A state: a volume flush k that completed (its flush entry is in every
#   member's log: each volume flush sends one flush to every member, so
#   the k-th flush entry of each log is the same flush) and, for each
#   member independently, a cut anywhere after its k-th flush entry and
#   before its (k+1)-th: the member holds its log's entries before the
#   cut.  Why these are states a real power cut can leave: a log lists a
#   member's writes in the order they became durable as far as the member
#   promised (a FUA write when it completed, other writes just before the
#   flush submitted after they completed), so a cut of one member's log
#   is a state the member's cache can leave; a power cut after volume
#   flush k completed leaves every member past its k-th flush; the
#   members' caches destage independently, so their cuts are independent.
#   But not every such cut: a FUA write completes durable, and XFS
#   submits writes on other members only after it completed (its
#   metadata writeback waits for the log write), so a state that keeps
#   those later writes on one member and lacks the FUA write on another
#   is no power cut's (a copy of this test that allowed it made XFS
#   inconsistent, "data fork claims free block", in state 58 of 60 on
#   6.12).  So the random cuts keep every FUA write of the interval, and
#   vary only in the writes after the last one (those waiting for the
#   next flush, any prefix of which a cache may have written).  The
#   other states cut every member right after the same durable mark:
#   the members' marks are logged while the volume is suspended, so they
#   are one instant, and that state is a power cut at that instant before
#   any cache wrote back a write that was not yet flushed.
#   A durable file's mark is logged after its fsync returned, so after
#   every FUA write and flush its durability needed: every durable file
#   whose mark precedes the cut on every member must be intact.
#
# For each state: each member's replay disk holds its log up to the k-th
# flush entry, a dm-snapshot over it gets the entries up to the cut (so
# the next state starts from the same base), the volume is assembled
# over the snapshots with the same table, XFS is mounted (log recovery),
# every durable file that must be there is checked by size and content,
# XFS is unmounted and `xfs_repair -n` must find nothing.  The states:
# bds.crash_states=N on the kernel command line (default 8; make
# crash-test CRASH_STATES=N): N-1 flushes spread over the workload, each
# with random cuts or, every other state, each member cut right after the
# last durable mark all members logged before the next flush; then the
# last flush with every member's log whole.  bds.crash_ops (default 120)
# sets the workload's length.
#
# topology: size=512M ctl=2 ctl=2 ctl=4 ctl=4
# timeout: 600
# memory: 1536
# exec: bds-logreplay bds-crashload
# The debug kernel has no dm-log-writes (tests/debug/config.fragment):
# kernels: 6.1 6.12 7.2
# check-kernels: 6.1

# shellcheck disable=SC1091,SC2154,SC2086,SC2034
. /bds/guest-lib.sh

for p in bds-logreplay bds-crashload; do
	command -v $p >/dev/null || fail "$p not in the guest (# exec: header)"
done
STATES=$(bds_cmdline_arg bds.crash_states 8)
SEED=$(bds_cmdline_arg bds.crash_seed 19)
OPS=$(bds_cmdline_arg bds.crash_ops 120)
N=4
MEMBERS="0 1 2 3"
CHUNK=128
# Members c0d0 c0d1 (controller 0) and c1d0 c1d1 (controller 1); member m's
# log is c2d<m>, its replay disk c3d<m>.
MEM_0=/dev/bds/c0d0 MEM_1=/dev/bds/c0d1 MEM_2=/dev/bds/c1d0 MEM_3=/dev/bds/c1d1

bds_load_module
run modprobe dm-log-writes
run modprobe dm-snapshot
run modprobe brd rd_nr=$N rd_size=65536

S=$(bds_sectors $MEM_0)
for m in $MEMBERS; do
	eval "dev=\$MEM_$m"
	bds_dm_create lw$m "0 $S log-writes $dev /dev/bds/c2d$m"
done

# vol_table A B C D: the volume's table over four member devices.
vol_table() {
	bds_stripe_table $CHUNK "$1,$2" "$3,$4"
}

# --- the workload, logged ------------------------------------------------------

bds_dm_create vol "$(vol_table /dev/mapper/lw0 /dev/mapper/lw1 /dev/mapper/lw2 /dev/mapper/lw3)"
run mkfs.xfs -q -f -K /dev/mapper/vol
mkdir -p /mnt/v
run mount -t xfs /dev/mapper/vol /mnt/v
# The marks are logged with the volume suspended (no filesystem freeze, no
# flush): every bio the volume sent has completed and no new one reaches
# a member until all four marks are in, so the four marks are one instant.
cat >/tmp/mark <<'EOF'
#!/bin/sh
dmsetup suspend --nolockfs --noflush vol || exit 1
r=0
for m in 0 1 2 3; do dmsetup message lw$m 0 mark "d$1" || r=1; done
dmsetup resume vol || r=1
exit $r
EOF
chmod +x /tmp/mark
/tmp/mark start
log "workload: $OPS operations, seed $SEED"
bds-crashload run /mnt/v $SEED $OPS /tmp/mark >/tmp/journal ||
	fail "the workload failed"
DURABLE=$(wc -l </tmp/journal)
log "workload done: $DURABLE durable files"
run umount /mnt/v
bds_dm_remove vol
for m in $MEMBERS; do
	bds_dm_remove lw$m
done

# --- the logs ---------------------------------------------------------------------

# Per member: /tmp/flush.m = entry indices of its flushes after mark
# "dstart" (the workload's; earlier ones are mkfs's), /tmp/marks.m = "n
# index" of its durable marks.
for m in $MEMBERS; do
	bds-logreplay list /dev/bds/c2d$m >/tmp/log.$m || fail "member $m: cannot read its log"
	awk '$2 == "M" && $5 == "dstart" { s = 1 } s && $2 ~ /F/ { print $1 }' /tmp/log.$m >/tmp/flush.$m
	awk '$2 == "M" && $5 ~ /^d[0-9]+$/ { print substr($5, 2), $1 }' /tmp/log.$m >/tmp/marks.$m
	log "member $m: $(tail -n 1 /tmp/log.$m), $(wc -l </tmp/flush.$m) flushes in the workload, $(wc -l </tmp/marks.$m) marks"
	expect_eq "$(wc -l </tmp/marks.$m)" "$DURABLE" "member $m's log has a mark for every durable file"
done
NF=$(wc -l </tmp/flush.0)
for m in $MEMBERS; do
	_nf=$(wc -l </tmp/flush.$m)
	expect_eq "$_nf" "$NF" "member $m logged as many flushes as member 0"
	if [ "$_nf" -lt "$NF" ]; then NF=$_nf; fi
done
[ "$NF" -ge 2 ] || fail "only $NF flushes in the workload"

# flush_at M K: entry index of member M's K-th (from 1) workload flush;
# the end of its log for K beyond the last.
flush_at() {
	_e=$(sed -n "${2}p" /tmp/flush.$1)
	[ -n "$_e" ] || _e=$(tail -n 1 /tmp/log.$1 | cut -d' ' -f2)
	echo "$_e"
}

# marks_before M CUT: durable marks of member M at entries below CUT.
marks_before() { awk -v c="$2" '$2 < c { n++ } END { print n + 0 }' /tmp/marks.$1; }

# mark_between K: the last durable mark that every member logged between
# its flushes K and K+1; empty if there is none.
mark_between() {
	_mb=""
	_mbs=""
	for _mm in $MEMBERS; do
		_lo=$(flush_at $_mm "$1")
		_hi=$(flush_at $_mm $(($1 + 1)))
		awk -v lo="$_lo" -v hi="$_hi" '$2 > lo && $2 < hi { print $1 }' /tmp/marks.$_mm >/tmp/mb.$_mm
		_mbs="$_mbs /tmp/mb.$_mm"
	done
	# Marks in all four lists; the last of them.
	sort -n $_mbs | uniq -c |
		awk -v n=$N '$1 == n { m = $2 } END { if (m != "") print m }'
}

# --- the states ---------------------------------------------------------------------

# Flushes to check: STATES-1 spread over the workload, in increasing
# order, a flush more than once when there are more states than flushes
# (each time with another cut); the last flush is checked after them.
awk -v nf="$NF" -v s="$STATES" 'BEGIN {
	for (i = 1; i < s; i++) print int(i * (nf - 1) / s) + 1
}' >/tmp/ks
bds_rnd_seed "$SEED"
for m in $MEMBERS; do
	eval "BASE_$m=0"
done
CHECKED=0 MOUNTS=0 REPAIRS=0 VERIFIED=0 MISMATCHES=0 FAILED=0
mkdir -p /mnt/c

# check_state K LAST: replay to flush K of every member, cut each member at
# random (LAST 1: at the end of the interval), check.
check_state() {
	_k=$1
	_max=999999999
	# Every other state cuts each member right after the last durable
	# mark that all members logged between flushes K and K+1, if any:
	# where a durability promise meets the least the logs may hold.
	_atmark=""
	bds_rnd 2
	[ "$2" -eq 0 ] && [ "$RND" -eq 0 ] && _atmark=$(mark_between "$_k")
	_cuts=""
	for _m in $MEMBERS; do
		_f=$(flush_at $_m $_k)
		_nx=$(flush_at $_m $((_k + 1)))
		eval "_b=\$BASE_$_m"
		if [ "$_b" -lt $((_f + 1)) ]; then
			bds-logreplay replay /dev/bds/c2d$_m /dev/bds/c3d$_m $_b $((_f + 1)) >/dev/null ||
				fail "member $_m: replay to entry $((_f + 1)) failed"
			eval "BASE_$_m=$((_f + 1))"
		fi
		if [ "$2" -eq 1 ]; then
			_c=$_nx
		elif [ -n "$_atmark" ]; then
			_c=$(($(awk -v n="$_atmark" '$1 == n { print $2 }' /tmp/marks.$_m) + 1))
		else
			# Not before the interval's last FUA write: see the header.
			_lo=$(awk -v lo="$_f" -v hi="$_nx" -v f=$((_f + 1)) \
				'$1 > lo && $1 < hi && $2 ~ /U/ { f = $1 + 1 } END { print f }' /tmp/log.$_m)
			bds_rnd $((_nx - _lo + 1))
			_c=$((_lo + RND))
		fi
		_cuts="$_cuts $_c"
		echo "0 $S snapshot /dev/bds/c3d$_m /dev/ram$_m N 8" | dmsetup create snap$_m ||
			fail "cannot make snapshot $_m"
		bds-logreplay replay /dev/bds/c2d$_m /dev/mapper/snap$_m $((_f + 1)) $_c >/dev/null ||
			fail "member $_m: replay to the cut failed"
		_mk=$(marks_before $_m $_c)
		if [ "$_mk" -lt "$_max" ]; then _max=$_mk; fi
	done
	CHECKED=$((CHECKED + 1))
	_bad=0
	bds_dm_create crash "$(vol_table /dev/mapper/snap0 /dev/mapper/snap1 /dev/mapper/snap2 /dev/mapper/snap3)"
	if mount -t xfs /dev/mapper/crash /mnt/c 2>/tmp/mount.err; then
		MOUNTS=$((MOUNTS + 1))
		bds-crashload verify /mnt/c /tmp/journal "$_max" >/tmp/verify.out || _bad=1
		umount /mnt/c || fail "umount of state $CHECKED failed"
		if xfs_repair -n /dev/mapper/crash >/tmp/repair.out 2>&1; then
			REPAIRS=$((REPAIRS + 1))
		else
			_bad=1
			# What repair found, without its progress lines.
			grep -v '^[[:space:]]*- \|^Phase \|^No modify flag' /tmp/repair.out |
				sed 's/^/  repair: /' >/tmp/repair.found
			head -n 40 /tmp/repair.found
		fi
	else
		_bad=1
		echo "  mount: $(cat /tmp/mount.err)"
	fi
	_vf=$(sed -n 's/^verified \([0-9]*\) durable files, [0-9]* mismatches$/\1/p' /tmp/verify.out 2>/dev/null)
	_mm=$(sed -n 's/^verified [0-9]* durable files, \([0-9]*\) mismatches$/\1/p' /tmp/verify.out 2>/dev/null)
	VERIFIED=$((VERIFIED + ${_vf:-0}))
	MISMATCHES=$((MISMATCHES + ${_mm:-0}))
	if [ $_bad -ne 0 ]; then
		FAILED=$((FAILED + 1))
		log "state $CHECKED: flush $_k, cuts$_cuts${_atmark:+ (after mark d$_atmark)}: FAILED"
		# Each member's entries from its flush K on, "|" at the cut.
		_m=0
		for _c in $_cuts; do
			awk -v lo="$(flush_at $_m "$_k")" -v hi="$(flush_at $_m $((_k + 1)))" -v c="$_c" \
				'$1 >= lo && $1 <= hi { s = s ($1 == c ? " |" : "") " " $2 } END { print "  member '$_m':" s }' /tmp/log.$_m
			_m=$((_m + 1))
		done
		grep '^mismatch' /tmp/verify.out 2>/dev/null | sed -n '1,10s/^/  /p'
	else
		log "state $CHECKED: flush $_k, cuts$_cuts${_atmark:+ (after mark d$_atmark)}, $_max durable files: ok"
	fi
	bds_dm_remove crash
	for _m in $MEMBERS; do
		bds_dm_remove snap$_m
	done
	rm -f /tmp/verify.out
}

# In increasing order of flushes: a member's base only moves forward.
while read -r k; do
	check_state "$k" 0
done </tmp/ks
check_state $NF 1
# The last state holds the whole logs: every durable file was checked in it.
expect_eq "${_vf:-none}" "$DURABLE" "the state of the whole logs checks every durable file"

log "crash states: $CHECKED checked, $MOUNTS mounted, $REPAIRS repaired clean, $VERIFIED durable files checked, $MISMATCHES mismatches"
expect_eq "$FAILED" 0 "every crash state mounts, holds every durable file and repairs clean"
pass "$CHECKED states, $MOUNTS mounts, $REPAIRS clean repairs, $VERIFIED file checks, $MISMATCHES mismatches"
