// SPDX-License-Identifier: GPL-2.0
/*
 * The options of bds-stripe-table, bdsadm plan and bdsadm create, and
 * the plan verb.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "fmt.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(const struct plan_ctx *c, enum plan_verb verb)
{
	if (verb == VERB_CREATE)
		printf("Usage: bdsadm create NAME [options] DEVICE...\n"
		       "\n"
		       "Label the devices as the members of a new volume NAME and create\n"
		       "/dev/mapper/NAME: one group per controller, as bdsadm plan shows.\n");
	else
		printf("Usage: %s [options] DEVICE...\n"
		       "\n"
		       "Build a device-mapper bds-stripe table: one group per controller\n"
		       "(SCSI host, NVMe controller, virtio-blk PCI function; virtual\n"
		       "devices each alone), checked and explained.  Nothing is changed%s.\n",
		       verb == VERB_PLAN ? "bdsadm plan" : c->prog,
		       verb == VERB_TABLE ? " unless --create is given" : "");
	printf("\n"
	       "DEVICE: /dev/sdb, sdb, a partition, or MAJOR:MINOR.\n"
	       "\n"
	       "Options:\n"
	       "  -c, --chunk SIZE          stripe unit (default 256K); a multiple of 4K\n"
	       "  -t, --transfer-size SIZE  pick the largest stripe unit that makes SIZE\n"
	       "                            a whole number of stripe widths\n"
	       "  -l, --layout L            interleave (default) or sequential\n"
	       "  -w, --weights W           stripe units per cycle of each member:\n"
	       "                            capacity (the most space), bandwidth\n"
	       "                            (the fastest streams; needs --disk-mbps),\n"
	       "                            or a list in table order: 2,1,1,1\n"
	       "  -g, --groups SPEC         groups by hand: 'sdb,sdc;sdd,sde', or counts\n"
	       "                            in argument order: 4,4\n"
	       "      --group-by G          the group of an NVMe over Fabrics namespace:\n"
	       "                            host (default: its storage host's address),\n"
	       "                            subsystem (its NQN) or controller (nvmeN)\n"
	       "      --sort                members of a group in natural name order\n"
	       "                            (default: command-line order)\n"
	       "  -f, --force               use devices that look in use%s\n",
	       verb == VERB_CREATE ? "\n                            or hold a signature" : "");
	if (verb == VERB_TABLE)
		printf("  -n, --name NAME           name to show in the dmsetup command\n"
		       "      --create NAME         run 'dmsetup create NAME --table ...'\n"
		       "                            (an unlabelled volume: see bdsadm create)\n");
	if (verb != VERB_PLAN)
		printf("      --read-ahead RA       auto (default) raises the volume's\n"
		       "                            read-ahead to 2 stripe widths; SIZE sets\n"
		       "                            it; off leaves the kernel's\n");
	printf("      --disk-mbps X[,X...]  disk speed (MB/s), one for all or one per\n"
	       "                            device in argument order\n"
	       "      --controller-mbps Y[,Y...]  controller speed limit, one for all\n"
	       "                            or one per controller in name order\n");
	if (verb != VERB_CREATE)
		printf("      --table-only          print only the table line\n"
		       "      --paths               members as /dev/NAME (default MAJ:MIN)\n"
		       "      --sysfs DIR           sysfs root (default /sys; for tests)\n"
		       "      --mounts FILE         mount table (default /proc/self/mounts)\n");
	if (verb == VERB_TABLE)
		printf("      --dmsetup PROG        dmsetup program (default dmsetup)\n");
	printf("  -h, --help                this help\n"
	       "  -V, --version             version\n"
	       "\n"
	       "SIZE: a number of bytes, or with a suffix: s (512-byte sectors),\n"
	       "K, M, G (binary).  Exit status: 0 ok, 1 refused or failed, 2 usage.\n");
}

enum {
	OPT_SORT = 256, OPT_CREATE, OPT_TABLE_ONLY, OPT_PATHS, OPT_DISK_MBPS,
	OPT_CTRL_MBPS, OPT_SYSFS, OPT_MOUNTS, OPT_DMSETUP, OPT_READ_AHEAD,
	OPT_GROUP_BY,
};

static const struct option longopts[] = {
	{ "chunk", required_argument, NULL, 'c' },
	{ "transfer-size", required_argument, NULL, 't' },
	{ "layout", required_argument, NULL, 'l' },
	{ "weights", required_argument, NULL, 'w' },
	{ "groups", required_argument, NULL, 'g' },
	{ "name", required_argument, NULL, 'n' },
	{ "force", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "sort", no_argument, NULL, OPT_SORT },
	{ "create", required_argument, NULL, OPT_CREATE },
	{ "table-only", no_argument, NULL, OPT_TABLE_ONLY },
	{ "paths", no_argument, NULL, OPT_PATHS },
	{ "disk-mbps", required_argument, NULL, OPT_DISK_MBPS },
	{ "controller-mbps", required_argument, NULL, OPT_CTRL_MBPS },
	{ "sysfs", required_argument, NULL, OPT_SYSFS },
	{ "mounts", required_argument, NULL, OPT_MOUNTS },
	{ "dmsetup", required_argument, NULL, OPT_DMSETUP },
	{ "read-ahead", required_argument, NULL, OPT_READ_AHEAD },
	{ "group-by", required_argument, NULL, OPT_GROUP_BY },
	{ NULL, 0, NULL, 0 },
};

void plan_check_dm_name(const struct plan_ctx *c, const char *what,
			const char *name)
{
	if (!*name || strlen(name) > DM_NAME_MAX || strchr(name, '/') ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		usage_error(c, "%s '%s': a device-mapper name is 1 to %d characters without '/'",
			    what, name, DM_NAME_MAX);
}

static const char *opt_name(int c)
{
	static char buf[NAME_SZ];
	size_t i;

	for (i = 0; longopts[i].name; i++)
		if (longopts[i].val == c) {
			snprintf(buf, sizeof(buf), "--%s", longopts[i].name);
			return buf;
		}
	return "this option";
}

/* Options a verb does not take: a usage error naming the verb. */
static bool verb_takes(enum plan_verb verb, int c)
{
	switch (c) {
	case 'n':
	case OPT_CREATE:
	case OPT_DMSETUP:
		return verb == VERB_TABLE;
	case OPT_READ_AHEAD:
		return verb != VERB_PLAN;
	case OPT_TABLE_ONLY:
	case OPT_PATHS:
	case OPT_SYSFS:
	case OPT_MOUNTS:
		return verb != VERB_CREATE;
	default:
		return true;
	}
}

