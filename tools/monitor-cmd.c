// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm monitor [--program PROG [--program-timeout SECONDS]] [--foreground]
 *                [--rescan SECONDS]
 * bdsadm monitor --oneshot [--program PROG [--program-timeout SECONDS]]
 *                [--foreground]
 *
 * Watches every active bds-stripe volume (dm UUID BDS-...) and reports
 * members that fail (health A -> D), are restored by a new table, and
 * volumes that appear and disappear (see monitor.h for the files).
 *
 * The member state is event-driven: one thread per volume blocks in the
 * kernel's DM_DEV_WAIT until that volume's event number moves
 * (monitor-watch.c).  The list of volumes is read again every --rescan
 * seconds (default 5) to find new ones: device-mapper raises no event
 * on an existing device when another is created, so there is nothing
 * else to wait for (short of DM_DEVICE_ARM_POLL, see monitor-watch.c).
 * That re-list is one DM_DEVICE_LIST ioctl and an info per volume; it
 * is not a polling loop over the members' state, which is never read
 * but when the kernel says it changed, nor does it run dmsetup.
 *
 * --oneshot reports the members that are failed now, once, and exits:
 * 0 when every member of every volume is healthy, 1 when some member is
 * failed or a volume cannot be read, 2 for usage errors (for cron).
 * Otherwise it runs until SIGTERM or SIGINT (exit 0); it does not detach
 * (run it from the systemd unit, bds-stripe-monitor.service).
 *
 * The --program runs outside the monitor's lock (monitor-program.c),
 * and the signals that stop the monitor stop it too: here they make its
 * stop descriptor readable (an eventfd written by the main thread, or for
 * --oneshot a signalfd of the blocked signals).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "bdsadm.h"
#include "monitor.h"
#include "util.h"

#define MONITOR_USAGE "monitor [--oneshot] [--program PROG] [--mail ADDRESS] [--program-timeout SECONDS] [--foreground] [--rescan SECONDS]"

static void watch_new(const char *name, const char *uuid, void *arg)
{
	struct mon_ctx *ctx = arg;
	struct mon_watch *w;

	for (w = ctx->watches; w; w = w->next)
		if (!strcmp(w->name, name) && !strcmp(w->dm_uuid, uuid))
			return;
	w = calloc(1, sizeof(*w));
	if (!w) {
		mon_note(ctx, LOG_ERR, "volume %s: out of memory, not watched; the next scan tries again",
			 name);
		return;
	}
	w->ctx = ctx;
	snprintf(w->name, sizeof(w->name), "%s", name);
	snprintf(w->dm_uuid, sizeof(w->dm_uuid), "%s", uuid);
	w->vol = (struct bds_vol){ 0 };
	snprintf(w->vol.name, sizeof(w->vol.name), "%s", name);
	snprintf(w->vol.dm_uuid, sizeof(w->vol.dm_uuid), "%s", uuid);
	w->announce = ctx->announce;
	if (pthread_create(&w->thread, NULL, mon_watch_thread, w)) {
		mon_note(ctx, LOG_ERR, "volume %s: cannot start a thread for it, not watched; the next scan tries again",
			 name);
		free(w);
		return;
	}
	w->next = ctx->watches;
	ctx->watches = w;
}

/* Join the watchers that ended, then watch the volumes there are now. */
static void scan(struct mon_ctx *ctx)
{
	struct mon_watch **p = &ctx->watches, *w;

	pthread_mutex_lock(&ctx->lock);
	while ((w = *p)) {
		if (w->ended) {
			*p = w->next;
			pthread_join(w->thread, NULL);
			free(w);
		} else {
			p = &w->next;
		}
	}
	/* without dm_mod there is no volume: do not make libdm load it */
	if (bds_vol_dm_available() && !bds_dm_each_volume(watch_new, ctx))
		mon_note(ctx, LOG_ERR, "cannot list the device-mapper devices (are you root?); trying again in %u s",
			 ctx->opt.rescan);
	pthread_mutex_unlock(&ctx->lock);
}

/* The signals that stop the monitor (SIGHUP: a rescan, or --oneshot's end). */
static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
}

