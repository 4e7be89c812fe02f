// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the decision on an adoption from md cut short
 * (tools/adopt-finish.c, bds_adopt_decide()), over generated sets of
 * devices in random order, beside another volume's devices:
 *   - no copy with ADOPT: NONE;
 *   - none with its primary (all read from an ADOPT backup), md's
 *     superblock on every member there, whether every member
 *     is there or some: MD_WHOLE, and the message says the md array is
 *     whole, names adopt and says nothing was written;
 *   - none with its primary, md's superblock on every member but one:
 *     FINISH from the backups, the message saying md cannot assemble
 *     the array;
 *   - none with its primary and no md superblock (adopt --from-table cut
 *     among its backups): every member there, FINISH from the backups
 *     alone, the message naming adopt --from-table and assemble; a
 *     member missing, INCOMPLETE, the message naming the table and the
 *     member's serial;
 *   - every member there, k of them (1 <= k < N) with their primary and
 *     an ADOPT backup, the others from their ADOPT backup: FINISH, k
 *     primaries, not backup only, each position mapped to its device;
 *   - every primary there, some backups with ADOPT: FINISH, backup only;
 *   - a member missing, another with its primary: INCOMPLETE at the
 *     missing position, the message names its serial; a member twice: INCOMPLETE naming both
 *     devices; a device of another generation: INCOMPLETE naming it.
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "../../tools/adopt-finish.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libbds/tap.h"

/*
 * bds_adopt_finish() says its failures through bdsadm.c's bds_err(), and
 * what it did through bds_info(): here both go to stderr, out of TAP's way.
 */
