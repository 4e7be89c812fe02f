// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm incremental DEVICE: what udev runs for every device that carries
 * a bds-stripe label (69-bds-stripe.rules), inside a udev worker.  So it
 * reads that one device and no other, with a time limit, and writes to
 * no disk:
 *   1. the device's labels (bds_labels_read_path(): a device that stops
 *      answering holds it BDS_READ_TIMEOUT_MS at most);
 *   2. a record of it, /run/bds-stripe/<volume uuid>/<kernel name>
 *      (written whole and renamed into place, one file per device,
 *      removed again by 'incremental --remove' on the device's remove
 *      event);
 *   3. if automatic assembly is on (config.h), the volume is not active,
 *      not another host's (unless the configuration lists it), and the
 *      records show every position of its newest generation, the volume
 *      is handed to assembly: with systemd, the unit
 *      bds-stripe-assemble@<volume uuid>.service is started without
 *      waiting for it (its own time limit, its own log); without systemd
 *      (an initramfs), 'bdsadm assemble --auto --no-rollback --uuid' runs
 *      here, under the assembly lock and the read time limit.
 * Assembly then decides on its own scan: the records only say when to
 * try.  A membership change cut short is never rolled back from here.
 *
 * bdsadm incremental --remove DEVICE forgets the device's record.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libdevmapper.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "assemble.h"
#include "bdsadm.h"
#include "config.h"
#include "dm.h"
#include "label-io.h"
#include "member-dev.h"
#include "run-lock.h"
#include "systemd.h"

#define INC_USAGE	"incremental [--remove] DEVICE"
/* How long the udev path waits for the assembly lock. */
#define INC_LOCK_WAIT_MS	10000

/* What a record says about one device. */
struct inc_record {
	u32 member, members;
	unsigned long long generation;
	unsigned int maj, min;
};

/* /run/bds-stripe/<uuid> of label @l, and the record of @kname in it. */
static void record_paths(const u8 *vu, const char *kname, char *dir,
			 size_t dsz, char *file, size_t fsz)
{
	char uuid[37];

	bds_uuid_format(vu, uuid);
	snprintf(dir, dsz, BDS_RUN_DIR "/%s", uuid);
	if (file)
		snprintf(file, fsz, "%s/%s", dir, kname);
}

/* Write the record of @kname (@st its node) for label @l: whole, then renamed. */
static void remember(const char *kname, const struct stat *st,
		     const struct bds_label *l)
{
	char dir[128], file[256], tmp[272];
	FILE *f;

	if (mkdir(BDS_RUN_DIR, 0700) && errno != EEXIST)
		return;
	record_paths(l->volume_uuid, kname, dir, sizeof(dir), file, sizeof(file));
	if (mkdir(dir, 0700) && errno != EEXIST)
		return;
	snprintf(tmp, sizeof(tmp), "%s.new", file);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "member %u members %u generation %llu dev %u:%u\n",
		l->member_index, l->nr_members,
		(unsigned long long)l->generation, major(st->st_rdev),
		minor(st->st_rdev));
	if (fclose(f) || rename(tmp, file))
		unlink(tmp);
}

/* Read the record @file; false when it is not one. */
static bool read_record(const char *file, struct inc_record *r)
{
	FILE *f = fopen(file, "r");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "member %u members %u generation %llu dev %u:%u",
		    &r->member, &r->members, &r->generation, &r->maj,
		    &r->min) == 5 && r->members >= 1 &&
	     r->members <= BDS_MAX_MEMBERS && r->member < r->members;
	fclose(f);
	return ok;
}

/* Is the block device @kname still the one the record @r was written for? */
static bool still_there(const char *kname, const struct inc_record *r)
{
	char path[300], now[32] = "", was[32];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", kname);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(now, sizeof(now), f))
		now[0] = '\0';
	fclose(f);
	snprintf(was, sizeof(was), "%u:%u\n", r->maj, r->min);
	return !strcmp(now, was);
}

