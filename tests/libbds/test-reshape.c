// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the restripe arithmetic (libbds/reshape.c).
 *
 * Topology: none; pure arithmetic.  Geometries are built here: random
 * ones (1..128 members in 1..32 groups, weights or not, sequential or
 * interleaved), every small pair (1..4 old members, 0..3 added, every
 * weight vector of W <= 8 on both sides), and the grows of issue 34
 * on 1 TiB members.
 *
 *   - cnt() and its inverse against brute force and against the
 *     layout's own member ranges (bds_member_lower(), bds_unmap_sector());
 *   - the frontier against a brute-force search of (F) and (B);
 *   - the two-geometry map: each sector in the geometry the checkpoint
 *     puts it in, split at the boundary, and back (unmap);
 *   - the copy-order model: the copier runs the schedule of
 *     bds_reshape_next() over a model of the members (with a target
 *     that holds, redirects and releases user writes, and two label
 *     copies per member), is cut after every single write (a label or
 *     a copied unit also torn), and restarted from the smallest
 *     (forward) or largest (backward) checkpoint of the labels: no write
 *     lands on old data not yet behind the durable checkpoint, no
 *     acknowledged user write is lost, and the restarted copy ends with
 *     every unit in its new place.  Exhaustive for the small pairs,
 *     random cuts (twice in a row, too) for random larger ones;
 *   - feasibility: the grows of the issue run forward with the default
 *     1 MiB data offset and a 64 KiB unit; a member whose share rises
 *     without room is refused, naming it and the room it needs; the room
 *     bds_reshape_room_needed() names is enough;
 *   - the proposed data offsets and the schedule's bounds; a member's
 *     lowest data offset (min_offset, a backup label in front of its
 *     data) kept by the forward proposal and by bds_reshape_check().
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "libbds/reshape.h"	/* first: the header is self-contained */
#include "libbds/label.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "label-golden.h"
#include "tap.h"

#define U(x) ((unsigned long long)(x))
#define NONE 0xffffffffU
#define CHUNK 8			/* the model's stripe unit: 4 KiB */

/* A geometry whose layout's slot arrays live beside it: never copied. */
struct tgeom {
	struct bds_geom g;
	struct bds_slot slot[BDS_MAX_SLOTS];
	u16 slot_of[BDS_MAX_SLOTS];
};

/*
 * Build @t: @n members in @nr_groups groups of @groups, @weight (NULL:
 * all 1), @cycles cycles, geometry member i on table member @member[i]
 * (NULL: i) at @offset[i] (NULL: 24).  False if the layout is refused.
 */
static bool tgeom_make(struct tgeom *t, u32 chunk, const u32 *groups,
		       u32 nr_groups, enum bds_order_mode mode,
		       const u32 *weight, u64 cycles, const u8 *member,
		       const u64 *offset, u32 nr_table)
{
	struct bds_layout l;
	u8 id[BDS_MAX_MEMBERS];
	u64 off[BDS_MAX_MEMBERS];
	u32 i, w;

	if (bds_layout_init(&l, chunk, groups, nr_groups, mode))
		return false;
	if (weight) {
		if (bds_weights_check(&l, weight, &w))
			return false;
		bds_layout_weigh(&l, weight, w, t->slot, t->slot_of);
	}
	for (i = 0; i < l.nr_members; i++) {
		id[i] = (u8)i;
		off[i] = 24;
	}
	return bds_geom_init(&t->g, &l, cycles * l.nr_slots,
			     member ? member : id, offset ? offset : off,
			     nr_table ? nr_table : l.nr_members) == BDS_RESHAPE_OK;
}

/* Random weights for @n members, sum at most @max_sum; 0 means all 1. */
static bool random_weights(u32 n, u32 max_sum, u32 *w)
{
	u32 i, sum = 0, top = 1 + (u32)(rnd() % 255);
	bool any = false;

	for (i = 0; i < n; i++) {
		u32 left = max_sum - sum - (n - i - 1);
		u32 most = top < left ? top : left;

		w[i] = 1 + (u32)(rnd() % most);
		sum += w[i];
		any |= w[i] != 1;
	}
	return any;
}

/* ---- cnt() and its inverse ---------------------------------------- */

static struct tgeom tg1;

static void test_counts(void)
{
	static u32 count[BDS_MAX_MEMBERS], nth[BDS_MAX_MEMBERS][3 * 255];
	u32 groups[BDS_MAX_GROUPS], w[BDS_MAX_MEMBERS];
	int iter, bad_cnt = 0, bad_rank = 0, bad_far = 0, made = 0;

	for (iter = 0; iter < 600; iter++) {
		u32 n = 1 + (u32)(rnd() % (iter % 3 ? 16 : BDS_MAX_MEMBERS));
		u32 ng = random_groups(n, groups), W, m, k, chunk;
		bool weighted = rnd() & 1;
		enum bds_order_mode mode = weighted || (rnd() & 1) ?
			BDS_LAYOUT_INTERLEAVE : BDS_LAYOUT_SEQUENTIAL;
		const struct bds_geom *g = &tg1.g;
		u64 x, i;

		chunk = (rnd() % 3) ? 8 : 24;	/* 24: not a power of 2 */
		if (weighted)
			weighted = random_weights(n, BDS_MAX_SLOTS, w);
		if (!tgeom_make(&tg1, chunk, groups, ng, mode,
				weighted ? w : NULL, 1 + rnd() % 4, NULL, NULL, 0))
			continue;
		made++;
		W = g->layout.nr_slots;
		memset(count, 0, sizeof(count));
		/* three cycles unit by unit, by the layout's own mapping */
		for (x = 0; x < 3ULL * W; x++) {
			u32 owner, other = (u32)(rnd() % n);
			u64 ms;

			bds_map_sector(&g->layout, x * chunk, &owner, &ms);
			if (bds_geom_units_below(g, owner, x) != count[owner] ||
			    bds_geom_units_below(g, other, x) != count[other])
				bad_cnt++;
			if (count[owner] < 3 * 255)
				nth[owner][count[owner]] = (u32)x;
			count[owner]++;
			if ((x + 1) % W == 0)
				for (m = 0; m < n; m++)
					if (bds_geom_units_below(g, m, x + 1) != count[m])
						bad_cnt++;
		}
		for (m = 0; m < n; m++)
			for (k = 0; k < count[m]; k++)
				if (bds_geom_unit_of_rank(g, m, k) != nth[m][k])
					bad_rank++;
		/* far away: the member's first sector at or after x */
		for (i = 0; i < 200; i++) {
			u64 r;

			m = (u32)(rnd() % n);
			x = rnd() >> 14;
			if (bds_geom_units_below(g, m, x) * chunk !=
			    bds_member_lower(&g->layout, x * chunk, m))
				bad_far++;
			k = (u32)rnd();
			r = bds_geom_unit_of_rank(g, m, k);
			if (r * chunk != bds_unmap_sector(&g->layout, m, (u64)k * chunk) ||
			    bds_geom_units_below(g, m, r) != k ||
			    bds_geom_units_below(g, m, r + 1) != (u64)k + 1)
				bad_far++;
		}
	}
	check(made > 400 && bad_cnt == 0,
	      "cnt() = brute force, unit by unit over 3 cycles (%d geometries, %d wrong)",
	      made, bad_cnt);
	check(bad_rank == 0,
	      "unit_of_rank() = the k-th unit of the member, brute force (%d wrong)",
	      bad_rank);
	check(bad_far == 0,
	      "far units: cnt() = bds_member_lower(), unit_of_rank() = bds_unmap_sector() (%d wrong)",
	      bad_far);
}

/* ---- geometry pairs ----------------------------------------------- */

struct pair {
	struct tgeom o, n;
	struct bds_reshape r;
	u64 end[BDS_MAX_MEMBERS];	/* per table member */
};

/*
 * A random pair with @n_old members growing by @add, random groups,
 * weights (sum up to @max_w) and layouts, old members scattered over the
 * new table; offsets are set by the caller.
 */
static bool random_pair(struct pair *p, u32 chunk, u32 n_old, u32 add,
			u32 max_w, u64 cycles_old, u64 units_new)
{
	u32 go[BDS_MAX_GROUPS], gn[BDS_MAX_GROUPS], wo[BDS_MAX_MEMBERS];
	u32 wn[BDS_MAX_MEMBERS], ngo, ngn, n_new = n_old + add, i, j;
	u8 map[BDS_MAX_MEMBERS], perm[BDS_MAX_MEMBERS];
	bool weo, wen;
	enum bds_order_mode mo, mn;

	ngo = random_groups(n_old, go);
	ngn = random_groups(n_new, gn);
	weo = (rnd() & 1) && n_old < max_w && random_weights(n_old, max_w, wo);
	wen = (rnd() & 1) && n_new < max_w && random_weights(n_new, max_w, wn);
	mo = weo || (rnd() & 1) ? BDS_LAYOUT_INTERLEAVE : BDS_LAYOUT_SEQUENTIAL;
	mn = wen || (rnd() & 1) ? BDS_LAYOUT_INTERLEAVE : BDS_LAYOUT_SEQUENTIAL;
	for (j = 0; j < n_new; j++)
		perm[j] = (u8)j;
	for (j = n_new - 1; j > 0; j--) {
		u32 k = (u32)(rnd() % (j + 1));
		u8 t = perm[j];

		perm[j] = perm[k];
		perm[k] = t;
	}
	for (i = 0; i < n_old; i++)
		map[i] = perm[i];
	if (!tgeom_make(&p->o, chunk, go, ngo, mo, weo ? wo : NULL, cycles_old,
			map, NULL, n_new) ||
	    !tgeom_make(&p->n, chunk, gn, ngn, mn, wen ? wn : NULL, 1, NULL,
			NULL, 0))
		return false;
	if (!units_new)
		units_new = p->o.g.units;
	p->n.g.units = (units_new + p->n.g.layout.nr_slots - 1) /
		       p->n.g.layout.nr_slots * p->n.g.layout.nr_slots;
	p->r.old = &p->o.g;
	p->r.new = &p->n.g;
	return true;
}

/*
 * Offsets and ends for pair @p in direction @dir: old data at 24 +
 * @room units (forward) or at 24 with @room units to spare at each
 * member's end (backward); new offsets as bds_reshape_propose() puts
 * them; each member just large enough for both geometries.
 */
