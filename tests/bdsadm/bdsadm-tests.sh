#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of bdsadm examine and wipe on sparse files standing in for member
# disks (2 GiB, nothing written but the labels), made by mklabel (the
# golden label of tests/libbds/label-golden.h: member 1 of volume "golden",
# 3 members in groups 2+1 on host0/host1).  No root, no device needed.
#
# Usage: bdsadm-tests.sh BDSADM MKLABEL
# Output is TAP; the last line is "N passed, N failed"; exit 1 on a failure.
set -u

BDSADM=$1
MKLABEL=$2
W=$(mktemp -d "${TMPDIR:-/tmp}/bdsadm-tests.XXXXXX")
trap 'rm -rf "$W"' EXIT

ntest=0 npass=0 nfail=0
# run ARGS...: bdsadm ARGS; sets RC, OUT, ERR
run() {
	"$BDSADM" "$@" >"$W/out" 2>"$W/err"
	RC=$?
	OUT=$(cat "$W/out")
	ERR=$(cat "$W/err")
}
t() { # NAME CONDITION...
	local name=$1
	shift
	ntest=$((ntest + 1))
	if "$@"; then
		npass=$((npass + 1))
		echo "ok $ntest - $name"
	else
		nfail=$((nfail + 1))
		echo "not ok $ntest - $name"
		printf '# exit %s\n# stdout:\n%s\n# stderr:\n%s\n' "$RC" "$OUT" "$ERR" |
			sed 's/^/# /'
	fi
}
rc_is() { [ "$RC" -eq "$1" ]; }
# schema_ok DEFINITION: stdout conforms to Documentation/bdsadm.schema.json
schema_ok() {
	"$(dirname "$0")/../scripts/json-schema-check" "$1" "$W/out" >"$W/schema" ||
		{ sed 's/^/# /' "$W/schema"; return 1; }
}
out_has() { grep -qF -- "$1" "$W/out"; }
err_has() { grep -qF -- "$1" "$W/err"; }
out_empty() { [ ! -s "$W/out" ]; }
# byte OFFSET FILE VALUE: write one byte
poke() { printf "\\$(printf '%03o' "$3")" | dd of="$2" bs=1 seek="$1" conv=notrunc status=none; }

# --- usage -------------------------------------------------------------
run
t "no verb: usage, exit 2" eval 'rc_is 2 && err_has "usage: bdsadm [-q | -v] VERB"'
run frobnicate
t "unknown verb: exit 2, says how to list verbs" eval 'rc_is 2 && err_has "bdsadm help"'
run examine
t "examine without a device: exit 2" rc_is 2
run help
t "help lists examine and wipe" eval 'rc_is 0 && out_has "bdsadm examine" && out_has "bdsadm wipe"'

# --- examine -----------------------------------------------------------
"$MKLABEL" "$W/m1" || exit 1
run examine "$W/m1"
t "examine: exit 0" rc_is 0
t "examine: volume, UUID, member" eval 'out_has "Volume : golden" &&
	out_has "Volume UUID : 10111213-1415-4617-9819-1a1b1c1d1e1f" &&
	out_has "Member : 1 of 3, stripe position 1, group 0" &&
	out_has "Member UUID : 30313233-3435-4637-b839-3a3b3c3d3e3f"'
t "examine: geometry and places" eval 'out_has "Stripe unit : 128 sectors (64 KiB)" &&
	out_has "Layout : interleave, groups 2+1" &&
	out_has "Data offset : 2048 sectors (1 MiB)" &&
	out_has "Data length : 4192128 sectors per member"'
t "examine: both copies valid, primary counts" eval 'out_has "primary copy counts" &&
	out_has "Primary copy : valid at sector 8, generation 1" &&
	out_has "Backup copy : valid at sector 4194288, generation 1"'
t "examine: member table with serials and controllers" eval 'out_has "QM00001" &&
	out_has "QM00003" && out_has "host1" && grep -q "^    \*  1 " "$W/out"'
t "examine: creation time in UTC" out_has "Created : 2026-01-01 00:00:00 UTC"

run examine --export "$W/m1"
t "examine --export: KEY=VALUE for udev" eval 'rc_is 0 && out_has "BDS_VOLUME_NAME=golden" &&
	out_has "BDS_VOLUME_UUID=10111213-1415-4617-9819-1a1b1c1d1e1f" &&
	out_has "BDS_MEMBER_INDEX=1" && out_has "BDS_MEMBERS=3" &&
	out_has "BDS_LABEL_COPY=primary" && [ "$(grep -cv "^BDS_[A-Z_]*=" "$W/out")" = 0 ]'

