// SPDX-License-Identifier: GPL-2.0
/*
 * Weights in the plan (issue 14): the speeds of --disk-mbps and
 * --controller-mbps onto the members and controllers, --weights
 * capacity | bandwidth | LIST into the table's weights and the layout's
 * slots.  The choice itself is weights.c's, the summary's "Weights"
 * part summary-weights.c's.  See plan.h.
 *
 * The choice by capacity goes by the room a member has for data under
 * a label (after the data offset, before the backup copy), as create
 * gives it, so that plan and create choose the same weights; the
 * plan's table itself starts every member at sector 0.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "fmt.h"
#include "weights.h"
#include "../libbds/label.h"

#include <string.h>

enum plan_status plan_speeds(struct plan_ctx *c)
{
	const struct plan_opts *o = &c->opt;
	char names[LIST_SZ] = "";
	int i, k;

	if (o->have_disk_mbps && o->ndisk != 1 && o->ndisk != c->nmem)
		return plan_fail(c, "--disk-mbps gives %d speeds for %d devices: give one for all of them, or one per device in the order of the arguments",
				 o->ndisk, c->nmem);
	for (k = 0; k < c->nctrl; k++)
		if (strlen(names) + strlen(c->ctrls[k].name) + 3 <
		    sizeof(names))
			cat(names, sizeof(names), "%s%s", k ? ", " : "",
			    c->ctrls[k].name);
	if (o->have_ctrl_mbps && o->nctrl_mbps != 1 &&
	    o->nctrl_mbps != c->nctrl)
		return plan_fail(c, "--controller-mbps gives %d limits for %d controllers (%s): give one for all of them, or one per controller in this order",
				 o->nctrl_mbps, c->nctrl, names);
	for (i = 0; i < c->nmem; i++)
		c->mem[i].mbps = !o->have_disk_mbps ? 0 :
				 o->ndisk == 1 ? o->disk_mbps : o->disk_list[i];
	for (k = 0; k < c->nctrl; k++)
		c->ctrls[k].mbps = !o->have_ctrl_mbps ? 0 :
				   o->nctrl_mbps == 1 ? o->ctrl_mbps :
				   o->ctrl_list[k];
	return PLAN_OK;
}

u64 plan_label_room(const struct plan_ctx *c, int i, u64 chunk)
{
	const struct member *m = c->tbl[i];
	u64 off = bds_label_data_offset((u32)chunk, m->pbs / 512), backup;

	if (m->size < BDS_LABEL_MIN_MEMBER)
		return 0;
	backup = bds_label_backup_sector(m->size);
	return backup > off ? backup - off : 0;
}

u64 plan_member_room(const struct plan_ctx *c, const struct plan_result *r,
		     int i)
{
	return r->labelled ? plan_label_room(c, i, r->chunk_b / SECTOR) :
	       c->tbl[i]->size;
}

u64 plan_label_cycles(const struct plan_ctx *c, const u32 *weight,
		      u64 chunk, int *tight)
{
	u64 cycles = UINT64_MAX, room;
	int i;

	*tight = 0;
	for (i = 0; i < c->nmem; i++) {
		room = plan_label_room(c, i, chunk) / (chunk * weight[i]);
		if (room < cycles) {
			cycles = room;
			*tight = i;
		}
	}
	return c->nmem ? cycles : 0;
}

const char *plan_weights_list(const struct plan_ctx *c,
			      struct plan_result *r)
{
	return wt_parse_list(c->opt.weights_arg, (u32)c->nmem, r->weight);
}

struct wt_input plan_wt_input(const struct plan_ctx *c, struct wt_member *wm,
			      double *cm, u64 chunk)
{
	struct wt_input in = {
		.n = (u32)c->nmem, .m = wm,
		.nctrl = (u32)c->nctrl, .ctrl_mbps = cm,
		.chunk = (u32)chunk, .max_slots = wt_max_slots((u32)chunk),
		.tolerance = c->opt.wt_tolerance,
	};
	int i;

	for (i = 0; i < c->nmem; i++)
		wm[i] = (struct wt_member){ plan_label_room(c, i, chunk),
					    c->tbl[i]->mbps,
					    (u32)c->tbl[i]->ctrl };
	for (i = 0; i < c->nctrl; i++)
		cm[i] = c->ctrls[i].mbps;
	return in;
}

static enum plan_status choose(struct plan_ctx *c, struct plan_result *r,
			       u64 chunk)
{
	struct wt_member wm[BDS_MAX_MEMBERS];
	double cm[BDS_MAX_MEMBERS];
	struct wt_input in = plan_wt_input(c, wm, cm, chunk);
	char h1[64], h2[64];
	bool ok;
	int i;

	ok = c->opt.weights == WT_CAPACITY ? wt_by_capacity(&in, r->weight) :
	     wt_by_bandwidth(&in, r->weight);
	if (ok)
		return PLAN_OK;
	for (i = 0; i < c->nmem; i++)
		if (wm[i].avail < chunk)
			return plan_fail(c, "--weights %s: %s is too small: %s, with no room for a stripe unit (%s) between a label's data offset and its backup copy",
					 c->opt.weights_arg, c->tbl[i]->name,
					 bds_human(c->tbl[i]->size * SECTOR, h1,
						   sizeof(h1)),
					 bds_human(chunk * SECTOR, h2,
						   sizeof(h2)));
	return plan_fail(c, "--weights %s: no weights fit these members: a member has room for fewer stripe units than the weight its speed asks for; give the weights as a list",
			 c->opt.weights_arg);
}

enum plan_status plan_weights(struct plan_ctx *c, struct plan_result *r,
			      u64 chunk)
{
	struct bds_layout *l = &r->layout;
	enum bds_geom_err err;
	enum plan_status st;
	char mid[160];
	u32 W;

	if (c->opt.weights == WT_NONE)
		return PLAN_OK;
	if (c->opt.weights != WT_LIST) {
		st = choose(c, r, chunk);
		if (st)
			return st;
	}
	err = bds_weights_check(l, r->weight, &W);
	if (err == BDS_ERR_CYCLE_TOO_BIG)
		return plan_fail(c, "--weights %s: %s (a stripe unit of %llu sectors: at most %u stripe units per cycle)",
				 c->opt.weights_arg,
				 bds_mid(bds_geom_error(err), mid, sizeof(mid)),
				 U(chunk), wt_max_slots((u32)chunk));
	if (err)
		return plan_fail(c, "--weights %s: %s", c->opt.weights_arg,
				 bds_mid(bds_geom_error(err), mid, sizeof(mid)));
	bds_layout_weigh(l, r->weight, W, r->slots, r->slot_of);
	r->weighted = W != l->nr_members;
	return PLAN_OK;
}
