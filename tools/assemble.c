// SPDX-License-Identifier: GPL-2.0
/*
 * The assembly decision of bdsadm (see assemble.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"

void bds_uuid_format(const u8 *u, char *out)
{
	bds_uuid_text(u, out);
}

bool bds_uuid_parse(const char *s, u8 *u)
{
	return bds_parse_uuid(s, u);
}

static bool same_uuid(const u8 *a, const u8 *b)
{
	return !memcmp(a, b, BDS_UUID_LEN);
}

size_t bds_volumes(const struct bds_found *f, size_t n,
		   u8 (*uuids)[BDS_UUID_LEN], size_t max)
{
	size_t i, j, count = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (same_uuid(f[j].label.volume_uuid, f[i].label.volume_uuid))
				break;
		if (j < i)
			continue;
		if (count < max)
			memcpy(uuids[count], f[i].label.volume_uuid, BDS_UUID_LEN);
		count++;
	}
	return count;
}

bool bds_label_restripe_done(const struct bds_label *l)
{
	u64 w = 0;
	u32 i;

	if (!(l->incompat & BDS_LABEL_INCOMPAT_RESHAPE))
		return false;
	if (l->reshape_dir == BDS_RESHAPE_BACKWARD)
		return l->reshape_pos == 0;
	for (i = 0; i < l->old_nr_members; i++)
		w += l->old_weight[i];
	return l->reshape_pos * l->chunk_sectors == l->old_member_len * w;
}

bool bds_label_restripe_fresh(const struct bds_label *l)
{
	u64 w = 0;
	u32 i;

	if (!(l->incompat & BDS_LABEL_INCOMPAT_RESHAPE) ||
	    l->old_nr_members != l->nr_members)
		return false;
	for (i = 0; i < l->old_nr_members; i++) {
		if (l->old_member[i] != i)
			return false;
		w += l->old_weight[i];
	}
	if (l->reshape_dir == BDS_RESHAPE_FORWARD)
		return l->reshape_pos == 0;
	return l->reshape_pos * l->chunk_sectors == l->old_member_len * w;
}

/*
 * A plain label @p beside label @r of a restripe of the same members at
 * its start (bds_label_restripe_fresh()): @p must be the geometry @r
 * restripes from.  The first field on which they differ, or NULL.
 */
static const char *fresh_disagreement(const struct bds_label *r,
				      const struct bds_label *p)
{
	u32 i;

	if (strcmp(r->name, p->name) || r->ctime != p->ctime)
		return "the volume name or creation time";
	if (r->nr_members != p->nr_members || r->chunk_sectors != p->chunk_sectors)
		return "the number of members or the stripe unit";
	if (r->old_nr_groups != p->nr_groups || r->old_layout != p->layout)
		return "the restripe's old geometry";
	for (i = 0; i < p->nr_groups; i++)
		if (r->old_group_size[i] != p->group_size[i])
			return "the restripe's old geometry";
	if (r->old_member_len != bds_label_unit(p))
		return "the data length per member";
	for (i = 0; i < p->nr_members; i++) {
		if (!same_uuid(r->uuid[i], p->uuid[i]))
			return "the member UUIDs";
		if (r->old_weight[i] != p->weight[i] ||
		    r->old_offset[i] != p->member_offset[i])
			return "the restripe's old members";
	}
	return NULL;
}

/*
 * Mid-restripe, the labels agree on everything but the checkpoint, which
 * the members' labels may hold one step apart (the least advanced
 * counts: assemble_one()).
 */
static const char *restripe_disagreement(const struct bds_label *a,
					 const struct bds_label *b)
{
	u32 i;

	if ((a->incompat ^ b->incompat) & BDS_LABEL_INCOMPAT_RESHAPE)
		return bds_label_restripe_done(a) || bds_label_restripe_done(b) ?
		       NULL : "whether a restripe is in progress";
	if (!(a->incompat & BDS_LABEL_INCOMPAT_RESHAPE))
		return NULL;
	if (a->reshape_dir != b->reshape_dir)
		return "the restripe's direction";
	if (a->old_nr_members != b->old_nr_members ||
	    a->old_nr_groups != b->old_nr_groups ||
	    a->old_layout != b->old_layout ||
	    a->old_member_len != b->old_member_len ||
	    memcmp(a->old_group_size, b->old_group_size,
		   sizeof(a->old_group_size)))
		return "the restripe's old geometry";
	for (i = 0; i < a->old_nr_members; i++)
		if (a->old_member[i] != b->old_member[i] ||
		    a->old_weight[i] != b->old_weight[i] ||
		    a->old_offset[i] != b->old_offset[i])
			return "the restripe's old members";
	return NULL;
}

