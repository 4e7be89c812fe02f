// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm detail [--json] [--interval SECONDS] NAME: one active volume.
 *
 * The geometry from its table, what its members' labels say, and its
 * members by controller group: table index, stripe position, device
 * (the table's major:minor found in /sys/dev/block), serial at creation
 * (label) and now (sysfs, read as create reads it), health and error
 * count (status fields 2 and 7; the count is "?" with a module older
 * than 1.3.0, whose status has no field 7),
 * and the per-group I/O counters of the status.  With --interval the
 * counters are read twice, SECONDS apart, and the rates shown per group.
 *
 * --json prints one object (keys in the order printed):
 *   "name", "uuid", "dm_uuid", "device" (/dev/mapper/NAME), "dev"
 *   (MAJ:MIN), "open_count", "size_sectors", "chunk_sectors",
 *   "width_sectors", "nr_members", "layout", "group_sizes" [..],
 *   "order" [member at each stripe position; with weights, at each slot
 *   of a cycle], "health" (A or D per member,
 *   table order), "state" ("healthy", "errors", or "unknown" when the
 *   status cannot be read: then "order" and "health" are empty and the
 *   counters 0), "error_members" [..], "weights" [per member, table
 *   order; all 1 without weights], "cycle_sectors" (stripe unit x the
 *   sum of the weights: the stripe width without weights),
 *   "label": the labels' view, null when no member has a label of the
 *   volume: {"name", "ctime", "utime", "generation", "agreeing" (members
 *   whose label is this one's generation, at their own position)},
 *   "groups": [{"group", "controller" (at creation, "" if unknown),
 *   "members" [table indexes], "reads", "writes", "read_sectors",
 *   "write_sectors"}],
 *   "members": [{"index" (table order), "position" (stripe position;
 *   with weights the member's first slot), "group", "device", "dev",
 *   "offset", "weight", "data_sectors" (its share of the size), "uuid"
 *   (from the label, "" if
 *   none), "serial_label", "serial_now", "health" ("A", "D", "?"),
 *   "errors" (the member's error count, null when unknown), "label"
 *   ("ok", "none", "unreadable", "other-volume", "other-position",
 *   "other-generation")}],
 *   and with --interval "rates": {"seconds", "groups": [{"group",
 *   "read_mbps", "write_mbps", "read_iops", "write_iops"}]}; MB = 10^6 bytes.
 *
 * Exit 0; 1 when NAME is not an active bds-stripe volume (or cannot be
 * read), and when a member has failed (health D; the report is printed
 * all the same, as mdadm --detail --test does); 2 for usage errors.  The
 * output is in detail-out.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assemble.h"
#include "bdsadm.h"
#include "detail.h"
#include "label-io.h"

#define DETAIL_USAGE "detail [--json | --export] [--interval SECONDS] NAME"

/* Device node and serial of member @i, from /sys/dev/block/MAJ:MIN. */
static void find_member(struct bds_detail *d, u32 i, char *kname,
			size_t ksz)
{
	char link[128], dir[PATH_MAX], disk[PATH_MAX], dmname[BDS_DM_NAME_SZ];
	struct bds_mview *m = &d->m[i];
	char dev[sizeof(d->vol.dev[0])];

	memcpy(dev, d->vol.dev[i], sizeof(dev));
	snprintf(link, sizeof(link), "/sys/dev/block/%s", dev);
	kname[0] = '\0';
	snprintf(m->node, sizeof(m->node), "%s (not in sysfs)", dev);
	if (!realpath(link, dir))
		return;
	snprintf(kname, ksz, "%s", base_name(dir));
	snprintf(m->node, sizeof(m->node), "/dev/%s", kname);
	if (read_attr(dir, "dm/name", dmname, sizeof(dmname)))
		snprintf(m->node, sizeof(m->node), "/dev/mapper/%s", dmname);
	/* a partition's serial is its disk's */
	snprintf(disk, sizeof(disk), "%s", dir);
	if (exists(dir, "partition") && strrchr(disk, '/'))
		*strrchr(disk, '/') = '\0';
	disk_serial(disk, m->serial, sizeof(m->serial));
}

/* Member @i's label (device /dev/@kname), judged against the table. */
static void read_label(struct bds_detail *d, u32 i, const char *kname,
		       const u8 *vu)
{
	static struct bds_dev_labels dl;
	struct bds_mview *m = &d->m[i];
	const struct bds_label *l;
	char path[NAME_SZ + 8], why[512];
	struct bds_dev dev;
	int rc;

	m->label = "unreadable";
	if (!kname[0])
		return;
	snprintf(path, sizeof(path), "/dev/%s", kname);
	if (bds_dev_open(&dev, path, false, why, sizeof(why)))
		return;
	rc = bds_labels_read(&dev, &dl);
	bds_dev_close(&dev);
	if (rc)
		return;
	l = bds_labels_best(&dl);
	m->label = "none";
	if (!l)
		return;
	m->label = "other-volume";
	if (memcmp(l->volume_uuid, vu, BDS_UUID_LEN))
		return;
	memcpy(m->uuid, l->member_uuid, BDS_UUID_LEN);
	m->generation = l->generation;
	m->meas_disk = l->meas_disk;
	m->meas_ctrl = l->meas_ctrl;
	m->label = l->member_index == i ? "ok" : "other-position";
	if (!d->have_view || l->generation > d->view.generation) {
		d->view = *l;
		d->have_view = true;
	}
}

static void look_at_members(struct bds_detail *d)
{
	char kname[NAME_SZ], u[BDS_DM_UUID_SZ];
	u8 vu[BDS_UUID_LEN];
	u32 i;

	bds_vol_uuid(&d->vol, u, sizeof(u));
	if (!bds_uuid_parse(u, vu))
		memset(vu, 0, sizeof(vu));
	for (i = 0; i < d->vol.nr_members; i++) {
		find_member(d, i, kname, sizeof(kname));
		read_label(d, i, kname, vu);
	}
	for (i = 0; i < d->vol.nr_members; i++) {
		if (!strcmp(d->m[i].label, "ok") &&
		    d->m[i].generation != d->view.generation)
			d->m[i].label = "other-generation";
		d->agreeing += !strcmp(d->m[i].label, "ok");
	}
}

/* Sleep @secs, then read the counters again.  Returns an exit status. */
static int measure(struct bds_detail *d, double secs)
{
	const struct bds_group_io *a = d->before, *b = d->vol.io;
	struct timespec t0, t1, req;
	u32 g;

	memcpy(d->before, d->vol.io, sizeof(d->before));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	req.tv_sec = (time_t)secs;
	req.tv_nsec = (long)((secs - (double)req.tv_sec) * 1e9);
	while (nanosleep(&req, &req) && errno == EINTR)
		;
	if (!bds_vol_reread_status(&d->vol)) {
		bds_err("%s: its status could not be read again (%s): was it stopped?",
			d->vol.name, d->vol.why);
		return BDS_EXIT_FAIL;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	d->secs = (double)(t1.tv_sec - t0.tv_sec) +
		  (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	d->have_rates = true;
	for (g = 0; g < d->vol.args.nr_groups; g++)
		if (b[g].reads < a[g].reads || b[g].writes < a[g].writes ||
		    b[g].read_sectors < a[g].read_sectors ||
		    b[g].write_sectors < a[g].write_sectors) {
			bds_err("%s: the counters went back during the interval (its table was reloaded); run again",
				d->vol.name);
			return BDS_EXIT_FAIL;
		}
	return BDS_EXIT_OK;
}

/* Read @name; unless it is an active bds-stripe volume say so, exit 1. */
static int read_volume(struct bds_detail *d, const char *name)
{
	struct bds_vol *v = &d->vol;

	if (!bds_vol_dm_available()) {
		bds_err("%s: device-mapper is not in the kernel (dm_mod not loaded), so no volume is active; load it (modprobe dm_mod), then 'bdsadm assemble %s'",
			name, name);
		return BDS_EXIT_FAIL;
	}
	if (!bds_vol_read(name, v)) {
		if (strstr(v->why, "cannot talk"))
			bds_err("%s: cannot talk to device-mapper (are you root?)",
				name);
		else
			bds_err("%s: no such active volume; 'bdsadm list' shows the volumes, active and on disks ('bdsadm assemble %s' activates one)",
				name, name);
		return BDS_EXIT_FAIL;
	}
	if (strncmp(v->dm_uuid, BDS_DM_UUID_PREFIX, strlen(BDS_DM_UUID_PREFIX))) {
		bds_err("%s is a device-mapper device but not a volume bdsadm made (dm UUID '%s', target '%s'); 'dmsetup table %s' shows what it is",
			name, v->dm_uuid, v->target, name);
		return BDS_EXIT_FAIL;
	}
	if (!v->have_table) {
		bds_err("%s: cannot read its bds-stripe table (%s); 'dmsetup table %s' shows what is loaded",
			name, v->why, name);
		return BDS_EXIT_FAIL;
	}
	return BDS_EXIT_OK;
}

/* SECONDS: a decimal number, more than 0 and at most a day. */
static bool parse_seconds(const char *s, double *secs)
{
	char *end;

	errno = 0;
	*secs = strtod(s, &end);
	return !errno && end != s && !*end && isfinite(*secs) && *secs > 0 &&
	       *secs <= 86400;
}

/* Mid-restripe: where the target is ("reshape status"). */
static void look_at_restripe(struct bds_detail *d)
{
	static char table[16384];
	char buf[128];
	unsigned long long c, h;
	unsigned int n;

	d->restriping = d->vol.args.reshape_given;
	if (!d->restriping)
		return;
	d->backward = bds_dm_table(d->vol.name, table, sizeof(table)) &&
		      strstr(table, " reshape backward ");
	d->rs_units = d->vol.args.chunk ? d->vol.sectors / d->vol.args.chunk : 0;
	if (bds_dm_message(d->vol.name, "reshape status", buf, sizeof(buf)) ||
	    sscanf(buf, "checkpoint %llu hold %llu held %u", &c, &h, &n) != 3)
		return;
	d->have_restripe = true;
	d->rs_ckpt = c;
	d->rs_hold = h;
	d->rs_held = n;
}

/* Read volume @name into @d, its rates over @secs (0: none); print it. */
static int detail_of(struct bds_detail *d, const char *name, double secs,
		     bool json, bool export)
{
	int rc;

	rc = read_volume(d, name);
	if (rc)
		return rc;
	look_at_members(d);
	look_at_restripe(d);
	if (secs > 0) {
		if (!d->vol.have_status) {
			bds_err("%s: no rates: its status cannot be read (%s)",
				name, d->vol.why);
			return BDS_EXIT_FAIL;
		}
		rc = measure(d, secs);
		if (rc)
			return rc;
	}
	if (json)
		bds_detail_json(d);
	else if (export)
		bds_detail_export(d);
	else
		bds_detail_human(d);
	/* as mdadm --detail --test: a script sees a failed member */
	return d->vol.have_status && strchr(d->vol.health, 'D') ?
	       BDS_EXIT_FAIL : BDS_EXIT_OK;
}

int bds_cmd_detail(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "export", no_argument, NULL, 'e' },
		{ "interval", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bds_detail *d;
	const char *name;
	bool json = false, export = false;
	double secs = 0;
	int c, rc;

	while ((c = getopt_long(argc, argv, "jei:h", lo, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'e':
			export = true;
			break;
		case 'i':
			if (!parse_seconds(optarg, &secs)) {
				bds_err("--interval %s: not a number of seconds (more than 0, at most 86400)",
					optarg);
				return bds_usage(DETAIL_USAGE);
			}
			break;
		case 'h':
			printf("usage: bdsadm " DETAIL_USAGE "\n");
			return BDS_EXIT_OK;
		default:
			return bds_usage(DETAIL_USAGE);
		}
	}
	if (optind + 1 != argc || (json && export))
		return bds_usage(DETAIL_USAGE);
	name = bds_vol_name_arg(argv[optind]);
	if (!name)
		return bds_usage(DETAIL_USAGE);
	d = calloc(1, sizeof(*d));
	if (!d) {
		bds_err("detail %s: out of memory", name);
		return BDS_EXIT_FAIL;
	}
	rc = detail_of(d, name, secs, json, export);
	free(d);
	return rc;
}
