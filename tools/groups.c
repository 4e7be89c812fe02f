// SPDX-License-Identifier: GPL-2.0
/*
 * Groups: controllers in natural order become table groups (or
 * --groups says which), and the members their table order.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "fmt.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Groups                                                              */

static int ctrl_cmp(const void *a, const void *b)
{
	return natcmp(((const struct controller *)a)->name,
		      ((const struct controller *)b)->name);
}

static int member_name_cmp(const void *a, const void *b)
{
	return natcmp((*(struct member *const *)a)->name,
		      (*(struct member *const *)b)->name);
}

static struct member *find_member(struct plan_ctx *c, const char *word)
{
	int i;

	for (i = 0; i < c->nmem; i++)
		if (!strcmp(word, c->mem[i].arg) ||
		    !strcmp(word, c->mem[i].name) ||
		    !strcmp(base_name(word), c->mem[i].name))
			return &c->mem[i];
	return NULL;
}

bool spec_is_counts(const char *spec)
{
	return strspn(spec, "0123456789,") == strlen(spec);
}

/* Sort controllers by name and renumber the members' references. */
void sort_controllers(struct plan_ctx *c)
{
	char names[MAX_ARGS][NAME_SZ];
	int i, j;

	for (i = 0; i < c->nmem; i++)
		snprintf(names[i], NAME_SZ, "%s",
			 c->ctrls[c->mem[i].ctrl].name);
	qsort(c->ctrls, (size_t)c->nctrl, sizeof(*c->ctrls), ctrl_cmp);
	for (i = 0; i < c->nmem; i++) {
		for (j = 0; j < c->nctrl; j++)
			if (!strcmp(c->ctrls[j].name, names[i]))
				c->mem[i].ctrl = j;
		c->ctrls[c->mem[i].ctrl].nmembers++;
	}
}

/* One group per controller, controllers in natural order. */
static void groups_by_controller(struct plan_ctx *c, struct member **order)
{
	int i, g, n = 0;

	for (g = 0; g < c->nctrl; g++) {
		c->group_sizes[g] = 0;
		for (i = 0; i < c->nmem; i++)
			if (order[i]->ctrl == g) {
				order[i]->group = g;
				c->tbl[n++] = order[i];
				c->group_sizes[g]++;
			}
	}
	c->ngroups = c->nctrl;
}

/* --groups 4,4: member counts, in the order of @order. */
static enum plan_status groups_by_counts(struct plan_ctx *c,
					 struct member **order)
{
	char copy[LIST_SZ], *tok, *save = NULL;
	u64 sum = 0, v;
	int g, i = 0;
	u32 k;

	snprintf(copy, sizeof(copy), "%s", c->opt.groups_arg);
	c->ngroups = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!bds_parse_u64(tok, &v) || v > MAX_ARGS)
			return plan_fail(c, "--groups %s: '%s' is not a member count",
					 c->opt.groups_arg, tok);
		if (c->ngroups >= c->nmem)
			return plan_fail(c, "--groups %s: more groups than the %d devices given",
					 c->opt.groups_arg, c->nmem);
		c->group_sizes[c->ngroups++] = (u32)v;
		sum += v;
	}
	if (!c->ngroups || sum != (u64)c->nmem)
		return plan_fail(c, "--groups %s: the counts add up to %llu, but %d devices are given",
				 c->opt.groups_arg, U(sum), c->nmem);
	for (g = 0; g < c->ngroups; g++)
		for (k = 0; k < c->group_sizes[g]; k++, i++) {
			order[i]->group = g;
			c->tbl[i] = order[i];
		}
	return PLAN_OK;
}

/*
 * One group of --groups 'sdb,sdc;sdd', its member names in @grp: the
 * next group, its members the next in table order (@n so far).
 */
