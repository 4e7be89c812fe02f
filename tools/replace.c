// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm replace [--force] NAME OLD NEW, and replace --abort NAME (see
 * replace.h).  Until the labels change, the volume can be put back on
 * OLD at any moment and nothing is lost: that is what a failure, an
 * abort or a signal does.  The labels change only once NEW is in sync,
 * in the order of the label document, so that a crash at any point
 * leaves labels that assemble resolves to exactly one volume.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "assemble.h"
#include "bdsadm.h"
#include "check.h"
#include "dm.h"
#include "label-io.h"
#include "member-dev.h"
#include "plan.h"
#include "replace.h"
#include "scan.h"
#include "signature.h"
#include "volstat.h"
#include "volume.h"

#define RPL_USAGE "replace [--force] [--ignore-read-errors] NAME OLD NEW | replace --abort NAME"
int rpl_refuse(struct rpl *x, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	bds_err("replace %s: %s", x->name, msg);
	return BDS_EXIT_FAIL;
}

/* The volume, OLD's position, and the labels' view of the volume. */
static int find_volume(struct rpl *x, const char *old)
{
	char mm[24], uuid[37];
	u8 vu[BDS_UUID_LEN];
	struct bds_dm_info info;
	u32 i;

	if (!bds_vol_dm_available())
		return rpl_refuse(x, "%s", BDS_DM_ABSENT);
	if (!bds_vol_read(x->name, &x->vol) || !x->vol.have_table ||
	    strncmp(x->vol.dm_uuid, BDS_DM_UUID_PREFIX, 4))
		return rpl_refuse(x, "not an active volume made by bdsadm ('bdsadm list' shows the volumes)");
	snprintf(x->mirror, sizeof(x->mirror), "%s" RPL_SUFFIX, x->name);
	if (bds_dm_info(x->mirror, &info) && info.exists)
		return rpl_refuse(x, "%s exists: a replace is under way or was cut short; end it with 'bdsadm replace --abort %s'",
				  x->mirror, x->name);
	if (!bds_dm_table(x->name, x->live, sizeof(x->live)))
		return rpl_refuse(x, "cannot read its table");
	if (!bds_majmin_of(old, mm, sizeof(mm)))
		return rpl_refuse(x, "%s is not a block device", old);
	for (x->p = 0; x->p < x->vol.nr_members; x->p++)
		if (!strcmp(x->vol.dev[x->p], mm))
			break;
	if (x->p == x->vol.nr_members)
		return rpl_refuse(x, "%s (%s) is not one of its members ('bdsadm detail %s' lists them)",
				  old, mm, x->name);
	snprintf(x->old_node, sizeof(x->old_node), "%s", old);
	if (bds_scan("/sys", &x->scan))
		return rpl_refuse(x, "cannot list the block devices");
	if (!bds_uuid_parse(x->vol.dm_uuid + 4, vu))
		return rpl_refuse(x, "its dm UUID %s is not BDS-<volume uuid>",
				  x->vol.dm_uuid);
	if (bds_assemble(x->scan.found, x->scan.n, NULL, vu, &x->r) !=
	    BDS_ASM_OK || x->r.rollback) {
		bds_uuid_format(vu, uuid);
		return rpl_refuse(x, "its members' labels do not describe the active volume %s as they should ('bdsadm detail %s' shows them)",
				  uuid, x->name);
	}
	if (x->r.label->incompat & BDS_LABEL_INCOMPAT_RESHAPE)
		return rpl_refuse(x, "it is mid-restripe (label feature RESHAPE): a member's data lies in two places until the restripe ends, and this bdsadm cannot resume it");
	for (i = 0; i < x->vol.nr_members; i++)
		if (!bds_majmin_of(x->scan.found[x->r.member[i]].dev, mm, sizeof(mm)) ||
		    strcmp(mm, x->vol.dev[i]))
			return rpl_refuse(x, "member %u of the live table (%s) is not the device its labels give that position",
					  i, x->vol.dev[i]);
	return BDS_EXIT_OK;
}

