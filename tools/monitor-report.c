// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm monitor's reports (see monitor.h): one line to syslog (the
 * journal takes it from there), the same line with the time on stdout
 * with --foreground, at once, and the report queued for the --program,
 * which monitor-program.c runs as
 *   PROG EVENT VOLUME [MEMBER-DEVICE]
 * as mdadm --monitor runs its program; the member device is given for
 * member events only.  A member's line gives its error count (status
 * field 7) as read with the change; a later growth of the count is not
 * reported (see monitor-watch.c).  The reports reach the program in the
 * order they are made here, each once.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "member-dev.h"
#include "monitor.h"

static void out_line(const struct mon_ctx *ctx, int prio, const char *line)
{
	char stamp[32];
	struct tm tm;
	time_t now;

	syslog(prio, "%s", line);
	if (!ctx->opt.to_stdout)
		return;
	now = time(NULL);
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	printf("%s %s\n", stamp, line);
	fflush(stdout);
}

void mon_note(const struct mon_ctx *ctx, int prio, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	out_line(ctx, prio, line);
}

static const char *or_none(const char *s)
{
	return s[0] ? s : "none";
}

/*
 * "errors 3": the member's error count (status field 7) when the status
 * was read; a module older than 1.3.0 does not give it.
 */
static void errors_word(char *buf, size_t sz, const struct bds_vol *v, int m)
{
	if (v->have_errors)
		snprintf(buf, sz, "errors %u", v->errors[m]);
	else
		snprintf(buf, sz, "errors unknown (the loaded module is older than 1.3.0)");
}

static void member_line(char *line, size_t sz, const char *event,
			const struct bds_vol *v, int m,
			const struct bds_member_dev *d)
{
	bool restored = !strcmp(event, MON_RESTORED);
	char was = restored ? 'D' : 'A', errors[80];

	errors_word(errors, sizeof(errors), v, m);
	snprintf(line, sz, "%s: volume %s, member %d (stripe position %u, %s, serial %s, controller %s): health %c -> %c%s; %s; %s",
		 event, v->name, m, v->pos_of[m], d->node, or_none(d->serial),
		 or_none(d->controller), was, v->health[m],
		 !strcmp(event, MON_FOUND_FAILED) ?
		 " (before the monitor saw the volume)" : "", errors,
		 restored ?
		 "a new table gave the member a fresh start" :
		 "it has seen an I/O error and the data on it may be unreadable: 'bdsadm check' finds the unreadable ranges, 'bdsadm detail' shows the volume");
}

void mon_report(const struct mon_ctx *ctx, const char *event,
		const struct bds_vol *v, int m)
{
	struct bds_member_dev d;
	char line[PATH_MAX + 2048], u[BDS_DM_UUID_SZ];

	bds_vol_uuid(v, u, sizeof(u));
	if (m >= 0) {
		bds_member_dev(v->dev[m], &d);
		member_line(line, sizeof(line), event, v, m, &d);
		out_line(ctx, strcmp(event, MON_RESTORED) ? LOG_CRIT : LOG_NOTICE,
			 line);
	} else if (!strcmp(event, MON_RS_STARTED) ||
		   !strcmp(event, MON_RS_FOUND)) {
		snprintf(line, sizeof(line), "%s: volume %s (%s) is being restriped onto %u members%s: 'bdsadm detail %s' shows how far",
			 event, v->name, u, v->nr_members,
			 !strcmp(event, MON_RS_FOUND) ?
			 " (mid-restripe when the monitor saw it; 'bdsadm grow --continue' or its unit carries it on)" : "",
			 v->name);
		out_line(ctx, LOG_NOTICE, line);
	} else if (!strcmp(event, MON_RS_FINISHED)) {
		snprintf(line, sizeof(line), "%s: volume %s (%s) is restriped: %u members, %llu MiB",
			 event, v->name, u, v->nr_members,
			 (unsigned long long)(v->sectors >> 11));
		out_line(ctx, LOG_NOTICE, line);
	} else if (!strcmp(event, MON_APPEARED)) {
		snprintf(line, sizeof(line), "%s: volume %s (%s), %u members, health %s",
			 event, v->name, u, v->nr_members,
			 v->have_status ? v->health : "unknown");
		out_line(ctx, LOG_NOTICE, line);
	} else {
		snprintf(line, sizeof(line), "%s: volume %s (%s) is no longer active",
			 event, v->name, u);
		out_line(ctx, LOG_NOTICE, line);
	}
	if (ctx->opt.runner)
		mon_program_queue(ctx->opt.runner, event, v->name,
				  m >= 0 ? d.node : NULL);
	if (ctx->opt.mailer)
		mon_program_queue(ctx->opt.mailer, event, v->name,
				  m >= 0 ? d.node : NULL);
}
