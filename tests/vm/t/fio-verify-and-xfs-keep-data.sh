#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Data written through bds-stripe reads back intact, with and without a
# filesystem on top:
#
# 1. fio (libaio, iodepth 8, O_DIRECT, verify=crc32c, verify_fatal) writes
#    and then verifies every block, on two volumes: a 96 KiB stripe unit
#    over 5 members in 3 groups (2+2+1, the non-power-of-two mapping path)
#    and a 64 KiB unit over 6 members in 3 groups (2+2+2, the shift/mask
#    path).  Jobs run concurrently, each in its own region that starts at
#    an offset that is a multiple of 4 KiB but not of the stripe unit:
#    random 4 KiB writes, sequential 12 KiB, random 68 KiB, sequential
#    1 MiB, random 3 stripe widths and random sizes from 4 KiB to 3
#    stripe widths, none of them a multiple of the unit except where the
#    width happens to be.  Every job must end without error and must have
#    read back (verified) as many bytes as it wrote.
# 2. XFS on the 96 KiB volume: a copy of the guest's /usr and /lib/modules
#    and generated files of odd sizes (around 4 KiB, the stripe unit and
#    the stripe width) survive sync + drop_caches and an unmount/mount
#    (same entries, symlink targets and md5 of every file as the
#    originals), and xfs_repair -n finds the unmounted filesystem clean.
#
# The members are two disks of each controller of the 4 + 2 + 2 topology
# of placement-matches-layout (c0d2 and c0d3 stay unused), so that the
# test shares that topology's boot.
#
# topology: ctl=4 ctl=2 ctl=2
# timeout: 420
# memory: 1536

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=fv
DM=/dev/mapper/$VOL
MNT=/mnt/fv
JOB_MIB=16		# data per fio job

