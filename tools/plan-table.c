// SPDX-License-Identifier: GPL-2.0
/*
 * The plan's table line: "0 LENGTH bds-stripe" and the words the
 * target's own writer gives (libbds/table.c), the one the kernel's table
 * status uses, so that the line reads back as written.  See plan.h.
 */
#include "plan.h"

#include <string.h>

/* The members' device words, table order: MAJ:MIN, or /dev/NAME. */
struct table_words {
	char dev[BDS_MAX_MEMBERS][NAME_SZ + 8];
};

static const char *word_dev(const void *ctx, u32 m)
{
	return ((const struct table_words *)ctx)->dev[m];
}

/* The plan's table starts every member at sector 0. */
static u64 word_offset(const void *ctx, u32 m)
{
	(void)ctx;
	(void)m;
	return 0;
}

enum plan_status plan_table(struct plan_ctx *c, const struct plan_result *r)
{
	const struct bds_layout *l = &r->layout;
	struct table_words w;
	const struct bds_table_members mb = { word_dev, word_offset, &w };
	struct bds_args a = {
		.chunk = l->chunk,
		.nr_groups = l->nr_groups,
		.mode = l->mode,
		.nr_members = l->nr_members,
	};
	size_t n, room;
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
	}
	n = (size_t)snprintf(c->table, sizeof(c->table), "0 %llu bds-stripe ",
			     U(r->length));
	room = sizeof(c->table) - n;
	if (bds_table_write(c->table + n, room, &a, &mb) >= room)
		return plan_fail(c, "internal error: output line too long");
	c->table_words = n;
	return PLAN_OK;
}
