// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the dm-log-writes log reader of the power-cut tests
 * (tests/logwrites/logw.h), which bds-logreplay runs over logs it reads from
 * a device.
 *
 * The input is a whole log image.  It is read twice: as it is, and with
 * the super fixed up (magic and version forced, the sector size 512 <<
 * (byte 8 of the input mod 4), nr_entries kept) so that random inputs
 * reach the entries.  The reader walks the entries as bds-logreplay does.
 *
 * Properties; any violation calls abort():
 *  1. No crash, overread or undefined behaviour, whatever the bytes.
 *  2. An accepted super has a sector size that is a power of two from 512
 *     to 65536, and no more entries than blocks after the super.
 *  3. Every accepted entry starts where the previous one ended, its block
 *     and its data lie inside the log, the next entry starts after it,
 *     and a mark's name is NUL-terminated within its block; so the walk
 *     ends after at most nr_entries steps, each inside the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../logwrites/logw.h"

static void walk(const uint8_t *log, size_t size)
{
	static struct logw_entry e;
	struct logw_super s;
	uint64_t pos, i;

	if (logw_read_super(log, size, size, &s) != LOGW_OK)
		return;
	if (s.sectorsize < 512 || s.sectorsize > LOGW_MAX_BLOCK ||
	    (s.sectorsize & (s.sectorsize - 1)) ||
	    s.nr_entries > size / s.sectorsize)
		abort();
	for (i = 0, pos = s.sectorsize; i < s.nr_entries; i++) {
		if (pos > size || size - pos < s.sectorsize)
			return;		/* bds-logreplay stops here too */
		if (logw_read_entry(&s, log + pos, pos, size, &e) != LOGW_OK)
			return;
		if (e.pos != pos || e.data_pos != pos + s.sectorsize ||
		    e.next <= pos || e.next > size ||
		    (logw_has_data(&e) &&
		     e.next - e.data_pos != e.nr_sectors * s.sectorsize))
			abort();
		if ((e.flags & LOGW_MARK) ?
		    strlen(e.mark) > e.data_len ||
		    e.data_len >= s.sectorsize - LOGW_ENTRY_HEAD : e.mark[0])
			abort();
		pos = e.next;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;
	uint64_t v;
	uint32_t ss;

	if (size > (4u << 20))
		return 0;
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	walk(copy, size);
	if (size >= 28) {
		ss = 512u << (data[8] % 4);
		v = htole64(LOGW_MAGIC);
		memcpy(copy, &v, 8);
		v = htole64(LOGW_VERSION);
		memcpy(copy + 8, &v, 8);
		ss = htole32(ss);
		memcpy(copy + 24, &ss, 4);
		walk(copy, size);
	}
	free(copy);
	return 0;
}
