#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bdsadm list and detail report what device-mapper and the labels say.
# Three disks on two controllers (2 + 1) become volume "vol" (bdsadm
# create, 64 KiB unit; bdsadm plan of the same options and disks must
# have given its size, labelled).  Then:
#  - list shows vol active (its UUID is the dm UUID without "BDS-", its
#    size what blockdev says, 3 members, healthy, /dev/mapper/vol), and
#    list --json the same under its documented keys, list -H as one
#    tab-separated line (size in bytes);
#  - detail (of NAME or /dev/mapper/NAME), detail --json and detail
#    --export give each member where `dmsetup table` has it: table
#    index, major:minor, data offset, /dev/sdX (the kernel name of that
#    major:minor), group, the stripe position the status order gives
#    it, the QEMU serial both at creation and now, health ok, error
#    count 0 (status field 7);
#  - 1 MiB written with dd raises detail's written sectors by 2048 over
#    the groups, and detail's counters are those of `dmsetup status`;
#    detail --interval 1 while dd writes shows a write rate;
#  - a member whose SCSI device is set offline fails the writes that
#    reach it: detail and list say "errors on member 1", detail's row of
#    member 1 gives the error count of `dmsetup status` (>= 1), --json
#    gives "error_members": [1] and member 1 "health": "D" with that
#    count, and detail exits 1 (as mdadm --detail --test) for it;
#  - after bdsadm stop, list shows vol not active with 3/3 members
#    present and that assemble would take it (list -H too); after
#    bdsadm wipe of one member 2/3, "no", and assemble's own reason
#    (member 2 is missing), and bdsadm assemble indeed refuses;
#  - every list --json and detail --json above goes to the log as one
#    "bds-json" line (bds_json_log), and make check's vm-json-check
#    holds them against Documentation/bdsadm.schema.json;
#  - a volume with groups 1+2 (stripe order 1,0,2, not the table's)
#    has its members at those positions in detail;
#  - detail refuses (exit 1, saying what to do) a stopped volume, a name
#    that does not exist and a dm device that is not a bdsadm volume;
#    usage errors exit 2.
#
# The three disks are c0d0, c0d1 and c1d0 of the common 2 + 2 topology
# (c1d1 stays unused), whose boot the test shares.
#
# topology: ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

command -v bdsadm >/dev/null || fail "bdsadm not in the guest (run-suite with BDS_VM_ARGS=\"-x tools/bdsadm\")"
bds_load_module
set -- /dev/bds/c0d0 /dev/bds/c0d1 /dev/bds/c1d0
for d in "$@"; do
	[ -b "$d" ] || fail "need 2 + 2 disks: no $d"
done
VOL=vol
L=/tmp/list.txt J=/tmp/list.json D=/tmp/detail.txt DJ=/tmp/detail.json

# has FILE TEXT: FILE holds the fixed string TEXT.
has() { grep -qF -- "$2" "$1"; }
# bdsadm_to FILE ARGS...: bdsadm ARGS, stdout in FILE, stderr in FILE.err,
# exit status in RC.
bdsadm_to() {
	_f=$1
	shift
	bdsadm "$@" >"$_f" 2>"$_f.err"
	RC=$?
	log "bdsadm $* -> $RC"
	cat "$_f" "$_f.err"
}
# json_num FILE LINE-MATCH KEY: the number after "KEY": on the line of
# FILE that contains LINE-MATCH.
json_num() {
	grep -F -- "$2" "$1" >/tmp/json.line || return 1
	sed -n "s/.*\"$3\": \\([0-9.]*\\).*/\\1/p" /tmp/json.line
}

