// SPDX-License-Identifier: GPL-2.0
/*
 * Topology: a device argument -> its sysfs entry, size, block sizes,
 * holders and partitions, and the controller it hangs off.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "fmt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int split_rel(const struct plan_ctx *c, const char *real, char *buf, size_t sz, char **comp,
		     int max)
{
	size_t n = strlen(c->devroot);
	char *tok, *save = NULL;
	int nc = 0;

	if (strncmp(real, c->devroot, n) || real[n] != '/')
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
 * A native-multipath namespace of subsystem directory @subsys whose
 * paths (@np controllers, in natural order) are fabrics controllers: its
 * group by fabric_group(c).  false if the first path is a local one.
 */
static bool multipath_fabric(struct plan_ctx *c, struct member *m, const char *subsys,
			     char **paths, int np, char *ctrl, char *desc)
{
	struct fabric *f = calloc((size_t)np, sizeof(*f));
	char dir[PATH_MAX];
	int i, n = 0;

	if (!f)
		refuse(c, "out of memory");
	for (i = 0; i < np; i++) {
		xsnprintf(c, dir, sizeof(dir), "%s/%s", subsys, paths[i]);
		if (fabric_read(dir, paths[i], &f[n]))
			n++;
		else if (!i)
			break;
	}
	if (n)
		fabric_group(c, m, f, n, ctrl, desc);
	free(f);
	return n > 0;
}

/*
 * The controller of a whole disk, from its real sysfs path:
 *   .../0000:00:10.0/.../host2/target2:0:0/2:0:0:0/block/sdb  -> host2
 *   .../0000:00:04.0/nvme/nvme0/nvme0n1                       -> nvme0
 *   virtual/nvme-subsystem/nvme-subsys0/nvme0n1 (multipath)   -> first path
 *   virtual/nvme-fabrics/ctl/nvme3/nvme3n1 (and multipath ones whose
 *     paths are fabrics controllers) -> storage host (fabrics.c)
 *   .../0000:00:05.0/virtio3/block/vda                        -> 0000:00:05.0
 *   virtual/block/loop0 (loop, nullb, ram, dm, md, ...)       -> loop0
 */
