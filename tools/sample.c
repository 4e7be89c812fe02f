// SPDX-License-Identifier: GPL-2.0
/*
 * A sample of stripe units read through two devices (see sample.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../libbds/crc32c.h"
#include "../libbds/label.h"
#include "sample.h"

/* A unit is read in pieces of at most this many bytes. */
#define SAMPLE_PIECE	(1U << 20)

bool bds_sample_pick(struct bds_sample *s, u64 unit_sectors, u64 units,
		     u32 members)
{
	u32 max = 3 * members + BDS_SAMPLE_SPREAD, i;
	u64 k;

	memset(s, 0, sizeof(*s));
	s->unit_sectors = unit_sectors;
	s->unit = calloc(max, sizeof(*s->unit));
	s->sum = calloc(max, sizeof(*s->sum));
	if (!s->unit || !s->sum) {
		bds_sample_free(s);
		return false;
	}
	for (k = 0; k < units && k < 2 * members; k++)
		s->unit[s->n++] = k;
	for (k = units > members ? units - members : 0; k < units; k++)
		if (k >= 2 * members)
			s->unit[s->n++] = k;
	for (i = 1; i < BDS_SAMPLE_SPREAD && units > 3 * members; i++)
		s->unit[s->n++] = units * i / BDS_SAMPLE_SPREAD;
	return true;
}

void bds_sample_free(struct bds_sample *s)
{
	free(s->unit);
	free(s->sum);
	s->unit = NULL;
	s->sum = NULL;
	s->n = 0;
}

/* Read @len bytes at @at in pieces of at most @bufsz: their crc32c. */
static int read_sum(int fd, void *buf, size_t bufsz, off_t at, size_t len,
		    u32 *sum, bool *zero)
{
	u32 crc = ~0U;

	*zero = true;
	while (len) {
		size_t n = len < bufsz ? len : bufsz;
		ssize_t got = pread(fd, buf, n, at);

		if (got != (ssize_t)n) {
			if (got >= 0)
				errno = EIO;
			return -1;
		}
		crc = bds_crc32c_raw(crc, buf, n);
		*zero = *zero && bds_bytes_zero(buf, n);
		at += (off_t)n;
		len -= n;
	}
	*sum = ~crc;
	return 0;
}

long bds_sample_read(struct bds_sample *s, const char *path, bool compare)
{
	size_t len = s->unit_sectors * 512;
	size_t bufsz = len < SAMPLE_PIECE ? len : SAMPLE_PIECE;
	long rc = (long)s->n;
	bool zero;
	void *buf;
	u32 i, sum;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (posix_memalign(&buf, 4096, bufsz)) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < s->n; i++) {
		if (read_sum(fd, buf, bufsz, (off_t)(s->unit[i] * len), len,
			     &sum, &zero)) {
			rc = -1;
			break;
		}
		if (compare && sum != s->sum[i]) {
			rc = i;
			break;
		}
		if (!compare) {
			s->sum[i] = sum;
			s->nonzero += !zero;
		}
	}
	free(buf);
	close(fd);
	return rc;
}
