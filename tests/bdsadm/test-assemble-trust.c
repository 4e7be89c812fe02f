// SPDX-License-Identifier: GPL-2.0
/*
 * Trust nothing a disk says: the assembly decision (tools/assemble.c)
 * over disks that are restored clones, former members, or labels made
 * to look like members.
 *
 * The crafted cases of issue 40, each with the project's own encoder:
 *   clone case        a volume, whole-disk clones of every member (a
 *                     restored backup), a replace (generation 2), one
 *                     current member late: refused, nothing written,
 *                     the clones named as an older set; with the
 *                     member back, the current members, the clones
 *                     named as left out, nothing written
 *   forged newest     a one-member label with the volume's UUID and
 *                     generation 2^64-1: refused (a complete older set
 *                     of more members), and the real set by generation
 *   forged joiner     a newer label that claims a new member: only that
 *                     disk would be erased, the real set assembled
 *   forged old copy   a newer label of a real member with a crafted
 *                     older copy, beside the real member: refused
 *
 * Then a property test over random histories of a volume: creation,
 * replaces cut short at any step, whole-disk clones taken at any moment,
 * forged disks, disks left out.  For every decision:
 *   P1  a decision that writes (a rollback) writes to no device whose
 *       label that counts is of the newest generation that is a
 *       complete set, erases only devices whose member is not in the
 *       table rolled back to, and restores only copies of that
 *       generation; applied, the decision is the same set again, with
 *       nothing more to write;
 *   P2  no decision assembles fewer devices than a complete older set;
 *   P3  without forged disks, an assembled set is the true volume: each
 *       position's device is the real member or a clone of it that
 *       holds the same labels; and when every real member is there and
 *       nothing else, it is assembled;
 *   P4  with forged disks and the real set complete, an assembled set is
 *       the real one, or a forged set at least as large;
 *   P5  the decision does not depend on the order of the devices.
 * Output is TAP; the last line is "N passed, N failed".
 * Usage: test-assemble-trust [WORLDS [SEED]] (20000 worlds by default).
 */
#include "../../tools/assemble.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libbds/tap.h"

#define MAXD	64	/* disks in one world */
#define MAXN	6	/* members of a volume */

struct disk {
	bool ok[2];			/* primary, backup valid */
	struct bds_label copy[2];
	bool forged;
	bool present;
};

struct world {
	struct disk d[MAXD];
	int nd;
	/* the truth: the disks of the volume as it is, in table order */
	int member[MAXN];
	u32 n;
	struct bds_label vol;		/* the true volume's view label */
	bool interrupted;		/* a replace cut short before commit */
	int joiner;			/* then: the disk that was to join */
	/*
	 * then, with every member that stays updated: the new volume; until
	 * the volume is reloaded onto the new disk (after the commit point)
	 * its data is the old one's, and either is the volume
	 */
	struct bds_label next;
	int next_member[MAXN];
	bool forged;			/* forged disks were added */
};

static struct world w;

static void set_member(struct bds_label *l, const struct bds_label *vol, u32 p)
{
	*l = *vol;
	l->member_index = p;
	memcpy(l->member_uuid, vol->uuid[p], BDS_UUID_LEN);
}

/* Write a copy (0 primary, 1 backup) of member @p's label of @vol. */
static void write_copy(struct disk *d, int c, const struct bds_label *vol, u32 p)
{
	set_member(&d->copy[c], vol, p);
	d->copy[c].label_sector = c ? vol->backup_sector : BDS_LABEL_PRIMARY;
	d->ok[c] = true;
}

static int new_disk(void)
{
	struct disk *d = &w.d[w.nd];

	memset(d, 0, sizeof(*d));
	d->present = true;
	return w.nd++;
}

static void random_uuid(u8 *u, u8 tag)
{
	int i;

	for (i = 0; i < BDS_UUID_LEN; i++)
		u[i] = (u8)rnd();
	u[0] = tag;
	u[1] |= 1;
}

