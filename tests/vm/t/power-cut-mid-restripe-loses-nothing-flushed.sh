#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A power cut at any instant of "bdsadm grow --add" loses nothing that was
# flushed.  The six members (four of a 2 + 2 volume, two added) are
# dm-linear slices of ONE log-writes device, so one log holds every write
# in one order: the volume's, XFS's through it, and bdsadm's own (labels,
# the copy, their fdatasyncs).  While bds-crashload writes durable and
# churn files on XFS (power-cut-loses-nothing-flushed.sh says what it
# promises), "bdsadm grow vol --add" grows the volume to 3 + 3 at --rate
# 10 (a checkpoint about every 10 MB); after each durable file the log
# gets a mark "d<n>".  Then crash states are rebuilt from the log and
# checked.
#
# A state: flush entry k of the log (the k-th after the grow started) and
# a cut of each member somewhere between it and the next flush entry.
# Everything logged up to flush k is in the state.  A flush entry counts
# as a flush of every member, which it is not (it is one member's): the
# states are then fewer than a real power cut can leave (a member's write
# logged before another member's flush may be lost in reality, never
# here), but each one is real, which is what a check needs.  Between two
# flush entries the log has the FUA writes and marks in the order they
# completed, then (dm-log-writes logs a write without FUA when the next
# flush is submitted) the writes that waited for that flush.  A state
# keeps either every entry before one mark (a power cut at that instant
# with every cache losing all it had not flushed), or every FUA write of
# the interval and, per member independently, a random prefix of its
# other writes there (each cache destaging on its own).
# A durable file's mark comes after its fsync returned, so after every
# flush and FUA write its durability needed: every durable file whose mark
# precedes the cut (for a random cut: the next flush entry) must be intact.
#
# For each state: the replay disk holds the log up to flush k, a
# dm-snapshot over it gets the entries up to the cuts, the six members are
# sliced out of the snapshot as they were out of the log-writes device,
# and "bdsadm assemble vol" must bring the volume up from its labels
# (before the grow's commit point the old 2 + 2, after it the restripe at
# the least advanced checkpoint, or the 3 + 3).  64 MiB of random data
# beside XFS (written and flushed before the grow) must read back byte for
# byte, XFS is mounted (log recovery), every durable file that must be
# there is checked by size and content, XFS is unmounted and "xfs_repair
# -n" must find nothing.  Every bds.grow_crash_finish-th state cut
# mid-restripe (default 4) then runs "bdsadm grow --continue vol" to the
# end and checks all of it again over the new length.  The states:
# bds.grow_crash_states=N (default 6, and 4 under make check's
# BDS_SAMPLE=1; make crash-test GROW_CRASH_STATES=N): N-1 flushes of the grow that a write follows,
# half of them spread over all such flushes, half over those right after
# a label write; each with random cuts or, at random, all members cut
# after the interval's last mark; then the whole log (the grown volume).
#
# topology: ctl=1/size=600M ctl=1/size=2G ctl=1/size=600M ctl=1/size=1G
# timeout: 900
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
if [ "${BDS_SAMPLE:-0}" = 1 ]; then
	STATES=$(bds_cmdline_arg bds.grow_crash_states 4)
else
	STATES=$(bds_cmdline_arg bds.grow_crash_states 6)
fi
FINISH=$(bds_cmdline_arg bds.grow_crash_finish 4)
SEED=$(bds_cmdline_arg bds.crash_seed 23)
OPS=$(bds_cmdline_arg bds.grow_crash_ops 150)
DATA=/dev/bds/c0d0 LOG=/dev/bds/c1d0 REPLAY=/dev/bds/c2d0 COW=/dev/bds/c3d0
MEMBERS="0 1 2 3 4 5"
# Member m is sectors PAD + m * MS .. of the data disk: 96 MiB each, 1 MiB
# free at both ends so that the data disk itself carries no label where
# assembly's scan looks (its first and last MiB).
MS=196608
PAD=2048

