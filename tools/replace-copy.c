// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm replace: wait for the mirror to bring NEW in sync, with
 * progress (see replace.h).  The mirror's own status says how many of
 * its regions are in sync and the health of each leg:
 *   <#legs> <leg>... <in-sync>/<regions> <#health> <health chars> ...
 * A leg that is not 'A' (alive) has failed: a read error on OLD during
 * the copy shows as 'S' on OLD, a write error on NEW as 'D' or 'S'.
 * The status is read a few times a second: that is the progress display, not
 * how failures are found (they show in the same status line).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dm.h"
#include "replace.h"

static volatile sig_atomic_t abort_asked;

static void on_signal(int sig)
{
	(void)sig;
	abort_asked = 1;
}

void rpl_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void rpl_crash_point(const char *point)
{
	const char *want = getenv("BDSADM_TEST_CRASH_AT");
	const char *kill_at = getenv("BDSADM_TEST_KILL_AT");
	FILE *f;

	if (kill_at && !strcmp(kill_at, point)) {
		fprintf(stderr, "bdsadm: BDSADM_TEST_KILL_AT=%s: killed here (a test hook)\n",
			point);
		fflush(stderr);
		raise(SIGKILL);
	}
	if (!want || strcmp(want, point))
		return;
	fprintf(stderr, "bdsadm: BDSADM_TEST_CRASH_AT=%s: cutting the power here (a test hook)\n",
		point);
	fflush(stderr);
	f = fopen("/proc/sysrq-trigger", "w");
	if (f) {
		fputc('b', f);
		fclose(f);
	}
	sleep(10);
	fprintf(stderr, "bdsadm: the power cut at %s did not happen\n", point);
	exit(99);
}

/* Parse a mirror status line; false if it is not one. */
static bool parse_status(const char *line, u64 *insync, u64 *regions,
			 char *health, size_t sz)
{
	char *copy = strdup(line), *save = NULL, *tok;
	unsigned long legs, i;
	bool ok = false;

	if (!copy)
		return false;
	tok = strtok_r(copy, " ", &save);
	if (!tok)
		goto out;
	legs = strtoul(tok, NULL, 10);
	for (i = 0; i < legs && tok; i++)
		tok = strtok_r(NULL, " ", &save);
	tok = tok ? strtok_r(NULL, " ", &save) : NULL;
	if (!tok || sscanf(tok, "%llu/%llu", (unsigned long long *)insync,
			   (unsigned long long *)regions) != 2)
		goto out;
	tok = strtok_r(NULL, " ", &save);	/* #health args */
	tok = tok ? strtok_r(NULL, " ", &save) : NULL;
	if (!tok || strlen(tok) != legs)
		goto out;
	snprintf(health, sz, "%s", tok);
	ok = *regions > 0;
out:
	free(copy);
	return ok;
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void show(const struct rpl_copy *c, u64 insync, u64 regions,
		 double secs, bool last)
{
	double frac = (double)insync / (double)regions;
	double mb = frac * (double)c->sectors * 512 / 1e6;
	double rate = secs > 0 ? mb / secs : 0;
	double eta = rate > 0 ? ((double)c->sectors * 512 / 1e6 - mb) / rate : 0;
	char bar[41];
	int i, n = (int)(frac * 40);

	if (c->tty) {
		for (i = 0; i < 40; i++)
			bar[i] = i < n ? '#' : '.';
		bar[40] = 0;
		fprintf(stderr, "\r  [%s] %5.1f%%  %.0f MB  %.1f MB/s  ETA %.0f s ",
			bar, frac * 100, mb, rate, eta);
		if (last)
			fputc('\n', stderr);
	} else {
		fprintf(stderr, "bdsadm: copied %.1f%% (%.0f MB), %.1f MB/s, ETA %.0f s\n",
			frac * 100, mb, rate, eta);
	}
}

/* OLD's leg failed a read ('S' in the copy, 'R' serving one). */
static bool old_read_failed(const char *health)
{
	return (health[0] == 'S' || health[0] == 'R') &&
	       strspn(health + 1, "A") == strlen(health + 1);
}

enum rpl_result rpl_wait_sync(struct rpl_copy *c, char *health, size_t sz)
{
	struct timespec moved;
	double last_shown = -10;
	char line[1024];
	u64 insync = 0, regions = 1, before = 0;

	if (!c->t0.tv_sec && !c->t0.tv_nsec)
		clock_gettime(CLOCK_MONOTONIC, &c->t0);
	clock_gettime(CLOCK_MONOTONIC, &moved);
	for (;;) {
		if (abort_asked)
			return RPL_ABORTED;
		if (!bds_dm_status(c->mirror, line, sizeof(line)) ||
		    !parse_status(line, &insync, &regions, health, sz)) {
			snprintf(health, sz, "status unreadable");
			return RPL_FAILED;
		}
		c->insync = insync;
		c->regions = regions;
		if (strspn(health, "A") != strlen(health)) {
			if (!c->ignore_read || !old_read_failed(health))
				return RPL_FAILED;
			if (!c->read_error) {
				c->read_error = true;
				return RPL_READ_ERROR;
			}
		}
		if (insync != before) {
			before = insync;
			clock_gettime(CLOCK_MONOTONIC, &moved);
		}
		if (2 * insync >= regions)
			rpl_crash_point("copy-half");
		if (insync + c->missing >= regions) {
			show(c, insync, regions, since(&c->t0), true);
			return RPL_IN_SYNC;
		}
		if (c->read_error && since(&moved) > RPL_STALL_SECS) {
			show(c, insync, regions, since(&c->t0), true);
			return RPL_STALLED;
		}
		if (c->tty || since(&c->t0) - last_shown >= 5) {
			show(c, insync, regions, since(&c->t0), false);
			last_shown = since(&c->t0);
		}
		usleep(c->tty ? 200000 : 500000);
	}
}
