// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm monitor's --program (see monitor.h): the reports wait in a
 * queue, in the order they were made, and are given to the program one
 * at a time, by a thread of their own (or, for --oneshot, by the caller
 * once the volumes are read), never while the monitor's lock is held: a
 * slow or hung program delays only the programs of the reports after
 * it, not the watching nor the reports to syslog and stdout.
 *
 * The program is started with fork() and exec, as
 *   PROG EVENT VOLUME [MEMBER-DEVICE]
 * with no signal blocked and every signal at its default action (the
 * monitor's threads block SIGTERM, SIGINT and SIGHUP for the main
 * thread's sigtimedwait, and a shell that starts the monitor in the
 * background ignores SIGINT and SIGQUIT: the program inherits neither),
 * standard input /dev/null, standard output and error the monitor's,
 * no other descriptor, in a process group of its own: a timeout or the
 * monitor's end signals that group, so that what the program started
 * (the sleep of a script, a mailer it waits for) ends with it.
 *
 * It is waited for with a pidfd and poll(), along with the caller's
 * stop descriptor (readable once the monitor is stopping):
 *   - after --program-timeout seconds (default 60) it is said to have
 *     timed out and its group gets SIGTERM;
 *   - when the monitor stops, its group gets SIGTERM at once;
 *   - MON_PROGRAM_GRACE seconds after SIGTERM, SIGKILL;
 *   - MON_PROGRAM_GRACE seconds after SIGKILL it is left behind, said so
 *     (a process stuck in the kernel; it is not reaped).
 * Once the monitor is stopping, the reports still queued are not given
 * to the program; each is named in the log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "monitor.h"

/* seconds from SIGTERM to SIGKILL, and from SIGKILL to giving up */
#define MON_PROGRAM_GRACE	5
/* reports waiting for the program at most; more are logged only */
#define MON_QUEUE_MAX		1000

struct mon_job {
	struct mon_job *next;
	char event[32];
	char vol[BDS_DM_NAME_SZ];
	char *dev;			/* NULL for volume events */
	char *what;			/* "PROG EVENT VOLUME [DEVICE]" */
};

struct mon_runner {
	const struct mon_ctx *ctx;	/* its monitor: where notes go */
	const char *program;
	const char *mail_to;		/* a mailer (mon_mail_new): to whom */
	unsigned int timeout;		/* seconds */
	int stop_fd;			/* readable: the monitor is stopping */
	pthread_mutex_t lock;		/* the fields below */
	pthread_cond_t queued;		/* a job was queued, or ending set */
	struct mon_job *head, **tail;
	unsigned int nr_queued;
	bool ending;			/* no more jobs: return when empty */
	bool threaded;
	pthread_t thread;
};

struct mon_runner *mon_program_new(const struct mon_ctx *ctx,
				   const char *program, unsigned int timeout,
				   int stop_fd)
{
	struct mon_runner *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->ctx = ctx;
	r->program = program;
	r->timeout = timeout;
	r->stop_fd = stop_fd;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->queued, NULL);
	r->tail = &r->head;
	return r;
}

struct mon_runner *mon_mail_new(const struct mon_ctx *ctx, const char *to,
				unsigned int timeout, int stop_fd)
{
	struct mon_runner *r = mon_program_new(ctx, MON_SENDMAIL, timeout,
					       stop_fd);

	if (r)
		r->mail_to = to;
	return r;
}

static void free_job(struct mon_job *j)
{
	free(j->dev);
	free(j->what);
	free(j);
}

