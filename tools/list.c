// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm list [--json]: the volumes there are.
 *
 * Active: every device-mapper device whose dm UUID starts with "BDS-",
 * with its table and status (volstat.c).  Not active: every volume
 * whose labels are found on the disks (scan.c) and that is not active,
 * with how many of its members are present and what 'bdsadm assemble'
 * would do with it (the decision of assemble.c, by UUID, as assemble
 * --scan takes it; and no other device-mapper device may have its name).
 *
 * --json prints one object:
 *   {"active": [A...], "inactive": [I...]}
 * A: "name", "uuid" (the volume's), "device" (/dev/mapper/NAME), "dev"
 *    ("MAJ:MIN"), "size_sectors", "members" (from the table; 0 when
 *    unknown), "health" (status field 2: A or D per member, table order;
 *    "" when unknown), "state" ("healthy", "errors": a member has seen
 *    an I/O error, "unknown": table or status unreadable), "error_members"
 *    (table indexes of the D members), "open_count", "reason" (why the
 *    state is unknown, else null).
 * I: "name", "uuid", "size_sectors" (as the labels give it), "members"
 *    (how many the volume has), "present" (positions held by a device
 *    with the newest generation of the labels), "generation" (the newest
 *    found), "assemble" (true: 'bdsadm assemble' would assemble it),
 *    "reason" (why not, with what to do; null when it would), "owner"
 *    (the system ID of the host that owns it, null when none),
 *    "foreign" (true: another host's, which assemble leaves alone),
 *    "devices"
 *    ([{"device", "index" (position in table order), "generation"}], the
 *    devices carrying its labels, by index).
 *
 * Exit 0; 1 when device-mapper is in the kernel but cannot be asked
 * (not root?) or the block devices cannot be listed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "bdsadm.h"
#include "config.h"
#include "dm.h"
#include "fmt.h"
#include "scan.h"
#include "volstat.h"
#include "volume.h"

#define LIST_USAGE "list [--json | -H]"

struct actives {
	struct bds_vol *v;
	size_t n, max;
	bool nomem;
};

struct inactive {
	const struct bds_label *l;	/* newest label found */
	char uuid[37];
	u32 present;
	bool ok;
	enum bds_asm_owner own;		/* when the labels give one set */
	const char *owner;		/* the foreign owner, else NULL */
	char why[4096];
};

static void add_active(const char *name, const char *uuid, void *arg)
{
	struct actives *a = arg;
	struct bds_vol *nv;

	(void)uuid;
	if (a->n == a->max) {
		a->max = a->max ? 2 * a->max : 8;
		nv = realloc(a->v, a->max * sizeof(*nv));
		if (!nv) {
			a->nomem = true;
			a->max = a->n;
			return;
		}
		a->v = nv;
	}
	if (bds_vol_read(name, &a->v[a->n]))
		a->n++;
}

static bool same_uuid(const struct bds_label *l, const u8 *u)
{
	return !memcmp(l->volume_uuid, u, BDS_UUID_LEN);
}

/* What the labels of volume @u say, and what assemble would do. */
static void judge(const struct bds_scan *s, const struct bds_conf *conf,
		  const u8 *u, struct inactive *in)
{
	bool seen[BDS_MAX_MEMBERS] = { false };
	struct bds_asm_result r;
	struct bds_dm_info info;
	size_t i;

	memset(in, 0, sizeof(*in));
	bds_uuid_format(u, in->uuid);
	for (i = 0; i < s->n; i++)
		if (same_uuid(&s->found[i].label, u) &&
		    (!in->l || s->found[i].label.generation > in->l->generation))
			in->l = &s->found[i].label;
	for (i = 0; i < s->n; i++) {
		const struct bds_label *l = &s->found[i].label;

		if (same_uuid(l, u) && l->generation == in->l->generation &&
		    !seen[l->member_index]) {
			seen[l->member_index] = true;
			in->present++;
		}
	}
	in->ok = bds_assemble(s->found, s->n, NULL, u, &r) == BDS_ASM_OK;
	if (!in->ok) {
		in->own = BDS_OWNER_NONE;
		bds_asm_message(&r, in->why, sizeof(in->why));
		return;
	}
	in->own = bds_asm_owner(s->found, &r, conf->system_id, &in->owner);
	if (in->own == BDS_OWNER_FOREIGN || in->own == BDS_OWNER_MIXED) {
		in->ok = false;
		snprintf(in->why, sizeof(in->why), "volume %s (%s) is foreign: %s %s; 'bdsadm assemble' leaves it alone: assemble it once with 'bdsadm assemble --foreign %s', or take it over with 'bdsadm import %s'",
			 in->l->name, in->uuid,
			 in->own == BDS_OWNER_MIXED ?
			 "its members name different owners, among them" :
			 "owned by the host whose system ID is", in->owner,
			 in->l->name, in->l->name);
		return;
	}
	if (bds_vol_dm_available() && bds_dm_info(in->l->name, &info) &&
	    info.exists) {
		in->ok = false;
		snprintf(in->why, sizeof(in->why), "volume %s (%s): another device-mapper device is called %s (dm UUID '%s'); 'bdsadm assemble' would refuse: rename or remove that device first",
			 in->l->name, in->uuid, in->l->name, info.uuid);
	}
}

/*
 * Two inactive volumes of one name: 'bdsadm assemble NAME' refuses both
 * (assemble.c's name clash), so neither is "yes" by name.
 */
static void name_clashes(struct inactive *in, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j && in[i].ok &&
			    !strcmp(in[i].l->name, in[j].l->name)) {
				in[i].ok = false;
				snprintf(in[i].why, sizeof(in[i].why), "volume %s (%s): volume %s carries the same name; 'bdsadm assemble %s' refuses both: assemble this one with 'bdsadm assemble --uuid %s'",
					 in[i].l->name, in[i].uuid, in[j].uuid,
					 in[i].l->name, in[i].uuid);
			}
}

static void state_of(const struct bds_vol *v, char *buf, size_t sz)
{
	char err[BDS_MAX_MEMBERS * 4];

	bds_vol_errors(v, err, sizeof(err));
	if (!v->have_status)
		snprintf(buf, sz, "unknown (%s)", v->why);
	else if (err[0])
		snprintf(buf, sz, "errors on member%s %s",
			 strchr(err, ',') ? "s" : "", err);
	else
		snprintf(buf, sz, "healthy");
}

/* The next device of volume @u after @k (-1: the first), by position. */
static long next_device(const struct bds_scan *s, const u8 *u, long k)
{
	const struct bds_found *f = s->found, *best = NULL;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct bds_found *c = &f[i];

		if (!same_uuid(&c->label, u))
			continue;
		if (k >= 0 && (c->label.member_index < f[k].label.member_index ||
			       (c->label.member_index == f[k].label.member_index &&
				i <= (size_t)k)))
			continue;
		if (!best || c->label.member_index < best->label.member_index)
			best = c;
	}
	return best ? best - f : -1;
}

