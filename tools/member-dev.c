// SPDX-License-Identifier: GPL-2.0
/*
 * A member's device, serial and controller now (see member-dev.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "member-dev.h"

/*
 * The controller of the disk at sysfs directory @dir, by the path the
 * kernel gives it: the SCSI host, else the NVMe controller, else the
 * last PCI function on the way; "" for a virtual device (dm, loop).
 * A simpler reading than plan's (topology.c), which also groups.
 */
static void controller_of(const char *dir, char *out, size_t sz)
{
	char buf[PATH_MAX], *save = NULL, *t;
	static const char *const prefixes[] = { "host", "nvme" };
	size_t i;

	out[0] = '\0';
	if (strncmp(dir, "/sys/devices/", 13) ||
	    !strncmp(dir, "/sys/devices/virtual/", 21))
		return;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", dir);
		for (t = strtok_r(buf, "/", &save); t;
		     t = strtok_r(NULL, "/", &save))
			if (is_name_num(t, prefixes[i]))
				snprintf(out, sz, "%s", t);
		if (out[0])
			return;
	}
	snprintf(buf, sizeof(buf), "%s", dir);
	for (t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save))
		if (is_pci_addr(t))
			snprintf(out, sz, "PCI %s", t);
}

void bds_member_dev(const char *majmin, struct bds_member_dev *d)
{
	char link[64], dir[PATH_MAX], disk[PATH_MAX], dm[NAME_SZ];

	memset(d, 0, sizeof(*d));
	snprintf(d->node, sizeof(d->node), "%s (gone)", majmin);
	snprintf(link, sizeof(link), "/sys/dev/block/%s", majmin);
	if (!realpath(link, dir))
		return;
	d->found = true;
	snprintf(d->kname, sizeof(d->kname), "%s", base_name(dir));
	snprintf(d->node, sizeof(d->node), "/dev/%s", d->kname);
	if (read_attr(dir, "dm/name", dm, sizeof(dm)))
		snprintf(d->node, sizeof(d->node), "/dev/mapper/%s", dm);
	/* a partition's serial and controller are its disk's */
	snprintf(disk, sizeof(disk), "%s", dir);
	if (exists(dir, "partition") && strrchr(disk, '/'))
		*strrchr(disk, '/') = '\0';
	disk_serial(disk, d->serial, sizeof(d->serial));
	controller_of(disk, d->controller, sizeof(d->controller));
}

void bds_suspended_why(char *why, size_t sz, const char *path,
		       const char *name)
{
	snprintf(why, sz, "%s is a suspended device-mapper device (%s): its I/O waits for 'dmsetup resume %s'",
		 path, name[0] ? name : "?", name[0] ? name : path);
}

bool bds_dev_suspended(const char *path, char *why, size_t sz)
{
	char mm[32], dir[64], name[128];

	if (!bds_majmin_of(path, mm, sizeof(mm)))
		return false;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%s", mm);
	if (!dm_suspended(dir, name, sizeof(name)))
		return false;
	bds_suspended_why(why, sz, path, name);
	return true;
}

bool bds_majmin_of(const char *path, char *buf, size_t sz)
{
	struct stat st;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return false;
	snprintf(buf, sz, "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	return true;
}
