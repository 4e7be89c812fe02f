// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the bds-stripe layout arithmetic and table parser,
 * compiled from the same libbds the target is built from, so
 * that they check the code the kernel runs, with the kernel's compiler
 * flags, under KASAN and UBSAN when the kernel has them.
 *
 * Suite "bds-stripe-layout":
 *   map_round_trip        map then unmap gives every sector back, the
 *                         member and member sector match the definition
 *                         (unit k lands on position k mod N), and every
 *                         member sector maps back to itself
 *   member_range          bds_member_range() against a walk of every
 *                         sector of every range over three stripes
 *   window_bound          the interleaved order spreads every group:
 *                         on any window of w positions (wrapping) a
 *                         group of n_g members has w * n_g / N of them
 *                         within 1 (equal groups or two groups) or 2
 *   pinned_orders         orders fixed as on-disk format
 *   weighted_map_round_trip
 *                         weighted layouts (bds_weights_check(),
 *                         bds_layout_weigh() on slot arrays of W
 *                         entries): each member has its weight of the W
 *                         slots, and map then unmap gives every sector
 *                         back, the member and member sector matching the
 *                         definition (unit k on slot k mod W, member unit
 *                         (k / W) * w_m + the slot's rank, counted here),
 *                         and every member sector maps back to itself
 *   weighted_member_range bds_member_range() against a walk of every
 *                         sector of every range over three cycles of a
 *                         weighted layout
 *   weighted_pinned_orders
 *                         weighted slot orders fixed as on-disk format
 *                         (those of tests/libbds/test-weights.c)
 *   parse_refusals        tables the parser must refuse, and why
 *                         (weights among them)
 *   parse_accepts         tables it must accept, and what it finds
 *                         (the weights too)
 *   parse_reshape         a restripe's "reshape" words through both
 *                         passes (bds_parse_table(), bds_parse_reshape()
 *                         into a kmalloc'd struct, as the target does):
 *                         a reason of its own for each malformed word,
 *                         the values of accepted ones, the lengths
 *                         (bds_reshape_check_len()), and the text
 *                         bds_table_write() gives back, word for word
 *   reshape_map           the map path of a volume mid-restripe: the
 *                         geometries the target makes of a "reshape"
 *                         table (bds_reshape_of_table()); each unit near
 *                         the checkpoint and at both ends in the geometry
 *                         the checkpoint says, mapped there and back; a
 *                         discard's member ranges on each side of the
 *                         boundary against its units one by one
 *   geometry_refusals     geometries bds_layout_init() must refuse, and
 *                         weights bds_weights_check() must refuse (or
 *                         accept, with their sum); weights all 1 leave
 *                         the layout as it is, without slot arrays
 *   label_golden          the golden label of tests/libbds/label-golden.h,
 *                         encoded by the kernel's build of libbds/label.c:
 *                         the crc the userspace golden vector pins
 *                         (0x4a8b05a8), decoded back to the same label, a
 *                         flipped bit refused; the owned golden label
 *                         (0x5efa2901, compat OWNER), the one with a
 *                         weights mode (0x378cd7f7) and the one with
 *                         measured figures (0x9c83ab21, compat MEASURED,
 *                         the figures at bytes 220 to 239) the same way;
 *                         measured figures without their time refused
 *                         (rule 35); the front-backup golden label
 *                         (0x07802f84, incompat FRONT_BACKUP, its backup
 *                         copy 0x322f854b valid at sector 2032 only, and
 *                         refused without the bit)
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "libbds/crc32c.h"
#include "libbds/label.h"
#include "libbds/layout.h"
#include "libbds/table.h"
#include "../libbds/label-golden.h"

struct bds_kgeom {
	u32 chunk;
	u32 nr_groups;
	u32 sizes[BDS_MAX_GROUPS];
	enum bds_order_mode mode;
	const char *name;
};

static const struct bds_kgeom bds_kgeoms[] = {
	{ 8, 1, { 1 }, BDS_LAYOUT_INTERLEAVE, "8:1" },
	{ 8, 1, { 128 }, BDS_LAYOUT_INTERLEAVE, "8:128" },
	{ 192, 2, { 4, 4 }, BDS_LAYOUT_INTERLEAVE, "192:4+4" },
	{ 24, 2, { 3, 2 }, BDS_LAYOUT_INTERLEAVE, "24:3+2" },
	{ 192, 3, { 5, 1, 2 }, BDS_LAYOUT_INTERLEAVE, "192:5+1+2" },
	{ 1000, 3, { 5, 1, 2 }, BDS_LAYOUT_SEQUENTIAL, "1000:5+1+2/seq" },
	{ 2048, 4, { 32, 32, 32, 32 }, BDS_LAYOUT_INTERLEAVE, "2048:4x32" },
	{ 2048, 4, { 100, 1, 26, 1 }, BDS_LAYOUT_INTERLEAVE,
	  "2048:100+1+26+1" },
	{ 40, 4, { 1, 5, 2, 3 }, BDS_LAYOUT_INTERLEAVE, "40:1+5+2+3" },
	{ 4096, 2, { 127, 1 }, BDS_LAYOUT_SEQUENTIAL, "4096:127+1/seq" },
	{ 65528, 2, { 64, 64 }, BDS_LAYOUT_INTERLEAVE, "65528:64+64" },
};

static void bds_kgeom_desc(const struct bds_kgeom *g, char *desc)
{
	strscpy(desc, g->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bds_kgeom, bds_kgeoms, bds_kgeom_desc);

static u32 bds_kgeom_members(const struct bds_kgeom *g)
{
	u32 i, n = 0;

	for (i = 0; i < g->nr_groups; i++)
		n += g->sizes[i];
	return n;
}

/* A layout for @g, allocated for the test (struct bds_layout is big). */
static struct bds_layout *bds_klayout(struct kunit *test,
				      const struct bds_kgeom *g)
{
	struct bds_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	enum bds_geom_err err;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	err = bds_layout_init(l, g->chunk, g->sizes, g->nr_groups, g->mode);
	KUNIT_ASSERT_EQ_MSG(test, err, BDS_OK, "%s: %s", g->name,
			    bds_geom_error(err));
	KUNIT_ASSERT_EQ(test, l->nr_members, bds_kgeom_members(g));
	return l;
}

/*
 * Check one volume sector: the definition says stripe unit k = s / chunk
 * lands on position k mod N of stripe k / N, at the same offset within
 * the unit; the member is order[position].
 */
static bool bds_check_sector(struct kunit *test, const struct bds_kgeom *g,
			     const struct bds_layout *l, u64 s)
{
	u32 n = l->nr_members, in_unit, pos, member;
	u64 unit = div_u64_rem(s, g->chunk, &in_unit);
	u64 stripe = div_u64_rem(unit, n, &pos);
	u64 msector, back;

	bds_map_sector(l, s, &member, &msector);
	if (member >= n || member != l->order[pos] ||
	    msector != stripe * g->chunk + in_unit) {
		KUNIT_FAIL(test, "%s: %llu -> %u:%llu, want %u:%llu", g->name,
			   s, member, msector, l->order[pos],
			   stripe * g->chunk + in_unit);
		return false;
	}
	back = bds_unmap_sector(l, member, msector);
	if (back != s) {
		KUNIT_FAIL(test, "%s: %llu -> %u:%llu -> %llu", g->name, s,
			   member, msector, back);
		return false;
	}
	if (bds_chunk_left(l, s) != g->chunk - in_unit) {
		KUNIT_FAIL(test, "%s: sector %llu: %u left in its unit, want %u",
			   g->name, s, bds_chunk_left(l, s), g->chunk - in_unit);
		return false;
	}
	return true;
}

static void bds_test_map_round_trip(struct kunit *test)
{
	const struct bds_kgeom *g = test->param_value;
	struct bds_layout *l = bds_klayout(test, g);
	u64 w = bds_width(l), far, s, ms, back;
	u32 m, member, i;
	static const u64 far_stripes[] = { 1, 7, 1000, 1ULL << 20 };

	/*
	 * The first two stripes: every sector when they are small, else
	 * both ends and the middle of every unit.
	 */
	for (s = 0; s < 2 * w; s++) {
		if (2 * w > 16384 && s % g->chunk > 1 &&
		    s % g->chunk != g->chunk / 2 && s % g->chunk < g->chunk - 2)
			continue;
		if (!bds_check_sector(test, g, l, s))
			return;
	}
	/* Both ends of every unit of a few stripes further out. */
	for (i = 0; i < ARRAY_SIZE(far_stripes); i++) {
		far = far_stripes[i] * w;
		for (s = far; s < far + w; s += g->chunk)
			if (!bds_check_sector(test, g, l, s) ||
			    !bds_check_sector(test, g, l, s + g->chunk - 1))
				return;
	}
	/* Member sectors of the first two stripes map back to themselves. */
	for (m = 0; m < l->nr_members; m++) {
		for (ms = 0; ms < 2 * g->chunk; ms++) {
			if (2 * w > 16384 && ms % g->chunk > 1 &&
			    ms % g->chunk < g->chunk - 2)
				continue;
			back = bds_unmap_sector(l, m, ms);
			bds_map_sector(l, back, &member, &s);
			if (member != m || s != ms) {
				KUNIT_FAIL(test, "%s: %u:%llu -> %llu -> %u:%llu",
					   g->name, m, ms, back, member, s);
				return;
			}
		}
	}
}

/* Small geometries: every range [start, end) over three stripes is walked. */
static const struct bds_kgeom bds_range_geoms[] = {
	{ 8, 1, { 1 }, BDS_LAYOUT_INTERLEAVE, "8:1" },
	{ 8, 2, { 2, 2 }, BDS_LAYOUT_INTERLEAVE, "8:2+2" },
	{ 8, 3, { 4, 2, 2 }, BDS_LAYOUT_INTERLEAVE, "8:4+2+2" },
	{ 16, 2, { 3, 1 }, BDS_LAYOUT_SEQUENTIAL, "16:3+1/seq" },
	{ 8, 4, { 1, 5, 2, 3 }, BDS_LAYOUT_INTERLEAVE, "8:1+5+2+3" },
	{ 40, 2, { 1, 2 }, BDS_LAYOUT_INTERLEAVE, "40:1+2" },
};

KUNIT_ARRAY_PARAM(bds_range_geom, bds_range_geoms, bds_kgeom_desc);

static void bds_range_fail(struct kunit *test, const char *name, u64 start,
			   u64 end, u32 m, bool got, u64 lo, u64 hi, u64 count,
			   u64 first, u64 last)
{
	KUNIT_FAIL(test, "%s: [%llu,%llu) member %u: %d [%llu,%llu), walk: %llu in %llu..%llu",
		   name, start, end, m, got, lo, hi, count, first, last);
}

/*
 * Every range [start, end) within the first @span sectors of @l: each
 * member's part by bds_member_range() against a walk of its sectors.
 */
static void bds_check_ranges(struct kunit *test, const char *name,
			     const struct bds_layout *l, u64 span)
{
	u32 n = l->nr_members, m, member;
	u64 start, end, ms, lo, hi;
	u64 *first, *last, *count;
	bool got;

	first = kunit_kcalloc(test, n, sizeof(*first), GFP_KERNEL);
	last = kunit_kcalloc(test, n, sizeof(*last), GFP_KERNEL);
	count = kunit_kcalloc(test, n, sizeof(*count), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, first);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, last);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, count);

	for (start = 0; start <= span; start++) {
		memset(count, 0, n * sizeof(*count));
		for (end = start; end <= span; end++) {
			if (end > start) {
				/* The walk: sector end - 1 joins the range. */
				bds_map_sector(l, end - 1, &member, &ms);
				if (!count[member]++)
					first[member] = ms;
				last[member] = ms;
			}
			for (m = 0; m < n; m++) {
				got = bds_member_range(l, start, end, m,
						       &lo, &hi);
				if (got == !!count[m] &&
				    (!count[m] || (lo == first[m] &&
						   hi == last[m] + 1 &&
						   hi - lo == count[m])))
					continue;
				bds_range_fail(test, name, start, end, m, got,
					       lo, hi, count[m], first[m],
					       last[m]);
				return;
			}
		}
	}
}

static void bds_test_member_range(struct kunit *test)
{
	const struct bds_kgeom *g = test->param_value;
	struct bds_layout *l = bds_klayout(test, g);

	bds_check_ranges(test, g->name, l, 3 * (u64)bds_width(l));
}

/*
 * The window bound, in integers: |count * N - w * n_g| < N (equal groups
 * or two groups), < 2N otherwise; also the order is a permutation and
 * takes the members of each group in table order.
 */
static bool bds_check_windows(struct kunit *test, struct bds_layout *l,
			      const u32 *sizes, u32 nr_groups)
{
	u32 gof[BDS_MAX_MEMBERS], cnt[BDS_MAX_GROUPS], next[BDS_MAX_GROUPS];
	u32 n = 0, g, m = 0, a, w, p;
	bool equal = true, seen[BDS_MAX_MEMBERS] = { false };
	s64 lim, d;

	for (g = 0; g < nr_groups; g++) {
		n += sizes[g];
		if (sizes[g] != sizes[0])
			equal = false;
		next[g] = m;
		while (m < n)
			gof[m++] = g;
	}
	if (bds_layout_init(l, 8, sizes, nr_groups, BDS_LAYOUT_INTERLEAVE)) {
		KUNIT_FAIL(test, "%u groups of %u members refused", nr_groups,
			   n);
		return false;
	}
	for (p = 0; p < n; p++) {
		m = l->order[p];
		if (m >= n || seen[m] || m != next[gof[m]]) {
			KUNIT_FAIL(test, "%u groups, %u members: order[%u] = %u",
				   nr_groups, n, p, m);
			return false;
		}
		seen[m] = true;
		next[gof[m]]++;
	}
	lim = (equal || nr_groups == 2) ? n : 2 * (s64)n;
	for (a = 0; a < n; a++) {
		memset(cnt, 0, sizeof(cnt));
		for (w = 1; w <= n; w++) {
			cnt[gof[l->order[(a + w - 1) % n]]]++;
			for (g = 0; g < nr_groups; g++) {
				d = (s64)cnt[g] * n - (s64)w * sizes[g];
				if (d > -lim && d < lim)
					continue;
				KUNIT_FAIL(test, "%u groups/%u: window %u+%u: %u of %u (%u)",
					   nr_groups, n, a, w, cnt[g], g,
					   sizes[g]);
				return false;
			}
		}
	}
	return true;
}

static void bds_test_window_bound(struct kunit *test)
{
	struct bds_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	u32 sizes[BDS_MAX_GROUPS];
	u32 n, bits, g, run, i;
	static const u32 big[][BDS_MAX_GROUPS + 1] = {
		/* nr_groups, then the sizes */
		{ 2, 64, 64 },
		{ 2, 127, 1 },
		{ 3, 100, 27, 1 },
		{ 4, 32, 32, 32, 32 },
		{ 4, 100, 1, 26, 1 },
		{ 32, 97, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
		{ 32, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
		  4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 },
	};

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	/*
	 * Every composition of n <= 10 members into groups: bit i of
	 * @bits set means a group ends after member i.
	 */
	for (n = 2; n <= 10; n++) {
		for (bits = 0; bits < 1U << (n - 1); bits++) {
			g = 0;
			run = 0;
			for (i = 0; i < n; i++) {
				run++;
				if (i == n - 1 || (bits & (1U << i))) {
					sizes[g++] = run;
					run = 0;
				}
			}
			if (!bds_check_windows(test, l, sizes, g))
				return;
		}
	}
	for (i = 0; i < ARRAY_SIZE(big); i++)
		if (!bds_check_windows(test, l, &big[i][1], big[i][0]))
			return;
}

static void bds_expect_order(struct kunit *test, const u32 *sizes,
			     u32 nr_groups, enum bds_order_mode mode,
			     const u32 *want)
{
	struct bds_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	u32 p, n = 0, g;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	for (g = 0; g < nr_groups; g++)
		n += sizes[g];
	KUNIT_ASSERT_EQ(test, bds_layout_init(l, 8, sizes, nr_groups, mode),
			BDS_OK);
	for (p = 0; p < n; p++)
		KUNIT_EXPECT_EQ_MSG(test, l->order[p], want[p],
				    "position %u of %u groups (first size %u)",
				    p, nr_groups, sizes[0]);
}

static void bds_test_pinned_orders(struct kunit *test)
{
	static const u32 s44[] = { 4, 4 }, o44[] = { 0, 4, 1, 5, 2, 6, 3, 7 };
	static const u32 s222[] = { 2, 2, 2 }, o222[] = { 0, 2, 4, 1, 3, 5 };
	static const u32 s32[] = { 3, 2 }, o32[] = { 0, 3, 1, 2, 4 };
	static const u32 s422[] = { 4, 2, 2 };
	static const u32 o422[] = { 0, 4, 1, 6, 2, 5, 3, 7 };
	static const u32 s512[] = { 5, 1, 2 };
	static const u32 o512[] = { 0, 1, 6, 2, 3, 5, 4, 7 };
	static const u32 id[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	u32 sizes[2], want[BDS_MAX_MEMBERS], k, p;

	bds_expect_order(test, s44, 2, BDS_LAYOUT_INTERLEAVE, o44);
	bds_expect_order(test, s222, 3, BDS_LAYOUT_INTERLEAVE, o222);
	bds_expect_order(test, s32, 2, BDS_LAYOUT_INTERLEAVE, o32);
	bds_expect_order(test, s422, 3, BDS_LAYOUT_INTERLEAVE, o422);
	bds_expect_order(test, s512, 3, BDS_LAYOUT_INTERLEAVE, o512);
	/* "layout sequential" is table order, as dm "striped". */
	bds_expect_order(test, s512, 3, BDS_LAYOUT_SEQUENTIAL, id);
	bds_expect_order(test, s422, 3, BDS_LAYOUT_SEQUENTIAL, id);
	/* Two equal groups alternate: A0 B0 A1 B1 ... */
	for (k = 1; k <= 64; k++) {
		sizes[0] = k;
		sizes[1] = k;
		for (p = 0; p < 2 * k; p++)
			want[p] = (p & 1) ? k + p / 2 : p / 2;
		bds_expect_order(test, sizes, 2, BDS_LAYOUT_INTERLEAVE, want);
	}
}

/* A weighted geometry: a layout's, and one weight per member. */
struct bds_kwgeom {
	struct bds_kgeom g;
	u32 weight[BDS_MAX_MEMBERS];
};

static const struct bds_kwgeom bds_kwgeoms[] = {
	{ { 8, 2, { 2, 2 }, BDS_LAYOUT_INTERLEAVE, "8:2+2 w2,1,1,1" },
	  { 2, 1, 1, 1 } },
	{ { 24, 2, { 3, 2 }, BDS_LAYOUT_INTERLEAVE, "24:3+2 w5,1,2,7,3" },
	  { 5, 1, 2, 7, 3 } },
	/* make bench's T2: 6 single-disk controllers, 2 with two disks */
	{ { 192, 8, { 1, 1, 1, 1, 1, 1, 2, 2 }, BDS_LAYOUT_INTERLEAVE,
	    "192:T2 w4x6,3x4" },
	  { 4, 4, 4, 4, 4, 4, 3, 3, 3, 3 } },
	{ { 8, 1, { 4 }, BDS_LAYOUT_INTERLEAVE, "8:4 w255x4" },
	  { 255, 255, 255, 255 } },
	/* 128 members, W = 50 + 450 + 255 + 78 + 190 = 1023 */
	{ { 2048, 4, { 100, 1, 26, 1 }, BDS_LAYOUT_INTERLEAVE,
	    "2048:100+1+26+1 W1023" },
	  { [0 ... 49] = 1, [50 ... 99] = 9, [100] = 255,
	    [101 ... 126] = 3, [127] = 190 } },
};

static void bds_kwgeom_desc(const struct bds_kwgeom *wg, char *desc)
{
	strscpy(desc, wg->g.name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bds_kwgeom, bds_kwgeoms, bds_kwgeom_desc);

/*
 * The weighted layout of @wg: bds_layout_init(), bds_weights_check() and
 * bds_layout_weigh() on slot arrays of W entries allocated for the test.
 * *@nr_slots gets W, which must be the weights' sum.
 */
static struct bds_layout *bds_kwlayout(struct kunit *test,
				       const struct bds_kwgeom *wg,
				       u32 *nr_slots)
{
	struct bds_layout *l = bds_klayout(test, &wg->g);
	struct bds_slot *slot;
	enum bds_geom_err err;
	u32 m, w = 0, sum = 0;
	u16 *slot_of;

	for (m = 0; m < l->nr_members; m++)
		sum += wg->weight[m];
	err = bds_weights_check(l, wg->weight, &w);
	KUNIT_ASSERT_EQ_MSG(test, err, BDS_OK, "%s: %s", wg->g.name,
			    bds_geom_error(err));
	KUNIT_ASSERT_EQ_MSG(test, w, sum, "%s: W", wg->g.name);
	slot = kunit_kcalloc(test, w, sizeof(*slot), GFP_KERNEL);
	slot_of = kunit_kcalloc(test, w, sizeof(*slot_of), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, slot);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, slot_of);
	bds_layout_weigh(l, wg->weight, w, slot, slot_of);
	KUNIT_ASSERT_EQ_MSG(test, l->nr_slots, w, "%s: nr_slots", wg->g.name);
	KUNIT_ASSERT_EQ_MSG(test, bds_cycle(l), wg->g.chunk * w, "%s: cycle",
			    wg->g.name);
	*nr_slots = w;
	return l;
}

/*
 * The ranks of the definition, counted here: rank[s] is how many earlier
 * slots of the cycle are the member of slot s.  Each member must have
 * exactly its weight of the slots.
 */
static u32 *bds_kranks(struct kunit *test, const struct bds_kwgeom *wg,
		       const struct bds_layout *l, u32 nr_slots)
{
	u32 *rank = kunit_kcalloc(test, nr_slots, sizeof(*rank), GFP_KERNEL);
	u32 *seen = kunit_kcalloc(test, l->nr_members, sizeof(*seen),
				  GFP_KERNEL);
	u32 s, m;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rank);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, seen);
	for (s = 0; s < nr_slots; s++) {
		m = bds_slot_member(l, s);
		KUNIT_ASSERT_LT_MSG(test, m, l->nr_members, "%s: slot %u",
				    wg->g.name, s);
		rank[s] = seen[m]++;
	}
	for (m = 0; m < l->nr_members; m++)
		KUNIT_ASSERT_EQ_MSG(test, seen[m], wg->weight[m],
				    "%s: slots of member %u", wg->g.name, m);
	return rank;
}

/*
 * Check one volume sector s against the definition: stripe unit
 * k = s / chunk lands on slot k mod W of cycle k / W, on member
 * m = bds_slot_member(slot), as m's unit (k / W) * w_m + rank(slot), at
 * the same offset within the unit; unmapping gives s back.
 */
static bool bds_check_wsector(struct kunit *test, const struct bds_kwgeom *wg,
			      const struct bds_layout *l, u32 nr_slots,
			      const u32 *rank, u64 s)
{
	u32 chunk = wg->g.chunk, in_unit, slot, m, member;
	u64 unit = div_u64_rem(s, chunk, &in_unit);
	u64 cycle = div_u64_rem(unit, nr_slots, &slot);
	u64 want, msector, back;

	m = bds_slot_member(l, slot);
	want = (cycle * wg->weight[m] + rank[slot]) * chunk + in_unit;
	bds_map_sector(l, s, &member, &msector);
	if (member != m || msector != want) {
		KUNIT_FAIL(test, "%s: %llu -> %u:%llu, want %u:%llu",
			   wg->g.name, s, member, msector, m, want);
		return false;
	}
	back = bds_unmap_sector(l, member, msector);
	if (back != s) {
		KUNIT_FAIL(test, "%s: %llu -> %u:%llu -> %llu", wg->g.name, s,
			   member, msector, back);
		return false;
	}
	return true;
}

/* Member sector @ms of member @m maps back to itself. */
static bool bds_check_wmember(struct kunit *test, const struct bds_kwgeom *wg,
			      const struct bds_layout *l, u32 m, u64 ms)
{
	u64 back = bds_unmap_sector(l, m, ms), s;
	u32 member;

	bds_map_sector(l, back, &member, &s);
	if (member != m || s != ms) {
		KUNIT_FAIL(test, "%s: %u:%llu -> %llu -> %u:%llu", wg->g.name,
			   m, ms, back, member, s);
		return false;
	}
	return true;
}

/* Offsets within a unit to check: all, or both ends and the middle. */
static bool bds_koffset(u32 off, u32 chunk, bool all)
{
	return all || off < 2 || off == chunk / 2 || off >= chunk - 2;
}

static void bds_test_weighted_map_round_trip(struct kunit *test)
{
	const struct bds_kwgeom *wg = test->param_value;
	static const u64 far_cycles[] = { 1, 7, 1000, 1ULL << 20 };
	u32 chunk = wg->g.chunk, nr_slots, m, k, off, i;
	struct bds_layout *l = bds_kwlayout(test, wg, &nr_slots);
	u32 *rank = bds_kranks(test, wg, l, nr_slots);
	u64 cycle = bds_cycle(l), far, len;
	/* Every sector of the first two cycles when they are small. */
	bool all = 2 * cycle <= 16384;

	for (k = 0; k < 2 * nr_slots; k++)
		for (off = 0; off < chunk; off++)
			if (bds_koffset(off, chunk, all) &&
			    !bds_check_wsector(test, wg, l, nr_slots, rank,
					       (u64)k * chunk + off))
				return;
	/* Both ends and the middle of every unit of cycles further out. */
	for (i = 0; i < ARRAY_SIZE(far_cycles); i++) {
		far = far_cycles[i] * cycle;
		for (k = 0; k < nr_slots; k++)
			for (off = 0; off < chunk; off++)
				if (bds_koffset(off, chunk, false) &&
				    !bds_check_wsector(test, wg, l, nr_slots,
						       rank, far +
						       (u64)k * chunk + off))
					return;
	}
	/* Member sectors of the first two cycles map back to themselves. */
	for (m = 0; m < l->nr_members; m++)
		for (k = 0; k < 2 * wg->weight[m]; k++)
			for (off = 0; off < chunk; off++)
				if (bds_koffset(off, chunk, all) &&
				    !bds_check_wmember(test, wg, l, m,
						       (u64)k * chunk + off))
					return;
	/* Three cycles: chunk x 3 sectors per unit of weight. */
	KUNIT_ASSERT_TRUE(test, bds_member_len(l, 3 * cycle, &len));
	KUNIT_EXPECT_EQ(test, len, 3ULL * chunk);
	for (m = 0; m < l->nr_members; m++)
		KUNIT_EXPECT_EQ_MSG(test, bds_member_sectors(l, len, m),
				    3ULL * chunk * wg->weight[m],
				    "%s: member %u", wg->g.name, m);
	KUNIT_EXPECT_FALSE(test, bds_member_len(l, 3 * cycle + chunk, &len));
}

/* Small weighted geometries: every range over three cycles is walked. */
static const struct bds_kwgeom bds_wrange_geoms[] = {
	{ { 8, 2, { 2, 2 }, BDS_LAYOUT_INTERLEAVE, "8:2+2 w2,1,1,1" },
	  { 2, 1, 1, 1 } },
	{ { 8, 2, { 3, 2 }, BDS_LAYOUT_INTERLEAVE, "8:3+2 w5,1,2,7,3" },
	  { 5, 1, 2, 7, 3 } },
};

KUNIT_ARRAY_PARAM(bds_wrange_geom, bds_wrange_geoms, bds_kwgeom_desc);

static void bds_test_weighted_member_range(struct kunit *test)
{
	const struct bds_kwgeom *wg = test->param_value;
	u32 nr_slots;
	struct bds_layout *l = bds_kwlayout(test, wg, &nr_slots);

	bds_check_ranges(test, wg->g.name, l, 3 * (u64)bds_cycle(l));
}

static void bds_expect_slots(struct kunit *test, const struct bds_kwgeom *wg,
			     const u32 *want, u32 nr_want)
{
	u32 nr_slots, s;
	struct bds_layout *l = bds_kwlayout(test, wg, &nr_slots);

	KUNIT_ASSERT_EQ_MSG(test, nr_slots, nr_want, "%s", wg->g.name);
	for (s = 0; s < nr_slots; s++)
		KUNIT_EXPECT_EQ_MSG(test, bds_slot_member(l, s), want[s],
				    "%s: slot %u", wg->g.name, s);
}

static void bds_test_weighted_pinned_orders(struct kunit *test)
{
	/* one controller with a double-weight disk */
	static const struct bds_kwgeom two = {
		{ 8, 2, { 2, 2 }, BDS_LAYOUT_INTERLEAVE, "8:2+2 w2,1,1,1" },
		{ 2, 1, 1, 1 }
	};
	static const u32 o_two[] = { 0, 2, 0, 1, 3 };
	/* make bench's T2: 6 single-disk controllers, 2 with two disks */
	static const struct bds_kwgeom t2 = {
		{ 8, 8, { 1, 1, 1, 1, 1, 1, 2, 2 }, BDS_LAYOUT_INTERLEAVE,
		  "8:T2 w4x6,3x4" },
		{ 4, 4, 4, 4, 4, 4, 3, 3, 3, 3 }
	};
	static const u32 o_t2[] = {
		6, 8, 0, 1, 2, 3, 4, 5, 7, 9, 0, 1, 2, 3, 4, 5, 6, 8,
		7, 9, 0, 1, 2, 3, 4, 5, 6, 8, 0, 1, 2, 3, 4, 5, 7, 9
	};

	bds_expect_slots(test, &two, o_two, ARRAY_SIZE(o_two));
	bds_expect_slots(test, &t2, o_t2, ARRAY_SIZE(o_t2));
}

/* The writer's members: device words and offsets of a test table. */
struct bds_kmembers {
	const char *const *dev;
	const u64 *offset;
};

static const char *bds_kmember_dev(const void *ctx, u32 m)
{
	return ((const struct bds_kmembers *)ctx)->dev[m];
}

static u64 bds_kmember_offset(const void *ctx, u32 m)
{
	return ((const struct bds_kmembers *)ctx)->offset[m];
}

/* Split @line into words and run the parser over them. */
static const char *bds_kparse(struct kunit *test, const char *line,
			      struct bds_args *a)
{
	char **argv;
	const char *err;
	int argc = 0;

	argv = argv_split(GFP_KERNEL, line, &argc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, argv);
	err = bds_parse_table(a, argc, argv);
	argv_free(argv);
	return err;
}

static const struct {
	const char *table;
	const char *error;
} bds_refused[] = {
	{ "", "Not enough arguments: expected <chunk_sectors> <#groups> <group>..." },
	{ "128", "Not enough arguments: expected <chunk_sectors> <#groups> <group>..." },
	{ "0x80 1 1 /dev/a 0", "Invalid chunk size: not an unsigned decimal number of sectors" },
	{ "+128 1 1 /dev/a 0", "Invalid chunk size: not an unsigned decimal number of sectors" },
	{ "18446744073709551616 1 1 /dev/a 0",
	  "Invalid chunk size: not an unsigned decimal number of sectors" },
	{ "128 -1 1 /dev/a 0", "Invalid number of groups: not an unsigned decimal number" },
	{ "128 0", "Invalid number of groups: must be at least 1" },
	{ "128 33 1 /dev/a 0", "Invalid number of groups: at most 32 are supported" },
	{ "128 2 1 /dev/a 0", "Not enough arguments: fewer groups than <#groups> says" },
	{ "128 1 x /dev/a 0", "Invalid #devs of a group: not an unsigned decimal number" },
	{ "128 1 0", "Invalid group: #devs must be at least 1" },
	{ "128 1 129", "Too many members: at most 128 are supported" },
	{ "128 1 2 /dev/a 0 /dev/b", BDS_MSG_GROUP_SHORT },
	{ "128 1 1 /dev/a -1", BDS_MSG_BAD_OFFSET },
	{ "128 1 1 /dev/a 0x10", BDS_MSG_BAD_OFFSET },
	{ "128 1 1 /dev/a 0 x",
	  "Invalid number of optional arguments: not an unsigned decimal number" },
	{ "128 1 1 /dev/a 0 3 layout sequential",
	  "Not enough optional arguments: fewer words than <#opt_args> says" },
	{ "128 1 1 /dev/a 0 1 layout sequential", "Unexpected words after the optional arguments" },
	{ "128 1 1 /dev/a 0 2 stripes 4", BDS_MSG_OPT_UNKNOWN },
	{ "128 1 1 /dev/a 0 1 layout",
	  "Optional argument 'layout' needs a value: interleave or sequential" },
	{ "128 1 1 /dev/a 0 2 layout raid0",
	  "Invalid layout: accepted values are interleave and sequential" },
	{ "128 1 1 /dev/a 0 4 layout sequential layout interleave",
	  "Optional argument 'layout' given more than once" },
	{ "128 1 1 /dev/a 0 1 volume", BDS_MSG_VOLUME_NOVALUE },
	{ "128 1 1 /dev/a 0 2 volume 10111213-1415-4617-9819-1a1b1c1d1e1", BDS_MSG_VOLUME_BAD },
	{ "128 1 1 /dev/a 0 2 volume 10111213x1415-4617-9819-1a1b1c1d1e1f", BDS_MSG_VOLUME_BAD },
	{ "128 1 1 /dev/a 0 2 volume 00000000-0000-0000-0000-000000000000", BDS_MSG_VOLUME_BAD },
	{ "128 1 1 /dev/a 0 4 volume 10111213-1415-4617-9819-1a1b1c1d1e1f volume 10111213-1415-4617-9819-1a1b1c1d1e1f",
	  "Optional argument 'volume' given more than once" },
	{ "8 1 2 /dev/a 0 /dev/b 0 4 weights 1,2 weights 1,2",
	  "Optional argument 'weights' given more than once" },
	{ "8 1 2 /dev/a 0 /dev/b 0 1 weights", BDS_MSG_WEIGHTS_NOVALUE },
	{ "8 1 3 /dev/a 0 /dev/b 0 /dev/c 0 2 weights 1,,1", BDS_MSG_WEIGHTS_BAD },
	{ "8 1 2 /dev/a 0 /dev/b 0 2 weights 1,2,", BDS_MSG_WEIGHTS_BAD },
	{ "8 1 2 /dev/a 0 /dev/b 0 2 weights ,1,2", BDS_MSG_WEIGHTS_BAD },
	{ "8 1 2 /dev/a 0 /dev/b 0 2 weights 1,+2", BDS_MSG_WEIGHTS_BAD },
	{ "8 1 2 /dev/a 0 /dev/b 0 2 weights 1,0x2", BDS_MSG_WEIGHTS_BAD },
	{ "8 1 2 /dev/a 0 /dev/b 0 2 weights 1,2,3", BDS_MSG_WEIGHTS_COUNT },
	{ "8 1 2 /dev/a 0 /dev/b 0 2 weights 1", BDS_MSG_WEIGHTS_COUNT },
};

static void bds_test_parse_refusals(struct kunit *test)
{
	struct bds_args a;
	const char *err;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bds_refused); i++) {
		err = bds_kparse(test, bds_refused[i].table, &a);
		if (!err) {
			KUNIT_FAIL(test, "accepted \"%s\"", bds_refused[i].table);
			continue;
		}
		KUNIT_EXPECT_STREQ_MSG(test, err, bds_refused[i].error,
				       "table \"%s\"", bds_refused[i].table);
	}
}

