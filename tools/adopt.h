/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdsadm adopt: what adopt.c (an md RAID0 array) and adopt-table.c (an
 * unlabelled bds-stripe or striped device-mapper table) share.
 */
#ifndef BDS_ADOPT_H
#define BDS_ADOPT_H

#include "config.h"
#include "label-io.h"
#include "md.h"
#include "sample.h"

struct adopt_ctx {
	const char *name;
	const char *from;		/* --from: the md array */
	const char *from_table;		/* --from-table: the dm device */
	char source[PATH_MAX];		/* what is adopted, for messages */
	struct bds_conf conf;
	struct bds_md md;
	struct bds_label v;		/* the volume, as member 0 sees it */
	struct bds_dev d[BDS_MAX_MEMBERS];
	u64 size[BDS_MAX_MEMBERS];	/* each member's sectors */
	/* where each member's backup label goes: its end, or in front */
	u64 backup[BDS_MAX_MEMBERS];
	char majmin[BDS_MAX_MEMBERS][16];
	char params[16384];		/* the volume's table, labelled */
	char check_dm[64];		/* the read-only table's name */
	struct bds_sample sample;	/* units read through md, then us */
	/*
	 * metadata 1.1: md's superblock lies at sector 0, which no label
	 * overwrites; step 2 erases it (libblkid) before the primary
	 */
	bool erase_md;
	bool md_erased;			/* one of them was */
	bool said_no_room;		/* adopt_backup_place()'s note */
};

/* "adopt NAME: " @fmt "; nothing was changed" on stderr; BDS_EXIT_FAIL. */
int adopt_refuse(const struct adopt_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * c->v for @n members at @offset (table order, c->majmin set): a new
 * volume of generation 1, layout sequential, unit weights, the groups
 * the runs of one controller; data_sectors is the caller's.
 */
void adopt_label_volume(struct adopt_ctx *c, u64 chunk, u32 n,
			const u64 *offset);

/*
 * Where member @i's backup label goes, its data being sectors @offset to
 * @end - 1 (sets c->backup[i]): at its end when 8 KiB fit there after the
 * data, else in front of the data (FRONT_BACKUP) when the data starts at
 * BDS_LABEL_FRONT_DATA or later and no copy at the end reads as a valid
 * label (a reader would take it if the primary were damaged).  Refuses
 * naming @dev otherwise; @front_ok false forbids the front (the source
 * uses it, @why says how).  When the front leaves less than a stripe unit
 * (@chunk) below the data, says once that no restripe can run.
 */
int adopt_backup_place(struct adopt_ctx *c, u32 i, const char *dev,
		       u64 offset, u64 end, u64 chunk, bool front_ok,
		       const char *why);

/* Member @i's label (c->size[i], c->backup[i] set), checked as a reader would. */
int adopt_member_label(const struct adopt_ctx *c, u32 i, struct bds_label *l);

/* c->majmin as table words. */
void adopt_member_words(const struct adopt_ctx *c, const char **devp);

/*
 * The three steps of an adoption (adopt.c, adopt_write()) over members 0
 * to @n - 1, open in c->d, holding the labels @was (updated as they are
 * written); the crash points are @pfx then "-backup-1", "-backups",
 * "-erased-1" (c->erase_md: after the first member's md superblock),
 * "-primary-1", "-primaries", "-final-1" and "-labelled".  Returns 0, or
 * the step (1 to 3) whose write failed, its error in *@err and its
 * member in *@at.
 */
int adopt_write_steps(struct adopt_ctx *c, u32 n, struct bds_label_id *was,
		      const char *pfx, int *err, u32 *at);

/* Create /dev/mapper/NAME from the labels written. */
int adopt_create_volume(struct adopt_ctx *c);

/* Say what was adopted; BDS_EXIT_OK. */
int adopt_say(const struct adopt_ctx *c);

/* adopt NAME --from-table DMNAME (adopt-table.c). */
int adopt_from_table(struct adopt_ctx *c);

#endif /* BDS_ADOPT_H */
