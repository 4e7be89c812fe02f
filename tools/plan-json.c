// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm plan --json: the plan as one JSON object, in place of the
 * table line and the summary.  Its keys are documented in bdsadm(8),
 * "JSON OUTPUT", and pinned by Documentation/bdsadm.schema.json
 * (definition "plan"); output_version changes when a key changes
 * meaning or goes away (a new key does not change it).
 */
#include "plan.h"
#include "fmt.h"
#include "../libbds/label.h"

#include <stdio.h>

#define U(x) ((unsigned long long)(x))

static void json_key(const char *key, const char *val, const char *after)
{
	printf("\"%s\": ", key);
	if (val && *val)
		bds_json_str(stdout, val);
	else
		printf("null");
	printf("%s", after);
}

static void json_controllers(const struct plan_ctx *c)
{
	int k, i, n;

	printf("  \"controllers\": [");
	for (k = 0; k < c->nctrl; k++) {
		printf("%s\n    {", k ? "," : "");
		json_key("name", c->ctrls[k].name, ", ");
		json_key("description", c->ctrls[k].desc, ", \"members\": [");
		for (i = 0, n = 0; i < c->nmem; i++)
			if (c->tbl[i]->ctrl == k)
				printf("%s%d", n++ ? ", " : "", i);
		printf("]}");
	}
	printf("\n  ],\n");
}

static void json_groups(const struct plan_ctx *c)
{
	int g, i, n;

	printf("  \"groups\": [");
	for (g = 0; g < c->ngroups; g++) {
		printf("%s\n    {\"group\": %d, ", g ? "," : "", g);
		json_key("controller", c->groups_from_spec ? NULL :
			 c->ctrls[g].name, ", \"members\": [");
		for (i = 0, n = 0; i < c->nmem; i++)
			if (c->tbl[i]->group == g)
				printf("%s%d", n++ ? ", " : "", i);
		printf("]}");
	}
	printf("\n  ],\n");
}

static void json_members(const struct plan_ctx *c, const struct plan_result *r)
{
	const struct bds_layout *l = &r->layout;
	u64 chunk = r->chunk_b / SECTOR;
	int i;

	printf("  \"members\": [");
	for (i = 0; i < c->nmem; i++) {
		const struct member *m = c->tbl[i];

		printf("%s\n    {\"index\": %d, ", i ? "," : "", i);
		json_key("device", m->arg, ", ");
		json_key("name", m->name, ", ");
		printf("\"dev\": \"%u:%u\", ", m->maj, m->min);
		json_key("type", m->kind, ", ");
		json_key("serial", m->serial, ", ");
		json_key("controller", c->ctrls[m->ctrl].name, ",\n     ");
		json_key("storage_host", m->where, ", ");
		printf("\"size_sectors\": %llu, \"logical_block_size\": %u, \"physical_block_size\": %u,\n",
		       U(m->size), m->lbs, m->pbs);
		printf("     \"group\": %d, \"weight\": %u, \"position\": %u, \"data_offset_sectors\": %llu}",
		       m->group, r->weight[i], bds_member_slot(l, (u32)i, 0),
		       U(bds_label_data_offset((u32)chunk, m->pbs / 512)));
	}
	printf("\n  ],\n");
}

static void json_order(const struct bds_layout *l)
{
	u32 p, n = l->slot ? l->nr_slots : l->nr_members;

	printf("  \"order\": [");
	for (p = 0; p < n; p++)
		printf("%s%u", p ? ", " : "",
		       l->slot ? bds_slot_member(l, p) : l->order[p]);
	printf("],\n");
}

static void json_notes(const struct plan_ctx *c)
{
	int i;

	printf("  \"notes\": [");
	for (i = 0; i < c->nnotes; i++) {
		printf("%s", i ? ", " : "");
		bds_json_str(stdout, c->notes[i]);
	}
	printf("]\n");
}

void plan_print_json(const struct plan_ctx *c, const struct plan_result *r)
{
	const struct bds_layout *l = &r->layout;
	u64 chunk = r->chunk_b / SECTOR, per_cycle = 0;
	int i;

	for (i = 0; i < c->nmem; i++)
		per_cycle += chunk * r->weight[i];

	printf("{\"output_version\": %d,\n  ", BDS_JSON_OUTPUT_VERSION);
	printf("\"layout\": \"%s\", \"nr_members\": %u, \"chunk_sectors\": %llu, \"cycle_sectors\": %llu,\n",
	       l->mode == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave",
	       l->nr_members, U(chunk), U(per_cycle));
	/* --transfer-size: the transfer is this many cycles; null without */
	if (r->transfer_k)
		printf("  \"transfer_cycles\": %u, ", r->transfer_k);
	else
		printf("  \"transfer_cycles\": null, ");
	/* create's volume: 0 and the tightest member when it would refuse */
	printf("\"size_sectors\": %llu, ", U(c->labelled_length));
	json_key("no_room", c->no_room, ",\n  ");
	json_key("table", c->no_room ? NULL : c->labelled, ",\n  ");
	printf("\"unlabelled_size_sectors\": %llu, ", U(r->length));
	json_key("unlabelled_table", c->table, ",\n");
	json_controllers(c);
	json_groups(c);
	json_members(c, r);
	json_order(l);
	plan_json_measure(c);
	json_notes(c);
	printf("}\n");
}
