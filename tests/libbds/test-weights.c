// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for weighted layouts (libbds/layout.c: bds_weights_check(),
 * bds_layout_weigh() and the mapping through a cycle of W slots).
 *
 * The placement model here is written from the text of issue 14 and
 * Documentation/bds-stripe.rst, not from the header's helpers: stripe
 * unit k goes to slot s = k mod W, on member slot[s], as that member's
 * unit (k div W) * w_m + rank(s), where rank(s) counts the earlier slots
 * of the cycle that are the same member's.  The model takes the slot ->
 * member table from the header and computes the ranks itself; the table
 * is checked on its own (each member exactly w_m slots, the window
 * balance bounds, a pinned hash, explicit expected orders).
 *
 * Balance: for a member or group with weight w (a group's is its
 * members' sum) let P(i) be its slots among the first i of the cycle
 * repeated, and F(i) = W * P(i) - i * w.  F has period W, and a window
 * [a, b) holds (F(b) - F(a)) / W slots more than its fair share
 * (b - a) * w / W; so max F - min F over one period, divided by W, is the
 * worst deviation of any window of any length.  Required: below 2 for
 * groups and below 3 for members.
 *
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "libbds/layout.h"
#include "libbds/table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define U(x) ((unsigned long long)(x))

struct wgeom {
	u32 chunk;
	u32 nr_groups;
	u32 size[BDS_MAX_GROUPS];
	u32 nr_members;
	u32 weight[BDS_MAX_MEMBERS];
};

/* A weighted layout with its slot arrays. */
struct wlayout {
	struct bds_layout l;
	struct bds_slot slot[BDS_MAX_SLOTS];
	u16 slot_of[BDS_MAX_SLOTS];
};

static const char *wdesc(const struct wgeom *g)
{
	static char buf[4096];
	size_t o;
	u32 i, m = 0;

	o = (size_t)snprintf(buf, sizeof(buf), "chunk=%u groups=", g->chunk);
	for (i = 0; i < g->nr_groups && o < sizeof(buf) - 64; i++) {
		u32 d;

		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s[", i ? "," : "");
		for (d = 0; d < g->size[i]; d++, m++)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%u",
					      d ? " " : "", g->weight[m]);
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "]");
	}
	return buf;
}

static u32 wsum(const struct wgeom *g)
{
	u32 m, w = 0;

	for (m = 0; m < g->nr_members; m++)
		w += g->weight[m];
	return w;
}

/* Build the layout of @g; false (with a diagnostic) if refused. */
static bool wl_init(const struct wgeom *g, struct wlayout *wl, char *why,
		    size_t whylen)
{
	enum bds_geom_err e;
	u32 w;

	memset(wl, 0xa5, sizeof(*wl));	/* no reliance on zeroed memory */
	e = bds_layout_init(&wl->l, g->chunk, g->size, g->nr_groups,
			    BDS_LAYOUT_INTERLEAVE);
	if (!e)
		e = bds_weights_check(&wl->l, g->weight, &w);
	if (e) {
		snprintf(why, whylen, "%s: refused: %s", wdesc(g),
			 bds_geom_error(e));
		return false;
	}
	if (w != wsum(g)) {
		snprintf(why, whylen, "%s: W %u, weights add up to %u",
			 wdesc(g), w, wsum(g));
		return false;
	}
	bds_layout_weigh(&wl->l, g->weight, w, wl->slot, wl->slot_of);
	return true;
}

/* The group of each member of @g. */
static void group_of(const struct wgeom *g, u32 *grp)
{
	u32 i, d, m = 0;

	for (i = 0; i < g->nr_groups; i++)
		for (d = 0; d < g->size[i]; d++)
			grp[m++] = i;
}

/*
 * The slot table's own properties: member m has exactly w_m slots, the
 * header's ranks are the model's, slot_of inverts the table, and the
 * window balance of groups (< 2) and members (< 3).  *gdev and *mdev get
 * the worst deviations found, times W.
 */
