/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bds-stripe restripe arithmetic: a pair of geometries, the old one a
 * volume was made with and the new one it is being restriped to, and
 * what the copier and the target need to know about them (see
 * Documentation/bds-stripe-restripe.rst).
 *
 * Shared by the kernel target (mapping through both geometries), bdsadm
 * (planning and copying) and the unit tests (a model of the copy order),
 * like layout.h: nothing in here allocates, sleeps, uses floating point
 * or divides 64-bit numbers but through bds_div().  The mapping of a
 * sector is inline here; everything else is in reshape.c.
 *
 * Terms:
 *   geometry  a layout (chunk, groups, mode, weights), its length in
 *             stripe units, its members and each one's data offset
 *   table     the members of the new geometry, in its table order: the
 *             member table of the labels.  The old geometry's members
 *             are some of them (a restripe never removes a member).
 *   U         the old geometry's stripe units: the volume's length, in
 *             units, until the restripe ends
 *   cnt(G, i, x)  how many of the units [0, x) lie on member i of G.
 *             Member i's units lie back to back on it, so the units
 *             [0, x) of i take the member sectors
 *             [offset(i), offset(i) + chunk * cnt(G, i, x)).
 *   checkpoint  a unit number a, durable in every member's label:
 *             forward, units [0, a) are in the new geometry and [a, U)
 *             in the old one; backward, [a, U) are in the new geometry
 *             and [0, a) in the old one.
 *   frontier  the furthest unit b that the copier may bring into the
 *             new geometry while the checkpoint is still a, without
 *             writing over a sector that holds old data of a unit not
 *             yet behind the checkpoint.  Forward, for every member m
 *             of both geometries:
 *               new_off(m) + chunk * cnt(new, m, b)
 *                 <= old_off(m) + chunk * cnt(old, m, a)            (F)
 *             backward:
 *               old_off(m) + chunk * cnt(old, m, a)
 *                 <= new_off(m) + chunk * cnt(new, m, b)            (B)
 */
#ifndef LIBBDS_RESHAPE_H
#define LIBBDS_RESHAPE_H

#include "layout.h"

/* bds_geom.index[] of a table member that is not in the geometry */
#define BDS_GEOM_NONE		0xff

/*
 * The copier's window (S) and the most it copies between two
 * checkpoints (C), by default, in sectors of the volume: 4 MiB and
 * 64 MiB (Documentation/bds-stripe-restripe.rst says why).
 */
#define BDS_RESHAPE_WINDOW_SECTORS	8192
#define BDS_RESHAPE_EVERY_SECTORS	131072

/* One geometry: a layout, its length, and where its members' data lies. */
struct bds_geom {
	/* as bds_layout_init() and bds_layout_weigh() made it */
	struct bds_layout layout;
	u64 units;			/* stripe units: the length / chunk */
	u8 member[BDS_MAX_MEMBERS];	/* geometry member -> table member */
	u8 index[BDS_MAX_MEMBERS];	/* table member -> geometry member */
	u64 offset[BDS_MAX_MEMBERS];	/* geometry member's data, sectors */
	/*
	 * The lowest data offset a restripe may give a geometry member: 0
	 * for the first sector after the primary label; a member whose
	 * backup label lies in front of its data (FRONT_BACKUP) needs
	 * BDS_LABEL_FRONT_DATA.  Zero from bds_geom_init(); the planner
	 * sets it.
	 */
	u64 min_offset[BDS_MAX_MEMBERS];
};

enum bds_reshape_dir {
	BDS_RESHAPE_FORWARD = 0,	/* units in increasing order */
	BDS_RESHAPE_BACKWARD = 1,	/* units in decreasing order */
};

/* A restripe: from the old geometry to the new one, in one direction. */
struct bds_reshape {
	const struct bds_geom *old;
	const struct bds_geom *new;
	enum bds_reshape_dir dir;
};

/* Reasons a geometry pair is refused; see bds_reshape_error(). */
enum bds_reshape_err {
	BDS_RESHAPE_OK = 0,
	BDS_RESHAPE_ERR_DIR,
	BDS_RESHAPE_ERR_CHUNK,
	BDS_RESHAPE_ERR_MEMBERS,
	BDS_RESHAPE_ERR_UNITS,
	BDS_RESHAPE_ERR_SHRINK,
	BDS_RESHAPE_ERR_OFFSET,
	BDS_RESHAPE_ERR_POSITION,
	BDS_RESHAPE_ERR_LAYOUT,
};