/*
 * "X" or "X,Y,...": MB/s values into a new array; false if one is not a
 * positive number.
 */
static bool parse_speeds(const struct plan_ctx *c, const char *s, double **list, int *n)
{
	char copy[LIST_SZ * 4], *tok, *save = NULL;

	if (strlen(s) >= sizeof(copy) || !*s || s[strlen(s) - 1] == ',' ||
	    strstr(s, ",,"))
		return false;
	snprintf(copy, sizeof(copy), "%s", s);
	free(*list);
	*list = calloc(MAX_ARGS, sizeof(**list));
	if (!*list)
		refuse(c, "out of memory");
	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (*n == MAX_ARGS || !parse_mbps(tok, &(*list)[(*n)++]))
			return false;
	return *n > 0;
}

/* --weights: a word or a list (checked against the devices later). */
static void parse_weights(struct plan_ctx *c, const char *s)
{
	c->opt.weights_arg = s;
	if (!strcmp(s, "capacity"))
		c->opt.weights = WT_CAPACITY;
	else if (!strcmp(s, "bandwidth"))
		c->opt.weights = WT_BANDWIDTH;
	else if (*s && strspn(s, "0123456789,") == strlen(s))
		c->opt.weights = WT_LIST;
	else
		usage_error(c, "--weights %s: accepted are capacity, bandwidth and a list of weights in table order (2,1,1,1)",
			    s);
}

