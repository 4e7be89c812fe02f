#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A table with the maximum of 128 members (members given by long
# /dev/mapper paths) is reported whole: nothing truncated, nothing
# overflowed.
#
# Members: 128 dm "linear" slices of 16 MiB (32 per disk of 4 disks),
# each named with a 95-character name, made by one `dmsetup create
# --concise`; the volume: 4 KiB unit, 32 groups
# alternating 2 and 6 members, member i at offset 8 x i sectors.
#   - `dmsetup table` prints exactly the canonical table (major:minor and
#     offsets of all 128 members, group sizes, no optional words), and
#     feeding it back to `dmsetup create` gives the same table;
#   - `dmsetup status`: 128, a health string of 128 A, the layout word,
#     an order that is a permutation of 0..127, 32 groups, 32 x 4
#     counters and (field 7, target 1.3.0) 128 error counts, all 0
#     (5 + 128 + 1 words after the target name in all);
#   - one stripe width written and read with O_DIRECT (one 4 KiB piece per
#     member): every group's counters are exactly reads = writes = its
#     member count, sectors = 8 x that;
#   - member 77 switched to the "error" target: reading its unit fails,
#     the health string has its only D at index 77, still 128 long, and
#     the error counts are still 128, count 77 at least 1 and all others 0;
#   - the IMA measurement (booted with ima_policy=critical_data and the
#     ima-buf template), when the guest kernel offers it: the dm_table_load
#     record of the volume carries target_name=bds-stripe and
#     member_count=128, and its target data is the complete
#     STATUSTYPE_IMA string (dm-ima keeps at most 2047 bytes of a target's
#     data; the per-list format keeps 128 members within that);
#   - everything removes, the disks have no holders, the module unloads.
#
# topology: size=1G backing=file ctl=2 ctl=2
# timeout: 300
# memory: 1024
# append: ima_policy=critical_data ima_template=ima-buf
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=wide
DM=/dev/mapper/$VOL
CHUNK=8
N=128
SLICE=32768			# sectors per linear slice (16 MiB)
MLEN=31744			# sectors per member in the volume (31 x 1024)
PAD=$(printf '%090d' 0 | tr 0 x)

bds_load_module

# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
DISKS="$*"

# --- 128 linear slices ---------------------------------------------------------
# All in one `dmsetup create --concise` (one process, not 128).
i=0 concise=""
for d in "$@"; do
	mm=$(bds_majmin "$d")
	j=0
	while [ "$j" -lt 32 ]; do
		name=$(printf 'm%03d-%s' "$i" "$PAD")
		concise="$concise${concise:+;}$name,,,rw,0 $SLICE linear $mm $((j * SLICE))"
		eval "P$i=/dev/mapper/$name"
		i=$((i + 1))
		j=$((j + 1))
	done
done
dmsetup create --concise "$concise" || fail "cannot create the 128 slices"
log "128 slices, names of ${#name} characters"
dmsetup info -c --noheadings -o name,major,minor --separator ' ' >/tmp/slices
while read -r name maj min; do
	case "$name" in
	m[0-9][0-9][0-9]-*) i=${name%%-*}; i=${i#m} ;;
	*) continue ;;
	esac
	eval "MM$((1$i - 1000))=$maj:$min"
done </tmp/slices
[ -n "${MM127:-}" ] || fail "slices missing: $(wc -l </tmp/slices) dm devices"

# The table by path, and the canonical form dm must print.
in="0 $((MLEN * N)) bds-stripe $CHUNK 32"
want="$CHUNK 32"
g=0 i=0
while [ "$g" -lt 32 ]; do
	n=$((g % 2 ? 6 : 2))
	in="$in $n" want="$want $n"
	k=0
	while [ "$k" -lt "$n" ]; do
		eval "p=\$P$i mm=\$MM$i"
		# shellcheck disable=SC2154 # set by the eval above
		in="$in $p $((8 * i))"
		want="$want $mm $((8 * i))"
		eval "GSIZE$g=$n"
		i=$((i + 1))
		k=$((k + 1))
	done
	g=$((g + 1))
done
[ "$i" = $N ] || fail "built $i members, not $N"
log "table given: ${#in} characters"
echo "$in" | dmsetup create $VOL || fail "dmsetup create $VOL failed"

# --- table ------------------------------------------------------------------------
got=$(dmsetup table $VOL)
expect_eq "$got" "0 $((MLEN * N)) bds-stripe $want" "dmsetup table is the canonical table"
log "dmsetup table: ${#got} characters"
echo "$got" | dmsetup create ${VOL}2 || fail "cannot create a volume from dmsetup table's output"
expect_eq "$(dmsetup table ${VOL}2)" "$got" "the table round-trips"
bds_dm_remove ${VOL}2

# --- status -------------------------------------------------------------------------
st=$(dmsetup status $VOL)
log "dmsetup status: ${#st} characters"
# shellcheck disable=SC2086
set -- $st
expect_eq "$#" $((3 + 5 + 4 * 32 + 1)) "status words"
expect_eq "$4" $N "member count"
expect_eq "${#5}" $N "health string length"
expect_eq "$(echo "$5" | tr -d A)" "" "health string all A"
expect_eq "$6" interleave "layout"
expect_eq "$(echo "$7" | tr , '\n' | sort -n | uniq | tr '\n' ' ')" \
	"$(seq 0 $((N - 1)) | tr '\n' ' ')" "order is a permutation of 0..127"
expect_eq "$8" 32 "groups"
# field 7, the last word (empty if there is no such word)
cnt=$(echo "$st" | awk -v nf=$((3 + 5 + 4 * 32 + 1)) 'NF == nf { print $NF }')
expect_eq "$(echo "$cnt" | tr , '\n' | grep -c .)" $N "error counts (field 7): one per member"
expect_eq "$(echo "${cnt:-none}" | tr -d 0,)" "" "error counts all 0"

