// SPDX-License-Identifier: GPL-2.0
/*
 * bds-stripe restripe arithmetic (see reshape.h and
 * Documentation/bds-stripe-restripe.rst): the checks of a geometry pair,
 * unit counts, the frontier, feasibility, the proposed data offsets and
 * the copier's schedule.
 */
#include "label.h"
#include "reshape.h"

/* The first sector after the primary label: no data offset is lower. */
#define BDS_RESHAPE_MIN_OFFSET	(BDS_LABEL_PRIMARY + BDS_LABEL_SECTORS)

const char *bds_reshape_error(enum bds_reshape_err err)
{
	switch (err) {
	case BDS_RESHAPE_OK:
		return "no error";
	case BDS_RESHAPE_ERR_DIR:
		return "Invalid restripe direction: must be forward or backward";
	case BDS_RESHAPE_ERR_CHUNK:
		return "Restripe changes the chunk size: both geometries must share it";
	case BDS_RESHAPE_ERR_MEMBERS:
		return "Invalid restripe members: old ones must be distinct members of the table";
	case BDS_RESHAPE_ERR_UNITS:
		return "Invalid restripe length: not a nonzero whole number of cycles";
	case BDS_RESHAPE_ERR_SHRINK:
		return "Restripe would shrink the volume: the new geometry is shorter";
	case BDS_RESHAPE_ERR_OFFSET:
		return "Invalid restripe data offsets: wrong way for the direction, or in a label";
	case BDS_RESHAPE_ERR_POSITION:
		return "Invalid restripe checkpoint: beyond the volume, or not a state of the copy";
	case BDS_RESHAPE_ERR_LAYOUT:
		return "Invalid restripe geometry: its layout or weights are refused";
	}
	return "unknown error";
}

enum bds_reshape_err bds_geom_init(struct bds_geom *g,
				   const struct bds_layout *l, u64 units,
				   const u8 *member, const u64 *offset,
				   u32 nr_table)
{
	u32 i, rem;

	g->layout = *l;
	g->units = units;
	memset(g->index, BDS_GEOM_NONE, sizeof(g->index));
	memset(g->member, 0, sizeof(g->member));
	memset(g->offset, 0, sizeof(g->offset));
	memset(g->min_offset, 0, sizeof(g->min_offset));
	if (nr_table > BDS_MAX_MEMBERS || l->nr_members > nr_table)
		return BDS_RESHAPE_ERR_MEMBERS;
	for (i = 0; i < l->nr_members; i++) {
		if (member[i] >= nr_table || g->index[member[i]] != BDS_GEOM_NONE)
			return BDS_RESHAPE_ERR_MEMBERS;
		g->member[i] = member[i];
		g->index[member[i]] = (u8)i;
		g->offset[i] = offset[i];
	}
	bds_div(units, l->nr_slots, &rem);
	if (!units || rem)
		return BDS_RESHAPE_ERR_UNITS;
	return BDS_RESHAPE_OK;
}

/* One geometry of a label: its layout, weighed, then its members. */
static enum bds_reshape_err
bds_geom_of_label(struct bds_geom *g, struct bds_geom_slots *s, u64 chunk,
		  const u32 *groups, u32 nr_groups, u32 mode, const u32 *weight,
		  u64 member_len, const u8 *member, const u64 *offset,
		  u32 nr_table)
{
	struct bds_layout l;
	u32 w, rem;
	u64 cycles;

	if (bds_layout_init(&l, chunk, groups, nr_groups,
			    (enum bds_order_mode)mode) ||
	    bds_weights_check(&l, weight, &w))
		return BDS_RESHAPE_ERR_LAYOUT;
	bds_layout_weigh(&l, weight, w, s->slot, s->slot_of);
	cycles = bds_div(member_len, l.chunk, &rem);
	return bds_geom_init(g, &l, cycles * w, member, offset, nr_table);
}

enum bds_reshape_err bds_reshape_from_label(const struct bds_label *l,
					    struct bds_geom *g_new,
					    struct bds_geom_slots *s_new,
					    struct bds_geom *g_old,
					    struct bds_geom_slots *s_old)
{
	u8 id[BDS_MAX_MEMBERS];
	u32 i, rem;
	enum bds_reshape_err err;

