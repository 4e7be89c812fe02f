// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm adopt NAME --from /dev/mdN: make an md RAID0 array a labelled
 * bds-stripe volume in place, rewriting metadata only.  md's RAID0 over
 * members of one size (one zone) places stripe unit k on member k mod N
 * (role order) at the member's data offset + (k div N) units: the
 * sequential layout.  So the data stays where it is.
 *
 * Nothing is written until all of these hold:
 *   - mdadm says the array is RAID0 with metadata 1.2 (the superblock
 *     4 KiB into each member, where the primary label goes) or 1.1 (at
 *     sector 0, erased before the primary is written), every member
 *     active in its role, and the kernel agrees; no reshape;
 *   - one zone: every member's used size is the same, and the array is
 *     N of them;
 *   - each member has room for the backup label: at its end, beyond
 *     md's data, or else in front of the data, at sector 2032, when md's
 *     data starts at 1 MiB or later and mdadm says md leaves sectors 2032
 *     to 2047 unused (FRONT_BACKUP; Documentation/bds-stripe-label.rst,
 *     "Adoption");
 *   - the array is not in use (opened exclusively: not mounted, not held);
 *   - stripe units read through the array, spread over all of it, read
 *     the same through a read-only bds-stripe table over the members,
 *     after mdadm has stopped the array (and the array is started again
 *     if they do not).
 * Then the labels are written in an order that a power cut at any
 * instant leaves to one of the two tools (see adopt_write()), and the
 * volume is created as assemble creates it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "assemble.h"
#include "adopt.h"
#include "bdsadm.h"
#include "config.h"
#include "dm.h"
#include "fmt.h"
#include "label-io.h"
#include "md.h"
#include "member-dev.h"
#include "replace.h"
#include "run-lock.h"
#include "signature.h"
#include "sample.h"
#include "scan.h"
#include "sysfs.h"
#include "util.h"
#include "volume.h"

#define ADOPT_USAGE "adopt NAME --from /dev/mdN | --from-table DMNAME"


int adopt_refuse(const struct adopt_ctx *c, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	bds_err("adopt %s: %s; nothing was changed", c->name, msg);
	return BDS_EXIT_FAIL;
}

/* The array's kind: RAID0, metadata 1.1 or 1.2, whole, not reshaping. */
static int check_kind(const struct adopt_ctx *c)
{
	const struct bds_md *md = &c->md;
	const char *meta = md->metadata;

	if (strcmp(md->level, "raid0"))
		return adopt_refuse(c, "%s is a %s array: only RAID0 (striping without redundancy) lays data out as a bds-stripe volume does",
			      md->node, md->level[0] ? md->level : "unknown");
	if (!strcmp(meta, "0.90") || !strcmp(meta, "1.0"))
		return adopt_refuse(c, "%s has md metadata %s, which lies at the end of each member, where a bds-stripe volume keeps its backup label: adopt takes metadata 1.1 and 1.2 only",
			      md->node, meta);
	if (strcmp(meta, "1.2") && strcmp(meta, "1.1"))
		return adopt_refuse(c, "%s has md metadata %s: adopt takes metadata 1.1 and 1.2 only (the superblock at the start of each member)",
			      md->node, meta[0] ? meta : "unknown");
	if (md->raid_disks > BDS_MAX_MEMBERS)
		return adopt_refuse(c, "%s has %u members; a bds-stripe volume has at most %d",
			      md->node, md->raid_disks, BDS_MAX_MEMBERS);
	if (md->nr_found != md->raid_disks)
		return adopt_refuse(c, "%s has %u of its %u members: it is degraded or inactive, and RAID0 without a member has lost data",
			      md->node, md->nr_found, md->raid_disks);
	if (strcmp(md->reshape, "none"))
		return adopt_refuse(c, "%s has a reshape pending (reshape_position %s): let mdadm finish it first",
			      md->node, md->reshape);
	return BDS_EXIT_OK;
}

