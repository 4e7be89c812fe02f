// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm assemble NAME | --uuid UUID | --scan: find the members by
 * their labels (scan.c), decide (assemble.c: never a partial or
 * inconsistent set, never one set for another), check that this host
 * may assemble it and under which name (its owner, config.h), build the
 * table from the labels (volume.c) and create the device (dm.c).
 *
 * --generation G   assemble generation G of the volume, as the labels
 *                  that count give it: what the admin chooses when two
 *                  sets of one volume are refused
 * --foreign        assemble a volume another host owns, this once
 * --dm-name NAME   create it as /dev/mapper/NAME
 * --auto           what automatic assembly does (the boot unit, udev):
 *                  nothing when it is turned off; a foreign volume only
 *                  when the configuration lists it, and then as
 *                  bds-NAME, never under its bare name
 * --no-rollback    refuse, rather than roll back, a membership change
 *                  cut short (udev's path never writes to a disk)
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "adopt-finish.h"
#include "assemble.h"
#include "bdsadm.h"
#include "config.h"
#include "dm.h"
#include "fmt.h"
#include "label-io.h"
#include "member-dev.h"
#include "replace.h"
#include "run-lock.h"
#include "scan.h"
#include "sysfs.h"
#include "systemd.h"
#include "volume.h"

#define ASM_USAGE "assemble NAME | --uuid UUID | --scan [--generation G] [--foreign] [--dm-name NAME] [--auto] [--no-rollback]"

/* Seconds an assemble waits for another holder of the assembly lock. */
#define ASM_LOCK_WAIT_MS	60000

/* One 'bdsadm assemble': what was asked, and what is known. */
struct asm_ctx {
	struct bds_conf conf;
	struct bds_scan s;
	const char *name;		/* NAME, or NULL */
	const char *dm_name;		/* --dm-name, or NULL */
	u8 uuid[BDS_UUID_LEN];
	bool have_uuid, scan, foreign, auto_mode, no_rollback;
	u64 generation;			/* --generation, or 0 */
};

/* Outcomes of one volume. */
enum asm_outcome {
	ASM_DONE,			/* assembled, or active already */
	ASM_LEFT,			/* left alone on purpose (foreign) */
	ASM_FAILED,			/* refused or failed: said why */
};

/* Tell what assembly used, or left out, that is not the normal case. */
static void tell_oddities(const struct asm_ctx *c,
			  const struct bds_asm_result *r)
{
	u32 i;

	for (i = 0; i < r->nr_members; i++) {
		const struct bds_found *f = &c->s.found[r->member[i]];

		if (f->copy == 1 && !r->rollback)
			bds_err("volume %s: member %u (%s): its primary label copy is damaged, its backup copy (sector %llu) was used; check the disk ('bdsadm examine %s', smartctl)",
				r->name, i, f->dev,
				(unsigned long long)f->label.label_sector,
				f->dev);
	}
	for (i = 0; i < r->nr_ignored && i < BDS_ASM_LIST_MAX; i++) {
		const struct bds_found *f = &c->s.found[r->ignored[i]];
		const struct bds_label *l = &f->label;

		bds_err("volume %s: %s left out, not written to: it carries member %u at generation %llu, not the volume's %llu (%s); erase its label with 'bdsadm wipe %s' once you no longer need it",
			r->name, f->dev, l->member_index,
			(unsigned long long)l->generation,
			(unsigned long long)r->generation,
			l->generation < r->generation &&
			l->member_index < r->nr_members &&
			!memcmp(l->member_uuid, r->label->uuid[l->member_index],
				BDS_UUID_LEN) ?
			"a stale copy of that member: a restored clone or an old image" :
			"a disk that left the volume, or a copy of one", f->dev);
	}
	if (r->nr_ignored > BDS_ASM_LIST_MAX)
		bds_err("volume %s: and %u more devices left out",
			r->name, r->nr_ignored - BDS_ASM_LIST_MAX);
}

/*
 * An interrupted membership change is rolled back before the table is
 * loaded (assemble.h): the members that stay get their older copy back
 * as the primary, the disk that was to join loses its labels.  Each
 * device is opened exclusively and written only if it still holds the
 * label it was decided on (label-io.h).  Returns false (and says why)
 * if a device cannot be written: nothing is then assembled, and running
 * assemble again redoes what is left.
 */
static bool roll_back(const struct asm_ctx *c, const struct bds_asm_result *r)
{
	char why[256];
	struct bds_dev d;
	u32 i;
	int rc;

	bds_err("volume %s: a membership change to generation %llu was interrupted before its commit point: rolling it back to generation %llu",
		r->name, (unsigned long long)r->abandoned,
		(unsigned long long)r->generation);
	for (i = 0; i < r->nr_restore + r->nr_drop; i++) {
		bool restore = i < r->nr_restore;
		const struct bds_found *f = &c->s.found[restore ? r->restore[i] :
							r->drop[i - r->nr_restore]];
		struct bds_label_id was;

		if (bds_dev_open(&d, f->dev, true, why, sizeof(why))) {
			bds_err("volume %s: %s; nothing was assembled", r->name, why);
			return false;
		}
		bds_label_id_of(&was, &f->label);
		rc = restore ? bds_label_write_primary(&d, &was, &f->older) :
			       bds_labels_wipe(&d, &was);
		bds_dev_close(&d);
		if (rc) {
			bds_err("volume %s: %s: %s: %s; nothing was assembled",
				r->name, f->dev, restore ?
				"writing its label back failed" :
				"erasing its label failed", bds_label_io_error(rc));
			return false;
		}
		if (restore)
			bds_err("volume %s: member %u (%s) carries generation %llu again",
				r->name, f->older.member_index, f->dev,
				(unsigned long long)r->generation);
		else
			bds_err("volume %s: %s, which was to join at generation %llu, no longer carries a label",
				r->name, f->dev, (unsigned long long)r->abandoned);
	}
	return true;
}

/*
 * May this host assemble the volume @r, and under which dm name (into
 * @dm)?  Its owner (config.h), the name asked for, the crypttab.
 */
static enum asm_outcome admit(const struct asm_ctx *c,
			      const struct bds_asm_result *r, char *dm,
			      size_t dmsz)
{
	const char *other, *id = c->conf.system_id;
	enum bds_asm_owner own = bds_asm_owner(c->s.found, r, id, &other);
	bool foreign = own == BDS_OWNER_FOREIGN || own == BDS_OWNER_MIXED;
	bool listed = c->auto_mode &&
		      bds_conf_lists(&c->conf, r->name, r->volume_uuid);
	char vu[37];

	bds_uuid_format(r->volume_uuid, vu);
	if (foreign && !c->foreign && !listed) {
		if (own == BDS_OWNER_MIXED)
			bds_err("volume %s (%s): its members name different owners (%s among them): an import cut short? Not assembled; take it over with 'bdsadm import %s' (again), or assemble it once with --foreign",
				r->name, vu, other, r->name);
		else
			bds_err("volume %s (%s) is owned by the host whose system ID is %s, not by this one (%s): not assembled; assemble it once with 'bdsadm assemble --foreign %s', or take it over with 'bdsadm import %s'",
				r->name, vu, other, id[0] ? id : "none",
				r->name, r->name);
		return ASM_LEFT;
	}
	if (c->dm_name)
		snprintf(dm, dmsz, "%s", c->dm_name);
	else if (foreign && listed)
		snprintf(dm, dmsz, "bds-%s", r->name);
	else
		snprintf(dm, dmsz, "%s", r->name);
	if (strlen(dm) > DM_NAME_MAX) {
		bds_err("volume %s (%s): the device-mapper name %s is longer than %d characters; assemble it with --dm-name",
			r->name, vu, dm, DM_NAME_MAX);
		return ASM_FAILED;
	}
	if (bds_conf_crypttab_has(&c->conf, dm)) {
		bds_err("volume %s (%s): %s is the name of a dm-crypt mapping in %s; not creating /dev/mapper/%s, which is that mapping's: assemble it under another name with --dm-name",
			r->name, vu, dm, c->conf.paths->crypttab, dm);
		return ASM_FAILED;
	}
	return ASM_DONE;
}

/*
 * The table's parameters.  Mid-restripe, at the least advanced of the
 * members' checkpoints: the units behind it are in the new geometry on
 * every member (Documentation/bds-stripe-restripe.rst, The crash
 * argument).  The restripe goes on only when the admin or the unit runs
 * "bdsadm grow --continue"; assembly never copies.
 */
/*
 * Member @i's label at the generation decided on.  A rollback decides on
 * the generation before an interrupted membership change, which a
 * member whose primary was already written keeps in its older copy
 * (its found label is the abandoned generation's, which roll_back()
 * overwrites).
 */
static const struct bds_label *member_label(const struct asm_ctx *c,
					    const struct bds_asm_result *r,
					    u32 i)
{
	const struct bds_found *f = &c->s.found[r->member[i]];

	if (f->label.generation != r->generation && f->has_older &&
	    f->older.generation == r->generation)
		return &f->older;
	return &f->label;
}

static bool volume_params(const struct asm_ctx *c,
			  const struct bds_asm_result *r, bool restriping,
			  const char *const *devp, char *params, size_t sz)
{
	const struct bds_label *l = r->label;
	u64 ckpt = l->reshape_pos, pos;
	u32 i;

	if (!restriping)
		return bds_volume_params(l, devp, params, sz);
	for (i = 0; i < r->nr_members; i++) {
		pos = member_label(c, r, i)->reshape_pos;
		if (l->reshape_dir == BDS_RESHAPE_FORWARD ? pos < ckpt : pos > ckpt)
			ckpt = pos;
	}
	bds_info("volume %s is mid-restripe (%s, at stripe unit %llu of %llu): usable as it is, in both geometries; 'bdsadm grow --continue %s' carries it on",
	       l->name, l->reshape_dir == BDS_RESHAPE_FORWARD ? "forward" : "backward",
	       (unsigned long long)ckpt,
	       (unsigned long long)(bds_volume_old_length(l) / l->chunk_sectors),
	       l->name);
	return bds_volume_params_reshape(l, devp, ckpt, params, sz);
}

/* Do all the members' labels record a restripe (feature RESHAPE)? */
static bool all_restriping(const struct asm_ctx *c,
			   const struct bds_asm_result *r)
{
	u32 i;

	for (i = 0; i < r->nr_members; i++)
		if (!(member_label(c, r, i)->incompat &
		      BDS_LABEL_INCOMPAT_RESHAPE))
			return false;
	return true;
}

/*
 * Write @l over member @i's labels (device @f, whose labels were read as
 * f->label) before the volume is mapped; @what says what failed.
 */
static bool rewrite_labels(const struct bds_asm_result *r,
			   const struct bds_found *f, const struct bds_label *l,
			   const char *what)
{
	struct bds_label_id was;
	char why[256];
	struct bds_dev d;
	int rc;

	if (bds_dev_open(&d, f->dev, true, why, sizeof(why))) {
		bds_err("volume %s: %s; nothing was assembled", r->name, why);
		return false;
	}
	bds_label_id_of(&was, &f->label);
	rc = bds_labels_write(&d, &was, l);
	bds_dev_close(&d);
	if (rc)
		bds_err("volume %s: %s: %s failed: %s; nothing was assembled",
			r->name, f->dev, what, bds_label_io_error(rc));
	return !rc;
}

/*
 * A restripe that has ended, with some members' labels plain already
 * and the others at the end (bdsadm grow was cut while it wrote them):
 * the two say the same, so write the rest plain too, which the kernel's
 * label check of the plain table needs.
 */
static bool roll_forward(const struct asm_ctx *c,
			 const struct bds_asm_result *r)
{
	const struct bds_label *ml;
	const struct bds_found *f;
	struct bds_label l;
	u32 i;

	for (i = 0; i < r->nr_members; i++) {
		f = &c->s.found[r->member[i]];
		ml = member_label(c, r, i);
		if (!(ml->incompat & BDS_LABEL_INCOMPAT_RESHAPE))
			continue;
		if (!bds_label_restripe_done(ml)) {
			bds_err("volume %s: member %u (%s): its label has a restripe that has not ended, beside plain ones; nothing was assembled: 'bdsadm examine' every member",
				r->name, i, f->dev);
			return false;
		}
		/* a rollback writes this member's older copy back: not both */
		if (ml != &f->label) {
			bds_err("volume %s: member %u (%s): its older label copy (generation %llu) holds an ended restripe and the newer one a change to roll back; nothing was assembled: 'bdsadm examine' every member",
				r->name, i, f->dev,
				(unsigned long long)ml->generation);
			return false;
		}
		l = *ml;
		bds_label_end_restripe(&l);
		if (!rewrite_labels(r, f, &l, "finishing its label after the restripe"))
			return false;
		bds_err("volume %s: member %u (%s): the restripe had ended; its label says so now",
			r->name, i, f->dev);
	}
	return true;
}

/*
 * A restripe of the same members cut while bdsadm grow wrote its first
 * labels: members plain, the others at the restripe's start, which maps
 * every unit alike (bds_label_restripe_fresh()).  Write the plain ones
 * as the restripe's, so that every label and the table agree.
 */
static bool roll_into_restripe(const struct asm_ctx *c,
			       const struct bds_asm_result *r)
{
	const struct bds_found *f;
	struct bds_label l;
	u32 i;

	for (i = 0; i < r->nr_members; i++) {
		f = &c->s.found[r->member[i]];
		if (member_label(c, r, i)->incompat & BDS_LABEL_INCOMPAT_RESHAPE)
			continue;
		bds_label_member_view(r->label, i, f->label.member_sectors,
				      f->label.backup_sector, &l);
		if (!rewrite_labels(r, f, &l, "writing the restripe into its label"))
			return false;
		bds_err("volume %s: member %u (%s): the restripe had started on the other members; its label has it too now",
			r->name, i, f->dev);
	}
	return true;
}

/*
 * A volume that came up mid-restripe: its copy goes on in
 * bds-stripe-grow@<dm name>.service under systemd, never in an initramfs;
 * elsewhere the admin runs it (volume_params() said how).
 */
static void start_restripe(const char *dm)
{
	char unit[BDS_DM_NAME_SZ + 32];
	const char *p;

	if (!bds_systemd_running() || bds_in_initrd())
		return;
	for (p = dm; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(":_.-", *p))
			return;	/* a unit name would need escaping */
	snprintf(unit, sizeof(unit), "bds-stripe-grow@%s.service", dm);
	if (bds_start_unit(unit))
		bds_info("volume %s: its restripe goes on in %s ('bdsadm detail %s' shows where it is)",
		       dm, unit, dm);
	else
		bds_err("volume %s: cannot start %s; 'bdsadm grow --continue %s' carries the restripe on",
			dm, unit, dm);
}

/* Create the volume @r decided on, as @dm. */
static enum asm_outcome assemble_one(const struct asm_ctx *c,
				     const struct bds_asm_result *r,
				     const char *dm)
{
	static char devs[BDS_MAX_MEMBERS][16];
	const char *devp[BDS_MAX_MEMBERS];
	const struct bds_label *l = r->label;
	char dmuuid[BDS_DM_UUID_SZ], params[16384], why[512];
	struct bds_dm_info info;
	bool restriping;
	u64 len;
	u32 i;

	bds_volume_dm_uuid(l, dmuuid, sizeof(dmuuid));
	if (!bds_dm_info(dm, &info)) {
		bds_err("%s", bds_dm_why_not());
		return ASM_FAILED;
	}
	if (info.exists) {
		bds_err("volume %s: another device-mapper device is called %s (dm UUID '%s'); not assembling: remove it first, or assemble this volume under another name with --dm-name",
			l->name, dm, info.uuid);
		return ASM_FAILED;
	}
	rpl_crash_point("assemble-table");
	for (i = 0; i < r->nr_members; i++) {
		const struct bds_found *f = &c->s.found[r->member[i]];

		if (!bds_majmin_of(f->dev, devs[i], sizeof(devs[i]))) {
			bds_err("volume %s: member %u: %s is gone; nothing was assembled",
				l->name, i, f->dev);
			return ASM_FAILED;
		}
		/* the target reads every member's labels as the table loads */
		if (bds_dev_suspended(f->dev, why, sizeof(why))) {
			bds_err("volume %s: member %u: %s, and so would loading the volume; nothing was assembled",
				l->name, i, why);
			return ASM_FAILED;
		}
		devp[i] = devs[i];
	}
	restriping = all_restriping(c, r);
	if (!restriping && bds_label_restripe_fresh(l)) {
		if (!roll_into_restripe(c, r))
			return ASM_FAILED;
		restriping = true;
	}
	if (!restriping && !roll_forward(c, r))
		return ASM_FAILED;
	len = restriping ? bds_volume_old_length(l) : bds_volume_length(l);
	if (!volume_params(c, r, restriping, devp, params, sizeof(params))) {
		bds_err("volume %s: the table does not fit %zu bytes", l->name,
			sizeof(params));
		return ASM_FAILED;
	}
	tell_oddities(c, r);
	if (r->rollback && !roll_back(c, r))
		return ASM_FAILED;
	/* read-ahead: at least two stripe widths (cycles), as create sets it */
	if (!bds_dm_create(dm, dmuuid, len, params,
			   (u32)(2 * l->chunk_sectors * bds_label_slots(l)), true)) {
		char hint[512];

		bds_err("volume %s: device-mapper refused 0 %llu bds-stripe %s: %s; nothing was assembled",
			l->name, (unsigned long long)len, params,
			bds_dm_refusal_hint(hint, sizeof(hint)));
		return ASM_FAILED;
	}
	bds_info("assembled /dev/mapper/%s from %u members (generation %llu)",
	       dm, r->nr_members, (unsigned long long)r->generation);
	fflush(stdout);
	if (restriping)
		start_restripe(dm);
	return ASM_DONE;
}

/* The checks before the table: each says why it refuses. */
static enum asm_outcome check_decision(const struct asm_ctx *c,
				       const struct bds_asm_result *r)
{
	const struct bds_found *clash;
	char vu[37], ou[37];

	bds_uuid_format(r->volume_uuid, vu);
	clash = c->scan ? bds_name_clash(c->s.found, c->s.n, r->name,
					 r->volume_uuid) : NULL;
	if (clash) {
		bds_uuid_format(clash->label.volume_uuid, ou);
		bds_err("volume %s (%s): volume %s (on %s) carries the same name; a scan assembles neither by that name: assemble one with 'bdsadm assemble --uuid UUID'",
			r->name, vu, ou, clash->dev);
		return ASM_FAILED;
	}
	if (r->rollback && c->no_rollback) {
		bds_err("volume %s (%s): a membership change to generation %llu was cut short before its commit point; not rolled back here (automatic assembly writes to no disk): 'bdsadm assemble %s' rolls it back",
			r->name, vu, (unsigned long long)r->abandoned, r->name);
		return ASM_FAILED;
	}
	if (c->generation && c->generation < r->newest)
		bds_err("volume %s (%s): assembling generation %llu as asked; devices carry a newer generation %llu, whose labels are left as they are",
			r->name, vu, (unsigned long long)c->generation,
			(unsigned long long)r->newest);
	return ASM_DONE;
}

/* The volume asked for, by @uuid or @name: its UUID, or NULL. */
static const u8 *volume_uuid(const struct asm_ctx *c, const char *name,
			     const u8 *uuid)
{
	size_t i;

	for (i = 0; i < c->s.n; i++) {
		const struct bds_label *l = &c->s.found[i].label;

		if (uuid ? !memcmp(l->volume_uuid, uuid, BDS_UUID_LEN) :
		    !strcmp(l->name, name))
			return l->volume_uuid;
	}
	return NULL;
}

/*
 * A whole disk here with @serial, no partitions and no label at all,
 * into @node; false when none.  A member missing while its own disk is
 * attached is what an adopt --from-table cut short leaves
 * (tools/adopt-table.c).  A disk with partitions is left out: a member
 * on one of them has the disk's serial too.
 */
static bool unlabelled_by_serial(const char *serial, char *node, size_t sz)
{
	struct bds_dev_labels *dl;
	char dir[PATH_MAX], s[NAME_SZ], parts[LIST_SZ];
	struct bds_dev d;
	struct dirent *e;
	bool found = false;
	DIR *sb;

	if (!serial[0] || !(sb = opendir("/sys/block")))
		return false;
	dl = malloc(sizeof(*dl));
	while (dl && !found && (e = readdir(sb))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "/sys/block/%s", e->d_name);
		disk_serial(dir, s, sizeof(s));
		list_partitions(dir, parts, sizeof(parts));
		if (strcmp(s, serial) || parts[0])
			continue;
		snprintf(node, sz, "/dev/%s", e->d_name);
		if (bds_dev_open(&d, node, false, NULL, 0))
			continue;
		found = !bds_labels_read(&d, dl) && dl->pick == -1;
		bds_dev_close(&d);
	}
	free(dl);
	closedir(sb);
	return found;
}

