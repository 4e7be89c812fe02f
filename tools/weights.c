// SPDX-License-Identifier: GPL-2.0
/*
 * The choice of the members' weights (see weights.h).
 *
 * Both choices go over every W from N to the largest allowed and take,
 * for each W, the best vector of that sum; then the smallest W whose
 * result ties with the best of all.  For a given W:
 *
 * capacity  a vector whose tightest member holds k cycles has
 *           w_m <= floor(avail_m / (k x chunk)) for every m, so the
 *           largest k for which these bounds (capped at 255) add up to
 *           W or more gives the most space, k x W units; any vector
 *           within the bounds that adds up to W has it.
 * bandwidth T >= t holds exactly when w_m <= W x disk_m / t and
 *           S_c <= W x ctrl_c / t: the largest t for which the bounds
 *           leave room for W units is found by bisection, and then, for
 *           the t that ties with the best, the largest k as above; of
 *           the W that tie on space too, the one whose vector has the
 *           fewest disks at full speed, then the smallest.  With a
 *           tolerance (measured speeds): the smallest W whose best T is
 *           within it of the best, with its most space at that T.
 *
 * The units left over once every member has 1 go, one by one, to the
 * member that is furthest below its ideal share (bandwidth) or that
 * would leave the most space unused (capacity), within the bounds.
 */
#include <string.h>

#include "weights.h"

/* Slack for the floor of a quotient of doubles that should be whole. */
#define WT_EPS		1e-12
/* Bisection steps: 2^-64 of the range, far below any tie. */
#define WT_STEPS	64

u32 wt_max_slots(u32 chunk)
{
	u64 w;

	if (!chunk)
		return 0;
	w = BDS_MAX_IO_BYTES / ((u64)chunk << 9);
	return w < BDS_MAX_SLOTS ? (u32)w : BDS_MAX_SLOTS;
}

void wt_evaluate(const struct wt_input *in, const u32 *w, struct wt_eval *e)
{
	u64 sum[BDS_MAX_MEMBERS] = { 0 };
	double t = 0;
	u32 m, c;

	memset(e, 0, sizeof(*e));
	e->cycles = ~0ULL;
	for (m = 0; m < in->n; m++) {
		u64 cyc = in->m[m].avail / ((u64)in->chunk * w[m]);

		if (cyc < e->cycles)
			e->cycles = cyc;
		e->slots += w[m];
		e->avail += in->m[m].avail;
		sum[in->m[m].ctrl] += w[m];
	}
	if (!in->n)
		e->cycles = 0;
	e->used = e->cycles * in->chunk * e->slots;
	for (m = 0; m < in->n; m++) {
		double x = in->m[m].mbps / w[m];

		if (in->m[m].mbps <= 0)
			return;		/* speed unknown: no T */
		if (!m || x < t)
			t = x;
	}
	for (c = 0; c < in->nctrl; c++) {
		double x = in->ctrl_mbps[c] / (double)sum[c];

		if (sum[c] && in->ctrl_mbps[c] > 0 && x < t)
			t = x;
	}
	e->mbps = t * e->slots;
}

double wt_ideal_mbps(const struct wt_input *in)
{
	double disk[BDS_MAX_MEMBERS] = { 0 }, t = 0;
	u32 m, c;

	for (m = 0; m < in->n; m++) {
		if (in->m[m].mbps <= 0)
			return 0;
		disk[in->m[m].ctrl] += in->m[m].mbps;
	}
	for (c = 0; c < in->nctrl; c++)
		t += in->ctrl_mbps[c] > 0 && in->ctrl_mbps[c] < disk[c] ?
		     in->ctrl_mbps[c] : disk[c];
	return t;
}

/* Stripe units each member has room for; false if one has none. */
static bool units_of(const struct wt_input *in, u64 *u, u64 *umin)
{
	u32 m;

	if (!in->n || in->n > BDS_MAX_MEMBERS || in->nctrl > BDS_MAX_MEMBERS ||
	    !in->chunk || in->n > in->max_slots)
		return false;
	*umin = ~0ULL;
	for (m = 0; m < in->n; m++) {
		u[m] = in->m[m].avail / in->chunk;
		if (!u[m])
			return false;
		if (u[m] < *umin)
			*umin = u[m];
	}
	return true;
}

/* floor(@q), capped at @max (also for huge or infinite @q). */
static u32 floor_cap(double q, u32 max)
{
	q *= 1 + WT_EPS;
	return q >= max ? max : (u32)q;
}