/* The first volume-wide field on which two labels differ, or NULL. */
static const char *disagreement(const struct bds_label *a,
				const struct bds_label *b)
{
	u32 i;

	/* a restripe of the same members, cut while its labels were written */
	if (bds_label_restripe_fresh(a) && !(b->incompat & BDS_LABEL_INCOMPAT_RESHAPE))
		return fresh_disagreement(a, b);
	if (bds_label_restripe_fresh(b) && !(a->incompat & BDS_LABEL_INCOMPAT_RESHAPE))
		return fresh_disagreement(b, a);
	if (strcmp(a->name, b->name))
		return "the volume name";
	if (a->ctime != b->ctime)
		return "the creation time";
	if (a->nr_members != b->nr_members || a->nr_groups != b->nr_groups)
		return "the number of members or groups";
	if (memcmp(a->group_size, b->group_size, sizeof(a->group_size)))
		return "the group sizes";
	if (a->layout != b->layout)
		return "the layout";
	if (a->chunk_sectors != b->chunk_sectors)
		return "the stripe unit";
	for (i = 0; i < a->nr_members; i++)
		if (a->weight[i] != b->weight[i])
			return "the member weights";
	/* each label has its own member's share: weight x the unit */
	if (bds_label_unit(a) != bds_label_unit(b))
		return "the data length per member";
	for (i = 0; i < a->nr_members; i++) {
		if (!same_uuid(a->uuid[i], b->uuid[i]))
			return "the member UUIDs";
		if (a->member_offset[i] != b->member_offset[i])
			return "the members' data offsets";
	}
	return restripe_disagreement(a, b);
}

static void about_member(struct bds_asm_result *r, const struct bds_label *l,
			 u32 pos)
{
	r->position = pos;
	memcpy(r->member_uuid, l->uuid[pos], BDS_UUID_LEN);
	memcpy(r->serial, l->serial[pos], sizeof(r->serial));
	memcpy(r->controller, l->controller[bds_label_group_of(l, pos)],
	       sizeof(r->controller));
}

/* Pick the volume: by name (refusing a clash) or by UUID. */
static bool pick_volume(const struct bds_found *f, size_t n, const char *name,
			const u8 *uuid, struct bds_asm_result *r)
{
	size_t i;
	bool seen = false;

	if (name)
		snprintf(r->name, sizeof(r->name), "%s", name);
	else
		memcpy(r->volume_uuid, uuid, BDS_UUID_LEN);
	for (i = 0; i < n; i++) {
		const struct bds_label *l = &f[i].label;

		if (name ? strcmp(l->name, name) : !same_uuid(l->volume_uuid, uuid))
			continue;
		if (!seen) {
			memcpy(r->volume_uuid, l->volume_uuid, BDS_UUID_LEN);
			r->dev = f[i].dev;
			seen = true;
		} else if (!same_uuid(l->volume_uuid, r->volume_uuid)) {
			memcpy(r->other_uuid, l->volume_uuid, BDS_UUID_LEN);
			r->dev2 = f[i].dev;
			r->verdict = BDS_ASM_NAME_CLASH;
			return false;
		}
	}
	if (!seen) {
		r->verdict = BDS_ASM_NOT_FOUND;
		return false;
	}
	return true;
}

static bool of_volume(const struct bds_found *f, const struct bds_asm_result *r)
{
	return same_uuid(f->label.volume_uuid, r->volume_uuid);
}

/*
 * Newest generation (or generation @gen when it is not 0); its labels
 * must agree.  Sets r->label.
 */
static bool check_generation(const struct bds_found *f, size_t n, u64 gen,
			     struct bds_asm_result *r)
{
	size_t i, newest = n;

