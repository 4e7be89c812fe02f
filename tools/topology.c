// SPDX-License-Identifier: GPL-2.0
/*
 * Topology: a device argument -> its sysfs entry, size, block sizes,
 * holders and partitions, and the controller it hangs off.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* A real sysfs path below <sysfs>/devices, in its components. */
struct dev_path {
	char buf[PATH_MAX];
	char *comp[128];
	int nc;			/* 0: not below <sysfs>/devices */
};

/* What a disk's controller is: the group's key and what it stands for. */
struct ctrl_id {
	char name[NAME_SZ];	/* "": not found yet */
	char desc[2 * NAME_SZ];
};

static void split_rel(const struct plan_ctx *c, const char *real,
		      struct dev_path *p)
{
	size_t n = strlen(c->devroot);
	char *tok, *save = NULL;

	p->nc = 0;
	if (strncmp(real, c->devroot, n) || real[n] != '/')
		return;
	snprintf(p->buf, sizeof(p->buf), "%s", real + n + 1);
	for (tok = strtok_r(p->buf, "/", &save); tok && p->nc < 128;
	     tok = strtok_r(NULL, "/", &save))
		p->comp[p->nc++] = tok;
}

/* The last PCI function address among the first @upto components. */
static void last_pci(const struct dev_path *p, int upto, char *pci, size_t sz)
{
	int i;

	pci[0] = 0;
	for (i = upto - 1; i >= 0; i--)
		if (is_pci_addr(p->comp[i])) {
			snprintf(pci, sz, "%s", p->comp[i]);
			return;
		}
}

/* The last component that is @prefix and a number; -1 if none. */
static int last_named(const struct dev_path *p, const char *prefix)
{
	int i;

	for (i = p->nc - 1; i >= 0; i--)
		if (is_name_num(p->comp[i], prefix))
			return i;
	return -1;
}

/* The controller @name, "@what, PCI <its PCI function>" */
static void set_ctrl(struct ctrl_id *id, const char *name, const char *what,
		     const struct dev_path *p, int upto)
{
	char pci[NAME_SZ];

	last_pci(p, upto, pci, sizeof(pci));
	snprintf(id->name, sizeof(id->name), "%s", name);
	snprintf(id->desc, sizeof(id->desc), "%s%s%s", what,
		 pci[0] ? ", PCI " : "", pci);
}

/*
 * A native-multipath namespace of subsystem directory @subsys whose
 * paths (@np controllers, in natural order) are fabrics controllers: its
 * group by fabric_group().  Nothing if the first path is a local one.
 */
static enum plan_status multipath_fabric(struct plan_ctx *c, struct member *m,
					 const char *subsys, char **paths,
					 int np, struct ctrl_id *id)
{
	struct fabric *f = calloc((size_t)np, sizeof(*f));
	enum plan_status st = PLAN_OK;
	char dir[PATH_MAX];
	int i, n = 0;

	if (!f)
		return plan_fail(c, "out of memory");
	for (i = 0; i < np && !st; i++) {
		st = plan_path(c, dir, sizeof(dir), "%s/%s", subsys, paths[i]);
		if (!st && fabric_read(dir, paths[i], &f[n]))
			n++;
		else if (!i)
			break;
	}
	if (!st && n)
		fabric_group(c, m, f, n, id->name, id->desc);
	free(f);
	return st;
}

/*
 * A native-multipath namespace whose first path is a local controller:
 * grouped with that controller, with a note.
 */
static enum plan_status multipath_local(struct plan_ctx *c, struct member *m,
					const char *subsys, char **paths,
					int np, struct ctrl_id *id)
{
	char via[LIST_SZ] = "", path[PATH_MAX], real[PATH_MAX];
	struct dev_path first = { .nc = 0 };
	enum plan_status st;
	int i;

	/* list_dir sorted naturally: paths[0] is the first */
	for (i = 0; i < np; i++)
		cat(via, sizeof(via), "%s%s", i ? ", " : "", paths[i]);
	snprintf(m->kind, sizeof(m->kind), "NVMe multipath namespace");
	st = plan_path(c, path, sizeof(path), "%s/%s", subsys, paths[0]);
	if (st)
		return st;
	if (realpath(path, real))
		split_rel(c, real, &first);
	set_ctrl(id, paths[0], "NVMe controller", &first, first.nc);
	note(c, "%s is an NVMe multipath namespace of %s (paths: %s); grouped with its first controller, %s",
	     m->disk, base_name(subsys), via, paths[0]);
	return PLAN_OK;
}