/*
 * Parse the options of @verb into c->opt; returns the index of the first
 * argument after them.
 */
int plan_parse_options(struct plan_ctx *c, enum plan_verb verb, int argc,
		       char **argv)
{
	int ch;

	c->opt.verb = verb;
	while ((ch = getopt_long(argc, argv, "c:t:l:w:g:n:fhV", longopts,
				NULL)) != -1) {
		if (ch != '?' && !verb_takes(verb, ch))
			usage_error(c, "%s does not take %s",
				    verb == VERB_CREATE ? "bdsadm create" :
				    verb == VERB_PLAN ? "bdsadm plan" :
				    c->prog, opt_name(ch));
		switch (ch) {
		case 'c':
			c->opt.chunk_arg = optarg;
			break;
		case 't':
			c->opt.transfer_arg = optarg;
			break;
		case 'l':
			if (!strcmp(optarg, "interleave"))
				c->opt.mode = BDS_LAYOUT_INTERLEAVE;
			else if (!strcmp(optarg, "sequential"))
				c->opt.mode = BDS_LAYOUT_SEQUENTIAL;
			else
				usage_error(c, "--layout %s: accepted are interleave and sequential",
					    optarg);
			break;
		case 'w':
			parse_weights(c, optarg);
			break;
		case 'g':
			c->opt.groups_arg = optarg;
			break;
		case 'n':
			plan_check_dm_name(c, "--name", optarg);
			c->opt.name = optarg;
			break;
		case 'f':
			c->opt.force = true;
			break;
		case 'h':
			usage(c, verb);
			exit(0);
		case 'V':
			printf("%s " BDS_VERSION "\n", c->prog);
			exit(0);
		case OPT_SORT:
			c->opt.sort = true;
			break;
		case OPT_GROUP_BY:
			if (!strcmp(optarg, "host"))
				c->opt.group_by = GROUP_BY_HOST;
			else if (!strcmp(optarg, "controller"))
				c->opt.group_by = GROUP_BY_CONTROLLER;
			else if (!strcmp(optarg, "subsystem"))
				c->opt.group_by = GROUP_BY_SUBSYSTEM;
			else
				usage_error(c, "--group-by %s: accepted are host, subsystem and controller",
					    optarg);
			break;
		case OPT_CREATE:
			plan_check_dm_name(c, "--create", optarg);
			c->opt.create = optarg;
			break;
		case OPT_TABLE_ONLY:
			c->opt.table_only = true;
			break;
		case OPT_PATHS:
			c->opt.paths = true;
			break;
		case OPT_DISK_MBPS:
			if (!parse_speeds(c, optarg, &c->opt.disk_list, &c->opt.ndisk))
				usage_error(c, "--disk-mbps %s: not a positive number, or a list of them separated by commas",
					    optarg);
			c->opt.disk_mbps = c->opt.disk_list[0];
			c->opt.have_disk_mbps = true;
			break;
		case OPT_CTRL_MBPS:
			if (!parse_speeds(c, optarg, &c->opt.ctrl_list, &c->opt.nctrl_mbps))
				usage_error(c, "--controller-mbps %s: not a positive number, or a list of them separated by commas",
					    optarg);
			c->opt.ctrl_mbps = c->opt.ctrl_list[0];
			c->opt.have_ctrl_mbps = true;
			break;
		case OPT_SYSFS:
			c->opt.sysfs = optarg;
			c->opt.real_sysfs = false;
			break;
		case OPT_MOUNTS:
			c->opt.mounts = optarg;
			break;
		case OPT_DMSETUP:
			c->opt.dmsetup = optarg;
			break;
		case OPT_READ_AHEAD: {
			u64 b;

			if (!strcmp(optarg, "auto")) {
				c->opt.ra_mode = RA_AUTO;
			} else if (!strcmp(optarg, "off")) {
				c->opt.ra_mode = RA_OFF;
			} else if (parse_size(optarg, &b) &&
				   b <= (u64)UINT32_MAX * 1024) {
				c->opt.ra_mode = RA_SET;
				c->opt.ra_kib = (b + 1023) / 1024;
			} else {
				usage_error(c, "--read-ahead %s: accepted are auto, off and a size",
					    optarg);
			}
			break;
		}
		default:
			usage_error(c, "unknown option");
		}
	}
	if (c->opt.chunk_arg && c->opt.transfer_arg)
		usage_error(c, "--chunk and --transfer-size exclude each other");
	if (c->opt.have_ctrl_mbps && !c->opt.have_disk_mbps)
		usage_error(c, "--controller-mbps needs --disk-mbps too");
	if (c->opt.weights != WT_NONE && c->opt.mode == BDS_LAYOUT_SEQUENTIAL)
		usage_error(c, "--weights %s: weights need --layout interleave; with --layout sequential every member holds an equal share, as with the in-kernel striped target",
			    c->opt.weights_arg);
	if (c->opt.weights == WT_BANDWIDTH && !c->opt.have_disk_mbps)
		usage_error(c, "--weights bandwidth needs the disks' speeds: give --disk-mbps (and --controller-mbps where controllers limit them)");
	if (c->opt.transfer_arg && (c->opt.weights == WT_CAPACITY ||
				 c->opt.weights == WT_BANDWIDTH))
		usage_error(c, "--transfer-size and --weights %s exclude each other: the weights depend on the stripe unit; give --chunk, or the weights as a list",
			    c->opt.weights_arg);
	if (c->opt.name && c->opt.create && strcmp(c->opt.name, c->opt.create))
		usage_error(c, "--name %s and --create %s differ", c->opt.name,
			    c->opt.create);
	return optind;
}

