// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm grow NAME --layout MODE / --weights W: start a restripe of the
 * same members into another layout (a sequential volume made
 * controller-interleaved) or other weights (see grow.h).  The members
 * keep their table order, groups and UUIDs; the new data offsets and
 * the direction come from libbds's bds_reshape_plan(): forward when the
 * room below the members' data lets it run, else backward, into the
 * room above it.
 *
 * No member joins or leaves, so this is not a membership change: the
 * labels keep their generation, as at a restripe's end, and are
 * rewritten member by member with the restripe at its start.  A label
 * at its restripe's start places every unit where the plain label it
 * replaces does, so a cut that leaves both kinds is one volume, which
 * assembly takes as the restripe at its start
 * (Documentation/bds-stripe-label.rst, Restripe).  Then the table with
 * "reshape" takes the live one's place and the copy runs as
 * grow --continue.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bdsadm.h"
#include "fmt.h"
#include "grow.h"
#include "label-io.h"
#include "measure.h"
#include "member-dev.h"
#include "replace.h"
#include "volume.h"
#include "weights.h"

/* One grow --layout / --weights: the members, the two geometries. */
struct relayout {
	u32 n;
	struct bds_dev d[BDS_MAX_MEMBERS];
	struct bds_label_id held[BDS_MAX_MEMBERS];
	char devs[BDS_MAX_MEMBERS][16];
	u32 pbs[BDS_MAX_MEMBERS];	/* sectors */
	u64 end[BDS_MAX_MEMBERS];	/* new data ends by (backup or end) */
	u64 least[BDS_MAX_MEMBERS];	/* and starts at or after (0: any) */
	u32 weight[BDS_MAX_MEMBERS];
	u32 wmode;			/* BDS_WEIGHTS_MODE_*: how chosen */
	enum bds_order_mode mode;
	struct bds_layout lo;
	struct bds_geom g_old, g_new, g_cur;
	struct bds_geom_slots s_old, s_new, s_cur;
	enum bds_reshape_dir dir;
	bool keep_length;		/* a new layout only: see geometries() */
	struct bds_label v, ml[BDS_MAX_MEMBERS];
};

/* Open every member (held by the live table) for its label writes. */
static int open_members(struct grow *g, struct relayout *x)
{
	const struct bds_found *f;
	char why[256];
	u32 m;

	x->n = g->vol.nr_members;
	for (m = 0; m < x->n; m++) {
		f = &g->scan.found[g->r.member[m]];
		if (bds_dev_open_held(&x->d[m], f->dev, why, sizeof(why)))
			return grow_refuse(g, "%s; nothing was changed", why);
		if (!bds_majmin_of(f->dev, x->devs[m], sizeof(x->devs[m])))
			return grow_refuse(g, "member %u: %s is gone; nothing was changed",
					   m, f->dev);
		bds_label_id_of(&x->held[m], &f->label);
		x->pbs[m] = x->d[m].pbs / 512 ? x->d[m].pbs / 512 : 1;
		x->end[m] = bds_label_data_end(&f->label);
		x->least[m] = bds_label_data_least(&f->label);
	}
	return 0;
}

/*
 * --weights bandwidth: by the speeds create --measure recorded in every
 * member's label (wt_recorded_speeds()), known to MEAS_TOLERANCE.
 */
static int by_recorded_speeds(struct grow *g, struct relayout *x,
			      struct wt_input *in, struct wt_member *wm,
			      double *ctrl)
{
	const struct bds_label *ml[BDS_MAX_MEMBERS];
	char when[32];
	struct tm tm;
	time_t t;
	int m;

	for (m = 0; m < (int)x->n; m++)
		ml[m] = &g->scan.found[g->r.member[m]].label;
	m = wt_recorded_speeds(ml, x->n, wm, in->nctrl, ctrl);
	if (m >= 0)
		return grow_refuse(g, "--weights bandwidth: member %d (%s) has no measured speeds in its label (create --measure records them; a disk that joined later has none): stop the volume, run 'bdsadm plan --measure --weights bandwidth' of its members and give the weights it prints here as a list; nothing was changed",
				   m, x->d[m].path);
	in->tolerance = MEAS_TOLERANCE;
	if (!wt_by_bandwidth(in, x->weight))
		return grow_refuse(g, "--weights bandwidth: no weights fit the members: one has room for fewer stripe units than the weight its speed asks for; give the weights as a list; nothing was changed");
	t = (time_t)ml[0]->meas_time;
	if (!gmtime_r(&t, &tm) || !strftime(when, sizeof(when), "%Y-%m-%d", &tm))
		snprintf(when, sizeof(when), "an unknown day");
	bds_info("grow %s: the weights by bandwidth, from the speeds create --measure recorded in the labels on %s",
		 g->name, when);
	return 0;
}