/* The text of a refusal: dm's ti->error, the tools' messages. */
const char *bds_reshape_error(enum bds_reshape_err err);

/* The slot arrays of a weighted geometry's layout: the caller's, 4 KiB. */
struct bds_geom_slots {
	struct bds_slot slot[BDS_MAX_SLOTS];
	u16 slot_of[BDS_MAX_SLOTS];
};

struct bds_label;

/*
 * The geometries of a label @l that bds_label_decode() accepted: @g_new,
 * the volume its member table describes (its members in table order,
 * their data offsets, its length from this member's data_sectors), and,
 * when @l has incompat RESHAPE, @g_old, the one the volume is being
 * restriped from (its direction and checkpoint are l->reshape_dir and
 * l->reshape_pos); without RESHAPE @g_old is left all zero.  @s_new and
 * @s_old hold the slot arrays of weighted layouts; they must live as
 * long as the geometries are used.
 */
enum bds_reshape_err bds_reshape_from_label(const struct bds_label *l,
					    struct bds_geom *g_new,
					    struct bds_geom_slots *s_new,
					    struct bds_geom *g_old,
					    struct bds_geom_slots *s_old);

/*
 * Set up geometry @g from layout @l (copied; its slot arrays stay the
 * caller's), its length @units, the table member of each of its members
 * (@member, l->nr_members entries, each below @nr_table, the new
 * geometry's member count, and no two alike) and their data offsets
 * (@offset, sectors).  For the new geometry, @member is 0, 1, 2, ...
 * Returns BDS_RESHAPE_OK, or why the geometry is refused: members
 * (BDS_RESHAPE_ERR_MEMBERS), or a length that is not a nonzero whole
 * number of cycles (BDS_RESHAPE_ERR_UNITS).
 */
enum bds_reshape_err bds_geom_init(struct bds_geom *g,
				   const struct bds_layout *l, u64 units,
				   const u8 *member, const u64 *offset,
				   u32 nr_table);

/*
 * Check the pair of @r: the new geometry's members in table order, the
 * same chunk, a new length at least the old one, and each old member's
 * new data offset at or below its old one (forward) or at or above it
 * (backward), all at or after the primary label (sector 24).
 */
enum bds_reshape_err bds_reshape_check(const struct bds_reshape *r);

/*
 * Do @a and @b describe the same geometry: the same chunk, groups,
 * layout and weights, the same length, and the same table members at
 * the same data offsets, in the same order?
 */
bool bds_geom_same(const struct bds_geom *a, const struct bds_geom *b);

/* cnt(g, i, x): how many of the units [0, x) lie on geometry member @i. */
u64 bds_geom_units_below(const struct bds_geom *g, u32 i, u64 x);

/*
 * The unit number of geometry member @i's unit @k (from 0): the x with
 * cnt(g, i, x) = k that lies on @i.  The inverse of
 * bds_geom_units_below(), for any k (the geometry's pattern of cycles
 * goes on past its length).
 */
u64 bds_geom_unit_of_rank(const struct bds_geom *g, u32 i, u64 k);

/* Geometry member @i's units in the whole geometry: units / W x w_i. */
u64 bds_geom_member_units(const struct bds_geom *g, u32 i);

/*
 * Map volume sector @sector through geometry @g: the table member and
 * the sector on it (data offset included).
 */
static inline void bds_geom_map(const struct bds_geom *g, u64 sector,
				u32 *dev, u64 *psector)
{
	u32 i;
	u64 msector;

	bds_map_sector(&g->layout, sector, &i, &msector);
	*dev = g->member[i];
	*psector = g->offset[i] + msector;
}

/*
 * The inverse of bds_geom_map(): the volume sector at sector @psector of
 * table member @dev, which must be in @g, at or after its data offset.
 */
static inline u64 bds_geom_unmap(const struct bds_geom *g, u32 dev,
				 u64 psector)
{
	u32 i = g->index[dev];

	return bds_unmap_sector(&g->layout, i, psector - g->offset[i]);
}

/*
 * Where table member @dev holds the volume sectors [@start, @end) in
 * geometry @g: the sectors [*pstart, *pend) of the member, data offset
 * included (one range: a member's units lie back to back on it).  False
 * when none of them lie on it, or it is not a member of @g.
 */