	/* of one generation, a restripe's label at its start describes both */
	for (i = 0; i < n; i++)
		if (of_volume(&f[i], r) && (!gen || f[i].label.generation == gen) &&
		    (newest == n || f[i].label.generation > f[newest].label.generation ||
		     (f[i].label.generation == f[newest].label.generation &&
		      bds_label_restripe_fresh(&f[i].label) &&
		      !(f[newest].label.incompat & BDS_LABEL_INCOMPAT_RESHAPE))))
			newest = i;
	r->label = &f[newest].label;
	r->generation = r->label->generation;
	r->nr_members = r->label->nr_members;
	snprintf(r->name, sizeof(r->name), "%s", r->label->name);
	for (i = 0; i < n; i++) {
		if (!of_volume(&f[i], r) || f[i].label.generation != r->generation)
			continue;
		r->field = disagreement(r->label, &f[i].label);
		if (r->field) {
			r->dev = f[newest].dev;
			r->dev2 = f[i].dev;
			r->verdict = BDS_ASM_GEOMETRY;
			return false;
		}
	}
	return true;
}

/* One device of the generation decided on per position. */
static bool fill_positions(const struct bds_found *f, size_t n,
			   struct bds_asm_result *r)
{
	size_t i;
	u32 p;

	for (p = 0; p < BDS_MAX_MEMBERS; p++)
		r->member[p] = -1;
	for (i = 0; i < n; i++) {
		if (!of_volume(&f[i], r) || f[i].label.generation != r->generation)
			continue;
		p = f[i].label.member_index;
		if (r->member[p] >= 0) {
			about_member(r, r->label, p);
			r->dev = f[r->member[p]].dev;
			r->dev2 = f[i].dev;
			r->verdict = BDS_ASM_DUPLICATE;
			return false;
		}
		r->member[p] = (int)i;
	}
	return true;
}

/* Positions nobody current holds: stale if an old device does, else missing. */
static bool check_complete(const struct bds_found *f, size_t n,
			   struct bds_asm_result *r)
{
	u32 p, first = r->nr_members;
	size_t i;

	for (p = 0; p < r->nr_members; p++) {
		if (r->member[p] >= 0)
			continue;
		for (i = 0; i < n; i++) {
			if (of_volume(&f[i], r) && f[i].label.member_index == p &&
			    f[i].label.generation < r->generation) {
				about_member(r, r->label, p);
				r->dev = f[i].dev;
				r->dev_generation = f[i].label.generation;
				r->same_member = same_uuid(f[i].label.member_uuid,
							   r->label->uuid[p]);
				r->verdict = BDS_ASM_STALE;
				return false;
			}
		}
		if (first == r->nr_members)
			first = p;
		r->nr_missing++;
	}
	if (r->nr_missing) {
		about_member(r, r->label, first);
		r->dev = NULL;
		r->verdict = BDS_ASM_MISSING;
		return false;
	}
	return true;
}

static bool check_sizes(const struct bds_found *f, struct bds_asm_result *r)
{
	u32 p;

	for (p = 0; p < r->nr_members; p++) {
		const struct bds_found *d = &f[r->member[p]];

		if (d->sectors < d->label.data_offset + d->label.data_sectors) {
			about_member(r, r->label, p);
			r->dev = d->dev;
			r->verdict = BDS_ASM_SHRUNK;
			return false;
		}
		if (d->copy)
			r->nr_backup++;
	}
	return true;
}

/* The decision over @f for the newest generation, or for @gen. */
static enum bds_asm_verdict decide(const struct bds_found *f, size_t n,
				   u64 gen, struct bds_asm_result *r)
{
	r->verdict = BDS_ASM_OK;
	if (check_generation(f, n, gen, r) &&
	    fill_positions(f, n, r) &&
	    check_complete(f, n, r) &&
	    check_sizes(f, r))
		r->verdict = BDS_ASM_OK;
	return r->verdict;
}

/*
 * The devices of the volume as they would be at generation @gen: the
 * label that counts where it is of @gen, else, with @older, the older
 * copy where that is of @gen.  The others are left out (their volume
 * UUID zeroed: no label has that one).  @v has room for @n.
 */
static void view_at(const struct bds_found *f, size_t n,
		    const struct bds_asm_result *r, u64 gen, bool older,
		    struct bds_found *v)
{
	size_t i;