/* One zone: every member's used size the same, the array N of them. */
static int check_zone(const struct adopt_ctx *c)
{
	const struct bds_md *md = &c->md;
	u64 chunk = md->chunk_sectors;
	u32 i;

	if (!chunk || chunk % 8 || chunk > 8388600 ||
	    chunk * 512 * md->raid_disks > 0xffffffffULL)
		return adopt_refuse(c, "%s has a chunk of %llu sectors, which a bds-stripe volume cannot have (a multiple of 4 KiB; a stripe width below 4 GiB)",
			      md->node, U(chunk));
	for (i = 0; i < md->raid_disks; i++) {
		const struct bds_md_member *m = &md->member[i];

		if (!m->in_sync)
			return adopt_refuse(c, "%s: member %s (role %u) is not in sync",
				      md->node, m->dev, i);
		if (m->used != md->member[0].used || !m->used ||
		    m->used % chunk)
			return adopt_refuse(c, "%s: its members are of unequal size (%s uses %llu sectors, %s %llu): md lays such an array out in zones, which a bds-stripe volume does not",
				      md->node, md->member[0].dev,
				      U(md->member[0].used), m->dev, U(m->used));
		if (m->offset < BDS_LABEL_PRIMARY + BDS_LABEL_SECTORS)
			return adopt_refuse(c, "%s: member %s's data starts at sector %llu, inside the place of the primary label (sectors 8 to 23)",
				      md->node, m->dev, U(m->offset));
	}
	if (md->sectors != md->member[0].used * md->raid_disks)
		return adopt_refuse(c, "%s is %llu sectors, not %u members of %llu: it is not one zone",
			      md->node, U(md->sectors), md->raid_disks,
			      U(md->member[0].used));
	return BDS_EXIT_OK;
}