static inline bool bds_geom_member_range(const struct bds_geom *g, u64 start,
					 u64 end, u32 dev, u64 *pstart,
					 u64 *pend)
{
	u32 i = g->index[dev];

	if (i == BDS_GEOM_NONE ||
	    !bds_member_range(&g->layout, start, end, i, pstart, pend))
		return false;
	*pstart += g->offset[i];
	*pend += g->offset[i];
	return true;
}

/* The first volume sector of unit @ckpt: where the geometries meet. */
static inline u64 bds_reshape_boundary(const struct bds_reshape *r,
				       u64 ckpt)
{
	return bds_chunk_start(&r->new->layout, ckpt);
}

/*
 * Which geometry volume sector @sector lies in while the checkpoint is
 * @ckpt: forward the new one below the boundary, backward the new one at
 * and above it.  *@left gets how many sectors from @sector on lie in the
 * same geometry (an I/O must be split where it crosses the boundary),
 * ~0 when the rest of the volume does.
 */
static inline const struct bds_geom *
bds_reshape_geom_of(const struct bds_reshape *r, u64 ckpt, u64 sector,
		    u64 *left)
{
	u64 edge = bds_reshape_boundary(r, ckpt);
	bool below = sector < edge, fwd = r->dir == BDS_RESHAPE_FORWARD;

	*left = below ? edge - sector : ~0ULL;
	return below == fwd ? r->new : r->old;
}

/*
 * Does checkpoint @ckpt describe a state the copier can have left: (F)
 * or (B) holds with b = a, so the new data of the units behind the
 * checkpoint lies clear of the old data of those ahead of it?  A label
 * or table whose checkpoint fails this was not written by a restripe.
 */
bool bds_reshape_pos_ok(const struct bds_reshape *r, u64 ckpt);

/*
 * The frontier from checkpoint @a (see the terms above): forward the
 * largest b <= U that (F) allows, backward the smallest b >= 0 that (B)
 * allows; @a itself when no unit may move, or when @a is not a state
 * the copier can have left (bds_reshape_pos_ok()).
 */
u64 bds_reshape_frontier(const struct bds_reshape *r, u64 a);

/* Why a restripe cannot run, for bds_reshape_feasible(). */
enum bds_reshape_block {
	BDS_RESHAPE_RUNS = 0,	/* it can */
	BDS_RESHAPE_ROOM,	/* (F)/(B) stop it: a member needs more room */
	BDS_RESHAPE_FIT,	/* a member's new data runs past its end */
};

/*
 * What bds_reshape_feasible() found.  When the restripe can run, only
 * @checkpoints is set.  When it cannot, @member is the table member that
 * stops it (the first one in the table), and:
 *   ROOM  @at is the checkpoint from which no unit may move; @have is the
 *         room between the member's old and new data offsets, @need the
 *         room (a multiple of the chunk) that would let every
 *         checkpoint of the restripe move on by at least one unit as far
 *         as this member is concerned.  Forward, room below the old data
 *         (a lower new data offset); backward, room above it (a higher
 *         new data offset, so room at the member's end).
 *   FIT   @have is the sectors from the member's new data offset to its
 *         end, @need the sectors of its new data.
 */
struct bds_reshape_need {
	enum bds_reshape_block why;
	u32 member;
	u64 at;
	u64 have;
	u64 need;
	u64 checkpoints;	/* how many checkpoints (F)/(B) forces */
};

/*
 * Can the restripe @r run from its start to its end: does every
 * checkpoint let the copier move on?  Simulates the checkpoints that
 * (F)/(B) force (each one as far as the frontier), O(members) each.
 * @end (may be NULL: not checked) gives, per table member, the sector
 * its new data must end by: its backup label.  Fills in @need.
 */
bool bds_reshape_feasible(const struct bds_reshape *r, const u64 *end,
			  struct bds_reshape_need *need);

/*
 * The room, in sectors, that old member @i (a geometry member of
 * r->old) needs between its old and new data offsets so that (F) or (B)
 * never stops a checkpoint for its sake: the chunk times the largest
 * lead, over every checkpoint a, of the new units of the member that
 * one more unit of progress would need over its old units still
 * protected.  O(lcm(W_old, W_new)) steps, at most about 2^20.
 */