/* The kernel's name of the block device @st is (sdb, dm-3), into @buf. */
static bool kernel_name(const struct stat *st, char *buf, size_t sz)
{
	char link[64], target[512];
	ssize_t n;
	const char *slash;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st->st_rdev),
		 minor(st->st_rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	slash = strrchr(target, '/');
	slash = slash ? slash + 1 : target;
	if (!*slash || strlen(slash) >= sz)
		return false;
	memcpy(buf, slash, strlen(slash) + 1);
	return true;
}

/*
 * Of the records of the volume in @dir: how many positions of the newest
 * generation are there, and how many the volume has.  Records of
 * devices that are gone are removed.
 */
static void count_present(const char *dir, u32 *present, u32 *members)
{
	bool seen[BDS_MAX_MEMBERS] = { false };
	unsigned long long newest = 0;
	struct inc_record r;
	char file[512];
	struct dirent *de;
	int pass;
	DIR *d;

	*present = 0;
	*members = 0;
	for (pass = 0; pass < 2; pass++) {
		d = opendir(dir);
		if (!d)
			return;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
				continue;
			snprintf(file, sizeof(file), "%s/%s", dir, de->d_name);
			if (!read_record(file, &r))
				continue;
			if (!still_there(de->d_name, &r)) {
				unlink(file);
				continue;
			}
			if (pass == 0 && r.generation > newest)
				newest = r.generation;
			if (pass == 1 && r.generation == newest &&
			    !seen[r.member]) {
				seen[r.member] = true;
				(*present)++;
				*members = r.members;
			}
		}
		closedir(d);
	}
}

/*
 * Hand the volume to assembly: a unit of its own under systemd, else
 * here.  Returns an exit status.
 */
static int start_assembly(const char *uuid)
{
	char unit[128], *cmd[] = { "assemble", "--auto", "--no-rollback",
				   "--uuid", NULL, NULL };

	if (!bds_systemd_running()) {
		cmd[4] = (char *)uuid;
		return bds_cmd_assemble(5, cmd);
	}
	snprintf(unit, sizeof(unit), "bds-stripe-assemble@%s.service", uuid);
	if (!bds_start_unit(unit)) {
		bds_err("cannot start %s (systemctl start --no-block %s failed); 'bdsadm assemble --uuid %s' assembles the volume",
			unit, unit, uuid);
		return BDS_EXIT_FAIL;
	}
	bds_info("volume %s: every member is present; assembling it in %s",
	       uuid, unit);
	return BDS_EXIT_OK;
}

/* Should this host assemble the volume of label @l on its own? */
static bool wanted(const struct bds_conf *c, const struct bds_label *l,
		   const char *dev)
{
	const char *off;
	char uuid[37];

	bds_uuid_format(l->volume_uuid, uuid);
	if (!bds_conf_auto(c, &off)) {
		bds_info("%s is member %u of volume %s (%s); automatic assembly is off (%s)",
		       dev, l->member_index, l->name, uuid, off);
		return false;
	}
	if (l->owner[0] && strcmp(l->owner, c->system_id) &&
	    !bds_conf_lists(c, l->name, l->volume_uuid)) {
		bds_info("%s is member %u of volume %s (%s), owned by the host whose system ID is %s: not assembled automatically ('bdsadm assemble --foreign %s' or 'bdsadm import %s')",
		       dev, l->member_index, l->name, uuid, l->owner, l->name,
		       l->name);
		return false;
	}
	return true;
}

