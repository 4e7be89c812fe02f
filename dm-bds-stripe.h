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
typedef __u32 u32;
typedef __u64 u64;
#endif

#define BDS_MAX_MEMBERS		128
#define BDS_MAX_GROUPS		32
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
};

struct bds_layout {
	u32 chunk;		/* stripe unit, sectors */
	u32 nr_members;		/* N */
	u32 nr_groups;
	int chunk_shift;	/* log2(chunk), or -1 if not a power of 2 */
	enum bds_order_mode mode;
	u8 group_size[BDS_MAX_GROUPS];
	u8 group_of[BDS_MAX_MEMBERS];	/* member -> group */
	u8 order[BDS_MAX_MEMBERS];	/* position -> member */
	u8 pos_of[BDS_MAX_MEMBERS];	/* member -> position */
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
 * Interleaved order: the j-th member (from 0) of a group of n_g may take
 * position p (from 0) once (p + 1) * n_g > j * N, and is due by the
 * deadline (j + 1) / n_g (in units of N positions).  Filling positions
 * earliest deadline first keeps every group's running count within one
 * of its fair share at every prefix, hence within two on any window, and
 * makes equal groups strictly round-robin (A0 B0 A1 B1 ...).  Ties go to
 * the lower group, members of a group are taken in table order.  The
 * order is the on-disk format: tests/unit pins it.
 */
static inline void bds_order_interleave(struct bds_layout *l)
{
	u32 next[BDS_MAX_GROUPS] = { 0 };
	u32 first[BDS_MAX_GROUPS];
	u32 n = l->nr_members;
	u32 pos, g, best, m = 0;

	for (g = 0; g < l->nr_groups; g++) {
		first[g] = m;
		m += l->group_size[g];
	}

	for (pos = 0; pos < n; pos++) {
		best = l->nr_groups;
		for (g = 0; g < l->nr_groups; g++) {
			u32 j = next[g], ng = l->group_size[g];

			if (j >= ng || (u64)j * n >= (u64)(pos + 1) * ng)
				continue;	/* exhausted or not yet released */
			/* deadline (j + 1) / ng, earlier wins */
			if (best == l->nr_groups ||
			    (u64)(j + 1) * l->group_size[best] <
			    (u64)(next[best] + 1) * ng)
				best = g;
		}
		/* Some group is always released: sum of next[] == pos. */
		l->order[pos] = (u8)(first[best] + next[best]);
		next[best]++;
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
		bds_order_interleave(l);
	}
	for (i = 0; i < n; i++)
		l->pos_of[l->order[i]] = (u8)i;
	return BDS_OK;
}

/* Stripe width in sectors (fits 32 bits: checked at init). */
static inline u32 bds_width(const struct bds_layout *l)
{
	return l->chunk * l->nr_members;
}

/*
 * The largest discard, in sectors, that the volume can take when each
 * member takes @member_max sectors in one discard: @member_max per member,
 * rounded down to a whole number of stripes, and below 2^32 (queue limits
 * are 32-bit sector counts).  Any range of whole stripes holds the same
 * number of sectors of every member, so no member gets more than it
 * takes.  @member_max itself when that is no smaller: a member that takes
 * less than one stripe unit, or no discards at all (0).
 */
static inline u32 bds_discard_limit(const struct bds_layout *l,
				    u32 member_max)
{
	u64 max = (u64)member_max * l->nr_members;
	u32 lim;

	lim = max > 0xffffffffULL ? 0xffffffffU : (u32)max;
	lim -= lim % bds_width(l);
	return lim > member_max ? lim : member_max;
}

/*
 * The volume length must be a whole number of stripes; each member then
 * holds length / N sectors.  Returns false if it is not.
 */
static inline bool bds_member_len(const struct bds_layout *l, u64 len,
				  u64 *member_len)
{
	u32 rem;
	u64 stripes = bds_div(len, bds_width(l), &rem);

	if (rem || !stripes)
		return false;
	*member_len = stripes * l->chunk;
	return true;
}

/*
 * Map a volume-relative sector to (member index, member-relative
 * sector).  The member's start offset is added by the caller.
 */
static inline void bds_map_sector(const struct bds_layout *l, u64 sector,
				  u32 *member, u64 *msector)
{
	u32 in_chunk, pos;
	u64 chunk_nr = bds_chunk_of(l, sector, &in_chunk);
	u64 stripe = bds_div(chunk_nr, l->nr_members, &pos);

	*member = l->order[pos];
	*msector = bds_chunk_start(l, stripe) + in_chunk;
}

/* The inverse of bds_map_sector(). */
static inline u64 bds_unmap_sector(const struct bds_layout *l, u32 member,
				   u64 msector)
{
	u32 in_chunk;
	u64 stripe = bds_chunk_of(l, msector, &in_chunk);

	return bds_chunk_start(l, stripe * l->nr_members + l->pos_of[member]) +
	       in_chunk;
}

/* Sectors from @sector to the end of its stripe unit. */
static inline u32 bds_chunk_left(const struct bds_layout *l, u64 sector)
{
	u32 in_chunk;

	bds_chunk_of(l, sector, &in_chunk);
	return l->chunk - in_chunk;
}

/*
 * First member-relative sector of @member whose volume sector is at or
 * after @sector (may be the member length, if none is).
 */
static inline u64 bds_member_lower(const struct bds_layout *l, u64 sector,
				   u32 member)
{
	u32 in_chunk, pos, want = l->pos_of[member];
	u64 chunk_nr = bds_chunk_of(l, sector, &in_chunk);
	u64 stripe = bds_div(chunk_nr, l->nr_members, &pos);

	if (pos < want)
		return bds_chunk_start(l, stripe);
	if (pos == want)
		return bds_chunk_start(l, stripe) + in_chunk;
	return bds_chunk_start(l, stripe + 1);
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
 * touches: returns how many, and in *pos0 the position of the first.  A
 * read or write over the range travels as one piece per member it
 * touches: piece i (0 <= i < min(units, N)) goes to member
 * order[(*pos0 + i) mod N] and carries units i, i + N, i + 2N, ... of the
 * range, which lie back to back on that member (bds_member_range() gives
 * where).
 */
static inline u64 bds_span(const struct bds_layout *l, u64 start, u64 end,
			   u32 *pos0)
{
	u32 in_chunk;
	u64 first = bds_chunk_of(l, start, &in_chunk);
	u64 last = bds_chunk_of(l, end - 1, &in_chunk);

	bds_div(first, l->nr_members, pos0);
	return last - first + 1;
}

/* How many of the @units stripe units of a range piece @i carries. */
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
	"Unknown optional argument: accepted are 'layout <interleave|sequential>' and 'volume <uuid>'"
#define BDS_MSG_GROUP_SHORT \
	"Not enough arguments: a group lists fewer members than its #devs says"
#define BDS_MSG_VOLUME_NOVALUE \
	"Optional argument 'volume' needs a value: the volume's UUID"
#define BDS_MSG_VOLUME_BAD \
	"Invalid volume UUID: expected 8-4-4-4-12 hex digits, not all zero"
#define BDS_MSG_BAD_OFFSET \
	"Invalid member offset: not an unsigned decimal number of sectors"

/* What the first pass over a table's words found. */
struct bds_args {
	u64 chunk;
	u32 nr_groups;
	u32 group_size[BDS_MAX_GROUPS];
	enum bds_order_mode mode;
	bool mode_given;
	bool volume_given;		/* "volume <uuid>": check the labels */
	u8 volume_uuid[16];
	unsigned int first_member;	/* argv index of the first member path */
	unsigned int opt_start;		/* argv index of <#opt_args>, or argc */
};

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
		for (i++, d = 0; d < nr; d++, i += 2) {
			if (!bds_parse_u64(argv[i + 1], &offset))
				return BDS_MSG_BAD_OFFSET;
		}
	}
	a->opt_start = i;
	return bds_parse_opt_args(a, argc, argv);
}

#endif /* DM_BDS_STRIPE_H */
