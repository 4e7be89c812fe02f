// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm replace --abort NAME: end a replace whose process did not (it
 * was killed; after a crash there is no mirror and assemble decides).
 * The mirror NAME-replace is still in the volume's table, writing to
 * both legs, so either disk holds all the data that was in sync.
 *
 * Where the volume goes is read from the labels, as assemble reads it
 * after a crash (Documentation/bds-stripe-label.rst, "Membership
 * changes"):
 *  - the labels give OLD at the mirror's position: no label had moved,
 *    or the switch was cut short before its commit point and is rolled
 *    back first (the members' primaries from their backups, NEW's labels
 *    erased); the volume goes back onto OLD;
 *  - they give NEW there: the switch had passed its commit point, so NEW
 *    was in sync; the replace is finished instead: the volume onto NEW,
 *    the backups of the members that stay, OLD's labels erased.
 * Then the mirror is removed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "bdsadm.h"
#include "dm.h"
#include "label-io.h"
#include "member-dev.h"
#include "replace.h"
#include "scan.h"
#include "volstat.h"
#include "volume.h"

struct abort_ctx {
	const char *name;
	char mirror[BDS_DM_NAME_SZ];
	char old[24], new[24];		/* the legs, MAJ:MIN */
	struct bds_vol vol;		/* the live table, the mirror in it */
	u32 p;				/* the mirror's position */
	struct bds_scan s;
	struct bds_asm_result r;
	char dev[BDS_MAX_MEMBERS][24];	/* the labels' members, MAJ:MIN */
};

static int refuse_abort(const struct abort_ctx *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int refuse_abort(const struct abort_ctx *a, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	bds_err("replace --abort %s: %s", a->name, msg);
	return BDS_EXIT_FAIL;
}

/*
 * The mirror's legs, from its first target: "core K <K words> 2 OLD OFF
 * NEW OFF ...", or NEW first in a region saved by --ignore-read-errors
 * (the log's words say "nosync"; see replace-rescue.c).
 */
static bool read_legs(struct abort_ctx *a)
{
	char tbl[1024], *save = NULL, *tok, *first, *second;
	unsigned long k, i;
	bool nosync = false;

	if (!bds_dm_table(a->mirror, tbl, sizeof(tbl)))
		return false;
	tok = strtok_r(tbl, " ", &save);
	if (!tok || strcmp(tok, "core") || !(tok = strtok_r(NULL, " ", &save)))
		return false;
	k = strtoul(tok, NULL, 10);
	for (i = 0; i <= k && tok; i++) {	/* K words, then "2" */
		tok = strtok_r(NULL, " ", &save);
		if (i < k && tok && !strcmp(tok, "nosync"))
			nosync = true;
	}
	if (!tok || strcmp(tok, "2"))
		return false;
	first = strtok_r(NULL, " ", &save);
	tok = first ? strtok_r(NULL, " ", &save) : NULL;	/* its offset */
	second = tok ? strtok_r(NULL, " ", &save) : NULL;
	if (!second || strlen(first) >= 24 || strlen(second) >= 24)
		return false;
	snprintf(a->old, sizeof(a->old), "%s", nosync ? second : first);
	snprintf(a->new, sizeof(a->new), "%s", nosync ? first : second);
	return true;
}

/* The labels' volume, rolled back if a switch was cut before its commit. */
static int read_labels(struct abort_ctx *a)
{
	u8 vu[BDS_UUID_LEN];
	u32 i;

	if (bds_scan("/sys", &a->s))
		return refuse_abort(a, "cannot list the block devices");
	if (!bds_uuid_parse(a->vol.dm_uuid + strlen(BDS_DM_UUID_PREFIX), vu) ||
	    bds_assemble(a->s.found, a->s.n, NULL, vu, &a->r) != BDS_ASM_OK) {
		char msg[512];

		bds_asm_message(&a->r, msg, sizeof(msg));
		bds_err("replace --abort %s: the labels do not give one volume: %s",
			a->name, msg);
		return BDS_EXIT_FAIL;
	}
	if (a->r.nr_members != a->vol.nr_members)
		return refuse_abort(a, "the labels give %u members, the table %u; nothing was changed ('bdsadm detail %s' shows both)",
				    a->r.nr_members, a->vol.nr_members, a->name);
	for (i = 0; i < a->r.nr_members; i++)
		if (!bds_majmin_of(a->s.found[a->r.member[i]].dev, a->dev[i],
				   sizeof(a->dev[i])))
			return refuse_abort(a, "member %u (%s) is gone; nothing was changed",
					    i, a->s.found[a->r.member[i]].dev);
	return BDS_EXIT_OK;
}

/*
 * Write @l to the device of found @f: both copies or the primary, if it
 * still holds the label it was found with.
 */
static int write_label(const struct bds_found *f, const struct bds_label *l,
		       bool both)
{
	struct bds_label_id was;
	struct bds_dev d;
	char why[256];
	int rc;

	rc = bds_dev_open_held(&d, f->dev, why, sizeof(why));
	if (rc)
		return rc;
	bds_label_id_of(&was, &f->label);
	rc = both ? bds_labels_write(&d, &was, l) :
		    bds_label_write_primary(&d, &was, l);
	bds_dev_close(&d);
	return rc;
}

/* Before the commit point: primaries back from their backups, NEW bare. */
static int roll_back(struct abort_ctx *a)
{
	struct bds_dev d;
	char why[256];
	u32 i;

	for (i = 0; i < a->r.nr_restore; i++) {
		const struct bds_found *f = &a->s.found[a->r.restore[i]];

		if (write_label(f, &f->older, false))
			return refuse_abort(a, "the label of %s could not be written back; stop the volume, remove the mirror (dmsetup remove %s) and run 'bdsadm assemble %s', which rolls the change back",
					    f->dev, a->mirror, a->name);
	}
	for (i = 0; i < a->r.nr_drop; i++) {
		const struct bds_found *f = &a->s.found[a->r.drop[i]];
		struct bds_label_id was;

		bds_label_id_of(&was, &f->label);
		if (bds_dev_open_held(&d, f->dev, why, sizeof(why)) ||
		    bds_labels_wipe(&d, &was))
			bds_err("replace --abort %s: %s keeps the label of the abandoned change: erase it with 'bdsadm wipe %s'",
				a->name, f->dev, f->dev);
		bds_dev_close(&d);
	}
	return BDS_EXIT_OK;
}

/* The volume onto the labels' members, the mirror removed. */
static int reload(struct abort_ctx *a)
{
	const char *devp[BDS_MAX_MEMBERS];
	char tbl[16384], lin[64];
	u32 i;

	for (i = 0; i < a->r.nr_members; i++)
		devp[i] = a->dev[i];
	/*
	 * The mirror first maps straight onto the leg the volume goes to,
	 * with a noflush suspend: writes it holds back since a leg failed
	 * go there rather than fail or hang the volume's suspend below.
	 */
	if (!bds_volume_params(a->r.label, devp, tbl, sizeof(tbl)))
		return refuse_abort(a, "cannot make the volume's table; %s stays in it",
				    a->mirror);
	snprintf(lin, sizeof(lin), "%s %llu", a->dev[a->p],
		 (unsigned long long)a->r.label->member_offset[a->p]);
	if (!bds_dm_swap_noflush(a->mirror,
				 bds_label_member_data(a->r.label, a->p),
				 "linear", lin))
		bds_err("replace --abort %s: cannot map %s straight onto %s; going on",
			a->name, a->mirror, a->dev[a->p]);
	if (!bds_dm_swap_table(a->name, bds_volume_length(a->r.label),
			       "bds-stripe", tbl))
		return refuse_abort(a, "device-mapper refused the volume's table (dmesg says why); %s stays in it",
				    a->mirror);
	if (!bds_dm_remove(a->mirror))
		bds_err("replace --abort %s: cannot remove %s: remove it with dmsetup remove %s",
			a->name, a->mirror, a->mirror);
	return BDS_EXIT_OK;
}

/*
 * What OLD holds: the label it was found with (a label of the volume's
 * previous generation), or, if the scan did not find it, that it is not
 * to be touched.
 */
static bool old_label(const struct abort_ctx *a, struct bds_label_id *was)
{
	char mm[24];
	size_t i;

	for (i = 0; i < a->s.n; i++)
		if (bds_majmin_of(a->s.found[i].dev, mm, sizeof(mm)) &&
		    !strcmp(mm, a->old) &&
		    !memcmp(a->s.found[i].label.volume_uuid,
			    a->r.label->volume_uuid, BDS_UUID_LEN) &&
		    a->s.found[i].label.generation < a->r.label->generation) {
			bds_label_id_of(was, &a->s.found[i].label);
			return true;
		}
	return false;
}

/*
 * Past the commit point: the members' backups (NEW's too: its second
 * copy is the commit point, and a replace killed just before it leaves
 * it out), and OLD leaves.
 */
static void finish(struct abort_ctx *a, const char *old_node)
{
	struct bds_label_id was;
	struct bds_dev d;
	char why[256];
	u32 i;

	for (i = 0; i < a->r.nr_members; i++) {
		const struct bds_found *f = &a->s.found[a->r.member[i]];

		if (write_label(f, &f->label, true))
			bds_err("replace --abort %s: the backup label of member %u could not be written; the primary counts",
				a->name, i);
	}
	if (!old_label(a, &was)) {
		bds_err("replace --abort %s: %s does not carry the volume's previous label; its labels were left as they are",
			a->name, old_node);
		return;
	}
	if (bds_dev_open(&d, old_node, true, why, sizeof(why)) ||
	    bds_labels_wipe(&d, &was))
		bds_err("replace --abort %s: %s still carries its old label: erase it with 'bdsadm wipe %s' before using it elsewhere",
			a->name, old_node, old_node);
	bds_dev_close(&d);
}

/*
 * Killed after the volume was reloaded onto NEW: only the mirror, the
 * backups and OLD's labels are left to do, if the labels give the table.
 */
static int after_reload(struct abort_ctx *a)
{
	struct bds_member_dev old;
	u32 i;

	for (a->p = 0; a->p < a->vol.nr_members; a->p++)
		if (!strcmp(a->vol.dev[a->p], a->new))
			break;
	if (a->p == a->vol.nr_members)
		return refuse_abort(a, "%s is not in the volume's table, nor is its new leg %s; nothing was changed: remove it with dmsetup remove %s if nothing uses it",
				    a->mirror, a->new, a->mirror);
	for (i = 0; i < a->vol.nr_members; i++)
		if (strcmp(a->dev[i], a->vol.dev[i]))
			return refuse_abort(a, "member %u is %s in the table but %s in the labels; nothing was changed",
					    i, a->vol.dev[i], a->dev[i]);
	if (!bds_dm_remove(a->mirror))
		return refuse_abort(a, "cannot remove %s: remove it with dmsetup remove %s",
				    a->mirror, a->mirror);
	bds_member_dev(a->old, &old);
	finish(a, old.node);
	bds_info("replace %s: the volume was on its new member already: finished",
	       a->name);
	return BDS_EXIT_OK;
}

/*
 * No mirror: a replace killed while it saved the regions around OLD's
 * unreadable blocks leaves only the volume suspended.
 */
static int no_mirror(struct abort_ctx *a)
{
	struct bds_dm_info info;

	if (!bds_dm_info(a->name, &info) || !info.exists || !info.suspended) {
		bds_err("replace --abort %s: no replace to abort (%s does not exist)",
			a->name, a->mirror);
		return BDS_EXIT_FAIL;
	}
	if (!bds_dm_resume(a->name))
		return refuse_abort(a, "no mirror, but the volume is suspended and cannot be resumed: run 'dmsetup resume %s'",
				    a->name);
	bds_info("replace %s: no mirror, the volume was suspended (a replace killed as it began): resumed; nothing else had changed",
	       a->name);
	return BDS_EXIT_OK;
}

/*
 * The mirror is not in the volume's table.  If OLD still is, the replace
 * was killed before the volume moved onto the mirror (the volume may be
 * suspended): the mirror goes, the volume resumes, and true.  Else false:
 * the volume may be on NEW already (after_reload()).
 */
static bool before_mirror_in(struct abort_ctx *a)
{
	struct bds_member_dev old;
	u32 i;

	for (i = 0; i < a->vol.nr_members; i++)
		if (!strcmp(a->vol.dev[i], a->old))
			break;
	if (i == a->vol.nr_members)
		return false;
	if (!bds_dm_remove(a->mirror))
		bds_err("replace --abort %s: cannot remove %s: remove it with dmsetup remove %s",
			a->name, a->mirror, a->mirror);
	if (!bds_dm_resume(a->name))
		bds_err("replace --abort %s: cannot resume the volume: run 'dmsetup resume %s'",
			a->name, a->name);
	bds_member_dev(a->old, &old);
	bds_info("replace %s: aborted before the volume was on the mirror; the volume is on %s again",
	       a->name, old.node);
	return true;
}

static int abort_it(struct abort_ctx *a)
{
	struct bds_member_dev old, new;
	struct bds_dm_info info;
	char mm[24];
	bool to_new;
	u32 i;

	snprintf(a->mirror, sizeof(a->mirror), "%s" RPL_SUFFIX, a->name);
	if (!bds_dm_info(a->mirror, &info) || !info.exists)
		return no_mirror(a);
	if (!read_legs(a))
		return refuse_abort(a, "the table of %s is not a replace's mirror; nothing was changed",
				    a->mirror);
	if (!bds_vol_read(a->name, &a->vol) || !a->vol.have_table)
		return refuse_abort(a, "not an active volume ('bdsadm list' shows the volumes)");
	snprintf(mm, sizeof(mm), "%u:%u", info.major, info.minor);
	for (a->p = 0; a->p < a->vol.nr_members; a->p++)
		if (!strcmp(a->vol.dev[a->p], mm))
			break;
	if (read_labels(a))
		return BDS_EXIT_FAIL;
	if (a->p == a->vol.nr_members)
		return before_mirror_in(a) ? BDS_EXIT_OK : after_reload(a);
	to_new = !strcmp(a->dev[a->p], a->new);
	if (!to_new && strcmp(a->dev[a->p], a->old))
		return refuse_abort(a, "the labels give %s at the mirror's position, neither of its legs (%s, %s); nothing was changed",
				    a->dev[a->p], a->old, a->new);
	for (i = 0; i < a->vol.nr_members; i++)
		if (i != a->p && strcmp(a->dev[i], a->vol.dev[i]))
			return refuse_abort(a, "member %u is %s in the table but %s in the labels; nothing was changed",
					    i, a->vol.dev[i], a->dev[i]);
	if (a->r.rollback && roll_back(a))
		return BDS_EXIT_FAIL;
	if (reload(a))
		return BDS_EXIT_FAIL;
	bds_member_dev(a->old, &old);
	bds_member_dev(a->new, &new);
	if (to_new) {
		finish(a, old.node);
		bds_info("replace %s: the label switch had passed its commit point: finished; member %u is now %s (was %s), generation %llu",
		       a->name, a->p, new.node, old.node,
		       (unsigned long long)a->r.label->generation);
	} else {
		bds_info("replace %s: aborted%s; the volume is on %s again",
		       a->name, a->r.rollback ? " (the labels rolled back)" : "",
		       old.node);
	}
	return BDS_EXIT_OK;
}

int rpl_abort(const char *name)
{
	static struct abort_ctx a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.name = name;
	rc = abort_it(&a);
	bds_scan_free(&a.s);
	return rc;
}
