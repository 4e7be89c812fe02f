/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bds-stripe layout arithmetic.
 *
 * Pure C shared by the kernel target (dm-bds-stripe.c), the userspace
 * tools and the unit tests, so that all of them place every sector by
 * the very same code.  Nothing in here allocates, sleeps or touches a
 * kernel object.
 *
 * Terms (see Documentation/bds-stripe.rst):
 *   chunk     stripe unit, in 512-byte sectors
 *   N         number of members (disks)
 *   position  slot 0..N-1 within one stripe; stripe unit k of the volume
 *             lands on position k mod N
 *   order     maps each position to a member index (table order)
 *   weight    w_m, 1..255 stripe units of member m per cycle (default 1)
 *   W         sum of the weights: stripe units per cycle (N by default)
 *   slot      0..W-1 within one cycle; stripe unit k of the volume lands
 *             on slot k mod W, on member slot_member(s), as that member's
 *             unit (k div W) * w_m + rank(s), where rank(s) counts the
 *             earlier slots of the cycle that are the same member's
 *
 * With all weights 1 a cycle is a stripe, slots are positions, every rank
 * is 0 and each member's unit is k div N: the layout of every volume made
 * before weights existed, sector for sector.
 */
#ifndef DM_BDS_STRIPE_H
#define DM_BDS_STRIPE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/math64.h>
#include <linux/string.h>
#else
#include <stddef.h>
#include <strings.h>
#include <stdbool.h>
#include <linux/types.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
#endif

#define BDS_MAX_MEMBERS		128
#define BDS_MAX_GROUPS		32
#define BDS_MAX_WEIGHT		255	/* stripe units of one member per cycle */
#define BDS_MAX_SLOTS		1024	/* W, the sum of the weights */
/* The stripe unit must be a whole number of 4 KiB blocks. */
#define BDS_CHUNK_ALIGN		8
/* io_min, io_opt and chunk_sectors are 32-bit byte/sector counts. */
#define BDS_MAX_IO_BYTES	0xffffffffULL

enum bds_order_mode {
	BDS_LAYOUT_INTERLEAVE = 0,	/* default: spread controllers */
	BDS_LAYOUT_SEQUENTIAL = 1,	/* table order, as dm "striped" */
};

/* Reasons a geometry is refused; see bds_geom_error(). */
enum bds_geom_err {
	BDS_OK = 0,
	BDS_ERR_CHUNK_ZERO,
	BDS_ERR_CHUNK_ALIGN,
	BDS_ERR_CHUNK_TOO_BIG,
	BDS_ERR_NO_GROUPS,
	BDS_ERR_TOO_MANY_GROUPS,
	BDS_ERR_EMPTY_GROUP,
	BDS_ERR_TOO_MANY_MEMBERS,
	BDS_ERR_WIDTH_TOO_BIG,
	BDS_ERR_BAD_MODE,
	/* Weights (bds_weights_check()); appended, the values above stay. */
	BDS_ERR_WEIGHT_RANGE,
	BDS_ERR_WEIGHT_SUM,
	BDS_ERR_WEIGHT_SEQUENTIAL,
	BDS_ERR_CYCLE_TOO_BIG,
};

/* Slot s of a weighted cycle: its member, and the member's unit within. */
struct bds_slot {
	u8 member;		/* table order */
	u8 rank;		/* earlier slots of the cycle on that member */
};

struct bds_layout {
	u32 chunk;		/* stripe unit, sectors */
	u32 nr_members;		/* N */
	u32 nr_groups;
	int chunk_shift;	/* log2(chunk), or -1 if not a power of 2 */
	enum bds_order_mode mode;
	u8 group_size[BDS_MAX_GROUPS];
	u8 group_of[BDS_MAX_MEMBERS];	/* member -> group */
	u8 order[BDS_MAX_MEMBERS];	/* position -> member, unweighted */
	u8 pos_of[BDS_MAX_MEMBERS];	/* member -> position, unweighted */
	u32 nr_slots;			/* W: stripe units per cycle */
	/* member m's weight is first[m + 1] - first[m]; first[0] = 0 */
	u16 first[BDS_MAX_MEMBERS + 1];
	/*
	 * A weighted layout's W slots, and the slot of member m's r-th unit
	 * of a cycle at slot_of[first[m] + r]: arrays of the caller's, for
	 * the table's W (bds_layout_weigh()).  Both NULL when every weight
	 * is 1: then order[] and pos_of[] are the slots.
	 */
	const struct bds_slot *slot;
	const u16 *slot_of;
};

