// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm grow NAME --add DEVICE...: start a restripe onto more members
 * (see grow.h).  The new geometry is the plan of the whole set (groups
 * by controller, interleaved, the same stripe unit); libbds's
 * bds_reshape_plan() gives the new data offsets and the longest new
 * length the restripe can reach.  The labels move to the next generation
 * as a membership change (Documentation/bds-stripe-label.rst): the new
 * disks' primary copies, the members' primaries, the commit point (the
 * first new disk's backup), the other backups.  At checkpoint 0 the new
 * labels map every unit where the old ones do, so either generation
 * that a cut leaves assembles the volume whole.  Then the table with
 * "reshape" takes the live one's place and the copy runs as
 * grow --continue.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bdsadm.h"
#include "dm.h"
#include "grow.h"
#include "label-io.h"
#include "measure.h"
#include "member-dev.h"
#include "plan.h"
#include "replace.h"
#include "signature.h"
#include "volume.h"
#include "weights.h"

/* One grow --add: the plan of the whole set, and what it makes. */
struct grow_add {
	struct plan_ctx pc;
	struct plan_result pr;
	char *args[BDS_MAX_MEMBERS];	/* old members' nodes, then the new */
	char nodes[BDS_MAX_MEMBERS][64];
	u32 nold, nall;
	u32 wmode;			/* BDS_WEIGHTS_MODE_*, the new set's */
	u8 old_at[BDS_MAX_MEMBERS];	/* old member -> new table index */
	int arg_of[BDS_MAX_MEMBERS];	/* new table index -> args[] index */
	struct bds_label_id held[BDS_MAX_MEMBERS];	/* by args[] index */
	struct bds_layout lo;
	struct bds_geom_slots s_old;	/* the old layout's weights */
	struct bds_geom g_old, g_new;
	struct bds_label v;		/* the next generation's view */
	struct bds_label ml[BDS_MAX_MEMBERS];	/* by new table index */
	struct bds_dev d[BDS_MAX_MEMBERS];	/* by new table index */
	bool force;			/* --force: erase what new disks hold */
	/* --measure: the new disks' plan, which reads them */
	struct grow *g;
	bool measure;
	struct plan_ctx mp;
	struct plan_result mr;
};

int grow_self_check(struct grow *g, const struct bds_label *ml, u32 n,
		    const struct bds_geom *g_new, const struct bds_geom *g_old)
{
	static u8 buf[BDS_LABEL_SIZE];
	static struct bds_label dec;
	static struct bds_geom gn, go;
	static struct bds_geom_slots sn, so;
	enum bds_label_err err;
	u32 t;

	for (t = 0; t < n; t++) {
		bds_label_encode(&ml[t], buf);
		err = bds_label_decode(buf, sizeof(buf), &dec);
		if (err)
			return grow_refuse(g, "internal error: member %u's new label does not decode (%s); nothing was changed",
					   t, bds_label_error(err));
		if (bds_reshape_from_label(&dec, &gn, &sn, &go, &so) ||
		    !bds_geom_same(&gn, g_new) || !bds_geom_same(&go, g_old))
			return grow_refuse(g, "internal error: member %u's new label does not give the planned geometries; nothing was changed",
					   t);
	}
	return 0;
}

int grow_start_table(struct grow *g, const struct bds_label *l0,
		     char (*devs)[16], u64 ckpt)
{
	static char params[16384];
	const char *devp[BDS_MAX_MEMBERS];
	u32 t;

	for (t = 0; t < l0->nr_members; t++)
		devp[t] = devs[t];
	if (!bds_volume_params_reshape(l0, devp, ckpt, params, sizeof(params)) ||
	    !bds_dm_swap_table(g->name, bds_volume_old_length(l0),
			       "bds-stripe", params))
		return grow_refuse(g, "device-mapper refused the restripe's table (dmesg says why; a module older than 1.8.0 cannot map it): the labels have the restripe at its start, where the old table maps every unit alike; 'bdsadm stop %s', then 'bdsadm assemble %s' and 'bdsadm grow --continue %s'",
				   g->name, g->name, g->name);
	rpl_crash_point("grow-started");
	return 0;
}

/*
 * How the new set's weights are chosen: --weights, else the mode the
 * labels keep when the members alone can redo it (wt_grow_mode()).
 */
static int weights_mode(struct grow *g, struct grow_add *a, const char *weights)
{
	const struct bds_label *l = g->r.label;
	int mode = wt_grow_mode(weights, l->weights_mode,
				g->vol.nr_slots != g->vol.nr_members);

	if (mode == BDS_WEIGHTS_MODE_BANDWIDTH && !a->measure)
		return grow_refuse(g, "%s every member's speed, and a new disk has none: give --measure to read the new disks' (the members' come from what create --measure recorded in their labels), or run 'bdsadm plan --weights bandwidth --disk-mbps ... --controller-mbps ...' of all the devices and give the weights it prints with --weights LIST; nothing was changed",
				   weights ? "--weights bandwidth needs" :
				   "it was made with --weights bandwidth: its new weights need");
	if (mode == BDS_WEIGHTS_MODE_BANDWIDTH) {
		const struct bds_found *f;
		u32 m;

		for (m = 0; m < g->vol.nr_members; m++) {
			f = &g->scan.found[g->r.member[m]];
			if (!(f->label.compat & BDS_LABEL_COMPAT_MEASURED))
				return grow_refuse(g, "--weights bandwidth: member %u (%s) has no measured speeds in its label (create --measure records them; a disk that joined later has none): run 'bdsadm plan --weights bandwidth --disk-mbps ... --controller-mbps ...' of all the devices and give the weights it prints with --weights LIST; nothing was changed",
						   m, f->dev);
		}
	}
	if (mode == WT_GROW_ASK)
		return grow_refuse(g, "it has weights %s: give the new set's with --weights capacity, or as a list in the order 'bdsadm plan --weights capacity' of all the devices shows; nothing was changed",
				   l->weights_mode == BDS_WEIGHTS_MODE_LIST ?
				   "that were given as a list" :
				   "and its labels do not say how they were chosen");
	if (!weights && mode == BDS_WEIGHTS_MODE_CAPACITY)
		bds_info("grow %s: the new set's weights by capacity, as the volume's were chosen (--weights overrides)",
		       g->name);
	a->wmode = (u32)mode;
	return 0;
}

/* The old volume: active, labelled, plain, healthy; weights said how. */
static int old_volume(struct grow *g, struct grow_add *a, const char *weights)
{
	const struct bds_found *f;
	u32 m;
	int r;

	r = grow_find(g, false);
	if (r == GROW_OTHER_STATE)
		return grow_refuse(g, "a restripe is under way: 'bdsadm grow --continue %s' carries it on",
				   g->name);
	if (r)
		return -1;
	r = weights_mode(g, a, weights);
	if (r)
		return r;
	a->nold = g->vol.nr_members;
	for (m = 0; m < a->nold; m++) {
		f = &g->scan.found[g->r.member[m]];
		snprintf(a->nodes[m], sizeof(a->nodes[m]), "%s", f->dev);
		a->args[m] = a->nodes[m];
	}
	return 0;
}

static const char refuse_holds[] =
	"refusing to add devices that hold data: their data would be lost; check them with 'bdsadm examine' and wipefs, then erase what they hold (wipefs -a, 'bdsadm wipe') or give --force; nothing was changed";

/*
 * --measure reads the new disks for seconds: without --force, a new disk
 * that holds data is refused before that, as plan_all() would refuse it
 * after.  plan_all() checks them again.
 */
static enum plan_status new_before_measure(struct plan_ctx *c, void *arg)
{
	const struct grow_add *a = arg;
	struct bds_label_id held;
	enum plan_status st = PLAN_OK;
	int i, found = 0;

	if (a->force)
		return PLAN_OK;
	for (i = 0; i < c->nmem && !st; i++)
		st = plan_check_holds(c, c->mem[i].arg, &held, &found);
	if (!st && found)
		st = plan_fail(c, "%s", refuse_holds);
	return st;
}

/*
 * --measure: the new disks read alone and, where two or more share a
 * controller, together (measure.c), by a plan of their own; it refuses
 * a disk in use, and one that holds data (new_before_measure()).  The
 * figures are printed as plan prints them.
 */
static int measure_new(struct grow *g, struct grow_add *a, char **add,
		       int nadd)
{
	char chunk[32];
	enum plan_status st;

	plan_init(&a->mp, "bdsadm");
	snprintf(chunk, sizeof(chunk), "%llus", (unsigned long long)g->vol.args.chunk);
	a->mp.opt.verb = VERB_PLAN;
	a->mp.opt.chunk_arg = chunk;
	a->mp.opt.measure = true;
	a->mp.opt.before_measure = new_before_measure;
	a->mp.opt.before_measure_arg = a;
	st = plan_build(&a->mp, add, nadd, &a->mr);
	a->mp.opt.chunk_arg = NULL;
	if (st) {
		plan_exit(&a->mp, st);
		return grow_refuse(g, "the new devices were not measured (above); nothing was changed");
	}
	plan_print_measure(&a->mp);
	return 0;
}

/*
 * plan's speeds hook under --measure, once the whole set's controllers
 * are known: each disk's figure (a member's as its label records it, a
 * new disk's as measured); each controller's limit the lowest that
 * showed, recorded by a member or measured on the new disks together
 * (wt_lowest_limit()); figures within MEAS_SAME of each other taken as
 * one, as create does (meas_settle()).  They are the speeds when the
 * weights are by bandwidth, and the new disks' labels record them.
 */
static enum plan_status whole_set_speeds(struct plan_ctx *c, void *arg)
{
	struct grow_add *a = arg;
	struct plan_opts *o = &c->opt;
	const struct plan_opts *mo = &a->mp.opt;
	const struct bds_label *l;
	double lim;
	int i, j, k;

	o->disk_list = calloc((size_t)c->nmem, sizeof(double));
	o->ctrl_list = calloc((size_t)c->nctrl, sizeof(double));
	if (!o->disk_list || !o->ctrl_list)
		return plan_fail(c, "--measure: out of memory");
	for (i = 0; i < c->nmem; i++) {
		if ((u32)i < a->nold) {
			l = &a->g->scan.found[a->g->r.member[i]].label;
			o->disk_list[i] = l->meas_disk / 1000.0;
			lim = l->meas_ctrl / 1000.0;
		} else {
			j = i - (int)a->nold;
			o->disk_list[i] = mo->disk_list[j];
			lim = mo->ctrl_list[a->mp.mem[j].ctrl];
		}
		k = c->mem[i].ctrl;
		o->ctrl_list[k] = wt_lowest_limit(o->ctrl_list[k], lim);
	}
	meas_settle(o->disk_list, c->nmem);
	meas_settle(o->ctrl_list, c->nctrl);
	if (a->wmode == BDS_WEIGHTS_MODE_BANDWIDTH)
		plan_take_measured(c);
	return PLAN_OK;
}

/* The new devices after the members in args[]: none a member already. */
static int new_args(struct grow *g, struct grow_add *a, char **add, int nadd)
{
	char mm[24];
	int i;
	u32 k;

	if (a->nold + (u32)nadd > BDS_MAX_MEMBERS)
		return grow_refuse(g, "%u members and %d more is more than %d; nothing was changed",
				   a->nold, nadd, BDS_MAX_MEMBERS);
	for (i = 0; i < nadd; i++) {
		if (bds_majmin_of(add[i], mm, sizeof(mm)))
			for (k = 0; k < a->nold; k++)
				if (!strcmp(mm, g->vol.dev[k]))
					return grow_refuse(g, "%s is member %u of the volume already; nothing was changed",
							   add[i], k);
		a->args[a->nold + (u32)i] = add[i];
	}
	a->nall = a->nold + (u32)nadd;
	return 0;
}

/* By bandwidth: the speeds the new set's weights went by, table order. */
static void say_speeds(struct grow *g, struct grow_add *a)
{
	const struct plan_opts *o = &a->pc.opt;
	char buf[16384], one[NAME_SZ + 96];
	double cl;
	u32 t;

	if (!o->disk_list || !o->ctrl_list)
		return;
	buf[0] = '\0';
	for (t = 0; t < a->nall; t++) {
		cl = o->ctrl_list[a->pc.tbl[t]->ctrl];
		if (cl > 0)
			snprintf(one, sizeof(one), "%s%s %u (%g MB/s, its controller %g)",
				 t ? ", " : "", a->pc.tbl[t]->name,
				 a->pr.weight[t], o->disk_list[a->arg_of[t]], cl);
		else
			snprintf(one, sizeof(one), "%s%s %u (%g MB/s)",
				 t ? ", " : "", a->pc.tbl[t]->name,
				 a->pr.weight[t], o->disk_list[a->arg_of[t]]);
		strncat(buf, one, sizeof(buf) - strlen(buf) - 1);
	}
	bds_info("grow %s: the new set's weights by bandwidth (the members' speeds as their labels record them, the new disks' as measured): %s",
		 g->name, buf);
}

/* The plan of old and new members together, and the new ones' checks. */
static int plan_all(struct grow *g, struct grow_add *a, char **add, int nadd,
		    bool force, const char *weights)
{
	char chunk[32], own[32];
	int i, found = 0;
	u32 t, k;

	plan_init(&a->pc, "bdsadm");
	snprintf(chunk, sizeof(chunk), "%llus", (unsigned long long)g->vol.args.chunk);
	snprintf(own, sizeof(own), "dm-%u", g->vol.minor);
	a->pc.opt.verb = VERB_PLAN;
	a->pc.opt.chunk_arg = chunk;
	a->pc.opt.own_holder = own;
	if (a->measure) {
		a->pc.opt.speeds = whole_set_speeds;
		a->pc.opt.speeds_arg = a;
	}
	if (a->wmode == BDS_WEIGHTS_MODE_BANDWIDTH) {
		a->pc.opt.weights = WT_BANDWIDTH;
		a->pc.opt.weights_arg = "bandwidth";
	} else if (weights) {
		a->pc.opt.weights = strcmp(weights, "capacity") ? WT_LIST : WT_CAPACITY;
		a->pc.opt.weights_arg = weights;
	} else if (a->wmode == BDS_WEIGHTS_MODE_CAPACITY) {
		a->pc.opt.weights = WT_CAPACITY;
		a->pc.opt.weights_arg = "capacity";
	}
	if (plan_build(&a->pc, a->args, (int)a->nall, &a->pr)) {
		plan_exit(&a->pc, PLAN_REFUSED);
		return grow_refuse(g, "the new devices cannot join (above); nothing was changed");
	}
	for (i = 0; i < nadd; i++)
		if (plan_check_holds(&a->pc, add[i], &a->held[a->nold + (u32)i], &found)) {
			plan_exit(&a->pc, PLAN_REFUSED);
			return grow_refuse(g, "nothing was changed");
		}
	if (found && !force)
		return grow_refuse(g, "%s", refuse_holds);
	for (t = 0; t < a->nall; t++) {
		for (k = 0; k < a->nall; k++)
			if (a->pc.tbl[t]->arg == a->args[k])
				break;
		a->arg_of[t] = (int)k;
		if (k < a->nold)
			a->old_at[k] = (u8)t;
		if (a->pc.tbl[t]->lbs != a->pc.tbl[0]->lbs)
			return grow_refuse(g, "%s has %u-byte logical blocks, %s %u: every member needs the same; nothing was changed",
					   a->pc.tbl[t]->arg, a->pc.tbl[t]->lbs,
					   a->pc.tbl[0]->arg, a->pc.tbl[0]->lbs);
	}
	return 0;
}

/* The two geometries, the new offsets and length (bds_reshape_plan()). */
static int geometries(struct grow *g, struct grow_add *a)
{
	const struct bds_label *l = g->r.label;
	u64 off_old[BDS_MAX_MEMBERS], off_new[BDS_MAX_MEMBERS] = { 0 };
	u64 end[BDS_MAX_MEMBERS], u_old, u_new;
	u32 pbs[BDS_MAX_MEMBERS], t, i, w = a->pr.layout.nr_slots, w_old;
	u8 id[BDS_MAX_MEMBERS];
	struct bds_reshape_need need;
	enum bds_reshape_err err;

	if (bds_layout_init(&a->lo, l->chunk_sectors, l->group_size,
			    l->nr_groups, (enum bds_order_mode)l->layout) ||
	    bds_weights_check(&a->lo, l->weight, &w_old))
		return grow_refuse(g, "its labels' geometry is refused by the layout code");
	bds_layout_weigh(&a->lo, l->weight, w_old, a->s_old.slot, a->s_old.slot_of);
	u_old = bds_volume_length(l) / l->chunk_sectors;
	for (i = 0; i < a->nold; i++)
		off_old[i] = l->member_offset[i];
	err = bds_geom_init(&a->g_old, &a->lo, u_old, a->old_at, off_old, a->nall);
	for (t = 0; t < a->nall; t++) {
		const struct member *m = a->pc.tbl[t];
		int k = a->arg_of[t];

		id[t] = (u8)t;
		pbs[t] = m->pbs / 512 ? m->pbs / 512 : 1;
		end[t] = (u32)k < a->nold ?
			 bds_label_data_end(&g->scan.found[g->r.member[k]].label) :
			 bds_label_backup_sector(m->size);
	}
	u_new = (u_old + w - 1) / w * w;
	if (!err)
		err = bds_geom_init(&a->g_new, &a->pr.layout, u_new, id, off_new, a->nall);
	for (t = 0; t < a->nall && !err; t++)
		if ((u32)a->arg_of[t] < a->nold)
			a->g_new.min_offset[t] = bds_label_data_least(
				&g->scan.found[g->r.member[a->arg_of[t]]].label);
	if (err)
		return grow_refuse(g, "the geometries are refused: %s", bds_reshape_error(err));
	if (!bds_reshape_plan(&a->g_new, &a->g_old, BDS_RESHAPE_FORWARD, end,
			      pbs, &need)) {
		t = need.member;
		if (need.why == BDS_RESHAPE_FIT)
			return grow_refuse(g, "%s is too small: its new data needs %llu sectors from its data offset, it has %llu; nothing was changed",
					   a->pc.tbl[t]->arg, (unsigned long long)need.need,
					   (unsigned long long)need.have);
		return grow_refuse(g, "%s has %llu sectors of room below its data, the restripe needs %llu: %s; nothing was changed",
				   a->pc.tbl[t]->arg, (unsigned long long)need.have,
				   (unsigned long long)need.need,
				   a->g_new.min_offset[t] ? GROW_FRONT_NOTE + 2 :
				   "a larger data offset at create would give it");
	}
	for (i = 0; i < a->nold; i++)
		if (a->g_old.offset[i] >= 1ULL << 32)
			return grow_refuse(g, "member %u's data offset %llu does not fit the label's restripe section (32 bits); nothing was changed",
					   i, (unsigned long long)a->g_old.offset[i]);
	return 0;
}

/*
 * --measure: new member @t's figures (args[] index @k) into its label
 * (compat MEASURED), as whole_set_speeds() set them, in kB/s; the
 * members keep their own (label-io.c).
 */
static void new_measured(const struct grow_add *a, u32 t, int k,
			 struct bds_label *l)
{
	const struct plan_opts *o = &a->pc.opt;
	double disk, ctrl;

	if (!a->measure || !o->disk_list || !o->ctrl_list)
		return;
	disk = o->disk_list[k] * 1000;
	ctrl = o->ctrl_list[a->pc.tbl[t]->ctrl] * 1000;
	if (disk < 1 || disk > 4e9)
		return;
	l->meas_disk = (u32)(disk + 0.5);
	l->meas_ctrl = ctrl > 4e9 ? 0 : (u32)(ctrl + 0.5);
	l->meas_time = l->utime;
	l->compat |= BDS_LABEL_COMPAT_MEASURED;
}

/* The next generation: the view, then each member's label. */
static int labels(struct grow *g, struct grow_add *a)
{
	const struct bds_label *l = g->r.label;
	struct bds_label *v = &a->v;
	u32 t, gr;
	int k;

	*v = *l;
	v->generation = l->generation + 1;
	v->utime = (u64)time(NULL);
	v->nr_members = a->nall;
	v->nr_groups = (u32)a->pc.ngroups;
	v->layout = BDS_LAYOUT_INTERLEAVE;
	v->weights_mode = a->wmode;
	memset(v->group_size, 0, sizeof(v->group_size));
	memset(v->controller, 0, sizeof(v->controller));
	for (gr = 0; gr < v->nr_groups; gr++) {
		v->group_size[gr] = a->pc.group_sizes[gr];
		for (t = 0; t < a->nall; t++)
			if (a->pc.tbl[t]->group == (int)gr)
				break;
		snprintf(v->controller[gr], sizeof(v->controller[gr]), "%.*s",
			 BDS_LABEL_CTRL_LEN, a->pc.ctrls[a->pc.tbl[t]->ctrl].name);
	}
	for (t = 0; t < a->nall; t++) {
		k = a->arg_of[t];
		if ((u32)k < a->nold) {
			memcpy(v->uuid[t], l->uuid[k], BDS_UUID_LEN);
			memcpy(v->serial[t], l->serial[k], sizeof(v->serial[t]));
		} else {
			bds_new_uuid(v->uuid[t]);
			snprintf(v->serial[t], sizeof(v->serial[t]), "%.*s",
				 BDS_LABEL_SERIAL_LEN, a->pc.tbl[t]->serial);
		}
		v->weight[t] = a->pr.weight[t];
		v->member_offset[t] = a->g_new.offset[t];
	}
	/* the view's own share is member 0's (bds_label_member_view()) */
	v->member_index = 0;
	v->data_sectors = a->g_new.units / a->pr.layout.nr_slots *
			  v->chunk_sectors * v->weight[0];
	bds_label_start_restripe(v, l, a->old_at, BDS_RESHAPE_FORWARD, 0);
	for (t = 0; t < a->nall; t++) {
		const struct bds_label *cur;

		k = a->arg_of[t];
		if ((u32)k < a->nold) {
			cur = &g->scan.found[g->r.member[k]].label;
			bds_label_member_view(v, t, cur->member_sectors,
					      cur->backup_sector, &a->ml[t]);
		} else {
			bds_label_member_view(v, t, a->pc.tbl[t]->size,
					      bds_label_backup_sector(a->pc.tbl[t]->size),
					      &a->ml[t]);
			new_measured(a, t, k, &a->ml[t]);
		}
	}
	/* what the target and assembly will read: the same two geometries */
	return grow_self_check(g, a->ml, a->nall, &a->g_new, &a->g_old);
}

/* Open every member, old and new, for its label writes. */
static int open_all(struct grow *g, struct grow_add *a)
{
	char why[256];
	u32 t;
	int k;

	for (t = 0; t < a->nall; t++) {
		k = a->arg_of[t];
		if (((u32)k < a->nold ?
		     bds_dev_open_held(&a->d[t], a->args[k], why, sizeof(why)) :
		     bds_dev_open(&a->d[t], a->args[k], true, why, sizeof(why))))
			return grow_refuse(g, "%s; nothing was changed", why);
		if ((u32)k < a->nold)
			bds_label_id_of(&a->held[k], &g->scan.found[g->r.member[k]].label);
	}
	return 0;
}

/* Is new table member @t one of the disks that join? */
static bool joins(const struct grow_add *a, u32 t)
{
	return (u32)a->arg_of[t] >= a->nold;
}

static int label_failed(struct grow *g, struct grow_add *a, u32 t, int r,
			bool committed)
{
	return grow_refuse(g, "%s: writing its label failed: %s; %s",
			   a->args[a->arg_of[t]], bds_label_io_error(r),
			   committed ?
			   "the change is committed: 'bdsadm stop', 'bdsadm assemble' and 'bdsadm grow --continue' carry it on" :
			   "the change was not committed: 'bdsadm stop' and 'bdsadm assemble' roll it back");
}

/*
 * --force, as create: erase what the new disks hold (libblkid), so that
 * nothing but the label names them afterwards.
 */
static int wipe_new(struct grow *g, struct grow_add *a)
{
	char why[256];
	u32 t;

	for (t = 0; t < a->nall; t++)
		if ((u32)a->arg_of[t] >= a->nold &&
		    bds_signatures_wipe(a->args[a->arg_of[t]], why, sizeof(why)))
			return grow_refuse(g, "%s: %s; no label was written",
					   a->args[a->arg_of[t]], why);
	return 0;
}

/*
 * The membership change, in the label document's order: the new disks'
 * primaries, the members' primaries, the commit point (the first new
 * disk's backup), the other backups.  Assemble rolls a change cut
 * before its commit point back, and takes one cut after it forward.
 */
static int switch_labels(struct grow *g, struct grow_add *a)
{
	struct bds_label_id was;
	u32 t, first = a->nall;
	int r;

	for (t = 0; t < a->nall; t++) {
		if (!joins(a, t))
			continue;
		r = bds_label_write_primary(&a->d[t], &a->held[a->arg_of[t]], &a->ml[t]);
		if (r)
			return label_failed(g, a, t, r, false);
		if (first == a->nall)
			first = t;
		rpl_crash_point("grow-new-primary");
	}
	for (t = 0; t < a->nall; t++) {
		if (joins(a, t))
			continue;
		r = bds_label_write_primary(&a->d[t], &a->held[a->arg_of[t]], &a->ml[t]);
		if (r)
			return label_failed(g, a, t, r, false);
		rpl_crash_point("grow-old-primary");
	}
	rpl_crash_point("grow-old-primaries");
	bds_label_id_of(&was, &a->ml[first]);
	r = bds_label_write_backup(&a->d[first], &was, &a->ml[first]);
	if (r)
		return label_failed(g, a, first, r, false);
	rpl_crash_point("grow-committed");
	for (t = 0; t < a->nall; t++) {
		if (t == first)
			continue;
		bds_label_id_of(&was, &a->ml[t]);
		r = bds_label_write_backup(&a->d[t], &was, &a->ml[t]);
		if (r)
			return label_failed(g, a, t, r, true);
	}
	return 0;
}

/* The table with "reshape" at checkpoint 0 in the live one's place. */
static int swap_table(struct grow *g, struct grow_add *a)
{
	char devs[BDS_MAX_MEMBERS][16];
	u32 t;

	for (t = 0; t < a->nall; t++)
		snprintf(devs[t], sizeof(devs[t]), "%u:%u", a->pc.tbl[t]->maj,
			 a->pc.tbl[t]->min);
	return grow_start_table(g, &a->ml[0], devs, 0);
}

int grow_add(struct grow *g, char **add, int nadd, bool force, bool measure,
	     const char *weights)
{
	struct grow_add *a = calloc(1, sizeof(*a));
	int r;
	u32 t;

	if (!a)
		return grow_refuse(g, "out of memory");
	for (t = 0; t < BDS_MAX_MEMBERS; t++)
		a->d[t].fd = -1;
	a->g = g;
	a->force = force;
	a->measure = measure;
	r = old_volume(g, a, weights);
	if (!r)
		r = new_args(g, a, add, nadd);
	if (!r && measure)
		r = measure_new(g, a, add, nadd);
	if (!r)
		r = plan_all(g, a, add, nadd, force, weights);
	if (!r && a->pc.opt.weights == WT_BANDWIDTH)
		say_speeds(g, a);
	if (!r)
		r = geometries(g, a);
	if (!r)
		r = labels(g, a);
	if (!r)
		r = open_all(g, a);
	if (!r && force)
		r = wipe_new(g, a);
	if (!r) {
		bds_info("grow %s: %u members -> %u, %llu MiB -> %llu MiB; writing the labels of generation %llu",
		       g->name, a->nold, a->nall,
		       (unsigned long long)(bds_volume_length(g->r.label) >> 11),
		       (unsigned long long)(a->g_new.units * a->v.chunk_sectors >> 11),
		       (unsigned long long)a->v.generation);
		fflush(stdout);
		r = switch_labels(g, a);
	}
	/* device-mapper opens the new disks exclusively */
	for (t = 0; t < BDS_MAX_MEMBERS; t++)
		bds_dev_close(&a->d[t]);
	if (!r)
		r = swap_table(g, a);
	plan_free(&a->pc);
	if (measure)
		plan_free(&a->mp);
	free(a);
	return r ? BDS_EXIT_FAIL : BDS_EXIT_OK;
}
