// SPDX-License-Identifier: GPL-2.0
/*
 * Reading sysfs (see sysfs.h).
 */
#define _GNU_SOURCE
#include "sysfs.h"
#include "util.h"
#include "../libbds/table.h"

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "@dir/@name" into @path (PATH_MAX); false if it does not fit. */
static bool path_of(char *path, const char *dir, const char *name)
{
	int n = snprintf(path, PATH_MAX, "%s/%s", dir, name);

	return n >= 0 && n < PATH_MAX;
}

bool read_attr(const char *dir, const char *attr, char *buf, size_t sz)
{
	char path[PATH_MAX];
	FILE *f;
	bool ok;

	if (!path_of(path, dir, attr))
		return false;
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

bool dm_suspended(const char *dir, char *name, size_t sz)
{
	char v[8];

	if (!read_attr(dir, "dm/suspended", v, sizeof(v)) || strcmp(v, "1"))
		return false;
	if (!read_attr(dir, "dm/name", name, sz))
		name[0] = '\0';
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

	return path_of(path, dir, name) && access(path, F_OK) == 0;
}

static int natcmp_str(const void *a, const void *b)
{
	return natcmp(*(const char *const *)a, *(const char *const *)b);
}

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

void list_partitions(const char *diskdir, char *out, size_t sz)
{
	char all[LIST_SZ], sub[PATH_MAX], *tok, *save = NULL;

	out[0] = 0;
	list_dir(diskdir, all, sizeof(all));
	for (tok = strtok_r(all, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (path_of(sub, diskdir, tok) && exists(sub, "partition") &&
		    strlen(out) + strlen(tok) + 2 <= sz)
			cat(out, sz, "%s%s", out[0] ? " " : "", tok);
	}
}

/*
 * The serial number of the disk whose sysfs directory is @diskdir, for
 * messages and the label: the SCSI unit serial number page (VPD 0x80),
 * else the serial attribute of NVMe and virtio-blk, else the WWID.
 * Non-printable bytes and blanks at either end are dropped; "" if none.
 * bdsadm detail compares it with the label's, so both read it here.
 */
void disk_serial(const char *diskdir, char *serial, size_t sz)
{
	static const char *const attrs[] = { "device/serial", "serial",
					     "wwid", "device/wwid" };
	char path[PATH_MAX], buf[256];
	size_t i, n = 0, o = 0, len;
	FILE *f;

	if (!sz)
		return;
	serial[0] = 0;
	f = path_of(path, diskdir, "device/vpd_pg80") ?
	    fopen(path, "rb") : NULL;
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		/* 4-byte header, byte 3 the length of the serial */
		if (n >= 4) {
			len = (unsigned char)buf[3];
			if (len > n - 4)
				len = n - 4;
			memmove(buf, buf + 4, len);
			n = len;
		} else {
			n = 0;
		}
	}
	for (i = 0; !n && i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (read_attr(diskdir, attrs[i], buf, sizeof(buf)))
			n = strlen(buf);
	for (i = 0; i < n && o < sz - 1; i++)
		if (buf[i] > ' ' && buf[i] < 127)
			serial[o++] = buf[i];
		else if (buf[i] == ' ' && o)
			serial[o++] = '_';
	while (o && serial[o - 1] == '_')
		o--;
	serial[o] = 0;
}
