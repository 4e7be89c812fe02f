// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of this host's configuration (tools/config.c) and of whose a
 * volume is (bds_asm_owner() of tools/assemble.c), on files of a scratch
 * directory standing in for /etc and /proc:
 *   - defaults: the system ID from machine-id, automatic assembly on;
 *   - every key, and each bad line refused with its file and line;
 *   - bds.assemble=0 (and =no) on the command line turns it off, the last
 *     one counting; auto_assemble = no too;
 *   - auto_assemble_foreign by UUID and by name;
 *   - the crypttab's mapping names (comments and blanks skipped);
 *   - a volume's owner: this host, none, foreign, mixed (an import cut
 *     short), and an unowned member beside this host's.
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "../../tools/config.h"
#include "../../tools/assemble.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../libbds/tap.h"

static char dir[256], conf[300], mid[300], cmdline[300], crypttab[300];
static struct bds_conf_paths paths;

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

/* Read with @text as the configuration file; the result of the read. */
static int read_with(const char *text, struct bds_conf *c, char *err,
		     size_t sz)
{
	if (text)
		put(conf, text);
	else
		unlink(conf);
	err[0] = '\0';
	return bds_conf_read(c, &paths, err, sz);
}

static void test_keys(void)
{
	static const struct {
		const char *text, *want;	/* want: in the error */
	} bad[] = {
		{ "system_id = a b\n", "bds-stripe.conf:1: system_id 'a b'" },
		{ "# fine\n\nsystem_id = -x\n", "bds-stripe.conf:3: system_id '-x'" },
		{ "auto_assemble = maybe\n", "auto_assemble 'maybe': yes or no" },
		{ "auto_asemble = no\n", "unknown key 'auto_asemble'" },
		{ "auto_assemble\n", "is not 'key = value'" },
		{ "auto_assemble_foreign = a/b\n", "'a/b' is neither" },
		{ "system_id = 0123456789012345678901234567890123456789012345678901234567890123\n",
		  "system_id '0123" },
	};
	struct bds_conf c;
	char err[1024];
	size_t i;
	const char *why;

	check(read_with(NULL, &c, err, sizeof(err)) == 0 &&
	      !strcmp(c.system_id, "0123456789abcdef0123456789abcdef") &&
	      !strcmp(c.system_id_from, mid) && bds_conf_auto(&c, &why),
	      "no file: the system ID is machine-id's, automatic assembly on");
	check(read_with("system_id = host-7.example\n", &c, err, sizeof(err)) == 0 &&
	      !strcmp(c.system_id, "host-7.example") &&
	      !strcmp(c.system_id_from, conf),
	      "system_id set: it counts over machine-id");
	check(read_with("system_id = none # no identity\n", &c, err, sizeof(err)) == 0 &&
	      !c.system_id[0], "system_id = none: no system ID");
	check(read_with("  auto_assemble=no  \n", &c, err, sizeof(err)) == 0 &&
	      !bds_conf_auto(&c, &why) && strstr(why, "auto_assemble = no"),
	      "auto_assemble = no: off, and says so");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check(read_with(bad[i].text, &c, err, sizeof(err)) == -1 &&
		      strstr(err, bad[i].want),
		      "refused: %s", err);
}

static void test_foreign(void)
{
	u8 u[BDS_UUID_LEN], v[BDS_UUID_LEN];
	struct bds_conf c;
	char err[1024];

	bds_uuid_parse("10111213-1415-4617-9819-1a1b1c1d1e1f", u);
	bds_uuid_parse("20111213-1415-4617-9819-1a1b1c1d1e1f", v);
	check(read_with("auto_assemble_foreign = shared\nauto_assemble_foreign = 10111213-1415-4617-9819-1a1b1c1d1e1f, logs\n",
			&c, err, sizeof(err)) == 0 && c.nforeign == 3,
	      "auto_assemble_foreign: three volumes in two lines");
	check(bds_conf_lists(&c, "other", u) && bds_conf_lists(&c, "shared", v) &&
	      bds_conf_lists(&c, "logs", v) && !bds_conf_lists(&c, "data", v),
	      "listed by UUID or by name, and only those");
}

