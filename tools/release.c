// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm release NAME --to-md [--md-device PATH]: give an active volume
 * back to md, in place, as an md RAID0 array (metadata 1.2) over the same
 * members in table order, each at its data offset, with the same chunk.
 * Only a sequential volume with unit weights and no restripe under way
 * has md's RAID0 layout; anything else is refused, saying what grow
 * would have to undo first.  mdadm writes md's superblocks; bdsadm never
 * does.
 *
 * The order (Documentation/bds-stripe-label.rst, "Adoption"):
 *   1. stripe units read through the volume, which is then stopped;
 *   2. every member's backup copy, with incompat ADOPT: a power cut
 *      here leaves the volume (the primaries count; assemble rewrites
 *      the backups);
 *   3. mdadm --create --assume-clean --data-offset=variable over our
 *      primaries: cut during it, assemble finishes back to the volume
 *      from the backups; after it, md's array is whole and assemble
 *      refuses the volume;
 *   4. the same units read through the new array must be the volume's,
 *      else the labels are written back and the volume assembled again;
 *   5. mdadm --stop, the marked backups erased (md's superblock left,
 *      bds_labels_wipe()), mdadm --assemble.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assemble.h"
#include "bdsadm.h"
#include "dm.h"
#include "label-io.h"
#include "md.h"
#include "replace.h"
#include "run-lock.h"
#include "sample.h"
#include "scan.h"
#include "util.h"
#include "volume.h"

#define RELEASE_USAGE "release NAME --to-md [--md-device /dev/md/NAME]"

struct release_ctx {
	const char *name;
	char md[PATH_MAX];		/* the array to create */
	struct bds_scan s;
	struct bds_asm_result r;
	const struct bds_label *l[BDS_MAX_MEMBERS];	/* table order */
	const char *dev[BDS_MAX_MEMBERS];
	struct bds_sample sample;
	u32 n;
};