bdsadm plan --chunk 64K "$@" >/tmp/plan.txt 2>&1
expect_eq "$?" 0 "plan: exit status"
cat /tmp/plan.txt
run bdsadm create $VOL --chunk 64K "$@"
U=$(dmsetup info -c --noheadings -o uuid $VOL | sed 's/^BDS-//')
SIZE=$(bds_sectors /dev/mapper/$VOL)
log "volume $VOL: UUID $U, $SIZE sectors; table: $(dmsetup table $VOL)"
# plan says what create makes: the labelled volume's size, not its
# unlabelled table's (its "Usable size", and the first line's length)
expect_eq "$(sed -n 's/^Usable size: *[^(]* (\([0-9]*\) sectors).*/\1/p' /tmp/plan.txt)" \
	"$SIZE" "plan: the usable size is that of the volume bdsadm create makes"
expect_eq "$(sed -n '1s/^0 \([0-9]*\) bds-stripe .*/\1/p' /tmp/plan.txt)" \
	"$SIZE" "plan: its table's length is that of the volume bdsadm create makes"

# --- list, active -------------------------------------------------------------------
bdsadm_to $L list
expect_eq "$RC" 0 "list: exit status"
check "list: vol active, healthy" grep -qE "^  $VOL +$U +[0-9.]+ [KMG]iB +3 +/dev/mapper/$VOL +healthy\$" $L
check "list: vol not among the inactive" has $L "Volumes on disks, not active: none"
bdsadm_to $J list --json
expect_eq "$RC" 0 "list --json: exit status"
check "list --json: vol with its keys" has $J "{\"name\": \"$VOL\", \"uuid\": \"$U\", \"device\": \"/dev/mapper/$VOL\", \"dev\": \"$(bds_majmin /dev/mapper/$VOL)\", \"size_sectors\": $SIZE, \"members\": 3, \"health\": \"AAA\", \"state\": \"healthy\", \"error_members\": [], \"open_count\": 0, \"reason\": null}"
check "list --json: nothing inactive" has $J "\"inactive\": []}"
bds_json_log list $J
TAB=$(printf '\t')
bdsadm_to /tmp/list.H list -H
expect_eq "$RC" 0 "list -H: exit status"
expect_eq "$(cat /tmp/list.H)" \
	"active${TAB}$VOL${TAB}$U${TAB}$((SIZE * 512))${TAB}3${TAB}/dev/mapper/$VOL${TAB}healthy" \
	"list -H: one line, seven tab-separated fields, no heading"

