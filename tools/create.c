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
#include <stdarg.h>
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
#include "member-dev.h"
#include "plan.h"
#include "scan.h"
#include "signature.h"
#include "volume.h"
#include "weights.h"

/* What create works on, from the checks to the new device. */
struct create_job {
	const char *name;
	struct plan_result r;
	struct bds_conf conf;
	struct bds_label v;		/* the volume, as member 0 sees it */
	struct bds_label_id *held;	/* what each member held, checked */
	char (*nodes)[PATH_MAX];	/* table order */
	struct bds_dev *d;
	char params[16384];		/* the table's target words */
	char dmuuid[BDS_DM_UUID_SZ];
	bool name_checked;		/* before --measure read the disks */
};

/* The node of member @m: as given when it is a path, else /dev/NAME. */
static enum plan_status node_of(struct plan_ctx *c, const struct member *m,
				char *buf, size_t sz)
{
	if (strchr(m->arg, '/'))
		return plan_path(c, buf, sz, "%s", m->arg);
	return plan_path(c, buf, sz, "/dev/%s", m->name);
}

/* Is the device of @dev (a path) one of the members given? */
static bool is_member(const struct plan_ctx *c, const char *dev)
{
	struct stat s;
	int j;

	if (stat(dev, &s))
		return true;	/* gone: nothing to tell */
	for (j = 0; j < c->nmem; j++)
		if (major(s.st_rdev) == c->mem[j].maj &&
		    minor(s.st_rdev) == c->mem[j].min)
			return true;
	return false;
}

/* Another volume already carries @name on disks not given here. */
static enum plan_status check_name_free(struct plan_ctx *c, const char *name)
{
	enum plan_status st = PLAN_OK;
	struct bds_scan s;
	char uuid[37];
	size_t i;

	if (bds_scan(c->opt.sysfs, &s))
		return PLAN_OK;
	for (i = 0; i < s.n && !st; i++) {
		if (strcmp(s.found[i].label.name, name) ||
		    is_member(c, s.found[i].dev))
			continue;
		bds_uuid_format(s.found[i].label.volume_uuid, uuid);
		st = plan_fail(c, "volume name %s is taken: %s is a member of volume %s (%s); pick another name, or erase that volume's labels with 'bdsadm wipe'",
			       name, s.found[i].dev, name, uuid);
	}
	bds_scan_free(&s);
	return st;
}

/* Say on stderr what member @node holds (a warning with --force). */
static void holds(const struct plan_ctx *c, const char *node, const char *fmt,
		  ...) __attribute__((format(printf, 3, 4)));
static void holds(const struct plan_ctx *c, const char *node, const char *fmt,
		  ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s%s holds ", c->prog,
		c->opt.force ? "warning: " : "", node);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * What member @node holds: signatures (libblkid) and bds-stripe labels,
 * each said on stderr and counted in @found; what its labels are into
 * @held, for the label write to check again.
 */
enum plan_status plan_check_holds(struct plan_ctx *c, const char *node,
				  struct bds_label_id *held, int *found)
{
	char what[512], why[256], uuid[37];
	struct bds_dev_labels dl;
	const struct bds_label *l;
	struct bds_dev d;
	int rc;

	/* its probe and label reads, and later the table, would wait */
	if (bds_dev_suspended(node, why, sizeof(why)))
		return plan_fail(c, "%s", why);
	rc = bds_signatures(node, what, sizeof(what));
	if (rc < 0)
		return plan_fail(c, "%s: %s", node, what);
	if (rc > 0) {
		holds(c, node, "%s", what);
		(*found)++;
	}
	if (bds_dev_open(&d, node, false, why, sizeof(why)))
		return plan_fail(c, "%s", why);
	rc = bds_labels_read(&d, &dl);
	bds_dev_close(&d);
	if (rc)
		return plan_fail(c, "%s: cannot read it: %s", node,
				 strerror(-rc));
	bds_label_id_held(held, &dl);
	l = bds_labels_best(&dl);
	if (l) {
		bds_uuid_format(l->volume_uuid, uuid);
		holds(c, node, "a bds-stripe member label: member %u of %u of volume %s (%s)",
		      l->member_index, l->nr_members, l->name, uuid);
		(*found)++;
	} else if (dl.pick == BDS_LABEL_PICK_CONFLICT) {
		holds(c, node, "two conflicting bds-stripe labels");
		(*found)++;
	}
	return PLAN_OK;
}