bds_load_module
run modprobe dm-log-writes
run modprobe dm-snapshot

# slice_members DEV: /dev/mapper/bm0..bm5, the members, out of DEV.
slice_members() {
	for _m in $MEMBERS; do
		bds_dm_create bm$_m "0 $MS linear $1 $((PAD + _m * MS))"
	done
}
remove_members() {
	for _m in $MEMBERS; do
		bds_dm_remove bm$_m
	done
}

# --- the grow under the workload, logged --------------------------------------

bds_dm_create lwall "0 $((2 * PAD + 6 * MS)) log-writes $DATA $LOG"
slice_members /dev/mapper/lwall
run bdsadm create vol --chunk 64K -g "/dev/mapper/bm0,/dev/mapper/bm1;/dev/mapper/bm2,/dev/mapper/bm3" \
	/dev/mapper/bm0 /dev/mapper/bm1 /dev/mapper/bm2 /dev/mapper/bm3
OLD_LEN=$(bds_sectors /dev/mapper/vol)
# XFS takes the volume's first 300 MiB; 64 MiB of random data at 304 MiB,
# written and flushed before the grow and never again, is checked byte for
# byte in every state: the restripe moves it like any other data, and a
# unit of it read from the wrong place shows wherever XFS would not look.
run mkfs.xfs -q -f -K -d size=300m /dev/mapper/vol
RAW_MIB=304 RAW_N=64
dd if=/dev/urandom of=/tmp/raw bs=1M count=$RAW_N status=none || fail "cannot make the raw data"
run dd if=/tmp/raw of=/dev/mapper/vol bs=1M seek=$RAW_MIB oflag=direct conv=fsync status=none
mkdir -p /mnt/v
run mount -t xfs /dev/mapper/vol /mnt/v
# Marks "d<round>.<n>": the workload runs in rounds, one directory each,
# until the grow has ended.
cat >/tmp/mark <<'EOF'
#!/bin/sh
exec dmsetup message lwall 0 mark "d$1.$2"
EOF
chmod +x /tmp/mark
run dmsetup message lwall 0 mark gstart
bdsadm grow vol --add /dev/mapper/bm4 /dev/mapper/bm5 --rate 10 >/tmp/grow.out 2>&1 &
GROW=$!
log "workload: rounds of $OPS operations, seed $SEED and up, beside the grow"
ROUNDS=0
while [ $ROUNDS -lt 100 ]; do
	ROUNDS=$((ROUNDS + 1))
	mkdir /mnt/v/r$ROUNDS || fail "mkdir r$ROUNDS failed"
	# Its directory entry durable before any of its files is.
	xfs_io -c fsync /mnt/v || fail "fsync of the top directory failed"
	bds-crashload run /mnt/v/r$ROUNDS $((SEED + ROUNDS)) $OPS "/tmp/mark $ROUNDS" \
		>/tmp/journal.$ROUNDS || fail "the workload failed (round $ROUNDS)"
	kill -0 $GROW 2>/dev/null || break
done
DURABLE=$(cat /tmp/journal.* | wc -l)
log "workload done: $ROUNDS rounds, $DURABLE durable files"
wait $GROW
GROW_RC=$?
sed 's/^/  grow: /' /tmp/grow.out
expect_eq "$GROW_RC" 0 "bdsadm grow --add ends with the volume grown"
run dmsetup message lwall 0 mark gend
NEW_LEN=$(bds_sectors /dev/mapper/vol)
log "volume: $OLD_LEN -> $NEW_LEN sectors, table $(dmsetup table vol)"
run umount /mnt/v
run bdsadm stop vol
remove_members
bds_dm_remove lwall

# --- the log ----------------------------------------------------------------------

