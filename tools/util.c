// SPDX-License-Identifier: GPL-2.0
/*
 * Shared by the plan steps: messages (refuse, note), string and
 * sysfs helpers, size parsing.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "fmt.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Messages                                                            */

void bds_verr(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", bds_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void refuse(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bds_verr(fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: nothing was created\n", bds_prog);
	exit(1);
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bds_verr(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help'.\n", bds_prog);
	exit(2);
}

void note(const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (nnotes >= MAX_NOTES)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s)
		notes[nnotes++] = s;
}

/* snprintf that refuses to truncate silently */
void xsnprintf(char *buf, size_t sz, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sz, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sz)
		refuse("internal error: a name or path is too long");
}

/* append to a string buffer */
void cat(char *buf, size_t sz, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + len, sz - len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sz - len)
		refuse("internal error: output line too long");
}

const char *speed(double mbps, char *buf, size_t sz)
{
	if (mbps == (double)(u64)mbps)
		snprintf(buf, sz, "%llu MB/s", U(mbps));
	else
		snprintf(buf, sz, "%.1f MB/s", mbps);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

/* Natural order: digit runs compare as numbers ("sdb2" < "sdb10"). */
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

static int natcmp_str(const void *a, const void *b)
{
	return natcmp(*(const char *const *)a, *(const char *const *)b);
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

/* Read a one-line sysfs attribute; false if it cannot be read. */
bool read_attr(const char *dir, const char *attr, char *buf, size_t sz)
{
	char path[PATH_MAX];
	FILE *f;
	bool ok;

	xsnprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, (int)sz, f) != NULL;
	fclose(f);
	if (!ok)
		return false;
	buf[strcspn(buf, "\n")] = 0;
	return true;
}

bool read_u64_attr(const char *dir, const char *attr, u64 *v)
{
	char buf[64];

	return read_attr(dir, attr, buf, sizeof(buf)) && bds_parse_u64(buf, v);
}

bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	xsnprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
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

bool parse_mbps(const char *s, double *v)
{
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		return false;
	*v = strtod(s, &end);
	return !errno && !*end && *v > 0 && *v < 1e12;
}

/* ------------------------------------------------------------------ */
/* Device discovery                                                    */

/* Names of the entries of a directory, space separated (no . and ..). */
void list_dir(const char *dir, char *out, size_t sz)
{
	char *names[256];
	int n = 0, i;
	struct dirent *de;
	DIR *d;

	out[0] = 0;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && n < 256) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), natcmp_str);
	for (i = 0; i < n; i++) {
		if (strlen(out) + strlen(names[i]) + 2 <= sz)
			cat(out, sz, "%s%s", out[0] ? " " : "", names[i]);
		free(names[i]);
	}
}

/* The partitions (subdirectories with a "partition" file) of a disk. */
void list_partitions(const char *diskdir, char *out, size_t sz)
{
	char all[LIST_SZ], sub[PATH_MAX], *tok, *save = NULL;

	out[0] = 0;
	list_dir(diskdir, all, sizeof(all));
	for (tok = strtok_r(all, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		xsnprintf(sub, sizeof(sub), "%s/%s", diskdir, tok);
		if (exists(sub, "partition") &&
		    strlen(out) + strlen(tok) + 2 <= sz)
			cat(out, sz, "%s%s", out[0] ? " " : "", tok);
	}
}

/* "dm-0 (vg-lv)" for device-mapper holders, else the plain name */
void describe_holders(const char *list, char *out, size_t sz)
{
	char copy[LIST_SZ], dir[PATH_MAX], dmname[NAME_SZ];
	char *tok, *save = NULL;

	out[0] = 0;
	snprintf(copy, sizeof(copy), "%s", list);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		xsnprintf(dir, sizeof(dir), "%s/class/block/%s", opt.sysfs, tok);
		if (strlen(out) + 2 * NAME_SZ + 8 > sz)
			break;
		if (read_attr(dir, "dm/name", dmname, sizeof(dmname)))
			cat(out, sz, "%s%s (dm %s)", out[0] ? ", " : "", tok,
			    dmname);
		else
			cat(out, sz, "%s%s", out[0] ? ", " : "", tok);
	}
}

/* Components of a real sysfs path below <sysfs>/devices. */