static int refuse(const struct release_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int refuse(const struct release_ctx *c, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	bds_err("release %s: %s; nothing was changed", c->name, msg);
	return BDS_EXIT_FAIL;
}

/* The volume: whole, sequential, unit weights, no restripe, active. */
static int check_volume(struct release_ctx *c)
{
	const struct bds_label *v;
	struct bds_dm_info info;
	char msg[4096], dmuuid[BDS_DM_UUID_SZ];
	u32 p;

	if (bds_scan("/sys", &c->s))
		return refuse(c, "cannot list the block devices under /sys/class/block");
	if (bds_assemble(c->s.found, c->s.n, c->name, NULL, &c->r) !=
	    BDS_ASM_OK) {
		bds_asm_message(&c->r, msg, sizeof(msg));
		return refuse(c, "%s", msg);
	}
	v = c->r.label;
	if (c->r.rollback)
		return refuse(c, "a membership change of the volume was cut short: 'bdsadm assemble %s' ends it first",
			      c->name);
	if (v->incompat & BDS_LABEL_INCOMPAT_RESHAPE)
		return refuse(c, "a restripe is under way: let it finish ('bdsadm grow --continue %s'), then release",
			      c->name);
	if (bds_label_weighted(v))
		return refuse(c, "its members have weights, which md's RAID0 does not have: 'bdsadm grow %s --weights 1,...,1' (then '--layout sequential') would have to undo them first",
			      c->name);
	if (v->layout != BDS_LAYOUT_SEQUENTIAL)
		return refuse(c, "its layout is interleave, which md's RAID0 does not have: 'bdsadm grow %s --layout sequential' would have to undo it first",
			      c->name);
	c->n = c->r.nr_members;
	for (p = 0; p < c->n; p++) {
		const struct bds_found *f = &c->s.found[c->r.member[p]];

		c->l[p] = bds_asm_member_label(c->s.found, &c->r, p);
		c->dev[p] = f->dev;
		if (f->adopting)
			return refuse(c, "%s carries a label of an adoption or release cut short: 'bdsadm assemble %s' ends it first",
				      f->dev, c->name);
	}
	bds_volume_dm_uuid(v, dmuuid, sizeof(dmuuid));
	if (!bds_dm_info(c->name, &info))
		return refuse(c, "%s", bds_dm_why_not());
	if (!info.exists || strcmp(info.uuid, dmuuid))
		return refuse(c, "/dev/mapper/%s is not this volume's active device: release takes an active volume ('bdsadm assemble %s' first)",
			      c->name, c->name);
	if (info.open_count)
		return refuse(c, "/dev/mapper/%s is in use (open %d times): unmount it first",
			      c->name, info.open_count);
	if (!access(c->md, F_OK))
		return refuse(c, "%s exists already: give another with --md-device",
			      c->md);
	return BDS_EXIT_OK;
}

/* Write member @p's backup (@adopt: with ADOPT) or primary (!@backup). */
static int write_label(const struct release_ctx *c, u32 p, bool backup,
		       bool adopt)
{
	struct bds_dev_labels *dl = malloc(sizeof(*dl));
	struct bds_label l = *c->l[p];
	struct bds_label_id was;
	struct bds_dev d;
	char why[512];
	int rc;

	if (!dl)
		return -ENOMEM;
	if (adopt)
		l.incompat |= BDS_LABEL_INCOMPAT_ADOPT;
	else
		l.incompat &= ~BDS_LABEL_INCOMPAT_ADOPT;
	rc = bds_dev_open(&d, c->dev[p], true, why, sizeof(why));
	if (!rc) {
		rc = bds_labels_read(&d, dl);
		bds_label_id_held(&was, dl);
		if (!rc)
			rc = backup ? bds_label_write_backup(&d, &was, &l) :
				      bds_label_write_primary(&d, &was, &l);
		bds_dev_close(&d);
	}
	free(dl);
	if (rc)
		bds_err("release %s: %s: writing its %s label failed: %s",
			c->name, c->dev[p], backup ? "backup" : "primary",
			bds_label_io_error(rc));
	return rc;
}

/*
 * Back to the volume: the primaries md overwrote written again, then
 * assemble, which rewrites the marked backups and creates the volume.
 */
static int back_to_volume(const struct release_ctx *c, const char *why)
{
	char *argv[] = { "assemble", (char *)c->name, NULL };
	u32 p;

	bds_err("release %s: %s; putting the volume back", c->name, why);
	for (p = 0; p < c->n; p++)
		if (write_label(c, p, false, false)) {
			bds_err("release %s: the volume is not back: 'bdsadm assemble %s' finishes it once %s can be written",
				c->name, c->name, c->dev[p]);
			return BDS_EXIT_FAIL;
		}
	if (bds_cmd_assemble(2, argv))
		bds_err("release %s: the labels are back; 'bdsadm assemble %s' creates the volume",
			c->name, c->name);
	return BDS_EXIT_FAIL;
}

/* mdadm --create over the members, each at its data offset. */
static bool md_create(const struct release_ctx *c)
{
	char *argv[BDS_MAX_MEMBERS + 16], chunk[32], raid[32];
	char (*dev)[PATH_MAX + 32] = calloc(c->n, sizeof(*dev));
	char out[1024];
	int n = 0, rc;
	u32 p;

	if (!dev)
		return false;
	snprintf(chunk, sizeof(chunk), "--chunk=%lluK",
		 U(c->l[0]->chunk_sectors / 2));
	snprintf(raid, sizeof(raid), "--raid-devices=%u", c->n);
	argv[n++] = "mdadm";
	argv[n++] = "--create";
	argv[n++] = (char *)c->md;
	argv[n++] = "--run";
	argv[n++] = "--level=0";
	argv[n++] = "--metadata=1.2";
	argv[n++] = raid;
	argv[n++] = chunk;
	argv[n++] = "--assume-clean";
	argv[n++] = "--data-offset=variable";
	for (p = 0; p < c->n; p++) {
		snprintf(dev[p], sizeof(dev[p]), "%s:%lluK", c->dev[p],
			 U(c->l[p]->data_offset / 2));
		argv[n++] = dev[p];
	}
	argv[n] = NULL;
	rc = bds_run_capture(argv, out, sizeof(out));
	free(dev);
	return rc == 0;
}

static bool md_run(const char *verb, const struct release_ctx *c)
{
	char *argv[BDS_MAX_MEMBERS + 4], out[512];
	int n = 0;
	u32 p;

	argv[n++] = "mdadm";
	argv[n++] = (char *)verb;
	argv[n++] = (char *)c->md;
	for (p = 0; !strcmp(verb, "--assemble") && p < c->n; p++)
		argv[n++] = (char *)c->dev[p];
	argv[n] = NULL;
	return bds_run_capture(argv, out, sizeof(out)) == 0;
}

static int release(struct release_ctx *c)
{
	char path[PATH_MAX];
	struct bds_label_id was;
	struct bds_dev_labels *dl;
	struct bds_dev d;
	char why[512];
	long rc;
	u32 p;

	/* udev's events and the boot unit assemble nothing meanwhile */
	rc = bds_run_lock(60000);
	if (rc)
		return refuse(c, "cannot take the assembly lock " BDS_RUN_DIR "/lock: %s",
			      rc == -ETIMEDOUT ? "another bdsadm holds it" :
			      strerror((int)-rc));
	rc = check_volume(c);
	if (rc)
		return (int)rc;
	snprintf(path, sizeof(path), "/dev/mapper/%s", c->name);
	if (!bds_sample_pick(&c->sample, c->l[0]->chunk_sectors,
			     bds_volume_length(c->r.label) /
			     c->l[0]->chunk_sectors, c->n))
		return refuse(c, "out of memory");
	if (bds_sample_read(&c->sample, path, false) != (long)c->sample.n)
		return refuse(c, "reading %s failed: %s", path, strerror(errno));
	if (!bds_dm_remove(c->name))
		return refuse(c, "cannot stop /dev/mapper/%s (is it in use?)",
			      c->name);
	for (p = 0; p < c->n; p++) {
		if (write_label(c, p, true, true))
			return back_to_volume(c, "marking the backup labels failed");
		if (!p)
			rpl_crash_point("release-backup-1");
	}
	rpl_crash_point("release-backups");
	if (!md_create(c))
		return back_to_volume(c, "mdadm --create failed (its message is above)");
	rpl_crash_point("release-created");
	rc = bds_sample_read(&c->sample, c->md, true);
	if (rc != (long)c->sample.n) {
		md_run("--stop", c);
		return back_to_volume(c, rc < 0 ? "reading the new array failed" :
				      "a stripe unit reads differently through the new array");
	}
	if (!md_run("--stop", c))
		bds_err("release %s: 'mdadm --stop %s' failed: the marked backup labels stay (they are never used while md's superblocks are there)",
			c->name, c->md);
	dl = malloc(sizeof(*dl));
	for (p = 0; dl && p < c->n; p++) {
		int e = bds_dev_open(&d, c->dev[p], true, why, sizeof(why));

		if (!e) {
			e = bds_labels_read(&d, dl);
			bds_label_id_held(&was, dl);
			if (!e)
				e = bds_labels_wipe(&d, &was);
			bds_dev_close(&d);
			snprintf(why, sizeof(why), "%s: %s", c->dev[p],
				 e ? bds_label_io_error(e) : "");
		}
		if (e)
			bds_err("release %s: cannot erase the marked backup label (%s); it is never used while md's superblock is there, and 'bdsadm wipe %s' erases it once the array is stopped",
				c->name, why, c->dev[p]);
		if (!p)
			rpl_crash_point("release-wiped-1");
	}
	free(dl);
	if (!md_run("--assemble", c))
		bds_err("release %s: 'mdadm --assemble %s' failed: 'mdadm --assemble --scan' starts it",
			c->name, c->md);
	printf("Released %s to md: %s, RAID0, metadata 1.2, %u members in the volume's order, chunk %lluK\n",
	       c->name, c->md, c->n, U(c->l[0]->chunk_sectors / 2));
	printf("  compared:    %u stripe units through the volume and through %s (%u held data): the same\n",
	       c->sample.n, c->md, c->sample.nonzero);
	printf("  next:        record it for boot ('mdadm --detail --scan >> /etc/mdadm/mdadm.conf', 'update-initramfs -u'); mount it as %s\n",
	       c->md);
	return BDS_EXIT_OK;
}

static int parse(struct release_ctx *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "to-md", no_argument, NULL, 'm' },
		{ "md-device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool to_md = false;
	int o;

	optind = 1;
	while ((o = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (o) {
		case 'm':
			to_md = true;
			break;
		case 'd':
			snprintf(c->md, sizeof(c->md), "%s", optarg);
			break;
		case 'h':
			printf("usage: bdsadm " RELEASE_USAGE "\n");
			return -1;
		default:
			return bds_usage(RELEASE_USAGE);
		}
	}
	if (optind + 1 != argc || !to_md)
		return bds_usage(RELEASE_USAGE);
	c->name = bds_vol_name_arg(argv[optind]);
	if (!c->name)
		return BDS_EXIT_USAGE;
	if (!c->md[0])
		snprintf(c->md, sizeof(c->md), "/dev/md/%s", c->name);
	return BDS_EXIT_OK;
}

int bds_cmd_release(int argc, char **argv)
{
	struct release_ctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c) {
		bds_err("out of memory");
		return BDS_EXIT_FAIL;
	}
	rc = parse(c, argc, argv);
	if (!rc)
		rc = release(c);
	bds_sample_free(&c->sample);
	bds_scan_free(&c->s);
	free(c);
	return rc < 0 ? BDS_EXIT_OK : rc;
}