/*
 * Member @pos (@serial) of volume @name is missing: when its disk is here
 * without a label, say that an adopt --from-table was cut short.
 */
static void hint_unlabelled(const char *name, u32 pos, const char *serial)
{
	char node[PATH_MAX];

	if (unlabelled_by_serial(serial, node, sizeof(node)))
		bds_err("volume %s: %s has member %u's serial (%s) and no bds-stripe label: was 'bdsadm adopt %s --from-table' cut short? Its data is where the table put it: make that table again over the same disks and run the adopt again",
			name, node, pos, serial, name);
}

/*
 * Another host's volume is not written to unless --foreign asks for it,
 * as admit() does not assemble it.
 */
static bool adopt_ours(const struct asm_ctx *c,
		       const struct bds_adopt_result *ar)
{
	const char *owner = ar->label->owner;

	return c->foreign || !owner[0] || !strcmp(owner, c->conf.system_id);
}

/*
 * An adoption from md or a table cut short (adopt-finish.h) is finished
 * before the decision; here, one that is not (md's array whole, a member missing,
 * or automatic assembly, which writes to no disk) refuses the volume.
 */
static bool adoption_done(const struct asm_ctx *c, const char *name,
			  const u8 *uuid)
{
	const u8 *vu = volume_uuid(c, name, uuid);
	struct bds_adopt_result ar;
	char msg[1024];

	if (!vu || bds_adopt_decide(c->s.found, c->s.n, vu, &ar) ==
	    BDS_ADOPT_NONE || (ar.verdict == BDS_ADOPT_FINISH && ar.backup_only))
		return true;
	bds_adopt_message(&ar, msg, sizeof(msg));
	bds_err("%s%s", msg, ar.verdict == BDS_ADOPT_FINISH && !adopt_ours(c, &ar) ?
		" (it is another host's volume: add --foreign)" : "");
	if (ar.verdict == BDS_ADOPT_INCOMPLETE && ar.from_table && !ar.dev2)
		hint_unlabelled(ar.label->name, ar.position,
				ar.label->serial[ar.position]);
	return false;
}

