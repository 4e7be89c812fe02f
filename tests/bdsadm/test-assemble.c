// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bdsadm's assembly decision (tools/assemble.c): a set of
 * labels in, one table order or one specific refusal out.
 *
 * For many generated volumes (1 to 128 members in 1 to 32 groups), with
 * the devices found in a shuffled order and next to the members of other
 * volumes, each scenario must give its verdict and name the right member
 * and devices:
 *   complete                     OK; position p is the device labelled p
 *   members missing              MISSING, the lowest missing position,
 *                                how many are missing
 *   a member found twice         DUPLICATE, both devices
 *   a member one generation old  STALE, that device and both generations
 *   an old copy beside a current one   OK, the old one left out
 *   two volumes of one name      NAME_CLASH by name; OK by UUID
 *   labels of one generation that disagree   GEOMETRY, what disagrees
 *   a device smaller than its data area      SHRUNK
 *   a member read from its backup            OK, counted
 *   no label of that name        NOT_FOUND
 *   a replace interrupted before its commit point   OK, rolled back to
 *                                the old member, the updated primaries
 *                                to restore; without the old disk,
 *                                MISSING as the old volume
 *   a replace at its commit point   OK, the new member; without the new
 *                                disk STALE (naming the old one) or
 *                                MISSING, never the old one
 *   a weighted volume (random weights, each label's data its own
 *   member's share)              OK in table order, the volume's unit
 *                                and W from any label; a label with
 *                                other weights, or another unit: GEOMETRY;
 *                                a device smaller than its own share:
 *                                SHRUNK (the heaviest member's share does
 *                                not matter)
 * and every refusal message names the volume and says what to do.
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "../../tools/assemble.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libbds/tap.h"

#define MAX_FOUND	(3 * BDS_MAX_MEMBERS + 8)

struct scene {
	struct bds_found f[MAX_FOUND];
	char dev[MAX_FOUND][32];
	size_t n;
};

/* A volume's label as member @pos would carry it. */
static void make_volume(struct bds_label *l, const char *name, u8 tag)
{
	u32 n = 1 + (u32)(rnd() % BDS_MAX_MEMBERS), g, i;

	if (rnd() % 4 == 0)
		n = 1 + (u32)(rnd() % 8);
	memset(l, 0, sizeof(*l));
	l->nr_members = n;
	l->nr_groups = random_groups(n, l->group_size);
	for (g = 0; g < l->nr_groups; g++)
		snprintf(l->controller[g], sizeof(l->controller[g]), "host%u", g);
	l->chunk_sectors = 128;
	l->layout = BDS_LAYOUT_INTERLEAVE;
	l->generation = 1 + rnd() % 1000;
	l->ctime = 1767225600 + rnd() % 1000000;
	l->utime = l->ctime;
	l->member_sectors = 1 << 22;
	l->backup_sector = bds_label_backup_sector(l->member_sectors);
	l->data_offset = 2048;
	l->data_sectors = (l->backup_sector - 2048) / 128 * 128;
	l->label_sector = BDS_LABEL_PRIMARY;
	snprintf(l->name, sizeof(l->name), "%s", name);
	for (i = 0; i < BDS_UUID_LEN; i++)
		l->volume_uuid[i] = (u8)rnd();
	l->volume_uuid[0] = tag;
	for (i = 0; i < n; i++) {
		memcpy(l->uuid[i], l->volume_uuid, BDS_UUID_LEN);
		l->uuid[i][14] = (u8)i;
		l->uuid[i][15] = 0xee;
		l->member_offset[i] = 2048;
		l->weight[i] = 1;
		snprintf(l->serial[i], sizeof(l->serial[i]), "SN%02x-%03u", tag, i);
	}
}

static struct bds_found *add(struct scene *s, const struct bds_label *vol,
			     u32 pos)
{
	struct bds_found *d = &s->f[s->n];

	snprintf(s->dev[s->n], sizeof(s->dev[0]), "/dev/sd%zu", s->n);
	d->dev = s->dev[s->n];
	d->sectors = vol->member_sectors;
	d->copy = 0;
	d->has_older = false;
	d->single = false;
	d->label = *vol;
	d->label.member_index = pos;
	memcpy(d->label.member_uuid, vol->uuid[pos], BDS_UUID_LEN);
	/* its own member's share (all the same without weights) */
	d->label.data_sectors = bds_label_member_data(vol, pos);
	s->n++;
	return d;
}

static void add_all(struct scene *s, const struct bds_label *vol)
{
	u32 p;

	for (p = 0; p < vol->nr_members; p++)
		add(s, vol, p);
}

/* Shuffle the devices (dev names travel with them). */
static void shuffle(struct scene *s)
{
	size_t i;

	for (i = s->n; i > 1; i--) {
		size_t j = rnd() % i;
		struct bds_found t = s->f[i - 1];
		char name[32];

		s->f[i - 1] = s->f[j];
		s->f[j] = t;
		memcpy(name, s->dev[i - 1], 32);
		memcpy(s->dev[i - 1], s->dev[j], 32);
		memcpy(s->dev[j], name, 32);
	}
	for (i = 0; i < s->n; i++)
		s->f[i].dev = s->dev[i];
}

static bool order_is_right(const struct scene *s, const struct bds_asm_result *r,
			   const struct bds_label *vol)
{
	u32 p;

	if (r->nr_members != vol->nr_members)
		return false;
	for (p = 0; p < vol->nr_members; p++) {
		const struct bds_found *d;

		if (r->member[p] < 0 || (size_t)r->member[p] >= s->n)
			return false;
		d = &s->f[r->member[p]];
		if (d->label.member_index != p ||
		    memcmp(d->label.volume_uuid, vol->volume_uuid, BDS_UUID_LEN))
			return false;
	}
	return true;
}

static bool says(const struct bds_asm_result *r, const char *a, const char *b)
{
	char msg[2048];

	bds_asm_message(r, msg, sizeof(msg));
	return strstr(msg, a) && (!b || strstr(msg, b));
}

static struct scene sc;
static int bad[27];
/* replace_scene(): with every other member updated, is the commit done? */
static bool committing = true;

#define EXPECT(n, cond) do { if (!(cond)) bad[n]++; } while (0)

static void one_round(void)
{
	struct bds_label vol, other, twin;
	struct bds_asm_result r;
	struct bds_found *d;
	u32 p, k, i;
	char uuidtxt[37];

	make_volume(&vol, "data", 0xa0);
	make_volume(&other, "logs", 0xb0);

	/* complete, with another volume's members around */
	sc.n = 0;
	add_all(&sc, &vol);
	add_all(&sc, &other);
	shuffle(&sc);
	EXPECT(0, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
	       order_is_right(&sc, &r, &vol) && r.nr_backup == 0 &&
	       r.nr_ignored == 0);
	EXPECT(0, bds_assemble(sc.f, sc.n, "logs", NULL, &r) == BDS_ASM_OK &&
	       order_is_right(&sc, &r, &other));
	EXPECT(0, bds_volumes(sc.f, sc.n, NULL, 0) == 2);

	/* members missing */
	sc.n = 0;
	k = 1 + (u32)(rnd() % vol.nr_members);
	for (p = 0; p < vol.nr_members; p++)
		if (p < vol.nr_members - k || rnd() % 2)
			add(&sc, &vol, p);
	if (sc.n == 0)		/* nothing left that names it */
		EXPECT(1, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_NOT_FOUND);
	else if (sc.n < vol.nr_members) {
		u32 missing = vol.nr_members - (u32)sc.n, lowest = 0;
		bool have[BDS_MAX_MEMBERS] = { false };

		for (i = 0; i < sc.n; i++)
			have[sc.f[i].label.member_index] = true;
		while (have[lowest])
			lowest++;
		shuffle(&sc);
		EXPECT(1, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_MISSING &&
		       r.position == lowest && r.nr_missing == missing &&
		       !memcmp(r.member_uuid, vol.uuid[lowest], BDS_UUID_LEN) &&
		       !strcmp(r.serial, vol.serial[lowest]) &&
		       says(&r, "is missing", "not assembling a partial volume"));
	}

	/* a member found twice */
	sc.n = 0;
	add_all(&sc, &vol);
	p = (u32)(rnd() % vol.nr_members);
	d = add(&sc, &vol, p);
	shuffle(&sc);
	EXPECT(2, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_DUPLICATE &&
	       r.position == p && r.dev && r.dev2 && strcmp(r.dev, r.dev2) &&
	       says(&r, "claimed by both", "bdsadm wipe"));
	(void)d;

	/* a member one generation old, nobody else for its position */
	sc.n = 0;
	p = (u32)(rnd() % vol.nr_members);
	for (i = 0; i < vol.nr_members; i++) {
		d = add(&sc, &vol, i);
		if (i == p)
			d->label.generation = vol.generation - 1;
	}
	shuffle(&sc);
	EXPECT(3, (vol.nr_members == 1 ?
		   bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK :
		   bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_STALE &&
		   r.position == p && r.dev_generation == vol.generation - 1 &&
		   r.generation == vol.generation &&
		   says(&r, "older than the volume's", NULL)));

	/* an old copy of a member beside its current one */
	sc.n = 0;
	add_all(&sc, &vol);
	d = add(&sc, &vol, (u32)(rnd() % vol.nr_members));
	d->label.generation = vol.generation - 1;
	shuffle(&sc);
	EXPECT(4, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
	       order_is_right(&sc, &r, &vol) && r.nr_ignored == 1);
	for (i = 0; i < (u32)sc.n; i++)
		if ((int)i != r.member[sc.f[i].label.member_index])
			EXPECT(4, sc.f[i].label.generation == vol.generation - 1);

	/* two volumes of one name */
	make_volume(&twin, "data", 0xc0);
	sc.n = 0;
	add_all(&sc, &vol);
	add_all(&sc, &twin);
	shuffle(&sc);
	EXPECT(5, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_NAME_CLASH &&
	       says(&r, "two volumes", "--uuid"));
	bds_uuid_format(twin.volume_uuid, uuidtxt);
	EXPECT(5, says(&r, uuidtxt, NULL));
	EXPECT(5, bds_assemble(sc.f, sc.n, NULL, twin.volume_uuid, &r) == BDS_ASM_OK &&
	       order_is_right(&sc, &r, &twin));

	/* labels of one generation that disagree */
	sc.n = 0;
	add_all(&sc, &vol);
	d = &sc.f[rnd() % sc.n];
	switch (rnd() % 4) {
	case 0:
		d->label.chunk_sectors = 256;
		break;
	case 1:
		d->label.uuid[0][3] ^= 1;
		if (d->label.member_index == 0)
			d->label.member_uuid[3] ^= 1;
		break;
	case 2:
		d->label.data_sectors -= 128;
		break;
	default:
		d->label.ctime++;
		break;
	}
	shuffle(&sc);
	EXPECT(6, (vol.nr_members == 1 ?
		   bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK :
		   bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_GEOMETRY &&
		   r.field && says(&r, "disagree on", "bdsadm examine")));

	/* a device smaller than its data area */
	sc.n = 0;
	add_all(&sc, &vol);
	p = (u32)(rnd() % sc.n);
	sc.f[p].sectors = sc.f[p].label.data_offset + sc.f[p].label.data_sectors - 1;
	k = sc.f[p].label.member_index;
	EXPECT(7, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_SHRUNK &&
	       r.position == k && says(&r, "smaller than its data area", NULL));
	sc.f[p].sectors++;
	EXPECT(7, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK);

	/* a member read from its backup */
	sc.f[rnd() % sc.n].copy = 1;
	EXPECT(8, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
	       r.nr_backup == 1);

	/* no label of that name */
	EXPECT(9, bds_assemble(sc.f, sc.n, "nothing", NULL, &r) == BDS_ASM_NOT_FOUND &&
	       says(&r, "volume nothing", "bdsadm list"));
	EXPECT(9, bds_assemble(sc.f, 0, "data", NULL, &r) == BDS_ASM_NOT_FOUND);
}

/*
 * A replace of position p interrupted after the new member's label and
 * k of the other members' primary copies were written (the label update
 * order of bds-stripe-label.rst): each updated member carries the new
 * generation and, in its backup, the old one.  @with_old, @with_new: the
 * old and the new disk are present.
 */
static void replace_scene(const struct bds_label *vol, const struct bds_label *nv,
			  u32 p, u32 k, bool with_old, bool with_new)
{
	struct bds_found *d;
	u32 q, done = 0;

	sc.n = 0;
	if (with_old)
		add(&sc, vol, p);
	if (with_new) {
		/* its second copy is the commit point */
		d = add(&sc, nv, p);
		d->single = k < vol->nr_members - 1 || !committing;
	}
	for (q = 0; q < vol->nr_members; q++) {
		if (q == p)
			continue;
		if (done < k) {
			d = add(&sc, nv, q);
			d->has_older = true;
			d->older = *vol;
			d->older.member_index = q;
			memcpy(d->older.member_uuid, vol->uuid[q], BDS_UUID_LEN);
			done++;
		} else {
			add(&sc, vol, q);
		}
	}
	shuffle(&sc);
}

static void replace_round(void)
{
	struct bds_label vol, nv;
	struct bds_asm_result r;
	u32 p, k, others, restored;
	const struct bds_found *d;

	make_volume(&vol, "data", 0xd0);
	nv = vol;
	nv.generation = vol.generation + 1;
	p = (u32)(rnd() % vol.nr_members);
	nv.uuid[p][13] ^= 0x5a;
	snprintf(nv.serial[p], sizeof(nv.serial[p]), "NEW-%03u", p);
	others = vol.nr_members - 1;

	/* before the commit point: rolled back to the old member */
	if (others) {
		bool with_new = rnd() % 4 != 0;

		k = (u32)(rnd() % others);
		replace_scene(&vol, &nv, p, k, true, with_new);
		restored = k;
		/*
		 * without the new disk nothing proves the change cut short:
		 * refused, unless no label of the new generation was written
		 */
		if (!with_new && k) {
			EXPECT(10, bds_assemble(sc.f, sc.n, "data", NULL, &r) != BDS_ASM_OK &&
			       !r.rollback && !r.nr_restore && !r.nr_drop &&
			       says(&r, "is not here", "nothing is rolled back"));
			with_new = true;
			replace_scene(&vol, &nv, p, k, true, with_new);
		}
		EXPECT(10, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
		       r.rollback == (with_new || k) &&
		       r.generation == vol.generation &&
		       (!r.rollback || r.abandoned == nv.generation) &&
		       order_is_right(&sc, &r, &vol) &&
		       r.nr_restore == restored && r.nr_drop == (with_new ? 1u : 0u) &&
		       (!r.rollback ||
			says(&r, "interrupted before its commit point", "rolled back")));
		if (r.verdict == BDS_ASM_OK) {
			d = &sc.f[r.member[p]];
			EXPECT(10, !memcmp(d->label.member_uuid, vol.uuid[p], BDS_UUID_LEN) &&
			       r.label->generation == vol.generation);
		}
		/* ... and without the old disk: refused as the old volume */
		replace_scene(&vol, &nv, p, k, false, true);
		EXPECT(13, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_MISSING &&
		       r.rollback && r.position == p &&
		       !memcmp(r.member_uuid, vol.uuid[p], BDS_UUID_LEN) &&
		       says(&r, "is missing", "the volume is the previous generation's"));
	}

	/*
	 * every other member updated but one, whose disk is gone, and a
	 * clone of it at the old generation: with the new disk's second
	 * copy not yet written (not committed) rolled back onto the clone;
	 * with it written (committed), refused, nothing written
	 */
	if (others) {
		u32 q = (p + 1) % vol.nr_members;
		size_t j;

		committing = false;
		replace_scene(&vol, &nv, p, others, true, true);
		committing = true;
		for (j = 0; j < sc.n; j++)
			if (sc.f[j].label.member_index == q &&
			    sc.f[j].label.generation == nv.generation)
				break;
		sc.f[j].label = sc.f[j].older;	/* the clone, in its place */
		sc.f[j].has_older = false;
		EXPECT(18, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
		       r.rollback && r.generation == vol.generation &&
		       r.nr_restore == others - 1 && r.nr_drop == 1 &&
		       order_is_right(&sc, &r, &vol));
		for (j = 0; j < sc.n; j++)
			sc.f[j].single = false;
		EXPECT(18, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_STALE &&
		       r.same_member && !r.rollback && !r.nr_restore && !r.nr_drop);
	}

	/*
	 * labels of a replace by bdsadm before 1.6.0 (the new disk's two
	 * copies first), cut before its commit point: not provably cut
	 * short, so refused, and nothing is written
	 */
	if (others) {
		replace_scene(&vol, &nv, p, (u32)(rnd() % others), true, true);
		for (k = 0; k < sc.n; k++)
			sc.f[k].single = false;
		EXPECT(19, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_STALE &&
		       !r.rollback && !r.nr_restore && !r.nr_drop);
	}

	/* at the commit point (every other member updated): the new one */
	replace_scene(&vol, &nv, p, others, rnd() % 2, true);
	EXPECT(11, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
	       !r.rollback && r.generation == nv.generation &&
	       !memcmp(sc.f[r.member[p]].label.member_uuid, nv.uuid[p], BDS_UUID_LEN));

	/*
	 * ... and the new disk lost after it: never back to the old one,
	 * which left the volume (STALE names it); with neither, MISSING
	 */
	replace_scene(&vol, &nv, p, others, true, false);
	EXPECT(12, (others ?
		    bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_STALE &&
		    !r.rollback && r.position == p && r.generation == nv.generation &&
		    !memcmp(r.member_uuid, nv.uuid[p], BDS_UUID_LEN) &&
		    says(&r, "older than the volume's", "took its place") :
		    bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
		    r.generation == vol.generation));
	replace_scene(&vol, &nv, p, others, false, false);
	EXPECT(12, others == 0 ||
	       (bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_MISSING &&
		!r.rollback && r.position == p && r.generation == nv.generation));
}

/*
 * A weighted volume: weights 1 to 8 (W at most 1024), the heaviest
 * member filling its space; @vol is member 0's view.
 */
static void make_weighted(struct bds_label *l, const char *name, u8 tag,
			  u64 *unit)
{
	u32 i, wmax = 0;

	make_volume(l, name, tag);
	for (i = 0; i < l->nr_members; i++) {
		l->weight[i] = 1 + (u32)(rnd() % 8);
		if (l->weight[i] > wmax)
			wmax = l->weight[i];
	}
	if (wmax == 1)
		l->weight[rnd() % l->nr_members] = wmax = 2;
	l->incompat = BDS_LABEL_INCOMPAT_WEIGHTS;
	*unit = (l->backup_sector - l->data_offset) / (128 * wmax) * 128;
	l->data_sectors = *unit * l->weight[0];
}

static void weighted_round(void)
{
	struct bds_label vol, other;
	struct bds_asm_result r;
	struct bds_found *d;
	u64 unit;
	u32 p, i, W = 0;
	bool shares = true;

	make_weighted(&vol, "data", 0xe0, &unit);
	make_volume(&other, "logs", 0xb0);
	for (i = 0; i < vol.nr_members; i++)
		W += vol.weight[i];

	/* complete, beside an unweighted volume */
	sc.n = 0;
	add_all(&sc, &vol);
	add_all(&sc, &other);
	shuffle(&sc);
	EXPECT(14, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
	       order_is_right(&sc, &r, &vol) && bds_label_weighted(r.label) &&
	       bds_label_unit(r.label) == unit && bds_label_slots(r.label) == W);
	for (p = 0; r.verdict == BDS_ASM_OK && p < vol.nr_members; p++)
		shares = shares && sc.f[r.member[p]].label.data_sectors ==
			 unit * vol.weight[p] &&
			 bds_label_member_data(r.label, p) == unit * vol.weight[p];
	EXPECT(14, shares);
	EXPECT(14, bds_assemble(sc.f, sc.n, "logs", NULL, &r) == BDS_ASM_OK &&
	       !bds_label_weighted(r.label) &&
	       bds_label_slots(r.label) == other.nr_members);

	/* a label with other weights (its own share as they give it) */
	sc.n = 0;
	add_all(&sc, &vol);
	d = &sc.f[rnd() % sc.n];
	p = (u32)(rnd() % vol.nr_members);
	d->label.weight[p] = vol.weight[p] == 1 ? 2 : 1;
	d->label.data_sectors = unit * d->label.weight[d->label.member_index];
	shuffle(&sc);
	/* one member alone agrees with itself */
	EXPECT(15, vol.nr_members == 1 ?
	       bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK :
	       bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_GEOMETRY &&
	       !strcmp(r.field, "the member weights") &&
	       says(&r, "disagree on the member weights", "bdsadm examine"));

	/* a label whose share is of another unit: one cycle more */
	sc.n = 0;
	add_all(&sc, &vol);
	d = &sc.f[rnd() % sc.n];
	d->label.data_sectors += 128 * d->label.weight[d->label.member_index];
	d->sectors += 128 * d->label.weight[d->label.member_index];
	shuffle(&sc);
	EXPECT(16, vol.nr_members == 1 ?
	       bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK :
	       bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_GEOMETRY &&
	       !strcmp(r.field, "the data length per member"));

	/* each device must hold its own share, not the heaviest one's */
	sc.n = 0;
	add_all(&sc, &vol);
	for (i = 0; i < sc.n; i++)
		sc.f[i].sectors = sc.f[i].label.data_offset +
				  sc.f[i].label.data_sectors;
	EXPECT(17, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK);
	p = (u32)(rnd() % sc.n);
	sc.f[p].sectors--;
	EXPECT(17, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_SHRUNK &&
	       r.position == sc.f[p].label.member_index);
}

/*
 * A volume mid-restripe (feature RESHAPE): members whose labels hold
 * checkpoints one step apart assemble; labels that disagree on the old
 * geometry, or on whether a restripe runs, do not.
 */
static void restripe_round(void)
{
	struct bds_label vol;
	struct bds_asm_result r;
	struct bds_found *d;
	u32 i, n;

	make_volume(&vol, "data", 0xd0);
	n = vol.nr_members;
	vol.incompat |= BDS_LABEL_INCOMPAT_RESHAPE;
	vol.reshape_pos = 1000;
	vol.reshape_dir = BDS_RESHAPE_FORWARD;
	vol.old_nr_members = n;
	vol.old_nr_groups = 1;
	vol.old_group_size[0] = n;
	vol.old_layout = BDS_LAYOUT_SEQUENTIAL;
	vol.old_member_len = vol.data_sectors / 2 / 128 * 128;
	for (i = 0; i < n; i++) {
		vol.old_member[i] = (u8)i;
		vol.old_weight[i] = 1;
		vol.old_offset[i] = 4096;
	}

	sc.n = 0;
	add_all(&sc, &vol);
	d = &sc.f[rnd() % sc.n];
	d->label.reshape_pos = 1016;
	shuffle(&sc);
	EXPECT(20, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
	       order_is_right(&sc, &r, &vol) &&
	       (r.label->incompat & BDS_LABEL_INCOMPAT_RESHAPE));

	sc.n = 0;
	add_all(&sc, &vol);
	d = &sc.f[rnd() % sc.n];
	d->label.old_offset[rnd() % n] = 4104;
	shuffle(&sc);
	EXPECT(21, n == 1 ?
	       bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK :
	       bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_GEOMETRY &&
	       !strcmp(r.field, "the restripe's old members"));

	sc.n = 0;
	add_all(&sc, &vol);
	d = &sc.f[rnd() % sc.n];
	d->label.incompat &= ~BDS_LABEL_INCOMPAT_RESHAPE;
	d->label.old_nr_members = 0;
	shuffle(&sc);
	EXPECT(22, n == 1 ?
	       bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK :
	       bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_GEOMETRY &&
	       !strcmp(r.field, "whether a restripe is in progress"));

	/* at its end, a label with the restripe and one without agree */
	vol.reshape_pos = vol.old_member_len * n / vol.chunk_sectors;
	sc.n = 0;
	add_all(&sc, &vol);
	d = &sc.f[rnd() % sc.n];
	d->label.incompat &= ~BDS_LABEL_INCOMPAT_RESHAPE;
	d->label.old_nr_members = 0;
	d->label.reshape_pos = 0;
	shuffle(&sc);
	EXPECT(23, bds_label_restripe_done(&vol) &&
	       bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
	       order_is_right(&sc, &r, &vol));
}

/*
 * A restripe of the same members (grow --layout / --weights) cut while
 * its labels were written: plain labels of the old geometry beside the
 * restripe's at its start, one generation, assemble as the restripe;
 * past its start, or with another old geometry, they do not.
 */
static void fresh_round(void)
{
	struct bds_label old, vol;
	struct bds_asm_result r;
	bool back = rnd() % 2;
	u32 i, k, n, p;

	make_volume(&old, "data", 0xf0);
	old.layout = BDS_LAYOUT_SEQUENTIAL;
	n = old.nr_members;
	vol = old;
	vol.layout = BDS_LAYOUT_INTERLEAVE;
	vol.incompat |= BDS_LABEL_INCOMPAT_RESHAPE;
	vol.reshape_dir = back ? BDS_RESHAPE_BACKWARD : BDS_RESHAPE_FORWARD;
	vol.old_nr_members = n;
	vol.old_nr_groups = old.nr_groups;
	for (i = 0; i < old.nr_groups; i++)
		vol.old_group_size[i] = old.group_size[i];
	vol.old_layout = old.layout;
	vol.old_member_len = bds_label_unit(&old);
	vol.reshape_pos = back ? vol.old_member_len * n / vol.chunk_sectors : 0;
	for (i = 0; i < n; i++) {
		vol.old_member[i] = (u8)i;
		vol.old_weight[i] = 1;
		vol.old_offset[i] = old.member_offset[i];
		vol.member_offset[i] = back ? 2048 + 128 : 1024;
	}
	vol.data_offset = vol.member_offset[0];

	/* some members plain (one at least), the others (one at least) not */
	k = (u32)(rnd() % n);
	sc.n = 0;
	for (p = 0; p < n; p++) {
		bool is_plain = p != k &&
				(p == (k + 1) % n || rnd() % 2);

		add(&sc, is_plain ? &old : &vol, p);
	}
	shuffle(&sc);
	EXPECT(24, bds_label_restripe_fresh(&vol) &&
	       bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_OK &&
	       order_is_right(&sc, &r, &vol) &&
	       bds_label_restripe_fresh(r.label));

	/* past its start: a plain label is no cut, but an older copy */
	if (n > 1) {
		for (i = 0; i < sc.n; i++)
			if (sc.f[i].label.incompat & BDS_LABEL_INCOMPAT_RESHAPE)
				sc.f[i].label.reshape_pos = back ?
					sc.f[i].label.reshape_pos - 16 : 16;
		EXPECT(25, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_GEOMETRY);
	}

	/* a plain label of another geometry than the one restriped from */
	if (n > 1) {
		sc.n = 0;
		add(&sc, &vol, 0);
		for (p = 1; p < n; p++)
			add(&sc, &old, p);
		p = 1 + (u32)(rnd() % (n - 1));
		sc.f[p].label.member_offset[rnd() % n] += 8;
		shuffle(&sc);
		EXPECT(26, bds_assemble(sc.f, sc.n, "data", NULL, &r) == BDS_ASM_GEOMETRY &&
		       !strcmp(r.field, "the restripe's old members"));
	}
}

static void test_uuid_text(void)
{
	u8 u[16], v[16];
	char s[37];
	int i;

	for (i = 0; i < 16; i++)
		u[i] = (u8)(0x0f * i + 1);
	bds_uuid_format(u, s);
	check(!strcmp(s, "01101f2e-3d4c-5b6a-7988-97a6b5c4d3e2"), "uuid format: %s", s);
	check(bds_uuid_parse(s, v) && !memcmp(u, v, 16), "uuid parse round trip");
	check(bds_uuid_parse("01101F2E-3D4C-5B6A-7988-97A6B5C4D3E2", v) &&
	      !memcmp(u, v, 16), "uuid parse: upper case");
	check(!bds_uuid_parse("01101f2e3d4c5b6a798897a6b5c4d3e2", v) &&
	      !bds_uuid_parse("01101f2e-3d4c-5b6a-7988-97a6b5c4d3e", v) &&
	      !bds_uuid_parse("01101f2e-3d4c-5b6a-7988-97a6b5c4d3e2x", v) &&
	      !bds_uuid_parse("0g101f2e-3d4c-5b6a-7988-97a6b5c4d3e2", v) &&
	      !bds_uuid_parse("", v), "uuid parse refuses malformed text");
}


int main(void)
{
	static const char *const what[] = {
		"complete sets assemble in table order, beside another volume",
		"missing members: MISSING, lowest position, count, serial",
		"a member found twice: DUPLICATE, both devices",
		"a member one generation old: STALE",
		"an old copy beside the current one is left out",
		"two volumes of one name: NAME_CLASH; each by UUID is fine",
		"labels of one generation that disagree: GEOMETRY",
		"a device smaller than its data area: SHRUNK",
		"a member read from its backup copy is counted",
		"no label of that name: NOT_FOUND",
		"replace interrupted before its commit point: rolled back",
		"replace at its commit point: the new member",
		"replace committed, new disk lost: never the old one",
		"replace not committed, old disk lost: refused as the old volume",
		"weighted volumes assemble; unit, W and each share from the labels",
		"weighted: a label with other weights: GEOMETRY (the member weights)",
		"weighted: a label of another unit: GEOMETRY (the data length)",
		"weighted: each device holds its own share, else SHRUNK",
		"replace cut before its commit point, a member's clone for its disk: rolled back; after it: refused",
		"replace by an older bdsadm cut before its commit point: refused, nothing written",
		"mid-restripe: checkpoints one step apart assemble",
		"mid-restripe: another old geometry: GEOMETRY (the old members)",
		"mid-restripe: one label without the restripe: GEOMETRY",
		"restripe at its end: labels with and without it assemble",
		"same members, cut at the restripe's start: plain and fresh labels assemble as the restripe",
		"same members, past the start: a plain label beside it: GEOMETRY",
		"same members: a plain label of another old geometry: GEOMETRY",
	};
	int rounds = 400, i;

	tap_rng = 0x617373656d626c65ULL;
	for (i = 0; i < rounds; i++) {
		one_round();
		replace_round();
		weighted_round();
		restripe_round();
		fresh_round();
	}
	for (i = 0; i < 27; i++)
		check(bad[i] == 0, "%s (%d of %d rounds wrong)", what[i], bad[i],
		      rounds);
	test_uuid_text();
	return tap_done();
}