static const struct {
	const char *table;
	u32 nr_members;
	bool weights_given;
	u32 weight[5];
} bds_weights_accepted[] = {
	{ "8 2 2 /dev/a 0 /dev/b 0 2 /dev/c 0 /dev/d 0", 4, false,
	  { 1, 1, 1, 1 } },
	{ "8 2 2 /dev/a 0 /dev/b 0 2 /dev/c 0 /dev/d 0 2 weights 2,1,1,1", 4,
	  true, { 2, 1, 1, 1 } },
	/* Member paths are not the parser's to check; words any case. */
	{ "24 2 3 a 0 b 0 c 0 2 d 0 e 0 4 layout interleave WEIGHTS 5,1,2,7,3",
	  5, true, { 5, 1, 2, 7, 3 } },
	{ "8 1 1 /dev/a 0 2 weights 255", 1, true, { 255 } },
	{ "8 1 2 /dev/a 0 /dev/b 0 4 weights 007,1 volume 10111213-1415-4617-9819-1a1b1c1d1e1f",
	  2, true, { 7, 1 } },
	/*
	 * Range, sum and layout are bds_weights_check()'s to refuse; a huge
	 * number stays out of range (256), never wraps to a small one.
	 */
	{ "8 1 3 /dev/a 0 /dev/b 0 /dev/c 0 2 weights 0,256,18446744073709551617",
	  3, true, { 0, 256, 256 } },
	{ "8 1 2 /dev/a 0 /dev/b 0 4 weights 1,2 layout sequential", 2, true,
	  { 1, 2 } },
};