static void test_cmdline(void)
{
	struct bds_conf c;
	char err[1024];
	const char *why;

	put(cmdline, "BOOT_IMAGE=/vmlinuz root=/dev/vda bds.assemble=0 quiet\n");
	check(read_with(NULL, &c, err, sizeof(err)) == 0 &&
	      !bds_conf_auto(&c, &why) && strstr(why, "bds.assemble=0"),
	      "bds.assemble=0: off for this boot");
	put(cmdline, "bds.assemble=no\n");
	check(read_with(NULL, &c, err, sizeof(err)) == 0 && !bds_conf_auto(&c, &why),
	      "bds.assemble=no: off");
	put(cmdline, "bds.assemble=0 bds.assemble=1\n");
	check(read_with(NULL, &c, err, sizeof(err)) == 0 && bds_conf_auto(&c, &why),
	      "the last bds.assemble counts");
	put(cmdline, "bds.assembled=0 xbds.assemble=0\n");
	check(read_with(NULL, &c, err, sizeof(err)) == 0 && bds_conf_auto(&c, &why),
	      "other parameters that look alike: on");
	put(cmdline, "\n");
}

static void test_crypttab(void)
{
	struct bds_conf c;
	char err[1024];

	put(crypttab, "# <target> <source> <key> <options>\n\ncryptroot UUID=abc none luks\n  luks-1234\tUUID=def none luks\n#gone UUID=x\n");
	read_with(NULL, &c, err, sizeof(err));
	check(bds_conf_crypttab_has(&c, "cryptroot") &&
	      bds_conf_crypttab_has(&c, "luks-1234"),
	      "crypttab: its mapping names");
	check(!bds_conf_crypttab_has(&c, "gone") && !bds_conf_crypttab_has(&c, "UUID=abc") &&
	      !bds_conf_crypttab_has(&c, "data"),
	      "crypttab: not comments, not other fields, not other names");
	unlink(crypttab);
	check(!bds_conf_crypttab_has(&c, "cryptroot"), "no crypttab: no names");
}

/* A decision over three members whose owners are @o[0..2]. */
static enum bds_asm_owner owner_of(const char *const *o, const char *id,
				   const char **other)
{
	static struct bds_found f[3];
	struct bds_asm_result r;
	u32 p;

	memset(&r, 0, sizeof(r));
	r.nr_members = 3;
	for (p = 0; p < 3; p++) {
		memset(&f[p], 0, sizeof(f[p]));
		f[p].label.generation = 1;
		snprintf(f[p].label.owner, sizeof(f[p].label.owner), "%s", o[p]);
		r.member[p] = (int)p;
	}
	r.generation = 1;
	return bds_asm_owner(f, &r, id, other);
}

static void test_owner(void)
{
	static const char *const here[] = { "me", "me", "me" };
	static const char *const none[] = { "", "", "" };
	static const char *const half[] = { "me", "", "me" };
	static const char *const other[] = { "you", "you", "you" };
	static const char *const cut[] = { "me", "you", "you" };
	static const char *const two[] = { "you", "them", "" };
	const char *o;

	check(owner_of(here, "me", &o) == BDS_OWNER_HERE && !o, "owner: this host");
	check(owner_of(none, "me", &o) == BDS_OWNER_NONE && !o, "owner: none");
	check(owner_of(none, "", &o) == BDS_OWNER_NONE, "owner: none, and this host has no ID");
	check(owner_of(half, "me", &o) == BDS_OWNER_HERE,
	      "owner: this host's and unowned members (a stamp cut short): this host");
	check(owner_of(other, "me", &o) == BDS_OWNER_FOREIGN && !strcmp(o, "you"),
	      "owner: another host: foreign, named");
	check(owner_of(here, "", &o) == BDS_OWNER_FOREIGN && !strcmp(o, "me"),
	      "owner: a host without an ID owns nothing with an owner");
	check(owner_of(cut, "me", &o) == BDS_OWNER_MIXED && !strcmp(o, "you"),
	      "owner: this host and another (an import cut short): mixed");
	check(owner_of(two, "me", &o) == BDS_OWNER_MIXED,
	      "owner: two other hosts: mixed");
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/bds-config.%d", tmp ? tmp : "/tmp",
		 (int)getpid());
	if (mkdir(dir, 0700)) {
		perror(dir);
		return 2;
	}
	snprintf(conf, sizeof(conf), "%s/bds-stripe.conf", dir);
	snprintf(mid, sizeof(mid), "%s/machine-id", dir);
	snprintf(cmdline, sizeof(cmdline), "%s/cmdline", dir);
	snprintf(crypttab, sizeof(crypttab), "%s/crypttab", dir);
	paths.conf = conf;
	paths.machine_id = mid;
	paths.cmdline = cmdline;
	paths.crypttab = crypttab;
	put(mid, "0123456789abcdef0123456789abcdef\n");
	put(cmdline, "BOOT_IMAGE=/vmlinuz quiet\n");

	test_keys();
	test_foreign();
	test_cmdline();
	test_crypttab();
	test_owner();

	unlink(conf);
	unlink(mid);
	unlink(cmdline);
	unlink(crypttab);
	rmdir(dir);
	return tap_done();
}