	memset(g_old, 0, sizeof(*g_old));
	for (i = 0; i < BDS_MAX_MEMBERS; i++)
		id[i] = (u8)i;
	/* a member of weight 1 holds data_sectors / this member's weight */
	err = bds_geom_of_label(g_new, s_new, l->chunk_sectors, l->group_size,
				l->nr_groups, l->layout, l->weight,
				bds_div(l->data_sectors,
					l->weight[l->member_index], &rem),
				id, l->member_offset, l->nr_members);
	if (err || !(l->incompat & BDS_LABEL_INCOMPAT_RESHAPE))
		return err;
	return bds_geom_of_label(g_old, s_old, l->chunk_sectors,
				 l->old_group_size, l->old_nr_groups,
				 l->old_layout, l->old_weight,
				 l->old_member_len, l->old_member,
				 l->old_offset, l->nr_members);
}

enum bds_reshape_err bds_reshape_check(const struct bds_reshape *r)
{
	const struct bds_geom *o = r->old, *n = r->new;
	u32 i, j;

	if (r->dir != BDS_RESHAPE_FORWARD && r->dir != BDS_RESHAPE_BACKWARD)
		return BDS_RESHAPE_ERR_DIR;
	if (o->layout.chunk != n->layout.chunk)
		return BDS_RESHAPE_ERR_CHUNK;
	for (j = 0; j < n->layout.nr_members; j++)
		if (n->member[j] != j)
			return BDS_RESHAPE_ERR_MEMBERS;
	for (i = 0; i < o->layout.nr_members; i++)
		if (o->member[i] >= n->layout.nr_members)
			return BDS_RESHAPE_ERR_MEMBERS;
	if (n->units < o->units)
		return BDS_RESHAPE_ERR_SHRINK;
	for (j = 0; j < n->layout.nr_members; j++)
		if (n->offset[j] < BDS_RESHAPE_MIN_OFFSET ||
		    n->offset[j] < n->min_offset[j])
			return BDS_RESHAPE_ERR_OFFSET;
	for (i = 0; i < o->layout.nr_members; i++) {
		u64 was = o->offset[i], now = n->offset[o->member[i]];

		if (was < BDS_RESHAPE_MIN_OFFSET ||
		    (r->dir == BDS_RESHAPE_FORWARD ? now > was : now < was))
			return BDS_RESHAPE_ERR_OFFSET;
	}
	return BDS_RESHAPE_OK;
}

bool bds_geom_same(const struct bds_geom *a, const struct bds_geom *b)
{
	const struct bds_layout *la = &a->layout, *lb = &b->layout;
	u32 g, i;

	if (la->chunk != lb->chunk || la->nr_members != lb->nr_members ||
	    la->nr_groups != lb->nr_groups || la->mode != lb->mode ||
	    la->nr_slots != lb->nr_slots || a->units != b->units)
		return false;
	for (g = 0; g < la->nr_groups; g++)
		if (la->group_size[g] != lb->group_size[g])
			return false;
	for (i = 0; i < la->nr_members; i++)
		if (bds_weight(la, i) != bds_weight(lb, i) ||
		    a->member[i] != b->member[i] || a->offset[i] != b->offset[i])
			return false;
	return true;
}

u64 bds_geom_units_below(const struct bds_geom *g, u32 i, u64 x)
{
	const struct bds_layout *l = &g->layout;
	u32 s;
	u64 cycle = bds_div(x, l->nr_slots, &s);

	/* whole cycles, then i's slots of the last cycle before slot s */
	return cycle * bds_weight(l, i) + bds_slots_before(l, i, s);
}

u64 bds_geom_unit_of_rank(const struct bds_geom *g, u32 i, u64 k)
{
	const struct bds_layout *l = &g->layout;
	u32 r;
	u64 cycle = bds_div(k, bds_weight(l, i), &r);

	return cycle * l->nr_slots + bds_member_slot(l, i, r);
}