/* Finish the adoptions cut short of the volumes asked for; true if any. */
static bool finish_adoptions(const struct asm_ctx *c)
{
	u8 (*uuids)[BDS_UUID_LEN];
	struct bds_adopt_result ar;
	const u8 *want = NULL;
	bool wrote = false;
	size_t nv, i;

	if (!c->scan)
		want = volume_uuid(c, c->have_uuid ? NULL : c->name,
				   c->have_uuid ? c->uuid : NULL);
	if (!c->scan && !want)
		return false;
	nv = bds_volumes(c->s.found, c->s.n, NULL, 0);
	uuids = calloc(nv ? nv : 1, sizeof(*uuids));
	if (!uuids)
		return false;
	bds_volumes(c->s.found, c->s.n, uuids, nv);
	for (i = 0; i < nv; i++) {
		if (want && memcmp(want, uuids[i], BDS_UUID_LEN))
			continue;
		if (bds_adopt_decide(c->s.found, c->s.n, uuids[i], &ar) !=
		    BDS_ADOPT_FINISH || !adopt_ours(c, &ar))
			continue;
		if (!bds_adopt_finish(c->s.found, &ar))
			wrote = true;
	}
	free(uuids);
	return wrote;
}

static enum asm_outcome decide_and_assemble(const struct asm_ctx *c,
					    const char *name, const u8 *uuid)
{
	struct bds_asm_result r;
	char msg[4096], dmuuid[BDS_DM_UUID_SZ], active[BDS_DM_NAME_SZ];
	char dm[BDS_DM_NAME_SZ + 8];
	enum asm_outcome o;

	if (!adoption_done(c, name, uuid))
		return ASM_FAILED;

	if (bds_assemble_at(c->s.found, c->s.n, name, uuid, c->generation,
			    &r) != BDS_ASM_OK) {
		bds_asm_message(&r, msg, sizeof(msg));
		bds_err("%s", msg);
		if (r.verdict == BDS_ASM_MISSING)
			hint_unlabelled(r.name, r.position, r.serial);
		return ASM_FAILED;
	}
	bds_volume_dm_uuid(r.label, dmuuid, sizeof(dmuuid));
	if (bds_dm_name_of_uuid(dmuuid, active, sizeof(active))) {
		bds_err("volume %s is already active as /dev/mapper/%s",
			r.name, active);
		return ASM_DONE;
	}
	o = check_decision(c, &r);
	if (o == ASM_DONE)
		o = admit(c, &r, dm, sizeof(dm));
	return o == ASM_DONE ? assemble_one(c, &r, dm) : o;
}