# fio_verify NAME CHUNK NMEMBERS: concurrent write+verify jobs on $DM.
fio_verify() {
	_name=$1
	_ck=$2
	_nm=$3
	_unit=$((_ck * 512))
	_w=$((_unit * _nm))
	_size=$((JOB_MIB << 20))
	# name:rw:bs (bs "range" = 4k to 3 widths)
	set -- rand4k:randwrite:4096 seq12k:write:12288 rand68k:randwrite:69632 \
		seq1m:write:1048576 rand3w:randwrite:$((3 * _w)) \
		randrange:randwrite:range
	_args=""
	_i=0
	for _j in "$@"; do
		_jn=${_j%%:*}
		_rest=${_j#*:}
		_rw=${_rest%%:*}
		_bs=${_rest#*:}
		# Region i starts i x 64 MiB + 4 KiB x (7 + 6i): a multiple of
		# 4 KiB that is no multiple of 64 KiB or 96 KiB.
		_off=$((_i * (64 << 20) + 4096 * (7 + 6 * _i)))
		[ $((_off % _unit)) -ne 0 ] || fail "$_name: job $_jn offset $_off is unit aligned"
		if [ "$_bs" = range ]; then
			_bsarg="--bsrange=4k-$((3 * _w))"
			_js=$_size
		else
			_bsarg="--bs=$_bs"
			_js=$(((_size + _bs - 1) / _bs * _bs))
		fi
		_args="$_args --name=$_jn --rw=$_rw $_bsarg --offset=$_off --size=$_js"
		echo "$_jn $_js" >>/tmp/fio.expect
		_i=$((_i + 1))
	done
	log "$_name: fio$_args"
	# shellcheck disable=SC2086
	fio --filename=$DM --ioengine=libaio --iodepth=8 --direct=1 \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --verify_dump=0 \
		--output-format=terse --terse-version=3 $_args >/tmp/fio.out 2>&1
	_rc=$?
	cat /tmp/fio.out
	expect_eq "$_rc" 0 "$_name: fio exit status"
	check "$_name: no verify error reported" \
		sh -c "! grep -Eiq 'verify|bad magic|mismatch|crc' /tmp/fio.out"
	while read -r _jn _js; do
		_line=$(grep "^3;[^;]*;$_jn;" /tmp/fio.out)
		_err=$(echo "$_line" | cut -d';' -f5)
		_rkb=$(echo "$_line" | cut -d';' -f6)
		_wkb=$(echo "$_line" | cut -d';' -f47)
		expect_eq "$_err" 0 "$_name: job $_jn error"
		expect_eq "$_wkb" $((_js / 1024)) "$_name: job $_jn KiB written"
		expect_eq "$_rkb" $((_js / 1024)) "$_name: job $_jn KiB verified"
	done </tmp/fio.expect
	rm -f /tmp/fio.expect
}

# odd_files DIR: files of awkward sizes from /dev/urandom.
odd_files() {
	mkdir -p "$1/odd/deep/er/still"
	for _s in 1 511 4095 4097 12289 98303 98305 491519 491521 \
		1474559 1474561 3145741; do
		head -c "$_s" /dev/urandom >"$1/odd/f$_s" || return 1
	done
	_i=0
	while [ "$_i" -lt 200 ]; do
		head -c $((_i * 37 + 1)) /dev/urandom >"$1/odd/deep/er/still/s$_i" || return 1
		_i=$((_i + 1))
	done
	head -c $((9 << 20)) /dev/urandom >"$1/odd/big" || return 1
	: >"$1/odd/empty"
	ln -s f511 "$1/odd/link"
}

# tree_list ROOT DIR...: one line per entry under ROOT/DIR: the type and
# path of every entry, the target of every symlink and the md5 of every
# regular file, sorted.
tree_list() {
	_root=$1
	shift
	(
		cd "$_root" || exit 1
		find "$@" -type d | sed 's/^/dir /'
		find "$@" -type l | while read -r _l; do
			echo "link $_l -> $(readlink "$_l")"
		done
		find "$@" -type f | sort | xargs md5sum | sed 's/^/file /'
	) | sort
}

# compare_tree WHEN: everything under $MNT matches the originals.
compare_tree() {
	# shellcheck disable=SC2086
	tree_list $MNT $TREE >/tmp/list.dst || fail "cannot list $MNT"
	if cmp -s /tmp/list.src /tmp/list.dst; then
		check "$1: file tree equals the original" true
	else
		diff /tmp/list.src /tmp/list.dst | sed -n 1,40p
		check "$1: file tree equals the original" false
	fi
	expect_eq "$(grep -c '^file ' /tmp/list.dst)" \
		"$(grep -c '^file ' /tmp/list.src)" "$1: regular files"
}

bds_load_module
mkdir -p $MNT
rm -f /tmp/fio.expect

a0=/dev/bds/c0d0 a1=/dev/bds/c0d1 b0=/dev/bds/c1d0 b1=/dev/bds/c1d1
c0=/dev/bds/c2d0 c1=/dev/bds/c2d1
for d in $a0 $a1 $b0 $b1 $c0 $c1; do
	[ -b "$d" ] || fail "need 4 + 2 + 2 disks: no $d"
done

# --- 96 KiB x 5, groups 2+2+1 ------------------------------------------------
bds_dm_create $VOL "$(bds_stripe_table 192 "$a0,$a1" "$b0,$b1" "$c0")"
log "status: $(dmsetup status $VOL)"
fio_verify "96K x 5" 192 5
log "status: $(dmsetup status $VOL)"

# XFS on the same volume.
if ! mkfs.xfs -f $DM >/tmp/mkfs.out 2>&1; then
	cat /tmp/mkfs.out
	fail "mkfs.xfs failed"
fi
run mount -t xfs $DM $MNT
mkdir -p /tmp/src
odd_files /tmp/src || fail "cannot generate files"
# The copy keeps the paths: $MNT/usr, $MNT/lib/modules, $MNT/tmp/src/odd.
TREE="usr lib/modules tmp/src/odd"
# shellcheck disable=SC2086
tree_list / $TREE >/tmp/list.src
grep -q '^file .* usr/' /tmp/list.src || fail "cannot list the originals"
run mkdir -p $MNT/lib $MNT/tmp/src
run cp -a /usr $MNT/usr
run cp -a /lib/modules $MNT/lib/modules
run cp -a /tmp/src/odd $MNT/tmp/src/odd
log "copied: $(du -sk $MNT | cut -f1) KiB"
run sync
echo 3 >/proc/sys/vm/drop_caches
compare_tree "after sync + drop_caches"
run umount $MNT
echo 3 >/proc/sys/vm/drop_caches
run mount -t xfs $DM $MNT
compare_tree "after remount"
run umount $MNT
xfs_repair -n $DM >/tmp/repair.out 2>&1
rc=$?
cat /tmp/repair.out
expect_eq "$rc" 0 "xfs_repair -n exit status"
log "status: $(dmsetup status $VOL)"
bds_dm_remove $VOL
check "96K volume removed" [ ! -e $DM ]

# --- 64 KiB x 6, groups 2+2+2 ------------------------------------------------
bds_dm_create $VOL "$(bds_stripe_table 128 "$a0,$a1" "$b0,$b1" "$c0,$c1")"
log "status: $(dmsetup status $VOL)"
fio_verify "64K x 6" 128 6
log "status: $(dmsetup status $VOL)"
bds_dm_remove $VOL
check "64K volume removed" [ ! -e $DM ]

run rmmod dm_bds_stripe
pass "fio verify and XFS data round trips"
