// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm check: reading one member (see check.h).
 *
 * O_DIRECT, so the page cache neither hides a bad sector nor is filled
 * with the whole disk; CHK_READ_SECTORS at a time.  A read that fails is
 * split in halves, again and again, down to the logical block size, so
 * only the blocks that cannot be read are reported.  --rate: after each
 * read the tool sleeps until the bytes read so far are not ahead of the
 * rate since the start.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bdsadm.h"
#include "check.h"
#include "fmt.h"
#include "plan.h"

struct reader {
	struct chk *c;
	u32 m;
	int fd;
	u64 offset;			/* the member's data offset, sectors */
	u32 lbs;			/* logical block, sectors */
	void *buf;
};

static double since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) +
	       (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

void chk_progress(struct chk *c, u32 m, bool last)
{
	double secs = since(&c->t0), pct;
	char done[32], total[32];

	if (!last && since(&c->shown) < (c->tty ? 0.25 : 10))
		return;
	clock_gettime(CLOCK_MONOTONIC, &c->shown);
	pct = c->total ? 100.0 * (double)c->done / (double)c->total : 100;
	bds_human(c->done << 9, done, sizeof(done));
	bds_human(c->total << 9, total, sizeof(total));
	fprintf(stderr, "%scheck %s: %5.1f%% member %u of %u, %s of %s, %.1f MB/s, %zu unreadable range%s%s",
		c->tty ? "\r" : "", c->vol->name, pct, m, c->vol->nr_members,
		done, total, secs > 0 ? (double)(c->done << 9) / secs / 1e6 : 0,
		c->nbad, c->nbad == 1 ? "" : "s",
		c->tty && !last ? "  " : "\n");
}

static void throttle(struct chk *c)
{
	double ahead;

	if (c->rate <= 0)
		return;
	ahead = (double)(c->done << 9) / c->rate - since(&c->t0);
	if (ahead > 0)
		usleep((useconds_t)(ahead * 1e6));
}

static void add_bad(struct chk *c, u32 m, u64 start, u64 len)
{
	struct chk_range *r = c->nbad ? &c->bad[c->nbad - 1] : NULL;

	if (r && r->member == m && r->end == start) {
		r->end += len;
		return;
	}
	if (c->nbad == c->maxbad) {
		size_t max = c->maxbad ? 2 * c->maxbad : 16;

		r = realloc(c->bad, max * sizeof(*r));
		if (!r) {
			c->nomem = true;
			return;
		}
		c->bad = r;
		c->maxbad = max;
	}
	c->bad[c->nbad++] = (struct chk_range){ m, start, start + len };
}

static bool read_ok(struct reader *r, u64 start, u64 len)
{
	ssize_t n;

	do
		n = pread(r->fd, r->buf, (size_t)(len << 9),
			  (off_t)((r->offset + start) << 9));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)(len << 9);
}

/* [start, start + len) failed as a whole: find its unreadable blocks. */
static void bisect(struct reader *r, u64 start, u64 len)
{
	u64 half;

	if (len <= r->lbs) {
		add_bad(r->c, r->m, start, len);
		return;
	}
	half = len / 2 / r->lbs * r->lbs;
	if (!half)
		half = r->lbs;
	if (!read_ok(r, start, half))
		bisect(r, start, half);
	if (!read_ok(r, start + half, len - half))
		bisect(r, start + half, len - half);
}

int chk_member(struct chk *c, u32 m, const char *path)
{
	struct reader r = { c, m, -1, c->vol->offset[m], 1, NULL };
	u64 s, n, len = chk_member_len(c, m);
	int lbs = 512;

	r.fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (r.fd < 0) {
		bds_err("member %u (%s): cannot open it: %s; its %llu sectors are not checked",
			m, path, strerror(errno), U(len));
		return -1;
	}
	if (!ioctl(r.fd, BLKSSZGET, &lbs) && lbs >= 512)
		r.lbs = (u32)lbs >> 9;
	if (posix_memalign(&r.buf, 4096, CHK_READ_SECTORS << 9)) {
		close(r.fd);
		bds_err("out of memory");
		return -1;
	}
	for (s = 0; s < len; s += n) {
		n = len - s;
		if (n > CHK_READ_SECTORS)
			n = CHK_READ_SECTORS;
		if (!read_ok(&r, s, n))
			bisect(&r, s, n);
		c->done += n;
		chk_progress(c, m, false);
		throttle(c);
	}
	free(r.buf);
	close(r.fd);
	return 0;
}