/* create's checks on NEW, and the room it needs. */
static int check_new(struct rpl *x, const char *new)
{
	const struct bds_label *l = x->r.label;
	u64 off, backup, data = bds_label_member_data(l, x->p);
	struct bds_dev_labels dl;
	char why[512], what[512];
	u32 i;
	int rc;

	snprintf(x->new_node, sizeof(x->new_node), "%s", new);
	if (!bds_majmin_of(new, x->new_dev, sizeof(x->new_dev)))
		return rpl_refuse(x, "%s is not a block device", new);
	for (i = 0; i < x->vol.nr_members; i++)
		if (!strcmp(x->vol.dev[i], x->new_dev))
			return rpl_refuse(x, "%s is member %u of the volume already", new, i);
	if (bds_dev_suspended(new, what, sizeof(what)))
		return rpl_refuse(x, "%s", what);
	rc = bds_signatures(new, what, sizeof(what));
	if (rc < 0)
		return rpl_refuse(x, "%s: %s", new, what);
	if (rc > 0 && !x->force)
		return rpl_refuse(x, "%s holds %s: its data would be lost; erase it (wipefs -a) or give --force",
				  new, what);
	if (bds_dev_open(&x->newd, new, true, why, sizeof(why)))
		return rpl_refuse(x, "%s", why);
	rc = bds_labels_read(&x->newd, &dl);
	if (rc)
		return rpl_refuse(x, "%s: cannot read it: %s", new, strerror(-rc));
	if (bds_labels_best(&dl) && !x->force)
		return rpl_refuse(x, "%s holds a bds-stripe member label ('bdsadm examine %s'); erase it with 'bdsadm wipe' or give --force",
				  new, new);
	/* what NEW must still hold when its labels are written */
	bds_label_id_held(&x->new_held, &dl);
	if (x->newd.lbs > 4096 || (l->chunk_sectors * 512) % x->newd.lbs)
		return rpl_refuse(x, "%s has %u-byte logical blocks: the stripe unit (%llu bytes) must be a multiple of them, and a label needs 4 KiB blocks or smaller",
				  new, x->newd.lbs,
				  (unsigned long long)l->chunk_sectors * 512);
	off = bds_label_data_offset((u32)l->chunk_sectors, x->newd.pbs / 512);
	/* the backup at NEW's end, or in front of the data when only that fits */
	backup = bds_label_backup_place(x->newd.sectors, off, off + data);
	if (!backup)
		return rpl_refuse(x, "%s is too small: it has %llu sectors, the member needs %llu (data offset %llu, %llu data sectors)",
				  new, (unsigned long long)x->newd.sectors,
				  (unsigned long long)(off + data),
				  (unsigned long long)off,
				  (unsigned long long)data);
	if (backup == BDS_LABEL_FRONT_BACKUP && off >= BDS_LABEL_FRONT_DATA)
		bds_info("%s: the data leaves no room for the backup label at its end; it goes in front of the data, at sector %u",
			 new, BDS_LABEL_FRONT_BACKUP);
	x->new_backup = backup;
	x->next = *l;
	x->next.generation++;
	x->next.utime = (u64)time(NULL);
	bds_new_uuid(x->next.uuid[x->p]);
	x->next.member_offset[x->p] = off;
	{
		struct bds_member_dev md;

		bds_member_dev(x->new_dev, &md);
		snprintf(x->next.serial[x->p], sizeof(x->next.serial[0]), "%.*s",
			 BDS_LABEL_SERIAL_LEN, md.serial);
	}
	return BDS_EXIT_OK;
}

/* The volume's table with member @p as @dev at @off. */
static bool table_with(struct rpl *x, const char *dev, u64 off, bool words,
		       char *buf, size_t sz)
{
	const char *devp[BDS_MAX_MEMBERS];
	u64 offs[BDS_MAX_MEMBERS];
	u32 i;

	for (i = 0; i < x->vol.nr_members; i++) {
		devp[i] = i == x->p ? dev : x->vol.dev[i];
		offs[i] = i == x->p ? off : x->vol.offset[i];
	}
	return bds_volume_params_at(words ? &x->next : x->r.label, devp, offs,
				    words, buf, sz);
}