static void bds_test_parse_accepts(struct kunit *test)
{
	static const char *two = "128 2 2 /dev/a 0 /dev/b 8 2 /dev/c 0 /dev/d 16";
	static const char *upper = "8 1 1 /dev/a 0 2 LAYOUT Sequential";
	static const char *big = "18446744073709551615 1 1 /dev/a 18446744073709551615";
	struct bds_args a;
	const char *err;
	u32 i, m;

	KUNIT_ASSERT_NULL(test, bds_kparse(test, two, &a));
	KUNIT_EXPECT_EQ(test, a.chunk, 128ULL);
	KUNIT_EXPECT_EQ(test, a.nr_groups, 2U);
	KUNIT_EXPECT_EQ(test, a.group_size[0], 2U);
	KUNIT_EXPECT_EQ(test, a.group_size[1], 2U);
	KUNIT_EXPECT_EQ(test, a.first_member, 3U);
	KUNIT_EXPECT_EQ(test, a.opt_start, 12U);
	KUNIT_EXPECT_EQ(test, a.mode, BDS_LAYOUT_INTERLEAVE);
	KUNIT_EXPECT_FALSE(test, a.mode_given);

	/* Option words are case-insensitive; #opt_args 0 is fine. */
	KUNIT_ASSERT_NULL(test, bds_kparse(test, upper, &a));
	KUNIT_EXPECT_EQ(test, a.mode, BDS_LAYOUT_SEQUENTIAL);
	KUNIT_EXPECT_TRUE(test, a.mode_given);
	KUNIT_EXPECT_EQ(test, a.opt_start, 5U);
	KUNIT_ASSERT_NULL(test, bds_kparse(test, "8 1 1 /dev/a 0 0", &a));
	KUNIT_EXPECT_FALSE(test, a.mode_given);

	/* "volume <uuid>": the UUID's bytes in order, either case. */
	KUNIT_ASSERT_NULL(test, bds_kparse(test,
		"8 1 1 /dev/a 2048 4 volume 10111213-1415-4617-9819-1A1B1C1D1E1F layout sequential",
		&a));
	KUNIT_EXPECT_TRUE(test, a.volume_given);
	KUNIT_EXPECT_EQ(test, a.volume_uuid[0], 0x10);
	KUNIT_EXPECT_EQ(test, a.volume_uuid[6], 0x46);
	KUNIT_EXPECT_EQ(test, a.volume_uuid[15], 0x1f);
	KUNIT_EXPECT_EQ(test, a.mode, BDS_LAYOUT_SEQUENTIAL);
	KUNIT_ASSERT_NULL(test, bds_kparse(test, two, &a));
	KUNIT_EXPECT_FALSE(test, a.volume_given);

	/* The parser leaves the geometry to bds_layout_init(). */
	KUNIT_ASSERT_NULL(test, bds_kparse(test, "12 1 1 /dev/a 0", &a));
	KUNIT_EXPECT_EQ(test, a.chunk, 12ULL);
	KUNIT_ASSERT_NULL(test, bds_kparse(test, big, &a));
	KUNIT_EXPECT_EQ(test, a.chunk, ~0ULL);

	/* "weights <w0,w1,...>": one per member, 1 each when not given. */
	for (i = 0; i < ARRAY_SIZE(bds_weights_accepted); i++) {
		err = bds_kparse(test, bds_weights_accepted[i].table, &a);
		if (err) {
			KUNIT_FAIL(test, "refused \"%s\": %s",
				   bds_weights_accepted[i].table, err);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, a.nr_members,
				    bds_weights_accepted[i].nr_members,
				    "table \"%s\"", bds_weights_accepted[i].table);
		KUNIT_EXPECT_EQ_MSG(test, a.weights_given,
				    bds_weights_accepted[i].weights_given,
				    "table \"%s\"", bds_weights_accepted[i].table);
		for (m = 0; m < bds_weights_accepted[i].nr_members; m++)
			KUNIT_EXPECT_EQ_MSG(test, a.weight[m],
					    bds_weights_accepted[i].weight[m],
					    "table \"%s\": weight %u",
					    bds_weights_accepted[i].table, m);
	}
}

