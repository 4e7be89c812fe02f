#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Under memory pressure, deep-queue large-block I/O through bds-stripe
# keeps moving: no allocation failure, no OOM kill, no hang, and the data
# verifies.
#
# A guest of 448 MiB (the test image, about 110 MiB since it carries
# lvm2 and sfdisk, is in memory twice while it unpacks: 384 MiB no longer
# did; vm-run gives the debug kernel 256 MiB more; about 250 MiB are
# free after boot).  Volume: 128 KiB unit over 4 disks in two
# groups.  fio, three jobs, each write then verify (crc32c, verify_fatal):
#   big   libaio, iodepth 32, O_DIRECT, random writes of 1 MiB..2 MiB,
#         240 MiB
#   huge  libaio, iodepth 8, O_DIRECT, sequential writes of 4 MiB, 240 MiB
#   wb    buffered sequential 1 MiB writes (page cache writeback through
#         the target), fsync at the end
# Each fio job, once its buffers are allocated, waits before its first
# I/O (fio's exec_prerun) until a memory hog has filled tmpfs and brought
# MemAvailable down to HEADROOM_MB, in steps of up to 64 MiB: the I/O
# starts under pressure whatever the speed of the kernel (fio on 7.2
# once finished before an earlier hog, started a few seconds after fio,
# had made memory short).  The hog keeps it there for the whole run (it
# adds a MiB when more is free, and gives memory back when less than half
# the headroom is left, so that the OOM killer is not the one to end the
# test).  Checked:
#   - fio finishes within its bound (killed otherwise: the test fails),
#     exits 0, and every job verified as many bytes as it wrote;
#   - memory really was short: fio's jobs started their I/O once the hog
#     had brought MemAvailable down to HEADROOM_MB (+ 1), and the lowest
#     MemAvailable seen during the run was below 2 x HEADROOM_MB;
#   - the kernel logged no page allocation failure, no OOM kill and no
#     hung task (vm-run also fails the run on any WARNING or Call Trace);
#   - the volume is removed and the module unloads.
#
# topology: size=1G backing=file ctl=2 ctl=2
# timeout: 420
# memory: 448
# check-kernels: 6.1 7.2
# boot: own

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=mp
DM=/dev/mapper/$VOL
HEADROOM_MB=24

avail_mb() { echo $(($(sed -n 's/^MemAvailable:[[:space:]]*\([0-9]*\).*/\1/p' /proc/meminfo) / 1024)); }

# hog: once the three fio jobs have their buffers (/tmp/ready.JOB), keep
# MemAvailable near HEADROOM_MB while /tmp/hog.run exists; /tmp/hog.short
# once it is down to HEADROOM_MB + 1; the lowest value seen goes to
# /tmp/hog.min.
hog() {
	mkdir -p /dev/shm/hog
	until [ -e /tmp/ready.big ] && [ -e /tmp/ready.huge ] && [ -e /tmp/ready.wb ]; do
		[ -e /tmp/hog.run ] || return
		sleep 0.1
	done
	log "fio's jobs are ready, $(avail_mb) MiB available: filling memory"
	_i=0 _min=100000 _files=0
	while [ -e /tmp/hog.run ]; do
		_a=$(avail_mb)
		[ "$_a" -lt "$_min" ] && _min=$_a && echo "$_min" >/tmp/hog.min
		[ "$_a" -le $((HEADROOM_MB + 1)) ] && [ ! -e /tmp/hog.short ] && : >/tmp/hog.short
		if [ "$_a" -gt $((HEADROOM_MB + 1)) ]; then
			_n=$((_a - HEADROOM_MB))
			[ "$_n" -gt 64 ] && _n=64
			dd if=/dev/zero of=/dev/shm/hog/f$_i bs=1M count=$_n status=none 2>/dev/null
			_i=$((_i + 1)) _files=$((_files + 1))
		elif [ "$_a" -lt $((HEADROOM_MB / 2)) ] && [ "$_files" -gt 0 ]; then
			_f=$(ls /dev/shm/hog | sed -n 1p)
			rm -f "/dev/shm/hog/$_f"
			_files=$((_files - 1))
			echo "released $_f at $_a MiB available" >>/tmp/hog.log
		else
			sleep 0.2
		fi
	done
	rm -rf /dev/shm/hog
}

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
DISKS="$*"
bds_dm_create $VOL "$(bds_stripe_table 256 "$1,$2" "$3,$4")"
log "memory before: $(avail_mb) MiB available"
bds_mark mp

# A job's wait before its first I/O: it is ready (its buffers are
# allocated: fio runs exec_prerun after), then memory is short.
cat >/tmp/prerun.sh <<'PRERUN'
: >"/tmp/ready.$1"
until [ -e /tmp/hog.short ]; do
	sleep 0.1
done
PRERUN
rm -f /tmp/ready.* /tmp/hog.short
: >/tmp/hog.run
hog &
HOG=$!
timeout -s KILL "$(bds_scaled 360)" fio --filename=$DM --verify=crc32c --do_verify=1 \
	--verify_fatal=1 --verify_dump=0 --output-format=terse --terse-version=3 \
	--name=big --ioengine=libaio --iodepth=32 --direct=1 --rw=randwrite \
	--bsrange=1m-2m --offset=0 --size=240m --exec_prerun="/bin/sh /tmp/prerun.sh big" \
	--name=huge --ioengine=libaio --iodepth=8 --direct=1 --rw=write --bs=4m \
	--offset=256m --size=240m --exec_prerun="/bin/sh /tmp/prerun.sh huge" \
	--name=wb --ioengine=psync --direct=0 --rw=write --bs=1m --offset=512m \
	--size=64m --end_fsync=1 --exec_prerun="/bin/sh /tmp/prerun.sh wb" \
	>/tmp/fio.out 2>&1
rc=$?
rm -f /tmp/hog.run
wait $HOG
cat /tmp/fio.out
log "lowest MemAvailable during the run: $(cat /tmp/hog.min) MiB;" \
	"hog released memory $(cat /tmp/hog.log 2>/dev/null | wc -l) times"
check "fio was not killed (no hang)" [ "$rc" != 137 ]
check "fio's I/O started under pressure" [ -e /tmp/hog.short ]
bds_expect_fio_verified /tmp/fio.out "$rc" big huge wb
check "memory was short (lowest $(cat /tmp/hog.min) MiB < $((2 * HEADROOM_MB)) MiB)" \
	[ "$(cat /tmp/hog.min)" -lt $((2 * HEADROOM_MB)) ]
bds_kmsg_clean mp
grep -E 'allocation failure|Out of memory|oom' /tmp/kmsg.since | sed -n 1,5p
log "status: $(dmsetup status $VOL)"
bds_dm_remove $VOL
# shellcheck disable=SC2086
bds_expect_clean $DISKS
pass "I/O under memory pressure: verified, no allocation failure"
