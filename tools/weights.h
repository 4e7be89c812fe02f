/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Choosing the members' weights of a bds-stripe volume (issue 14):
 * pure functions, no I/O, so that the unit tests run them over many
 * inputs (tests/bdsadm/test-choose-weights.c).  bdsadm plan and
 * create call them through plan-weights.c.
 *
 * A weight vector w (w_m 1..255, W = sum w_m, at most wt_max_slots())
 * gives a volume of whole cycles of W stripe units: member m holds w_m
 * units of each cycle, so with avail_m sectors for data it holds
 * floor(avail_m / (w_m x chunk)) cycles, and the volume has as many
 * cycles as its tightest member: used = cycles x chunk x W sectors.
 *
 * Sequential bandwidth: a stream reads member m's w_m / W of the data
 * (s_m) and controller c's share S_c (its members' s_m summed), so it
 * runs at T = min(min_m disk_m / s_m, min_c ctrl_c / S_c).
 *
 * capacity   the weights that use the most of the members' space
 * bandwidth  the weights with the highest T; of those, the ones that
 *            use the most space, then the ones that leave the most
 *            disks below their full speed (4,3 rather than 2,1 for two
 *            disks that share a controller: the same T and space)
 * Differences below 1 / WT_TIE (0.1 %) are ties, and of tied vectors
 * the one with the smallest W is taken: a cycle of fewer stripe units
 * is worth more than 0.1 % (the volume's optimal I/O size is one cycle
 * and its read-ahead two), and most of the gains of a larger W are
 * below that.  With members of equal size (capacity) or equal speed
 * on equally loaded controllers (bandwidth), every weight comes out 1.
 *
 * Speeds that were measured are known only to a few per cent
 * (wt_input.tolerance): a vector that fits their error exactly is no
 * better than one of a shorter cycle within that error, and often worse
 * on the real hardware (measured 9.2 : 7.5 gives 49 : 40, a cycle of
 * 454 units, where the true 10 : 7.5 is 4 : 3).  So bandwidth then takes
 * the smallest W whose best T is within the tolerance of the best of
 * all, and of its vectors the one with that T and the most space.
 *
 * The choices keep their work tables in static storage: one at a time.
 */
#ifndef BDS_WEIGHTS_H
#define BDS_WEIGHTS_H

#include <stdbool.h>

#include "../libbds/label.h"
#include "../libbds/layout.h"
#include "../libbds/table.h"

/* Differences below 1 / WT_TIE of the best are ties. */
#define WT_TIE		1000

/* One member, as the choice sees it. */
struct wt_member {
	u64 avail;		/* sectors it has for data */
	double mbps;		/* its sequential speed; 0: unknown */
	u32 ctrl;		/* its controller: index into wt_input.ctrl_mbps */
};

struct wt_input {
	u32 n;				/* members, table order */
	const struct wt_member *m;
	u32 nctrl;
	const double *ctrl_mbps;	/* per controller; 0: no limit */
	u32 chunk;			/* stripe unit, sectors */
	u32 max_slots;			/* W at most: wt_max_slots(chunk) */
	double tolerance;		/* the speeds' relative error, for
					 * measured ones; 0: given exactly */
};

/* What a weight vector gives. */
struct wt_eval {
	u32 slots;		/* W */
	u64 cycles;		/* whole cycles every member holds */
	u64 used;		/* volume sectors: cycles x chunk x W */
	u64 avail;		/* the members' space for data, summed */
	double mbps;		/* T; 0 when a member's speed is unknown */
};

/*
 * The largest W for stripe unit @chunk: BDS_MAX_SLOTS, and a cycle of
 * at most 2^32 - 1 bytes (bds_weights_check()).
 */
u32 wt_max_slots(u32 chunk);

/* Evaluate @w (@in->n weights) for @in. */
void wt_evaluate(const struct wt_input *in, const u32 *w, struct wt_eval *e);

/* Member @m's data sectors under @e: cycles x chunk x w_m. */
static inline u64 wt_member_used(const struct wt_input *in,
				 const struct wt_eval *e, const u32 *w, u32 m)
{
	return e->cycles * in->chunk * w[m];
}

/*
 * T of the continuous optimum: every member's share s_m proportional
 * to e_m = disk_m x min(1, ctrl_c / (sum of disk on c)).  No integer
 * vector does better.  0 when a member's speed is unknown.
 */
double wt_ideal_mbps(const struct wt_input *in);

/*
 * The weights by capacity into @w.  False when a member has no room
 * for one stripe unit (then @w is not set).
 */
bool wt_by_capacity(const struct wt_input *in, u32 *w);

/*
 * The weights by bandwidth, capacity breaking ties, into @w.  Every
 * member's speed must be known (> 0).  False when a member has no
 * room for one stripe unit.
 */
bool wt_by_bandwidth(const struct wt_input *in, u32 *w);

/*
 * An explicit list "2,1,1,1" of @n weights into @w, in the syntax of
 * the table's "weights" word.  Returns NULL, or why not (the target's
 * message).  The range and the sum are bds_weights_check()'s.
 */
const char *wt_parse_list(const char *s, u32 n, u32 *w);

/* wt_grow_mode(): the volume has weights, and nothing says how to redo them. */
#define WT_GROW_ASK	(-1)

/*
 * How bdsadm grow --add chooses the weights of the whole new set
 * (issue 34): by @given (--weights: "capacity", "bandwidth" or a list;
 * NULL when not given), else by @recorded, the mode the labels keep
 * (label.h's BDS_WEIGHTS_MODE_*), when that mode can be redone from
 * the members alone: capacity can; bandwidth can with the new disks'
 * speeds (grow --add --measure; grow-add.c refuses it without), and a
 * list was the admin's own.  A volume without
 * weights (@weighted false) stays without, unless --weights is given.
 * Returns a BDS_WEIGHTS_MODE_* (NONE: every weight 1), or WT_GROW_ASK
 * when the volume has weights and the admin must give the new ones.
 */
int wt_grow_mode(const char *given, u32 recorded, bool weighted);

/* The label's mode for --weights @arg (NULL: none given). */
u32 wt_label_mode(const char *arg);

/*
 * The speeds bdsadm create --measure recorded in the members' own labels
 * (compat MEASURED, issue 38), for grow --weights bandwidth: @ml[m] is
 * member m's label, @wm[m].ctrl its group (set by the caller, below
 * @nctrl).  Sets each @wm[m].mbps to its disk's figure and @ctrl_mbps[c]
 * to the lowest controller figure a member of group c records (0: none
 * showed a limit); MB/s, as create's plan went by them.  Returns -1, or
 * the first member whose label has no figures (then nothing is set).
 */
int wt_recorded_speeds(const struct bds_label *const *ml, u32 n,
		       struct wt_member *wm, u32 nctrl, double *ctrl_mbps);

/*
 * A controller's limit from two figures of it, each 0 when no limit
 * showed (a lone disk, or disks that together read their sum): the
 * lower of those that showed, 0 when neither did.  grow --add --measure
 * sets what the members' labels record against what the new disks on
 * the same controller read together.
 */
double wt_lowest_limit(double a, double b);

#endif /* BDS_WEIGHTS_H */
