// SPDX-License-Identifier: GPL-2.0
/*
 * The explanation bds-stripe-table and bdsadm plan print under the table
 * line: controllers, groups, order, geometry, bandwidth.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "fmt.h"
#include "../libbds/label.h"

#include <stdlib.h>
#include <string.h>

/*
 * Time for one transfer of the first @w slots (starting at a cycle
 * boundary), each slot a chunk: each controller needs its chunks over
 * its limit, each member its chunks over its speed.  Returns the
 * throughput of the whole transfer: its size over the slowest one's
 * time.
 */
static double transfer_mbps(const struct plan_ctx *c,
			    const struct bds_layout *l, u32 w)
{
	/* a plan has at most BDS_MAX_MEMBERS members and controllers */
	int cnt[BDS_MAX_MEMBERS] = { 0 }, mcnt[BDS_MAX_MEMBERS] = { 0 };
	double worst = 0;
	u32 p;
	int k, i;

	for (p = 0; p < w; p++) {
		u32 m = bds_slot_member(l, p % l->nr_slots);

		cnt[c->tbl[m]->ctrl]++;
		mcnt[m]++;
	}
	for (k = 0; k < c->nctrl; k++) {
		double bw, t;

		if (!cnt[k])
			continue;
		if (!l->slot && c->opt.ndisk <= 1) {
			/* every member once, at one speed */
			bw = cnt[k] * c->opt.disk_mbps;
			if (c->ctrls[k].mbps > 0 && c->ctrls[k].mbps < bw)
				bw = c->ctrls[k].mbps;
			t = cnt[k] / bw;	/* in chunks per MB/s */
		} else {
			t = c->ctrls[k].mbps > 0 ?
			    cnt[k] / c->ctrls[k].mbps : 0;
			for (i = 0; i < c->nmem; i++)
				if (mcnt[i] && c->tbl[i]->ctrl == k &&
				    mcnt[i] / c->tbl[i]->mbps > t)
					t = mcnt[i] / c->tbl[i]->mbps;
		}
		if (t > worst)
			worst = t;
	}
	return worst > 0 ? w / worst : 0;
}

static void print_members(const struct plan_ctx *c,
			  const struct bds_layout *l)
{
	char h1[64];
	int i, tw = 16;

	/* the type column as wide as its longest entry */
	for (i = 0; i < c->nmem; i++)
		if ((int)strlen(c->tbl[i]->kind) > tw)
			tw = (int)strlen(c->tbl[i]->kind);
	printf("\nMembers (table order):\n");
	printf("  %-3s %-10s %-8s %-*s %-20s %-10s %-5s %-5s %s\n", "#",
	       "name", "dev", tw, "type", "whole/part", "size", "lbs", "group",
	       l->slot ? "first slot" : "position");
	for (i = 0; i < c->nmem; i++) {
		struct member *m = c->tbl[i];
		char devs[24], whole[NAME_SZ + 32];

		snprintf(devs, sizeof(devs), "%u:%u", m->maj, m->min);
		if (m->is_part)
			snprintf(whole, sizeof(whole), "partition %u of %s",
				 m->partno, m->disk);
		else
			snprintf(whole, sizeof(whole), "whole disk");
		printf("  %-3d %-10s %-8s %-*s %-20s %-10s %-5u %-5d %u\n", i,
		       m->name, devs, tw, m->kind, whole,
		       bds_human(m->size * SECTOR, h1, sizeof(h1)), m->lbs,
		       m->group, bds_member_slot(l, (u32)i, 0));
	}
}

/* What a group stands for when the tool made the groups. */
static const char *group_basis(const struct plan_ctx *c)
{
	int i, n = 0;

	for (i = 0; i < c->nmem; i++)
		n += c->tbl[i]->host[0] != 0;
	if (!n || c->opt.group_by == GROUP_BY_CONTROLLER)
		return "one per controller";
	if (n < c->nmem)
		return c->opt.group_by == GROUP_BY_SUBSYSTEM ?
		       "one per controller or NVMe subsystem" :
		       "one per controller or storage host";
	return c->opt.group_by == GROUP_BY_SUBSYSTEM ?
	       "one per NVMe subsystem" : "one per storage host";
}

/* Where the NVMe over Fabrics members' data lives (fabrics.c). */
static void print_hosts(const struct plan_ctx *c)
{
	int i, n = 0;

	for (i = 0; i < c->nmem; i++)
		n += c->tbl[i]->host[0] != 0;
	if (!n)
		return;
	printf("\nStorage hosts (NVMe over Fabrics, grouped by %s):\n",
	       c->opt.group_by == GROUP_BY_CONTROLLER ? "controller" :
	       c->opt.group_by == GROUP_BY_SUBSYSTEM ? "subsystem" : "host");
	for (i = 0; i < c->nmem; i++)
		if (c->tbl[i]->host[0])
			printf("  %-10s host %-24s via %-8s %s\n", c->tbl[i]->name,
			       c->tbl[i]->where, c->tbl[i]->fabric_ctrl,
			       c->tbl[i]->subsys);
}

