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
	c->opt.dmsetup = "dmsetup";
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
	free(c->opt.disk_list);
	free(c->opt.ctrl_list);
	free(c->mem);
	free(c->tbl);
	free(c->ctrls);
	free(c->group_sizes);
	free(c->why);
}

/* Until every step returns to the verb: say why and exit. */
static void stop(struct plan_ctx *c, enum plan_status st)
{
	if (st)
		exit(plan_exit(c, st));
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
 * --transfer-size T: the largest chunk c (a multiple of 4 KiB and of
 * every logical block size) with T = k * N * c for a whole k >= 1, the
 * stripe width N * c fitting 32 bits in bytes.  The largest chunk is
 * the smallest admissible k.  With a list of weights, W (their sum) in
 * place of N: T is then a whole number of cycles.
 */
static u64 chunk_from_transfer(struct plan_ctx *c, u64 tbytes, u32 units)
{
	char h1[64], h2[64], h3[64], h4[64], h5[64], who[64];
	u64 n = units, align, q, kmin, best = 0, i, maxchunk;
	const char *widths = units == (u32)c->nmem ? "stripe widths" : "cycles";

	if (units == (u32)c->nmem)
		snprintf(who, sizeof(who), "%d members", c->nmem);
	else
		snprintf(who, sizeof(who), "weights adding up to %u", units);
	align = BDS_CHUNK_ALIGN * SECTOR;
	align = align / gcd64(align, max_lbs(c)) * max_lbs(c);
	if (tbytes == 0 || tbytes % (n * align)) {
		u64 step = n * align, lo = tbytes / step * step;

		bds_human(tbytes, h1, sizeof(h1));
		bds_human(align, h2, sizeof(h2));
		bds_human(step, h3, sizeof(h3));
		if (lo)
			refuse(c, "--transfer-size %s (%s) is impossible: with %s and a stripe unit that is a multiple of %s, a whole number of %s is a multiple of %s (nearest: %s or %s)",
			       c->opt.transfer_arg, h1, who, h2, widths, h3,
			       bds_human(lo, h4, sizeof(h4)),
			       bds_human(lo + step, h5, sizeof(h5)));
		refuse(c, "--transfer-size %s (%s) is impossible: with %s and a stripe unit that is a multiple of %s, a whole number of %s is a multiple of %s (smallest: %s)",
		       c->opt.transfer_arg, h1, who, h2, widths, h3, h3);
	}
	q = tbytes / (n * align);
	/* chunk = align * q / k <= maxchunk, the stripe width fitting 32 bits */
	maxchunk = BDS_MAX_IO_BYTES / n / align;	/* in units of align */
	if (!maxchunk)
		refuse(c, "--transfer-size: no stripe unit fits: %s x %s exceed the 32-bit stripe width",
		       who, bds_human(align, h1, sizeof(h1)));
	kmin = (q + maxchunk - 1) / maxchunk;
	for (i = 1; i * i <= q; i++) {
		if (q % i)
			continue;
		if (i >= kmin && (!best || i < best))
			best = i;
		if (q / i >= kmin && (!best || q / i < best))
			best = q / i;
	}
	if (!best)
		refuse(c, "--transfer-size %s: no stripe unit fits the 32-bit stripe width",
		       c->opt.transfer_arg);
	c->transfer_k = (unsigned int)best;
	return align * (q / best);
}


/* ------------------------------------------------------------------ */
/* The plan                                                            */

/*
 * Resolve the devices, check them, group them and compute the geometry
 * exactly as the kernel will; refuses (and exits) on anything wrong.
 * Fills the table line (c->table) too.
 */
void plan_build(struct plan_ctx *c, char **args, int nargs,
		struct plan_result *r)
{
	struct bds_layout *layout = &r->layout;
	enum bds_geom_err err;
	u64 chunk_b, chunk, min_size, member_len, length, check_len, cycles;
	u32 units = 0;
	int i;

	memset(r, 0, sizeof(*r));
	if (nargs > MAX_ARGS)
		refuse(c, "%s", bds_geom_error(BDS_ERR_TOO_MANY_MEMBERS));
	if (!realpath(c->opt.sysfs, c->devroot))
		refuse(c, "--sysfs %s: %s", c->opt.sysfs, strerror(errno));
	if (strlen(c->devroot) + sizeof("/devices") > sizeof(c->devroot))
		refuse(c, "--sysfs %s: path too long", c->opt.sysfs);
	strcat(c->devroot, "/devices");

	c->nmem = nargs;
	c->mem = calloc((size_t)c->nmem, sizeof(*c->mem));
	c->ctrls = calloc((size_t)c->nmem, sizeof(*c->ctrls));
	if (!c->mem || !c->ctrls)
		refuse(c, "out of memory");

	/* the stripe unit's syntax first: no need to look at devices */
	chunk_b = DEFAULT_CHUNK_BYTES;
	if (c->opt.chunk_arg && !parse_size(c->opt.chunk_arg, &chunk_b))
		refuse(c, "--chunk %s: not a size (number with optional s, K, M or G)",
		       c->opt.chunk_arg);
	if (c->opt.chunk_arg && chunk_b % SECTOR)
		refuse(c, "--chunk %s: not a whole number of 512-byte sectors",
		       c->opt.chunk_arg);
	if (c->opt.transfer_arg) {
		u64 t;

		if (!parse_size(c->opt.transfer_arg, &t))
			refuse(c, "--transfer-size %s: not a size (number with optional s, K, M or G)",
			       c->opt.transfer_arg);
	}

	for (i = 0; i < c->nmem; i++) {
		c->mem[i].arg = args[i];
		stop(c, resolve(c, &c->mem[i]));
	}
	sort_controllers(c);
	stop(c, check_members(c));
	stop(c, make_groups(c));
	plan_speeds(c);
	/* more than 128 members: bds_layout_init() below says so */
	for (i = 0; i < c->nmem && i < BDS_MAX_MEMBERS; i++)
		r->weight[i] = 1;
	if (c->opt.weights == WT_LIST && c->nmem <= BDS_MAX_MEMBERS) {
		const char *why = plan_weights_list(c, r);

		if (why)
			refuse(c, "--weights %s: %s (%d members, table order)",
			       c->opt.weights_arg, why, c->nmem);
	}
	for (i = 0; i < c->nmem; i++)
		units += i < BDS_MAX_MEMBERS ? r->weight[i] : 1;

	if (c->opt.transfer_arg) {
		u64 t = 0;

		parse_size(c->opt.transfer_arg, &t);
		chunk_b = chunk_from_transfer(c, t, units);
	}
	chunk = chunk_b / SECTOR;

	/* every geometry limit exactly as the kernel checks it */
	err = bds_layout_init(layout, chunk, c->group_sizes, (u32)c->ngroups,
			      c->opt.mode);
	if (err == BDS_ERR_TOO_MANY_GROUPS && !c->groups_from_spec)
		refuse(c, "%s (%d controllers found; merge some with --groups)",
		       bds_geom_error(err), c->ngroups);
	if (err != BDS_OK) {
		bool about_chunk = err == BDS_ERR_CHUNK_ZERO ||
				   err == BDS_ERR_CHUNK_ALIGN ||
				   err == BDS_ERR_CHUNK_TOO_BIG ||
				   err == BDS_ERR_WIDTH_TOO_BIG;
		const char *what = !about_chunk ? NULL :
				   c->opt.chunk_arg ? "--chunk" :
				   c->opt.transfer_arg ? "--transfer-size" : NULL;

		if (what)
			refuse(c, "%s %s: %s", what, c->opt.chunk_arg ?
			       c->opt.chunk_arg : c->opt.transfer_arg,
			       bds_geom_error(err));
		refuse(c, "%s", bds_geom_error(err));
	}
	for (i = 0; i < c->nmem; i++)
		if (chunk_b % c->mem[i].lbs)
			refuse(c, "Chunk size is not a multiple of a member's logical block size: %s has %u-byte blocks, the stripe unit is %llu bytes",
			       c->mem[i].name, c->mem[i].lbs, U(chunk_b));
	plan_weights(c, r, chunk);

	/* whole cycles: member i holds w_i stripe units of each */
	cycles = UINT64_MAX;
	for (i = 0; i < c->nmem; i++)
		if (c->tbl[i]->size / (chunk * r->weight[i]) < cycles)
			cycles = c->tbl[i]->size / (chunk * r->weight[i]);
	for (i = 0; r->weighted && !cycles && i < c->nmem; i++) {
		char h1[64], h2[64];

		if (c->tbl[i]->size / (chunk * r->weight[i]))
			continue;
		refuse(c, "%s is too small: %s, less than its %u stripe units of a cycle (%s)",
		       c->tbl[i]->name, bds_human(c->tbl[i]->size * SECTOR, h1, sizeof(h1)),
		       r->weight[i],
		       bds_human(chunk_b * r->weight[i], h2, sizeof(h2)));
	}
	min_size = UINT64_MAX;
	for (i = 0; i < c->nmem; i++)
		if (c->mem[i].size < min_size)
			min_size = c->mem[i].size;
	member_len = cycles * chunk;
	if (!member_len) {
		char h1[64], h2[64];

		for (i = 0; i < c->nmem; i++)
			if (c->mem[i].size == min_size)
				break;
		refuse(c, "%s is too small: %s, less than one stripe unit (%s)",
		       c->mem[i].name, bds_human(min_size * SECTOR, h1, sizeof(h1)),
		       bds_human(chunk_b, h2, sizeof(h2)));
	}
	if (member_len > UINT64_MAX / layout->nr_slots)
		refuse(c, "the volume would exceed 2^64 sectors");
	length = member_len * layout->nr_slots;
	if (!bds_member_len(layout, length, &check_len) ||
	    check_len != member_len)
		refuse(c, "internal error: length %llu is not a whole number of stripes",
		       U(length));

	/* with weights, read-ahead goes by cycles: optimal_io_size is one */
	r->width_b = chunk_b * layout->nr_slots;
	r->chunk_b = chunk_b;
	r->member_len = member_len;
	r->length = length;
	build_table(c, r);
}
