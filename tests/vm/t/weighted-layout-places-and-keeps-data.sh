#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A table with "weights" places every stripe unit where the documented
# weighted layout says, sends each member one request per bio, and keeps
# data under fio and XFS.  The model is written here in shell from the
# documentation (Documentation/bds-stripe.rst, "Weights"), not from the
# module's code: the volume repeats a cycle of W = sum of weights units;
# unit k goes to slot s = k mod W, on member ORD_s (the slot list that
# `dmsetup status` prints, field 4), at member sector
#   offset + ((k div W) * w_m + rank(s)) * chunk
# where rank(s) counts the slots before s of the same member.
#
# Per case (4+2+2 members, chunk 64 KiB, weights 1,1,1,1,2,2,2,2; and
# 2+2+1, chunk 96 KiB, weights 3,1,2,1,2 with nonzero offsets):
#   - the status lists W slots, member m in exactly w_m of them; the
#     canonical table prints the weights; all weights 1 prints none;
#   - minimum_io_size is the unit, optimal_io_size one cycle;
#   - data written unit by unit (O_DIRECT) is on the members, read raw,
#     where the model puts it, and so is data written in one O_DIRECT
#     write per cycle (the multi-unit path);
#   - one O_DIRECT write of a whole cycle adds to each group's counters
#     one write per member and w_m units per member: one request per
#     member, with the member's weighted share;
#   - a length that is not whole cycles is refused.
# Then fio write+verify (random 4 KiB to 3 cycles) and XFS (mkfs picks
# sunit = unit and swidth = cycle; files written, remounted, md5 checked,
# xfs_repair -n clean) on the 96 KiB volume of 1 GiB members.  On the
# debug kernel (KASAN, lockdep; make check's debug leg) fio writes 16 MiB
# instead of 96 and XFS is left to the stock kernels, to keep it short.
#
# topology: size=1G backing=file ctl=4 ctl=2 ctl=2
# timeout: 420
# memory: 1536
# check-kernels: 6.1

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2154
. /bds/guest-lib.sh

V=bdsweight
DMV=/dev/mapper/$V
DATA=/tmp/weighted.data
FIO_SIZE=96M
DEBUG_KERNEL=0
case "$(uname -r)" in
*bds-debug*) FIO_SIZE=16M DEBUG_KERNEL=1 ;;
esac

# new_case CHUNK WEIGHTS GROUP...: the members of a table.  Each GROUP is a
# comma-separated list of NODE@OFFSET (NODE = c<C>d<D> under /dev/bds);
# WEIGHTS the comma-separated weights in table order.  Sets CHUNK, N, NG,
# W, MEM_i, OFF_i, GRP_i, WT_i, GSZ_g, GW_g (the group's weight sum) and
# GROUPWORDS.
new_case() {
	CHUNK=$1
	WEIGHTS=$2
	shift 2
	N=0
	NG=$#
	GROUPWORDS=$NG
	_g=0
	for _grp in "$@"; do
		_n=0
		_w=""
		for _e in $(echo "$_grp" | tr , ' '); do
			_dev=/dev/bds/${_e%@*}
			[ -b "$_dev" ] || fail "no member $_dev"
			eval "MEM_$N=$_dev OFF_$N=${_e#*@} GRP_$N=$_g"
			_w="$_w $(bds_majmin "$_dev") ${_e#*@}"
			N=$((N + 1))
			_n=$((_n + 1))
		done
		eval "GSZ_$_g=$_n GW_$_g=0"
		GROUPWORDS="$GROUPWORDS $_n$_w"
		_g=$((_g + 1))
	done
	W=0
	_i=0
	for _x in $(echo "$WEIGHTS" | tr , ' '); do
		eval "WT_$_i=$_x"
		eval "_g=\$GRP_$_i"
		eval "GW_$_g=\$((GW_$_g + _x))"
		W=$((W + _x))
		_i=$((_i + 1))
	done
	[ "$_i" -eq "$N" ] || fail "case has $N members but $_i weights"
}

# load_slots: ORD_s and RANK_s from status field 4; 1 unless it lists W
# slots with member m in exactly WT_m of them.
load_slots() {
	_s=0
	_i=0
	while [ "$_i" -lt "$N" ]; do
		eval "CNT_$_i=0"
		_i=$((_i + 1))
	done
	for _x in $(dmsetup status $V | awk '{ print $7 }' | tr , ' '); do
		case "$_x" in '' | *[!0-9]*) return 1 ;; esac
		[ "$_x" -lt "$N" ] || return 1
		eval "ORD_$_s=$_x RANK_$_s=\$CNT_$_x CNT_$_x=\$((CNT_$_x + 1))"
		_s=$((_s + 1))
	done
	[ "$_s" -eq "$W" ] || return 1
	_i=0
	while [ "$_i" -lt "$N" ]; do
		eval "[ \$CNT_$_i -eq \$WT_$_i ]" || return 1
		_i=$((_i + 1))
	done
}

