/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdsadm monitor: what its three files share.
 *
 *   monitor-cmd.c     options, --oneshot, the main loop: list the
 *                     volumes, start a watcher for each new one, join
 *                     the ended ones, exit on SIGTERM/SIGINT
 *   monitor-watch.c   one thread per volume: wait for its dm events
 *                     (DM_DEVICE_WAITEVENT) and compare its health
 *   monitor-report.c  a report: syslog, stdout, the --program
 *
 * libdevmapper and the status parser (volstat.c, static buffers) are
 * not thread-safe: every call into them is made holding mon_lock, except
 * the blocking wait itself, as dmeventd does.
 */
#ifndef BDS_MONITOR_H
#define BDS_MONITOR_H

#include <pthread.h>
#include <stdbool.h>

#include "volstat.h"

struct mon_opts {
	const char *program;	/* --program, NULL if none */
	bool to_stdout;		/* --foreground, or stdout is a terminal */
	unsigned int rescan;	/* seconds between re-listing the volumes */
};

extern struct mon_opts mon_opt;
extern pthread_mutex_t mon_lock;

/* One watched volume; the list belongs to monitor-cmd.c. */
struct mon_watch {
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
 * @now that are failed (D).  Called holding mon_lock.
 */
unsigned int mon_compare(const struct bds_vol *before,
			 const struct bds_vol *now);

/* monitor-report.c, called holding mon_lock. */
/* Event names, as the program gets them. */
#define MON_FAILED		"MemberFailed"
#define MON_FOUND_FAILED	"MemberFoundFailed"
#define MON_RESTORED		"MemberRestored"
#define MON_APPEARED		"VolumeAppeared"
#define MON_DISAPPEARED		"VolumeDisappeared"
/* Member @m (table index) of @v, or the volume when @m is -1. */
void mon_report(const char *event, const struct bds_vol *v, int m);
/* A line about the monitor itself (not an event): syslog and stdout. */
void mon_note(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* BDS_MONITOR_H */
