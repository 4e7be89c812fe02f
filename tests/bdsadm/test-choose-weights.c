// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bdsadm's choice of weights (tools/weights.c):
 *
 *   the example (make bench's T2): 10 disks of 10 MB/s on 8
 *   controllers of 15 MB/s, 6 with one disk and 2 with two: equal
 *   shares 75 MB/s, the continuous optimum 90, the weights 4 (single
 *   disks) and 3 (shared ones), 90 MB/s
 *   equal members                   every weight 1, by either choice
 *   sizes 1:2:3, speeds 1:2         weights 1,2,3 and 1,2
 *   random sizes within 1:8, 1 to 16 members: at least 98 % of the
 *                                   space used (the least is printed)
 *   brute force over every vector of small W (2 to 4 members): the
 *                                   choice ties with the best and no
 *                                   smaller W does; for bandwidth, T
 *                                   first, then the space
 *   measured speeds (a tolerance of 5 %), brute force as above: the
 *                                   smallest W whose best T is within
 *                                   5 % of the best, its best T, then
 *                                   its most space; T2 measured on the
 *                                   disk model (disks 9.2, controllers
 *                                   15): >= 95 % of the true caps' limit
 *   the limits                      each weight 1..255, W within
 *                                   wt_max_slots() (a 32-bit cycle),
 *                                   bds_weights_check() accepts it
 *   members without one stripe unit of room: refused
 *   explicit lists                  the table's syntax and messages
 *   grow --add's choice             --weights first; else the labels'
 *                                   mode when the members can redo it
 *                                   (capacity; bandwidth, which grow
 *                                   then needs --measure for); else
 *                                   a weighted volume asks, a plain
 *                                   one stays plain
 *   grow --weights bandwidth        the speeds the labels record: each
 *                                   disk's, a group's lowest controller
 *                                   limit; T2 recorded gives 90 MB/s
 *                                   at W 18, as create --measure
 *                                   chooses; a member without figures
 *                                   is named; a controller's limit
 *                                   recorded and measured: the lower
 *                                   that showed
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "../../tools/weights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libbds/tap.h"

#define GIB	2097152ULL	/* sectors */

static struct wt_member mem[BDS_MAX_MEMBERS];
static double ctrl[BDS_MAX_MEMBERS];
static u32 w[BDS_MAX_MEMBERS];

static struct wt_input input(u32 n, u32 nctrl, u32 chunk)
{
	struct wt_input in = {
		.n = n, .m = mem, .nctrl = nctrl, .ctrl_mbps = ctrl,
		.chunk = chunk, .max_slots = wt_max_slots(chunk),
	};

	return in;
}

static const char *list(const u32 *v, u32 n)
{
	static char buf[BDS_MAX_MEMBERS * 5];
	size_t o = 0;
	u32 m;

	buf[0] = '\0';
	for (m = 0; m < n; m++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%u",
				      m ? "," : "", v[m]);
	return buf;
}

/* Valid for the target: 1..255 each, W within the limits. */
static bool valid(const struct wt_input *in, const u32 *v)
{
	u32 sizes[1] = { in->n }, slots;
	struct bds_layout l;

	return bds_layout_init(&l, in->chunk, sizes, 1,
			       BDS_LAYOUT_INTERLEAVE) == BDS_OK &&
	       bds_weights_check(&l, v, &slots) == BDS_OK &&
	       slots <= in->max_slots;
}

static void t2_example(void)
{
	static const u32 ctrl_of[10] = { 0, 1, 2, 3, 4, 5, 6, 6, 7, 7 };
	struct wt_eval eq, e;
	struct wt_input in;
	u32 m, one[10];
	bool shape = true, ok;

	for (m = 0; m < 10; m++) {
		mem[m] = (struct wt_member){ 2 * GIB - 2064, 10, ctrl_of[m] };
		one[m] = 1;
	}
	for (m = 0; m < 8; m++)
		ctrl[m] = 15;
	in = input(10, 8, 32);
	wt_evaluate(&in, one, &eq);
	check(eq.mbps > 74.999 && eq.mbps < 75.001,
	      "T2: equal shares give %.3f MB/s (75)", eq.mbps);
	check(wt_ideal_mbps(&in) > 89.999 && wt_ideal_mbps(&in) < 90.001,
	      "T2: the continuous optimum is %.3f MB/s (90)", wt_ideal_mbps(&in));
	ok = wt_by_bandwidth(&in, w) && valid(&in, w);
	check(ok, "T2: weights %s", list(w, 10));
	for (m = 0; m < 10; m++)
		shape = shape && w[m] * 3 == w[9] * (m < 6 ? 4 : 3);
	wt_evaluate(&in, w, &e);
	check(shape && e.slots == 36,
	      "T2: 4 for a disk with its controller to itself, 3 for a shared one (W %u)",
	      e.slots);
	check(e.mbps > 89.999 && e.mbps < 90.001,
	      "T2: the weights give %.3f MB/s (90), equal shares %.3f; space used %.1f %% (equal shares %.1f %%)",
	      e.mbps, eq.mbps, 100.0 * e.used / e.avail, 100.0 * eq.used / eq.avail);
	/* by capacity the members are equal: no weights */
	ok = wt_by_capacity(&in, w);
	check(ok && !strcmp(list(w, 10), "1,1,1,1,1,1,1,1,1,1"),
	      "T2 by capacity: equal disks, every weight 1 (%s)", list(w, 10));
}

static void simple(void)
{
	struct wt_input in;
	struct wt_eval e;
	bool ok;
	u32 m;

	for (m = 0; m < 5; m++)
		mem[m] = (struct wt_member){ 4 * GIB, 100, m };
	ctrl[0] = ctrl[1] = ctrl[2] = ctrl[3] = ctrl[4] = 0;
	in = input(5, 5, 128);
	ok = wt_by_capacity(&in, w) && !strcmp(list(w, 5), "1,1,1,1,1");
	check(ok, "equal sizes: every weight 1 (%s)", list(w, 5));
	ok = wt_by_bandwidth(&in, w) && !strcmp(list(w, 5), "1,1,1,1,1");
	check(ok, "equal speeds, no controller limit: every weight 1 (%s)",
	      list(w, 5));
	for (m = 0; m < 3; m++)
		mem[m] = (struct wt_member){ (m + 1) * 4 * GIB, 100, 0 };
	in = input(3, 1, 128);
	wt_by_capacity(&in, w);
	wt_evaluate(&in, w, &e);
	check(!strcmp(list(w, 3), "1,2,3") && e.used == e.avail,
	      "sizes 1:2:3: weights %s, all of the space used", list(w, 3));
	/* speeds 1:2, no limits: shares 1:2, whatever the sizes */
	mem[0] = (struct wt_member){ 4 * GIB, 100, 0 };
	mem[1] = (struct wt_member){ 4 * GIB, 200, 1 };
	in = input(2, 2, 128);
	wt_by_bandwidth(&in, w);
	wt_evaluate(&in, w, &e);
	check(!strcmp(list(w, 2), "1,2") && e.mbps > 299.99,
	      "speeds 100 and 200 MB/s: weights %s, %.1f MB/s", list(w, 2),
	      e.mbps);
	/* no room for a stripe unit */
	mem[1].avail = 127;
	check(!wt_by_capacity(&in, w) && !wt_by_bandwidth(&in, w),
	      "a member without room for one stripe unit: no weights");
	mem[1].avail = 4 * GIB;
	mem[1].mbps = 0;
	check(!wt_by_bandwidth(&in, w) && wt_ideal_mbps(&in) == 0,
	      "a member of unknown speed: no bandwidth weights");
}

/* Random sizes within 1:8: the space used, at least 98 %. */
static void random_capacity(void)
{
	static const u32 chunks[] = { 8, 128, 512, 2048, 16384 };
	double worst = 1, f;
	int i, bad = 0, invalid = 0;
	u32 worst_n = 0;

	for (i = 0; i < 1000; i++) {
		u32 n = 1 + (u32)(rnd() % 16), m;
		u32 chunk = chunks[rnd() % 5];
		u64 base = GIB * (16 + rnd() % 8000);
		struct wt_input in;
		struct wt_eval e;

		for (m = 0; m < n; m++) {
			double r = 1 + 7 * (double)(rnd() % 1000001) / 1e6;

			mem[m] = (struct wt_member){ (u64)(base * r), 0, 0 };
		}
		in = input(n, 1, chunk);
		if (!wt_by_capacity(&in, w) || !valid(&in, w)) {
			invalid++;
			continue;
		}
		wt_evaluate(&in, w, &e);
		f = (double)e.used / (double)e.avail;
		if (f < worst) {
			worst = f;
			worst_n = n;
		}
		if (f < 0.98)
			bad++;
	}
	check(!invalid, "1000 random size vectors: every choice valid (%d not)",
	      invalid);
	check(!bad, "1000 random size vectors (1 to 16 members within 1:8): at least 98 %% used, the least %.3f %% (%u members); %d below",
	      100 * worst, worst_n, bad);
}

/* Every vector of @n weights with sum at most @max, by recursion. */
static void each_vector(u32 *v, u32 n, u32 at, u32 left,
			void (*fn)(const u32 *, void *), void *arg)
{
	u32 x;

	if (at == n) {
		fn(v, arg);
		return;
	}
	for (x = 1; x + (n - at - 1) <= left && x <= BDS_MAX_WEIGHT; x++) {
		v[at] = x;
		each_vector(v, n, at + 1, left - x, fn, arg);
	}
}

struct brute {
	const struct wt_input *in;
	bool bw;
	double best_t;		/* pass 1: the best T */
	u64 best_used;		/* pass 2: the most space among T ties */
	u32 sat;		/* the choice's disks at full speed */
	u32 min_sat;		/* pass 3: the fewest among both ties */
	u32 min_w;		/* pass 3: the smallest W with at most sat */
	int pass;
};

/* Disks at their full speed when the volume runs at its T. */
static u32 saturated(const struct wt_input *in, const u32 *v)
{
	struct wt_eval e;
	u32 m, n = 0;

	wt_evaluate(in, v, &e);
	for (m = 0; m < in->n; m++)
		n += e.mbps * v[m] / e.slots >= in->m[m].mbps * (1 - 1.0 / WT_TIE);
	return n;
}

static void brute_one(const u32 *v, void *arg)
{
	struct brute *b = arg;
	struct wt_eval e;
	u32 sat;

	wt_evaluate(b->in, v, &e);
	if (b->bw && b->pass == 1) {
		if (e.mbps > b->best_t)
			b->best_t = e.mbps;
		return;
	}
	if (b->bw && e.mbps < b->best_t * (1 - 1.0 / WT_TIE))
		return;
	if (b->pass <= 2) {
		if (e.used > b->best_used)
			b->best_used = e.used;
		return;
	}
	if (e.used < b->best_used - b->best_used / WT_TIE)
		return;
	sat = b->bw ? saturated(b->in, v) : 0;
	if (sat < b->min_sat)
		b->min_sat = sat;
	if (sat <= b->sat && e.slots < b->min_w)
		b->min_w = e.slots;
}

/* A random small case: 2 to 4 members on 2 controllers, W at most 6..35. */
static u32 small_case(struct wt_input *in)
{
	u32 n = 2 + (u32)(rnd() % 3), m;

	for (m = 0; m < n; m++)
		mem[m] = (struct wt_member){
			128 * (1000 + rnd() % 40000), 50 + rnd() % 200,
			(u32)(rnd() % 2) };
	ctrl[0] = 100 + rnd() % 300;
	ctrl[1] = rnd() % 2 ? 0 : 100 + rnd() % 300;
	*in = input(n, 2, 128);
	in->max_slots = 6 + (u32)(rnd() % 30);
	return n;
}

/*
 * Small cases against every vector: T within 0.1 % of the best (by
 * bandwidth), then the space within 0.1 % of the most among those, and
 * no smaller W that ties on both with as few disks at full speed.
 */
static void brute_force(bool bw)
{
	int i, wrong = 0, more_sat = 0;

	for (i = 0; i < 150; i++) {
		struct brute b = { .bw = bw, .min_w = ~0U, .min_sat = ~0U };
		struct wt_input in;
		struct wt_eval e;
		u32 n = small_case(&in), v[4];

		if (!(bw ? wt_by_bandwidth(&in, w) : wt_by_capacity(&in, w))) {
			wrong++;
			continue;
		}
		wt_evaluate(&in, w, &e);
		b.in = &in;
		b.sat = bw ? saturated(&in, w) : 0;
		for (b.pass = bw ? 1 : 2; b.pass <= 3; b.pass++)
			each_vector(v, n, 0, in.max_slots, brute_one, &b);
		more_sat += b.sat > b.min_sat;
		if (e.slots > in.max_slots ||
		    (bw && e.mbps < b.best_t * (1 - 1.0 / WT_TIE)) ||
		    e.used < b.best_used - b.best_used / WT_TIE ||
		    e.slots != b.min_w) {
			if (wrong++ < 3)
				printf("# %s: n %u, W <= %u: chose %s (W %u, %.3f MB/s, %llu used), best %.3f MB/s, %llu used, smallest tied W %u\n",
				       bw ? "bandwidth" : "capacity", n,
				       in.max_slots, list(w, n), e.slots,
				       e.mbps, (unsigned long long)e.used,
				       b.best_t, (unsigned long long)b.best_used,
				       b.min_w);
		}
	}
	check(!wrong, "%s: 150 small cases against every vector: the best within 0.1 %%, the smallest such W (%d wrong)",
	      bw ? "bandwidth (then space)" : "capacity", wrong);
	if (bw)
		check(!more_sat, "bandwidth: of the tied vectors, one with the fewest disks at full speed (%d of 150 not)",
		      more_sat);
}

/* pass 1: the best T of every W; pass 2: the most space at W_tol's */
struct brute_tol {
	const struct wt_input *in;
	double best_of[BDS_MAX_SLOTS + 1];
	u32 at;			/* the smallest W within the tolerance */
	u64 most;
	int pass;
};

static void brute_tol_one(const u32 *v, void *arg)
{
	struct brute_tol *b = arg;
	struct wt_eval e;

	wt_evaluate(b->in, v, &e);
	if (b->pass == 1) {
		if (e.mbps > b->best_of[e.slots])
			b->best_of[e.slots] = e.mbps;
		return;
	}
	if (e.slots == b->at &&
	    e.mbps >= b->best_of[b->at] * (1 - 1.0 / WT_TIE) && e.used > b->most)
		b->most = e.used;
}

/*
 * Measured speeds: the smallest W whose best T is within the tolerance
 * of the best of all, its best T (to a tie), then its most space.
 */
static void brute_tolerance(void)
{
	int i, wrong = 0, shorter = 0;

	for (i = 0; i < 150; i++) {
		struct brute_tol b = { .at = 0 };
		struct wt_input in, exact;
		struct wt_eval e, ex;
		u32 n = small_case(&in), v[4], W;
		double best = 0;

		exact = in;
		in.tolerance = 0.05;
		if (!wt_by_bandwidth(&exact, w)) {
			wrong++;
			continue;
		}
		wt_evaluate(&exact, w, &ex);
		if (!wt_by_bandwidth(&in, w)) {
			wrong++;
			continue;
		}
		wt_evaluate(&in, w, &e);
		b.in = &in;
		b.pass = 1;
		each_vector(v, n, 0, in.max_slots, brute_tol_one, &b);
		for (W = n; W <= in.max_slots; W++)
			if (b.best_of[W] > best)
				best = b.best_of[W];
		for (W = n; W <= in.max_slots && !b.at; W++)
			if (b.best_of[W] >= best * (1 - in.tolerance))
				b.at = W;
		b.pass = 2;
		each_vector(v, n, 0, in.max_slots, brute_tol_one, &b);
		shorter += e.slots < ex.slots;
		if (e.slots != b.at ||
		    e.mbps < b.best_of[b.at] * (1 - 1.0 / WT_TIE) ||
		    e.used < b.most - b.most / WT_TIE) {
			if (wrong++ < 3)
				printf("# tolerance: n %u, W <= %u: chose %s (W %u, %.3f MB/s, %llu used); want W %u (best %.3f of all %.3f), %.3f MB/s, %llu used\n",
				       n, in.max_slots, list(w, n), e.slots,
				       e.mbps, (unsigned long long)e.used, b.at,
				       b.best_of[b.at], best, b.best_of[b.at],
				       (unsigned long long)b.most);
		}
	}
	check(!wrong, "bandwidth, measured (5 %%): 150 small cases against every vector: the smallest W within 5 %% of the best T, its best T, its most space (%d wrong)",
	      wrong);
	check(shorter > 0, "bandwidth, measured: a shorter cycle than the exact choice in %d of 150",
	      shorter);
}

/*
 * T2 measured on make bench's disk model: each disk alone 9.2 MB/s (a
 * per-request cost, not its 10 MB/s cap), the shared controllers 15.
 * Fitted exactly, 9.2 : 7.5 gives 49 and 40, a cycle of 454 units, and
 * 94.6 % of what the true caps allow; within the figures' 5 %, a short
 * cycle that the true caps' 4 : 3 also allows.
 */
static void model_measured(void)
{
	static const u32 ctrl_of[10] = { 0, 1, 2, 3, 4, 5, 6, 6, 7, 7 };
	double truth[8];
	struct wt_input in, exact, tru;
	struct wt_eval e, ex, t, best;
	u32 m, tw[10];

	for (m = 0; m < 10; m++)
		mem[m] = (struct wt_member){ 2 * GIB - 2064, 9.2, ctrl_of[m] };
	for (m = 0; m < 8; m++) {
		ctrl[m] = m < 6 ? 0 : 15;
		truth[m] = ctrl[m];
	}
	in = input(10, 8, 32);
	in.tolerance = 0.05;
	exact = in;
	exact.tolerance = 0;
	check(wt_by_bandwidth(&exact, w), "model: weights from the exact fit");
	tru = exact;
	tru.ctrl_mbps = truth;
	for (m = 0; m < 10; m++)
		mem[m].mbps = 10;
	wt_evaluate(&tru, w, &ex);
	for (m = 0; m < 10; m++)
		mem[m].mbps = 9.2;
	printf("# exact fit: %s, W %u: %.1f MB/s under the true caps\n",
	       list(w, 10), ex.slots, ex.mbps);
	check(wt_by_bandwidth(&in, w), "model: weights within the figures' error");
	wt_evaluate(&in, w, &e);
	for (m = 0; m < 10; m++)
		mem[m].mbps = 10;
	wt_evaluate(&tru, w, &t);
	check(wt_by_bandwidth(&tru, tw), "model: the true caps' own weights");
	wt_evaluate(&tru, tw, &best);
	check(t.mbps >= 0.95 * best.mbps && e.slots < ex.slots,
	      "model: %s (W %u, was %u) reach %.1f MB/s of the true caps' %.1f (>= 95 %%)",
	      list(w, 10), e.slots, ex.slots, t.mbps, best.mbps);
}

static void limits(void)
{
	struct wt_input in;
	struct wt_eval e;
	bool ok;
	u32 m;

	/* a 1 GiB chunk: W at most 3 */
	check(wt_max_slots(2097152) == 3 && wt_max_slots(8) == 1024 &&
	      wt_max_slots(4096) == 1024 && wt_max_slots(8192) == 1023 &&
	      wt_max_slots(16384) == 511,
	      "wt_max_slots: the cycle within 32 bits, at most 1024");
	for (m = 0; m < 3; m++)
		mem[m] = (struct wt_member){ (m + 1) * 100 * GIB, 0, 0 };
	in = input(3, 1, 2097152);
	ok = wt_by_capacity(&in, w) && !strcmp(list(w, 3), "1,1,1");
	check(ok, "a 1 GiB stripe unit over 3 members: W 3, weights %s",
	      list(w, 3));
	/* one member 1000 times larger: its weight stops at 255 */
	mem[0].avail = 1000 * GIB;
	mem[1].avail = mem[2].avail = GIB;
	in = input(3, 1, 8);
	wt_by_capacity(&in, w);
	wt_evaluate(&in, w, &e);
	check(valid(&in, w) && w[0] == 255,
	      "sizes 1000:1:1: weights %s, %.1f %% used", list(w, 3),
	      100.0 * e.used / e.avail);
	/* 128 members: W at most 1024 */
	for (m = 0; m < 128; m++)
		mem[m] = (struct wt_member){ (1 + m % 8) * GIB, 100 + m, m % 32 };
	for (m = 0; m < 32; m++)
		ctrl[m] = 300;
	in = input(128, 32, 128);
	ok = wt_by_capacity(&in, w) && valid(&in, w);
	wt_evaluate(&in, w, &e);
	check(ok, "128 members by capacity: valid (W %u, %.1f %% used)", e.slots,
	      100.0 * e.used / e.avail);
	ok = wt_by_bandwidth(&in, w) && valid(&in, w);
	wt_evaluate(&in, w, &e);
	check(ok, "128 members by bandwidth: valid (W %u, %.1f MB/s of %.1f)",
	      e.slots, e.mbps, wt_ideal_mbps(&in));
}

static void lists(void)
{
	u32 v[4];

	check(!wt_parse_list("2,1,1,1", 4, v) && !strcmp(list(v, 4), "2,1,1,1"),
	      "list 2,1,1,1");
	check(wt_parse_list("2,1,1", 4, v) &&
	      strstr(wt_parse_list("2,1,1", 4, v), "exactly one weight per member"),
	      "three weights for four members: %s", wt_parse_list("2,1,1", 4, v));
	check(wt_parse_list("2,,1,1", 4, v) && wt_parse_list("2,1,1,", 4, v) &&
	      wt_parse_list("0x2,1,1,1", 4, v) && wt_parse_list("", 4, v) &&
	      wt_parse_list("2 1 1 1", 4, v),
	      "malformed lists: %s", wt_parse_list("2,,1,1", 4, v));
	check(!wt_parse_list("300,1,1,1", 4, v) && v[0] > BDS_MAX_WEIGHT,
	      "a weight of 300 parses as out of range (bds_weights_check says so)");
}

static void grow_modes(void)
{
	static const struct {
		const char *given;
		u32 recorded;
		bool weighted;
		int want;
	} c[] = {
		{ NULL, BDS_WEIGHTS_MODE_NONE, false, BDS_WEIGHTS_MODE_NONE },
		{ NULL, BDS_WEIGHTS_MODE_NONE, true, WT_GROW_ASK },
		{ NULL, BDS_WEIGHTS_MODE_CAPACITY, true, BDS_WEIGHTS_MODE_CAPACITY },
		{ NULL, BDS_WEIGHTS_MODE_CAPACITY, false, BDS_WEIGHTS_MODE_CAPACITY },
		{ NULL, BDS_WEIGHTS_MODE_BANDWIDTH, true, BDS_WEIGHTS_MODE_BANDWIDTH },
		{ NULL, BDS_WEIGHTS_MODE_BANDWIDTH, false, BDS_WEIGHTS_MODE_BANDWIDTH },
		{ NULL, BDS_WEIGHTS_MODE_LIST, true, WT_GROW_ASK },
		{ NULL, BDS_WEIGHTS_MODE_LIST, false, BDS_WEIGHTS_MODE_NONE },
		{ "capacity", BDS_WEIGHTS_MODE_NONE, true, BDS_WEIGHTS_MODE_CAPACITY },
		{ "capacity", BDS_WEIGHTS_MODE_LIST, true, BDS_WEIGHTS_MODE_CAPACITY },
		{ "bandwidth", BDS_WEIGHTS_MODE_CAPACITY, true, BDS_WEIGHTS_MODE_BANDWIDTH },
		{ "2,1,1", BDS_WEIGHTS_MODE_CAPACITY, true, BDS_WEIGHTS_MODE_LIST },
		{ "1,1,1", BDS_WEIGHTS_MODE_NONE, false, BDS_WEIGHTS_MODE_LIST },
	};
	size_t i;
	int got;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		got = wt_grow_mode(c[i].given, c[i].recorded, c[i].weighted);
		check(got == c[i].want,
		      "grow --add, --weights %s, labels' mode %u, %sweighted: %d (want %d)",
		      c[i].given ? c[i].given : "not given", c[i].recorded,
		      c[i].weighted ? "" : "not ", got, c[i].want);
	}
	check(wt_label_mode(NULL) == BDS_WEIGHTS_MODE_NONE &&
	      wt_label_mode("capacity") == BDS_WEIGHTS_MODE_CAPACITY &&
	      wt_label_mode("bandwidth") == BDS_WEIGHTS_MODE_BANDWIDTH &&
	      wt_label_mode("3,1") == BDS_WEIGHTS_MODE_LIST,
	      "the label's mode of each --weights");
}