static bool check_slots(const struct wgeom *g, const struct wlayout *wl,
			double *gdev, double *mdev, char *why, size_t whylen)
{
	static u32 cnt[BDS_MAX_MEMBERS], grp[BDS_MAX_MEMBERS];
	static int64_t fmax[BDS_MAX_MEMBERS + BDS_MAX_GROUPS];
	static int64_t fmin[BDS_MAX_MEMBERS + BDS_MAX_GROUPS];
	static u32 pc[BDS_MAX_MEMBERS + BDS_MAX_GROUPS];
	u32 gw[BDS_MAX_GROUPS] = { 0 };
	const struct bds_layout *l = &wl->l;
	u32 W = wsum(g), n = g->nr_members, s, m, e, ne = n + g->nr_groups;

	group_of(g, grp);
	for (m = 0; m < n; m++)
		gw[grp[m]] += g->weight[m];
	if (l->nr_slots != W)
		return snprintf(why, whylen, "%s: nr_slots %u, W %u", wdesc(g),
				l->nr_slots, W), false;
	memset(cnt, 0, sizeof(cnt));
	for (s = 0; s < W; s++) {
		m = bds_slot_member(l, s);
		if (m >= n)
			return snprintf(why, whylen, "%s: slot %u: member %u",
					wdesc(g), s, m), false;
		if (l->slot && l->slot[s].rank != cnt[m])
			return snprintf(why, whylen, "%s: slot %u: rank %u, model %u",
					wdesc(g), s, l->slot[s].rank, cnt[m]),
			       false;
		if (bds_member_slot(l, m, cnt[m]) != s)
			return snprintf(why, whylen, "%s: member %u unit %u: slot %u, not %u",
					wdesc(g), m, cnt[m],
					bds_member_slot(l, m, cnt[m]), s), false;
		cnt[m]++;
	}
	for (m = 0; m < n; m++)
		if (cnt[m] != g->weight[m] || bds_weight(l, m) != g->weight[m])
			return snprintf(why, whylen, "%s: member %u: %u slots, weight %u (header %u)",
					wdesc(g), m, cnt[m], g->weight[m],
					bds_weight(l, m)), false;

	/* F(i) = W * P(i) - i * w, entities 0..n-1 members, then groups. */
	for (e = 0; e < ne; e++) {
		fmax[e] = fmin[e] = 0;
		pc[e] = 0;
	}
	for (s = 0; s < W; s++) {
		m = bds_slot_member(l, s);
		pc[m]++;
		pc[n + grp[m]]++;
		for (e = 0; e < ne; e++) {
			u32 w = e < n ? g->weight[e] : gw[e - n];
			int64_t f = (int64_t)W * pc[e] - (int64_t)(s + 1) * w;

			if (f > fmax[e])
				fmax[e] = f;
			if (f < fmin[e])
				fmin[e] = f;
		}
	}
	for (e = 0; e < ne; e++) {
		u64 d = (u64)(fmax[e] - fmin[e]);
		double *worst = e < n ? mdev : gdev;

		if ((double)d / W > *worst)
			*worst = (double)d / W;
		if (d >= (u64)(e < n ? 3 : 2) * W)
			return snprintf(why, whylen, "%s: %s %u: a window is %.3f slots off its share",
					wdesc(g), e < n ? "member" : "group",
					e < n ? e : e - n, (double)d / W), false;
	}
	return true;
}

/* ------------------------------------------------------------------ */

/* Every weight 1 leaves the layout exactly as it was made without. */
static void test_unit_weights_change_nothing(void)
{
	static struct wlayout wl;
	struct bds_layout plain;
	u32 ones[BDS_MAX_MEMBERS], rank[BDS_MAX_MEMBERS];
	u8 member[BDS_MAX_MEMBERS], r8[BDS_MAX_MEMBERS];
	u32 i, w, bad = 0, cases = 0;
	struct wgeom g = { .chunk = 24 };
	char why[4200] = "";

	for (i = 0; i < BDS_MAX_MEMBERS; i++)
		ones[i] = 1;
	for (cases = 0; cases < 3000; cases++) {
		g.nr_members = 1 + (u32)(rnd() % BDS_MAX_MEMBERS);
		g.nr_groups = random_groups(g.nr_members, g.size);
		memcpy(g.weight, ones, sizeof(ones));
		memset(&plain, 0xa5, sizeof(plain));	/* as wl_init() */
		bds_layout_init(&plain, g.chunk, g.size, g.nr_groups,
				BDS_LAYOUT_INTERLEAVE);
		if (!wl_init(&g, &wl, why, sizeof(why)) || wl.l.slot ||
		    wl.l.slot_of || memcmp(&plain, &wl.l, sizeof(plain))) {
			if (!bad++ && !why[0])
				snprintf(why, sizeof(why), "%s: layout differs",
					 wdesc(&g));
			continue;
		}
		/* The general order with explicit weights 1 is the same. */
		if (g.nr_groups > 1) {
			bds_order_slots(plain.group_size, g.nr_groups, ones,
					g.nr_members, member, r8);
			for (i = 0; i < g.nr_members; i++)
				rank[i] = r8[i];
			for (i = 0; i < g.nr_members; i++)
				if (member[i] != plain.order[i] || rank[i])
					break;
			if (i < g.nr_members && !bad++)
				snprintf(why, sizeof(why), "%s: slot %u: member %u rank %u, order %u",
					 wdesc(&g), i, member[i], rank[i],
					 plain.order[i]);
		}
		(void)w;
	}
	check(!bad, "weights all 1 leave the layout as without weights: %u cases, %u wrong%s%s",
	      cases, bad, bad ? ": " : "", bad ? why : "");
}