static void place_pair(struct pair *p, enum bds_reshape_dir dir, u32 room)
{
	struct bds_geom *o = &p->o.g, *n = &p->n.g;
	u32 chunk = o->layout.chunk, i, j;
	u32 pbs[BDS_MAX_MEMBERS];
	u64 need, data, low = (24 + chunk - 1) / chunk * chunk;

	p->r.dir = dir;
	for (i = 0; i < o->layout.nr_members; i++)
		o->offset[i] = 24 + (dir == BDS_RESHAPE_FORWARD ?
				     (u64)room * chunk : 0);
	for (j = 0; j < n->layout.nr_members; j++) {
		pbs[j] = 1;
		i = o->index[j];
		data = bds_geom_member_units(n, j) * chunk;
		if (i == BDS_GEOM_NONE) {
			p->end[j] = bds_label_data_offset(chunk, 1) + data;
			continue;
		}
		need = o->offset[i] + bds_geom_member_units(o, i) * chunk;
		if (dir == BDS_RESHAPE_FORWARD && low + data > need)
			need = low + data;
		if (dir == BDS_RESHAPE_BACKWARD) {
			if (o->offset[i] + data > need)
				need = o->offset[i] + data;
			need += (u64)room * chunk;
		}
		p->end[j] = need;
	}
	bds_reshape_propose(n, o, dir, p->end, pbs);
}

/* ---- the frontier against brute force ----------------------------- */

/*
 * (F) or (B) from the text, for every old member: its new data of the
 * units behind b and its old data of the units still ahead of a do not
 * overlap (empty regions never do).
 */
static bool frontier_ok(const struct bds_reshape *r, u64 a, u64 b)
{
	const struct bds_geom *o = r->old, *n = r->new;
	u32 c = o->layout.chunk, i, j;
	u64 U = o->units;

	for (i = 0; i < o->layout.nr_members; i++) {
		u64 os, oe, ns, ne;

		j = o->member[i];
		if (r->dir == BDS_RESHAPE_FORWARD) {
			os = o->offset[i] + c * bds_geom_units_below(o, i, a);
			oe = o->offset[i] + c * bds_geom_units_below(o, i, U);
			ns = n->offset[j];
			ne = n->offset[j] + c * bds_geom_units_below(n, j, b);
		} else {
			os = o->offset[i];
			oe = o->offset[i] + c * bds_geom_units_below(o, i, a);
			ns = n->offset[j] + c * bds_geom_units_below(n, j, b);
			ne = n->offset[j] + c * bds_geom_units_below(n, j, U);
		}
		if (os < oe && ns < ne && ns < oe && os < ne)
			return false;
	}
	return true;
}

static struct pair pp;

static void test_frontier(void)
{
	int iter, bad = 0, bad_ok = 0, pairs = 0;

	for (iter = 0; iter < 300; iter++) {
		enum bds_reshape_dir dir = iter & 1 ? BDS_RESHAPE_BACKWARD :
					   BDS_RESHAPE_FORWARD;
		u32 n_old = 1 + (u32)(rnd() % 6), add = (u32)(rnd() % 4);
		u64 a, b, want, U;

		if (!random_pair(&pp, CHUNK, n_old, add, 16, 1 + rnd() % 12, 0))
			continue;
		place_pair(&pp, dir, (u32)(rnd() % 6));
		if (bds_reshape_check(&pp.r))
			continue;
		pairs++;
		U = pp.o.g.units;
		for (a = 0; a <= U; a++) {
			bool ok = frontier_ok(&pp.r, a, a);

			if (ok != bds_reshape_pos_ok(&pp.r, a))
				bad_ok++;
			want = a;
			if (ok && dir == BDS_RESHAPE_FORWARD)
				for (b = a + 1; b <= U && frontier_ok(&pp.r, a, b); b++)
					want = b;
			if (ok && dir == BDS_RESHAPE_BACKWARD)
				for (b = a; b-- > 0 && frontier_ok(&pp.r, a, b);)
					want = b;
			if (bds_reshape_frontier(&pp.r, a) != want) {
				if (!bad)
					printf("# frontier(%llu) = %llu, brute force %llu (%s, U %llu)\n",
					       U(a), U(bds_reshape_frontier(&pp.r, a)),
					       U(want), dir ? "backward" : "forward", U(U));
				bad++;
			}
		}
	}
	check(pairs > 100 && bad == 0,
	      "frontier = the furthest b that (F)/(B) allow, brute force (%d pairs, %d wrong)",
	      pairs, bad);
	check(bad_ok == 0, "pos_ok(a) = (F)/(B) with b = a (%d wrong)", bad_ok);
}

/* ---- the two-geometry map ----------------------------------------- */

static void test_map(void)
{
	int iter, bad_side = 0, bad_left = 0, bad_back = 0, bad_place = 0;
	int n = 0;

	for (iter = 0; iter < 300; iter++) {
		enum bds_reshape_dir dir = iter & 1 ? BDS_RESHAPE_BACKWARD :
					   BDS_RESHAPE_FORWARD;
		u32 chunk = (rnd() & 1) ? 8 : 24, k;
		u64 U, ckpt;

		if (!random_pair(&pp, chunk, 1 + (u32)(rnd() % 40),
				 (u32)(rnd() % 20), 1024, 1 + rnd() % 50, 0))
			continue;
		place_pair(&pp, dir, 1 + (u32)(rnd() % 20));
		if (bds_reshape_check(&pp.r))
			continue;
		n++;
		U = pp.o.g.units;
		ckpt = rnd() % (U + 1);
		for (k = 0; k < 200; k++) {
			u64 s = rnd() % (U * chunk), left, p, edge = ckpt * chunk;
			const struct bds_geom *g = bds_reshape_geom_of(&pp.r, ckpt, s, &left);
			bool want_new = dir == BDS_RESHAPE_FORWARD ? s < edge : s >= edge;
			u32 dev, i;

			if ((g == &pp.n.g) != want_new)
				bad_side++;
			if (s < edge ? left != edge - s : left != ~0ULL)
				bad_left++;
			bds_geom_map(g, s, &dev, &p);
			i = g->index[dev];
			if (i == BDS_GEOM_NONE || p < g->offset[i] ||
			    p >= g->offset[i] + bds_geom_member_units(g, i) * chunk)
				bad_place++;
			else if (bds_geom_unmap(g, dev, p) != s)
				bad_back++;
		}
	}
	check(n > 100 && bad_side == 0,
	      "each sector in the new geometry behind the checkpoint, else the old (%d pairs, %d wrong)",
	      n, bad_side);
	check(bad_left == 0, "the sectors left before the boundary (%d wrong)",
	      bad_left);
	check(bad_place == 0 && bad_back == 0,
	      "map lands in the member's data area and unmaps back (%d outside, %d wrong)",
	      bad_place, bad_back);
}

/* ---- the copy-order model ----------------------------------------- */

enum { EV_USER, EV_COPY, EV_LABEL };

struct cell {
	u32 unit;		/* NONE: nothing of the volume's */
	u32 ver;
	u32 sub;		/* which cell of the unit */
};

struct place {
	u32 dev;
	u64 cell;
};

struct model {
	const struct bds_reshape *r;
	const struct bds_reshape_sched *s;
	const u64 *end;
	u32 n;			/* table members */
	u32 per_unit;		/* cells per unit (a cell is CHUNK / per_unit) */
	u32 gran;		/* sectors per cell */
	u64 units;
	u64 size[BDS_MAX_MEMBERS];	/* cells below the member's end */
	u64 lo[BDS_MAX_MEMBERS];	/* cells below this are never used */
	struct cell *disk[BDS_MAX_MEMBERS];
	u32 *owner[BDS_MAX_MEMBERS];	/* unit whose old data is there */
	struct place *oldp, *newp;
	u64 lab[BDS_MAX_MEMBERS][2];
	bool lab_ok[BDS_MAX_MEMBERS][2];
	u32 *latest;		/* the acknowledged version of each unit */
	u32 next_ver;
	/* the target */
	u64 kckpt, hold;	/* band: [kckpt, hold) or [hold, kckpt) */
	u32 *held_unit, *held_ver, nr_held;
	/* the power */
	u64 events, cut_at;
	bool tear, stopped;
	u8 *kinds;
	u64 nr_kinds;
	bool shuffle;
	bool track;		/* an uncut run: check each cut it could have */
	u64 dur;		/* then: the durable checkpoint */
	u32 user_pct;
	u64 seed;
	/* findings */
	u32 bad_write, bad_read, bad_final, bad_label;
	char why[200];
	bool finished;
};

