// SPDX-License-Identifier: GPL-2.0
/*
 * bds-stripe-table: build a device-mapper "bds-stripe" table from a list
 * of block devices.
 *
 * The tool finds the controller of every device in sysfs (SCSI host,
 * NVMe controller, virtio-blk PCI function, or the device itself for
 * virtual devices), makes one table group per controller, checks that
 * the devices are usable (not mounted, not held by dm/md, no partitions
 * on a whole disk, sizes, logical block size) and prints the table line
 * and a summary.  The layout (the order of stripe positions) and every
 * geometry limit come from ../dm-bds-stripe.h, the very code the kernel
 * target runs, so what the tool prints is what the target will do.
 *
 * With --create it runs "dmsetup create NAME --table TABLE" (dmsetup,
 * not libdevmapper: no build dependency, the same ioctls, and the exact
 * table is printed before it is used), then raises the new volume's
 * read-ahead to at least two stripe widths, as LVM does for striped
 * logical volumes (for kernels that do not derive it from
 * optimal_io_size themselves).
 */
#define _GNU_SOURCE
#include "../dm-bds-stripe.h"
#include "fmt.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define TOOL_NAME	"bds-stripe-table"
#define TOOL_VERSION	"1.0"
/* More arguments than this are refused before any work is done. */
#define MAX_ARGS	1024
#define NAME_SZ		128
#define LIST_SZ		1024
#define MAX_NOTES	512
#define DEFAULT_CHUNK_BYTES	(256ULL << 10)
#define SECTOR		512ULL
#define XFS_BLOCK	4096ULL
#define GIB		(1ULL << 30)
/* dm device names: DM_NAME_LEN is 128 including the NUL */
#define DM_NAME_MAX	127
/* the page cache reads ahead in pages; read_ahead_kb is in KiB */
#define PAGE_KIB	4ULL

enum ra_mode { RA_AUTO, RA_OFF, RA_SET };

#define U(x) ((unsigned long long)(x))

struct member {
	const char *arg;		/* as given */
	char name[NAME_SZ];		/* kernel name: sdb, sdb1, nvme0n1 */
	char dir[PATH_MAX];		/* real sysfs directory */
	char disk[NAME_SZ];		/* whole disk (== name unless partition) */
	char diskdir[PATH_MAX];
	unsigned int maj, min;
	u64 size;			/* 512-byte sectors */
	u32 lbs, pbs;			/* bytes */
	bool is_part;
	unsigned int partno;
	char holders[LIST_SZ];		/* space separated, may be empty */
	char parts[LIST_SZ];		/* partitions of a whole disk */
	char kind[NAME_SZ];		/* SCSI disk, NVMe namespace, ... */
	int ctrl;			/* index into ctrls[] */
	int group;			/* table group */
	int index;			/* table index (0..N-1) */
};

struct controller {
	char name[NAME_SZ];
	char desc[2 * NAME_SZ];
	int nmembers;
};

static struct {
	const char *sysfs;
	const char *mounts;
	const char *dmsetup;
	const char *chunk_arg;
	const char *transfer_arg;
	const char *groups_arg;
	const char *name;
	const char *create;
	enum bds_order_mode mode;
	enum ra_mode ra_mode;
	u64 ra_kib;		/* RA_SET: read-ahead in KiB */
	u64 width_b;		/* stripe width in bytes, for RA_AUTO */
	bool force, table_only, paths, sort;
	double disk_mbps, ctrl_mbps;
	bool have_disk_mbps, have_ctrl_mbps;
	bool real_sysfs;	/* --sysfs not given: also look at /dev */
} opt = {
	.sysfs = "/sys",
	.mounts = "/proc/self/mounts",
	.dmsetup = "dmsetup",
	.mode = BDS_LAYOUT_INTERLEAVE,
	.ra_mode = RA_AUTO,
	.real_sysfs = true,
};

/* Everything allocated hangs off these globals, so exit() leaks nothing. */
static struct member *mem;	/* in argument order */
static int nmem;
static struct member **tbl;	/* in table order */
static struct controller *ctrls;
static int nctrl;
static char *notes[MAX_NOTES];
static int nnotes;
static char **spec_args;	/* device names taken from --groups */
static char devroot[PATH_MAX];	/* realpath of <sysfs>/devices */
static char table[65536];

/* ------------------------------------------------------------------ */
/* Messages                                                            */

static void refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2),
							noreturn));
