// SPDX-License-Identifier: GPL-2.0
/*
 * The copy loop of bdsadm grow (see grow.h): windows of stripe units from
 * their old places to their new ones, each held by the target while it
 * is copied, and checkpoints written to the labels before the target is
 * told (Documentation/bds-stripe-restripe.rst, The crash argument).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bdsadm.h"
#include "dm.h"
#include "grow.h"
#include "replace.h"

static volatile sig_atomic_t pause_asked;

static void on_signal(int sig)
{
	(void)sig;
	pause_asked = 1;
}

void grow_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* "reshape <verb> <unit>" to the target; 0 or -errno. */
static int tell(struct grow *g, const char *verb, u64 unit)
{
	char msg[64];

	snprintf(msg, sizeof(msg), "reshape %s %llu", verb,
		 (unsigned long long)unit);
	return bds_dm_message(g->name, msg, NULL, 0);
}

static bool io_all(int fd, u8 *buf, u64 sectors, u64 at, bool write)
{
	size_t len = (size_t)(sectors << 9), done = 0;
	ssize_t n;

	while (done < len) {
		n = write ? pwrite(fd, buf + done, len - done, (off_t)((at << 9) + done)) :
			    pread(fd, buf + done, len - done, (off_t)((at << 9) + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

/*
 * Where each member's part of a window lies in a buffer of its geometry:
 * member m's range [ps, pe) of the window at @at[m] sectors in.
 */
struct parts {
	bool has[BDS_MAX_MEMBERS];
	u64 ps[BDS_MAX_MEMBERS], pe[BDS_MAX_MEMBERS], at[BDS_MAX_MEMBERS];
};

static void layout_parts(const struct grow *g, const struct bds_geom *geo,
			 u64 s0, u64 s1, struct parts *p)
{
	u64 at = 0;
	u32 m;

	for (m = 0; m < g->vol.nr_members; m++) {
		p->has[m] = bds_geom_member_range(geo, s0, s1, m, &p->ps[m],
						  &p->pe[m]);
		p->at[m] = at;
		if (p->has[m])
			at += p->pe[m] - p->ps[m];
	}
}

/* Read (or write) every member's part @p of a window, in @buf. */
static int parts_io(struct grow *g, const struct parts *p, u8 *buf, bool write)
{
	u32 m;

	for (m = 0; m < g->vol.nr_members; m++) {
		if (p->has[m] &&
		    !io_all(g->dev[m].fd, buf + (p->at[m] << 9),
			    p->pe[m] - p->ps[m], p->ps[m], write))
			return grow_refuse(g, "member %u (%s): cannot %s sectors %llu to %llu (%s); the restripe stops at stripe unit %llu, nothing is lost",
					   m, g->dev[m].path, write ? "write" : "read",
					   (unsigned long long)p->ps[m],
					   (unsigned long long)p->pe[m],
					   strerror(errno),
					   (unsigned long long)g->ckpt);
	}
	return 0;
}

/* Copy units [@u0, @u1) from their old places to their new ones. */
static int copy_window(struct grow *g, u64 u0, u64 u1)
{
	u64 chunk = g->g_new.layout.chunk, s0 = u0 * chunk, s1 = u1 * chunk;
	struct parts po, pn;
	u64 u, pso, psn;
	u32 mo, mn;

	layout_parts(g, &g->g_old, s0, s1, &po);
	layout_parts(g, &g->g_new, s0, s1, &pn);
	if (parts_io(g, &po, g->old_buf, false))
		return -1;
	/* each unit from its old member's part to its new member's */
	for (u = u0; u < u1; u++) {
		bds_geom_map(&g->g_old, u * chunk, &mo, &pso);
		bds_geom_map(&g->g_new, u * chunk, &mn, &psn);
		memcpy(g->new_buf + ((pn.at[mn] + psn - pn.ps[mn]) << 9),
		       g->old_buf + ((po.at[mo] + pso - po.ps[mo]) << 9),
		       (size_t)(chunk << 9));
	}
	return parts_io(g, &pn, g->new_buf, true) ? -1 : 0;
}

/* Flush every member's cache: the copies behind a checkpoint are durable. */
static int flush_members(struct grow *g)
{
	u32 m;

	for (m = 0; m < g->vol.nr_members; m++)
		if (fdatasync(g->dev[m].fd))
			return grow_refuse(g, "member %u (%s): cannot flush its cache (%s); the restripe stops at stripe unit %llu, nothing is lost",
					   m, g->dev[m].path, strerror(errno),
					   (unsigned long long)g->ckpt);
	return 0;
}

static double since(const struct timespec *a)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - a->tv_sec) +
	       (double)(now.tv_nsec - a->tv_nsec) / 1e9;
}

/* With --rate, wait until the copy is no faster than asked. */
static void pace(struct grow *g)
{
	double want, took;
	struct timespec ts;

	if (g->rate <= 0)
		return;
	want = (double)(g->copied * g->g_new.layout.chunk * 512) / g->rate;
	took = since(&g->t0);
	if (want <= took)
		return;
	want -= took;
	ts.tv_sec = (time_t)want;
	ts.tv_nsec = (long)((want - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR && !pause_asked)
		;
}

/* How far: a line redrawn on a terminal, else one every 10 seconds. */
static void progress(struct grow *g, bool last)
{
	u64 total = g->g_old.units, done;
	double secs = since(&g->t0), rate, left;

	if (!g->tty && !last && since(&g->last) < 10)
		return;
	clock_gettime(CLOCK_MONOTONIC, &g->last);
	done = g->rs.dir == BDS_RESHAPE_FORWARD ? g->pos : total - g->pos;
	rate = secs > 0 ? (double)(g->copied * g->g_new.layout.chunk * 512) / secs : 0;
	left = rate > 0 ? (double)((total - done) * g->g_new.layout.chunk * 512) / rate : 0;
	fprintf(stderr, "%sbdsadm: grow %s: %5.1f%% (stripe unit %llu of %llu), %.1f MB/s, %.0f s left%s",
		g->tty ? "\r" : "", g->name,
		total ? 100.0 * (double)done / (double)total : 100.0,
		(unsigned long long)g->pos, (unsigned long long)total,
		rate / 1e6, left, g->tty && !last ? "" : "\n");
	fflush(stderr);
}

/*
 * Checkpoint @b: the copies behind it are flushed, every label says @b,
 * and then the target maps those units to their new places.  Returns 0;
 * GROW_BAND_DROPPED when the target no longer held the band (a suspend
 * let it go: Documentation/bds-stripe.rst) and the labels say its
 * checkpoint again, so that the band is held and copied again; -1 when
 * it failed and the labels say the target's checkpoint again (the held
 * writes may go to the old places); -2 when the labels could not be put
 * back (the writes must stay held).
 */
#define GROW_BAND_DROPPED	1
static int checkpoint(struct grow *g, u64 b)
{
	bool dropped = false;
	int r;

	rpl_crash_point("grow-copied");
	if (flush_members(g))
		return -1;
	if (!grow_write_checkpoint(g, b)) {
		rpl_crash_point("grow-labelled");
		r = tell(g, "checkpoint", b);
		if (!r) {
			g->ckpt = b;
			return 0;
		}
		dropped = r == -ERANGE;
		if (!dropped)
			grow_refuse(g, "the target refused checkpoint %llu (%s; dmesg says why); putting the labels back to %llu",
				    (unsigned long long)b, strerror(-r),
				    (unsigned long long)g->ckpt);
	}
	/* some labels may say @b: back to the target's checkpoint first */
	if (grow_write_checkpoint(g, g->ckpt)) {
		grow_refuse(g, "the labels could not be put back to stripe unit %llu: writes to stripe units %llu to %llu stay held until the labels can be written; do not suspend or reload %s",
			    (unsigned long long)g->ckpt,
			    (unsigned long long)(b < g->ckpt ? b : g->ckpt),
			    (unsigned long long)(b < g->ckpt ? g->ckpt : b) - 1,
			    g->name);
		return -2;
	}
	return dropped ? GROW_BAND_DROPPED : -1;
}

/*
 * The band from the checkpoint to where the copy got was let go (a
 * suspend, bds_presuspend()): copy it again from the checkpoint.
 */
static void band_again(struct grow *g)
{
	u64 lo = g->pos < g->ckpt ? g->pos : g->ckpt;
	u64 hi = g->pos < g->ckpt ? g->ckpt : g->pos;

	fprintf(stderr, "%sbdsadm: grow %s: the target let stripe units %llu to %llu go (the volume was suspended): copying them again\n",
		g->tty ? "\n" : "", g->name, (unsigned long long)lo,
		(unsigned long long)hi - 1);
	g->copied -= hi - lo <= g->copied ? hi - lo : g->copied;
	g->pos = g->ckpt;
}

/* Bands let go by suspends in a row that the copy takes again. */
#define GROW_AGAIN_MAX	8

int grow_copy(struct grow *g)
{
	struct bds_reshape_sched s;
	struct bds_reshape_step st;
	u64 every = 0;
	int r, again = 0;

	/* with a rate, a checkpoint about every second of it (held writes wait for one) */
	if (g->rate > 0)
		every = (u64)(g->rate / 512);
	bds_reshape_sched_init(&s, g->g_new.layout.chunk, g->window_sectors, every);
	clock_gettime(CLOCK_MONOTONIC, &g->t0);
	g->last = g->t0;
	g->pos = g->ckpt;
	while (g->ckpt != g->end) {
		if (pause_asked) {
			tell(g, "hold", g->ckpt);
			g->pos = g->ckpt;
			progress(g, true);
			return 1;
		}
		if (!bds_reshape_next(&g->rs, &s, g->ckpt, g->pos, &st)) {
			grow_refuse(g, "the restripe cannot move on from stripe unit %llu: the new data would land on old data not yet copied (a member lacks room); nothing was changed",
				    (unsigned long long)g->ckpt);
			return -1;	/* not grow_refuse()'s 1: that is a pause */
		}
		r = tell(g, "hold", g->rs.dir == BDS_RESHAPE_FORWARD ? st.end : st.start);
		if (r) {
			tell(g, "hold", g->ckpt);
			grow_refuse(g, "the target refused to hold stripe units %llu to %llu (%s; dmesg says why); the restripe stops at %llu, nothing is lost",
				    (unsigned long long)st.start,
				    (unsigned long long)st.end - 1,
				    strerror(-r), (unsigned long long)g->ckpt);
			return -1;
		}
		if (copy_window(g, st.start, st.end)) {
			tell(g, "hold", g->ckpt);
			return -1;
		}
		g->copied += st.end - st.start;
		g->pos = g->rs.dir == BDS_RESHAPE_FORWARD ? st.end : st.start;
		r = st.checkpoint ? checkpoint(g, st.ckpt) : 0;
		if (r == GROW_BAND_DROPPED && again++ < GROW_AGAIN_MAX) {
			band_again(g);
			continue;
		}
		if (r == GROW_BAND_DROPPED)
			grow_refuse(g, "the target let the band at stripe unit %llu go %d times in a row (the volume is suspended again and again?); the labels say %llu again: 'bdsadm grow --continue %s' carries it on",
				    (unsigned long long)g->ckpt, GROW_AGAIN_MAX + 1,
				    (unsigned long long)g->ckpt, g->name);
		if (r) {
			if (r != -2)
				tell(g, "hold", g->ckpt);
			return -1;
		}
		if (st.checkpoint)
			again = 0;
		progress(g, false);
		pace(g);
	}
	progress(g, true);
	return 0;
}