bds-logreplay list $LOG >/tmp/log || fail "cannot read the log"
log "log: $(tail -n 1 /tmp/log)"
GSTART=$(awk '$2 == "M" && $5 == "gstart" { print $1 }' /tmp/log)
GEND=$(awk '$2 == "M" && $5 == "gend" { print $1 }' /tmp/log)
END=$(tail -n 1 /tmp/log | cut -d' ' -f2)
{ [ -n "$GSTART" ] && [ -n "$GEND" ]; } || fail "the log lacks the grow's marks"
# /tmp/flush: indices of the flush entries from the grow's start to its
# end; /tmp/marks: "round n index" of the durable marks; /tmp/ent: "index
# member flags sector" of every write (member -1: outside the members;
# sector: within the member).
awk -v a="$GSTART" -v b="$GEND" '$1 > a && $1 < b && $2 ~ /F/ { print $1 }' /tmp/log >/tmp/flush
awk '$2 == "M" && $5 ~ /^d[0-9]+[.][0-9]+$/ { split(substr($5, 2), r, "."); print r[1], r[2], $1 }' /tmp/log >/tmp/marks
awk -v p=$PAD -v ms=$MS '$2 !~ /M/ && $4 > 0 {
	m = int(($3 - p) / ms); if ($3 < p || m > 5) m = -1; print $1, m, $2, $3 - p - m * ms }' /tmp/log >/tmp/ent
NF=$(wc -l </tmp/flush)
log "the grow: entries $GSTART..$GEND, $NF flushes, $(wc -l </tmp/marks) durable marks"
expect_eq "$(wc -l </tmp/marks)" "$DURABLE" "the log has a mark for every durable file"
expect_eq "$(awk '$2 == -1' /tmp/ent | wc -l)" 0 "every write of the log lies within a member"
[ "$NF" -ge 4 ] || fail "only $NF flushes during the grow"

# flush_at K: entry index of the K-th (from 1) flush of the grow; the end of
# the log beyond the last.
flush_at() {
	_e=$(sed -n "${1}p" /tmp/flush)
	echo "${_e:-$END}"
}
# marks_before CUT: how many durable marks lie at entries below CUT, in
# all (MAX) and per round (MAX_<round>).
marks_before() {
	eval "$(awk -v c="$1" -v rs=$ROUNDS '$3 < c { n[$1]++; t++ }
		END { for (r = 1; r <= rs; r++) print "MAX_" r "=" n[r] + 0; print "MAX=" t + 0 }' /tmp/marks)"
}

# --- the states ---------------------------------------------------------------------

# The flushes to cut after: those followed by a write before the next
# flush (most are not: a volume flush is six flush entries in a row).
# Half the states are spread over all of them, half over those that come
# right after a label write (a member's sectors 8..23 or its last 16 below
# a 4 KiB multiple), where the copier's order decides what a restart
# finds.  In increasing order: the replay disk only moves forward.
awk -v nf="$NF" -v s="$STATES" -v bk=$(((MS / 8) * 8 - 16)) '
	FILENAME == "/tmp/flush" { f[++n] = $1; next }
	{
		while (i < n && f[i + 1] < $1) i++
		w[i] = 1
		if ($4 == 8 || $4 == bk) lab[i] = 1
	}
	END {
		for (k = 1; k < nf; k++) {
			if (!w[k]) continue
			all[++na] = k
			if (lab[k - 1]) after[++nl] = k
		}
		h = int((s - 1) / 2)
		for (j = 1; j <= s - 1 - h && na; j++) print all[int(j * na / (s - h)) + 1]
		for (j = 1; j <= h && nl; j++) print after[int(j * nl / (h + 1)) + 1]
	}' /tmp/flush /tmp/ent | sort -n >/tmp/ks
[ -s /tmp/ks ] || fail "no flush of the grow is followed by a write"
bds_rnd_seed "$SEED"
BASE=0
CHECKED=0 FAILED=0 RAW_BAD=0 VERIFIED=0 MISMATCHES=0 MID=0 OLDGEN=0 GROWN=0 FINISHED=0
mkdir -p /mnt/c

