// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm plan, and bds-stripe-table (bdsadm plan under its old name,
 * which can also --create the volume, unlabelled): the table and the
 * summary.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"

#include <stdlib.h>
#include <string.h>

/*
 * With --groups 'sdb,sdc;sdd' and no device arguments, the spec lists
 * them: into @args, @nargs of them.
 */
static enum plan_status args_from_spec(struct plan_ctx *c, char ***args,
				       int *nargs)
{
	char copy[LIST_SZ * 4], *tok, *save = NULL;

	if (strlen(c->opt.groups_arg) >= sizeof(copy))
		return plan_fail(c, "--groups: too long");
	snprintf(copy, sizeof(copy), "%s", c->opt.groups_arg);
	c->spec_args = calloc(MAX_ARGS, sizeof(*c->spec_args));
	if (!c->spec_args)
		return plan_fail(c, "out of memory");
	for (tok = strtok_r(copy, ",;", &save); tok;
	     tok = strtok_r(NULL, ",;", &save)) {
		if (c->nspec >= MAX_ARGS)
			return plan_fail(c, "%s",
				bds_geom_error(BDS_ERR_TOO_MANY_MEMBERS));
		c->spec_args[c->nspec] = strdup(tok);
		if (!c->spec_args[c->nspec])
			return plan_fail(c, "out of memory");
		c->nspec++;
	}
	*args = c->spec_args;
	*nargs = c->nspec;
	return PLAN_OK;
}

/* bds-stripe-table, and bdsadm plan: print the table and the summary. */
static enum plan_status plan_main(struct plan_ctx *c, enum plan_verb verb,
				  int argc, char **argv)
{
	struct plan_result r;
	enum plan_status st;
	char **args;
	int nargs, first;

	st = plan_parse_options(c, verb, argc, argv, &first);
	if (st)
		return st;
	args = argv + first;
	nargs = argc - first;
	if (!nargs && c->opt.groups_arg && !spec_is_counts(c->opt.groups_arg)) {
		st = args_from_spec(c, &args, &nargs);
		if (st)
			return st;
	}
	if (!nargs)
		return plan_usage(c, "no devices given");
	st = plan_build(c, args, nargs, &r);
	if (!st)
		st = plan_table(c, &r);
	if (st)
		return st;
	if (c->opt.json) {
		plan_print_json(c, &r);
		return PLAN_OK;
	}
	if (c->opt.verb == VERB_PLAN && !c->opt.unlabelled) {
		if (c->no_room)
			return plan_fail(c, "%s has no room for a whole stripe unit between its label and the label's backup copy: bdsadm create refuses these devices with this stripe unit ('bdsadm plan --unlabelled' shows the table over whole devices)",
					 c->no_room);
		plan_use_labelled(c, &r);
	}
	printf("%s\n", r.labelled ? c->labelled : c->table);
	if (!c->opt.table_only)
		print_summary(c, &r);
	if (c->opt.create)
		return create_device(c, &r);
	return PLAN_OK;
}

static int plan_run(const char *prog, enum plan_verb verb, int argc,
		    char **argv)
{
	struct plan_ctx c;
	int rc;

	plan_init(&c, prog);
	rc = plan_exit(&c, plan_main(&c, verb, argc, argv));
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
