/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bds-stripe layout arithmetic (libbds/layout.c for what runs when a
 * table is loaded; the mapping of a sector, on the hot path, is inline
 * here).
 *
 * Shared by the kernel target (dm-bds-stripe.c), the userspace tools and
 * the unit tests, so that all of them place every sector by the very
 * same code.  Nothing in here allocates, sleeps or touches a kernel
 * object.
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
#ifndef LIBBDS_LAYOUT_H
#define LIBBDS_LAYOUT_H

#include "compat.h"

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

/* The text of a refusal: dm's ti->error, the tools' messages. */
const char *bds_geom_error(enum bds_geom_err err);

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
 * format: tests/libbds pins it, with and without weights.
 *
 * @weight is NULL for all weights 1; @nr_slots is W; @member and @rank
 * get the W slots.  Some group, and some member of it, is always
 * released: the counts taken so far add up to the slots filled.
 */
void bds_order_slots(const u8 *group_size, u32 nr_groups, const u32 *weight,
		     u32 nr_slots, u8 *member, u8 *rank);

/*
 * Set up a layout from the stripe unit and the group sizes (members per
 * controller, in table order).  Returns BDS_OK or the reason the
 * geometry is refused.
 */
enum bds_geom_err
bds_layout_init(struct bds_layout *l, u64 chunk, const u32 *group_sizes,
		u32 nr_groups, enum bds_order_mode mode);

/*
 * Check the weights @weight (one per member, table order) for layout @l,
 * made by bds_layout_init(): each 1..BDS_MAX_WEIGHT, their sum W at most
 * BDS_MAX_SLOTS, only with the interleaved layout (unless all are 1), and
 * a cycle of W stripe units within 32 bits of bytes.  Sets *@nr_slots to
 * W; W equal to N means every weight is 1, which is the layout as it is.
 */
enum bds_geom_err bds_weights_check(const struct bds_layout *l,
				    const u32 *weight, u32 *nr_slots);

/*
 * Give layout @l the weights @weight, which bds_weights_check() accepted
 * with *nr_slots = W.  @slot and @slot_of are the caller's arrays of W
 * entries each; they must live as long as the layout is used.  Weights
 * that are all 1 leave the layout as it is (and the arrays unused).
 */
void bds_layout_weigh(struct bds_layout *l, const u32 *weight, u32 nr_slots,
		      struct bds_slot *slot, u16 *slot_of);

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
u32 bds_discard_limit(const struct bds_layout *l, u32 member_max);

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

#endif /* LIBBDS_LAYOUT_H */
