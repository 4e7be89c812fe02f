#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every malformed or impossible bds-stripe table is refused with its own
# reason from the doc's Errors table, and a refusal leaves nothing behind.
# For each of a corpus of refused tables (bad numbers, counts that disagree
# with the words, bad optional words, chunk/width/group/member limits,
# lengths, too-small, duplicate and missing members, "volume" words,
# "weights" words and their limits, and
# "volume" over members without a label):
#  - `dmsetup create` fails and leaves no dm device;
#  - the kernel log holds exactly one "table: <dev>: bds-stripe: <reason>"
#    line, with exactly the expected reason (for member errors, preceded by
#    the line naming the member and device);
#  - dm core does not report a missing dm_put_device, the module holds no
#    reference and no member has a holder.
# At the end every member can be opened exclusively (O_EXCL, checked to be
# refused while a volume holds the member) and used by a linear device, and
# the module unloads.
#
# Members with large logical blocks: a scsi_debug disk with 4 KiB blocks
# refuses an offset that is not a multiple of 8 sectors ("Member offset is
# not a multiple of the member's logical block size") and takes an aligned
# one; "Chunk size is not a multiple of a member's logical block size"
# needs blocks larger than 4 KiB (every valid chunk is a multiple of
# 4 KiB): it is checked with a null_blk of 16 KiB blocks where the kernel
# makes one; 6.1, 6.12 and 7.2 clamp null_blk's bs to 4 KiB, so there the
# log says the case was not reachable.
#
# topology: ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1 7.2

# shellcheck disable=SC1091
. /bds/guest-lib.sh

NCASES=0
REFCNT=/sys/module/dm_bds_stripe/refcnt

# shellcheck disable=SC2046
set -- $(bds_all_members)
[ $# -eq 4 ] || fail "expected 4 members, found $#: $*"
m0=$1 m1=$2 m2=$3 m3=$4
mm0=$(bds_majmin "$m0")
mm1=$(bds_majmin "$m1")
mm2=$(bds_majmin "$m2")
D=$(bds_sectors "$m0")		# sectors per member (all the same size)
for m in "$m1" "$m2" "$m3"; do
	[ "$(bds_sectors "$m")" = "$D" ] || fail "members differ in size"
done
log "members $m0 $m1 $m2 $m3 ($mm0 $mm1 $mm2 $(bds_majmin "$m3")), $D sectors each"

# holders_empty PATH: no device holds PATH (/sys/block/<dev>/holders/).
holders_empty() {
	for _h in "/sys/block/$(bds_dev "$1")/holders/"*; do
		[ -e "$_h" ] || [ -L "$_h" ] && return 1
	done
	return 0
}

# excl_open PATH: PATH can be opened with O_EXCL (busybox blkdiscard opens
# O_RDWR|O_EXCL; it discards one 4 KiB block).
excl_open() {
	blkdiscard -o 0 -l 4096 "$1"
}

# no_device NAME: device-mapper knows no device NAME.
no_device() {
	! dmsetup info "$1" >/dev/null 2>&1
}

# repeat COUNT WORDS: WORDS COUNT times.
repeat() {
	_r=""
	_i=0
	while [ "$_i" -lt "$1" ]; do
		_r="$_r $2"
		_i=$((_i + 1))
	done
	echo "${_r# }"
}

# Holder directories of the members, looked up once (the per-case checks
# below avoid forks: the corpus is long and the guest is emulated).
HOLDERS=""
for m in "$m0" "$m1" "$m2" "$m3"; do
	HOLDERS="$HOLDERS /sys/block/$(bds_dev "$m")/holders"
done

# kernel_says MARK: the kernel messages after bds_mark MARK, digested to
#   R <reason>   per "device-mapper: table: <dev>: bds-stripe: <reason>"
#                line (errno suffix " (-Exxx)" dropped)
#   P <line>     the line just before each such line
#   C <reason>   per other "device-mapper: table: <dev>: <reason>" line
#   X <line>     per line reporting a missing dm_put_device
kernel_says() {
	dmesg | awk -v mark="bds-mark: $1" '
		!on {
			n = length($0) - length(mark)
			if (n >= 0 && substr($0, n + 1) == mark)
				on = 1
			next
		}
		{ sub(/^\[[^]]*\] */, "") }
		/^device-mapper: table: [^ ]*: bds-stripe: / {
			r = $0
			sub(/^device-mapper: table: [^ ]*: bds-stripe: /, "", r)
			sub(/ \(-E[A-Z0-9]*\)$/, "", r)
			print "R " r
			print "P " prev
		}
		/^device-mapper: table: [^ ]*: / && !/: bds-stripe: / {
			r = $0
			sub(/^device-mapper: table: [^ ]*: /, "", r)
			sub(/ \(-E[A-Z0-9]*\)$/, "", r)
			print "C " r
		}
		/dm_put_device call missing/ { print "X " $0 }
		{ prev = $0 }'
}

