// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm replace --ignore-read-errors: the regions the mirror could not
 * copy (see replace.h).
 *
 * dm-mirror's recovery copies OLD to NEW region after region.  A region
 * it cannot read from OLD stays out of sync: the recovery goes on with
 * the next one, and writes to that region go to OLD alone.  Once every
 * other region is in sync, rpl_rescue() suspends the volume (no write
 * can race the copy), copies each such region block by block with zeros
 * where OLD cannot be read, and reloads the mirror "nosync"
 * so that from then on every write goes to both legs; then the volume
 * resumes and the replace ends as any other.
 *
 * The regions are the ones holding a block that bdsadm check's reader
 * could not read from OLD; rpl_rescue() goes on only if there are
 * exactly as many as the mirror left out of sync.
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

/*
 * With the volume suspended: the regions @reg from OLD to NEW (zeros
 * where OLD cannot be read), then the mirror reloaded "nosync".
 */
static int patch_suspended(struct rpl *x, const u64 *reg, size_t n,
			   u64 *zeroed)
{
	struct rpl_patch pt = {
		.old = x->old_node, .new = x->new_node,
		.old_off = x->vol.offset[x->p],
		.new_off = x->next.member_offset[x->p],
		.len = x->r.label->data_sectors, .region = RPL_REGION,
		.reg = reg, .nreg = n,
	};
	char params[1024];
	int rc;

	rc = rpl_copy_regions(&pt);
	*zeroed = pt.zeroed;
	if (rc)
		return rc;
	rpl_mirror_params(x, true, params, sizeof(params));
	if (!bds_dm_swap_table(x->mirror, x->r.label->data_sectors, "mirror",
			       params)) {
		bds_dm_resume(x->mirror);
		bds_err("replace %s: device-mapper refused the mirror 0 %llu mirror %s (dmesg says why)",
			x->name, U(x->r.label->data_sectors), params);
		return -EIO;
	}
	return 0;
}

int rpl_rescue(struct rpl *x, struct rpl_copy *c)
{
	struct chk k = { 0 };
	char health[16];
	enum rpl_result res;
	u64 *reg = NULL, zeroed = 0;
	size_t n = 0;
	int rc = BDS_EXIT_FAIL;

	bds_err("replace %s: %s cannot be read in places; --ignore-read-errors: the copy goes on around them, and reading all of %s to find them:",
		x->name, x->old_node, x->old_node);
	if (bds_check_table_member(&x->vol, x->p, x->old_node, &k)) {
		rpl_put_back(x);
		rpl_refuse(x, "%s could not be read to list what is unreadable; the volume stays on %s, nothing was changed",
			   x->old_node, x->old_node);
		goto out;
	}
	n = rpl_bad_regions(k.bad, k.nbad, RPL_REGION, NULL, 0);
	reg = calloc(n ? n : 1, sizeof(*reg));
	if (!reg) {
		rpl_put_back(x);
		rpl_refuse(x, "out of memory; the volume stays on %s", x->old_node);
		goto out;
	}
	rpl_bad_regions(k.bad, k.nbad, RPL_REGION, reg, n);
	c->missing = n;
	res = rpl_wait_sync(c, health, sizeof(health));
	if (res != RPL_IN_SYNC || (c->insync != c->regions &&
				   c->insync + n != c->regions)) {
		rpl_put_back(x);
		if (res == RPL_ABORTED)
			rpl_refuse(x, "aborted; the volume stays on %s, nothing was changed",
				   x->old_node);
		else if (res == RPL_FAILED)
			rpl_refuse(x, "the copy failed (mirror health %s); the volume stays on %s, nothing was changed",
				   health, x->old_node);
		else
			rpl_refuse(x, "the mirror left %llu of its %llu regions uncopied, but %zu hold blocks that cannot be read: some read error passed, and which regions to copy again is not known; the volume stays on %s, nothing was changed: run the replace again",
				   U(c->regions - c->insync), U(c->regions), n,
				   x->old_node);
		goto out;
	}
	if (c->insync != c->regions) {
		if (!bds_dm_suspend(x->name)) {
			rpl_put_back(x);
			rpl_refuse(x, "cannot suspend the volume to copy the regions the mirror could not; it stays on %s, nothing was changed",
				   x->old_node);
			goto out;
		}
		rc = patch_suspended(x, reg, n, &zeroed);
		if (!bds_dm_resume(x->name))
			bds_err("replace %s: cannot resume the volume: run 'dmsetup resume %s'",
				x->name, x->name);
		if (rc) {
			rpl_put_back(x);
			rc = rpl_refuse(x, "the regions the mirror could not copy were not copied; the volume stays on %s, nothing was changed",
					x->old_node);
			goto out;
		}
	}
	if (c->insync == c->regions)
		printf("bdsadm: replace %s: the mirror copied every region all the same (the ranges above failed after it had read them): nothing was lost\n",
		       x->name);
	else
		printf("bdsadm: replace %s: %zu unreadable range%s of %s (%llu sectors) read as zeros on %s: the data there is lost (volume sectors above); the rest was copied\n",
		       x->name, k.nbad, k.nbad == 1 ? "" : "s", x->old_node,
		       U(zeroed), x->new_node);
	rc = BDS_EXIT_OK;
out:
	free(reg);
	free(k.bad);
	return rc;
}
