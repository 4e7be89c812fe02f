// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm stop NAME...: remove an active volume's device-mapper device.
 * The labels stay: bdsadm assemble brings it back.  Refuses a volume
 * that is open, and says by whom.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "bdsadm.h"
#include "dm.h"

#define STOP_USAGE "stop NAME..."

/* Who has @info's device open: holders, or a mount; "" if not seen. */
static void who_holds(const struct bds_dm_info *info, char *out, size_t sz)
{
	char path[PATH_MAX], line[4 * PATH_MAX];
	struct dirent *de;
	size_t len = 0;
	FILE *f;
	DIR *d;

	out[0] = 0;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders",
		 info->major, info->minor);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.' && len < sz)
				len += (size_t)snprintf(out + len, sz - len,
							"%s%s", len ? ", " : "held by ",
							de->d_name);
		closedir(d);
	}
	f = fopen("/proc/self/mounts", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *src = strtok_r(line, " ", &save);
		char *dir = strtok_r(NULL, " ", &save);
		struct stat st;

		if (!src || !dir || src[0] != '/' || stat(src, &st) ||
		    !S_ISBLK(st.st_mode) || major(st.st_rdev) != info->major ||
		    minor(st.st_rdev) != info->minor || len >= sz)
			continue;
		len += (size_t)snprintf(out + len, sz - len, "%smounted on %s",
					len ? ", " : "", dir);
	}
	fclose(f);
}

static int stop_one(const char *name)
{
	struct bds_dm_info info;
	char who[1024];

	if (!bds_dm_info(name, &info)) {
		bds_err("%s", bds_dm_why_not());
		return BDS_EXIT_FAIL;
	}
	if (!info.exists) {
		bds_err("%s: no such active volume; 'bdsadm list' shows the volumes",
			name);
		return BDS_EXIT_FAIL;
	}
	if (strncmp(info.uuid, BDS_DM_UUID_PREFIX, strlen(BDS_DM_UUID_PREFIX))) {
		bds_err("%s is not a volume bdsadm made (dm UUID '%s'); not stopping it: use dmsetup remove",
			name, info.uuid);
		return BDS_EXIT_FAIL;
	}
	if (info.open_count) {
		who_holds(&info, who, sizeof(who));
		bds_err("%s is open (%s); not stopping it: unmount it or stop what uses it first%s",
			name, who[0] ? who : "by a process",
			who[0] ? "" : " ('fuser -vm /dev/mapper/NAME' shows which)");
		return BDS_EXIT_FAIL;
	}
	if (!bds_dm_remove(name)) {
		bds_err("%s: device-mapper could not remove it; it is still active",
			name);
		return BDS_EXIT_FAIL;
	}
	bds_info("stopped %s", name);
	return BDS_EXIT_OK;
}

int bds_cmd_stop(int argc, char **argv)
{
	int i, rc = BDS_EXIT_OK;

	if (bds_help_only(argc, argv, STOP_USAGE))
		return BDS_EXIT_OK;
	if (argc < 2 || argv[1][0] == '-')
		return bds_usage(STOP_USAGE);
	for (i = 1; i < argc; i++) {
		const char *name = bds_vol_name_arg(argv[i]);

		if (!name || stop_one(name) != BDS_EXIT_OK)
			rc = BDS_EXIT_FAIL;
	}
	return rc;
}