/* All weight vectors of W <= maxw over all splits into groups. */
static u64 exhaust_bad, exhaust_cases;
static double exhaust_gdev, exhaust_mdev;
static char exhaust_why[4200];

static void exhaust_weights(struct wgeom *g, u32 m, u32 left)
{
	static struct wlayout wl;
	u32 w;

	if (m == g->nr_members) {
		if (left)
			return;
		exhaust_cases++;
		if (!wl_init(g, &wl, exhaust_why, sizeof(exhaust_why)) ||
		    !check_slots(g, &wl, &exhaust_gdev, &exhaust_mdev,
				 exhaust_why, sizeof(exhaust_why)))
			exhaust_bad++;
		return;
	}
	for (w = 1; w + (g->nr_members - m - 1) <= left; w++) {
		g->weight[m] = w;
		exhaust_weights(g, m + 1, left - w);
	}
}

/* Splits of n members into groups (compositions), each weighted. */
static void exhaust_groups(struct wgeom *g, u32 n, u32 gi, u32 left, u32 W)
{
	u32 k;

	if (!left) {
		g->nr_groups = gi;
		g->nr_members = n;
		exhaust_weights(g, 0, W);
		return;
	}
	if (gi == BDS_MAX_GROUPS)
		return;
	for (k = 1; k <= left; k++) {
		g->size[gi] = k;
		exhaust_groups(g, n, gi + 1, left - k, W);
	}
}

static void test_balance_all_small_weight_vectors(void)
{
	struct wgeom g = { .chunk = 8 };
	u32 W, n;

	for (W = 1; W <= 12; W++)
		for (n = 1; n <= W; n++)
			exhaust_groups(&g, n, 0, n, W);
	check(!exhaust_bad, "every weight vector with W <= 12, every grouping: %llu cases, %llu wrong; worst window: group %.3f, member %.3f slots%s%s",
	      U(exhaust_cases), U(exhaust_bad),
	      exhaust_gdev, exhaust_mdev,
	      exhaust_bad ? ": " : "", exhaust_bad ? exhaust_why : "");
}

/* Random weights: 1..maxw each, W <= 1024. */
static void rand_wgeom(struct wgeom *g, u32 maxn, u32 maxw)
{
	u32 m, W = 0;

	g->chunk = 8 * (1 + (u32)(rnd() % 16));
	g->nr_members = 1 + (u32)(rnd() % maxn);
	g->nr_groups = random_groups(g->nr_members, g->size);
	for (m = 0; m < g->nr_members; m++) {
		u32 room = BDS_MAX_SLOTS - W - (g->nr_members - m - 1);
		u32 top = maxw < room ? maxw : room;

		g->weight[m] = 1 + (u32)(rnd() % top);
		W += g->weight[m];
	}
}

