// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers without state: names, numbers, sizes (see util.h).
 */
#include "util.h"
#include "../libbds/table.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool cat(char *buf, size_t sz, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + len, sz - len, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < sz - len;
}

const char *speed(double mbps, char *buf, size_t sz)
{
	if (mbps == (double)(u64)mbps)
		snprintf(buf, sz, "%llu MB/s", U(mbps));
	else
		snprintf(buf, sz, "%.1f MB/s", mbps);
	return buf;
}

int natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea, *eb;
			size_t la, lb;
			int c;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			c = strncmp(a, b, la);
			if (c)
				return c;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* "prefix" followed by one or more digits and nothing else */
bool is_name_num(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n) || !s[n])
		return false;
	for (s += n; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* PCI function address: DDDD:BB:DD.F (domain may be longer, e.g. VMD) */
bool is_pci_addr(const char *s)
{
	int i, n = 0;

	while (isxdigit((unsigned char)s[n]))
		n++;
	if (n < 4 || s[n] != ':')
		return false;
	s += n + 1;
	for (i = 0; i < 2; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	if (s[2] != ':')
		return false;
	s += 3;
	for (i = 0; i < 2; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return s[2] == '.' && s[3] >= '0' && s[3] <= '7' && !s[4];
}

bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
		p += n;
	}
	return false;
}

const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Parse a size: digits (bds_parse_u64, the kernel's strict decimal) and
 * an optional suffix: none = bytes, s = 512-byte sectors, K/KiB, M/MiB,
 * G/GiB (binary, case-insensitive).
 */
bool parse_size(const char *s, u64 *bytes)
{
	char digits[32];
	size_t n = strspn(s, "0123456789");
	const char *suf = s + n;
	u64 v, mult;

	if (!n || n >= sizeof(digits))
		return false;
	memcpy(digits, s, n);
	digits[n] = 0;
	if (!bds_parse_u64(digits, &v))
		return false;
	if (!*suf || !strcasecmp(suf, "b"))
		mult = 1;
	else if (!strcasecmp(suf, "s"))
		mult = SECTOR;
	else if (!strcasecmp(suf, "k") || !strcasecmp(suf, "kib"))
		mult = 1ULL << 10;
	else if (!strcasecmp(suf, "m") || !strcasecmp(suf, "mib"))
		mult = 1ULL << 20;
	else if (!strcasecmp(suf, "g") || !strcasecmp(suf, "gib"))
		mult = 1ULL << 30;
	else
		return false;
	if (v > UINT64_MAX / mult)
		return false;
	*bytes = v * mult;
	return true;
}

bool parse_whole_seconds(const char *s, unsigned int *secs)
{
	u64 v;

	if (!bds_parse_u64(s, &v) || !v || v > PARSE_SECONDS_MAX)
		return false;
	*secs = (unsigned int)v;
	return true;
}

bool parse_mbps(const char *s, double *v)
{
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		return false;
	*v = strtod(s, &end);
	return !errno && !*end && *v > 0 && *v < 1e12;
}