static void refuse(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, TOOL_NAME ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fprintf(stderr, TOOL_NAME ": nothing was created\n");
	exit(1);
}

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2),
							     noreturn));
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, TOOL_NAME ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" TOOL_NAME " --help'.\n");
	exit(2);
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
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
static void xsnprintf(char *buf, size_t sz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void xsnprintf(char *buf, size_t sz, const char *fmt, ...)
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
static void cat(char *buf, size_t sz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t sz, const char *fmt, ...)
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

static const char *speed(double mbps, char *buf, size_t sz)
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
static int natcmp(const char *a, const char *b)
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
static bool is_name_num(const char *s, const char *prefix)
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
static bool is_pci_addr(const char *s)
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

static bool in_list(const char *list, const char *word)
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

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Read a one-line sysfs attribute; false if it cannot be read. */
static bool read_attr(const char *dir, const char *attr, char *buf, size_t sz)
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

static bool read_u64_attr(const char *dir, const char *attr, u64 *v)
{
	char buf[64];

	return read_attr(dir, attr, buf, sizeof(buf)) && bds_parse_u64(buf, v);
}

static bool exists(const char *dir, const char *name)
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
static bool parse_size(const char *s, u64 *bytes)
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

static bool parse_mbps(const char *s, double *v)
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
static void list_dir(const char *dir, char *out, size_t sz)
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
static void list_partitions(const char *diskdir, char *out, size_t sz)
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
static void describe_holders(const char *list, char *out, size_t sz)
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
static int split_rel(const char *real, char *buf, size_t sz, char **comp,
		     int max)
{
	size_t n = strlen(devroot);
	char *tok, *save = NULL;
	int nc = 0;

	if (strncmp(real, devroot, n) || real[n] != '/')
		return 0;
	snprintf(buf, sz, "%s", real + n + 1);
	for (tok = strtok_r(buf, "/", &save); tok && nc < max;
	     tok = strtok_r(NULL, "/", &save))
		comp[nc++] = tok;
	return nc;
}

static void last_pci(char **comp, int upto, char *pci, size_t sz)
{
	int i;

	pci[0] = 0;
	for (i = upto - 1; i >= 0; i--)
		if (is_pci_addr(comp[i])) {
			snprintf(pci, sz, "%s", comp[i]);
			return;
		}
}

/*
 * The controller of a whole disk, from its real sysfs path:
 *   .../0000:00:10.0/.../host2/target2:0:0/2:0:0:0/block/sdb  -> host2
 *   .../0000:00:04.0/nvme/nvme0/nvme0n1                       -> nvme0
 *   virtual/nvme-subsystem/nvme-subsys0/nvme0n1 (multipath)   -> first path
 *   .../0000:00:05.0/virtio3/block/vda                        -> 0000:00:05.0
 *   virtual/block/loop0 (loop, nullb, ram, dm, md, ...)       -> loop0
 */
static void find_controller(struct member *m, char *ctrl, char *desc)
{
	char buf[PATH_MAX], *comp[128], pci[NAME_SZ];
	char via[LIST_SZ] = "";
	int nc, i;

	nc = split_rel(m->diskdir, buf, sizeof(buf), comp, 128);
	if (nc >= 3 && !strcmp(comp[0], "virtual") &&
	    !strcmp(comp[1], "nvme-subsystem")) {
		char subsys[PATH_MAX], all[LIST_SZ], path[PATH_MAX];
		char real[PATH_MAX], *paths[64], *tok, *save = NULL;
		int np = 0;

		xsnprintf(subsys, sizeof(subsys), "%s/virtual/nvme-subsystem/%s",
			  devroot, comp[2]);
		list_dir(subsys, all, sizeof(all));
		for (tok = strtok_r(all, " ", &save); tok && np < 64;
		     tok = strtok_r(NULL, " ", &save))
			if (is_name_num(tok, "nvme"))
				paths[np++] = tok;
		if (np) {
			/* list_dir sorted naturally: paths[0] is the first */
			for (i = 0; i < np; i++)
				cat(via, sizeof(via), "%s%s", i ? ", " : "",
				    paths[i]);
			snprintf(m->kind, sizeof(m->kind),
				 "NVMe multipath namespace");
			snprintf(ctrl, NAME_SZ, "%s", paths[0]);
			xsnprintf(path, sizeof(path), "%s/%s", subsys, paths[0]);
			pci[0] = 0;
			if (realpath(path, real)) {
				char b2[PATH_MAX], *c2[128];
				int n2 = split_rel(real, b2, sizeof(b2), c2, 128);

				last_pci(c2, n2, pci, sizeof(pci));
			}
			snprintf(desc, 2 * NAME_SZ, "NVMe controller%s%s", pci[0] ?
				 ", PCI " : "", pci);
			note("%s is an NVMe multipath namespace of %s (paths: %s); grouped with its first controller, %s",
			     m->disk, comp[2], via, paths[0]);
			return;
		}
	}
	if (nc == 0 || !strcmp(comp[0], "virtual")) {
		const char *what = "virtual device";

		if (is_name_num(m->disk, "loop"))
			what = "loop device";
		else if (is_name_num(m->disk, "nullb"))
			what = "null_blk device";
		else if (is_name_num(m->disk, "ram"))
			what = "RAM disk";
		else if (is_name_num(m->disk, "dm-"))
			what = "device-mapper device";
		else if (is_name_num(m->disk, "md"))
			what = "md device";
		else if (is_name_num(m->disk, "zram"))
			what = "zram device";
		snprintf(m->kind, sizeof(m->kind), "%s", what);
		snprintf(ctrl, NAME_SZ, "%s", m->disk);
		snprintf(desc, 2 * NAME_SZ, "%s, no controller", what);
		note("%s is a %s: it has no controller and forms its own group",
		     m->disk, what);
		return;
	}
	for (i = nc - 1; i >= 0; i--)
		if (is_name_num(comp[i], "host"))
			break;
	if (i >= 0) {
		last_pci(comp, i, pci, sizeof(pci));
		snprintf(m->kind, sizeof(m->kind), "SCSI disk");
		snprintf(ctrl, NAME_SZ, "%s", comp[i]);
		snprintf(desc, 2 * NAME_SZ, "SCSI host%s%s", pci[0] ?
			 ", PCI " : "", pci);
		return;
	}
	for (i = nc - 1; i > 0; i--)
		if (is_name_num(comp[i], "nvme") && !strcmp(comp[i - 1], "nvme"))
			break;
	if (i > 0) {
		last_pci(comp, i, pci, sizeof(pci));
		snprintf(m->kind, sizeof(m->kind), "NVMe namespace");
		snprintf(ctrl, NAME_SZ, "%s", comp[i]);
		snprintf(desc, 2 * NAME_SZ, "NVMe controller%s%s", pci[0] ?
			 ", PCI " : "", pci);
		return;
	}
	for (i = nc - 1; i >= 0; i--)
		if (is_name_num(comp[i], "virtio"))
			break;
	if (i >= 0) {
		last_pci(comp, i, pci, sizeof(pci));
		snprintf(m->kind, sizeof(m->kind), "virtio-blk disk");
		snprintf(ctrl, NAME_SZ, "%s", pci[0] ? pci : comp[i]);
		snprintf(desc, 2 * NAME_SZ, "virtio-blk PCI function");
		note("%s is a virtio-blk disk: each one is its own controller (%s)",
		     m->disk, ctrl);
		return;
	}
	last_pci(comp, nc, pci, sizeof(pci));
	snprintf(m->kind, sizeof(m->kind), "disk");
	if (pci[0]) {
		snprintf(ctrl, NAME_SZ, "%s", pci);
		snprintf(desc, 2 * NAME_SZ, "PCI function");
		note("%s: controller type unknown, grouped by its PCI function %s",
		     m->disk, pci);
	} else {
		snprintf(ctrl, NAME_SZ, "%s", m->disk);
		snprintf(desc, 2 * NAME_SZ, "controller unknown");
		note("%s: controller unknown, it forms its own group", m->disk);
	}
}

static int add_controller(const char *name, const char *desc)
{
	int i;

	for (i = 0; i < nctrl; i++)
		if (!strcmp(ctrls[i].name, name))
			return i;
	snprintf(ctrls[nctrl].name, sizeof(ctrls[nctrl].name), "%s", name);
	snprintf(ctrls[nctrl].desc, sizeof(ctrls[nctrl].desc), "%s", desc);
	return nctrl++;
}

/*
 * Find a device argument in sysfs.  Accepted: a kernel name (sdb), a
 * path whose last component is one (/dev/sdb), major:minor, and - on the
 * real /sys only - any path to a block device node (/dev/disk/by-id/...,
 * /dev/mapper/x), which is followed to its major:minor.  With --sysfs
 * the argument is mapped into the fake tree by its last component and
 * /dev is never looked at.
 */
static void resolve(struct member *m)
{
	char link[PATH_MAX], buf[64], real[PATH_MAX];
	unsigned int maj, min;
	bool have_rdev = false;
	dev_t rdev = 0;
	char tail;

	if (sscanf(m->arg, "%u:%u%c", &maj, &min, &tail) == 2) {
		xsnprintf(link, sizeof(link), "%s/dev/block/%u:%u", opt.sysfs,
			  maj, min);
	} else {
		const char *name = base_name(m->arg);

		if (opt.real_sysfs && strchr(m->arg, '/')) {
			struct stat st;

			if (realpath(m->arg, real))
				name = base_name(real);
			if (!stat(m->arg, &st) && S_ISBLK(st.st_mode)) {
				have_rdev = true;
				rdev = st.st_rdev;
			}
		}
		if (!*name || strlen(name) >= NAME_SZ)
			refuse("%s: not a block device name", m->arg);
		xsnprintf(link, sizeof(link), "%s/class/block/%s", opt.sysfs,
			  name);
		if (have_rdev && access(link, F_OK))
			xsnprintf(link, sizeof(link), "%s/dev/block/%u:%u",
				  opt.sysfs, major(rdev), minor(rdev));
	}
	if (!realpath(link, m->dir))
		refuse("%s: no such block device (%s not found)", m->arg, link);
	xsnprintf(m->name, sizeof(m->name), "%s", base_name(m->dir));
	if (!read_attr(m->dir, "dev", buf, sizeof(buf)) ||
	    sscanf(buf, "%u:%u%c", &m->maj, &m->min, &tail) != 2)
		refuse("%s: cannot read %s/dev (not a block device?)", m->arg,
		       m->dir);
	if (have_rdev && (major(rdev) != m->maj || minor(rdev) != m->min))
		refuse("%s: device node %u:%u does not match sysfs %s (%u:%u)",
		       m->arg, major(rdev), minor(rdev), m->name, m->maj, m->min);
	if (!read_u64_attr(m->dir, "size", &m->size))
		refuse("%s: cannot read its size from %s/size", m->arg, m->dir);

	m->is_part = exists(m->dir, "partition");
	if (m->is_part) {
		u64 pn = 0;
		char *slash;

		read_u64_attr(m->dir, "partition", &pn);
		m->partno = (unsigned int)pn;
		snprintf(m->diskdir, sizeof(m->diskdir), "%s", m->dir);
		slash = strrchr(m->diskdir, '/');
		if (slash)
			*slash = 0;
		xsnprintf(m->disk, sizeof(m->disk), "%s", base_name(m->diskdir));
	} else {
		snprintf(m->diskdir, sizeof(m->diskdir), "%s", m->dir);
		snprintf(m->disk, sizeof(m->disk), "%s", m->name);
		list_partitions(m->dir, m->parts, sizeof(m->parts));
	}
	{
		u64 v;

		if (!read_u64_attr(m->diskdir, "queue/logical_block_size", &v) ||
		    !v || v > UINT32_MAX)
			refuse("%s: cannot read queue/logical_block_size of %s",
			       m->arg, m->disk);
		m->lbs = (u32)v;
		if (!read_u64_attr(m->diskdir, "queue/physical_block_size",
				   &v) || !v || v > UINT32_MAX)
			v = m->lbs;
		m->pbs = (u32)v;
	}
	xsnprintf(link, sizeof(link), "%s/holders", m->dir);
	list_dir(link, m->holders, sizeof(m->holders));

	{
		char ctrl[NAME_SZ], desc[2 * NAME_SZ];

		find_controller(m, ctrl, desc);
		m->ctrl = add_controller(ctrl, desc);
	}
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */

static int nproblems;

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, TOOL_NAME ": %s", opt.force ? "warning: " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	nproblems++;
}

/* Undo the octal escapes (\040 etc.) of /proc/self/mounts. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = 0;
}

static void check_mounts(void)
{
	char line[4 * PATH_MAX];
	FILE *f = fopen(opt.mounts, "r");
	int i;

	if (!f) {
		problem("cannot read %s to check for mounted devices: %s",
			opt.mounts, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *src, *dir, *type, real[PATH_MAX];
		const char *name;

		src = strtok_r(line, " \t\n", &save);
		dir = strtok_r(NULL, " \t\n", &save);
		type = strtok_r(NULL, " \t\n", &save);
		if (!src || !dir || src[0] != '/')
			continue;
		unescape(src);
		unescape(dir);
		name = base_name(src);
		if (opt.real_sysfs && realpath(src, real))
			name = base_name(real);
		for (i = 0; i < nmem; i++) {
			struct member *m = &mem[i];

			if (!strcmp(name, m->name))
				problem("%s is mounted on %s (%s)", m->arg, dir,
					type ? type : "?");
			else if (!m->is_part && in_list(m->parts, name))
				problem("%s: its partition %s is mounted on %s (%s)",
					m->arg, name, dir, type ? type : "?");
		}
	}
	fclose(f);
}

/*
 * On the real system, also try what the kernel will do: an exclusive
 * open fails with EBUSY while a filesystem, swap, dm, md or another
 * exclusive user holds the device - including users the mount table and
 * holders/ do not show.  Only a node whose major:minor matches sysfs is
 * opened (read-only; nothing is read or written).
 */
static void check_exclusive(const struct member *m)
{
	char node[PATH_MAX];
	struct stat st;
	int fd;

	if (strchr(m->arg, '/'))
		xsnprintf(node, sizeof(node), "%s", m->arg);
	else
		xsnprintf(node, sizeof(node), "/dev/%s", m->name);
	if (stat(node, &st) || !S_ISBLK(st.st_mode) ||
	    major(st.st_rdev) != m->maj || minor(st.st_rdev) != m->min)
		return;
	fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		close(fd);
		return;
	}
	if (errno == EBUSY)
		problem("%s is busy: an exclusive open fails (in use by a filesystem, swap, dm, md or another program)",
			m->arg);
}