static void test_balance_random_weights_up_to_1024(void)
{
	static struct wlayout wl;
	static const u32 maxw[] = { 2, 4, 16, 255 };
	u64 bad = 0, cases = 0, wmax = 0;
	double gdev = 0, mdev = 0;
	char why[4200] = "";
	struct wgeom g;
	int i;

	for (i = 0; i < 4000; i++) {
		rand_wgeom(&g, i % 2 ? 128 : 16, maxw[i % 4]);
		cases++;
		if (wsum(&g) > wmax)
			wmax = wsum(&g);
		if (!wl_init(&g, &wl, why, sizeof(why)) ||
		    !check_slots(&g, &wl, &gdev, &mdev, why, sizeof(why))) {
			bad++;
			break;
		}
	}
	check(!bad, "random weights up to W = %llu: %llu cases, %llu wrong; worst window: group %.3f, member %.3f slots%s%s",
	      U(wmax), U(cases), U(bad), gdev, mdev, bad ? ": " : "",
	      bad ? why : "");
}

/* ------------------------------------------------------------------ */
/* Placement against the model                                         */

/* The model: unit k of the volume -> (member, member unit). */
static void model_unit(const struct wgeom *g, const u8 *slot_member, u64 k,
		       u32 *m, u64 *mu)
{
	u32 W = wsum(g), s = (u32)(k % W), r = 0, i;

	*m = slot_member[s];
	for (i = 0; i < s; i++)
		if (slot_member[i] == *m)
			r++;
	*mu = (k / W) * g->weight[*m] + r;
}

static bool place_one(const struct wgeom *g, struct wlayout *wl, u64 base,
		      char *why, size_t whylen)
{
	static u8 sm[BDS_MAX_SLOTS];
	u32 W = wsum(g), s, m, mm, c = g->chunk;
	u64 k, mu, ms, back;
	int t;

	for (s = 0; s < W; s++)
		sm[s] = (u8)bds_slot_member(&wl->l, s);
	for (t = 0; t < 64; t++) {
		u64 sector = base + rnd() % (4ULL * W * c);

		k = sector / c;
		model_unit(g, sm, k, &m, &mu);
		bds_map_sector(&wl->l, sector, &mm, &ms);
		if (mm != m || ms != mu * c + sector % c)
			return snprintf(why, whylen, "%s: sector %llu: member %u sector %llu, model %u %llu",
					wdesc(g), U(sector), mm, U(ms), m,
					U(mu * c + sector % c)), false;
		back = bds_unmap_sector(&wl->l, mm, ms);
		if (back != sector)
			return snprintf(why, whylen, "%s: member %u sector %llu maps back to %llu, not %llu",
					wdesc(g), mm, U(ms), U(back), U(sector)),
			       false;
	}
	return true;
}

static void test_placement_matches_model(void)
{
	static struct wlayout wl;
	u64 bad = 0, cases = 0;
	char why[4200] = "";
	struct wgeom g;
	int i;

	for (i = 0; i < 3000 && !bad; i++) {
		rand_wgeom(&g, i % 2 ? 128 : 12, i % 3 ? 8 : 255);
		cases++;
		if (!wl_init(&g, &wl, why, sizeof(why)) ||
		    !place_one(&g, &wl, 0, why, sizeof(why)) ||
		    !place_one(&g, &wl, rnd() % (1ULL << 44) * g.chunk, why,
			       sizeof(why)))
			bad++;
	}
	check(!bad, "weighted placement and its inverse match the model: %llu layouts, %llu wrong%s%s",
	      U(cases), U(bad), bad ? ": " : "", bad ? why : "");
}

/* Every member sector of a small volume is reached exactly once. */
static void test_members_filled_back_to_back(void)
{
	static struct wlayout wl;
	static u8 hit[BDS_MAX_MEMBERS][4 * BDS_MAX_SLOTS];
	u64 bad = 0, cases = 0, k, units, len;
	char why[4200] = "";
	struct wgeom g;
	u32 m, cycles = 3;
	int i;

	for (i = 0; i < 400 && !bad; i++) {
		rand_wgeom(&g, i % 2 ? 64 : 8, i % 2 ? 6 : 40);
		g.chunk = 8;
		cases++;
		if (!wl_init(&g, &wl, why, sizeof(why))) {
			bad++;
			break;
		}
		if (!bds_member_len(&wl.l, (u64)cycles * bds_cycle(&wl.l), &len) ||
		    len != (u64)cycles * g.chunk) {
			snprintf(why, sizeof(why), "%s: member_len", wdesc(&g));
			bad++;
			break;
		}
		memset(hit, 0, sizeof(hit));
		units = (u64)cycles * wsum(&g);
		for (k = 0; k < units; k++) {
			u64 ms;

			bds_map_sector(&wl.l, k * g.chunk, &m, &ms);
			if (ms % g.chunk || ms / g.chunk >= (u64)cycles * g.weight[m] ||
			    hit[m][ms / g.chunk]++) {
				snprintf(why, sizeof(why), "%s: unit %llu: member %u unit %llu again or beyond its %llu sectors",
					 wdesc(&g), U(k), m, U(ms / g.chunk),
					 U(bds_member_sectors(&wl.l, len, m)));
				bad++;
				break;
			}
		}
	}
	check(!bad, "each member's units are its sectors back to back, each once: %llu layouts, %llu wrong%s%s",
	      U(cases), U(bad), bad ? ": " : "", bad ? why : "");
}

