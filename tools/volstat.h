/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An active bds-stripe volume as device-mapper reports it, for bdsadm
 * list and detail: its table (parsed by the target's own parser,
 * bds_parse_table() of libbds/table.c) and its status line, whose
 * fields Documentation/bds-stripe.rst numbers:
 *
 *   1 N  2 health (A or D per member, table order)  3 layout word
 *   4 order (member at each stripe position; with weights, at each of
 *     the W slots of a cycle, member m w_m times)  5 #groups
 *   6 per group: reads, writes, sectors read, sectors written
 *   7 error count per member, table order, comma separated (target
 *     1.3.0 on; a status of an older module ends after field 6)
 *
 * A member that has seen an I/O error is D, for as long as the table is
 * loaded.  The counters and error counts start at zero when the table is
 * loaded.
 */
#ifndef BDS_VOLSTAT_H
#define BDS_VOLSTAT_H

#include <stdbool.h>
#include <stddef.h>

#include "../libbds/layout.h"
#include "../libbds/table.h"
#include "dm.h"

/* The four counters of one group (status field 6). */
struct bds_group_io {
	u64 reads, writes, read_sectors, write_sectors;
};

struct bds_vol {
	char name[BDS_DM_NAME_SZ];
	char dm_uuid[BDS_DM_UUID_SZ];
	char target[32];		/* "bds-stripe", or what it is instead */
	unsigned int major, minor;
	int open_count;
	u64 sectors;			/* the device's size (sysfs), 0 unknown */

	/* The table (have_table): geometry and members in table order. */
	bool have_table;
	struct bds_args args;		/* chunk, groups, layout, volume UUID,
					   weights (all 1 when not given) */
	u32 nr_members;
	u32 nr_slots;			/* W, the sum of the weights (N) */
	char dev[BDS_MAX_MEMBERS][24];	/* "MAJ:MIN", as the table gives it */
	u64 offset[BDS_MAX_MEMBERS];

	/* The status (have_status). */
	bool have_status;
	char health[BDS_MAX_MEMBERS + 1];
	u8 order[BDS_MAX_SLOTS];	/* stripe position (slot) -> member */
	u16 pos_of[BDS_MAX_MEMBERS];	/* member -> its (first) position */
	struct bds_group_io io[BDS_MAX_GROUPS];
	/*
	 * Field 7 (have_errors): failed requests per member, table order.
	 * Without it (a module of 1.2.0 or older) the counts are unknown.
	 */
	bool have_errors;
	u32 errors[BDS_MAX_MEMBERS];

	char why[256];			/* what could not be read, "" if all */
};

/*
 * Parse the params of a bds-stripe table into @v (have_table).  Returns
 * NULL, or why the words are not a bds-stripe table.  @params is not
 * changed.
 */
const char *bds_vol_parse_table(const char *params, struct bds_vol *v);

/*
 * Parse a status line into @v (have_status, and have_errors when it has
 * field 7); the table must be parsed already, the status must agree with
 * it.  Returns NULL or why not.
 */
const char *bds_vol_parse_status(const char *line, struct bds_vol *v);

/*
 * False when device-mapper is not in the kernel now (no device-mapper
 * in /proc/misc): then libdevmapper is not called at all, since it
 * would make /dev/mapper/control and make the kernel load dm_mod, and
 * bdsadm list and detail only look.
 */
bool bds_vol_dm_available(void);
/* What a verb that needs an active volume says when it is false */
#define BDS_DM_ABSENT "device-mapper is not in the kernel (dm_mod not loaded), so no volume is active; load it (modprobe dm_mod) and assemble the volume ('bdsadm assemble --scan')"

/*
 * Read device-mapper device @name: info, then (for a bds-stripe target)
 * table and status, and its size from sysfs.  Returns false only if
 * device-mapper could not be asked or @name does not exist (v->why says
 * which); otherwise what could not be read is in v->why and the have_
 * flags.
 */
bool bds_vol_read(const char *name, struct bds_vol *v);

/* Re-read the status only (bdsadm detail --interval). */
bool bds_vol_reread_status(struct bds_vol *v);

/* The volume UUID: from "volume <uuid>", else from the dm UUID. */
void bds_vol_uuid(const struct bds_vol *v, char *out, size_t sz);

/* Members whose health is D, as "1" or "1,4" in @buf; "" if none. */
void bds_vol_errors(const struct bds_vol *v, char *buf, size_t sz);

#endif /* BDS_VOLSTAT_H */
