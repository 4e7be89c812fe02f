// SPDX-License-Identifier: GPL-2.0
/*
 * bds-stripe layout arithmetic that runs when a table is loaded or its
 * queue limits are set (see layout.h): the geometry's checks, the slot
 * order of a cycle, the weights.
 */
#include "layout.h"

const char *bds_geom_error(enum bds_geom_err err)
{
	switch (err) {
	case BDS_OK:
		return "no error";
	case BDS_ERR_CHUNK_ZERO:
		return "Invalid chunk size: must be greater than 0";
	case BDS_ERR_CHUNK_ALIGN:
		return "Invalid chunk size: must be a multiple of 8 sectors (4 KiB)";
	case BDS_ERR_CHUNK_TOO_BIG:
		return "Invalid chunk size: stripe unit in bytes exceeds 32 bits";
	case BDS_ERR_NO_GROUPS:
		return "Invalid number of groups: must be at least 1";
	case BDS_ERR_TOO_MANY_GROUPS:
		return "Invalid number of groups: at most 32 are supported";
	case BDS_ERR_EMPTY_GROUP:
		return "Invalid group: #devs must be at least 1";
	case BDS_ERR_TOO_MANY_MEMBERS:
		return "Too many members: at most 128 are supported";
	case BDS_ERR_WIDTH_TOO_BIG:
		return "Stripe width too large: chunk x members in bytes exceeds 32 bits";
	case BDS_ERR_BAD_MODE:
		return "Invalid layout";
	case BDS_ERR_WEIGHT_RANGE:
		return "Invalid weight: each member's weight must be 1 to 255";
	case BDS_ERR_WEIGHT_SUM:
		return "Weights too large: their sum must be at most 1024";
	case BDS_ERR_WEIGHT_SEQUENTIAL:
		return "Weights need layout interleave: sequential gives equal shares";
	case BDS_ERR_CYCLE_TOO_BIG:
		return "Weighted cycle too large: chunk x sum of weights in bytes exceeds 32 bits";
	}
	return "unknown error";
}

void bds_order_slots(const u8 *group_size, u32 nr_groups, const u32 *weight,
		     u32 nr_slots, u8 *member, u8 *rank)
{
	u32 next[BDS_MAX_GROUPS] = { 0 }, sum[BDS_MAX_GROUPS] = { 0 };
	u32 first[BDS_MAX_GROUPS];
	u8 taken[BDS_MAX_MEMBERS] = { 0 };
	u32 s, g, i, best, m = 0;

	for (g = 0; g < nr_groups; g++) {
		first[g] = m;
		for (i = 0; i < group_size[g]; i++, m++)
			sum[g] += weight ? weight[m] : 1;
	}

	for (s = 0; s < nr_slots; s++) {
		best = nr_groups;
		for (g = 0; g < nr_groups; g++) {
			u32 j = next[g];

			if (j >= sum[g] || (u64)j * nr_slots >= (u64)(s + 1) * sum[g])
				continue;	/* done, or not yet released */
			if (best == nr_groups ||
			    (u64)(j + 1) * sum[best] < (u64)(next[best] + 1) * sum[g])
				best = g;
		}
		g = best;
		best = first[g] + group_size[g];
		for (i = first[g]; i < first[g] + group_size[g]; i++) {
			u32 w = weight ? weight[i] : 1;

			if (taken[i] >= w ||
			    (u64)taken[i] * sum[g] >= (u64)(next[g] + 1) * w)
				continue;
			if (best == first[g] + group_size[g] ||
			    (u64)(taken[i] + 1) * (weight ? weight[best] : 1) <
			    (u64)(taken[best] + 1) * w)
				best = i;
		}
		member[s] = (u8)best;
		rank[s] = taken[best]++;
		next[g]++;
	}
}