/*
 * The bounds of a vector of sum @W with T >= @t (0: no bound) and @k
 * whole cycles on every member (0: no bound): @cap per member (at most
 * 255), @gcap per controller.  False when no such vector exists.
 */
static bool bounds(const struct wt_input *in, const u64 *u, u32 W, double t,
		   u64 k, u32 *cap, u32 *gcap)
{
	u32 need[BDS_MAX_MEMBERS] = { 0 }, m, c, total = 0;
	u64 sum[BDS_MAX_MEMBERS] = { 0 };

	for (m = 0; m < in->n; m++) {
		u32 x = BDS_MAX_WEIGHT;

		if (t > 0)
			x = floor_cap(W * in->m[m].mbps / t, x);
		if (k && u[m] / k < x)
			x = (u32)(u[m] / k);
		if (!x)
			return false;
		cap[m] = x;
		sum[in->m[m].ctrl] += x;
		need[in->m[m].ctrl]++;
	}
	for (c = 0; c < in->nctrl; c++) {
		u32 g = sum[c] < W ? (u32)sum[c] : W;

		if (t > 0 && in->ctrl_mbps[c] > 0)
			g = floor_cap(W * in->ctrl_mbps[c] / t, g);
		if (g < need[c])
			return false;
		gcap[c] = g;
		total += g;
	}
	return total >= W;
}

/*
 * Fill @w to the sum @W within @cap and @gcap: 1 each, then unit by
 * unit to the member with the highest priority.  Bandwidth (@ideal
 * given): the furthest below its ideal share W x ideal_m; else the one
 * that would leave the most room unused at @k cycles.  Ties: the
 * lower member.
 */
static void fill(const struct wt_input *in, const u64 *u, u32 W, u64 k,
		 const u32 *cap, const u32 *gcap, const double *ideal, u32 *w)
{
	u32 used[BDS_MAX_MEMBERS] = { 0 }, m, left = W - in->n;

	for (m = 0; m < in->n; m++) {
		w[m] = 1;
		used[in->m[m].ctrl]++;
	}
	while (left--) {
		u32 best = in->n;
		double bp = 0;

		for (m = 0; m < in->n; m++) {
			double p;

			if (w[m] >= cap[m] || used[in->m[m].ctrl] >= gcap[in->m[m].ctrl])
				continue;
			p = ideal ? ideal[m] * W - w[m] :
			    (double)u[m] - (double)k * w[m];
			if (best == in->n || p > bp) {
				best = m;
				bp = p;
			}
		}
		if (best == in->n)
			return;		/* cannot happen: bounds() said so */
		w[best]++;
		used[in->m[best].ctrl]++;
	}
}

/*
 * The largest k in [1, @kmax] whose bounds hold (0: none).  The bounds
 * add up to at most sum(u) / k, so k <= sum(u) / W; and without the cap
 * at 255 they add up to more than sum(u) / k - n, so k = sum(u) / (W + n)
 * usually holds: the search starts between the two.
 */
