// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm adopt NAME --from-table DMNAME: make an unlabelled device-mapper
 * table, bds-stripe (made by hand or by bds-stripe-table --create) or the
 * kernel's striped, a labelled volume in place.  striped places its units
 * as layout sequential does; a bds-stripe table keeps its own groups,
 * layout and weights.  The labels need room outside the data: each
 * member's offset at sector 24 or later (the primary at 8 to 23), and
 * 8 KiB after its data below its last 4 KiB boundary (the backup), or
 * else its offset at 2048 or later (the backup in front, at 2032).
 *
 * The table is not persistent: nothing assembles it but the admin's own
 * dmsetup.  So the order is: stripe units read through the table, the
 * table removed, the labels written in adopt's three steps (every backup
 * with ADOPT, every primary, every backup without it:
 * adopt_write_steps()), the volume created under NAME and the units read
 * again.  Cut short, the data is not moved, and:
 *   - among the marked backups: bdsadm assemble refuses the volume (a
 *     member without a label, named by its serial: assemble-cmd.c); the
 *     table can be made again as it was, and adopted again
 *     (tests/vm/t/adopt-table-cut-after-one-backup-keeps-data.sh);
 *   - once every backup is written: bdsadm assemble finishes the
 *     adoption by itself, as after a cut one from md, no md superblock
 *     standing in the way (adopt-finish.c;
 *     tests/vm/t/adopt-table-cut-after-every-backup-is-finished-by-assemble.sh).
 * Any failure after the table is removed
 * erases the labels written and loads the table again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libbds/table.h"
#include "adopt.h"
#include "bdsadm.h"
#include "dm.h"
#include "member-dev.h"
#include "replace.h"
#include "signature.h"
#include "sysfs.h"
#include "util.h"
#include "volume.h"

#define MAX_WORDS	(2 * BDS_MAX_MEMBERS + 64)

struct table_src {
	struct bds_dm_info info;
	char type[32];
	char params[16384];		/* cut into the words */
	char orig[16384];		/* as read, to load it again */
	char *word[MAX_WORDS];
	unsigned int nw;
	u64 len;
	unsigned int at[BDS_MAX_MEMBERS];	/* member i's word */
	u64 offset[BDS_MAX_MEMBERS];
	u64 data[BDS_MAX_MEMBERS];	/* each member's data, sectors */
	char node[BDS_MAX_MEMBERS][PATH_MAX];
	struct bds_args a;		/* bds-stripe: its groups, layout, weights */
};

/* The device: there, unlabelled, unused, one striped or bds-stripe target. */
static int check_device(struct adopt_ctx *c, struct table_src *t)
{
	const char *dm = c->from_table;
	char dir[64], *p;

	if (!bds_dm_info(dm, &t->info))
		return adopt_refuse(c, "%s", bds_dm_why_not());
	if (!t->info.exists)
		return adopt_refuse(c, "there is no device-mapper device named '%s'", dm);
	if (!strncmp(t->info.uuid, "LVM-", 4))
		return adopt_refuse(c, "/dev/mapper/%s is an LVM logical volume: its physical volumes hold LVM's metadata and other volumes, so adopt does not take LVM striped volumes",
				    dm);
	if (!strncmp(t->info.uuid, "BDS-", 4))
		return adopt_refuse(c, "/dev/mapper/%s is a labelled bds-stripe volume already", dm);
	snprintf(t->type, sizeof(t->type), "%s", t->info.target);
	if (strcmp(t->type, "striped") && strcmp(t->type, "bds-stripe"))
		return adopt_refuse(c, "/dev/mapper/%s is a '%s' device: adopt takes an unlabelled bds-stripe or striped table",
				    dm, t->type[0] ? t->type : "table-less");
	if (t->info.open_count)
		return adopt_refuse(c, "/dev/mapper/%s is in use (open %d times: mounted, or held): unmount it first",
				    dm, t->info.open_count);
	if (!bds_dm_table_all(dm, t->params, sizeof(t->params)))
		return adopt_refuse(c, "cannot read the table of /dev/mapper/%s", dm);
	if (strchr(t->params, '\n'))
		return adopt_refuse(c, "/dev/mapper/%s has more than one target: adopt takes a table of one", dm);
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", t->info.major,
		 t->info.minor);
	if (!read_u64_attr(dir, "size", &t->len) || !t->len)
		return adopt_refuse(c, "cannot read the size of /dev/mapper/%s", dm);
	memcpy(t->orig, t->params, sizeof(t->orig));
	for (p = strtok(t->params, " "); p && t->nw < MAX_WORDS;
	     p = strtok(NULL, " "))
		t->word[t->nw++] = p;
	return BDS_EXIT_OK;
}

