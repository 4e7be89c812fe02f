// SPDX-License-Identifier: GPL-2.0
/*
 * bds-stripe-table --create NAME: the table just printed, made into
 * /dev/mapper/NAME as "dmsetup create NAME --table TABLE" would, but
 * through libdevmapper (dm.c), as bdsadm create does: an unlabelled
 * volume without a dm UUID (labelled volumes: bdsadm create).  Then the
 * read-ahead is raised to two stripe widths.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "dm.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef BDS_FAKE_DM
/* The tool tests' build: their fake device-mapper (plan.h). */
static const struct table_dm *const dm = &bds_fake_dm;
#else
/* An unlabelled volume has no dm UUID, as dmsetup create makes it. */
static bool create_plain(const char *name, u64 length, const char *params)
{
	return bds_dm_create(name, NULL, length, params, 0, false);
}

static const struct table_dm libdm = {
	.info = bds_dm_info,
	.create = create_plain,
	.remove = bds_dm_remove,
};
static const struct table_dm *const dm = &libdm;
#endif

/*
 * The kernel name (dm-N) of the device-mapper device called NAME: the
 * block device whose dm/name holds it, under <sysfs>/class/block; "" if
 * there is none.
 */
static enum plan_status dm_kernel_name(struct plan_ctx *c, const char *name,
				       char *out, size_t sz)
{
	char dir[PATH_MAX], sub[PATH_MAX], buf[NAME_SZ + 8];
	enum plan_status st;
	struct dirent *de;
	DIR *d;

	out[0] = 0;
	st = plan_path(c, dir, sizeof(dir), "%s/class/block", c->opt.sysfs);
	d = st ? NULL : opendir(dir);
	while (d && !st && !out[0] && (de = readdir(d))) {
		if (strncmp(de->d_name, "dm-", 3))
			continue;
		st = plan_path(c, sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (!st && read_attr(sub, "dm/name", buf, sizeof(buf)) &&
		    !strcmp(buf, name))
			st = plan_path(c, out, sz, "%s", de->d_name);
	}
	if (d)
		closedir(d);
	return st;
}

/* The read-ahead --read-ahead asks for, in KiB. */
static u64 read_ahead_kib(const struct plan_ctx *c,
			  const struct plan_result *r)
{
	u64 want;

	if (c->opt.ra_mode == RA_SET)
		return c->opt.ra_kib;
	want = (2 * r->width_b + 1023) / 1024;
	return (want + PAGE_KIB - 1) / PAGE_KIB * PAGE_KIB;
}

/*
 * After --create: set the volume's read-ahead.  auto raises it to two
 * stripe widths (rounded up to whole pages) unless it is already that
 * large; --read-ahead SIZE sets it; off leaves the kernel's value.
 * Failing here leaves the volume in place and is reported, not fatal.
 */
static enum plan_status set_read_ahead(struct plan_ctx *c,
				       const struct plan_result *r)
{
	char dev[NAME_SZ], dir[PATH_MAX], path[PATH_MAX];
	u64 cur, want = read_ahead_kib(c, r);
	enum plan_status st;
	FILE *f;
	bool ok;

	if (c->opt.ra_mode == RA_OFF)
		return PLAN_OK;
	st = dm_kernel_name(c, c->opt.create, dev, sizeof(dev));
	if (st)
		return st;
	if (!dev[0]) {
		fprintf(stderr, "%s: warning: %s not found under %s/class/block: read-ahead not set\n",
			c->prog, c->opt.create, c->opt.sysfs);
		return PLAN_OK;
	}
	st = plan_path(c, dir, sizeof(dir), "%s/class/block/%s/queue",
		       c->opt.sysfs, dev);
	if (st)
		return st;
	if (!read_u64_attr(dir, "read_ahead_kb", &cur)) {
		fprintf(stderr, "%s: warning: cannot read %s/read_ahead_kb: read-ahead not set\n",
			c->prog, dir);
		return PLAN_OK;
	}
	if (c->opt.ra_mode == RA_AUTO && cur >= want) {
		fprintf(stderr, "%s: read-ahead of %s (%s) is %llu KiB, at least 2 stripe widths already\n",
			c->prog, c->opt.create, dev, U(cur));
		return PLAN_OK;
	}
	st = plan_path(c, path, sizeof(path), "%s/read_ahead_kb", dir);
	if (st)
		return st;
	f = fopen(path, "w");
	ok = f && fprintf(f, "%llu\n", U(want)) > 0;
	if (f && fclose(f))
		ok = false;
	if (!ok) {
		fprintf(stderr, "%s: warning: cannot write %s: %s (read-ahead stays %llu KiB)\n",
			c->prog, path, strerror(errno), U(cur));
		return PLAN_OK;
	}
	fprintf(stderr, "%s: read-ahead of %s (%s): %llu KiB (was %llu KiB)\n",
		c->prog, c->opt.create, dev, U(want), U(cur));
	return PLAN_OK;
}

enum plan_status create_device(struct plan_ctx *c, const struct plan_result *r)
{
	const char *name = c->opt.create;
	struct bds_dm_info info;

	if (!dm->info(name, &info))
		return plan_fail(c, "cannot talk to device-mapper (is dm_mod loaded? are you root?)");
	if (info.exists)
		return plan_fail(c, "a device-mapper device named '%s' already exists",
				 name);
	fprintf(stderr, "%s: through libdevmapper: dmsetup create %s --table '%s'\n",
		c->prog, name, c->table);
	if (dm->create(name, r->length, c->table + c->table_words)) {
		fprintf(stderr, "%s: created /dev/mapper/%s\n", c->prog, name);
		return set_read_ahead(c, r);
	}
	fprintf(stderr, "%s: dmsetup create %s failed (through libdevmapper); the kernel log names the reason\n",
		c->prog, name);
	/* libdevmapper removes what it made; should a device be left, too */
	if (dm->info(name, &info) && info.exists) {
		fprintf(stderr, "%s: removing the half-created %s\n", c->prog,
			name);
		if (!dm->remove(name))
			fprintf(stderr, "%s: dmsetup remove %s failed: remove it by hand\n",
				c->prog, name);
	}
	return plan_said(c);
}