static void print_order(const struct plan_ctx *c,
			const struct bds_layout *l)
{
	u32 p;

	if (l->slot) {
		/* up to 1024 slots: the list only, per member in "Weights" */
		printf("\nOrder (a cycle of %u stripe units: slot -> member):\n",
		       l->nr_slots);
		printf("  slots ");
		for (p = 0; p < l->nr_slots; p++)
			printf("%s%u", p ? "," : "", bds_slot_member(l, p));
		printf("  (as 'dmsetup status' shows it)\n");
		return;
	}
	printf("\nOrder (stripe position -> member, controller):\n");
	for (p = 0; p < l->nr_members; p++) {
		struct member *m = c->tbl[l->order[p]];

		printf("  %3u -> %3u %-12s %s\n", p, l->order[p], m->name,
		       c->ctrls[m->ctrl].name);
	}
	printf("  order ");
	for (p = 0; p < l->nr_members; p++)
		printf("%s%u", p ? "," : "", l->order[p]);
	printf("  (as 'dmsetup status' shows it)\n");
}

static void print_geometry(const struct plan_ctx *c,
			   const struct plan_result *r)
{
	const struct bds_layout *l = &r->layout;
	u64 chunk_b = (u64)l->chunk * SECTOR, width_b = chunk_b * l->nr_members;
	u64 cycle_b = chunk_b * l->nr_slots, length = r->length;
	char h1[64], h2[64], h3[64];
	int i;

	printf("\nStripe unit:  %s (%u sectors)\n",
	       bds_human(chunk_b, h1, sizeof(h1)), l->chunk);
	printf("Stripe width: %s (%u sectors) = %u x %s\n",
	       bds_human(width_b, h1, sizeof(h1)), bds_width(l), l->nr_members,
	       bds_human(chunk_b, h2, sizeof(h2)));
	if (l->slot)
		printf("Cycle:        %s (%u sectors) = %u x %s, the sum of the weights\n",
		       bds_human(cycle_b, h1, sizeof(h1)), bds_cycle(l),
		       l->nr_slots, bds_human(chunk_b, h2, sizeof(h2)));
	if (c->opt.transfer_arg)
		printf("Transfer:     %s = %u %s%s (k = %u)\n",
		       bds_human((u64)r->transfer_k * cycle_b, h1, sizeof(h1)),
		       r->transfer_k, l->slot ? "cycle" : "stripe width",
		       r->transfer_k == 1 ? "" : "s", r->transfer_k);
	if (l->slot)
		printf("Usable size:  %s (%llu sectors), %s (%llu sectors) from each member per unit of weight\n",
		       bds_human(length * SECTOR, h1, sizeof(h1)), U(length),
		       bds_human(r->member_len * SECTOR, h2, sizeof(h2)),
		       U(r->member_len));
	else
		printf("Usable size:  %s (%llu sectors), %s (%llu sectors) from each member\n",
		       bds_human(length * SECTOR, h1, sizeof(h1)), U(length),
		       bds_human(r->member_len * SECTOR, h2, sizeof(h2)),
		       U(r->member_len));
	for (i = 0; i < c->nmem; i++) {
		struct member *m = c->tbl[i];
		u64 used = r->member_len * r->weight[i];
		u64 room = plan_member_room(c, r, i);

		if (room > used)
			printf("  unused on %s: %s (%llu sectors)\n", m->name,
			       bds_human((room - used) * SECTOR, h3,
				     sizeof(h3)),
			       U(room - used));
	}
}

/* The geometry mkfs.xfs will see. */
static void print_mkfs(const struct plan_ctx *c, const struct plan_result *r)
{
	const struct bds_layout *l = &r->layout;
	u64 chunk_b = (u64)l->chunk * SECTOR, cycle_b = chunk_b * l->nr_slots;

	/* mkfs.xfs takes swidth from optimal_io_size: one cycle */
	printf("\nmkfs.xfs will pick: sunit=%llu swidth=%llu blks (4 KiB blocks; su=%lluk,sw=%u)\n",
	       U(chunk_b / XFS_BLOCK), U(cycle_b / XFS_BLOCK),
	       U(chunk_b >> 10), l->nr_slots);
	if (r->length * SECTOR < GIB)
		printf("  but the volume is smaller than 1 GiB: mkfs.xfs ignores the device geometry there (give -d su=%lluk,sw=%u to set it)\n",
		       U(chunk_b >> 10), l->nr_slots);
	else if (chunk_b == max_pbs(c))
		printf("  but the stripe unit equals the physical block size (%u): mkfs.xfs ignores such a geometry\n",
		       max_pbs(c));
}

