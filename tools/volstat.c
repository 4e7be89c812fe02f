// SPDX-License-Identifier: GPL-2.0
/*
 * The table and status of an active bds-stripe volume (see volstat.h).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "assemble.h"
#include "plan.h"
#include "volstat.h"

/* 2 + groups + 2 per member + optional words, with room to spare */
#define MAX_WORDS	512
#define LINE_SZ		16384

/* Split @s (changed) at blanks into @w; returns the count, -1 if too many. */
static int split(char *s, char **w, int max)
{
	char *save = NULL, *t;
	int n = 0;

	for (t = strtok_r(s, " \t\n", &save); t;
	     t = strtok_r(NULL, " \t\n", &save)) {
		if (n == max)
			return -1;
		w[n++] = t;
	}
	return n;
}

const char *bds_vol_parse_table(const char *params, struct bds_vol *v)
{
	static char buf[LINE_SZ];
	char *w[MAX_WORDS];
	const char *err;
	u32 g, k, m = 0;
	int n, i = 2;

	v->have_table = false;
	if (strlen(params) >= sizeof(buf))
		return "the table is too long";
	strcpy(buf, params);
	n = split(buf, w, MAX_WORDS);
	if (n < 0)
		return "the table has too many words";
	err = bds_parse_table(&v->args, (unsigned int)n, w);
	if (err)
		return err;
	for (g = 0; g < v->args.nr_groups; g++) {
		i++;			/* the group's #devs */
		for (k = 0; k < v->args.group_size[g]; k++, m++, i += 2) {
			if (strlen(w[i]) >= sizeof(v->dev[m]))
				return "a member's device is not major:minor";
			strcpy(v->dev[m], w[i]);
			bds_parse_u64(w[i + 1], &v->offset[m]);
		}
	}
	v->nr_members = m;
	v->nr_slots = 0;
	for (m = 0; m < v->nr_members; m++)
		v->nr_slots += v->args.weight[m];
	v->have_table = true;
	return NULL;
}

/*
 * "0,4,1,5": a permutation of 0..N-1 into v->order and v->pos_of; with
 * weights "6,8,0,1,...": W entries, member m w_m times (pos_of: its
 * first slot).
 */
static const char *parse_order(char *s, struct bds_vol *v)
{
	const char *bad = v->nr_slots == v->nr_members ?
		"the status order is not a permutation of the members" :
		"the status order does not give each member as many slots as its weight";
	u32 seen[BDS_MAX_MEMBERS] = { 0 };
	char *save = NULL, *t;
	u32 p = 0;
	u64 m;

	for (t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (p == v->nr_slots || !bds_parse_u64(t, &m) ||
		    m >= v->nr_members || seen[m] == v->args.weight[m])
			return bad;
		if (!seen[m]++)
			v->pos_of[m] = (u16)p;
		v->order[p++] = (u8)m;
	}
	return p == v->nr_slots ? NULL : bad;
}

/* "0,0,3,0": one count per member (status field 7) into v->errors. */
static const char *parse_errors(const char *p, struct bds_vol *v)
{
	static const char *const count =
		"the status error counts are not one number per member";
	char num[24];
	size_t len;
	u32 m = 0;
	u64 x;

	for (;;) {
		len = strcspn(p, ",");
		if (!len || m == v->nr_members)
			return count;
		if (len >= sizeof(num))
			return "a status error count is not a 32-bit number";
		memcpy(num, p, len);
		num[len] = '\0';
		if (!bds_parse_u64(num, &x) || x > 0xffffffffULL)
			return "a status error count is not a 32-bit number";
		v->errors[m++] = (u32)x;
		p += len;
		if (!*p)
			break;
		p++;		/* the comma: another count follows */
	}
	return m == v->nr_members ? NULL : count;
}

