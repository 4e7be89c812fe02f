// SPDX-License-Identifier: GPL-2.0
/*
 * The tool tests' device-mapper for bds-stripe-table --create: compiled
 * into bdsadm only by this directory's Makefile (-DBDS_FAKE_DM), in place
 * of libdevmapper (tools/plan.h: struct table_dm), so that --create runs
 * on a fake sysfs tree without root or device-mapper.  No bdsadm built by
 * tools/Makefile, make install, DKMS or the packages contains it.
 *
 *   BDSADM_TEST_DM_DIR=DIR    its devices: a file DIR/NAME each (unset:
 *                             device-mapper cannot be reached)
 *   BDSADM_TEST_DM_LOG=FILE   every call, a line each, in dmsetup's
 *                             words: info NAME, create NAME --table
 *                             TABLE, remove NAME
 *   BDSADM_TEST_DM_FAIL=1     create makes the device, then fails (a
 *                             half-created device)
 *   BDSADM_TEST_DM_SYSFS=DIR  create also makes the device appear in the
 *                             fake sysfs DIR, as dm-3 with dm/name, dev
 *                             and queue/read_ahead_kb (BDSADM_TEST_DM_RA,
 *                             default 128); remove takes it away
 */
#ifndef BDS_FAKE_DM
#error "fake-dm.c belongs to the tool tests' build only (BDS_FAKE_DM)"
#endif

#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/dm.h"
#include "../../tools/plan.h"

static void dm_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void dm_log(const char *fmt, ...)
{
	const char *log = getenv("BDSADM_TEST_DM_LOG");
	va_list ap;
	FILE *f;

	f = log ? fopen(log, "a") : NULL;
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

/* DIR/NAME of the device @name; false without BDSADM_TEST_DM_DIR. */
static bool dev_file(const char *name, char *path)
{
	const char *dir = getenv("BDSADM_TEST_DM_DIR");

	return dir && snprintf(path, PATH_MAX, "%s/%s", dir, name) < PATH_MAX;
}

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fputs(text, f) >= 0;

	if (f && fclose(f))
		ok = false;
	return ok;
}

/* mkdir -p */
static bool make_dirs(const char *path)
{
	char p[PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s", path);
	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			if (mkdir(p, 0755) && access(p, F_OK))
				return false;
			*s = '/';
		}
	return !mkdir(p, 0755) || !access(p, F_OK);
}

/* <sysfs>/devices/virtual/block/dm-3 (@sub appended) into @path. */
static void sys_dm(const char *sysfs, const char *sub, char *path)
{
	snprintf(path, PATH_MAX, "%s/devices/virtual/block/dm-3%s", sysfs, sub);
}

/* The device in the fake sysfs, as the kernel would show it. */
static bool sysfs_add(const char *sysfs, const char *name)
{
	const char *ra = getenv("BDSADM_TEST_DM_RA");
	char path[PATH_MAX], text[160];
	static const char *const dirs[] = { "", "/dm", "/queue", "/holders" };
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		sys_dm(sysfs, dirs[i], path);
		if (!make_dirs(path))
			return false;
	}
	snprintf(text, sizeof(text), "%s\n", name);
	sys_dm(sysfs, "/dm/name", path);
	if (!write_file(path, text))
		return false;
	sys_dm(sysfs, "/dev", path);
	if (!write_file(path, "253:3\n"))
		return false;
	snprintf(text, sizeof(text), "%s\n", ra ? ra : "128");
	sys_dm(sysfs, "/queue/read_ahead_kb", path);
	if (!write_file(path, text))
		return false;
	snprintf(path, sizeof(path), "%s/class/block/dm-3", sysfs);
	return !symlink("../../devices/virtual/block/dm-3", path);
}

static void sysfs_remove(const char *sysfs)
{
	static const char *const files[] = {
		"/dm/name", "/dev", "/queue/read_ahead_kb", "/dm", "/queue",
		"/holders", "",
	};
	char path[PATH_MAX];
	size_t i;

	snprintf(path, sizeof(path), "%s/class/block/dm-3", sysfs);
	unlink(path);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		sys_dm(sysfs, files[i], path);
		remove(path);
	}
}

static bool fake_info(const char *name, struct bds_dm_info *info)
{
	char path[PATH_MAX];

	memset(info, 0, sizeof(*info));
	if (!dev_file(name, path))
		return false;
	dm_log("info %s", name);
	info->exists = !access(path, F_OK);
	return true;
}

static bool fake_create(const char *name, u64 length, const char *params)
{
	const char *sysfs = getenv("BDSADM_TEST_DM_SYSFS");
	char path[PATH_MAX];

	if (!dev_file(name, path))
		return false;
	dm_log("create %s --table 0 %llu bds-stripe %s", name,
	     (unsigned long long)length, params);
	if (!write_file(path, params))
		return false;
	if (sysfs && !sysfs_add(sysfs, name))
		return false;
	return !getenv("BDSADM_TEST_DM_FAIL");
}

static bool fake_remove(const char *name)
{
	const char *sysfs = getenv("BDSADM_TEST_DM_SYSFS");
	char path[PATH_MAX];

	if (!dev_file(name, path))
		return false;
	dm_log("remove %s", name);
	if (sysfs)
		sysfs_remove(sysfs);
	return !unlink(path);
}

const struct table_dm bds_fake_dm = {
	.info = fake_info,
	.create = fake_create,
	.remove = fake_remove,
};