/* Nobody uses the array: it opens exclusively. */
static int check_unused(const struct adopt_ctx *c)
{
	char dir[PATH_MAX], holders[512];
	int fd;

	snprintf(dir, sizeof(dir), "/sys/class/block/%s/holders", c->md.kname);
	list_dir(dir, holders, sizeof(holders));
	if (holders[0])
		return adopt_refuse(c, "%s is held by %s: remove what is stacked on it first",
			      c->md.node, holders);
	fd = open(c->md.node, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		return adopt_refuse(c, "%s is in use (mounted, or open exclusively): unmount it first",
			      c->md.node);
	if (fd < 0)
		return adopt_refuse(c, "%s: %s", c->md.node, strerror(errno));
	close(fd);
	return BDS_EXIT_OK;
}

/* Does a copy at the end of @dev (@size sectors) read as a valid label? */
static bool end_copy_valid(const char *dev, u64 size)
{
	struct bds_dev_labels dl;
	struct bds_dev d;
	char why[256];
	bool valid;

	if (bds_dev_open(&d, dev, false, why, sizeof(why)))
		return false;
	valid = !bds_labels_read(&d, &dl) &&
		((dl.err[0] == BDS_LABEL_OK &&
		  dl.copy[0].backup_sector == bds_label_backup_sector(size)) ||
		 (dl.err[1] == BDS_LABEL_OK &&
		  dl.sector[1] == bds_label_backup_sector(size)));
	bds_dev_close(&d);
	return valid;
}

int adopt_backup_place(struct adopt_ctx *c, u32 i, const char *dev,
		       u64 offset, u64 end, u64 chunk, bool front_ok,
		       const char *why)
{
	u64 at = bds_label_backup_place(c->size[i], offset, end);
	u64 tail = c->size[i] >= BDS_LABEL_MIN_MEMBER ?
		   bds_label_backup_sector(c->size[i]) : 0;

	if (!at)
		return adopt_refuse(c, "%s (member %u): no room for the backup label: the data ends at sector %llu, past sector %llu where 8 KiB at the member's end (below a 4 KiB boundary) would start, and starts at sector %llu, below sector %u, so the label cannot go in front of it either (adopt needs 8 KiB free after the data, or the data starting at 1 MiB or later)",
				    dev, i, U(end), U(tail), U(offset),
				    BDS_LABEL_FRONT_DATA);
	c->backup[i] = at;
	if (at != BDS_LABEL_FRONT_BACKUP || offset < BDS_LABEL_FRONT_DATA)
		return BDS_EXIT_OK;
	if (!front_ok)
		return adopt_refuse(c, "%s (member %u): no room for the backup label: the data leaves no 8 KiB at the member's end, and %s, so the label cannot go in front of the data (sectors %u to %u) either",
				    dev, i, why, BDS_LABEL_FRONT_BACKUP,
				    BDS_LABEL_FRONT_DATA - 1);
	if (end_copy_valid(dev, c->size[i]))
		return adopt_refuse(c, "%s (member %u): the data leaves no room for the backup label at the member's end, so it would go in front of the data; but the last 8 KiB (sector %llu), which the data covers, read as a bds-stripe label, which a reader would take if the primary label were damaged: adopt does not guess",
				    dev, i, U(tail));
	if (offset - BDS_LABEL_FRONT_DATA < chunk && !c->said_no_room) {
		c->said_no_room = true;
		bds_info("%s: the data runs to the member's end and starts %llu sectors after the backup label in front of it: a restripe (grow --layout, --weights, --add) needs a stripe unit (%llu sectors) of room below or above each member's data, so grow will not be able to restripe this volume",
			 dev, U(offset - BDS_LABEL_FRONT_DATA), U(chunk));
	}
	return BDS_EXIT_OK;
}

/*
 * Whether md leaves sectors 2032 to 2047 (the front backup label) unused
 * on @dev, whose data starts at @offset: mdadm --examine's "Unused Space :
 * before=N sectors" is the space just below the data that md's superblock,
 * bitmap and bad-block log leave free.  @why says why not.
 */
static bool md_front_free(const char *dev, u64 offset, char *why, size_t sz)
{
	char *argv[] = { "mdadm", "--examine", (char *)dev, NULL };
	static char out[16384];
	unsigned long long before;
	const char *p;

	if (bds_run_capture(argv, out, sizeof(out)) != 0) {
		snprintf(why, sz, "mdadm --examine %s failed", dev);
		return false;
	}
	p = strstr(out, "Unused Space : before=");
	if (!p || sscanf(p, "Unused Space : before=%llu", &before) != 1) {
		snprintf(why, sz, "mdadm --examine %s does not say what md leaves unused before the data", dev);
		return false;
	}
	if (offset < BDS_LABEL_FRONT_DATA || before > offset ||
	    offset - before > BDS_LABEL_FRONT_BACKUP) {
		snprintf(why, sz, "md's data starts at sector %llu and only the %llu sectors below it are unused by md",
			 U(offset), before);
		return false;
	}
	return true;
}

/* Each member: a 4 KiB block or smaller, room for the backup label. */
static int check_room(struct adopt_ctx *c)
{
	const struct bds_md *md = &c->md;
	char why[512];
	bool front_ok;
	int rc;
	u32 i;

	for (i = 0; i < md->raid_disks; i++) {
		const struct bds_md_member *m = &md->member[i];
		struct bds_dev d;

		if (bds_dev_open(&d, m->dev, false, why, sizeof(why)))
			return adopt_refuse(c, "%s", why);
		c->size[i] = d.sectors;
		bds_dev_close(&d);
		if (d.lbs > 4096)
			return adopt_refuse(c, "%s has %u-byte logical blocks: a bds-stripe label needs 4 KiB blocks or smaller",
				      m->dev, d.lbs);
		if (!bds_majmin_of(m->dev, c->majmin[i], sizeof(c->majmin[i])))
			return adopt_refuse(c, "%s is not a block device", m->dev);
		why[0] = 0;
		front_ok = bds_label_backup_place(c->size[i], m->offset,
						  m->offset + m->used) !=
			   BDS_LABEL_FRONT_BACKUP ||
			   md_front_free(m->dev, m->offset, why, sizeof(why));
		rc = adopt_backup_place(c, i, m->dev, m->offset,
					m->offset + m->used, md->chunk_sectors,
					front_ok, why);
		if (rc)
			return rc;
	}
	return BDS_EXIT_OK;
}

void adopt_label_volume(struct adopt_ctx *c, u64 chunk, u32 n,
			const u64 *offset)
{
	struct bds_label *v = &c->v;
	struct bds_member_dev dev;
	char ctrl[BDS_MAX_MEMBERS][BDS_LABEL_CTRL_LEN + 1];
	u32 i, g = 0;

	memset(v, 0, sizeof(*v));
	bds_new_uuid(v->volume_uuid);
	v->generation = 1;
	v->ctime = v->utime = (u64)time(NULL);
	v->nr_members = n;
	v->layout = BDS_LAYOUT_SEQUENTIAL;
	v->chunk_sectors = chunk;
	snprintf(v->name, sizeof(v->name), "%s", c->name);
	snprintf(v->owner, sizeof(v->owner), "%s", c->conf.system_id);
	v->compat = v->owner[0] ? BDS_LABEL_COMPAT_OWNER : 0;
	for (i = 0; i < n; i++) {
		bds_member_dev(c->majmin[i], &dev);
		snprintf(ctrl[i], sizeof(ctrl[i]), "%.*s", BDS_LABEL_CTRL_LEN,
			 dev.controller);
		snprintf(v->serial[i], sizeof(v->serial[i]), "%.*s",
			 BDS_LABEL_SERIAL_LEN, dev.serial);
		bds_new_uuid(v->uuid[i]);
		v->weight[i] = 1;
		v->member_offset[i] = offset[i];
		if (i && strcmp(ctrl[i], ctrl[i - 1]))
			g++;
		if (g < BDS_MAX_GROUPS) {
			v->group_size[g]++;
			memcpy(v->controller[g], ctrl[i], sizeof(ctrl[i]));
		}
	}
	if (g >= BDS_MAX_GROUPS) {
		/* more than 32 runs: one group; the layout is sequential */
		memset(v->group_size, 0, sizeof(v->group_size));
		memset(v->controller, 0, sizeof(v->controller));
		g = 0;
		v->group_size[0] = (u8)n;
	}
	v->nr_groups = g + 1;
}

/* The volume's label as member 0 sees it; groups: runs of a controller. */
static int make_label(struct adopt_ctx *c)
{
	const struct bds_md *md = &c->md;
	u64 off[BDS_MAX_MEMBERS];
	u32 i;

	for (i = 0; i < md->raid_disks; i++)
		off[i] = md->member[i].offset;
	adopt_label_volume(c, md->chunk_sectors, md->raid_disks, off);
	c->v.data_sectors = md->member[0].used;
	if (bds_volume_length(&c->v) != md->sectors)
		return adopt_refuse(c, "internal error: the volume would be %llu sectors, the array is %llu",
				    U(bds_volume_length(&c->v)), U(md->sectors));
	return BDS_EXIT_OK;
}

int adopt_member_label(const struct adopt_ctx *c, u32 i, struct bds_label *l)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label back;
	enum bds_label_err err;

	bds_label_member_view(&c->v, i, c->size[i], c->backup[i], l);
	bds_label_encode(l, buf);
	err = bds_label_decode(buf, sizeof(buf), &back);
	if (err)
		return adopt_refuse(c, "internal error: the label of %s would be refused: %s",
			      c->md.member[i].dev, bds_label_error(err));
	return BDS_EXIT_OK;
}

