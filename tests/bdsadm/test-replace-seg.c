// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bdsadm replace --ignore-read-errors' segment arithmetic
 * (tools/replace-seg.c): which mirror regions hold the unreadable
 * ranges, and the mirror's table cut around them.  Checked against a
 * brute-force bitmap: exhaustively for small members and a small region,
 * at random for larger ones.
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/check.h"
#include "../../tools/replace.h"

#include "../libbds/tap.h"

#define MAXLEN	4096

static bool mark[MAXLEN];

/* The segments of @reg over @len: they tile it, saved exactly @reg. */
static bool segments_ok(const u64 *reg, size_t nreg, u32 region, u64 len)
{
	struct rpl_seg seg[2 * 64 + 1];
	size_t n, i, want;
	u64 at = 0, s;

	n = rpl_segments(reg, nreg, region, len, seg, 2 * 64 + 1);
	if (n > 2 * nreg + 1)
		return false;
	memset(mark, 0, sizeof(mark));
	for (i = 0; i < nreg; i++)
		for (s = reg[i] * region; s < (reg[i] + 1) * region && s < len; s++)
			mark[s] = true;
	for (i = 0; i < n; i++) {
		if (seg[i].start != at || !seg[i].len)
			return false;	/* a gap, an overlap or an empty one */
		if (i && !seg[i].saved && !seg[i - 1].saved)
			return false;	/* two copied stretches not merged */
		for (s = at; s < at + seg[i].len; s++)
			if (mark[s] != seg[i].saved)
				return false;
		if (seg[i].saved && (seg[i].start % region ||
				     seg[i].len > region))
			return false;
		at += seg[i].len;
	}
	want = 0;
	for (i = 0; i < nreg; i++)
		want += reg[i] * region < len;
	for (i = 0; i < n; i++)
		want -= seg[i].saved;
	return at == len && !want;
}

static void exhaustive(void)
{
	const u32 region = 4;
	u64 reg[16];
	unsigned int len, set, bad = 0, cases = 0;

	for (len = 1; len <= 40; len++) {
		unsigned int nr = (len + region - 1) / region;

		for (set = 0; set < (1U << nr); set++) {
			size_t n = 0, r;

			for (r = 0; r < nr; r++)
				if (set & (1U << r))
					reg[n++] = r;
			cases++;
			bad += !segments_ok(reg, n, region, len);
		}
	}
	check(!bad, "segments tile the member, saved exactly the regions: %u cases, %u wrong",
	      cases, bad);
}

static void random_segments(void)
{
	unsigned int t, bad = 0;

	for (t = 0; t < 2000; t++) {
		u32 region = 1U << (rnd() % 6);
		u64 len = 1 + rnd() % MAXLEN, reg[64], r = 0;
		size_t n = 0;

		while (n < 64) {
			r += 1 + rnd() % 9;
			if (r * region >= len)
				break;
			reg[n++] = r;
		}
		bad += !segments_ok(reg, n, region, len);
	}
	check(!bad, "random members and regions: 2000 cases, %u wrong", bad);
}

/* rpl_bad_regions() against the bitmap of the regions the ranges touch. */
static void regions_of_ranges(void)
{
	unsigned int t, bad = 0;

	for (t = 0; t < 2000; t++) {
		struct chk_range rg[8];
		u32 region = 1U << (rnd() % 5);
		bool want[MAXLEN] = { false };
		u64 out[MAXLEN], at = 0, r;
		size_t nr = 0, n, k, i;

		while (nr < 8) {	/* in order, apart, as check lists them */
			at += 1 + rnd() % 50;
			rg[nr].member = 0;
			rg[nr].start = at;
			at += 1 + rnd() % 20;
			rg[nr].end = at;
			if (at >= MAXLEN)
				break;
			for (r = rg[nr].start; r < rg[nr].end; r++)
				want[r / region] = true;
			nr++;
		}
		n = rpl_bad_regions(rg, nr, region, out, MAXLEN);
		k = 0;
		for (i = 0; i < MAXLEN; i++)
			if (want[i] && (k >= n || out[k++] != i))
				bad++;
		bad += k != n;
		bad += rpl_bad_regions(rg, nr, region, NULL, 0) != n;
	}
	check(!bad, "regions of unreadable ranges: 2000 cases, %u wrong", bad);
}

int main(void)
{
	exhaustive();
	random_segments();
	regions_of_ranges();
	return tap_done();
}
