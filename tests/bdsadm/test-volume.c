// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the table bdsadm builds from a volume's labels
 * (tools/volume.c), as assemble, create and replace load it:
 *
 *   the golden label (no weights)     "2 volume <uuid>", length N x data
 *   sequential                        "4 layout sequential volume <uuid>"
 *   the weighted golden label (3,1,2) "4 volume <uuid> weights 3,1,2",
 *                                     length W x the data of weight 1,
 *                                     from any member's label
 *   without "volume" (replace's mirror table)   "2 weights 3,1,2"
 *   random weighted volumes           the table parses with the target's
 *                                     parser, its length is whole cycles,
 *                                     and each member's share is what
 *                                     its label says (the kernel's label
 *                                     check of data_sectors)
 *   a buffer too small                false
 *   member views                      no measured figures, whichever
 *                                     member's label the view came from
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "../../tools/volume.h"
#include "../../tools/assemble.h"

#include <stdio.h>
#include <string.h>

#include "../libbds/tap.h"
#include "../libbds/label-golden.h"

#define UUID "10111213-1415-4617-9819-1a1b1c1d1e1f"

static const char *const devs[BDS_MAX_MEMBERS] = { "8:16", "8:32", "8:48" };

static void golden(void)
{
	struct bds_label l;
	char buf[1024];
	bool ok;

	golden_label(&l);
	ok = bds_volume_params(&l, devs, buf, sizeof(buf));
	check(ok && !strcmp(buf, "128 2 2 8:16 2048 8:32 2048 1 8:48 2048 2 volume " UUID),
	      "golden: %s", buf);
	check(bds_volume_length(&l) == 3 * 4192128ULL,
	      "golden: length %llu", (unsigned long long)bds_volume_length(&l));
	l.layout = BDS_LAYOUT_SEQUENTIAL;
	ok = bds_volume_params(&l, devs, buf, sizeof(buf));
	check(ok && !strcmp(buf, "128 2 2 8:16 2048 8:32 2048 1 8:48 2048 4 layout sequential volume " UUID),
	      "golden, sequential: %s", buf);
}

static void weighted(void)
{
	static const u64 offs[3] = { 2048, 4096, 2048 };
	struct bds_label l;
	char buf[1024];
	u32 m;
	bool ok;

	golden_weighted_label(&l);
	ok = bds_volume_params(&l, devs, buf, sizeof(buf));
	check(ok && !strcmp(buf, "128 2 2 8:16 2048 8:32 2048 1 8:48 2048 4 volume " UUID " weights 3,1,2"),
	      "weighted golden: %s", buf);
	check(bds_volume_length(&l) == 6 * 1397376ULL && bds_label_slots(&l) == 6 &&
	      bds_label_unit(&l) == 1397376 && bds_label_weighted(&l),
	      "weighted golden: length %llu, W 6, 1397376 sectors per unit of weight",
	      (unsigned long long)bds_volume_length(&l));
	/* any member's label gives the same volume */
	for (m = 0, ok = true; m < 3; m++) {
		struct bds_label k = l;

		k.member_index = m;
		k.data_sectors = 1397376ULL * l.weight[m];
		ok = ok && bds_volume_length(&k) == 6 * 1397376ULL &&
		     bds_label_member_data(&k, 0) == 3 * 1397376ULL;
	}
	check(ok, "weighted golden: the same length and shares from each member's label");
	ok = bds_volume_params_at(&l, devs, offs, false, buf, sizeof(buf));
	check(ok && !strcmp(buf, "128 2 2 8:16 2048 8:32 4096 1 8:48 2048 2 weights 3,1,2"),
	      "weighted, without 'volume' (replace's mirror): %s", buf);
	check(!bds_volume_params(&l, devs, buf, 80),
	      "a buffer too small for the weights: false");
}

/* Random weighted volumes: the kernel's view of the table agrees. */
static void random_volumes(void)
{
	static char buf[16384], *argv[600], *save;
	static char names[BDS_MAX_MEMBERS][16];
	const char *dv[BDS_MAX_MEMBERS];
	int round, bad = 0;

	for (round = 0; round < 200; round++) {
		struct bds_label l;
		struct bds_args a;
		struct bds_layout lay;
		unsigned int size[BDS_MAX_GROUPS], argc = 0, n;
		u32 m, g, w, wmax = 0;
		u64 unit;
		char *t;
		bool ok;

		golden_label(&l);
		n = l.nr_members = 1 + (u32)(rnd() % BDS_MAX_MEMBERS);
		l.nr_groups = random_groups(n, size);
		for (g = 0; g < l.nr_groups; g++)
			l.group_size[g] = size[g];
		for (m = 0; m < n; m++) {
			l.weight[m] = 1 + (u32)(rnd() % (rnd() % 2 ? 2 : 8));
			if (l.weight[m] > wmax)
				wmax = l.weight[m];
			snprintf(names[m], sizeof(names[m]), "65:%u", m);
			dv[m] = names[m];
			l.member_offset[m] = 2048;
		}
		unit = (1 + rnd() % 1000) * 128;
		l.member_index = (u32)(rnd() % n);
		l.data_sectors = unit * l.weight[l.member_index];
		ok = bds_volume_params(&l, dv, buf, sizeof(buf));
		for (t = strtok_r(buf, " ", &save); t && argc < 600;
		     t = strtok_r(NULL, " ", &save))
			argv[argc++] = t;
		ok = ok && !bds_parse_table(&a, argc, argv) &&
		     a.volume_given && a.weights_given == bds_label_weighted(&l) &&
		     !bds_layout_init(&lay, a.chunk, a.group_size, a.nr_groups,
				      a.mode) &&
		     !bds_weights_check(&lay, a.weight, &w) &&
		     w == bds_label_slots(&l);
		for (m = 0; ok && m < n; m++)
			ok = a.weight[m] == l.weight[m];
		if (ok) {
			static struct bds_slot slot[BDS_MAX_SLOTS];
			static u16 slot_of[BDS_MAX_SLOTS];
			u64 len;

			bds_layout_weigh(&lay, a.weight, w, slot, slot_of);
			ok = bds_member_len(&lay, bds_volume_length(&l), &len) &&
			     len == unit;
			for (m = 0; ok && m < n; m++)
				ok = bds_member_sectors(&lay, len, m) ==
				     bds_label_member_data(&l, m);
		}
		bad += !ok;
	}
	check(!bad, "200 random volumes: the table parses, whole cycles, each share as its label says (%d wrong)",
	      bad);
}

/*
 * A member's view never carries measured figures: grow's view of the
 * next generation is a copy of whichever member's label assembly took,
 * renumbered as member 0, so member 0 would be given another disk's
 * figures.  The label writers keep each device's own (test-label-io).
 */
static void views_carry_no_figures(void)
{
	struct bds_label l, v, out;
	u32 t;
	int bad = 0;

	golden_measured_label(&l);	/* member 1's: 20 MB/s, 40 MB/s */
	v = l;
	v.member_index = 0;		/* as grow renumbers its view */
	for (t = 0; t < l.nr_members; t++) {
		bds_label_member_view(&v, t, l.member_sectors, l.backup_sector,
				      &out);
		bad += out.meas_disk || out.meas_ctrl || out.meas_time ||
		       (out.compat & BDS_LABEL_COMPAT_MEASURED) ||
		       out.member_index != t;
	}
	bds_label_member_view(&l, 1, l.member_sectors, l.backup_sector, &out);
	bad += out.meas_disk || (out.compat & BDS_LABEL_COMPAT_MEASURED);
	check(!bad, "member views carry no measured figures, member 0's of a renumbered view neither (%d wrong)",
	      bad);
}

int main(void)
{
	tap_rng = 0x766f6c756d65ULL;
	golden();
	weighted();
	random_volumes();
	views_carry_no_figures();
	return tap_done();
}