# verify WHAT: compare the raw data, mount the assembled volume, check
# each round's durable
# files before the cut (marks_before's MAX_<round>), unmount, xfs_repair
# -n; 0 when all is well.  _vf: the durable files checked.
verify() {
	_vr=0
	dd if=/dev/mapper/vol of=/tmp/rawck bs=1M skip=$RAW_MIB count=$RAW_N iflag=direct status=none ||
		fail "$1: cannot read the raw data"
	if ! cmp /tmp/raw /tmp/rawck >/tmp/cmp.out 2>&1; then
		echo "  $1: the raw data at $RAW_MIB MiB differs: $(cat /tmp/cmp.out)"
		RAW_BAD=$((RAW_BAD + 1))
		_vr=1
	fi
	rm -f /tmp/rawck
	if ! mount -t xfs /dev/mapper/vol /mnt/c 2>/tmp/mount.err; then
		echo "  $1: mount: $(cat /tmp/mount.err)"
		return 1
	fi
	_vf=0 _r=0
	while [ $_r -lt $ROUNDS ]; do
		_r=$((_r + 1))
		eval "_rmax=\$MAX_$_r"
		[ "$_rmax" -gt 0 ] || continue
		if ! bds-crashload verify /mnt/c/r$_r /tmp/journal.$_r "$_rmax" >/tmp/verify.out; then
			_vr=1
			grep '^mismatch' /tmp/verify.out | sed -n "1,10s/^/  $1: round $_r: /p"
		fi
		_n=$(sed -n 's/^verified \([0-9]*\) durable files, [0-9]* mismatches$/\1/p' /tmp/verify.out)
		_mm=$(sed -n 's/^verified [0-9]* durable files, \([0-9]*\) mismatches$/\1/p' /tmp/verify.out)
		_vf=$((_vf + ${_n:-0}))
		MISMATCHES=$((MISMATCHES + ${_mm:-0}))
	done
	VERIFIED=$((VERIFIED + _vf))
	umount /mnt/c || fail "umount of state $CHECKED failed"
	if ! xfs_repair -n /dev/mapper/vol >/tmp/repair.out 2>&1; then
		grep -v '^[[:space:]]*- \|^Phase \|^No modify flag' /tmp/repair.out |
			sed -n "1,40s/^/  $1: repair: /p"
		_vr=1
	fi
	return $_vr
}

