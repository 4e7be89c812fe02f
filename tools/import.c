// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm import NAME | --uuid UUID [--force]: make this host the owner of
 * a volume, as 'zpool import' takes a pool and 'vgchange --systemid' a
 * volume group.  Every member's label gets this host's system ID as its
 * owner (config.h), both copies, with the same generation: ownership is
 * not a membership change (Documentation/bds-stripe-label.rst, Owner).
 *
 * A volume without an owner (labels older than 1.6.0) is stamped; one of
 * another host needs --force, after its admin has made sure that host no
 * longer uses it.  The volume must be complete and whole: no membership
 * change in progress.  Cut short, some members name the new owner and
 * some the old: the volume counts as foreign until import runs again.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "assemble.h"
#include "bdsadm.h"
#include "config.h"
#include "dm.h"
#include "label-io.h"
#include "replace.h"
#include "run-lock.h"
#include "scan.h"
#include "volume.h"

#define IMPORT_USAGE "import NAME | --uuid UUID [--force]"

struct import_ctx {
	struct bds_conf conf;
	struct bds_scan s;
	struct bds_asm_result r;
	const char *name;
	u8 uuid[BDS_UUID_LEN];
	bool have_uuid, force, active;
	char vu[37];
};

/* Nothing but a whole volume, with no membership change in progress. */
static bool whole(const struct import_ctx *c)
{
	char mirror[BDS_DM_NAME_SZ + 16];
	struct bds_dm_info info;
	u32 p;

	snprintf(mirror, sizeof(mirror), "%s" RPL_SUFFIX, c->r.name);
	if (bds_dm_info(mirror, &info) && info.exists) {
		bds_err("import %s: %s exists: a replace is under way or was cut short; end it first ('bdsadm replace --abort %s'); nothing was changed",
			c->r.name, mirror, c->r.name);
		return false;
	}
	for (p = 0; p < c->r.nr_members; p++) {
		const struct bds_found *f = &c->s.found[c->r.member[p]];

		if (f->single || f->has_older) {
			bds_err("import %s: member %u (%s) holds %s: a membership change is not finished; assemble the volume ('bdsadm assemble %s'), then import it; nothing was changed",
				c->r.name, p, f->dev, f->single ?
				"one valid label copy" :
				"two generations in its label copies",
				c->r.name);
			return false;
		}
	}
	return true;
}

/* Whose is it, and may this host take it? */
static bool may_take(const struct import_ctx *c, bool *done)
{
	const char *other;
	enum bds_asm_owner own;
	u32 p, ours = 0;

	own = bds_asm_owner(c->s.found, &c->r, c->conf.system_id, &other);
	for (p = 0; p < c->r.nr_members; p++)
		ours += !strcmp(c->s.found[c->r.member[p]].label.owner,
				c->conf.system_id);
	*done = ours == c->r.nr_members;
	if (*done) {
		bds_info("import %s: this host (%s) owns it already; nothing was changed",
		       c->r.name, c->conf.system_id);
		return false;
	}
	if ((own == BDS_OWNER_FOREIGN || own == BDS_OWNER_MIXED) && !c->force) {
		bds_err("import %s (%s): owned by the host whose system ID is %s%s; if that host no longer uses it, take it over with 'bdsadm import --force %s'; nothing was changed",
			c->r.name, c->vu, other,
			own == BDS_OWNER_MIXED ? " (and others: an import cut short?)" : "",
			c->r.name);
		return false;
	}
	return true;
}

