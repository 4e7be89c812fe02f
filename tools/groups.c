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

u32 *group_sizes;
int ngroups;
bool groups_from_spec;

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

static struct member *find_member(const char *word)
{
	int i;

	for (i = 0; i < nmem; i++)
		if (!strcmp(word, mem[i].arg) || !strcmp(word, mem[i].name) ||
		    !strcmp(base_name(word), mem[i].name))
			return &mem[i];
	return NULL;
}

bool spec_is_counts(const char *spec)
{
	return strspn(spec, "0123456789,") == strlen(spec);
}

/* Sort controllers by name and renumber the members' references. */
void sort_controllers(void)
{
	char names[MAX_ARGS][NAME_SZ];
	int i, j;

	for (i = 0; i < nmem; i++)
		snprintf(names[i], NAME_SZ, "%s", ctrls[mem[i].ctrl].name);
	qsort(ctrls, (size_t)nctrl, sizeof(*ctrls), ctrl_cmp);
	for (i = 0; i < nmem; i++) {
		for (j = 0; j < nctrl; j++)
			if (!strcmp(ctrls[j].name, names[i]))
				mem[i].ctrl = j;
		ctrls[mem[i].ctrl].nmembers++;
	}
}

void make_groups(void)
{
	struct member **order = calloc((size_t)nmem, sizeof(*order));
	int i, g, n = 0;

	tbl = calloc((size_t)nmem, sizeof(*tbl));
	group_sizes = calloc((size_t)(nmem + 1), sizeof(*group_sizes));
	if (!order || !tbl || !group_sizes)
		refuse("out of memory");
	for (i = 0; i < nmem; i++)
		order[i] = &mem[i];
	if (opt.sort)
		qsort(order, (size_t)nmem, sizeof(*order), member_name_cmp);

	if (!opt.groups_arg) {
		/* one group per controller, controllers in natural order */
		for (g = 0; g < nctrl; g++) {
			group_sizes[g] = 0;
			for (i = 0; i < nmem; i++)
				if (order[i]->ctrl == g) {
					order[i]->group = g;
					tbl[n++] = order[i];
					group_sizes[g]++;
				}
		}
		ngroups = nctrl;
	} else if (spec_is_counts(opt.groups_arg)) {
		char copy[LIST_SZ], *tok, *save = NULL;
		u64 sum = 0, v;

		groups_from_spec = true;
		snprintf(copy, sizeof(copy), "%s", opt.groups_arg);
		ngroups = 0;
		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			if (!bds_parse_u64(tok, &v) || v > MAX_ARGS)
				refuse("--groups %s: '%s' is not a member count",
				       opt.groups_arg, tok);
			if (ngroups >= nmem)
				refuse("--groups %s: more groups than the %d devices given",
				       opt.groups_arg, nmem);
			group_sizes[ngroups++] = (u32)v;
			sum += v;
		}
		if (!ngroups || sum != (u64)nmem)
			refuse("--groups %s: the counts add up to %llu, but %d devices are given",
			       opt.groups_arg, U(sum), nmem);
		for (g = 0, i = 0; g < ngroups; g++) {
			u32 k;

			for (k = 0; k < group_sizes[g]; k++, i++) {
				order[i]->group = g;
				tbl[n++] = order[i];
			}
		}
	} else {
		const char *p = opt.groups_arg;
		bool *used = calloc((size_t)nmem, sizeof(*used));

		if (!used)
			refuse("out of memory");
		groups_from_spec = true;
		ngroups = 0;
		while (*p) {
			size_t glen = strcspn(p, ";");
			char grp[LIST_SZ], *tok, *save = NULL;

			if (glen >= sizeof(grp))
				refuse("--groups: a group is too long");
			memcpy(grp, p, glen);
			grp[glen] = 0;
			if (!glen || grp[0] == ',' || grp[glen - 1] == ',' ||
			    strstr(grp, ",,"))
				refuse("--groups %s: empty group or member name",
				       opt.groups_arg);
			if (ngroups >= nmem)
				refuse("--groups %s: more groups than devices",
				       opt.groups_arg);
			group_sizes[ngroups] = 0;
			for (tok = strtok_r(grp, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				struct member *m = find_member(tok);

				if (!m)
					refuse("--groups: '%s' is not one of the devices given",
					       tok);
				if (used[m - mem])
					refuse("--groups: '%s' is listed twice", tok);
				used[m - mem] = true;
				m->group = ngroups;
				tbl[n++] = m;
				group_sizes[ngroups]++;
			}
			ngroups++;
			p += glen;
			if (*p == ';') {
				p++;
				if (!*p)
					refuse("--groups %s: empty group",
					       opt.groups_arg);
			}
		}
		for (i = 0; i < nmem; i++)
			if (!used[i])
				refuse("--groups: device '%s' is not in any group",
				       mem[i].arg);
		free(used);
	}
	free(order);
	for (i = 0; i < nmem; i++)
		tbl[i]->index = i;

	if (groups_from_spec) {
		/* tell when table groups and controllers do not match */
		for (g = 0; g < ngroups; g++) {
			int first = -1;

			for (i = 0; i < nmem; i++)
				if (tbl[i]->group == g) {
					if (first < 0)
						first = tbl[i]->ctrl;
					else if (tbl[i]->ctrl != first) {
						note("group %d spans several controllers (%s, %s, ...): the layout balances table groups, not controllers",
						     g, ctrls[first].name,
						     ctrls[tbl[i]->ctrl].name);
						break;
					}
				}
		}
		for (int c = 0; c < nctrl; c++) {
			int first = -1;

			for (i = 0; i < nmem; i++)
				if (tbl[i]->ctrl == c) {
					if (first < 0)
						first = tbl[i]->group;
					else if (tbl[i]->group != first) {
						note("controller %s is split over groups %d and %d",
						     ctrls[c].name, first,
						     tbl[i]->group);
						break;
					}
				}
		}
	}
}