# unit_place K: "MEMBER MEMBER_UNIT" of volume unit K, by the model.
unit_place() {
	eval "_m=\$ORD_$(($1 % W)) _r=\$RANK_$(($1 % W))"
	eval "_wt=\$WT_$_m"
	echo "$_m $(($1 / W * _wt + _r))"
}

# placement_ok DESC UNITS: units 0..UNITS-1 of $DATA are, byte for byte,
# where unit_place puts them.  Each member is read raw once (O_DIRECT);
# the volume is rebuilt from the members by the model and compared.
placement_ok() {
	_cb=$((CHUNK * 512))
	_cycles=$((($2 + W - 1) / W))
	_m=0
	while [ "$_m" -lt "$N" ]; do
		eval "_dev=\$MEM_$_m _off=\$OFF_$_m _wt=\$WT_$_m"
		bds_read "$_dev" $((_off * 512)) $((_cycles * _wt * _cb)) >/tmp/member.$_m ||
			fail "cannot read member $_m ($_dev)"
		_m=$((_m + 1))
	done
	rm -f /tmp/rebuilt
	_k=0
	while [ "$_k" -lt "$2" ]; do
		# shellcheck disable=SC2046
		set -- "$1" "$2" $(unit_place "$_k")
		dd if=/tmp/member.$3 of=/tmp/rebuilt bs=$_cb skip="$4" seek="$_k" \
			count=1 conv=notrunc status=none || fail "cannot rebuild unit $_k"
		_k=$((_k + 1))
	done
	cmp -s /tmp/rebuilt "$DATA" && return 0
	_k=0
	while [ "$_k" -lt "$2" ]; do
		if [ "$(bds_unit_md5 "$DATA" "$_k" $_cb)" != \
			"$(bds_unit_md5 /tmp/rebuilt "$_k" $_cb)" ]; then
			log "$1: unit $_k is not on member/unit $(unit_place "$_k")"
		fi
		_k=$((_k + 1))
	done
	return 1
}

# counters: the 4 x #groups counters of `dmsetup status` of the volume.
counters() { bds_counters $V; }

# run_case NAME: create the volume for the current case and check it.
run_case() {
	_name=$1
	_cyc=$((W * CHUNK))
	LEN=$((16 * _cyc))
	refuse_len=$((LEN + CHUNK * N))
	if echo "0 $refuse_len bds-stripe $CHUNK $GROUPWORDS 2 weights $WEIGHTS" |
		dmsetup create $V 2>/dev/null; then
		fail "$_name: a length of $refuse_len sectors (not whole cycles) was taken"
	fi
	log "$_name: a length of $refuse_len sectors (not whole cycles) refused"
	bds_dm_create $V "0 $LEN bds-stripe $CHUNK $GROUPWORDS 2 weights $WEIGHTS"
	check "$_name: status lists $W slots, member m in w_m of them" load_slots
	load_slots || fail "$_name: cannot use the slots"
	log "$_name: slots $(dmsetup status $V | awk '{ print $7 }')"
	expect_eq "$(dmsetup table $V | awk '{ print $(NF - 2), $(NF - 1), $NF }')" \
		"2 weights $WEIGHTS" "$_name: the canonical table prints the weights"
	_dn=dm-$(dmsetup info -c --noheadings -o minor $V)
	expect_eq "$(cat /sys/block/$_dn/queue/minimum_io_size)" $((CHUNK * 512)) \
		"$_name: minimum_io_size is the unit"
	expect_eq "$(cat /sys/block/$_dn/queue/optimal_io_size)" $((_cyc * 512)) \
		"$_name: optimal_io_size is one cycle"

	# Unit by unit: the one-unit path.
	UNITS=$((3 * W + 3))
	dd if=/dev/urandom of="$DATA" bs=$((CHUNK * 512)) count="$UNITS" status=none ||
		fail "cannot make test data"
	run dd if="$DATA" of=$DMV bs=$((CHUNK * 512)) oflag=direct conv=fsync status=none
	expect_eq "$(bds_md5 $DMV 0 $((UNITS * CHUNK * 512)))" \
		"$(md5sum <"$DATA" | cut -d' ' -f1)" "$_name: read back through the volume"
	check "$_name: $UNITS units written one by one lie where the model puts them" \
		placement_ok "$_name/units" "$UNITS"

	# A cycle per write: the multi-unit path.
	UNITS=$((4 * W))
	dd if=/dev/urandom of="$DATA" bs=$((CHUNK * 512)) count="$UNITS" status=none ||
		fail "cannot make test data"
	run dd if="$DATA" of=$DMV bs=$((_cyc * 512)) oflag=direct conv=fsync status=none
	check "$_name: 4 cycles written a cycle at a time lie where the model puts them" \
		placement_ok "$_name/cycles" "$UNITS"

	# One whole-cycle write: one request per member, its weighted share.
	before=$(counters)
	run xfs_io -d -c "pwrite -q -b $((_cyc * 512)) $((_cyc * 512 * 5)) $((_cyc * 512))" $DMV
	d=$(bds_vec_sub "$(counters)" "$before")
	want=""
	_g=0
	while [ "$_g" -lt "$NG" ]; do
		eval "want=\"\$want 0 \$GSZ_$_g 0 \$((GW_$_g * CHUNK))\""
		_g=$((_g + 1))
	done
	expect_eq "$d" "${want# }" \
		"$_name: a one-cycle write is one request per member, w_m units each"

	# Weights all 1 are no weights at all.
	bds_dm_remove $V
	_ones=$(echo "$WEIGHTS" | sed 's/[0-9][0-9]*/1/g')
	bds_dm_create $V "0 $((16 * N * CHUNK)) bds-stripe $CHUNK $GROUPWORDS 2 weights $_ones"
	check "$_name: weights all 1 print no optional arguments" \
		[ "$(dmsetup table $V | awk '{ print NF }')" -eq $((5 + NG + 2 * N)) ]
	bds_dm_remove $V
}