/* ------------------------------------------------------------------ */
/* Ranges: discards and the pieces of a bio                            */

/* A range [start, end) split per member by walking its units. */
static bool range_one(const struct wgeom *g, struct wlayout *wl, u64 start,
		      u64 end, char *why, size_t whylen)
{
	static u64 lo[BDS_MAX_MEMBERS], hi[BDS_MAX_MEMBERS];
	static bool any[BDS_MAX_MEMBERS];
	u64 x, ms, me;
	u32 m;

	memset(any, 0, sizeof(any));
	for (x = start; x < end;) {
		u64 next = (x / g->chunk + 1) * g->chunk, mx;

		if (next > end)
			next = end;
		bds_map_sector(&wl->l, x, &m, &mx);
		if (!any[m]) {
			lo[m] = mx;
			any[m] = true;
		} else if (hi[m] != mx) {
			return snprintf(why, whylen, "%s: [%llu, %llu): member %u not contiguous at %llu",
					wdesc(g), U(start), U(end), m, U(mx)),
			       false;
		}
		hi[m] = mx + (next - x);
		x = next;
	}
	for (m = 0; m < g->nr_members; m++) {
		bool got = bds_member_range(&wl->l, start, end, m, &ms, &me);

		if (got != any[m] || (got && (ms != lo[m] || me != hi[m])))
			return snprintf(why, whylen, "%s: [%llu, %llu): member %u: %d [%llu, %llu), walk %d [%llu, %llu)",
					wdesc(g), U(start), U(end), m, got,
					U(ms), U(me), any[m], U(lo[m]),
					U(hi[m])), false;
	}
	return true;
}

static void test_member_ranges_match_walk(void)
{
	static struct wlayout wl;
	u64 bad = 0, cases = 0, start, len, cyc;
	char why[4200] = "";
	struct wgeom g;
	int i, t;

	for (i = 0; i < 1500 && !bad; i++) {
		rand_wgeom(&g, i % 2 ? 40 : 8, i % 2 ? 5 : 30);
		g.chunk = 8 * (1 + (u32)(rnd() % 3));
		if (!wl_init(&g, &wl, why, sizeof(why))) {
			bad++;
			break;
		}
		cyc = bds_cycle(&wl.l);
		for (t = 0; t < 20; t++) {
			cases++;
			start = (rnd() % 8) * cyc + rnd() % cyc;
			len = 1 + rnd() % (t % 4 ? cyc : 3 * cyc);
			if (!range_one(&g, &wl, start, start + len, why,
				       sizeof(why))) {
				bad++;
				break;
			}
		}
	}
	check(!bad, "per-member ranges (discards, pieces) match a unit-by-unit walk: %llu ranges, %llu wrong%s%s",
	      U(cases), U(bad), bad ? ": " : "", bad ? why : "");
}

