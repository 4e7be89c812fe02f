// SPDX-License-Identifier: GPL-2.0
/*
 * The table line, and the explanation bds-stripe-table and bdsadm plan
 * print under it: controllers, groups, order, geometry, bandwidth.
 * See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "fmt.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Output                                                              */

void build_table(const struct plan_result *r)
{
	const struct bds_layout *l = &r->layout;
	int g, i = 0;

	table[0] = 0;
	cat(table, sizeof(table), "0 %llu bds-stripe %u %u", U(r->length),
	    l->chunk, l->nr_groups);
	for (g = 0; g < ngroups; g++) {
		cat(table, sizeof(table), " %u", group_sizes[g]);
		for (; i < nmem && tbl[i]->group == g; i++) {
			if (opt.paths)
				cat(table, sizeof(table), " /dev/%s 0",
				    tbl[i]->name);
			else
				cat(table, sizeof(table), " %u:%u 0",
				    tbl[i]->maj, tbl[i]->min);
		}
	}
	if (l->mode != BDS_LAYOUT_INTERLEAVE)
		cat(table, sizeof(table), " 2 layout sequential");
	/* as the target prints its table: only when a weight is not 1 */
	for (i = 0; r->weighted && i < nmem; i++)
		cat(table, sizeof(table), "%s%u", i ? "," : " 2 weights ",
		    r->weight[i]);
}

/*
 * Time for one transfer of the first @w slots (starting at a cycle
 * boundary), each slot a chunk: each controller needs its chunks over
 * its limit, each member its chunks over its speed.  Returns the
 * throughput of the whole transfer: its size over the slowest one's
 * time.
 */
static double transfer_mbps(const struct bds_layout *l, u32 w)
{
	int *cnt = calloc((size_t)nctrl, sizeof(int));
	int *mcnt = calloc((size_t)nmem, sizeof(int));
	double worst = 0;
	u32 p;
	int c, i;

	if (!cnt || !mcnt)
		refuse("out of memory");
	for (p = 0; p < w; p++) {
		u32 m = bds_slot_member(l, p % l->nr_slots);

		cnt[tbl[m]->ctrl]++;
		mcnt[m]++;
	}
	for (c = 0; c < nctrl; c++) {
		double bw, t;

		if (!cnt[c])
			continue;
		if (!l->slot && opt.ndisk <= 1) {
			/* every member once, at one speed */
			bw = cnt[c] * opt.disk_mbps;
			if (ctrls[c].mbps > 0 && ctrls[c].mbps < bw)
				bw = ctrls[c].mbps;
			t = cnt[c] / bw;	/* in chunks per MB/s */
		} else {
			t = ctrls[c].mbps > 0 ? cnt[c] / ctrls[c].mbps : 0;
			for (i = 0; i < nmem; i++)
				if (mcnt[i] && tbl[i]->ctrl == c &&
				    mcnt[i] / tbl[i]->mbps > t)
					t = mcnt[i] / tbl[i]->mbps;
		}
		if (t > worst)
			worst = t;
	}
	free(cnt);
	free(mcnt);
	return worst > 0 ? w / worst : 0;
}