void adopt_member_words(const struct adopt_ctx *c, const char **devp)
{
	u32 i;

	for (i = 0; i < c->v.nr_members; i++)
		devp[i] = c->majmin[i];
}

/*
 * After mdadm --stop: the units read through a read-only bds-stripe
 * table over the members must be md's.  On any difference, or when the
 * table cannot be made, md's array is started again.
 */
static int compare_through_table(struct adopt_ctx *c)
{
	const char *devp[BDS_MAX_MEMBERS];
	char params[16384], path[128];
	u64 off[BDS_MAX_MEMBERS];
	long rc;
	u32 i;

	adopt_member_words(c, devp);
	for (i = 0; i < c->md.raid_disks; i++)
		off[i] = c->v.member_offset[i];
	bds_volume_params_at(&c->v, devp, off, false, params, sizeof(params));
	snprintf(c->check_dm, sizeof(c->check_dm), "bds-adopt-check-%d",
		 (int)getpid());
	if (!bds_dm_create_ro(c->check_dm, bds_volume_length(&c->v), params)) {
		bds_md_start(&c->md);
		return adopt_refuse(c, "device-mapper refused the read-only table '0 %llu bds-stripe %s' (dmesg says why); %s was started again",
			      U(bds_volume_length(&c->v)), params, c->md.node);
	}
	snprintf(path, sizeof(path), "/dev/mapper/%s", c->check_dm);
	rc = bds_sample_read(&c->sample, path, true);
	if (!bds_dm_remove(c->check_dm))
		bds_err("adopt %s: cannot remove %s; remove it with 'dmsetup remove %s'",
			c->name, c->check_dm, c->check_dm);
	if (rc == (long)c->sample.n)
		return BDS_EXIT_OK;
	if (!bds_md_start(&c->md))
		bds_err("adopt %s: cannot start %s again: 'mdadm --assemble --scan' starts it",
			c->name, c->md.node);
	if (rc < 0)
		return adopt_refuse(c, "reading the members through the read-only table failed: %s; %s was started again",
			      strerror(errno), c->md.node);
	return adopt_refuse(c, "stripe unit %llu reads differently through %s and through a bds-stripe table of its members: the layouts differ; %s was started again",
		      U(c->sample.unit[rc]), c->md.node, c->md.node);
}