u64 bds_reshape_room_needed(const struct bds_reshape *r, u32 i);

/*
 * Propose the data offsets of new geometry @g_new (its layout, length
 * and members set up; its offsets are written here) for a restripe from
 * @g_old in direction @dir.  @end and @pbs give per table member the
 * sector its data must end by (its backup label) and its physical block
 * size in sectors (a power of 2).  Every offset is a multiple of the
 * chunk and of the member's physical block when it can be (as
 * bds_label_data_offset()), else of 4 KiB and of the block.
 *   Forward: an old member's data moves down as far as it can, to the
 *   first such sector at or after the primary label (sector 24), but
 *   never above its old offset.
 *   Backward: an old member's data moves up as far as its end allows,
 *   never below its old offset.
 *   A member only in the new geometry gets the default data offset,
 *   bds_label_data_offset().
 * If g_new->units is 0 it is set first: the most whole cycles that fit
 * every member, with the offsets proposed forward, or with the old
 * offsets (new members: the default) backward.  It may come out below
 * the old length (refused by bds_reshape_check()).
 */
void bds_reshape_propose(struct bds_geom *g_new, const struct bds_geom *g_old,
			 enum bds_reshape_dir dir, const u64 *end,
			 const u32 *pbs);

/*
 * Plan the new geometry @g_new (layout and members set up) for a
 * restripe from @g_old in direction @dir: the longest length, in whole
 * cycles from the old length up to the most that fits (@end, as for
 * bds_reshape_propose()), for which the offsets bds_reshape_propose()
 * gives make a restripe that can run; sets g_new->units and its offsets.
 * Returns false when no length from the old one up can, with @need from
 * bds_reshape_feasible() at the old length (rounded up to whole new
 * cycles) telling why.  A binary search over the length: O(log) runs of
 * bds_reshape_feasible().
 */
bool bds_reshape_plan(struct bds_geom *g_new, const struct bds_geom *g_old,
		      enum bds_reshape_dir dir, const u64 *end, const u32 *pbs,
		      struct bds_reshape_need *need);

/*
 * As bds_reshape_plan(), at the shortest length only: the old length in
 * whole new cycles.  For a restripe that should leave the members' room
 * where it is (a new layout of the same members: growing by the room
 * below the data would leave none for the next one).
 */
bool bds_reshape_plan_shortest(struct bds_geom *g_new,
			       const struct bds_geom *g_old,
			       enum bds_reshape_dir dir, const u64 *end,
			       const u32 *pbs, struct bds_reshape_need *need);

/*
 * The copier's schedule, in units: it copies windows of @window units
 * (the target holds writes to a window while it is copied) and writes a
 * checkpoint before (F)/(B) would stop it, and at least every @every
 * units.
 */
struct bds_reshape_sched {
	u64 window;
	u64 every;
};

/*
 * The schedule for chunk @chunk from sizes in sectors (0: the default,
 * BDS_RESHAPE_WINDOW_SECTORS and BDS_RESHAPE_EVERY_SECTORS), rounded
 * down to whole units, at least one unit, and @every at least @window.
 */
void bds_reshape_sched_init(struct bds_reshape_sched *s, u32 chunk,
			    u64 window_sectors, u64 every_sectors);

/* The copier's next step: copy units [start, end), then maybe checkpoint. */
struct bds_reshape_step {
	u64 start;
	u64 end;
	bool checkpoint;	/* then write checkpoint @ckpt to every label */
	u64 ckpt;		/* forward @end, backward @start */
};

/*
 * The copier's next step while the durable checkpoint is @ckpt and the
 * units from it to @pos are copied already (forward [ckpt, pos),
 * backward [pos, ckpt)): the next window, at most s->window units, that
 * stays within the frontier of @ckpt and within s->every units of it;
 * and whether a checkpoint follows it (when it reaches either bound, or
 * the end).  Returns false when there is nothing to do: the restripe is
 * done (@ckpt is U forward, 0 backward), or the frontier does not move
 * (not feasible), or @pos is not between @ckpt and that bound.
 */
bool bds_reshape_next(const struct bds_reshape *r,
		      const struct bds_reshape_sched *s, u64 ckpt, u64 pos,
		      struct bds_reshape_step *st);

#endif /* LIBBDS_RESHAPE_H */
