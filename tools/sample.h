/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stripe units read through one device and then another, to prove that
 * two ways of reading a volume (md's array and a bds-stripe table of its
 * members, for bdsadm adopt and release) give the same bytes: a crc32c
 * of each unit of a sample spread over the whole volume.
 */
#ifndef BDS_SAMPLE_H
#define BDS_SAMPLE_H

#include <stdbool.h>

#include "../libbds/compat.h"

/* Units sampled beside the first 2N and the last N. */
#define BDS_SAMPLE_SPREAD	192

struct bds_sample {
	u64 unit_sectors;
	u64 *unit;		/* the units, in volume order of choice */
	u32 *sum;		/* their crc32c, as first read */
	u32 n;
	u32 nonzero;		/* units that held data when first read */
};

/*
 * The units of a volume of @units stripe units of @unit_sectors over
 * @members members: the first 2 x @members, the last @members, and
 * BDS_SAMPLE_SPREAD - 1 spread over the rest.  Returns false when out
 * of memory.
 */
bool bds_sample_pick(struct bds_sample *s, u64 unit_sectors, u64 units,
		     u32 members);
void bds_sample_free(struct bds_sample *s);

/*
 * Read the sample through @path (O_DIRECT): record the sums (@compare
 * false) or compare with them.  Returns s->n when all were read (and
 * agree), the index of the first unit that differs, or -1 with errno on
 * a read error.
 */
long bds_sample_read(struct bds_sample *s, const char *path, bool compare);

#endif /* BDS_SAMPLE_H */