static u64 mrnd(struct model *m)
{
	u64 z = (m->seed += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static bool fwd(const struct model *m)
{
	return m->r->dir == BDS_RESHAPE_FORWARD;
}

/* Is unit @u behind checkpoint @a: in the new geometry? */
static bool behind(const struct model *m, u64 u, u64 a)
{
	return fwd(m) ? u < a : u >= a;
}

static void note(struct model *m, const char *what, u64 u)
{
	if (!m->why[0])
		snprintf(m->why, sizeof(m->why), "%s (unit %llu, event %llu)",
			 what, U(u), U(m->events));
}

/* The checkpoint that counts after a power cut; false: a member has none. */
static bool durable(const struct model *m, u64 *a)
{
	u32 j;
	u64 v;

	*a = fwd(m) ? ~0ULL : 0;
	for (j = 0; j < m->n; j++) {
		if (m->lab_ok[j][0])
			v = m->lab[j][0];	/* same generation: the primary */
		else if (m->lab_ok[j][1])
			v = m->lab[j][1];
		else
			return false;
		if (fwd(m) ? v < *a : v > *a)
			*a = v;
	}
	return true;
}

/* 1: do the write; 2: tear it (the power goes while it is under way); 0: not. */
static int event(struct model *m, int kind)
{
	if (m->stopped)
		return 0;
	if (m->events == m->cut_at) {
		m->stopped = true;
		return m->tear ? 2 : 0;
	}
	if (m->track) {
		if (m->events >= m->nr_kinds) {
			m->nr_kinds = 2 * m->events + 64;
			m->kinds = realloc(m->kinds, m->nr_kinds);
			if (!m->kinds)
				abort();
		}
		m->kinds[m->events] = (u8)kind;
	}
	m->events++;
	return 1;
}

static bool holds(const struct model *m, struct place p, u64 u, u32 ver)
{
	u32 k;

	for (k = 0; k < m->per_unit; k++) {
		const struct cell *c = &m->disk[p.dev][p.cell + k];

		if (c->unit != u || c->ver != ver || c->sub != k)
			return false;
	}
	return true;
}

/* Write unit @u's data, version @ver, to its new place (@how from event()). */
static void write_new(struct model *m, u64 u, u32 ver, int how)
{
	struct place p = m->newp[u];
	u64 a, k;

	if (!durable(m, &a)) {
		m->bad_label++;
		note(m, "a member without a valid label", u);
		return;
	}
	if (p.cell * m->gran < 24 ||
	    (p.cell + m->per_unit) * m->gran > m->end[p.dev]) {
		m->bad_write++;
		note(m, "write outside the data area", u);
	}
	for (k = 0; k < m->per_unit; k++) {
		u32 o = m->owner[p.dev][p.cell + k];

		if (o != NONE && !behind(m, o, a)) {
			m->bad_write++;
			note(m, "write over old data ahead of the durable checkpoint", o);
		}
	}
	for (k = 0; k < m->per_unit; k++) {
		struct cell *c = &m->disk[p.dev][p.cell + k];

		if (how == 2 && k >= m->per_unit / 2) {
			c->unit = NONE;		/* torn: half of it garbage */
			continue;
		}
		c->unit = (u32)u;
		c->ver = ver;
		c->sub = (u32)k;
	}
}

static void write_old(struct model *m, u64 u, u32 ver)
{
	struct place p = m->oldp[u];
	u32 k;

	/* a cut now would read the unit from its new place */
	if (m->track && behind(m, u, m->dur)) {
		m->bad_read++;
		note(m, "a write to the old place of a unit behind the durable checkpoint", u);
	}

	for (k = 0; k < m->per_unit; k++) {
		struct cell *c = &m->disk[p.dev][p.cell + k];

		c->ver = ver;
	}
}

/* Held writes whose units the checkpoint passed go to the new place. */
static void release(struct model *m)
{
	u32 h, kept = 0;

	for (h = 0; h < m->nr_held; h++) {
		u64 u = m->held_unit[h];

		if (!behind(m, u, m->kckpt)) {
			m->held_unit[kept] = m->held_unit[h];
			m->held_ver[kept++] = m->held_ver[h];
			continue;
		}
		if (event(m, EV_USER) != 1)
			return;
		write_new(m, u, m->held_ver[h], 1);
		m->latest[u] = m->held_ver[h];
	}
	m->nr_held = kept;
}

/* Maybe a read or write of a random unit, mapped as the target maps it. */
static void user(struct model *m)
{
	u64 u;
	u32 ver;
	bool in_band;

	if (m->stopped || mrnd(m) % 100 >= m->user_pct)
		return;
	u = mrnd(m) % m->units;
	if (mrnd(m) % 3 == 0) {
		struct place p = behind(m, u, m->kckpt) ? m->newp[u] : m->oldp[u];

		if (!holds(m, p, u, m->latest[u])) {
			m->bad_read++;
			note(m, "a read returned other than the last write", u);
		}
		return;
	}
	ver = ++m->next_ver;
	in_band = fwd(m) ? u >= m->kckpt && u < m->hold :
			   u < m->kckpt && u >= m->hold;
	if (behind(m, u, m->kckpt)) {
		if (event(m, EV_USER) != 1)
			return;
		write_new(m, u, ver, 1);
		m->latest[u] = ver;
	} else if (!in_band) {
		if (event(m, EV_USER) != 1)
			return;
		write_old(m, u, ver);
		m->latest[u] = ver;
	} else {
		m->held_unit[m->nr_held] = (u32)u;
		m->held_ver[m->nr_held++] = ver;
	}
}

static void copy_unit(struct model *m, u64 u)
{
	int how;

	/* what the copier reads must be the unit's last acknowledged data */
	if (!holds(m, m->oldp[u], u, m->latest[u])) {
		m->bad_read++;
		note(m, "the copier read other than the last write", u);
	}
	how = event(m, EV_COPY);
	if (how)
		write_new(m, u, m->latest[u], how);
}

static void label(struct model *m, u32 j, int copy, u64 v)
{
	int how = event(m, EV_LABEL);
	u64 d, u;

	if (how == 1) {
		m->lab[j][copy] = v;
		m->lab_ok[j][copy] = true;
	} else if (how == 2) {
		m->lab_ok[j][copy] = false;	/* torn: its crc fails */
	}
	if (!m->track || !how)
		return;
	/* a cut now would read the units the checkpoint passed from their new place */
	if (!durable(m, &d)) {
		m->bad_label++;
		note(m, "a member without a valid label", j);
		return;
	}
	for (u = fwd(m) ? m->dur : d; u < (fwd(m) ? d : m->dur); u++)
		if (!holds(m, m->newp[u], u, m->latest[u])) {
			m->bad_read++;
			note(m, "a checkpoint durable before its units were copied", u);
			break;
		}
	m->dur = d;
}

/* The copier, from checkpoint @from, as bdsadm runs it. */
static void copier(struct model *m, u64 from)
{
	u64 ckpt = from, pos = from, x, w, u;
	u64 order[64];
	struct bds_reshape_step st;
	u32 k, rot;

	m->kckpt = from;
	m->hold = from;
	m->nr_held = 0;
	m->finished = false;
	while (!m->stopped && bds_reshape_next(m->r, m->s, ckpt, pos, &st)) {
		/* "reshape hold": the target holds writes to the window */
		m->hold = fwd(m) ? st.end : st.start;
		w = st.end - st.start;
		for (x = 0; x < w && x < 64; x++)
			order[x] = fwd(m) ? st.start + x : st.end - 1 - x;
		/* the members' writes of a window may land in any order */
		for (x = 0; m->shuffle && w <= 64 && x + 1 < w; x++) {
			u64 y = x + mrnd(m) % (w - x), t = order[x];

			order[x] = order[y];
			order[y] = t;
		}
		for (x = 0; x < w; x++) {
			u = x < 64 ? order[x] : (fwd(m) ? st.start + x : st.end - 1 - x);
			user(m);
			copy_unit(m, u);
		}
		pos = fwd(m) ? st.end : st.start;
		if (!st.checkpoint)
			continue;
		/* every label, member by member: primary, then backup */
		rot = (u32)(mrnd(m) % m->n);
		for (k = 0; k < m->n; k++) {
			user(m);
			label(m, (k + rot) % m->n, 0, st.ckpt);
			label(m, (k + rot) % m->n, 1, st.ckpt);
		}
		if (m->stopped)
			break;
		/* "reshape checkpoint": the band's held writes go on */
		m->kckpt = st.ckpt;
		ckpt = st.ckpt;
		release(m);
	}
	for (k = 0; k < 8; k++)
		user(m);
	m->finished = !m->stopped && ckpt == (fwd(m) ? m->units : 0);
}

static bool model_alloc(struct model *m, const struct pair *p,
			const struct bds_reshape_sched *s, u32 gran)
{
	const struct bds_geom *o = &p->o.g, *n = &p->n.g;
	u64 u, k;
	u32 j, i, dev;
	u64 ms;

	memset(m, 0, sizeof(*m));
	m->r = &p->r;
	m->s = s;
	m->end = p->end;
	m->n = n->layout.nr_members;
	m->gran = gran;
	m->per_unit = o->layout.chunk / gran;
	m->units = o->units;
	for (j = 0; j < m->n; j++) {
		m->size[j] = p->end[j] / gran;
		m->disk[j] = calloc(m->size[j] + 1, sizeof(struct cell));
		m->owner[j] = calloc(m->size[j] + 1, sizeof(u32));
		if (!m->disk[j] || !m->owner[j])
			abort();
	}
	m->oldp = calloc(m->units, sizeof(*m->oldp));
	m->newp = calloc(m->units, sizeof(*m->newp));
	m->latest = calloc(m->units, sizeof(u32));
	m->held_unit = calloc(m->units * 4 + 512, sizeof(u32));
	m->held_ver = calloc(m->units * 4 + 512, sizeof(u32));
	if (!m->oldp || !m->newp || !m->latest || !m->held_unit || !m->held_ver)
		abort();
	for (u = 0; u < m->units; u++) {
		bds_geom_map(o, u * o->layout.chunk, &dev, &ms);
		m->oldp[u].dev = dev;
		m->oldp[u].cell = ms / gran;
		bds_geom_map(n, u * n->layout.chunk, &dev, &ms);
		m->newp[u].dev = dev;
		m->newp[u].cell = ms / gran;
		if (ms % gran || (ms / gran + m->per_unit) * gran > p->end[dev])
			return false;
	}
	for (i = 0; i < o->layout.nr_members; i++)
		if (o->offset[i] % gran)
			return false;
	for (j = 0; j < m->n; j++) {
		m->lo[j] = n->offset[j] / gran;
		for (k = 0; k <= m->size[j]; k++)
			m->owner[j][k] = NONE;
	}
	for (i = 0; i < o->layout.nr_members; i++)
		if (o->offset[i] / gran < m->lo[o->member[i]])
			m->lo[o->member[i]] = o->offset[i] / gran;
	for (u = 0; u < m->units; u++)
		for (k = 0; k < m->per_unit; k++)
			m->owner[m->oldp[u].dev][m->oldp[u].cell + k] = (u32)u;
	return true;
}

static void model_free(struct model *m)
{
	u32 j;

	for (j = 0; j < m->n; j++) {
		free(m->disk[j]);
		free(m->owner[j]);
	}
	free(m->oldp);
	free(m->newp);
	free(m->latest);
	free(m->held_unit);
	free(m->held_ver);
	free(m->kinds);
}

/* The state when the restripe starts: old data, labels at the start. */
static void model_reset(struct model *m, u64 seed)
{
	u64 u, k, start = fwd(m) ? 0 : m->units;
	u32 j;

	for (j = 0; j < m->n; j++) {
		for (k = m->lo[j]; k <= m->size[j]; k++)
			m->disk[j][k].unit = NONE;
		m->lab[j][0] = m->lab[j][1] = start;
		m->lab_ok[j][0] = m->lab_ok[j][1] = true;
	}
	for (u = 0; u < m->units; u++) {
		struct place p = m->oldp[u];

		for (k = 0; k < m->per_unit; k++) {
			m->disk[p.dev][p.cell + k].unit = (u32)u;
			m->disk[p.dev][p.cell + k].ver = 0;
			m->disk[p.dev][p.cell + k].sub = (u32)k;
		}
		m->latest[u] = 0;
	}
	m->next_ver = 0;
	m->events = 0;
	m->cut_at = ~0ULL;
	m->tear = false;
	m->stopped = false;
	m->seed = seed;
	m->nr_held = 0;
	m->dur = start;
}

/* After a cut: every unit readable where the restarted target reads it. */
static void check_recoverable(struct model *m, u64 a)
{
	u64 u;

	for (u = 0; u < m->units; u++) {
		struct place p = behind(m, u, a) ? m->newp[u] : m->oldp[u];

		if (!holds(m, p, u, m->latest[u])) {
			m->bad_read++;
			note(m, "after the cut, a unit is not where the checkpoint says", u);
			return;
		}
	}
}

static void check_final(struct model *m)
{
	u64 u, a, want = fwd(m) ? m->units : 0;

	for (u = 0; u < m->units; u++)
		if (!holds(m, m->newp[u], u, m->latest[u])) {
			m->bad_final++;
			note(m, "at the end, a unit is not in its new place", u);
			return;
		}
	if (!durable(m, &a) || a != want) {
		m->bad_final++;
		note(m, "at the end, the labels do not say so", a);
	}
}

/*
 * What bdsadm does first when it resumes: every member's labels say the
 * checkpoint @a it resumes from, the copy that is not valid written
 * first, so that a cut while it writes never leaves a member without a
 * valid copy.
 */
static void repair(struct model *m, u64 a)
{
	u32 j;
	int first;

	for (j = 0; j < m->n; j++) {
		first = m->lab_ok[j][0] ? !m->lab_ok[j][1] : 0;
		label(m, j, first, a);
		label(m, j, !first, a);
	}
}

/* Cut and restart: the power goes at event @cut (torn or not). */
static void cut_restart(struct model *m, u64 seed, u64 cut, bool tear,
			bool feasible, u64 second_cut)
{
	u64 a;

	model_reset(m, seed);
	m->cut_at = cut;
	m->tear = tear;
	copier(m, fwd(m) ? 0 : m->units);
	for (;;) {
		/* the power is back: held writes were never acknowledged */
		m->nr_held = 0;
		if (!durable(m, &a)) {
			m->bad_label++;
			note(m, "after the cut, a member has no valid label", cut);
			return;
		}
		if (!bds_reshape_pos_ok(m->r, a)) {
			m->bad_label++;
			note(m, "after the cut, the checkpoint is not a state of the copy", a);
			return;
		}
		check_recoverable(m, a);
		m->stopped = false;
		m->cut_at = second_cut == ~0ULL ? ~0ULL : m->events + second_cut;
		second_cut = ~0ULL;
		m->tear = (seed & 1) != 0;
		m->seed ^= 0x5deece66dULL + cut;
		repair(m, a);
		copier(m, a);
		if (!m->stopped)
			break;
	}
	if (feasible && !m->finished) {
		m->bad_final++;
		note(m, "the restarted copy did not finish", a);
	}
	if (m->finished)
		check_final(m);
}

struct model_stats {
	u64 cases, infeasible, cuts, events, cuts_checked;
	u32 bad_write, bad_read, bad_final, bad_label, bad_feasible;
	char why[300];
};

static void add_stats(struct model_stats *st, struct model *m, const char *what)
{
	st->bad_write += m->bad_write;
	st->bad_read += m->bad_read;
	st->bad_final += m->bad_final;
	st->bad_label += m->bad_label;
	if (m->why[0] && !st->why[0])
		snprintf(st->why, sizeof(st->why), "%s: %s", what, m->why);
	m->bad_write = m->bad_read = m->bad_final = m->bad_label = 0;
	m->why[0] = '\0';
}

/*
 * One pair: a run without a cut that checks, write by write, that a cut
 * there would leave every unit where the restarted target reads it; then
 * (@every_write) a cut after every write, and a torn one at every label
 * write, each restarted and run to the end; and @random_cuts cuts at
 * random writes, torn or not, each cut again in the restart half of the
 * time.
 */
static void model_case(struct model_stats *st, struct pair *p,
		       const struct bds_reshape_sched *s, u32 gran,
		       bool every_write, u32 random_cuts, u32 user_pct,
		       const char *what)
{
	static struct model m;
	struct bds_reshape_need need;
	bool feasible;
	u64 seed = rnd(), k, total;
	u32 i;

	if (!model_alloc(&m, p, s, gran)) {
		model_free(&m);
		return;
	}
	st->cases++;
	feasible = bds_reshape_feasible(&p->r, p->end, &need);
	st->infeasible += !feasible;
	m.user_pct = user_pct;
	m.shuffle = (seed & 2) != 0;
	m.kinds = malloc(64);
	m.nr_kinds = 64;
	if (!m.kinds)
		abort();
	model_reset(&m, seed);
	m.track = true;
	copier(&m, fwd(&m) ? 0 : m.units);
	m.track = false;
	if (m.finished != feasible) {
		st->bad_feasible++;
		if (!st->why[0])
			snprintf(st->why, sizeof(st->why),
				 "%s: the copier %s, bds_reshape_feasible() says %s",
				 what, m.finished ? "finished" : "got stuck",
				 feasible ? "it can" : "it cannot");
	}
	if (m.finished)
		check_final(&m);
	add_stats(st, &m, what);
	total = m.events;
	st->events += total;
	st->cuts_checked += total;
	for (k = 0; every_write && k < total; k++) {
		u8 kind = m.kinds[k];

		cut_restart(&m, seed, k, false, feasible, ~0ULL);
		add_stats(st, &m, what);
		st->cuts++;
		if (kind == EV_LABEL) {
			cut_restart(&m, seed, k, true, feasible, ~0ULL);
			add_stats(st, &m, what);
			st->cuts++;
		}
	}
	for (i = 0; total && i < random_cuts; i++) {
		cut_restart(&m, seed, rnd() % total, rnd() & 1, feasible,
			    (rnd() & 1) ? rnd() % (total + 1) : ~0ULL);
		add_stats(st, &m, what);
		st->cuts++;
	}
	model_free(&m);
}

static void report_model(const struct model_stats *st, const char *what)
{
	check(st->bad_write == 0,
	      "%s: no write lands on old data ahead of the durable checkpoint (%llu cases, %u bad)",
	      what, U(st->cases), st->bad_write);
	check(st->bad_read == 0 && st->bad_label == 0,
	      "%s: no acknowledged write lost, a valid checkpoint at every cut (%llu cuts checked in place, %llu restarted; %u, %u bad)%s%s",
	      what, U(st->cuts_checked), U(st->cuts), st->bad_read,
	      st->bad_label, st->why[0] ? ": " : "", st->why);
	check(st->bad_final == 0,
	      "%s: every copy, restarted or not, ends with every unit in its new place (%u bad)",
	      what, st->bad_final);
	check(st->bad_feasible == 0,
	      "%s: the copier gets stuck exactly when bds_reshape_feasible() says (%llu of %llu infeasible, %u wrong)",
	      what, U(st->infeasible), U(st->cases), st->bad_feasible);
}

/* Weight vectors of @n members with sum at most @max: the @idx-th, in @w. */
static u32 weight_vectors(u32 n, u32 max, u32 (*out)[8])
{
	u32 w[8], count = 0, i;

	for (i = 0; i < n; i++)
		w[i] = 1;
	for (;;) {
		u32 sum = 0;

		for (i = 0; i < n; i++)
			sum += w[i];
		if (sum <= max) {
			memcpy(out[count++], w, sizeof(w));
		}
		/* next vector, odometer style */
		for (i = 0; i < n; i++) {
			if (++w[i] <= max)
				break;
			w[i] = 1;
		}
		if (i == n)
			return count;
	}
}

static struct pair ep;

/*
 * Every pair of 1..4 old members grown by 0..3 members, with every
 * weight vector of W <= 8 on each side; each side's members on two
 * controllers (interleaved, or sequential too when unweighted), the
 * added members last or first in the table; forward with 2..5 units of
 * room below the old data, backward with as much at the members' ends;
 * U a few dozen units; windows of 1..3 units and a checkpoint every 1..9
 * units or only as (F)/(B) force.  Each pair runs both ways with every
 * write checked as a cut point; those of W <= 6 on both sides are also
 * cut after every write (and torn at every label write) and restarted.
 */
static void test_model_small(void)
{
	static u32 wo[256][8], wn[256][8];
	struct model_stats st, cut;
	struct bds_reshape_sched s;
	u32 n_old, add, a, b, nwo, nwn, i, idx = 0, wsum_o, wsum_n;
	int d;

	memset(&st, 0, sizeof(st));
	memset(&cut, 0, sizeof(cut));
	for (n_old = 1; n_old <= 4; n_old++)
	for (add = 0; add <= 3; add++) {
		u32 n_new = n_old + add;

		nwo = weight_vectors(n_old, 8, wo);
		nwn = weight_vectors(n_new, 8, wn);
		for (a = 0; a < nwo; a++)
		for (b = 0; b < nwn; b++)
		for (d = 0; d < 2; d++) {
			u32 go[2], gn[2], ngo, ngn, W;
			u8 map[8];
			bool uo = true, un = true, restart;
			enum bds_order_mode mo, mn;
			u64 cycles;

			idx++;
			wsum_o = wsum_n = 0;
			for (i = 0; i < n_old; i++) {
				uo &= wo[a][i] == 1;
				wsum_o += wo[a][i];
			}
			for (i = 0; i < n_new; i++) {
				un &= wn[b][i] == 1;
				wsum_n += wn[b][i];
			}
			ngo = n_old > 1 ? 2 : 1;
			go[0] = (n_old + 1) / 2;
			go[1] = n_old / 2;
			ngn = n_new > 1 ? 2 : 1;
			gn[0] = (n_new + 1) / 2;
			gn[1] = n_new / 2;
			mo = uo && (idx & 4) ? BDS_LAYOUT_SEQUENTIAL :
			     BDS_LAYOUT_INTERLEAVE;
			mn = un && (idx & 8) ? BDS_LAYOUT_SEQUENTIAL :
			     BDS_LAYOUT_INTERLEAVE;
			for (i = 0; i < n_old; i++)
				map[i] = (u8)((idx & 16) ? i + add : i);
			cycles = (24 + wsum_o - 1) / wsum_o + (idx % 3);
			if (!tgeom_make(&ep.o, CHUNK, go, ngo, mo,
					uo ? NULL : wo[a], cycles, map, NULL,
					n_new) ||
			    !tgeom_make(&ep.n, CHUNK, gn, ngn, mn,
					un ? NULL : wn[b], 1, NULL, NULL, 0))
				continue;
			W = ep.n.g.layout.nr_slots;
			ep.n.g.units = (ep.o.g.units + W - 1) / W * W;
			ep.r.old = &ep.o.g;
			ep.r.new = &ep.n.g;
			place_pair(&ep, d ? BDS_RESHAPE_BACKWARD :
				   BDS_RESHAPE_FORWARD, 2 + idx % 4);
			if (bds_reshape_check(&ep.r))
				continue;
			bds_reshape_sched_init(&s, CHUNK, CHUNK * (1 + idx % 3),
					       idx % 7 ? CHUNK * (1 + idx % 9) :
					       1ULL << 40);
			restart = wsum_o <= 6 && wsum_n <= 6;
			model_case(restart ? &cut : &st, &ep, &s, CHUNK,
				   restart, 0, 30, "small pairs");
		}
	}
	printf("# small pairs, W <= 6: %llu cases, %llu writes, %llu cuts restarted (a torn label write among them)\n",
	       U(cut.cases), U(cut.events), U(cut.cuts));
	report_model(&cut, "small pairs of W <= 6, a cut after every write, restarted");
	printf("# small pairs, 6 < W <= 8: %llu cases, %llu writes, each checked as a cut\n",
	       U(st.cases), U(st.events));
	report_model(&st, "small pairs of W <= 8, every write checked as a cut");
}

/*
 * Random larger pairs: up to 24 old members grown by up to 8, weights up
 * to W = 64, U up to a few hundred units, a chunk of 16 or 24 sectors
 * modelled sector block by sector block (offsets not multiples of the
 * chunk), 40 random cuts each, half of them cut again in the restart.
 */
static void test_model_random(void)
{
	struct model_stats st;
	struct bds_reshape_sched s;
	int iter;

	memset(&st, 0, sizeof(st));
	for (iter = 0; iter < 400; iter++) {
		u32 chunk = (rnd() & 1) ? 16 : 24;
		u32 n_old = 1 + (u32)(rnd() % (iter % 4 ? 6 : 24));
		u32 add = (u32)(rnd() % 9), i;
		enum bds_reshape_dir dir = iter & 1 ? BDS_RESHAPE_BACKWARD :
					   BDS_RESHAPE_FORWARD;
		u64 cycles = 1 + rnd() % 40;

		if (!random_pair(&pp, chunk, n_old, add, 64, cycles, 0))
			continue;
		if (pp.o.g.units > 600)
			continue;
		place_pair(&pp, dir, 1 + (u32)(rnd() % 12));
		/* old data off the chunk grid: 8-sector steps */
		for (i = 0; i < pp.o.g.layout.nr_members && (rnd() & 1); i++) {
			u32 j = pp.o.g.member[i];

			if (dir == BDS_RESHAPE_FORWARD &&
			    pp.o.g.offset[i] >= pp.n.g.offset[j] + 8)
				pp.o.g.offset[i] -= 8;
			if (dir == BDS_RESHAPE_BACKWARD &&
			    pp.n.g.offset[j] >= pp.o.g.offset[i] + 8)
				pp.n.g.offset[j] -= 8;
		}
		if (bds_reshape_check(&pp.r))
			continue;
		bds_reshape_sched_init(&s, chunk, chunk * (1 + rnd() % 8),
				       chunk * (1 + rnd() % 64));
		model_case(&st, &pp, &s, 8, false, 40, 40, "random pairs");
	}
	printf("# random pairs: %llu pairs, %llu cuts\n", U(st.cases),
	       U(st.cuts));
	report_model(&st, "random pairs, random cuts");
}

/* ---- the grows of the issue --------------------------------------- */

#define TIB_SECTORS	(1ULL << 31)

/*
 * A labelled volume's geometry on members of @size sectors each (size[]
 * per member), the default data offset, a 64 KiB unit.
 */
static bool volume_geom(struct tgeom *t, const u32 *groups, u32 nr_groups,
			enum bds_order_mode mode, const u32 *weight,
			const u64 *size, const u8 *member, u32 nr_table)
{
	u64 off[BDS_MAX_MEMBERS], cycles = ~0ULL;
	u32 i, n = 0, g;

	for (g = 0; g < nr_groups; g++)
		n += groups[g];
	for (i = 0; i < n; i++) {
		u64 c;

		off[i] = bds_label_data_offset(128, 8);
		c = (bds_label_backup_sector(size[i]) - off[i]) / 128 /
		    (weight ? weight[i] : 1);
		if (c < cycles)
			cycles = c;
	}
	return tgeom_make(t, 128, groups, nr_groups, mode, weight, cycles,
			  member, off, nr_table);
}

/* Checkpoints of a whole run of the schedule @s (0: stuck). */
static u64 run_schedule(const struct bds_reshape *r,
			const struct bds_reshape_sched *s, u64 *windows,
			u64 *worst_gap, bool *within)
{
	u64 U = r->old->units, ckpt = r->dir == BDS_RESHAPE_FORWARD ? 0 : U;
	u64 pos = ckpt, n = 0, last = ckpt;
	struct bds_reshape_step st;

	*windows = 0;
	*worst_gap = 0;
	*within = true;
	while (bds_reshape_next(r, s, ckpt, pos, &st)) {
		u64 f = bds_reshape_frontier(r, ckpt);

		(*windows)++;
		if (st.end - st.start > s->window ||
		    (r->dir == BDS_RESHAPE_FORWARD ? st.end > f : st.start < f))
			*within = false;
		pos = r->dir == BDS_RESHAPE_FORWARD ? st.end : st.start;
		if (!st.checkpoint)
			continue;
		n++;
		if ((st.ckpt > last ? st.ckpt - last : last - st.ckpt) > *worst_gap)
			*worst_gap = st.ckpt > last ? st.ckpt - last : last - st.ckpt;
		last = ckpt = st.ckpt;
	}
	return ckpt == (r->dir == BDS_RESHAPE_FORWARD ? U : 0) ? n : 0;
}

static struct pair ip;

/* The grow of the issue from @o to @n: forward, feasible; its numbers. */
static void issue_grow(const char *what, u64 size_new)
{
	struct bds_reshape_need need;
	struct bds_reshape_sched s;
	u32 pbs[BDS_MAX_MEMBERS], j;
	u64 windows, gap, n;
	bool within, ok;

	for (j = 0; j < ip.n.g.layout.nr_members; j++) {
		pbs[j] = 8;
		ip.end[j] = bds_label_backup_sector(size_new);
	}
	ip.n.g.units = 0;
	ip.r.old = &ip.o.g;
	ip.r.new = &ip.n.g;
	ip.r.dir = BDS_RESHAPE_FORWARD;
	bds_reshape_propose(&ip.n.g, &ip.o.g, BDS_RESHAPE_FORWARD, ip.end, pbs);
	ok = !bds_reshape_check(&ip.r) &&
	     bds_reshape_feasible(&ip.r, ip.end, &need);
	bds_reshape_sched_init(&s, 128, 0, 0);
	n = ok ? run_schedule(&ip.r, &s, &windows, &gap, &within) : 0;
	check(ok && n && within,
	      "%s: feasible forward, old data moved from sector %llu to %llu (%s)",
	      what, U(ip.o.g.offset[0]), U(ip.n.g.offset[ip.o.g.member[0]]),
	      ok ? "ok" : bds_reshape_error(bds_reshape_check(&ip.r)));
	printf("# %s: %llu -> %llu units; (F) forces %llu checkpoints; with S = %llu units, C = %llu: %llu checkpoints, %llu windows\n",
	       what, U(ip.o.g.units), U(ip.n.g.units), U(need.checkpoints),
	       U(s.window), U(s.every), U(n), U(windows));
}

static void test_issue_grows(void)
{
	static const u32 g22[2] = { 2, 2 }, g33[2] = { 3, 3 }, g2[2] = { 1, 1 };
	static const u32 g3[3] = { 1, 1, 1 };
	static const u8 map22[4] = { 0, 1, 3, 4 }, map2[2] = { 0, 1 };
	static const u32 w21[2] = { 2, 1 }, w211[3] = { 2, 1, 1 };
	u64 size[BDS_MAX_MEMBERS];
	u32 j;

	for (j = 0; j < BDS_MAX_MEMBERS; j++)
		size[j] = TIB_SECTORS;
	/* 2+2 -> 3+3: a disk added on each of two controllers */
	volume_geom(&ip.o, g22, 2, BDS_LAYOUT_INTERLEAVE, NULL, size, map22, 6);
	volume_geom(&ip.n, g33, 2, BDS_LAYOUT_INTERLEAVE, NULL, size, NULL, 0);
	issue_grow("2+2 -> 3+3 on 1 TiB members", TIB_SECTORS);

	/* 2 -> 3: a 1 TiB volume (two 512 GiB members) */
	for (j = 0; j < 3; j++)
		size[j] = TIB_SECTORS / 2;
	volume_geom(&ip.o, g2, 2, BDS_LAYOUT_INTERLEAVE, NULL, size, map2, 3);
	volume_geom(&ip.n, g3, 3, BDS_LAYOUT_INTERLEAVE, NULL, size, NULL, 0);
	issue_grow("a 1 TiB volume 2 -> 3 members", TIB_SECTORS / 2);

	/* weights recomputed: 2 TiB + 1 TiB (2,1) and a 1 TiB disk: 2,1,1 */
	size[0] = 2 * TIB_SECTORS;
	size[1] = size[2] = TIB_SECTORS;
	volume_geom(&ip.o, g2, 2, BDS_LAYOUT_INTERLEAVE, w21, size, map2, 3);
	volume_geom(&ip.n, g3, 3, BDS_LAYOUT_INTERLEAVE, w211, size, NULL, 0);
	for (j = 0; j < 3; j++)
		ip.end[j] = bds_label_backup_sector(size[j]);
	{
		struct bds_reshape_need need;
		u32 pbs[3] = { 8, 8, 8 };

		ip.n.g.units = 0;
		ip.r.old = &ip.o.g;
		ip.r.new = &ip.n.g;
		ip.r.dir = BDS_RESHAPE_FORWARD;
		bds_reshape_propose(&ip.n.g, &ip.o.g, BDS_RESHAPE_FORWARD,
				    ip.end, pbs);
		bool ok = !bds_reshape_check(&ip.r) &&
			  bds_reshape_feasible(&ip.r, ip.end, &need);

		check(ok && ip.n.g.units > ip.o.g.units,
		      "weights 2,1 recomputed to 2,1,1 with a disk added: feasible forward, %llu -> %llu units, %llu checkpoints forced",
		      U(ip.o.g.units), U(ip.n.g.units), U(need.checkpoints));
	}

	/* sequential -> interleave, the same four members */
	for (j = 0; j < 4; j++)
		size[j] = TIB_SECTORS;
	volume_geom(&ip.o, g22, 2, BDS_LAYOUT_SEQUENTIAL, NULL, size, NULL, 4);
	volume_geom(&ip.n, g22, 2, BDS_LAYOUT_INTERLEAVE, NULL, size, NULL, 0);
	issue_grow("sequential -> interleave of 2+2 1 TiB members", TIB_SECTORS);
}

/*
 * Re-weighting 1,1 to 2,1 without room: member 0's share rises from 1/2
 * to 2/3 of the same length.  Forward it needs about a sixth of the
 * volume below its data; backward its new data does not fit.
 */
static void test_infeasible(void)
{
	static const u32 g2[2] = { 1, 1 }, w21[2] = { 2, 1 };
	static const u8 map2[2] = { 0, 1 };
	struct bds_reshape_need need;
	u64 size[2] = { 1ULL << 25, 1ULL << 25 };	/* 16 GiB */
	u32 pbs[2] = { 8, 8 }, j;
	u64 a, most = 0, U;
	bool ok;

	volume_geom(&ip.o, g2, 2, BDS_LAYOUT_INTERLEAVE, NULL, size, map2, 2);
	volume_geom(&ip.n, g2, 2, BDS_LAYOUT_INTERLEAVE, w21, size, NULL, 0);
	U = ip.o.g.units;
	for (j = 0; j < 2; j++)
		ip.end[j] = bds_label_backup_sector(size[j]);
	ip.r.old = &ip.o.g;
	ip.r.new = &ip.n.g;
	ip.r.dir = BDS_RESHAPE_FORWARD;
	ip.n.g.units = (U + 2) / 3 * 3;
	bds_reshape_propose(&ip.n.g, &ip.o.g, BDS_RESHAPE_FORWARD, ip.end, pbs);
	ok = bds_reshape_feasible(&ip.r, NULL, &need);
	for (a = 0; a < U; a++) {
		u64 n = bds_geom_units_below(&ip.n.g, 0, a + 1);
		u64 o = bds_geom_units_below(&ip.o.g, 0, a);

		if (n > o && n - o > most)
			most = n - o;
	}
	check(!ok && need.why == BDS_RESHAPE_ROOM && need.member == 0 &&
	      need.have == 2048 - 128 && need.need == most * 128,
	      "share 1/2 -> 2/3 forward: refused, member %u, room %llu of %llu sectors (brute force %llu)",
	      need.member, U(need.have), U(need.need), U(most * 128));
	check(need.need > U * 128 / 6 - 1024 && need.need < U * 128 / 6 + 1024,
	      "the room it needs is a sixth of the volume (%llu of %llu sectors)",
	      U(need.need), U(U * 128));

	ip.r.dir = BDS_RESHAPE_BACKWARD;
	bds_reshape_propose(&ip.n.g, &ip.o.g, BDS_RESHAPE_BACKWARD, ip.end, pbs);
	ok = bds_reshape_feasible(&ip.r, ip.end, &need);
	check(!ok && need.why == BDS_RESHAPE_FIT && need.member == 0 &&
	      need.need == bds_geom_member_units(&ip.n.g, 0) * 128 &&
	      need.have == ip.end[0] - ip.n.g.offset[0],
	      "share 1/2 -> 2/3 backward, no room at the end: refused, member %u, %llu of %llu sectors",
	      need.member, U(need.have), U(need.need));
}

/*
 * Re-weighting after LUNs grew (1,1 -> 2,1 on two 1 TiB members): member
 * 0's share rises, member 1's falls.  Backward needs room at member 1's
 * end for what it gives up; bds_reshape_plan() finds the longest volume
 * that leaves it enough.
 */
static void test_reweight(void)
{
	static const u32 g2[2] = { 1, 1 }, w21[2] = { 2, 1 };
	static const u8 map2[2] = { 0, 1 };
	struct bds_reshape_need need;
	u64 size[2] = { TIB_SECTORS, TIB_SECTORS };
	u32 pbs[2] = { 8, 8 };
	bool ok;

	volume_geom(&ip.o, g2, 2, BDS_LAYOUT_INTERLEAVE, NULL, size, map2, 2);
	volume_geom(&ip.n, g2, 2, BDS_LAYOUT_INTERLEAVE, w21, size, NULL, 0);
	/* both LUNs grew: to 3 TiB and 1.5 TiB */
	ip.end[0] = bds_label_backup_sector(3 * TIB_SECTORS);
	ip.end[1] = bds_label_backup_sector(3 * TIB_SECTORS / 2);
	ok = bds_reshape_plan(&ip.n.g, &ip.o.g, BDS_RESHAPE_BACKWARD, ip.end,
			      pbs, &need);
	check(ok && ip.n.g.units > ip.o.g.units * 17 / 10,
	      "re-weight 1,1 -> 2,1 after the LUNs grew to 3 and 1.5 TiB: planned backward, %llu -> %llu units, %llu checkpoints forced",
	      U(ip.o.g.units), U(ip.n.g.units), U(need.checkpoints));
	/* only member 0's LUN grew: member 1 has nothing to give up into */
	ip.end[0] = bds_label_backup_sector(2 * TIB_SECTORS);
	ip.end[1] = bds_label_backup_sector(TIB_SECTORS);
	ok = bds_reshape_plan(&ip.n.g, &ip.o.g, BDS_RESHAPE_BACKWARD, ip.end,
			      pbs, &need);
	check(!ok && need.why == BDS_RESHAPE_ROOM && need.member == 1 &&
	      need.need > need.have && need.need - need.have <= 128,
	      "re-weight after only LUN 0 grew: refused, member 1 has %llu sectors of room at its end and needs %llu",
	      U(need.have), U(need.need));
	ip.end[1] += 4096;	/* 2 MiB more */
	ok = bds_reshape_plan(&ip.n.g, &ip.o.g, BDS_RESHAPE_BACKWARD, ip.end,
			      pbs, &need);
	check(ok && ip.n.g.units >= ip.o.g.units,
	      "the same with member 1's LUN 2 MiB larger: planned backward at %llu units",
	      U(ip.n.g.units));
}

/* bds_reshape_room_needed() is enough: with it every pair runs. */
static void test_room_needed(void)
{
	int iter, pairs = 0, stuck = 0, enough = 0, bad = 0;

	for (iter = 0; iter < 600; iter++) {
		enum bds_reshape_dir dir = iter & 1 ? BDS_RESHAPE_BACKWARD :
					   BDS_RESHAPE_FORWARD;
		struct bds_reshape_need need;
		u32 i, c;

		if (!random_pair(&pp, CHUNK, 1 + (u32)(rnd() % 8),
				 (u32)(rnd() % 5), 32, 1 + rnd() % 30, 0))
			continue;
		place_pair(&pp, dir, (u32)(rnd() % 3));
		if (bds_reshape_check(&pp.r))
			continue;
		pairs++;
		if (bds_reshape_feasible(&pp.r, NULL, &need))
			continue;
		stuck++;
		if (need.need <= need.have)
			bad++;
		c = pp.o.g.layout.chunk;
		/* give every old member the room it names, and go again */
		for (i = 0; i < pp.o.g.layout.nr_members; i++) {
			u64 want = bds_reshape_room_needed(&pp.r, i);
			u32 j = pp.o.g.member[i];

			if (dir == BDS_RESHAPE_FORWARD)
				pp.o.g.offset[i] = pp.n.g.offset[j] + want;
			else
				pp.n.g.offset[j] = pp.o.g.offset[i] + want;
			(void)c;
		}
		if (bds_reshape_feasible(&pp.r, NULL, &need))
			enough++;
	}
	check(stuck > 50 && enough == stuck && bad == 0,
	      "with the room bds_reshape_room_needed() names, every stuck pair runs (%d of %d pairs stuck, %d ran then)",
	      stuck, pairs, enough);
}

/*
 * bds_reshape_plan() finds the longest length that can run: against a
 * scan of every length from the old one to the most that fits.
 */
static void test_plan(void)
{
	int iter, pairs = 0, bad = 0, planned = 0, nonmono = 0, bad_short = 0;
	u32 pbs[BDS_MAX_MEMBERS];

	for (iter = 0; iter < BDS_MAX_MEMBERS; iter++)
		pbs[iter] = 1;
	for (iter = 0; iter < 300; iter++) {
		enum bds_reshape_dir dir = iter & 1 ? BDS_RESHAPE_BACKWARD :
					   BDS_RESHAPE_FORWARD;
		struct bds_reshape_need need;
		u64 c, lo, hi, best = 0, W;
		bool ok, seen_fail = false, lo_ok = false;
		u32 j;

		if (!random_pair(&pp, CHUNK, 1 + (u32)(rnd() % 5),
				 (u32)(rnd() % 3), 16, 1 + rnd() % 20, 0))
			continue;
		place_pair(&pp, dir, (u32)(rnd() % 4));
		/* some room at every end, more on some */
		for (j = 0; j < pp.n.g.layout.nr_members; j++)
			pp.end[j] += CHUNK * (rnd() % 40);
		W = pp.n.g.layout.nr_slots;
		lo = (pp.o.g.units + W - 1) / W;
		pp.n.g.units = 0;
		bds_reshape_propose(&pp.n.g, &pp.o.g, dir, pp.end, pbs);
		hi = pp.n.g.units / W;
		pairs++;
		for (c = lo; c <= hi; c++) {
			struct bds_reshape_need n2;

			pp.n.g.units = c * W;
			bds_reshape_propose(&pp.n.g, &pp.o.g, dir, pp.end, pbs);
			if (!bds_reshape_check(&pp.r) &&
			    bds_reshape_feasible(&pp.r, pp.end, &n2)) {
				best = c;
				lo_ok = lo_ok || c == lo;
				if (seen_fail)
					nonmono++;
			} else {
				seen_fail = true;
			}
		}
		ok = bds_reshape_plan(&pp.n.g, &pp.o.g, dir, pp.end, pbs, &need);
		planned += ok;
		if (ok != (best != 0) || (ok && pp.n.g.units != best * W))
			bad++;
		ok = bds_reshape_plan_shortest(&pp.n.g, &pp.o.g, dir, pp.end,
					       pbs, &need);
		if (ok != lo_ok || (ok && pp.n.g.units != lo * W))
			bad_short++;
	}
	check(pairs > 100 && planned > 30 && bad == 0 && nonmono == 0,
	      "plan: the longest length that can run, as a scan of every length finds (%d pairs, %d planned, %d wrong; %d where a longer one runs and a shorter not)",
	      pairs, planned, bad, nonmono);
	check(bad_short == 0,
	      "plan_shortest: the old length in whole new cycles, exactly when it can run (%d of %d pairs wrong)",
	      bad_short, pairs);
}

/* ---- offsets and schedule ----------------------------------------- */

static void test_propose(void)
{
	static const u32 g2[1] = { 2 }, g3[1] = { 3 };
	static const u8 map2[2] = { 0, 1 };
	u64 size[3] = { 1ULL << 24, 1ULL << 24, 1ULL << 24 };
	u32 pbs[3] = { 8, 8, 8 }, j;
	u64 data;

	volume_geom(&ip.o, g2, 1, BDS_LAYOUT_INTERLEAVE, NULL, size, map2, 3);
	volume_geom(&ip.n, g3, 1, BDS_LAYOUT_INTERLEAVE, NULL, size, NULL, 0);
	for (j = 0; j < 3; j++)
		ip.end[j] = bds_label_backup_sector(size[j]);
	ip.n.g.units = 0;
	bds_reshape_propose(&ip.n.g, &ip.o.g, BDS_RESHAPE_FORWARD, ip.end, pbs);
	check(ip.n.g.offset[0] == 128 && ip.n.g.offset[1] == 128 &&
	      ip.n.g.offset[2] == 2048,
	      "forward, 64 KiB unit: old members' data to sector 128, the new one's at 2048 (%llu, %llu, %llu)",
	      U(ip.n.g.offset[0]), U(ip.n.g.offset[1]), U(ip.n.g.offset[2]));
	check(ip.n.g.units == (bds_label_backup_sector(size[2]) - 2048) / 128 * 3,
	      "forward: the new length is the most whole cycles that fit (%llu units)",
	      U(ip.n.g.units));

	/* a 1 MiB unit: no multiple of it below 2048 but 0; 4 KiB steps */
	ip.o.g.layout.chunk = ip.n.g.layout.chunk = 2048;
	ip.o.g.offset[0] = ip.o.g.offset[1] = 2048;
	bds_reshape_propose(&ip.n.g, &ip.o.g, BDS_RESHAPE_FORWARD, ip.end, pbs);
	check(ip.n.g.offset[0] == 24,
	      "forward, 1 MiB unit: data to sector 24, the first 4 KiB block after the label (%llu)",
	      U(ip.n.g.offset[0]));
	ip.o.g.layout.chunk = ip.n.g.layout.chunk = 128;

	/* backward: up against the end, on a unit boundary */
	ip.n.g.units = ip.o.g.units;
	size[0] += 100000;
	ip.end[0] = bds_label_backup_sector(size[0]);
	bds_reshape_propose(&ip.n.g, &ip.o.g, BDS_RESHAPE_BACKWARD, ip.end, pbs);
	data = bds_geom_member_units(&ip.n.g, 0) * 128;
	check(ip.n.g.offset[0] % 128 == 0 && ip.n.g.offset[0] + data <= ip.end[0] &&
	      ip.n.g.offset[0] + data + 128 > ip.end[0] &&
	      ip.n.g.offset[0] >= ip.o.g.offset[0],
	      "backward: data moved up to %llu, ending %llu sectors before the backup label",
	      U(ip.n.g.offset[0]), U(ip.end[0] - ip.n.g.offset[0] - data));
	check(ip.n.g.offset[2] == 2048,
	      "backward: a new member at the default offset (%llu)",
	      U(ip.n.g.offset[2]));
}

/*
 * A member whose backup label lies in front of its data (FRONT_BACKUP)
 * has a lowest data offset, min_offset (BDS_LABEL_FRONT_DATA): forward,
 * bds_reshape_propose() never moves its data below it, and
 * bds_reshape_check() refuses a new geometry that does.
 */
static void test_min_offset(void)
{
	static const u32 g2[1] = { 2 }, g3[1] = { 3 };
	static const u8 map2[2] = { 0, 1 };
	u64 size[3] = { 1ULL << 24, 1ULL << 24, 1ULL << 24 };
	u32 pbs[3] = { 8, 8, 8 }, j;

	volume_geom(&ip.o, g2, 1, BDS_LAYOUT_INTERLEAVE, NULL, size, map2, 3);
	memset(ip.n.g.min_offset, 0xff, sizeof(ip.n.g.min_offset));
	volume_geom(&ip.n, g3, 1, BDS_LAYOUT_INTERLEAVE, NULL, size, NULL, 0);
	check(bds_bytes_zero(ip.n.g.min_offset, sizeof(ip.n.g.min_offset)),
	      "min_offset: zero for every member from bds_geom_init()");
	for (j = 0; j < 3; j++)
		ip.end[j] = bds_label_backup_sector(size[j]);
	ip.n.g.min_offset[1] = BDS_LABEL_FRONT_DATA;
	ip.n.g.units = 0;
	bds_reshape_propose(&ip.n.g, &ip.o.g, BDS_RESHAPE_FORWARD, ip.end, pbs);
	check(ip.o.g.offset[0] == 2048 && ip.o.g.offset[1] == 2048 &&
	      ip.n.g.offset[0] == 128 && ip.n.g.offset[1] == 2048 &&
	      ip.n.g.offset[2] == 2048,
	      "min_offset: forward, member 1 at 2048 with a front backup stays at 2048, member 0 to 128 (%llu, %llu, %llu)",
	      U(ip.n.g.offset[0]), U(ip.n.g.offset[1]), U(ip.n.g.offset[2]));
	ip.r.old = &ip.o.g;
	ip.r.new = &ip.n.g;
	ip.r.dir = BDS_RESHAPE_FORWARD;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_OK,
	      "min_offset: the proposed pair is valid: %s",
	      bds_reshape_error(bds_reshape_check(&ip.r)));
	ip.n.g.offset[1] = 128;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_ERR_OFFSET,
	      "min_offset: member 1's data moved to 128, below its 2048: %s",
	      bds_reshape_error(bds_reshape_check(&ip.r)));
	ip.n.g.offset[1] = 2040;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_ERR_OFFSET,
	      "min_offset: member 1's data moved to 2040, over its backup copy: %s",
	      bds_reshape_error(bds_reshape_check(&ip.r)));
	ip.n.g.min_offset[1] = 0;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_OK,
	      "min_offset: the same at 2040 without a front backup: valid");

	/* old data higher up: forward to min_offset, not below it */
	ip.o.g.offset[1] = 4096;
	ip.n.g.min_offset[1] = BDS_LABEL_FRONT_DATA;
	ip.n.g.units = 0;
	bds_reshape_propose(&ip.n.g, &ip.o.g, BDS_RESHAPE_FORWARD, ip.end, pbs);
	check(ip.n.g.offset[0] == 128 && ip.n.g.offset[1] == 2048 &&
	      !bds_reshape_check(&ip.r),
	      "min_offset: forward, member 1's old data at 4096 moves down to 2048, not 128 (%llu)",
	      U(ip.n.g.offset[1]));

	/* a 1 MiB unit: the grid's next step below 2048 is 0, so 2048 */
	ip.o.g.layout.chunk = ip.n.g.layout.chunk = 2048;
	ip.o.g.offset[0] = ip.o.g.offset[1] = 2048;
	bds_reshape_propose(&ip.n.g, &ip.o.g, BDS_RESHAPE_FORWARD, ip.end, pbs);
	check(ip.n.g.offset[0] == 24 && ip.n.g.offset[1] == 2048,
	      "min_offset: forward, 1 MiB unit: member 0 to 24, member 1 stays at 2048 (%llu, %llu)",
	      U(ip.n.g.offset[0]), U(ip.n.g.offset[1]));
	ip.o.g.layout.chunk = ip.n.g.layout.chunk = 128;
	memset(ip.n.g.min_offset, 0, sizeof(ip.n.g.min_offset));
}