static enum plan_status refuse_holds(struct plan_ctx *c)
{
	return plan_fail(c, "refusing to make devices that hold data into members: their data would be lost; check them with 'bdsadm examine' and wipefs, then erase what they hold (wipefs -a, 'bdsadm wipe') or give --force, which erases the signatures");
}

/*
 * What each member holds.  Without --force any of it refuses the whole
 * volume.
 */
static enum plan_status check_signatures(struct plan_ctx *c,
					 struct create_job *j)
{
	enum plan_status st = PLAN_OK;
	int i, found = 0;

	for (i = 0; i < c->nmem && !st; i++)
		st = plan_check_holds(c, j->nodes[i], &j->held[i], &found);
	if (st)
		return st;
	if (found && !c->opt.force)
		return refuse_holds(c);
	return PLAN_OK;
}

/* The volume's name: free in the configuration, device-mapper, labels. */
static enum plan_status check_name(struct plan_ctx *c, struct create_job *j)
{
	struct bds_dm_info info;
	char err[1024];

	if (bds_conf_read(&j->conf, &bds_conf_default, err, sizeof(err)))
		return plan_fail(c, "%s; correct the configuration (bds-stripe.conf(5))",
				 err);
	if (bds_conf_crypttab_has(&j->conf, j->name))
		return plan_fail(c, "%s is the name of a dm-crypt mapping in %s; a volume of that name would take /dev/mapper/%s from it: pick another name",
				 j->name, j->conf.paths->crypttab, j->name);
	if (!bds_dm_info(j->name, &info))
		return plan_fail(c, "%s", bds_dm_why_not());
	if (info.exists)
		return plan_fail(c, "a device-mapper device named '%s' already exists (dm UUID '%s'); pick another name, or stop that one first",
				 j->name, info.uuid);
	return check_name_free(c, j->name);
}

/* The volume's fields of the label (@v), for the plan @r. */
static void label_volume(const struct plan_ctx *c, struct bds_label *v,
			 const char *name, const struct plan_result *r,
			 const char *owner)
{
	int i, g;

	memset(v, 0, sizeof(*v));
	bds_new_uuid(v->volume_uuid);
	v->generation = 1;
	v->ctime = v->utime = (u64)time(NULL);
	v->nr_members = (u32)c->nmem;
	v->nr_groups = (u32)c->ngroups;
	v->layout = c->opt.mode;
	v->chunk_sectors = r->chunk_b / SECTOR;
	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->owner, sizeof(v->owner), "%s", owner);
	v->compat = owner[0] ? BDS_LABEL_COMPAT_OWNER : 0;
	v->weights_mode = c->opt.weights == WT_NONE ? BDS_WEIGHTS_MODE_NONE :
			  wt_label_mode(c->opt.weights_arg);
	for (g = 0; g < c->ngroups; g++) {
		v->group_size[g] = c->group_sizes[g];
		for (i = 0; i < c->nmem; i++)
			if (c->tbl[i]->group == g)
				break;
		snprintf(v->controller[g], sizeof(v->controller[g]), "%.*s",
			 BDS_LABEL_CTRL_LEN, c->ctrls[c->tbl[i]->ctrl].name);
	}
}

/*
 * The labels of the new volume, in table order: the volume's view, as
 * member 0 sees it.  Every member holds the same whole number of
 * cycles, w_m stripe units each: as many as the tightest member has
 * room for between its data offset and its backup copy.
 */
static enum plan_status make_label(struct plan_ctx *c, struct create_job *j)
{
	const struct plan_result *r = &j->r;
	u64 chunk = r->chunk_b / SECTOR, cycles;
	struct bds_label *v = &j->v;
	int i, tight;

