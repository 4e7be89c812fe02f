#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Thousands of random bds-stripe tables, mostly invalid, fed to the
# kernel the way `dmsetup create` does, leave nothing behind.
#
# A generator (awk, seeded; the seed is logged, and "bds_seed=N" on the
# kernel command line replays a run, "bds_rt_count=N" sets the number)
# writes RT_COUNT tables over a pool of 20 member devices (4 disks and 16
# dm "linear" slices of them), by path, by major:minor, or as nonexistent
# or non-block paths: random lengths, chunk sizes (valid, too small, not a
# multiple of 8, huge, not decimal), group and member counts (0, too many,
# disagreeing with the words), offsets (aligned, past the end, junk),
# optional arguments (layout words in any case, counts that disagree,
# unknown words), junk words inserted and words dropped.  About one in six
# tables is built to be valid (distinct members, fitting lengths).
# The first DMSETUP_COUNT tables go through `dmsetup create` itself (a
# process per table: about 5 per second under TCG); the rest through
# bds-dmload --batch (tests/vm/programs/bds-dmload.c), which makes the same
# ioctls (create, load, resume; remove when a step fails, as dmsetup
# does) from one process.  For every table:
#   - it is either accepted, and the volume is then removed again, or
#     refused, and no device is left (dmsetup: checked every 50 tables;
#     bds-dmload: after every table);
#   - every table built to be valid is accepted.
# At the end no dm device is left once the slices are removed, no disk
# has a holder, the module's reference count is 0 and it unloads.  The
# kernel log of the whole run is kept and must hold no oops, WARNING,
# BUG or KASAN report (console logging is turned down during the run,
# the log is read from /dev/kmsg).  Tables run, accepted, and the
# refusal reasons are logged.
#
# topology: size=256M backing=file ctl=2 ctl=2
# timeout: 420
# memory: 1024
# exec: bds-dmload
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

VOL=rt
RT_COUNT=$(bds_cmdline_arg bds_rt_count 2500)
DMSETUP_COUNT=100
SEED=$(bds_cmdline_arg bds_seed "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')")
BAD='Oops|WARNING:|BUG:|KASAN|UBSAN|general protection|Call Trace:|kernel BUG|dm_put_device call missing|list_add corruption|list_del corruption'

command -v bds-dmload >/dev/null || fail "bds-dmload not in the guest (# exec: header)"
bds_load_module

# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
DISKS="$*"
DSEC=$(bds_sectors "$1")

# --- the pool --------------------------------------------------------------------------
: >/tmp/pool
i=0
for d in "$@"; do
	mm=$(bds_majmin "$d")
	echo "$d $DSEC" >>/tmp/pool
	j=0
	while [ "$j" -lt 4 ]; do
		sz=$((DSEC / 4))
		bds_dm_create s$i$j "0 $sz linear $mm $((j * sz))"
		if [ $((j % 2)) = 0 ]; then
			echo "/dev/mapper/s$i$j $sz" >>/tmp/pool
		else
			echo "$(bds_majmin /dev/mapper/s$i$j) $sz" >>/tmp/pool
		fi
		j=$((j + 1))
	done
	i=$((i + 1))
done