/* Close the members opened so far. */
static void close_members(struct adopt_ctx *c, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		bds_dev_close(&c->d[i]);
}

static void step_point(const char *pfx, int step, bool first)
{
	static const char *const name[2][3] = {
		{ "backups", "primaries", "labelled" },
		{ "backup-1", "primary-1", "final-1" },
	};
	char point[64];

	snprintf(point, sizeof(point), "%s-%s", pfx, name[first][step - 1]);
	rpl_crash_point(point);
}

/* Metadata 1.1: member @i's md superblock, at sector 0, erased. */
static int erase_md(struct adopt_ctx *c, u32 i, const char *pfx)
{
	char why[512], point[64];

	if (bds_md_superblock_wipe(c->d[i].path, why, sizeof(why))) {
		bds_err("adopt %s: %s: erasing md's superblock failed: %s",
			c->name, c->d[i].path, why);
		return -EIO;
	}
	c->md_erased = true;
	if (!i) {
		snprintf(point, sizeof(point), "%s-erased-1", pfx);
		rpl_crash_point(point);
	}
	return 0;
}

int adopt_write_steps(struct adopt_ctx *c, u32 n, struct bds_label_id *was,
		      const char *pfx, int *err, u32 *at)
{
	struct bds_label l;
	u32 i;
	int step;

	for (step = 1; step <= 3; step++) {
		for (i = 0; i < n; i++) {
			adopt_member_label(c, i, &l);
			if (step == 1) {
				l.incompat |= BDS_LABEL_INCOMPAT_ADOPT;
				*err = bds_label_write_backup(&c->d[i], &was[i], &l);
			} else if (step == 2) {
				*err = c->erase_md ? erase_md(c, i, pfx) : 0;
				if (!*err)
					*err = bds_label_write_primary(&c->d[i],
								       &was[i], &l);
			} else {
				*err = bds_label_write_backup(&c->d[i], &was[i], &l);
			}
			if (*err) {
				*at = i;
				return step;
			}
			bds_label_id_of(&was[i], &l);
			if (!i)
				step_point(pfx, step, true);
		}
		step_point(pfx, step, false);
	}
	return 0;
}

/*
 * Write the labels, in this order, each copy synced before the next:
 *   1. every member's backup copy, with incompat ADOPT: md's superblocks
 *      are all intact, md assembles the array, and no bds-stripe reader
 *      takes these copies (assemble refuses, naming the way on);
 *   2. every member's primary copy, without ADOPT, over md's superblock
 *      (metadata 1.1: md's superblock at sector 0 erased first): from
 *      the first one on md cannot assemble the array, and bdsadm
 *      assemble finishes the adoption from the backups (adopt-finish.c);
 *   3. every member's backup copy again, without ADOPT.
 */