# --- detail: members where the table has them -----------------------------------------
bdsadm_to $D detail $VOL
expect_eq "$RC" 0 "detail: exit status"
bdsadm_to $DJ detail --json $VOL
expect_eq "$RC" 0 "detail --json: exit status"
bds_json_log detail $DJ
check "detail: UUID" grep -qE "^ +UUID : $U\$" $D
check "detail: size" grep -qF "($SIZE sectors)" $D
check "detail: stripe unit" grep -qE "^ +Stripe unit : 64 KiB \\(128 sectors\\)\$" $D
check "detail: layout and groups" grep -qE "^ +Layout : interleave, groups 2\\+1\$" $D
check "detail: healthy" grep -qE "^ +State : healthy\$" $D
check "detail: every label agrees" has $D "3 of 3 members carry the newest label at their position"
bdsadm_to /tmp/detail-path.txt detail /dev/mapper/$VOL
check "detail /dev/mapper/$VOL: the same as detail $VOL" cmp -s $D /tmp/detail-path.txt
check "detail --json: geometry" has $DJ "\"size_sectors\": $SIZE, \"chunk_sectors\": 128, \"width_sectors\": 384, \"nr_members\": 3, \"layout\": \"interleave\","
bdsadm_to /tmp/export detail --export $VOL
grep -v '^BDS_MEMBER_' /tmp/export >/tmp/export.v || true
expect_eq "$(cat /tmp/export.v)" "BDS_DM_NAME=$VOL
BDS_DEVICE=/dev/mapper/$VOL
BDS_VOLUME_UUID=$U
BDS_SIZE_SECTORS=$SIZE
BDS_CHUNK_SECTORS=128
BDS_LAYOUT=interleave
BDS_GROUPS=2
BDS_MEMBERS=3
BDS_STATE=healthy
BDS_HEALTH=AAA
BDS_RESTRIPE=none
BDS_GENERATION=1" "detail --export: the volume's keys"
# members_match VOL: detail ($D) and detail --json ($DJ) of VOL give each
# member as `dmsetup table` has it (index, major:minor, offset, group),
# with its /dev/sdX, the stripe position of the status order and the
# QEMU serial at creation and now; sets KNAME_<index>.
members_match() {
	bdsadm_to /tmp/export detail --export "$1"
	expect_eq "$RC" 0 "detail --export $1: exit status"
	bds_order_vars "$1"
	check "detail $1: stripe order of the status ($ORDER)" grep -qE "^ +Stripe order : $ORDER\$" $D
	dmsetup table "$1" | awk '{
		i = 6; m = 0
		for (g = 0; g < $5; g++) {
			n = $i; i++
			for (k = 0; k < n; k++) { print m, $i, $(i + 1), g; m++; i += 2 }
		}
	}' >/tmp/members
	expect_eq "$(wc -l </tmp/members)" 3 "the table of $1 has 3 members"
	while read -r idx mm off grp; do
		kname=$(basename "$(readlink -f "/sys/dev/block/$mm")")
		pos=0
		while [ "$pos" -lt "$NPOS" ] && [ "$(eval echo "\$ORD_$pos")" != "$idx" ]; do
			pos=$((pos + 1))
		done
		ser=$(bds_serial "/dev/$kname")
		log "$1 member $idx: $mm /dev/$kname offset $off group $grp position $pos serial $ser"
		check "detail $1: member $idx row" grep -qE \
			"^ +$idx +$pos +/dev/$kname +$mm +$off +ok +0 +$ser +$ser\$" $D
		check "detail --json $1: member $idx" has $DJ \
			"{\"index\": $idx, \"position\": $pos, \"group\": $grp, \"device\": \"/dev/$kname\", \"dev\": \"$mm\", \"offset\": $off,"
		check "detail --json $1: member $idx serials and health" has $DJ \
			"\"serial_label\": \"$ser\", \"serial_now\": \"$ser\", \"health\": \"A\", \"errors\": 0, \"label\": \"ok\"}"
		grep "^BDS_MEMBER_${idx}_" /tmp/export >/tmp/export.m || true
		expect_eq "$(cat /tmp/export.m)" "BDS_MEMBER_${idx}_DEVICE=/dev/$kname
BDS_MEMBER_${idx}_DEV=$mm
BDS_MEMBER_${idx}_GROUP=$grp
BDS_MEMBER_${idx}_HEALTH=A
BDS_MEMBER_${idx}_ERRORS=0
BDS_MEMBER_${idx}_SERIAL=$ser" "detail --export $1: member $idx"
		eval "KNAME_$idx=$kname"
	done </tmp/members
}
members_match $VOL
check "detail: group 1 has 1 member" grep -qE "^  group 1: controller [^ ]+ at creation, 1 member\$" $D

# --- counters --------------------------------------------------------------------------
# written SECTORS FILE: write_sectors of both groups in a detail --json, summed.
written() {
	echo $(($(json_num "$1" '{"group": 0,' write_sectors) + $(json_num "$1" '{"group": 1,' write_sectors)))
}
W0=$(written $DJ)
run dd if=/dev/urandom of=/dev/mapper/$VOL bs=64k count=16 oflag=direct status=none
bdsadm_to $DJ detail --json $VOL
ST=$(dmsetup status $VOL | cut -d' ' -f9-16)	# the counters of 2 groups
expect_eq "$(($(written $DJ) - W0))" 2048 "detail: 1 MiB more written sectors over the groups"
G0=$(json_num $DJ '{"group": 0,' reads) G0W=$(json_num $DJ '{"group": 0,' writes)
G0RS=$(json_num $DJ '{"group": 0,' read_sectors) G0WS=$(json_num $DJ '{"group": 0,' write_sectors)
G1=$(json_num $DJ '{"group": 1,' reads) G1W=$(json_num $DJ '{"group": 1,' writes)
G1RS=$(json_num $DJ '{"group": 1,' read_sectors) G1WS=$(json_num $DJ '{"group": 1,' write_sectors)
expect_eq "$G0 $G0W $G0RS $G0WS $G1 $G1W $G1RS $G1WS" "$ST" "detail --json: the counters of dmsetup status"
bdsadm_to $D detail $VOL
check "detail: group 0 counters in the table" grep -qE "^ +0 +[^ ]+ +$G0 +$G0W " $D