static void devices_of(const struct bds_scan *s, const u8 *u, char *buf,
		       size_t sz)
{
	size_t len = 0;
	long k = -1;

	buf[0] = '\0';
	while ((k = next_device(s, u, k)) >= 0 && len < sz)
		len += (size_t)snprintf(buf + len, sz - len, "%s%s",
					len ? "," : "", s->found[k].dev);
}

/* The OWNER column. */
static const char *owner_text(const struct inactive *in, char *buf, size_t sz)
{
	switch (in->own) {
	case BDS_OWNER_HERE:
		return "this host";
	case BDS_OWNER_FOREIGN:
		snprintf(buf, sz, "%s (foreign)", in->owner);
		return buf;
	case BDS_OWNER_MIXED:
		return "mixed (foreign)";
	default:
		return in->l->owner[0] ? "?" : "none";
	}
}

static void print_human(const struct actives *a, const struct bds_scan *s,
			const struct inactive *in, u8 (*uuids)[BDS_UUID_LEN],
			size_t nin)
{
	char sz[32], st[1024], devs[4096];
	int w = 4;
	size_t i;

	for (i = 0; i < a->n; i++)
		if ((int)strlen(a->v[i].name) > w)
			w = (int)strlen(a->v[i].name);
	for (i = 0; i < nin; i++)
		if ((int)strlen(in[i].l->name) > w)
			w = (int)strlen(in[i].l->name);
	printf("Active volumes:%s\n", a->n ? "" : " none");
	if (a->n)
		printf("  %-*s  %-36s  %10s  %7s  %-20s  %s\n", w, "NAME", "UUID",
		       "SIZE", "MEMBERS", "DEVICE", "STATE");
	for (i = 0; i < a->n; i++) {
		const struct bds_vol *v = &a->v[i];
		char u[BDS_DM_UUID_SZ], dev[BDS_DM_NAME_SZ + 16];

		bds_vol_uuid(v, u, sizeof(u));
		state_of(v, st, sizeof(st));
		snprintf(dev, sizeof(dev), "/dev/mapper/%s", v->name);
		printf("  %-*s  %-36s  %10s  %7u  %-20s  %s\n", w, v->name, u,
		       bds_human(v->sectors << 9, sz, sizeof(sz)),
		       v->nr_members, dev, st);
	}
	printf("Volumes on disks, not active:%s\n", nin ? "" : " none");
	if (nin)
		printf("  %-*s  %-36s  %10s  %7s  %-8s  %-20s  %s\n", w, "NAME",
		       "UUID", "SIZE", "PRESENT", "ASSEMBLE", "OWNER", "DEVICES");
	for (i = 0; i < nin; i++) {
		char pr[24], ow[BDS_LABEL_OWNER_LEN + 16];

		snprintf(pr, sizeof(pr), "%u/%u", in[i].present,
			 in[i].l->nr_members);
		devices_of(s, uuids[i], devs, sizeof(devs));
		printf("  %-*s  %-36s  %10s  %7s  %-8s  %-20s  %s\n", w,
		       in[i].l->name, in[i].uuid,
		       bds_human(bds_volume_length(in[i].l) << 9, sz, sizeof(sz)),
		       pr, in[i].ok ? "yes" : "no",
		       owner_text(&in[i], ow, sizeof(ow)), devs);
	}
	for (i = 0; i < nin; i++)
		if (!in[i].ok)
			printf("  %s: %s\n", in[i].l->name, in[i].why);
}