/* The new layout mode and weights the options ask for. */
static int wanted(struct grow *g, struct relayout *x, const char *layout,
		  const char *weights)
{
	const struct bds_label *l = g->r.label;
	struct wt_member wm[BDS_MAX_MEMBERS];
	double ctrl_mbps[BDS_MAX_GROUPS] = { 0 };	/* 0: no limit */
	struct wt_input in = {
		.n = x->n, .m = wm, .chunk = l->chunk_sectors,
		.nctrl = l->nr_groups, .ctrl_mbps = ctrl_mbps,
		.max_slots = wt_max_slots(l->chunk_sectors),
	};
	const char *why;
	u32 m;

	x->mode = (enum bds_order_mode)l->layout;
	if (layout && !strcmp(layout, "interleave"))
		x->mode = BDS_LAYOUT_INTERLEAVE;
	else if (layout && !strcmp(layout, "sequential"))
		x->mode = BDS_LAYOUT_SEQUENTIAL;
	else if (layout)
		return grow_refuse(g, "--layout %s: the layouts are interleave and sequential; nothing was changed",
				   layout);
	for (m = 0; m < x->n; m++) {
		x->weight[m] = l->weight[m];
		wm[m] = (struct wt_member){ x->end[m] - l->member_offset[m], 0,
					    bds_label_group_of(l, m) };
	}
	x->wmode = weights ? wt_label_mode(weights) : l->weights_mode;
	if (!weights)
		return 0;
	if (!strcmp(weights, "capacity")) {
		if (!wt_by_capacity(&in, x->weight))
			return grow_refuse(g, "--weights capacity: a member has no room for a stripe unit; nothing was changed");
		return 0;
	}
	if (!strcmp(weights, "bandwidth"))
		return by_recorded_speeds(g, x, &in, wm, ctrl_mbps);
	why = wt_parse_list(weights, x->n, x->weight);
	if (why)
		return grow_refuse(g, "--weights %s: %s (one weight per member, in the order 'bdsadm detail %s' lists them); nothing was changed",
				   weights, why, g->name);
	return 0;
}

/* Try direction @dir; false with @need when it cannot run. */
static bool plan_dir(struct relayout *x, enum bds_reshape_dir dir,
		     struct bds_reshape_need *need)
{
	u64 u_old = x->g_old.units, w = x->lo.nr_slots;
	u8 id[BDS_MAX_MEMBERS];
	u64 off[BDS_MAX_MEMBERS] = { 0 };
	u32 m;

	for (m = 0; m < x->n; m++)
		id[m] = (u8)m;
	if (bds_geom_init(&x->g_new, &x->lo, (u_old + w - 1) / w * w, id, off,
			  x->n))
		return false;
	memcpy(x->g_new.min_offset, x->least, sizeof(x->least));
	x->dir = dir;
	if (x->keep_length)
		return bds_reshape_plan_shortest(&x->g_new, &x->g_old, dir,
						 x->end, x->pbs, need);
	return bds_reshape_plan(&x->g_new, &x->g_old, dir, x->end, x->pbs, need);
}

/* The old geometry (the label's) and the new one: offsets, direction. */
static int geometries(struct grow *g, struct relayout *x)
{
	const struct bds_label *l = g->r.label;
	static struct bds_geom back_geom;
	struct bds_reshape_need fwd, back;
	bool ok_fwd, ok_back;
	enum bds_geom_err ge;
	char mid[160];
	u32 w, m;

	if (bds_reshape_from_label(l, &x->g_old, &x->s_old, &x->g_cur, &x->s_cur))
		return grow_refuse(g, "its labels' geometry is refused by the layout code");
	ge = bds_layout_init(&x->lo, l->chunk_sectors, l->group_size,
			     l->nr_groups, x->mode);
	if (!ge)
		ge = bds_weights_check(&x->lo, x->weight, &w);
	if (ge)
		return grow_refuse(g, "the new geometry is refused: %s; nothing was changed",
				   bds_mid(bds_geom_error(ge), mid, sizeof(mid)));
	bds_layout_weigh(&x->lo, x->weight, w, x->s_new.slot, x->s_new.slot_of);
	if (x->mode == (enum bds_order_mode)l->layout &&
	    !memcmp(x->weight, l->weight, x->n * sizeof(x->weight[0]))) {
		bds_info("grow %s: it has that layout and those weights already; nothing to do",
		       g->name);
		return GROW_NOTHING;
	}
	/*
	 * A new layout keeps the length: growing into the room the data
	 * leaves would take the room a later restripe needs (back to the
	 * old layout goes the other way, into it).  New weights take the
	 * longest volume, in the direction that gives the longer one;
	 * forward on a tie.
	 */
	x->keep_length = !memcmp(x->weight, l->weight, x->n * sizeof(x->weight[0]));
	ok_back = plan_dir(x, BDS_RESHAPE_BACKWARD, &back);
	if (ok_back)
		back_geom = x->g_new;
	ok_fwd = plan_dir(x, BDS_RESHAPE_FORWARD, &fwd);
	if (ok_back && (!ok_fwd || back_geom.units > x->g_new.units)) {
		x->g_new = back_geom;
		x->dir = BDS_RESHAPE_BACKWARD;
	} else if (!ok_fwd) {
		m = fwd.member;
		if (fwd.why == BDS_RESHAPE_FIT)
			return grow_refuse(g, "member %u (%s) is too small for its new share: it needs %llu sectors from its data offset, it has %llu; nothing was changed",
					   m, x->d[m].path, (unsigned long long)fwd.need,
					   (unsigned long long)fwd.have);
		return grow_refuse(g, "member %u (%s) has %llu sectors of room below its data, the restripe needs %llu (and the room above its data is short too)%s; nothing was changed",
				   m, x->d[m].path, (unsigned long long)fwd.have,
				   (unsigned long long)fwd.need,
				   x->least[m] ? GROW_FRONT_NOTE : "");
	}
	for (m = 0; m < x->n; m++)
		if (x->g_old.offset[m] >= 1ULL << 32)
			return grow_refuse(g, "member %u's data offset %llu does not fit the label's restripe section (32 bits); nothing was changed",
					   m, (unsigned long long)x->g_old.offset[m]);
	return 0;
}

