// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: bds_layout_init() on raw numbers, then the mapping.
 *
 * Input, read front to back (missing bytes read as zero):
 *   u8  flags    bit 0: mode is sequential; bit 1: mode is a raw u32
 *                (usually invalid); bit 2: chunk is a raw u64, else
 *                8 x u16 (usually valid)
 *   u32 mode     only when flags bit 1
 *   u64 chunk | u16 chunk / 8
 *   u8  #groups  raw, 0..255 (more than 32 is refused)
 *   per group:   u8 size; 0xff means "a raw u32 follows"
 *   u64 length selector (see fuzz_pick_len())
 *   u64...       up to 16 sample values for sectors and ranges
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz-check.h"

struct reader {
	const uint8_t *p;
	size_t left;
};

static u64 take(struct reader *r, unsigned int bytes)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++) {
		v |= (u64)(r->left ? *r->p : 0) << (8 * i);
		if (r->left) {
			r->p++;
			r->left--;
		}
	}
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, size };
	struct bds_layout layout, before;
	u32 sizes[256], mode, nr_groups, g;
	u64 chunk, len, seeds[16];
	unsigned int nseeds = 0;
	enum bds_geom_err gerr, want;
	u8 flags;

	flags = (u8)take(&r, 1);
	mode = flags & 1;
	if (flags & 2)
		mode = (u32)take(&r, 4);
	if (flags & 4)
		chunk = take(&r, 8);
	else
		chunk = 8 * take(&r, 2);
	nr_groups = (u32)take(&r, 1);
	for (g = 0; g < nr_groups; g++) {
		sizes[g] = (u32)take(&r, 1);
		if (sizes[g] == 0xff)
			sizes[g] = (u32)take(&r, 4);
	}

	memset(&layout, 0x5a, sizeof(layout));
	before = layout;
	gerr = bds_layout_init(&layout, chunk, sizes, nr_groups,
			       (enum bds_order_mode)mode);
	want = fuzz_expected_geom(chunk, sizes, nr_groups, mode);
	FUZZ_CHECK(gerr == want, "bds_layout_init says %d (%s), expected %d (%s)",
		   gerr, bds_geom_error(gerr), want, bds_geom_error(want));
	if (gerr != BDS_OK) {
		FUZZ_CHECK(!memcmp(&layout, &before, sizeof(layout)),
			   "refused geometry wrote to the layout");
		return 0;
	}
	fuzz_check_order(&layout, chunk, sizes, nr_groups, mode);

	len = fuzz_pick_len(&layout, take(&r, 8));
	/* a length that is not whole stripes is refused */
	{
		u64 ml;

		if (len > bds_width(&layout))
			FUZZ_CHECK(!bds_member_len(&layout, len - 1, &ml),
				   "length %llu accepted",
				   (unsigned long long)(len - 1));
		FUZZ_CHECK(!bds_member_len(&layout, 0, &ml),
			   "length 0 accepted");
	}
	while (r.left && nseeds < 16)
		seeds[nseeds++] = take(&r, 8);
	fuzz_check_mapping(&layout, len, seeds, nseeds);
	return 0;
}