/* Both passes over @line, as bds_ctr() runs them: NULL or the reason. */
static const char *bds_kparse_reshape(struct kunit *test, const char *line,
				      struct bds_args *a,
				      struct bds_reshape_args *r)
{
	char **argv;
	const char *err;
	int argc = 0;

	argv = argv_split(GFP_KERNEL, line, &argc);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, argv);
	err = bds_parse_table(a, argc, argv);
	if (!err)
		err = bds_parse_reshape(a, argc, argv, r);
	argv_free(argv);
	return err;
}

#define BDS_KUUID "10111213-1415-4617-9819-1a1b1c1d1e1f"
/* three members grown to four, as Documentation/bds-stripe.rst has it */
#define BDS_KGROW "128 2 2 8:16 128 8:32 128 2 8:48 128 8:64 2048 9 volume " BDS_KUUID

static const struct {
	const char *table;
	const char *error;
} bds_reshape_refused[] = {
	{ "128 1 1 /dev/a 0 8 volume " BDS_KUUID " reshape forward 0 1024 1 interleave",
	  BDS_MSG_RESHAPE_NOVALUE },
	{ "128 1 1 /dev/a 0 7 reshape forward 0 1024 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_NOVOLUME },
	{ "128 1 1 /dev/a 0 16 volume " BDS_KUUID
	  " reshape forward 0 128 1 interleave 0:2048:1 reshape forward 0 128 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_TWICE },
	{ BDS_KGROW " reshape sideways 0 1024 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_DIR },
	{ BDS_KGROW " reshape forward 0x0 1024 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_CKPT },
	{ BDS_KGROW " reshape forward 0 -1024 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_NEWLEN_BAD },
	{ BDS_KGROW " reshape forward 0 0 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_NEWLEN_ZERO },
	{ BDS_KGROW " reshape forward 0 1024 2,,1 interleave 0:2048:1,1:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_BAD },
	{ BDS_KGROW " reshape forward 0 1024 2,0 interleave 0:2048:1,1:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_GROUP_EMPTY },
	{ BDS_KGROW " reshape forward 0 1024 100,29 interleave 0:2048:1,1:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_MEMBERS },
	{ BDS_KGROW " reshape forward 0 1024 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_MANY },
	{ BDS_KGROW " reshape forward 0 1024 2,1 raid0 0:2048:1,1:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_LAYOUT },
	{ BDS_KGROW " reshape forward 0 1024 2,1 interleave 0:2048:1,1:2048,2:2048:1",
	  BDS_MSG_RESHAPE_MEMBERS_BAD },
	{ BDS_KGROW " reshape forward 0 1024 2,1 interleave 0:2048:1,1:2048:1",
	  BDS_MSG_RESHAPE_MEMBERS_COUNT },
	{ BDS_KGROW " reshape forward 0 1024 2,1 interleave 0:2048:1,4:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_MEMBER_INDEX },
	{ BDS_KGROW " reshape forward 0 1024 2,1 interleave 0:2048:1,2:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_MEMBER_TWICE },
	{ BDS_KGROW " reshape forward 0 1024 2,1 interleave 0:2048:1,1:18446744073709551616:1,2:2048:1",
	  BDS_MSG_RESHAPE_MEMBER_OFFSET },
	{ BDS_KGROW " reshape forward 0 1024 2,1 interleave 0:2048:1,1:2048:256,2:2048:1",
	  BDS_MSG_RESHAPE_MEMBER_WEIGHT },
	{ BDS_KGROW " reshape forward 0 1024 2,1 sequential 0:2048:1,1:2048:2,2:2048:1",
	  BDS_MSG_RESHAPE_OLD_SEQUENTIAL },
};

static void bds_test_parse_reshape(struct kunit *test)
{
	static const char *grow = BDS_KGROW
		" reshape forward 65536 16760832 2,1 interleave 0:2048:1,1:2048:1,2:2048:1";
	static const char *back = "8 1 2 8:16 24 8:32 24 11 volume " BDS_KUUID
		" weights 1,3 RESHAPE Backward 4 64 2 interleave 0:2048:3,1:2048:1";
	static const char *const names[] = { "8:16", "8:32", "8:48", "8:64" };
	static const u64 offsets[] = { 128, 128, 128, 2048 };
	struct bds_reshape_args *r;
	struct bds_layout *l;
	struct bds_args a;
	const char *err;
	char *buf;
	u32 i, w;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);

	for (i = 0; i < ARRAY_SIZE(bds_reshape_refused); i++) {
		err = bds_kparse_reshape(test, bds_reshape_refused[i].table,
					 &a, r);
		if (!err) {
			KUNIT_FAIL(test, "accepted \"%s\"",
				   bds_reshape_refused[i].table);
			continue;
		}
		KUNIT_EXPECT_STREQ_MSG(test, err, bds_reshape_refused[i].error,
				       "table \"%s\"",
				       bds_reshape_refused[i].table);
	}

	/* the documentation's grow: 2,1 -> 2,2, 65536 units copied */
	KUNIT_ASSERT_NULL(test, bds_kparse_reshape(test, grow, &a, r));
	KUNIT_EXPECT_TRUE(test, a.reshape_given);
	KUNIT_EXPECT_EQ(test, a.reshape_at, 15U);
	KUNIT_EXPECT_EQ(test, r->dir, BDS_RESHAPE_FORWARD);
	KUNIT_EXPECT_EQ(test, r->checkpoint, 65536ULL);
	KUNIT_EXPECT_EQ(test, r->new_sectors, 16760832ULL);
	KUNIT_EXPECT_EQ(test, r->old_nr_groups, 2U);
	KUNIT_EXPECT_EQ(test, r->old_nr_members, 3U);
	KUNIT_EXPECT_EQ(test, r->old_member[2], 2);
	KUNIT_EXPECT_EQ(test, r->old_offset[1], 2048ULL);
	KUNIT_EXPECT_EQ(test, r->old_weight[0], 1U);
	KUNIT_ASSERT_EQ(test, bds_layout_init(l, a.chunk, a.group_size,
					      a.nr_groups, a.mode), BDS_OK);
	KUNIT_ASSERT_EQ(test, bds_weights_check(l, a.weight, &w), BDS_OK);
	KUNIT_EXPECT_NULL(test, bds_reshape_check_len(r, l, 12570624));
	KUNIT_EXPECT_STREQ(test, bds_reshape_check_len(r, l, 12570624 + 128),
			   BDS_MSG_RESHAPE_LEN_OLD_CYCLE);
	KUNIT_EXPECT_STREQ(test, bds_reshape_check_len(r, l, 16761216),
			   BDS_MSG_RESHAPE_SHRINK);
	KUNIT_EXPECT_STREQ(test, bds_reshape_check_len(r, l, 384 * 170),
			   BDS_MSG_RESHAPE_CKPT_PAST);

	/* written back word for word (the devices as "major:minor") */
	{
		const struct bds_table_members mb = {
			bds_kmember_dev, bds_kmember_offset,
			&(const struct bds_kmembers){ names, offsets }
		};

		a.reshape = r;
		KUNIT_EXPECT_EQ(test, bds_table_write(buf, 512, &a, &mb),
				strlen(grow));
		KUNIT_EXPECT_STREQ(test, buf, grow);
	}

	/* words in any case; a re-weighting, backward */
	KUNIT_ASSERT_NULL(test, bds_kparse_reshape(test, back, &a, r));
	KUNIT_EXPECT_EQ(test, r->dir, BDS_RESHAPE_BACKWARD);
	KUNIT_EXPECT_EQ(test, r->old_weight[0], 3U);
	KUNIT_EXPECT_EQ(test, a.weight[1], 3U);
}

static void bds_test_label_golden(struct kunit *test)
{
	struct bds_label *l, *d;
	u8 *buf;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	buf = kunit_kzalloc(test, BDS_LABEL_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, d);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);

	KUNIT_EXPECT_EQ(test, bds_crc32c("123456789", 9), 0xe3069283U);
	golden_label(l);
	bds_label_encode(l, buf);
	KUNIT_EXPECT_EQ(test, buf[16] | buf[17] << 8 | buf[18] << 16 |
			(u32)buf[19] << 24, 0x4a8b05a8U);
	KUNIT_ASSERT_EQ(test, bds_label_read(buf, BDS_LABEL_SIZE, 8, d),
			BDS_LABEL_OK);
	KUNIT_EXPECT_EQ(test, memcmp(l, d, sizeof(*l)), 0);
	KUNIT_EXPECT_EQ(test, bds_label_read(buf, BDS_LABEL_SIZE, 4194288, d),
			BDS_LABEL_ERR_PLACE);
	buf[300] ^= 1;
	KUNIT_EXPECT_EQ(test, bds_label_decode(buf, BDS_LABEL_SIZE, d),
			BDS_LABEL_ERR_CRC);

	golden_owner_label(l);
	bds_label_encode(l, buf);
	KUNIT_EXPECT_EQ(test, buf[16] | buf[17] << 8 | buf[18] << 16 |
			(u32)buf[19] << 24, 0x5efa2901U);
	KUNIT_EXPECT_EQ(test, buf[144], BDS_LABEL_COMPAT_OWNER);
	KUNIT_ASSERT_EQ(test, bds_label_read(buf, BDS_LABEL_SIZE, 8, d),
			BDS_LABEL_OK);
	KUNIT_EXPECT_EQ(test, memcmp(l, d, sizeof(*l)), 0);

	golden_weights_mode_label(l);
	bds_label_encode(l, buf);
	KUNIT_EXPECT_EQ(test, buf[16] | buf[17] << 8 | buf[18] << 16 |
			(u32)buf[19] << 24, 0x378cd7f7U);
	KUNIT_EXPECT_EQ(test, buf[144], BDS_LABEL_COMPAT_WEIGHTS_MODE);
	KUNIT_EXPECT_EQ(test, buf[216], BDS_WEIGHTS_MODE_CAPACITY);
	KUNIT_ASSERT_EQ(test, bds_label_read(buf, BDS_LABEL_SIZE, 8, d),
			BDS_LABEL_OK);
	KUNIT_EXPECT_EQ(test, memcmp(l, d, sizeof(*l)), 0);
	buf[216] = 4;
	KUNIT_EXPECT_EQ(test, bds_label_decode(buf, BDS_LABEL_SIZE, d),
			BDS_LABEL_ERR_CRC);

	golden_measured_label(l);
	bds_label_encode(l, buf);
	KUNIT_EXPECT_EQ(test, buf[16] | buf[17] << 8 | buf[18] << 16 |
			(u32)buf[19] << 24, 0x9c83ab21U);
	KUNIT_EXPECT_EQ(test, buf[144], BDS_LABEL_COMPAT_WEIGHTS_MODE |
			BDS_LABEL_COMPAT_MEASURED);
	KUNIT_EXPECT_EQ(test, buf[220] | buf[221] << 8, 20000);
	KUNIT_EXPECT_EQ(test, buf[224] | buf[225] << 8, 40000);
	KUNIT_ASSERT_EQ(test, bds_label_read(buf, BDS_LABEL_SIZE, 8, d),
			BDS_LABEL_OK);
	KUNIT_EXPECT_EQ(test, memcmp(l, d, sizeof(*l)), 0);
	l->meas_time = 0;
	bds_label_encode(l, buf);
	KUNIT_EXPECT_EQ(test, bds_label_decode(buf, BDS_LABEL_SIZE, d),
			BDS_LABEL_ERR_MEASURED);

	golden_front_label(l);
	bds_label_encode(l, buf);
	KUNIT_EXPECT_EQ(test, buf[16] | buf[17] << 8 | buf[18] << 16 |
			(u32)buf[19] << 24, 0x07802f84U);
	KUNIT_EXPECT_EQ(test, buf[20], BDS_LABEL_INCOMPAT_FRONT_BACKUP);
	KUNIT_EXPECT_EQ(test, buf[128] | buf[129] << 8, BDS_LABEL_FRONT_BACKUP);
	KUNIT_ASSERT_EQ(test, bds_label_read(buf, BDS_LABEL_SIZE, 8, d),
			BDS_LABEL_OK);
	KUNIT_EXPECT_EQ(test, memcmp(l, d, sizeof(*l)), 0);
	KUNIT_EXPECT_EQ(test, bds_label_data_end(d), GOLDEN_MEMBER_SECTORS);
	l->label_sector = BDS_LABEL_FRONT_BACKUP;
	bds_label_encode(l, buf);
	KUNIT_EXPECT_EQ(test, buf[16] | buf[17] << 8 | buf[18] << 16 |
			(u32)buf[19] << 24, 0x322f854bU);
	KUNIT_EXPECT_EQ(test, bds_label_read(buf, BDS_LABEL_SIZE,
					     BDS_LABEL_FRONT_BACKUP, d),
			BDS_LABEL_OK);
	KUNIT_EXPECT_EQ(test, bds_label_read(buf, BDS_LABEL_SIZE, 8, d),
			BDS_LABEL_ERR_PLACE);
	l->label_sector = 8;
	l->incompat = 0;
	bds_label_encode(l, buf);
	KUNIT_EXPECT_EQ(test, bds_label_decode(buf, BDS_LABEL_SIZE, d),
			BDS_LABEL_ERR_PLACE);
}

/* Weights bds_weights_check() must refuse, or accept with their sum W. */
static const struct {
	u32 chunk;
	u32 nr_groups;
	u32 sizes[2];
	enum bds_order_mode mode;
	u32 weight[5];
	enum bds_geom_err err;
	u32 nr_slots;		/* W, when accepted */
} bds_weight_checks[] = {
	{ 8, 2, { 2, 2 }, BDS_LAYOUT_INTERLEAVE, { 1, 0, 1, 1 },
	  BDS_ERR_WEIGHT_RANGE, 0 },
	{ 8, 2, { 2, 2 }, BDS_LAYOUT_INTERLEAVE, { 1, 256, 1, 1 },
	  BDS_ERR_WEIGHT_RANGE, 0 },
	{ 8, 2, { 2, 2 }, BDS_LAYOUT_INTERLEAVE, { 1, 255, 1, 1 }, BDS_OK,
	  258 },
	{ 8, 1, { 5 }, BDS_LAYOUT_INTERLEAVE, { 255, 255, 255, 255, 5 },
	  BDS_ERR_WEIGHT_SUM, 0 },
	{ 8, 1, { 5 }, BDS_LAYOUT_INTERLEAVE, { 255, 255, 255, 255, 4 },
	  BDS_OK, 1024 },
	{ 8, 2, { 2, 2 }, BDS_LAYOUT_SEQUENTIAL, { 1, 1, 2, 1 },
	  BDS_ERR_WEIGHT_SEQUENTIAL, 0 },
	{ 8, 2, { 2, 2 }, BDS_LAYOUT_SEQUENTIAL, { 1, 1, 1, 1 }, BDS_OK, 4 },
	/* The largest unit, 4 GiB - 4 KiB, twice: over 32 bits. */
	{ 8388600, 1, { 1 }, BDS_LAYOUT_INTERLEAVE, { 2 },
	  BDS_ERR_CYCLE_TOO_BIG, 0 },
	{ 8388600, 1, { 1 }, BDS_LAYOUT_INTERLEAVE, { 1 }, BDS_OK, 1 },
	/* 8192 sectors x W 1024 are 2^32 bytes: one unit too many. */
	{ 8192, 1, { 5 }, BDS_LAYOUT_INTERLEAVE, { 255, 255, 255, 255, 4 },
	  BDS_ERR_CYCLE_TOO_BIG, 0 },
	{ 8192, 1, { 5 }, BDS_LAYOUT_INTERLEAVE, { 255, 255, 255, 255, 3 },
	  BDS_OK, 1023 },
};

static const struct {
	enum bds_geom_err err;
	const char *msg;
} bds_weight_msgs[] = {
	{ BDS_ERR_WEIGHT_RANGE,
	  "Invalid weight: each member's weight must be 1 to 255" },
	{ BDS_ERR_WEIGHT_SUM,
	  "Weights too large: their sum must be at most 1024" },
	{ BDS_ERR_WEIGHT_SEQUENTIAL,
	  "Weights need layout interleave: sequential gives equal shares" },
	{ BDS_ERR_CYCLE_TOO_BIG,
	  "Weighted cycle too large: chunk x sum of weights in bytes exceeds 32 bits" },
};

static void bds_weight_refusals(struct kunit *test, struct bds_layout *l)
{
	static const u32 sizes[] = { 3, 2 }, ones[] = { 1, 1, 1, 1, 1 };
	struct bds_layout *before;
	struct bds_slot *slot;
	enum bds_geom_err err;
	u32 i, w;
	u16 *slot_of;

	for (i = 0; i < ARRAY_SIZE(bds_weight_checks); i++) {
		KUNIT_ASSERT_EQ_MSG(test,
				    bds_layout_init(l, bds_weight_checks[i].chunk,
						    bds_weight_checks[i].sizes,
						    bds_weight_checks[i].nr_groups,
						    bds_weight_checks[i].mode),
				    BDS_OK, "weights case %u", i);
		w = 0;
		err = bds_weights_check(l, bds_weight_checks[i].weight, &w);
		KUNIT_EXPECT_EQ_MSG(test, err, bds_weight_checks[i].err,
				    "weights case %u: %s", i,
				    bds_geom_error(err));
		if (!err)
			KUNIT_EXPECT_EQ_MSG(test, w,
					    bds_weight_checks[i].nr_slots,
					    "weights case %u: W", i);
	}
	for (i = 0; i < ARRAY_SIZE(bds_weight_msgs); i++)
		KUNIT_EXPECT_STREQ(test, bds_geom_error(bds_weight_msgs[i].err),
				   bds_weight_msgs[i].msg);

	/* Weights all 1 leave the layout as it is, without slot arrays. */
	before = kunit_kzalloc(test, sizeof(*before), GFP_KERNEL);
	slot = kunit_kcalloc(test, 5, sizeof(*slot), GFP_KERNEL);
	slot_of = kunit_kcalloc(test, 5, sizeof(*slot_of), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, before);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, slot);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, slot_of);
	KUNIT_ASSERT_EQ(test, bds_layout_init(l, 24, sizes, 2,
					      BDS_LAYOUT_INTERLEAVE), BDS_OK);
	memcpy(before, l, sizeof(*l));
	KUNIT_ASSERT_EQ(test, bds_weights_check(l, ones, &w), BDS_OK);
	KUNIT_EXPECT_EQ(test, w, 5U);
	bds_layout_weigh(l, ones, w, slot, slot_of);
	KUNIT_EXPECT_NULL(test, l->slot);
	KUNIT_EXPECT_NULL(test, l->slot_of);
	KUNIT_EXPECT_EQ(test, l->nr_slots, l->nr_members);
	KUNIT_EXPECT_EQ(test, memcmp(before, l, sizeof(*l)), 0);
}

static void bds_test_geometry_refusals(struct kunit *test)
{
	struct bds_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	u32 one[] = { 1 }, two[] = { 64, 64 }, empty[] = { 2, 0 };
	u32 many[BDS_MAX_GROUPS + 1], i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	for (i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = 4;
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 0, one, 1, 0),
			BDS_ERR_CHUNK_ZERO);
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 12, one, 1, 0),
			BDS_ERR_CHUNK_ALIGN);
	/* 8388608 sectors are 2^32 bytes: one too many. */
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 8388608, one, 1, 0),
			BDS_ERR_CHUNK_TOO_BIG);
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 8388600, one, 1, 0), BDS_OK);
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 8, one, 0, 0),
			BDS_ERR_NO_GROUPS);
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 8, many, BDS_MAX_GROUPS + 1, 0),
			BDS_ERR_TOO_MANY_GROUPS);
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 8, many, BDS_MAX_GROUPS, 0),
			BDS_OK);
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 8, empty, 2, 0),
			BDS_ERR_EMPTY_GROUP);
	many[0] = 5;	/* 5 + 31 x 4 = 129 members */
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 8, many, BDS_MAX_GROUPS, 0),
			BDS_ERR_TOO_MANY_MEMBERS);
	/* 65536 sectors x 128 members are 2^32 bytes. */
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 65536, two, 2, 0),
			BDS_ERR_WIDTH_TOO_BIG);
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 65528, two, 2, 0), BDS_OK);
	KUNIT_EXPECT_EQ(test, bds_layout_init(l, 8, one, 1,
					      (enum bds_order_mode)2),
			BDS_ERR_BAD_MODE);
	bds_weight_refusals(test, l);
}