/* virtual/nvme-subsystem/nvme-subsys0/nvme0n1: native NVMe multipath */
static enum plan_status ctrl_multipath(struct plan_ctx *c, struct member *m,
				       const struct dev_path *p,
				       struct ctrl_id *id)
{
	char subsys[PATH_MAX], all[LIST_SZ], *paths[64], *tok, *save = NULL;
	enum plan_status st;
	int np = 0;

	if (p->nc < 3 || strcmp(p->comp[0], "virtual") ||
	    strcmp(p->comp[1], "nvme-subsystem"))
		return PLAN_OK;
	st = plan_path(c, subsys, sizeof(subsys), "%s/virtual/nvme-subsystem/%s",
		       c->devroot, p->comp[2]);
	if (st)
		return st;
	list_dir(subsys, all, sizeof(all));
	for (tok = strtok_r(all, " ", &save); tok && np < 64;
	     tok = strtok_r(NULL, " ", &save))
		if (is_name_num(tok, "nvme"))
			paths[np++] = tok;
	if (!np)
		return PLAN_OK;
	st = multipath_fabric(c, m, subsys, paths, np, id);
	if (st || id->name[0])
		return st;
	return multipath_local(c, m, subsys, paths, np, id);
}

/* virtual/nvme-fabrics/ctl/nvme3/nvme3n1: fabrics, no native multipath */
static enum plan_status ctrl_fabrics(struct plan_ctx *c, struct member *m,
				     const struct dev_path *p,
				     struct ctrl_id *id)
{
	char dir[PATH_MAX];
	enum plan_status st;
	struct fabric f;

	if (p->nc < 5 || strcmp(p->comp[0], "virtual") ||
	    strcmp(p->comp[1], "nvme-fabrics") ||
	    !is_name_num(p->comp[3], "nvme"))
		return PLAN_OK;
	st = plan_path(c, dir, sizeof(dir), "%s/virtual/nvme-fabrics/%s/%s",
		       c->devroot, p->comp[2], p->comp[3]);
	if (!st && fabric_read(dir, p->comp[3], &f))
		fabric_group(c, m, &f, 1, id->name, id->desc);
	return st;
}

/* virtual/block/loop0 (loop, nullb, ram, dm, md, ...): its own group */
static enum plan_status ctrl_virtual(struct plan_ctx *c, struct member *m,
				     const struct dev_path *p,
				     struct ctrl_id *id)
{
	static const char *const kinds[][2] = {
		{ "loop", "loop device" }, { "nullb", "null_blk device" },
		{ "ram", "RAM disk" }, { "dm-", "device-mapper device" },
		{ "md", "md device" }, { "zram", "zram device" },
	};
	const char *what = "virtual device";
	size_t i;

	if (p->nc && strcmp(p->comp[0], "virtual"))
		return PLAN_OK;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (is_name_num(m->disk, kinds[i][0])) {
			what = kinds[i][1];
			break;
		}
	snprintf(m->kind, sizeof(m->kind), "%s", what);
	snprintf(id->name, sizeof(id->name), "%s", m->disk);
	snprintf(id->desc, sizeof(id->desc), "%s, no controller", what);
	note(c, "%s is a %s: it has no controller and forms its own group",
	     m->disk, what);
	return PLAN_OK;
}

/* .../0000:00:10.0/.../host2/target2:0:0/2:0:0:0/block/sdb: host2 */
static enum plan_status ctrl_scsi(struct plan_ctx *c, struct member *m,
				  const struct dev_path *p, struct ctrl_id *id)
{
	int i = last_named(p, "host");

	(void)c;
	if (i < 0)
		return PLAN_OK;
	snprintf(m->kind, sizeof(m->kind), "SCSI disk");
	set_ctrl(id, p->comp[i], "SCSI host", p, i);
	return PLAN_OK;
}

/* .../0000:00:04.0/nvme/nvme0/nvme0n1: nvme0 */
static enum plan_status ctrl_nvme(struct plan_ctx *c, struct member *m,
				  const struct dev_path *p, struct ctrl_id *id)
{
	int i;

	(void)c;
	for (i = p->nc - 1; i > 0; i--)
		if (is_name_num(p->comp[i], "nvme") &&
		    !strcmp(p->comp[i - 1], "nvme"))
			break;
	if (i <= 0)
		return PLAN_OK;
	snprintf(m->kind, sizeof(m->kind), "NVMe namespace");
	set_ctrl(id, p->comp[i], "NVMe controller", p, i);
	return PLAN_OK;
}

/* .../0000:00:05.0/virtio3/block/vda: each one its own PCI function */
static enum plan_status ctrl_virtio(struct plan_ctx *c, struct member *m,
				    const struct dev_path *p,
				    struct ctrl_id *id)
{
	int i = last_named(p, "virtio");
	char pci[NAME_SZ];

