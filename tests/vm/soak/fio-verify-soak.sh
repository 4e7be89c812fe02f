#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Soak (`make soak`, not part of make check): a randomized run of
# bds_soak_minutes (kernel command line; default 10) minutes in which no
# verified byte is lost.
#
# Volume: 96 KiB unit over 5 disks in 3 groups (2+2+1), the
# non-power-of-two mapping path.  The volume is cut into 64 MiB slots;
# even slots carry fio data, odd slots take discards.  Rounds follow each
# other until the time is up; each round, with parameters drawn from a
# seeded generator (the seed is logged; "bds_seed=N" replays it):
#   - fio writes then verifies (crc32c, verify_fatal) 2 to 4 jobs, one per
#     even slot, at a random 4 KiB-aligned start inside the slot: random
#     or sequential writes of mixed sizes (4 KiB to 2 MiB ranges, the
#     stripe unit, the stripe width, odd multiples of 4 KiB), libaio
#     O_DIRECT at iodepth 1..16, or buffered psync with fsync;
#   - meanwhile, blkdiscard of random 4 KiB-aligned ranges never over fio
#     data: two in three end exactly where a fio job's data begins or begin
#     exactly where it ends (jobs start at their slot's start, end at its
#     end, or lie anywhere in it; jobs of one block size are a whole number
#     of blocks, jobs of mixed sizes are given one largest block of slack
#     at the end, as fio may write that far), so that a discard that
#     spilled over at either end shows as a verify error; the others
#     anywhere in the odd slots;
#   - meanwhile, random administration: suspend/resume, suspend
#     --noflush/resume, reload of the volume's own table.
# Every round must end with fio exit 0, no verify error, every job having
# verified what it wrote, every discard and admin step succeeding, all
# members A.  At the end the volume is removed and created again from its
# saved table, fio --verify_only checks the last round's data, and the
# module unloads.  Logged: minutes, rounds, bytes verified, discards,
# admin operations.
#
# topology: size=2G backing=file ctl=2 ctl=2 ctl=1
# timeout: 900
# memory: 1536

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=soak
DM=/dev/mapper/$VOL
MINUTES=$(bds_cmdline_arg bds_soak_minutes 10)
SEED=$(bds_cmdline_arg bds_seed "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')")
SLOT=$((64 << 20))
UNIT=$((192 * 512))
WIDTH=$((UNIT * 5))

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1) $(bds_members 2)
[ $# -eq 5 ] || fail "need 2 + 2 + 1 disks, have: $*"
DISKS="$*"
bds_dm_create $VOL "$(bds_stripe_table 192 "$1,$2" "$3,$4" "$5")"
TABLE=$(dmsetup table $VOL)
NSLOTS=$(($(bds_size $DM) / SLOT))
log "soak: $MINUTES minutes, seed $SEED, table: $TABLE, $NSLOTS slots" \
	"(replay: vm-run -a \"bds_soak_minutes=$MINUTES bds_seed=$SEED\")"

# rnd N: a random number 0..N-1 from a seeded stream (awk; the state file
# $RND, one per stream, so that every draw advances it).
echo "$SEED" >/tmp/rnd.main
echo $((SEED + 1)) >/tmp/rnd.disc
echo $((SEED + 2)) >/tmp/rnd.admin
RND=/tmp/rnd.main
rnd() {
	awk -v n="$1" -v f=$RND 'BEGIN {
		getline s < f; close(f); srand(s); x = int(rand() * n)
		print int(rand() * 2147483647) > f; print x }'
}
pick() { shift "$(rnd $#)"; echo "$1"; }