static void say(const char *fmt, va_list ap)
{
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void bds_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

void bds_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

/*
 * bds_adopt_finish() erases md's superblocks through libblkid
 * (signature.c); the decision tested here writes nothing.
 */
int bds_md_superblock_wipe(const char *path, char *why, size_t sz)
{
	snprintf(why, sz, "%s: no libblkid in the unit test", path);
	return -1;
}

#define MAX_FOUND	(2 * BDS_MAX_MEMBERS + 8)

static struct bds_found f[MAX_FOUND];
static char dev[MAX_FOUND][32];
static size_t nf;
/* the members of an adoption hold md's superblock (from md, not a table) */
static bool md_on = true;

static void volume(struct bds_label *l, u8 tag, u32 n)
{
	u32 i;

	memset(l, 0, sizeof(*l));
	l->nr_members = n;
	l->nr_groups = 1;
	l->group_size[0] = (u8)n;
	l->chunk_sectors = 128;
	l->layout = BDS_LAYOUT_SEQUENTIAL;
	l->generation = 1;
	l->member_sectors = 1 << 20;
	l->backup_sector = bds_label_backup_sector(l->member_sectors);
	l->data_offset = 2048;
	l->data_sectors = 1 << 19;
	snprintf(l->name, sizeof(l->name), "vol%02x", tag);
	for (i = 0; i < BDS_UUID_LEN; i++)
		l->volume_uuid[i] = (u8)(tag + i * 7);
	for (i = 0; i < n; i++) {
		memcpy(l->uuid[i], l->volume_uuid, BDS_UUID_LEN);
		l->uuid[i][15] = (u8)i;
		l->member_offset[i] = 2048;
		l->weight[i] = 1;
		snprintf(l->serial[i], sizeof(l->serial[i]), "SN%02x-%u", tag, i);
	}
}

/* Member @p of @v: its primary counts (@copy 0) or its backup; ADOPT? */
static void add(const struct bds_label *v, u32 p, int copy, bool adopting)
{
	struct bds_found *d = &f[nf];

	memset(d, 0, sizeof(*d));
	snprintf(dev[nf], sizeof(dev[0]), "/dev/sd%zu", nf);
	d->dev = dev[nf];
	d->copy = copy;
	d->label = *v;
	d->label.member_index = p;
	memcpy(d->label.member_uuid, v->uuid[p], BDS_UUID_LEN);
	if (copy == 1 && adopting)
		d->label.incompat = BDS_LABEL_INCOMPAT_ADOPT;
	d->single = copy == 1;
	d->adopting = adopting;
	d->md_superblock = md_on && copy == 1 && adopting;
	nf++;
}

static void shuffle(void)
{
	size_t i, j;

	for (i = nf; i > 1; i--) {
		struct bds_found t;
		char name[32];

		j = (size_t)(rnd() % i);
		t = f[i - 1];
		f[i - 1] = f[j];
		f[j] = t;
		memcpy(name, dev[i - 1], sizeof(name));
		memcpy(dev[i - 1], dev[j], sizeof(name));
		memcpy(dev[j], name, sizeof(name));
		f[i - 1].dev = dev[i - 1];
		f[j].dev = dev[j];
	}
}

/* Every position maps to a device of that member. */
static bool mapped(const struct bds_adopt_result *r, u32 n)
{
	u32 p;

	for (p = 0; p < n; p++)
		if (r->member[p] < 0 || f[r->member[p]].label.member_index != p)
			return false;
	return true;
}

/* Every member of @v from its marked backup, beside @other's primaries. */
static void marked_beside(const struct bds_label *v,
			  const struct bds_label *other)
{
	u32 p;

	nf = 0;
	for (p = 0; p < other->nr_members; p++)
		add(other, p, 0, false);
	for (p = 0; p < v->nr_members; p++)
		add(v, p, 1, true);
	shuffle();
}

static int bad[11];

static void one_round(void)
{
	struct bds_label v, other;
	struct bds_adopt_result r;
	char msg[1024];
	u32 n = 1 + (u32)(rnd() % 16), k, p, miss;

	volume(&v, 0x10, n);
	volume(&other, 0x20, 1 + (u32)(rnd() % 4));
	/* NONE */
	nf = 0;
	for (p = 0; p < n; p++)
		add(&v, p, 0, false);
	for (p = 0; p < other.nr_members; p++)
		add(&other, p, 1, true);
	shuffle();
	bad[0] += bds_adopt_decide(f, nf, v.volume_uuid, &r) != BDS_ADOPT_NONE;
	/* MD_WHOLE */
	nf = 0;
	for (p = 0; p < n; p++)
		add(&v, p, 1, true);
	shuffle();
	bds_adopt_decide(f, nf, v.volume_uuid, &r);
	bds_adopt_message(&r, msg, sizeof(msg));
	bad[1] += r.verdict != BDS_ADOPT_MD_WHOLE ||
		  !strstr(msg, "the md array is whole") ||
		  !strstr(msg, "bdsadm adopt vol10 --from") ||
		  !strstr(msg, "nothing was written");
	/* FINISH, k primaries */
	if (n > 1) {
		k = 1 + (u32)(rnd() % (n - 1));
		nf = 0;
		for (p = 0; p < n; p++)
			add(&v, p, p < k ? 0 : 1, true);
		shuffle();
		bds_adopt_decide(f, nf, v.volume_uuid, &r);
		bad[2] += r.verdict != BDS_ADOPT_FINISH || r.nr_primary != k ||
			  r.backup_only || !mapped(&r, n);
	}
	/* FINISH, backups only */
	nf = 0;
	for (p = 0; p < n; p++)
		add(&v, p, 0, p == 0 || rnd() % 2);
	shuffle();
	bds_adopt_decide(f, nf, v.volume_uuid, &r);
	bad[3] += r.verdict != BDS_ADOPT_FINISH || !r.backup_only ||
		  !mapped(&r, n);
	/* MD_WHOLE too: only some members have their marked backup */
	nf = 0;
	for (p = 0; p < n; p++)
		if (p == 0 || rnd() % 2)
			add(&v, p, 1, true);
	shuffle();
	bad[1] += bds_adopt_decide(f, nf, v.volume_uuid, &r) !=
		  BDS_ADOPT_MD_WHOLE;
	/* INCOMPLETE: a member missing, one of the others with its primary */
	miss = (u32)(rnd() % n);
	nf = 0;
	for (p = 0; p < n; p++)
		if (p != miss)
			add(&v, p, nf ? (int)(p % 2) : 0, true);
	if (nf) {
		shuffle();
		bds_adopt_decide(f, nf, v.volume_uuid, &r);
		bds_adopt_message(&r, msg, sizeof(msg));
		bad[4] += r.verdict != BDS_ADOPT_INCOMPLETE || r.position != miss ||
			  !strstr(msg, v.serial[miss]) ||
			  !strstr(msg, "nothing was written");
	}
	/* INCOMPLETE: a member twice (one of the two with its primary) */
	nf = 0;
	for (p = 0; p < n; p++)
		add(&v, p, 1, true);
	add(&v, (u32)(rnd() % n), 0, true);
	shuffle();
	bds_adopt_decide(f, nf, v.volume_uuid, &r);
	bds_adopt_message(&r, msg, sizeof(msg));
	bad[5] += r.verdict != BDS_ADOPT_INCOMPLETE || !r.dev || !r.dev2 ||
		  !strstr(msg, r.dev) || !strstr(msg, r.dev2);
	/* INCOMPLETE: a device of generation 2 (member 0 with its primary) */
	nf = 0;
	for (p = 0; p < n; p++)
		add(&v, p, p ? 1 : 0, true);
	f[rnd() % nf].label.generation = 2;
	shuffle();
	bds_adopt_decide(f, nf, v.volume_uuid, &r);
	bds_adopt_message(&r, msg, sizeof(msg));
	bad[6] += r.verdict != BDS_ADOPT_INCOMPLETE || !r.dev2 ||
		  !strstr(msg, r.dev2);
	/* the other volume's devices change nothing */
	marked_beside(&v, &other);
	bad[7] += bds_adopt_decide(f, nf, v.volume_uuid, &r) !=
		  BDS_ADOPT_MD_WHOLE ||
		  bds_adopt_decide(f, nf, other.volume_uuid, &r) != BDS_ADOPT_NONE;
	/* from a table: marked backups only, no md superblock anywhere */
	md_on = false;
	marked_beside(&v, &other);
	bds_adopt_decide(f, nf, v.volume_uuid, &r);
	bds_adopt_message(&r, msg, sizeof(msg));
	bad[8] += r.verdict != BDS_ADOPT_FINISH || !r.from_table ||
		  r.nr_primary || r.backup_only || !mapped(&r, n) ||
		  !strstr(msg, "'bdsadm adopt vol10 --from-table' was cut short") ||
		  !strstr(msg, "'bdsadm assemble vol10'");
	miss = (u32)(rnd() % n);
	nf = 0;
	for (p = 0; p < n; p++)
		if (p != miss)
			add(&v, p, 1, true);
	if (nf) {
		shuffle();
		bds_adopt_decide(f, nf, v.volume_uuid, &r);
		bds_adopt_message(&r, msg, sizeof(msg));
		bad[9] += r.verdict != BDS_ADOPT_INCOMPLETE || !r.from_table ||
			  r.position != miss || !strstr(msg, v.serial[miss]) ||
			  !strstr(msg, "bdsadm adopt --from-table") ||
			  !strstr(msg, "nothing was written");
	}
	md_on = true;
	/*
	 * md's superblock gone from one member (1.1's erased before its
	 * primary was written): md cannot assemble the array
	 */
	if (n > 1) {
		nf = 0;
		for (p = 0; p < n; p++)
			add(&v, p, 1, true);
		f[rnd() % nf].md_superblock = false;
		shuffle();
		bds_adopt_decide(f, nf, v.volume_uuid, &r);
		bds_adopt_message(&r, msg, sizeof(msg));
		bad[10] += r.verdict != BDS_ADOPT_FINISH || r.from_table ||
			   r.nr_primary || !mapped(&r, n) ||
			   !strstr(msg, "md cannot assemble the array");
	}
}

int main(void)
{
	static const char *const what[] = {
		"no copy with ADOPT: NONE (another volume's ADOPT copies do not count)",
		"no primary written: MD_WHOLE, the message says so, names adopt, nothing written",
		"k primaries written: FINISH, k of them, every position mapped",
		"every primary written: FINISH, backups only",
		"a member missing: INCOMPLETE at it, its serial named, nothing written",
		"a member twice: INCOMPLETE, both devices named",
		"a device of another generation: INCOMPLETE, it is named",
		"another volume beside it: each decided on its own",
		"from a table, every marked backup there, no md superblock: FINISH from the backups, the message names adopt --from-table and assemble",
		"from a table, a member missing: INCOMPLETE at it, the table and its serial named, nothing written",
		"md's superblock on every member but one: FINISH from the backups, md cannot assemble",
	};
	int rounds = 300, i;

	tap_rng = 0x61646f7074ULL;
	for (i = 0; i < rounds; i++)
		one_round();
	for (i = 0; i < 11; i++)
		check(bad[i] == 0, "%s (%d of %d rounds wrong)", what[i], bad[i],
		      rounds);
	return tap_done();
}
