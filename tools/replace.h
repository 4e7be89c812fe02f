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
 * replace.c checks and switches; replace-copy.c runs the mirror and
 * waits for it, with progress.
 */
#ifndef BDS_REPLACE_H
#define BDS_REPLACE_H

#include <stdbool.h>

#include "../dm-bds-stripe.h"

/* The mirror device of a replace of volume NAME: NAME-replace. */
#define RPL_SUFFIX	"-replace"

struct rpl_copy {
	const char *mirror;		/* its dm name */
	u64 sectors;			/* its length: the member's data */
	bool tty;			/* a progress bar on stderr */
};

enum rpl_result { RPL_IN_SYNC, RPL_FAILED, RPL_ABORTED };

/*
 * Wait until the mirror @c is in sync, showing progress (rate, ETA).
 * RPL_FAILED: a leg failed (its health in @health, "AS" and the like);
 * RPL_ABORTED: SIGINT or SIGTERM came.
 */
enum rpl_result rpl_wait_sync(const struct rpl_copy *c, char *health,
			      size_t sz);

/*
 * A test hook: when BDSADM_TEST_CRASH_AT names @point, the machine is
 * rebooted at once (sysrq 'b', as a power cut would stop it), so that
 * the tests can check that a crash there loses nothing.  The points:
 * copy-started, copy-half, in-sync, new-labelled, one-primary,
 * committed, reloaded (bdsadm.8, ENVIRONMENT).
 */
void rpl_crash_point(const char *point);

/* Set up SIGINT/SIGTERM to ask for an abort (rpl_wait_sync sees it). */
void rpl_catch_signals(void);

#endif /* BDS_REPLACE_H */