static inline const char *bds_geom_error(enum bds_geom_err err)
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

/* 64-by-32-bit division that 32-bit kernels can do too. */
static inline u64 bds_div(u64 n, u32 d, u32 *rem)
{
#ifdef __KERNEL__
	return div_u64_rem(n, d, rem);
#else
	*rem = (u32)(n % d);
	return n / d;
#endif
}

/* Split a volume-relative sector into stripe unit number and offset. */
static inline u64 bds_chunk_of(const struct bds_layout *l, u64 sector,
			       u32 *in_chunk)
{
	if (l->chunk_shift >= 0) {
		*in_chunk = (u32)(sector & (l->chunk - 1));
		return sector >> l->chunk_shift;
	}
	return bds_div(sector, l->chunk, in_chunk);
}

static inline u64 bds_chunk_start(const struct bds_layout *l, u64 chunk_nr)
{
	if (l->chunk_shift >= 0)
		return chunk_nr << l->chunk_shift;
	return chunk_nr * l->chunk;
}

/*
 * The slot order of an interleaved cycle, in two earliest-deadline-first
 * steps, both of them decided slot by slot:
 *
 * 1. Groups to slots.  Group g, whose members' weights add up to S_g, has
 *    its (j + 1)-th slot released at slot p (from 0) once
 *    (p + 1) * S_g > j * W, and due by the deadline (j + 1) / S_g (in
 *    units of W slots).  The released group with the earliest deadline
 *    takes the slot; ties go to the lower group.  Each group's running
 *    count stays within one slot of its fair share at every prefix of the
 *    cycle, hence within two on any window, and equal groups go strictly
 *    round robin (A B A B ...).
 * 2. Members within the group.  The group's (k + 1)-th slot goes, by the
 *    same rule with S_g in place of W and member weights in place of S_g,
 *    to the member of that group whose next unit is due first; ties go to
 *    table order.
 *
 * With every weight 1, S_g is the group's member count and W is N: step 1
 * is the order of every volume made before weights existed, and step 2
 * takes each group's members in table order.  The order is the on-disk
 * format: tests/unit pins it, with and without weights.
 *
 * @weight is NULL for all weights 1; @nr_slots is W; @member and @rank
 * get the W slots.  Some group, and some member of it, is always
 * released: the counts taken so far add up to the slots filled.
 */
static inline void bds_order_slots(const u8 *group_size, u32 nr_groups,
				   const u32 *weight, u32 nr_slots,
				   u8 *member, u8 *rank)
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

/*
 * Set up a layout from the stripe unit and the group sizes (members per
 * controller, in table order).  Returns BDS_OK or the reason the
 * geometry is refused.
 */
static inline enum bds_geom_err
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

/*
 * Check the weights @weight (one per member, table order) for layout @l,
 * made by bds_layout_init(): each 1..BDS_MAX_WEIGHT, their sum W at most
 * BDS_MAX_SLOTS, only with the interleaved layout (unless all are 1), and
 * a cycle of W stripe units within 32 bits of bytes.  Sets *@nr_slots to
 * W; W equal to N means every weight is 1, which is the layout as it is.
 */
static inline enum bds_geom_err bds_weights_check(const struct bds_layout *l,
						  const u32 *weight,
						  u32 *nr_slots)
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

/*
 * Give layout @l the weights @weight, which bds_weights_check() accepted
 * with *nr_slots = W.  @slot and @slot_of are the caller's arrays of W
 * entries each; they must live as long as the layout is used.  Weights
 * that are all 1 leave the layout as it is (and the arrays unused).
 */