# check_state K LAST: replay to flush K, cut (LAST 1: the whole log after
# it), assemble, check.
check_state() {
	_f=$(flush_at "$1")
	_nx=$(flush_at $(($1 + 1)))
	[ "$2" -eq 0 ] || _nx=$END
	if [ "$BASE" -lt $((_f + 1)) ]; then
		bds-logreplay replay $LOG $REPLAY $BASE $((_f + 1)) >/dev/null ||
			fail "replay to entry $((_f + 1)) failed"
		BASE=$((_f + 1))
	fi
	echo "0 $((2 * PAD + 6 * MS)) snapshot $REPLAY $COW N 8" | dmsetup create snap ||
		fail "cannot make the snapshot"
	_atmark=""
	bds_rnd 2
	if [ "$2" -eq 0 ] && [ "$RND" -eq 0 ]; then
		_atmark=$(awk -v lo="$_f" -v hi="$_nx" '$3 > lo && $3 < hi { m = $3 } END { print m }' /tmp/marks)
	fi
	if [ "$2" -eq 1 ]; then
		_cuts=" all $_nx"
		marks_before "$_nx"
		bds-logreplay replay $LOG /dev/mapper/snap $((_f + 1)) $_nx >/dev/null ||
			fail "replay to the end failed"
	elif [ -n "$_atmark" ]; then
		_cuts=" all $((_atmark + 1)) (at a mark)"
		marks_before $((_atmark + 1))
		bds-logreplay replay $LOG /dev/mapper/snap $((_f + 1)) $((_atmark + 1)) >/dev/null ||
			fail "replay to the mark failed"
	else
		_cuts=""
		marks_before "$_nx"
		for _m in $MEMBERS; do
			# Not before the member's last FUA write of the interval.
			_lo=$(awk -v lo="$_f" -v hi="$_nx" -v m=$_m -v f=$((_f + 1)) \
				'$1 > lo && $1 < hi && $2 == m && $3 ~ /U/ { f = $1 + 1 } END { print f }' /tmp/ent)
			bds_rnd $((_nx - _lo + 1))
			_c=$((_lo + RND))
			_cuts="$_cuts $_c"
			bds-logreplay replay $LOG /dev/mapper/snap $((_f + 1)) $_c \
				$((PAD + _m * MS)) $MS >/dev/null ||
				fail "member $_m: replay to the cut failed"
		done
	fi
	CHECKED=$((CHECKED + 1))
	_what="state $CHECKED: flush $1 (entry $_f), cuts$_cuts, $MAX durable files"
	slice_members /dev/mapper/snap
	_bad=0
	if ! bdsadm assemble vol >/tmp/asm.out 2>&1; then
		sed 's/^/  assemble: /' /tmp/asm.out
		for _m in $MEMBERS; do
			bdsadm examine /dev/mapper/bm$_m 2>&1 |
				grep -i -E 'copy|generation|member|restripe|checkpoint' |
				sed "s/^/  examine bm$_m: /"
		done
		FAILED=$((FAILED + 1))
		log "$_what: FAILED to assemble"
		remove_members
		bds_dm_remove snap
		return
	fi
	_t=$(dmsetup table vol)
	_len=$(bds_sectors /dev/mapper/vol)
	case "$_t" in
	*reshape*) _state="mid-restripe" MID=$((MID + 1)) ;;
	*)
		if [ "$_len" = "$OLD_LEN" ]; then
			_state="old 2 + 2" OLDGEN=$((OLDGEN + 1))
		else
			_state="grown" GROWN=$((GROWN + 1))
		fi
		;;
	esac
	verify "state $CHECKED" || _bad=1
	if [ $_bad -eq 0 ] && [ "$_state" = mid-restripe ] && [ $((MID % FINISH)) -eq 1 ]; then
		if bdsadm grow --continue vol >/tmp/cont.out 2>&1 &&
			[ "$(bds_sectors /dev/mapper/vol)" = "$NEW_LEN" ] &&
			! dmsetup table vol | grep reshape >/dev/null; then
			verify "state $CHECKED, finished" || _bad=1
			FINISHED=$((FINISHED + 1))
			_state="$_state, finished"
		else
			sed 's/^/  grow --continue: /' /tmp/cont.out
			log "  after grow --continue: $(bds_sectors /dev/mapper/vol) sectors, $(dmsetup table vol)"
			_bad=1
		fi
	fi
	if [ $_bad -ne 0 ]; then
		FAILED=$((FAILED + 1))
		log "$_what: $_state: FAILED"
	else
		log "$_what: $_state: ok"
	fi
	run bdsadm stop vol
	remove_members
	bds_dm_remove snap
}

while read -r k; do
	check_state "$k" 0
done </tmp/ks
# The whole log: the grown volume, every durable file.
check_state "$NF" 1
expect_eq "$_vf" "$DURABLE" "the state of the whole log checks every durable file"
expect_eq "$_state" "grown" "the state of the whole log is the grown volume"

log "crash states: $CHECKED checked ($OLDGEN old 2 + 2, $MID mid-restripe, $GROWN grown), $FINISHED restripes finished, $VERIFIED durable files checked, $MISMATCHES mismatches, raw data wrong in $RAW_BAD"
check "a state was cut mid-restripe" [ "$MID" -ge 1 ]
check "a restripe from a cut was finished" [ "$FINISHED" -ge 1 ]
expect_eq "$FAILED" 0 "every crash state assembles, mounts, holds every durable file and repairs clean"
pass "$CHECKED states ($MID mid-restripe, $FINISHED finished), $VERIFIED file checks, $MISMATCHES mismatches"