static int adopt_write(struct adopt_ctx *c)
{
	struct bds_dev_labels *dl = malloc(sizeof(*dl));
	struct bds_label_id was[BDS_MAX_MEMBERS];
	char why[512];
	u32 i, n = c->md.raid_disks;
	int rc = 0, failed;

	if (!dl)
		return adopt_refuse(c, "out of memory");
	for (i = 0; i < n; i++) {
		rc = bds_dev_open(&c->d[i], c->md.member[i].dev, true, why,
				  sizeof(why));
		if (!rc && bds_labels_read(&c->d[i], dl)) {
			snprintf(why, sizeof(why), "%s: cannot read its labels",
				 c->md.member[i].dev);
			rc = -EIO;
			i++;
		}
		if (rc) {
			close_members(c, i);
			free(dl);
			bds_md_start(&c->md);
			return adopt_refuse(c, "%s; %s was started again", why,
				      c->md.node);
		}
		bds_label_id_held(&was[i], dl);
	}
	free(dl);
	rc = 0;
	failed = adopt_write_steps(c, n, was, "adopt", &rc, &i);
	close_members(c, n);
	if (!failed)
		return BDS_EXIT_OK;
	if (failed == 1 || (failed == 2 && !i && !c->md_erased)) {
		bds_err("adopt %s: %s: writing its label failed: %s; no md superblock was overwritten: %s; adopt it again once the device can be written",
			c->name, c->md.member[i].dev, bds_label_io_error(rc),
			bds_md_start(&c->md) ? "the array was started again" :
			"start the array with 'mdadm --assemble --scan'");
		return BDS_EXIT_FAIL;
	}
	bds_err("adopt %s: %s: writing its label failed: %s; the adoption is half done: md can no longer start the array, and 'bdsadm assemble %s' finishes the adoption once the device can be written",
		c->name, c->md.member[i].dev, bds_label_io_error(rc), c->name);
	return BDS_EXIT_FAIL;
}

int adopt_create_volume(struct adopt_ctx *c)
{
	const char *devp[BDS_MAX_MEMBERS];
	char dmuuid[BDS_DM_UUID_SZ];

	adopt_member_words(c, devp);
	bds_volume_params(&c->v, devp, c->params, sizeof(c->params));
	bds_volume_dm_uuid(&c->v, dmuuid, sizeof(dmuuid));
	if (!bds_dm_create(c->name, dmuuid, bds_volume_length(&c->v), c->params,
			   (u32)(2 * c->v.chunk_sectors * c->v.nr_members),
			   true)) {
		bds_err("adopt %s: the labels are written, but device-mapper refused 0 %llu bds-stripe %s: the kernel log (dmesg) names the reason; 'bdsadm assemble %s' tries again",
			c->name, U(bds_volume_length(&c->v)), c->params, c->name);
		return BDS_EXIT_FAIL;
	}
	return BDS_EXIT_OK;
}

