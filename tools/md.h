/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An md array as bdsadm adopt sees it: what mdadm itself says of the
 * array (mdadm --detail --export: level, metadata, members and their
 * roles), and what the running kernel says of each member in
 * /sys/block/mdN/md (data offset, the size RAID0 uses, chunk, reshape).
 * bdsadm never reads or writes an md superblock itself: mdadm does.
 */
#ifndef BDS_MD_H
#define BDS_MD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "../libbds/label.h"

struct bds_md_member {
	char dev[PATH_MAX];	/* /dev/sdb, as mdadm names it */
	char kname[64];		/* sdb */
	u64 offset;		/* md's data offset, sectors */
	u64 used;		/* sectors RAID0 uses (rounded to the chunk) */
	bool in_sync;
};

struct bds_md {
	char node[PATH_MAX];	/* /dev/md127 */
	char kname[64];		/* md127 */
	char level[32];		/* raid0 */
	char metadata[32];	/* 1.2 */
	char uuid[64];		/* mdadm's array UUID */
	char array_state[32];
	char reshape[64];	/* "none" unless a reshape is pending */
	u32 raid_disks;
	u32 nr_found;		/* members mdadm lists with a role */
	u64 chunk_sectors;
	u64 sectors;		/* the array's size */
	struct bds_md_member member[BDS_MAX_MEMBERS];	/* in role order */
};

/*
 * Read array @path (/dev/mdN, /dev/md/NAME or mdN) into @md.  Returns 0,
 * or -1 with the reason in @why (not an md array, mdadm failed, a role
 * mdadm and the kernel disagree on).
 */
int bds_md_read(const char *path, struct bds_md *md, char *why, size_t sz);

/* mdadm --stop NODE; mdadm --assemble NODE DEV... (role order). */
bool bds_md_stop(const struct bds_md *md);
bool bds_md_start(const struct bds_md *md);

/*
 * Run @argv (argv[0] found on PATH), its standard output into @out
 * (NUL-terminated, cut at @sz), its standard error to ours.  Returns its
 * exit status, or -1 when it could not be run.
 */
int bds_run_capture(char *const argv[], char *out, size_t sz);

#endif /* BDS_MD_H */