enum bds_geom_err
bds_layout_init(struct bds_layout *l, u64 chunk, const u32 *group_sizes,
		u32 nr_groups, enum bds_order_mode mode)
{
	u32 g, i, m = 0;
	u64 n = 0;

	if (!chunk)
		return BDS_ERR_CHUNK_ZERO;
	if (chunk % BDS_CHUNK_ALIGN)
		return BDS_ERR_CHUNK_ALIGN;
	if (chunk > BDS_MAX_IO_BYTES >> 9)
		return BDS_ERR_CHUNK_TOO_BIG;
	if (!nr_groups)
		return BDS_ERR_NO_GROUPS;
	if (nr_groups > BDS_MAX_GROUPS)
		return BDS_ERR_TOO_MANY_GROUPS;
	for (g = 0; g < nr_groups; g++) {
		if (!group_sizes[g])
			return BDS_ERR_EMPTY_GROUP;
		n += group_sizes[g];
	}
	if (n > BDS_MAX_MEMBERS)
		return BDS_ERR_TOO_MANY_MEMBERS;
	if ((chunk << 9) * n > BDS_MAX_IO_BYTES)
		return BDS_ERR_WIDTH_TOO_BIG;
	if (mode != BDS_LAYOUT_INTERLEAVE && mode != BDS_LAYOUT_SEQUENTIAL)
		return BDS_ERR_BAD_MODE;

	l->chunk = (u32)chunk;
	l->nr_members = (u32)n;
	l->nr_groups = nr_groups;
	l->mode = mode;
	l->chunk_shift = -1;
	if (!(chunk & (chunk - 1))) {
		l->chunk_shift = 0;
		while ((1ULL << l->chunk_shift) < chunk)
			l->chunk_shift++;
	}
	for (g = 0; g < nr_groups; g++) {
		l->group_size[g] = (u8)group_sizes[g];
		for (i = 0; i < group_sizes[g]; i++)
			l->group_of[m++] = (u8)g;
	}

	if (mode == BDS_LAYOUT_SEQUENTIAL || nr_groups == 1) {
		for (i = 0; i < n; i++)
			l->order[i] = (u8)i;
	} else {
		u8 rank[BDS_MAX_MEMBERS];

		bds_order_slots(l->group_size, nr_groups, NULL, (u32)n,
				l->order, rank);
	}
	for (i = 0; i < n; i++)
		l->pos_of[l->order[i]] = (u8)i;
	for (i = 0; i <= n; i++)
		l->first[i] = (u16)i;
	l->nr_slots = (u32)n;
	l->slot = NULL;
	l->slot_of = NULL;
	return BDS_OK;
}

enum bds_geom_err bds_weights_check(const struct bds_layout *l,
				    const u32 *weight, u32 *nr_slots)
{
	u32 m, w = 0;

	for (m = 0; m < l->nr_members; m++) {
		if (!weight[m] || weight[m] > BDS_MAX_WEIGHT)
			return BDS_ERR_WEIGHT_RANGE;
		w += weight[m];
	}
	if (w > BDS_MAX_SLOTS)
		return BDS_ERR_WEIGHT_SUM;
	if (w != l->nr_members && l->mode != BDS_LAYOUT_INTERLEAVE)
		return BDS_ERR_WEIGHT_SEQUENTIAL;
	if (((u64)l->chunk << 9) * w > BDS_MAX_IO_BYTES)
		return BDS_ERR_CYCLE_TOO_BIG;
	*nr_slots = w;
	return BDS_OK;
}

void bds_layout_weigh(struct bds_layout *l, const u32 *weight, u32 nr_slots,
		      struct bds_slot *slot, u16 *slot_of)
{
	u8 *member = (u8 *)slot_of;		/* scratch, W bytes */
	u8 *rank = (u8 *)slot_of + nr_slots;	/* scratch, W bytes */
	u32 m, s;

	if (nr_slots == l->nr_members)
		return;
	for (m = 0; m < l->nr_members; m++)
		l->first[m + 1] = (u16)(l->first[m] + weight[m]);
	bds_order_slots(l->group_size, l->nr_groups, weight, nr_slots,
			member, rank);
	for (s = 0; s < nr_slots; s++) {
		slot[s].member = member[s];
		slot[s].rank = rank[s];
	}
	for (s = 0; s < nr_slots; s++)
		slot_of[l->first[slot[s].member] + slot[s].rank] = (u16)s;
	l->nr_slots = nr_slots;
	l->slot = slot;
	l->slot_of = slot_of;
}

u32 bds_discard_limit(const struct bds_layout *l, u32 member_max)
{
	u32 m, rem, wmax = 0;
	u64 cycles;

	for (m = 0; m < l->nr_members; m++)
		if (bds_weight(l, m) > wmax)
			wmax = bds_weight(l, m);
	cycles = bds_div(member_max, l->chunk * wmax, &rem);
	if (cycles > 0xffffffffU / bds_cycle(l))
		cycles = 0xffffffffU / bds_cycle(l);
	cycles *= bds_cycle(l);
	return cycles > member_max ? (u32)cycles : member_max;
}