	for (i = 0; i < n; i++) {
		v[i] = f[i];
		if (!of_volume(&f[i], r) || f[i].label.generation == gen)
			continue;
		if (older && f[i].has_older && f[i].older.generation == gen) {
			v[i].label = f[i].older;
			v[i].copy = !f[i].copy;
			v[i].has_older = false;
		} else {
			memset(v[i].label.volume_uuid, 0, BDS_UUID_LEN);
		}
	}
}

/*
 * Is generation @gen, as the labels that count give it, a complete set?
 * (@v: scratch room for @n devices.)  Fills *out with that decision.
 */
static bool complete_at(const struct bds_found *f, size_t n,
			const struct bds_asm_result *r, u64 gen,
			struct bds_found *v, struct bds_asm_result *out)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->volume_uuid, r->volume_uuid, BDS_UUID_LEN);
	view_at(f, n, r, gen, false, v);
	return decide(v, n, gen, out) == BDS_ASM_OK;
}

/* At most this many older generations are tried for a complete set. */
#define OTHER_GENERATIONS	64

/* The distinct generations of the volume below @below, newest first. */
static size_t older_generations(const struct bds_found *f, size_t n,
				const struct bds_asm_result *r, u64 below,
				u64 *gens, size_t max)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		u64 g = f[i].label.generation;

		if (!of_volume(&f[i], r) || g >= below)
			continue;
		for (j = 0; j < k && gens[j] > g; j++)
			;
		if (j < k && gens[j] == g)
			continue;
		if (k == max) {
			if (j == k)
				continue;
			k--;	/* the oldest makes room */
		}
		memmove(&gens[j + 1], &gens[j], (k - j) * sizeof(*gens));
		gens[j] = g;
		k++;
	}
	return k;
}

/*
 * A generation below r->generation whose member table is larger: a
 * volume's membership changes never take members away, so either that
 * generation or the newest is not the volume's.  Its newest one, and
 * the devices that carry it (in their label that counts or in their
 * older copy), go into r->other.  Returns whether there is one.
 */
static bool find_larger_older(const struct bds_found *f, size_t n,
			      struct bds_asm_result *r)
{
	const struct bds_label *l;
	u64 best = 0;
	size_t i;
	int c;

	for (i = 0; i < n; i++)
		for (c = 0; c < 2 && of_volume(&f[i], r); c++) {
			l = c ? &f[i].older : &f[i].label;
			if ((c && !f[i].has_older) || l->generation >= r->generation ||
			    l->nr_members <= r->nr_members || l->generation <= best)
				continue;
			best = l->generation;
			r->other_members = l->nr_members;
		}
	r->other_generation = best;
	r->nr_other = 0;
	for (i = 0; best && i < n && r->nr_other < BDS_MAX_MEMBERS; i++)
		if (of_volume(&f[i], r) &&
		    (f[i].label.generation == best ||
		     (f[i].has_older && f[i].older.generation == best)))
			r->other_dev[r->nr_other++] = f[i].dev;
	return best != 0;
}

/*
 * The complete sets of generations below r->generation, as the labels
 * that count give them: the newest of them goes into r->other.
 * Returns whether there is one.
 */
static bool find_other_set(const struct bds_found *f, size_t n,
			   struct bds_asm_result *r)
{
	struct bds_asm_result *o = malloc(sizeof(*o));
	struct bds_found *v = malloc(n * sizeof(*v));
	u64 gens[OTHER_GENERATIONS];
	size_t i, k;
	bool found = false;
	u32 p;

	k = older_generations(f, n, r, r->generation, gens, OTHER_GENERATIONS);
	for (i = 0; o && v && i < k && !found; i++) {
		if (!complete_at(f, n, r, gens[i], v, o))
			continue;
		found = true;
		r->other_generation = gens[i];
		r->other_members = o->nr_members;
		r->nr_other = o->nr_members;
		for (p = 0; p < o->nr_members; p++)
			r->other_dev[p] = f[o->member[p]].dev;
	}
	free(o);
	free(v);
	return found;
}

/* The generation below @gen that devices or their older copies carry. */
static u64 previous_generation(const struct bds_found *f, size_t n, u64 gen,
			       const struct bds_asm_result *r)
{
	u64 prev = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!of_volume(&f[i], r))
			continue;
		if (f[i].label.generation < gen && f[i].label.generation > prev)
			prev = f[i].label.generation;
		if (f[i].has_older && f[i].older.generation < gen &&
		    f[i].older.generation > prev)
			prev = f[i].older.generation;
	}
	return prev;
}