static void make_vol(struct bds_label *l, u32 n)
{
	u32 i;

	memset(l, 0, sizeof(*l));
	l->nr_members = n;
	l->nr_groups = 1;
	l->group_size[0] = n;
	snprintf(l->controller[0], sizeof(l->controller[0]), "host0");
	l->chunk_sectors = 128;
	l->layout = BDS_LAYOUT_INTERLEAVE;
	l->generation = 1 + rnd() % 5;
	l->ctime = 1767225600;
	l->utime = l->ctime;
	l->member_sectors = 1 << 22;
	l->backup_sector = bds_label_backup_sector(l->member_sectors);
	l->data_offset = 2048;
	l->data_sectors = (l->backup_sector - 2048) / 128 * 128;
	snprintf(l->name, sizeof(l->name), "data");
	random_uuid(l->volume_uuid, 0xa0);
	for (i = 0; i < n; i++) {
		random_uuid(l->uuid[i], (u8)i);
		l->member_offset[i] = 2048;
		l->weight[i] = 1;
		snprintf(l->serial[i], sizeof(l->serial[i]), "SN%u", i);
	}
}

static void create(u32 n)
{
	u32 p;

	memset(&w, 0, sizeof(w));
	w.joiner = -1;
	w.n = n;
	make_vol(&w.vol, n);
	for (p = 0; p < n; p++) {
		w.member[p] = new_disk();
		write_copy(&w.d[w.member[p]], 0, &w.vol, p);
		write_copy(&w.d[w.member[p]], 1, &w.vol, p);
	}
}

static void clone_disk(int i)
{
	int c;

	if (w.nd == MAXD)
		return;
	c = new_disk();
	w.d[c] = w.d[i];
	w.d[c].present = true;
}

/*
 * Replace position @p, the label writes of bds-stripe-label.rst in
 * order, cut short after @stop of them (-1: not cut).  Writes: the new
 * disk's primary, each staying member's primary, (the commit point),
 * the new disk's backup and each staying member's backup, the old disk
 * erased.
 */
static void replace(u32 p, int stop)
{
	struct bds_label nv = w.vol;
	int nd = new_disk(), done = 0, old = w.member[p];
	u32 q;

#define STEP() do { if (stop >= 0 && done++ >= stop) goto cut; } while (0)
	nv.generation = w.vol.generation + 1;
	random_uuid(nv.uuid[p], (u8)(0x40 + p));
	snprintf(nv.serial[p], sizeof(nv.serial[p]), "NEW%u", p);
	STEP();
	write_copy(&w.d[nd], 0, &nv, p);
	for (q = 0; q < w.n; q++) {
		if (q == p)
			continue;
		STEP();
		write_copy(&w.d[w.member[q]], 0, &nv, q);
	}
	/* the new disk's second copy: the commit point */
	w.next = nv;
	memcpy(w.next_member, w.member, sizeof(w.member));
	w.next_member[p] = nd;
	STEP();
	write_copy(&w.d[nd], 1, &nv, p);
	w.vol = nv;
	w.member[p] = nd;
	for (q = 0; q < w.n; q++) {
		if (q == p)
			continue;
		STEP();
		write_copy(&w.d[w.member[q]], 1, &nv, q);
	}
	STEP();
	w.d[old].ok[0] = w.d[old].ok[1] = false;
	return;
cut:
	/* before the commit point the volume is the old one */
	if (w.vol.generation != nv.generation) {
		if (w.next.generation != nv.generation)
			w.next.generation = 0;
		w.interrupted = true;
		w.joiner = nd;
	}
#undef STEP
}

/* A disk that claims to be part of the volume, made at random. */
static void forge(void)
{
	struct bds_label l = w.vol;
	struct disk *d;
	u32 p, i;
	int k = new_disk();

	d = &w.d[k];
	d->forged = true;
	switch (rnd() % 5) {
	case 0:		/* generation 2^64-1, one member */
		l.generation = ~0ULL;
		l.nr_members = 1;
		l.group_size[0] = 1;
		for (i = 1; i < BDS_MAX_MEMBERS; i++) {
			memset(l.uuid[i], 0, BDS_UUID_LEN);
			l.member_offset[i] = 0;
			l.weight[i] = 0;
			l.serial[i][0] = '\0';
		}
		if (rnd() & 1)
			random_uuid(l.uuid[0], 0x77);
		break;
	case 1:		/* a newer generation with a new member */
		l.generation += 1 + rnd() % 3;
		random_uuid(l.uuid[rnd() % w.n], 0x66);
		break;
	case 2:		/* an older or equal generation of the same table */
		l.generation -= rnd() % 2;
		break;
	default:	/* a newer generation of the same table */
		l.generation += 1 + rnd() % 3;
		break;
	}
	p = (u32)(rnd() % l.nr_members);
	write_copy(d, 0, &l, p);
	if (rnd() & 1) {	/* a crafted older copy, of the real volume */
		struct bds_label o = w.vol;

		o.generation = l.generation - 1 - rnd() % 2;
		if (p < o.nr_members && !memcmp(o.uuid[p], l.uuid[p], BDS_UUID_LEN))
			write_copy(d, 1, &o, p);
	}
	w.forged = true;
}

