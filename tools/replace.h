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
 * with progress; replace-rescue.c copies around OLD's unreadable blocks
 * (--ignore-read-errors); replace-abort.c ends a replace that was
 * killed (--abort).
 */
#ifndef BDS_REPLACE_H
#define BDS_REPLACE_H

#include <stdbool.h>
#include <time.h>

#include <limits.h>

#include "../dm-bds-stripe.h"
#include "assemble.h"
#include "dm.h"
#include "label-io.h"
#include "scan.h"
#include "volstat.h"

/* The mirror device of a replace of volume NAME: NAME-replace. */
#define RPL_SUFFIX	"-replace"

/* One replace, in replace.c and replace-rescue.c. */
#define RPL_REGION	1024	/* mirror region: 512 KiB */

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
	struct bds_label next;		/* the volume at the next generation */
	char mirror[BDS_DM_NAME_SZ];
};


/* "replace NAME: message" on stderr; returns BDS_EXIT_FAIL. */
int rpl_refuse(struct rpl *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Put the volume back on OLD as it was, and remove the mirror. */
void rpl_put_back(struct rpl *x);
/*
 * The mirror's params, OLD first: it reads from it and copies it to NEW.
 * @nosync: every region counts as in sync (nothing is copied; writes go
 * to both legs).
 */
void rpl_mirror_params(const struct rpl *x, bool nosync, char *buf, size_t sz);

struct rpl_copy {
	const char *mirror;		/* its dm name */
	u64 sectors;			/* its length: the member's data */
	bool tty;			/* a progress bar on stderr */
	bool ignore_read;		/* --ignore-read-errors */
	bool read_error;		/* OLD failed a read (ignore_read) */
	u64 missing;			/* regions that may stay out of sync */
	u64 insync, regions;		/* the mirror's last status */
	struct timespec t0;		/* the first wait's start: the rate */
};

/* No region done for this long, after a read error: the copy is over. */
#define RPL_STALL_SECS	30

enum rpl_result {
	RPL_IN_SYNC,			/* all regions but c->missing in sync */
	RPL_FAILED,			/* a leg failed: NEW, or OLD without
					 * --ignore-read-errors */
	RPL_READ_ERROR,			/* OLD failed a read, the first time */
	RPL_STALLED,			/* after one, no progress */
	RPL_ABORTED,			/* SIGINT or SIGTERM */
};

/*
 * Wait until all regions of the mirror @c but c->missing are in sync,
 * showing progress (rate, ETA).  The leg health goes to @health ("AS"
 * and the like).  With c->ignore_read, OLD's first read error ('S' or
 * 'R') returns RPL_READ_ERROR, and later waits go on past it.
 */
enum rpl_result rpl_wait_sync(struct rpl_copy *c, char *health, size_t sz);

/*
 * --ignore-read-errors, after OLD's first read error in the copy: find
 * OLD's unreadable blocks, let the mirror copy every other region, then
 * copy the regions it could not with the volume suspended.  0: NEW holds
 * all OLD has, zeros for the rest; else the volume is back on OLD.
 */
int rpl_rescue(struct rpl *x, struct rpl_copy *c);

/*
 * In replace-rescue.c too: the mirror could not copy
 * the regions holding OLD's unreadable blocks.  rpl_bad_regions() puts
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
 * A test hook: when BDSADM_TEST_CRASH_AT names @point, the machine is
 * rebooted at once (sysrq 'b', as a power cut would stop it), so that
 * the tests can check that a crash there loses nothing.  The points:
 * copy-started, copy-half, in-sync, new-labelled, one-primary,
 * committed, reloaded (bdsadm.8, ENVIRONMENT).  BDSADM_TEST_KILL_AT
 * names a point where the process kills itself (SIGKILL) instead.
 */
void rpl_crash_point(const char *point);

/*
 * replace --abort NAME, in replace-abort.c: end a replace whose process
 * was killed, back onto OLD or, past the commit point, onto NEW.
 */
int rpl_abort(const char *name);

/* Set up SIGINT/SIGTERM to ask for an abort (rpl_wait_sync sees it). */
void rpl_catch_signals(void);

#endif /* BDS_REPLACE_H */