touch /tmp/writing
while [ -e /tmp/writing ]; do
	dd if=/dev/zero of=/dev/mapper/$VOL bs=192k count=8 oflag=direct status=none
done &
WRITER=$!
bdsadm_to $DJ detail --json --interval 1 $VOL
rm /tmp/writing
wait $WRITER
expect_eq "$RC" 0 "detail --interval 1: exit status"
check "detail --interval: a rate section" has $DJ '"rates": {"seconds": '
bds_json_log detail $DJ
R=$(json_num $DJ '{"group": 0, "read_mbps"' write_mbps)
check "detail --interval: group 0 writes at $R MB/s" awk -v r="${R:-0}" 'BEGIN { exit !(r > 0) }'
bdsadm_to $D detail --interval 0.5 $VOL
check "detail --interval: rates for people" grep -qE "^I/O rates per group over 0\\.[0-9]+ s" $D

# --- a failing member ---------------------------------------------------------------------
# shellcheck disable=SC2154 # set by eval above
BAD=$KNAME_1
echo offline >"/sys/block/$BAD/device/state" || fail "cannot set $BAD offline"
check "a write reaching the offline member fails" \
	sh -c "! dd if=/dev/zero of=/dev/mapper/$VOL bs=192k count=2 oflag=direct status=none 2>/dev/null"
echo running >"/sys/block/$BAD/device/state"
log "status: $(dmsetup status $VOL)"
E1=$(bds_errors $VOL | cut -d, -f2)
log "member 1's error count: $E1 ($(bds_errors $VOL))"
check "member 1's error count is at least 1 (${E1:-none})" [ "${E1:-0}" -ge 1 ]
bdsadm_to $D detail $VOL
expect_eq "$RC" 1 "detail with a failed member: exit status 1 (the report printed all the same)"
check "detail: errors on member 1" grep -qE "^ +State : errors on member 1 " $D
check "detail: member 1's row says errors, $E1 of them" grep -qE "^ +1 +[0-9]+ +/dev/$BAD +[^ ]+ +[0-9]+ +errors +$E1 " $D
expect_eq "$(grep -cE "^ +[02] +[0-9]+ +/dev/[^ ]+ +[^ ]+ +[0-9]+ +ok +0 " $D)" 2 "detail: members 0 and 2 ok, 0 errors"
bdsadm_to $DJ detail --json $VOL
expect_eq "$RC" 1 "detail --json with a failed member: exit status 1"
check "detail --json: error_members [1]" has $DJ '"health": "ADA", "state": "errors", "error_members": [1],'
check "detail --json: member 1 health D, $E1 errors" grep -qE "\"index\": 1, .*\"health\": \"D\", \"errors\": $E1, " $DJ
bds_json_log detail $DJ
bdsadm_to $L list
check "list: errors on member 1" grep -qE "^  $VOL .* errors on member 1\$" $L
bdsadm_to $J list --json
check "list --json: state errors" has $J '"health": "ADA", "state": "errors", "error_members": [1],'
bds_json_log list $J
bdsadm_to /tmp/export detail --export $VOL
check "detail --export: state errors, member 1 D with its count" \
	sh -c "grep -qx BDS_STATE=errors /tmp/export && grep -qx BDS_HEALTH=ADA /tmp/export &&
		grep -qx BDS_MEMBER_1_HEALTH=D /tmp/export && grep -qx BDS_MEMBER_1_ERRORS=$E1 /tmp/export"