/* The devices as scan.c finds them (its look_at(), on labels only). */
struct scene {
	struct bds_found f[MAXD];
	int disk[MAXD];			/* which disk each one is */
	char dev[MAXD][24];
	size_t n;
};

static void to_scene(struct scene *s)
{
	int i;

	s->n = 0;
	for (i = 0; i < w.nd; i++) {
		const struct disk *d = &w.d[i];
		struct bds_found *f = &s->f[s->n];
		int pick;

		if (!d->present)
			continue;
		pick = bds_label_pick(d->ok[0] ? BDS_LABEL_OK : BDS_LABEL_ERR_MAGIC,
				      &d->copy[0],
				      d->ok[1] ? BDS_LABEL_OK : BDS_LABEL_ERR_MAGIC,
				      &d->copy[1]);
		if (pick < 0)
			continue;
		memset(f, 0, sizeof(*f));
		snprintf(s->dev[s->n], sizeof(s->dev[0]), "/dev/d%d", i);
		f->dev = s->dev[s->n];
		f->sectors = d->copy[pick].member_sectors;
		f->copy = pick;
		f->label = d->copy[pick];
		f->single = !d->ok[!pick];
		f->has_older = d->ok[!pick] &&
			       d->copy[!pick].generation < f->label.generation;
		if (f->has_older)
			f->older = d->copy[!pick];
		s->disk[s->n] = i;
		s->n++;
	}
}

static void shuffle(struct scene *s)
{
	size_t i, j;

	for (i = s->n; i > 1; i--) {
		struct bds_found t;
		int k;

		j = rnd() % i;
		t = s->f[i - 1];
		s->f[i - 1] = s->f[j];
		s->f[j] = t;
		k = s->disk[i - 1];
		s->disk[i - 1] = s->disk[j];
		s->disk[j] = k;
	}
}

/*
 * Written here again, simply: the newest generation whose labels that
 * count claim each position of one member table exactly once (0: none),
 * and its number of members.
 */
static u64 newest_complete(const struct scene *s, u32 *members)
{
	u64 best = 0;
	size_t i, j;

	*members = 0;
	for (i = 0; i < s->n; i++) {
		const struct bds_label *l = &s->f[i].label;
		u32 claims[BDS_MAX_MEMBERS] = { 0 }, p, ok = 1;

		if (l->generation <= best)
			continue;
		for (j = 0; j < s->n; j++) {
			const struct bds_label *m = &s->f[j].label;

			if (m->generation != l->generation)
				continue;
			if (m->nr_members != l->nr_members ||
			    memcmp(m->uuid, l->uuid, sizeof(l->uuid)))
				ok = 0;
			else
				claims[m->member_index]++;
		}
		for (p = 0; p < l->nr_members; p++)
			if (claims[p] != 1)
				ok = 0;
		if (ok) {
			best = l->generation;
			*members = l->nr_members;
		}
	}
	return best;
}

/* Has any complete set of a generation below @gen more than @n members? */
static bool larger_older_set(const struct scene *s, u64 gen, u32 n)
{
	struct scene t = *s;
	size_t i, k = 0;
	u32 members;

	/* the newest complete set below @gen, then below that, ... */
	for (;;) {
		for (i = 0, k = 0; i < t.n; i++)
			if (t.f[i].label.generation < gen)
				t.f[k++] = t.f[i];
		t.n = k;
		gen = newest_complete(&t, &members);
		if (!gen)
			return false;
		if (members > n)
			return true;
	}
}

static int bad[8];