const char *bds_vol_parse_status(const char *line, struct bds_vol *v)
{
	static char buf[LINE_SZ];
	const char *layout, *err;
	char *w[MAX_WORDS];
	u64 x, c[4];
	int n, i;
	u32 g, k;

	v->have_status = false;
	v->have_errors = false;
	if (!v->have_table)
		return "no table to read the status against";
	if (strlen(line) >= sizeof(buf))
		return "the status is too long";
	strcpy(buf, line);
	n = split(buf, w, MAX_WORDS);
	if (n < 5 || !bds_parse_u64(w[0], &x) || x != v->nr_members)
		return "the status does not give the table's number of members";
	if (strlen(w[1]) != v->nr_members ||
	    strspn(w[1], "AD") != v->nr_members)
		return "the status health string is not one A or D per member";
	layout = v->args.mode == BDS_LAYOUT_SEQUENTIAL ? "sequential" :
		 "interleave";
	if (strcasecmp(w[2], layout))
		return "the status layout is not the table's";
	err = parse_order(w[3], v);
	if (err)
		return err;
	/* field 7, the error counts, since target 1.3.0 */
	if (!bds_parse_u64(w[4], &x) || x != v->args.nr_groups ||
	    ((u64)n != 5 + 4 * x && (u64)n != 6 + 4 * x))
		return "the status does not give four counters per group";
	for (g = 0, i = 5; g < v->args.nr_groups; g++) {
		for (k = 0; k < 4; k++, i++)
			if (!bds_parse_u64(w[i], &c[k]))
				return "a status counter is not a number";
		v->io[g].reads = c[0];
		v->io[g].writes = c[1];
		v->io[g].read_sectors = c[2];
		v->io[g].write_sectors = c[3];
	}
	memset(v->errors, 0, sizeof(v->errors));
	if (n > i) {
		err = parse_errors(w[i], v);
		if (err)
			return err;
		v->have_errors = true;
	}
	strcpy(v->health, w[1]);
	v->have_status = true;
	return NULL;
}

bool bds_vol_dm_available(void)
{
	char line[256];
	bool found = false;
	FILE *f = fopen("/proc/misc", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = strchr(line, ' ');

		found = name && !strcmp(name + 1, "device-mapper\n");
	}
	fclose(f);
	return found;
}

static void why(struct bds_vol *v, const char *what, const char *reason)
{
	if (!v->why[0])
		snprintf(v->why, sizeof(v->why), "%s: %s", what, reason);
}

bool bds_vol_reread_status(struct bds_vol *v)
{
	static char line[LINE_SZ];
	const char *err;

	if (!bds_dm_status(v->name, line, sizeof(line))) {
		why(v, "status", "device-mapper gave none");
		v->have_status = false;
		return false;
	}
	err = bds_vol_parse_status(line, v);
	if (err)
		why(v, "status", err);
	return !err;
}

bool bds_vol_read(const char *name, struct bds_vol *v)
{
	static char line[LINE_SZ];
	struct bds_dm_info info;
	char dir[64];
	const char *err;

	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	if (!bds_dm_info(name, &info)) {
		why(v, name, "cannot talk to device-mapper");
		return false;
	}
	if (!info.exists) {
		why(v, name, "no such device-mapper device");
		return false;
	}
	snprintf(v->dm_uuid, sizeof(v->dm_uuid), "%s", info.uuid);
	snprintf(v->target, sizeof(v->target), "%s", info.target);
	v->major = info.major;
	v->minor = info.minor;
	v->open_count = info.open_count;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", v->major, v->minor);
	if (!read_u64_attr(dir, "size", &v->sectors))
		v->sectors = 0;
	if (strcmp(v->target, "bds-stripe")) {
		why(v, "table", v->target[0] ? "not a bds-stripe target" :
		    "no table is loaded");
		return true;
	}
	if (!bds_dm_table(name, line, sizeof(line))) {
		why(v, "table", "device-mapper gave none");
		return true;
	}
	err = bds_vol_parse_table(line, v);
	if (err) {
		why(v, "table", err);
		return true;
	}
	bds_vol_reread_status(v);
	return true;
}

void bds_vol_uuid(const struct bds_vol *v, char *out, size_t sz)
{
	size_t plen = strlen(BDS_DM_UUID_PREFIX);
	char u[37];

	if (v->have_table && v->args.volume_given) {
		bds_uuid_format(v->args.volume_uuid, u);
		snprintf(out, sz, "%s", u);
	} else if (!strncmp(v->dm_uuid, BDS_DM_UUID_PREFIX, plen)) {
		snprintf(out, sz, "%s", v->dm_uuid + plen);
	} else {
		snprintf(out, sz, "%s", v->dm_uuid);
	}
}

void bds_vol_errors(const struct bds_vol *v, char *buf, size_t sz)
{
	size_t len = 0;
	u32 i;

	if (sz)
		buf[0] = '\0';
	if (!v->have_status)
		return;
	for (i = 0; i < v->nr_members && len < sz; i++)
		if (v->health[i] == 'D')
			len += (size_t)snprintf(buf + len, sz - len, "%s%u",
						len ? "," : "", i);
}