# round_jobs: fio arguments for one round (also written to /tmp/jobs).
round_jobs() {
	_nj=$((2 + $(rnd 3)))
	_args=""
	: >/tmp/slots
	_j=0
	# distinct even slots
	_slots=$(seq 0 2 $((NSLOTS - 2)) | awk -v s="$(rnd 100000)" 'BEGIN { srand(s) }
		{ print rand() " " $1 }' | sort -n | cut -d' ' -f2 | sed -n "1,${_nj}p")
	for _s in $_slots; do
		# _bs: the option; _max: the largest block; _fixed: 1 for one size
		case $(rnd 6) in
		0) _bs=--bsrange=4k-64k _max=65536 _fixed=0 ;;
		1) _bs=--bsrange=4k-2m _max=2097152 _fixed=0 ;;
		2) _bs=--bs=$UNIT _max=$UNIT _fixed=1 ;;
		3) _bs=--bs=$WIDTH _max=$WIDTH _fixed=1 ;;
		4) _max=$((4096 * (1 + 2 * $(rnd 40)))) _fixed=1 _bs=--bs=$_max ;;
		*) _bs=--bsrange=12k-$((3 * WIDTH)) _max=$((3 * WIDTH)) _fixed=0 ;;
		esac
		_rw=$(pick randwrite write randwrite)
		_eng=$(pick "--ioengine=libaio --direct=1 --iodepth=$((1 + $(rnd 16)))" \
			"--ioengine=libaio --direct=1 --iodepth=$((1 + $(rnd 16)))" \
			"--ioengine=psync --direct=0 --end_fsync=1")
		# A whole number of the largest block, so that a fixed-size job
		# ends exactly at offset + size; a job of mixed sizes may write
		# up to one largest block beyond (kept clear of discards).
		_size=$(((4 + $(rnd 20)) << 20))
		_size=$(((_size + _max - 1) / _max * _max))
		_over=$_max
		[ "$_fixed" = 1 ] && _over=0
		case $(rnd 3) in
		0) _off=$((_s * SLOT)) ;;				# from the slot's start
		1) _off=$(((_s + 1) * SLOT - _size - _over)) ;;		# to the slot's end
		*) _off=$((_s * SLOT + 4096 * $(rnd 2048))) ;;
		esac
		_args="$_args --name=j$_j --rw=$_rw $_bs $_eng --offset=$_off --size=$_size"
		echo "$_off $((_off + _size + _over))" >>/tmp/slots
		_j=$((_j + 1))
	done
	echo "$_args" >/tmp/jobs
	echo "$_args"
}

# discards: random discards until /tmp/round.run is gone, never over fio
# data: two in three end exactly where a fio job's data begins or begin
# exactly where it ends (a discard that spilled over, at either end, would
# show as a verify error), the others anywhere in an odd slot.
discards() {
	RND=/tmp/rnd.disc
	_n=0 _err=0
	_nj=$(wc -l </tmp/slots)
	while [ -e /tmp/round.run ]; do
		_len=$((4096 * (1 + $(rnd 512))))
		# shellcheck disable=SC2046
		set -- $(sed -n "$((1 + $(rnd "$_nj")))p" /tmp/slots)
		case $(rnd 3) in
		0) _off=$(($1 - _len)); [ "$_off" -ge 0 ] || _off=$2 ;;
		1) _off=$2 ;;
		*)
			_s=$((1 + 2 * $(rnd $((NSLOTS / 2)))))
			_off=$((_s * SLOT + 4096 * $(rnd $(((SLOT - _len) / 4096)))))
			;;
		esac
		blkdiscard -o $_off -l $_len $DM 2>>/tmp/discard.err || _err=$((_err + 1))
		_n=$((_n + 1))
		sleep "0.$(rnd 5)"
	done
	echo "$_n $_err" >/tmp/discard.result
}

