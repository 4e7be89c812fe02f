/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdsadm replace NAME OLD NEW: move member OLD of an active volume to
 * disk NEW while the volume stays in use, as pvmove does it: a mirror
 * (the kernel's "mirror" target, OLD first) takes OLD's place in the
 * volume's table; when NEW is in sync, the labels move to the next
 * generation in the order of Documentation/bds-stripe-label.rst
 * ("Membership changes"), the volume is reloaded onto NEW and the
 * mirror goes.
 *
 * replace.c checks and switches; replace-copy.c waits for the mirror,
 * with progress; replace-rescue.c builds the mirror's table (around
 * OLD's unreadable blocks with --ignore-read-errors), replace-seg.c its
 * segments; replace-abort.c ends a replace that was killed (--abort).
 */
#ifndef BDS_REPLACE_H
#define BDS_REPLACE_H

#include <stdbool.h>
#include <time.h>

#include <limits.h>

#include "../libbds/layout.h"
#include "../libbds/table.h"
#include "assemble.h"
#include "check.h"
#include "dm.h"
#include "label-io.h"
#include "scan.h"
#include "volstat.h"

/* The mirror device of a replace of volume NAME: NAME-replace. */
#define RPL_SUFFIX	"-replace"

/* One replace, in replace.c and replace-rescue.c. */
#define RPL_REGION	1024	/* mirror region: 512 KiB */
/* --ignore-read-errors copies around at most this many regions */
#define RPL_MAX_BAD_REGIONS	64
#define RPL_MAX_SEGS		(2 * RPL_MAX_BAD_REGIONS + 1)

struct rpl {
	const char *name;
	bool force;
	bool ignore_read;		/* --ignore-read-errors */
	struct bds_vol vol;
	char live[16384];		/* the volume's table before the replace */
	struct bds_scan scan;
	struct bds_asm_result r;
	u32 p;				/* OLD's table index */
	char old_node[PATH_MAX], new_node[PATH_MAX], new_dev[24];
	struct bds_dev newd;
	u64 new_backup;		/* where NEW's backup copy goes */
	struct bds_label_id new_held;	/* what NEW holds now */
	struct bds_label next;		/* the volume at the next generation */
	char mirror[BDS_DM_NAME_SZ];
	/* --ignore-read-errors: what OLD cannot read, and where */
	struct chk bad;			/* its unreadable ranges */
	u64 reg[RPL_MAX_BAD_REGIONS];	/* the regions holding them */
	size_t nreg;
	u64 zeroed;			/* sectors saved as zeros on NEW */
};


/* "replace NAME: message" on stderr; returns BDS_EXIT_FAIL. */
int rpl_refuse(struct rpl *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Put the volume back on OLD as it was, and remove the mirror. */
void rpl_put_back(struct rpl *x);
/*
 * A stretch of the member's data in the mirror's table: copied from OLD
 * by the mirror, or (@saved) one of the regions holding a block OLD
 * cannot read, saved on NEW by bdsadm and never read from OLD again.
 */
struct rpl_seg {
	u64 start, len;
	bool saved;
};

/*
 * The mirror's params for @seg: OLD first (it copies OLD to NEW, errors
 * handled: a failed leg shows in its status), or for a saved region NEW
 * first and in sync (read from NEW, written to both).
 */
void rpl_mirror_params(const struct rpl *x, const struct rpl_seg *seg,
		       char *buf, size_t sz);

/* The mirror's table, one target a segment. */
struct rpl_table {
	size_t n;
	struct bds_dm_tgt t[RPL_MAX_SEGS];
	char params[RPL_MAX_SEGS][192];
};

/* In replace-rescue.c: the segments of x's mirror; 0 or -E2BIG. */
int rpl_mirror_table(const struct rpl *x, struct rpl_table *t);

/*
 * In replace-seg.c: the segments of a member of @len sectors with the regions @reg (in
 * order, of @region sectors) saved: at most @max in @out; returns how
 * many there are.
 */
size_t rpl_segments(const u64 *reg, size_t nreg, u32 region, u64 len,
		    struct rpl_seg *out, size_t max);

struct rpl_copy {
	const char *mirror;		/* its dm name */
	const char *new_dev;		/* NEW's MAJ:MIN: first in saved segments */
	u64 sectors;			/* its length: the member's data */
	bool tty;			/* a progress bar on stderr */
	bool old_failed;		/* on RPL_FAILED: OLD's leg, not NEW's */
	u64 insync, regions;		/* the mirror's last status, summed */
	struct timespec t0;		/* the copy's start (0: now): the rate */
};

enum rpl_result {
	RPL_IN_SYNC,			/* every region of every segment */
	RPL_FAILED,			/* a leg failed, or no status */
	RPL_ABORTED,			/* SIGINT or SIGTERM */
};

/*
 * Wait until every segment of the mirror @c is in sync, showing progress
 * (rate, ETA).  The failed segment's leg health goes to @health ("AS"
 * and the like).  In a saved segment only NEW must stay alive: a write
 * OLD cannot take there is NEW's alone, as the region is.
 */
enum rpl_result rpl_wait_sync(struct rpl_copy *c, char *health, size_t sz);

/*
 * --ignore-read-errors, in replace-rescue.c, before the mirror starts:
 * rpl_find_bad() lists OLD's unreadable blocks and the regions holding
 * them (x->reg; refused above RPL_MAX_BAD_REGIONS); rpl_save_regions()
 * copies those regions to NEW, zeros where OLD cannot be read, with
 * the volume suspended.  Both return 0, or fail having said why.
 */
int rpl_find_bad(struct rpl *x);
int rpl_save_regions(struct rpl *x);

/*
 * rpl_bad_regions(), in replace-seg.c, puts
 * the distinct regions of the ranges @bad (member data sectors, in
 * order) in @out (at most @max; returns how many there are).
 * rpl_copy_regions() copies those regions from OLD to NEW block by
 * block, zeros where OLD cannot be read; the volume must be suspended.
 */
struct chk_range;
size_t rpl_bad_regions(const struct chk_range *bad, size_t nbad, u32 region,
		       u64 *out, size_t max);

struct rpl_patch {
	const char *old, *new;		/* device nodes */
	u64 old_off, new_off;		/* their data offsets */
	u64 len;			/* the member's data sectors */
	u32 region;			/* the mirror's region, sectors */
	const u64 *reg;			/* the regions to copy */
	size_t nreg;
	u64 zeroed;			/* out: sectors written as zeros */
};

/* 0, or a negative errno (said on stderr). */
int rpl_copy_regions(struct rpl_patch *pt);

/*
 * The points of a replace where the tests cut the power, kill bdsadm or
 * run a command: mirror-made (the volume suspended), copy-started,
 * copy-half, in-sync, new-labelled, one-primary, committed, reloaded.
 * Only the test build has them (BDS_TEST_HOOKS, test-hooks.c: 'make -C
 * tools test-build', which tests/vm/run-suite runs); in bdsadm as it is
 * installed they are nothing.
 */
#ifdef BDS_TEST_HOOKS
void rpl_crash_point(const char *point);
#else
static inline void rpl_crash_point(const char *point)
{
	(void)point;
}
#endif

/*
 * replace --abort NAME, in replace-abort.c: end a replace whose process
 * was killed, back onto OLD or, past the commit point, onto NEW.
 */
int rpl_abort(const char *name);

/* Set up SIGINT/SIGTERM to ask for an abort (rpl_wait_sync sees it). */
void rpl_catch_signals(void);

#endif /* BDS_REPLACE_H */
