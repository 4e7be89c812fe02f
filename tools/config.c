// SPDX-License-Identifier: GPL-2.0
/*
 * This host's configuration (see config.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "assemble.h"
#include "config.h"

const struct bds_conf_paths bds_conf_default = {
	.conf = "/etc/bds-stripe/bds-stripe.conf",
	.machine_id = "/etc/machine-id",
	.cmdline = "/proc/cmdline",
	.crypttab = "/etc/crypttab",
};

/* @s without leading and trailing blanks, in place. */
static char *trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Is @id a system ID (the characters of a volume name, 1 to 63)? */
static bool system_id_ok(const char *id)
{
	char field[BDS_LABEL_OWNER_LEN] = "";

	if (!*id || strlen(id) >= sizeof(field))
		return false;
	memcpy(field, id, strlen(id));
	return bds_name_ok(field, sizeof(field));
}

/* The first line of /etc/machine-id, if there is one. */
static void read_machine_id(struct bds_conf *c)
{
	char line[128];
	FILE *f = fopen(c->paths->machine_id, "r");

	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && system_id_ok(trim(line))) {
		snprintf(c->system_id, sizeof(c->system_id), "%s", trim(line));
		c->system_id_from = c->paths->machine_id;
	}
	fclose(f);
}

static bool yes_no(const char *v, bool *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "1") || !strcmp(v, "true"))
		*out = true;
	else if (!strcmp(v, "no") || !strcmp(v, "0") || !strcmp(v, "false"))
		*out = false;
	else
		return false;
	return true;
}

/* auto_assemble_foreign's words: volume UUIDs or names. */
static int add_foreign(struct bds_conf *c, char *v, const char *where,
		       char *err, size_t errsz)
{
	char *save = NULL, *w;

	for (w = strtok_r(v, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
		u8 u[BDS_UUID_LEN];
		char field[BDS_LABEL_NAME_LEN] = "";

		if (strlen(w) < sizeof(field))
			memcpy(field, w, strlen(w));
		if (!bds_uuid_parse(w, u) && !bds_name_ok(field, sizeof(field))) {
			snprintf(err, errsz, "%s: auto_assemble_foreign: '%s' is neither a volume UUID nor a volume name",
				 where, w);
			return -1;
		}
		if (c->nforeign == BDS_CONF_MAX_FOREIGN) {
			snprintf(err, errsz, "%s: auto_assemble_foreign: more than %d volumes",
				 where, BDS_CONF_MAX_FOREIGN);
			return -1;
		}
		snprintf(c->foreign[c->nforeign++], sizeof(c->foreign[0]), "%s", w);
	}
	return 0;
}

/* One "key = value" line of the file. */
static int conf_line(struct bds_conf *c, char *line, const char *where,
		     char *err, size_t errsz)
{
	char *eq, *key, *v, *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	key = trim(line);
	if (!*key)
		return 0;
	eq = strchr(key, '=');
	if (!eq) {
		snprintf(err, errsz, "%s: '%s' is not 'key = value'", where, key);
		return -1;
	}
	*eq = '\0';
	key = trim(key);
	v = trim(eq + 1);
	if (!strcmp(key, "system_id")) {
		if (!strcmp(v, "none")) {
			c->system_id[0] = '\0';
		} else if (!system_id_ok(v)) {
			snprintf(err, errsz, "%s: system_id '%s': 1 to %d characters of A-Z a-z 0-9 . _ + -, not starting with . or -",
				 where, v, BDS_LABEL_OWNER_LEN - 1);
			return -1;
		} else {
			snprintf(c->system_id, sizeof(c->system_id), "%s", v);
		}
		c->system_id_from = c->paths->conf;
	} else if (!strcmp(key, "auto_assemble")) {
		if (!yes_no(v, &c->auto_assemble)) {
			snprintf(err, errsz, "%s: auto_assemble '%s': yes or no",
				 where, v);
			return -1;
		}
	} else if (!strcmp(key, "auto_assemble_foreign")) {
		return add_foreign(c, v, where, err, errsz);
	} else {
		snprintf(err, errsz, "%s: unknown key '%s' (known: system_id, auto_assemble, auto_assemble_foreign)",
			 where, key);
		return -1;
	}
	return 0;
}

/* bds.assemble=0 (or =no) among the kernel's parameters. */
static void read_cmdline(struct bds_conf *c)
{
	char buf[4096], *save = NULL, *w;
	FILE *f = fopen(c->paths->cmdline, "r");
	size_t n;

	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (w = strtok_r(buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
		if (!strncmp(w, "bds.assemble=", 13)) {
			bool on = true;

			/* the last one counts, as the kernel's own parameters */
			c->cmdline_off = yes_no(w + 13, &on) && !on;
		}
}

int bds_conf_read(struct bds_conf *c, const struct bds_conf_paths *paths,
		  char *err, size_t errsz)
{
	char line[1024], where[512];
	unsigned int lineno = 0;
	FILE *f;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	c->paths = paths;
	c->auto_assemble = true;
	read_machine_id(c);
	read_cmdline(c);
	f = fopen(paths->conf, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errsz, "%s: %s", paths->conf, strerror(errno));
		return -1;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		snprintf(where, sizeof(where), "%s:%u", paths->conf, lineno);
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errsz, "%s: line longer than %zu bytes",
				 where, sizeof(line) - 2);
			rc = -1;
			break;
		}
		rc = conf_line(c, line, where, err, errsz);
	}
	fclose(f);
	return rc;
}

bool bds_conf_auto(const struct bds_conf *c, const char **why)
{
	if (c->cmdline_off) {
		*why = "bds.assemble=0 on the kernel command line";
		return false;
	}
	if (!c->auto_assemble) {
		*why = "auto_assemble = no in the configuration";
		return false;
	}
	return true;
}

bool bds_conf_lists(const struct bds_conf *c, const char *name,
		    const u8 *uuid)
{
	u8 u[BDS_UUID_LEN];
	size_t i;

	for (i = 0; i < c->nforeign; i++)
		if (bds_uuid_parse(c->foreign[i], u) ?
		    !memcmp(u, uuid, BDS_UUID_LEN) : !strcmp(c->foreign[i], name))
			return true;
	return false;
}

bool bds_conf_crypttab_has(const struct bds_conf *c, const char *name)
{
	char line[1024], *save = NULL, *first;
	bool found = false;
	FILE *f = fopen(c->paths->crypttab, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		first = strtok_r(line, " \t\n", &save);
		found = first && first[0] != '#' && !strcmp(first, name);
	}
	fclose(f);
	return found;
}
