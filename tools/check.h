/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdsadm check NAME: read every sector of every member of an active
 * volume.  check-cmd.c takes the options and the volume and prints the
 * findings; check-read.c reads one member (O_DIRECT, at the capped rate,
 * bisecting a failed read down to the logical block) and shows progress.
 */
#ifndef BDS_CHECK_H
#define BDS_CHECK_H

#include <stdbool.h>
#include <time.h>

#include "volstat.h"

/* Sectors read at once: 1 MiB. */
#define CHK_READ_SECTORS	2048U

/* Unreadable sectors [start, end) of a member, relative to its offset. */
struct chk_range {
	u32 member;
	u64 start, end;
};

struct chk {
	const struct bds_vol *vol;
	struct bds_layout layout;	/* with the table's weights */
	u64 member_len;			/* sectors of a member of weight 1 */
	double rate;			/* bytes per second, 0: no cap */
	bool tty;			/* stderr is a terminal: a bar */
	u64 total, done;		/* sectors, all members */
	struct timespec t0, shown;	/* start, last progress shown */
	struct chk_range *bad;
	size_t nbad, maxbad;
	bool nomem;			/* some range could not be kept */
};

/* Sectors of member @m in use: its weight x c->member_len. */
static inline u64 chk_member_len(const struct chk *c, u32 m)
{
	return bds_member_sectors(&c->layout, c->member_len, m);
}

/*
 * Read member @m (table index) through @path.  Unreadable ranges are
 * added to c->bad.  Returns 0, or -1 if it could not be opened or read
 * at all (said on stderr).
 */
int chk_member(struct chk *c, u32 m, const char *path);

/* Progress on stderr; @last: the final line. */
void chk_progress(struct chk *c, u32 m, bool last);

/*
 * bdsadm check of member @m (table index) of volume @name alone, with
 * the same output; bdsadm replace runs it when the copy failed on a read
 * error, to list what cannot be read.  Returns an exit status.
 */
int bds_check_member(const char *name, u32 m);

/*
 * Read member @m of the table @vol (not necessarily the live one: bdsadm
 * replace reads OLD while the mirror has its place) through @path, and
 * print its unreadable ranges as check does.  They stay in @c->bad for
 * the caller, who frees it.  Returns 0, or -1 if the member could not be
 * read or not every range could be kept.
 */
int bds_check_table_member(const struct bds_vol *vol, u32 m, const char *path,
			    struct chk *c);

#endif /* BDS_CHECK_H */
