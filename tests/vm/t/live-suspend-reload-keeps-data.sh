#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suspending, resuming and reloading a live bds-stripe volume loses no
# data, and an open volume cannot be removed.
#
# Volume: 96 KiB unit over 5 members in 3 groups (2+2+1).  Three fio jobs
# (libaio, iodepth 8, O_DIRECT, verify=crc32c, verify_fatal; random
# 4 KiB..480 KiB writes, sequential 68 KiB writes and random 4 KiB
# writes, rate-limited so that the write phase outlasts the cycles) write
# in the background and then verify everything they wrote.  While they
# write:
#   - five `dmsetup suspend` / `dmsetup resume` cycles (one --noflush),
#     each checked to reach the SUSPENDED and then the ACTIVE state;
#   - two reloads with the volume's own table (`dmsetup table` fed to
#     `dmsetup load`, then `dmsetup resume`), after which the table is
#     unchanged and every member is A.
# A fourth writer, a shell loop of 64 KiB O_DIRECT writes (round robin
# over 64 slots of a region of its own, from two random patterns in
# alternate rounds, so a dropped write leaves the other round's data),
# runs from before the first cycle until after the last reload, so the
# cycles happen under load however slow the kernel is (fio's rate-limited
# write phase alone ended before the reloads on the debug kernel under
# TCG).  fio must exit 0 with no error in any job and verify as many
# bytes as it wrote; the writer must not fail a write and must still be
# running at the last reload; the volume's write counters, which start at
# zero with each new table, must show writes after the last reload; the
# writer's region must read back as its last write to each slot left it.
# Then: `dmsetup remove` of the volume fails while a file descriptor holds
# it open (open count 1) and succeeds once it is closed; a new volume made
# from the saved table reads back all of the data (fio --verify_only).
#
# topology: size=1G backing=file ctl=2 ctl=2 ctl=1
# timeout: 300
# memory: 1024
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=live
DM=/dev/mapper/$VOL

# field N: field N of the target status (after "<start> <len> bds-stripe").
field() { dmsetup status $VOL | cut -d' ' -f$(($1 + 3)); }

# state: "ACTIVE" or "SUSPENDED" from dmsetup info.
state() { dmsetup info $VOL | sed -n 's/^State:[[:space:]]*//p'; }

# writes_total: sum of the per-group write counters.
writes_total() {
	dmsetup status $VOL | awk '{
		s = 0; g = $8
		for (i = 0; i < g; i++) s += $(9 + 4 * i + 1)
		print s }'
}

# The writer's region: 64 slots of 64 KiB from 256 MiB, far from fio's.
WSLOT0=$((256 * 16))
WSLOTS=64

# writer: write i = 0, 1, ... to slot i mod 64 of the region, from
# /tmp/wpat0 in even rounds (i div 64) and /tmp/wpat1 in odd ones, until
# /tmp/wstop exists and every slot has been written once; then the count
# in /tmp/wcount.  A failed write ends it with /tmp/wfail.  A write the
# target dropped leaves its slot with the other round's pattern (or
# zeroes), so the region check catches writes lost after a reload too.
writer() {
	_i=0
	while [ ! -e /tmp/wstop ] || [ $_i -lt $WSLOTS ]; do
		_s=$((_i % WSLOTS))
		if ! dd if=/tmp/wpat$((_i / WSLOTS % 2)) of=$DM bs=64k skip=$_s \
			seek=$((WSLOT0 + _s)) count=1 oflag=direct conv=notrunc 2>/tmp/wdd.err; then
			cat /tmp/wdd.err
			echo "$_i" >/tmp/wfail
			return 1
		fi
		_i=$((_i + 1))
		sleep 0.1
	done
	echo "$_i" >/tmp/wcount
}