static void test_schedule(void)
{
	struct bds_reshape_sched s;
	int iter, bad = 0, runs = 0;

	bds_reshape_sched_init(&s, 128, 0, 0);
	check(s.window == 64 && s.every == 1024,
	      "default schedule, 64 KiB unit: windows of 64 units (4 MiB), a checkpoint at least every 1024 (64 MiB)");
	bds_reshape_sched_init(&s, 8192, 0, 0);
	check(s.window == 1 && s.every == 16,
	      "default schedule, 4 MiB unit: windows of one unit, a checkpoint every 16");
	for (iter = 0; iter < 200; iter++) {
		enum bds_reshape_dir dir = iter & 1 ? BDS_RESHAPE_BACKWARD :
					   BDS_RESHAPE_FORWARD;
		u64 windows, gap, n;
		bool within;

		if (!random_pair(&pp, CHUNK, 1 + (u32)(rnd() % 8),
				 1 + (u32)(rnd() % 4), 32, 1 + rnd() % 50, 0))
			continue;
		place_pair(&pp, dir, 1 + (u32)(rnd() % 30));
		if (bds_reshape_check(&pp.r))
			continue;
		bds_reshape_sched_init(&s, CHUNK, CHUNK * (1 + rnd() % 5),
				       CHUNK * (1 + rnd() % 40));
		n = run_schedule(&pp.r, &s, &windows, &gap, &within);
		if (!n)
			continue;
		runs++;
		if (!within || gap > s.every)
			bad++;
	}
	check(runs > 50 && bad == 0,
	      "the schedule: windows of at most S units within the frontier, checkpoints at most C apart (%d runs, %d wrong)",
	      runs, bad);
}