/* The geometries of the target's map path mid-restripe, kmalloc'd. */
struct bds_krestripe {
	struct bds_reshape_args args;
	struct bds_geom new, old;
	struct bds_geom_slots old_slots;
	struct bds_layout l;
	struct bds_reshape r;
};

/*
 * Unit @u's place, as the map path finds it at checkpoint @ckpt: the
 * geometry that holds it, its member and member sector; the sector maps
 * back to the unit.
 */
static void bds_kexpect_unit(struct kunit *test, struct bds_krestripe *k,
			     u64 ckpt, u64 u)
{
	u64 sector = u * k->l.chunk, left, ps;
	const struct bds_geom *g;
	bool fwd = k->r.dir == BDS_RESHAPE_FORWARD;
	u32 dev;

	g = bds_reshape_geom_of(&k->r, ckpt, sector, &left);
	KUNIT_EXPECT_PTR_EQ_MSG(test, g, (u < ckpt) == fwd ? &k->new : &k->old,
				"unit %llu, checkpoint %llu", u, ckpt);
	if (u < ckpt)
		KUNIT_EXPECT_EQ_MSG(test, left, (ckpt - u) * k->l.chunk,
				    "unit %llu: sectors to the boundary", u);
	bds_geom_map(g, sector, &dev, &ps);
	KUNIT_EXPECT_EQ_MSG(test, bds_geom_unmap(g, dev, ps), sector,
			    "unit %llu: member %u sector %llu maps back", u,
			    dev, ps);
	KUNIT_EXPECT_GE_MSG(test, ps, g->offset[g->index[dev]],
			    "unit %llu: at or after its member's data offset", u);
}