/*
 * Put the volume back on OLD as it was, and remove the mirror.  The
 * mirror becomes a plain map of OLD first, with a noflush suspend: the
 * writes it holds back since a leg failed are requeued and go to OLD,
 * where they belong, instead of being failed (a suspend would have to)
 * or waited for forever (the volume's suspend below would).
 */
void rpl_put_back(struct rpl *x)
{
	u64 len = bds_volume_length(x->r.label);
	struct bds_dm_info info;
	char lin[64];

	snprintf(lin, sizeof(lin), "%s %llu", x->vol.dev[x->p],
		 (unsigned long long)x->vol.offset[x->p]);
	if (bds_dm_info(x->mirror, &info) && info.exists &&
	    !bds_dm_swap_noflush(x->mirror,
				 bds_label_member_data(x->r.label, x->p),
				 "linear", lin))
		bds_err("replace %s: cannot map %s straight onto %s; putting the volume back all the same",
			x->name, x->mirror, x->old_node);
	if (!bds_dm_swap_table(x->name, len, "bds-stripe", x->live) &&
	    !bds_dm_resume(x->name))
		bds_err("replace %s: cannot put the volume back on %s: load its table by hand: dmsetup reload %s --table '0 %llu bds-stripe %s'",
			x->name, x->old_node, x->name, (unsigned long long)len,
			x->live);
	if (!bds_dm_remove(x->mirror))
		bds_err("replace %s: cannot remove %s: remove it with dmsetup remove %s",
			x->name, x->mirror, x->mirror);
}

/* Resume the volume, or say how to. */
static void rpl_resume_or_say(struct rpl *x)
{
	if (!bds_dm_resume(x->name))
		bds_err("replace %s: cannot resume the volume: run 'dmsetup resume %s'",
			x->name, x->name);
}

/* Member @i's label at the next generation. */
static struct bds_label member_label(struct rpl *x, u32 i)
{
	const struct bds_label *cur = &x->scan.found[x->r.member[i]].label;
	struct bds_label l;

	/*
	 * x->next is some member's label: each member's own share, and no
	 * measured figures (the label writers keep each old member's own;
	 * the new disk has none).
	 */
	if (i == x->p)
		bds_label_member_view(&x->next, i, x->newd.sectors,
				      x->new_backup, &l);
	else
		bds_label_member_view(&x->next, i, cur->member_sectors,
				      cur->backup_sector, &l);
	return l;
}

/* What member @i's device holds: its label of the current generation. */
static void current_id(const struct rpl *x, u32 i, struct bds_label_id *id)
{
	bds_label_id_of(id, &x->scan.found[x->r.member[i]].label);
}

/*
 * Write one member's label at the next generation, @which copies of it
 * (COPY_PRIMARY, COPY_BACKUP or both), if its device holds @was.  NEW
 * (@i == p) is written through x->newd, and what it holds afterwards is
 * kept in x->new_held.
 */
#define COPY_PRIMARY	1
#define COPY_BACKUP	2
#define COPY_BOTH	(COPY_PRIMARY | COPY_BACKUP)

static int write_copies(const struct bds_dev *d, const struct bds_label_id *was,
			const struct bds_label *l, int which)
{
	if (which == COPY_BOTH)
		return bds_labels_write(d, was, l);
	return which == COPY_PRIMARY ? bds_label_write_primary(d, was, l) :
				       bds_label_write_backup(d, was, l);
}

static int write_member(struct rpl *x, u32 i, const struct bds_label_id *was,
			int which)
{
	struct bds_label l = member_label(x, i);
	const char *dev = x->scan.found[x->r.member[i]].dev;
	struct bds_dev d;
	char why[256];
	int rc;

	if (i == x->p) {
		rc = write_copies(&x->newd, was, &l, which);
		if (!rc)
			bds_label_id_of(&x->new_held, &l);
		return rc;
	}
	rc = bds_dev_open_held(&d, dev, why, sizeof(why));
	if (rc)
		return rc;
	rc = write_copies(&d, was, &l, which);
	bds_dev_close(&d);
	return rc;
}