/* A job for the report EVENT VOL [DEV]; NULL, said so, if out of memory. */
static struct mon_job *new_job(const struct mon_runner *r, const char *event,
			       const char *vol, const char *dev)
{
	struct mon_job *j = calloc(1, sizeof(*j));

	if (j) {
		snprintf(j->event, sizeof(j->event), "%s", event);
		snprintf(j->vol, sizeof(j->vol), "%s", vol);
		j->dev = dev ? strdup(dev) : NULL;
		if (asprintf(&j->what, "%s%s%s %s %s%s%s", r->program,
			     r->mail_to ? " -t -oi, a mail to " : "",
			     r->mail_to ? r->mail_to : "", event, vol,
			     dev ? " " : "", dev ? dev : "") < 0)
			j->what = NULL;
	}
	if (j && (!dev || j->dev) && j->what)
		return j;
	mon_note(r->ctx, LOG_ERR, "%s %s %s%s%s: not run: out of memory", r->program,
		 event, vol, dev ? " " : "", dev ? dev : "");
	if (j)
		free_job(j);
	return NULL;
}

void mon_program_queue(struct mon_runner *r, const char *event,
		       const char *vol, const char *dev)
{
	struct mon_job *j = new_job(r, event, vol, dev);

	if (!j)
		return;
	pthread_mutex_lock(&r->lock);
	if (r->nr_queued >= MON_QUEUE_MAX) {
		pthread_mutex_unlock(&r->lock);
		mon_note(r->ctx, LOG_ERR, "%s: not run: %u reports are waiting for the program already",
			 j->what, MON_QUEUE_MAX);
		free_job(j);
		return;
	}
	*r->tail = j;
	r->tail = &j->next;
	r->nr_queued++;
	pthread_cond_signal(&r->queued);
	pthread_mutex_unlock(&r->lock);
}

/* The next job, waiting for one; NULL once ending and none is left. */
static struct mon_job *next_job(struct mon_runner *r)
{
	struct mon_job *j;

	pthread_mutex_lock(&r->lock);
	while (!r->head && !r->ending)
		pthread_cond_wait(&r->queued, &r->lock);
	j = r->head;
	if (j) {
		r->head = j->next;
		if (!r->head)
			r->tail = &r->head;
		r->nr_queued--;
	}
	pthread_mutex_unlock(&r->lock);
	return j;
}