int adopt_say(const struct adopt_ctx *c)
{
	char vu[37], h[64];

	bds_uuid_format(c->v.volume_uuid, vu);
	printf("Adopted %s as /dev/mapper/%s\n", c->source, c->name);
	printf("  volume:      %s\n  UUID:        %s\n", c->name, vu);
	printf("  size:        %s (%llu sectors), as before\n",
	       bds_human(bds_volume_length(&c->v) * 512, h, sizeof(h)),
	       U(bds_volume_length(&c->v)));
	printf("  stripe unit: %s, %u members in %s order, layout %s\n",
	       bds_human(c->v.chunk_sectors * 512, h, sizeof(h)),
	       c->v.nr_members, c->md.node[0] ? "md's role" : "the table's",
	       c->v.layout == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave");
	printf("  compared:    %u stripe units through %s and through the labelled volume (%u held data): the same\n",
	       c->sample.n, c->source, c->sample.nonzero);
	if (c->v.layout == BDS_LAYOUT_SEQUENTIAL)
		printf("  next:        'bdsadm grow %s --layout interleave' spreads it over the controllers online\n",
		       c->name);
	return BDS_EXIT_OK;
}

/* The name: valid, free in device-mapper, the configuration and labels. */
static int check_name(struct adopt_ctx *c)
{
	static const u8 none[BDS_UUID_LEN];
	struct bds_dm_info info;
	const struct bds_found *f;
	struct bds_scan s;
	char err[1024];

	if (bds_conf_read(&c->conf, &bds_conf_default, err, sizeof(err)))
		return adopt_refuse(c, "%s; correct the configuration (bds-stripe.conf(5))",
			      err);
	if (bds_conf_crypttab_has(&c->conf, c->name))
		return adopt_refuse(c, "%s is the name of a dm-crypt mapping in %s: pick another name",
			      c->name, c->conf.paths->crypttab);
	if (!bds_dm_info(c->name, &info))
		return adopt_refuse(c, "%s", bds_dm_why_not());
	if (info.exists && !(c->from_table && !strcmp(c->from_table, c->name)))
		return adopt_refuse(c, "a device-mapper device named '%s' already exists: pick another name",
				    c->name);
	if (bds_scan("/sys", &s))
		return adopt_refuse(c, "cannot list the block devices under /sys/class/block");
	f = bds_name_clash(s.found, s.n, c->name, none);
	if (f)
		adopt_refuse(c, "%s carries a label of another volume named '%s': pick another name",
		       f->dev, c->name);
	bds_scan_free(&s);
	return f ? BDS_EXIT_FAIL : BDS_EXIT_OK;
}

static int parse(struct adopt_ctx *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "from", required_argument, NULL, 'F' },
		{ "from-table", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	while ((o = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (o) {
		case 'F':
			c->from = optarg;
			break;
		case 'T':
			c->from_table = bds_vol_name_arg(optarg);
			if (!c->from_table)
				return BDS_EXIT_USAGE;
			break;
		case 'h':
			printf("usage: bdsadm " ADOPT_USAGE "\n");
			return -1;
		default:
			return bds_usage(ADOPT_USAGE);
		}
	}
	if (optind + 1 != argc || !c->from == !c->from_table)
		return bds_usage(ADOPT_USAGE);
	c->name = bds_vol_name_arg(argv[optind]);
	return c->name ? BDS_EXIT_OK : BDS_EXIT_USAGE;
}

static int adopt(struct adopt_ctx *c)
{
	char why[1024];
	int rc;

	/* udev's events and the boot unit assemble nothing meanwhile */
	rc = bds_run_lock(60000);
	if (rc)
		return adopt_refuse(c, "cannot take the assembly lock " BDS_RUN_DIR "/lock: %s",
				    rc == -ETIMEDOUT ? "another bdsadm holds it" :
				    strerror(-rc));
	rc = check_name(c);
	if (rc)
		return rc;
	if (c->from_table)
		return adopt_from_table(c);
	snprintf(c->source, sizeof(c->source), "%s", c->from);
	if (bds_md_read(c->from, &c->md, why, sizeof(why)))
		return adopt_refuse(c, "%s", why);
	snprintf(c->source, sizeof(c->source), "%s", c->md.node);
	rc = check_kind(c);
	c->erase_md = !strcmp(c->md.metadata, "1.1");
	if (!rc)
		rc = check_zone(c);
	if (!rc)
		rc = check_unused(c);
	if (!rc)
		rc = check_room(c);
	if (!rc)
		rc = make_label(c);
	for (u32 i = 0; !rc && i < c->md.raid_disks; i++) {
		struct bds_label l;

		rc = adopt_member_label(c, i, &l);
	}
	if (!rc && !bds_sample_pick(&c->sample, c->md.chunk_sectors,
				    c->md.sectors / c->md.chunk_sectors,
				    c->md.raid_disks))
		rc = adopt_refuse(c, "out of memory");
	if (!rc && bds_sample_read(&c->sample, c->md.node, false) !=
	    (long)c->sample.n)
		rc = adopt_refuse(c, "reading %s failed: %s", c->md.node,
			    strerror(errno));
	if (rc)
		return rc;
	if (!bds_md_stop(&c->md))
		return adopt_refuse(c, "'mdadm --stop %s' failed (is it in use?)",
			      c->md.node);
	rpl_crash_point("adopt-stopped");
	rc = compare_through_table(c);
	if (!rc)
		rc = adopt_write(c);
	if (!rc)
		rc = adopt_create_volume(c);
	return rc ? rc : adopt_say(c);
}

int bds_cmd_adopt(int argc, char **argv)
{
	struct adopt_ctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c) {
		bds_err("out of memory");
		return BDS_EXIT_FAIL;
	}
	rc = parse(c, argc, argv);
	if (!rc)
		rc = adopt(c);
	bds_sample_free(&c->sample);
	free(c);
	return rc < 0 ? BDS_EXIT_OK : rc;
}