/* --scan: every volume found, each by its UUID. */
static int assemble_all(const struct asm_ctx *c)
{
	u8 (*uuids)[BDS_UUID_LEN];
	size_t nv, i;
	int rc = BDS_EXIT_OK;

	nv = bds_volumes(c->s.found, c->s.n, NULL, 0);
	if (!nv) {
		bds_err("no device carries a bds-stripe label: nothing to assemble");
		return BDS_EXIT_OK;
	}
	uuids = calloc(nv, sizeof(*uuids));
	if (!uuids) {
		bds_err("out of memory");
		return BDS_EXIT_FAIL;
	}
	bds_volumes(c->s.found, c->s.n, uuids, nv);
	for (i = 0; i < nv; i++)
		if (decide_and_assemble(c, NULL, uuids[i]) == ASM_FAILED)
			rc = BDS_EXIT_FAIL;
	free(uuids);
	return rc;
}

static int parse(struct asm_ctx *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "scan", no_argument, NULL, 's' },
		{ "uuid", required_argument, NULL, 'u' },
		{ "generation", required_argument, NULL, 'g' },
		{ "foreign", no_argument, NULL, 'f' },
		{ "dm-name", required_argument, NULL, 'n' },
		{ "auto", no_argument, NULL, 'a' },
		{ "no-rollback", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int o;

	optind = 1;
	while ((o = getopt_long(argc, argv, "su:g:fn:h", lo, NULL)) != -1) {
		switch (o) {
		case 's':
			c->scan = true;
			break;
		case 'u':
			if (!bds_uuid_parse(optarg, c->uuid)) {
				bds_err("--uuid %s: not a UUID (8-4-4-4-12 hex digits)",
					optarg);
				return BDS_EXIT_USAGE;
			}
			c->have_uuid = true;
			break;
		case 'g':
			errno = 0;
			c->generation = strtoull(optarg, &end, 10);
			if (errno || *end || !c->generation || optarg[0] == '-') {
				bds_err("--generation %s: a generation is a number from 1 ('bdsadm examine' shows them)",
					optarg);
				return BDS_EXIT_USAGE;
			}
			break;
		case 'f':
			c->foreign = true;
			break;
		case 'n':
			c->dm_name = bds_vol_name_arg(optarg);
			if (!c->dm_name)
				return BDS_EXIT_USAGE;
			break;
		case 'a':
			c->auto_mode = true;
			break;
		case 'R':
			c->no_rollback = true;
			break;
		case 'h':
			printf("usage: bdsadm " ASM_USAGE "\n");
			return -1;
		default:
			return bds_usage(ASM_USAGE);
		}
	}
	if (optind < argc)
		c->name = argv[optind++];
	if (optind < argc || c->scan + c->have_uuid + !!c->name != 1)
		return bds_usage(ASM_USAGE);
	if (c->scan && (c->generation || c->dm_name || c->foreign)) {
		bds_err("--generation, --dm-name and --foreign are for one volume, not with --scan");
		return BDS_EXIT_USAGE;
	}
	return BDS_EXIT_OK;
}