static inline void bds_layout_weigh(struct bds_layout *l, const u32 *weight,
				    u32 nr_slots, struct bds_slot *slot,
				    u16 *slot_of)
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

/* Member @m's weight: its stripe units per cycle. */
static inline u32 bds_weight(const struct bds_layout *l, u32 m)
{
	return (u32)(l->first[m + 1] - l->first[m]);
}

/* The member of slot @s. */
static inline u32 bds_slot_member(const struct bds_layout *l, u32 s)
{
	return l->slot ? l->slot[s].member : l->order[s];
}

/* Member @m's unit number on the member for slot @s of cycle @cycle. */
static inline u64 bds_slot_unit(const struct bds_layout *l, u64 cycle,
				u32 s, u32 m)
{
	if (!l->slot)
		return cycle;	/* weight 1, rank 0 */
	return cycle * bds_weight(l, m) + l->slot[s].rank;
}

/* The slot of member @m's @r-th unit of a cycle (r < its weight). */
static inline u32 bds_member_slot(const struct bds_layout *l, u32 m, u32 r)
{
	return l->slot ? l->slot_of[l->first[m] + r] : l->pos_of[m];
}

/* Stripe width in sectors (fits 32 bits: checked at init). */
static inline u32 bds_width(const struct bds_layout *l)
{
	return l->chunk * l->nr_members;
}

/*
 * A cycle in sectors: W stripe units, one stripe without weights (fits 32
 * bits: checked by bds_layout_init() and bds_weights_check()).
 */
static inline u32 bds_cycle(const struct bds_layout *l)
{
	return l->chunk * l->nr_slots;
}

/*
 * The largest discard, in sectors, that the volume can take when each
 * member takes @member_max sectors in one discard: the most whole cycles
 * that give no member more than @member_max, and below 2^32 (queue limits
 * are 32-bit sector counts).  Any range of c whole cycles, wherever it
 * starts, holds c * w_m stripe units of member m, so the heaviest member
 * decides.  @member_max itself when that is no smaller: a member that
 * takes less than its units of one cycle, or no discards at all (0).
 */
static inline u32 bds_discard_limit(const struct bds_layout *l,
				    u32 member_max)
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

/*
 * The volume length must be a whole number of cycles.  Returns false if
 * it is not; else *member_len is the sectors of a member of weight 1:
 * cycles x chunk, the length of every member without weights.  Member m
 * holds *member_len x w_m (bds_member_sectors()).
 */
static inline bool bds_member_len(const struct bds_layout *l, u64 len,
				  u64 *member_len)
{
	u32 rem;
	u64 cycles = bds_div(len, bds_cycle(l), &rem);

	if (rem || !cycles)
		return false;
	*member_len = cycles * l->chunk;
	return true;
}

/* Member @m's sectors, from bds_member_len()'s @member_len. */
static inline u64 bds_member_sectors(const struct bds_layout *l,
				     u64 member_len, u32 m)
{
	return member_len * bds_weight(l, m);
}

/*
 * Map a volume-relative sector to (member index, member-relative
 * sector).  The member's start offset is added by the caller.
 */
static inline void bds_map_sector(const struct bds_layout *l, u64 sector,
				  u32 *member, u64 *msector)
{
	u32 in_chunk, s;
	u64 chunk_nr = bds_chunk_of(l, sector, &in_chunk);
	u64 cycle = bds_div(chunk_nr, l->nr_slots, &s);

	*member = bds_slot_member(l, s);
	*msector = bds_chunk_start(l, bds_slot_unit(l, cycle, s, *member)) +
		   in_chunk;
}

/* The inverse of bds_map_sector(). */
static inline u64 bds_unmap_sector(const struct bds_layout *l, u32 member,
				   u64 msector)
{
	u32 in_chunk, r;
	u64 unit = bds_chunk_of(l, msector, &in_chunk);
	u64 cycle = bds_div(unit, bds_weight(l, member), &r);

	return bds_chunk_start(l, cycle * l->nr_slots +
			       bds_member_slot(l, member, r)) + in_chunk;
}