/* The labels: the same generation, the restripe at its start. */
static int labels(struct grow *g, struct relayout *x)
{
	const struct bds_label *l = g->r.label;
	struct bds_label *v = &x->v;
	const struct bds_found *f;
	u8 id[BDS_MAX_MEMBERS];
	u32 m;

	*v = *l;
	v->utime = (u64)time(NULL);
	v->layout = x->mode;
	v->weights_mode = x->wmode;
	v->member_index = 0;
	for (m = 0; m < x->n; m++) {
		v->weight[m] = x->weight[m];
		v->member_offset[m] = x->g_new.offset[m];
	}
	v->data_sectors = x->g_new.units / x->lo.nr_slots * v->chunk_sectors *
			  x->weight[0];
	for (m = 0; m < x->n; m++)
		id[m] = (u8)m;
	bds_label_start_restripe(v, l, id, x->dir,
				 x->dir == BDS_RESHAPE_FORWARD ? 0 : x->g_old.units);
	for (m = 0; m < x->n; m++) {
		f = &g->scan.found[g->r.member[m]];
		bds_label_member_view(v, m, f->label.member_sectors,
				      f->label.backup_sector, &x->ml[m]);
	}
	return grow_self_check(g, x->ml, x->n, &x->g_new, &x->g_old);
}

/*
 * Each member's two copies in turn, at the same generation: a cut
 * leaves members at the start of the restripe and members plain, which
 * place every unit alike (assembly takes them as the restripe).
 */
static int write_labels(struct grow *g, struct relayout *x)
{
	u32 m;
	int r;

	for (m = 0; m < x->n; m++) {
		r = bds_labels_write(&x->d[m], &x->held[m], &x->ml[m]);
		if (r)
			return grow_refuse(g, "member %u (%s): writing its label failed: %s; members written before it have the restripe at its start, which maps every unit as before: 'bdsadm stop %s', 'bdsadm assemble %s' and 'bdsadm grow --continue %s' carry it on",
					   m, x->d[m].path, bds_label_io_error(r),
					   g->name, g->name, g->name);
		rpl_crash_point("relayout-one-label");
	}
	return 0;
}

static const char *mode_name(u32 mode)
{
	return mode == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave";
}

int grow_relayout(struct grow *g, const char *layout, const char *weights)
{
	struct relayout *x = calloc(1, sizeof(*x));
	const struct bds_label *l;
	int r;
	u32 m;

	if (!x)
		return grow_refuse(g, "out of memory");
	for (m = 0; m < BDS_MAX_MEMBERS; m++)
		x->d[m].fd = -1;
	r = grow_find(g, false);
	if (r == GROW_OTHER_STATE)
		r = grow_refuse(g, "a restripe is under way: 'bdsadm grow --continue %s' carries it on",
				g->name);
	if (!r)
		r = open_members(g, x);
	if (!r)
		r = wanted(g, x, layout, weights);
	if (!r)
		r = geometries(g, x);
	if (!r)
		r = labels(g, x);
	if (!r) {
		l = g->r.label;
		bds_info("grow %s: layout %s -> %s, %s, %llu MiB -> %llu MiB; restriping %s",
		       g->name, mode_name(l->layout), mode_name(x->mode),
		       weights ? "new weights" : "the same weights",
		       (unsigned long long)(bds_volume_length(l) >> 11),
		       (unsigned long long)(x->g_new.units * l->chunk_sectors >> 11),
		       x->dir == BDS_RESHAPE_FORWARD ? "forward" : "backward");
		fflush(stdout);
		r = write_labels(g, x);
	}
	for (m = 0; m < BDS_MAX_MEMBERS; m++)
		bds_dev_close(&x->d[m]);
	if (!r)
		r = grow_start_table(g, &x->ml[0], x->devs,
				     x->dir == BDS_RESHAPE_FORWARD ? 0 : x->g_old.units);
	free(x);
	if (r == GROW_NOTHING)
		return r;
	return r ? BDS_EXIT_FAIL : BDS_EXIT_OK;
}