/*
 * grow --weights bandwidth: the speeds from the members' labels
 * (wt_recorded_speeds()).  T2 as create --measure records it: each disk
 * 10 MB/s, a lone disk's controller no limit (0), a shared one's 15.
 */
static void recorded_speeds(void)
{
	static const u32 ctrl_of[10] = { 0, 1, 2, 3, 4, 5, 6, 6, 7, 7 };
	static struct bds_label l[10];
	const struct bds_label *ml[10];
	struct wt_input in;
	struct wt_eval e;
	u32 m;
	int r;
	bool ok = true;

	for (m = 0; m < 10; m++) {
		memset(&l[m], 0, sizeof(l[m]));
		l[m].compat = BDS_LABEL_COMPAT_MEASURED;
		l[m].meas_disk = 10000;
		l[m].meas_ctrl = m < 6 ? 0 : 15000;
		l[m].meas_time = 1796515200ULL;
		ml[m] = &l[m];
		mem[m] = (struct wt_member){ 2 * GIB - 2064, 0, ctrl_of[m] };
	}
	r = wt_recorded_speeds(ml, 10, mem, 8, ctrl);
	for (m = 0; m < 10; m++)
		ok = ok && mem[m].mbps == 10;
	for (m = 0; m < 8; m++)
		ok = ok && ctrl[m] == (m < 6 ? 0 : 15);
	check(r == -1 && ok,
	      "recorded T2: each disk 10 MB/s, lone controllers no limit, shared ones 15 (%d)",
	      r);
	in = input(10, 8, 32);
	in.tolerance = 0.05;
	ok = wt_by_bandwidth(&in, w);
	wt_evaluate(&in, w, &e);
	/* measured: the shortest cycle at 90 MB/s, a pair's 3 as 2 + 1 */
	check(ok && !strcmp(list(w, 10), "2,2,2,2,2,2,2,1,2,1") &&
	      e.slots == 18 && e.mbps > 89.999 && e.mbps < 90.001,
	      "recorded T2: the weights create --measure chooses, 2 alone and 3 a pair, W 18 (%s, %.1f MB/s)",
	      list(w, 10), e.mbps);

	l[9].meas_ctrl = 14000;		/* a group's labels disagree */
	r = wt_recorded_speeds(ml, 10, mem, 8, ctrl);
	check(r == -1 && ctrl[7] == 14 && ctrl[6] == 15,
	      "a group's limit is the lowest its members record (%.1f)",
	      ctrl[7]);

	l[3].compat = 0;		/* joined later: no figures */
	l[3].meas_disk = 0;
	mem[0].mbps = -1;
	r = wt_recorded_speeds(ml, 10, mem, 8, ctrl);
	check(r == 3 && mem[0].mbps == -1,
	      "a member without figures is named (%d), nothing set", r);
	l[3].compat = BDS_LABEL_COMPAT_MEASURED;
	l[3].meas_disk = 10000;
	mem[5].ctrl = 8;		/* a group the labels do not have */
	check(wt_recorded_speeds(ml, 10, mem, 8, ctrl) == 5,
	      "a member of a group out of range is refused");

	/* grow --add --measure: recorded against measured, 0 = no limit */
	check(wt_lowest_limit(0, 0) == 0 && wt_lowest_limit(15, 0) == 15 &&
	      wt_lowest_limit(0, 15) == 15 && wt_lowest_limit(15, 12) == 12 &&
	      wt_lowest_limit(12, 15) == 12 && wt_lowest_limit(-1, 0) == 0,
	      "a controller's limit: the lower of those that showed, 0 when none did");
}

int main(void)
{
	tap_rng = 0x77656967687473ULL;
	t2_example();
	simple();
	random_capacity();
	brute_force(false);
	brute_force(true);
	brute_tolerance();
	model_measured();
	limits();
	lists();
	grow_modes();
	recorded_speeds();
	return tap_done();
}