/* No more reports: the runners end (see mon_program_end). */
static void end_runner(struct mon_ctx *ctx)
{
	if (ctx->opt.runner)
		mon_program_end(ctx->opt.runner);
	if (ctx->opt.mailer)
		mon_program_end(ctx->opt.mailer);
	ctx->opt.runner = NULL;
	ctx->opt.mailer = NULL;
}

/* @r (NULL: out of memory) for @what, in a thread when @threaded */
static bool start_one(const struct mon_ctx *ctx, struct mon_runner *r,
		      const char *what, bool threaded)
{
	if (!r) {
		mon_note(ctx, LOG_ERR, "cannot run %s: out of memory", what);
		return false;
	}
	if (threaded && !mon_program_thread(r)) {
		mon_program_end(r);
		return false;
	}
	return true;
}

/*
 * The --program's runner in ctx->opt.runner and the --mail's in
 * ctx->opt.mailer, stopped by @stop_fd (see monitor-program.c), each in a
 * thread of its own when @threaded.  False, said why, if they cannot be.
 */
static bool start_runner(struct mon_ctx *ctx, int stop_fd, bool threaded)
{
	struct mon_opts *o = &ctx->opt;
	struct mon_runner *r;

	if (stop_fd < 0) {
		mon_note(ctx, LOG_ERR, "cannot make the descriptor that stops %s: %s",
			 o->program ? o->program : MON_SENDMAIL,
			 strerror(errno));
		return false;
	}
	if (o->program) {
		r = mon_program_new(ctx, o->program, o->program_timeout,
				    stop_fd);
		if (!start_one(ctx, r, o->program, threaded))
			return false;
		o->runner = r;
	}
	if (o->mail_to) {
		r = mon_mail_new(ctx, o->mail_to, o->program_timeout, stop_fd);
		if (!start_one(ctx, r, MON_SENDMAIL, threaded)) {
			end_runner(ctx);
			return false;
		}
		o->mailer = r;
	}
	return true;
}