/* Is @u a member of the volume @l describes? */
static bool in_table(const struct bds_label *l, const u8 *u)
{
	u32 p;

	for (p = 0; p < l->nr_members; p++)
		if (same_uuid(l->uuid[p], u))
			return true;
	return false;
}

enum commit {
	COMMITTED,
	NOT_COMMITTED,		/* the joining disk says so */
	UNKNOWN,		/* no joining disk; the members that stay say not */
};

/*
 * Was the change to generation @l (from the view @old) committed?  The
 * disk that joins (a device of @l's generation whose member is not in
 * @old's table) gets its second copy at the commit point: with both
 * copies it says committed, with its first copy only it says not.
 * Without it, the members that stay tell committed (no device still
 * carries @old's generation as a member both generations share, same
 * UUID at the same position), but never prove a change cut short: a
 * clone of such a member at the old generation, its real disk absent,
 * looks just the same.
 */
static enum commit committed(const struct bds_found *f, size_t n,
			     const struct bds_label *l,
			     const struct bds_label *old,
			     const struct bds_asm_result *r)
{
	bool joiner = false, single = false;
	size_t i;
	u32 p;

	for (i = 0; i < n; i++) {
		if (!of_volume(&f[i], r) || f[i].label.generation != l->generation ||
		    in_table(old, f[i].label.member_uuid))
			continue;
		if (!f[i].single)
			return COMMITTED;
		joiner = single = true;
	}
	if (joiner)
		return single ? NOT_COMMITTED : COMMITTED;
	for (i = 0; i < n; i++) {
		const struct bds_label *d = &f[i].label;

		if (!of_volume(&f[i], r) || d->generation != old->generation)
			continue;
		p = d->member_index;
		if (p < l->nr_members && p < old->nr_members &&
		    same_uuid(l->uuid[p], old->uuid[p]) &&
		    same_uuid(d->member_uuid, l->uuid[p]))
			return UNKNOWN;
	}
	return COMMITTED;
}

/* Do two labels of a volume name other members? */
static bool members_changed(const struct bds_label *a, const struct bds_label *b)
{
	u32 p;

	if (a->nr_members != b->nr_members)
		return true;
	for (p = 0; p < a->nr_members; p++)
		if (!same_uuid(a->uuid[p], b->uuid[p]))
			return true;
	return false;
}

/*
 * A rollback writes only to devices of the abandoned generation @gen:
 * those whose member is in @prev's table too must hold a copy of
 * exactly @prev's generation (what the replace left in their backup);
 * a member of both generations that does not is no replace cut short
 * (a restored clone of the old set, say), and nothing may be rolled
 * back.  Returns the first such device, or NULL when it is safe.
 */
static const char *rollback_unsafe(const struct bds_found *f, size_t n,
				   u64 gen, const struct bds_label *prev,
				   const struct bds_asm_result *r)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (of_volume(&f[i], r) && f[i].label.generation == gen &&
		    in_table(prev, f[i].label.member_uuid) &&
		    (!f[i].has_older || f[i].older.generation != prev->generation))
			return f[i].dev;
	return NULL;
}

/* A device of generation @gen, for the message. */
static const char *device_at(const struct bds_found *f, size_t n, u64 gen,
			     const struct bds_asm_result *r)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (of_volume(&f[i], r) && f[i].label.generation == gen)
			return f[i].dev;
	return NULL;
}

/* The writes of a rollback from generation @gen to @old's. */
static void rollback_writes(const struct bds_found *f, size_t n, u64 gen,
			    struct bds_asm_result *old)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!of_volume(&f[i], old) || f[i].label.generation != gen)
			continue;
		if (in_table(old->label, f[i].label.member_uuid))
			old->restore[old->nr_restore++] = (int)i;
		else
			old->drop[old->nr_drop++] = (int)i;
	}
}

/*
 * The newest generation @r was refused (missing or stale): if a
 * membership change was interrupted before its commit point, decide on
 * the previous generation, each device taking its older copy where it
 * has one.  Returns true when @r now holds that decision.
 */