/* striped: <#stripes> <chunk> (<dev> <offset>)... */
static int parse_striped(struct adopt_ctx *c, struct table_src *t)
{
	u64 n, chunk, i;

	if (t->nw < 4 || !bds_parse_u64(t->word[0], &n) || !n ||
	    n > BDS_MAX_MEMBERS || t->nw != 2 + 2 * n ||
	    !bds_parse_u64(t->word[1], &chunk))
		return adopt_refuse(c, "cannot read the striped table of /dev/mapper/%s",
				    c->from_table);
	t->a.nr_members = (u32)n;
	t->a.chunk = chunk;
	t->a.mode = BDS_LAYOUT_SEQUENTIAL;
	for (i = 0; i < n; i++) {
		t->a.weight[i] = 1;
		t->data[i] = t->len / n;
		t->at[i] = (unsigned int)(2 + 2 * i);
	}
	return BDS_EXIT_OK;
}

/* bds-stripe: the target's own parser; unlabelled, no restripe. */
static int parse_bds(struct adopt_ctx *c, struct table_src *t)
{
	const char *why = bds_parse_table(&t->a, t->nw, t->word);
	unsigned int at = 2, g, j;
	u32 i, w = 0;

	if (why)
		return adopt_refuse(c, "the table of /dev/mapper/%s: %s", c->from_table, why);
	if (t->a.volume_given)
		return adopt_refuse(c, "/dev/mapper/%s is labelled already (its table has 'volume')",
				    c->from_table);
	if (t->a.reshape_given)
		return adopt_refuse(c, "/dev/mapper/%s is being restriped", c->from_table);
	/* <chunk> <#groups> then each group: <#devs> (<dev> <offset>)... */
	for (g = 0, i = 0; g < t->a.nr_groups; g++, at++)
		for (j = 0; j < t->a.group_size[g]; j++, i++, at += 2)
			t->at[i] = at + 1;
	for (i = 0; i < t->a.nr_members; i++)
		w += t->a.weight[i];
	for (i = 0; i < t->a.nr_members; i++)
		t->data[i] = t->len / w * t->a.weight[i];
	return BDS_EXIT_OK;
}

