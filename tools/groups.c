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
		if (!strcmp(word, c->mem[i].arg) || !strcmp(word, c->mem[i].name) ||
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
		snprintf(names[i], NAME_SZ, "%s", c->ctrls[c->mem[i].ctrl].name);
	qsort(c->ctrls, (size_t)c->nctrl, sizeof(*c->ctrls), ctrl_cmp);
	for (i = 0; i < c->nmem; i++) {
		for (j = 0; j < c->nctrl; j++)
			if (!strcmp(c->ctrls[j].name, names[i]))
				c->mem[i].ctrl = j;
		c->ctrls[c->mem[i].ctrl].nmembers++;
	}
}

void make_groups(struct plan_ctx *c)
{
	struct member **order = calloc((size_t)c->nmem, sizeof(*order));
	int i, g, n = 0;

	c->tbl = calloc((size_t)c->nmem, sizeof(*c->tbl));
	c->group_sizes = calloc((size_t)(c->nmem + 1), sizeof(*c->group_sizes));
	if (!order || !c->tbl || !c->group_sizes)
		refuse(c, "out of memory");
	for (i = 0; i < c->nmem; i++)
		order[i] = &c->mem[i];
	if (c->opt.sort)
		qsort(order, (size_t)c->nmem, sizeof(*order), member_name_cmp);

	if (!c->opt.groups_arg) {
		/* one group per controller, controllers in natural order */
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
	} else if (spec_is_counts(c->opt.groups_arg)) {
		char copy[LIST_SZ], *tok, *save = NULL;
		u64 sum = 0, v;

		c->groups_from_spec = true;
		snprintf(copy, sizeof(copy), "%s", c->opt.groups_arg);
		c->ngroups = 0;
		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			if (!bds_parse_u64(tok, &v) || v > MAX_ARGS)
				refuse(c, "--groups %s: '%s' is not a member count",
				       c->opt.groups_arg, tok);
			if (c->ngroups >= c->nmem)
				refuse(c, "--groups %s: more groups than the %d devices given",
				       c->opt.groups_arg, c->nmem);
			c->group_sizes[c->ngroups++] = (u32)v;
			sum += v;
		}
		if (!c->ngroups || sum != (u64)c->nmem)
			refuse(c, "--groups %s: the counts add up to %llu, but %d devices are given",
			       c->opt.groups_arg, U(sum), c->nmem);
		for (g = 0, i = 0; g < c->ngroups; g++) {
			u32 k;

			for (k = 0; k < c->group_sizes[g]; k++, i++) {
				order[i]->group = g;
				c->tbl[n++] = order[i];
			}
		}
	} else {
		const char *p = c->opt.groups_arg;
		bool *used = calloc((size_t)c->nmem, sizeof(*used));

		if (!used)
			refuse(c, "out of memory");
		c->groups_from_spec = true;
		c->ngroups = 0;
		while (*p) {
			size_t glen = strcspn(p, ";");
			char grp[LIST_SZ], *tok, *save = NULL;

			if (glen >= sizeof(grp))
				refuse(c, "--groups: a group is too long");
			memcpy(grp, p, glen);
			grp[glen] = 0;
			if (!glen || grp[0] == ',' || grp[glen - 1] == ',' ||
			    strstr(grp, ",,"))
				refuse(c, "--groups %s: empty group or member name",
				       c->opt.groups_arg);
			if (c->ngroups >= c->nmem)
				refuse(c, "--groups %s: more groups than devices",
				       c->opt.groups_arg);
			c->group_sizes[c->ngroups] = 0;
			for (tok = strtok_r(grp, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				struct member *m = find_member(c, tok);

				if (!m)
					refuse(c, "--groups: '%s' is not one of the devices given",
					       tok);
				if (used[m - c->mem])
					refuse(c, "--groups: '%s' is listed twice", tok);
				used[m - c->mem] = true;
				m->group = c->ngroups;
				c->tbl[n++] = m;
				c->group_sizes[c->ngroups]++;
			}
			c->ngroups++;
			p += glen;
			if (*p == ';') {
				p++;
				if (!*p)
					refuse(c, "--groups %s: empty group",
					       c->opt.groups_arg);
			}
		}
		for (i = 0; i < c->nmem; i++)
			if (!used[i])
				refuse(c, "--groups: device '%s' is not in any group",
				       c->mem[i].arg);
		free(used);
	}
	free(order);
	for (i = 0; i < c->nmem; i++)
		c->tbl[i]->index = i;

	if (c->groups_from_spec) {
		/* tell when table groups and controllers do not match */
		for (g = 0; g < c->ngroups; g++) {
			int first = -1;

			for (i = 0; i < c->nmem; i++)
				if (c->tbl[i]->group == g) {
					if (first < 0)
						first = c->tbl[i]->ctrl;
					else if (c->tbl[i]->ctrl != first) {
						note(c, "group %d spans several controllers (%s, %s, ...): the layout balances table groups, not controllers",
						     g, c->ctrls[first].name,
						     c->ctrls[c->tbl[i]->ctrl].name);
						break;
					}
				}
		}
		for (int k = 0; k < c->nctrl; k++) {
			int first = -1;

			for (i = 0; i < c->nmem; i++)
				if (c->tbl[i]->ctrl == k) {
					if (first < 0)
						first = c->tbl[i]->group;
					else if (c->tbl[i]->group != first) {
						note(c, "controller %s is split over groups %d and %d",
						     c->ctrls[k].name, first,
						     c->tbl[i]->group);
						break;
					}
				}
		}
	}
}