static void dump(int n);
#define EXPECT(n, cond) do { if (!(cond)) { if (!bad[n]++) dump(n); } } while (0)

/* Does a device present carry the true volume's generation or a newer one? */
static bool newer_seen(const struct scene *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->f[i].label.generation >= w.vol.generation ||
		    (s->f[i].has_older && s->f[i].older.generation >= w.vol.generation))
			return true;
	return false;
}

/* Apply a decision's writes to the disks (as assemble-cmd.c does). */
static void apply_writes(const struct scene *s, const struct bds_asm_result *r)
{
	u32 i;

	for (i = 0; i < r->nr_restore; i++) {
		struct disk *d = &w.d[s->disk[r->restore[i]]];

		d->copy[0] = s->f[r->restore[i]].older;
		d->copy[0].label_sector = BDS_LABEL_PRIMARY;
		d->ok[0] = true;
	}
	for (i = 0; i < r->nr_drop; i++) {
		struct disk *d = &w.d[s->disk[r->drop[i]]];

		d->ok[0] = d->ok[1] = false;
	}
}

static struct scene *dscene;
static struct bds_asm_result *dres;
static void dump(int n)
{
	char msg[4096];
	size_t i;
	if (!getenv("TRUST_DEBUG"))
		return;
	fprintf(stderr, "=== P%d: n=%u volgen=%llu interrupted=%d joiner=%d forged=%d\n", n, w.n,
		(unsigned long long)w.vol.generation, w.interrupted, w.joiner, w.forged);
	for (i = 0; i < (size_t)w.nd; i++) {
		struct disk *d = &w.d[i];
		fprintf(stderr, " disk %zu%s%s: ", i, d->present ? "" : " (absent)", d->forged ? " FORGED" : "");
		for (int c = 0; c < 2; c++)
			if (d->ok[c]) fprintf(stderr, "[%c gen %llu pos %u uuid %02x%02x n%u] ", c ? 'B' : 'P',
				(unsigned long long)d->copy[c].generation, d->copy[c].member_index,
				d->copy[c].member_uuid[0], d->copy[c].member_uuid[1], d->copy[c].nr_members);
		fprintf(stderr, "\n");
	}
	fprintf(stderr, " truth:"); for (i = 0; i < w.n; i++) fprintf(stderr, " %d", w.member[i]); fprintf(stderr, "\n");
	if (dres) {
		bds_asm_message(dres, msg, sizeof(msg));
		fprintf(stderr, " verdict %d gen %llu rollback %d: %s\n members:", dres->verdict, (unsigned long long)dres->generation, dres->rollback, msg);
		for (i = 0; dres->verdict == 0 && i < dres->nr_members; i++) fprintf(stderr, " %d", dscene->disk[dres->member[i]]);
		fprintf(stderr, "\n");
	}
}

