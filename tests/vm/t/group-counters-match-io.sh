#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The per-group counters of `dmsetup status` (per group: reads, writes,
# sectors read, sectors written) count exactly the I/O sent to each group:
#   - the guest sees each virtio-scsi controller as its own SCSI host (the
#     members' HCTL host numbers differ per controller) and the table's
#     groups (as `dmsetup table` prints them) are the disks of one
#     controller each;
#   - the counters start at zero;
#   - an O_DIRECT fio write of X bytes aligned to the stripe width (2 groups,
#     3+2 members) in requests of 2 stripe widths adds X/512 written sectors
#     over the groups, X/512 * n_g/N to each group, and one write per request
#     and member of the group: a request that spans several stripe units
#     reaches each member as one request; reads of one stripe width count
#     likewise and leave the write counters alone;
#   - single O_DIRECT writes and reads not aligned to the stripe unit add to
#     each group exactly what an independent shell model of the layout
#     (unit k on member order[k mod N], order from `dmsetup status`) says:
#     per member the request touches, one request and its sectors there.
#
# topology: ctl=4 ctl=2 ctl=2
# (the volume: c0d0 c0d1 c0d2 and c1d0 c1d1)
# timeout: 240
# memory: 1024
# check-kernels: 6.1 7.2

# Variables named VAR_<n> are set and read through eval.
# shellcheck disable=SC1091,SC2154
. /bds/guest-lib.sh

V=bdscount
DMV=/dev/mapper/$V
CHUNK=128 # sectors (64 KiB)

# --- helpers ---------------------------------------------------------------------

