// SPDX-License-Identifier: GPL-2.0
/*
 * The table of a labelled volume (see volume.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "assemble.h"
#include "volume.h"

u64 bds_volume_length(const struct bds_label *l)
{
	return bds_label_unit(l) * bds_label_slots(l);
}

static bool append(char *buf, size_t sz, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool append(char *buf, size_t sz, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= sz)
		return false;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, sz - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sz - *len)
		return false;
	*len += (size_t)n;
	return true;
}

bool bds_volume_params(const struct bds_label *l, const char *const *devs,
		       char *buf, size_t sz)
{
	return bds_volume_params_at(l, devs, l->member_offset, true, buf, sz);
}

bool bds_volume_params_at(const struct bds_label *l, const char *const *devs,
			  const u64 *offsets, bool volume_words, char *buf,
			  size_t sz)
{
	char uuid[37];
	size_t len = 0;
	u32 g, k, i = 0;

	bds_uuid_format(l->volume_uuid, uuid);
	if (!append(buf, sz, &len, "%llu %u",
		    (unsigned long long)l->chunk_sectors, l->nr_groups))
		return false;
	for (g = 0; g < l->nr_groups; g++) {
		if (!append(buf, sz, &len, " %u", l->group_size[g]))
			return false;
		for (k = 0; k < l->group_size[g]; k++, i++)
			if (!append(buf, sz, &len, " %s %llu", devs[i],
				    (unsigned long long)offsets[i]))
				return false;
	}
	if (l->layout == BDS_LAYOUT_SEQUENTIAL)
		return append(buf, sz, &len, volume_words ?
			      " 4 layout sequential volume %s" :
			      " 2 layout sequential", uuid);
	/* the target's canonical order: layout, volume, weights */
	if (bds_label_weighted(l)) {
		if (volume_words ? !append(buf, sz, &len, " 4 volume %s weights", uuid) :
		    !append(buf, sz, &len, " 2 weights"))
			return false;
		for (i = 0; i < l->nr_members; i++)
			if (!append(buf, sz, &len, "%c%u", i ? ',' : ' ',
				    l->weight[i]))
				return false;
		return true;
	}
	return !volume_words || append(buf, sz, &len, " 2 volume %s", uuid);
}

void bds_new_uuid(u8 *u)
{
	size_t got = 0;

	while (got < BDS_UUID_LEN) {
		ssize_t n = getrandom(u + got, BDS_UUID_LEN - got, 0);

		if (n < 0 && errno != EINTR) {
			perror("bdsadm: getrandom");
			exit(1);
		}
		if (n > 0)
			got += (size_t)n;
	}
	u[6] = (u8)((u[6] & 0x0f) | 0x40);
	u[8] = (u8)((u[8] & 0x3f) | 0x80);
}

void bds_volume_dm_uuid(const struct bds_label *l, char *out, size_t sz)
{
	char uuid[37];

	bds_uuid_format(l->volume_uuid, uuid);
	snprintf(out, sz, BDS_DM_UUID_PREFIX "%s", uuid);
}