/* The speeds the estimate goes by. */
static void bandwidth_header(const struct plan_ctx *c)
{
	char s1[64];

	if (c->meas) {
		printf("\nBandwidth (disks and controllers as measured above):\n");
		return;
	}
	if (c->opt.ndisk > 1 || c->opt.nctrl_mbps > 1) {
		printf("\nBandwidth (disks and controllers as --disk-mbps and --controller-mbps give them):\n");
		return;
	}
	printf("\nBandwidth (disk %s", speed(c->opt.disk_mbps, s1, sizeof(s1)));
	if (c->opt.have_ctrl_mbps)
		printf(", controller %s",
		       speed(c->opt.ctrl_mbps, s1, sizeof(s1)));
	printf("):\n");
}

/* Each controller's bandwidth, its disks' or its limit; their sum. */
static double controllers_bandwidth(const struct plan_ctx *c)
{
	double sum = 0, bw;
	char s1[64];
	int k, i;

	for (k = 0; k < c->nctrl; k++) {
		bw = c->ctrls[k].nmembers * c->opt.disk_mbps;
		if (c->opt.ndisk > 1)
			for (i = 0, bw = 0; i < c->nmem; i++)
				if (c->tbl[i]->ctrl == k)
					bw += c->tbl[i]->mbps;
		if (c->ctrls[k].mbps > 0 && c->ctrls[k].mbps < bw)
			bw = c->ctrls[k].mbps;
		printf("  %-14s %d member%s -> %s\n", c->ctrls[k].name,
		       c->ctrls[k].nmembers,
		       c->ctrls[k].nmembers == 1 ? "" : "s",
		       speed(bw, s1, sizeof(s1)));
		sum += bw;
	}
	return sum;
}

/* With weights: transfers of one cycle and of half a cycle. */
static void cycle_bandwidth(const struct plan_ctx *c,
			    const struct bds_layout *l, double sum)
{
	u32 w = l->nr_slots / 2;
	char s1[64];

	printf("  the controllers and disks together: %s\n",
	       speed(sum, s1, sizeof(s1)));
	printf("  limit for a transfer of one cycle (%u stripe units): %s\n",
	       l->nr_slots, speed(transfer_mbps(c, l, l->nr_slots), s1,
				  sizeof(s1)));
	if (w >= 1 && c->nctrl > 1)
		printf("  a transfer of %u stripe unit%s from a cycle boundary: %s\n",
		       w, w == 1 ? "" : "s",
		       speed(transfer_mbps(c, l, w), s1, sizeof(s1)));
}

/*
 * Without weights: transfers of one stripe width and of half of one,
 * this layout against the other.
 */
static void width_bandwidth(const struct plan_ctx *c,
			    const struct bds_layout *l, double sum)
{
	double one, half, half_alt = 0;	/* MB/s */
	u32 w = l->nr_slots / 2;
	enum bds_order_mode other = l->mode == BDS_LAYOUT_SEQUENTIAL ?
				    BDS_LAYOUT_INTERLEAVE :
				    BDS_LAYOUT_SEQUENTIAL;
	struct bds_layout alt;
	char s1[64], s2[64];

	printf("  limit for a transfer of one stripe width: %s\n",
	       speed(sum, s1, sizeof(s1)));
	one = transfer_mbps(c, l, l->nr_members);
	if (one < sum - 1e-9)
		printf("  (one such transfer alone, waiting for its busiest controller: %s)\n",
		       speed(one, s1, sizeof(s1)));
	if (w < 1 || c->nctrl <= 1)
		return;
	/* the same transfer with the other layout */
	half = transfer_mbps(c, l, w);
	if (bds_layout_init(&alt, l->chunk, c->group_sizes, (u32)c->ngroups,
			    other) == BDS_OK)
		half_alt = transfer_mbps(c, &alt, w);
	printf("  a transfer of %u stripe unit%s from a stripe boundary: %s (%s layout: %s)\n",
	       w, w == 1 ? "" : "s", speed(half, s1, sizeof(s1)),
	       other == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave",
	       speed(half_alt, s2, sizeof(s2)));
}

static void print_bandwidth(const struct plan_ctx *c,
			    const struct bds_layout *l)
{
	double sum;

	bandwidth_header(c);
	sum = controllers_bandwidth(c);
	if (l->slot)
		cycle_bandwidth(c, l, sum);
	else
		width_bandwidth(c, l, sum);
}