static void check_members(void)
{
	int i, j;

	for (i = 0; i < nmem; i++) {
		struct member *m = &mem[i];

		for (j = 0; j < i; j++) {
			struct member *o = &mem[j];

			if (m->maj == o->maj && m->min == o->min)
				refuse("%s is given twice (as '%s' and '%s')",
				       m->name, o->arg, m->arg);
			if ((m->is_part && !strcmp(m->disk, o->name)) ||
			    (o->is_part && !strcmp(o->disk, m->name)))
				refuse("%s and %s overlap: one is a partition of the other",
				       o->name, m->name);
			if (m->is_part && o->is_part && !strcmp(m->disk, o->disk))
				note("%s and %s are partitions of the same disk %s: they share its bandwidth",
				     o->name, m->name, m->disk);
		}
		if (m->size == 0)
			refuse("%s has size 0", m->arg);
		if (m->holders[0]) {
			char desc[LIST_SZ];

			describe_holders(m->holders, desc, sizeof(desc));
			problem("%s is in use by %s (%s/holders is not empty)",
				m->arg, desc, m->dir);
		}
		if (!m->is_part && m->parts[0])
			problem("%s is a whole disk with partitions (%s): give a partition, or remove the partition table",
				m->arg, m->parts);
	}
	check_mounts();
	if (opt.real_sysfs)
		for (i = 0; i < nmem; i++)
			check_exclusive(&mem[i]);
	if (nproblems && !opt.force)
		refuse("refusing to use devices that are in use (--force overrides)");
}

/* ------------------------------------------------------------------ */
/* Groups                                                              */

static u32 *group_sizes;
static int ngroups;
static bool groups_from_spec;

static int ctrl_cmp(const void *a, const void *b)
{
	return natcmp(((const struct controller *)a)->name,
		      ((const struct controller *)b)->name);
}

static int member_name_cmp(const void *a, const void *b)
{
	return natcmp((*(struct member *const *)a)->name,
		      (*(struct member *const *)b)->name);
}

static struct member *find_member(const char *word)
{
	int i;