# hctl_host MAJ:MIN: SCSI host number of a disk (H of its H:C:T:L).
hctl_host() {
	_h=$(readlink -f "/sys/dev/block/$1/device")
	_h=${_h##*/}
	echo "${_h%%:*}"
}

# counters: the 4 x #groups counters of `dmsetup status` of the volume.
counters() { bds_counters $V; }

# model RW START END [BS]: the counter vector that reading (RW=r) or writing
# (RW=w) volume sectors [START, END) in requests of BS sectors (default: one
# request) must add.  Walks each request stripe unit by stripe unit: unit k
# is on member ORD_(k mod N), whose group is GRP_m; a member the request
# touches gets one request, carrying all of its sectors.
model() {
	_g=0
	while [ "$_g" -lt "$NG" ]; do
		eval "R_$_g=0 W_$_g=0 RS_$_g=0 WS_$_g=0"
		_g=$((_g + 1))
	done
	_bs=${4:-$(($3 - $2))}
	_s=$2
	while [ "$_s" -lt "$3" ]; do
		_e=$((_s + _bs))
		[ "$_e" -gt "$3" ] && _e=$3
		_i=0
		while [ "$_i" -lt "$N" ]; do
			eval "SEEN_$_i=0"
			_i=$((_i + 1))
		done
		_k=$((_s / CHUNK))
		while [ $((_k * CHUNK)) -lt "$_e" ]; do
			_a=$((_k * CHUNK))
			[ "$_a" -lt "$_s" ] && _a=$_s
			_b=$(((_k + 1) * CHUNK))
			[ "$_b" -gt "$_e" ] && _b=$_e
			eval "_m=\$ORD_$((_k % N))"
			eval "_g=\$GRP_$_m"
			eval "_n=\$((1 - SEEN_$_m))"
			eval "SEEN_$_m=1"
			if [ "$1" = r ]; then
				eval "R_$_g=\$((R_$_g + _n)) RS_$_g=\$((RS_$_g + _b - _a))"
			else
				eval "W_$_g=\$((W_$_g + _n)) WS_$_g=\$((WS_$_g + _b - _a))"
			fi
			_k=$((_k + 1))
		done
		_s=$_e
	done
	_v=""
	_g=0
	while [ "$_g" -lt "$NG" ]; do
		eval "_v=\"\$_v \$R_$_g \$W_$_g \$RS_$_g \$WS_$_g\""
		_g=$((_g + 1))
	done
	echo "${_v# }"
}

# fio_io RW OFFSET SIZE BS: fio, psync, O_DIRECT, bytes.
fio_io() {
	run fio --name=counters --filename=$DMV --rw="$1" --offset="$2" --size="$3" \
		--bs="$4" --direct=1 --ioengine=psync --invalidate=0 --output=/tmp/fio.out
}

# --- controllers, hosts and groups -------------------------------------------------

bds_load_module
expect_eq "$(bds_controllers)" 3 "controllers (the topology has 3; the volume uses 2)"
h0=$(bds_host 0)
h1=$(bds_host 1)
check "controllers are distinct SCSI hosts ($h0, $h1)" [ "$h0" != "$h1" ]
for h in $h0 $h1; do
	check "host$h is virtio-scsi" grep -qx virtio_scsi "/sys/class/scsi_host/host$h/proc_name"
done

N=0
NG=2
GROUPWORDS=2
for c in 0 1; do
	n=0
	words=""
	# shellcheck disable=SC2046 # one word per member
	set -- $(bds_members $c)
	[ "$c" = 0 ] && set -- "$1" "$2" "$3"
	[ "$c" = 1 ] && set -- "$1" "$2"
	for m in "$@"; do
		mm=$(bds_majmin "$m")
		expect_eq "$(hctl_host "$mm")" "$(bds_host $c)" "$m ($mm) is on the host of controller $c"
		eval "GRP_$N=$c"
		words="$words $mm 0"
		N=$((N + 1))
		n=$((n + 1))
	done
	eval "GSZ_$c=$n"
	GROUPWORDS="$GROUPWORDS $n$words"
done
expect_eq "$GSZ_0 $GSZ_1" "3 2" "members per controller"
W=$((CHUNK * N))   # stripe width, sectors
LEN=$((64 * W))
bds_dm_create $V "0 $LEN bds-stripe $CHUNK $GROUPWORDS"

# The table as the kernel prints it: each group is one controller's disks.
table=$(dmsetup table $V)
log "table: $table"
# shellcheck disable=SC2086 # split the table into words
set -- $table
check "table: bds-stripe, chunk $CHUNK, 2 groups" [ "$3 $4 $5" = "bds-stripe $CHUNK 2" ]
shift 5
g=0
while [ "$g" -lt 2 ] && [ $# -gt 0 ]; do
	n=$1
	shift
	expect_eq "$n" "$(eval "echo \$GSZ_$g")" "table group $g size"
	hosts=""
	i=0
	while [ "$i" -lt "$n" ] && [ $# -ge 2 ]; do
		hosts="$hosts $(hctl_host "$1")"
		shift 2
		i=$((i + 1))
	done
	expect_eq "$(echo "$hosts" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')" \
		"$(bds_host $g) " "table group $g: all members on the host of controller $g"
	g=$((g + 1))
done

bds_order_vars $V
log "order $ORDER"
expect_eq "$NPOS" "$N" "positions in the order"
expect_eq "$(counters)" "0 0 0 0 0 0 0 0" "counters start at zero"

# --- stripe-aligned fio I/O ------------------------------------------------------------

STRIPES=8
O=$((2 * W))          # sectors
X=$((STRIPES * W))    # sectors
before=$(counters)
fio_io write $((O * 512)) $((X * 512)) $((2 * W * 512))
d=$(bds_vec_sub "$(counters)" "$before")
log "aligned write of $((X * 512)) bytes: $d"
# shellcheck disable=SC2086
set -- $d
expect_eq "$(($4 + $8))" "$X" "written sectors over the groups = X/512"
expect_eq "$4" $((X * GSZ_0 / N)) "group 0 sectors written = X/512 * 3/5"
expect_eq "$8" $((X * GSZ_1 / N)) "group 1 sectors written = X/512 * 2/5"
expect_eq "$2" $((STRIPES / 2 * GSZ_0)) "group 0 writes = one per request and member"
expect_eq "$6" $((STRIPES / 2 * GSZ_1)) "group 1 writes = one per request and member"
expect_eq "$1 $3 $5 $7" "0 0 0 0" "no reads counted for the write"
expect_eq "$d" "$(model w $O $((O + X)) $((2 * W)))" "aligned write: model"

before=$(counters)
fio_io read $((O * 512)) $((X * 512)) $((W * 512))
d=$(bds_vec_sub "$(counters)" "$before")
log "aligned read of $((X * 512)) bytes: $d"
# shellcheck disable=SC2086
set -- $d
expect_eq "$(($3 + $7))" "$X" "read sectors over the groups = X/512"
expect_eq "$3" $((X * GSZ_0 / N)) "group 0 sectors read = X/512 * 3/5"
expect_eq "$7" $((X * GSZ_1 / N)) "group 1 sectors read = X/512 * 2/5"
expect_eq "$1" $((STRIPES * GSZ_0)) "group 0 reads = one per request and member"
expect_eq "$5" $((STRIPES * GSZ_1)) "group 1 reads = one per request and member"
expect_eq "$2 $4 $6 $8" "0 0 0 0" "no writes counted for the read"
expect_eq "$d" "$(model r $O $((O + X)) $W)" "aligned read: model"

# --- single requests not aligned to the stripe unit ----------------------------------

# RW START COUNT (sectors); each is one O_DIRECT pread/pwrite of < 1 MiB.
for op in \
	"w $((7 * CHUNK + 37)) $((9 * CHUNK + 91))" \
	"w $((50 * CHUNK + 120)) 16" \
	"w $((61 * CHUNK + 3)) 5" \
	"r $((30 * CHUNK + 5)) $((4 * CHUNK + 250))" \
	"r $((7 * CHUNK + 100)) $((2 * W))" \
	"r $((63 * CHUNK + 127)) 1"; do
	# shellcheck disable=SC2086
	set -- $op
	if [ "$1" = w ]; then
		cmd="pwrite -q -b $(($3 * 512)) $(($2 * 512)) $(($3 * 512))"
	else
		cmd="pread -q -b $(($3 * 512)) $(($2 * 512)) $(($3 * 512))"
	fi
	before=$(counters)
	run xfs_io -d -c "$cmd" $DMV
	expect_eq "$(bds_vec_sub "$(counters)" "$before")" "$(model "$1" "$2" $(($2 + $3)))" \
		"$1 [$2, $(($2 + $3))): per-group counters = model"
done

bds_dm_remove $V
run rmmod dm_bds_stripe
pass "per-group counters match the I/O"