# --- the generator ------------------------------------------------------------------------
# Each output line: "V|table" where V is 1 for a table built to be valid.
cat >/tmp/gen.awk <<'AWK'
function r(n) { return int(rand() * n) }
function pick(s,   a, n) { n = split(s, a, " "); return a[1 + r(n)] }
function junk() {
	return pick("x -1 0x10 08 1e3 18446744073709551616 layout sequential interleave" \
		" 4294967296 -0 +8 1,2 /dev/null /dev/nonexistent 8:255 999:999 ..." \
		" LAYOUT 99999999999999999999999")
}
function dev(   k) {
	k = 1 + r(npool + 3)
	if (k == npool + 1) return "/dev/nonexistent"
	if (k == npool + 2) return "/dev/null"
	if (k == npool + 3) return "8:255"
	return path[k]
}
function chunk() {
	if (r(10) < 7) return pick("8 16 64 128 192 256 1024")
	return pick("0 4 12 100 8388600 8388607 8388608 2097152 abc -8 0x80 " r(100000))
}
function opts() {
	if (r(10) < 6) return ""
	return " " pick("2:layout:sequential 2:LAYOUT:Interleave 2:layout:SEQUENTIAL 1:layout" \
		" 3:layout:sequential:x 4:layout:sequential:layout:interleave 0 2:foo:bar" \
		" 1:sequential 2:layout:diagonal x:layout 5 -1:layout")
}
# A valid table: distinct members, aligned offsets, fitting length.
function valid(   ng, nm, g, n, k, used, c, t, minsz, off, m, words, i, opt) {
	c = pick("8 16 64 128 192 256 1024")
	ng = 1 + r(4)
	nm = 0; minsz = -1; words = ""
	for (k in used) delete used[k]
	for (g = 0; g < ng; g++) {
		n = 1 + r(4)
		words = words " " n
		for (i = 0; i < n; i++) {
			do { m = 1 + r(npool) } while (m in used)
			used[m] = 1
			off = 8 * r(64)
			words = words " " path[m] " " off
			if (minsz < 0 || size[m] - off < minsz) minsz = size[m] - off
			nm++
			if (nm >= npool) break
		}
		if (nm >= npool) { ng = g + 1; break }
	}
	# words holds the groups; count members per group from them again.
	t = int(minsz / c)
	if (t < 1) t = 1
	t = 1 + r(t)
	opt = ""
	if (r(3) == 0) opt = " 2 layout " pick("sequential interleave Sequential")
	return "0 " (t * c * nm) " bds-stripe " c " " ng words opt
}
function random_table(   c, ng, g, n, i, words, len) {
	c = chunk()
	ng = r(10) < 8 ? 1 + r(4) : pick("0 33 32 x -1")
	words = ""
	for (g = 0; g < (ng ~ /^[0-9]+$/ && ng < 40 ? ng : 2); g++) {
		n = r(10) < 8 ? 1 + r(4) : pick("0 129 x 5")
		words = words " " n
		for (i = 0; i < (n ~ /^[0-9]+$/ && n < 8 ? n : 3); i++)
			words = words " " dev() " " (r(4) ? 8 * r(64) : pick("1 7 x 99999999 -8"))
	}
	len = r(3) ? (c ~ /^[0-9]+$/ ? c * (1 + r(8)) * (1 + r(2000)) : 1 + r(100000)) : 1 + r(9999999)
	return "0 " len " bds-stripe " c " " ng words opts()
}
function mangle(t,   a, n, k, i, s) {
	n = split(t, a, " ")
	k = r(4)
	if (k == 0) {			# insert a junk word (not into "0 LEN bds-stripe")
		i = 4 + r(n - 2); s = ""
		for (k = 1; k <= n; k++) s = s (k > 1 ? " " : "") (k == i ? junk() " " : "") a[k]
		return s
	}
	if (k == 1 && n > 4) {		# drop a word
		i = 4 + r(n - 3); s = ""
		for (k = 1; k <= n; k++) if (k != i) s = s (k > 1 ? " " : "") a[k]
		return s
	}
	if (k == 2) {			# replace a word
		i = 4 + r(n - 3); a[i] = junk(); s = ""
		for (k = 1; k <= n; k++) s = s (k > 1 ? " " : "") a[k]
		return s
	}
	return t " " junk()		# append one
}
BEGIN {
	srand(seed)
	while ((getline line < pool) > 0) {
		split(line, f, " ")
		npool++; path[npool] = f[1]; size[npool] = f[2]
	}
	for (n = 0; n < count; n++) {
		k = r(6)
		if (k == 0) print "1|" valid()
		else if (k == 1) print "0|" mangle(valid())
		else print "0|" random_table()
	}
}
AWK
log "seed $SEED, $RT_COUNT tables (replay: vm-run -a \"bds_seed=$SEED bds_rt_count=$RT_COUNT\")"
awk -v seed="$SEED" -v count="$RT_COUNT" -v pool=/tmp/pool -f /tmp/gen.awk >/tmp/tables ||
	fail "generator failed"
expect_eq "$(wc -l </tmp/tables)" "$RT_COUNT" "tables generated"
head -n 5 /tmp/tables | cut -c1-200

