// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the bds-stripe layout arithmetic (libbds/layout.c).
 *
 * Every property is checked against a model written here from the
 * specification, not against the header's own helpers.  The placement
 * model takes the position -> member table (l->order) from the header;
 * that table is checked on its own (permutation, table order within
 * each group, window balance, explicit expected orders).
 * Output is TAP; the last line is "N passed, N failed" and the exit
 * status is non-zero if anything failed.
 *
 * The random geometries are deterministic (fixed seed); set BDS_SEED
 * in the environment to try another seed.
 */
/* first, to prove that the header is self-contained */
#include "libbds/layout.h"
#include "libbds/table.h"

#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

/* u64 is unsigned long or unsigned long long: print both as %llu */
#define U(x) ((unsigned long long)(x))
#define S(x) ((long long)(x))

/* ------------------------------------------------------------------ */
/* Harness                                                             */

static char diag[2048];

static bool fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(diag, sizeof(diag), fmt, ap);
	va_end(ap);
	return false;
}

/* ------------------------------------------------------------------ */
/* Deterministic random numbers (splitmix64)                            */

static u64 rng_state = 0x6264732d73747269ULL;

static u64 rnd64(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (bias is irrelevant here). */
static u64 rnd(u64 n)
{
	return rnd64() % n;
}

/* ------------------------------------------------------------------ */
/* Geometries                                                          */

struct geom {
	u32 chunk;
	u32 nr_groups;
	u32 sizes[BDS_MAX_GROUPS];
	enum bds_order_mode mode;
};

static const char *mode_name(enum bds_order_mode m)
{
	return m == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave";
}

/* Human-readable geometry for diagnostics (static buffer). */
static const char *gdesc(const struct geom *g)
{
	static char buf[512];
	size_t o;
	u32 i;

	o = (size_t)snprintf(buf, sizeof(buf), "chunk=%u %s groups=[",
			     g->chunk, mode_name(g->mode));
	for (i = 0; i < g->nr_groups && o < sizeof(buf); i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%u",
				      i ? "," : "", g->sizes[i]);
	if (o < sizeof(buf))
		snprintf(buf + o, sizeof(buf) - o, "]");
	return buf;
}

static u32 geom_members(const struct geom *g)
{
	u32 i, n = 0;

	for (i = 0; i < g->nr_groups; i++)
		n += g->sizes[i];
	return n;
}

static bool geom_init(const struct geom *g, struct bds_layout *l)
{
	enum bds_geom_err e;

	memset(l, 0xa5, sizeof(*l));	/* no reliance on zeroed memory */
	e = bds_layout_init(l, g->chunk, g->sizes, g->nr_groups, g->mode);
	if (e != BDS_OK)
		return fail("%s: bds_layout_init refused a valid geometry: "
			    "%d (%s)",
			    gdesc(g), (int)e, bds_geom_error(e));
	if (l->nr_members != geom_members(g) || l->chunk != g->chunk ||
	    l->nr_groups != g->nr_groups)
		return fail("%s: layout has N=%u chunk=%u groups=%u", gdesc(g),
			    l->nr_members, l->chunk, l->nr_groups);
	return true;
}

/*
 * Random geometry: N in [1, maxn], 1..min(32, N) groups of uneven sizes,
 * a chunk from @chunks that keeps chunk * 512 * N within 32 bits.
 */
static void rand_geom(struct geom *g, u32 maxn, const u32 *chunks,
		      size_t nr_chunks)
{
	u32 n = 1 + (u32)rnd(maxn);
	u32 maxg = n < BDS_MAX_GROUPS ? n : BDS_MAX_GROUPS;
	u32 i, extra;

	g->nr_groups = 1 + (u32)rnd(maxg);
	for (i = 0; i < g->nr_groups; i++)
		g->sizes[i] = 1;
	/* skewed towards low groups so that sizes come out uneven */
	for (extra = n - g->nr_groups; extra; extra--)
		g->sizes[rnd(1 + rnd(g->nr_groups))]++;
	do {
		g->chunk = chunks[rnd(nr_chunks)];
	} while ((u64)g->chunk * 512 * n > 0xffffffffULL);
	g->mode = rnd(2) ? BDS_LAYOUT_SEQUENTIAL : BDS_LAYOUT_INTERLEAVE;
}

/* member index -> group, computed from the sizes (not from the header) */
static void model_group_of(const struct geom *g, u32 *group_of)
{
	u32 i, j, m = 0;

	for (i = 0; i < g->nr_groups; i++)
		for (j = 0; j < g->sizes[i]; j++)
			group_of[m++] = i;
}

static bool order_is_permutation(const struct bds_layout *l,
				 const struct geom *g)
{
	u8 seen[BDS_MAX_MEMBERS] = { 0 };
	u32 p, n = l->nr_members;

	for (p = 0; p < n; p++) {
		if (l->order[p] >= n)
			return fail("%s: order[%u]=%u out of range (N=%u)",
				    gdesc(g), p, l->order[p], n);
		if (seen[l->order[p]]++)
			return fail("%s: member %u appears twice in order",
				    gdesc(g), l->order[p]);
		if (l->pos_of[l->order[p]] != p)
			return fail("%s: pos_of[order[%u]=%u]=%u, not %u",
				    gdesc(g), p, l->order[p],
				    l->pos_of[l->order[p]], p);
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Models                                                              */

/* The specification: unit k = s / chunk to position k mod N. */
static void spec_map(const struct bds_layout *l, u64 s, u32 *member,
		     u64 *ms)
{
	u64 c = l->chunk, n = l->nr_members;
	u64 k = s / c;

	*member = l->order[k % n];
	*ms = (k / n) * c + s % c;
}

/* dm-stripe.c stripe_map_sector(), rewritten with plain / and %. */
static void dm_striped_map(u64 sector, u32 stripes, u32 chunk_size,
			   u32 *stripe, u64 *result)
{
	u64 chunk = sector / chunk_size;
	u64 chunk_offset = sector % chunk_size;

	*stripe = (u32)(chunk % stripes);
	chunk /= stripes;
	*result = chunk * chunk_size + chunk_offset;
}

/* 128-bit model of the placement, for overflow checks. */
static void wide_map(u128 s, u128 c, u128 n, const u8 *order, u32 *member,
		     u128 *ms)
{
	u128 k = s / c;

	*member = order[(u32)(k % n)];
	*ms = (k / n) * c + s % c;
}

static u128 wide_unmap(u128 x, u128 c, u128 n, u32 pos)
{
	return ((x / c) * n + pos) * c + x % c;
}

/*
 * Smallest member sector x in [0, mlen] whose volume sector is >= s
 * (mlen if there is none), by bisection over the 128-bit model.
 */
static u128 wide_lower(u128 s, u128 c, u128 n, u32 pos, u128 mlen)
{
	u128 lo = 0, hi = mlen;

	while (lo < hi) {
		u128 mid = lo + (hi - lo) / 2;

		if (wide_unmap(mid, c, n, pos) >= s)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static const char *u128s(u128 v, char *buf)
{
	char tmp[48];
	int i = 0, j = 0;

	do {
		tmp[i++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	while (i)
		buf[j++] = tmp[--i];
	buf[j] = 0;
	return buf;
}

/* ------------------------------------------------------------------ */
/* 1. mapping round trip and bijection                                  */

static u8 hitmap[4u << 20];

/*
 * Map every sector of stripes [first, first + nr) and check it against
 * the specification, that unmapping gives it back, and that every
 * member sector of those stripes is hit exactly once.
 */
static bool check_stripes(const struct bds_layout *l, const struct geom *g,
			  u64 first, u32 nr)
{
	u64 c = l->chunk, n = l->nr_members, w = c * n;
	u64 per_member = nr * c, mbase = first * c;
	u64 v0 = first * w, v1 = v0 + nr * w, s, x;
	u32 m;

	if (n * per_member > sizeof(hitmap))
		return fail("%s: test bug, hit map too small", gdesc(g));
	memset(hitmap, 0, n * per_member);
	for (s = v0; s < v1; s++) {
		u32 em;
		u64 ms, ems, back;

		bds_map_sector(l, s, &m, &ms);
		spec_map(l, s, &em, &ems);
		if (m != em || ms != ems)
			return fail("%s: sector %llu -> (%u, %llu"
				    "), spec says (%u, %llu)", gdesc(g),
				    U(s), m, U(ms), em, U(ems));
		if (ms < mbase || ms >= mbase + per_member)
			return fail("%s: sector %llu -> msector %llu"
				    " outside its stripes", gdesc(g), U(s),
				    U(ms));
		if (hitmap[m * per_member + ms - mbase]++)
			return fail("%s: (%u, %llu) hit twice, again by %llu",
				    gdesc(g), m, U(ms), U(s));
		back = bds_unmap_sector(l, m, ms);
		if (back != s)
			return fail("%s: unmap(map(%llu)) = %llu",
				    gdesc(g), U(s), U(back));
		if (bds_chunk_left(l, s) != c - s % c)
			return fail("%s: chunk_left(%llu) = %u", gdesc(g),
				    U(s), bds_chunk_left(l, s));
	}
	for (m = 0; m < n; m++)
		for (x = 0; x < per_member; x++)
			if (hitmap[m * per_member + x] != 1)
				return fail("%s: member %u sector %llu"
					    " hit %u times", gdesc(g), m,
					    U(mbase + x),
					    hitmap[m * per_member + x]);
	return true;
}

/* A few random sectors near @centre: spec placement and round trip. */
static bool check_far(const struct bds_layout *l, const struct geom *g,
		      u64 centre, u64 spread, u32 count)
{
	while (count--) {
		u64 s = centre - spread + rnd(2 * spread), ms, ems;
		u32 m, em;

		bds_map_sector(l, s, &m, &ms);
		spec_map(l, s, &em, &ems);
		if (m != em || ms != ems)
			return fail("%s: sector %llu -> (%u, %llu"
				    "), spec says (%u, %llu)", gdesc(g),
				    U(s), m, U(ms), em, U(ems));
		if (bds_unmap_sector(l, m, ms) != s)
			return fail("%s: unmap(map(%llu)) = %llu",
				    gdesc(g), U(s),
				    U(bds_unmap_sector(l, m, ms)));
	}
	return true;
}

static const u32 test_chunks[] = { 8, 16, 24, 192, 1000, 2048, 4096 };
#define NR_TEST_CHUNKS (sizeof(test_chunks) / sizeof(test_chunks[0]))

static bool round_trip_one(const struct geom *g)
{
	struct bds_layout l;
	u64 w, far;

	if (!geom_init(g, &l) || !order_is_permutation(&l, g))
		return false;
	w = bds_width(&l);
	if (w != (u64)g->chunk * geom_members(g))
		return fail("%s: width %llu", gdesc(g), U(w));
	far = ((1ULL << 40) / w) * w;	/* a stripe boundary near 2^40 */
	return check_stripes(&l, g, 0, 3) &&
	       check_stripes(&l, g, far / w - 1, 2) &&
	       check_far(&l, g, 1ULL << 40, 1ULL << 30, 2000) &&
	       check_far(&l, g, 1ULL << 50, 1ULL << 40, 500);
}

static bool test_round_trip_fixed_geometries(void)
{
	static const struct geom fixed[] = {
		{ 8, 1, { 1 }, BDS_LAYOUT_INTERLEAVE },
		{ 8, 1, { 128 }, BDS_LAYOUT_INTERLEAVE },
		{ 192, 2, { 4, 4 }, BDS_LAYOUT_INTERLEAVE },
		{ 192, 3, { 5, 1, 2 }, BDS_LAYOUT_INTERLEAVE },
		{ 1000, 3, { 5, 1, 2 }, BDS_LAYOUT_SEQUENTIAL },
		{ 2048, 4, { 32, 32, 32, 32 }, BDS_LAYOUT_INTERLEAVE },
		{ 2048, 4, { 100, 1, 26, 1 }, BDS_LAYOUT_INTERLEAVE },
		{ 1000, 32, { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
			      4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 },
		  BDS_LAYOUT_INTERLEAVE },
		{ 24, 32, { 97, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
			    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
		  BDS_LAYOUT_INTERLEAVE },
		{ 4096, 2, { 127, 1 }, BDS_LAYOUT_SEQUENTIAL },
	};
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!round_trip_one(&fixed[i]))
			return false;
	return true;
}

static bool test_round_trip_random_geometries(void)
{
	struct geom g;
	int i;

	for (i = 0; i < 64; i++) {
		rand_geom(&g, BDS_MAX_MEMBERS, test_chunks, NR_TEST_CHUNKS);
		if (!round_trip_one(&g))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* 2. sequential equals dm "striped"                                    */

static bool test_sequential_equals_dm_striped(void)
{
	static const struct geom geoms[] = {
		{ 8, 1, { 1 }, BDS_LAYOUT_SEQUENTIAL },
		{ 8, 1, { 4 }, BDS_LAYOUT_SEQUENTIAL },
		{ 192, 2, { 3, 2 }, BDS_LAYOUT_SEQUENTIAL },
		{ 192, 3, { 1, 1, 1 }, BDS_LAYOUT_SEQUENTIAL },
		{ 1000, 1, { 5 }, BDS_LAYOUT_SEQUENTIAL },
		{ 24, 3, { 7, 1, 1 }, BDS_LAYOUT_SEQUENTIAL },
		{ 2048, 3, { 2, 2, 3 }, BDS_LAYOUT_SEQUENTIAL },
		{ 4096, 2, { 64, 64 }, BDS_LAYOUT_SEQUENTIAL },
		{ 120, 5, { 10, 20, 30, 40, 28 }, BDS_LAYOUT_SEQUENTIAL },
	};
	size_t i;

	for (i = 0; i < sizeof(geoms) / sizeof(geoms[0]); i++) {
		const struct geom *g = &geoms[i];
		struct bds_layout l;
		u32 n = geom_members(g);
		u64 w = (u64)g->chunk * n;
		u64 bases[] = { 0, 7 * w, ((1ULL << 40) / w) * w };
		size_t b;

		if (!geom_init(g, &l))
			return false;
		for (b = 0; b < 3; b++) {
			u64 s;

			for (s = bases[b]; s < bases[b] + 4 * w; s++) {
				u32 m, stripe;
				u64 ms, res;

				bds_map_sector(&l, s, &m, &ms);
				dm_striped_map(s, n, g->chunk, &stripe, &res);
				if (m != stripe || ms != res)
					return fail("%s: sector %llu"
						    " -> (%u, %llu"
						    "), striped gives (%u, %llu"
						    ")", gdesc(g), U(s), m,
						    U(ms), stripe, U(res));
			}
		}
	}
	return true;
}

static bool test_single_group_interleave_equals_sequential(void)
{
	static const u32 chunks[] = { 8, 192, 1000, 2048 };
	u32 n;
	size_t c;

	for (n = 1; n <= BDS_MAX_MEMBERS; n++) {
		for (c = 0; c < 4; c++) {
			struct geom gi = { chunks[c], 1, { n },
					   BDS_LAYOUT_INTERLEAVE };
			struct geom gs = gi;
			struct bds_layout li, ls;
			u64 w = (u64)chunks[c] * n, s, base;
			u32 i;

			gs.mode = BDS_LAYOUT_SEQUENTIAL;
			if (!geom_init(&gi, &li) || !geom_init(&gs, &ls))
				return false;
			for (i = 0; i < n; i++)
				if (li.order[i] != i || ls.order[i] != i)
					return fail("%s: order[%u] = %u/%u, "
						    "not identity", gdesc(&gi),
						    i, li.order[i],
						    ls.order[i]);
			base = rnd(1ULL << 40);
			for (s = base; s < base + 2 * w; s += 1 + rnd(7)) {
				u32 mi, msq, st;
				u64 xi, xs, res;

				bds_map_sector(&li, s, &mi, &xi);
				bds_map_sector(&ls, s, &msq, &xs);
				dm_striped_map(s, n, chunks[c], &st, &res);
				if (mi != msq || xi != xs || mi != st ||
				    xi != res)
					return fail("%s: sector %llu"
						    ": interleave (%u, %llu"
						    ") sequential (%u, %llu"
						    ") striped (%u, %llu"
						    ")", gdesc(&gi), U(s), mi,
						    U(xi), msq, U(xs), st,
						    U(res));
			}
		}
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* 3. discard splitting                                                 */

/*
 * Compare bds_member_range() for [start, end) with the member sectors
 * found by mapping every volume sector of the range one by one.
 */
static bool check_range(const struct bds_layout *l, const struct geom *g,
			u64 start, u64 end)
{
	u64 lo[BDS_MAX_MEMBERS], hi[BDS_MAX_MEMBERS], cnt[BDS_MAX_MEMBERS];
	u32 m, n = l->nr_members;
	u64 s;

	for (m = 0; m < n; m++) {
		lo[m] = UINT64_MAX;
		hi[m] = 0;
		cnt[m] = 0;
	}
	for (s = start; s < end; s++) {
		u64 ms;

		bds_map_sector(l, s, &m, &ms);
		if (ms < lo[m])
			lo[m] = ms;
		if (ms > hi[m])
			hi[m] = ms;
		cnt[m]++;
	}
	for (m = 0; m < n; m++) {
		u64 ms = 0xdead, me = 0xbeef;
		bool r = bds_member_range(l, start, end, m, &ms, &me);

		if (!cnt[m]) {
			if (r)
				return fail("%s: [%llu, %llu"
					    ") member %u: true [%llu"
					    ", %llu) but holds nothing",
					    gdesc(g), U(start), U(end), m,
					    U(ms), U(me));
			continue;
		}
		if (hi[m] - lo[m] + 1 != cnt[m])
			return fail("%s: [%llu, %llu) member %u:"
				    " %llu sectors spread over [%llu"
				    ", %llu], not contiguous", gdesc(g),
				    U(start), U(end), m, U(cnt[m]), U(lo[m]),
				    U(hi[m]));
		if (!r || ms != lo[m] || me != hi[m] + 1)
			return fail("%s: [%llu, %llu) member %u:"
				    " got %s [%llu, %llu"
				    "), brute force [%llu, %llu)",
				    gdesc(g), U(start), U(end), m,
				    r ? "true" : "false", U(ms), U(me),
				    U(lo[m]), U(hi[m] + 1));
	}
	return true;
}

static void sort2(u64 *a, u64 *b)
{
	if (*a > *b) {
		u64 t = *a;

		*a = *b;
		*b = t;
	}
}

/* One range of each kind, inside the volume region [base, base + len). */
static bool ranges_one_kind(const struct bds_layout *l, const struct geom *g,
			    u64 base, u64 len, int kind)
{
	u64 c = l->chunk, w = bds_width(l), a, b;

	switch (kind) {
	case 0:		/* anywhere, unaligned */
		a = rnd(len + 1);
		b = rnd(len + 1);
		break;
	case 1:		/* chunk aligned */
		a = rnd(len / c + 1) * c;
		b = rnd(len / c + 1) * c;
		break;
	case 2:		/* stripe aligned */
		a = rnd(len / w + 1) * w;
		b = rnd(len / w + 1) * w;
		break;
	case 3:		/* inside one chunk */
		a = rnd(len / c) * c;
		b = a + rnd(c + 1);
		a += rnd(b - a + 1);
		break;
	case 4:		/* inside one stripe */
		a = rnd(len / w) * w;
		b = a + rnd(w + 1);
		a += rnd(b - a + 1);
		break;
	case 5:		/* across a stripe boundary, short */
		a = (1 + rnd(len / w - 1)) * w;
		b = a + 1 + rnd(c);
		a -= 1 + rnd(c);
		break;
	case 6:		/* empty */
		a = b = rnd(len + 1);
		break;
	case 7:		/* from the start */
		a = 0;
		b = rnd(len + 1);
		break;
	default:	/* to the end */
		a = rnd(len + 1);
		b = len;
		break;
	}
	sort2(&a, &b);
	return check_range(l, g, base + a, base + b);
}

static bool discard_one(const struct geom *g, u64 base_stripe, int rounds)
{
	struct bds_layout l;
	u64 w, len, base;
	int r, k;

	if (!geom_init(g, &l))
		return false;
	w = bds_width(&l);
	len = 5 * w;
	base = base_stripe * w;
	if (!check_range(&l, g, base, base + len) ||	/* whole volume */
	    !check_range(&l, g, base, base) ||
	    !check_range(&l, g, base + len, base + len))
		return false;
	for (r = 0; r < rounds; r++)
		for (k = 0; k < 9; k++)
			if (!ranges_one_kind(&l, g, base, len, k))
				return false;
	return true;
}

static const u32 small_chunks[] = { 8, 16, 24, 40, 192 };

static bool test_discard_split_matches_brute_force(void)
{
	static const struct geom fixed[] = {
		{ 8, 1, { 1 }, BDS_LAYOUT_INTERLEAVE },
		{ 8, 2, { 2, 2 }, BDS_LAYOUT_INTERLEAVE },
		{ 24, 3, { 4, 2, 2 }, BDS_LAYOUT_INTERLEAVE },
		{ 192, 2, { 3, 1 }, BDS_LAYOUT_SEQUENTIAL },
		{ 16, 4, { 1, 5, 2, 3 }, BDS_LAYOUT_INTERLEAVE },
	};
	struct geom g;
	size_t i;
	int j;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!discard_one(&fixed[i], 0, 20))
			return false;
	for (j = 0; j < 60; j++) {
		rand_geom(&g, 12, small_chunks, 5);
		if (!discard_one(&g, 0, 4))
			return false;
	}
	return true;
}

static bool test_discard_split_far_from_start(void)
{
	struct geom g;
	int j;

	for (j = 0; j < 30; j++) {
		u64 w;

		rand_geom(&g, 12, small_chunks, 5);
		w = (u64)g.chunk * geom_members(&g);
		if (!discard_one(&g, (1ULL << 40) / w + rnd(1000), 3))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* 4. balance of the interleaved order                                  */

/*
 * Window bound of the specification, in integers: for every window of
 * w consecutive positions (wrapping) and every group g,
 * |count_g * N - w * n_g| < N (equal sizes or two groups), else < 2N.
 */
static bool balance_ok(const struct bds_layout *l, const struct geom *g,
		       const char *what)
{
	u32 gof[BDS_MAX_MEMBERS], cnt[BDS_MAX_GROUPS];
	u32 n = l->nr_members, ng = g->nr_groups, a, w, h;
	bool equal = true;
	int64_t lim;

	for (h = 1; h < ng; h++)
		if (g->sizes[h] != g->sizes[0])
			equal = false;
	lim = (equal || ng == 2) ? (int64_t)n : 2 * (int64_t)n;
	model_group_of(g, gof);
	for (a = 0; a < n; a++) {
		memset(cnt, 0, sizeof(cnt));
		for (w = 1; w <= n; w++) {
			cnt[gof[l->order[(a + w - 1) % n]]]++;
			for (h = 0; h < ng; h++) {
				int64_t d = (int64_t)cnt[h] * n -
					    (int64_t)w * g->sizes[h];

				if (d <= -lim || d >= lim) {
					char ord[BDS_MAX_MEMBERS * 4 + 1];
					size_t o = 0;
					u32 p;

					for (p = 0; p < n; p++)
						o += (size_t)snprintf(ord + o,
							sizeof(ord) - o, "%s%u",
							p ? " " : "",
							gof[l->order[p]]);
					return fail("%s%s: window start %u "
						    "width %u has %u of group "
						    "%u, fair share %u*%u/%u, "
						    "|%lld| >= %lld"
						    "/%u; groups by position: "
						    "%s", what, gdesc(g), a, w,
						    cnt[h], h, w, g->sizes[h],
						    n, S(d), S(lim), n, ord);
				}
			}
		}
	}
	return true;
}

/* Each group's members appear in table order; group_of is right. */
static bool table_order_ok(const struct bds_layout *l, const struct geom *g)
{
	u32 gof[BDS_MAX_MEMBERS], next[BDS_MAX_GROUPS], first[BDS_MAX_GROUPS];
	u32 p, h, m = 0;

	model_group_of(g, gof);
	for (h = 0; h < g->nr_groups; h++) {
		first[h] = m;
		next[h] = 0;
		m += g->sizes[h];
		if (l->group_size[h] != g->sizes[h])
			return fail("%s: group_size[%u] = %u", gdesc(g), h,
				    l->group_size[h]);
	}
	for (m = 0; m < l->nr_members; m++)
		if (l->group_of[m] != gof[m])
			return fail("%s: group_of[%u] = %u, not %u", gdesc(g),
				    m, l->group_of[m], gof[m]);
	for (p = 0; p < l->nr_members; p++) {
		u32 mem = l->order[p];

		h = gof[mem];
		if (mem != first[h] + next[h])
			return fail("%s: position %u holds member %u, expected "
				    "group %u's next member %u", gdesc(g), p,
				    mem, h, first[h] + next[h]);
		next[h]++;
	}
	return true;
}

/* Enumerate every composition of n (ordered tuple of positive sizes). */
static bool for_each_composition(u32 maxn,
				 bool (*check)(const struct geom *g,
					       u64 *bad, u64 *total))
{
	u64 bad = 0, total = 0;
	char first_diag[sizeof(diag)] = "";
	u32 n;

	for (n = 1; n <= maxn; n++) {
		u32 mask, nmask = 1u << (n - 1);

		for (mask = 0; mask < nmask; mask++) {
			struct geom g = { 8, 0, { 0 }, BDS_LAYOUT_INTERLEAVE };
			u32 i, run = 1;

			/* bit i set: a group ends after member i */
			for (i = 0; i + 1 < n; i++) {
				if (mask & (1u << i)) {
					g.sizes[g.nr_groups++] = run;
					run = 1;
				} else {
					run++;
				}
			}
			g.sizes[g.nr_groups++] = run;
			if (!check(&g, &bad, &total) && !first_diag[0])
				memcpy(first_diag, diag, sizeof(diag));
		}
	}
	if (bad) {
		snprintf(diag, sizeof(diag),
			 "%llu of %llu compositions fail; "
			 "first: %s", U(bad), U(total), first_diag);
		return false;
	}
	return true;
}

static bool comp_permutation(const struct geom *g, u64 *bad, u64 *total)
{
	struct bds_layout l;

	++*total;
	if (geom_init(g, &l) && order_is_permutation(&l, g) &&
	    table_order_ok(&l, g))
		return true;
	++*bad;
	return false;
}

static bool comp_balance(const struct geom *g, u64 *bad, u64 *total)
{
	struct bds_layout l;

	++*total;
	if (geom_init(g, &l) && balance_ok(&l, g, ""))
		return true;
	++*bad;
	return false;
}

static bool test_interleave_permutation_table_order_all_compositions(void)
{
	return for_each_composition(16, comp_permutation);
}

static bool test_interleave_window_balance_all_compositions(void)
{
	return for_each_composition(16, comp_balance);
}

static bool test_interleave_window_balance_random_up_to_128(void)
{
	u64 bad = 0;
	char first_diag[sizeof(diag)] = "";
	int i;

	for (i = 0; i < 400; i++) {
		struct geom g;
		struct bds_layout l;

		rand_geom(&g, BDS_MAX_MEMBERS, test_chunks, NR_TEST_CHUNKS);
		g.mode = BDS_LAYOUT_INTERLEAVE;
		if (!geom_init(&g, &l) || !order_is_permutation(&l, &g) ||
		    !table_order_ok(&l, &g) || !balance_ok(&l, &g, "")) {
			if (!bad++)
				memcpy(first_diag, diag, sizeof(diag));
		}
	}
	if (bad) {
		snprintf(diag, sizeof(diag), "%llu of 400 fail; first: %s",
			 U(bad), first_diag);
		return false;
	}
	return true;
}

/*
 * The same window bound in O(N) per group, for the big families below.
 * With P(x) the count of group g in positions [0, x) and
 * D(x) = P(x) * N - x * n_g, D is N-periodic (P(x + N) = P(x) + n_g), and
 * the window of width w at a deviates by D(a + w) - D(a).  Over all
 * windows that spans exactly max D - min D on one period.
 */
static bool balance_fast_ok(const struct bds_layout *l, const struct geom *g)
{
	u32 gof[BDS_MAX_MEMBERS], n = l->nr_members, ng = g->nr_groups, h, x;
	bool equal = true;
	int64_t lim;

	for (h = 1; h < ng; h++)
		if (g->sizes[h] != g->sizes[0])
			equal = false;
	lim = (equal || ng == 2) ? (int64_t)n : 2 * (int64_t)n;
	model_group_of(g, gof);
	for (h = 0; h < ng; h++) {
		int64_t d = 0, lo = 0, hi = 0, p = 0;

		for (x = 0; x < n; x++) {
			p += gof[l->order[x]] == h;
			d = p * n - (int64_t)(x + 1) * g->sizes[h];
			if (d < lo)
				lo = d;
			if (d > hi)
				hi = d;
		}
		if (hi - lo >= lim)
			return fail("%s: group %u: some window deviates by %lld"
				    "/%u >= %lld/%u", gdesc(g), h,
				    S(hi - lo), n, S(lim), n);
	}
	return true;
}

static bool check_family(const struct geom *g, u64 *bad, char *first)
{
	struct bds_layout l;
	u32 n = geom_members(g);
	bool fast, slow;

	if (!geom_init(g, &l) || !order_is_permutation(&l, g) ||
	    !table_order_ok(&l, g)) {
		if (!(*bad)++)
			memcpy(first, diag, sizeof(diag));
		return false;
	}
	fast = balance_fast_ok(&l, g);
	if (n <= 24) {		/* keep the fast checker honest */
		slow = balance_ok(&l, g, "");
		if (slow != fast) {
			fail("%s: test bug, fast balance %d, brute force %d",
			     gdesc(g), fast, slow);
			fast = false;
		}
	}
	if (!fast && !(*bad)++)
		memcpy(first, diag, sizeof(diag));
	return fast;
}

static bool family_result(u64 bad, u64 total, const char *first)
{
	if (!bad)
		return true;
	return fail("%llu of %llu geometries fail; first: %s", U(bad),
		    U(total), first);
}

static bool test_interleave_window_balance_two_groups_up_to_128(void)
{
	char first[sizeof(diag)] = "";
	u64 bad = 0, total = 0;
	u32 n, a;

	for (n = 2; n <= BDS_MAX_MEMBERS; n++)
		for (a = 1; a < n; a++) {
			struct geom g = { 8, 2, { a, n - a },
					  BDS_LAYOUT_INTERLEAVE };

			total++;
			check_family(&g, &bad, first);
		}
	return family_result(bad, total, first);
}

static bool test_interleave_window_balance_equal_groups_up_to_128(void)
{
	char first[sizeof(diag)] = "";
	u64 bad = 0, total = 0;
	u32 k, sz, i;

	for (k = 1; k <= BDS_MAX_GROUPS; k++)
		for (sz = 1; k * sz <= BDS_MAX_MEMBERS; sz++) {
			struct geom g = { 8, k, { 0 }, BDS_LAYOUT_INTERLEAVE };

			for (i = 0; i < k; i++)
				g.sizes[i] = sz;
			total++;
			check_family(&g, &bad, first);
		}
	return family_result(bad, total, first);
}

static bool test_interleave_window_balance_three_groups_up_to_64(void)
{
	char first[sizeof(diag)] = "";
	u64 bad = 0, total = 0;
	u32 a, b, c;

	for (a = 1; a <= 62; a++)
		for (b = 1; a + b <= 63; b++)
			for (c = 1; a + b + c <= 64; c++) {
				struct geom g = { 8, 3, { a, b, c },
						  BDS_LAYOUT_INTERLEAVE };

				total++;
				check_family(&g, &bad, first);
			}
	return family_result(bad, total, first);
}

static bool expect_order(const struct geom *g, const u32 *want)
{
	struct bds_layout l;
	u32 p, n = geom_members(g);

	if (!geom_init(g, &l))
		return false;
	for (p = 0; p < n; p++)
		if (l.order[p] != want[p]) {
			char got[BDS_MAX_MEMBERS * 4 + 1];
			size_t o = 0;
			u32 q;

			for (q = 0; q < n; q++)
				o += (size_t)snprintf(got + o, sizeof(got) - o,
						      "%s%u", q ? " " : "",
						      l.order[q]);
			return fail("%s: order[%u] = %u, want %u; order is %s",
				    gdesc(g), p, l.order[p], want[p], got);
		}
	return true;
}

static bool test_two_equal_groups_of_4_alternate(void)
{
	static const struct geom g = { 192, 2, { 4, 4 },
				       BDS_LAYOUT_INTERLEAVE };
	static const u32 want[] = { 0, 4, 1, 5, 2, 6, 3, 7 };

	return expect_order(&g, want);
}

static bool test_two_equal_groups_alternate_all_sizes(void)
{
	u32 k, p;

	for (k = 1; k <= 64; k++) {
		struct geom g = { 8, 2, { k, k }, BDS_LAYOUT_INTERLEAVE };
		u32 want[BDS_MAX_MEMBERS];

		for (p = 0; p < 2 * k; p++)
			want[p] = (p & 1) ? k + p / 2 : p / 2;
		if (!expect_order(&g, want))
			return false;
	}
	return true;
}

static bool test_three_equal_groups_round_robin(void)
{
	static const struct geom g = { 8, 3, { 2, 2, 2 },
				       BDS_LAYOUT_INTERLEAVE };
	static const u32 want[] = { 0, 2, 4, 1, 3, 5 };

	return expect_order(&g, want);
}

static bool test_groups_4_2_2_no_window_of_4_all_group0(void)
{
	static const struct geom g = { 8, 3, { 4, 2, 2 },
				       BDS_LAYOUT_INTERLEAVE };
	struct bds_layout l;
	u32 a, i;

	if (!geom_init(&g, &l))
		return false;
	for (a = 0; a < 8; a++) {
		for (i = 0; i < 4; i++)
			if (l.order[(a + i) % 8] >= 4)
				break;
		if (i == 4)
			return fail("%s: positions %u..%u (wrapping) are all "
				    "group 0: %u %u %u %u", gdesc(&g), a,
				    (a + 3) % 8, l.order[a],
				    l.order[(a + 1) % 8],
				    l.order[(a + 2) % 8], l.order[(a + 3) % 8]);
	}
	return true;
}

static bool test_sequential_order_is_identity(void)
{
	struct geom g;
	int i;

	for (i = 0; i < 200; i++) {
		struct bds_layout l;
		u32 p;

		rand_geom(&g, BDS_MAX_MEMBERS, test_chunks, NR_TEST_CHUNKS);
		g.mode = BDS_LAYOUT_SEQUENTIAL;
		if (!geom_init(&g, &l))
			return false;
		for (p = 0; p < l.nr_members; p++)
			if (l.order[p] != p || l.pos_of[p] != p)
				return fail("%s: order[%u] = %u pos_of = %u",
					    gdesc(&g), p, l.order[p],
					    l.pos_of[p]);
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* 5. geometry validation                                               */

static enum bds_geom_err try_init(u64 chunk, const u32 *sizes, u32 ng,
				  enum bds_order_mode mode,
				  struct bds_layout *l)
{
	memset(l, 0x5a, sizeof(*l));
	return bds_layout_init(l, chunk, sizes, ng, mode);
}

#define EXPECT_ERR(chunk, sizes, ng, mode, want)			\
	do {								\
		enum bds_geom_err e_ = try_init(chunk, sizes, ng, mode, &l); \
		if (e_ != (want))					\
			return fail("%s:%d: init(chunk=%llu, %u groups)" \
				    " = %d (%s), want %d (%s)", __func__, \
				    __LINE__, U(chunk), (u32)(ng), (int)e_, \
				    bds_geom_error(e_), (int)(want),	\
				    bds_geom_error(want));		\
	} while (0)

static bool test_chunk_size_validation(void)
{
	static const u32 one[] = { 1 };
	struct bds_layout l;

	EXPECT_ERR(0, one, 1, BDS_LAYOUT_INTERLEAVE, BDS_ERR_CHUNK_ZERO);
	EXPECT_ERR(4, one, 1, BDS_LAYOUT_INTERLEAVE, BDS_ERR_CHUNK_ALIGN);
	EXPECT_ERR(12, one, 1, BDS_LAYOUT_INTERLEAVE, BDS_ERR_CHUNK_ALIGN);
	EXPECT_ERR(1, one, 1, BDS_LAYOUT_INTERLEAVE, BDS_ERR_CHUNK_ALIGN);
	EXPECT_ERR(8, one, 1, BDS_LAYOUT_INTERLEAVE, BDS_OK);
	EXPECT_ERR(192, one, 1, BDS_LAYOUT_INTERLEAVE, BDS_OK);
	EXPECT_ERR(1000, one, 1, BDS_LAYOUT_SEQUENTIAL, BDS_OK);
	/* io_min = chunk * 512 bytes must fit 32 bits */
	EXPECT_ERR(8388600, one, 1, BDS_LAYOUT_INTERLEAVE, BDS_OK);
	EXPECT_ERR(8388608, one, 1, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_CHUNK_TOO_BIG);
	EXPECT_ERR(8388616, one, 1, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_CHUNK_TOO_BIG);
	/* chunks whose << 9 would wrap a 64-bit or 32-bit product */
	EXPECT_ERR(1ULL << 55, one, 1, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_CHUNK_TOO_BIG);
	EXPECT_ERR(1ULL << 32, one, 1, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_CHUNK_TOO_BIG);
	EXPECT_ERR((1ULL << 32) + 8, one, 1, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_CHUNK_TOO_BIG);
	EXPECT_ERR(0xfffffffffffffff8ULL, one, 1, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_CHUNK_TOO_BIG);
	return true;
}

static bool test_stripe_width_validation(void)
{
	static const u32 n128[] = { 128 }, n2[] = { 1, 1 }, n3[] = { 2, 1 };
	static const u32 n5[] = { 5 };
	struct bds_layout l;

	/* io_opt = chunk * 512 * N bytes must fit 32 bits */
	EXPECT_ERR(65528, n128, 1, BDS_LAYOUT_INTERLEAVE, BDS_OK);
	EXPECT_ERR(65536, n128, 1, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_WIDTH_TOO_BIG);
	EXPECT_ERR(4194296, n2, 2, BDS_LAYOUT_INTERLEAVE, BDS_OK);
	EXPECT_ERR(4194304, n2, 2, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_WIDTH_TOO_BIG);
	/* 4294967295 / (3 * 512) = 2796202.6: 2796200 fits, 2796208 not */
	EXPECT_ERR(2796200, n3, 2, BDS_LAYOUT_SEQUENTIAL, BDS_OK);
	EXPECT_ERR(2796208, n3, 2, BDS_LAYOUT_SEQUENTIAL,
		   BDS_ERR_WIDTH_TOO_BIG);
	/* 4294967295 / (5 * 512) = 1677721.6: 1677720 fits, 1677728 not */
	EXPECT_ERR(1677720, n5, 1, BDS_LAYOUT_INTERLEAVE, BDS_OK);
	EXPECT_ERR(1677728, n5, 1, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_WIDTH_TOO_BIG);
	/* the largest chunk alone is fine with one member, not two */
	EXPECT_ERR(8388600, n2, 2, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_WIDTH_TOO_BIG);
	return true;
}

static bool test_group_and_member_count_validation(void)
{
	u32 sizes[40], i;
	struct bds_layout l;

	for (i = 0; i < 40; i++)
		sizes[i] = 1;
	EXPECT_ERR(8, sizes, 0, BDS_LAYOUT_INTERLEAVE, BDS_ERR_NO_GROUPS);
	EXPECT_ERR(8, sizes, 33, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_TOO_MANY_GROUPS);
	EXPECT_ERR(8, sizes, 40, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_TOO_MANY_GROUPS);
	EXPECT_ERR(8, sizes, 32, BDS_LAYOUT_INTERLEAVE, BDS_OK);
	EXPECT_ERR(8, sizes, 1, BDS_LAYOUT_INTERLEAVE, BDS_OK);

	/* 128 members accepted, 129 refused, however they are grouped */
	sizes[0] = 128;
	EXPECT_ERR(8, sizes, 1, BDS_LAYOUT_INTERLEAVE, BDS_OK);
	sizes[0] = 129;
	EXPECT_ERR(8, sizes, 1, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_TOO_MANY_MEMBERS);
	for (i = 0; i < 32; i++)
		sizes[i] = 4;
	EXPECT_ERR(8, sizes, 32, BDS_LAYOUT_INTERLEAVE, BDS_OK);
	if (l.nr_members != 128)
		return fail("32 groups of 4: N = %u", l.nr_members);
	sizes[31] = 5;
	EXPECT_ERR(8, sizes, 32, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_TOO_MANY_MEMBERS);
	/* sizes that would truncate in a u8 / wrap a u32 sum */
	sizes[0] = 256;
	sizes[1] = 1;
	EXPECT_ERR(8, sizes, 2, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_TOO_MANY_MEMBERS);
	sizes[0] = 0xffffffffu;
	sizes[1] = 2;
	EXPECT_ERR(8, sizes, 2, BDS_LAYOUT_INTERLEAVE,
		   BDS_ERR_TOO_MANY_MEMBERS);

	/* an empty group, anywhere */
	sizes[0] = 2;
	sizes[1] = 0;
	sizes[2] = 3;
	EXPECT_ERR(8, sizes, 3, BDS_LAYOUT_INTERLEAVE, BDS_ERR_EMPTY_GROUP);
	sizes[0] = 0;
	EXPECT_ERR(8, sizes, 1, BDS_LAYOUT_SEQUENTIAL, BDS_ERR_EMPTY_GROUP);

	/* unknown order mode */
	sizes[0] = 2;
	EXPECT_ERR(8, sizes, 1, (enum bds_order_mode)2, BDS_ERR_BAD_MODE);
	EXPECT_ERR(8, sizes, 1, BDS_LAYOUT_SEQUENTIAL, BDS_OK);
	return true;
}

static bool test_chunk_shift_only_for_powers_of_two(void)
{
	static const u32 one[] = { 1 };
	struct bds_layout l;
	u64 c;

	for (c = 8; c <= 8388600; c += (c < 70000 ? 8 : 8 * 4099)) {
		int want = -1, b;

		for (b = 0; b < 64; b++)
			if (c == 1ULL << b)
				want = b;
		EXPECT_ERR(c, one, 1, BDS_LAYOUT_INTERLEAVE, BDS_OK);
		if (l.chunk_shift != want)
			return fail("chunk %llu: chunk_shift %d, want %d",
				    U(c), l.chunk_shift, want);
	}
	for (c = 8; c <= 4194304; c <<= 1) {
		EXPECT_ERR(c, one, 1, BDS_LAYOUT_INTERLEAVE, BDS_OK);
		if (l.chunk_shift < 0 || 1ULL << l.chunk_shift != c)
			return fail("chunk %llu: chunk_shift %d", U(c),
				    l.chunk_shift);
	}
	return true;
}

static bool test_error_strings_distinct(void)
{
	int a, b;

	for (a = BDS_OK; a <= BDS_ERR_BAD_MODE; a++) {
		const char *sa = bds_geom_error((enum bds_geom_err)a);

		if (!sa || !*sa || !strcmp(sa, "unknown error"))
			return fail("error %d has no message", a);
		for (b = BDS_OK; b < a; b++)
			if (!strcmp(sa, bds_geom_error((enum bds_geom_err)b)))
				return fail("errors %d and %d share \"%s\"", a,
					    b, sa);
	}
	return true;
}

static bool test_member_len_whole_stripes_only(void)
{
	static const struct geom geoms[] = {
		{ 192, 2, { 3, 2 }, BDS_LAYOUT_INTERLEAVE },
		{ 8, 1, { 1 }, BDS_LAYOUT_INTERLEAVE },
		{ 2048, 1, { 128 }, BDS_LAYOUT_SEQUENTIAL },
		{ 1000, 3, { 1, 1, 1 }, BDS_LAYOUT_INTERLEAVE },
		{ 65528, 2, { 64, 64 }, BDS_LAYOUT_INTERLEAVE },
	};
	size_t i;

	for (i = 0; i < sizeof(geoms) / sizeof(geoms[0]); i++) {
		const struct geom *g = &geoms[i];
		struct bds_layout l;
		u64 n = geom_members(g), w = g->chunk * n, k, ml;
		u64 ks[] = { 1, 2, 3, 1000, 1ULL << 30,
			     UINT64_MAX / w - 1, UINT64_MAX / w };
		u64 bad[] = { 0, 1, g->chunk, w - 1, w + 1, w + g->chunk,
			      UINT64_MAX, (UINT64_MAX / w) * w + 1 };
		size_t j;

		if (!geom_init(g, &l))
			return false;
		for (j = 0; j < sizeof(ks) / sizeof(ks[0]); j++) {
			u64 len = ks[j] * w;

			ml = 0xdeadbeef;
			if (!bds_member_len(&l, len, &ml) || ml != len / n)
				return fail("%s: len %llu (%llu"
					    " stripes): member_len %llu"
					    ", want %llu", gdesc(g), U(len),
					    U(ks[j]), U(ml), U(len / n));
		}
		for (j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
			if (n == 1 && bad[j] == g->chunk)
				continue;	/* that one is a stripe */
			if (bad[j] % w == 0 && bad[j])
				continue;
			if (bds_member_len(&l, bad[j], &ml))
				return fail("%s: len %llu accepted "
					    "(member_len %llu)", gdesc(g),
					    U(bad[j]), U(ml));
		}
		for (k = 0; k < 2000; k++) {
			u64 len = rnd64() >> rnd(64);
			bool r = bds_member_len(&l, len, &ml);

			if (r != (len && len % w == 0) || (r && ml != len / n))
				return fail("%s: len %llu: %d/%llu",
					    gdesc(g), U(len), r, U(ml));
		}
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* 6. parsing                                                           */

static bool test_parse_u64_strict_decimal(void)
{
	static const struct {
		const char *s;
		bool ok;
		u64 v;
	} cases[] = {
		{ "0", true, 0 },
		{ "1", true, 1 },
		{ "007", true, 7 },
		{ "192", true, 192 },
		{ "4294967296", true, 4294967296ULL },
		{ "18446744073709551610", true, 18446744073709551610ULL },
		{ "18446744073709551615", true, UINT64_MAX },
		{ "000000000000000000000018446744073709551615", true,
		  UINT64_MAX },
		{ "", false, 0 },
		{ "-1", false, 0 },
		{ "-0", false, 0 },
		{ "+1", false, 0 },
		{ " 1", false, 0 },
		{ "1 ", false, 0 },
		{ "1\n", false, 0 },
		{ "\t1", false, 0 },
		{ "0x10", false, 0 },
		{ "0X10", false, 0 },
		{ "1e3", false, 0 },
		{ "1.0", false, 0 },
		{ "1,000", false, 0 },
		{ "12a", false, 0 },
		{ "a12", false, 0 },
		{ "18446744073709551616", false, 0 },
		{ "18446744073709551620", false, 0 },
		{ "18446744073709551625", false, 0 },
		{ "99999999999999999999", false, 0 },
		{ "184467440737095516150", false, 0 },
		{ "36893488147419103232", false, 0 },	/* 2^65 */
		{ "100000000000000000000000000000000000000", false, 0 },
	};
	size_t i;
	u64 v;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool r;

		v = 0x5555;
		r = bds_parse_u64(cases[i].s, &v);
		if (r != cases[i].ok || (r && v != cases[i].v))
			return fail("parse(\"%s\") = %s, %llu"
				    "; want %s, %llu", cases[i].s,
				    r ? "true" : "false", U(v),
				    cases[i].ok ? "true" : "false",
				    U(cases[i].v));
	}
	if (bds_parse_u64(NULL, &v))
		return fail("parse(NULL) accepted");
	/* every value printed in decimal parses back */
	for (i = 0; i < 20000; i++) {
		char buf[32];
		u64 x = rnd64() >> rnd(64);

		snprintf(buf, sizeof(buf), "%llu", U(x));
		if (!bds_parse_u64(buf, &v) || v != x)
			return fail("parse(\"%s\") gave %llu", buf, U(v));
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* 7. overflow edges                                                    */

static bool huge_one(const struct geom *g)
{
	struct bds_layout l;
	u64 w, len, mlen = 0, centres[4];
	u128 c, n;
	char b1[48], b2[48];
	int ci, i;

	if (!geom_init(g, &l))
		return false;
	c = l.chunk;
	n = l.nr_members;
	w = bds_width(&l);
	len = (UINT64_MAX / w) * w;	/* largest whole-stripe volume */
	if (!bds_member_len(&l, len, &mlen) || mlen != (u64)((u128)len / n))
		return fail("%s: member_len(%llu) = %llu", gdesc(g),
			    U(len), U(mlen));
	centres[0] = 1ULL << 63;
	centres[1] = len - (1ULL << 32);
	centres[2] = (1ULL << 63) - 1 - (1ULL << 32);
	centres[3] = 1ULL << 62;
	for (ci = 0; ci < 4; ci++) {
		for (i = 0; i < 3000; i++) {
			u64 s = centres[ci] + rnd(1ULL << 33) - (1ULL << 32);
			u32 m, em;
			u64 ms, back;
			u128 wms;

			if (i == 0)
				s = centres[ci];
			if (i == 1)
				s = len - 1;
			if (s >= len)
				continue;
			bds_map_sector(&l, s, &m, &ms);
			wide_map(s, c, n, l.order, &em, &wms);
			if (m != em || (u128)ms != wms)
				return fail("%s: sector %llu -> (%u, %llu"
					    "), 128-bit model (%u, %s)",
					    gdesc(g), U(s), m, U(ms), em,
					    u128s(wms, b1));
			if (ms >= mlen)
				return fail("%s: sector %llu -> msector %llu"
					    " beyond member length %llu",
					    gdesc(g), U(s), U(ms), U(mlen));
			back = bds_unmap_sector(&l, m, ms);
			if ((u128)back != wide_unmap(ms, c, n, l.pos_of[m]) ||
			    back != s)
				return fail("%s: unmap(%u, %llu) = %llu"
					    ", want %llu", gdesc(g),
					    m, U(ms), U(back), U(s));
			if (bds_chunk_left(&l, s) != (u32)(c - s % c))
				return fail("%s: chunk_left(%llu)",
					    gdesc(g), U(s));
		}
	}
	/* member ranges near the top, and the whole huge volume */
	for (i = 0; i < 300; i++) {
		u64 a, b;
		u32 m = (u32)rnd(l.nr_members);
		u128 el, eh;
		u64 ms = 0, me = 0;
		bool r;

		if (i == 0) {
			a = 0;
			b = len;
		} else if (i < 150) {
			a = len - 1 - rnd(4 * w);
			b = a + rnd(len - a + 1);
		} else {
			a = (1ULL << 63) - rnd(4 * w);
			b = a + rnd(3 * w);
		}
		r = bds_member_range(&l, a, b, m, &ms, &me);
		el = wide_lower(a, c, n, l.pos_of[m], mlen);
		eh = wide_lower(b, c, n, l.pos_of[m], mlen);
		if (r != (el < eh) || (r && (ms != el || me != eh)))
			return fail("%s: range [%llu, %llu"
				    ") member %u: %d [%llu, %llu"
				    "), model [%s, %s)", gdesc(g), U(a), U(b),
				    m, r, U(ms), U(me), u128s(el, b1),
				    u128s(eh, b2));
	}
	return true;
}

/*
 * bds_span() and bds_piece_units() against a walk over the stripe units
 * of [start, end): piece i of the range goes to member
 * order[(pos0 + i) mod N], carries the units i, i + N, ... of the range,
 * and those hold exactly the sectors bds_member_range() gives that member;
 * members without a piece hold nothing of the range.
 */
static bool check_span(const struct bds_layout *l, const struct geom *g,
		       u64 start, u64 end)
{
	u64 units, want_units, unit, first, sectors[BDS_MAX_MEMBERS];
	u64 nunits[BDS_MAX_MEMBERS], ms, me;
	u32 n = l->nr_members, pos0, i, m, has_piece[BDS_MAX_MEMBERS];

	units = bds_span(l, start, end, &pos0);
	first = start / l->chunk;
	want_units = (end - 1) / l->chunk - first + 1;
	if (units != want_units || pos0 != first % n)
		return fail("%s: span [%llu, %llu): %llu units from position "
			    "%u, walk says %llu from %llu", gdesc(g), U(start),
			    U(end), U(units), pos0, U(want_units),
			    U(first % n));
	for (m = 0; m < n; m++) {
		sectors[m] = 0;
		nunits[m] = 0;
		has_piece[m] = 0;
	}
	for (unit = first; unit * l->chunk < end; unit++) {
		u64 a = unit * l->chunk, b = a + l->chunk;

		if (a < start)
			a = start;
		if (b > end)
			b = end;
		i = (u32)((unit - first) % n);
		m = l->order[(pos0 + i) % n];
		sectors[m] += b - a;
		nunits[m]++;
	}
	for (i = 0; i < n; i++) {
		m = l->order[(pos0 + i) % n];
		if (bds_piece_units(l, units, i) != nunits[m])
			return fail("%s: span [%llu, %llu): piece %u carries "
				    "%llu units, walk says %llu", gdesc(g),
				    U(start), U(end), i,
				    U(bds_piece_units(l, units, i)),
				    U(nunits[m]));
		has_piece[m] = i < units;
	}
	for (m = 0; m < n; m++) {
		bool r = bds_member_range(l, start, end, m, &ms, &me);

		if (r != (bool)has_piece[m] || (r && me - ms != sectors[m]))
			return fail("%s: span [%llu, %llu): member %u range %d "
				    "of %llu sectors, piece %u of %llu",
				    gdesc(g), U(start), U(end), m, r,
				    U(r ? me - ms : 0), has_piece[m],
				    U(sectors[m]));
	}
	return true;
}

static bool test_span_pieces_match_member_ranges(void)
{
	struct bds_layout l;
	struct geom g;
	u64 w, start, len;
	int i, k;

	for (i = 0; i < 300; i++) {
		rand_geom(&g, 24, small_chunks, 5);
		if (!geom_init(&g, &l))
			return false;
		w = bds_width(&l);
		for (k = 0; k < 40; k++) {
			start = rnd(7 * w);
			len = 1 + rnd(k < 20 ? 2 * l.chunk : 4 * w);
			if (!check_span(&l, &g, start, start + len))
				return false;
		}
		/* one sector, one unit, one whole width */
		if (!check_span(&l, &g, w - 1, w) ||
		    !check_span(&l, &g, w, w + l.chunk) ||
		    !check_span(&l, &g, 3 * w, 4 * w))
			return false;
	}
	return true;
}

static bool test_huge_volumes_do_not_wrap(void)
{
	static const struct geom geoms[] = {
		{ 65528, 1, { 128 }, BDS_LAYOUT_INTERLEAVE },
		{ 65528, 2, { 64, 64 }, BDS_LAYOUT_INTERLEAVE },
		{ 65528, 3, { 100, 27, 1 }, BDS_LAYOUT_INTERLEAVE },
		{ 65528, 4, { 1, 2, 3, 122 }, BDS_LAYOUT_SEQUENTIAL },
		{ 32768, 2, { 96, 32 }, BDS_LAYOUT_INTERLEAVE },
		{ 8388600, 1, { 1 }, BDS_LAYOUT_INTERLEAVE },
		{ 4194304, 1, { 1 }, BDS_LAYOUT_SEQUENTIAL },
		{ 4194296, 2, { 1, 1 }, BDS_LAYOUT_INTERLEAVE },
		{ 8, 1, { 1 }, BDS_LAYOUT_INTERLEAVE },
		{ 8, 1, { 128 }, BDS_LAYOUT_INTERLEAVE },
		{ 2796200, 2, { 2, 1 }, BDS_LAYOUT_INTERLEAVE },
	};
	size_t i;

	for (i = 0; i < sizeof(geoms) / sizeof(geoms[0]); i++)
		if (!huge_one(&geoms[i]))
			return false;
	return true;
}

/*
 * The interleaved order decides where data sits on disk: changing it would
 * scramble every existing volume.  Pin it: an FNV-1a hash of the orders of
 * all compositions of N = 1..16 members, in for_each_composition() order.
 * Change the constant only together with an on-disk format change.
 */
#define GOLDEN_ORDER_HASH 0x25b5aa27654d1f2eULL

static u64 golden_hash = 0xcbf29ce484222325ULL;

static bool comp_hash(const struct geom *g, u64 *bad, u64 *total)
{
	struct bds_layout l;
	u32 i;

	++*total;
	if (!geom_init(g, &l)) {
		++*bad;
		return false;
	}
	for (i = 0; i < l.nr_members; i++) {
		golden_hash ^= l.order[i];
		golden_hash *= 0x100000001b3ULL;
	}
	golden_hash ^= 0xff;		/* separates consecutive orders */
	golden_hash *= 0x100000001b3ULL;
	return true;
}

static bool test_interleave_order_is_pinned(void)
{
	if (!for_each_composition(16, comp_hash))
		return false;
	if (golden_hash != GOLDEN_ORDER_HASH)
		return fail("order hash 0x%016llx, pinned 0x%016llx: the on-disk layout changed",
			    U(golden_hash), U(GOLDEN_ORDER_HASH));
	return true;
}

/* ------------------------------------------------------------------ */
/* The raised discard limit (bds_discard_limit)                         */

/* One case: the limit's properties, and member shares of ranges of it. */
static bool discard_limit_one(const struct geom *g, u32 mm)
{
	struct bds_layout l;
	u64 cap, start, ms, me, sum;
	u32 lim, w, m, j;

	if (!geom_init(g, &l))
		return false;
	w = bds_width(&l);
	lim = bds_discard_limit(&l, mm);
	cap = (u64)mm * l.nr_members;
	if (cap > 0xffffffffULL)
		cap = 0xffffffffULL;
	if (lim < mm)
		return fail("%s: member max %u: limit %u is below it", gdesc(g),
			    mm, lim);
	if (lim == mm)
		/* Only when no whole number of stripes beats it. */
		return cap - cap % w <= mm ? true :
		       fail("%s: member max %u: limit kept though %llu fit",
			    gdesc(g), mm, U(cap - cap % w));
	if (lim % w || lim > cap || lim + (u64)w <= cap)
		return fail("%s: member max %u: limit %u, not the largest whole number of %u-sector stripes within %llu",
			    gdesc(g), mm, lim, w, U(cap));
	for (j = 0; j < 8; j++) {
		start = j ? rnd(1ULL << 40) : 0;
		sum = 0;
		for (m = 0; m < l.nr_members; m++) {
			if (!bds_member_range(&l, start, start + lim, m, &ms,
					      &me))
				ms = me = 0;
			if (me - ms > mm)
				return fail("%s: member max %u: [%llu, +%u) gives member %u %llu sectors",
					    gdesc(g), mm, U(start), lim, m,
					    U(me - ms));
			sum += me - ms;
		}
		if (sum != lim)
			return fail("%s: [%llu, +%u): members hold %llu sectors",
				    gdesc(g), U(start), lim, U(sum));
	}
	return true;
}

static bool test_discard_limit_gives_no_member_more_than_it_takes(void)
{
	static const struct {
		struct geom g;
		u32 mm, want;
	} fixed[] = {
		{ { 128, 4, { 1, 1, 1, 1 }, BDS_LAYOUT_INTERLEAVE }, 1024, 4096 },
		{ { 192, 4, { 1, 1, 1, 1 }, BDS_LAYOUT_INTERLEAVE }, 1024, 3840 },
		{ { 128, 2, { 2, 2 }, BDS_LAYOUT_INTERLEAVE }, 100, 100 },
		{ { 128, 2, { 2, 2 }, BDS_LAYOUT_INTERLEAVE }, 0, 0 },
		{ { 8, 1, { 2 }, BDS_LAYOUT_SEQUENTIAL }, 0x80000000U, 0xfffffff0U },
		{ { 8, 1, { 2 }, BDS_LAYOUT_SEQUENTIAL }, 0xffffffffU, 0xffffffffU },
		{ { 8, 1, { 1 }, BDS_LAYOUT_SEQUENTIAL }, 12345, 12345 },
	};
	struct bds_layout l;
	struct geom g;
	size_t i;
	u32 mm;
	int j;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (!geom_init(&fixed[i].g, &l))
			return false;
		if (bds_discard_limit(&l, fixed[i].mm) != fixed[i].want)
			return fail("%s: member max %u: limit %u, want %u",
				    gdesc(&fixed[i].g), fixed[i].mm,
				    bds_discard_limit(&l, fixed[i].mm),
				    fixed[i].want);
		if (!discard_limit_one(&fixed[i].g, fixed[i].mm))
			return false;
	}
	for (j = 0; j < 3000; j++) {
		rand_geom(&g, 128, test_chunks, 7);
		switch (rnd(4)) {
		case 0:
			mm = (u32)rnd(g.chunk);		/* less than a unit */
			break;
		case 1:
			mm = g.chunk + (u32)rnd(8 * g.chunk);
			break;
		case 2:
			mm = (u32)rnd(1ULL << 32);
			break;
		default:
			mm = 0xffffffffU - (u32)rnd(4096);
			break;
		}
		if (!discard_limit_one(&g, mm))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */

#define T(fn) { &#fn[5], fn }	/* name = function name without "test_" */

static const struct {
	const char *name;
	bool (*fn)(void);
} tests[] = {
	T(test_round_trip_fixed_geometries),
	T(test_round_trip_random_geometries),
	T(test_sequential_equals_dm_striped),
	T(test_single_group_interleave_equals_sequential),
	T(test_sequential_order_is_identity),
	T(test_discard_split_matches_brute_force),
	T(test_discard_split_far_from_start),
	T(test_interleave_permutation_table_order_all_compositions),
	T(test_interleave_window_balance_all_compositions),
	T(test_interleave_window_balance_random_up_to_128),
	T(test_interleave_window_balance_two_groups_up_to_128),
	T(test_interleave_window_balance_equal_groups_up_to_128),
	T(test_interleave_window_balance_three_groups_up_to_64),
	T(test_two_equal_groups_of_4_alternate),
	T(test_two_equal_groups_alternate_all_sizes),
	T(test_three_equal_groups_round_robin),
	T(test_groups_4_2_2_no_window_of_4_all_group0),
	T(test_interleave_order_is_pinned),
	T(test_chunk_size_validation),
	T(test_stripe_width_validation),
	T(test_group_and_member_count_validation),
	T(test_chunk_shift_only_for_powers_of_two),
	T(test_error_strings_distinct),
	T(test_member_len_whole_stripes_only),
	T(test_parse_u64_strict_decimal),
	T(test_huge_volumes_do_not_wrap),
	T(test_span_pieces_match_member_ranges),
	T(test_discard_limit_gives_no_member_more_than_it_takes),
};

int main(void)
{
	const char *seed = getenv("BDS_SEED");
	size_t i, nr = sizeof(tests) / sizeof(tests[0]);
	int passed = 0, failed = 0;

	if (seed && *seed)
		rng_state = strtoull(seed, NULL, 0);
	printf("1..%zu\n# seed 0x%016llx\n", nr, U(rng_state));
	for (i = 0; i < nr; i++) {
		bool ok;

		diag[0] = 0;
		ok = tests[i].fn();
		if (ok) {
			passed++;
			printf("ok %zu - %s\n", i + 1, tests[i].name);
		} else {
			failed++;
			printf("not ok %zu - %s\n# %s\n", i + 1, tests[i].name,
			       diag[0] ? diag : "(no diagnostic)");
		}
		fflush(stdout);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
