// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm examine DEVICE...: what a member's label says, for people
 * (default), for udev (--export, KEY=VALUE lines) or for scripts
 * (--json).  Exit 0 when every device holds a valid label, 1 otherwise.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "assemble.h"
#include "bdsadm.h"
#include "fmt.h"
#include "label-io.h"
#include "member-dev.h"
#include "volume.h"

enum out_mode { OUT_HUMAN, OUT_EXPORT, OUT_JSON };

static const char *copy_name(int pick)
{
	return pick == 1 ? "backup" : "primary";
}

/* MEASURED: what --measure read of this member's disk, and when. */
static void print_measured(const struct bds_label *l)
{
	char t[64];

	printf("       Measured : %g MB/s alone", l->meas_disk / 1000.0);
	if (l->meas_ctrl)
		printf(", %g MB/s its controller (all its disks)",
		       l->meas_ctrl / 1000.0);
	else
		printf(", its controller no limit");
	printf(" (%s; --measure)\n",
	       bds_time(l->meas_time, t, sizeof(t)));
}

/* How the weights were chosen (label WEIGHTS_MODE, 1..3). */
static const char *weights_mode_name(u32 mode)
{
	return mode == BDS_WEIGHTS_MODE_CAPACITY ? "capacity" :
	       mode == BDS_WEIGHTS_MODE_BANDWIDTH ? "bandwidth" : "list";
}

static void copy_state(const struct bds_dev_labels *dl, int i, char *buf,
		       size_t sz)
{
	if (dl->err[i] == BDS_LABEL_OK)
		snprintf(buf, sz, "valid at sector %llu, generation %llu%s%s",
			 (unsigned long long)dl->sector[i],
			 (unsigned long long)dl->copy[i].generation,
			 i && (dl->copy[i].incompat &
			       BDS_LABEL_INCOMPAT_FRONT_BACKUP) ?
			 ", in front of the data" : "",
			 dl->copy[i].incompat & BDS_LABEL_INCOMPAT_ADOPT ?
			 ", marked ADOPT: an adoption (adopt --from or --from-table) or a release not finished; 'bdsadm assemble' tells the way on" :
			 "");
	else if (dl->io_err[i])
		snprintf(buf, sz, "cannot be read at sector %llu: %s",
			 (unsigned long long)dl->sector[i],
			 strerror(-dl->io_err[i]));
	else
		snprintf(buf, sz, "not valid at sector %llu: %s",
			 (unsigned long long)dl->sector[i],
			 bds_label_error(dl->err[i]));
}

/* The label's layout, with its weights (the decoder checked them). */
static void layout_of(const struct bds_label *l, struct bds_layout *layout)
{
	static struct bds_slot slot[BDS_MAX_SLOTS];
	static u16 slot_of[BDS_MAX_SLOTS];
	u32 w;

	bds_layout_init(layout, l->chunk_sectors, l->group_size, l->nr_groups,
			(enum bds_order_mode)l->layout);
	if (bds_weights_check(layout, l->weight, &w) == BDS_OK)
		bds_layout_weigh(layout, l->weight, w, slot, slot_of);
}

/* This member of a weighted volume: its weight and slots. */
static void print_member(const struct bds_label *l,
			 const struct bds_layout *layout)
{
	u32 i, me = l->member_index;

	printf("         Member : %u of %u, weight %u of %u (slot%s",
	       me, l->nr_members, l->weight[me], layout->nr_slots,
	       l->weight[me] > 1 ? "s" : "");
	for (i = 0; i < l->weight[me]; i++)
		printf("%s%u", i ? "," : " ", bds_member_slot(layout, me, i));
	printf(" of each cycle), group %u\n", bds_label_group_of(l, me));
}

/* A weighted volume: the weights, the slots, this member's share. */
static void print_label_weights(const struct bds_label *l,
				const struct bds_layout *layout)
{
	u32 i, me = l->member_index, W = layout->nr_slots;
	char h[32], h2[32];

	printf("        Weights :");
	for (i = 0; i < l->nr_members; i++)
		printf("%s%u", i ? "," : " ", l->weight[i]);
	printf(" (table order; a cycle of %u stripe units)\n", W);
	printf("     Slot order :");
	for (i = 0; i < W; i++)
		printf("%s%u", i ? "," : " ", bds_slot_member(layout, i));
	printf("\n    Data length : %llu sectors on this member (%s: %.1f %% of the volume), volume %s\n",
	       (unsigned long long)l->data_sectors,
	       bds_human(l->data_sectors << 9, h, sizeof(h)),
	       100.0 * l->weight[me] / W,
	       bds_human(bds_label_unit(l) * W << 9, h2, sizeof(h2)));
}

