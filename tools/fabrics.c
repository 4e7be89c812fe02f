// SPDX-License-Identifier: GPL-2.0
/*
 * NVMe over Fabrics: which storage host a namespace's data lives on.
 * A fabrics controller (nvme-tcp, nvme-rdma, nvme-fc, nvme-loop) sits
 * under virtual/nvme-fabrics/ctl/nvmeN in sysfs; its attributes say
 * where it leads:
 *
 *   transport  tcp, rdma, fc, loop (pcie for a local controller)
 *   address    traddr=10.0.1.1,trsvcid=4420[,src_addr=...]  (no
 *              address attribute for loop)
 *   subsysnqn  the NVMe subsystem it reaches
 *
 * The local name nvmeN says nothing about where the data is, and it
 * changes with every reconnect.  The group of a fabrics namespace is its
 * storage host (--group-by host, the default: the transport address, so
 * that two subsystems exported by one host share a group), its subsystem
 * NQN, or its controller.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"

#include <string.h>

/*
 * The fabrics facts of the NVMe controller at sysfs directory @dir, named
 * @name (nvme3).  false: a local controller (transport pcie, or none
 * given: the fake trees of the tests and old kernels).
 */
bool fabric_read(const char *dir, const char *name, struct fabric *f)
{
	char addr[LIST_SZ], *tok, *save = NULL;

	memset(f, 0, sizeof(*f));
	if (!read_attr(dir, "transport", f->transport, sizeof(f->transport)) ||
	    !f->transport[0] || !strcmp(f->transport, "pcie"))
		return false;
	snprintf(f->ctrl, sizeof(f->ctrl), "%s", name);
	read_attr(dir, "subsysnqn", f->nqn, sizeof(f->nqn));
	if (read_attr(dir, "address", addr, sizeof(addr)))
		for (tok = strtok_r(addr, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			if (!strncmp(tok, "traddr=", 7))
				snprintf(f->traddr, sizeof(f->traddr), "%s",
					 tok + 7);
			else if (!strncmp(tok, "trsvcid=", 8))
				snprintf(f->trsvcid, sizeof(f->trsvcid), "%s",
					 tok + 8);
		}
	/* nvme-loop: the target is this machine */
	if (!f->traddr[0])
		snprintf(f->traddr, sizeof(f->traddr), "%s",
			 strcmp(f->transport, "loop") ? "unknown-address" :
			 "local");
	return true;
}

/* "NVMe/TCP", "NVMe/RDMA", "NVMe/FC", "NVMe loop" into @buf (32 bytes) */
const char *fabric_kind(const struct fabric *f, char *buf)
{
	char *p;

	if (!strcmp(f->transport, "loop"))
		return "NVMe loop";
	snprintf(buf, 32, "NVMe/%.*s", 16, f->transport);
	for (p = buf + 5; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	return buf;
}

/* Where @f leads, for messages: "tcp 10.0.1.1 port 4420". */
void fabric_where(const struct fabric *f, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s %s%s%s", f->transport, f->traddr,
		 f->trsvcid[0] ? " port " : "", f->trsvcid);
}

/* The group key of @f under --group-by @by, into @key (NAME_SZ). */
void fabric_key(enum group_by by, const struct fabric *f, char *key)
{
	switch (by) {
	case GROUP_BY_CONTROLLER:
		snprintf(key, NAME_SZ, "%s", f->ctrl);
		break;
	case GROUP_BY_SUBSYSTEM:
		/* an NQN is up to 223 bytes: the first 127 name the group */
		snprintf(key, NAME_SZ, "%.*s", NAME_SZ - 1,
			 f->nqn[0] ? f->nqn : f->ctrl);
		break;
	default:
		snprintf(key, NAME_SZ, "%s", f->traddr);
		break;
	}
}

/*
 * The group of a fabrics namespace reached through the controllers @f
 * (@n of them: one, or the paths of a multipath namespace, first path
 * first) into @ctrl and @desc, and what to show of it into @m.  The paths
 * of a multipath namespace normally lead to one host; when they lead to
 * several, the first path's decides, with a note.
 */
void fabric_group(struct plan_ctx *c, struct member *m,
		  const struct fabric *f, int n, char *ctrl, char *desc)
{
	char key[NAME_SZ], other[NAME_SZ], where[LIST_SZ], kbuf[32];
	const char *kind = fabric_kind(&f[0], kbuf);
	int i;

	fabric_key(c->opt.group_by, &f[0], key);
	snprintf(ctrl, NAME_SZ, "%s", key);
	fabric_where(&f[0], where, sizeof(where));
	snprintf(m->kind, sizeof(m->kind), "%s%s namespace", kind,
		 n > 1 ? " multipath" : "");
	snprintf(m->host, sizeof(m->host), "%s", f[0].traddr);
	fabric_where(&f[0], m->where, sizeof(m->where));
	snprintf(m->subsys, sizeof(m->subsys), "%s", f[0].nqn);
	snprintf(m->fabric_ctrl, sizeof(m->fabric_ctrl), "%s", f[0].ctrl);
	switch (c->opt.group_by) {
	case GROUP_BY_CONTROLLER:
		snprintf(desc, 2 * NAME_SZ, "%s controller, host %s",
			 kind, f[0].traddr);
		break;
	case GROUP_BY_SUBSYSTEM:
		snprintf(desc, 2 * NAME_SZ, "%s subsystem on host %s",
			 kind, f[0].traddr);
		break;
	default:
		snprintf(desc, 2 * NAME_SZ, "%s storage host",
			 kind);
		break;
	}
	note(c, "%s is an %s namespace of %s on %s (controller %s)", m->disk,
	     kind, f[0].nqn[0] ? f[0].nqn : "an unknown subsystem",
	     where, f[0].ctrl);
	for (i = 1; i < n; i++) {
		fabric_key(c->opt.group_by, &f[i], other);
		if (strcmp(other, key)) {
			note(c, "%s: its paths lead to different groups (%s by %s, %s by %s); grouped by the first path's",
			     m->disk, key, f[0].ctrl, other, f[i].ctrl);
			break;
		}
	}
}