static bool try_rollback(const struct bds_found *f, size_t n,
			 struct bds_asm_result *r)
{
	u64 gen = r->generation, prev = previous_generation(f, n, gen, r);
	const struct bds_label *prev_l = NULL;
	struct bds_asm_result *old;
	struct bds_found *v;
	enum commit state;

	/*
	 * A membership change moves one generation on: a rollback goes
	 * back exactly one, never past a generation whose devices are all
	 * missing.
	 */
	if (!prev || prev != gen - 1)
		return false;
	v = malloc(n * sizeof(*v));
	old = malloc(sizeof(*old));
	if (!v || !old) {
		free(v);
		free(old);
		return false;
	}
	view_at(f, n, r, prev, true, v);
	memset(old, 0, sizeof(*old));
	memcpy(old->volume_uuid, r->volume_uuid, BDS_UUID_LEN);
	/* the previous generation's labels must agree on its members */
	if (check_generation(v, n, prev, old))
		prev_l = old->label;
	/*
	 * Only a change of the member table is a membership change; a
	 * device that missed a generation of the same members is stale.
	 */
	state = prev_l && members_changed(r->label, prev_l) ?
		committed(f, n, r->label, prev_l, r) : COMMITTED;
	if (state == UNKNOWN)
		r->unproven_rollback = device_at(f, n, gen, r);
	else if (state == NOT_COMMITTED)
		r->unsafe_rollback = rollback_unsafe(f, n, gen, prev_l, r);
	if (state != NOT_COMMITTED || r->unsafe_rollback) {
		free(v);
		free(old);
		return false;
	}
	decide(v, n, prev, old);
	old->rollback = true;
	old->abandoned = gen;
	old->newest = r->newest;
	old->rolled = *old->label;
	old->label = &old->rolled;
	rollback_writes(f, n, gen, old);
	*r = *old;
	r->label = &r->rolled;
	free(v);
	free(old);
	return true;
}

/* The devices of the volume not in the set decided on. */
static void list_ignored(const struct bds_found *f, size_t n,
			 struct bds_asm_result *r)
{
	bool used;
	size_t i;
	u32 p;

	r->nr_ignored = 0;
	for (i = 0; i < n; i++) {
		if (!of_volume(&f[i], r))
			continue;
		used = false;
		for (p = 0; p < r->nr_members && !used; p++)
			used = r->member[p] == (int)i;
		for (p = 0; p < r->nr_drop && !used; p++)
			used = r->drop[p] == (int)i;
		if (used)
			continue;
		if (r->nr_ignored < BDS_ASM_LIST_MAX)
			r->ignored[r->nr_ignored] = (int)i;
		r->nr_ignored++;
	}
}

static u64 newest_generation(const struct bds_found *f, size_t n,
			     const struct bds_asm_result *r)
{
	u64 g = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (of_volume(&f[i], r) && f[i].label.generation > g)
			g = f[i].label.generation;
	return g;
}

/* Generation @gen, asked for: the labels that count of it, as they are. */
static enum bds_asm_verdict decide_asked(const struct bds_found *f, size_t n,
					 u64 gen, struct bds_asm_result *r)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (of_volume(&f[i], r) && f[i].label.generation == gen)
			return decide(f, n, gen, r);
	r->verdict = BDS_ASM_NOT_FOUND;
	return r->verdict;
}

/* Another volume's device that carries @name (a clash), or NULL. */
const struct bds_found *bds_name_clash(const struct bds_found *f, size_t n,
				       const char *name, const u8 *uuid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].label.name, name) &&
		    !same_uuid(f[i].label.volume_uuid, uuid))
			return &f[i];
	return NULL;
}

enum bds_asm_verdict bds_assemble_at(const struct bds_found *found, size_t n,
				     const char *name, const u8 *uuid,
				     u64 generation, struct bds_asm_result *r)
{
	memset(r, 0, sizeof(*r));
	if (!pick_volume(found, n, name, uuid, r))
		return r->verdict;
	r->newest = newest_generation(found, n, r);
	r->want_generation = generation;
	if (generation) {
		decide_asked(found, n, generation, r);
	} else if (decide(found, n, 0, r) == BDS_ASM_OK) {
		if (find_larger_older(found, n, r)) {
			r->verdict = BDS_ASM_CONFLICT;
			r->dev = found[r->member[0]].dev;
		}
	} else if (r->verdict == BDS_ASM_MISSING || r->verdict == BDS_ASM_STALE) {
		if (!try_rollback(found, n, r))
			find_other_set(found, n, r);
	}
	if (r->verdict == BDS_ASM_OK)
		list_ignored(found, n, r);
	return r->verdict;
}