# --- the run -----------------------------------------------------------------------------
# /dev/kmsg gives every record still in the buffer, those of the boot and
# of any test before this one in the boot too: the run's part starts at
# its mark.
cat /dev/kmsg >/tmp/kmsg.all 2>/dev/null &
KMSG=$!
bds_mark random-tables-run
read -r PRINTK _ </proc/sys/kernel/printk
echo 1 >/proc/sys/kernel/printk
head -n $DMSETUP_COUNT /tmp/tables >/tmp/tables.dmsetup
tail -n +$((DMSETUP_COUNT + 1)) /tmp/tables >/tmp/tables.batch
t0=$(cut -d' ' -f1 /proc/uptime)
n=0 acc=0 valid=0 refused_valid=0 leftover=0
while IFS='|' read -r v t; do
	n=$((n + 1))
	[ "$v" = 1 ] && valid=$((valid + 1))
	if echo "$t" | dmsetup create $VOL 2>/dev/null; then
		acc=$((acc + 1))
		if ! dmsetup remove $VOL 2>/dev/null; then
			bds_dm_remove $VOL
		fi
	elif [ "$v" = 1 ]; then
		refused_valid=$((refused_valid + 1))
		echo "bds: valid table refused: $t"
	fi
	if [ $((n % 50)) = 0 ] && dmsetup info $VOL >/dev/null 2>&1; then
		leftover=$((leftover + 1))
		echo "bds: $VOL left behind after table $n: $t"
		dmsetup remove $VOL
	fi
done </tmp/tables.dmsetup
t1=$(cut -d' ' -f1 /proc/uptime)
timeout -s KILL 300 bds-dmload --batch $VOL </tmp/tables.batch >/tmp/batch.out 2>&1
brc=$?
t2=$(cut -d' ' -f1 /proc/uptime)
bds_mark random-tables-done
echo "$PRINTK" >/proc/sys/kernel/printk
# The reader has caught up once it has the closing mark.
until grep -q 'bds-mark: random-tables-done$' /tmp/kmsg.all; do
	kill -0 $KMSG 2>/dev/null || break
	sleep 0.2
done
kill $KMSG 2>/dev/null
sed -n '/bds-mark: random-tables-run$/,/bds-mark: random-tables-done$/p' /tmp/kmsg.all >/tmp/kmsg.log

log "dmsetup create: $n tables in $(echo "$t1 - $t0" | bc) s" \
	"($(echo "$n / ($t1 - $t0 + 0.01)" | bc) per second): $acc accepted, $valid built valid"
grep -v '^batch:' /tmp/batch.out | sed -n 1,20p
summary=$(grep '^batch:' /tmp/batch.out)
log "bds-dmload: $summary in $(echo "$t2 - $t1" | bc) s"
check "bds-dmload was not killed (exit $brc)" [ "$brc" != 137 ]
check "bds-dmload printed its summary" [ -n "$summary" ]
eval "$(echo "${summary#batch: }" | tr ' ' '\n' | sed 's/^/b_/')"
expect_eq "$((n + ${b_tables:-0}))" "$RT_COUNT" "tables run"
expect_eq "$((refused_valid + ${b_valid_refused:-0}))" 0 "valid tables refused"
expect_eq "$((leftover + ${b_left:-0}))" 0 "devices left behind by a refused table"
total_acc=$((acc + ${b_accepted:-0}))
total_valid=$((valid + ${b_valid:-0}))
check "every valid table accepted, some others too ($total_acc >= $total_valid)" \
	[ "$total_acc" -ge "$total_valid" ]
check "most tables refused ($((RT_COUNT - total_acc)))" [ $((RT_COUNT - total_acc)) -gt $((RT_COUNT / 2)) ]
log "random tables: $RT_COUNT run, $total_acc accepted, $((RT_COUNT - total_acc)) refused" \
	"($total_valid built valid), seed $SEED"
log "refusal reasons:"
sed -n 's/.*bds-stripe: //p' /tmp/kmsg.log | sed 's/^member [0-9]*.*/member ... (detail line)/' |
	sort | uniq -c | sort -rn
grep -aE "$BAD" /tmp/kmsg.log | sed -n 1,20p >/tmp/kmsg.bad
if [ -s /tmp/kmsg.bad ]; then
	echo "bds: kernel problems logged during the run:"
	cat /tmp/kmsg.bad
fi
check "no kernel problem logged during the run" [ ! -s /tmp/kmsg.bad ]

# --- nothing left --------------------------------------------------------------------------
check "$VOL is gone" sh -c "! dmsetup info $VOL >/dev/null 2>&1"
for i in 0 1 2 3; do
	for j in 0 1 2 3; do
		bds_dm_remove s$i$j
	done
done
# shellcheck disable=SC2086
bds_expect_clean $DISKS
pass "$RT_COUNT random tables (seed $SEED): $total_acc accepted, nothing left behind"