static void find_controller(struct plan_ctx *c, struct member *m, char *ctrl, char *desc)
{
	char buf[PATH_MAX], *comp[128], pci[NAME_SZ];
	char via[LIST_SZ] = "";
	int nc, i;

	nc = split_rel(c, m->diskdir, buf, sizeof(buf), comp, 128);
	if (nc >= 3 && !strcmp(comp[0], "virtual") &&
	    !strcmp(comp[1], "nvme-subsystem")) {
		char subsys[PATH_MAX], all[LIST_SZ], path[PATH_MAX];
		char real[PATH_MAX], *paths[64], *tok, *save = NULL;
		int np = 0;

		xsnprintf(c, subsys, sizeof(subsys), "%s/virtual/nvme-subsystem/%s",
			  c->devroot, comp[2]);
		list_dir(subsys, all, sizeof(all));
		for (tok = strtok_r(all, " ", &save); tok && np < 64;
		     tok = strtok_r(NULL, " ", &save))
			if (is_name_num(tok, "nvme"))
				paths[np++] = tok;
		if (np && multipath_fabric(c, m, subsys, paths, np, ctrl, desc))
			return;
		if (np) {
			/* list_dir sorted naturally: paths[0] is the first */
			for (i = 0; i < np; i++)
				cat(via, sizeof(via), "%s%s", i ? ", " : "",
				    paths[i]);
			snprintf(m->kind, sizeof(m->kind),
				 "NVMe multipath namespace");
			snprintf(ctrl, NAME_SZ, "%s", paths[0]);
			xsnprintf(c, path, sizeof(path), "%s/%s", subsys, paths[0]);
			pci[0] = 0;
			if (realpath(path, real)) {
				char b2[PATH_MAX], *c2[128];
				int n2 = split_rel(c, real, b2, sizeof(b2), c2, 128);

				last_pci(c2, n2, pci, sizeof(pci));
			}
			snprintf(desc, 2 * NAME_SZ, "NVMe controller%s%s", pci[0] ?
				 ", PCI " : "", pci);
			note(c, "%s is an NVMe multipath namespace of %s (paths: %s); grouped with its first controller, %s",
			     m->disk, comp[2], via, paths[0]);
			return;
		}
	}
	/* virtual/nvme-fabrics/ctl/nvme3/nvme3n1: no native multipath */
	if (nc >= 5 && !strcmp(comp[0], "virtual") &&
	    !strcmp(comp[1], "nvme-fabrics") && is_name_num(comp[3], "nvme")) {
		char cdir[PATH_MAX];
		struct fabric f;

		xsnprintf(c, cdir, sizeof(cdir), "%s/virtual/nvme-fabrics/%s/%s",
			  c->devroot, comp[2], comp[3]);
		if (fabric_read(cdir, comp[3], &f)) {
			fabric_group(c, m, &f, 1, ctrl, desc);
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
		note(c, "%s is a %s: it has no controller and forms its own group",
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
		note(c, "%s is a virtio-blk disk: each one is its own controller (%s)",
		     m->disk, ctrl);
		return;
	}
	last_pci(comp, nc, pci, sizeof(pci));
	snprintf(m->kind, sizeof(m->kind), "disk");
	if (pci[0]) {
		snprintf(ctrl, NAME_SZ, "%s", pci);
		snprintf(desc, 2 * NAME_SZ, "PCI function");
		note(c, "%s: controller type unknown, grouped by its PCI function %s",
		     m->disk, pci);
	} else {
		snprintf(ctrl, NAME_SZ, "%s", m->disk);
		snprintf(desc, 2 * NAME_SZ, "controller unknown");
		note(c, "%s: controller unknown, it forms its own group", m->disk);
	}
}

static int add_controller(struct plan_ctx *c, const char *name, const char *desc)
{
	int i;

	for (i = 0; i < c->nctrl; i++)
		if (!strcmp(c->ctrls[i].name, name))
			return i;
	snprintf(c->ctrls[c->nctrl].name, sizeof(c->ctrls[c->nctrl].name), "%s", name);
	snprintf(c->ctrls[c->nctrl].desc, sizeof(c->ctrls[c->nctrl].desc), "%s", desc);
	return c->nctrl++;
}

/*
 * Find a device argument in sysfs.  Accepted: a kernel name (sdb), a
 * path whose last component is one (/dev/sdb), major:minor, and - on the
 * real /sys only - any path to a block device node (/dev/disk/by-id/...,
 * /dev/mapper/x), which is followed to its major:minor.  With --sysfs
 * the argument is mapped into the fake tree by its last component and
 * /dev is never looked at.
 */
void resolve(struct plan_ctx *c, struct member *m)
{
	char link[PATH_MAX], buf[64], real[PATH_MAX];
	unsigned int maj, min;
	bool have_rdev = false;
	dev_t rdev = 0;
	char tail;

	if (sscanf(m->arg, "%u:%u%c", &maj, &min, &tail) == 2) {
		xsnprintf(c, link, sizeof(link), "%s/dev/block/%u:%u", c->opt.sysfs,
			  maj, min);
	} else {
		const char *name = base_name(m->arg);

		if (c->opt.real_sysfs && strchr(m->arg, '/')) {
			struct stat st;

			if (realpath(m->arg, real))
				name = base_name(real);
			if (!stat(m->arg, &st) && S_ISBLK(st.st_mode)) {
				have_rdev = true;
				rdev = st.st_rdev;
			}
		}
		if (!*name || strlen(name) >= NAME_SZ)
			refuse(c, "%s: not a block device name", m->arg);
		xsnprintf(c, link, sizeof(link), "%s/class/block/%s", c->opt.sysfs,
			  name);
		if (have_rdev && access(link, F_OK))
			xsnprintf(c, link, sizeof(link), "%s/dev/block/%u:%u",
				  c->opt.sysfs, major(rdev), minor(rdev));
	}
	if (!realpath(link, m->dir))
		refuse(c, "%s: no such block device (%s not found)", m->arg, link);
	xsnprintf(c, m->name, sizeof(m->name), "%s", base_name(m->dir));
	if (!read_attr(m->dir, "dev", buf, sizeof(buf)) ||
	    sscanf(buf, "%u:%u%c", &m->maj, &m->min, &tail) != 2)
		refuse(c, "%s: cannot read %s/dev (not a block device?)", m->arg,
		       m->dir);
	if (have_rdev && (major(rdev) != m->maj || minor(rdev) != m->min))
		refuse(c, "%s: device node %u:%u does not match sysfs %s (%u:%u)",
		       m->arg, major(rdev), minor(rdev), m->name, m->maj, m->min);
	if (!read_u64_attr(m->dir, "size", &m->size))
		refuse(c, "%s: cannot read its size from %s/size", m->arg, m->dir);

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
		xsnprintf(c, m->disk, sizeof(m->disk), "%s", base_name(m->diskdir));
	} else {
		snprintf(m->diskdir, sizeof(m->diskdir), "%s", m->dir);
		snprintf(m->disk, sizeof(m->disk), "%s", m->name);
		list_partitions(m->dir, m->parts, sizeof(m->parts));
	}
	{
		u64 v;

		if (!read_u64_attr(m->diskdir, "queue/logical_block_size", &v) ||
		    !v || v > UINT32_MAX)
			refuse(c, "%s: cannot read queue/logical_block_size of %s",
			       m->arg, m->disk);
		m->lbs = (u32)v;
		if (!read_u64_attr(m->diskdir, "queue/physical_block_size",
				   &v) || !v || v > UINT32_MAX)
			v = m->lbs;
		m->pbs = (u32)v;
	}
	xsnprintf(c, link, sizeof(link), "%s/holders", m->dir);
	list_dir(link, m->holders, sizeof(m->holders));
	disk_serial(m->diskdir, m->serial, sizeof(m->serial));

	{
		char ctrl[NAME_SZ], desc[2 * NAME_SZ];

		find_controller(c, m, ctrl, desc);
		m->ctrl = add_controller(c, ctrl, desc);
	}
}

