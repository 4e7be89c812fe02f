// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm incremental DEVICE: what udev runs for every device that carries
 * a bds-stripe label (bds-stripe.rules).  The device is remembered in
 * /run/bds-stripe/<volume uuid> (one line per member seen: position and
 * device), and when every member of its volume is present the volume is
 * assembled exactly as 'bdsadm assemble' does it.  While members are
 * missing it says how many and exits 0: the next member's event comes
 * back here.  A set that can never be assembled (a duplicate, a stale
 * member, disagreeing labels) is reported and exits 1.
 *
 * Runs hold the assembly lock (run-lock.h), so that the events of the
 * last two members, or an event and the boot unit's assemble, cannot
 * both create the volume.  udev synchronisation
 * is off here: waiting, inside a udev worker, for udev to process the
 * new volume's own event could wait for ever when workers are few; udev
 * makes the /dev/mapper node from that event in its own time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libdevmapper.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assemble.h"
#include "bdsadm.h"
#include "dm.h"
#include "label-io.h"
#include "run-lock.h"
#include "scan.h"

#define RUN_DIR		BDS_RUN_DIR
#define INC_USAGE	"incremental DEVICE"

/* Remember that @dev holds member @l->member_index of its volume. */
static void remember(const char *dev, const struct bds_label *l)
{
	char path[128], uuid[37];
	FILE *f;

	bds_uuid_format(l->volume_uuid, uuid);
	snprintf(path, sizeof(path), RUN_DIR "/%s", uuid);
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "%u %s generation %llu\n", l->member_index, dev,
		(unsigned long long)l->generation);
	fclose(f);
}

static int incremental(const char *dev)
{
	struct bds_dev_labels dl;
	const struct bds_label *l;
	struct bds_asm_result r;
	struct bds_scan s;
	struct bds_label mine;
	struct bds_dev d;
	char why[256], msg[1024], dmuuid[BDS_DM_UUID_SZ], name[BDS_DM_NAME_SZ];
	char *argv[] = { "assemble", "--uuid", NULL, NULL };
	char uuid[37];
	int rc;

	if (bds_dev_open(&d, dev, false, why, sizeof(why))) {
		bds_err("%s", why);
		return BDS_EXIT_FAIL;
	}
	rc = bds_labels_read(&d, &dl);
	if (rc) {
		bds_err("%s: cannot read its labels: %s", dev, strerror(-rc));
		bds_dev_close(&d);
		return BDS_EXIT_FAIL;
	}
	bds_dev_close(&d);
	l = bds_labels_best(&dl);
	if (!l) {
		bds_err("%s carries no valid bds-stripe label ('bdsadm examine %s' says why)",
			dev, dev);
		return BDS_EXIT_FAIL;
	}
	mine = *l;
	remember(dev, &mine);
	bds_uuid_format(mine.volume_uuid, uuid);
	snprintf(dmuuid, sizeof(dmuuid), BDS_DM_UUID_PREFIX "%s", uuid);
	if (bds_dm_name_of_uuid(dmuuid, name, sizeof(name)))
		return BDS_EXIT_OK;	/* active already: nothing to do */

	if (bds_scan("/sys", &s)) {
		bds_err("cannot list the block devices under /sys/class/block");
		return BDS_EXIT_FAIL;
	}
	bds_assemble(s.found, s.n, NULL, mine.volume_uuid, &r);
	bds_scan_free(&s);
	if (r.verdict == BDS_ASM_MISSING) {
		printf("bdsadm: volume %s (%s): %s is member %u; %u of %u members present, waiting for the rest\n",
		       mine.name, uuid, dev, mine.member_index,
		       r.nr_members - r.nr_missing, r.nr_members);
		return BDS_EXIT_OK;
	}
	if (r.verdict != BDS_ASM_OK) {
		bds_asm_message(&r, msg, sizeof(msg));
		bds_err("%s", msg);
		return BDS_EXIT_FAIL;
	}
	/* complete: the same path as 'bdsadm assemble --uuid' */
	argv[2] = uuid;
	return bds_cmd_assemble(3, argv);
}

int bds_cmd_incremental(int argc, char **argv)
{
	int rc;

	if (argc != 2 || argv[1][0] == '-')
		return bds_usage(INC_USAGE);
	rc = bds_run_lock();
	if (rc) {
		bds_err("cannot lock " RUN_DIR "/lock: %s", strerror(-rc));
		return BDS_EXIT_FAIL;
	}
	dm_udev_set_sync_support(0);
	rc = incremental(argv[1]);
	bds_run_unlock();
	return rc;
}