static void print_members(const struct bds_layout *l)
{
	char h1[64];
	int i, tw = 16;

	/* the type column as wide as its longest entry */
	for (i = 0; i < nmem; i++)
		if ((int)strlen(tbl[i]->kind) > tw)
			tw = (int)strlen(tbl[i]->kind);
	printf("\nMembers (table order):\n");
	printf("  %-3s %-10s %-8s %-*s %-20s %-10s %-5s %-5s %s\n", "#",
	       "name", "dev", tw, "type", "whole/part", "size", "lbs", "group",
	       l->slot ? "first slot" : "position");
	for (i = 0; i < nmem; i++) {
		struct member *m = tbl[i];
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
static const char *group_basis(void)
{
	int i, n = 0;

	for (i = 0; i < nmem; i++)
		n += tbl[i]->host[0] != 0;
	if (!n || opt.group_by == GROUP_BY_CONTROLLER)
		return "one per controller";
	if (n < nmem)
		return opt.group_by == GROUP_BY_SUBSYSTEM ?
		       "one per controller or NVMe subsystem" :
		       "one per controller or storage host";
	return opt.group_by == GROUP_BY_SUBSYSTEM ? "one per NVMe subsystem" :
	       "one per storage host";
}

/* Where the NVMe over Fabrics members' data lives (fabrics.c). */
static void print_hosts(void)
{
	int i, n = 0;

	for (i = 0; i < nmem; i++)
		n += tbl[i]->host[0] != 0;
	if (!n)
		return;
	printf("\nStorage hosts (NVMe over Fabrics, grouped by %s):\n",
	       opt.group_by == GROUP_BY_CONTROLLER ? "controller" :
	       opt.group_by == GROUP_BY_SUBSYSTEM ? "subsystem" : "host");
	for (i = 0; i < nmem; i++)
		if (tbl[i]->host[0])
			printf("  %-10s host %-24s via %-8s %s\n", tbl[i]->name,
			       tbl[i]->where, tbl[i]->fabric_ctrl,
			       tbl[i]->subsys);
}

static void print_order(const struct bds_layout *l)
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
		struct member *m = tbl[l->order[p]];

		printf("  %3u -> %3u %-12s %s\n", p, l->order[p], m->name,
		       ctrls[m->ctrl].name);
	}
	printf("  order ");
	for (p = 0; p < l->nr_members; p++)
		printf("%s%u", p ? "," : "", l->order[p]);
	printf("  (as 'dmsetup status' shows it)\n");
}

static void print_geometry(const struct plan_result *r)
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
	if (opt.transfer_arg)
		printf("Transfer:     %s = %u %s%s (k = %u)\n",
		       bds_human((u64)transfer_k * cycle_b, h1, sizeof(h1)),
		       transfer_k, l->slot ? "cycle" : "stripe width",
		       transfer_k == 1 ? "" : "s", transfer_k);
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
	for (i = 0; i < nmem; i++) {
		struct member *m = tbl[i];
		u64 used = r->member_len * r->weight[i];

		if (m->size > used)
			printf("  unused on %s: %s (%llu sectors)\n", m->name,
			       bds_human((m->size - used) * SECTOR, h3,
				     sizeof(h3)),
			       U(m->size - used));
	}

	/* mkfs.xfs takes swidth from optimal_io_size: one cycle */
	printf("\nmkfs.xfs will pick: sunit=%llu swidth=%llu blks (4 KiB blocks; su=%lluk,sw=%u)\n",
	       U(chunk_b / XFS_BLOCK), U(cycle_b / XFS_BLOCK),
	       U(chunk_b >> 10), l->nr_slots);
	if (length * SECTOR < GIB)
		printf("  but the volume is smaller than 1 GiB: mkfs.xfs ignores the device geometry there (give -d su=%lluk,sw=%u to set it)\n",
		       U(chunk_b >> 10), l->nr_slots);
	else if (chunk_b == max_pbs())
		printf("  but the stripe unit equals the physical block size (%u): mkfs.xfs ignores such a geometry\n",
		       max_pbs());
}