static void test_checks(void)
{
	static const u32 g2[1] = { 2 }, g3[1] = { 3 };
	static const u8 map2[2] = { 0, 1 }, twice[2] = { 1, 1 }, far[2] = { 0, 3 };
	u64 off[3] = { 2048, 2048, 2048 };

	tgeom_make(&ip.n, 128, g3, 1, BDS_LAYOUT_INTERLEAVE, NULL, 100, NULL, off, 0);
	check(!tgeom_make(&ip.o, 128, g2, 1, BDS_LAYOUT_INTERLEAVE, NULL, 100,
			  twice, off, 3),
	      "an old geometry naming one member twice: refused");
	check(!tgeom_make(&ip.o, 128, g2, 1, BDS_LAYOUT_INTERLEAVE, NULL, 100,
			  far, off, 3),
	      "an old member beyond the new table: refused");
	tgeom_make(&ip.o, 128, g2, 1, BDS_LAYOUT_INTERLEAVE, NULL, 100, map2, off, 3);
	ip.r.old = &ip.o.g;
	ip.r.new = &ip.n.g;
	ip.r.dir = BDS_RESHAPE_FORWARD;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_OK,
	      "2 -> 3 members, same offsets: a valid pair");
	ip.r.dir = 2;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_ERR_DIR, "direction 2: %s",
	      bds_reshape_error(bds_reshape_check(&ip.r)));
	ip.r.dir = BDS_RESHAPE_FORWARD;
	ip.n.g.units = 150;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_ERR_SHRINK, "shorter: %s",
	      bds_reshape_error(bds_reshape_check(&ip.r)));
	ip.n.g.units = 300;
	ip.n.g.offset[1] = 4096;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_ERR_OFFSET,
	      "forward with data moving up: %s",
	      bds_reshape_error(bds_reshape_check(&ip.r)));
	ip.r.dir = BDS_RESHAPE_BACKWARD;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_OK,
	      "backward with data moving up: valid");
	ip.n.g.offset[1] = 16;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_ERR_OFFSET,
	      "data offset 16, in the primary label: %s",
	      bds_reshape_error(bds_reshape_check(&ip.r)));
	ip.n.g.offset[1] = 2048;
	ip.n.g.layout.chunk = 256;
	check(bds_reshape_check(&ip.r) == BDS_RESHAPE_ERR_CHUNK, "another chunk: %s",
	      bds_reshape_error(bds_reshape_check(&ip.r)));
	ip.n.g.layout.chunk = 128;
	check(!tgeom_make(&ip.o, 128, g2, 1, BDS_LAYOUT_INTERLEAVE, NULL, 0,
			  map2, off, 3), "a length of 0 cycles: refused");
}