static int watch_forever(struct mon_ctx *ctx)
{
	struct timespec ts = { (time_t)ctx->opt.rescan, 0 };
	unsigned int n = 0;
	struct mon_watch *w;
	int sig, stop_fd = -1;
	sigset_t set;

	/* the threads inherit the mask: the signals come to sigtimedwait */
	stop_signals(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (ctx->opt.program || ctx->opt.mail_to) {
		stop_fd = eventfd(0, EFD_CLOEXEC);
		if (!start_runner(ctx, stop_fd, true))
			return BDS_EXIT_FAIL;
	}
	scan(ctx);
	pthread_mutex_lock(&ctx->lock);
	ctx->announce = true;
	for (w = ctx->watches; w; w = w->next)
		n++;
	mon_note(ctx, LOG_INFO, "monitoring %u bds-stripe volume%s; new volumes are looked for every %u s",
		 n, n == 1 ? "" : "s", ctx->opt.rescan);
	pthread_mutex_unlock(&ctx->lock);
	for (;;) {
		sig = sigtimedwait(&set, NULL, &ts);
		if (sig == SIGTERM || sig == SIGINT)
			break;
		scan(ctx);
	}
	pthread_mutex_lock(&ctx->lock);
	mon_note(ctx, LOG_INFO, "stopped by signal %d", sig);
	/* a program that runs is stopped, the queued ones are not run */
	if (ctx->opt.runner || ctx->opt.mailer) {
		eventfd_write(stop_fd, 1);
		end_runner(ctx);
	}
	/* the watchers are blocked in the kernel: exit ends them */
	exit(BDS_EXIT_OK);
}

struct oneshot {
	const struct mon_ctx *ctx;
	unsigned int volumes, failed, unreadable;
};

static void oneshot_one(const char *name, const char *uuid, void *arg)
{
	static struct bds_vol v;
	struct oneshot *o = arg;

	(void)uuid;
	o->volumes++;
	if (!bds_vol_read(name, &v) || !v.have_status) {
		mon_note(o->ctx, LOG_WARNING, "volume %s: its status cannot be read (%s); 'dmsetup status %s' shows what is loaded",
			 name, v.why, name);
		o->unreadable++;
		return;
	}
	o->failed += mon_compare(o->ctx, NULL, &v);
}

static int oneshot(struct mon_ctx *ctx)
{
	struct oneshot o = { ctx, 0, 0, 0 };
	bool listed;
	sigset_t set;

	/* the reports are queued, and run once the volumes are read */
	if (ctx->opt.program || ctx->opt.mail_to) {
		stop_signals(&set);
		sigprocmask(SIG_BLOCK, &set, NULL);
		if (!start_runner(ctx, signalfd(-1, &set, SFD_CLOEXEC), false))
			return BDS_EXIT_FAIL;
	}
	listed = !bds_vol_dm_available() ||
		 bds_dm_each_volume(oneshot_one, &o);
	end_runner(ctx);
	if (!listed) {
		bds_err("cannot list the device-mapper devices (are you root?)");
		return BDS_EXIT_FAIL;
	}
	if (ctx->opt.to_stdout)
		printf("%u volume%s, %u failed member%s%s\n", o.volumes,
		       o.volumes == 1 ? "" : "s", o.failed,
		       o.failed == 1 ? "" : "s",
		       o.unreadable ? ", some status unreadable" : "");
	return o.failed || o.unreadable ? BDS_EXIT_FAIL : BDS_EXIT_OK;
}

int bds_cmd_monitor(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "oneshot", no_argument, NULL, '1' },
		{ "program", required_argument, NULL, 'p' },
		{ "program-timeout", required_argument, NULL, 't' },
		{ "mail", required_argument, NULL, 'm' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "rescan", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct mon_ctx ctx = {
		.opt = { .program_timeout = 60, .rescan = 5 },
		.lock = PTHREAD_MUTEX_INITIALIZER,
	};
	struct mon_opts *o = &ctx.opt;
	bool once = false, timeout = false;
	int c;

	o->to_stdout = isatty(STDOUT_FILENO);
	while ((c = getopt_long(argc, argv, "1p:m:t:fr:h", lo, NULL)) != -1) {
		switch (c) {
		case '1':
			once = true;
			break;
		case 'p':
			if (optarg[0] != '/' || access(optarg, X_OK)) {
				bds_err("--program %s: not an executable file given by its absolute path",
					optarg);
				return bds_usage(MONITOR_USAGE);
			}
			o->program = optarg;
			break;
		case 'm':
			if (!optarg[0] || optarg[0] == '-' ||
			    strpbrk(optarg, " \t\r\n,<>\"")) {
				bds_err("--mail '%s': not one mail address (user@host, or a local user)",
					optarg);
				return bds_usage(MONITOR_USAGE);
			}
			if (access(MON_SENDMAIL, X_OK)) {
				bds_err("--mail %s: %s is not there (%s): install a mail transport agent (exim4, postfix, dma, msmtp-mta), or give --program",
					optarg, MON_SENDMAIL, strerror(errno));
				return BDS_EXIT_FAIL;
			}
			o->mail_to = optarg;
			break;
		case 't':
			if (!parse_whole_seconds(optarg, &o->program_timeout)) {
				bds_err("--program-timeout %s: not a whole number of seconds from 1 to %d",
					optarg, PARSE_SECONDS_MAX);
				return bds_usage(MONITOR_USAGE);
			}
			timeout = true;
			break;
		case 'f':
			o->to_stdout = true;
			break;
		case 'r':
			if (!parse_whole_seconds(optarg, &o->rescan)) {
				bds_err("--rescan %s: not a whole number of seconds from 1 to %d",
					optarg, PARSE_SECONDS_MAX);
				return bds_usage(MONITOR_USAGE);
			}
			break;
		case 'h':
			printf("usage: bdsadm " MONITOR_USAGE "\n");
			return BDS_EXIT_OK;
		default:
			return bds_usage(MONITOR_USAGE);
		}
	}
	if (optind < argc) {
		bds_err("monitor watches every volume: it takes no names");
		return bds_usage(MONITOR_USAGE);
	}
	if (timeout && !o->program && !o->mail_to) {
		bds_err("--program-timeout: there is no --program or --mail to time");
		return bds_usage(MONITOR_USAGE);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	openlog("bdsadm-monitor", LOG_PID, LOG_DAEMON);
	return once ? oneshot(&ctx) : watch_forever(&ctx);
}