# refuse DESC REASON TABLE [DETAIL]
#   REASON  the expected bds-stripe reason, exactly; "core: MSG" for a table
#           that device-mapper itself refuses before the target sees it
#   DETAIL  the expected "device-mapper: bds-stripe: DETAIL" line just
#           before the reason (member errors)
refuse() {
	desc=$1 reason=$2 table=$3 detail=${4:-}
	NCASES=$((NCASES + 1))
	tag="refuse-$NCASES"
	log "--- case $NCASES: $desc"
	bds_mark "$tag"
	if echo "$table" | dmsetup create bdsbad 2>/tmp/rf.err; then
		check "$desc: refused" false
		bds_dm_remove bdsbad
	else
		read -r err </tmp/rf.err
		BDS_CHECKS=$((BDS_CHECKS + 1))
		echo "bds: ok: $desc: refused ($err)"
	fi
	check "$desc: no device left" no_device bdsbad

	kernel_says "$tag" >/tmp/rf.out
	got="" core="" prev="" missing=""
	while IFS= read -r line; do
		case "$line" in
		"R "*) got="$got${got:+ | }${line#R }" ;;
		"C "*) core="$core${core:+ | }${line#C }" ;;
		"P "*) prev=${line#P } ;;
		"X "*) missing="$missing${line#X } " ;;
		esac
	done </tmp/rf.out
	case "$reason" in
	core:*)
		expect_eq "$got" "" "$desc: no bds-stripe reason"
		expect_eq "$core" "${reason#core: }" "$desc: device-mapper reason"
		;;
	*)
		expect_eq "$got" "$reason" "$desc: reason"
		;;
	esac
	if [ -n "$detail" ]; then
		expect_eq "${prev#device-mapper: bds-stripe: }" "$detail" "$desc: member named before the reason"
	fi
	expect_eq "$missing" "" "$desc: every member opened was put again"

	read -r refs <"$REFCNT"
	expect_eq "$refs" 0 "$desc: no module reference left"
	for _d in $HOLDERS; do
		for _h in "$_d"/*; do
			if [ -e "$_h" ] || [ -L "$_h" ]; then
				check "$desc: no holder of ${_d%/holders} ($_h)" false
			fi
		done
	done
}

bds_load_module

# Tables below use chunk 128 unless the case is about the chunk, and a
# length of a few stripes.  B = "bds-stripe".
B=bds-stripe
G2="2 $m0 0 $m1 0"		# a valid group of two
L2=$((128 * 2 * 4))		# 4 stripes of 2 x 128

# --- words missing ------------------------------------------------------------------
R="Not enough arguments: expected <chunk_sectors> <#groups> <group>..."
refuse "no arguments" "$R" "0 $L2 $B"
refuse "chunk only" "$R" "0 $L2 $B 128"

# --- chunk: not a plain decimal ---------------------------------------------------------
R="Invalid chunk size: not an unsigned decimal number of sectors"
refuse "chunk non-numeric" "$R" "0 $L2 $B abc 1 $G2"
refuse "chunk negative" "$R" "0 $L2 $B -128 1 $G2"
refuse "chunk with plus sign" "$R" "0 $L2 $B +128 1 $G2"
refuse "chunk hex" "$R" "0 $L2 $B 0x80 1 $G2"
refuse "chunk 1e3" "$R" "0 $L2 $B 1e3 1 $G2"
refuse "chunk trailing junk" "$R" "0 $L2 $B 128k 1 $G2"
refuse "chunk 2^64" "$R" "0 $L2 $B 18446744073709551616 1 $G2"

# --- #groups: not a plain decimal ---------------------------------------------------------
R="Invalid number of groups: not an unsigned decimal number"
refuse "#groups non-numeric" "$R" "0 $L2 $B 128 one $G2"
refuse "#groups negative" "$R" "0 $L2 $B 128 -1 $G2"
refuse "#groups hex" "$R" "0 $L2 $B 128 0x1 $G2"
refuse "#groups trailing junk" "$R" "0 $L2 $B 128 1x $G2"
refuse "#groups 2^64 + 1" "$R" "0 $L2 $B 128 18446744073709551617 $G2"

# --- #devs: not a plain decimal ------------------------------------------------------------
R="Invalid #devs of a group: not an unsigned decimal number"
refuse "#devs non-numeric" "$R" "0 $L2 $B 128 1 two $m0 0 $m1 0"
refuse "#devs negative" "$R" "0 $L2 $B 128 1 -2 $m0 0 $m1 0"
refuse "#devs hex" "$R" "0 $L2 $B 128 1 0x2 $m0 0 $m1 0"
refuse "#devs of the second group 1e0" "$R" "0 $L2 $B 128 2 1 $m0 0 1e0 $m1 0"

# --- offset: not a plain decimal ----------------------------------------------------------
R="Invalid member offset: not an unsigned decimal number of sectors"
refuse "offset non-numeric" "$R" "0 $L2 $B 128 1 2 $m0 zero $m1 0"
refuse "offset negative" "$R" "0 $L2 $B 128 1 2 $m0 -8 $m1 0"
refuse "offset hex" "$R" "0 $L2 $B 128 1 2 $m0 0 $m1 0x10"
refuse "offset trailing junk" "$R" "0 $L2 $B 128 1 2 $m0 8s $m1 0"
refuse "offset 2^64" "$R" "0 $L2 $B 128 1 2 $m0 18446744073709551616 $m1 0"
refuse "offset in the second group 1e3" "$R" "0 $L2 $B 128 2 1 $m0 0 1 $m1 1e3"

# --- counts against the words ---------------------------------------------------------------
R="Not enough arguments: fewer groups than <#groups> says"
refuse "#groups 2, one group" "$R" "0 $L2 $B 128 2 $G2"
refuse "#groups 3, two groups" "$R" "0 $((128 * 3 * 4)) $B 128 3 1 $m0 0 2 $m1 0 $m2 0"

R="Not enough arguments: a group lists fewer members than its #devs says"
refuse "#devs 3, two members" "$R" "0 $L2 $B 128 1 3 $m0 0 $m1 0"
refuse "last offset missing" "$R" "0 $L2 $B 128 1 2 $m0 0 $m1"
refuse "second group short" "$R" "0 $L2 $B 128 2 1 $m0 0 2 $m1 0"
refuse "#devs 127, two members" "$R" "0 $L2 $B 128 1 127 $m0 0 $m1 0"

# --- optional arguments ----------------------------------------------------------------------------
R="Invalid number of optional arguments: not an unsigned decimal number"
refuse "extra word after the groups" "$R" "0 $L2 $B 128 1 $G2 extra"
refuse "#opt_args hex" "$R" "0 $L2 $B 128 1 $G2 0x2 layout sequential"
refuse "#opt_args negative" "$R" "0 $L2 $B 128 1 $G2 -2 layout sequential"

R="Not enough optional arguments: fewer words than <#opt_args> says"
refuse "#opt_args 3 for two words" "$R" "0 $L2 $B 128 1 $G2 3 layout sequential"
refuse "#opt_args 2 for one word" "$R" "0 $L2 $B 128 1 $G2 2 layout"

R="Unexpected words after the optional arguments"
refuse "#opt_args 1 for two words" "$R" "0 $L2 $B 128 1 $G2 1 layout sequential"
refuse "#opt_args 0 for two words" "$R" "0 $L2 $B 128 1 $G2 0 layout sequential"
refuse "a word after the optional arguments" "$R" "0 $L2 $B 128 1 $G2 2 layout sequential extra"

refuse "1 layout" "Optional argument 'layout' needs a value: interleave or sequential" \
	"0 $L2 $B 128 1 $G2 1 layout"
refuse "2 layout diagonal" "Invalid layout: accepted values are interleave and sequential" \
	"0 $L2 $B 128 1 $G2 2 layout diagonal"
R="Unknown optional argument: accepted are 'layout <interleave|sequential>', 'volume <uuid>', 'weights <w0,w1,...>' and 'reshape ...'"
refuse "2 foo bar" "$R" "0 $L2 $B 128 1 $G2 2 foo bar"
refuse "2 sequential layout" "$R" "0 $L2 $B 128 1 $G2 2 sequential layout"
R="Optional argument 'layout' given more than once"
refuse "layout sequential, layout interleave" "$R" \
	"0 $L2 $B 128 1 $G2 4 layout sequential layout interleave"
refuse "layout given twice, same value" "$R" \
	"0 $L2 $B 128 1 $G2 4 layout sequential LAYOUT sequential"

U=10111213-1415-4617-9819-1a1b1c1d1e1f
refuse "1 volume" "Optional argument 'volume' needs a value: the volume's UUID" \
	"0 $L2 $B 128 1 $G2 1 volume"
R="Invalid volume UUID: expected 8-4-4-4-12 hex digits, not all zero"
refuse "volume UUID one digit short" "$R" "0 $L2 $B 128 1 $G2 2 volume ${U%?}"
refuse "volume UUID without dashes" "$R" "0 $L2 $B 128 1 $G2 2 volume 101112131415461798191a1b1c1d1e1f"
refuse "volume UUID all zero" "$R" "0 $L2 $B 128 1 $G2 2 volume 00000000-0000-0000-0000-000000000000"
refuse "volume given twice" "Optional argument 'volume' given more than once" \
	"0 $L2 $B 128 1 $G2 4 volume $U VOLUME $U"
# The members carry no label: the check reads them and refuses at member 0.
refuse "volume over unlabelled members" "Member has no valid bds-stripe label" \
	"0 $L2 $B 128 1 $G2 2 volume $U" \
	"member 0 ($mm0): no valid label: primary: no bds-stripe label (magic); backup: no bds-stripe label (magic)"

# --- weights ------------------------------------------------------------------------------------------
refuse "1 weights" "Optional argument 'weights' needs a value: one weight per member, comma-separated" \
	"0 $L2 $B 128 1 $G2 1 weights"
refuse "weights given twice" "Optional argument 'weights' given more than once" \
	"0 $L2 $B 128 1 $G2 4 weights 1,2 WEIGHTS 1,2"
R="Invalid weights: expected unsigned decimal numbers separated by single commas"
refuse "weights 1,,2" "$R" "0 $L2 $B 128 1 $G2 2 weights 1,,2"
refuse "weights 1,2," "$R" "0 $L2 $B 128 1 $G2 2 weights 1,2,"
refuse "weights -1,2" "$R" "0 $L2 $B 128 1 $G2 2 weights -1,2"
refuse "weights 0x2,1" "$R" "0 $L2 $B 128 1 $G2 2 weights 0x2,1"
R="Invalid weights: the list must give exactly one weight per member"
refuse "one weight for two members" "$R" "0 $L2 $B 128 1 $G2 2 weights 2"
refuse "three weights for two members" "$R" "0 $L2 $B 128 1 $G2 2 weights 2,1,1"
R="Invalid weight: each member's weight must be 1 to 255"
refuse "weight 0" "$R" "0 $L2 $B 128 1 $G2 2 weights 0,1"
refuse "weight 256" "$R" "0 $L2 $B 128 1 $G2 2 weights 1,256"
refuse "weight 2^64 + 1" "$R" "0 $L2 $B 128 1 $G2 2 weights 1,18446744073709551617"
refuse "weights 255 x 4 + 5 over 5 members" "Weights too large: their sum must be at most 1024" \
	"0 $((128 * 1025)) $B 128 2 $G2 3 $m2 0 $m3 0 $m0 8 2 weights 255,255,255,255,5"
refuse "weights with layout sequential" \
	"Weights need layout interleave: sequential gives equal shares" \
	"0 $((128 * 3 * 4)) $B 128 1 $G2 4 layout sequential weights 2,1"
refuse "chunk 4194304 x weight 2 on one member" \
	"Weighted cycle too large: chunk x sum of weights in bytes exceeds 32 bits" \
	"0 $((4194304 * 2)) $B 4194304 1 1 $m0 0 2 weights 2"
R="Target length is not a multiple of the cycle (chunk x sum of weights)"
refuse "weights 2,1: length of 4 stripes, not whole cycles" "$R" \
	"0 $L2 $B 128 1 $G2 2 weights 2,1"
refuse "weights 3,1: length of 1 cycle and a unit" "$R" \
	"0 $((128 * 5)) $B 128 1 $G2 2 weights 3,1"

# --- chunk values ------------------------------------------------------------------------------------
refuse "chunk 0" "Invalid chunk size: must be greater than 0" "0 $L2 $B 0 1 $G2"
R="Invalid chunk size: must be a multiple of 8 sectors (4 KiB)"
refuse "chunk 12" "$R" "0 $((12 * 2 * 4)) $B 12 1 $G2"
refuse "chunk 4" "$R" "0 $((4 * 2 * 4)) $B 4 1 $G2"
refuse "chunk 8388607" "$R" "0 $((8388607 * 2)) $B 8388607 1 $G2"
R="Invalid chunk size: stripe unit in bytes exceeds 32 bits"
refuse "chunk 8388608" "$R" "0 $((8388608 * 2)) $B 8388608 1 $G2"
refuse "chunk 8388616" "$R" "0 $((8388616 * 2)) $B 8388616 1 $G2"
refuse "chunk 2^64 - 8" "$R" "0 $L2 $B 18446744073709551608 1 $G2"

# --- stripe width ---------------------------------------------------------------------------------------
R="Stripe width too large: chunk x members in bytes exceeds 32 bits"
refuse "chunk 8388600 x 2 members" "$R" "0 $((8388600 * 2)) $B 8388600 1 $G2"
refuse "chunk 2097152 x 4 members (width 2^32)" "$R" \
	"0 $((2097152 * 4)) $B 2097152 2 $G2 2 $m2 0 $m3 0"
refuse "chunk 1048576 x 8 members" "$R" \
	"0 $((1048576 * 8)) $B 1048576 2 4 $m0 0 $m1 0 $m2 0 $m3 0 4 $m0 8 $m1 8 $m2 8 $m3 8"

# --- groups -------------------------------------------------------------------------------------------------
R="Invalid number of groups: must be at least 1"
refuse "0 groups" "$R" "0 $L2 $B 128 0"
refuse "0 groups, followed by a group" "$R" "0 $L2 $B 128 0 $G2"
R="Invalid number of groups: at most 32 are supported"
refuse "33 groups of 1" "$R" \
	"0 $((128 * 33)) $B 128 33 $(repeat 8 "1 $m0 0 1 $m1 0 1 $m2 0 1 $m3 0") 1 $m0 8"
refuse "33 groups, no words" "$R" "0 $L2 $B 128 33"
refuse "2^64 - 1 groups" "$R" "0 $L2 $B 128 18446744073709551615 $G2"
R="Invalid group: #devs must be at least 1"
refuse "#devs 0" "$R" "0 $L2 $B 128 1 0"
refuse "#devs 0 in the second group" "$R" "0 $L2 $B 128 2 $G2 0 1 $m2 0"

# --- member count -----------------------------------------------------------------------------------------------
R="Too many members: at most 128 are supported"
refuse "200 members in one group" "$R" \
	"0 $((128 * 200)) $B 128 1 200 $(repeat 50 "$m0 0 $m1 0 $m2 0 $m3 0")"
refuse "129 members in one group" "$R" \
	"0 $((128 * 129)) $B 128 1 129 $(repeat 32 "$m0 0 $m1 0 $m2 0 $m3 0") $m0 8"
refuse "64 + 65 members" "$R" \
	"0 $((128 * 129)) $B 128 2 64 $(repeat 16 "$m0 0 $m1 0 $m2 0 $m3 0") 65 $(repeat 16 "$m0 0 $m1 0 $m2 0 $m3 0") $m0 8"
refuse "32 groups of 4, plus 1" "$R" \
	"0 $((128 * 129)) $B 128 32 $(repeat 31 "4 $m0 0 $m1 0 $m2 0 $m3 0") 5 $m0 0 $m1 0 $m2 0 $m3 0 $m0 8"
# 128 members pass the count; the first repeated one is refused (which
# shows both that 128 is allowed and that the devices opened are put).
refuse "128 members, 4 distinct" "Member device listed more than once" \
	"0 $((128 * 128)) $B 128 32 $(repeat 32 "4 $m0 0 $m1 0 $m2 0 $m3 0")" \
	"members 0 and 4 are both $mm0"

# --- length ------------------------------------------------------------------------------------------------------------
R="Target length is not a multiple of the stripe width (chunk x members)"
refuse "length 1000, chunk 128" "$R" "0 1000 $B 128 1 1 $m0 0"
refuse "length 3 chunks, 2 members" "$R" "0 384 $B 128 1 $G2"
refuse "length 2 chunks, 4 members" "$R" "0 256 $B 128 2 $G2 2 $m2 0 $m3 0"
refuse "length 0" "core: zero-length target" "0 0 $B 128 1 $G2"

# --- members: size -------------------------------------------------------------------------------------------------------
R="Member device too small for offset + its share of the length"
refuse "second member offset 8 past the end" "$R" \
	"0 $((2 * D)) $B 128 1 2 $m0 0 $m1 8" \
	"member 1 ($mm1): needs 8 + $D sectors, has $D"
refuse "length / 1 one chunk beyond the disk" "$R" \
	"0 $((D + 128)) $B 128 1 1 $m0 0" \
	"member 0 ($mm0): needs 0 + $((D + 128)) sectors, has $D"
refuse "offset beyond the disk" "$R" \
	"0 $L2 $B 128 2 1 $m0 0 1 $m1 $((2 * D))" \
	"member 1 ($mm1): needs $((2 * D)) + 512 sectors, has $D"
refuse "offset at the end of the disk" "$R" \
	"0 $L2 $B 128 1 2 $m0 $D $m1 0" \
	"member 0 ($mm0): needs $D + 512 sectors, has $D"
refuse "chunk 8388600 (allowed) on one 1 GiB member" "$R" \
	"0 8388600 $B 8388600 1 1 $m0 0" \
	"member 0 ($mm0): needs 0 + 8388600 sectors, has $D"
# With weights 3,1 member 0 holds 3/4 of the length: its share, not a quarter.
W31=$(((D / 128 / 3) * 128 * 4))
refuse "weights 3,1: member 0 too small for its 3/4 share" "$R" \
	"0 $((W31 + 512)) $B 128 1 $G2 2 weights 3,1" \
	"member 0 ($mm0): needs 0 + $(((W31 + 512) / 4 * 3)) sectors, has $D"
log "not covered: misaligned offset (512-byte logical blocks: every offset is aligned)"

# --- members: duplicates ------------------------------------------------------------------------------------------------
R="Member device listed more than once"
refuse "same path twice" "$R" "0 $L2 $B 128 1 2 $m0 0 $m0 2048" \
	"members 0 and 1 are both $mm0"
refuse "same device by path and by major:minor" "$R" \
	"0 $L2 $B 128 1 2 $m1 0 $mm1 2048" "members 0 and 1 are both $mm1"
refuse "same device by kernel name and by /dev/bds link" "$R" \
	"0 $L2 $B 128 2 1 /dev/$(bds_dev "$m2") 0 1 $m2 4096" \
	"members 0 and 1 are both $mm2"
refuse "duplicate in another group" "$R" \
	"0 $((128 * 4 * 4)) $B 128 2 $G2 2 $m2 0 $m1 8" \
	"members 1 and 3 are both $mm1"

# --- members: lookup ------------------------------------------------------------------------------------------------------
R="Member device lookup failed"
refuse "nonexistent path" "$R" "0 $L2 $B 128 1 2 /dev/nonexistent 0 $m1 0" \
	"member 0: cannot open device /dev/nonexistent"
refuse "nonexistent path after two members" "$R" \
	"0 $((128 * 3 * 4)) $B 128 2 $G2 1 /dev/bds/nonexistent 0" \
	"member 2: cannot open device /dev/bds/nonexistent"
refuse "not a block device" "$R" "0 $L2 $B 128 2 1 $m0 0 1 /dev/null 0" \
	"member 1: cannot open device /dev/null"
refuse "no such major:minor" "$R" \
	"0 $((128 * 4 * 4)) $B 128 2 $G2 2 $m2 0 8:255 0" \
	"member 3: cannot open device 8:255"

# --- members with logical blocks larger than 512 bytes ----------------------------------
# first_disk GLOB: the name of the first disk matching a sysfs glob (waits).
first_disk() {
	_i=0
	while [ "$_i" -lt 50 ]; do
		for _b in $1; do
			[ -e "$_b" ] && { basename "$_b"; return 0; }
		done
		sleep 0.2
		_i=$((_i + 1))
	done
	return 1
}
run modprobe scsi_debug sector_size=4096 dev_size_mb=16
sd=$(first_disk "/sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*") ||
	fail "no scsi_debug disk"
expect_eq "$(cat /sys/block/$sd/queue/logical_block_size)" 4096 "$sd has 4 KiB logical blocks"
HOLDERS="$HOLDERS /sys/block/$sd/holders"
mmsd=$(cat /sys/block/$sd/dev)
R="Member offset is not a multiple of the member's logical block size"
refuse "offset not a multiple of a member's 4 KiB blocks" "$R" \
	"0 $L2 $B 128 2 1 /dev/$sd 4 1 $m1 0" \
	"member 0 ($mmsd): offset 4, logical block size 8 sectors"
bds_dm_create bds4k "0 $L2 $B 128 2 1 /dev/$sd 8 1 $m1 0"
expect_eq "$(dmsetup table bds4k)" "0 $L2 $B 128 2 1 $mmsd 8 1 $mm1 0" \
	"an aligned offset on the 4 KiB member is taken"
bds_dm_remove bds4k

if modprobe null_blk nr_devices=1 gb=1 bs=16384 2>/dev/null &&
	[ "$(cat /sys/block/nullb0/queue/logical_block_size 2>/dev/null)" = 16384 ]; then
	HOLDERS="$HOLDERS /sys/block/nullb0/holders"
	mmnb=$(cat /sys/block/nullb0/dev)
	R="Chunk size is not a multiple of a member's logical block size"
	refuse "chunk 8 sectors on a member with 16 KiB blocks" "$R" \
		"0 $((8 * 2 * 4)) $B 8 2 1 /dev/nullb0 0 1 $m1 0" \
		"member 0 ($mmnb): logical block size 32 sectors"
else
	log "no null_blk with 16 KiB blocks on this kernel: chunk-vs-block refusal not reachable"
fi

log "$NCASES refused tables checked"

# --- nothing left open -------------------------------------------------------------------------------------------------------
# The O_EXCL probe does see an open member: refused under a live volume.
bds_dm_create bdsgood "0 $((128 * 4 * 4)) $B 128 2 $G2 2 $m2 0 $m3 0"
check "a live volume is a holder of $m0" sh -c "[ -n \"\$(ls /sys/block/$(bds_dev "$m0")/holders/)\" ]"
check "O_EXCL open of $m0 is refused under a live volume" sh -c "! blkdiscard -o 0 -l 4096 $m0"
bds_dm_remove bdsgood

for m in "$m0" "$m1" "$m2" "$m3"; do
	check "$m has no holder" holders_empty "$m"
	check "$m can be opened exclusively" excl_open "$m"
	bds_dm_create bdslin "0 $D linear $(bds_majmin "$m") 0"
	bds_dm_remove bdslin
done
expect_eq "$(dmsetup ls 2>&1)" "No devices found" "no dm devices left"
expect_eq "$(cat "$REFCNT")" 0 "module refcount 0"
run rmmod dm_bds_stripe
pass "$NCASES refused tables, each with its reason, nothing left open"
