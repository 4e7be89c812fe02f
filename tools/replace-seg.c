// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm replace --ignore-read-errors: the arithmetic of the mirror's
 * segments (see replace.h and replace-rescue.c), pure C so that the unit
 * tests compile it too.
 */
#include "check.h"
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

size_t rpl_segments(const u64 *reg, size_t nreg, u32 region, u64 len,
		    struct rpl_seg *out, size_t max)
{
	size_t i, n = 0;
	u64 at = 0;

	for (i = 0; i <= nreg; i++) {
		u64 s = i < nreg ? reg[i] * region : len;

		if (s > len)
			s = len;
		if (s > at) {		/* the stretch before it: copied */
			if (n < max)
				out[n] = (struct rpl_seg){ at, s - at, false };
			n++;
		}
		if (i == nreg || s == len)
			break;
		if (n < max)		/* the region itself: saved */
			out[n] = (struct rpl_seg){ s, s + region > len ?
						   len - s : region, true };
		n++;
		at = s + region;
	}
	return n;
}