u64 bds_geom_member_units(const struct bds_geom *g, u32 i)
{
	u32 rem;

	return bds_div(g->units, g->layout.nr_slots, &rem) *
	       bds_weight(&g->layout, i);
}

/*
 * Old member @i's room: the whole units between its old and new data
 * offsets, below the old data (forward) or above it (backward).
 * bds_reshape_check() made sure the difference has the right sign.
 */
static u64 bds_reshape_room(const struct bds_reshape *r, u32 i)
{
	u64 was = r->old->offset[i], now = r->new->offset[r->old->member[i]];
	u32 rem;

	if (r->dir == BDS_RESHAPE_FORWARD)
		return now <= was ? bds_div(was - now, r->old->layout.chunk, &rem) : 0;
	return now >= was ? bds_div(now - was, r->old->layout.chunk, &rem) : 0;
}

/*
 * Old member @i's own frontier from checkpoint @a.  Forward, (F) with K
 * = room + cnt(old, i, a) is cnt(new, j, b) <= K: b up to the unit of
 * j's rank K, which has exactly K of j's units before it.  Backward, (B)
 * with J = cnt(old, i, a) - room is cnt(new, j, b) >= J: b down to one
 * past j's unit of rank J - 1.  Where the region that (F) or (B)
 * protects from the other is empty (forward: no old data of i left at
 * or after a; backward: no new data of j at or after b), there is
 * nothing to overlap: then the member does not limit b.  Returns @a when
 * @a itself breaks the condition.
 */
static u64 bds_reshape_member_frontier(const struct bds_reshape *r, u32 i,
				       u64 a)
{
	const struct bds_geom *o = r->old, *n = r->new;
	u32 j = o->member[i];
	u64 room = bds_reshape_room(r, i), units = o->units;
	u64 held = bds_geom_units_below(o, i, a), k, all, b;

	if (r->dir == BDS_RESHAPE_FORWARD) {
		k = room + held;
		/* nothing left to protect, or K covers all of j's units */
		if (held == bds_geom_units_below(o, i, units) ||
		    k >= bds_geom_units_below(n, j, units))
			return units;
		b = bds_geom_unit_of_rank(n, j, k);
		return b < a ? a : b;
	}
	if (held <= room)
		return 0;
	/* b past j's last new unit below U: no new data of j to place */
	all = bds_geom_units_below(n, j, units);
	b = all ? bds_geom_unit_of_rank(n, j, all - 1) + 1 : 0;
	/* j's units in [b, a) must be at most cnt(new, j, a) - J */
	if (held - room <= bds_geom_units_below(n, j, a)) {
		k = bds_geom_unit_of_rank(n, j, held - room - 1) + 1;
		if (k < b)
			b = k;
	}
	return b > a ? a : b;
}

u64 bds_reshape_frontier(const struct bds_reshape *r, u64 a)
{
	const struct bds_geom *o = r->old;
	bool fwd = r->dir == BDS_RESHAPE_FORWARD;
	u64 b = fwd ? o->units : 0, f;
	u32 i;

	if (a > o->units)
		return a;
	for (i = 0; i < o->layout.nr_members; i++) {
		f = bds_reshape_member_frontier(r, i, a);
		if (fwd ? f < b : f > b)
			b = f;
	}
	return b;
}

bool bds_reshape_pos_ok(const struct bds_reshape *r, u64 ckpt)
{
	const struct bds_geom *o = r->old, *n = r->new;
	u64 room, held, moved, units = o->units;
	u32 i, j;

	if (ckpt > units)
		return false;
	for (i = 0; i < o->layout.nr_members; i++) {
		j = o->member[i];
		room = bds_reshape_room(r, i);
		held = bds_geom_units_below(o, i, ckpt);
		moved = bds_geom_units_below(n, j, ckpt);
		/* as bds_reshape_member_frontier(): empty regions cannot meet */
		if (r->dir == BDS_RESHAPE_FORWARD ? moved > room + held &&
		    held < bds_geom_units_below(o, i, units) :
		    held > room + moved &&
		    moved < bds_geom_units_below(n, j, units))
			return false;
	}
	return true;
}

