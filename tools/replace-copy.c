// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm replace: wait for the mirror to bring NEW in sync, with
 * progress (see replace.h).  Each of the mirror's targets (one, or the
 * segments around OLD's unreadable blocks) says in its status how many
 * of its regions are in sync and the health of each leg:
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

#include "bdsadm.h"
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


/* Parse a mirror status line; false if it is not one. */
static bool parse_status(const char *line, char *leg0, size_t lsz,
			 u64 *insync, u64 *regions, char *health, size_t sz)
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
	for (i = 0; i < legs && tok; i++) {
		tok = strtok_r(NULL, " ", &save);
		if (!i && tok)
			snprintf(leg0, lsz, "%s", tok);
	}
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

/*
 * Sum the segments' status lines in @lines; false if one is not a mirror's.
 * A failed leg (of NEW, or of OLD but in a saved segment) leaves
 * @health set and *@failed true.
 */
static bool sum_status(struct rpl_copy *c, char *lines, char *health,
		       size_t sz, bool *failed)
{
	char *save = NULL, *line, leg0[24], h[16];
	u64 in, all;

	c->insync = c->regions = 0;
	*failed = false;
	for (line = strtok_r(lines, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		bool saved;

		leg0[0] = 0;
		if (!parse_status(line, leg0, sizeof(leg0), &in, &all, h,
				  sizeof(h)))
			return false;
		c->insync += in;
		c->regions += all;
		saved = !strcmp(leg0, c->new_dev);
		if (*failed || (saved ? h[0] == 'A' : !h[strspn(h, "A")]))
			continue;
		*failed = true;
		c->old_failed = !saved && h[0] != 'A';
		snprintf(health, sz, "%s", h);
	}
	return c->regions > 0;
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
		bds_progress("copied %.1f%% (%.0f MB), %.1f MB/s, ETA %.0f s",
			frac * 100, mb, rate, eta);
	}
}

enum rpl_result rpl_wait_sync(struct rpl_copy *c, char *health, size_t sz)
{
	double last_shown = -10;
	char lines[RPL_MAX_SEGS * 128];
	bool failed;

	if (!c->t0.tv_sec && !c->t0.tv_nsec)
		clock_gettime(CLOCK_MONOTONIC, &c->t0);
	for (;;) {
		if (abort_asked)
			return RPL_ABORTED;
		if (!bds_dm_status_all(c->mirror, lines, sizeof(lines)) ||
		    !sum_status(c, lines, health, sz, &failed)) {
			snprintf(health, sz, "status unreadable");
			return RPL_FAILED;
		}
		if (failed)
			return RPL_FAILED;
		if (2 * c->insync >= c->regions)
			rpl_crash_point("copy-half");
		if (c->insync >= c->regions) {
			show(c, c->insync, c->regions, since(&c->t0), true);
			return RPL_IN_SYNC;
		}
		if (c->tty || since(&c->t0) - last_shown >= 5) {
			show(c, c->insync, c->regions, since(&c->t0), false);
			last_shown = since(&c->t0);
		}
		usleep(c->tty ? 200000 : 500000);
	}
}
