#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm assemble brings up a volume mid-restripe (label feature RESHAPE)
# at the least advanced checkpoint its members' labels record, usable at
# once, and the verbs that would read or move one geometry only refuse
# it.  Three disks on two controllers carry the labels of a volume
# growing from 2 members (A, B) to 3 (A, B; C), 64 KiB unit, named
# "grower" (bds-mklabels --old-members 2): every label at checkpoint 104,
# then member A's primary copy rewritten at 100 (the state a power cut
# leaves between two checkpoint writes: A's primary at the older
# checkpoint, its backup and the other members at the newer one).  Then:
#  - "bdsadm assemble grower" exits 0, says the volume is mid-restripe at
#    stripe unit 100, and loads exactly the table of checkpoint 100
#    (members as major:minor), of the old volume's length;
#  - 120 units of random data written through it read back, and units 96
#    to 103 (new geometry) and 104 to 111 (old) lie where an independent
#    model in shell arithmetic puts them (the orders of plain tables over
#    the same members);
#  - "bdsadm check grower" and "bdsadm replace grower A D" refuse it,
#    saying it is mid-restripe, and change nothing;
#  - under systemd (faked: /run/systemd/system, a systemctl that records
#    its words) assemble starts bds-stripe-grow@grower.service with
#    "systemctl start --no-block", and in an initramfs
#    (/etc/initrd-release) it starts nothing;
#  - "bdsadm stop grower" stops it, and nothing is left open.
#
# topology: ctl=2 ctl=2
# timeout: 300
# exec: bds-mklabels
# check-kernels: 6.1 7.2

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2034,SC2154
. /bds/guest-lib.sh

command -v bds-mklabels >/dev/null || fail "bds-mklabels not in the guest (# exec: header)"
bds_load_module
A=/dev/bds/c0d0 B=/dev/bds/c0d1 C=/dev/bds/c1d0 D=/dev/bds/c1d1
for d in $A $B $C $D; do
	[ -b "$d" ] || fail "need 2 + 2 disks: no $d"
done
MEM_0=$A MEM_1=$B MEM_2=$C
U=40414243-4445-4647-9849-4a4b4c4d4e4f
VOL=grower
DMV=/dev/mapper/$VOL
CHUNK=128                       # sectors
CB=$((CHUNK * 512))             # bytes of a stripe unit
UNITS=120
DATA=/tmp/grower.data

# The labels: all at 104, then A's primary at 100.
bds_restripe_labels $U $CHUNK 104 "$A" "$B" "$C"
bds-mklabels --name $VOL --old-members 2 --ckpt 104 $U $CHUNK interleave 2,1 \
	"$A" "$B" "$C" >/dev/null || fail "bds-mklabels (checkpoint 104) failed"
bds-mklabels --name $VOL --only 0 --copies primary --old-members 2 --ckpt 100 \
	$U $CHUNK interleave 2,1 "$A" "$B" "$C" >/dev/null ||
	fail "bds-mklabels (A's primary at checkpoint 100) failed"
WANT=$(echo "$RS_TABLE" | sed "s| reshape forward 104 | reshape forward 100 |; s|$A |$(bds_majmin $A) |; s|$B |$(bds_majmin $B) |; s|$C |$(bds_majmin $C) |")

log "+ bdsadm assemble $VOL"
bdsadm assemble $VOL >/tmp/grower.out 2>&1
rc=$?
cat /tmp/grower.out
expect_eq "$rc" 0 "bdsadm assemble exit status"
check "assemble says the volume is mid-restripe at unit 100" \
	grep -qF "volume $VOL is mid-restripe (forward, at stripe unit 100 of" /tmp/grower.out
expect_eq "$(dmsetup table $VOL)" "$WANT" "the table of the least advanced checkpoint"
expect_eq "$(bds_sectors $DMV)" "$RS_OLDLEN" "the old volume's length"

dd if=/dev/urandom of=$DATA bs=$CB count=$UNITS status=none || fail "cannot make test data"
run dd if=$DATA of=$DMV bs=$((4 * CB)) oflag=direct conv=fsync status=none
expect_eq "$(bds_md5 $DMV 0 $((UNITS * CB)))" "$(md5sum <$DATA | cut -d' ' -f1)" \
	"$UNITS units read back through the volume"
k=96
while [ $k -lt 112 ]; do
	g=OLD
	[ $k -lt 100 ] && g=NEW
	p=$(bds_rs_place $g $k $CHUNK)
	eval "dev=\$MEM_${p% *}"
	expect_eq "$(bds_md5 "$dev" $((${p#* } * 512)) $CB)" "$(bds_unit_md5 $DATA $k $CB)" \
		"unit $k where the $g geometry puts it (member ${p% *}, sector ${p#* })"
	k=$((k + 1))
done

# refused_verb DESC WORDS...: bdsadm WORDS fails, saying mid-restripe.
refused_verb() {
	_d=$1
	shift
	_before=$(dmsetup table $VOL)
	if bdsadm "$@" >/tmp/grower.out 2>&1; then
		check "$_d: refused" false
	fi
	cat /tmp/grower.out
	check "$_d: says the volume is mid-restripe" grep -qF "mid-restripe" /tmp/grower.out
	expect_eq "$(dmsetup table $VOL)" "$_before" "$_d: the table is unchanged"
}
refused_verb "check" check $VOL
refused_verb "replace" replace $VOL "$A" "$D"
expect_eq "$(bds_md5 $DMV 0 $((UNITS * CB)))" "$(md5sum <$DATA | cut -d' ' -f1)" \
	"the data after the refusals"

# Under systemd (faked: /run/systemd/system and a systemctl that records
# its words), assemble starts the copy's unit, and not in an initramfs
# (/etc/initrd-release).
run bdsadm stop $VOL
unfake() { rm -rf /run/systemd/system /tmp/fakebin /etc/initrd-release; }
trap unfake EXIT
mkdir -p /run/systemd/system /tmp/fakebin
printf '#!/bin/sh\necho "$*" >>/tmp/systemctl.log\n' >/tmp/fakebin/systemctl
chmod +x /tmp/fakebin/systemctl
: >/tmp/systemctl.log
PATH=/tmp/fakebin:$PATH bdsadm assemble $VOL >/tmp/grower.out 2>&1
rc=$?
cat /tmp/grower.out
expect_eq "$rc" 0 "bdsadm assemble under systemd"
expect_eq "$(cat /tmp/systemctl.log)" "start --no-block bds-stripe-grow@$VOL.service" \
	"assemble starts the restripe's unit"
check "assemble says so" grep -qF "its restripe goes on in bds-stripe-grow@$VOL.service" /tmp/grower.out
run bdsadm stop $VOL
touch /etc/initrd-release
: >/tmp/systemctl.log
PATH=/tmp/fakebin:$PATH bdsadm assemble $VOL || fail "bdsadm assemble in an initramfs failed"
expect_eq "$(cat /tmp/systemctl.log)" "" "in an initramfs, no unit is started"
unfake
trap - EXIT

run bdsadm stop $VOL
bds_expect_clean "$A" "$B" "$C" "$D"
pass