/* Sectors from @sector to the end of its stripe unit. */
static inline u32 bds_chunk_left(const struct bds_layout *l, u64 sector)
{
	u32 in_chunk;

	bds_chunk_of(l, sector, &in_chunk);
	return l->chunk - in_chunk;
}

/* How many of member @m's slots of a cycle come before slot @s. */
static inline u32 bds_slots_before(const struct bds_layout *l, u32 m, u32 s)
{
	u32 lo = 0, hi = bds_weight(l, m), mid;

	/* A member's slots rise with its rank: binary search. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (bds_member_slot(l, m, mid) < s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * First member-relative sector of @member whose volume sector is at or
 * after @sector (may be the member length, if none is).
 */
static inline u64 bds_member_lower(const struct bds_layout *l, u64 sector,
				   u32 member)
{
	u32 in_chunk, s, r;
	u64 chunk_nr = bds_chunk_of(l, sector, &in_chunk);
	u64 cycle = bds_div(chunk_nr, l->nr_slots, &s);
	u64 unit;

	if (!l->slot) {
		/* Without weights, the member's one slot a stripe: no search. */
		r = l->pos_of[member];
		if (s < r)
			return bds_chunk_start(l, cycle);
		if (s == r)
			return bds_chunk_start(l, cycle) + in_chunk;
		return bds_chunk_start(l, cycle + 1);
	}
	r = bds_slots_before(l, member, s);
	unit = cycle * bds_weight(l, member) + r;
	if (r < bds_weight(l, member) && bds_member_slot(l, member, r) == s)
		return bds_chunk_start(l, unit) + in_chunk;
	return bds_chunk_start(l, unit);
}

/*
 * The part of the volume range [start, end) that lies on @member is one
 * contiguous member-relative range [*mstart, *mend).  Returns false when
 * the member holds none of it.  Used to split discards, write-zeroes and
 * secure erases into one exact range per member.
 */
static inline bool bds_member_range(const struct bds_layout *l, u64 start,
				    u64 end, u32 member, u64 *mstart,
				    u64 *mend)
{
	*mstart = bds_member_lower(l, start, member);
	*mend = bds_member_lower(l, end, member);
	return *mstart < *mend;
}

/*
 * The stripe units that the volume range [start, end) (start < end)
 * touches: returns how many, and in *pos0 the slot of the first.  A
 * read or write over the range travels as one piece per member it
 * touches, since a member's units of the range lie back to back on it
 * (bds_member_range() gives where).  Without weights, piece i
 * (0 <= i < min(units, N)) goes to member order[(*pos0 + i) mod N] and
 * carries units i, i + N, i + 2N, ... of the range (bds_piece_units()).
 */
static inline u64 bds_span(const struct bds_layout *l, u64 start, u64 end,
			   u32 *pos0)
{
	u32 in_chunk;
	u64 first = bds_chunk_of(l, start, &in_chunk);
	u64 last = bds_chunk_of(l, end - 1, &in_chunk);

	bds_div(first, l->nr_slots, pos0);
	return last - first + 1;
}

/*
 * How many of the @units stripe units of a range piece @i carries, in a
 * layout without weights.
 */
static inline u64 bds_piece_units(const struct bds_layout *l, u64 units,
				  u32 i)
{
	u32 rem;

	if (units <= i)
		return 0;
	return bds_div(units - i - 1, l->nr_members, &rem) + 1;
}

/*
 * Strict unsigned decimal: digits only, no sign, no blank, no leading
 * "0x", no overflow.  The kernel and the tools accept the same words.
 */
static inline bool bds_parse_u64(const char *s, u64 *out)
{
	u64 v = 0;

	if (!s || !*s)
		return false;
	for (; *s; s++) {
		u32 d;

		if (*s < '0' || *s > '9')
			return false;
		d = (u32)(*s - '0');
		if (v > (~0ULL - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/*
 * A UUID as 8-4-4-4-12 hex digits (either case) into 16 bytes; false if
 * malformed or all zero (no volume has the zero UUID).
 */
static inline bool bds_parse_uuid(const char *s, u8 *uuid)
{
	unsigned int i, pos = 0;
	bool zero = true;

	for (i = 0; i < 16; i++) {
		int d, k, v = 0;

		if ((i == 4 || i == 6 || i == 8 || i == 10) && s[pos++] != '-')
			return false;
		for (k = 0; k < 2; k++, pos++) {
			char c = s[pos];

			if (c >= '0' && c <= '9')
				d = c - '0';
			else if (c >= 'a' && c <= 'f')
				d = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				d = c - 'A' + 10;
			else
				return false;
			v = v << 4 | d;
		}
		uuid[i] = (u8)v;
		if (v)
			zero = false;
	}
	return !s[pos] && !zero;
}

/* Refusal reasons too long to stand in the parser's lines. */
#define BDS_MSG_OPT_UNKNOWN \
	"Unknown optional argument: accepted are 'layout <interleave|sequential>', 'volume <uuid>' and 'weights <w0,w1,...>'"
#define BDS_MSG_GROUP_SHORT \
	"Not enough arguments: a group lists fewer members than its #devs says"
#define BDS_MSG_VOLUME_NOVALUE \
	"Optional argument 'volume' needs a value: the volume's UUID"
#define BDS_MSG_VOLUME_BAD \
	"Invalid volume UUID: expected 8-4-4-4-12 hex digits, not all zero"
#define BDS_MSG_BAD_OFFSET \
	"Invalid member offset: not an unsigned decimal number of sectors"
#define BDS_MSG_LEN_WIDTH \
	"Target length is not a multiple of the stripe width (chunk x members)"
#define BDS_MSG_LEN_CYCLE \
	"Target length is not a multiple of the cycle (chunk x sum of weights)"
#define BDS_MSG_WEIGHTS_NOVALUE \
	"Optional argument 'weights' needs a value: one weight per member, comma-separated"
#define BDS_MSG_WEIGHTS_BAD \
	"Invalid weights: expected unsigned decimal numbers separated by single commas"
#define BDS_MSG_WEIGHTS_COUNT \
	"Invalid weights: the list must give exactly one weight per member"

/* What the first pass over a table's words found. */
struct bds_args {
	u64 chunk;
	u32 nr_groups;
	u32 group_size[BDS_MAX_GROUPS];
	enum bds_order_mode mode;
	bool mode_given;
	bool volume_given;		/* "volume <uuid>": check the labels */
	u8 volume_uuid[16];
	bool weights_given;		/* "weights <w0,w1,...>" */
	u32 nr_members;			/* members the groups list */
	u32 weight[BDS_MAX_MEMBERS];	/* table order; 1 when not given */
	unsigned int first_member;	/* argv index of the first member path */
	unsigned int opt_start;		/* argv index of <#opt_args>, or argc */
};

/*
 * "weights" <w0,w1,...>: one decimal number per member, in table order,
 * separated by single commas.  Their range and sum are the geometry's
 * (bds_weights_check()).  The numbers are capped while they are read, so
 * that a huge one is still out of range, never a wrapped small one.
 */
static inline const char *bds_parse_weights(struct bds_args *a, const char *s)
{
	u32 m = 0, v = 0;
	bool digit = false;

	for (;; s++) {
		if (*s >= '0' && *s <= '9') {
			v = v * 10 + (u32)(*s - '0');
			if (v > BDS_MAX_WEIGHT)
				v = BDS_MAX_WEIGHT + 1;
			digit = true;
			continue;
		}
		if ((*s != ',' && *s) || !digit)
			return BDS_MSG_WEIGHTS_BAD;
		if (m == a->nr_members)
			return BDS_MSG_WEIGHTS_COUNT;
		a->weight[m++] = v;
		if (!*s)
			break;
		v = 0;
		digit = false;
	}
	return m == a->nr_members ? NULL : BDS_MSG_WEIGHTS_COUNT;
}

/* <#opt_args> and its words, from argv[a->opt_start] on. */
static inline const char *bds_parse_opt_args(struct bds_args *a,
					     unsigned int argc, char **argv)
{
	unsigned int i = a->opt_start;
	u64 nr;

	if (i == argc)
		return NULL;
	if (!bds_parse_u64(argv[i], &nr))
		return "Invalid number of optional arguments: not an unsigned decimal number";
	if (nr > argc - i - 1)
		return "Not enough optional arguments: fewer words than <#opt_args> says";
	if (nr < argc - i - 1)
		return "Unexpected words after the optional arguments";
	for (i++; i < argc; i++) {
		if (!strcasecmp(argv[i], "weights")) {
			const char *msg;

			if (a->weights_given)
				return "Optional argument 'weights' given more than once";
			if (++i == argc)
				return BDS_MSG_WEIGHTS_NOVALUE;
			msg = bds_parse_weights(a, argv[i]);
			if (msg)
				return msg;
			a->weights_given = true;
			continue;
		}
		if (!strcasecmp(argv[i], "volume")) {
			if (a->volume_given)
				return "Optional argument 'volume' given more than once";
			if (++i == argc)
				return BDS_MSG_VOLUME_NOVALUE;
			if (!bds_parse_uuid(argv[i], a->volume_uuid))
				return BDS_MSG_VOLUME_BAD;
			a->volume_given = true;
			continue;
		}
		if (strcasecmp(argv[i], "layout"))
			return BDS_MSG_OPT_UNKNOWN;
		if (a->mode_given)
			return "Optional argument 'layout' given more than once";
		if (++i == argc)
			return "Optional argument 'layout' needs a value: interleave or sequential";
		if (!strcasecmp(argv[i], "interleave"))
			a->mode = BDS_LAYOUT_INTERLEAVE;
		else if (!strcasecmp(argv[i], "sequential"))
			a->mode = BDS_LAYOUT_SEQUENTIAL;
		else
			return "Invalid layout: accepted values are interleave and sequential";
		a->mode_given = true;
	}
	return NULL;
}

/*
 * Check the shape of a table's words (numbers, counts against the words
 * present, optional arguments) without opening any device: the first
 * pass of the constructor.  Returns NULL, or the reason the table is
 * refused (a static string, as dm's ti->error wants).
 */
static inline const char *bds_parse_table(struct bds_args *a,
					  unsigned int argc, char **argv)
{
	unsigned int i = 2, g, d, total = 0;
	u64 nr, offset;

	*a = (struct bds_args){ .mode = BDS_LAYOUT_INTERLEAVE };
	if (argc < 2)
		return "Not enough arguments: expected <chunk_sectors> <#groups> <group>...";
	if (!bds_parse_u64(argv[0], &a->chunk))
		return "Invalid chunk size: not an unsigned decimal number of sectors";
	if (!bds_parse_u64(argv[1], &nr))
		return "Invalid number of groups: not an unsigned decimal number";
	if (!nr)
		return bds_geom_error(BDS_ERR_NO_GROUPS);
	if (nr > BDS_MAX_GROUPS)
		return bds_geom_error(BDS_ERR_TOO_MANY_GROUPS);
	a->nr_groups = (u32)nr;
	a->first_member = i + 1;

	for (g = 0; g < a->nr_groups; g++) {
		if (i >= argc)
			return "Not enough arguments: fewer groups than <#groups> says";
		if (!bds_parse_u64(argv[i], &nr))
			return "Invalid #devs of a group: not an unsigned decimal number";
		if (!nr)
			return bds_geom_error(BDS_ERR_EMPTY_GROUP);
		if (nr > BDS_MAX_MEMBERS - total)
			return bds_geom_error(BDS_ERR_TOO_MANY_MEMBERS);
		if (nr * 2 > argc - i - 1)
			return BDS_MSG_GROUP_SHORT;
		a->group_size[g] = (u32)nr;
		total += (u32)nr;
		a->nr_members = total;
		for (i++, d = 0; d < nr; d++, i += 2) {
			if (!bds_parse_u64(argv[i + 1], &offset))
				return BDS_MSG_BAD_OFFSET;
		}
	}
	a->opt_start = i;
	for (d = 0; d < total; d++)
		a->weight[d] = 1;
	return bds_parse_opt_args(a, argc, argv);
}

#endif /* DM_BDS_STRIPE_H */
