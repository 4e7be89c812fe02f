// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm assemble NAME | --uuid UUID | --scan: find the members by
 * their labels (scan.c), decide (assemble.c: never a partial or
 * inconsistent set), build the table from the labels (volume.c) and
 * create the device (dm.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "assemble.h"
#include "bdsadm.h"
#include "dm.h"
#include "fmt.h"
#include "label-io.h"
#include "member-dev.h"
#include "run-lock.h"
#include "scan.h"
#include "volume.h"

#define ASM_USAGE "assemble NAME | --uuid UUID | --scan"

/* Tell what assembly used that is not the normal case. */
static void tell_oddities(const struct bds_scan *s,
			  const struct bds_asm_result *r)
{
	u32 i;

	for (i = 0; i < r->nr_members; i++) {
		const struct bds_found *f = &s->found[r->member[i]];

		if (f->copy == 1)
			bds_err("volume %s: member %u (%s): its primary label copy is damaged, its backup copy (sector %llu) was used; check the disk ('bdsadm examine %s', smartctl)",
				r->name, i, f->dev,
				(unsigned long long)f->label.label_sector,
				f->dev);
	}
	if (r->nr_ignored && !r->rollback)
		bds_err("volume %s: %u device(s) with an older generation of its labels left out (former members: see 'bdsadm list')",
			r->name, r->nr_ignored);
}

/*
 * An interrupted membership change is rolled back before the table is
 * loaded (assemble.h): the members that stay get their older copy back
 * as the primary, the disk that was to join loses its labels.  Returns
 * false (and says why) if a device cannot be written: nothing is then
 * assembled, and running assemble again redoes what is left.
 */
static bool roll_back(const struct bds_scan *s, const struct bds_asm_result *r)
{
	char why[256];
	struct bds_dev d;
	u32 i;
	int rc;

	bds_err("volume %s: a membership change to generation %llu was interrupted before its commit point: rolling it back to generation %llu",
		r->name, (unsigned long long)r->abandoned,
		(unsigned long long)r->generation);
	for (i = 0; i < r->nr_restore + r->nr_drop; i++) {
		bool restore = i < r->nr_restore;
		const struct bds_found *f = &s->found[restore ? r->restore[i] :
						      r->drop[i - r->nr_restore]];
		struct bds_label_id was;

		/* exclusively, and only if it still holds what was decided on */
		if (bds_dev_open(&d, f->dev, true, why, sizeof(why))) {
			bds_err("volume %s: %s; nothing was assembled", r->name, why);
			return false;
		}
		bds_label_id_of(&was, &f->label);
		rc = restore ? bds_label_write_primary(&d, &was, &f->older) :
			       bds_labels_wipe(&d, &was);
		bds_dev_close(&d);
		if (rc) {
			bds_err("volume %s: %s: %s: %s; nothing was assembled",
				r->name, f->dev, restore ?
				"writing its label back failed" :
				"erasing its label failed", bds_label_io_error(rc));
			return false;
		}
		if (restore)
			bds_err("volume %s: member %u (%s) carries generation %llu again",
				r->name, f->older.member_index, f->dev,
				(unsigned long long)r->generation);
		else
			bds_err("volume %s: %s, which was to join at generation %llu, no longer carries a label",
				r->name, f->dev, (unsigned long long)r->abandoned);
	}
	return true;
}

/* Create the volume @r decided on.  Returns an exit status. */
static int assemble_one(const struct bds_scan *s,
			const struct bds_asm_result *r)
{
	static char devs[BDS_MAX_MEMBERS][16];
	const char *devp[BDS_MAX_MEMBERS];
	const struct bds_label *l = r->label;
	char dmuuid[BDS_DM_UUID_SZ], active[BDS_DM_NAME_SZ], params[16384];
	struct bds_dm_info info;
	u32 i;

	bds_volume_dm_uuid(l, dmuuid, sizeof(dmuuid));
	if (bds_dm_name_of_uuid(dmuuid, active, sizeof(active))) {
		bds_err("volume %s is already active as /dev/mapper/%s",
			l->name, active);
		return BDS_EXIT_OK;
	}
	if (!bds_dm_info(l->name, &info)) {
		bds_err("cannot talk to device-mapper (is dm_mod loaded? are you root?)");
		return BDS_EXIT_FAIL;
	}
	if (info.exists) {
		bds_err("volume %s: another device-mapper device is called %s (dm UUID '%s'); not assembling: rename or remove it first",
			l->name, l->name, info.uuid);
		return BDS_EXIT_FAIL;
	}
	for (i = 0; i < r->nr_members; i++) {
		const struct bds_found *f = &s->found[r->member[i]];

		if (!bds_majmin_of(f->dev, devs[i], sizeof(devs[i]))) {
			bds_err("volume %s: member %u: %s is gone; nothing was assembled",
				l->name, i, f->dev);
			return BDS_EXIT_FAIL;
		}
		devp[i] = devs[i];
	}
	if (!bds_volume_params(l, devp, params, sizeof(params))) {
		bds_err("volume %s: the table does not fit %zu bytes", l->name,
			sizeof(params));
		return BDS_EXIT_FAIL;
	}
	tell_oddities(s, r);
	if (r->rollback && !roll_back(s, r))
		return BDS_EXIT_FAIL;
	/* read-ahead: at least two stripe widths (cycles), as create sets it */
	if (!bds_dm_create(l->name, dmuuid, bds_volume_length(l), params,
			   (u32)(2 * l->chunk_sectors * bds_label_slots(l)), true)) {
		bds_err("volume %s: device-mapper refused 0 %llu bds-stripe %s: the kernel log (dmesg) names the reason; nothing was assembled",
			l->name, (unsigned long long)bds_volume_length(l),
			params);
		return BDS_EXIT_FAIL;
	}
	printf("bdsadm: assembled /dev/mapper/%s from %u members (generation %llu)\n",
	       l->name, r->nr_members, (unsigned long long)r->generation);
	fflush(stdout);
	return BDS_EXIT_OK;
}

static int decide_and_assemble(const struct bds_scan *s, const char *name,
			       const u8 *uuid)
{
	struct bds_asm_result r;
	char msg[1024];

	if (bds_assemble(s->found, s->n, name, uuid, &r) != BDS_ASM_OK) {
		bds_asm_message(&r, msg, sizeof(msg));
		bds_err("%s", msg);
		return BDS_EXIT_FAIL;
	}
	return assemble_one(s, &r);
}

int bds_cmd_assemble(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "scan", no_argument, NULL, 's' },
		{ "uuid", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	u8 uuid[BDS_UUID_LEN], (*uuids)[BDS_UUID_LEN];
	bool scan = false, have_uuid = false;
	struct bds_scan s;
	const char *name = NULL;
	size_t nv, i;
	int c, rc = BDS_EXIT_OK;

	while ((c = getopt_long(argc, argv, "su:h", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			scan = true;
			break;
		case 'u':
			if (!bds_uuid_parse(optarg, uuid)) {
				bds_err("--uuid %s: not a UUID (8-4-4-4-12 hex digits)",
					optarg);
				return BDS_EXIT_USAGE;
			}
			have_uuid = true;
			break;
		case 'h':
			printf("usage: bdsadm " ASM_USAGE "\n");
			return BDS_EXIT_OK;
		default:
			return bds_usage(ASM_USAGE);
		}
	}
	if (optind < argc)
		name = argv[optind++];
	if (optind < argc || scan + have_uuid + !!name != 1)
		return bds_usage(ASM_USAGE);
	c = bds_run_lock();
	if (c)
		bds_err("cannot take the assembly lock " BDS_RUN_DIR "/lock (%s); going on without it",
			strerror(-c));

	if (bds_scan("/sys", &s)) {
		bds_err("cannot list the block devices under /sys/class/block");
		return BDS_EXIT_FAIL;
	}
	if (!scan) {
		rc = decide_and_assemble(&s, have_uuid ? NULL : name,
					 have_uuid ? uuid : NULL);
		bds_scan_free(&s);
		return rc;
	}
	nv = bds_volumes(s.found, s.n, NULL, 0);
	uuids = calloc(nv ? nv : 1, sizeof(*uuids));
	if (!uuids) {
		bds_scan_free(&s);
		bds_err("out of memory");
		return BDS_EXIT_FAIL;
	}
	bds_volumes(s.found, s.n, uuids, nv);
	if (!nv)
		bds_err("no device carries a bds-stripe label: nothing to assemble");
	for (i = 0; i < nv; i++)
		if (decide_and_assemble(&s, NULL, uuids[i]) != BDS_EXIT_OK)
			rc = BDS_EXIT_FAIL;
	free(uuids);
	bds_scan_free(&s);
	return rc;
}
