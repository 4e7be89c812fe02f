// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm create NAME [options] DEVICE...: plan the volume as bdsadm plan
 * does (plan.h), refuse devices that hold data, write a label on every
 * member, and create /dev/mapper/NAME with "volume <uuid>" so that the
 * kernel checks the labels too.
 *
 * Nothing is changed until every check has passed; if writing a label
 * or creating the device fails, the labels written are erased again.
 * With --force, signatures found (libblkid) are erased before the labels
 * are written, as pvcreate -f and mkfs -f do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "assemble.h"
#include "bdsadm.h"
#include "config.h"
#include "dm.h"
#include "fmt.h"
#include "label-io.h"
#include "plan.h"
#include "scan.h"
#include "signature.h"
#include "volume.h"

/* The node of member @m: as given when it is a path, else /dev/NAME. */
static void node_of(const struct plan_ctx *c, const struct member *m,
		    char *buf, size_t sz)
{
	if (strchr(m->arg, '/'))
		xsnprintf(c, buf, sz, "%s", m->arg);
	else
		xsnprintf(c, buf, sz, "/dev/%s", m->name);
}

/* Another volume already carries @name on disks not given here. */
static void check_name_free(const struct plan_ctx *c, const char *name)
{
	struct bds_scan s;
	char uuid[37];
	size_t i;
	int j;

	if (bds_scan(c->opt.sysfs, &s))
		return;
	for (i = 0; i < s.n; i++) {
		struct stat st;
		bool ours = false;

		if (strcmp(s.found[i].label.name, name) ||
		    stat(s.found[i].dev, &st))
			continue;
		for (j = 0; j < c->nmem; j++)
			if (major(st.st_rdev) == c->mem[j].maj &&
			    minor(st.st_rdev) == c->mem[j].min)
				ours = true;
		if (ours)
			continue;
		bds_uuid_format(s.found[i].label.volume_uuid, uuid);
		bds_scan_free(&s);
		refuse(c, "volume name %s is taken: %s is a member of volume %s (%s); pick another name, or erase that volume's labels with 'bdsadm wipe'",
		       name, s.found[i].dev, name, uuid);
	}
	bds_scan_free(&s);
}

/*
 * What each member holds: signatures (libblkid) and bds-stripe labels.
 * Without --force any of them refuses the whole volume.  @held[i]: what
 * member i (table order) holds, for the label writes to check again.
 */
static void check_signatures(const struct plan_ctx *c,
			     struct bds_label_id *held)
{
	int i, found = 0;

	for (i = 0; i < c->nmem; i++) {
		struct member *m = c->tbl[i];
		struct bds_dev_labels dl;
		const struct bds_label *l;
		struct bds_dev d;
		char node[PATH_MAX], what[512], why[256], uuid[37];
		int rc;

		node_of(c, m, node, sizeof(node));
		rc = bds_signatures(node, what, sizeof(what));
		if (rc < 0)
			refuse(c, "%s: %s", node, what);
		if (rc > 0) {
			fprintf(stderr, "%s: %s%s holds %s\n", c->prog,
				c->opt.force ? "warning: " : "", node, what);
			found++;
		}
		if (bds_dev_open(&d, node, false, why, sizeof(why)))
			refuse(c, "%s", why);
		rc = bds_labels_read(&d, &dl);
		if (rc)
			refuse(c, "%s: cannot read it: %s", node, strerror(-rc));
		bds_dev_close(&d);
		bds_label_id_held(&held[i], &dl);
		l = bds_labels_best(&dl);
		if (l) {
			bds_uuid_format(l->volume_uuid, uuid);
			fprintf(stderr, "%s: %s%s holds a bds-stripe member label: member %u of %u of volume %s (%s)\n",
				c->prog, c->opt.force ? "warning: " : "", node,
				l->member_index, l->nr_members, l->name, uuid);
			found++;
		} else if (dl.pick == BDS_LABEL_PICK_CONFLICT) {
			fprintf(stderr, "%s: %s%s holds two conflicting bds-stripe labels\n",
				c->prog, c->opt.force ? "warning: " : "", node);
			found++;
		}
	}
	if (found && !c->opt.force)
		refuse(c, "refusing to make devices that hold data into members: their data would be lost; check them with 'bdsadm examine' and wipefs, then erase what they hold (wipefs -a, 'bdsadm wipe') or give --force, which erases the signatures");
}