	if (i < 0)
		return PLAN_OK;
	last_pci(p, i, pci, sizeof(pci));
	snprintf(m->kind, sizeof(m->kind), "virtio-blk disk");
	snprintf(id->name, sizeof(id->name), "%s", pci[0] ? pci : p->comp[i]);
	snprintf(id->desc, sizeof(id->desc), "virtio-blk PCI function");
	note(c, "%s is a virtio-blk disk: each one is its own controller (%s)",
	     m->disk, id->name);
	return PLAN_OK;
}

/* Anything else: its PCI function if it has one, else its own group. */
static enum plan_status ctrl_unknown(struct plan_ctx *c, struct member *m,
				    const struct dev_path *p,
				    struct ctrl_id *id)
{
	char pci[NAME_SZ];

	last_pci(p, p->nc, pci, sizeof(pci));
	snprintf(m->kind, sizeof(m->kind), "disk");
	if (pci[0]) {
		snprintf(id->name, sizeof(id->name), "%s", pci);
		snprintf(id->desc, sizeof(id->desc), "PCI function");
		note(c, "%s: controller type unknown, grouped by its PCI function %s",
		     m->disk, pci);
	} else {
		snprintf(id->name, sizeof(id->name), "%s", m->disk);
		snprintf(id->desc, sizeof(id->desc), "controller unknown");
		note(c, "%s: controller unknown, it forms its own group",
		     m->disk);
	}
	return PLAN_OK;
}

/*
 * The controller of a whole disk, from its real sysfs path: the first of
 * these that knows the path (fills in @id->name) decides.
 *   virtual/nvme-subsystem/nvme-subsys0/nvme0n1 (multipath)   -> first path
 *   virtual/nvme-fabrics/ctl/nvme3/nvme3n1 (and multipath ones whose
 *     paths are fabrics controllers) -> storage host (fabrics.c)
 *   virtual/block/loop0 (loop, nullb, ram, dm, md, ...)       -> loop0
 *   .../0000:00:10.0/.../host2/target2:0:0/2:0:0:0/block/sdb  -> host2
 *   .../0000:00:04.0/nvme/nvme0/nvme0n1                       -> nvme0
 *   .../0000:00:05.0/virtio3/block/vda                        -> 0000:00:05.0
 */
static enum plan_status (*const ctrl_finders[])(struct plan_ctx *c,
						    struct member *m,
						    const struct dev_path *p,
						    struct ctrl_id *id) = {
	ctrl_multipath, ctrl_fabrics, ctrl_virtual, ctrl_scsi, ctrl_nvme,
	ctrl_virtio, ctrl_unknown,
};

/* @m's controller: its index into c->ctrls, added if it is new. */
static enum plan_status add_controller(struct plan_ctx *c, struct member *m)
{
	struct ctrl_id id = { .name = "" };
	struct dev_path p;
	enum plan_status st = PLAN_OK;
	size_t i;
	int k;

	split_rel(c, m->diskdir, &p);
	for (i = 0; !st && !id.name[0]; i++)
		st = ctrl_finders[i](c, m, &p, &id);
	if (st)
		return st;
	for (k = 0; k < c->nctrl; k++)
		if (!strcmp(c->ctrls[k].name, id.name))
			break;
	if (k == c->nctrl) {
		snprintf(c->ctrls[k].name, sizeof(c->ctrls[k].name), "%s",
			 id.name);
		snprintf(c->ctrls[k].desc, sizeof(c->ctrls[k].desc), "%s",
			 id.desc);
		c->nctrl++;
	}
	m->ctrl = k;
	return PLAN_OK;
}

/*
 * The sysfs entry of device argument @m->arg into @link (PATH_MAX).  On
 * the real /sys, a path to a block device node also gives its
 * major:minor (@rdev, @have_rdev).
 */
static enum plan_status arg_link(struct plan_ctx *c, const struct member *m,
				 char *link, dev_t *rdev, bool *have_rdev)
{
	const char *name = base_name(m->arg);
	char real[PATH_MAX], tail;
	unsigned int maj, min;
	enum plan_status st;
	struct stat s;

	if (sscanf(m->arg, "%u:%u%c", &maj, &min, &tail) == 2)
		return plan_path(c, link, PATH_MAX, "%s/dev/block/%u:%u",
				 c->opt.sysfs, maj, min);
	if (c->opt.real_sysfs && strchr(m->arg, '/')) {
		if (realpath(m->arg, real))
			name = base_name(real);
		if (!stat(m->arg, &s) && S_ISBLK(s.st_mode)) {
			*have_rdev = true;
			*rdev = s.st_rdev;
		}
	}
	if (!*name || strlen(name) >= NAME_SZ)
		return plan_fail(c, "%s: not a block device name", m->arg);
	st = plan_path(c, link, PATH_MAX, "%s/class/block/%s", c->opt.sysfs,
		       name);
	if (!st && *have_rdev && access(link, F_OK))
		st = plan_path(c, link, PATH_MAX, "%s/dev/block/%u:%u",
			       c->opt.sysfs, major(*rdev), minor(*rdev));
	return st;
}

