/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdsadm monitor: what its three files share.
 *
 *   monitor-cmd.c     options, --oneshot, the main loop: list the
 *                     volumes, start a watcher for each new one, join
 *                     the ended ones, exit on SIGTERM/SIGINT
 *   monitor-watch.c   one thread per volume: wait for its dm events
 *                     (DM_DEVICE_WAITEVENT) and compare its health
 *   monitor-report.c  a report: syslog, stdout, queued for the --program
 *   monitor-program.c the --program: the queue of reports, run one at a
 *                     time outside the monitor's lock, with a timeout
 *
 * libdevmapper and the status parser (volstat.c, static buffers) are
 * not thread-safe: every call into them is made holding the monitor's
 * lock (mon_ctx.lock), except the blocking wait itself, as dmeventd
 * does.  The --program is never run holding that lock: its queue has a
 * lock of its own, taken for moments only.
 */
#ifndef BDS_MONITOR_H
#define BDS_MONITOR_H

#include <pthread.h>
#include <stdbool.h>

#include "volstat.h"

struct mon_runner;

struct mon_opts {
	const char *program;	/* --program, NULL if none */
	unsigned int program_timeout;	/* --program-timeout, seconds */
	bool to_stdout;		/* --foreground, or stdout is a terminal */
	unsigned int rescan;	/* seconds between re-listing the volumes */
	struct mon_runner *runner;	/* runs the --program; NULL if none */
	const char *mail_to;	/* --mail, NULL if none */
	struct mon_runner *mailer;	/* mails to --mail; NULL if none */
};

/* What --mail hands each report to, as mdadm does: sendmail -t -oi */
#define MON_SENDMAIL "/usr/sbin/sendmail"

struct mon_watch;

/*
 * One run of bdsadm monitor, passed down to every step and thread (as
 * lvm2 passes its cmd_context): the options, set before any thread
 * starts; the lock; the watched volumes.
 */
struct mon_ctx {
	struct mon_opts opt;
	pthread_mutex_t lock;		/* libdevmapper, volstat, the list */
	struct mon_watch *watches;	/* monitor-cmd.c's list */
	bool announce;			/* false in the first scan */
};

/* One watched volume, in its monitor's list. */
struct mon_watch {
	struct mon_ctx *ctx;
	char name[BDS_DM_NAME_SZ];
	char dm_uuid[BDS_DM_UUID_SZ];
	bool announce;		/* appeared after the start: say so */
	bool ended;		/* the thread has returned: join it */
	pthread_t thread;
	struct bds_vol vol;	/* as last read */
	struct mon_watch *next;
};

/* monitor-watch.c: the thread of @arg, a struct mon_watch. */
void *mon_watch_thread(void *arg);
/*
 * Compare @now with @before (NULL: first sight of the volume) and report
 * every member whose health changed.  Returns the number of members of
 * @now that are failed (D).  Called holding ctx->lock.
 */
unsigned int mon_compare(const struct mon_ctx *ctx,
			 const struct bds_vol *before,
			 const struct bds_vol *now);
/*
 * Compare whether @before (NULL: first sight) and @now are mid-restripe
 * (a table with "reshape"), and report a restripe that started, finished
 * or was found running.  Called holding ctx->lock.
 */
void mon_compare_restripe(const struct mon_ctx *ctx,
			  const struct bds_vol *before,
			  const struct bds_vol *now);

/* monitor-report.c, called holding ctx->lock (--oneshot: one thread). */
/* Event names, as the program gets them. */
#define MON_FAILED		"MemberFailed"
#define MON_FOUND_FAILED	"MemberFoundFailed"
#define MON_RESTORED		"MemberRestored"
#define MON_APPEARED		"VolumeAppeared"
#define MON_DISAPPEARED		"VolumeDisappeared"
#define MON_RS_STARTED		"RestripeStarted"
#define MON_RS_FINISHED		"RestripeFinished"
#define MON_RS_FOUND		"RestripeFound"
/* Member @m (table index) of @v, or the volume when @m is -1. */
void mon_report(const struct mon_ctx *ctx, const char *event,
		const struct bds_vol *v, int m);
/* A line about the monitor itself (not an event): syslog and stdout. */
void mon_note(const struct mon_ctx *ctx, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * monitor-program.c.  A runner of @program, killed after @timeout
 * seconds, and at once when @stop_fd (which it does not read nor close)
 * becomes readable: the monitor is stopping.  NULL if out of memory.
 */
struct mon_runner *mon_program_new(const struct mon_ctx *ctx,
				   const char *program, unsigned int timeout,
				   int stop_fd);
/*
 * A runner like mon_program_new()'s whose program is MON_SENDMAIL -t -oi,
 * given on its standard input a mail to @to for each report.
 */
struct mon_runner *mon_mail_new(const struct mon_ctx *ctx, const char *to,
				unsigned int timeout, int stop_fd);
/* Run the queued reports in a thread of its own; false (said why) if not. */
bool mon_program_thread(struct mon_runner *r);
/* Queue a report for the program: PROG EVENT VOL [DEV]; never blocks. */
void mon_program_queue(struct mon_runner *r, const char *event,
		       const char *vol, const char *dev);
/*
 * No more reports: run those still queued (in the runner's thread, else
 * in this one) unless the monitor is stopping, then free @r.
 */
void mon_program_end(struct mon_runner *r);

#endif /* BDS_MONITOR_H */