/*
 * The labels of the new volume, in table order: the volume's view, as
 * member 0 sees it.  Every member holds the same whole number of
 * cycles, w_m stripe units each: as many as the tightest member has
 * room for between its data offset and its backup copy.
 */
static void make_label(const struct plan_ctx *c, struct bds_label *v,
		       const char *name,
		       const struct plan_result *r, const char *owner)
{
	u64 chunk = r->chunk_b / SECTOR, cycles = UINT64_MAX;
	int i, g, tight = 0;

	memset(v, 0, sizeof(*v));
	bds_new_uuid(v->volume_uuid);
	v->generation = 1;
	v->ctime = v->utime = (u64)time(NULL);
	v->nr_members = (u32)c->nmem;
	v->nr_groups = (u32)c->ngroups;
	v->layout = c->opt.mode;
	v->chunk_sectors = chunk;
	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->owner, sizeof(v->owner), "%s", owner);
	v->compat = owner[0] ? BDS_LABEL_COMPAT_OWNER : 0;
	for (g = 0; g < c->ngroups; g++) {
		v->group_size[g] = c->group_sizes[g];
		for (i = 0; i < c->nmem; i++)
			if (c->tbl[i]->group == g)
				break;
		snprintf(v->controller[g], sizeof(v->controller[g]), "%.*s",
			 BDS_LABEL_CTRL_LEN, c->ctrls[c->tbl[i]->ctrl].name);
	}
	for (i = 0; i < c->nmem; i++) {
		struct member *m = c->tbl[i];
		u64 room;

		if (m->lbs > 4096)
			refuse(c, "%s has %u-byte logical blocks: a bds-stripe label needs 4 KiB blocks or smaller",
			       m->name, m->lbs);
		if (m->size < BDS_LABEL_MIN_MEMBER)
			refuse(c, "%s is too small to carry a label", m->name);
		bds_new_uuid(v->uuid[i]);
		v->weight[i] = r->weight[i];
		snprintf(v->serial[i], sizeof(v->serial[i]), "%.*s",
			 BDS_LABEL_SERIAL_LEN, m->serial);
		v->member_offset[i] = bds_label_data_offset((u32)chunk,
							    m->pbs / 512);
		room = plan_label_room(c, i, chunk) / (chunk * r->weight[i]);
		if (room < cycles) {
			cycles = room;
			tight = i;
		}
	}
	if (!cycles && r->weighted)
		refuse(c, "%s is too small: after its label (%u KiB at each end) and the data offset (%llu KiB), its %u stripe units of a cycle do not fit",
		       c->tbl[tight]->name, BDS_LABEL_SIZE / 1024,
		       U(v->member_offset[tight] / 2), r->weight[tight]);
	if (!cycles)
		refuse(c, "%s is too small: after its label (%u KiB at each end) and the data offset (%llu KiB), no whole stripe unit fits",
		       c->tbl[tight]->name, BDS_LABEL_SIZE / 1024,
		       U(v->member_offset[tight] / 2));
	/* member 0's share: the view's member_index is 0 */
	v->data_sectors = cycles * chunk * v->weight[0];
}

/* Member @i's label of the volume @v. */
static void member_label(const struct plan_ctx *c, const struct bds_label *v,
			 int i, struct bds_label *l)
{
	*l = *v;
	l->member_index = (u32)i;
	memcpy(l->member_uuid, v->uuid[i], BDS_UUID_LEN);
	l->data_offset = v->member_offset[i];
	l->data_sectors = bds_label_member_data(v, (u32)i);
	l->member_sectors = c->tbl[i]->size;
	l->backup_sector = bds_label_backup_sector(c->tbl[i]->size);
}

/* Undo: erase the labels of members @from to @to - 1 (table order). */
static void unlabel(const struct plan_ctx *c, const struct bds_label *v,
		    struct bds_dev *d, int from, int to)
{
	struct bds_label_id was;
	struct bds_label l;
	int i, rc;

	for (i = from; i < to; i++) {
		member_label(c, v, i, &l);
		bds_label_id_of(&was, &l);
		rc = bds_labels_wipe(&d[i], &was);
		if (rc)
			fprintf(stderr, "%s: %s: cannot erase the label just written: %s; erase it with 'bdsadm wipe %s'\n",
				c->prog, d[i].path, bds_label_io_error(rc),
				d[i].path);
	}
}