/*
 * -H: for scripts, as zpool list -H and lvs --noheadings: no header, one
 * volume a line, seven fields separated by single tabs: active or
 * inactive, name, UUID, size in bytes, members (N, or present/N), the
 * device (/dev/mapper/NAME, or the members' devices comma-separated),
 * and the state (as list says it, or whether assemble would take it).
 */
static void print_scripted(const struct actives *a, const struct bds_scan *s,
			   const struct inactive *in,
			   u8 (*uuids)[BDS_UUID_LEN], size_t nin)
{
	char st[1024], devs[4096];
	size_t i;

	for (i = 0; i < a->n; i++) {
		const struct bds_vol *v = &a->v[i];
		char u[BDS_DM_UUID_SZ];

		bds_vol_uuid(v, u, sizeof(u));
		state_of(v, st, sizeof(st));
		printf("active\t%s\t%s\t%llu\t%u\t/dev/mapper/%s\t%s\n",
		       v->name, u, (unsigned long long)v->sectors << 9,
		       v->nr_members, v->name, st);
	}
	for (i = 0; i < nin; i++) {
		devices_of(s, uuids[i], devs, sizeof(devs));
		printf("inactive\t%s\t%s\t%llu\t%u/%u\t%s\t%s\n",
		       in[i].l->name, in[i].uuid,
		       (unsigned long long)bds_volume_length(in[i].l) << 9,
		       in[i].present, in[i].l->nr_members, devs,
		       in[i].ok ? "assemble would take it" : in[i].why);
	}
}

static void json_reason(const char *why)
{
	printf(", \"reason\": ");
	if (why)
		bds_json_str(stdout, why);
	else
		printf("null");
}

static void print_json(const struct actives *a, const struct bds_scan *s,
		       const struct inactive *in, u8 (*uuids)[BDS_UUID_LEN],
		       size_t nin)
{
	size_t i, j, k;
	long d;

	printf("{\"output_version\": %d, \"active\": [", BDS_JSON_OUTPUT_VERSION);
	for (i = 0; i < a->n; i++) {
		const struct bds_vol *v = &a->v[i];
		char u[BDS_DM_UUID_SZ], dev[BDS_DM_NAME_SZ + 16];

		bds_vol_uuid(v, u, sizeof(u));
		snprintf(dev, sizeof(dev), "/dev/mapper/%s", v->name);
		printf("%s\n  {\"name\": ", i ? "," : "");
		bds_json_str(stdout, v->name);
		printf(", \"uuid\": ");
		bds_json_str(stdout, u);
		printf(", \"device\": ");
		bds_json_str(stdout, dev);
		printf(", \"dev\": \"%u:%u\", \"size_sectors\": %llu, \"members\": %u, \"health\": \"%s\"",
		       v->major, v->minor, (unsigned long long)v->sectors,
		       v->nr_members, v->health);
		printf(", \"state\": \"%s\", \"error_members\": [",
		       !v->have_status ? "unknown" :
		       strchr(v->health, 'D') ? "errors" : "healthy");
		for (j = 0, k = 0; v->have_status && j < v->nr_members; j++)
			if (v->health[j] == 'D')
				printf("%s%zu", k++ ? ", " : "", j);
		printf("], \"open_count\": %d", v->open_count);
		json_reason(v->have_status ? NULL : v->why);
		printf("}");
	}
	printf("],\n \"inactive\": [");
	for (i = 0; i < nin; i++) {
		const struct bds_label *l = in[i].l;

		printf("%s\n  {\"name\": ", i ? "," : "");
		bds_json_str(stdout, l->name);
		printf(", \"uuid\": \"%s\", \"size_sectors\": %llu, \"members\": %u, \"present\": %u, \"generation\": %llu, \"assemble\": %s",
		       in[i].uuid,
		       (unsigned long long)bds_volume_length(l), l->nr_members,
		       in[i].present, (unsigned long long)l->generation,
		       in[i].ok ? "true" : "false");
		json_reason(in[i].ok ? NULL : in[i].why);
		printf(", \"owner\": ");
		if (in[i].l->owner[0])
			bds_json_str(stdout, in[i].own == BDS_OWNER_FOREIGN ||
				     in[i].own == BDS_OWNER_MIXED ?
				     in[i].owner : in[i].l->owner);
		else
			printf("null");
		printf(", \"foreign\": %s",
		       in[i].own == BDS_OWNER_FOREIGN ||
		       in[i].own == BDS_OWNER_MIXED ? "true" : "false");
		printf(", \"devices\": [");
		for (d = -1, k = 0; (d = next_device(s, uuids[i], d)) >= 0;) {
			const struct bds_found *f = &s->found[d];

			printf("%s{\"device\": ", k++ ? ", " : "");
			bds_json_str(stdout, f->dev);
			printf(", \"index\": %u, \"generation\": %llu}",
			       f->label.member_index,
			       (unsigned long long)f->label.generation);
		}
		printf("]}");
	}
	printf("]}\n");
}

