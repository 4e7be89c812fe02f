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

const char *bds_prog = "bdsadm";
struct plan_opts opt = {
	.sysfs = "/sys",
	.mounts = "/proc/self/mounts",
	.dmsetup = "dmsetup",
	.mode = BDS_LAYOUT_INTERLEAVE,
	.ra_mode = RA_AUTO,
	.real_sysfs = true,
};
struct member *mem;
int nmem;
struct member **tbl;
struct controller *ctrls;
int nctrl;
char *notes[MAX_NOTES];
int nnotes;
char devroot[PATH_MAX];
char table[65536];

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

static u32 max_lbs(void)
{
	u32 lbs = 512;
	int i;

	for (i = 0; i < nmem; i++)
		if (mem[i].lbs > lbs)
			lbs = mem[i].lbs;
	return lbs;
}

u32 max_pbs(void)
{
	u32 pbs = 512;
	int i;

	for (i = 0; i < nmem; i++)
		if (mem[i].pbs > pbs)
			pbs = mem[i].pbs;
	return pbs;
}

unsigned int transfer_k;

/*
 * --transfer-size T: the largest chunk c (a multiple of 4 KiB and of
 * every logical block size) with T = k * N * c for a whole k >= 1, the
 * stripe width N * c fitting 32 bits in bytes.  The largest chunk is
 * the smallest admissible k.  With a list of weights, W (their sum) in
 * place of N: T is then a whole number of cycles.
 */