static void one_world(void)
{
	static struct scene s, s2;
	struct bds_asm_result r, r2;
	u32 p, top, steps;
	u64 hc;
	int i, replaces = (int)(rnd() % 3);
	bool all_true = true, real;

	create(1 + (u32)(rnd() % MAXN));
	for (i = 0; i <= replaces; i++) {
		int k, clones = rnd() % 3 ? 0 : 1 + (int)(rnd() % 3);

		for (k = 0; k < clones; k++)
			clone_disk((int)(rnd() % w.nd));
		if (i == replaces)
			break;
		steps = 2 + 2 * (w.n - 1) + 1;
		replace((u32)(rnd() % w.n),
			i + 1 == replaces && rnd() % 2 ? (int)(rnd() % steps) : -1);
		if (w.interrupted)
			break;
	}
	if (rnd() % 3 == 0) {
		int k, forged = 1 + (int)(rnd() % 2);

		for (k = 0; k < forged; k++)
			forge();
	}
	for (i = 0; i < w.nd; i++)
		if (rnd() % 5 == 0)
			w.d[i].present = false;

	to_scene(&s);
	shuffle(&s);
	bds_assemble(s.f, s.n, NULL, w.vol.volume_uuid, &r);
	dscene = &s;
	dres = &r;

	/* P5: another order, the same decision */
	s2 = s;
	shuffle(&s2);
	bds_assemble(s2.f, s2.n, NULL, w.vol.volume_uuid, &r2);
	if (getenv("TRUST_DEBUG") && !(r.verdict == r2.verdict && r.rollback == r2.rollback &&
	       r.generation == r2.generation && r.nr_members == r2.nr_members)) {
		char m2[4096];
		bds_asm_message(&r2, m2, sizeof(m2));
		fprintf(stderr, "ORDER2: verdict %d gen %llu rb %d: %s\n", r2.verdict, (unsigned long long)r2.generation, r2.rollback, m2);
	}
	EXPECT(4, r.verdict == r2.verdict && r.rollback == r2.rollback &&
	       r.generation == r2.generation &&
	       (r.verdict != BDS_ASM_OK || r.nr_members == r2.nr_members));
	for (p = 0; r.verdict == BDS_ASM_OK && p < r.nr_members; p++)
		EXPECT(4, s.disk[r.member[p]] == s2.disk[r2.member[p]]);

	/* P1: writes */
	hc = newest_complete(&s, &top);
	if (r.verdict == BDS_ASM_OK && (r.nr_restore || r.nr_drop)) {
		for (p = 0; p < r.nr_restore; p++)
			EXPECT(0, s.f[r.restore[p]].label.generation != hc &&
			       s.f[r.restore[p]].has_older &&
			       s.f[r.restore[p]].older.generation == r.generation);
		for (p = 0; p < r.nr_drop; p++) {
			const struct bds_label *l = &s.f[r.drop[p]].label;
			u32 q;

			EXPECT(0, l->generation != hc);
			for (q = 0; q < r.label->nr_members; q++)
				EXPECT(0, memcmp(r.label->uuid[q], l->member_uuid,
						 BDS_UUID_LEN));
		}
		/* applied: the same set, nothing more to do */
		apply_writes(&s, &r);
		to_scene(&s2);
		bds_assemble(s2.f, s2.n, NULL, w.vol.volume_uuid, &r2);
		EXPECT(0, r2.verdict == BDS_ASM_OK && !r2.rollback &&
		       r2.generation == r.generation && r2.nr_members == r.nr_members);
		for (p = 0; r2.verdict == BDS_ASM_OK && p < r2.nr_members; p++)
			EXPECT(0, s2.disk[r2.member[p]] == s.disk[r.member[p]]);
	}

	/* P2 */
	if (r.verdict == BDS_ASM_OK)
		EXPECT(1, !larger_older_set(&s, r.generation, r.nr_members));

	/* the real set: present? */
	for (p = 0; p < w.n; p++)
		all_true = all_true && w.d[w.member[p]].present;

	/*
	 * P3.  Not when no device present carries the volume's generation
	 * or a newer one: a complete set of stale clones, the real disks
	 * all gone, is all the labels say (a volume restored from images
	 * looks just so).  Not for a one-member volume whose disk is gone: no other
	 * member carries the newest generation, so a clone of an older one,
	 * or the disk a replace took out before it was erased, is all the
	 * labels there are (a limit of one-member volumes, written in
	 * Documentation/bds-stripe-label.rst).
	 */
	if (!w.forged && r.verdict == BDS_ASM_OK && newer_seen(&s) &&
	    !(w.n == 1 && !w.d[w.member[0]].present)) {
		const struct bds_label *t = &w.vol;

		if (w.interrupted && w.next.generation == r.generation)
			t = &w.next;
		EXPECT(2, r.nr_members == w.n && r.generation == t->generation &&
		       !memcmp(r.label->uuid, t->uuid, sizeof(t->uuid)));
		/* the real member, or a disk with its labels (a clone) */
		for (p = 0; p < r.nr_members && p < w.n; p++) {
			const struct bds_label *l = bds_asm_member_label(s.f, &r, p);

			EXPECT(2, l->generation == t->generation &&
			       !memcmp(l->member_uuid, t->uuid[p], BDS_UUID_LEN));
		}
	}
	if (!w.forged && all_true) {
		bool only = true;

		/* every real member, and no other labelled disk but the joiner */
		for (i = 0; i < w.nd; i++) {
			const struct disk *d = &w.d[i];
			bool member = false;

			for (p = 0; p < w.n; p++)
				member = member || w.member[p] == i;
			if (d->present && (d->ok[0] || d->ok[1]) && !member &&
			    i != w.joiner)
				only = false;
		}
		/* a replace cut short is proven by its new disk only */
		if (w.interrupted && !w.d[w.joiner].present)
			only = false;
		EXPECT(3, !only || r.verdict == BDS_ASM_OK);
	}

	/* P4 */
	if (w.forged && all_true && r.verdict == BDS_ASM_OK && !r.rollback) {
		bool next = w.interrupted && w.next.generation;

		real = true;
		for (p = 0; p < r.nr_members; p++)
			if (p >= w.n || s.disk[r.member[p]] != w.member[p])
				real = false;
		for (p = 0; next && p < r.nr_members; p++)
			if (p >= w.n || s.disk[r.member[p]] != w.next_member[p])
				next = false;
		real = real || next;
		if (!real) {
			u32 forged = 0;

			for (p = 0; p < r.nr_members; p++)
				forged += w.d[s.disk[r.member[p]]].forged;
			EXPECT(5, forged == r.nr_members && r.nr_members >= w.n);
		}
	}
}