static enum plan_status name_group(struct plan_ctx *c, char *grp, bool *used,
				   int *n)
{
	char *tok, *save = NULL;
	struct member *m;

	c->group_sizes[c->ngroups] = 0;
	for (tok = strtok_r(grp, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		m = find_member(c, tok);
		if (!m)
			return plan_fail(c, "--groups: '%s' is not one of the devices given",
					 tok);
		if (used[m - c->mem])
			return plan_fail(c, "--groups: '%s' is listed twice", tok);
		used[m - c->mem] = true;
		m->group = c->ngroups;
		c->tbl[(*n)++] = m;
		c->group_sizes[c->ngroups]++;
	}
	c->ngroups++;
	return PLAN_OK;
}

/* --groups 'sdb,sdc;sdd,sde': the groups by name, in the order given. */
static enum plan_status groups_by_name(struct plan_ctx *c, bool *used)
{
	const char *p = c->opt.groups_arg;
	enum plan_status st;
	int i, n = 0;

	c->ngroups = 0;
	while (*p) {
		size_t glen = strcspn(p, ";");
		char grp[LIST_SZ];

		if (glen >= sizeof(grp))
			return plan_fail(c, "--groups: a group is too long");
		memcpy(grp, p, glen);
		grp[glen] = 0;
		if (!glen || grp[0] == ',' || grp[glen - 1] == ',' ||
		    strstr(grp, ",,"))
			return plan_fail(c, "--groups %s: empty group or member name",
					 c->opt.groups_arg);
		if (c->ngroups >= c->nmem)
			return plan_fail(c, "--groups %s: more groups than devices",
					 c->opt.groups_arg);
		st = name_group(c, grp, used, &n);
		if (st)
			return st;
		p += glen;
		if (*p != ';')
			continue;
		p++;
		if (!*p)
			return plan_fail(c, "--groups %s: empty group",
					 c->opt.groups_arg);
	}
	for (i = 0; i < c->nmem; i++)
		if (!used[i])
			return plan_fail(c, "--groups: device '%s' is not in any group",
					 c->mem[i].arg);
	return PLAN_OK;
}

/* --groups: say where a table group spans several controllers. */
static void note_spanning_groups(struct plan_ctx *c)
{
	int g, i, first;

	for (g = 0; g < c->ngroups; g++) {
		first = -1;
		for (i = 0; i < c->nmem; i++) {
			if (c->tbl[i]->group != g)
				continue;
			if (first < 0) {
				first = c->tbl[i]->ctrl;
			} else if (c->tbl[i]->ctrl != first) {
				note(c, "group %d spans several controllers (%s, %s, ...): the layout balances table groups, not controllers",
				     g, c->ctrls[first].name,
				     c->ctrls[c->tbl[i]->ctrl].name);
				break;
			}
		}
	}
}

/* --groups: say where a controller is split over table groups. */
static void note_split_controllers(struct plan_ctx *c)
{
	int k, i, first;

	for (k = 0; k < c->nctrl; k++) {
		first = -1;
		for (i = 0; i < c->nmem; i++) {
			if (c->tbl[i]->ctrl != k)
				continue;
			if (first < 0) {
				first = c->tbl[i]->group;
			} else if (c->tbl[i]->group != first) {
				note(c, "controller %s is split over groups %d and %d",
				     c->ctrls[k].name, first, c->tbl[i]->group);
				break;
			}
		}
	}
}

/* The table's groups, and the members' table order. */
static enum plan_status group_members(struct plan_ctx *c,
				      struct member **order, bool *used)
{
	int i;

	for (i = 0; i < c->nmem; i++)
		order[i] = &c->mem[i];
	if (c->opt.sort)
		qsort(order, (size_t)c->nmem, sizeof(*order), member_name_cmp);
	c->groups_from_spec = c->opt.groups_arg != NULL;
	if (!c->opt.groups_arg) {
		groups_by_controller(c, order);
		return PLAN_OK;
	}
	if (spec_is_counts(c->opt.groups_arg))
		return groups_by_counts(c, order);
	return groups_by_name(c, used);
}

enum plan_status make_groups(struct plan_ctx *c)
{
	struct member **order = calloc((size_t)c->nmem, sizeof(*order));
	bool *used = calloc((size_t)c->nmem, sizeof(*used));
	enum plan_status st;
	int i;

	c->tbl = calloc((size_t)c->nmem, sizeof(*c->tbl));
	c->group_sizes = calloc((size_t)(c->nmem + 1), sizeof(*c->group_sizes));
	if (!order || !used || !c->tbl || !c->group_sizes)
		st = plan_fail(c, "out of memory");
	else
		st = group_members(c, order, used);
	free(order);
	free(used);
	if (st)
		return st;
	for (i = 0; i < c->nmem; i++)
		c->tbl[i]->index = i;
	if (c->groups_from_spec) {
		note_spanning_groups(c);
		note_split_controllers(c);
	}
	return PLAN_OK;
}