/*
 * Member @m's range of the unit-aligned volume range [@from, @to) in
 * geometry @g (bds_geom_member_range()): from the first to the end of
 * the last of its units there, mapped one by one.
 */
static void bds_kexpect_range(struct kunit *test, const struct bds_geom *g,
			      u64 from, u64 to, u32 m)
{
	u64 first = U64_MAX, last = 0, u, ps, pe;
	u32 chunk = g->layout.chunk, dev;
	bool found;

	for (u = from / chunk; from < to && u < to / chunk; u++) {
		bds_geom_map(g, u * chunk, &dev, &ps);
		if (dev != m)
			continue;
		first = min(first, ps);
		last = max(last, ps + chunk);
	}
	found = from < to && bds_geom_member_range(g, from, to, m, &ps, &pe);
	KUNIT_EXPECT_EQ_MSG(test, found, first != U64_MAX,
			    "[%llu, %llu), member %u: a range exactly when a unit",
			    from, to, m);
	if (!found || first == U64_MAX)
		return;
	KUNIT_EXPECT_EQ_MSG(test, ps, first, "[%llu, %llu), member %u: start",
			    from, to, m);
	KUNIT_EXPECT_EQ_MSG(test, pe, last, "[%llu, %llu), member %u: end",
			    from, to, m);
}