run examine --json "$W/m1"
t "examine --json: valid JSON with the label" eval 'rc_is 0 &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))[\"devices\"][0]
assert d[\"valid\"] and d[\"name\"] == \"golden\" and d[\"member_index\"] == 1
assert len(d[\"members\"]) == 3 and d[\"members\"][2][\"serial\"] == \"QM00003\"
assert d[\"backup\"][\"sector\"] == 4194288 and d[\"groups\"][1][\"controller\"] == \"host1\"
" "$W/out"'
run examine --json "$W/m1" "$W/out" "$W/no-such-device"
t "examine --json: a label, no label, no device; output_version 1; the schema" eval 'rc_is 1 &&
	out_has "{\"output_version\": 1, \"devices\": [" && schema_ok examine'

# The weighted golden label (weights 3,1,2: W 6), members 1 and 0.
"$MKLABEL" "$W/w1" --weighted || exit 1
"$MKLABEL" "$W/w0" --weighted --member 0 || exit 1
run examine "$W/w1"
t "examine, weighted: the member's weight and slot" eval 'rc_is 0 &&
	out_has "Member : 1 of 3, weight 1 of 6 (slot 4 of each cycle), group 0" &&
	out_has "Weights : 3,1,2 (table order; a cycle of 6 stripe units)" &&
	out_has "Slot order : 0,0,2,0,1,2" && ! out_has "Stripe order"'
t "examine, weighted: this member's share, the volume" eval 'out_has "Data length : 1397376 sectors on this member (682.31 MiB: 16.7 % of the volume), volume 3.99 GiB"'
t "examine, weighted: every member's weight and data" eval 'out_has "data offset  weight  data sectors" &&
	grep -q "^       0      0  host0  .*  2048       3  4192128$" "$W/out" &&
	grep -q "^    \*  1      0  host0  .*  2048       1  1397376$" "$W/out" &&
	grep -q "^       2      1  host1  .*  2048       2  2794752$" "$W/out"'
run examine "$W/w0"
t "examine, weighted member 0: weight 3, slots 0,1,3" eval 'rc_is 0 &&
	out_has "Member : 0 of 3, weight 3 of 6 (slots 0,1,3 of each cycle), group 0" &&
	out_has "Data length : 4192128 sectors on this member (1.99 GiB: 50.0 % of the volume), volume 3.99 GiB"'
run examine --json "$W/w1" "$W/m1"
t "examine --json, weighted: weights, shares, the volume's size" eval 'rc_is 0 &&
	python3 -c "import json, sys
w, u = json.load(open(sys.argv[1]))[\"devices\"]
assert [m[\"weight\"] for m in w[\"members\"]] == [3, 1, 2]
assert [m[\"data_sectors\"] for m in w[\"members\"]] == [4192128, 1397376, 2794752]
assert w[\"data_sectors\"] == 1397376 and w[\"volume_sectors\"] == 8384256 and w[\"cycle_units\"] == 6
assert [m[\"weight\"] for m in u[\"members\"]] == [1, 1, 1] and u[\"cycle_units\"] == 3
assert u[\"volume_sectors\"] == 3 * 4192128 and u[\"members\"][0][\"data_sectors\"] == 4192128
" "$W/out"'
t "examine, a label without a weights mode: no line, null in JSON" eval '! grep -q "Weights mode" "$W/out" &&
	python3 -c "import json, sys
w, u = json.load(open(sys.argv[1]))[\"devices\"]
assert w[\"weights_mode\"] is None and u[\"weights_mode\"] is None
" "$W/out"'

# The weighted golden label with its weights mode (capacity, 1.8.2).
"$MKLABEL" "$W/wm" --weights-mode || exit 1
run examine "$W/wm"
t "examine: the weights mode" eval 'rc_is 0 &&
	out_has "Weights mode : capacity (grow --add chooses the new set'"'"'s so)" &&
	out_has "Weights : 3,1,2 (table order; a cycle of 6 stripe units)"'
run examine --json "$W/wm"
t "examine --json: weights_mode" eval 'rc_is 0 &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))[\"devices\"][0]
assert d[\"weights_mode\"] == \"capacity\" and d[\"cycle_units\"] == 6
" "$W/out"'

# A corrupt primary: the backup counts, and examine says so.
cp --sparse=always "$W/m1" "$W/m1c"
poke 4400 "$W/m1c" 255
run examine "$W/m1c"
t "primary corrupt: exit 0, the backup counts" eval 'rc_is 0 && out_has "backup copy counts" &&
	out_has "Primary copy : not valid at sector 8: label checksum mismatch"'
run examine --export "$W/m1c"
t "primary corrupt: --export says BDS_LABEL_COPY=backup" out_has "BDS_LABEL_COPY=backup"

# Newer generation in the backup only.
"$MKLABEL" "$W/g5" --generation 5 || exit 1
"$MKLABEL" "$W/g4" --generation 4 || exit 1
dd if="$W/g4" of="$W/g5" bs=4096 skip=1 seek=1 count=2 conv=notrunc status=none
run examine "$W/g5"
t "backup at generation 5, primary at 4: the backup counts" eval 'rc_is 0 &&
	out_has "backup copy counts" && out_has "Generation : 5"'

# Both copies of different volumes.
"$MKLABEL" "$W/conflict" --other-backup || exit 1
run examine "$W/conflict"
t "copies of two volumes: exit 1, no choice made, what to do" eval 'rc_is 1 && out_empty &&
	err_has "two label copies are of different volumes" && err_has "bdsadm wipe"'

# No label at all.
truncate -s 1G "$W/blank"
run examine "$W/blank"
t "no label: exit 1, both copies named" eval 'rc_is 1 && out_empty &&
	err_has "$W/blank: no valid bds-stripe label" &&
	err_has "primary at sector 8: no bds-stripe label (magic)"'
run examine --export "$W/blank"
t "no label, --export: exit 1, nothing on stdout" eval 'rc_is 1 && out_empty'
run examine "$W/m1" "$W/blank"
t "one good, one blank: exit 1, the good one shown" eval 'rc_is 1 && out_has "Volume : golden" &&
	err_has "no valid bds-stripe label"'
run examine /dev/null
t "not a block device: exit 1" eval 'rc_is 1 && err_has "not a block device"'

# --- wipe --------------------------------------------------------------
sum_before=$(md5sum <"$W/m1")
run wipe "$W/m1" "$W/blank"
t "wipe of a member and a blank: exit 1, nothing wiped" eval 'rc_is 1 &&
	err_has "holds no bds-stripe label" && err_has "not wiping anything" &&
	[ "$(md5sum <"$W/m1")" = "$sum_before" ]'
cp --sparse=always "$W/m1" "$W/mq1"
cp --sparse=always "$W/m1" "$W/mq2"
run -q wipe "$W/mq1"
t "-q wipe: exit 0, says nothing, the labels are gone" eval 'rc_is 0 && out_empty && [ ! -s "$W/err" ] &&
	! "$BDSADM" examine "$W/mq1" >/dev/null 2>&1'
run wipe "$W/mq2" --quiet
t "wipe --quiet (after the operand): exit 0, says nothing" eval 'rc_is 0 && out_empty && [ ! -s "$W/err" ]'
run wipe "$W/m1"
t "wipe: exit 0, says what it erased" eval 'rc_is 0 && out_has "labels erased (member 1 of volume golden)"'
run examine "$W/m1"
t "after wipe: no label" eval 'rc_is 1 && err_has "no valid bds-stripe label"'
t "after wipe: both copies are zero" eval '[ -z "$(od -An -v -tx1 -j 4096 -N 8192 "$W/m1" | tr -d " 0\n")" ] &&
	[ -z "$(od -An -v -tx1 -j $((4194288 * 512)) -N 8192 "$W/m1" | tr -d " 0\n")" ]'
sum_before=$(md5sum <"$W/m1")
run wipe "$W/m1"
t "wipe again: exit 1, nothing to wipe (said once), unchanged" eval 'rc_is 1 &&
	err_has "holds no bds-stripe label (neither copy'"'"'s place has its magic); not wiping anything" &&
	[ "$(md5sum <"$W/m1")" = "$sum_before" ]'
run wipe "$W/m1c"
t "wipe of a member whose primary is corrupt: exit 0" rc_is 0
run examine "$W/m1c"
t "... and its backup is gone too" rc_is 1
run wipe "$W/conflict"
t "wipe of conflicting copies: exit 0, names both copies" eval 'rc_is 0 &&
	out_has "labels erased (two conflicting copies: primary member 1 of volume golden, backup member "'
run wipe
t "wipe without a device: exit 2" rc_is 2

# --- plan, create, assemble, stop, incremental: what needs no device-mapper
# (they run against real devices in the VM tests, tests/vm/t/)
. "$(dirname "$0")/fixtures.sh"
tree_2x4 "$W/2x4"
ALL8="sdb sdc sdd sde sdf sdg sdh sdi"
run plan --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" --chunk 64K $ALL8
# create's volume: the data from sector 2048 of each of the 8388608-
# sector members, whole 64 KiB units up to the backup label at the end:
# 65518 units a member, 8 members
t "plan: create's table (the data after each label), the summary, how to create it" eval 'rc_is 0 &&
	[ "$(head -n 1 "$W/out")" = "0 67091456 bds-stripe 128 2 4 8:16 2048 8:32 2048 8:48 2048 8:64 2048 4 8:80 2048 8:96 2048 8:112 2048 8:128 2048" ] &&
	out_has "order 0,4,1,5,2,6,3,7" && out_has "bdsadm create NAME" && ! out_has "dmsetup create"'
t "plan: the size and the unused sectors of the labelled volume create makes" eval 'rc_is 0 &&
	out_has "Usable size:  31.99 GiB (67091456 sectors), 3.99 GiB (8386432 sectors) from each member" &&
	out_has "unused on sdi: 56 KiB (112 sectors)" &&
	out_has "makes the table above: it puts the data at sector 2048 of each" &&
	out_has "holds 31.99 GiB (67091456 sectors), where the table" &&
	awk "/which makes the table above/,/has 67108864/ { if (length > 80) bad = 1 } END { exit bad }" "$W/out" &&
	out_has "over whole devices (--unlabelled), from sector 0 to the end, has 67108864" &&
	out_has "create adds the words \"volume UUID\" to the table"'
cp "$W/out" "$W/plan.out"
run plan --unlabelled --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" --chunk 64K $ALL8
t "plan --unlabelled: the table over whole devices, its size, the dmsetup command" eval 'rc_is 0 &&
	[ "$(head -n 1 "$W/out")" = "0 67108864 bds-stripe 128 2 4 8:16 0 8:32 0 8:48 0 8:64 0 4 8:80 0 8:96 0 8:112 0 8:128 0" ] &&
	out_has "Usable size:  32 GiB (67108864 sectors), 4 GiB (8388608 sectors) from each member" &&
	! out_has "unused on" && out_has "holds 31.99 GiB (67091456 sectors)," &&
	out_has "dmsetup create NAME --table '"'"'0 67108864 bds-stripe 128 2 4 8:16 0 "'
cp "$W/out" "$W/plan-unlabelled.out"
new_tree "$W/tiny"
scsi_disk "$W/tiny" 0000:00:10.0 2 0 sdb 8:16 8192
scsi_disk "$W/tiny" 0000:00:10.0 2 1 sdc 8:32 8192
run plan --sysfs "$W/tiny/sys" --mounts "$W/tiny/mounts" --chunk 4M sdb sdc
t "plan: members with no room for a unit after the labels are refused, as create would" eval 'rc_is 1 && out_empty &&
	err_has "sdb has no room for a whole stripe unit between its label and the label'"'"'s backup copy" &&
	err_has "bdsadm plan --unlabelled"'
run plan --unlabelled --sysfs "$W/tiny/sys" --mounts "$W/tiny/mounts" --chunk 4M sdb sdc
t "... which plan --unlabelled shows over whole devices, saying create would refuse" eval 'rc_is 0 &&
	out_has "0 16384 bds-stripe 8192 1 2 8:16 0 8:32 0" && out_has "(it would refuse: sdb has no room"'
run plan --json --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" --chunk 64K $ALL8
t "plan --json: create's size, the unlabelled table, the order; the schema" eval 'rc_is 0 && schema_ok plan &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"output_version\"] == 1 and d[\"size_sectors\"] == 67091456
assert d[\"unlabelled_table\"] == sys.argv[2] and d[\"unlabelled_size_sectors\"] == 67108864
assert d[\"table\"] == sys.argv[3]
assert [m[\"position\"] for m in d[\"members\"]] == [0, 2, 4, 6, 1, 3, 5, 7]
assert d[\"order\"] == [0, 4, 1, 5, 2, 6, 3, 7] and d[\"controllers\"][1][\"members\"] == [4, 5, 6, 7]
assert all(m[\"data_offset_sectors\"] == 2048 for m in d[\"members\"])
" "$W/out" "$(head -n 1 "$W/plan-unlabelled.out")" "$(head -n 1 "$W/plan.out")"'
run plan --measure --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" sdb sdc
t "plan --measure over a fake sysfs: exit 2, it reads real devices" eval 'rc_is 2 && err_has "--measure reads the devices: not with --sysfs"'
run plan --measure --disk-mbps 10 --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" sdb sdc
t "plan --measure --disk-mbps: exit 2, they exclude each other" eval 'rc_is 2 && err_has "--measure and --disk-mbps or --controller-mbps exclude each other"'
run plan --measure-time 5 --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" sdb sdc
t "plan --measure-time without --measure: exit 2" eval 'rc_is 2 && err_has "there is no --measure to time"'
for a in 0 3601 x; do
	run plan --measure --measure-time "$a" sdb
	t "plan --measure-time $a: exit 2" eval 'rc_is 2 && err_has "--measure-time $a: not a whole number of seconds from 1 to 3600"'
done
run plan --weights bandwidth --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" sdb sdc
t "plan --weights bandwidth without speeds: exit 2, names --measure" eval 'rc_is 2 && err_has "give --measure, or --disk-mbps"'
run plan --json --table-only --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" sdb sdc
t "plan --json --table-only: exit 2" eval 'rc_is 2 && err_has "--json and --table-only exclude each other"'
ln -sf "$(realpath "$BDSADM")" "$W/bds-stripe-table"
"$W/bds-stripe-table" --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" --chunk 64K $ALL8 >"$W/table.out" 2>"$W/err"
RC=$?
t "bds-stripe-table is bdsadm plan --unlabelled under its old name" eval 'rc_is 0 &&
	diff <(sed "/^Create it/,\$d" "$W/plan-unlabelled.out") <(sed "/^Create it/,\$d" "$W/table.out") >/dev/null'
run plan --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" --chunk 4K --weights 2,1,1,1 sdb sdc sdf sdg
t "plan --weights: the weighted table, the shares, how to create it" eval 'rc_is 0 &&
	out_has "0 20966360 bds-stripe 8 2 2 8:16 2048 8:32 2048 2 8:80 2048 8:96 2048 2 weights 2,1,1,1" &&
	out_has "Weights (as given, in table order):" && out_has "bdsadm create NAME"'
run plan --sysfs "$W/2x4/sys" --mounts "$W/2x4/mounts" sdb sdc /dev/sdb
t "plan refused: the reason, exit 1, and no word of creating (plan creates nothing)" eval 'rc_is 1 &&
	out_empty && err_has "sdb is given twice" && ! err_has "nothing was created"'
run create vol bds-unit-no-such-device
t "create refused: the reason, exit 1, and that nothing was created" eval 'rc_is 1 &&
	out_empty && err_has "bds-unit-no-such-device: no such block device" &&
	err_has "bdsadm: nothing was created"'
run create vol --weights heavy sdb sdc
t "create --weights with a bad word: exit 2" eval 'rc_is 2 && err_has "--weights heavy: accepted are capacity, bandwidth and a list"'
run create vol --weights 2,1 --layout sequential sdb sdc
t "create --weights with --layout sequential: exit 2" eval 'rc_is 2 && err_has "weights need --layout interleave"'
run create vol --weights bandwidth sdb sdc
t "create --weights bandwidth without --disk-mbps: exit 2" eval 'rc_is 2 && err_has "needs the disks'"'"' speeds"'
run plan --create vol sdb
t "plan --create: usage error, plan changes nothing" eval 'rc_is 2 && err_has "bdsadm plan does not take --create"'
run create
t "create without NAME: exit 2" rc_is 2
run create vol
t "create without devices: exit 2" eval 'rc_is 2 && err_has "create needs a volume NAME and its DEVICEs"'
run create --sysfs "$W/2x4/sys" vol sdb
t "create on a fake sysfs: usage error (real devices only)" eval 'rc_is 2 && err_has "bdsadm create does not take --sysfs"'
run create 'a/b' sdb
t "create: a name with / is refused" eval 'rc_is 2 && err_has "volume name"'
run assemble
t "assemble without NAME or --scan: exit 2" eval 'rc_is 2 && err_has "usage: bdsadm assemble"'
run assemble --scan vol
t "assemble --scan with a NAME: exit 2" rc_is 2
run assemble --uuid not-a-uuid
t "assemble --uuid with a bad UUID: exit 2" eval 'rc_is 2 && err_has "not a UUID"'
run stop
t "stop without NAME: exit 2" rc_is 2
run incremental
t "incremental without a device: exit 2" rc_is 2
run help
t "help lists every verb" eval 'rc_is 0 && out_has "bdsadm create" && out_has "bdsadm assemble" &&
	out_has "bdsadm stop" && out_has "bdsadm incremental" && out_has "bdsadm plan"'

# --- list and detail ---------------------------------------------------
# Usage errors need no device-mapper.  Both verbs only look: when the
# kernel has no device-mapper (no "device-mapper" in /proc/misc, the
# usual host) they do not call libdevmapper at all, which would make
# /dev/mapper/control and have the kernel load dm_mod.  With
# device-mapper present only a read-only lookup of a name that does not
# exist is made.  Volumes themselves are tested in the VM suite
# (tests/vm/t/list-and-detail-report-volumes.sh).
skip_t() { # NAME WHY
	ntest=$((ntest + 1))
	npass=$((npass + 1))
	echo "ok $ntest - $1 # SKIP $2"
}
run list extra
t "list with an argument: exit 2" eval 'rc_is 2 && err_has "usage: bdsadm list [--json | -H]"'
run list --json -H
t "list --json -H: exit 2 (one output form)" eval 'rc_is 2 && err_has "usage: bdsadm list [--json | -H]"'
run list --bogus
t "list with an unknown option: exit 2" rc_is 2
run detail
t "detail without NAME: exit 2" eval 'rc_is 2 && err_has "usage: bdsadm detail [--json | --export] [--interval SECONDS] NAME"'
run detail --json --export vol
t "detail --json --export: exit 2 (one output form)" eval 'rc_is 2 && err_has "usage: bdsadm detail [--json | --export]"'
run detail vol other
t "detail with two names: exit 2" rc_is 2
run detail --interval 0 vol
t "detail --interval 0: exit 2, says what it takes" eval 'rc_is 2 &&
	err_has "--interval 0: not a number of seconds (more than 0, at most 86400)"'
for v in -1 soon 1s nan inf 86401; do
	run detail --interval "$v" vol
	t "detail --interval $v: exit 2" rc_is 2
done
run detail --interval
t "detail --interval without SECONDS: exit 2" rc_is 2
run detail "$(printf 'v%.0s' $(seq 128))"
t "detail of a name too long for device-mapper: exit 2" eval 'rc_is 2 && err_has "cannot be a volume name"'
run detail a/b
t "detail of a name with /: exit 2" eval 'rc_is 2 && err_has "cannot be a volume name"'
run detail --help
t "detail --help: exit 0, the synopsis" eval 'rc_is 0 && out_has "usage: bdsadm detail"'
run help
t "help lists list and detail" eval 'rc_is 0 && out_has "bdsadm list [--json | -H]" &&
	out_has "bdsadm detail [--json | --export] [--interval SECONDS] NAME"'

if ! grep -q ' device-mapper$' /proc/misc 2>/dev/null; then
	control_before=$(ls -d /dev/mapper/control 2>/dev/null)
	run detail bds-unit-no-such-volume
	t "detail without device-mapper: exit 1, says what to do" eval 'rc_is 1 && out_empty &&
		err_has "bds-unit-no-such-volume: device-mapper is not in the kernel (dm_mod not loaded), so no volume is active; load it (modprobe dm_mod), then '"'"'bdsadm assemble bds-unit-no-such-volume'"'"'"'
	run detail --json --interval 1 bds-unit-no-such-volume
	t "detail --json --interval without device-mapper: exit 1 at once" eval 'rc_is 1 && out_empty'
	run list --json
	t "list --json without device-mapper: exit 0, valid JSON, nothing active" eval 'rc_is 0 &&
		err_has "device-mapper is not in the kernel" &&
		python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"active\"] == [] and isinstance(d[\"inactive\"], list)
" "$W/out" && schema_ok list'
	run list
	t "list without device-mapper: exit 0, no active volume" eval 'rc_is 0 && out_has "Active volumes: none"'
	for v in "check" "grow --layout sequential" "replace"; do
		# shellcheck disable=SC2086 # the verb and its options
		if [ "$v" = replace ]; then run replace bds-unit-vol /dev/sdx /dev/sdy; else run $v bds-unit-vol; fi
		t "$v without device-mapper: exit 1, says dm_mod is not loaded and what to do, nothing from libdevmapper" eval 'rc_is 1 &&
			err_has "device-mapper is not in the kernel (dm_mod not loaded), so no volume is active; load it (modprobe dm_mod)" &&
			! err_has "Failure to communicate" && ! err_has "/dev/mapper/control"'
	done
	control_unchanged() { [ "$(ls -d /dev/mapper/control 2>/dev/null)" = "$control_before" ]; }
	t "... and libdevmapper was not called (no /dev/mapper/control made)" control_unchanged
	skip_t "detail of a name that does not exist" "device-mapper is not in this kernel"
else
	skip_t "detail and list without device-mapper" "this kernel has device-mapper"
	run detail bds-unit-no-such-volume
	t "detail of a name that does not exist: exit 1, says what to do" eval 'rc_is 1 && out_empty &&
		{ err_has "bds-unit-no-such-volume: no such active volume; '"'"'bdsadm list'"'"' shows the volumes" ||
		  err_has "cannot talk to device-mapper (are you root?)"; }'
fi

# --- monitor and check: usage (no device-mapper is touched) -------------
run help
t "help lists monitor and check" eval 'rc_is 0 && out_has "bdsadm monitor [--oneshot]" &&
	out_has "bdsadm check [--rate MB/S] NAME"'
run monitor --help
t "monitor --help: exit 0" eval 'rc_is 0 && out_has "usage: bdsadm monitor"'
run monitor vol
t "monitor with a name: exit 2, it watches every volume" eval 'rc_is 2 &&
	err_has "it takes no names" && err_has "usage: bdsadm monitor"'
for a in 0 3601 x 1.5; do
	run monitor --rescan "$a"
	t "monitor --rescan $a: exit 2" eval 'rc_is 2 && err_has "--rescan $a: not a whole number of seconds"'
done
for a in 0 3601 x 1.5; do
	run monitor --program-timeout "$a"
	t "monitor --program-timeout $a: exit 2" eval 'rc_is 2 &&
		err_has "--program-timeout $a: not a whole number of seconds from 1 to 3600"'
done
run monitor --oneshot --program-timeout 5
t "monitor --program-timeout without --program: exit 2" eval 'rc_is 2 &&
	err_has "--program-timeout: there is no --program or --mail to time"'
run help
t "help lists --program, --mail and --program-timeout" out_has "[--program PROG] [--mail ADDRESS] [--program-timeout SECONDS]"
for a in "" "-x" "a b@c" "a@b,c@d" "<a@b>"; do
	run monitor --oneshot --mail "$a"
	t "monitor --mail '$a': exit 2, not one address" eval 'rc_is 2 && err_has "not one mail address"'
done
if [ ! -x /usr/sbin/sendmail ]; then
	run monitor --oneshot --mail root
	t "monitor --mail without /usr/sbin/sendmail: exit 1, says what to install" eval 'rc_is 1 &&
		err_has "--mail root: /usr/sbin/sendmail is not there" && err_has "install a mail transport agent"'
fi
run monitor --program prog.sh
t "monitor --program with a relative path: exit 2" eval 'rc_is 2 &&
	err_has "not an executable file given by its absolute path"'
run monitor --oneshot --program "$W/no-such-program"
t "monitor --program that does not exist: exit 2" eval 'rc_is 2 && err_has "$W/no-such-program"'
run monitor --bogus
t "monitor --bogus: exit 2" rc_is 2
run check --help
t "check --help: exit 0" eval 'rc_is 0 && out_has "usage: bdsadm check"'
run check
t "check without NAME: exit 2" eval 'rc_is 2 && err_has "usage: bdsadm check [--rate MB/S] NAME"'
run check a b
t "check of two names: exit 2" rc_is 2
for a in 0 -1 fast; do
	run check --rate "$a" vol
	t "check --rate $a: exit 2" eval 'rc_is 2 && err_has "--rate $a: not a number of MB/s"'
done
run check a/b
t "check of a name with a slash: exit 2" eval 'rc_is 2 && err_has "cannot be a volume name"'
run check /dev/mapper/
t "check of /dev/mapper/: exit 2" rc_is 2

GROW_SYN='grow NAME --add DEVICE... [--measure] [--weights capacity|bandwidth|LIST] [--force] [--rate MB/S] | grow NAME [--layout interleave|sequential] [--weights capacity|bandwidth|LIST] [--rate MB/S] | grow --continue NAME [--rate MB/S]'
run grow --help
t "grow --help: exit 0, the synopsis" eval 'rc_is 0 && out_has "usage: bdsadm $GROW_SYN"'
run grow vol
t "grow without --add, --layout, --weights or --continue: exit 2, says what to give" eval 'rc_is 2 &&
	err_has "give --add DEVICE... to restripe onto more disks, --layout or --weights to restripe the same ones, or --continue to carry a restripe on" &&
	err_has "usage: bdsadm $GROW_SYN"'
run grow --continue --add vol /dev/null
t "grow --continue --add: exit 2" rc_is 2
run grow vol --layout interleave --add /dev/null
t "grow --layout --add: exit 2" rc_is 2
run grow vol --layout interleave extra
t "grow --layout with a device: exit 2" rc_is 2
run grow vol --measure --weights bandwidth
t "grow --measure without --add: exit 2, the members are in use" eval 'rc_is 2 &&
	err_has "grow: --measure reads the disks --add brings"'
run grow --continue
t "grow --continue without NAME: exit 2" rc_is 2
run grow --continue a b
t "grow --continue of two names: exit 2" rc_is 2
run grow vol --add
t "grow --add without DEVICE: exit 2" rc_is 2
run grow --continue --force vol
t "grow --continue --force: exit 2" rc_is 2
run grow --continue bds-unit-no-such-volume
t "grow --continue of no volume: exit 1, says so (never 'nothing to resume')" eval 'rc_is 1 &&
	{ err_has "grow bds-unit-no-such-volume: no such active bds-stripe volume" ||
	  err_has "grow bds-unit-no-such-volume: device-mapper is not in the kernel"; } &&
	! out_has "nothing to resume"'
run grow bds-unit-no-such-volume --add /dev/null
t "grow --add to no volume: exit 1, nothing to change" eval 'rc_is 1 &&
	{ err_has "grow bds-unit-no-such-volume: no such active bds-stripe volume" ||
	  err_has "grow bds-unit-no-such-volume: device-mapper is not in the kernel"; }'
for a in 0 -1 fast 8x; do
	run grow --continue --rate "$a" vol
	t "grow --rate $a: exit 2" eval 'rc_is 2 && err_has "--rate $a: not a number of MB/s"'
done
run grow --continue a/b
t "grow --continue of a name with a slash: exit 2" eval 'rc_is 2 && err_has "cannot be a volume name"'
run help
t "help lists grow" eval 'rc_is 0 && out_has "bdsadm $GROW_SYN"'

run --version
t "--version: the target's version (dm-bds-stripe.c)" eval 'rc_is 0 &&
	[ "$OUT" = "bdsadm $(sed -n "s/.*\.version = { *\([0-9]*\), *\([0-9]*\), *\([0-9]*\) *}.*/\1.\2.\3/p" "$(dirname "$0")/../../dm-bds-stripe.c")" ]'
VER=${OUT#bdsadm }
for page in bdsadm.8 bds-stripe-table.8; do
	t "$page's footer names this version ($VER)" \
		grep -q "^\.TH .* \"bds-stripe $VER\"" "$(dirname "$0")/../../tools/$page"
done

# --help of the verbs without options: stdout, exit 0, as every verb's
for v in stop wipe incremental; do
	run $v --help
	t "$v --help: exit 0, the synopsis on stdout" eval 'rc_is 0 && out_has "usage: bdsadm $v"'
done
run -v list
t "-v list: each device read, and what it holds, on stderr" eval 'rc_is 0 &&
	grep -E "^bdsadm: /dev/[^:]+: (no label|member [0-9]+ of volume )" "$W/err" >/dev/null'
run list -v -q --json
t "list -v -q: the last one counts (nothing of the devices read)" eval 'rc_is 0 && ! err_has ": no label"'
run help
t "help names -q and -v" eval 'rc_is 0 && out_has "-q, --quiet" && out_has "-v, --verbose"'
run help
t "help lists help itself" eval 'rc_is 0 && out_has "bdsadm help"'
# options after the operands, as the README writes them
run check bds-unit-no-such-volume --rate 5
t "check NAME --rate: the option is taken (not a usage error)" eval 'rc_is 1 && ! err_has "usage:"'
run detail bds-unit-no-such-volume --json
t "detail NAME --json: the option is taken" eval 'rc_is 1 && ! err_has "usage:"'
"$MKLABEL" "$W/mj" || exit 1
run examine "$W/mj" --json
t "examine DEVICE --json: JSON of the label" eval 'rc_is 0 &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))[\"devices\"][0]
assert d[\"valid\"] and d[\"name\"] == \"golden\"" "$W/out"'
run examine --json /dev/null
t "examine --json of an unreadable device: valid JSON, the reason, no copies" eval 'rc_is 1 &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))[\"devices\"][0]
assert not d[\"valid\"] and \"not a block device\" in d[\"error\"] and d[\"primary\"] is None" "$W/out"'

run replace
t "replace without arguments: exit 2" eval 'rc_is 2 && err_has "usage: bdsadm replace"'
run replace vol /dev/sdb
t "replace without NEW: exit 2" rc_is 2
run replace --abort
t "replace --abort without NAME: exit 2" rc_is 2

echo "1..$ntest"
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