/* With --groups 'sdb,sdc;sdd' and no device arguments, the spec lists them. */
static int args_from_spec(struct plan_ctx *c, char ***out)
{
	char copy[LIST_SZ * 4], *tok, *save = NULL;

	if (strlen(c->opt.groups_arg) >= sizeof(copy))
		refuse(c, "--groups: too long");
	snprintf(copy, sizeof(copy), "%s", c->opt.groups_arg);
	c->spec_args = calloc(MAX_ARGS, sizeof(*c->spec_args));
	if (!c->spec_args)
		refuse(c, "out of memory");
	for (tok = strtok_r(copy, ",;", &save); tok;
	     tok = strtok_r(NULL, ",;", &save)) {
		if (c->nspec >= MAX_ARGS)
			refuse(c, "%s", bds_geom_error(BDS_ERR_TOO_MANY_MEMBERS));
		c->spec_args[c->nspec] = strdup(tok);
		if (!c->spec_args[c->nspec])
			refuse(c, "out of memory");
		c->nspec++;
	}
	*out = c->spec_args;
	return c->nspec;
}

/* bds-stripe-table, and bdsadm plan: print the table and the summary. */
static int plan_main(struct plan_ctx *c, enum plan_verb verb, int argc,
		     char **argv)
{
	struct plan_result r;
	char **args;
	int nargs, first;

	first = plan_parse_options(c, verb, argc, argv);
	args = argv + first;
	nargs = argc - first;
	if (!nargs && c->opt.groups_arg && !spec_is_counts(c->opt.groups_arg))
		nargs = args_from_spec(c, &args);
	if (!nargs)
		usage_error(c, "no devices given");
	plan_build(c, args, nargs, &r);
	printf("%s\n", c->table);
	if (!c->opt.table_only)
		print_summary(c, &r);
	if (c->opt.create)
		return create_device(c, &r);
	return 0;
}

static int plan_run(const char *prog, enum plan_verb verb, int argc,
		    char **argv)
{
	struct plan_ctx c;
	int rc;

	plan_init(&c, prog);
	rc = plan_main(&c, verb, argc, argv);
	plan_free(&c);
	return rc;
}

int bds_cmd_plan(int argc, char **argv)
{
	return plan_run("bdsadm", VERB_PLAN, argc, argv);
}

int bds_cmd_table(int argc, char **argv)
{
	return plan_run("bds-stripe-table", VERB_TABLE, argc, argv);
}