/* The controllers and the table's groups. */
static void print_groups(const struct plan_ctx *c)
{
	int g, k, i;

	printf("\nControllers:\n");
	for (k = 0; k < c->nctrl; k++) {
		printf("  %-14s %-34s", c->ctrls[k].name, c->ctrls[k].desc);
		for (i = 0; i < c->nmem; i++)
			if (c->tbl[i]->ctrl == k)
				printf(" %s", c->tbl[i]->name);
		printf("\n");
	}

	print_hosts(c);

	printf("\nGroups (table order), %s:\n", c->groups_from_spec ?
	       "from --groups" : group_basis(c));
	for (g = 0; g < c->ngroups; g++) {
		printf("  group %d:", g);
		for (i = 0; i < c->nmem; i++)
			if (c->tbl[i]->group == g)
				printf(" %s", c->tbl[i]->name);
		if (!c->groups_from_spec)
			printf("  (%s)", c->ctrls[g].name);
		printf("\n");
	}
}

/*
 * What bdsadm create makes of the plan: it puts the data after the label
 * (at the data offset) and keeps the end for the backup copy, so its
 * volume is smaller than the one over whole devices (plan --unlabelled,
 * bds-stripe-table).  Without --unlabelled, the table above is create's.
 */
static void print_labelled(const struct plan_ctx *c,
			   const struct plan_result *r)
{
	u64 chunk = r->chunk_b / SECTOR, lo = UINT64_MAX, hi = 0, off;
	char s1[48], s2[32];
	int i;

	if (c->no_room) {
		printf("  (it would refuse: %s has no room for a whole stripe unit after its labels)\n",
		       c->no_room);
		return;
	}
	for (i = 0; i < c->nmem; i++) {
		off = bds_label_data_offset((u32)chunk, c->tbl[i]->pbs / 512);
		lo = off < lo ? off : lo;
		hi = off > hi ? off : hi;
	}
	if (lo == hi)
		snprintf(s1, sizeof(s1), "%llu", (unsigned long long)lo);
	else
		snprintf(s1, sizeof(s1), "%llu to %llu", (unsigned long long)lo,
			 (unsigned long long)hi);
	printf("  %s the data at sector %s of each\n"
	       "  member and keeps the end for the label's backup copy: the volume\n"
	       "  holds %s (%llu sectors), where the table\n"
	       "  %s, from sector 0 to the end, has %llu\n",
	       c->opt.unlabelled ? "which puts" :
	       "which makes the table above: it puts", s1,
	       bds_human(c->labelled_length * SECTOR, s2, sizeof(s2)),
	       (unsigned long long)c->labelled_length,
	       c->opt.unlabelled ? "above" : "over whole devices (--unlabelled)",
	       (unsigned long long)(r->labelled ? r->whole_length : r->length));
	if (!c->opt.unlabelled)
		printf("  (create adds the words \"volume UUID\" to the table, with the new\n"
		       "  volume's UUID, so that the kernel checks every member's label)\n");
}

/* How to create it: labelled (plan), or with dmsetup (bds-stripe-table). */
static void print_create_hint(const struct plan_ctx *c,
			      const struct plan_result *r)
{
	if (c->opt.verb == VERB_PLAN) {
		printf("\nCreate it, labelled so that it survives reboots, with:\n"
		       "  bdsadm create NAME (the same options and devices)\n");
		print_labelled(c, r);
		if (c->opt.unlabelled)
			printf("\nOr make the table above by hand, unlabelled (gone at the next boot):\n"
			       "  dmsetup create NAME --table '%s'\n",
			       c->table);
		return;
	}
	printf("\nCreate it with:\n  dmsetup create %s --table '%s'\n",
	       c->opt.create ? c->opt.create :
	       c->opt.name ? c->opt.name : "NAME", c->table);
	printf("(unlabelled: 'bdsadm create NAME' labels the members, so that the volume survives reboots)\n");
}

void print_summary(const struct plan_ctx *c, const struct plan_result *r)
{
	const struct bds_layout *l = &r->layout;
	int i;

	printf("\n");
	printf("Volume: %u members in %d group%s, layout %s\n", l->nr_members,
	       c->ngroups, c->ngroups == 1 ? "" : "s",
	       l->mode == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave");
	print_groups(c);
	print_members(c, l);
	print_order(c, l);
	print_weights(c, r);
	print_geometry(c, r);
	print_mkfs(c, r);
	plan_print_measure(c);
	if (c->opt.have_disk_mbps)
		print_bandwidth(c, l);

	if (c->nnotes) {
		printf("\nNotes:\n");
		for (i = 0; i < c->nnotes; i++)
			printf("  - %s\n", c->notes[i]);
	}
	print_create_hint(c, r);
}