static int incremental(const char *dev)
{
	char why[512], dir[128], dmuuid[BDS_DM_UUID_SZ], name[BDS_DM_NAME_SZ];
	char kname[128];
	struct bds_dev_labels dl;
	const struct bds_label *l;
	struct bds_conf conf;
	struct stat st;
	char uuid[37];
	u32 present, members;
	u64 sectors;
	int rc;

	if (stat(dev, &st) || !S_ISBLK(st.st_mode) ||
	    !kernel_name(&st, kname, sizeof(kname))) {
		bds_err("%s: not a block device", dev);
		return BDS_EXIT_FAIL;
	}
	/* a suspended dm device would only time out */
	if (bds_dev_suspended(dev, why, sizeof(why))) {
		bds_err("%s", why);
		return BDS_EXIT_FAIL;
	}
	rc = bds_labels_read_path(dev, BDS_READ_TIMEOUT_MS, &sectors, &dl, why,
				  sizeof(why));
	if (rc && rc != -ETIMEDOUT && sectors) {
		bds_err("%s: cannot read its labels: %s", dev, strerror(-rc));
		return BDS_EXIT_FAIL;
	}
	if (rc) {
		bds_err("%s", why);
		return BDS_EXIT_FAIL;
	}
	l = bds_labels_best(&dl);
	if (!l) {
		bds_err("%s carries no valid bds-stripe label ('bdsadm examine %s' says why)",
			dev, dev);
		return BDS_EXIT_FAIL;
	}
	remember(kname, &st, l);
	bds_uuid_format(l->volume_uuid, uuid);
	snprintf(dmuuid, sizeof(dmuuid), BDS_DM_UUID_PREFIX "%s", uuid);
	if (bds_dm_name_of_uuid(dmuuid, name, sizeof(name)))
		return BDS_EXIT_OK;	/* active already: nothing to do */
	if (bds_conf_read(&conf, &bds_conf_default, why, sizeof(why))) {
		bds_err("%s; not assembling anything automatically: correct the configuration (bds-stripe.conf(5))",
			why);
		return BDS_EXIT_FAIL;
	}
	if (!wanted(&conf, l, dev))
		return BDS_EXIT_OK;
	record_paths(l->volume_uuid, kname, dir, sizeof(dir), NULL, 0);
	rc = bds_run_lock(INC_LOCK_WAIT_MS);
	if (rc) {
		bds_err("cannot take the assembly lock " BDS_RUN_DIR "/lock: %s; %s is recorded, the next member's event or the boot unit assembles the volume",
			rc == -ETIMEDOUT ? "another bdsadm holds it" :
			strerror(-rc), dev);
		return BDS_EXIT_FAIL;
	}
	count_present(dir, &present, &members);
	if (bds_dm_name_of_uuid(dmuuid, name, sizeof(name)))
		rc = BDS_EXIT_OK;
	else if (!members || present < members) {
		bds_info("volume %s (%s): %s is member %u; %u of %u members present, waiting for the rest",
		       l->name, uuid, dev, l->member_index, present,
		       members ? members : l->nr_members);
		rc = BDS_EXIT_OK;
	} else {
		rc = start_assembly(uuid);
	}
	bds_run_unlock();
	return rc;
}

/*
 * Forget the record of @dev, whichever volume it was in.  The device is
 * gone: its node's last name is its kernel name (udev's $devnode).
 */
static int forget(const char *dev)
{
	const char *kname = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	char file[512];
	struct dirent *de;
	DIR *d = opendir(BDS_RUN_DIR);

	if (!d)
		return BDS_EXIT_OK;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), BDS_RUN_DIR "/%s/%s", de->d_name,
			 kname);
		unlink(file);
	}
	closedir(d);
	return BDS_EXIT_OK;
}

int bds_cmd_incremental(int argc, char **argv)
{
	if (bds_help_only(argc, argv, INC_USAGE))
		return BDS_EXIT_OK;
	dm_udev_set_sync_support(0);
	if (argc == 3 && !strcmp(argv[1], "--remove") && argv[2][0] != '-')
		return forget(argv[2]);
	if (argc != 2 || argv[1][0] == '-')
		return bds_usage(INC_USAGE);
	return incremental(argv[1]);
}