static void close_all(struct bds_dev *d, int n)
{
	int i;

	for (i = 0; i < n; i++)
		bds_dev_close(&d[i]);
}

/*
 * Write every member's label, if it still holds what it held when it was
 * checked (@held); on failure erase them again and refuse.
 */
static void write_labels(const struct plan_ctx *c, const struct bds_label *v,
			 char (*nodes)[PATH_MAX], struct bds_dev *d,
			 const struct bds_label_id *held)
{
	char why[512];
	int i;

	for (i = 0; i < c->nmem; i++)
		if (bds_dev_open(&d[i], nodes[i], true, why, sizeof(why))) {
			close_all(d, i);
			refuse(c, "%s", why);
		}
	if (c->opt.force)
		for (i = 0; i < c->nmem; i++)
			if (bds_signatures_wipe(nodes[i], why, sizeof(why))) {
				close_all(d, c->nmem);
				refuse(c, "%s: %s; no label was written", nodes[i],
				       why);
			}
	for (i = 0; i < c->nmem; i++) {
		struct bds_label l;
		int rc;

		member_label(c, v, i, &l);
		rc = bds_labels_write(&d[i], &held[i], &l);
		if (rc) {
			unlabel(c, v, d, 0, i);
			close_all(d, c->nmem);
			refuse(c, "%s: writing its label failed: %s; the labels written before it were erased again (check %s with 'bdsadm examine')",
			       nodes[i], bds_label_io_error(rc), nodes[i]);
		}
	}
}