static u64 chunk_from_transfer(u64 tbytes, u32 units)
{
	char h1[64], h2[64], h3[64], h4[64], h5[64], who[64];
	u64 n = units, align, q, kmin, best = 0, i, maxchunk;
	const char *widths = units == (u32)nmem ? "stripe widths" : "cycles";

	if (units == (u32)nmem)
		snprintf(who, sizeof(who), "%d members", nmem);
	else
		snprintf(who, sizeof(who), "weights adding up to %u", units);
	align = BDS_CHUNK_ALIGN * SECTOR;
	align = align / gcd64(align, max_lbs()) * max_lbs();
	if (tbytes == 0 || tbytes % (n * align)) {
		u64 step = n * align, lo = tbytes / step * step;

		bds_human(tbytes, h1, sizeof(h1));
		bds_human(align, h2, sizeof(h2));
		bds_human(step, h3, sizeof(h3));
		if (lo)
			refuse("--transfer-size %s (%s) is impossible: with %s and a stripe unit that is a multiple of %s, a whole number of %s is a multiple of %s (nearest: %s or %s)",
			       opt.transfer_arg, h1, who, h2, widths, h3,
			       bds_human(lo, h4, sizeof(h4)),
			       bds_human(lo + step, h5, sizeof(h5)));
		refuse("--transfer-size %s (%s) is impossible: with %s and a stripe unit that is a multiple of %s, a whole number of %s is a multiple of %s (smallest: %s)",
		       opt.transfer_arg, h1, who, h2, widths, h3, h3);
	}
	q = tbytes / (n * align);
	/* chunk = align * q / k <= maxchunk, the stripe width fitting 32 bits */
	maxchunk = BDS_MAX_IO_BYTES / n / align;	/* in units of align */
	if (!maxchunk)
		refuse("--transfer-size: no stripe unit fits: %s x %s exceed the 32-bit stripe width",
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
		refuse("--transfer-size %s: no stripe unit fits the 32-bit stripe width",
		       opt.transfer_arg);
	transfer_k = (unsigned int)best;
	return align * (q / best);
}


/* ------------------------------------------------------------------ */
/* The plan                                                            */

/*
 * Resolve the devices, check them, group them and compute the geometry
 * exactly as the kernel will; refuses (and exits) on anything wrong.
 * Fills the table line (table[]) too.
 */
void plan_build(char **args, int nargs, struct plan_result *r)
{
	struct bds_layout *layout = &r->layout;
	enum bds_geom_err err;
	u64 chunk_b, chunk, min_size, member_len, length, check_len, cycles;
	u32 units = 0;
	int i;

	memset(r, 0, sizeof(*r));
	if (nargs > MAX_ARGS)
		refuse("%s", bds_geom_error(BDS_ERR_TOO_MANY_MEMBERS));
	if (!realpath(opt.sysfs, devroot))
		refuse("--sysfs %s: %s", opt.sysfs, strerror(errno));
	if (strlen(devroot) + sizeof("/devices") > sizeof(devroot))
		refuse("--sysfs %s: path too long", opt.sysfs);
	strcat(devroot, "/devices");

	nmem = nargs;
	mem = calloc((size_t)nmem, sizeof(*mem));
	ctrls = calloc((size_t)nmem, sizeof(*ctrls));
	if (!mem || !ctrls)
		refuse("out of memory");

	/* the stripe unit's syntax first: no need to look at devices */
	chunk_b = DEFAULT_CHUNK_BYTES;
	if (opt.chunk_arg && !parse_size(opt.chunk_arg, &chunk_b))
		refuse("--chunk %s: not a size (number with optional s, K, M or G)",
		       opt.chunk_arg);
	if (opt.chunk_arg && chunk_b % SECTOR)
		refuse("--chunk %s: not a whole number of 512-byte sectors",
		       opt.chunk_arg);
	if (opt.transfer_arg) {
		u64 t;

		if (!parse_size(opt.transfer_arg, &t))
			refuse("--transfer-size %s: not a size (number with optional s, K, M or G)",
			       opt.transfer_arg);
	}

	for (i = 0; i < nmem; i++) {
		mem[i].arg = args[i];
		resolve(&mem[i]);
	}
	sort_controllers();
	check_members();
	make_groups();
	plan_speeds();
	/* more than 128 members: bds_layout_init() below says so */
	for (i = 0; i < nmem && i < BDS_MAX_MEMBERS; i++)
		r->weight[i] = 1;
	if (opt.weights == WT_LIST && nmem <= BDS_MAX_MEMBERS) {
		const char *why = plan_weights_list(r);

		if (why)
			refuse("--weights %s: %s (%d members, table order)",
			       opt.weights_arg, why, nmem);
	}
	for (i = 0; i < nmem; i++)
		units += i < BDS_MAX_MEMBERS ? r->weight[i] : 1;

	if (opt.transfer_arg) {
		u64 t = 0;

		parse_size(opt.transfer_arg, &t);
		chunk_b = chunk_from_transfer(t, units);
	}
	chunk = chunk_b / SECTOR;

	/* every geometry limit exactly as the kernel checks it */
	err = bds_layout_init(layout, chunk, group_sizes, (u32)ngroups,
			      opt.mode);
	if (err == BDS_ERR_TOO_MANY_GROUPS && !groups_from_spec)
		refuse("%s (%d controllers found; merge some with --groups)",
		       bds_geom_error(err), ngroups);
	if (err != BDS_OK) {
		bool about_chunk = err == BDS_ERR_CHUNK_ZERO ||
				   err == BDS_ERR_CHUNK_ALIGN ||
				   err == BDS_ERR_CHUNK_TOO_BIG ||
				   err == BDS_ERR_WIDTH_TOO_BIG;
		const char *what = !about_chunk ? NULL :
				   opt.chunk_arg ? "--chunk" :
				   opt.transfer_arg ? "--transfer-size" : NULL;

		if (what)
			refuse("%s %s: %s", what, opt.chunk_arg ?
			       opt.chunk_arg : opt.transfer_arg,
			       bds_geom_error(err));
		refuse("%s", bds_geom_error(err));
	}
	for (i = 0; i < nmem; i++)
		if (chunk_b % mem[i].lbs)
			refuse("Chunk size is not a multiple of a member's logical block size: %s has %u-byte blocks, the stripe unit is %llu bytes",
			       mem[i].name, mem[i].lbs, U(chunk_b));
	plan_weights(r, chunk);

	/* whole cycles: member i holds w_i stripe units of each */
	cycles = UINT64_MAX;
	for (i = 0; i < nmem; i++)
		if (tbl[i]->size / (chunk * r->weight[i]) < cycles)
			cycles = tbl[i]->size / (chunk * r->weight[i]);
	for (i = 0; r->weighted && !cycles && i < nmem; i++) {
		char h1[64], h2[64];

		if (tbl[i]->size / (chunk * r->weight[i]))
			continue;
		refuse("%s is too small: %s, less than its %u stripe units of a cycle (%s)",
		       tbl[i]->name, bds_human(tbl[i]->size * SECTOR, h1, sizeof(h1)),
		       r->weight[i],
		       bds_human(chunk_b * r->weight[i], h2, sizeof(h2)));
	}
	min_size = UINT64_MAX;
	for (i = 0; i < nmem; i++)
		if (mem[i].size < min_size)
			min_size = mem[i].size;
	member_len = cycles * chunk;
	if (!member_len) {
		char h1[64], h2[64];

		for (i = 0; i < nmem; i++)
			if (mem[i].size == min_size)
				break;
		refuse("%s is too small: %s, less than one stripe unit (%s)",
		       mem[i].name, bds_human(min_size * SECTOR, h1, sizeof(h1)),
		       bds_human(chunk_b, h2, sizeof(h2)));
	}
	if (member_len > UINT64_MAX / layout->nr_slots)
		refuse("the volume would exceed 2^64 sectors");
	length = member_len * layout->nr_slots;
	if (!bds_member_len(layout, length, &check_len) ||
	    check_len != member_len)
		refuse("internal error: length %llu is not a whole number of stripes",
		       U(length));

	/* with weights, read-ahead goes by cycles: optimal_io_size is one */
	opt.width_b = chunk_b * layout->nr_slots;
	r->chunk_b = chunk_b;
	r->member_len = member_len;
	r->length = length;
	build_table(r);
}
