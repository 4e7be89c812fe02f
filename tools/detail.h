/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdsadm detail: what detail.c gathers about one active volume, and
 * the two ways detail-out.c prints it (for people, and --json).
 */
#ifndef BDS_DETAIL_H
#define BDS_DETAIL_H

#include <limits.h>

#include "../libbds/label.h"
#include "plan.h"
#include "volstat.h"

/* One member, in table order. */
struct bds_mview {
	char node[PATH_MAX];		/* /dev/sdb, /dev/mapper/m0 */
	char serial[NAME_SZ];		/* the disk's serial now, "" if none */
	/*
	 * Its label against the table: "ok", "none" (no valid label),
	 * "unreadable", "other-volume", "other-position" (the label gives
	 * it another place in table order), "other-generation" (not the
	 * newest generation found on the members).
	 */
	const char *label;
	u64 generation;
	u8 uuid[BDS_UUID_LEN];		/* the member UUID its label gives */
	/*
	 * What create --measure read of its disk alone and of its
	 * controller's disks together (kB/s; 0: none), as its label of
	 * this volume records them (compat MEASURED).
	 */
	u32 meas_disk, meas_ctrl;
};

struct bds_detail {
	struct bds_vol vol;
	struct bds_mview m[BDS_MAX_MEMBERS];
	struct bds_label view;		/* the newest label of the volume */
	bool have_view;			/* some member carries one */
	u32 agreeing;			/* members whose label is "ok" */
	/*
	 * Mid-restripe (its table has "reshape"): the direction, the
	 * target's checkpoint and held band ("reshape status"), and the
	 * old volume's units; have_restripe false when it is not, or the
	 * target does not answer.
	 */
	bool restriping;
	bool have_restripe;
	bool backward;
	u64 rs_ckpt, rs_hold, rs_units;
	u32 rs_held;
	/* --interval: the counters before, and the seconds measured */
	bool have_rates;
	double secs;
	struct bds_group_io before[BDS_MAX_GROUPS];
};

/*
 * Group @g's measured bandwidth in MB/s: the sum of its members' disks
 * alone, or its controller's figure when that is lower; 0 unless every
 * member of the group has its figures.
 */
double bds_detail_group_measured(const struct bds_detail *d, u32 g);

void bds_detail_human(const struct bds_detail *d);
void bds_detail_json(const struct bds_detail *d);
/* KEY=VALUE lines for scripts and udev (see bdsadm(8), detail --export). */
void bds_detail_export(const struct bds_detail *d);

#endif /* BDS_DETAIL_H */
