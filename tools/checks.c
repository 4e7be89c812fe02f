// SPDX-License-Identifier: GPL-2.0
/*
 * Device checks: refuse devices that are in use (mounted, held by dm
 * or md, busy, a whole disk with partitions).  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "fmt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Checks                                                              */

static void problem(struct plan_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void problem(struct plan_ctx *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s", c->prog, c->opt.force ? "warning: " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	c->nproblems++;
}

/* "dm-0 (vg-lv)" for device-mapper holders, else the plain name */
static enum plan_status describe_holders(struct plan_ctx *c, const char *list,
					 char *out, size_t sz)
{
	char copy[LIST_SZ], dir[PATH_MAX], dmname[NAME_SZ];
	char *tok, *save = NULL;
	enum plan_status st;

	out[0] = 0;
	snprintf(copy, sizeof(copy), "%s", list);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		st = plan_path(c, dir, sizeof(dir), "%s/class/block/%s",
			       c->opt.sysfs, tok);
		if (st)
			return st;
		if (strlen(out) + 2 * NAME_SZ + 8 > sz)
			break;
		if (read_attr(dir, "dm/name", dmname, sizeof(dmname)))
			cat(out, sz, "%s%s (dm %s)", out[0] ? ", " : "", tok,
			    dmname);
		else
			cat(out, sz, "%s%s", out[0] ? ", " : "", tok);
	}
	return PLAN_OK;
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

static void check_mounts(struct plan_ctx *c)
{
	char line[4 * PATH_MAX];
	FILE *f = fopen(c->opt.mounts, "r");
	int i;

	if (!f) {
		problem(c, "cannot read %s to check for mounted devices: %s",
			c->opt.mounts, strerror(errno));
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
		if (c->opt.real_sysfs && realpath(src, real))
			name = base_name(real);
		for (i = 0; i < c->nmem; i++) {
			struct member *m = &c->mem[i];

			if (!strcmp(name, m->name))
				problem(c, "%s is mounted on %s (%s)", m->arg, dir,
					type ? type : "?");
			else if (!m->is_part && in_list(m->parts, name))
				problem(c, "%s: its partition %s is mounted on %s (%s)",
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
/* A member of the volume being grown, held by it alone. */
static bool held_by_own(const struct plan_ctx *c, const struct member *m)
{
	return c->opt.own_holder && !strcmp(m->holders, c->opt.own_holder);
}

static enum plan_status check_exclusive(struct plan_ctx *c,
					const struct member *m)
{
	char node[PATH_MAX];
	enum plan_status st;
	struct stat s;
	int fd;

	if (held_by_own(c, m))
		return PLAN_OK;
	if (strchr(m->arg, '/'))
		st = plan_path(c, node, sizeof(node), "%s", m->arg);
	else
		st = plan_path(c, node, sizeof(node), "/dev/%s", m->name);
	if (st)
		return st;
	if (stat(node, &s) || !S_ISBLK(s.st_mode) ||
	    major(s.st_rdev) != m->maj || minor(s.st_rdev) != m->min)
		return PLAN_OK;
	fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		close(fd);
		return PLAN_OK;
	}
	if (errno == EBUSY)
		problem(c, "%s is busy: an exclusive open fails (in use by a filesystem, swap, dm, md or another program)",
			m->arg);
	return PLAN_OK;
}

/* Member @i against the ones before it: the same device, overlapping. */
static enum plan_status check_pairs(struct plan_ctx *c, int i)
{
	const struct member *m = &c->mem[i], *o;
	int j;

	for (j = 0; j < i; j++) {
		o = &c->mem[j];
		if (m->maj == o->maj && m->min == o->min)
			return plan_fail(c, "%s is given twice (as '%s' and '%s')",
					 m->name, o->arg, m->arg);
		if ((m->is_part && !strcmp(m->disk, o->name)) ||
		    (o->is_part && !strcmp(o->disk, m->name)))
			return plan_fail(c, "%s and %s overlap: one is a partition of the other",
					 o->name, m->name);
		if (m->is_part && o->is_part && !strcmp(m->disk, o->disk))
			note(c, "%s and %s are partitions of the same disk %s: they share its bandwidth",
			     o->name, m->name, m->disk);
	}
	return PLAN_OK;
}

/* Member @m alone: empty, held, a disk with partitions. */
static enum plan_status check_member(struct plan_ctx *c, const struct member *m)
{
	char desc[LIST_SZ];
	enum plan_status st;

	if (m->size == 0)
		return plan_fail(c, "%s has size 0", m->arg);
	if (held_by_own(c, m))
		return PLAN_OK;
	if (m->holders[0]) {
		st = describe_holders(c, m->holders, desc, sizeof(desc));
		if (st)
			return st;
		problem(c, "%s is in use by %s (%s/holders is not empty)",
			m->arg, desc, m->dir);
	}
	if (!m->is_part && m->parts[0])
		problem(c, "%s is a whole disk with partitions (%s): give a partition, or remove the partition table",
			m->arg, m->parts);
	return PLAN_OK;
}

enum plan_status check_members(struct plan_ctx *c)
{
	enum plan_status st = PLAN_OK;
	int i;

	for (i = 0; i < c->nmem && !st; i++) {
		st = check_pairs(c, i);
		if (!st)
			st = check_member(c, &c->mem[i]);
	}
	if (!st)
		check_mounts(c);
	for (i = 0; c->opt.real_sysfs && i < c->nmem && !st; i++)
		st = check_exclusive(c, &c->mem[i]);
	if (st)
		return st;
	if (c->nproblems && !c->opt.force)
		return plan_fail(c, "refusing the devices above (%d problem%s: in use, or a whole disk with partitions); --force takes them anyway, but a device that is mounted or held open stays refused when create opens it exclusively",
				 c->nproblems, c->nproblems == 1 ? "" : "s");
	return PLAN_OK;
}