static u64 most_cycles(const struct wt_input *in, const u64 *u, u32 W,
		       double t, u64 kmax, u32 *cap, u32 *gcap)
{
	u64 lo = 1, hi = kmax, mid, sum = 0;
	u32 m;

	if (!bounds(in, u, W, t, 1, cap, gcap))
		return 0;
	for (m = 0; m < in->n; m++)
		sum += u[m];
	if (sum / W < hi)
		hi = sum / W;
	mid = sum / (W + in->n);
	if (mid > lo && mid <= hi && bounds(in, u, W, t, mid, cap, gcap))
		lo = mid;
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		if (bounds(in, u, W, t, mid, cap, gcap))
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* The smallest W whose @used ties with the largest; 0 if none. */
static u32 smallest_tied(const u64 *used, u32 first, u32 last)
{
	u64 best = 0;
	u32 W;

	for (W = first; W <= last; W++)
		if (used[W] > best)
			best = used[W];
	for (W = first; best && W <= last; W++)
		if (used[W] && used[W] >= best - best / WT_TIE)
			return W;
	return 0;
}

static u32 last_slots(const struct wt_input *in)
{
	u32 most = in->n * BDS_MAX_WEIGHT;

	return most < in->max_slots ? most : in->max_slots;
}

bool wt_by_capacity(const struct wt_input *in, u32 *w)
{
	static u64 used[BDS_MAX_SLOTS + 1], cycles[BDS_MAX_SLOTS + 1];
	u32 cap[BDS_MAX_MEMBERS], gcap[BDS_MAX_MEMBERS], W, last;
	u64 u[BDS_MAX_MEMBERS], umin;

	if (!units_of(in, u, &umin))
		return false;
	last = last_slots(in);
	memset(used, 0, sizeof(used));
	for (W = in->n; W <= last; W++) {
		/* a larger W never has more cycles */
		cycles[W] = most_cycles(in, u, W, 0, W == in->n ? umin :
					cycles[W - 1], cap, gcap);
		if (!cycles[W])
			break;		/* nor for any larger W */
		used[W] = cycles[W] * W;
	}
	W = smallest_tied(used, in->n, last);
	bounds(in, u, W, 0, cycles[W], cap, gcap);
	fill(in, u, W, cycles[W], cap, gcap, NULL, w);
	return true;
}

/* The highest T of a vector of sum @W (0: none), the vector in @w. */
static double best_mbps(const struct wt_input *in, const u64 *u, u32 W,
			double hi, const double *ideal, u32 *w)
{
	u32 cap[BDS_MAX_MEMBERS], gcap[BDS_MAX_MEMBERS];
	struct wt_eval e;
	double lo = 0, mid;
	int i;

	if (!bounds(in, u, W, 0, 0, cap, gcap))
		return 0;
	for (i = 0; i < WT_STEPS; i++) {
		mid = (lo + hi) / 2;
		if (bounds(in, u, W, mid, 0, cap, gcap))
			lo = mid;
		else
			hi = mid;
	}
	bounds(in, u, W, lo, 0, cap, gcap);
	fill(in, u, W, 0, cap, gcap, ideal, w);
	wt_evaluate(in, w, &e);
	return e.mbps;
}

/* The fill of sum @W with T >= @t and @k cycles, into @w. */
static void vector_at(const struct wt_input *in, const u64 *u, u32 W, double t,
		      double tie, u64 k, const double *ideal, u32 *w)
{
	u32 cap[BDS_MAX_MEMBERS], gcap[BDS_MAX_MEMBERS];

	/* the best T of this W, if it keeps the space */
	if (!bounds(in, u, W, t, k, cap, gcap))
		bounds(in, u, W, tie, k, cap, gcap);
	fill(in, u, W, k, cap, gcap, ideal, w);
}

/* Disks that run at their full speed when the volume runs at T. */
static u32 saturated(const struct wt_input *in, const u32 *w)
{
	struct wt_eval e;
	u32 m, n = 0;

	wt_evaluate(in, w, &e);
	for (m = 0; m < in->n; m++)
		n += e.mbps * w[m] / e.slots >=
		     in->m[m].mbps * (1 - 1.0 / WT_TIE);
	return n;
}

/* The ideal share of each member: e_m / E (weights.h). */
static void ideal_shares(const struct wt_input *in, double e, double *ideal)
{
	u32 m, k;

	for (m = 0; m < in->n; m++) {
		double c = in->ctrl_mbps[in->m[m].ctrl], d = 0;

		for (k = 0; k < in->n; k++)
			if (in->m[k].ctrl == in->m[m].ctrl)
				d += in->m[k].mbps;
		ideal[m] = in->m[m].mbps / e;
		if (c > 0 && c < d)
			ideal[m] *= c / d;
	}
}

/*
 * Measured speeds: the smallest W whose best T (@mbps[W]) is within the
 * tolerance of @best; its vector with that T (to a tie) and the most
 * space.
 */
static bool shortest_within(const struct wt_input *in, const u64 *u, u64 umin,
			    const double *mbps, double best,
			    const double *ideal, u32 *w)
{
	u32 cap[BDS_MAX_MEMBERS], gcap[BDS_MAX_MEMBERS], W, last = last_slots(in);
	double tie;
	u64 k;

	for (W = in->n; W <= last; W++) {
		if (mbps[W] < best * (1 - in->tolerance))
			continue;
		tie = mbps[W] * (1 - 1.0 / WT_TIE);
		k = most_cycles(in, u, W, tie, umin, cap, gcap);
		vector_at(in, u, W, mbps[W], tie, k, ideal, w);
		return true;
	}
	return false;
}

bool wt_by_bandwidth(const struct wt_input *in, u32 *w)
{
	static double mbps[BDS_MAX_SLOTS + 1];
	static u64 used[BDS_MAX_SLOTS + 1], cycles[BDS_MAX_SLOTS + 1];
	u32 cap[BDS_MAX_MEMBERS], gcap[BDS_MAX_MEMBERS], v[BDS_MAX_MEMBERS];
	double ideal[BDS_MAX_MEMBERS], e = wt_ideal_mbps(in), best = 0, tie;
	u32 W, last, sat, fewest = ~0U, pick = 0;
	u64 u[BDS_MAX_MEMBERS], umin, most = 0;

	if (!units_of(in, u, &umin) || e <= 0)
		return false;
	ideal_shares(in, e, ideal);
	last = last_slots(in);
	for (W = in->n; W <= last; W++) {
		mbps[W] = best_mbps(in, u, W, e * (1 + 1e-9), ideal, v);
		if (mbps[W] > best)
			best = mbps[W];
	}
	if (in->tolerance > 1.0 / WT_TIE)
		return shortest_within(in, u, umin, mbps, best, ideal, w);
	/* of the vectors whose T ties with the best, the most space */
	tie = best * (1 - 1.0 / WT_TIE);
	for (W = in->n; W <= last; W++) {
		used[W] = 0;
		if (mbps[W] < tie)
			continue;
		cycles[W] = most_cycles(in, u, W, tie, umin, cap, gcap);
		used[W] = cycles[W] * W;
		if (used[W] > most)
			most = used[W];
	}
	/*
	 * of those that tie on space too, the one that leaves the most
	 * disks below their full speed (the others then have headroom:
	 * 4,3 rather than 2,1 for two disks that share a controller),
	 * then the smallest W
	 */
	for (W = in->n; most && W <= last; W++) {
		if (!used[W] || used[W] < most - most / WT_TIE)
			continue;
		vector_at(in, u, W, mbps[W], tie, cycles[W], ideal, v);
		sat = saturated(in, v);
		if (sat < fewest) {
			fewest = sat;
			pick = W;
			memcpy(w, v, in->n * sizeof(*w));
		}
	}
	return pick != 0;
}

const char *wt_parse_list(const char *s, u32 n, u32 *w)
{
	struct bds_args a;
	const char *msg;

	memset(&a, 0, sizeof(a));
	a.nr_members = n;
	msg = bds_parse_weights(&a, s);
	if (!msg)
		memcpy(w, a.weight, n * sizeof(*w));
	return msg;
}

u32 wt_label_mode(const char *arg)
{
	if (!arg)
		return BDS_WEIGHTS_MODE_NONE;
	if (!strcmp(arg, "capacity"))
		return BDS_WEIGHTS_MODE_CAPACITY;
	if (!strcmp(arg, "bandwidth"))
		return BDS_WEIGHTS_MODE_BANDWIDTH;
	return BDS_WEIGHTS_MODE_LIST;
}

int wt_grow_mode(const char *given, u32 recorded, bool weighted)
{
	if (given)
		return (int)wt_label_mode(given);
	if (recorded == BDS_WEIGHTS_MODE_CAPACITY ||
	    recorded == BDS_WEIGHTS_MODE_BANDWIDTH)
		return (int)recorded;
	return weighted ? WT_GROW_ASK : BDS_WEIGHTS_MODE_NONE;
}

int wt_recorded_speeds(const struct bds_label *const *ml, u32 n,
		       struct wt_member *wm, u32 nctrl, double *ctrl_mbps)
{
	u32 m, c;

	for (m = 0; m < n; m++)
		if (!(ml[m]->compat & BDS_LABEL_COMPAT_MEASURED) ||
		    !ml[m]->meas_disk || wm[m].ctrl >= nctrl)
			return (int)m;
	for (c = 0; c < nctrl; c++)
		ctrl_mbps[c] = 0;
	for (m = 0; m < n; m++) {
		double lim = ml[m]->meas_ctrl / 1000.0;

		wm[m].mbps = ml[m]->meas_disk / 1000.0;
		c = wm[m].ctrl;
		ctrl_mbps[c] = wt_lowest_limit(ctrl_mbps[c], lim);
	}
	return -1;
}

double wt_lowest_limit(double a, double b)
{
	if (a <= 0)
		return b > 0 ? b : 0;
	return b > 0 && b < a ? b : a;
}
