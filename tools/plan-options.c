// SPDX-License-Identifier: GPL-2.0
/*
 * The options of bds-stripe-table, bdsadm plan and bdsadm create: each
 * verb takes its own set.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"

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
		       "      --create NAME         create it as 'dmsetup create NAME --table ...'\n"
		       "                            does (an unlabelled volume: see bdsadm create)\n");
	if (verb != VERB_PLAN)
		printf("      --read-ahead RA       auto (default) raises the volume's\n"
		       "                            read-ahead to 2 stripe widths; SIZE sets\n"
		       "                            it; off leaves the kernel's\n");
	printf("      --measure             read the disks alone and each controller's\n"
	       "                            together (read-only) for their speeds\n"
	       "      --measure-time S      seconds for all of it (default 2 per step)\n");
	printf("      --disk-mbps X[,X...]  disk speed (MB/s), one for all or one per\n"
	       "                            device in argument order\n"
	       "      --controller-mbps Y[,Y...]  controller speed limit, one for all\n"
	       "                            or one per controller in name order\n");
	if (verb == VERB_PLAN)
		printf("      --json                the plan as one JSON object (bdsadm(8))\n"
		       "      --unlabelled          the table over whole devices, for a volume\n"
		       "                            made by hand with dmsetup (default: the\n"
		       "                            table bdsadm create makes)\n");
	if (verb != VERB_CREATE)
		printf("      --table-only          print only the table line\n"
		       "      --paths               members as /dev/NAME (default MAJ:MIN)\n"
		       "      --sysfs DIR           sysfs root (default /sys; for tests)\n"
		       "      --mounts FILE         mount table (default /proc/self/mounts)\n");
	printf("  -h, --help                this help\n"
	       "  -V, --version             version\n"
	       "\n"
	       "SIZE: a number of bytes, or with a suffix: s (512-byte sectors),\n"
	       "K, M, G (binary).  Exit status: 0 ok, 1 refused or failed, 2 usage.\n");
}

enum {
	OPT_SORT = 256, OPT_CREATE, OPT_TABLE_ONLY, OPT_PATHS, OPT_DISK_MBPS,
	OPT_CTRL_MBPS, OPT_SYSFS, OPT_MOUNTS, OPT_READ_AHEAD,
	OPT_GROUP_BY, OPT_JSON, OPT_MEASURE, OPT_MEASURE_TIME, OPT_UNLABELLED,
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
	{ "read-ahead", required_argument, NULL, OPT_READ_AHEAD },
	{ "group-by", required_argument, NULL, OPT_GROUP_BY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "measure", no_argument, NULL, OPT_MEASURE },
	{ "measure-time", required_argument, NULL, OPT_MEASURE_TIME },
	{ "unlabelled", no_argument, NULL, OPT_UNLABELLED },
	{ NULL, 0, NULL, 0 },
};

enum plan_status plan_check_dm_name(struct plan_ctx *c, const char *what,
				    const char *name)
{
	if (!*name || strlen(name) > DM_NAME_MAX || strchr(name, '/') ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return plan_usage(c, "%s '%s': a device-mapper name is 1 to %d characters without '/'",
				  what, name, DM_NAME_MAX);
	return PLAN_OK;
}

/* "--chunk" for 'c': the option's long name, into @buf (NAME_SZ). */
static const char *opt_name(int ch, char *buf)
{
	size_t i;

	for (i = 0; longopts[i].name; i++)
		if (longopts[i].val == ch) {
			snprintf(buf, NAME_SZ, "--%s", longopts[i].name);
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
		return verb == VERB_TABLE;
	case OPT_READ_AHEAD:
		return verb != VERB_PLAN;
	case OPT_JSON:
	case OPT_UNLABELLED:
		return verb == VERB_PLAN;
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
 * @what (--disk-mbps, --controller-mbps) "X" or "X,Y,...": MB/s values
 * into a new array, the first also into @first.
 */
static enum plan_status parse_speeds(struct plan_ctx *c, const char *what,
				     const char *s, double **list, int *n,
				     double *first)
{
	char copy[LIST_SZ * 4], *tok, *save = NULL;

	if (strlen(s) >= sizeof(copy) || !*s || s[strlen(s) - 1] == ',' ||
	    strstr(s, ",,"))
		goto bad;
	snprintf(copy, sizeof(copy), "%s", s);
	free(*list);
	*list = calloc(MAX_ARGS, sizeof(**list));
	if (!*list)
		return plan_fail(c, "out of memory");
	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (*n == MAX_ARGS || !parse_mbps(tok, &(*list)[(*n)++]))
			goto bad;
	if (!*n)
		goto bad;
	*first = (*list)[0];
	return PLAN_OK;
bad:
	return plan_usage(c, "%s %s: not a positive number, or a list of them separated by commas",
			  what, s);
}

/* --weights: a word or a list (checked against the devices later). */
static enum plan_status parse_weights(struct plan_ctx *c, const char *s)
{
	c->opt.weights_arg = s;
	if (!strcmp(s, "capacity"))
		c->opt.weights = WT_CAPACITY;
	else if (!strcmp(s, "bandwidth"))
		c->opt.weights = WT_BANDWIDTH;
	else if (*s && strspn(s, "0123456789,") == strlen(s))
		c->opt.weights = WT_LIST;
	else
		return plan_usage(c, "--weights %s: accepted are capacity, bandwidth and a list of weights in table order (2,1,1,1)",
				  s);
	return PLAN_OK;
}

static enum plan_status parse_layout(struct plan_ctx *c, const char *s)
{
	if (!strcmp(s, "interleave"))
		c->opt.mode = BDS_LAYOUT_INTERLEAVE;
	else if (!strcmp(s, "sequential"))
		c->opt.mode = BDS_LAYOUT_SEQUENTIAL;
	else
		return plan_usage(c, "--layout %s: accepted are interleave and sequential",
				  s);
	return PLAN_OK;
}

static enum plan_status parse_group_by(struct plan_ctx *c, const char *s)
{
	if (!strcmp(s, "host"))
		c->opt.group_by = GROUP_BY_HOST;
	else if (!strcmp(s, "controller"))
		c->opt.group_by = GROUP_BY_CONTROLLER;
	else if (!strcmp(s, "subsystem"))
		c->opt.group_by = GROUP_BY_SUBSYSTEM;
	else
		return plan_usage(c, "--group-by %s: accepted are host, subsystem and controller",
				  s);
	return PLAN_OK;
}

static enum plan_status parse_read_ahead(struct plan_ctx *c, const char *s)
{
	u64 b;

	if (!strcmp(s, "auto")) {
		c->opt.ra_mode = RA_AUTO;
	} else if (!strcmp(s, "off")) {
		c->opt.ra_mode = RA_OFF;
	} else if (parse_size(s, &b) && b <= (u64)UINT32_MAX * 1024) {
		c->opt.ra_mode = RA_SET;
		c->opt.ra_kib = (b + 1023) / 1024;
	} else {
		return plan_usage(c, "--read-ahead %s: accepted are auto, off and a size",
				  s);
	}
	return PLAN_OK;
}

/* The options that only set a word or a flag of c->opt. */
static bool set_plain(struct plan_opts *o, int ch, char *arg)
{
	switch (ch) {
	case 'c':
		o->chunk_arg = arg;
		break;
	case 't':
		o->transfer_arg = arg;
		break;
	case 'g':
		o->groups_arg = arg;
		break;
	case 'f':
		o->force = true;
		break;
	case OPT_SORT:
		o->sort = true;
		break;
	case OPT_TABLE_ONLY:
		o->table_only = true;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_MEASURE:
		o->measure = true;
		break;
	case OPT_UNLABELLED:
		o->unlabelled = true;
		break;
	case OPT_PATHS:
		o->paths = true;
		break;
	case OPT_SYSFS:
		o->sysfs = arg;
		o->real_sysfs = false;
		break;
	case OPT_MOUNTS:
		o->mounts = arg;
		break;
	default:
		return false;
	}
	return true;
}

/* Option @ch with argument @arg into c->opt. */
static enum plan_status set_option(struct plan_ctx *c, int ch, char *arg)
{
	struct plan_opts *o = &c->opt;

	if (set_plain(o, ch, arg))
		return PLAN_OK;
	switch (ch) {
	case OPT_MEASURE_TIME: {
		unsigned int secs;

		if (!parse_whole_seconds(arg, &secs))
			return plan_usage(c, "--measure-time %s: not a whole number of seconds from 1 to %d",
					  arg, PARSE_SECONDS_MAX);
		o->measure_time = secs;
		return PLAN_OK;
	}
	case 'l':
		return parse_layout(c, arg);
	case 'w':
		return parse_weights(c, arg);
	case 'n':
		o->name = arg;
		return plan_check_dm_name(c, "--name", arg);
	case OPT_CREATE:
		o->create = arg;
		return plan_check_dm_name(c, "--create", arg);
	case OPT_GROUP_BY:
		return parse_group_by(c, arg);
	case OPT_READ_AHEAD:
		return parse_read_ahead(c, arg);
	case OPT_DISK_MBPS:
		o->have_disk_mbps = true;
		return parse_speeds(c, "--disk-mbps", arg, &o->disk_list,
				    &o->ndisk, &o->disk_mbps);
	case OPT_CTRL_MBPS:
		o->have_ctrl_mbps = true;
		return parse_speeds(c, "--controller-mbps", arg, &o->ctrl_list,
				    &o->nctrl_mbps, &o->ctrl_mbps);
	default:
		return plan_usage(c, "unknown option");
	}
}

/* Options that exclude or need each other. */
static enum plan_status check_together(struct plan_ctx *c)
{
	const struct plan_opts *o = &c->opt;

	if (o->json && o->table_only)
		return plan_usage(c, "--json and --table-only exclude each other");
	if (o->chunk_arg && o->transfer_arg)
		return plan_usage(c, "--chunk and --transfer-size exclude each other");
	if (o->measure && (o->have_disk_mbps || o->have_ctrl_mbps))
		return plan_usage(c, "--measure and --disk-mbps or --controller-mbps exclude each other: the measured figures are those speeds");
	if (o->measure_time > 0 && !o->measure)
		return plan_usage(c, "--measure-time: there is no --measure to time");
	if (o->have_ctrl_mbps && !o->have_disk_mbps)
		return plan_usage(c, "--controller-mbps needs --disk-mbps too");
	if (o->weights != WT_NONE && o->mode == BDS_LAYOUT_SEQUENTIAL)
		return plan_usage(c, "--weights %s: weights need --layout interleave; with --layout sequential every member holds an equal share, as with the in-kernel striped target",
				  o->weights_arg);
	if (o->weights == WT_BANDWIDTH && !o->have_disk_mbps && !o->measure)
		return plan_usage(c, "--weights bandwidth needs the disks' speeds: give --measure, or --disk-mbps (and --controller-mbps where controllers limit them)");
	if (o->transfer_arg && (o->weights == WT_CAPACITY ||
				o->weights == WT_BANDWIDTH))
		return plan_usage(c, "--transfer-size and --weights %s exclude each other: the weights depend on the stripe unit; give --chunk, or the weights as a list",
				  o->weights_arg);
	if (o->name && o->create && strcmp(o->name, o->create))
		return plan_usage(c, "--name %s and --create %s differ", o->name,
				  o->create);
	return PLAN_OK;
}

enum plan_status plan_parse_options(struct plan_ctx *c, enum plan_verb verb,
				    int argc, char **argv, int *first)
{
	enum plan_status st;
	char name[NAME_SZ];
	int ch;

	c->opt.verb = verb;
	while ((ch = getopt_long(argc, argv, "c:t:l:w:g:n:fhV", longopts,
				 NULL)) != -1) {
		if (ch != '?' && !verb_takes(verb, ch))
			return plan_usage(c, "%s does not take %s",
					  verb == VERB_CREATE ? "bdsadm create" :
					  verb == VERB_PLAN ? "bdsadm plan" :
					  c->prog, opt_name(ch, name));
		if (ch == 'h') {
			usage(c, verb);
			return PLAN_DONE;
		}
		if (ch == 'V') {
			printf("%s " BDS_VERSION "\n", c->prog);
			return PLAN_DONE;
		}
		st = set_option(c, ch, optarg);
		if (st)
			return st;
	}
	*first = optind;
	return check_together(c);
}