/*
 * The golden label mid-restripe (label-golden.h) as geometries: the
 * golden volume restriped forward from members 0 and 2, at checkpoint
 * 2231, a state the copy leaves, and its next steps.
 */
static void test_from_label(void)
{
	static struct bds_geom_slots sn, so;
	static struct bds_geom gn, go;
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label want, l;
	struct bds_reshape r;
	struct bds_reshape_sched s;
	struct bds_reshape_step st;
	enum bds_reshape_err err;
	u64 left, p;
	u32 dev;

	golden_reshape_label(&want);
	bds_label_encode(&want, buf);
	if (bds_label_decode(buf, sizeof(buf), &l)) {
		check(false, "the golden label mid-restripe decodes");
		return;
	}
	err = bds_reshape_from_label(&l, &gn, &sn, &go, &so);
	r.old = &go;
	r.new = &gn;
	r.dir = (enum bds_reshape_dir)l.reshape_dir;
	check(!err && !bds_reshape_check(&r) && gn.units == 98253 &&
	      go.units == 65502 && go.member[0] == 0 && go.member[1] == 2 &&
	      go.index[1] == BDS_GEOM_NONE && go.offset[1] == 2048 &&
	      gn.offset[0] == 128 && gn.offset[1] == 2048,
	      "golden label mid-restripe: 65502 units on members 0, 2 at 2048 -> 98253 on 0, 1, 2 at 128, 2048, 128 (%s)",
	      bds_reshape_error(err));
	check(bds_reshape_pos_ok(&r, 2231) &&
	      bds_reshape_frontier(&r, 2231) == 3392,
	      "its checkpoint 2231 is a state of the copy; the frontier from it is unit %llu",
	      U(bds_reshape_frontier(&r, 2231)));
	bds_reshape_sched_init(&s, 128, 0, 0);
	check(bds_reshape_next(&r, &s, 2231, 2231, &st) && st.start == 2231 &&
	      st.end == 2295 && !st.checkpoint,
	      "the copy goes on with units 2231 to 2294, no checkpoint yet");
	check(bds_reshape_geom_of(&r, 2231, 2231 * 128 - 1, &left) == &gn &&
	      left == 1 && bds_reshape_geom_of(&r, 2231, 2231 * 128, &left) == &go,
	      "unit 2230 is read from the new geometry, unit 2231 from the old");
	bds_geom_map(&go, 2231 * 128, &dev, &p);
	check(dev == 2 && p == 2048 + 1115 * 128,
	      "unit 2231 in the old geometry: member 2, sector %llu (2048 + 1115 units)",
	      U(p));
	bds_geom_map(&gn, 2230 * 128, &dev, &p);
	check(dev == 1 && p == 2048 + 743 * 128,
	      "unit 2230 in the new geometry: member 1, sector %llu (2048 + 743 units)",
	      U(p));
	/* the new geometry weighted 3,2,1: member 1 holds two units a cycle */
	golden_reshape_label(&want);
	want.weight[0] = 3;
	want.weight[1] = 2;
	want.incompat |= BDS_LABEL_INCOMPAT_WEIGHTS;
	want.data_sectors = 10917 * 128 * 2;
	want.old_member_len = 4192128 / 3 / 128 * 128;
	bds_label_encode(&want, buf);
	err = bds_label_decode(buf, sizeof(buf), &l) ? BDS_RESHAPE_ERR_LAYOUT :
	      bds_reshape_from_label(&l, &gn, &sn, &go, &so);
	check(!err && gn.units == 10917 * 6 && go.units == 10917 * 2 &&
	      bds_weight(&gn.layout, 0) == 3 && gn.layout.nr_slots == 6 &&
	      bds_reshape_pos_ok(&r, 2231),
	      "weighted 3,2,1 mid-restripe: %llu -> %llu units, W = %u (%s)",
	      U(go.units), U(gn.units), gn.layout.nr_slots,
	      bds_reshape_error(err));
	golden_label(&want);
	err = bds_reshape_from_label(&want, &gn, &sn, &go, &so);
	check(!err && gn.units == 98253 && bds_bytes_zero(&go, sizeof(go)),
	      "the golden label without RESHAPE: one geometry, the old one left zero");
}