/* Each member: its node and size; room for both copies; nothing else there. */
static int check_table_members(struct adopt_ctx *c, struct table_src *t)
{
	struct bds_member_dev md;
	char why[512], what[512];
	struct bds_dev d;
	int rc;
	u32 i;

	if (t->a.chunk % 8 || !t->a.chunk)
		return adopt_refuse(c, "the table's chunk is %llu sectors: a bds-stripe label needs a multiple of 8 (4 KiB)",
				    U(t->a.chunk));
	for (i = 0; i < t->a.nr_members; i++) {
		const char *w = t->word[t->at[i]];

		if (!bds_parse_u64(t->word[t->at[i] + 1],
				   &t->offset[i]))
			return adopt_refuse(c, "member %u's offset is not a number", i);
		bds_member_dev(w, &md);
		if (!md.found)
			return adopt_refuse(c, "member %u (%s) is not a block device in /sys/dev/block",
					    i, w);
		snprintf(t->node[i], sizeof(t->node[i]), "%s", md.node);
		snprintf(c->majmin[i], sizeof(c->majmin[i]), "%s", w);
		if (bds_dev_open(&d, t->node[i], false, why, sizeof(why)))
			return adopt_refuse(c, "%s", why);
		c->size[i] = d.sectors;
		bds_dev_close(&d);
		if (d.lbs > 4096)
			return adopt_refuse(c, "%s has %u-byte logical blocks: a bds-stripe label needs 4 KiB blocks or smaller",
					    t->node[i], d.lbs);
		if (t->offset[i] < BDS_LABEL_PRIMARY + BDS_LABEL_SECTORS)
			return adopt_refuse(c, "%s (member %u): its data starts at sector %llu, where the primary label goes (sectors 8 to 23): a table whose members' offsets are 24 or more can be adopted",
					    t->node[i], i, U(t->offset[i]));
		rc = adopt_backup_place(c, i, t->node[i], t->offset[i],
					t->offset[i] + t->data[i], t->a.chunk,
					true, "");
		if (rc)
			return rc;
		if (bds_signatures(t->node[i], what, sizeof(what)) > 0)
			return adopt_refuse(c, "%s (member %u) holds %s, which the labels would overwrite: erase it first if it is stale (wipefs)",
					    t->node[i], i, what);
	}
	return BDS_EXIT_OK;
}

/* c->v: striped as sequential by controller runs; bds-stripe as it is. */
static int make_label(struct adopt_ctx *c, const struct table_src *t)
{
	struct bds_member_dev md;
	struct bds_label *v = &c->v;
	u32 g, i, first = 0;

	adopt_label_volume(c, t->a.chunk, t->a.nr_members, t->offset);
	if (!strcmp(t->type, "bds-stripe")) {
		memset(v->group_size, 0, sizeof(v->group_size));
		memset(v->controller, 0, sizeof(v->controller));
		v->nr_groups = t->a.nr_groups;
		for (g = 0; g < t->a.nr_groups; g++) {
			v->group_size[g] = (u8)t->a.group_size[g];
			bds_member_dev(c->majmin[first], &md);
			snprintf(v->controller[g], sizeof(v->controller[g]),
				 "%.*s", BDS_LABEL_CTRL_LEN, md.controller);
			first += t->a.group_size[g];
		}
		v->layout = t->a.mode;
		for (i = 0; i < t->a.nr_members; i++)
			v->weight[i] = t->a.weight[i];
		if (bds_label_weighted(v))
			v->weights_mode = BDS_WEIGHTS_MODE_LIST;
	}
	v->data_sectors = t->data[0];
	if (bds_volume_length(v) != t->len)
		return adopt_refuse(c, "/dev/mapper/%s is %llu sectors, not a whole number of its members' shares (%llu): adopt takes a table whose length its members divide",
				    c->from_table, U(t->len), U(bds_volume_length(v)));
	for (i = 0; i < t->a.nr_members; i++) {
		struct bds_label l;

		if (adopt_member_label(c, i, &l))
			return BDS_EXIT_FAIL;
	}
	return BDS_EXIT_OK;
}

/* Erase the labels of members 0 to @n - 1 and load the old table again. */
static void put_back(struct adopt_ctx *c, const struct table_src *t, u32 n,
		     const char *params)
{
	struct bds_label_id was;
	struct bds_label l;
	u32 i;

	for (i = 0; i < n; i++) {
		adopt_member_label(c, i, &l);
		bds_label_id_of(&was, &l);
		if (bds_dev_open(&c->d[i], t->node[i], true, NULL, 0) == 0) {
			bds_labels_wipe(&c->d[i], &was);
			bds_dev_close(&c->d[i]);
		}
	}
	if (!bds_dm_create_target(c->from_table, t->info.uuid[0] ? t->info.uuid : NULL,
				  t->len, t->type, params, 0, false))
		bds_err("adopt %s: cannot load the old table again: 'dmsetup create %s --table \"0 %llu %s %s\"'",
			c->name, c->from_table, U(t->len), t->type, params);
}