enum bds_asm_verdict bds_assemble(const struct bds_found *found, size_t n,
				  const char *name, const u8 *uuid,
				  struct bds_asm_result *r)
{
	return bds_assemble_at(found, n, name, uuid, 0, r);
}

const struct bds_label *bds_asm_member_label(const struct bds_found *found,
					     const struct bds_asm_result *r,
					     u32 p)
{
	const struct bds_found *f = &found[r->member[p]];

	if (f->label.generation != r->generation && f->has_older &&
	    f->older.generation == r->generation)
		return &f->older;
	return &f->label;
}

enum bds_asm_owner bds_asm_owner(const struct bds_found *found,
				 const struct bds_asm_result *r,
				 const char *system_id, const char **other)
{
	bool here = false, mixed = false;
	u32 p;

	*other = NULL;
	for (p = 0; p < r->nr_members; p++) {
		const char *o = bds_asm_member_label(found, r, p)->owner;

		if (!o[0])
			continue;
		if (!strcmp(o, system_id)) {
			here = true;
			continue;
		}
		if (*other && strcmp(*other, o))
			mixed = true;
		*other = o;
	}
	if (*other)
		return here || mixed ? BDS_OWNER_MIXED : BDS_OWNER_FOREIGN;
	return here ? BDS_OWNER_HERE : BDS_OWNER_NONE;
}

/* Up to six of the devices @dev, then how many more: "/dev/a, /dev/b". */
static void dev_list(const char *const *dev, u32 n, char *buf, size_t sz)
{
	size_t len = 0;
	u32 i;

	buf[0] = '\0';
	for (i = 0; i < n && i < 6 && len < sz; i++) {
		snprintf(buf + len, sz - len, "%s%s", i ? ", " : "", dev[i]);
		len = strlen(buf);
	}
	if (i < n && len < sz)
		snprintf(buf + len, sz - len, " and %u more", n - i);
}

/* Append to @buf what follows a refusal of the newest generation. */
static void tell_other_set(const struct bds_asm_result *r, const char *vu,
			   char *buf, size_t sz)
{
	char devs[512];
	size_t len;

	if (r->unsafe_rollback) {
		len = strlen(buf);
		snprintf(buf + len, sz - len, "; %s holds no copy of the generation before %llu although its member is in both: the labels show no replace cut short, so nothing is rolled back or written",
			 r->unsafe_rollback, (unsigned long long)r->generation);
	}
	if (r->unproven_rollback) {
		len = strlen(buf);
		snprintf(buf + len, sz - len, "; the disk that was to join at generation %llu is not here: either a replace was cut short before its commit point, or the devices that carry the older generation beside %s are stale copies; nothing is rolled back or written. Attach the new disk and assemble again",
			 (unsigned long long)r->generation, r->unproven_rollback);
	}
	if (!r->other_generation)
		return;
	dev_list(r->other_dev, r->nr_other, devs, sizeof(devs));
	len = strlen(buf);
	snprintf(buf + len, sz - len, "; %s hold a complete older generation %llu of this volume (%u members): restored clones or disks that left it; it is not used in place of generation %llu, whose data is newer. Only if you mean to go back to that older data: bdsadm assemble --uuid %s --generation %llu",
		 devs, (unsigned long long)r->other_generation, r->other_members,
		 (unsigned long long)r->generation, vu,
		 (unsigned long long)r->other_generation);
}