	label_volume(c, v, j->name, r, j->conf.system_id);
	for (i = 0; i < c->nmem; i++) {
		const struct member *m = c->tbl[i];

		if (m->lbs > 4096)
			return plan_fail(c, "%s has %u-byte logical blocks: a bds-stripe label needs 4 KiB blocks or smaller",
					 m->name, m->lbs);
		if (m->size < BDS_LABEL_MIN_MEMBER)
			return plan_fail(c, "%s is too small to carry a label",
					 m->name);
		bds_new_uuid(v->uuid[i]);
		v->weight[i] = r->weight[i];
		snprintf(v->serial[i], sizeof(v->serial[i]), "%.*s",
			 BDS_LABEL_SERIAL_LEN, m->serial);
		v->member_offset[i] = bds_label_data_offset((u32)chunk,
							    m->pbs / 512);
	}
	cycles = plan_label_cycles(c, r->weight, chunk, &tight);
	if (!cycles && r->weighted)
		return plan_fail(c, "%s is too small: after its label (%u KiB at each end) and the data offset (%llu KiB), its %u stripe units of a cycle do not fit",
				 c->tbl[tight]->name, BDS_LABEL_SIZE / 1024,
				 U(v->member_offset[tight] / 2),
				 r->weight[tight]);
	if (!cycles)
		return plan_fail(c, "%s is too small: after its label (%u KiB at each end) and the data offset (%llu KiB), no whole stripe unit fits",
				 c->tbl[tight]->name, BDS_LABEL_SIZE / 1024,
				 U(v->member_offset[tight] / 2));
	/* member 0's share: the view's member_index is 0 */
	v->data_sectors = cycles * chunk * v->weight[0];
	return PLAN_OK;
}

/* Member @i's label of the volume @v. */
/*
 * --measure: member @i's figures as the weights went by them (measure.c,
 * as_speeds()), in kB/s, into its label (compat MEASURED), when.
 */
static void member_measured(const struct plan_ctx *c, int i,
			    struct bds_label *l)
{
	const struct plan_opts *o = &c->opt;
	long m = c->tbl[i] - c->mem;

	if (!o->measure || !o->disk_list || !o->ctrl_list ||
	    o->disk_list[m] * 1000 < 1 || o->disk_list[m] * 1000 > 4e9)
		return;
	l->meas_disk = (u32)(o->disk_list[m] * 1000 + 0.5);
	l->meas_ctrl = o->ctrl_list[c->tbl[i]->ctrl] * 1000 > 4e9 ? 0 :
		       (u32)(o->ctrl_list[c->tbl[i]->ctrl] * 1000 + 0.5);
	l->meas_time = l->ctime;
	l->compat |= BDS_LABEL_COMPAT_MEASURED;
}

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
	member_measured(c, i, l);
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
 * checked; on failure erase them again and refuse.  The members are
 * closed again either way: device-mapper opens them exclusively.
 */
static enum plan_status write_labels(struct plan_ctx *c, struct create_job *j)
{
	char why[512];
	int i, rc;

	for (i = 0; i < c->nmem; i++)
		if (bds_dev_open(&j->d[i], j->nodes[i], true, why,
				 sizeof(why))) {
			close_all(j->d, i);
			return plan_fail(c, "%s", why);
		}
	for (i = 0; c->opt.force && i < c->nmem; i++)
		if (bds_signatures_wipe(j->nodes[i], why, sizeof(why))) {
			close_all(j->d, c->nmem);
			return plan_fail(c, "%s: %s; no label was written",
					 j->nodes[i], why);
		}
	for (i = 0; i < c->nmem; i++) {
		struct bds_label l;

		member_label(c, &j->v, i, &l);
		rc = bds_labels_write(&j->d[i], &j->held[i], &l);
		if (rc) {
			unlabel(c, &j->v, j->d, 0, i);
			close_all(j->d, c->nmem);
			return plan_fail(c, "%s: writing its label failed: %s; the labels written before it were erased again (check %s with 'bdsadm examine')",
					 j->nodes[i], bds_label_io_error(rc),
					 j->nodes[i]);
		}
	}
	close_all(j->d, c->nmem);
	return PLAN_OK;
}

/* The members' nodes, and the table and dm UUID of the volume. */
static enum plan_status make_table(struct plan_ctx *c, struct create_job *j)
{
	char devs[BDS_MAX_MEMBERS][16];
	const char *devp[BDS_MAX_MEMBERS];
	int i;

	for (i = 0; i < c->nmem; i++) {
		snprintf(devs[i], sizeof(devs[i]), "%u:%u", c->tbl[i]->maj,
			 c->tbl[i]->min);
		devp[i] = devs[i];
	}
	if (!bds_volume_params(&j->v, devp, j->params, sizeof(j->params)))
		return plan_fail(c, "internal error: the table does not fit %zu bytes",
				 sizeof(j->params));
	bds_volume_dm_uuid(&j->v, j->dmuuid, sizeof(j->dmuuid));
	return PLAN_OK;
}

/* Create /dev/mapper/NAME; if device-mapper refuses, erase the labels. */
static enum plan_status create_volume(struct plan_ctx *c, struct create_job *j)
{
	char why[256], hint[512];
	u32 ra = 0;
	int i;