# --- counters: one stripe width written, then read ---------------------------------------
head -c $((CHUNK * 512 * N)) /dev/urandom >/tmp/w
run dd if=/tmp/w of=$DM bs=$((CHUNK * 512 * N)) count=1 oflag=direct status=none
dd if=$DM of=/tmp/r bs=$((CHUNK * 512 * N)) count=1 iflag=direct status=none
check "one stripe width reads back" cmp -s /tmp/w /tmp/r
# shellcheck disable=SC2046
set -- $(dmsetup status $VOL | cut -d' ' -f9-)
g=0 bad=0
while [ "$g" -lt 32 ]; do
	eval "n=\$GSIZE$g"
	if [ "$1 $2 $3 $4" != "$n $n $((8 * n)) $((8 * n))" ]; then
		echo "bds: group $g: counters '$1 $2 $3 $4', expected '$n $n $((8 * n)) $((8 * n))'"
		bad=$((bad + 1))
	fi
	shift 4
	g=$((g + 1))
done
expect_eq "$bad" 0 "groups with wrong counters"

# --- member 77 fails ---------------------------------------------------------------------
name=$(printf 'm%03d-%s' 77 "$PAD")
run dmsetup suspend "$name"
echo "0 $SLICE error" | dmsetup load "$name" || fail "cannot load error on slice 77"
run dmsetup resume "$name"
pos=$(dmsetup status $VOL | cut -d' ' -f7 | tr , '\n' | grep -n '^77$' | cut -d: -f1)
pos=$((pos - 1))
log "member 77 is at stripe position $pos"
if dd if=$DM of=/dev/null bs=4096 skip="$pos" count=1 iflag=direct status=none 2>/dev/null; then
	rc=0
else
	rc=1
fi
check "reading member 77's unit fails" [ "$rc" = 1 ]
h=$(bds_health $VOL)
expect_eq "${#h}" $N "health string length after the failure"
expect_eq "$(echo "$h" | sed -n 's/D.*//p' | tr -d '\n' | wc -c)" 77 "first D at index 77"
expect_eq "$(echo "$h" | tr -d A)" D "exactly one D"
cnt=$(bds_errors $VOL)
log "error counts: $cnt"
expect_eq "$(echo "$cnt" | tr , '\n' | grep -c .)" $N "error counts after the failure: one per member"
e77=$(echo "$cnt" | cut -d, -f78)
check "error count of member 77 is at least 1 (${e77:-none})" [ "${e77:-0}" -ge 1 ]
expect_eq "$(echo "${cnt:-none}" | cut -d, -f1-77,79- | tr -d 0,)" "" "error counts of all other members 0"

# --- IMA -------------------------------------------------------------------------------------
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
IMA=/sys/kernel/security/ima/ascii_runtime_measurements
[ -e $IMA ] || IMA=/sys/kernel/security/integrity/ima/ascii_runtime_measurements
if [ -r $IMA ] && grep -q ' dm_table_load ' $IMA; then
	# Records for the volume (its name appears in the device data).
	grep ' dm_table_load ' $IMA | awk '{ print $NF }' | while read -r hex; do
		echo "$hex" | xxd -r -p
		echo
	done | grep "name=$VOL," | sed -n 1p >/tmp/ima.rec
	log "IMA dm_table_load record of $VOL: $(wc -c </tmp/ima.rec) bytes"
	cut -c1-300 /tmp/ima.rec
	check "IMA record has target_name=bds-stripe" grep -q 'target_name=bds-stripe,' /tmp/ima.rec
	check "IMA record has member_count=128" grep -q ',member_count=128,' /tmp/ima.rec
	# The complete STATUSTYPE_IMA string: one list per key, "+"-joined.
	ver=$(dmsetup targets | sed -n 's/^bds-stripe[[:space:]]*v//p')
	full="target_name=bds-stripe,target_version=$ver,chunk_sectors=$CHUNK,groups=32"
	full="$full,layout=interleave,member_count=$N"
	sizes="" devs="" starts="" health=""
	g=0
	while [ "$g" -lt 32 ]; do
		eval "sizes=\"\$sizes\${sizes:++}\$GSIZE$g\""
		g=$((g + 1))
	done
	i=0
	while [ "$i" -lt $N ]; do
		eval "mm=\$MM$i"
		devs="$devs${devs:++}$mm"
		starts="$starts${starts:++}$((8 * i))"
		health="${health}A"
		i=$((i + 1))
	done
	full="$full,group_sizes=$sizes,member_devices=$devs"
	full="$full,member_physical_starts=$starts,member_health=$health"
	full="$full;"
	tdata=$(sed 's/.*target_index=0,target_begin=0,target_len=[0-9]*,//' /tmp/ima.rec)
	log "target data in the record: ${#tdata} of ${#full} bytes"
	check "IMA target data is at most 2047 bytes" [ "${#tdata}" -le 2047 ]
	check "IMA target data is a prefix of the complete string" \
		[ "${full#"$tdata"}" != "$full" ]
	expect_eq "${#tdata}" "${#full}" "IMA target data is whole (nothing cut)"
else
	log "IMA dm_table_load measurements not available on $BDS_KVER: not checked"
fi

# --- cleanup ----------------------------------------------------------------------------------
bds_dm_remove $VOL
# shellcheck disable=SC2046 # one word per slice
run dmsetup remove $(dmsetup ls | cut -f1 | grep '^m[0-9][0-9][0-9]-')
# shellcheck disable=SC2086
bds_expect_clean $DISKS
pass "128 members: table, status and IMA whole"
