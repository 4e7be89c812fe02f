/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The golden label: member 1 (the second in table order) of a volume
 * "golden" of 3 members in 2 controller groups (2 + 1), 64 KiB stripe
 * unit, interleaved, on 2 GiB disks.  tests/libbds/golden/label-v1.bin is
 * this label as version 1 writes it (the primary copy), made once and
 * checked by hand against Documentation/bds-stripe-label.rst; the unit
 * tests decode that file and encode this description back to it byte for
 * byte, the KUnit suite encodes it in the kernel to the same crc, and the
 * documentation's hex example is that file.
 */
#ifndef BDS_LABEL_GOLDEN_H
#define BDS_LABEL_GOLDEN_H

#ifndef __KERNEL__
#include <string.h>
#endif

#include "../../libbds/label.h"

#define GOLDEN_MEMBER_SECTORS	4194304ULL	/* 2 GiB */

static inline void golden_uuid(u8 *u, u8 tag)
{
	int i;

	for (i = 0; i < BDS_UUID_LEN; i++)
		u[i] = (u8)(tag + i);
	u[6] = (u8)((u[6] & 0x0f) | 0x40);	/* version 4 */
	u[8] = (u8)((u[8] & 0x3f) | 0x80);	/* RFC 4122 variant */
}

static inline void golden_label(struct bds_label *l)
{
	static const char *const serial[3] = { "QM00001", "QM00002", "QM00003" };
	u32 i;

	memset(l, 0, sizeof(*l));
	l->generation = 1;
	l->ctime = 1767225600;		/* 2026-01-01 00:00:00 UTC */
	l->utime = 1767225600;
	golden_uuid(l->volume_uuid, 0x10);
	l->nr_members = 3;
	l->nr_groups = 2;
	l->layout = BDS_LAYOUT_INTERLEAVE;
	l->chunk_sectors = 128;
	l->data_offset = BDS_DATA_OFFSET_DEFAULT;
	l->member_sectors = GOLDEN_MEMBER_SECTORS;
	l->backup_sector = bds_label_backup_sector(GOLDEN_MEMBER_SECTORS);
	/* whole stripe units between the data offset and the backup */
	l->data_sectors = (l->backup_sector - l->data_offset) / 128 * 128;
	l->label_sector = BDS_LABEL_PRIMARY;
	strcpy(l->name, "golden");
	l->group_size[0] = 2;
	l->group_size[1] = 1;
	strcpy(l->controller[0], "host0");
	strcpy(l->controller[1], "host1");
	for (i = 0; i < 3; i++) {
		golden_uuid(l->uuid[i], (u8)(0x20 + 0x10 * i));
		l->member_offset[i] = BDS_DATA_OFFSET_DEFAULT;
		l->weight[i] = 1;
		strcpy(l->serial[i], serial[i]);
	}
	l->member_index = 1;
	memcpy(l->member_uuid, l->uuid[1], BDS_UUID_LEN);
}

/*
 * The weighted golden label: the golden label's volume with weights
 * 3,1,2 (W = 6), so its head says incompat WEIGHTS and member 1's data is
 * its share, a whole number of cycles of one unit each.
 * tests/libbds/golden/label-v1-weighted.bin is this label as written.
 */
static inline void golden_weighted_label(struct bds_label *l)
{
	u64 cycles;

	golden_label(l);
	l->weight[0] = 3;
	l->weight[1] = 1;
	l->weight[2] = 2;
	l->incompat = BDS_LABEL_INCOMPAT_WEIGHTS;
	/* the heaviest member fills its space: whole cycles of 3 units */
	cycles = (l->backup_sector - l->data_offset) / (128 * 3);
	l->data_sectors = cycles * 128 * l->weight[1];
}

/*
 * The owned golden label: the golden label with an owner, the system ID
 * of a host whose /etc/machine-id is 0123456789abcdef0123456789abcdef, so
 * its head says compat OWNER.  tests/libbds/golden/label-v1-owner.bin is
 * this label as written.
 */
#define GOLDEN_OWNER	"0123456789abcdef0123456789abcdef"

static inline void golden_owner_label(struct bds_label *l)
{
	golden_label(l);
	l->compat = BDS_LABEL_COMPAT_OWNER;
	strcpy(l->owner, GOLDEN_OWNER);
}

/*
 * The weighted golden label whose weights were chosen by capacity
 * (bdsadm create --weights capacity, tools 1.8.2): its head says compat
 * WEIGHTS_MODE and weights_mode 1.  tests/libbds/golden/
 * label-v1-weights-mode.bin is this label as written.
 */
