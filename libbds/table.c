// SPDX-License-Identifier: GPL-2.0
/*
 * A bds-stripe table's words: the parser and the writer (see table.h).
 */
#include "table.h"

bool bds_parse_u64(const char *s, u64 *out)
{
	u64 v = 0;

	if (!s || !*s)
		return false;
	for (; *s; s++) {
		u32 d;

		if (*s < '0' || *s > '9')
			return false;
		d = (u32)(*s - '0');
		if (v > (~0ULL - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

bool bds_parse_uuid(const char *s, u8 *uuid)
{
	unsigned int i, pos = 0;
	bool zero = true;

	for (i = 0; i < 16; i++) {
		int d, k, v = 0;

		if ((i == 4 || i == 6 || i == 8 || i == 10) && s[pos++] != '-')
			return false;
		for (k = 0; k < 2; k++, pos++) {
			char c = s[pos];

			if (c >= '0' && c <= '9')
				d = c - '0';
			else if (c >= 'a' && c <= 'f')
				d = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				d = c - 'A' + 10;
			else
				return false;
			v = v << 4 | d;
		}
		uuid[i] = (u8)v;
		if (v)
			zero = false;
	}
	return !s[pos] && !zero;
}

const char *bds_parse_weights(struct bds_args *a, const char *s)
{
	u32 m = 0, v = 0;
	bool digit = false;

	for (;; s++) {
		if (*s >= '0' && *s <= '9') {
			v = v * 10 + (u32)(*s - '0');
			if (v > BDS_MAX_WEIGHT)
				v = BDS_MAX_WEIGHT + 1;
			digit = true;
			continue;
		}
		if ((*s != ',' && *s) || !digit)
			return BDS_MSG_WEIGHTS_BAD;
		if (m == a->nr_members)
			return BDS_MSG_WEIGHTS_COUNT;
		a->weight[m++] = v;
		if (!*s)
			break;
		v = 0;
		digit = false;
	}
	return m == a->nr_members ? NULL : BDS_MSG_WEIGHTS_COUNT;
}

/* <#opt_args> and its words, from argv[a->opt_start] on. */
static const char *bds_parse_opt_args(struct bds_args *a, unsigned int argc,
				      char **argv)
{
	unsigned int i = a->opt_start;
	u64 nr;

	if (i == argc)
		return NULL;
	if (!bds_parse_u64(argv[i], &nr))
		return "Invalid number of optional arguments: not an unsigned decimal number";
	if (nr > argc - i - 1)
		return "Not enough optional arguments: fewer words than <#opt_args> says";
	if (nr < argc - i - 1)
		return "Unexpected words after the optional arguments";
	for (i++; i < argc; i++) {
		if (!strcasecmp(argv[i], "weights")) {
			const char *msg;

			if (a->weights_given)
				return "Optional argument 'weights' given more than once";
			if (++i == argc)
				return BDS_MSG_WEIGHTS_NOVALUE;
			msg = bds_parse_weights(a, argv[i]);
			if (msg)
				return msg;
			a->weights_given = true;
			continue;
		}
		if (!strcasecmp(argv[i], "volume")) {
			if (a->volume_given)
				return "Optional argument 'volume' given more than once";
			if (++i == argc)
				return BDS_MSG_VOLUME_NOVALUE;
			if (!bds_parse_uuid(argv[i], a->volume_uuid))
				return BDS_MSG_VOLUME_BAD;
			a->volume_given = true;
			continue;
		}
		if (strcasecmp(argv[i], "layout"))
			return BDS_MSG_OPT_UNKNOWN;
		if (a->mode_given)
			return "Optional argument 'layout' given more than once";
		if (++i == argc)
			return "Optional argument 'layout' needs a value: interleave or sequential";
		if (!strcasecmp(argv[i], "interleave"))
			a->mode = BDS_LAYOUT_INTERLEAVE;
		else if (!strcasecmp(argv[i], "sequential"))
			a->mode = BDS_LAYOUT_SEQUENTIAL;
		else
			return "Invalid layout: accepted values are interleave and sequential";
		a->mode_given = true;
	}
	return NULL;
}

const char *bds_parse_table(struct bds_args *a, unsigned int argc,
			    char **argv)
{
	unsigned int i = 2, g, d, total = 0;
	u64 nr, offset;

	*a = (struct bds_args){ .mode = BDS_LAYOUT_INTERLEAVE };
	if (argc < 2)
		return "Not enough arguments: expected <chunk_sectors> <#groups> <group>...";
	if (!bds_parse_u64(argv[0], &a->chunk))
		return "Invalid chunk size: not an unsigned decimal number of sectors";
	if (!bds_parse_u64(argv[1], &nr))
		return "Invalid number of groups: not an unsigned decimal number";
	if (!nr)
		return bds_geom_error(BDS_ERR_NO_GROUPS);
	if (nr > BDS_MAX_GROUPS)
		return bds_geom_error(BDS_ERR_TOO_MANY_GROUPS);
	a->nr_groups = (u32)nr;
	a->first_member = i + 1;

	for (g = 0; g < a->nr_groups; g++) {
		if (i >= argc)
			return "Not enough arguments: fewer groups than <#groups> says";
		if (!bds_parse_u64(argv[i], &nr))
			return "Invalid #devs of a group: not an unsigned decimal number";
		if (!nr)
			return bds_geom_error(BDS_ERR_EMPTY_GROUP);
		if (nr > BDS_MAX_MEMBERS - total)
			return bds_geom_error(BDS_ERR_TOO_MANY_MEMBERS);
		if (nr * 2 > argc - i - 1)
			return BDS_MSG_GROUP_SHORT;
		a->group_size[g] = (u32)nr;
		total += (u32)nr;
		a->nr_members = total;
		for (i++, d = 0; d < nr; d++, i += 2) {
			if (!bds_parse_u64(argv[i + 1], &offset))
				return BDS_MSG_BAD_OFFSET;
		}
	}
	a->opt_start = i;
	for (d = 0; d < total; d++)
		a->weight[d] = 1;
	return bds_parse_opt_args(a, argc, argv);
}

void bds_uuid_text(const u8 *u, char *out)
{
	static const char hex[] = "0123456789abcdef";
	int i, o = 0;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = hex[u[i] >> 4];
		out[o++] = hex[u[i] & 15];
	}
	out[o] = '\0';
}

/* snprintf() onto the end of what @buf (@size bytes) holds, @*len so far. */
static void emit(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__printf(4, 5);

static void emit(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(*len < size ? buf + *len : NULL,
		      *len < size ? size - *len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

static bool weighted(const struct bds_args *a)
{
	u32 m;

	for (m = 0; m < a->nr_members; m++)
		if (a->weight[m] != 1)
			return true;
	return false;
}

size_t bds_table_write(char *buf, size_t size, const struct bds_args *a,
		       const struct bds_table_members *mb)
{
	bool seq = a->mode != BDS_LAYOUT_INTERLEAVE, w = weighted(a);
	char uuid[BDS_UUID_TEXT];
	size_t len = 0;
	u32 g, d, m = 0;

	if (size)
		buf[0] = '\0';
	emit(buf, size, &len, "%llu %u", (unsigned long long)a->chunk,
	     a->nr_groups);
	for (g = 0; g < a->nr_groups; g++) {
		emit(buf, size, &len, " %u", a->group_size[g]);
		for (d = 0; d < a->group_size[g]; d++, m++)
			emit(buf, size, &len, " %s %llu", mb->dev(mb->ctx, m),
			     (unsigned long long)mb->offset(mb->ctx, m));
	}
	if (seq || a->volume_given || w)
		emit(buf, size, &len, " %u",
		     (seq ? 2 : 0) + (a->volume_given ? 2 : 0) + (w ? 2 : 0));
	if (seq)
		emit(buf, size, &len, " layout sequential");
	if (a->volume_given) {
		bds_uuid_text(a->volume_uuid, uuid);
		emit(buf, size, &len, " volume %s", uuid);
	}
	for (m = 0; w && m < a->nr_members; m++)
		emit(buf, size, &len, "%s%u", m ? "," : " weights ", a->weight[m]);
	return len;
}
