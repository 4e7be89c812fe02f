// SPDX-License-Identifier: GPL-2.0
/*
 * Finding members by their labels (see scan.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bdsadm.h"
#include "dm.h"
#include "label-io.h"
#include "member-dev.h"
#include "scan.h"
#include "signature.h"
#include "sysfs.h"

#define SCAN_MAX	4096

/*
 * A bds-stripe volume of ours, or the mirror of a replace: its dm/uuid
 * starts with "BDS-" or "BDSR-".  Neither is looked into; the devices
 * they hold are (a replace's OLD and NEW carry their own labels).
 */
static bool is_our_volume(const char *sysfs, const char *name)
{
	char path[512], uuid[BDS_DM_UUID_SZ] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/block/%s/dm/uuid", sysfs, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(uuid, sizeof(uuid), f))
		uuid[0] = 0;
	fclose(f);
	return !strncmp(uuid, BDS_DM_UUID_PREFIX, strlen(BDS_DM_UUID_PREFIX)) ||
	       !strncmp(uuid, BDS_DM_MIRROR_PREFIX,
			strlen(BDS_DM_MIRROR_PREFIX));
}

/*
 * A suspended device-mapper device would hold every read until it is
 * resumed: not looked at (lvm2 skips them too), and said, for it may be
 * the member a volume then misses.
 */
static bool is_suspended(const char *sysfs, const char *name)
{
	char dir[512], dev[300], dm[128], why[768];

	snprintf(dir, sizeof(dir), "%s/class/block/%s", sysfs, name);
	if (!dm_suspended(dir, dm, sizeof(dm)))
		return false;
	snprintf(dev, sizeof(dev), "/dev/%s", name);
	bds_suspended_why(why, sizeof(why), dev, dm);
	fprintf(stderr, "bdsadm: %s; left out\n", why);
	return true;
}

/*
 * A device held by another device-mapper or md device (a multipath map
 * over its paths, a linear or crypt mapping, an md array) is seen through
 * its holder: the label is read there, not twice.  Held by one of our
 * volumes, it is a member of an active volume and is looked at.
 */
static bool is_held_by_other(const char *sysfs, const char *name)
{
	char dir[512];
	struct dirent *de;
	bool other = false;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/block/%s/holders", sysfs, name);
	d = opendir(dir);
	if (!d)
		return false;
	while (!other && (de = readdir(d)))
		if (de->d_name[0] != '.' && strlen(de->d_name) < 64 &&
		    !is_our_volume(sysfs, de->d_name))
			other = true;
	closedir(d);
	return other;
}

static void look_at(struct bds_scan *s, const char *name)
{
	struct bds_dev_labels dl;
	const struct bds_label *l, *other;
	char why[512], *path = s->paths[s->n];
	u64 sectors;
	int rc;

	snprintf(path, sizeof(s->paths[0]), "/dev/%s", name);
	rc = bds_labels_read_path(path, BDS_READ_TIMEOUT_MS, &sectors, &dl,
				  why, sizeof(why));
	if (rc == -ETIMEDOUT) {
		fprintf(stderr, "bdsadm: %s; left out\n", why);
		return;
	}
	if (rc && sectors) {
		/* a device that cannot be read is said; gone or no node is not */
		fprintf(stderr, "bdsadm: %s: cannot read its labels: %s; left out\n",
			path, strerror(-rc));
		return;
	}
	if (rc)
		return;
	l = bds_labels_best(&dl);
	if (l)
		bds_verbose("%s: member %u of volume %s, generation %llu (%s copy)",
			    path, l->member_index, l->name,
			    (unsigned long long)l->generation,
			    dl.pick == 1 ? "backup" : "primary");
	else if (dl.pick != BDS_LABEL_PICK_CONFLICT)
		bds_verbose("%s: no label", path);
	if (!l) {
		if (dl.pick == BDS_LABEL_PICK_CONFLICT) {
			fprintf(stderr, "bdsadm: %s: its two label copies conflict; left out (see 'bdsadm examine %s')\n",
				path, path);
			s->conflicts++;
		}
		return;
	}
	s->found[s->n].dev = path;
	s->found[s->n].sectors = sectors;
	s->found[s->n].copy = dl.pick;
	s->found[s->n].label = *l;
	other = &dl.copy[!dl.pick];
	s->found[s->n].single = dl.err[!dl.pick] != BDS_LABEL_OK;
	s->found[s->n].has_older = dl.err[!dl.pick] == BDS_LABEL_OK &&
				   other->generation < l->generation;
	if (s->found[s->n].has_older)
		s->found[s->n].older = *other;
	s->found[s->n].adopting = (l->incompat & BDS_LABEL_INCOMPAT_ADOPT) ||
				  (dl.err[!dl.pick] == BDS_LABEL_OK &&
				   (other->incompat & BDS_LABEL_INCOMPAT_ADOPT));
	if (s->found[s->n].adopting) {
		/* it answered the label reads, but may stop now */
		rc = bds_probe_within(bds_md_superblock, path,
				      BDS_READ_TIMEOUT_MS);
		if (rc == -ETIMEDOUT) {
			fprintf(stderr, "bdsadm: %s: did not answer within %d s; left out\n",
				path, BDS_READ_TIMEOUT_MS / 1000);
			return;
		}
		/* one that cannot be probed counts as md's: nothing is written */
		s->found[s->n].md_superblock = rc != 0;
	}
	s->n++;
}

int bds_scan(const char *sysfs, struct bds_scan *s)
{
	char dir[512];
	struct dirent *de;
	DIR *d;

	memset(s, 0, sizeof(*s));
	snprintf(dir, sizeof(dir), "%s/class/block", sysfs);
	d = opendir(dir);
	if (!d)
		return -1;
	s->found = calloc(SCAN_MAX, sizeof(*s->found));
	s->paths = calloc(SCAN_MAX, sizeof(*s->paths));
	if (!s->found || !s->paths) {
		closedir(d);
		bds_scan_free(s);
		errno = ENOMEM;
		return -1;
	}
	while ((de = readdir(d)) && s->n < SCAN_MAX) {
		if (de->d_name[0] == '.' || strlen(de->d_name) > 40)
			continue;
		if (is_our_volume(sysfs, de->d_name) ||
		    is_suspended(sysfs, de->d_name) ||
		    is_held_by_other(sysfs, de->d_name))
			continue;
		look_at(s, de->d_name);
	}
	closedir(d);
	return 0;
}

void bds_scan_free(struct bds_scan *s)
{
	free(s->found);
	free(s->paths);
	memset(s, 0, sizeof(*s));
}