	if (c->opt.ra_mode == RA_AUTO)
		ra = (u32)(2 * j->r.width_b / SECTOR);
	else if (c->opt.ra_mode == RA_SET)
		ra = (u32)(c->opt.ra_kib * 2);
	if (bds_dm_create(j->name, j->dmuuid, bds_volume_length(&j->v),
			  j->params, ra, c->opt.ra_mode == RA_AUTO))
		return PLAN_OK;
	for (i = 0; i < c->nmem; i++)
		if (bds_dev_open(&j->d[i], j->nodes[i], true, why, sizeof(why)))
			fprintf(stderr, "%s: %s; erase its label with 'bdsadm wipe %s'\n",
				c->prog, why, j->nodes[i]);
		else
			unlabel(c, &j->v, j->d, i, i + 1);
	close_all(j->d, c->nmem);
	return plan_fail(c, "device-mapper refused 0 %llu bds-stripe %s: %s; the labels were erased again",
			 U(bds_volume_length(&j->v)), j->params,
			 bds_dm_refusal_hint(hint, sizeof(hint)));
}

static void print_created(const struct plan_ctx *c, const struct create_job *j)
{
	const struct bds_label *v = &j->v;
	const char *name = j->name;

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
		       i, j->nodes[i], c->tbl[i]->group,
		       c->ctrls[c->tbl[i]->ctrl].name,
		       c->tbl[i]->serial[0] ? c->tbl[i]->serial : "unknown",
		       U(v->member_offset[i]));
		if (bds_label_weighted(v))
			printf(", weight %u: %llu sectors (%.1f %%)", v->weight[i],
			       U(data), 100.0 * (double)data /
			       (double)bds_volume_length(v));
		printf("\n");
	}
	/* --measure: the figures the weights came from */
	plan_print_measure(c);
}

/*
 * --measure reads every disk for seconds: what create_labelled() would
 * refuse anyway, the name taken and (without --force) disks that hold
 * data, is refused before that.  create_labelled() checks the disks
 * again, in table order, and finds nothing to say.
 */
static enum plan_status create_before_measure(struct plan_ctx *c, void *arg)
{
	struct create_job *j = arg;
	struct bds_label_id held;
	char node[PATH_MAX];
	enum plan_status st;
	int i, found = 0;

	st = check_name(c, j);
	if (st)
		return st;
	j->name_checked = true;
	if (c->opt.force)
		return PLAN_OK;
	for (i = 0; i < c->nmem && !st; i++) {
		st = node_of(c, &c->mem[i], node, sizeof(node));
		if (!st)
			st = plan_check_holds(c, node, &held, &found);
	}
	if (!st && found)
		st = refuse_holds(c);
	return st;
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

/* The steps of create after the plan, the first refusal stopping them. */
static enum plan_status create_labelled(struct plan_ctx *c,
					struct create_job *j)
{
	enum plan_status st;
	int i;

	j->held = calloc((size_t)c->nmem, sizeof(*j->held));
	j->nodes = calloc((size_t)c->nmem, sizeof(*j->nodes));
	j->d = calloc((size_t)c->nmem, sizeof(*j->d));
	if (!j->held || !j->nodes || !j->d)
		return plan_fail(c, "out of memory");
	st = j->name_checked ? PLAN_OK : check_name(c, j);
	for (i = 0; i < c->nmem && !st; i++)
		st = node_of(c, c->tbl[i], j->nodes[i], sizeof(j->nodes[i]));
	if (!st)
		st = check_signatures(c, j);
	if (!st)
		st = make_label(c, j);
	if (!st)
		st = make_table(c, j);
	if (!st)
		st = write_labels(c, j);
	if (!st)
		st = create_volume(c, j);
	if (!st)
		print_created(c, j);
	return st;
}

static enum plan_status create_main(struct plan_ctx *c, int argc, char **argv)
{
	struct create_job *j = calloc(1, sizeof(*j));
	enum plan_status st;
	int first;

	if (!j)
		return plan_fail(c, "out of memory");
	st = create_args(c, argc, argv, &first);
	if (!st) {
		j->name = argv[first];
		c->opt.before_measure = create_before_measure;
		c->opt.before_measure_arg = j;
		st = plan_build(c, argv + first + 1, argc - first - 1, &j->r);
	}
	if (!st)
		st = create_labelled(c, j);
	free(j->held);
	free(j->nodes);
	free(j->d);
	free(j);
	return st;
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