bds_load_module
expect_eq "$(bds_controllers)" 3 "controllers"

# 1. 4+2+2, 64 KiB unit: the disks on the shared controller carry half.
new_case 128 1,1,1,1,2,2,2,2 "c0d0@0,c0d1@0,c0d2@0,c0d3@0" "c1d0@0,c1d1@0" "c2d0@0,c2d1@0"
run_case "4+2+2/w1,1,1,1,2,2,2,2"

# 2. 2+2+1, 96 KiB unit (not a power of two), nonzero offsets.
new_case 192 3,1,2,1,2 "c0d0@2048,c0d1@4096" "c1d0@6144,c1d1@8192" "c2d0@10240"
run_case "2+2+1/192/w3,1,2,1,2"

# --- data under fio and XFS, on case 2's members ------------------------------
# The largest whole number of cycles the members hold past their offsets.
cyc=$((W * CHUNK))
min=0
i=0
while [ "$i" -lt "$N" ]; do
	eval "dev=\$MEM_$i off=\$OFF_$i wt=\$WT_$i"
	c=$((($(bds_sectors "$dev") - off) / (wt * CHUNK)))
	if [ "$min" -eq 0 ] || [ "$c" -lt "$min" ]; then
		min=$c
	fi
	i=$((i + 1))
done
LEN=$((min * cyc))
log "fio/XFS volume: $min cycles of $cyc sectors ($((LEN / 2048)) MiB)"
bds_dm_create $V "0 $LEN bds-stripe $CHUNK $GROUPWORDS 2 weights $WEIGHTS"

fio --name=wrand --filename=$DMV --rw=randwrite --bsrange=4k-$((3 * cyc * 512)) \
	--size=$FIO_SIZE --direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c \
	--verify_fatal=1 --do_verify=1 --verify_dump=0 --offset=$((4096 * 7)) \
	--output-format=terse --terse-version=3 >/tmp/fio.out 2>&1
rc=$?
cat /tmp/fio.out
bds_expect_fio_verified /tmp/fio.out "$rc" wrand

if [ "$DEBUG_KERNEL" = 1 ]; then
	bds_dm_remove $V
	run rmmod dm_bds_stripe
	pass "weighted layouts place data as documented and keep it (XFS left to the stock kernels)"
fi
run mkfs.xfs -f $DMV >/tmp/mkfs.out 2>&1
s=$(sed -n 's/.*sunit=\([0-9]*\)[[:space:]]*swidth=\([0-9]*\) blks.*/\1 \2/p' /tmp/mkfs.out | sed -n 1p)
expect_eq "$s" "$((CHUNK / 8)) $((cyc / 8))" "mkfs.xfs: sunit = unit, swidth = cycle (4 KiB blocks)"
mkdir -p /mnt/w
run mount -t xfs $DMV /mnt/w
i=0
while [ "$i" -lt 150 ]; do
	dd if=/dev/urandom of=/mnt/w/f$i bs=4096 count=$((i % 40 + 1)) status=none ||
		fail "cannot write /mnt/w/f$i"
	i=$((i + 1))
done
(cd /mnt/w && find . -type f -exec md5sum {} + | sort -k 2) >/tmp/before.md5
run umount /mnt/w
echo 3 >/proc/sys/vm/drop_caches
run mount -t xfs $DMV /mnt/w
(cd /mnt/w && find . -type f -exec md5sum {} + | sort -k 2) >/tmp/after.md5
check "XFS on the weighted volume: every file the same after a remount" \
	cmp -s /tmp/before.md5 /tmp/after.md5
expect_eq "$(wc -l </tmp/before.md5)" 150 "XFS holds the 150 files"
run umount /mnt/w
run xfs_repair -n $DMV
bds_dm_remove $V

run rmmod dm_bds_stripe
pass "weighted layouts place data as documented and keep it"