/* The next generation's label of member @i, as written. */
static void next_id(struct rpl *x, u32 i, struct bds_label_id *id)
{
	struct bds_label l = member_label(x, i);

	bds_label_id_of(id, &l);
}

/*
 * Before the commit point: the primaries of the members before @upto
 * back to the current generation, NEW bare.
 */
static void labels_back(struct rpl *x, u32 upto)
{
	struct bds_label_id was;
	u32 i;

	for (i = 0; i < upto; i++) {
		const struct bds_found *f = &x->scan.found[x->r.member[i]];
		struct bds_dev d;
		char why[256];

		if (i == x->p || bds_dev_open_held(&d, f->dev, why, sizeof(why)))
			continue;
		next_id(x, i, &was);
		if (bds_label_write_primary(&d, &was, &f->label))
			bds_err("replace %s: cannot restore the label of member %u (%s): run 'bdsadm assemble' after stopping the volume to roll it back",
				x->name, i, f->dev);
		bds_dev_close(&d);
	}
	if (x->new_held.held != BDS_HELD_NONE &&
	    bds_labels_wipe(&x->newd, &x->new_held))
		bds_err("replace %s: cannot erase the label written on %s: erase it with 'bdsadm wipe %s'",
			x->name, x->new_node, x->new_node);
}

void rpl_mirror_params(const struct rpl *x, const struct rpl_seg *seg,
		       char *buf, size_t sz)
{
	unsigned long long o = x->vol.offset[x->p] + seg->start;
	unsigned long long n = x->next.member_offset[x->p] + seg->start;
	u32 region = RPL_REGION;

	/* the log refuses a region larger than its target */
	while (region > 2 && region > seg->len)
		region >>= 1;
	if (seg->saved)
		snprintf(buf, sz, "core 2 %u nosync 2 %s %llu %s %llu",
			 region, x->new_dev, n, x->vol.dev[x->p], o);
	else
		snprintf(buf, sz, "core 1 %u 2 %s %llu %s %llu 1 handle_errors",
			 region, x->vol.dev[x->p], o, x->new_dev, n);
}

/*
 * The mirror in OLD's place; false (and said) if it cannot be.  The
 * volume is suspended before the mirror exists, and resumes on it: from
 * the mirror's first copied region on, every write to OLD goes through
 * the mirror, so none can change a region behind the copy (it would be
 * marked in sync with NEW stale there).
 */
static bool start_mirror(struct rpl *x)
{
	const struct bds_label *l = x->r.label;
	char uuid[37], mu[BDS_DM_UUID_SZ], mm[24], tbl[16384];
	static struct rpl_table t;
	struct bds_dm_info info;

	if (rpl_mirror_table(x, &t)) {
		rpl_refuse(x, "the mirror's table has too many segments; nothing was changed");
		return false;
	}
	bds_uuid_format(l->volume_uuid, uuid);
	/* not "BDS-": it is no volume, and list and monitor skip it */
	snprintf(mu, sizeof(mu), BDS_DM_MIRROR_PREFIX "%s", uuid);
	bds_dev_close(&x->newd);	/* the mirror opens NEW exclusively */
	if (!bds_dm_suspend(x->name)) {
		bds_dm_resume(x->name);
		rpl_refuse(x, "cannot suspend the volume to put the mirror in; nothing was changed");
		return false;
	}
	if (rpl_save_regions(x)) {
		rpl_resume_or_say(x);
		rpl_refuse(x, "the regions holding unreadable blocks could not be saved on %s; nothing was changed",
			   x->new_node);
		return false;
	}
	if (!bds_dm_create_table(x->mirror, mu, t.t, t.n, 0, false)) {
		rpl_resume_or_say(x);
		rpl_refuse(x, "device-mapper refused the mirror 0 %llu mirror %s%s (dmesg says why); nothing was changed",
			   (unsigned long long)t.t[0].length, t.params[0],
			   t.n > 1 ? " and its other segments" : "");
		return false;
	}
	if (!bds_dm_info(x->mirror, &info) || !info.exists) {
		bds_dm_remove(x->mirror);
		rpl_resume_or_say(x);
		rpl_refuse(x, "the mirror %s vanished; nothing was changed", x->mirror);
		return false;
	}
	rpl_crash_point("mirror-made");
	snprintf(mm, sizeof(mm), "%u:%u", info.major, info.minor);
	if (!table_with(x, mm, 0, false, tbl, sizeof(tbl)) ||
	    !bds_dm_swap_table(x->name, bds_volume_length(l), "bds-stripe", tbl)) {
		rpl_put_back(x);
		rpl_refuse(x, "the volume could not be reloaded onto the mirror; it stays on %s, nothing was changed",
			   x->old_node);
		return false;
	}
	return true;
}

