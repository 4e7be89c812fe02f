/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Invariants of a bds-stripe layout, shared by the fuzz targets.
 *
 * Every check calls FUZZ_CHECK(); a violation prints what was wrong and
 * calls abort(), which libFuzzer (and the replay driver) report as a
 * crash.  Nothing here allocates: a layout is at most 128 members.
 */
#ifndef BDS_FUZZ_CHECK_H
#define BDS_FUZZ_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libbds/layout.h"
#include "libbds/table.h"

#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s: ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

/* FNV-1a over the input, salted, to derive extra sample values. */
static inline u64 fuzz_hash(const uint8_t *data, size_t size, u64 salt)
{
	u64 h = 0xcbf29ce484222325ULL ^ salt;
	size_t i;

	for (i = 0; i < size; i++) {
		h ^= data[i];
		h *= 0x100000001b3ULL;
	}
	/* final mix so that nearby salts give unrelated values */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

/*
 * The geometry checks of bds_layout_init(), written again from
 * Documentation/bds-stripe.rst ("Parameters" and "Limits"), in the order
 * the header applies them.  The fuzzers compare the two.
 */
static inline enum bds_geom_err
fuzz_expected_geom(u64 chunk, const u32 *sizes, u32 nr_groups, u32 mode)
{
	u64 n = 0;
	u32 g;

	if (chunk == 0)
		return BDS_ERR_CHUNK_ZERO;
	if (chunk % 8)
		return BDS_ERR_CHUNK_ALIGN;
	if (chunk > 8388600)	/* doc: "no larger than 8388600" */
		return BDS_ERR_CHUNK_TOO_BIG;
	if (nr_groups < 1)
		return BDS_ERR_NO_GROUPS;
	if (nr_groups > 32)
		return BDS_ERR_TOO_MANY_GROUPS;
	for (g = 0; g < nr_groups; g++) {
		if (sizes[g] == 0)
			return BDS_ERR_EMPTY_GROUP;
		n += sizes[g];
	}
	if (n > 128)
		return BDS_ERR_TOO_MANY_MEMBERS;
	if (chunk * 512 * n > 4294967295ULL)
		return BDS_ERR_WIDTH_TOO_BIG;
	if (mode != 0 && mode != 1)
		return BDS_ERR_BAD_MODE;
	return BDS_OK;
}

/*
 * Static properties of an accepted layout: the fields, the order being a
 * permutation with pos_of its inverse, and what the documentation says
 * about the order ("Layout").
 */
static inline void fuzz_check_order(const struct bds_layout *l, u64 chunk,
				    const u32 *sizes, u32 nr_groups, u32 mode)
{
	u8 seen[BDS_MAX_MEMBERS] = { 0 };
	u32 first[BDS_MAX_GROUPS], last_j[BDS_MAX_GROUPS];
	u32 n = 0, g, p, m, i;
	bool equal = true;

	for (g = 0; g < nr_groups; g++) {
		first[g] = n;
		n += sizes[g];
		if (sizes[g] != sizes[0])
			equal = false;
	}
	FUZZ_CHECK(l->chunk == chunk, "chunk %u", l->chunk);
	FUZZ_CHECK(l->nr_members == n, "nr_members %u, want %u",
		   l->nr_members, n);
	FUZZ_CHECK(l->nr_groups == nr_groups, "nr_groups %u", l->nr_groups);
	FUZZ_CHECK((u32)l->mode == mode, "mode %d", (int)l->mode);
	if (l->chunk_shift >= 0)
		FUZZ_CHECK(l->chunk_shift < 32 &&
			   (1ULL << l->chunk_shift) == chunk,
			   "chunk_shift %d for chunk %llu", l->chunk_shift,
			   (unsigned long long)chunk);
	else
		FUZZ_CHECK(chunk & (chunk - 1), "chunk %llu is a power of 2",
			   (unsigned long long)chunk);
	for (g = 0; g < nr_groups; g++) {
		FUZZ_CHECK(l->group_size[g] == sizes[g], "group_size[%u]", g);
		for (i = 0; i < sizes[g]; i++)
			FUZZ_CHECK(l->group_of[first[g] + i] == g,
				   "group_of[%u] = %u, want %u", first[g] + i,
				   l->group_of[first[g] + i], g);
	}

	for (p = 0; p < n; p++) {
		m = l->order[p];
		FUZZ_CHECK(m < n, "order[%u] = %u >= N = %u", p, m, n);
		FUZZ_CHECK(!seen[m], "member %u at two positions", m);
		seen[m] = 1;
		FUZZ_CHECK(l->pos_of[m] == p, "pos_of[%u] = %u, want %u", m,
			   l->pos_of[m], p);
	}

	if (mode == BDS_LAYOUT_SEQUENTIAL || nr_groups == 1) {
		for (p = 0; p < n; p++)
			FUZZ_CHECK(l->order[p] == p,
				   "sequential: order[%u] = %u", p, l->order[p]);
		return;
	}

	/* "each group's members taken in table order" */
	memset(last_j, 0, sizeof(last_j));
	for (p = 0; p < n; p++) {
		m = l->order[p];
		g = l->group_of[m];
		FUZZ_CHECK(m == first[g] + last_j[g],
			   "position %u: member %u out of table order in group %u",
			   p, m, g);
		last_j[g]++;
	}

	/*
	 * "for every window of w consecutive positions (wrapping around the
	 * stripe) and every group, the number of the group's members in the
	 * window differs from its fair share w * n_g / N by less than 1 when
	 * all groups have the same size or there are two groups, and by less
	 * than 2 otherwise."  In integers: |cnt * N - w * n_g| < bound * N.
	 */
	for (g = 0; g < nr_groups; g++) {
		u32 bound = (equal || nr_groups == 2) ? 1 : 2;
		u32 start, w;

		for (start = 0; start < n; start++) {
			int64_t cnt = 0;

			for (w = 1; w <= n; w++) {
				int64_t diff;

				if (l->group_of[l->order[(start + w - 1) % n]] == g)
					cnt++;
				diff = cnt * n - (int64_t)w * sizes[g];
				if (diff < 0)
					diff = -diff;
				FUZZ_CHECK(diff < (int64_t)bound * n,
					   "group %u (of %u, N=%u): window start %u width %u holds %lld, fair share %u*%u/%u, bound %u",
					   g, nr_groups, n, start, w,
					   (long long)cnt, w, sizes[g], n, bound);
			}
		}
	}

	/* "Two equal groups alternate." */
	if (nr_groups == 2 && equal)
		for (p = 0; p < n; p++)
			FUZZ_CHECK(l->group_of[l->order[p]] == (p & 1),
				   "two equal groups: position %u in group %u", p,
				   l->group_of[l->order[p]]);
}

/*
 * One volume sector: it maps inside the volume, matches the formula of
 * the documentation, and maps back.  bds_chunk_left() ends the piece on
 * a unit boundary, and the whole piece lies on the same member.
 */
static inline void fuzz_check_sector(const struct bds_layout *l, u64 len,
				     u64 member_len, u64 s)
{
	u64 ms, k, ms2;
	u32 m, m2, left, slot, rank, i;

	if (s >= len)
		return;
	bds_map_sector(l, s, &m, &ms);
	FUZZ_CHECK(m < l->nr_members, "sector %llu -> member %u >= N",
		   (unsigned long long)s, m);
	FUZZ_CHECK(ms < bds_member_sectors(l, member_len, m),
		   "sector %llu -> member %u sector %llu >= member length %llu",
		   (unsigned long long)s, m, (unsigned long long)ms,
		   (unsigned long long)member_len);
	FUZZ_CHECK(bds_unmap_sector(l, m, ms) == s,
		   "sector %llu -> (%u, %llu) -> %llu", (unsigned long long)s,
		   m, (unsigned long long)ms,
		   (unsigned long long)bds_unmap_sector(l, m, ms));

	/*
	 * Documentation "Layout": k = s / chunk, slot = k mod W, on the
	 * slot's member as its unit (k div W) * w_m + rank, rank counting
	 * the member's earlier slots of the cycle (without weights: W = N,
	 * the slot's member is order[slot], w_m = 1, rank 0).
	 */
	k = s / l->chunk;
	slot = (u32)(k % l->nr_slots);
	FUZZ_CHECK(m == (l->slot ? l->slot[slot].member : l->order[slot]),
		   "sector %llu: member %u, formula says slot %u",
		   (unsigned long long)s, m, slot);
	for (rank = 0, i = 0; i < slot; i++)
		if (bds_slot_member(l, i) == m)
			rank++;
	FUZZ_CHECK(ms == ((k / l->nr_slots) * bds_weight(l, m) + rank) *
		   l->chunk + s % l->chunk,
		   "sector %llu: member sector %llu, formula disagrees",
		   (unsigned long long)s, (unsigned long long)ms);

	left = bds_chunk_left(l, s);
	FUZZ_CHECK(left >= 1 && left <= l->chunk, "chunk_left %u", left);
	FUZZ_CHECK((s % l->chunk) + left == l->chunk,
		   "sector %llu: chunk_left %u does not end the unit",
		   (unsigned long long)s, left);
	/* len is a whole number of units, so the unit ends inside it */
	FUZZ_CHECK(s + left <= len, "unit of sector %llu passes the end",
		   (unsigned long long)s);
	bds_map_sector(l, s + left - 1, &m2, &ms2);
	FUZZ_CHECK(m2 == m && ms2 == ms + left - 1,
		   "sector %llu: the unit does not stay on member %u",
		   (unsigned long long)s, m);
}

/* A member sector maps to a volume sector that maps back to it. */
static inline void fuzz_check_member_sector(const struct bds_layout *l,
					    u64 len, u64 member_len, u32 m,
					    u64 ms)
{
	u64 s, ms2;
	u32 m2;

	if (m >= l->nr_members || ms >= bds_member_sectors(l, member_len, m))
		return;
	s = bds_unmap_sector(l, m, ms);
	FUZZ_CHECK(s < len, "(%u, %llu) -> sector %llu past the end %llu", m,
		   (unsigned long long)ms, (unsigned long long)s,
		   (unsigned long long)len);
	bds_map_sector(l, s, &m2, &ms2);
	FUZZ_CHECK(m2 == m && ms2 == ms, "(%u, %llu) -> %llu -> (%u, %llu)",
		   m, (unsigned long long)ms, (unsigned long long)s, m2,
		   (unsigned long long)ms2);
}

/*
 * bds_member_range() on [start, end): per member, one contiguous range
 * whose first and last sectors are in [start, end) and whose neighbours
 * are not; the lengths add up to end - start.
 */
static inline void fuzz_check_range(const struct bds_layout *l, u64 len,
				    u64 member_len, u64 start, u64 end)
{
	u64 total = 0, ms, me, mlen;
	u32 m;

	if (start > end || end > len)
		return;
	for (m = 0; m < l->nr_members; m++) {
		bool r = bds_member_range(l, start, end, m, &ms, &me);

		mlen = bds_member_sectors(l, member_len, m);

		FUZZ_CHECK(r == (ms < me), "member %u: returned %d for [%llu, %llu)",
			   m, r, (unsigned long long)ms,
			   (unsigned long long)me);
		FUZZ_CHECK(ms <= mlen && me <= mlen,
			   "member %u: [%llu, %llu) past member length %llu", m,
			   (unsigned long long)ms, (unsigned long long)me,
			   (unsigned long long)mlen);
		if (ms > 0 && ms <= mlen)
			FUZZ_CHECK(bds_unmap_sector(l, m, ms - 1) < start,
				   "member %u: sector before the range start %llu is in the range",
				   m, (unsigned long long)ms);
		if (me < mlen)
			FUZZ_CHECK(bds_unmap_sector(l, m, me) >= end,
				   "member %u: sector at range end %llu is before volume end %llu",
				   m, (unsigned long long)me,
				   (unsigned long long)end);
		if (!r)
			continue;
		FUZZ_CHECK(bds_unmap_sector(l, m, ms) >= start &&
			   bds_unmap_sector(l, m, me - 1) < end,
			   "member %u: [%llu, %llu) leaves [%llu, %llu)", m,
			   (unsigned long long)ms, (unsigned long long)me,
			   (unsigned long long)start, (unsigned long long)end);
		total += me - ms;
	}
	FUZZ_CHECK(total == end - start,
		   "[%llu, %llu): member ranges add up to %llu",
		   (unsigned long long)start, (unsigned long long)end,
		   (unsigned long long)total);
}

/*
 * Run the mapping checks on a volume of @len sectors (a whole number of
 * cycles, member m holding len / W * w_m): first and last sectors, unit
 * and cycle boundaries at both ends, and the @nseeds values from the
 * input, as sectors, as member sectors and as range ends.
 */
static inline void fuzz_check_mapping(const struct bds_layout *l, u64 len,
				      const u64 *seeds, unsigned int nseeds)
{
	u64 member_len, width = bds_cycle(l), i, start, end;
	unsigned int j;

	FUZZ_CHECK(bds_member_len(l, len, &member_len),
		   "length %llu refused", (unsigned long long)len);
	FUZZ_CHECK(member_len * l->nr_slots == len,
		   "length per weight %llu x W %u != %llu",
		   (unsigned long long)member_len, l->nr_slots,
		   (unsigned long long)len);
	FUZZ_CHECK(len % width == 0, "length not whole cycles");

	/* units at the start and the end of the volume, both edges */
	for (i = 0; i <= 2 * (u64)l->nr_slots + 1; i++) {
		u64 b = i * l->chunk;

		if (b < len) {
			fuzz_check_sector(l, len, member_len, b);
			fuzz_check_sector(l, len, member_len, b + l->chunk - 1);
			fuzz_check_sector(l, len, member_len, len - 1 - b);
			fuzz_check_sector(l, len, member_len, len - b - l->chunk);
		}
	}
	for (j = 0; j < l->nr_members; j++) {
		fuzz_check_member_sector(l, len, member_len, j, 0);
		fuzz_check_member_sector(l, len, member_len, j,
					 bds_member_sectors(l, member_len, j) - 1);
	}
	for (j = 0; j < nseeds; j++) {
		u64 s = seeds[j] % len;

		fuzz_check_sector(l, len, member_len, s);
		fuzz_check_sector(l, len, member_len, s - s % width);
		fuzz_check_member_sector(l, len, member_len,
					 (u32)(seeds[j] % l->nr_members),
					 (seeds[j] >> 7) % member_len);
	}

	/* whole volume, empty range, and ranges between the seeds */
	fuzz_check_range(l, len, member_len, 0, len);
	fuzz_check_range(l, len, member_len, 0, 0);
	fuzz_check_range(l, len, member_len, len, len);
	for (j = 0; j + 1 < nseeds; j++) {
		start = seeds[j] % len;
		end = start + seeds[j + 1] % (len - start + 1);
		fuzz_check_range(l, len, member_len, start, end);
		/* a short request, like a discard split by dm */
		end = start + (seeds[j + 1] & 0xffff) % (len - start + 1);
		fuzz_check_range(l, len, member_len, start, end);
	}
}

/*
 * Pick a volume length in whole cycles from @sel: one cycle, a few,
 * an arbitrary count, or the most that fits 64 bits.
 */
static inline u64 fuzz_pick_len(const struct bds_layout *l, u64 sel)
{
	u64 width = bds_cycle(l), max = UINT64_MAX / width;

	switch (sel & 3) {
	case 0:
		return width;
	case 1:
		return width * (1 + (sel >> 2) % 64);
	case 2:
		return width * max;
	default:
		return width * (1 + (sel >> 2) % max);
	}
}

#endif /* BDS_FUZZ_CHECK_H */