/* Keep the volumes of @uuids that are not active; returns how many. */
static size_t not_active(const struct actives *a, u8 (*uuids)[BDS_UUID_LEN],
			 size_t n)
{
	size_t i, j, kept = 0;
	char u[37], dmu[BDS_DM_UUID_SZ];

	for (i = 0; i < n; i++) {
		bds_uuid_format(uuids[i], u);
		snprintf(dmu, sizeof(dmu), BDS_DM_UUID_PREFIX "%s", u);
		for (j = 0; j < a->n && strcmp(a->v[j].dm_uuid, dmu); j++)
			;
		if (j == a->n)
			memmove(uuids[kept++], uuids[i], BDS_UUID_LEN);
	}
	return kept;
}

int bds_cmd_list(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "scripted", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct actives a = { NULL, 0, 0, false };
	u8 (*uuids)[BDS_UUID_LEN] = NULL;
	struct inactive *in = NULL;
	int c, rc = BDS_EXIT_OK;
	bool json = false, scripted = false;
	struct bds_conf conf;
	struct bds_scan s;
	char err[1024];
	size_t nv = 0, i;

	while ((c = getopt_long(argc, argv, "jHh", lo, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'H':
			scripted = true;
			break;
		case 'h':
			printf("usage: bdsadm " LIST_USAGE "\n");
			return BDS_EXIT_OK;
		default:
			return bds_usage(LIST_USAGE);
		}
	}
	if (optind < argc || (json && scripted))
		return bds_usage(LIST_USAGE);

	if (!bds_vol_dm_available()) {
		bds_err("device-mapper is not in the kernel (no device-mapper in /proc/misc: dm_mod not loaded), so no volume is active");
	} else if (!bds_dm_each_volume(add_active, &a)) {
		bds_err("cannot talk to device-mapper (are you root?): the active volumes are not listed");
		rc = BDS_EXIT_FAIL;
	}
	if (a.nomem)
		bds_err("out of memory: not every active volume is listed");
	memset(&s, 0, sizeof(s));
	if (bds_scan("/sys", &s)) {
		bds_err("cannot list the block devices under /sys/class/block: the volumes on disks are not listed");
		rc = BDS_EXIT_FAIL;
	} else {
		nv = bds_volumes(s.found, s.n, NULL, 0);
		uuids = calloc(nv ? nv : 1, sizeof(*uuids));
		in = calloc(nv ? nv : 1, sizeof(*in));
		if (!uuids || !in) {
			bds_err("out of memory: the volumes on disks are not listed");
			nv = 0;
			rc = BDS_EXIT_FAIL;
		} else {
			bds_volumes(s.found, s.n, uuids, nv);
		}
		nv = not_active(&a, uuids, nv);
		if (bds_conf_read(&conf, &bds_conf_default, err, sizeof(err)))
			bds_err("%s: which volumes are foreign is told as if this host had no system ID",
				err);
		for (i = 0; i < nv; i++)
			judge(&s, &conf, uuids[i], &in[i]);
		name_clashes(in, nv);
	}
	if (json)
		print_json(&a, &s, in, uuids, nv);
	else if (scripted)
		print_scripted(&a, &s, in, uuids, nv);
	else
		print_human(&a, &s, in, uuids, nv);
	free(in);
	free(uuids);
	free(a.v);
	bds_scan_free(&s);
	return rc;
}