static void print_human(const char *dev, const struct bds_dev_labels *dl,
			const struct bds_label *l)
{
	char u[37], t[64], h[32], h2[32], st[256];
	struct bds_layout layout;
	bool weighted = bds_label_weighted(l);
	u32 i, g;

	layout_of(l, &layout);
	printf("%s:\n", dev);
	printf("          Label : bds-stripe version %d, %s copy counts\n",
	       BDS_LABEL_VERSION, copy_name(dl->pick));
	copy_state(dl, 0, st, sizeof(st));
	printf("   Primary copy : %s\n", st);
	copy_state(dl, 1, st, sizeof(st));
	printf("    Backup copy : %s\n", st);
	printf("         Volume : %s\n", l->name);
	bds_uuid_format(l->volume_uuid, u);
	printf("    Volume UUID : %s\n", u);
	printf("        Created : %s\n", bds_time(l->ctime, t, sizeof(t)));
	printf("          Owner : %s\n", l->owner[0] ? l->owner :
	       "none (every host counts it as its own)");
	printf("     Generation : %llu (%s)\n", (unsigned long long)l->generation,
	       bds_time(l->utime, t, sizeof(t)));
	bds_uuid_format(l->member_uuid, u);
	g = bds_label_group_of(l, l->member_index);
	if (!weighted)
		printf("         Member : %u of %u, stripe position %u, group %u\n",
		       l->member_index, l->nr_members,
		       layout.pos_of[l->member_index], g);
	else
		print_member(l, &layout);
	printf("    Member UUID : %s\n", u);
	printf("    Stripe unit : %llu sectors (%s)\n",
	       (unsigned long long)l->chunk_sectors,
	       bds_human(l->chunk_sectors << 9, h, sizeof(h)));
	printf("         Layout : %s, groups",
	       l->layout == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave");
	for (g = 0; g < l->nr_groups; g++)
		printf("%s%u", g ? "+" : " ", l->group_size[g]);
	printf("\n");
	if (l->weights_mode)
		printf("   Weights mode : %s (grow --add chooses the new set's so)\n",
		       weights_mode_name(l->weights_mode));
	if (l->meas_disk)
		print_measured(l);
	if (!weighted) {
		printf("   Stripe order :");
		for (i = 0; i < l->nr_members; i++)
			printf("%s%u", i ? "," : " ", layout.order[i]);
		printf("\n");
	}
	printf("    Data offset : %llu sectors (%s)\n",
	       (unsigned long long)l->data_offset,
	       bds_human(l->data_offset << 9, h, sizeof(h)));
	if (weighted)
		print_label_weights(l, &layout);
	else
		printf("    Data length : %llu sectors per member (%s), volume %s\n",
		       (unsigned long long)l->data_sectors,
		       bds_human(l->data_sectors << 9, h, sizeof(h)),
		       bds_human((l->data_sectors * l->nr_members) << 9, h2,
				 sizeof(h2)));
	printf("   Member sizes : %llu sectors at creation\n",
	       (unsigned long long)l->member_sectors);
	printf("        Members : (as seen at creation)\n");
	printf("      #  group  controller            UUID                                  serial                data offset%s\n",
	       weighted ? "  weight  data sectors" : "");
	for (i = 0; i < l->nr_members; i++) {
		g = bds_label_group_of(l, i);
		bds_uuid_format(l->uuid[i], u);
		printf("    %s%3u  %5u  %-20s  %s  %-20s  ",
		       i == l->member_index ? "*" : " ", i, g,
		       l->controller[g][0] ? l->controller[g] : "-", u,
		       l->serial[i][0] ? l->serial[i] : "-");
		if (weighted)
			printf("%11llu  %6u  %llu\n",
			       (unsigned long long)l->member_offset[i],
			       l->weight[i],
			       (unsigned long long)bds_label_member_data(l, i));
		else
			printf("%llu\n", (unsigned long long)l->member_offset[i]);
	}
}

static void print_export(const struct bds_dev_labels *dl,
			 const struct bds_label *l)
{
	char u[37];

	printf("BDS_LABEL_VERSION=%d\n", BDS_LABEL_VERSION);
	printf("BDS_LABEL_COPY=%s\n", copy_name(dl->pick));
	printf("BDS_VOLUME_NAME=%s\n", l->name);
	bds_uuid_format(l->volume_uuid, u);
	printf("BDS_VOLUME_UUID=%s\n", u);
	bds_uuid_format(l->member_uuid, u);
	printf("BDS_MEMBER_UUID=%s\n", u);
	printf("BDS_MEMBER_INDEX=%u\n", l->member_index);
	printf("BDS_MEMBERS=%u\n", l->nr_members);
	printf("BDS_GENERATION=%llu\n", (unsigned long long)l->generation);
	if (l->owner[0])
		printf("BDS_OWNER=%s\n", l->owner);
}

static void json_copy(const struct bds_dev_labels *dl, int i)
{
	printf("{\"sector\": %llu, \"valid\": %s, ",
	       (unsigned long long)dl->sector[i],
	       dl->err[i] == BDS_LABEL_OK ? "true" : "false");
	if (dl->err[i] == BDS_LABEL_OK)
		printf("\"generation\": %llu}",
		       (unsigned long long)dl->copy[i].generation);
	else {
		printf("\"error\": ");
		bds_json_str(stdout, bds_label_error(dl->err[i]));
		printf("}");
	}
}

/* @unreadable: why the device could not be read (no copies then), or NULL */
static void print_json(const char *dev, const struct bds_dev_labels *dl,
		       const struct bds_label *l, const char *unreadable,
		       bool last)
{
	char u[37];
	u32 i, g;

	printf("    {\"device\": ");
	bds_json_str(stdout, dev);
	if (unreadable) {
		printf(", \"valid\": false, \"error\": ");
		bds_json_str(stdout, unreadable);
		printf(", \"primary\": null, \"backup\": null, \"conflict\": false}%s\n",
		       last ? "" : ",");
		return;
	}
	printf(", \"valid\": %s, \"primary\": ", l ? "true" : "false");
	json_copy(dl, 0);
	printf(", \"backup\": ");
	json_copy(dl, 1);
	if (!l) {
		printf(", \"conflict\": %s}%s\n",
		       dl->pick == BDS_LABEL_PICK_CONFLICT ? "true" : "false",
		       last ? "" : ",");
		return;
	}
	printf(",\n     \"copy\": \"%s\", \"version\": %d, \"name\": ",
	       copy_name(dl->pick), BDS_LABEL_VERSION);
	bds_json_str(stdout, l->name);
	bds_uuid_format(l->volume_uuid, u);
	printf(", \"uuid\": \"%s\",\n     \"ctime\": %llu, \"utime\": %llu, \"generation\": %llu, \"owner\": ",
	       u, (unsigned long long)l->ctime, (unsigned long long)l->utime,
	       (unsigned long long)l->generation);
	if (l->owner[0])
		bds_json_str(stdout, l->owner);
	else
		printf("null");
	printf(",\n");
	bds_uuid_format(l->member_uuid, u);
	printf("     \"member_index\": %u, \"member_uuid\": \"%s\", \"chunk_sectors\": %llu,\n",
	       l->member_index, u, (unsigned long long)l->chunk_sectors);
	printf("     \"layout\": \"%s\", \"groups\": [",
	       l->layout == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave");
	for (g = 0; g < l->nr_groups; g++) {
		printf("%s{\"members\": %u, \"controller\": ", g ? ", " : "",
		       l->group_size[g]);
		bds_json_str(stdout, l->controller[g]);
		printf("}");
	}
	printf("],\n     \"data_offset\": %llu, \"data_sectors\": %llu, \"member_sectors\": %llu,\n",
	       (unsigned long long)l->data_offset,
	       (unsigned long long)l->data_sectors,
	       (unsigned long long)l->member_sectors);
	printf("     \"volume_sectors\": %llu, \"cycle_units\": %u, \"weights_mode\": ",
	       (unsigned long long)bds_volume_length(l), bds_label_slots(l));
	if (l->weights_mode)
		printf("\"%s\",\n", weights_mode_name(l->weights_mode));
	else
		printf("null,\n");
	printf("     \"measured\": ");
	if (l->meas_disk) {
		printf("{\"disk_mbps\": %g, \"controller_mbps\": ",
		       l->meas_disk / 1000.0);
		if (l->meas_ctrl)
			printf("%g", l->meas_ctrl / 1000.0);
		else
			printf("null");
		printf(", \"time\": %llu},\n", (unsigned long long)l->meas_time);
	} else {
		printf("null,\n");
	}
	printf("     \"members\": [");
	for (i = 0; i < l->nr_members; i++) {
		bds_uuid_format(l->uuid[i], u);
		printf("%s\n       {\"index\": %u, \"group\": %u, \"uuid\": \"%s\", \"serial\": ",
		       i ? "," : "", i, bds_label_group_of(l, i), u);
		bds_json_str(stdout, l->serial[i]);
		printf(", \"data_offset\": %llu, \"weight\": %u, \"data_sectors\": %llu}",
		       (unsigned long long)l->member_offset[i], l->weight[i],
		       (unsigned long long)bds_label_member_data(l, i));
	}
	printf("]}%s\n", last ? "" : ",");
}

/* Why a device has no label that counts, for stderr. */
static void no_label(const char *dev, const struct bds_dev_labels *dl)
{
	char u0[37], u1[37];

	if (dl->pick == BDS_LABEL_PICK_CONFLICT) {
		bds_uuid_format(dl->copy[0].volume_uuid, u0);
		bds_uuid_format(dl->copy[1].volume_uuid, u1);
		bds_err("%s: its two label copies are of different volumes or members (primary: volume %s, %s; backup: volume %s, %s); not choosing one: erase the device's labels with 'bdsadm wipe' if it belongs to neither",
			dev, dl->copy[0].name, u0, dl->copy[1].name, u1);
		return;
	}
	bds_err("%s: no valid bds-stripe label (primary at sector %llu: %s; backup at sector %llu: %s)",
		dev, (unsigned long long)dl->sector[0],
		bds_label_error(dl->err[0]), (unsigned long long)dl->sector[1],
		bds_label_error(dl->err[1]));
}

static const struct option examine_opts[] = {
	{ "export", no_argument, NULL, 'e' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int bds_cmd_examine(int argc, char **argv)
{
	static struct bds_dev_labels dl;
	enum out_mode mode = OUT_HUMAN;
	int c, i, status = 0;

	while ((c = getopt_long(argc, argv, "ejh", examine_opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			mode = OUT_EXPORT;
			break;
		case 'j':
			mode = OUT_JSON;
			break;
		case 'h':
			printf("usage: bdsadm examine [--export | --json] DEVICE...\n");
			return 0;
		default:
			return bds_usage("examine [--export | --json] DEVICE...");
		}
	}
	if (optind == argc)
		return bds_usage("examine [--export | --json] DEVICE...");
	if (mode == OUT_EXPORT && argc - optind != 1)
		return bds_usage("examine --export takes one DEVICE");
	if (mode == OUT_JSON)
		printf("{\"output_version\": %d, \"devices\": [\n",
		       BDS_JSON_OUTPUT_VERSION);
	for (i = optind; i < argc; i++) {
		const struct bds_label *l = NULL;
		char why[512];
		u64 sectors;
		int rc;

		/*
		 * With a time limit: udev runs this for every block device.
		 * A suspended dm device is not read at all (it would only
		 * time out).
		 */
		rc = bds_dev_suspended(argv[i], why, sizeof(why)) ? -EAGAIN :
		     bds_labels_read_path(argv[i], BDS_READ_TIMEOUT_MS,
					  &sectors, &dl, why, sizeof(why));
		if (rc) {
			bds_err("%s", why);
			memset(&dl, 0, sizeof(dl));
			dl.pick = -1;
			status = 1;
			if (mode == OUT_JSON)
				print_json(argv[i], &dl, NULL, why, i + 1 == argc);
			continue;
		}
		l = bds_labels_best(&dl);
		if (!l) {
			no_label(argv[i], &dl);
			status = 1;
		}
		if (mode == OUT_JSON)
			print_json(argv[i], &dl, l, NULL, i + 1 == argc);
		else if (l && mode == OUT_EXPORT)
			print_export(&dl, l);
		else if (l)
			print_human(argv[i], &dl, l);
		if (mode == OUT_HUMAN && l && i + 1 < argc)
			printf("\n");
	}
	if (mode == OUT_JSON)
		printf("]}\n");
	return status;
}
