// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm replace --ignore-read-errors: the regions the mirror could not
 * copy (see replace.h).
 *
 * dm-mirror's recovery copies OLD to NEW region after region.  A region
 * it cannot read from OLD stays out of sync: the recovery goes on with
 * the next one, and writes to that region go to OLD alone.  Once every
 * other region is in sync, replace.c suspends the volume (no write can
 * race the copy below), copies each such region here, block by block
 * with zeros where OLD cannot be read, and reloads the mirror "nosync"
 * so that from then on every write goes to both legs; then the volume
 * resumes and the replace ends as any other.
 *
 * The regions are the ones holding a block that bdsadm check's reader
 * could not read from OLD; replace.c goes on only if there are exactly
 * as many as the mirror left out of sync.
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
#include "plan.h"
#include "replace.h"

size_t rpl_bad_regions(const struct chk_range *bad, size_t nbad, u32 region,
		       u64 *out, size_t max)
{
	size_t i, n = 0;
	u64 r, last = 0;

	for (i = 0; i < nbad; i++) {
		for (r = bad[i].start / region; r <= (bad[i].end - 1) / region;
		     r++) {
			if (n && r <= last)
				continue;
			if (n < max)
				out[n] = r;
			n++;
			last = r;
		}
	}
	return n;
}

static bool pread_all(int fd, void *buf, u64 sectors, u64 at)
{
	ssize_t n;

	do
		n = pread(fd, buf, (size_t)(sectors << 9), (off_t)(at << 9));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)(sectors << 9);
}

static bool pwrite_all(int fd, const void *buf, u64 sectors, u64 at)
{
	ssize_t n;

	do
		n = pwrite(fd, buf, (size_t)(sectors << 9), (off_t)(at << 9));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)(sectors << 9);
}

/* Read [s, s + n) of OLD into @buf, zeros in the blocks it cannot read. */
static void read_or_zero(struct rpl_patch *pt, int fd, u32 lbs, char *buf,
			 u64 s, u64 n)
{
	u64 b;

	if (pread_all(fd, buf, n, pt->old_off + s))
		return;
	for (b = 0; b < n; b += lbs) {
		if (pread_all(fd, buf + (b << 9), lbs, pt->old_off + s + b))
			continue;
		memset(buf + (b << 9), 0, (size_t)lbs << 9);
		pt->zeroed += lbs;
	}
}

int rpl_copy_regions(struct rpl_patch *pt)
{
	int in, out, lbs = 512, rc = 0;
	void *buf = NULL;
	size_t i;
	u32 blk = 1;

	in = open(pt->old, O_RDONLY | O_DIRECT | O_CLOEXEC);
	out = open(pt->new, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (in < 0 || out < 0) {
		rc = -errno;
		bds_err("cannot open %s: %s", in < 0 ? pt->old : pt->new,
			strerror(errno));
		goto out;
	}
	if (!ioctl(in, BLKSSZGET, &lbs) && lbs > 512)
		blk = (u32)lbs >> 9;
	if (posix_memalign(&buf, 4096, (size_t)pt->region << 9)) {
		rc = -ENOMEM;
		bds_err("out of memory");
		goto out;
	}
	pt->zeroed = 0;
	for (i = 0; i < pt->nreg; i++) {
		u64 s = pt->reg[i] * pt->region, n = pt->region;

		if (s >= pt->len)
			continue;
		if (n > pt->len - s)
			n = pt->len - s;
		read_or_zero(pt, in, blk, buf, s, n);
		if (!pwrite_all(out, buf, n, pt->new_off + s)) {
			rc = errno ? -errno : -EIO;
			bds_err("cannot write %s at sector %llu: %s", pt->new,
				U(pt->new_off + s), strerror(-rc));
			goto out;
		}
	}
	if (fdatasync(out)) {
		rc = -errno;
		bds_err("cannot flush %s: %s", pt->new, strerror(errno));
	}
out:
	free(buf);
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return rc;
}