/* Every member's labels with this host as owner. */
static int stamp(const struct import_ctx *c)
{
	char why[256];
	u32 p;
	int rc;

	for (p = 0; p < c->r.nr_members; p++) {
		const struct bds_found *f = &c->s.found[c->r.member[p]];
		struct bds_label l = f->label;
		struct bds_label_id was;
		struct bds_dev d;

		snprintf(l.owner, sizeof(l.owner), "%s", c->conf.system_id);
		l.compat |= BDS_LABEL_COMPAT_OWNER;
		bds_label_id_of(&was, &f->label);
		rc = c->active ? bds_dev_open_held(&d, f->dev, why, sizeof(why)) :
				 bds_dev_open(&d, f->dev, true, why, sizeof(why));
		if (!rc) {
			rc = bds_labels_write(&d, &was, &l);
			if (rc)
				snprintf(why, sizeof(why), "%s: %s", f->dev,
					 bds_label_io_error(rc));
			bds_dev_close(&d);
		}
		if (rc) {
			bds_err("import %s: member %u: %s; %s", c->r.name, p, why,
				p ? "the members before it name this host, the others do not yet: run the import again" :
				"nothing was changed");
			return BDS_EXIT_FAIL;
		}
	}
	bds_info("import %s (%s): owned by this host (system ID %s) now, %u members",
	       c->r.name, c->vu, c->conf.system_id, c->r.nr_members);
	return BDS_EXIT_OK;
}

static int import(struct import_ctx *c)
{
	char msg[4096], dmuuid[BDS_DM_UUID_SZ], active[BDS_DM_NAME_SZ];
	bool done;

	if (bds_assemble(c->s.found, c->s.n, c->have_uuid ? NULL : c->name,
			 c->have_uuid ? c->uuid : NULL, &c->r) != BDS_ASM_OK ||
	    c->r.rollback) {
		bds_asm_message(&c->r, msg, sizeof(msg));
		bds_err("import: %s%s; nothing was changed", msg,
			c->r.rollback ? "; assemble it first" : "");
		return BDS_EXIT_FAIL;
	}
	bds_uuid_format(c->r.volume_uuid, c->vu);
	bds_volume_dm_uuid(c->r.label, dmuuid, sizeof(dmuuid));
	c->active = bds_dm_name_of_uuid(dmuuid, active, sizeof(active));
	if (!whole(c))
		return BDS_EXIT_FAIL;
	if (!may_take(c, &done))
		return done ? BDS_EXIT_OK : BDS_EXIT_FAIL;
	return stamp(c);
}

int bds_cmd_import(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "uuid", required_argument, NULL, 'u' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct import_ctx c;
	char err[1024];
	int o, rc;

	memset(&c, 0, sizeof(c));
	while ((o = getopt_long(argc, argv, "u:fh", lo, NULL)) != -1) {
		switch (o) {
		case 'u':
			if (!bds_uuid_parse(optarg, c.uuid)) {
				bds_err("--uuid %s: not a UUID (8-4-4-4-12 hex digits)",
					optarg);
				return BDS_EXIT_USAGE;
			}
			c.have_uuid = true;
			break;
		case 'f':
			c.force = true;
			break;
		case 'h':
			printf("usage: bdsadm " IMPORT_USAGE "\n");
			return BDS_EXIT_OK;
		default:
			return bds_usage(IMPORT_USAGE);
		}
	}
	if (optind < argc)
		c.name = bds_vol_name_arg(argv[optind++]);
	if (optind < argc || c.have_uuid == !!c.name)
		return bds_usage(IMPORT_USAGE);
	if (bds_conf_read(&c.conf, &bds_conf_default, err, sizeof(err))) {
		bds_err("%s; nothing was changed: correct the configuration (bds-stripe.conf(5))",
			err);
		return BDS_EXIT_FAIL;
	}
	if (!c.conf.system_id[0]) {
		bds_err("import: this host has no system ID (no %s, or system_id = none in %s): set one, then import; nothing was changed",
			c.conf.paths->machine_id, c.conf.paths->conf);
		return BDS_EXIT_FAIL;
	}
	rc = bds_run_lock(60000);
	if (rc) {
		bds_err("cannot take the assembly lock " BDS_RUN_DIR "/lock: %s; nothing was changed",
			rc == -ETIMEDOUT ? "another bdsadm holds it" : strerror(-rc));
		return BDS_EXIT_FAIL;
	}
	if (bds_scan("/sys", &c.s)) {
		bds_err("cannot list the block devices under /sys/class/block");
		return BDS_EXIT_FAIL;
	}
	rc = import(&c);
	bds_scan_free(&c.s);
	return rc;
}
