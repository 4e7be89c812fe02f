// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the bds-stripe layout arithmetic and table parser,
 * compiled from the same dm-bds-stripe.h the target is built from, so
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
 *   parse_refusals        tables the parser must refuse, and why
 *   parse_accepts         tables it must accept, and what it finds
 *   geometry_refusals     geometries bds_layout_init() must refuse
 *   label_golden          the golden label of tests/unit/label-golden.h,
 *                         encoded by the kernel's build of dm-bds-label.h:
 *                         the crc the userspace golden vector pins
 *                         (0x4a8b05a8), decoded back to the same label, a
 *                         flipped bit refused
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../../dm-bds-stripe.h"
#include "../../dm-bds-label.h"
#include "../unit/label-golden.h"

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

static void bds_range_fail(struct kunit *test, const struct bds_kgeom *g,
			   u64 start, u64 end, u32 m, bool got, u64 lo, u64 hi,
			   u64 count, u64 first, u64 last)
{
	KUNIT_FAIL(test, "%s: [%llu,%llu) member %u: %d [%llu,%llu), walk: %llu in %llu..%llu",
		   g->name, start, end, m, got, lo, hi, count, first, last);
}

static void bds_test_member_range(struct kunit *test)
{
	const struct bds_kgeom *g = test->param_value;
	struct bds_layout *l = bds_klayout(test, g);
	u32 n = l->nr_members, m, member;
	u64 span = 3 * (u64)bds_width(l), start, end, ms, lo, hi;
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
				bds_range_fail(test, g, start, end, m, got, lo,
					       hi, count[m], first[m], last[m]);
				return;
			}
		}
	}
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

static void bds_test_parse_accepts(struct kunit *test)
{
	static const char *two = "128 2 2 /dev/a 0 /dev/b 8 2 /dev/c 0 /dev/d 16";
	static const char *upper = "8 1 1 /dev/a 0 2 LAYOUT Sequential";
	static const char *big = "18446744073709551615 1 1 /dev/a 18446744073709551615";
	struct bds_args a;

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
}

static struct kunit_case bds_layout_cases[] = {
	KUNIT_CASE_PARAM(bds_test_map_round_trip, bds_kgeom_gen_params),
	KUNIT_CASE_PARAM(bds_test_member_range, bds_range_geom_gen_params),
	KUNIT_CASE(bds_test_window_bound),
	KUNIT_CASE(bds_test_pinned_orders),
	KUNIT_CASE(bds_test_parse_refusals),
	KUNIT_CASE(bds_test_parse_accepts),
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