static void print_created(const struct plan_ctx *c, const struct bds_label *v,
			  const char *name, char (*nodes)[PATH_MAX])
{
	char uuid[37], h1[64], h2[64];
	int i;

	bds_uuid_format(v->volume_uuid, uuid);
	printf("Created /dev/mapper/%s\n", name);
	printf("  volume:      %s\n  UUID:        %s\n", name, uuid);
	printf("  owner:       %s\n", v->owner[0] ? v->owner :
	       "none (this host has no system ID: every host counts it as its own)");
	printf("  size:        %s (%llu sectors)\n",
	       bds_human(bds_volume_length(v) * SECTOR, h1, sizeof(h1)),
	       U(bds_volume_length(v)));
	printf("  stripe unit: %s, width %s (%u members, %u groups, %s)\n",
	       bds_human(v->chunk_sectors * SECTOR, h1, sizeof(h1)),
	       bds_human(v->chunk_sectors * SECTOR * v->nr_members, h2,
			 sizeof(h2)),
	       v->nr_members, v->nr_groups,
	       v->layout == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave");
	if (bds_label_weighted(v))
		printf("  cycle:       %s, %u stripe units (weights in table order below)\n",
		       bds_human(v->chunk_sectors * SECTOR * bds_label_slots(v),
				 h1, sizeof(h1)), bds_label_slots(v));
	printf("  members (table order):\n");
	for (i = 0; i < c->nmem; i++) {
		u64 data = bds_label_member_data(v, (u32)i);

		printf("    %3d %-16s group %-2d %-12s serial %s, data from sector %llu",
		       i, nodes[i], c->tbl[i]->group, c->ctrls[c->tbl[i]->ctrl].name,
		       c->tbl[i]->serial[0] ? c->tbl[i]->serial : "unknown",
		       U(v->member_offset[i]));
		if (bds_label_weighted(v))
			printf(", weight %u: %llu sectors (%.1f %%)", v->weight[i],
			       U(data), 100.0 * (double)data /
			       (double)bds_volume_length(v));
		printf("\n");
	}
}

/* create's arguments: the volume's NAME, then the devices from @first. */
static enum plan_status create_args(struct plan_ctx *c, int argc, char **argv,
				    int *first)
{
	enum plan_status st;
	const char *name;

	st = plan_parse_options(c, VERB_CREATE, argc, argv, first);
	if (st)
		return st;
	if (argc - *first < 2)
		return plan_usage(c, "create needs a volume NAME and its DEVICEs");
	name = argv[*first];
	st = plan_check_dm_name(c, "volume name", name);
	if (st)
		return st;
	if (!bds_name_ok(name, strlen(name) + 1))
		return plan_usage(c, "volume name '%s': printable ASCII without blanks, 1 to 127 characters",
				  name);
	return PLAN_OK;
}

static enum plan_status create_main(struct plan_ctx *c, int argc, char **argv)
{
	char devs[BDS_MAX_MEMBERS][16];
	const char *devp[BDS_MAX_MEMBERS];
	char (*nodes)[PATH_MAX];
	struct bds_dev *d;
	struct plan_result r;
	struct bds_dm_info info;
	struct bds_label_id *held;
	struct bds_conf conf;
	struct bds_label v;
	enum plan_status st;
	char err[1024];
	char params[16384], dmuuid[BDS_DM_UUID_SZ];
	const char *name;
	u32 ra = 0;
	int first, i;

	st = create_args(c, argc, argv, &first);
	if (st)
		return st;
	name = argv[first];
	st = plan_build(c, argv + first + 1, argc - first - 1, &r);
	if (st)
		return st;

	if (bds_conf_read(&conf, &bds_conf_default, err, sizeof(err)))
		refuse(c, "%s; correct the configuration (bds-stripe.conf(5))", err);
	if (bds_conf_crypttab_has(&conf, name))
		refuse(c, "%s is the name of a dm-crypt mapping in %s; a volume of that name would take /dev/mapper/%s from it: pick another name",
		       name, conf.paths->crypttab, name);
	if (!bds_dm_info(name, &info))
		refuse(c, "cannot talk to device-mapper (is dm_mod loaded? are you root?)");
	if (info.exists)
		refuse(c, "a device-mapper device named '%s' already exists (dm UUID '%s'); pick another name, or stop that one first",
		       name, info.uuid);
	check_name_free(c, name);
	held = calloc((size_t)c->nmem, sizeof(*held));
	if (!held)
		refuse(c, "out of memory");
	check_signatures(c, held);
	make_label(c, &v, name, &r, conf.system_id);

	nodes = calloc((size_t)c->nmem, sizeof(*nodes));
	d = calloc((size_t)c->nmem, sizeof(*d));
	if (!nodes || !d)
		refuse(c, "out of memory");
	for (i = 0; i < c->nmem; i++) {
		node_of(c, c->tbl[i], nodes[i], sizeof(nodes[i]));
		snprintf(devs[i], sizeof(devs[i]), "%u:%u", c->tbl[i]->maj,
			 c->tbl[i]->min);
		devp[i] = devs[i];
	}
	if (!bds_volume_params(&v, devp, params, sizeof(params)))
		refuse(c, "internal error: the table does not fit %zu bytes",
		       sizeof(params));
	bds_volume_dm_uuid(&v, dmuuid, sizeof(dmuuid));

	write_labels(c, &v, nodes, d, held);
	/* device-mapper opens the members exclusively: let them go */
	close_all(d, c->nmem);

	if (c->opt.ra_mode == RA_AUTO)
		ra = (u32)(2 * r.width_b / SECTOR);
	else if (c->opt.ra_mode == RA_SET)
		ra = (u32)(c->opt.ra_kib * 2);
	if (!bds_dm_create(name, dmuuid, bds_volume_length(&v), params, ra,
			   c->opt.ra_mode == RA_AUTO)) {
		char why[256];

		for (i = 0; i < c->nmem; i++)
			if (bds_dev_open(&d[i], nodes[i], true, why,
					 sizeof(why)))
				fprintf(stderr, "%s: %s; erase its label with 'bdsadm wipe %s'\n",
					c->prog, why, nodes[i]);
			else
				unlabel(c, &v, d, i, i + 1);
		close_all(d, c->nmem);
		refuse(c, "device-mapper refused 0 %llu bds-stripe %s: the kernel log (dmesg) names the reason; the labels were erased again",
		       U(bds_volume_length(&v)), params);
	}
	print_created(c, &v, name, nodes);
	free(nodes);
	free(d);
	free(held);
	return PLAN_OK;
}

int bds_cmd_create(int argc, char **argv)
{
	struct plan_ctx c;
	int rc;

	plan_init(&c, "bdsadm");
	rc = plan_exit(&c, create_main(&c, argc, argv));
	plan_free(&c);
	return rc;
}