int bds_cmd_assemble(int argc, char **argv)
{
	static struct asm_ctx c;
	const char *off;
	char err[1024];
	int rc;

	memset(&c, 0, sizeof(c));
	rc = parse(&c, argc, argv);
	if (rc)
		return rc < 0 ? BDS_EXIT_OK : rc;
	if (bds_conf_read(&c.conf, &bds_conf_default, err, sizeof(err))) {
		bds_err("%s; nothing was assembled: correct the configuration (bds-stripe.conf(5))",
			err);
		return BDS_EXIT_FAIL;
	}
	if (c.auto_mode && !bds_conf_auto(&c.conf, &off)) {
		bds_info("automatic assembly is off (%s): nothing assembled",
		       off);
		return BDS_EXIT_OK;
	}
	rc = bds_run_lock(ASM_LOCK_WAIT_MS);
	if (rc == -ETIMEDOUT) {
		bds_err("another bdsadm has held the assembly lock " BDS_RUN_DIR "/lock for %d s; nothing was assembled",
			ASM_LOCK_WAIT_MS / 1000);
		return BDS_EXIT_FAIL;
	}
	if (rc)
		bds_err("cannot take the assembly lock " BDS_RUN_DIR "/lock (%s); going on without it",
			strerror(-rc));
	if (bds_scan("/sys", &c.s)) {
		bds_err("cannot list the block devices under /sys/class/block");
		return BDS_EXIT_FAIL;
	}
	if (!c.no_rollback && finish_adoptions(&c)) {
		bds_scan_free(&c.s);
		if (bds_scan("/sys", &c.s)) {
			bds_err("cannot list the block devices under /sys/class/block");
			return BDS_EXIT_FAIL;
		}
	}
	if (c.scan)
		rc = assemble_all(&c);
	else
		rc = decide_and_assemble(&c, c.have_uuid ? NULL : c.name,
					 c.have_uuid ? c.uuid : NULL) == ASM_DONE ?
		     BDS_EXIT_OK : BDS_EXIT_FAIL;
	bds_scan_free(&c.s);
	return rc;
}