void bds_asm_message(const struct bds_asm_result *r, char *buf, size_t sz)
{
	char vu[37], mu[37], ou[37], vol[BDS_LABEL_NAME_LEN + 64], who[160];
	char devs[512];

	bds_uuid_format(r->volume_uuid, vu);
	bds_uuid_format(r->member_uuid, mu);
	bds_uuid_format(r->other_uuid, ou);
	snprintf(vol, sizeof(vol), "volume %s (%s)", r->name, vu);
	snprintf(who, sizeof(who), "member %u (UUID %s, serial %s at creation, controller %s)",
		 r->position, mu, r->serial[0] ? r->serial : "unknown",
		 r->controller[0] ? r->controller : "unknown");

	switch (r->verdict) {
	case BDS_ASM_OK:
		snprintf(buf, sz, "%s: all %u members present, generation %llu",
			 vol, r->nr_members, (unsigned long long)r->generation);
		break;
	case BDS_ASM_NOT_FOUND:
		if (r->want_generation && r->newest)
			snprintf(buf, sz, "%s: no device's label that counts is of generation %llu (the newest found is %llu); see 'bdsadm list' and 'bdsadm examine'",
				 vol, (unsigned long long)r->want_generation,
				 (unsigned long long)r->newest);
		else if (r->name[0])
			snprintf(buf, sz, "volume %s: no device carries a bds-stripe label of that name; attach its disks, then see 'bdsadm list'",
				 r->name);
		else
			snprintf(buf, sz, "volume %s: no device carries a bds-stripe label of that UUID; attach its disks, then see 'bdsadm list'",
				 vu);
		break;
	case BDS_ASM_NAME_CLASH:
		snprintf(buf, sz, "volume name %s is carried by two volumes, %s (on %s) and %s (on %s); assembling neither by name: assemble one by its UUID (bdsadm assemble --uuid UUID)",
			 r->name, vu, r->dev, ou, r->dev2);
		break;
	case BDS_ASM_GEOMETRY:
		snprintf(buf, sz, "%s: %s and %s disagree on %s at generation %llu; not assembling an inconsistent set: compare them with 'bdsadm examine'",
			 vol, r->dev, r->dev2, r->field,
			 (unsigned long long)r->generation);
		break;
	case BDS_ASM_DUPLICATE:
		snprintf(buf, sz, "%s: %s is claimed by both %s and %s (a cloned disk?); not assembling: detach the copy that does not belong, or erase its label with 'bdsadm wipe'",
			 vol, who, r->dev, r->dev2);
		break;
	case BDS_ASM_STALE:
		if (r->same_member)
			snprintf(buf, sz, "%s: %s is missing: %s carries that member only at generation %llu, older than the volume's %llu (a restored clone or an old image of its disk); not assembling: attach the member's current disk",
				 vol, who, r->dev,
				 (unsigned long long)r->dev_generation,
				 (unsigned long long)r->generation);
		else
			snprintf(buf, sz, "%s: %s is only on %s, whose label is at generation %llu, older than the volume's %llu; not assembling: that disk left the volume, attach the member that took its place",
				 vol, who, r->dev,
				 (unsigned long long)r->dev_generation,
				 (unsigned long long)r->generation);
		tell_other_set(r, vu, buf, sz);
		break;
	case BDS_ASM_MISSING:
		snprintf(buf, sz, "%s: %s is missing (%u of %u members missing); not assembling a partial volume: attach the disk and assemble again",
			 vol, who, r->nr_missing, r->nr_members);
		tell_other_set(r, vu, buf, sz);
		break;
	case BDS_ASM_SHRUNK:
		snprintf(buf, sz, "%s: %s on %s is smaller than its data area; not assembling: the device shrank since creation",
			 vol, who, r->dev);
		break;
	case BDS_ASM_CONFLICT:
		dev_list(r->other_dev, r->nr_other, devs, sizeof(devs));
		snprintf(buf, sz, "%s: the newest generation %llu (on %s%s) has %u members, but %s carry generation %llu of %u members; a membership change never takes members away, so one of the two is not this volume's: not assembling either. Compare them with 'bdsadm examine', assemble the set you trust with 'bdsadm assemble --uuid %s --generation G', and erase the other's labels with 'bdsadm wipe'",
			 vol, (unsigned long long)r->generation, r->dev,
			 r->nr_members > 1 ? " and others" : "", r->nr_members,
			 devs, (unsigned long long)r->other_generation,
			 r->other_members, vu);
		break;
	}
	if (r->rollback) {
		size_t len = strlen(buf);

		snprintf(buf + len, sz - len, r->verdict == BDS_ASM_OK ?
			 " (a membership change to generation %llu was interrupted before its commit point and is rolled back)" :
			 " (a membership change to generation %llu was interrupted before its commit point: the volume is the previous generation's)",
			 (unsigned long long)r->abandoned);
	}
}