# --- refusals --------------------------------------------------------------------------------
bdsadm_to $D detail nosuchvol
expect_eq "$RC" 1 "detail of a missing name: exit 1"
check "... says there is no such active volume, and what to do" \
	has $D.err "nosuchvol: no such active volume; 'bdsadm list' shows the volumes"
bds_dm_create plain "0 8 zero"
bdsadm_to $D detail plain
expect_eq "$RC" 1 "detail of a dm device bdsadm did not make: exit 1"
check "... says so" has $D.err "plain is a device-mapper device but not a volume bdsadm made"
bdsadm_to $L list
check "list: the zero device is not a volume" sh -c "! grep -q plain $L"
bds_dm_remove plain
bdsadm_to $D detail
expect_eq "$RC" 2 "detail without a name: exit 2"
bdsadm_to $D detail --interval soon $VOL
expect_eq "$RC" 2 "detail --interval soon: exit 2"
bdsadm_to $L list $VOL
expect_eq "$RC" 2 "list with an argument: exit 2"

# --- stopped: found on the disks --------------------------------------------------------------
run bdsadm stop $VOL
bdsadm_to $D detail $VOL
expect_eq "$RC" 1 "detail of a stopped volume: exit 1"
check "... names assemble" has $D.err "'bdsadm assemble $VOL' activates one"
bdsadm_to $L list
check "list: nothing active" has $L "Active volumes: none"
check "list: vol on disks, 3/3, would assemble" \
	grep -qE "^  $VOL +$U +[0-9.]+ [KMG]iB +3/3 +yes +none +/dev/" $L
bdsadm_to $J list --json
check "list --json: nothing active" has $J '{"output_version": 1, "active": [],'
bds_json_log list $J
check "list --json: vol inactive, complete" has $J \
	"{\"name\": \"$VOL\", \"uuid\": \"$U\", \"size_sectors\": $SIZE, \"members\": 3, \"present\": 3, \"generation\": 1, \"assemble\": true, \"reason\": null, \"owner\": null, \"foreign\": false, \"devices\": ["
bdsadm_to /tmp/list.H list -H
check "list -H: vol inactive, 3/3, its devices, assemble would take it" grep -qE \
	"^inactive${TAB}$VOL${TAB}$U${TAB}$((SIZE * 512))${TAB}3/3${TAB}/dev/[a-z]+,/dev/[a-z]+,/dev/[a-z]+${TAB}assemble would take it\$" /tmp/list.H

# shellcheck disable=SC2154
run bdsadm wipe "/dev/$KNAME_2"
bdsadm_to $L list
check "list: vol 2/3, would not assemble" grep -qE "^  $VOL +$U +[0-9.]+ [KMG]iB +2/3 +no +none +/dev/" $L
check "list: why (assemble's reason)" grep -qE \
	"^  $VOL: volume $VOL \\($U\\): member 2 \\(UUID [0-9a-f-]+, serial [^ ]+ at creation, controller [^ ]+\\) is missing \\(1 of 3 members missing\\)" $L
bdsadm_to $J list --json
check "list --json: 2 present, assemble false, the reason" has $J \
	"\"members\": 3, \"present\": 2, \"generation\": 1, \"assemble\": false, \"reason\": \"volume $VOL ($U): member 2 "
bds_json_log list $J
bdsadm_to /tmp/asm assemble $VOL
expect_eq "$RC" 1 "bdsadm assemble refuses it too"

# --- a volume whose stripe order is not its table order ---------------------------------
# (2 + 1 interleaves as 0,1,2; groups of 1 and 2 members as 1,0,2)
run bdsadm wipe "/dev/$KNAME_0" "/dev/$KNAME_1"
run bdsadm create vol2 --chunk 64K --groups 1,2 "$@"
bdsadm_to $D detail vol2
bdsadm_to $DJ detail --json vol2
check "vol2: groups 1+2" has $DJ '"group_sizes": [1, 2], "order": [1, 0, 2],'
members_match vol2
run bdsadm stop vol2
run bdsadm wipe "$@"
bds_expect_clean "$@"
pass
