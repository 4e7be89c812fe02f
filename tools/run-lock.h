/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The assembly lock, /run/bds-stripe/lock: held by every 'bdsadm
 * assemble' and 'bdsadm incremental', so that udev's events and the
 * boot unit's 'assemble --scan' never create one volume twice at once
 * (the loser would fail, and its unit with it).
 */
#ifndef BDS_RUN_LOCK_H
#define BDS_RUN_LOCK_H

/* Where incremental remembers the members it has seen, and the lock. */
#define BDS_RUN_DIR	"/run/bds-stripe"

/*
 * Take the lock, waiting up to @timeout_ms milliseconds for another
 * holder; a no-op when this process holds it already.  Returns 0,
 * -ETIMEDOUT, or another negative errno (nothing held).
 */
int bds_run_lock(int timeout_ms);
void bds_run_unlock(void);

#endif /* BDS_RUN_LOCK_H */
