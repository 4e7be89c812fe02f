#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm grow --add --measure --weights bandwidth reads the disks it adds
# and lays the whole set out by their figures and by those the members'
# labels recorded at create --measure.  Four 64 MiB disks capped at
# 10 MB/s (10^6 bytes/s, QEMU throttle groups) on three controllers
# capped at 15 MB/s: A and B alone, C with two:
#  - create --measure --weights bandwidth of A's and B's disks: two
#    members, equal weights; 24 MiB of data with its md5;
#  - grow --add --measure of C's two disks, one holding swap: refused
#    before it reads them (no "measuring" line, no more read than probes
#    and label reads), the volume unchanged;
#  - grow --add --measure --weights bandwidth of C's two disks: it reads
#    them alone and together (C's limit shows: they read 15 of 20), and
#    the new set's weights are 2 for each disk alone and 3 for C's two
#    together (35 MB/s; equal shares would give 25);
#  - the data reads back the same through the grown volume;
#  - the new members' labels record what they read, their controller's
#    limit with it (examine; examine --json logged for the schema
#    check); the old members' labels keep their own figures.
#
# topology: size=64M ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:2x10000000
# timeout: 300
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
# shellcheck disable=SC2046 # one word per member
set -- $(bds_all_members)
[ $# -eq 4 ] || fail "need 1 + 1 + 2 disks, have: $*"
A=$1 B=$2 C1=$3 C2=$4
NC1=$(bds_dev "$C1") NC2=$(bds_dev "$C2")

run bdsadm create small --measure --weights bandwidth --chunk 16K "$A" "$B"
dd if=/dev/urandom of=/tmp/data bs=1M count=24 status=none
dd if=/tmp/data of=/dev/mapper/small bs=1M oflag=direct status=none ||
	fail "writing 24 MiB to the volume failed"
want=$(md5sum </tmp/data)
for d in "$A" "$B"; do
	bdsadm examine "$d" 2>/dev/null | grep "Measured :" >"/tmp/$(bds_dev "$d").before" || true
	check "$d: figures recorded at create" test -s "/tmp/$(bds_dev "$d").before"
done

# a new disk that holds data is refused before --measure reads them: no
# "measuring" line, and no more read than its probe and label reads
mkswap "$C2" >/dev/null || fail "cannot put a swap signature on $C2"
r0=$(bds_stat_field 3 "$NC1")
bdsadm grow small --add --measure --weights bandwidth "$C1" "$C2" >/tmp/early.out 2>&1
expect_eq "$?" 1 "grow --add --measure, $NC2 holds swap: exit status"
cat /tmp/early.out
check "... refused, naming $NC2" grep -qE "^bdsadm: $C2 holds .*swap" /tmp/early.out
check "... for the data it holds" grep -qF "refusing to add devices that hold data" /tmp/early.out
check "... before measuring" sh -c "! grep -q 'measuring (reads only)' /tmp/early.out"
r1=$(bds_stat_field 3 "$NC1")
check "... $NC1 not read for a measurement ($((r1 - r0)) sectors read)" [ $((r1 - r0)) -lt 16384 ]
expect_eq "$(dmsetup table small | tr ' ' '\n' | grep -c '^[0-9]*:[0-9]*$')" 2 "... the volume unchanged"
run wipefs -q -a "$C2"

bdsadm grow small --add --measure --weights bandwidth "$C1" "$C2" >/tmp/grow.out 2>&1
expect_eq "$?" 0 "grow --add --measure --weights bandwidth: exit status"
cat /tmp/grow.out
for d in "$NC1" "$NC2"; do
	check "$d read alone" grep -qE "^  $d +alone +[0-9]+\.[0-9] MB/s" /tmp/grow.out
done
check "C's two disks read together: the controller limits them" \
	grep -qE "disks together +[0-9]+\.[0-9] MB/s .*: the controller limits them" /tmp/grow.out

# each disk's weight: the table's devices in order, then "weights"
weight_of() { # DEV
	dmsetup table small | tr ' ' '\n' | awk -v mm="$(cat "/sys/class/block/$(bds_dev "$1")/dev")" '
		/^[0-9]+:[0-9]+$/ { n++; if ($0 == mm) at = n }
		w == 1 { split($0, v, ","); w = 2 }
		$0 == "weights" { w = 1 }
		END { print (at && w == 2) ? v[at] : "none" }'
}
dmsetup table small
expect_eq "$(weight_of "$A") $(weight_of "$B") $(( $(weight_of "$C1") + $(weight_of "$C2") ))" "2 2 3" \
	"the weights: 2 for each disk alone, 3 for C's two together"
expect_eq "$(dd if=/dev/mapper/small bs=1M count=24 iflag=direct status=none | md5sum)" \
	"$want" "the data reads back the same after the restripe"

for d in "$C1" "$C2"; do
	bdsadm examine "$d" >/tmp/ex.out 2>&1
	grep "Measured :" /tmp/ex.out || true
	check "$(bds_dev "$d")'s label: what it read, and C's limit" \
		grep -qE "^ +Measured : [0-9.]+ MB/s alone, [0-9.]+ MB/s its controller" /tmp/ex.out
done
bdsadm examine --json "$C1" >/tmp/examine.json 2>/dev/null
bds_json_log examine /tmp/examine.json
for d in "$A" "$B"; do
	bdsadm examine "$d" 2>/dev/null | grep "Measured :" >/tmp/after || true
	check "$d's label keeps its own figures" cmp -s "/tmp/$(bds_dev "$d").before" /tmp/after
done

run bdsadm stop small
run bdsadm wipe "$@"
bds_expect_clean
pass