/* @m's name, major:minor (matching its node's, @rdev) and size. */
static enum plan_status read_identity(struct plan_ctx *c, struct member *m,
				      const char *link, dev_t rdev,
				      bool have_rdev)
{
	enum plan_status st;
	char buf[64], tail;

	if (!realpath(link, m->dir))
		return plan_fail(c, "%s: no such block device (%s not found)",
				 m->arg, link);
	st = plan_path(c, m->name, sizeof(m->name), "%s", base_name(m->dir));
	if (st)
		return st;
	if (!read_attr(m->dir, "dev", buf, sizeof(buf)) ||
	    sscanf(buf, "%u:%u%c", &m->maj, &m->min, &tail) != 2)
		return plan_fail(c, "%s: cannot read %s/dev (not a block device?)",
				 m->arg, m->dir);
	if (have_rdev && (major(rdev) != m->maj || minor(rdev) != m->min))
		return plan_fail(c, "%s: device node %u:%u does not match sysfs %s (%u:%u)",
				 m->arg, major(rdev), minor(rdev), m->name,
				 m->maj, m->min);
	if (!read_u64_attr(m->dir, "size", &m->size))
		return plan_fail(c, "%s: cannot read its size from %s/size",
				 m->arg, m->dir);
	return PLAN_OK;
}

/* A partition and its disk, or a whole disk and its partitions. */
static enum plan_status read_disk(struct plan_ctx *c, struct member *m)
{
	u64 pn = 0;
	char *slash;

	m->is_part = exists(m->dir, "partition");
	if (!m->is_part) {
		snprintf(m->diskdir, sizeof(m->diskdir), "%s", m->dir);
		snprintf(m->disk, sizeof(m->disk), "%s", m->name);
		list_partitions(m->dir, m->parts, sizeof(m->parts));
		return PLAN_OK;
	}
	read_u64_attr(m->dir, "partition", &pn);
	m->partno = (unsigned int)pn;
	snprintf(m->diskdir, sizeof(m->diskdir), "%s", m->dir);
	slash = strrchr(m->diskdir, '/');
	if (slash)
		*slash = 0;
	return plan_path(c, m->disk, sizeof(m->disk), "%s",
			 base_name(m->diskdir));
}

/* The disk's logical and physical block sizes. */
static enum plan_status read_block_sizes(struct plan_ctx *c, struct member *m)
{
	u64 v;

	if (!read_u64_attr(m->diskdir, "queue/logical_block_size", &v) ||
	    !v || v > UINT32_MAX)
		return plan_fail(c, "%s: cannot read queue/logical_block_size of %s",
				 m->arg, m->disk);
	m->lbs = (u32)v;
	if (!read_u64_attr(m->diskdir, "queue/physical_block_size", &v) ||
	    !v || v > UINT32_MAX)
		v = m->lbs;
	m->pbs = (u32)v;
	return PLAN_OK;
}

/*
 * Find a device argument in sysfs.  Accepted: a kernel name (sdb), a
 * path whose last component is one (/dev/sdb), major:minor, and - on the
 * real /sys only - any path to a block device node (/dev/disk/by-id/...,
 * /dev/mapper/x), which is followed to its major:minor.  With --sysfs
 * the argument is mapped into the fake tree by its last component and
 * /dev is never looked at.
 */
enum plan_status resolve(struct plan_ctx *c, struct member *m)
{
	char link[PATH_MAX];
	bool have_rdev = false;
	enum plan_status st;
	dev_t rdev = 0;

	st = arg_link(c, m, link, &rdev, &have_rdev);
	if (!st)
		st = read_identity(c, m, link, rdev, have_rdev);
	if (!st)
		st = read_disk(c, m);
	if (!st)
		st = read_block_sizes(c, m);
	if (!st)
		st = plan_path(c, link, sizeof(link), "%s/holders", m->dir);
	if (st)
		return st;
	list_dir(link, m->holders, sizeof(m->holders));
	disk_serial(m->diskdir, m->serial, sizeof(m->serial));
	return add_controller(c, m);
}
