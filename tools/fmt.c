// SPDX-License-Identifier: GPL-2.0
/*
 * Output helpers of bdsadm (see fmt.h).
 */
#include <time.h>

#include "fmt.h"

const char *bds_human(u64 bytes, char *buf, size_t sz)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB",
					    "PiB", "EiB" };
	int u = 0;
	u64 div = 1;

	while (u < 6 && bytes >= div * 1024) {
		div *= 1024;
		u++;
	}
	if (bytes % div == 0)
		snprintf(buf, sz, "%llu %s", (unsigned long long)(bytes / div),
			 unit[u]);
	else
		snprintf(buf, sz, "%llu.%02llu %s",
			 (unsigned long long)(bytes / div),
			 (unsigned long long)(((bytes % div) >> 10) * 100 /
					      (div >> 10)), unit[u]);
	return buf;
}

const char *bds_time(u64 seconds, char *buf, size_t sz)
{
	time_t t = (time_t)seconds;
	struct tm tm;

	if ((u64)t != seconds || !gmtime_r(&t, &tm) ||
	    !strftime(buf, sz, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, sz, "%llu s after 1970", (unsigned long long)seconds);
	return buf;
}

void bds_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

const char *bds_mid(const char *s, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s", s);
	if (sz && buf[0] >= 'A' && buf[0] <= 'Z' &&
	    !(buf[1] >= 'A' && buf[1] <= 'Z'))
		buf[0] = (char)(buf[0] - 'A' + 'a');
	return buf;
}