/* The discard limit: whole cycles, no member gets more than it takes. */
static void test_discard_limit_weighted(void)
{
	static struct wlayout wl;
	u64 bad = 0, cases = 0, start, ms, me, got;
	u32 lim, mm, m, wmax, cyc;
	char why[4200] = "";
	struct wgeom g;
	int i, t;

	for (i = 0; i < 2000 && !bad; i++) {
		rand_wgeom(&g, 16, i % 2 ? 4 : 40);
		if (!wl_init(&g, &wl, why, sizeof(why))) {
			bad++;
			break;
		}
		cases++;
		cyc = bds_cycle(&wl.l);
		mm = (u32)(rnd() % 3 ? rnd() % (1u << 22) : rnd() % 0xffffffffU);
		lim = bds_discard_limit(&wl.l, mm);
		for (wmax = 0, m = 0; m < g.nr_members; m++)
			if (g.weight[m] > wmax)
				wmax = g.weight[m];
		got = (u64)mm / ((u64)g.chunk * wmax);
		if (got > 0xffffffffULL / cyc)
			got = 0xffffffffULL / cyc;
		got *= cyc;
		if (lim != (got > mm ? got : mm)) {
			snprintf(why, sizeof(why), "%s: member max %u: limit %u, want %llu",
				 wdesc(&g), mm, lim, U(got > mm ? got : mm));
			bad++;
			break;
		}
		if (lim == mm)
			continue;
		for (t = 0; t < 4; t++) {
			start = rnd() % (1ULL << 36);
			for (m = 0; m < g.nr_members; m++) {
				if (!bds_member_range(&wl.l, start, start + lim, m,
						      &ms, &me))
					ms = me = 0;
				if (me - ms > mm) {
					snprintf(why, sizeof(why), "%s: [%llu, +%u): member %u gets %llu > %u",
						 wdesc(&g), U(start), lim, m,
						 U(me - ms), mm);
					bad++;
					break;
				}
			}
		}
	}
	check(!bad, "weighted discard limit: whole cycles, the heaviest member within its own limit: %llu cases, %llu wrong%s%s",
	      U(cases), U(bad), bad ? ": " : "", bad ? why : "");
}

/* ------------------------------------------------------------------ */
/* Refusals                                                            */

static void test_weights_refused(void)
{
	struct bds_layout l;
	u32 sz2[] = { 2, 2 }, w[4], W = 0;
	u32 one[] = { 1 };
	bool ok = true;

	bds_layout_init(&l, 8, sz2, 2, BDS_LAYOUT_INTERLEAVE);
	w[0] = 1; w[1] = 0; w[2] = 1; w[3] = 1;
	ok &= bds_weights_check(&l, w, &W) == BDS_ERR_WEIGHT_RANGE;
	w[1] = 256;
	ok &= bds_weights_check(&l, w, &W) == BDS_ERR_WEIGHT_RANGE;
	w[1] = 255;
	ok &= bds_weights_check(&l, w, &W) == BDS_OK && W == 258;
	w[0] = w[2] = w[3] = 255; w[1] = 254;
	ok &= bds_weights_check(&l, w, &W) == BDS_OK && W == 1019;
	bds_layout_init(&l, 8, (u32[]){ 5 }, 1, BDS_LAYOUT_INTERLEAVE);
	{
		u32 w5[] = { 255, 255, 255, 255, 5 };

		ok &= bds_weights_check(&l, w5, &W) == BDS_ERR_WEIGHT_SUM;
		w5[4] = 4;
		ok &= bds_weights_check(&l, w5, &W) == BDS_OK && W == 1024;
	}
	bds_layout_init(&l, 8, sz2, 2, BDS_LAYOUT_SEQUENTIAL);
	w[0] = w[1] = w[2] = w[3] = 1;
	ok &= bds_weights_check(&l, w, &W) == BDS_OK && W == 4;
	w[2] = 2;
	ok &= bds_weights_check(&l, w, &W) == BDS_ERR_WEIGHT_SEQUENTIAL;
	/* The largest unit, 4 GiB - 4 KiB, twice: over 32 bits. */
	ok &= bds_layout_init(&l, 8388600, one, 1, BDS_LAYOUT_INTERLEAVE) == BDS_OK;
	ok &= bds_weights_check(&l, (u32[]){ 1 }, &W) == BDS_OK;
	ok &= bds_weights_check(&l, (u32[]){ 2 }, &W) == BDS_ERR_CYCLE_TOO_BIG;
	ok &= strcmp(bds_geom_error(BDS_ERR_WEIGHT_RANGE),
		     bds_geom_error(BDS_ERR_WEIGHT_SUM)) &&
	      strcmp(bds_geom_error(BDS_ERR_WEIGHT_SEQUENTIAL),
		     bds_geom_error(BDS_ERR_CYCLE_TOO_BIG));
	check(ok, "weights refused: 0, 256, a sum over 1024, unequal with sequential, a cycle over 32 bits");
}

/* ------------------------------------------------------------------ */
/* Explicit orders and the pinned hash                                 */