/*
 * The adopting golden label: the golden label as the backup copy that
 * bdsadm adopt writes first (incompat ADOPT, at the backup sector).
 */
static inline void golden_adopt_label(struct bds_label *l)
{
	golden_label(l);
	l->incompat = BDS_LABEL_INCOMPAT_ADOPT;
	l->label_sector = l->backup_sector;
}

static inline void golden_weights_mode_label(struct bds_label *l)
{
	golden_weighted_label(l);
	l->compat = BDS_LABEL_COMPAT_WEIGHTS_MODE;
	l->weights_mode = BDS_WEIGHTS_MODE_CAPACITY;
}

/*
 * The weights-mode golden label of a volume made with bdsadm create
 * --measure --weights bandwidth (issue 38): its head also says compat
 * MEASURED, this member's disk read 20 MB/s alone (20000 kB/s) and its
 * controller 40 MB/s with its other disks, at 2026-12-06 00:00:00 UTC
 * (meas_time at byte 232).
 * tests/libbds/golden/label-v1-measured.bin is this label as written.
 */
static inline void golden_measured_label(struct bds_label *l)
{
	golden_weights_mode_label(l);
	l->compat |= BDS_LABEL_COMPAT_MEASURED;
	l->meas_disk = 20000;
	l->meas_ctrl = 40000;
	l->meas_time = 1796515200ULL;
}

/*
 * The golden label mid-restripe: the golden volume while it is restriped
 * forward from the volume of two members it was before member 1 (the
 * label's own member, serial QM00002) joined controller host0: members 0
 * and 2, one on each controller (groups 1 + 1), interleaved, at the
 * default data offset 2048, with 32751 stripe units each.  As
 * bds_reshape_propose() moves them, the old members' data starts at
 * sector 128 in the new geometry; member 1 starts at 2048.  The copy has
 * reached checkpoint 2231: units 0 to 2230 are in the new geometry (the
 * eighth checkpoint of the default schedule, one that (F) forces).  So
 * its head says incompat RESHAPE, and the section holds the old
 * geometry.  tests/libbds/golden/label-v1-reshape.bin is this label as
 * written.
 */
#define GOLDEN_RESHAPE_POS	2231

static inline void golden_reshape_label(struct bds_label *l)
{
	golden_label(l);
	l->incompat = BDS_LABEL_INCOMPAT_RESHAPE;
	l->member_offset[0] = 128;
	l->member_offset[2] = 128;
	l->reshape_pos = GOLDEN_RESHAPE_POS;
	l->reshape_dir = 0;			/* forward */
	l->old_nr_members = 2;
	l->old_nr_groups = 2;
	l->old_layout = BDS_LAYOUT_INTERLEAVE;
	l->old_member_len = l->data_sectors;	/* 32751 units, as now */
	l->old_group_size[0] = 1;
	l->old_group_size[1] = 1;
	l->old_member[0] = 0;
	l->old_member[1] = 2;
	l->old_weight[0] = 1;
	l->old_weight[1] = 1;
	l->old_offset[0] = BDS_DATA_OFFSET_DEFAULT;
	l->old_offset[1] = BDS_DATA_OFFSET_DEFAULT;
}

/*
 * The front-backup golden label (issue 35): the golden label's member in
 * a volume adopted in place from md RAID0 whose data, at sector 2048 on
 * every member, runs to the members' end and leaves no room for a backup
 * there.  So its backup copy lies in front of the data, at sector 2032
 * (incompat FRONT_BACKUP), and its data area is every whole cycle (one
 * unit of 128 sectors) between 2048 and the member's end: 32752 units,
 * 4192256 sectors, ending at sector 4194304.  This is the primary copy
 * (label_sector 8).  tests/libbds/golden/label-v1-front.bin is this label
 * as written.
 */
static inline void golden_front_label(struct bds_label *l)
{
	u32 i;

	golden_label(l);
	l->incompat = BDS_LABEL_INCOMPAT_FRONT_BACKUP;
	l->backup_sector = BDS_LABEL_FRONT_BACKUP;
	l->data_offset = 2048;
	for (i = 0; i < l->nr_members; i++)
		l->member_offset[i] = 2048;
	l->data_sectors = (GOLDEN_MEMBER_SECTORS - l->data_offset) / 128 * 128;
	l->label_sector = BDS_LABEL_PRIMARY;
}

#endif /* BDS_LABEL_GOLDEN_H */
