// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm monitor: one thread per volume (see monitor.h).
 *
 * The thread reads the volume's event number, then its table and status,
 * reports what changed, and blocks in DM_DEVICE_WAITEVENT (the DM_DEV_WAIT
 * ioctl) until the event number passes the one it read: the target raises
 * an event when a member sees an I/O error (Documentation/bds-stripe.rst),
 * so a failure wakes it at once and nothing is polled.  Reading the number
 * before the status means an event between the two is not lost: the wait
 * then returns at once.  The target raises an event for each of a member's
 * first errors; only a change of the health string is reported, so each
 * failure is reported once, with the member's error count as read then.
 * A growing count of a member already D is not reported: the events stop
 * after the first 15 errors, so such reports would end at a count the
 * kernel chose, and a failing disk under load would repeat the same news
 * (and run the --program) up to 14 times within moments.  bdsadm detail
 * shows the current counts.
 *
 * A restripe's start and end replace the table: the target raises an
 * event at every resume, and the table read then says whether it has
 * "reshape" (mon_compare_restripe()).
 *
 * A volume removed while waited on: device-mapper raises an event on
 * removal, the wait returns (or fails), the next read finds no volume of
 * that name and dm UUID, and the thread reports VolumeDisappeared and
 * ends; the main loop joins it.
 *
 * Why threads, not DM_DEVICE_ARM_POLL and poll(): libdevmapper (1.02.185
 * here) has that task but does not give out its control fd, so poll()
 * would need a control fd and raw ioctls of our own beside libdevmapper;
 * the global event it arms says only that some device changed, so every
 * volume would be re-read on every event of any dm device; and it needs
 * dm ioctl 4.37 (Linux 4.18).  A thread blocked in the wait per volume
 * is what dmeventd does, on every kernel.
 */
#include <libdevmapper.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "monitor.h"

/* @name's event number, if it is still the volume of dm UUID @dm_uuid. */
static bool event_nr(const char *name, const char *dm_uuid, uint32_t *nr)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_INFO);
	struct dm_info di;
	const char *u;
	bool ok = false;

	if (!dmt)
		return false;
	if (dm_task_set_name(dmt, name) && dm_task_run(dmt) &&
	    dm_task_get_info(dmt, &di) && di.exists) {
		u = dm_task_get_uuid(dmt);
		ok = u && !strcmp(u, dm_uuid);
		*nr = di.event_nr;
	}
	dm_task_destroy(dmt);
	return ok;
}

/*
 * Block until @name's event number is not @nr.  Called holding @lock;
 * the lock is dropped for the wait only.  False if the wait failed.
 */
static bool wait_event(pthread_mutex_t *lock, const char *name, uint32_t nr)
{
	struct dm_task *dmt = dm_task_create(DM_DEVICE_WAITEVENT);
	bool ok;

	if (!dmt)
		return false;
	ok = dm_task_set_name(dmt, name) && dm_task_set_event_nr(dmt, nr) &&
	     dm_task_no_open_count(dmt);
	if (ok) {
		pthread_mutex_unlock(lock);
		ok = dm_task_run(dmt);
		pthread_mutex_lock(lock);
	}
	dm_task_destroy(dmt);
	return ok;
}

unsigned int mon_compare(const struct mon_ctx *ctx,
			 const struct bds_vol *before,
			 const struct bds_vol *now)
{
	bool first = !before || !before->have_status;
	unsigned int failed = 0;
	u32 i, j;

	if (!now->have_status)
		return 0;
	for (i = 0; i < now->nr_members; i++) {
		char was = 'A';

		/* by device: a reloaded table may have moved or replaced one */
		for (j = 0; !first && j < before->nr_members; j++)
			if (!strcmp(before->dev[j], now->dev[i])) {
				was = before->health[j];
				break;
			}
		failed += now->health[i] == 'D';
		if (was == 'A' && now->health[i] == 'D')
			mon_report(ctx, first ? MON_FOUND_FAILED : MON_FAILED,
				   now, (int)i);
		else if (was == 'D' && now->health[i] == 'A')
			mon_report(ctx, MON_RESTORED, now, (int)i);
	}
	return failed;
}

void mon_compare_restripe(const struct mon_ctx *ctx,
			  const struct bds_vol *before,
			  const struct bds_vol *now)
{
	bool was = before && before->have_table && before->args.reshape_given;
	bool is = now->have_table && now->args.reshape_given;

	if (!now->have_table || (before && !before->have_table))
		return;
	if (!before && is)
		mon_report(ctx, MON_RS_FOUND, now, -1);
	else if (before && !was && is)
		mon_report(ctx, MON_RS_STARTED, now, -1);
	else if (was && !is)
		mon_report(ctx, MON_RS_FINISHED, now, -1);
}

void *mon_watch_thread(void *arg)
{
	struct mon_watch *w = arg;
	struct mon_ctx *ctx = w->ctx;
	struct bds_vol now;
	bool first = true;
	uint32_t nr = 0;

	pthread_mutex_lock(&ctx->lock);
	for (;;) {
		if (!event_nr(w->name, w->dm_uuid, &nr) ||
		    !bds_vol_read(w->name, &now) ||
		    strcmp(now.dm_uuid, w->dm_uuid)) {
			if (!first)
				mon_report(ctx, MON_DISAPPEARED, &w->vol, -1);
			break;
		}
		if (first && w->announce)
			mon_report(ctx, MON_APPEARED, &now, -1);
		if (!now.have_status && (first || w->vol.have_status))
			mon_note(ctx, LOG_WARNING, "volume %s: its status cannot be read (%s); 'dmsetup status %s' shows what is loaded",
				 w->name, now.why, w->name);
		mon_compare(ctx, first ? NULL : &w->vol, &now);
		mon_compare_restripe(ctx, first ? NULL : &w->vol, &now);
		w->vol = now;
		first = false;
		/* a failed wait: the next round finds out why, unhurried */
		if (!wait_event(&ctx->lock, w->name, nr)) {
			pthread_mutex_unlock(&ctx->lock);
			sleep(1);
			pthread_mutex_lock(&ctx->lock);
		}
	}
	w->ended = true;
	pthread_mutex_unlock(&ctx->lock);
	return NULL;
}