static bool stopping(const struct mon_runner *r)
{
	struct pollfd p = { r->stop_fd, POLLIN, 0 };

	return poll(&p, 1, 0) > 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The child's side of spawn(), between fork() and exec: async-signal-safe
 * calls only (the parent has other threads).  Every signal back to its
 * default action (the handled ones are at exec anyway; this is for the
 * ignored ones: SIGKILL, SIGSTOP and glibc's own two just refuse), none
 * blocked, a process group of its own, standard input /dev/null and no
 * descriptor beyond standard error.
 */
static void exec_program(char *const argv[], int in_fd)
{
	struct sigaction dfl;
	sigset_t none;
	int sig, fd;

	setpgid(0, 0);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = in_fd >= 0 ? in_fd : open("/dev/null", O_RDONLY);
	if (fd > STDIN_FILENO) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	close_range(STDERR_FILENO + 1, ~0U, 0);
	execv(argv[0], argv);
	_exit(127);
}

/*
 * The mail of a mailer's report @j, in a memory file at its start (the
 * mailer's standard input), or -1, said why.  RFC 5322 headers for
 * sendmail -t (it takes the recipient from To:), then what happened and
 * where to look.
 */
static int mail_of(const struct mon_runner *r, const struct mon_job *j)
{
	char host[256] = "localhost", date[64];
	time_t t = time(NULL);
	struct tm tm;
	FILE *f;
	int fd;

	gethostname(host, sizeof(host) - 1);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S %z",
		 localtime_r(&t, &tm));
	fd = memfd_create("bds-stripe-mail", MFD_CLOEXEC);
	f = fd < 0 ? NULL : fdopen(dup(fd), "w");
	if (!f) {
		mon_note(r->ctx, LOG_ERR, "%s: cannot make the mail: %s", j->what,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fprintf(f, "From: bds-stripe monitor <root@%s>\n", host);
	fprintf(f, "To: %s\n", r->mail_to);
	fprintf(f, "Subject: %s event on bds-stripe volume %s:%s\n", j->event,
		j->vol, host);
	fprintf(f, "Date: %s\n\n", date);
	fprintf(f, "This is a mail from bdsadm monitor on %s.\n\n", host);
	fprintf(f, "A %s event happened on bds-stripe volume %s", j->event,
		j->vol);
	if (j->dev)
		fprintf(f, ", member device %s", j->dev);
	fprintf(f, ".\n\n'bdsadm detail %s' shows the volume and its members,\n"
		"'journalctl -u bds-stripe-monitor' the monitor's reports.\n",
		j->vol);
	if (fclose(f) || lseek(fd, 0, SEEK_SET)) {
		mon_note(r->ctx, LOG_ERR, "%s: cannot make the mail: %s", j->what,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Start the program for @j; its pid (and process group), or -1.  Not
 * posix_spawn(): glibc's (2.36) leaves its two internal signals (32 and
 * 33) ignored in the program it starts, and ignored they stay.
 */
static pid_t spawn(const struct mon_runner *r, const struct mon_job *j)
{
	char *argv[] = { (char *)r->program, (char *)j->event, (char *)j->vol,
			 j->dev, NULL };
	char *mail_argv[] = { (char *)r->program, "-t", "-oi", NULL };
	int in_fd = -1;
	pid_t pid;

	if (r->mail_to) {
		in_fd = mail_of(r, j);
		if (in_fd < 0)
			return -1;
	}
	fflush(NULL);
	pid = fork();
	if (!pid)
		exec_program(r->mail_to ? mail_argv : argv, in_fd);
	if (in_fd >= 0)
		close(in_fd);
	if (pid < 0) {
		mon_note(r->ctx, LOG_ERR, "%s: cannot be run: fork: %s", j->what,
			 strerror(errno));
		return -1;
	}
	/* as shells do: the group exists before kill(-pid) whoever runs first */
	setpgid(pid, pid);
	return pid;
}

/* "TERM" for SIGTERM; "?" for a number glibc has no name for. */
static const char *sig_name(int sig)
{
	const char *s = sigabbrev_np(sig);

	return s ? s : "?";
}

/* Signal the program's process group, and say why. */
static void signal_group(const struct mon_runner *r, const struct mon_job *j,
			 pid_t pid, int sig, const char *why)
{
	mon_note(r->ctx, LOG_WARNING, "%s: %s: SIG%s to its process group", j->what,
		 why, sig_name(sig));
	if (kill(-pid, sig) && errno != ESRCH)
		mon_note(r->ctx, LOG_ERR, "%s: kill SIG%s: %s", j->what,
			 sig_name(sig), strerror(errno));
}

enum mon_stage { MON_RUNNING, MON_TERMED, MON_KILLED };

/*
 * Move the program @pid of @j on from @stage, at the stage's deadline or
 * (@stop) because the monitor is stopping: signal its group, and say
 * why.  The new stage; -1 after MON_KILLED: it is left behind.
 */
static int escalate(const struct mon_runner *r, const struct mon_job *j,
		    pid_t pid, int stage, bool stop)
{
	char why[64];

	switch (stage) {
	case MON_RUNNING:
		if (stop)
			snprintf(why, sizeof(why), "still running as the monitor is stopping");
		else
			snprintf(why, sizeof(why), "timed out after %u s (--program-timeout)",
				 r->timeout);
		signal_group(r, j, pid, SIGTERM, why);
		return MON_TERMED;
	case MON_TERMED:
		snprintf(why, sizeof(why), "still running %u s after SIGTERM",
			 MON_PROGRAM_GRACE);
		signal_group(r, j, pid, SIGKILL, why);
		return MON_KILLED;
	default:
		mon_note(r->ctx, LOG_ERR, "%s: still there %u s after SIGKILL (stuck in the kernel?): left behind",
			 j->what, MON_PROGRAM_GRACE);
		return -1;
	}
}

/*
 * Wait for the program @pid of @j, watched by @pidfd, stopping it at its
 * timeout or when the monitor stops (see the top of the file).  Once it
 * is reaped: its wait status in @st, and the stage it had reached
 * (MON_RUNNING: it ended by itself); -1 if it is left behind.
 */
static int wait_program(const struct mon_runner *r, const struct mon_job *j,
			pid_t pid, int pidfd, int *st)
{
	struct pollfd p[2] = { { pidfd, POLLIN, 0 }, { r->stop_fd, POLLIN, 0 } };
	long long deadline = now_ms() + 1000LL * r->timeout, left;
	int n, stage = MON_RUNNING;

	for (;;) {
		left = deadline - now_ms();
		/* once signalled, a stop does not hurry it further */
		n = poll(p, stage == MON_RUNNING ? 2 : 1,
			 left > 0 ? (int)left : 0);
		if (n > 0 && p[0].revents) {
			while (waitpid(pid, st, 0) < 0 && errno == EINTR)
				;
			return stage;
		}
		if (n < 0) {
			if (errno != EINTR) {
				mon_note(r->ctx, LOG_ERR, "%s: poll: %s", j->what,
					 strerror(errno));
				sleep(1);
			}
			if (now_ms() < deadline)
				continue;
			n = 0;
		}
		stage = escalate(r, j, pid, stage, n > 0);
		if (stage < 0)
			return -1;
		deadline = now_ms() + 1000LL * MON_PROGRAM_GRACE;
	}
}

/* Say how the program ended, unless it succeeded by itself. */
static void say_end(const struct mon_runner *r, const struct mon_job *j,
		    int st, bool stopped)
{
	if (WIFSIGNALED(st))
		mon_note(r->ctx, LOG_WARNING, "%s: killed by signal %d (SIG%s)",
			 j->what, WTERMSIG(st), sig_name(WTERMSIG(st)));
	else if (WEXITSTATUS(st) || stopped)
		mon_note(r->ctx, LOG_WARNING, "%s: exit status %d%s", j->what,
			 WEXITSTATUS(st), WEXITSTATUS(st) == 127 ?
			 " (could not be run: is it an executable path?)" : "");
}

static void run_job(const struct mon_runner *r, const struct mon_job *j)
{
	pid_t pid = spawn(r, j);
	int pidfd, st, stage;

	if (pid < 0)
		return;
	pidfd = pidfd_open(pid, 0);
	if (pidfd < 0) {
		/* no timeout then, but still outside the monitor's lock */
		mon_note(r->ctx, LOG_ERR, "%s: pidfd_open: %s; waited for without a timeout",
			 j->what, strerror(errno));
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		say_end(r, j, st, false);
		return;
	}
	stage = wait_program(r, j, pid, pidfd, &st);
	if (stage >= 0)
		say_end(r, j, st, stage != MON_RUNNING);
	close(pidfd);
}

static void run_queue(struct mon_runner *r)
{
	struct mon_job *j;

	while ((j = next_job(r))) {
		if (stopping(r))
			mon_note(r->ctx, LOG_WARNING, "%s: not run: the monitor is stopping",
				 j->what);
		else
			run_job(r, j);
		free_job(j);
	}
}

static void *runner_thread(void *arg)
{
	run_queue(arg);
	return NULL;
}

bool mon_program_thread(struct mon_runner *r)
{
	int err = pthread_create(&r->thread, NULL, runner_thread, r);

	if (err) {
		mon_note(r->ctx, LOG_ERR, "cannot start the thread that runs %s: %s",
			 r->program, strerror(err));
		return false;
	}
	r->threaded = true;
	return true;
}

void mon_program_end(struct mon_runner *r)
{
	pthread_mutex_lock(&r->lock);
	r->ending = true;
	pthread_cond_signal(&r->queued);
	pthread_mutex_unlock(&r->lock);
	if (r->threaded)
		pthread_join(r->thread, NULL);
	else
		run_queue(r);
	pthread_cond_destroy(&r->queued);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