/*
 * NEW is in sync: the labels move on (NEW's primary, each member's
 * primary, then NEW's backup: the commit point), the volume is reloaded
 * onto NEW, the mirror goes, then the members' backups and OLD's
 * labels.  Every write first checks that its device still holds what
 * it held when the replace began (label-io.h).
 */
static int switch_to_new(struct rpl *x)
{
	struct bds_label_id was;
	char tbl[16384], why[256];
	u32 i;
	int rc;

	rpl_crash_point("in-sync");
	if (bds_dev_open_held(&x->newd, x->new_node, why, sizeof(why))) {
		rpl_put_back(x);
		return rpl_refuse(x, "%s; the volume stays on %s", why, x->old_node);
	}
	/* NEW bare first: its backup slot must not hold an old label */
	rc = x->new_held.held == BDS_HELD_NONE ? 0 :
	     bds_labels_wipe(&x->newd, &x->new_held);
	if (!rc) {
		bds_label_id_of(&x->new_held, NULL);
		rc = write_member(x, x->p, &x->new_held, COPY_PRIMARY);
	}
	if (!rc)
		rpl_crash_point("new-labelled");
	for (i = 0; !rc && i < x->vol.nr_members; i++) {
		if (i == x->p)
			continue;
		current_id(x, i, &was);
		rc = write_member(x, i, &was, COPY_PRIMARY);
		if (!rc)
			rpl_crash_point("one-primary");
	}
	if (!rc) {
		was = x->new_held;
		rc = write_member(x, x->p, &was, COPY_BACKUP);
	}
	if (rc) {
		labels_back(x, i);
		bds_dev_close(&x->newd);
		rpl_put_back(x);
		return rpl_refuse(x, "writing the labels failed (%s); they were put back, the volume stays on %s",
				  bds_label_io_error(rc), x->old_node);
	}
	/* committed: from here on the volume is NEW's */
	rpl_crash_point("committed");
	if (!table_with(x, x->new_dev, x->next.member_offset[x->p], true, tbl,
			sizeof(tbl)) ||
	    !bds_dm_swap_table(x->name, bds_volume_length(&x->next),
			       "bds-stripe", tbl)) {
		labels_back(x, x->vol.nr_members);
		bds_dev_close(&x->newd);
		rpl_put_back(x);
		return rpl_refuse(x, "device-mapper refused the table on %s (dmesg says why); the labels were put back, the volume stays on %s",
				  x->new_node, x->old_node);
	}
	bds_dev_close(&x->newd);
	rpl_crash_point("reloaded");
	if (!bds_dm_remove(x->mirror))
		bds_err("replace %s: cannot remove %s: remove it with dmsetup remove %s",
			x->name, x->mirror, x->mirror);
	for (i = 0; i < x->vol.nr_members; i++) {
		if (i == x->p)
			continue;
		next_id(x, i, &was);
		if (write_member(x, i, &was, COPY_BOTH))
			bds_err("replace %s: the backup label of member %u could not be written; the primary counts (assemble is not affected)",
				x->name, i);
	}
	{
		struct bds_dev d;

		current_id(x, x->p, &was);
		if (bds_dev_open(&d, x->old_node, true, why, sizeof(why)) ||
		    bds_labels_wipe(&d, &was))
			bds_err("replace %s: %s still carries its old label: erase it with 'bdsadm wipe %s' before using it elsewhere",
				x->name, x->old_node, x->old_node);
		bds_dev_close(&d);
	}
	return BDS_EXIT_OK;
}