/*
 * The map path of a volume mid-restripe: the documentation's grow
 * (three members to four, 128-sector units, the old data at 2048, the
 * new at 128 and 2048) checked in by the target's own helper
 * (bds_reshape_of_table()) at checkpoints 0, 65536 and the end.  Every
 * unit near the boundary and at both ends lies in the geometry the
 * checkpoint says and maps back; a discard's range over the boundary
 * splits, per member, into the places of its units in each geometry
 * (bds_geom_member_range() against the units one by one).
 */
static void bds_test_reshape_map(struct kunit *test)
{
	static const char *grow = BDS_KGROW
		" reshape forward 65536 16760832 2,1 interleave 0:2048:1,1:2048:1,2:2048:1";
	static const u64 offsets[] = { 128, 128, 128, 2048 };
	static const u64 ckpts[] = { 0, 65536, 98208 };
	const u64 len = 12570624, units = len / 128;
	struct bds_krestripe *k;
	struct bds_args a;
	u64 u, c, lo, hi, edge;
	u32 i, m, w;

	k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, k);
	KUNIT_ASSERT_NULL(test, bds_kparse_reshape(test, grow, &a, &k->args));
	KUNIT_ASSERT_EQ(test, bds_layout_init(&k->l, a.chunk, a.group_size,
					      a.nr_groups, a.mode), BDS_OK);
	KUNIT_ASSERT_EQ(test, bds_weights_check(&k->l, a.weight, &w), BDS_OK);
	KUNIT_ASSERT_NULL(test, bds_reshape_check_len(&k->args, &k->l, len));
	KUNIT_ASSERT_NULL(test, bds_reshape_of_table(&k->args, &k->l, offsets,
						     len, &k->new, &k->old,
						     &k->old_slots));
	KUNIT_EXPECT_EQ(test, k->old.units, units);
	KUNIT_EXPECT_EQ(test, k->new.units, 16760832ULL / 128);
	KUNIT_EXPECT_EQ(test, k->old.index[3], BDS_GEOM_NONE);
	k->r.old = &k->old;
	k->r.new = &k->new;
	k->r.dir = BDS_RESHAPE_FORWARD;

	for (i = 0; i < ARRAY_SIZE(ckpts); i++) {
		c = ckpts[i];
		lo = c > 300 ? c - 300 : 0;
		hi = min(c + 300, units);
		for (u = lo; u < hi; u++)
			bds_kexpect_unit(test, k, c, u);
		for (u = 0; u < 200; u++) {
			bds_kexpect_unit(test, k, c, u);
			bds_kexpect_unit(test, k, c, units - 1 - u);
		}
		/* a discard of units [lo, hi): per member, per geometry */
		edge = c * 128;
		for (m = 0; m < 4; m++) {
			bds_kexpect_range(test, &k->new, lo * 128,
					  min(hi * 128, edge), m);
			bds_kexpect_range(test, &k->old, max(lo * 128, edge),
					  hi * 128, m);
		}
	}
}

