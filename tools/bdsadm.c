// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm - administer bds-stripe volumes: the verb dispatcher.
 *
 * Each verb lives in a file of its own (plan-cmd.c, examine.c, wipe.c);
 * the plan steps are listed in plan.h; the label format is
 * libbds/label.c, its I/O label-io.c, the assembly decision assemble.c.
 * Called as bds-stripe-table it is that tool (bdsadm plan, and --create
 * for an unlabelled volume).  See bdsadm.8.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bdsadm.h"
#include "dm.h"
#include "grow.h"
#include "plan.h"

static enum bds_verbosity verbosity;

enum bds_verbosity bds_verbosity(void)
{
	return verbosity;
}

static void say(FILE *f, const char *fmt, va_list ap)
{
	fputs("bdsadm: ", f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
}

void bds_info(const char *fmt, ...)
{
	va_list ap;

	if (verbosity == BDS_QUIET)
		return;
	va_start(ap, fmt);
	say(stdout, fmt, ap);
	va_end(ap);
}

void bds_progress(const char *fmt, ...)
{
	va_list ap;

	if (verbosity == BDS_QUIET)
		return;
	va_start(ap, fmt);
	say(stderr, fmt, ap);
	va_end(ap);
}

void bds_verbose(const char *fmt, ...)
{
	va_list ap;

	if (verbosity != BDS_VERBOSE)
		return;
	va_start(ap, fmt);
	say(stderr, fmt, ap);
	va_end(ap);
}

/*
 * -q/--quiet and -v/--verbose, anywhere before a "--": taken out of
 * @argv (the verbs never see them); the last one given counts.
 */
static int take_verbosity(int argc, char **argv)
{
	int i, n = 0;
	bool rest = false;

	for (i = 0; i < argc; i++) {
		if (!rest && !strcmp(argv[i], "--"))
			rest = true;
		if (!rest && (!strcmp(argv[i], "-q") ||
			      !strcmp(argv[i], "--quiet"))) {
			verbosity = BDS_QUIET;
			continue;
		}
		if (!rest && (!strcmp(argv[i], "-v") ||
			      !strcmp(argv[i], "--verbose"))) {
			verbosity = BDS_VERBOSE;
			continue;
		}
		argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return n;
}

void bds_err(const char *fmt, ...)
{
	va_list ap;

	fputs("bdsadm: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *bds_vol_name_arg(const char *arg)
{
	const char *name = arg;

	if (!strncmp(name, "/dev/mapper/", 12))
		name += 12;
	if (!*name || strlen(name) > DM_NAME_MAX || strchr(name, '/')) {
		bds_err("'%s' cannot be a volume name (1 to %d characters, no '/')",
			arg, DM_NAME_MAX);
		return NULL;
	}
	return name;
}

int bds_usage(const char *what)
{
	fprintf(stderr, "usage: bdsadm %s\n", what);
	return BDS_EXIT_USAGE;
}

bool bds_help_only(int argc, char **argv, const char *what)
{
	if (argc != 2 || (strcmp(argv[1], "--help") && strcmp(argv[1], "-h")))
		return false;
	printf("usage: bdsadm %s\n", what);
	return true;
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
} verbs[] = {
	{ "create", bds_cmd_create, "create NAME [OPTIONS] DEVICE..." },
	{ "assemble", bds_cmd_assemble, "assemble NAME | --uuid UUID | --scan [--generation G] [--foreign] [--dm-name NAME] [--auto] [--no-rollback]" },
	{ "stop", bds_cmd_stop, "stop NAME..." },
	{ "list", bds_cmd_list, "list [--json | -H]" },
	{ "detail", bds_cmd_detail, "detail [--json | --export] [--interval SECONDS] NAME" },
	{ "incremental", bds_cmd_incremental, "incremental [--remove] DEVICE" },
	{ "import", bds_cmd_import, "import NAME | --uuid UUID [--force]" },
	{ "adopt", bds_cmd_adopt, "adopt NAME --from /dev/mdN | --from-table DMNAME" },
	{ "release", bds_cmd_release, "release NAME --to-md [--md-device /dev/md/NAME]" },
	{ "grow", bds_cmd_grow, GROW_USAGE },
	{ "replace", bds_cmd_replace, "replace [--force] [--ignore-read-errors] NAME OLD NEW | replace --abort NAME" },
	{ "plan", bds_cmd_plan, "plan [OPTIONS] DEVICE..." },
	{ "examine", bds_cmd_examine, "examine [--export | --json] DEVICE..." },
	{ "wipe", bds_cmd_wipe, "wipe DEVICE..." },
	{ "monitor", bds_cmd_monitor, "monitor [--oneshot] [--program PROG] [--mail ADDRESS] [--program-timeout SECONDS] [--foreground] [--rescan SECONDS]" },
	{ "check", bds_cmd_check, "check [--rate MB/S] NAME" },
};

static void help(FILE *f)
{
	size_t i;

	fprintf(f, "usage: bdsadm [-q | -v] VERB [OPTIONS] [ARGS]\n\n"
		"  -q, --quiet    errors only: nothing of what was done\n"
		"  -v, --verbose  also each step (the tables loaded, the devices read)\n"
		"\nverbs:\n");
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		fprintf(f, "  bdsadm %s\n", verbs[i].synopsis);
	fprintf(f, "  bdsadm help\n  bdsadm --version\n\nSee bdsadm(8).\n");
}

int main(int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');
	size_t i;

	/* bds-stripe-table is bdsadm plan (with --create) under its old name */
	if (!strcmp(slash ? slash + 1 : argv[0], "bds-stripe-table"))
		return bds_cmd_table(argc, argv);
	bds_dm_log_init();
	argc = take_verbosity(argc, argv);
	if (argc < 2) {
		help(stderr);
		return BDS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") ||
	    !strcmp(argv[1], "version")) {
		printf("bdsadm " BDS_VERSION "\n");
		return BDS_EXIT_OK;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")) {
		help(stdout);
		return BDS_EXIT_OK;
	}
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (!strcmp(argv[1], verbs[i].name))
			return verbs[i].run(argc - 1, argv + 1);
	bds_err("unknown verb '%s'; 'bdsadm help' lists the verbs", argv[1]);
	return BDS_EXIT_USAGE;
}