/* The reproduction: clones, a replace, one member late. */
static void test_clone_case(void)
{
	static struct scene s;
	struct bds_asm_result r;
	char msg[4096];
	int clones[MAXN], late;
	u32 p;

	create(3);
	for (p = 0; p < 3; p++) {
		clones[p] = w.nd;
		clone_disk(w.member[p]);
	}
	replace(2, -1);
	/* one current member, not the new one, is late */
	late = w.member[1];
	w.d[late].present = false;
	to_scene(&s);
	shuffle(&s);
	bds_assemble(s.f, s.n, NULL, w.vol.volume_uuid, &r);
	bds_asm_message(&r, msg, sizeof(msg));
	check(r.verdict != BDS_ASM_OK && !r.rollback && !r.nr_restore && !r.nr_drop,
	      "clones + replace + a late member: refused, nothing to write (%s)", msg);
	check(r.other_generation == w.vol.generation - 1 && r.other_members == 3 &&
	      strstr(msg, "complete older generation") && strstr(msg, "--generation"),
	      "... the clones are named as a complete older generation");
	check(bds_assemble(s.f, s.n, "data", NULL, &r) != BDS_ASM_OK,
	      "... by name too");

	w.d[late].present = true;
	to_scene(&s);
	shuffle(&s);
	bds_assemble(s.f, s.n, NULL, w.vol.volume_uuid, &r);
	check(r.verdict == BDS_ASM_OK && !r.rollback &&
	      r.generation == w.vol.generation && r.nr_ignored == 3,
	      "the member back: the current members, the 3 clones left out");
	for (p = 0; r.verdict == BDS_ASM_OK && p < 3; p++)
		check(s.disk[r.member[p]] == w.member[p] &&
		      s.disk[r.ignored[p]] >= clones[0] &&
		      s.disk[r.ignored[p]] <= clones[2],
		      "... position %u on its current disk, a clone left out", p);
}

/* Forged: one member, generation 2^64-1. */
static void test_forged_newest(void)
{
	static struct scene s;
	struct bds_asm_result r;
	struct bds_label l;
	char msg[4096];
	int k;
	u32 i;

	create(3);
	k = new_disk();
	l = w.vol;
	l.generation = ~0ULL;
	l.nr_members = 1;
	l.group_size[0] = 1;
	for (i = 1; i < BDS_MAX_MEMBERS; i++) {
		memset(l.uuid[i], 0, BDS_UUID_LEN);
		l.member_offset[i] = 0;
		l.weight[i] = 0;
		l.serial[i][0] = '\0';
	}
	write_copy(&w.d[k], 0, &l, 0);
	write_copy(&w.d[k], 1, &l, 0);
	to_scene(&s);
	shuffle(&s);
	bds_assemble(s.f, s.n, "data", NULL, &r);
	bds_asm_message(&r, msg, sizeof(msg));
	check(r.verdict == BDS_ASM_CONFLICT && !r.rollback &&
	      r.other_generation == w.vol.generation && r.other_members == 3 &&
	      strstr(msg, "not assembling either") && strstr(msg, "--generation"),
	      "a forged one-member label of generation 2^64-1: refused (%s)", msg);
	bds_assemble_at(s.f, s.n, NULL, w.vol.volume_uuid, w.vol.generation, &r);
	check(r.verdict == BDS_ASM_OK && r.nr_members == 3 && !r.rollback,
	      "... the real set assembles when its generation is asked for");
	for (i = 0; r.verdict == BDS_ASM_OK && i < 3; i++)
		check(s.disk[r.member[i]] == w.member[i],
		      "... position %u on its real disk", i);
	bds_assemble_at(s.f, s.n, NULL, w.vol.volume_uuid, 12345, &r);
	bds_asm_message(&r, msg, sizeof(msg));
	check(r.verdict == BDS_ASM_NOT_FOUND && strstr(msg, "generation 12345"),
	      "a generation nobody carries: NOT_FOUND (%s)", msg);
}

