#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm replace puts the mirror in so that no write can reach OLD
# behind it: a write issued while the mirror already copies, before the
# volume is on it, still ends up on NEW.  (bdsadm suspends the volume
# before it makes the mirror.  With the mirror made first, such a write
# went to OLD alone, into a region the mirror had copied and marked in
# sync, and NEW kept the old data for good.)
#
# Four 512 MiB disks on two controllers: a 1+2 volume over A, B and C,
# D spare.  The volume's first 3 MiB (the first 1 MiB, two mirror
# regions, of each member) hold data X.  replace C by D runs a hook as
# soon as the mirror exists (BDSADM_TEST_RUN_AT=mirror-made): it waits
# until the mirror has copied 4 regions, then writes data Y over those
# 3 MiB through the volume (in the background: the volume is suspended
# there, so the write waits for it to resume on the mirror).
#  - the replace ends on D, and the write completed;
#  - the volume reads Y, stopped and assembled again (on D) too.
#
# topology: size=512M ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
modprobe dm-mirror 2>/dev/null || true
bds_four_disks
run bdsadm create vol --chunk 64K "$A" "$B" "$C"
run dd if=/dev/urandom of=/tmp/X bs=1M count=3 status=none
run dd if=/dev/urandom of=/tmp/Y bs=1M count=3 status=none
run dd if=/tmp/X of=/dev/mapper/vol bs=1M count=3 oflag=direct status=none
check "the volume holds X" cmp -s -n 3145728 /tmp/X /dev/mapper/vol

cat >/tmp/hook <<'HOOK'
#!/bin/sh
# wait for 4 regions in sync, then write Y through the volume
i=0
while [ $i -lt 300 ]; do
	n=$(dmsetup status vol-replace | sed -n 's/.* \([0-9]*\)\/[0-9]* 1 [A-Z]* .*/\1/p')
	[ "${n:-0}" -ge 4 ] && break
	sleep 0.1
	i=$((i + 1))
done
echo "hook: $n regions in sync" >&2
(dd if=/tmp/Y of=/dev/mapper/vol bs=1M count=3 oflag=direct status=none &&
	touch /tmp/dd-done) </dev/null >/dev/null 2>&1 &
sleep 1
HOOK
chmod +x /tmp/hook
rm -f /tmp/dd-done
rc=0
BDSADM_TEST_RUN_AT=mirror-made BDSADM_TEST_RUN=/tmp/hook \
	bdsadm replace vol "$C" "$D" >/tmp/out 2>/tmp/err || rc=$?
cat /tmp/out /tmp/err
expect_eq "$rc" 0 "replace exits 0"
check "the hook ran" grep -q "hook: [0-9]* regions in sync" /tmp/err
i=0
while [ ! -e /tmp/dd-done ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "the write made as the mirror started completed" test -e /tmp/dd-done
check "D took C's place" sh -c "dmsetup table vol | grep -F ' $(bds_majmin "$D") ' >/dev/null"
check "the volume reads Y" cmp -s -n 3145728 /tmp/Y /dev/mapper/vol
run bdsadm stop vol
run bdsadm assemble --scan
check "assembled again, on D, it reads Y" cmp -s -n 3145728 /tmp/Y /dev/mapper/vol
bds_replaced_end
pass
