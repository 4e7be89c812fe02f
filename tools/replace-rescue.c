// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm replace --ignore-read-errors: copy a member whose disk cannot
 * read some blocks (see replace.h).
 *
 * dm-mirror must never meet one of those blocks.  Once its source leg
 * fails a read, it fails every read of a region it has not copied yet
 * and holds back every write to one: the volume would stop working
 * under its users.  So the blocks are found first, and the mirror is
 * built around them:
 *  1. rpl_find_bad() reads all of OLD with check's reader and lists the
 *     unreadable ranges (by member and by volume sector), and the mirror
 *     regions (512 KiB) that hold them;
 *  2. with the volume suspended (no write can race the copy), those
 *     regions are copied to NEW block by block, zeros where OLD cannot
 *     be read (rpl_copy_regions());
 *  3. the mirror's table is cut into segments (rpl_segments(), in
 *     replace-seg.c with rpl_bad_regions()): the
 *     stretches between those regions are mirrors that copy OLD to NEW
 *     as usual; each such region is a mirror marked in sync, with NEW
 *     first, so that it is read from NEW (what was saved) and written to
 *     both legs, and its unreadable blocks are never read again.
 * A block that becomes unreadable after the scan fails the copy as
 * without the option, and the volume goes back on OLD.
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
#include "dm.h"
#include "plan.h"
#include "replace.h"

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

	out = -1;
	in = open(pt->old, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (in >= 0)
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

int rpl_find_bad(struct rpl *x)
{
	size_t n;

	bds_err("replace %s: --ignore-read-errors: reading all of %s first, to find what it cannot read:",
		x->name, x->old_node);
	if (bds_check_table_member(&x->vol, x->p, x->old_node, &x->bad))
		return rpl_refuse(x, "%s could not be read to list what is unreadable; nothing was changed",
				  x->old_node);
	n = rpl_bad_regions(x->bad.bad, x->bad.nbad, RPL_REGION, NULL, 0);
	if (n > RPL_MAX_BAD_REGIONS)
		return rpl_refuse(x, "%s has unreadable blocks in %zu of its 512 KiB regions, more than the %u a replace copies around; nothing was changed: copy the member off line (ddrescue) instead",
				  x->old_node, n, RPL_MAX_BAD_REGIONS);
	x->nreg = rpl_bad_regions(x->bad.bad, x->bad.nbad, RPL_REGION,
				  x->reg, RPL_MAX_BAD_REGIONS);
	if (!x->nreg)
		bds_info("replace %s: %s reads in full: a plain replace",
		       x->name, x->old_node);
	return BDS_EXIT_OK;
}

int rpl_save_regions(struct rpl *x)
{
	struct rpl_patch pt = {
		.old = x->old_node, .new = x->new_node,
		.old_off = x->vol.offset[x->p],
		.new_off = x->next.member_offset[x->p],
		.len = bds_label_member_data(x->r.label, x->p),
		.region = RPL_REGION,
		.reg = x->reg, .nreg = x->nreg,
	};
	int rc;

	if (!x->nreg)
		return 0;
	rc = rpl_copy_regions(&pt);
	x->zeroed = pt.zeroed;
	return rc;
}

int rpl_mirror_table(const struct rpl *x, struct rpl_table *t)
{
	struct rpl_seg seg[RPL_MAX_SEGS];
	size_t i;

	t->n = rpl_segments(x->reg, x->nreg, RPL_REGION,
			    bds_label_member_data(x->r.label, x->p), seg,
			    RPL_MAX_SEGS);
	if (t->n > RPL_MAX_SEGS)
		return -E2BIG;
	for (i = 0; i < t->n; i++) {
		rpl_mirror_params(x, &seg[i], t->params[i],
				  sizeof(t->params[i]));
		t->t[i] = (struct bds_dm_tgt){ seg[i].start, seg[i].len,
					       "mirror", t->params[i] };
	}
	return 0;
}
