// SPDX-License-Identifier: GPL-2.0
/*
 * The summary's "Weights" part (with --weights): how they were chosen,
 * each member's weight, share, data and unused space, the cycle, the
 * space used against equal shares and, with speeds, the sequential
 * bandwidth.  See plan.h.
 */
#include "plan.h"
#include "fmt.h"
#include "weights.h"

#include <stdio.h>

static const char *how(const struct plan_ctx *c)
{
	static char within[128];

	switch (c->opt.weights) {
	case WT_CAPACITY:
		return "by capacity: the most of the members' space";
	case WT_BANDWIDTH:
		if (c->opt.wt_tolerance > 0) {
			snprintf(within, sizeof(within),
				 "by bandwidth: the shortest cycle within %.0f %% of the fastest sequential streams, the measured figures' error",
				 c->opt.wt_tolerance * 100);
			return within;
		}
		return "by bandwidth: the fastest sequential streams, then the most space";
	default:
		return "as given, in table order";
	}
}

/* Percent of @a in @b. */
static double pct(u64 a, u64 b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static void print_space(const struct plan_ctx *c, const struct plan_result *r)
{
	u64 chunk = r->layout.chunk, total = 0, min_size = UINT64_MAX, eq;
	char h1[64], h2[64], h3[64], h4[64];
	int i;

	for (i = 0; i < c->nmem; i++) {
		total += c->tbl[i]->size;
		if (plan_member_room(c, r, i) < min_size)
			min_size = plan_member_room(c, r, i);
	}
	eq = min_size / chunk * chunk * (u64)c->nmem;
	printf("  space used: %s of %s (%.1f %%); equal shares use %s (%.1f %%)",
	       bds_human(r->length * SECTOR, h1, sizeof(h1)),
	       bds_human(total * SECTOR, h2, sizeof(h2)), pct(r->length, total),
	       bds_human(eq * SECTOR, h3, sizeof(h3)), pct(eq, total));
	if (eq > r->length)
		printf(": %s given up\n",
		       bds_human((eq - r->length) * SECTOR, h4, sizeof(h4)));
	else if (eq < r->length)
		printf(": %s more\n",
		       bds_human((r->length - eq) * SECTOR, h4, sizeof(h4)));
	else
		printf("\n");
}

static void print_speed(const struct plan_ctx *c, const struct plan_result *r)
{
	struct wt_member wm[BDS_MAX_MEMBERS];
	double cm[BDS_MAX_MEMBERS];
	struct wt_input in = plan_wt_input(c, wm, cm, r->layout.chunk);
	u32 one[BDS_MAX_MEMBERS];
	struct wt_eval e, eq;
	char s1[64], s2[64], s3[64];
	int i;

	for (i = 0; i < c->nmem; i++)
		one[i] = 1;
	wt_evaluate(&in, r->weight, &e);
	wt_evaluate(&in, one, &eq);
	printf("  sequential streams: %s with these weights, %s with equal shares (the disks and controllers allow %s at best)\n",
	       speed(e.mbps, s1, sizeof(s1)), speed(eq.mbps, s2, sizeof(s2)),
	       speed(wt_ideal_mbps(&in), s3, sizeof(s3)));
}

void print_weights(const struct plan_ctx *c, const struct plan_result *r)
{
	const struct bds_layout *l = &r->layout;
	u64 chunk_b = (u64)l->chunk * SECTOR;
	char h1[64], h2[64], list[BDS_MAX_MEMBERS * 4 + 1] = "";
	int i;

	if (c->opt.weights == WT_NONE)
		return;
	for (i = 0; i < c->nmem; i++)
		cat(list, sizeof(list), "%s%u", i ? "," : "", r->weight[i]);
	printf("\nWeights (%s):\n", how(c));
	if (!r->weighted)
		printf("  every weight is 1: equal shares, and no weights in the table\n");
	printf("  %-3s %-10s %6s %7s  %-32s %s\n", "#", "name", "weight", "share",
	       "data", "unused");
	for (i = 0; i < c->nmem; i++) {
		u64 data = r->member_len * r->weight[i];
		char d[96], u[96];

		snprintf(d, sizeof(d), "%s (%llu sectors)",
			 bds_human(data * SECTOR, h1, sizeof(h1)), U(data));
		snprintf(u, sizeof(u), "%s (%llu sectors)",
			 bds_human((plan_member_room(c, r, i) - data) * SECTOR,
				   h2, sizeof(h2)),
			 U(plan_member_room(c, r, i) - data));
		printf("  %-3d %-10s %6u %5.1f %%  %-32s %s\n", i, c->tbl[i]->name,
		       r->weight[i], pct(r->weight[i], l->nr_slots), d, u);
	}
	printf("  W = %u: a cycle of %u stripe units (%s)", l->nr_slots,
	       l->nr_slots, bds_human(chunk_b * l->nr_slots, h1, sizeof(h1)));
	if (r->weighted)
		printf("; in the table: weights %s", list);
	printf("\n");
	print_space(c, r);
	if (c->opt.have_disk_mbps)
		print_speed(c, r);
}