/* bds_geom_same(): every field of a geometry counts. */
static void test_same(void)
{
	static const u32 g21[2] = { 2, 1 }, g3[1] = { 3 }, w121[3] = { 1, 2, 1 };
	static const u8 m012[3] = { 0, 1, 2 }, m021[3] = { 0, 2, 1 };
	static struct tgeom a, b;
	u64 off[3] = { 2048, 2048, 2048 };

	tgeom_make(&a, 128, g21, 2, BDS_LAYOUT_INTERLEAVE, w121, 10, m012, off, 4);
	tgeom_make(&b, 128, g21, 2, BDS_LAYOUT_INTERLEAVE, w121, 10, m012, off, 4);
	check(bds_geom_same(&a.g, &b.g), "the same geometry built twice: the same");
	b.g.units += b.g.layout.nr_slots;
	check(!bds_geom_same(&a.g, &b.g), "one cycle longer: not the same");
	tgeom_make(&b, 128, g21, 2, BDS_LAYOUT_INTERLEAVE, w121, 10, m021, off, 4);
	check(!bds_geom_same(&a.g, &b.g), "members 1 and 2 swapped: not the same");
	off[2] = 1024;
	tgeom_make(&b, 128, g21, 2, BDS_LAYOUT_INTERLEAVE, w121, 10, m012, off, 4);
	check(!bds_geom_same(&a.g, &b.g), "another data offset: not the same");
	off[2] = 2048;
	tgeom_make(&b, 256, g21, 2, BDS_LAYOUT_INTERLEAVE, w121, 10, m012, off, 4);
	b.g.units = a.g.units;
	check(!bds_geom_same(&a.g, &b.g), "another chunk: not the same");
	tgeom_make(&b, 128, g21, 2, BDS_LAYOUT_INTERLEAVE, NULL, 10, m012, off, 4);
	b.g.units = a.g.units;
	check(!bds_geom_same(&a.g, &b.g), "weights 1,1,1 for 1,2,1: not the same");
	tgeom_make(&b, 128, g3, 1, BDS_LAYOUT_INTERLEAVE, w121, 10, m012, off, 4);
	check(!bds_geom_same(&a.g, &b.g), "one group of 3 for 2,1: not the same");
	tgeom_make(&a, 128, g21, 2, BDS_LAYOUT_INTERLEAVE, NULL, 10, m012, off, 4);
	tgeom_make(&b, 128, g21, 2, BDS_LAYOUT_SEQUENTIAL, NULL, 10, m012, off, 4);
	check(!bds_geom_same(&a.g, &b.g), "sequential for interleave: not the same");
}

int main(int argc, char **argv)
{
	tap_rng = 0x7265736861706521ULL;
	if (argc > 1 && !strcmp(argv[1], "model")) {
		test_model_small();
		test_model_random();
		return tap_done();
	}
	test_counts();
	test_frontier();
	test_map();
	test_checks();
	test_same();
	test_propose();
	test_min_offset();
	test_schedule();
	test_issue_grows();
	test_infeasible();
	test_room_needed();
	test_plan();
	test_reweight();
	test_from_label();
	test_model_small();
	test_model_random();
	return tap_done();
}
