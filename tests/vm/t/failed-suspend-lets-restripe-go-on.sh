#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A suspend of a volume mid-restripe that fails does not stop the
# restripe: the target undoes what its presuspend did (presuspend_undo),
# and the copier copies again the band the presuspend let go.  Three
# disks, each behind a dm-linear device so that a member can be
# suspended:
#  - bdsadm create vol over m0 m1 (64 KiB unit), 48 MiB of random data
#    written through it;
#  - bdsadm grow vol --add m2 runs with a test hook at its first
#    checkpoint (BDSADM_TEST_RUN_AT=grow-copied: the first band held and
#    copied, not yet checkpointed), which, once: suspends m0; sends a
#    direct write of the data's first MiB (the same bytes) to the volume,
#    which the target holds; has "dmsetup suspend vol" wait for it (the
#    presuspend lets it go, to m0, where it sticks) and ends that wait
#    with SIGTERM, so the suspend fails; resumes m0; the write ends;
#  - the volume is active, not suspended; the grow says it copies the
#    band again and ends (exit 0: without the undo the target refuses its
#    next hold, "the device is suspended"; without the copy again its
#    checkpoint is refused): 3 members, no restripe in the table, the
#    volume longer;
#  - the data reads back through the volume as written.
#
# topology: ctl=1/size=128M ctl=1/size=128M ctl=1/size=128M
# timeout: 300
# kernels: 6.1 6.12 7.2
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
set -- /dev/bds/c0d0 /dev/bds/c1d0 /dev/bds/c2d0
for d in "$@"; do
	[ -b "$d" ] || fail "need 3 disks: no $d"
done
i=0
for d in "$@"; do
	bds_dm_create m$i "0 $(bds_sectors "$d") linear $d 0"
	i=$((i + 1))
done
VOL=vol
DMV=/dev/mapper/$VOL

run bdsadm create $VOL --chunk 64K -g "/dev/mapper/m0;/dev/mapper/m1" /dev/mapper/m0 /dev/mapper/m1
LEN0=$(bds_sectors $DMV)
dd if=/dev/urandom of=/tmp/data bs=1M count=48 status=none || fail "cannot make the data"
run dd if=/tmp/data of=$DMV bs=1M oflag=direct conv=fsync status=none
VOLSYS=/sys/dev/block/$(dmsetup info -c --noheadings -o major,minor --separator : $VOL)
[ -r "$VOLSYS/inflight" ] || fail "no $VOLSYS/inflight"

# The hook: bdsadm waits for it.  Bounded waits (0.1 s steps); what it
# saw goes to /tmp/hook.*.
cat >/tmp/suspend-fails <<EOS
#!/bin/sh
[ -e /tmp/hook.ran ] && exit 0
: >/tmp/hook.ran
exec >>/tmp/hook.log 2>&1
until_ok() {
	_n=0
	until "\$@"; do
		_n=\$((_n + 1))
		[ \$_n -lt 300 ] || { echo "hook: gave up waiting for \$*"; return 1; }
		sleep 0.1
	done
}
in_flight() { [ "\$(awk '{ print \$1 + \$2 }' $VOLSYS/inflight)" -gt 0 ]; }
suspend_waits() {
	grep -E 'dm_wait_for_completion|__dm_suspend|dm_suspend' /proc/\$SUSP/wchan >/dev/null 2>&1
}
dmsetup suspend m0 || exit 1
dd if=/tmp/data of=$DMV bs=1M count=1 oflag=direct conv=notrunc status=none &
WRITER=\$!
until_ok in_flight
dmsetup suspend $VOL &
SUSP=\$!
until_ok suspend_waits || echo "hook: wchan \$(cat /proc/\$SUSP/wchan)"
kill -TERM \$SUSP
wait \$SUSP
echo \$? >/tmp/hook.suspend-rc
dmsetup resume m0
wait \$WRITER
echo \$? >/tmp/hook.write-rc
dmsetup info $VOL | sed -n 's/^State: *//p' >/tmp/hook.state
EOS
chmod +x /tmp/suspend-fails

BDSADM_TEST_RUN_AT=grow-copied BDSADM_TEST_RUN=/tmp/suspend-fails \
	bdsadm grow $VOL --add /dev/mapper/m2 >/tmp/grow.out 2>&1
rc=$?
cat /tmp/grow.out
cat /tmp/hook.log 2>/dev/null
check "the hook ran" [ -e /tmp/hook.ran ]
SRC=$(cat /tmp/hook.suspend-rc 2>/dev/null)
check "the interrupted suspend failed (exit $SRC)" sh -c "[ -n '$SRC' ] && [ '$SRC' != 0 ]"
expect_eq "$(cat /tmp/hook.write-rc 2>/dev/null)" 0 "the write that stuck in m0 ended well"
expect_eq "$(cat /tmp/hook.state 2>/dev/null)" ACTIVE "the volume is active after the failed suspend"
check "the grow copies the band let go again" grep -qF "go (the volume was suspended): copying them again" /tmp/grow.out
dmesg | grep 'bds-stripe' | tail -5
expect_eq "$rc" 0 "bdsadm grow --add exit status"
check "no restripe in the table" sh -c "! dmsetup table $VOL | grep ' reshape ' >/dev/null"
log "table: $(dmsetup table $VOL)"
expect_eq "$(dmsetup table $VOL | tr ' ' '\n' | grep -c '^[0-9]*:[0-9]*$')" 3 "3 members in the table"
LEN=$(bds_sectors $DMV)
check "the volume grew ($LEN0 -> $LEN sectors)" [ "$LEN" -gt "$LEN0" ]
echo 3 >/proc/sys/vm/drop_caches
expect_eq "$(dd if=$DMV bs=1M count=48 iflag=direct status=none | md5sum)" \
	"$(md5sum </tmp/data)" "the data reads back as written"

run bdsadm stop $VOL
for i in 0 1 2; do
	bds_dm_remove m$i
done
pass