static void print_bandwidth(const struct bds_layout *l)
{
	double sum = 0, one, half, half_alt = 0;	/* MB/s */
	char s1[64], s2[64];
	u32 w = l->nr_slots / 2;
	int c, i;

	if (opt.ndisk <= 1 && opt.nctrl_mbps <= 1) {
		printf("\nBandwidth (disk %s", speed(opt.disk_mbps, s1, sizeof(s1)));
		if (opt.have_ctrl_mbps)
			printf(", controller %s",
			       speed(opt.ctrl_mbps, s1, sizeof(s1)));
		printf("):\n");
	} else {
		printf("\nBandwidth (disks and controllers as --disk-mbps and --controller-mbps give them):\n");
	}
	for (c = 0; c < nctrl; c++) {
		double bw = ctrls[c].nmembers * opt.disk_mbps;

		if (opt.ndisk > 1)
			for (i = 0, bw = 0; i < nmem; i++)
				if (tbl[i]->ctrl == c)
					bw += tbl[i]->mbps;
		if (ctrls[c].mbps > 0 && ctrls[c].mbps < bw)
			bw = ctrls[c].mbps;
		printf("  %-14s %d member%s -> %s\n", ctrls[c].name,
		       ctrls[c].nmembers, ctrls[c].nmembers == 1 ? "" : "s",
		       speed(bw, s1, sizeof(s1)));
		sum += bw;
	}
	if (l->slot) {
		printf("  the controllers and disks together: %s\n",
		       speed(sum, s1, sizeof(s1)));
		printf("  limit for a transfer of one cycle (%u stripe units): %s\n",
		       l->nr_slots, speed(transfer_mbps(l, l->nr_slots), s1,
					  sizeof(s1)));
		if (w >= 1 && nctrl > 1)
			printf("  a transfer of %u stripe unit%s from a cycle boundary: %s\n",
			       w, w == 1 ? "" : "s",
			       speed(transfer_mbps(l, w), s1, sizeof(s1)));
		return;
	}
	printf("  limit for a transfer of one stripe width: %s\n",
	       speed(sum, s1, sizeof(s1)));
	one = transfer_mbps(l, l->nr_members);
	if (one < sum - 1e-9)
		printf("  (one such transfer alone, waiting for its busiest controller: %s)\n",
		       speed(one, s1, sizeof(s1)));
	if (w >= 1 && nctrl > 1) {
		/* the same transfer with the other layout */
		enum bds_order_mode other = l->mode ==
			BDS_LAYOUT_SEQUENTIAL ? BDS_LAYOUT_INTERLEAVE :
			BDS_LAYOUT_SEQUENTIAL;
		struct bds_layout alt;

		half = transfer_mbps(l, w);
		if (bds_layout_init(&alt, l->chunk, group_sizes,
				    (u32)ngroups, other) == BDS_OK)
			half_alt = transfer_mbps(&alt, w);
		printf("  a transfer of %u stripe unit%s from a stripe boundary: %s (%s layout: %s)\n",
		       w, w == 1 ? "" : "s", speed(half, s1, sizeof(s1)),
		       other == BDS_LAYOUT_SEQUENTIAL ? "sequential" :
		       "interleave", speed(half_alt, s2, sizeof(s2)));
	}
}

void print_summary(const struct plan_result *r)
{
	const struct bds_layout *l = &r->layout;
	int g, c, i;

	printf("\n");
	printf("Volume: %u members in %d group%s, layout %s\n", l->nr_members,
	       ngroups, ngroups == 1 ? "" : "s",
	       l->mode == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave");

	printf("\nControllers:\n");
	for (c = 0; c < nctrl; c++) {
		printf("  %-14s %-34s", ctrls[c].name, ctrls[c].desc);
		for (i = 0; i < nmem; i++)
			if (tbl[i]->ctrl == c)
				printf(" %s", tbl[i]->name);
		printf("\n");
	}

	print_hosts();

	printf("\nGroups (table order), %s:\n", groups_from_spec ?
	       "from --groups" : group_basis());
	for (g = 0; g < ngroups; g++) {
		printf("  group %d:", g);
		for (i = 0; i < nmem; i++)
			if (tbl[i]->group == g)
				printf(" %s", tbl[i]->name);
		if (!groups_from_spec)
			printf("  (%s)", ctrls[g].name);
		printf("\n");
	}

	print_members(l);
	print_order(l);
	print_weights(r);
	print_geometry(r);
	if (opt.have_disk_mbps)
		print_bandwidth(l);

	if (nnotes) {
		printf("\nNotes:\n");
		for (i = 0; i < nnotes; i++)
			printf("  - %s\n", notes[i]);
	}

	if (opt.verb == VERB_PLAN) {
		printf("\nCreate it, labelled so that it survives reboots, with:\n"
		       "  bdsadm create NAME (the same options and devices)\n");
		return;
	}
	printf("\nCreate it with:\n  dmsetup create %s --table '%s'\n",
	       opt.create ? opt.create : opt.name ? opt.name : "NAME", table);
	printf("(unlabelled: 'bdsadm create NAME' labels the members, so that the volume survives reboots)\n");
}
