// SPDX-License-Identifier: GPL-2.0
/*
 * The plan's table lines: "0 LENGTH bds-stripe" and the words the
 * target's own writer gives (libbds/table.c), the one the kernel's table
 * status uses, so that the line reads back as written.  Two of them: the
 * one bdsadm create makes (the data after each member's label, the end
 * kept for the backup copy) and the one over whole devices that
 * bds-stripe-table and plan --unlabelled print.  See plan.h.
 */
#include "plan.h"
#include "../libbds/label.h"

#include <string.h>

/*
 * The members' device words, table order: MAJ:MIN, or /dev/NAME; and
 * their offsets (all 0 over whole devices).
 */
struct table_words {
	char dev[BDS_MAX_MEMBERS][NAME_SZ + 8];
	u64 offset[BDS_MAX_MEMBERS];
};

static const char *word_dev(const void *ctx, u32 m)
{
	return ((const struct table_words *)ctx)->dev[m];
}

static u64 word_offset(const void *ctx, u32 m)
{
	return ((const struct table_words *)ctx)->offset[m];
}

/* "0 @length bds-stripe" and the words of @a and @w into @buf. */
static enum plan_status table_line(struct plan_ctx *c, char *buf, size_t sz,
				   u64 length, const struct bds_args *a,
				   const struct table_words *w)
{
	const struct bds_table_members mb = { word_dev, word_offset, w };
	size_t n, room;

	n = (size_t)snprintf(buf, sz, "0 %llu bds-stripe ", U(length));
	room = sz - n;
	if (bds_table_write(buf + n, room, a, &mb) >= room)
		return plan_fail(c, "internal error: output line too long");
	c->table_words = n;
	return PLAN_OK;
}

/*
 * create's table: each member from its data offset; the length as many
 * whole cycles as the tightest member's room between its offset and its
 * backup copy holds.  None when it holds no cycle.
 */
static enum plan_status labelled_line(struct plan_ctx *c,
				      const struct plan_result *r,
				      const struct bds_args *a,
				      struct table_words *w)
{
	u64 chunk = r->chunk_b / SECTOR, per_cycle = 0, cycles;
	int i, tight;

	c->labelled[0] = '\0';
	c->no_room = NULL;
	for (i = 0; i < c->nmem; i++) {
		w->offset[i] = bds_label_data_offset((u32)chunk,
						     c->tbl[i]->pbs / 512);
		per_cycle += chunk * r->weight[i];
	}
	cycles = plan_label_cycles(c, r->weight, chunk, &tight);
	c->labelled_cycles = cycles;
	c->labelled_length = cycles * per_cycle;
	if (!cycles) {
		c->no_room = c->tbl[tight]->name;
		return PLAN_OK;
	}
	return table_line(c, c->labelled, sizeof(c->labelled),
			  cycles * per_cycle, a, w);
}

enum plan_status plan_table(struct plan_ctx *c, const struct plan_result *r)
{
	const struct bds_layout *l = &r->layout;
	struct table_words w;
	enum plan_status st;
	struct bds_args a = {
		.chunk = l->chunk,
		.nr_groups = l->nr_groups,
		.mode = l->mode,
		.nr_members = l->nr_members,
	};
	u32 i;

	for (i = 0; i < l->nr_groups; i++)
		a.group_size[i] = c->group_sizes[i];
	for (i = 0; i < l->nr_members; i++) {
		a.weight[i] = r->weight[i];
		if (c->opt.paths)
			snprintf(w.dev[i], sizeof(w.dev[i]), "/dev/%s",
				 c->tbl[i]->name);
		else
			snprintf(w.dev[i], sizeof(w.dev[i]), "%u:%u",
				 c->tbl[i]->maj, c->tbl[i]->min);
		w.offset[i] = 0;
	}
	if (c->opt.verb == VERB_PLAN) {
		st = labelled_line(c, r, &a, &w);
		if (st)
			return st;
		for (i = 0; i < l->nr_members; i++)
			w.offset[i] = 0;
	}
	/* last, so that c->table_words is this line's */
	return table_line(c, c->table, sizeof(c->table), r->length, &a, &w);
}

void plan_use_labelled(const struct plan_ctx *c, struct plan_result *r)
{
	u64 chunk = r->chunk_b / SECTOR;
	u32 i, slots = 0;

	for (i = 0; i < (u32)c->nmem; i++)
		slots += r->weight[i];
	r->whole_length = r->length;
	r->member_len = c->labelled_cycles * chunk;
	r->length = r->member_len * slots;
	r->labelled = true;
}