/*
 * Forged: a newer label claiming a new member at one position.  With
 * one copy it looks like a replace cut short: only it loses its labels.
 * With two it looks like a replace committed: refused, nothing written.
 */
static void test_forged_joiner(void)
{
	static struct scene s;
	struct bds_asm_result r;
	struct bds_label l;
	int k;

	create(3);
	k = new_disk();
	l = w.vol;
	l.generation++;
	random_uuid(l.uuid[1], 0x55);
	write_copy(&w.d[k], 0, &l, 1);
	to_scene(&s);
	bds_assemble(s.f, s.n, NULL, w.vol.volume_uuid, &r);
	check(r.verdict == BDS_ASM_OK && r.rollback && r.nr_restore == 0 &&
	      r.nr_drop == 1 && s.disk[r.drop[0]] == k &&
	      s.disk[r.member[1]] == w.member[1],
	      "a forged joiner of a newer generation, one copy: only it loses its labels");
	write_copy(&w.d[k], 1, &l, 1);
	to_scene(&s);
	bds_assemble(s.f, s.n, NULL, w.vol.volume_uuid, &r);
	check(r.verdict == BDS_ASM_STALE && !r.rollback && !r.nr_restore &&
	      !r.nr_drop && r.other_generation == w.vol.generation,
	      "... two copies: refused, nothing written, the real set named");
}

/* Forged: a real member's UUID, newer, with a crafted older copy. */
static void test_forged_older_copy(void)
{
	static struct scene s;
	struct bds_asm_result r;
	struct bds_label l;
	int k;

	create(3);
	k = new_disk();
	l = w.vol;
	l.generation++;
	random_uuid(l.uuid[2], 0x55);
	write_copy(&w.d[k], 0, &l, 0);
	write_copy(&w.d[k], 1, &w.vol, 0);
	to_scene(&s);
	bds_assemble(s.f, s.n, NULL, w.vol.volume_uuid, &r);
	check(r.verdict != BDS_ASM_OK && !r.nr_restore && !r.nr_drop,
	      "a forged newer member 0 with a crafted older copy, beside member 0: refused, nothing written");
	w.d[w.member[0]].present = false;
	to_scene(&s);
	bds_assemble(s.f, s.n, NULL, w.vol.volume_uuid, &r);
	check(r.verdict != BDS_ASM_OK && !r.nr_restore && !r.nr_drop,
	      "... and without member 0: refused, nothing written");
}

int main(int argc, char **argv)
{
	static const char *const what[] = {
		"P1 writes: never to the newest complete set, drops only non-members, idempotent",
		"P2 never fewer devices than a complete older set",
		"P3 without forgeries, an assembled set is the true volume",
		"P3 every real member present and nothing else: assembled",
		"P5 the decision does not depend on the device order",
		"P4 with forgeries, the real set or a forged set at least as large",
	};
	int rounds = 20000, i;

	tap_rng = 0x7472757374000001ULL;
	/* test-assemble-trust [WORLDS [SEED]]: a longer run by hand */
	if (argc > 1)
		rounds = atoi(argv[1]);
	if (argc > 2)
		tap_rng = strtoull(argv[2], NULL, 0);
	test_clone_case();
	test_forged_newest();
	test_forged_joiner();
	test_forged_older_copy();
	for (i = 0; i < rounds; i++)
		one_world();
	for (i = 0; i < 6; i++)
		check(bad[i] == 0, "%s (%d of %d worlds wrong)", what[i], bad[i],
		      rounds);
	return tap_done();
}