/*
 * The lead that old member @i's progress from checkpoint x + 1 to x
 * (backward) or from x to x + 1 (forward) needs at x, in units: forward
 * cnt(new, j, x + 1) - cnt(old, i, x), backward cnt(old, i, x + 1) -
 * cnt(new, j, x); 0 when negative, or when the region it protects is
 * empty (as in bds_reshape_member_frontier()).
 */
static u64 bds_reshape_lead(const struct bds_reshape *r, u32 i, u64 x)
{
	u32 j = r->old->member[i];
	u64 o, n, units = r->old->units;

	if (r->dir == BDS_RESHAPE_FORWARD) {
		n = bds_geom_units_below(r->new, j, x + 1);
		o = bds_geom_units_below(r->old, i, x);
		if (o == bds_geom_units_below(r->old, i, units))
			return 0;
		return n > o ? n - o : 0;
	}
	o = bds_geom_units_below(r->old, i, x + 1);
	n = bds_geom_units_below(r->new, j, x);
	if (n == bds_geom_units_below(r->new, j, units))
		return 0;
	return o > n ? o - n : 0;
}

static u32 bds_gcd(u32 a, u32 b)
{
	while (b) {
		u32 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * The lead of bds_reshape_lead() changes by the same amount every
 * P = lcm(W_old, W_new) units (cycles of both geometries end there), so
 * its largest value over [0, U) is in the first P units (when it does
 * not grow) or in the last P (when it does), but for the last units
 * where it is 0 for want of anything to protect (less than one old
 * cycle, and P is whole old cycles): the first P units and the last 2P
 * are looked at.
 */
u64 bds_reshape_room_needed(const struct bds_reshape *r, u32 i)
{
	u32 wo = r->old->layout.nr_slots, wn = r->new->layout.nr_slots;
	u64 period = (u64)(wo / bds_gcd(wo, wn)) * wn;
	u64 units = r->old->units, x, most = 0, lead;

	for (x = 0; x < units && x < period; x++) {
		lead = bds_reshape_lead(r, i, x);
		if (lead > most)
			most = lead;
	}
	for (x = units > 2 * period ? units - 2 * period : 0; x < units; x++) {
		lead = bds_reshape_lead(r, i, x);
		if (lead > most)
			most = lead;
	}
	return most * r->old->layout.chunk;
}

/* The first old member (in table order) whose own frontier is @a. */
static u32 bds_reshape_blocker(const struct bds_reshape *r, u64 a)
{
	const struct bds_geom *o = r->old;
	u32 j, i;

	for (j = 0; j < r->new->layout.nr_members; j++) {
		i = o->index[j];
		if (i != BDS_GEOM_NONE &&
		    bds_reshape_member_frontier(r, i, a) == a)
			return i;
	}
	return 0;
}

bool bds_reshape_feasible(const struct bds_reshape *r, const u64 *end,
			  struct bds_reshape_need *need)
{
	const struct bds_geom *o = r->old, *n = r->new;
	bool fwd = r->dir == BDS_RESHAPE_FORWARD;
	u64 a = fwd ? 0 : o->units, b, data;
	u32 i, j;

	memset(need, 0, sizeof(*need));
	for (j = 0; end && j < n->layout.nr_members; j++) {
		data = bds_geom_member_units(n, j) * n->layout.chunk;
		if (n->offset[j] > end[j] || data > end[j] - n->offset[j]) {
			need->why = BDS_RESHAPE_FIT;
			need->member = j;
			need->have = n->offset[j] < end[j] ?
				     end[j] - n->offset[j] : 0;
			need->need = data;
			return false;
		}
	}
	while (fwd ? a < o->units : a > 0) {
		b = bds_reshape_frontier(r, a);
		if (b == a) {
			i = bds_reshape_blocker(r, a);
			need->why = BDS_RESHAPE_ROOM;
			need->member = o->member[i];
			need->at = a;
			need->have = fwd ? o->offset[i] - n->offset[o->member[i]] :
				     n->offset[o->member[i]] - o->offset[i];
			need->need = bds_reshape_room_needed(r, i);
			return false;
		}
		need->checkpoints++;
		a = b;
	}
	return true;
}

/*
 * The first sector at or after @from that is a multiple of @align and of
 * @pbs (a power of 2), as bds_label_data_offset() looks for it.
 */
static u64 bds_align_up(u64 from, u32 align, u32 pbs)
{
	u32 rem;
	u64 off = from;

	bds_div(off, align, &rem);
	if (rem)
		off += align - rem;
	while (pbs > 1 && (off & (pbs - 1)))
		off += align;
	return off;
}

/* The last such sector at or before @to, or 0 when there is none. */
static u64 bds_align_down(u64 to, u32 align, u32 pbs)
{
	u32 rem;
	u64 off = to;

	bds_div(off, align, &rem);
	off -= rem;
	while (pbs > 1 && (off & (pbs - 1)) && off >= align)
		off -= align;
	return off & (pbs - 1) ? 0 : off;
}

/*
 * Forward: old member data as low as it can go, not below @least (or the
 * primary label), but not above @was.
 */
static u64 bds_propose_down(u64 was, u64 least, u32 chunk, u32 pbs)
{
	u64 low = least > BDS_RESHAPE_MIN_OFFSET ? least :
						   BDS_RESHAPE_MIN_OFFSET;
	u64 off = bds_align_up(low, chunk, pbs);

	/* on the chunk's grid if that leaves room for a unit at least */
	if (off < was && was - off >= chunk)
		return off;
	off = bds_align_up(low, BDS_CHUNK_ALIGN, pbs);
	return off <= was ? off : was;
}

/* Backward: as high as @top allows, but not below @was. */
static u64 bds_propose_up(u64 was, u64 top, u32 chunk, u32 pbs)
{
	u64 off = bds_align_down(top, chunk, pbs);

	if (off >= was && off - was >= chunk)
		return off;
	off = bds_align_down(top, BDS_CHUNK_ALIGN, pbs);
	return off >= was ? off : was;
}

/* The most whole cycles of @g that fit every member below its @end. */
static u64 bds_fit_units(const struct bds_geom *g, const u64 *end)
{
	const struct bds_layout *l = &g->layout;
	u64 cycles = ~0ULL, c;
	u32 j, rem;

	for (j = 0; j < l->nr_members; j++) {
		if (end[j] <= g->offset[j])
			return 0;
		c = bds_div(bds_div(end[j] - g->offset[j], l->chunk, &rem),
			    bds_weight(l, j), &rem);
		if (c < cycles)
			cycles = c;
	}
	return cycles * l->nr_slots;
}

void bds_reshape_propose(struct bds_geom *g_new, const struct bds_geom *g_old,
			 enum bds_reshape_dir dir, const u64 *end,
			 const u32 *pbs)
{
	const struct bds_layout *l = &g_new->layout;
	u32 chunk = l->chunk, j, i, b;
	u64 data;

	for (j = 0; j < l->nr_members; j++) {
		i = g_old->index[j];
		b = pbs[j] ? pbs[j] : 1;
		if (i == BDS_GEOM_NONE)
			g_new->offset[j] = bds_label_data_offset(chunk, b);
		else if (dir == BDS_RESHAPE_FORWARD)
			g_new->offset[j] = bds_propose_down(g_old->offset[i],
							    g_new->min_offset[j],
							    chunk, b);
		else
			g_new->offset[j] = g_old->offset[i];
	}
	if (!g_new->units)
		g_new->units = bds_fit_units(g_new, end);
	if (dir == BDS_RESHAPE_FORWARD)
		return;
	for (j = 0; j < l->nr_members; j++) {
		i = g_old->index[j];
		data = bds_geom_member_units(g_new, j) * chunk;
		if (i != BDS_GEOM_NONE && data <= end[j])
			g_new->offset[j] = bds_propose_up(g_old->offset[i],
							  end[j] - data, chunk,
							  pbs[j] ? pbs[j] : 1);
	}
}

/* Propose for length @units and check the restripe can run. */
static bool bds_reshape_try(struct bds_geom *g_new, const struct bds_geom *g_old,
			    enum bds_reshape_dir dir, const u64 *end,
			    const u32 *pbs, u64 units,
			    struct bds_reshape_need *need)
{
	struct bds_reshape r = { .old = g_old, .new = g_new, .dir = dir };

	g_new->units = units;
	bds_reshape_propose(g_new, g_old, dir, end, pbs);
	if (bds_reshape_check(&r)) {
		memset(need, 0, sizeof(*need));
		need->why = BDS_RESHAPE_FIT;
		return false;
	}
	return bds_reshape_feasible(&r, end, need);
}

bool bds_reshape_plan(struct bds_geom *g_new, const struct bds_geom *g_old,
		      enum bds_reshape_dir dir, const u64 *end, const u32 *pbs,
		      struct bds_reshape_need *need)
{
	u32 w = g_new->layout.nr_slots, rem;
	u64 lo, hi, mid;
	struct bds_reshape_need spare;

	/* the shortest: the old length in whole new cycles */
	lo = bds_div(g_old->units, w, &rem) + !!rem;
	if (!bds_reshape_try(g_new, g_old, dir, end, pbs, lo * w, need))
		return false;
	/* the longest: what fits with the offsets proposed for it */
	g_new->units = 0;
	bds_reshape_propose(g_new, g_old, dir, end, pbs);
	hi = bds_div(g_new->units, w, &rem);
	while (lo < hi) {
		mid = lo + bds_div(hi - lo + 1, 2, &rem);
		if (bds_reshape_try(g_new, g_old, dir, end, pbs, mid * w, &spare))
			lo = mid;
		else
			hi = mid - 1;
	}
	return bds_reshape_try(g_new, g_old, dir, end, pbs, lo * w, need);
}

bool bds_reshape_plan_shortest(struct bds_geom *g_new,
			       const struct bds_geom *g_old,
			       enum bds_reshape_dir dir, const u64 *end,
			       const u32 *pbs, struct bds_reshape_need *need)
{
	u32 w = g_new->layout.nr_slots, rem;
	u64 cycles = bds_div(g_old->units, w, &rem) + !!rem;

	return bds_reshape_try(g_new, g_old, dir, end, pbs, cycles * w, need);
}

void bds_reshape_sched_init(struct bds_reshape_sched *s, u32 chunk,
			    u64 window_sectors, u64 every_sectors)
{
	u32 rem;

	s->window = bds_div(window_sectors ? window_sectors :
			    BDS_RESHAPE_WINDOW_SECTORS, chunk, &rem);
	s->every = bds_div(every_sectors ? every_sectors :
			   BDS_RESHAPE_EVERY_SECTORS, chunk, &rem);
	if (!s->window)
		s->window = 1;
	if (s->every < s->window)
		s->every = s->window;
}

bool bds_reshape_next(const struct bds_reshape *r,
		      const struct bds_reshape_sched *s, u64 ckpt, u64 pos,
		      struct bds_reshape_step *st)
{
	u64 units = r->old->units, f, bound;

	memset(st, 0, sizeof(*st));
	if (ckpt > units)
		return false;
	f = bds_reshape_frontier(r, ckpt);
	if (f == ckpt)
		return false;
	if (r->dir == BDS_RESHAPE_FORWARD) {
		bound = units - ckpt > s->every ? ckpt + s->every : units;
		if (f < bound)
			bound = f;
		if (pos < ckpt || pos > bound)
			return false;
		st->start = pos;
		st->end = bound - pos > s->window ? pos + s->window : bound;
		st->checkpoint = st->end == bound;
		st->ckpt = st->end;
		return true;
	}
	bound = ckpt > s->every ? ckpt - s->every : 0;
	if (f > bound)
		bound = f;
	if (pos > ckpt || pos < bound)
		return false;
	st->end = pos;
	st->start = pos - bound > s->window ? pos - s->window : bound;
	st->checkpoint = st->start == bound;
	st->ckpt = st->start;
	return true;
}