# writer_expected: /tmp/wexp, the region as the writer's last write to
# each slot left it (needs /tmp/wcount).
writer_expected() {
	_n=$(cat /tmp/wcount)
	_s=0
	: >/tmp/wexp
	while [ $_s -lt $WSLOTS ]; do
		# the last i < n with i mod 64 = s, and its round's pattern
		_last=$((_s + (_n - 1 - _s) / WSLOTS * WSLOTS))
		dd if=/tmp/wpat$((_last / WSLOTS % 2)) bs=64k skip=$_s count=1 \
			status=none >>/tmp/wexp
		_s=$((_s + 1))
	done
}

# writer_region_ok: the writer's region reads back as writer_expected.
writer_region_ok() {
	bds_read $DM $((WSLOT0 * 65536)) $((WSLOTS * 65536)) >/tmp/wback &&
		cmp /tmp/wexp /tmp/wback
}

# fio_jobs [LIMIT]: the job options, the same for the write and the
# verify-only run; with LIMIT, the writes are rate-limited so that the
# write phase lasts about 32 s (each job writes a fixed amount).
fio_jobs() {
	echo "--filename=$DM --ioengine=libaio --iodepth=8 --direct=1" \
		"--verify=crc32c --verify_fatal=1 --verify_dump=0" \
		"--output-format=terse --terse-version=3" \
		"--name=rand --rw=randwrite --bsrange=4k-480k --offset=28k" \
		"--size=24m ${1:+--rate=,768k}" \
		"--name=seq --rw=write --bs=68k --offset=$(((64 << 20) + 53248))" \
		"--size=$((68 * 1024 * 181)) ${1:+--rate=,384k}" \
		"--name=small --rw=randwrite --bs=4k --offset=$(((96 << 20) + 20480))" \
		"--size=6m ${1:+--rate_iops=,48}"
}

# fio_ok WHEN FILE MODE: every job of a terse fio output is error free;
# MODE "write": it wrote and verified the same amount, "verify": it read.
fio_ok() {
	for _jn in rand seq small; do
		_line=$(grep "^3;[^;]*;$_jn;" "$2")
		_err=$(echo "$_line" | cut -d';' -f5)
		_rkb=$(echo "$_line" | cut -d';' -f6)
		_wkb=$(echo "$_line" | cut -d';' -f47)
		expect_eq "$_err" 0 "$1: job $_jn error"
		check "$1: job $_jn read back something ($_rkb KiB)" [ "${_rkb:-0}" -gt 0 ]
		if [ "$3" = write ]; then
			check "$1: job $_jn wrote something ($_wkb KiB)" [ "${_wkb:-0}" -gt 0 ]
			expect_eq "$_rkb" "$_wkb" "$1: job $_jn KiB verified = written"
		fi
	done
	check "$1: no verify error reported" \
		sh -c "! grep -Eiq 'verify|bad magic|mismatch|crc' $2"
}

bds_load_module

# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1) $(bds_members 2)
[ $# -eq 5 ] || fail "need 2 + 2 + 1 disks, have: $*"
msz=$(bds_sectors "$1")
mlen=$((msz / 192 * 192))
bds_dm_create $VOL "0 $((mlen * 5)) bds-stripe 192 3 \
2 $(bds_majmin "$1") 0 $(bds_majmin "$2") 0 \
2 $(bds_majmin "$3") 0 $(bds_majmin "$4") 0 \
1 $(bds_majmin "$5") 0"
TABLE=$(dmsetup table $VOL)
log "table: $TABLE"
log "status: $(dmsetup status $VOL)"

# --- cycles under a running fio and writer ---------------------------------------
dd if=/dev/urandom of=/tmp/wpat0 bs=64k count=$WSLOTS 2>/dev/null
dd if=/dev/urandom of=/tmp/wpat1 bs=64k count=$WSLOTS 2>/dev/null
rm -f /tmp/wstop /tmp/wfail /tmp/wcount
writer &
WRITER=$!
# shellcheck disable=SC2046
fio $(fio_jobs limit) --do_verify=1 >/tmp/fio.out 2>&1 &
FIO=$!
# Wait for the writes to start (the writer writes from its first round
# on: while it runs, they come; the test's timeout bounds a hang).
while [ "$(writes_total)" -eq 0 ] && kill -0 $WRITER 2>/dev/null; do
	sleep 0.1
done
check "writes reach the volume before the first cycle" [ "$(writes_total)" -gt 0 ]

c=1
while [ "$c" -le 5 ]; do
	if [ "$c" = 3 ]; then
		run dmsetup suspend --noflush $VOL
	else
		run dmsetup suspend $VOL
	fi
	expect_eq "$(state)" SUSPENDED "cycle $c: suspended"
	sleep 0.3
	run dmsetup resume $VOL
	expect_eq "$(state)" ACTIVE "cycle $c: resumed"
	c=$((c + 1))
done
check "writer still running after the suspend cycles" kill -0 $WRITER
kill -0 $FIO 2>/dev/null && log "fio still running after the suspend cycles"

r=1
while [ "$r" -le 2 ]; do
	echo "$TABLE" | dmsetup load $VOL || fail "reload $r: dmsetup load"
	run dmsetup resume $VOL
	expect_eq "$(dmsetup table $VOL)" "$TABLE" "reload $r: same table"
	expect_eq "$(field 2)" AAAAA "reload $r: health"
	expect_eq "$(state)" ACTIVE "reload $r: active"
	sleep 0.5
	r=$((r + 1))
done
check "writer still running after the reloads" kill -0 $WRITER
kill -0 $FIO 2>/dev/null && log "fio still running after the reloads"
# The writer goes on until told to stop: wait for its writes through the
# new table (or for it to end: a failed write ends it).
while [ "$(writes_total)" -eq 0 ] && kill -0 $WRITER 2>/dev/null; do
	sleep 0.1
done
log "status: $(dmsetup status $VOL)"
check "writes went through the reloaded table ($(writes_total) pieces)" \
	[ "$(writes_total)" -gt 0 ]
touch /tmp/wstop
wait $WRITER
rc=$?
expect_eq "$rc" 0 "writer exit status"
check "writer: no failed write" [ ! -e /tmp/wfail ]
log "writer: $(cat /tmp/wcount 2>/dev/null) writes"
writer_expected
check "writer: its region reads back as its last writes" writer_region_ok

wait $FIO
rc=$?
cat /tmp/fio.out
expect_eq "$rc" 0 "fio exit status"
fio_ok "write+verify" /tmp/fio.out write
expect_eq "$(field 2)" AAAAA "health after fio"

# --- removing an open volume -----------------------------------------------------
exec 3<$DM
expect_eq "$(dmsetup info $VOL | sed -n 's/^Open count:[[:space:]]*//p')" 1 "open count"
if dmsetup remove $VOL; then rc=0; else rc=1; fi
check "dmsetup remove fails while the volume is open" [ "$rc" = 1 ]
check "volume still there" [ -b $DM ]
expect_eq "$(state)" ACTIVE "volume still active"
exec 3<&-
if dmsetup remove $VOL; then rc=0; else rc=1; fi
check "dmsetup remove succeeds once closed" [ "$rc" = 0 ]
check "volume gone" [ ! -e $DM ]
[ -e $DM ] && bds_dm_remove $VOL

# --- the data is still there under a new volume --------------------------------------
bds_dm_create $VOL "$TABLE"
# shellcheck disable=SC2046
fio $(fio_jobs) --verify_only >/tmp/fio2.out 2>&1
rc=$?
cat /tmp/fio2.out
expect_eq "$rc" 0 "fio --verify_only exit status"
fio_ok "verify-only" /tmp/fio2.out verify
check "writer's region reads back under the new volume" writer_region_ok
bds_dm_remove $VOL

run rmmod dm_bds_stripe
pass "suspend, resume and reload under load keep the data"