/*
 * The labels in adopt's order (adopt_write_steps(): every backup with
 * ADOPT, every primary, every backup without it), the table gone;
 * undone on failure.
 */
static int write_labels(struct adopt_ctx *c, const struct table_src *t,
			const char *params)
{
	struct bds_dev_labels *dl = malloc(sizeof(*dl));
	struct bds_label_id was[BDS_MAX_MEMBERS];
	u32 i, n = t->a.nr_members;
	char why[512];
	int rc = 0;

	if (!dl)
		return adopt_refuse(c, "out of memory");
	if (!bds_dm_remove(c->from_table)) {
		free(dl);
		return adopt_refuse(c, "cannot remove /dev/mapper/%s (is it in use?)",
				    c->from_table);
	}
	for (i = 0; i < n && !rc; i++) {
		rc = bds_dev_open(&c->d[i], t->node[i], true, why, sizeof(why));
		if (!rc && bds_labels_read(&c->d[i], dl)) {
			snprintf(why, sizeof(why), "%s: cannot read its labels",
				 t->node[i]);
			bds_dev_close(&c->d[i]);
			rc = -EIO;
		}
		if (!rc)
			bds_label_id_held(&was[i], dl);
	}
	free(dl);
	if (rc) {
		while (--i > 0)
			bds_dev_close(&c->d[i - 1]);
		put_back(c, t, 0, params);
		return adopt_refuse(c, "%s; /dev/mapper/%s was loaded again",
				    why, c->from_table);
	}
	if (adopt_write_steps(c, n, was, "adopt-table", &rc, &i))
		snprintf(why, sizeof(why), "%s: writing its label failed: %s",
			 t->node[i], bds_label_io_error(rc));
	for (i = 0; i < n; i++)
		bds_dev_close(&c->d[i]);
	if (!rc)
		return BDS_EXIT_OK;
	put_back(c, t, n, params);
	return adopt_refuse(c, "%s; the labels written were erased and /dev/mapper/%s loaded again",
			    why, c->from_table);
}

int adopt_from_table(struct adopt_ctx *c)
{
	struct table_src *t = calloc(1, sizeof(*t));
	const char *params;
	char path[128];
	long got;
	int rc;

	if (!t)
		return adopt_refuse(c, "out of memory");
	params = t->orig;
	snprintf(c->source, sizeof(c->source), "/dev/mapper/%s", c->from_table);
	rc = check_device(c, t);
	if (!rc)
		rc = !strcmp(t->type, "striped") ? parse_striped(c, t) :
						   parse_bds(c, t);
	if (!rc)
		rc = check_table_members(c, t);
	if (!rc)
		rc = make_label(c, t);
	if (!rc && !bds_sample_pick(&c->sample, t->a.chunk, t->len / t->a.chunk,
				    t->a.nr_members))
		rc = adopt_refuse(c, "out of memory");
	if (!rc && bds_sample_read(&c->sample, c->source, false) !=
	    (long)c->sample.n)
		rc = adopt_refuse(c, "reading %s failed: %s", c->source,
				  strerror(errno));
	if (!rc)
		rc = write_labels(c, t, params);
	if (!rc) {
		rc = adopt_create_volume(c);
		if (rc)
			put_back(c, t, t->a.nr_members, params);
	}
	if (!rc) {
		snprintf(path, sizeof(path), "/dev/mapper/%s", c->name);
		got = bds_sample_read(&c->sample, path, true);
		if (got != (long)c->sample.n) {
			bds_dm_remove(c->name);
			put_back(c, t, t->a.nr_members, params);
			rc = adopt_refuse(c, "stripe units read differently through the labelled volume: the labels were erased and /dev/mapper/%s loaded again",
					  c->from_table);
		}
	}
	free(t);
	return rc ? rc : adopt_say(c);
}
