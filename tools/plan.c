// SPDX-License-Identifier: GPL-2.0
/*
 * The geometry: the stripe unit (given, or from --transfer-size), the
 * layout exactly as the kernel computes it, the usable length.
 * See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "fmt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The plan's state (plan.h)                                           */

void plan_init(struct plan_ctx *c, const char *prog)
{
	memset(c, 0, sizeof(*c));
	c->prog = prog;
	c->opt.sysfs = "/sys";
	c->opt.mounts = "/proc/self/mounts";
	c->opt.mode = BDS_LAYOUT_INTERLEAVE;
	c->opt.ra_mode = RA_AUTO;
	c->opt.real_sysfs = true;
}

void plan_free(struct plan_ctx *c)
{
	int i;

	for (i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	for (i = 0; i < c->nspec; i++)
		free(c->spec_args[i]);
	free(c->spec_args);
	plan_meas_free(c->meas);
	free(c->opt.disk_list);
	free(c->opt.ctrl_list);
	free(c->mem);
	free(c->tbl);
	free(c->ctrls);
	free(c->group_sizes);
	free(c->why);
}

/* ------------------------------------------------------------------ */
/* Chunk                                                               */

static u64 gcd64(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static u32 max_lbs(const struct plan_ctx *c)
{
	u32 lbs = 512;
	int i;

	for (i = 0; i < c->nmem; i++)
		if (c->mem[i].lbs > lbs)
			lbs = c->mem[i].lbs;
	return lbs;
}

u32 max_pbs(const struct plan_ctx *c)
{
	u32 pbs = 512;
	int i;

	for (i = 0; i < c->nmem; i++)
		if (c->mem[i].pbs > pbs)
			pbs = c->mem[i].pbs;
	return pbs;
}

/*
 * --transfer-size @tbytes impossible with stripe units of multiples of
 * @align: the reason, with the nearest sizes that work.
 */
static enum plan_status transfer_impossible(struct plan_ctx *c, u64 tbytes,
					    u64 align, u64 n, const char *who,
					    const char *widths)
{
	char h1[64], h2[64], h3[64], h4[64], h5[64];
	u64 step = n * align, lo = tbytes / step * step;

	bds_human(tbytes, h1, sizeof(h1));
	bds_human(align, h2, sizeof(h2));
	bds_human(step, h3, sizeof(h3));
	if (lo)
		return plan_fail(c, "--transfer-size %s (%s) is impossible: with %s and a stripe unit that is a multiple of %s, a whole number of %s is a multiple of %s (nearest: %s or %s)",
				 c->opt.transfer_arg, h1, who, h2, widths, h3,
				 bds_human(lo, h4, sizeof(h4)),
				 bds_human(lo + step, h5, sizeof(h5)));
	return plan_fail(c, "--transfer-size %s (%s) is impossible: with %s and a stripe unit that is a multiple of %s, a whole number of %s is a multiple of %s (smallest: %s)",
			 c->opt.transfer_arg, h1, who, h2, widths, h3, h3);
}

/* The smallest divisor of @q that is @kmin or more; 0 if none. */
static u64 smallest_divisor(u64 q, u64 kmin)
{
	u64 i, best = 0;

	for (i = 1; i * i <= q; i++) {
		if (q % i)
			continue;
		if (i >= kmin && (!best || i < best))
			best = i;
		if (q / i >= kmin && (!best || q / i < best))
			best = q / i;
	}
	return best;
}

/*
 * --transfer-size T: the largest chunk c (a multiple of 4 KiB and of
 * every logical block size) with T = k * N * c for a whole k >= 1, the
 * stripe width N * c fitting 32 bits in bytes.  The largest chunk is
 * the smallest admissible k.  With a list of weights, W (their sum) in
 * place of N: T is then a whole number of cycles.  The chunk in bytes
 * into @chunk_b, k into @r.
 */
static enum plan_status chunk_from_transfer(struct plan_ctx *c,
					    struct plan_result *r, u64 tbytes,
					    u32 units, u64 *chunk_b)
{
	const char *widths = units == (u32)c->nmem ? "stripe widths" : "cycles";
	u64 n = units, align, q, kmin, best, maxchunk;
	char who[64], h1[64];

	if (units == (u32)c->nmem)
		snprintf(who, sizeof(who), "%d members", c->nmem);
	else
		snprintf(who, sizeof(who), "weights adding up to %u", units);
	align = BDS_CHUNK_ALIGN * SECTOR;
	align = align / gcd64(align, max_lbs(c)) * max_lbs(c);
	if (tbytes == 0 || tbytes % (n * align))
		return transfer_impossible(c, tbytes, align, n, who, widths);
	q = tbytes / (n * align);
	/* chunk = align * q / k <= maxchunk, the stripe width fitting 32 bits */
	maxchunk = BDS_MAX_IO_BYTES / n / align;	/* in units of align */
	if (!maxchunk)
		return plan_fail(c, "--transfer-size: no stripe unit fits: %s x %s exceed the 32-bit stripe width",
				 who, bds_human(align, h1, sizeof(h1)));
	kmin = (q + maxchunk - 1) / maxchunk;
	best = smallest_divisor(q, kmin);
	if (!best)
		return plan_fail(c, "--transfer-size %s: no stripe unit fits the 32-bit stripe width",
				 c->opt.transfer_arg);
	r->transfer_k = (unsigned int)best;
	*chunk_b = align * (q / best);
	return PLAN_OK;
}

/* ------------------------------------------------------------------ */
/* The plan                                                            */

/* <sysfs>/devices, and room for @nargs members and their controllers. */
static enum plan_status plan_start(struct plan_ctx *c, int nargs)
{
	if (nargs > MAX_ARGS)
		return plan_fail(c, "%s",
				 bds_geom_error(BDS_ERR_TOO_MANY_MEMBERS));
	if (!realpath(c->opt.sysfs, c->devroot))
		return plan_fail(c, "--sysfs %s: %s", c->opt.sysfs,
				 strerror(errno));
	if (strlen(c->devroot) + sizeof("/devices") > sizeof(c->devroot))
		return plan_fail(c, "--sysfs %s: path too long", c->opt.sysfs);
	strcat(c->devroot, "/devices");
	c->nmem = nargs;
	c->mem = calloc((size_t)c->nmem, sizeof(*c->mem));
	c->ctrls = calloc((size_t)c->nmem, sizeof(*c->ctrls));
	if (!c->mem || !c->ctrls)
		return plan_fail(c, "out of memory");
	return PLAN_OK;
}

/*
 * The syntax of --chunk (into @chunk_b, else the default) and of
 * --transfer-size: refused before any device is looked at.
 */
static enum plan_status chunk_words(struct plan_ctx *c, u64 *chunk_b)
{
	const char *arg = c->opt.chunk_arg;
	u64 t;

	*chunk_b = DEFAULT_CHUNK_BYTES;
	if (arg && !parse_size(arg, chunk_b))
		return plan_fail(c, "--chunk %s: not a size (number with optional s, K, M or G)",
				 arg);
	if (arg && *chunk_b % SECTOR)
		return plan_fail(c, "--chunk %s: not a whole number of 512-byte sectors",
				 arg);
	if (c->opt.transfer_arg && !parse_size(c->opt.transfer_arg, &t))
		return plan_fail(c, "--transfer-size %s: not a size (number with optional s, K, M or G)",
				 c->opt.transfer_arg);
	return PLAN_OK;
}

/* The devices: found, checked, grouped, their speeds. */
static enum plan_status plan_devices(struct plan_ctx *c, char **args)
{
	enum plan_status st = PLAN_OK;
	int i;

	for (i = 0; i < c->nmem && !st; i++) {
		c->mem[i].arg = args[i];
		st = resolve(c, &c->mem[i]);
	}
	if (st)
		return st;
	sort_controllers(c);
	st = check_members(c);
	if (!st)
		st = make_groups(c);
	if (!st && c->opt.measure && c->opt.before_measure)
		st = c->opt.before_measure(c, c->opt.before_measure_arg);
	if (!st && c->opt.measure)
		st = plan_measure(c);
	if (!st && c->opt.speeds)
		st = c->opt.speeds(c, c->opt.speeds_arg);
	if (!st)
		st = plan_speeds(c);
	return st;
}

/* The weights, 1 or --weights LIST, and their sum into @units. */
static enum plan_status listed_weights(struct plan_ctx *c,
				       struct plan_result *r, u32 *units)
{
	char mid[160];
	const char *why;
	int i;

	/* more than 128 members: bds_layout_init() says so */
	for (i = 0; i < c->nmem && i < BDS_MAX_MEMBERS; i++)
		r->weight[i] = 1;
	if (c->opt.weights == WT_LIST && c->nmem <= BDS_MAX_MEMBERS) {
		why = plan_weights_list(c, r);
		if (why)
			return plan_fail(c, "--weights %s: %s (%d members, table order)",
					 c->opt.weights_arg,
					 bds_mid(why, mid, sizeof(mid)), c->nmem);
	}
	*units = 0;
	for (i = 0; i < c->nmem; i++)
		*units += i < BDS_MAX_MEMBERS ? r->weight[i] : 1;
	return PLAN_OK;
}

/* What bds_layout_init() refused, in the words of the option at fault. */
static enum plan_status layout_refused(struct plan_ctx *c,
				       enum bds_geom_err err)
{
	bool about_chunk = err == BDS_ERR_CHUNK_ZERO ||
			   err == BDS_ERR_CHUNK_ALIGN ||
			   err == BDS_ERR_CHUNK_TOO_BIG ||
			   err == BDS_ERR_WIDTH_TOO_BIG;
	const char *what = !about_chunk ? NULL :
			   c->opt.chunk_arg ? "--chunk" :
			   c->opt.transfer_arg ? "--transfer-size" : NULL;
	char mid[160];

	if (err == BDS_ERR_TOO_MANY_GROUPS && !c->groups_from_spec)
		return plan_fail(c, "%s (%d controllers found; merge some with --groups)",
				 bds_geom_error(err), c->ngroups);
	if (what)
		return plan_fail(c, "%s %s: %s", what, c->opt.chunk_arg ?
				 c->opt.chunk_arg : c->opt.transfer_arg,
				 bds_mid(bds_geom_error(err), mid, sizeof(mid)));
	return plan_fail(c, "%s", bds_geom_error(err));
}

/*
 * The layout for stripe unit @chunk_b, every geometry limit exactly as
 * the kernel checks it, and the weights' slots.
 */
static enum plan_status plan_layout(struct plan_ctx *c, struct plan_result *r,
				    u64 chunk_b)
{
	enum bds_geom_err err;
	int i;

	err = bds_layout_init(&r->layout, chunk_b / SECTOR, c->group_sizes,
			      (u32)c->ngroups, c->opt.mode);
	if (err != BDS_OK)
		return layout_refused(c, err);
	for (i = 0; i < c->nmem; i++)
		if (chunk_b % c->mem[i].lbs)
			return plan_fail(c, "Chunk size is not a multiple of a member's logical block size: %s has %u-byte blocks, the stripe unit is %llu bytes",
					 c->mem[i].name, c->mem[i].lbs,
					 U(chunk_b));
	return plan_weights(c, r, chunk_b / SECTOR);
}

/*
 * Whole cycles every member holds (member i: w_i stripe units of each)
 * into @cycles; a weighted member too small for one is refused.
 */
static enum plan_status whole_cycles(struct plan_ctx *c,
				     const struct plan_result *r, u64 chunk_b,
				     u64 *cycles)
{
	u64 chunk = chunk_b / SECTOR;
	char h1[64], h2[64];
	int i;

	*cycles = UINT64_MAX;
	for (i = 0; i < c->nmem; i++)
		if (c->tbl[i]->size / (chunk * r->weight[i]) < *cycles)
			*cycles = c->tbl[i]->size / (chunk * r->weight[i]);
	for (i = 0; r->weighted && !*cycles && i < c->nmem; i++)
		if (!(c->tbl[i]->size / (chunk * r->weight[i])))
			return plan_fail(c, "%s is too small: %s, less than its %u stripe units of a cycle (%s)",
					 c->tbl[i]->name,
					 bds_human(c->tbl[i]->size * SECTOR, h1,
						   sizeof(h1)),
					 r->weight[i],
					 bds_human(chunk_b * r->weight[i], h2,
						   sizeof(h2)));
	return PLAN_OK;
}

/* The smallest member, refused: not one stripe unit. */
static enum plan_status smallest_too_small(struct plan_ctx *c, u64 chunk_b)
{
	u64 min_size = UINT64_MAX;
	char h1[64], h2[64];
	int i, s = 0;

	for (i = 0; i < c->nmem; i++)
		if (c->mem[i].size < min_size) {
			min_size = c->mem[i].size;
			s = i;
		}
	return plan_fail(c, "%s is too small: %s, less than one stripe unit (%s)",
			 c->mem[s].name,
			 bds_human(min_size * SECTOR, h1, sizeof(h1)),
			 bds_human(chunk_b, h2, sizeof(h2)));
}

/* The volume's length: whole cycles on every member. */
static enum plan_status plan_length(struct plan_ctx *c, struct plan_result *r,
				    u64 chunk_b)
{
	const struct bds_layout *l = &r->layout;
	u64 cycles, member_len, length, check_len;
	enum plan_status st;

	st = whole_cycles(c, r, chunk_b, &cycles);
	if (st)
		return st;
	member_len = cycles * (chunk_b / SECTOR);
	if (!member_len)
		return smallest_too_small(c, chunk_b);
	if (member_len > UINT64_MAX / l->nr_slots)
		return plan_fail(c, "the volume would exceed 2^64 sectors");
	length = member_len * l->nr_slots;
	if (!bds_member_len(l, length, &check_len) || check_len != member_len)
		return plan_fail(c, "internal error: length %llu is not a whole number of stripes",
				 U(length));
	/* with weights, read-ahead goes by cycles: optimal_io_size is one */
	r->width_b = chunk_b * l->nr_slots;
	r->chunk_b = chunk_b;
	r->member_len = member_len;
	r->length = length;
	return PLAN_OK;
}

/*
 * Resolve the devices, check them, group them and compute the geometry
 * exactly as the kernel will, into @r; the first thing wrong stops it.
 */
enum plan_status plan_build(struct plan_ctx *c, char **args, int nargs,
			    struct plan_result *r)
{
	enum plan_status st;
	u64 chunk_b = 0, t = 0;
	u32 units = 0;

	memset(r, 0, sizeof(*r));
	st = plan_start(c, nargs);
	if (!st)
		st = chunk_words(c, &chunk_b);
	if (!st)
		st = plan_devices(c, args);
	if (!st)
		st = listed_weights(c, r, &units);
	if (!st && c->opt.transfer_arg) {
		parse_size(c->opt.transfer_arg, &t);
		st = chunk_from_transfer(c, r, t, units, &chunk_b);
	}
	if (!st)
		st = plan_layout(c, r, chunk_b);
	if (!st)
		st = plan_length(c, r, chunk_b);
	return st;
}
