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
	static const char hex[] = "0123456789abcdef";
	int i, o = 0;

	for (i = 0; i < BDS_UUID_LEN; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = hex[u[i] >> 4];
		out[o++] = hex[u[i] & 15];
	}
	out[o] = '\0';
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

/* The first volume-wide field on which two labels differ, or NULL. */
static const char *disagreement(const struct bds_label *a,
				const struct bds_label *b)
{
	u32 i;

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
	return NULL;
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

	for (i = 0; i < n; i++)
		if (of_volume(&f[i], r) && (!gen || f[i].label.generation == gen) &&
		    (newest == n || f[i].label.generation > f[newest].label.generation))
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

/* One device of the newest generation per position. */
static bool fill_positions(const struct bds_found *f, size_t n,
			   struct bds_asm_result *r)
{
	size_t i;
	u32 p;

	for (p = 0; p < BDS_MAX_MEMBERS; p++)
		r->member[p] = -1;
	for (i = 0; i < n; i++) {
		if (!of_volume(&f[i], r))
			continue;
		if (f[i].label.generation != r->generation) {
			r->nr_ignored++;
			continue;
		}
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
	if (check_generation(f, n, gen, r) &&
	    fill_positions(f, n, r) &&
	    check_complete(f, n, r) &&
	    check_sizes(f, r))
		r->verdict = BDS_ASM_OK;
	return r->verdict;
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

/*
 * Was the change to generation @l (from the view @old) committed?  It
 * was once no device still carries @old's generation as a member that
 * both generations share (same UUID at the same position).
 */
static bool committed(const struct bds_found *f, size_t n,
		      const struct bds_label *l, const struct bds_label *old,
		      const struct bds_asm_result *r)
{
	size_t i;
	u32 p;

	for (i = 0; i < n; i++) {
		const struct bds_label *d = &f[i].label;

		if (!of_volume(&f[i], r) || d->generation != old->generation)
			continue;
		p = d->member_index;
		if (p < l->nr_members && p < old->nr_members &&
		    same_uuid(l->uuid[p], old->uuid[p]) &&
		    same_uuid(d->member_uuid, l->uuid[p]))
			return false;
	}
	return true;
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
 * The newest generation @r was refused (missing or stale): if a
 * membership change was interrupted before its commit point, decide on
 * the previous generation, each device taking its older copy where it
 * has one.  Returns true when @r now holds that decision.
 */
static bool try_rollback(const struct bds_found *f, size_t n,
			 struct bds_asm_result *r)
{
	u64 gen = r->generation, prev = previous_generation(f, n, gen, r);
	struct bds_asm_result old;
	struct bds_found *v;
	const struct bds_label *prev_l = NULL;
	size_t i;

	if (!prev)
		return false;
	v = malloc(n * sizeof(*v));
	if (!v)
		return false;
	for (i = 0; i < n; i++) {
		v[i] = f[i];
		if (of_volume(&f[i], r) && f[i].label.generation != prev &&
		    f[i].has_older && f[i].older.generation == prev) {
			v[i].label = f[i].older;
			v[i].copy = !f[i].copy;
		}
		if (of_volume(&v[i], r) && v[i].label.generation == prev)
			prev_l = &v[i].label;
	}
	/*
	 * Only a change of the member table is a membership change; a
	 * device that missed a generation of the same members is stale.
	 */
	if (!prev_l || !members_changed(r->label, prev_l) ||
	    committed(f, n, r->label, prev_l, r)) {
		free(v);
		return false;
	}
	memset(&old, 0, sizeof(old));
	memcpy(old.volume_uuid, r->volume_uuid, BDS_UUID_LEN);
	old.verdict = BDS_ASM_OK;
	decide(v, n, prev, &old);
	old.rollback = true;
	old.abandoned = gen;
	old.rolled = *old.label;
	for (i = 0; i < n; i++) {
		if (!of_volume(&f[i], &old))
			continue;
		if (v[i].label.generation == prev &&
		    f[i].label.generation != prev)
			old.restore[old.nr_restore++] = (int)i;
		else if (f[i].label.generation == gen &&
			 (!f[i].has_older || f[i].older.generation != prev))
			old.drop[old.nr_drop++] = (int)i;
	}
	free(v);
	*r = old;
	r->label = &r->rolled;
	return true;
}

enum bds_asm_verdict bds_assemble(const struct bds_found *found, size_t n,
				  const char *name, const u8 *uuid,
				  struct bds_asm_result *r)
{
	memset(r, 0, sizeof(*r));
	if (!pick_volume(found, n, name, uuid, r))
		return r->verdict;
	r->verdict = BDS_ASM_OK;
	decide(found, n, 0, r);
	if (r->verdict == BDS_ASM_MISSING || r->verdict == BDS_ASM_STALE)
		try_rollback(found, n, r);
	return r->verdict;
}

void bds_asm_message(const struct bds_asm_result *r, char *buf, size_t sz)
{
	char vu[37], mu[37], ou[37], vol[BDS_LABEL_NAME_LEN + 64], who[160];

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
		if (r->name[0])
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
		snprintf(buf, sz, "%s: %s is only on %s, whose label is at generation %llu, older than the volume's %llu; not assembling: that disk left the volume, attach the member that took its place",
			 vol, who, r->dev, (unsigned long long)r->dev_generation,
			 (unsigned long long)r->generation);
		break;
	case BDS_ASM_MISSING:
		snprintf(buf, sz, "%s: %s is missing (%u of %u members missing); not assembling a partial volume: attach the disk and assemble again",
			 vol, who, r->nr_missing, r->nr_members);
		break;
	case BDS_ASM_SHRUNK:
		snprintf(buf, sz, "%s: %s on %s is smaller than its data area; not assembling: the device shrank since creation",
			 vol, who, r->dev);
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