static bool expect_slots(const u32 *size, u32 ng, const u32 *weight,
			 const char *want)
{
	static struct wlayout wl;
	struct wgeom g = { .chunk = 8, .nr_groups = ng };
	char got[4 * BDS_MAX_SLOTS], why[4200];
	size_t o = 0;
	u32 i, s;

	for (i = 0; i < ng; i++) {
		g.size[i] = size[i];
		g.nr_members += size[i];
	}
	memcpy(g.weight, weight, g.nr_members * sizeof(u32));
	if (!wl_init(&g, &wl, why, sizeof(why))) {
		check(false, "%s", why);
		return false;
	}
	for (s = 0; s < wl.l.nr_slots; s++)
		o += (size_t)snprintf(got + o, sizeof(got) - o, "%s%u",
				      s ? "," : "", bds_slot_member(&wl.l, s));
	check(!strcmp(got, want), "%s: slots %s%s%s", wdesc(&g), got,
	      strcmp(got, want) ? ", want " : "", strcmp(got, want) ? want : "");
	return true;
}

static void test_explicit_orders(void)
{
	/* make bench's T2: 6 single-disk controllers, 2 with two disks */
	static const u32 t2_size[] = { 1, 1, 1, 1, 1, 1, 2, 2 };
	static const u32 t2_w[] = { 4, 4, 4, 4, 4, 4, 3, 3, 3, 3 };
	/* one controller with a double-weight disk */
	static const u32 two_size[] = { 2, 2 };
	static const u32 two_w[] = { 2, 1, 1, 1 };

	expect_slots(two_size, 2, two_w, "0,2,0,1,3");
	expect_slots(t2_size, 8, t2_w,
		     "6,8,0,1,2,3,4,5,7,9,0,1,2,3,4,5,6,8,7,9,0,1,2,3,4,5,6,8,0,1,2,3,4,5,7,9");
}

/*
 * The weighted order is on-disk format: an FNV-1a hash of the slot
 * members of every weight vector with W <= 7 over every grouping, in
 * exhaust_groups() order.  Change it only with a new label version.
 */
#define GOLDEN_WEIGHTED_HASH 0x166399eff6250cbeULL

static u64 whash = 0xcbf29ce484222325ULL;

static void hash_weights(struct wgeom *g, u32 m, u32 left)
{
	static struct wlayout wl;
	char why[4200];
	u32 w, s;

	if (m == g->nr_members) {
		if (left || !wl_init(g, &wl, why, sizeof(why)))
			return;
		for (s = 0; s < wl.l.nr_slots; s++) {
			whash ^= bds_slot_member(&wl.l, s);
			whash *= 0x100000001b3ULL;
		}
		whash ^= 0xff;
		whash *= 0x100000001b3ULL;
		return;
	}
	for (w = 1; w + (g->nr_members - m - 1) <= left; w++) {
		g->weight[m] = w;
		hash_weights(g, m + 1, left - w);
	}
}

static void hash_groups(struct wgeom *g, u32 n, u32 gi, u32 left, u32 W)
{
	u32 k;

	if (!left) {
		g->nr_groups = gi;
		g->nr_members = n;
		hash_weights(g, 0, W);
		return;
	}
	for (k = 1; k <= left; k++) {
		g->size[gi] = k;
		hash_groups(g, n, gi + 1, left - k, W);
	}
}

static void test_weighted_order_is_pinned(void)
{
	struct wgeom g = { .chunk = 8 };
	u32 W, n;

	for (W = 1; W <= 7; W++)
		for (n = 1; n <= W; n++)
			hash_groups(&g, n, 0, n, W);
	check(whash == GOLDEN_WEIGHTED_HASH,
	      "weighted slot order pinned: hash 0x%016llx, pinned 0x%016llx",
	      U(whash), U(GOLDEN_WEIGHTED_HASH));
}

int main(void)
{
	const char *seed = getenv("BDS_SEED");

	if (seed)
		tap_rng = strtoull(seed, NULL, 0);
	test_unit_weights_change_nothing();
	test_weights_refused();
	test_explicit_orders();
	test_weighted_order_is_pinned();
	test_balance_all_small_weight_vectors();
	test_balance_random_weights_up_to_1024();
	test_placement_matches_model();
	test_members_filled_back_to_back();
	test_member_ranges_match_walk();
	test_discard_limit_weighted();
	return tap_done();
}