static struct kunit_case bds_layout_cases[] = {
	KUNIT_CASE_PARAM(bds_test_map_round_trip, bds_kgeom_gen_params),
	KUNIT_CASE_PARAM(bds_test_member_range, bds_range_geom_gen_params),
	KUNIT_CASE(bds_test_window_bound),
	KUNIT_CASE(bds_test_pinned_orders),
	KUNIT_CASE_PARAM(bds_test_weighted_map_round_trip,
			 bds_kwgeom_gen_params),
	KUNIT_CASE_PARAM(bds_test_weighted_member_range,
			 bds_wrange_geom_gen_params),
	KUNIT_CASE(bds_test_weighted_pinned_orders),
	KUNIT_CASE(bds_test_parse_refusals),
	KUNIT_CASE(bds_test_parse_accepts),
	KUNIT_CASE(bds_test_parse_reshape),
	KUNIT_CASE(bds_test_reshape_map),
	KUNIT_CASE(bds_test_geometry_refusals),
	KUNIT_CASE(bds_test_label_golden),
	{}
};

static struct kunit_suite bds_layout_suite = {
	.name = "bds-stripe-layout",
	.test_cases = bds_layout_cases,
};

kunit_test_suite(bds_layout_suite);

MODULE_DESCRIPTION("KUnit tests of the bds-stripe layout arithmetic and table parser");
MODULE_LICENSE("GPL");