# admin: random suspend/resume/reload until /tmp/round.run is gone.
admin() {
	RND=/tmp/rnd.admin
	_n=0 _err=0
	while [ -e /tmp/round.run ]; do
		sleep "$(rnd 3).$(rnd 10)"
		[ -e /tmp/round.run ] || break
		case $(rnd 3) in
		0) dmsetup suspend $VOL && dmsetup resume $VOL || _err=$((_err + 1)) ;;
		1) dmsetup suspend --noflush $VOL && dmsetup resume $VOL || _err=$((_err + 1)) ;;
		*) echo "$TABLE" | dmsetup load $VOL && dmsetup resume $VOL || _err=$((_err + 1)) ;;
		esac
		_n=$((_n + 1))
	done
	echo "$_n $_err" >/tmp/admin.result
}

start=$(bds_uptime)
end=$((start + MINUTES * 60))
rounds=0 vkib=0 ndisc=0 nadmin=0
while [ "$(bds_uptime)" -lt "$end" ]; do
	rounds=$((rounds + 1))
	args=$(round_jobs)
	log "round $rounds:$args"
	: >/tmp/round.run
	discards &
	DP=$!
	admin &
	AP=$!
	# shellcheck disable=SC2086
	timeout -s KILL 600 fio --filename=$DM --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--verify_dump=0 --output-format=terse --terse-version=3 $args >/tmp/fio.out 2>&1
	rc=$?
	rm -f /tmp/round.run
	wait $DP $AP
	[ "$rc" = 137 ] && fail "round $rounds: fio hung"
	if [ "$rc" != 0 ] || grep -Eiq 'verify|bad magic|mismatch|crc' /tmp/fio.out; then
		cat /tmp/fio.out
		fail "round $rounds: fio exit $rc / verify error"
	fi
	for jn in $(grep -o -- '--name=j[0-9]*' /tmp/jobs | cut -d= -f2); do
		line=$(grep "^3;[^;]*;$jn;" /tmp/fio.out)
		err=$(echo "$line" | cut -d';' -f5)
		rkb=$(echo "$line" | cut -d';' -f6)
		wkb=$(echo "$line" | cut -d';' -f47)
		if [ "$err" != 0 ] || [ "${wkb:-0}" -le 0 ] || [ "$rkb" != "$wkb" ]; then
			cat /tmp/fio.out
			fail "round $rounds: job $jn: error $err, wrote $wkb KiB, verified $rkb KiB"
		fi
		vkib=$((vkib + rkb))
	done
	read -r dn de </tmp/discard.result
	read -r an ae </tmp/admin.result
	[ "$de" = 0 ] || { cat /tmp/discard.err; fail "round $rounds: $de discards failed"; }
	[ "$ae" = 0 ] || fail "round $rounds: $ae admin operations failed"
	[ "$(bds_health $VOL)" = AAAAA ] || fail "round $rounds: status $(dmsetup status $VOL)"
	ndisc=$((ndisc + dn)) nadmin=$((nadmin + an))
	log "round $rounds ok: $((vkib / 1024)) MiB verified so far, $ndisc discards, $nadmin admin ops"
done
elapsed=$(($(bds_uptime) - start))

# The last round's data under a new volume.
bds_dm_remove $VOL
bds_dm_create $VOL "$TABLE"
# shellcheck disable=SC2046
fio --filename=$DM --verify=crc32c --verify_only --verify_fatal=1 --verify_dump=0 \
	--output-format=terse --terse-version=3 $(cat /tmp/jobs) >/tmp/fio.out 2>&1
rc=$?
if [ "$rc" != 0 ] || grep -Eiq 'verify|bad magic|mismatch|crc' /tmp/fio.out; then
	cat /tmp/fio.out
	fail "verify_only of the last round after re-creating the volume: exit $rc"
fi
bds_dm_remove $VOL
log "soak: $((elapsed / 60)) min $((elapsed % 60)) s, $rounds rounds, $((vkib / 1024)) MiB" \
	"verified, $ndisc discards, $nadmin suspend/resume/reload operations, 0 verify errors"
# shellcheck disable=SC2086
bds_expect_clean $DISKS
pass "soak of $((elapsed / 60)) min (seed $SEED): $rounds rounds, zero verify errors"