static int do_replace(struct rpl *x, const char *old, const char *new)
{
	struct rpl_copy c;
	char health[16];
	enum rpl_result res;
	struct timespec t0, t1;

	if (find_volume(x, old) || check_new(x, new))
		return BDS_EXIT_FAIL;
	if (x->ignore_read && rpl_find_bad(x))
		return BDS_EXIT_FAIL;
	rpl_catch_signals();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!start_mirror(x))
		return BDS_EXIT_FAIL;
	rpl_crash_point("copy-started");
	bds_info("replace %s: copying member %u from %s to %s (%llu MiB) while the volume stays in use",
	       x->name, x->p, x->old_node, x->new_node,
	       (unsigned long long)(bds_label_member_data(x->r.label, x->p) >> 11));
	fflush(stdout);
	memset(&c, 0, sizeof(c));
	c.mirror = x->mirror;
	c.new_dev = x->new_dev;
	c.sectors = bds_label_member_data(x->r.label, x->p);
	c.tty = isatty(2);
	c.t0 = t0;		/* the mirror copies from its start on */
	res = rpl_wait_sync(&c, health, sizeof(health));
	if (res != RPL_IN_SYNC) {
		rpl_put_back(x);
		if (res == RPL_ABORTED)
			return rpl_refuse(x, "aborted; the volume stays on %s, nothing was changed",
					  x->old_node);
		rpl_refuse(x, "the copy failed (mirror health %s: %s); the volume stays on %s, nothing was changed",
			   health, c.old_failed ? "OLD could not be read" :
			   !strncmp(health, "status", 6) ?
			   "the mirror's status could not be read" :
			   "NEW could not be written", x->old_node);
		if (c.old_failed) {
			bds_err("replace %s: reading member %u (%s) to list what cannot be read:",
				x->name, x->p, x->old_node);
			bds_check_member(x->name, x->p);
			bds_err("replace %s: to move the rest to %s, with zeros where %s cannot be read, run the replace again with --ignore-read-errors%s",
				x->name, x->new_node, x->old_node, x->ignore_read ?
				" (a block went bad after its first read of the disk)" :
				"");
		}
		return BDS_EXIT_FAIL;
	}
	if (switch_to_new(x))
		return BDS_EXIT_FAIL;
	if (x->nreg)
		bds_info("replace %s: %zu unreadable range%s of %s (%llu sectors) read as zeros on %s: the data there is lost (volume sectors above); the rest was copied",
		       x->name, x->bad.nbad, x->bad.nbad == 1 ? "" : "s",
		       x->old_node, (unsigned long long)x->zeroed, x->new_node);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	bds_info("replace %s: member %u is now %s (was %s), generation %llu; copied in %.1f s",
	       x->name, x->p, x->new_node, x->old_node,
	       (unsigned long long)x->next.generation,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return BDS_EXIT_OK;
}

int bds_cmd_replace(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "abort", no_argument, NULL, 'a' },
		{ "ignore-read-errors", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct rpl x;
	bool abort_it = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, "fah", lo, NULL)) != -1) {
		switch (c) {
		case 'i':
			x.ignore_read = true;
			break;
		case 'f':
			x.force = true;
			break;
		case 'a':
			abort_it = true;
			break;
		case 'h':
			printf("usage: bdsadm " RPL_USAGE "\n");
			return BDS_EXIT_OK;
		default:
			return bds_usage(RPL_USAGE);
		}
	}
	if (argc - optind != (abort_it ? 1 : 3))
		return bds_usage(RPL_USAGE);
	x.name = bds_vol_name_arg(argv[optind]);
	if (!x.name)
		return bds_usage(RPL_USAGE);
	x.newd.fd = -1;
	rc = abort_it ? rpl_abort(x.name) : do_replace(&x, argv[optind + 1],
							argv[optind + 2]);
	bds_dev_close(&x.newd);
	bds_scan_free(&x.scan);
	free(x.bad.bad);
	return rc;
}
