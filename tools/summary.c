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

void build_table(const struct bds_layout *l, u64 length)
{
	int g, i = 0;

	table[0] = 0;
	cat(table, sizeof(table), "0 %llu bds-stripe %u %u", U(length),
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
}

/*
 * Time for one transfer of the first @w stripe positions (starting at a
 * stripe boundary), each member moving one chunk: each controller needs
 * (members touched * chunk) / min(C, members touched * D).  Returns the
 * throughput of the whole transfer: its size over the slowest
 * controller's time.
 */
static double transfer_mbps(const struct bds_layout *l, u32 w)
{
	int *cnt = calloc((size_t)nctrl, sizeof(int));
	double worst = 0;
	u32 p;
	int c;

	if (!cnt)
		refuse("out of memory");
	for (p = 0; p < w; p++)
		cnt[tbl[l->order[p]]->ctrl]++;
	for (c = 0; c < nctrl; c++) {
		double bw, t;

		if (!cnt[c])
			continue;
		bw = cnt[c] * opt.disk_mbps;
		if (opt.have_ctrl_mbps && opt.ctrl_mbps < bw)
			bw = opt.ctrl_mbps;
		t = cnt[c] / bw;	/* in chunks per MB/s */
		if (t > worst)
			worst = t;
	}
	free(cnt);
	return worst > 0 ? w / worst : 0;
}

void print_summary(const struct bds_layout *l, u64 length,
			  u64 member_len)
{
	char h1[64], h2[64], h3[64];
	u64 chunk_b = (u64)l->chunk * SECTOR, width_b = chunk_b * l->nr_members;
	u32 p;
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

	printf("\nGroups (table order)%s:\n",
	       groups_from_spec ? ", from --groups" : ", one per controller");
	for (g = 0; g < ngroups; g++) {
		printf("  group %d:", g);
		for (i = 0; i < nmem; i++)
			if (tbl[i]->group == g)
				printf(" %s", tbl[i]->name);
		if (!groups_from_spec)
			printf("  (%s)", ctrls[g].name);
		printf("\n");
	}

	printf("\nMembers (table order):\n");
	printf("  %-3s %-10s %-8s %-16s %-20s %-10s %-5s %-5s %s\n", "#",
	       "name", "dev", "type", "whole/part", "size", "lbs", "group",
	       "position");
	for (i = 0; i < nmem; i++) {
		struct member *m = tbl[i];
		char devs[24], whole[NAME_SZ + 32];

		snprintf(devs, sizeof(devs), "%u:%u", m->maj, m->min);
		if (m->is_part)
			snprintf(whole, sizeof(whole), "partition %u of %s",
				 m->partno, m->disk);
		else
			snprintf(whole, sizeof(whole), "whole disk");
		printf("  %-3d %-10s %-8s %-16s %-20s %-10s %-5u %-5d %u\n", i,
		       m->name, devs, m->kind, whole,
		       bds_human(m->size * SECTOR, h1, sizeof(h1)), m->lbs,
		       m->group, l->pos_of[i]);
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

	printf("\nStripe unit:  %s (%u sectors)\n",
	       bds_human(chunk_b, h1, sizeof(h1)), l->chunk);
	printf("Stripe width: %s (%u sectors) = %u x %s\n",
	       bds_human(width_b, h1, sizeof(h1)), bds_width(l), l->nr_members,
	       bds_human(chunk_b, h2, sizeof(h2)));
	if (opt.transfer_arg)
		printf("Transfer:     %s = %u stripe width%s (k = %u)\n",
		       bds_human((u64)transfer_k * width_b, h1, sizeof(h1)),
		       transfer_k, transfer_k == 1 ? "" : "s", transfer_k);
	printf("Usable size:  %s (%llu sectors), %s (%llu sectors) from each member\n",
	       bds_human(length * SECTOR, h1, sizeof(h1)), U(length),
	       bds_human(member_len * SECTOR, h2, sizeof(h2)), U(member_len));
	for (i = 0; i < nmem; i++) {
		struct member *m = tbl[i];

		if (m->size > member_len)
			printf("  unused on %s: %s (%llu sectors)\n", m->name,
			       bds_human((m->size - member_len) * SECTOR, h3,
				     sizeof(h3)),
			       U(m->size - member_len));
	}

	printf("\nmkfs.xfs will pick: sunit=%llu swidth=%llu blks (4 KiB blocks; su=%lluk,sw=%u)\n",
	       U(chunk_b / XFS_BLOCK), U(width_b / XFS_BLOCK),
	       U(chunk_b >> 10), l->nr_members);
	if (length * SECTOR < GIB)
		printf("  but the volume is smaller than 1 GiB: mkfs.xfs ignores the device geometry there (give -d su=%lluk,sw=%u to set it)\n",
		       U(chunk_b >> 10), l->nr_members);
	else if (chunk_b == max_pbs())
		printf("  but the stripe unit equals the physical block size (%u): mkfs.xfs ignores such a geometry\n",
		       max_pbs());

	if (opt.have_disk_mbps) {
		double sum = 0, one, half, half_alt = 0;	/* MB/s */
		char s1[64], s2[64];
		u32 w = l->nr_members / 2;

		printf("\nBandwidth (disk %s", speed(opt.disk_mbps, s1, sizeof(s1)));
		if (opt.have_ctrl_mbps)
			printf(", controller %s",
			       speed(opt.ctrl_mbps, s1, sizeof(s1)));
		printf("):\n");
		for (c = 0; c < nctrl; c++) {
			double bw = ctrls[c].nmembers * opt.disk_mbps;

			if (opt.have_ctrl_mbps && opt.ctrl_mbps < bw)
				bw = opt.ctrl_mbps;
			printf("  %-14s %d member%s -> %s\n", ctrls[c].name,
			       ctrls[c].nmembers,
			       ctrls[c].nmembers == 1 ? "" : "s",
			       speed(bw, s1, sizeof(s1)));
			sum += bw;
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

