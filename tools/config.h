/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What this host says about bds-stripe volumes: its system ID (the owner
 * it writes into new labels and the one it compares labels with),
 * whether volumes are assembled automatically (at boot and when a disk
 * appears), and which foreign volumes are all the same.  Read from
 * /etc/bds-stripe/bds-stripe.conf, /etc/machine-id and the kernel
 * command line; bds-stripe.conf(5) describes them.
 *
 * The configuration file holds "key = value" lines; '#' starts a
 * comment, blank lines are ignored.  Keys:
 *   system_id = ID | none      this host's system ID (default: the
 *                              contents of /etc/machine-id); "none": no
 *                              system ID (new volumes get no owner, and
 *                              every owned volume is foreign here)
 *   auto_assemble = yes | no   assemble volumes automatically (yes)
 *   auto_assemble_foreign = UUID|NAME ...
 *                              foreign volumes to assemble automatically
 *                              all the same, as bds-NAME (repeatable)
 * An unknown key, a bad value or a bad system ID is an error that names
 * the file and line: the verbs then refuse rather than guess.
 *
 * bds.assemble=0 on the kernel command line turns automatic assembly
 * off for that boot, whatever the file says.
 */
#ifndef BDS_CONFIG_H
#define BDS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "../libbds/label.h"

#define BDS_CONF_MAX_FOREIGN	64

/* Where the configuration comes from (bds_conf_default for bdsadm). */
struct bds_conf_paths {
	const char *conf;	/* /etc/bds-stripe/bds-stripe.conf */
	const char *machine_id;	/* /etc/machine-id */
	const char *cmdline;	/* /proc/cmdline */
	const char *crypttab;	/* /etc/crypttab */
};

extern const struct bds_conf_paths bds_conf_default;

struct bds_conf {
	const struct bds_conf_paths *paths;
	char system_id[BDS_LABEL_OWNER_LEN];	/* "" when this host has none */
	const char *system_id_from;	/* which file gave it, for messages */
	bool auto_assemble;		/* the file's auto_assemble */
	bool cmdline_off;		/* bds.assemble=0 this boot */
	size_t nforeign;
	char foreign[BDS_CONF_MAX_FOREIGN][BDS_LABEL_NAME_LEN];
};

/*
 * Read the configuration from @paths.  Returns 0, or -1 with the reason
 * (file, line and what is wrong) in @err.  A missing file is no error:
 * the defaults hold.
 */
int bds_conf_read(struct bds_conf *c, const struct bds_conf_paths *paths,
		  char *err, size_t errsz);

/* Automatic assembly on?  Else @why says what turned it off. */
bool bds_conf_auto(const struct bds_conf *c, const char **why);

/* Is the volume @name (@uuid) listed in auto_assemble_foreign? */
bool bds_conf_lists(const struct bds_conf *c, const char *name,
		    const u8 *uuid);

/*
 * Is @name the name of a dm-crypt mapping in the crypttab (its first
 * field)?  A missing crypttab names none.
 */
bool bds_conf_crypttab_has(const struct bds_conf *c, const char *name);

#endif /* BDS_CONFIG_H */