	for (i = 0; i < nmem; i++)
		if (!strcmp(word, mem[i].arg) || !strcmp(word, mem[i].name) ||
		    !strcmp(base_name(word), mem[i].name))
			return &mem[i];
	return NULL;
}

static bool spec_is_counts(const char *spec)
{
	return strspn(spec, "0123456789,") == strlen(spec);
}

/* Sort controllers by name and renumber the members' references. */
static void sort_controllers(void)
{
	char names[MAX_ARGS][NAME_SZ];
	int i, j;

	for (i = 0; i < nmem; i++)
		snprintf(names[i], NAME_SZ, "%s", ctrls[mem[i].ctrl].name);
	qsort(ctrls, (size_t)nctrl, sizeof(*ctrls), ctrl_cmp);
	for (i = 0; i < nmem; i++) {
		for (j = 0; j < nctrl; j++)
			if (!strcmp(ctrls[j].name, names[i]))
				mem[i].ctrl = j;
		ctrls[mem[i].ctrl].nmembers++;
	}
}

static void make_groups(void)
{
	struct member **order = calloc((size_t)nmem, sizeof(*order));
	int i, g, n = 0;

	tbl = calloc((size_t)nmem, sizeof(*tbl));
	group_sizes = calloc((size_t)(nmem + 1), sizeof(*group_sizes));
	if (!order || !tbl || !group_sizes)
		refuse("out of memory");
	for (i = 0; i < nmem; i++)
		order[i] = &mem[i];
	if (opt.sort)
		qsort(order, (size_t)nmem, sizeof(*order), member_name_cmp);

	if (!opt.groups_arg) {
		/* one group per controller, controllers in natural order */
		for (g = 0; g < nctrl; g++) {
			group_sizes[g] = 0;
			for (i = 0; i < nmem; i++)
				if (order[i]->ctrl == g) {
					order[i]->group = g;
					tbl[n++] = order[i];
					group_sizes[g]++;
				}
		}
		ngroups = nctrl;
	} else if (spec_is_counts(opt.groups_arg)) {
		char copy[LIST_SZ], *tok, *save = NULL;
		u64 sum = 0, v;

		groups_from_spec = true;
		snprintf(copy, sizeof(copy), "%s", opt.groups_arg);
		ngroups = 0;
		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			if (!bds_parse_u64(tok, &v) || v > MAX_ARGS)
				refuse("--groups %s: '%s' is not a member count",
				       opt.groups_arg, tok);
			if (ngroups >= nmem)
				refuse("--groups %s: more groups than the %d devices given",
				       opt.groups_arg, nmem);
			group_sizes[ngroups++] = (u32)v;
			sum += v;
		}
		if (!ngroups || sum != (u64)nmem)
			refuse("--groups %s: the counts add up to %llu, but %d devices are given",
			       opt.groups_arg, U(sum), nmem);
		for (g = 0, i = 0; g < ngroups; g++) {
			u32 k;

			for (k = 0; k < group_sizes[g]; k++, i++) {
				order[i]->group = g;
				tbl[n++] = order[i];
			}
		}
	} else {
		const char *p = opt.groups_arg;
		bool *used = calloc((size_t)nmem, sizeof(*used));

		if (!used)
			refuse("out of memory");
		groups_from_spec = true;
		ngroups = 0;
		while (*p) {
			size_t glen = strcspn(p, ";");
			char grp[LIST_SZ], *tok, *save = NULL;

			if (glen >= sizeof(grp))
				refuse("--groups: a group is too long");
			memcpy(grp, p, glen);
			grp[glen] = 0;
			if (!glen || grp[0] == ',' || grp[glen - 1] == ',' ||
			    strstr(grp, ",,"))
				refuse("--groups %s: empty group or member name",
				       opt.groups_arg);
			if (ngroups >= nmem)
				refuse("--groups %s: more groups than devices",
				       opt.groups_arg);
			group_sizes[ngroups] = 0;
			for (tok = strtok_r(grp, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				struct member *m = find_member(tok);

				if (!m)
					refuse("--groups: '%s' is not one of the devices given",
					       tok);
				if (used[m - mem])
					refuse("--groups: '%s' is listed twice", tok);
				used[m - mem] = true;
				m->group = ngroups;
				tbl[n++] = m;
				group_sizes[ngroups]++;
			}
			ngroups++;
			p += glen;
			if (*p == ';') {
				p++;
				if (!*p)
					refuse("--groups %s: empty group",
					       opt.groups_arg);
			}
		}
		for (i = 0; i < nmem; i++)
			if (!used[i])
				refuse("--groups: device '%s' is not in any group",
				       mem[i].arg);
		free(used);
	}
	free(order);
	for (i = 0; i < nmem; i++)
		tbl[i]->index = i;

	if (groups_from_spec) {
		/* tell when table groups and controllers do not match */
		for (g = 0; g < ngroups; g++) {
			int first = -1;

			for (i = 0; i < nmem; i++)
				if (tbl[i]->group == g) {
					if (first < 0)
						first = tbl[i]->ctrl;
					else if (tbl[i]->ctrl != first) {
						note("group %d spans several controllers (%s, %s, ...): the layout balances table groups, not controllers",
						     g, ctrls[first].name,
						     ctrls[tbl[i]->ctrl].name);
						break;
					}
				}
		}
		for (int c = 0; c < nctrl; c++) {
			int first = -1;

			for (i = 0; i < nmem; i++)
				if (tbl[i]->ctrl == c) {
					if (first < 0)
						first = tbl[i]->group;
					else if (tbl[i]->group != first) {
						note("controller %s is split over groups %d and %d",
						     ctrls[c].name, first,
						     tbl[i]->group);
						break;
					}
				}
		}
	}
}

/* ------------------------------------------------------------------ */
/* Chunk                                                               */

static u64 gcd64(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static u32 max_lbs(void)
{
	u32 lbs = 512;
	int i;

	for (i = 0; i < nmem; i++)
		if (mem[i].lbs > lbs)
			lbs = mem[i].lbs;
	return lbs;
}

static u32 max_pbs(void)
{
	u32 pbs = 512;
	int i;

	for (i = 0; i < nmem; i++)
		if (mem[i].pbs > pbs)
			pbs = mem[i].pbs;
	return pbs;
}

static unsigned int transfer_k;

/*
 * --transfer-size T: the largest chunk c (a multiple of 4 KiB and of
 * every logical block size) with T = k * N * c for a whole k >= 1, the
 * stripe width N * c fitting 32 bits in bytes.  The largest chunk is
 * the smallest admissible k.
 */
static u64 chunk_from_transfer(u64 tbytes)
{
	char h1[64], h2[64], h3[64], h4[64], h5[64];
	u64 n = (u64)nmem, align, q, kmin, best = 0, i, maxchunk;

	align = BDS_CHUNK_ALIGN * SECTOR;
	align = align / gcd64(align, max_lbs()) * max_lbs();
	if (tbytes == 0 || tbytes % (n * align)) {
		u64 step = n * align, lo = tbytes / step * step;

		bds_human(tbytes, h1, sizeof(h1));
		bds_human(align, h2, sizeof(h2));
		bds_human(step, h3, sizeof(h3));
		if (lo)
			refuse("--transfer-size %s (%s) is impossible: with %d members and a stripe unit that is a multiple of %s, a whole number of stripe widths is a multiple of %s (nearest: %s or %s)",
			       opt.transfer_arg, h1, nmem, h2, h3,
			       bds_human(lo, h4, sizeof(h4)),
			       bds_human(lo + step, h5, sizeof(h5)));
		refuse("--transfer-size %s (%s) is impossible: with %d members and a stripe unit that is a multiple of %s, a whole number of stripe widths is a multiple of %s (smallest: %s)",
		       opt.transfer_arg, h1, nmem, h2, h3, h3);
	}
	q = tbytes / (n * align);
	/* chunk = align * q / k <= maxchunk, the stripe width fitting 32 bits */
	maxchunk = BDS_MAX_IO_BYTES / n / align;	/* in units of align */
	if (!maxchunk)
		refuse("--transfer-size: no stripe unit fits: %d members x %s exceed the 32-bit stripe width",
		       nmem, bds_human(align, h1, sizeof(h1)));
	kmin = (q + maxchunk - 1) / maxchunk;
	for (i = 1; i * i <= q; i++) {
		if (q % i)
			continue;
		if (i >= kmin && (!best || i < best))
			best = i;
		if (q / i >= kmin && (!best || q / i < best))
			best = q / i;
	}
	if (!best)
		refuse("--transfer-size %s: no stripe unit fits the 32-bit stripe width",
		       opt.transfer_arg);
	transfer_k = (unsigned int)best;
	return align * (q / best);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

static void build_table(const struct bds_layout *l, u64 length)
{
	int g, i = 0;

	table[0] = 0;
	cat(table, sizeof(table), "0 %llu bds-stripe %u %u", U(length),
	    l->chunk, l->nr_groups);
	for (g = 0; g < ngroups; g++) {
		cat(table, sizeof(table), " %u", group_sizes[g]);
		for (; i < nmem && tbl[i]->group == g; i++) {
			if (opt.paths)
				cat(table, sizeof(table), " /dev/%s 0",
				    tbl[i]->name);
			else
				cat(table, sizeof(table), " %u:%u 0",
				    tbl[i]->maj, tbl[i]->min);
		}
	}
	if (l->mode != BDS_LAYOUT_INTERLEAVE)
		cat(table, sizeof(table), " 2 layout sequential");
}

/*
 * Time for one transfer of the first @w stripe positions (starting at a
 * stripe boundary), each member moving one chunk: each controller needs
 * (members touched * chunk) / min(C, members touched * D).  Returns the
 * throughput of the whole transfer: its size over the slowest
 * controller's time.
 */
static double transfer_mbps(const struct bds_layout *l, u32 w)
{
	int *cnt = calloc((size_t)nctrl, sizeof(int));
	double worst = 0;
	u32 p;
	int c;

	if (!cnt)
		refuse("out of memory");
	for (p = 0; p < w; p++)
		cnt[tbl[l->order[p]]->ctrl]++;
	for (c = 0; c < nctrl; c++) {
		double bw, t;

		if (!cnt[c])
			continue;
		bw = cnt[c] * opt.disk_mbps;
		if (opt.have_ctrl_mbps && opt.ctrl_mbps < bw)
			bw = opt.ctrl_mbps;
		t = cnt[c] / bw;	/* in chunks per MB/s */
		if (t > worst)
			worst = t;
	}
	free(cnt);
	return worst > 0 ? w / worst : 0;
}

static void print_summary(const struct bds_layout *l, u64 length,
			  u64 member_len)
{
	char h1[64], h2[64], h3[64];
	u64 chunk_b = (u64)l->chunk * SECTOR, width_b = chunk_b * l->nr_members;
	u32 p;
	int g, c, i;

	printf("\n");
	printf("Volume: %u members in %d group%s, layout %s\n", l->nr_members,
	       ngroups, ngroups == 1 ? "" : "s",
	       l->mode == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave");

	printf("\nControllers:\n");
	for (c = 0; c < nctrl; c++) {
		printf("  %-14s %-34s", ctrls[c].name, ctrls[c].desc);
		for (i = 0; i < nmem; i++)
			if (tbl[i]->ctrl == c)
				printf(" %s", tbl[i]->name);
		printf("\n");
	}

	printf("\nGroups (table order)%s:\n",
	       groups_from_spec ? ", from --groups" : ", one per controller");
	for (g = 0; g < ngroups; g++) {
		printf("  group %d:", g);
		for (i = 0; i < nmem; i++)
			if (tbl[i]->group == g)
				printf(" %s", tbl[i]->name);
		if (!groups_from_spec)
			printf("  (%s)", ctrls[g].name);
		printf("\n");
	}

	printf("\nMembers (table order):\n");
	printf("  %-3s %-10s %-8s %-16s %-20s %-10s %-5s %-5s %s\n", "#",
	       "name", "dev", "type", "whole/part", "size", "lbs", "group",
	       "position");
	for (i = 0; i < nmem; i++) {
		struct member *m = tbl[i];
		char devs[24], whole[NAME_SZ + 32];

		snprintf(devs, sizeof(devs), "%u:%u", m->maj, m->min);
		if (m->is_part)
			snprintf(whole, sizeof(whole), "partition %u of %s",
				 m->partno, m->disk);
		else
			snprintf(whole, sizeof(whole), "whole disk");
		printf("  %-3d %-10s %-8s %-16s %-20s %-10s %-5u %-5d %u\n", i,
		       m->name, devs, m->kind, whole,
		       bds_human(m->size * SECTOR, h1, sizeof(h1)), m->lbs,
		       m->group, l->pos_of[i]);
	}

	printf("\nOrder (stripe position -> member, controller):\n");
	for (p = 0; p < l->nr_members; p++) {
		struct member *m = tbl[l->order[p]];

		printf("  %3u -> %3u %-12s %s\n", p, l->order[p], m->name,
		       ctrls[m->ctrl].name);
	}
	printf("  order ");
	for (p = 0; p < l->nr_members; p++)
		printf("%s%u", p ? "," : "", l->order[p]);
	printf("  (as 'dmsetup status' shows it)\n");

	printf("\nStripe unit:  %s (%u sectors)\n",
	       bds_human(chunk_b, h1, sizeof(h1)), l->chunk);
	printf("Stripe width: %s (%u sectors) = %u x %s\n",
	       bds_human(width_b, h1, sizeof(h1)), bds_width(l), l->nr_members,
	       bds_human(chunk_b, h2, sizeof(h2)));
	if (opt.transfer_arg)
		printf("Transfer:     %s = %u stripe width%s (k = %u)\n",
		       bds_human((u64)transfer_k * width_b, h1, sizeof(h1)),
		       transfer_k, transfer_k == 1 ? "" : "s", transfer_k);
	printf("Usable size:  %s (%llu sectors), %s (%llu sectors) from each member\n",
	       bds_human(length * SECTOR, h1, sizeof(h1)), U(length),
	       bds_human(member_len * SECTOR, h2, sizeof(h2)), U(member_len));
	for (i = 0; i < nmem; i++) {
		struct member *m = tbl[i];

		if (m->size > member_len)
			printf("  unused on %s: %s (%llu sectors)\n", m->name,
			       bds_human((m->size - member_len) * SECTOR, h3,
				     sizeof(h3)),
			       U(m->size - member_len));
	}

	printf("\nmkfs.xfs will pick: sunit=%llu swidth=%llu blks (4 KiB blocks; su=%lluk,sw=%u)\n",
	       U(chunk_b / XFS_BLOCK), U(width_b / XFS_BLOCK),
	       U(chunk_b >> 10), l->nr_members);
	if (length * SECTOR < GIB)
		printf("  but the volume is smaller than 1 GiB: mkfs.xfs ignores the device geometry there (give -d su=%lluk,sw=%u to set it)\n",
		       U(chunk_b >> 10), l->nr_members);
	else if (chunk_b == max_pbs())
		printf("  but the stripe unit equals the physical block size (%u): mkfs.xfs ignores such a geometry\n",
		       max_pbs());

	if (opt.have_disk_mbps) {
		double sum = 0, one, half, half_alt = 0;	/* MB/s */
		char s1[64], s2[64];
		u32 w = l->nr_members / 2;

		printf("\nBandwidth (disk %s", speed(opt.disk_mbps, s1, sizeof(s1)));
		if (opt.have_ctrl_mbps)
			printf(", controller %s",
			       speed(opt.ctrl_mbps, s1, sizeof(s1)));
		printf("):\n");
		for (c = 0; c < nctrl; c++) {
			double bw = ctrls[c].nmembers * opt.disk_mbps;

			if (opt.have_ctrl_mbps && opt.ctrl_mbps < bw)
				bw = opt.ctrl_mbps;
			printf("  %-14s %d member%s -> %s\n", ctrls[c].name,
			       ctrls[c].nmembers,
			       ctrls[c].nmembers == 1 ? "" : "s",
			       speed(bw, s1, sizeof(s1)));
			sum += bw;
		}
		printf("  limit for a transfer of one stripe width: %s\n",
		       speed(sum, s1, sizeof(s1)));
		one = transfer_mbps(l, l->nr_members);
		if (one < sum - 1e-9)
			printf("  (one such transfer alone, waiting for its busiest controller: %s)\n",
			       speed(one, s1, sizeof(s1)));
		if (w >= 1 && nctrl > 1) {
			/* the same transfer with the other layout */
			enum bds_order_mode other = l->mode ==
				BDS_LAYOUT_SEQUENTIAL ? BDS_LAYOUT_INTERLEAVE :
				BDS_LAYOUT_SEQUENTIAL;
			struct bds_layout alt;

			half = transfer_mbps(l, w);
			if (bds_layout_init(&alt, l->chunk, group_sizes,
					    (u32)ngroups, other) == BDS_OK)
				half_alt = transfer_mbps(&alt, w);
			printf("  a transfer of %u stripe unit%s from a stripe boundary: %s (%s layout: %s)\n",
			       w, w == 1 ? "" : "s", speed(half, s1, sizeof(s1)),
			       other == BDS_LAYOUT_SEQUENTIAL ? "sequential" :
			       "interleave", speed(half_alt, s2, sizeof(s2)));
		}
	}

	if (nnotes) {
		printf("\nNotes:\n");
		for (i = 0; i < nnotes; i++)
			printf("  - %s\n", notes[i]);
	}

	printf("\nCreate it with:\n  dmsetup create %s --table '%s'\n",
	       opt.create ? opt.create : opt.name ? opt.name : "NAME", table);
}

/* ------------------------------------------------------------------ */
/* dmsetup                                                             */

/* Run dmsetup; returns its exit status (or -1).  quiet: output to null */
static int run_dmsetup(char *const argv[], bool quiet)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
				close(fd);
			}
		}
		execvp(argv[0], argv);
		fprintf(stderr, TOOL_NAME ": cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool dm_exists(const char *name)
{
	char *argv[] = { (char *)opt.dmsetup, "info", (char *)name, NULL };

	return run_dmsetup(argv, true) == 0;
}

/*
 * The kernel name (dm-N) of the device-mapper device called NAME: the
 * block device whose dm/name holds it, under <sysfs>/class/block.
 */
static bool dm_kernel_name(const char *name, char *out, size_t sz)
{
	char dir[PATH_MAX], sub[PATH_MAX], buf[NAME_SZ + 8];
	struct dirent *de;
	DIR *d;
	bool found = false;

	xsnprintf(dir, sizeof(dir), "%s/class/block", opt.sysfs);
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, "dm-", 3))
			continue;
		xsnprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (read_attr(sub, "dm/name", buf, sizeof(buf)) &&
		    !strcmp(buf, name)) {
			xsnprintf(out, sz, "%s", de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/*
 * After --create: set the volume's read-ahead.  auto raises it to two
 * stripe widths (rounded up to whole pages) unless it is already that
 * large; --read-ahead SIZE sets it; off leaves the kernel's value.
 * Failing here leaves the volume in place and is reported, not fatal.
 */
static void set_read_ahead(void)
{
	char dev[NAME_SZ], dir[PATH_MAX], path[PATH_MAX];
	u64 cur, want;
	FILE *f;
	bool ok;

	if (opt.ra_mode == RA_OFF)
		return;
	if (opt.ra_mode == RA_SET) {
		want = opt.ra_kib;
	} else {
		want = (2 * opt.width_b + 1023) / 1024;
		want = (want + PAGE_KIB - 1) / PAGE_KIB * PAGE_KIB;
	}
	if (!dm_kernel_name(opt.create, dev, sizeof(dev))) {
		fprintf(stderr, TOOL_NAME ": warning: %s not found under %s/class/block: read-ahead not set\n",
			opt.create, opt.sysfs);
		return;
	}
	xsnprintf(dir, sizeof(dir), "%s/class/block/%s/queue", opt.sysfs,
		  dev);
	if (!read_u64_attr(dir, "read_ahead_kb", &cur)) {
		fprintf(stderr, TOOL_NAME ": warning: cannot read %s/read_ahead_kb: read-ahead not set\n",
			dir);
		return;
	}
	if (opt.ra_mode == RA_AUTO && cur >= want) {
		fprintf(stderr, TOOL_NAME ": read-ahead of %s (%s) is %llu KiB, at least 2 stripe widths already\n",
			opt.create, dev, U(cur));
		return;
	}
	xsnprintf(path, sizeof(path), "%s/read_ahead_kb", dir);
	f = fopen(path, "w");
	ok = f && fprintf(f, "%llu\n", U(want)) > 0;
	if (f && fclose(f))
		ok = false;
	if (!ok) {
		fprintf(stderr, TOOL_NAME ": warning: cannot write %s: %s (read-ahead stays %llu KiB)\n",
			path, strerror(errno), U(cur));
		return;
	}
	fprintf(stderr, TOOL_NAME ": read-ahead of %s (%s): %llu KiB (was %llu KiB)\n",
		opt.create, dev, U(want), U(cur));
}

static int create_device(void)
{
	char *create[] = { (char *)opt.dmsetup, "create", (char *)opt.create,
			   "--table", table, NULL };
	char *remove[] = { (char *)opt.dmsetup, "remove", (char *)opt.create,
			   NULL };
	int rc;

	if (dm_exists(opt.create))
		refuse("a device-mapper device named '%s' already exists",
		       opt.create);
	fprintf(stderr, TOOL_NAME ": running: %s create %s --table '%s'\n",
		opt.dmsetup, opt.create, table);
	rc = run_dmsetup(create, false);
	if (rc == 0) {
		fprintf(stderr, TOOL_NAME ": created /dev/mapper/%s\n",
			opt.create);
		set_read_ahead();
		return 0;
	}
	fprintf(stderr, TOOL_NAME ": dmsetup create %s failed (exit %d); the kernel log names the reason\n",
		opt.create, rc);
	if (dm_exists(opt.create)) {
		fprintf(stderr, TOOL_NAME ": removing the half-created %s\n",
			opt.create);
		if (run_dmsetup(remove, false))
			fprintf(stderr, TOOL_NAME ": dmsetup remove %s failed: remove it by hand\n",
				opt.create);
	}
	fprintf(stderr, TOOL_NAME ": nothing was created\n");
	return 1;
}

/* ------------------------------------------------------------------ */
/* Main                                                                */

static void usage(void)
{
	printf("Usage: " TOOL_NAME " [options] DEVICE...\n"
	       "\n"
	       "Build a device-mapper bds-stripe table: one group per controller\n"
	       "(SCSI host, NVMe controller, virtio-blk PCI function; virtual\n"
	       "devices each alone), checked and explained.\n"
	       "\n"
	       "DEVICE: /dev/sdb, sdb, a partition, or MAJOR:MINOR.\n"
	       "\n"
	       "Options:\n"
	       "  -c, --chunk SIZE          stripe unit (default 256K); a multiple of 4K\n"
	       "  -t, --transfer-size SIZE  pick the largest stripe unit that makes SIZE\n"
	       "                            a whole number of stripe widths\n"
	       "  -l, --layout L            interleave (default) or sequential\n"
	       "  -g, --groups SPEC         groups by hand: 'sdb,sdc;sdd,sde', or counts\n"
	       "                            in argument order: 4,4\n"
	       "      --sort                members of a group in natural name order\n"
	       "                            (default: command-line order)\n"
	       "  -n, --name NAME           name to show in the dmsetup command\n"
	       "      --create NAME         run 'dmsetup create NAME --table ...'\n"
	       "      --read-ahead RA       after --create: auto (default) raises the\n"
	       "                            volume's read-ahead to 2 stripe widths;\n"
	       "                            SIZE sets it; off leaves the kernel's\n"
	       "      --table-only          print only the table line\n"
	       "      --paths               members as /dev/NAME (default MAJ:MIN)\n"
	       "  -f, --force               use devices that look in use\n"
	       "      --disk-mbps X         disk speed, for the bandwidth estimate\n"
	       "      --controller-mbps Y   controller speed limit\n"
	       "      --sysfs DIR           sysfs root (default /sys; for tests)\n"
	       "      --mounts FILE         mount table (default /proc/self/mounts)\n"
	       "      --dmsetup PROG        dmsetup program (default dmsetup)\n"
	       "  -h, --help                this help\n"
	       "  -V, --version             version\n"
	       "\n"
	       "SIZE: a number of bytes, or with a suffix: s (512-byte sectors),\n"
	       "K, M, G (binary).  Exit status: 0 ok, 1 refused or failed, 2 usage.\n");
}

enum {
	OPT_SORT = 256, OPT_CREATE, OPT_TABLE_ONLY, OPT_PATHS, OPT_DISK_MBPS,
	OPT_CTRL_MBPS, OPT_SYSFS, OPT_MOUNTS, OPT_DMSETUP, OPT_READ_AHEAD,
};

static const struct option longopts[] = {
	{ "chunk", required_argument, NULL, 'c' },
	{ "transfer-size", required_argument, NULL, 't' },
	{ "layout", required_argument, NULL, 'l' },
	{ "groups", required_argument, NULL, 'g' },
	{ "name", required_argument, NULL, 'n' },
	{ "force", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "sort", no_argument, NULL, OPT_SORT },
	{ "create", required_argument, NULL, OPT_CREATE },
	{ "table-only", no_argument, NULL, OPT_TABLE_ONLY },
	{ "paths", no_argument, NULL, OPT_PATHS },
	{ "disk-mbps", required_argument, NULL, OPT_DISK_MBPS },
	{ "controller-mbps", required_argument, NULL, OPT_CTRL_MBPS },
	{ "sysfs", required_argument, NULL, OPT_SYSFS },
	{ "mounts", required_argument, NULL, OPT_MOUNTS },
	{ "dmsetup", required_argument, NULL, OPT_DMSETUP },
	{ "read-ahead", required_argument, NULL, OPT_READ_AHEAD },
	{ NULL, 0, NULL, 0 },
};

static void check_dm_name(const char *what, const char *name)
{
	if (!*name || strlen(name) > DM_NAME_MAX || strchr(name, '/') ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		usage_error("%s '%s': a device-mapper name is 1 to %d characters without '/'",
			    what, name, DM_NAME_MAX);
}

static void parse_options(int argc, char **argv)
{
	int c;

	while ((c = getopt_long(argc, argv, "c:t:l:g:n:fhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.chunk_arg = optarg;
			break;
		case 't':
			opt.transfer_arg = optarg;
			break;
		case 'l':
			if (!strcmp(optarg, "interleave"))
				opt.mode = BDS_LAYOUT_INTERLEAVE;
			else if (!strcmp(optarg, "sequential"))
				opt.mode = BDS_LAYOUT_SEQUENTIAL;
			else
				usage_error("--layout %s: accepted are interleave and sequential",
					    optarg);
			break;
		case 'g':
			opt.groups_arg = optarg;
			break;
		case 'n':
			check_dm_name("--name", optarg);
			opt.name = optarg;
			break;
		case 'f':
			opt.force = true;
			break;
		case 'h':
			usage();
			exit(0);
		case 'V':
			printf(TOOL_NAME " " TOOL_VERSION
			       " (for the bds-stripe target 1.2.0)\n");
			exit(0);
		case OPT_SORT:
			opt.sort = true;
			break;
		case OPT_CREATE:
			check_dm_name("--create", optarg);
			opt.create = optarg;
			break;
		case OPT_TABLE_ONLY:
			opt.table_only = true;
			break;
		case OPT_PATHS:
			opt.paths = true;
			break;
		case OPT_DISK_MBPS:
			if (!parse_mbps(optarg, &opt.disk_mbps))
				usage_error("--disk-mbps %s: not a positive number",
					    optarg);
			opt.have_disk_mbps = true;
			break;
		case OPT_CTRL_MBPS:
			if (!parse_mbps(optarg, &opt.ctrl_mbps))
				usage_error("--controller-mbps %s: not a positive number",
					    optarg);
			opt.have_ctrl_mbps = true;
			break;
		case OPT_SYSFS:
			opt.sysfs = optarg;
			opt.real_sysfs = false;
			break;
		case OPT_MOUNTS:
			opt.mounts = optarg;
			break;
		case OPT_DMSETUP:
			opt.dmsetup = optarg;
			break;
		case OPT_READ_AHEAD: {
			u64 b;

			if (!strcmp(optarg, "auto")) {
				opt.ra_mode = RA_AUTO;
			} else if (!strcmp(optarg, "off")) {
				opt.ra_mode = RA_OFF;
			} else if (parse_size(optarg, &b) &&
				   b <= (u64)UINT32_MAX * 1024) {
				opt.ra_mode = RA_SET;
				opt.ra_kib = (b + 1023) / 1024;
			} else {
				usage_error("--read-ahead %s: accepted are auto, off and a size",
					    optarg);
			}
			break;
		}
		default:
			usage_error("unknown option");
		}
	}
	if (opt.chunk_arg && opt.transfer_arg)
		usage_error("--chunk and --transfer-size exclude each other");
	if (opt.have_ctrl_mbps && !opt.have_disk_mbps)
		usage_error("--controller-mbps needs --disk-mbps too");
	if (opt.name && opt.create && strcmp(opt.name, opt.create))
		usage_error("--name %s and --create %s differ", opt.name,
			    opt.create);
}

/* With --groups 'sdb,sdc;sdd' and no device arguments, the spec lists them. */
static int args_from_spec(char ***out)
{
	char copy[LIST_SZ * 4], *tok, *save = NULL;
	int n = 0;

	if (strlen(opt.groups_arg) >= sizeof(copy))
		refuse("--groups: too long");
	snprintf(copy, sizeof(copy), "%s", opt.groups_arg);
	spec_args = calloc(MAX_ARGS, sizeof(*spec_args));
	if (!spec_args)
		refuse("out of memory");
	for (tok = strtok_r(copy, ",;", &save); tok;
	     tok = strtok_r(NULL, ",;", &save)) {
		if (n >= MAX_ARGS)
			refuse("%s", bds_geom_error(BDS_ERR_TOO_MANY_MEMBERS));
		spec_args[n] = strdup(tok);
		if (!spec_args[n])
			refuse("out of memory");
		n++;
	}
	*out = spec_args;
	return n;
}

int main(int argc, char **argv)
{
	struct bds_layout layout;
	enum bds_geom_err err;
	u64 chunk_b, chunk, min_size, member_len, length, check_len;
	char **args;
	int nargs, i;

	parse_options(argc, argv);
	args = argv + optind;
	nargs = argc - optind;
	if (!nargs && opt.groups_arg && !spec_is_counts(opt.groups_arg))
		nargs = args_from_spec(&args);
	if (!nargs)
		usage_error("no devices given");
	if (nargs > MAX_ARGS)
		refuse("%s", bds_geom_error(BDS_ERR_TOO_MANY_MEMBERS));

	if (!realpath(opt.sysfs, devroot))
		refuse("--sysfs %s: %s", opt.sysfs, strerror(errno));
	if (strlen(devroot) + sizeof("/devices") > sizeof(devroot))
		refuse("--sysfs %s: path too long", opt.sysfs);
	strcat(devroot, "/devices");

	nmem = nargs;
	mem = calloc((size_t)nmem, sizeof(*mem));
	ctrls = calloc((size_t)nmem, sizeof(*ctrls));
	if (!mem || !ctrls)
		refuse("out of memory");

	/* the stripe unit's syntax first: no need to look at devices */
	chunk_b = DEFAULT_CHUNK_BYTES;
	if (opt.chunk_arg && !parse_size(opt.chunk_arg, &chunk_b))
		refuse("--chunk %s: not a size (number with optional s, K, M or G)",
		       opt.chunk_arg);
	if (opt.chunk_arg && chunk_b % SECTOR)
		refuse("--chunk %s: not a whole number of 512-byte sectors",
		       opt.chunk_arg);
	if (opt.transfer_arg) {
		u64 t;

		if (!parse_size(opt.transfer_arg, &t))
			refuse("--transfer-size %s: not a size (number with optional s, K, M or G)",
			       opt.transfer_arg);
	}

	for (i = 0; i < nmem; i++) {
		mem[i].arg = args[i];
		resolve(&mem[i]);
	}
	sort_controllers();
	check_members();
	make_groups();

	if (opt.transfer_arg) {
		u64 t = 0;

		parse_size(opt.transfer_arg, &t);
		chunk_b = chunk_from_transfer(t);
	}
	chunk = chunk_b / SECTOR;

	/* every geometry limit exactly as the kernel checks it */
	err = bds_layout_init(&layout, chunk, group_sizes, (u32)ngroups,
			      opt.mode);
	if (err == BDS_ERR_TOO_MANY_GROUPS && !groups_from_spec)
		refuse("%s (%d controllers found; merge some with --groups)",
		       bds_geom_error(err), ngroups);
	if (err != BDS_OK) {
		bool about_chunk = err == BDS_ERR_CHUNK_ZERO ||
				   err == BDS_ERR_CHUNK_ALIGN ||
				   err == BDS_ERR_CHUNK_TOO_BIG ||
				   err == BDS_ERR_WIDTH_TOO_BIG;
		const char *what = !about_chunk ? NULL :
				   opt.chunk_arg ? "--chunk" :
				   opt.transfer_arg ? "--transfer-size" : NULL;

		if (what)
			refuse("%s %s: %s", what, opt.chunk_arg ?
			       opt.chunk_arg : opt.transfer_arg,
			       bds_geom_error(err));
		refuse("%s", bds_geom_error(err));
	}
	for (i = 0; i < nmem; i++)
		if (chunk_b % mem[i].lbs)
			refuse("Chunk size is not a multiple of a member's logical block size: %s has %u-byte blocks, the stripe unit is %llu bytes",
			       mem[i].name, mem[i].lbs, U(chunk_b));

	min_size = UINT64_MAX;
	for (i = 0; i < nmem; i++)
		if (mem[i].size < min_size)
			min_size = mem[i].size;
	member_len = min_size / chunk * chunk;
	if (!member_len) {
		char h1[64], h2[64];

		for (i = 0; i < nmem; i++)
			if (mem[i].size == min_size)
				break;
		refuse("%s is too small: %s, less than one stripe unit (%s)",
		       mem[i].name, bds_human(min_size * SECTOR, h1, sizeof(h1)),
		       bds_human(chunk_b, h2, sizeof(h2)));
	}
	if (member_len > UINT64_MAX / (u64)nmem)
		refuse("the volume would exceed 2^64 sectors");
	length = member_len * (u64)nmem;
	if (!bds_member_len(&layout, length, &check_len) ||
	    check_len != member_len)
		refuse("internal error: length %llu is not a whole number of stripes",
		       U(length));

	opt.width_b = chunk_b * (u64)nmem;
	build_table(&layout, length);
	printf("%s\n", table);
	if (!opt.table_only)
		print_summary(&layout, length, member_len);
	if (opt.create)
		return create_device();
	return 0;
}
