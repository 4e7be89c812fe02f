// SPDX-License-Identifier: GPL-2.0
/*
 * A bds-stripe table's words: the parser and the writer (see table.h).
 */
#include "table.h"

/* The words after "reshape": direction, checkpoint, ..., old members. */
#define BDS_RESHAPE_VALUES	6

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
		if (!strcasecmp(argv[i], "reshape")) {
			/* its words are bds_parse_reshape()'s */
			if (a->reshape_given)
				return BDS_MSG_RESHAPE_TWICE;
			if (argc - i - 1 < BDS_RESHAPE_VALUES)
				return BDS_MSG_RESHAPE_NOVALUE;
			a->reshape_given = true;
			a->reshape_at = i;
			i += BDS_RESHAPE_VALUES;
			continue;
		}
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
	/* a restripe is of a labelled volume: its labels record it */
	if (a->reshape_given && !a->volume_given)
		return BDS_MSG_RESHAPE_NOVOLUME;
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

/*
 * Digits at *@s, *@s moved past them: false if there are none.  *@v is
 * their number; *@big is set instead when it does not fit 64 bits.
 */
static bool bds_read_digits(const char **s, u64 *v, bool *big)
{
	const char *p = *s;
	u64 n = 0;

	*big = false;
	for (; *p >= '0' && *p <= '9'; p++) {
		u32 d = (u32)(*p - '0');

		if (*big || n > (~0ULL - d) / 10)
			*big = true;
		else
			n = n * 10 + d;
	}
	*v = n;
	if (p == *s)
		return false;
	*s = p;
	return true;
}

/*
 * <old_group_sizes>: as "weights", decimal numbers separated by single
 * commas, read from the left: one per old group, each at least 1, the
 * old members they add up to at most BDS_MAX_MEMBERS.
 */
static const char *bds_parse_old_groups(struct bds_reshape_args *r,
					const char *s)
{
	bool big;
	u64 v;

	for (;;) {
		if (!bds_read_digits(&s, &v, &big) || (*s && *s != ','))
			return BDS_MSG_RESHAPE_GROUPS_BAD;
		if (r->old_nr_groups == BDS_MAX_GROUPS)
			return BDS_MSG_RESHAPE_GROUPS_MANY;
		if (!big && !v)
			return BDS_MSG_RESHAPE_GROUP_EMPTY;
		if (big || v > BDS_MAX_MEMBERS - r->old_nr_members)
			return BDS_MSG_RESHAPE_GROUPS_MEMBERS;
		r->old_group_size[r->old_nr_groups++] = (u32)v;
		r->old_nr_members += (u32)v;
		if (!*s++)
			return NULL;
	}
}

/*
 * <old_members>: <index>:<offset>:<weight> per old member, separated by
 * single commas, read from the left: each entry's form, then its place
 * in the count, then its index (a table member, not listed before), its
 * offset (64 bits), its weight (1..255).
 */
static const char *bds_parse_old_members(const struct bds_args *a,
					 struct bds_reshape_args *r,
					 const char *s)
{
	u32 seen[BDS_MAX_MEMBERS / 32] = { 0 }, i, m;
	bool big_i, big_o, big_w;
	u64 idx, off, w;

	for (i = 0;; i++) {
		if (!bds_read_digits(&s, &idx, &big_i) || *s++ != ':' ||
		    !bds_read_digits(&s, &off, &big_o) || *s++ != ':' ||
		    !bds_read_digits(&s, &w, &big_w) || (*s && *s != ','))
			return BDS_MSG_RESHAPE_MEMBERS_BAD;
		if (i == r->old_nr_members)
			return BDS_MSG_RESHAPE_MEMBERS_COUNT;
		if (big_i || idx >= a->nr_members)
			return BDS_MSG_RESHAPE_MEMBER_INDEX;
		m = (u32)idx;
		if (seen[m / 32] & 1U << (m % 32))
			return BDS_MSG_RESHAPE_MEMBER_TWICE;
		if (big_o)
			return BDS_MSG_RESHAPE_MEMBER_OFFSET;
		if (big_w || !w || w > BDS_MAX_WEIGHT)
			return BDS_MSG_RESHAPE_MEMBER_WEIGHT;
		seen[m / 32] |= 1U << (m % 32);
		r->old_member[i] = (u8)m;
		r->old_offset[i] = off;
		r->old_weight[i] = (u32)w;
		if (!*s++)
			break;
	}
	return i + 1 == r->old_nr_members ? NULL : BDS_MSG_RESHAPE_MEMBERS_COUNT;
}

const char *bds_reshape_old_layout(struct bds_layout *l, u64 chunk,
				   const struct bds_reshape_args *r,
				   u32 *nr_slots)
{
	enum bds_geom_err err;

	err = bds_layout_init(l, chunk, r->old_group_size, r->old_nr_groups,
			      r->old_mode);
	if (err == BDS_OK)
		err = bds_weights_check(l, r->old_weight, nr_slots);
	switch (err) {
	case BDS_OK:
		return NULL;
	case BDS_ERR_CHUNK_ZERO:
	case BDS_ERR_CHUNK_ALIGN:
	case BDS_ERR_CHUNK_TOO_BIG:
		return bds_geom_error(err);	/* the table's own chunk */
	/* what bds_parse_reshape() refuses in the words already */
	case BDS_ERR_NO_GROUPS:
		return BDS_MSG_RESHAPE_GROUPS_BAD;
	case BDS_ERR_TOO_MANY_GROUPS:
		return BDS_MSG_RESHAPE_GROUPS_MANY;
	case BDS_ERR_EMPTY_GROUP:
		return BDS_MSG_RESHAPE_GROUP_EMPTY;
	case BDS_ERR_TOO_MANY_MEMBERS:
		return BDS_MSG_RESHAPE_GROUPS_MEMBERS;
	case BDS_ERR_BAD_MODE:
		return BDS_MSG_RESHAPE_LAYOUT;
	case BDS_ERR_WEIGHT_RANGE:
		return BDS_MSG_RESHAPE_MEMBER_WEIGHT;
	/* the old geometry's own limits */
	case BDS_ERR_WIDTH_TOO_BIG:
		return BDS_MSG_RESHAPE_OLD_WIDTH;
	case BDS_ERR_WEIGHT_SUM:
		return BDS_MSG_RESHAPE_OLD_WEIGHT_SUM;
	case BDS_ERR_WEIGHT_SEQUENTIAL:
		return BDS_MSG_RESHAPE_OLD_SEQUENTIAL;
	case BDS_ERR_CYCLE_TOO_BIG:
		return BDS_MSG_RESHAPE_OLD_CYCLE;
	}
	return bds_reshape_error(BDS_RESHAPE_ERR_LAYOUT);
}

const char *bds_parse_reshape(const struct bds_args *a, unsigned int argc,
			      char **argv, struct bds_reshape_args *r)
{
	struct bds_layout l;
	const char *msg;
	u32 nr_slots;
	char **w;

	memset(r, 0, sizeof(*r));
	if (!a->reshape_given)
		return NULL;
	if (a->reshape_at >= argc ||
	    argc - a->reshape_at - 1 < BDS_RESHAPE_VALUES)
		return BDS_MSG_RESHAPE_NOVALUE;
	w = argv + a->reshape_at + 1;
	if (!strcasecmp(w[0], "forward"))
		r->dir = BDS_RESHAPE_FORWARD;
	else if (!strcasecmp(w[0], "backward"))
		r->dir = BDS_RESHAPE_BACKWARD;
	else
		return BDS_MSG_RESHAPE_DIR;
	if (!bds_parse_u64(w[1], &r->checkpoint))
		return BDS_MSG_RESHAPE_CKPT;
	if (!bds_parse_u64(w[2], &r->new_sectors))
		return BDS_MSG_RESHAPE_NEWLEN_BAD;
	if (!r->new_sectors)
		return BDS_MSG_RESHAPE_NEWLEN_ZERO;
	msg = bds_parse_old_groups(r, w[3]);
	if (msg)
		return msg;
	if (!strcasecmp(w[4], "interleave"))
		r->old_mode = BDS_LAYOUT_INTERLEAVE;
	else if (!strcasecmp(w[4], "sequential"))
		r->old_mode = BDS_LAYOUT_SEQUENTIAL;
	else
		return BDS_MSG_RESHAPE_LAYOUT;
	msg = bds_parse_old_members(a, r, w[5]);
	if (msg)
		return msg;
	return bds_reshape_old_layout(&l, a->chunk, r, &nr_slots);
}

const char *bds_parse_message(unsigned int argc, char **argv,
			      struct bds_message *m)
{
	memset(m, 0, sizeof(*m));
	if (argc < 2 || strcasecmp(argv[0], "reshape"))
		return BDS_MSG_MESSAGE_UNKNOWN;
	if (argc == 2 && !strcasecmp(argv[1], "status")) {
		m->verb = BDS_MSG_STATUS;
		return NULL;
	}
	if (argc != 3)
		return BDS_MSG_MESSAGE_UNKNOWN;
	if (!strcasecmp(argv[1], "hold"))
		m->verb = BDS_MSG_HOLD;
	else if (!strcasecmp(argv[1], "checkpoint"))
		m->verb = BDS_MSG_CHECKPOINT;
	else
		return BDS_MSG_MESSAGE_UNKNOWN;
	return bds_parse_u64(argv[2], &m->unit) ? NULL : BDS_MSG_MESSAGE_UNIT;
}

const char *bds_reshape_check_len(const struct bds_reshape_args *r,
				  const struct bds_layout *l, u64 len)
{
	u32 m, w = 0, rem;

	for (m = 0; m < r->old_nr_members; m++)
		w += r->old_weight[m];
	/*
	 * chunk x W of the old geometry fits 32 bits even in bytes:
	 * bds_reshape_old_layout() checked it.
	 */
	if (w)
		bds_div(len, l->chunk * w, &rem);
	if (!w || !len || rem)
		return BDS_MSG_RESHAPE_LEN_OLD_CYCLE;
	bds_div(r->new_sectors, bds_cycle(l), &rem);
	if (rem)
		return BDS_MSG_RESHAPE_NEWLEN_CYCLE;
	if (r->new_sectors < len)
		return BDS_MSG_RESHAPE_SHRINK;
	if (r->checkpoint > bds_div(len, l->chunk, &rem))
		return BDS_MSG_RESHAPE_CKPT_PAST;
	return NULL;
}

const char *bds_reshape_of_table(const struct bds_reshape_args *r,
				 const struct bds_layout *l, const u64 *offset,
				 u64 len, struct bds_geom *g_new,
				 struct bds_geom *g_old,
				 struct bds_geom_slots *s_old)
{
	struct bds_reshape rs = { .old = g_old, .new = g_new, .dir = r->dir };
	struct bds_layout old;
	enum bds_reshape_err err;
	u8 id[BDS_MAX_MEMBERS];
	const char *msg;
	u32 i, w, rem;

	for (i = 0; i < l->nr_members; i++)
		id[i] = (u8)i;
	err = bds_geom_init(g_new, l, bds_div(r->new_sectors, l->chunk, &rem),
			    id, offset, l->nr_members);
	if (err)
		return bds_reshape_error(err);
	msg = bds_reshape_old_layout(&old, l->chunk, r, &w);
	if (msg)
		return msg;
	bds_layout_weigh(&old, r->old_weight, w, s_old->slot, s_old->slot_of);
	err = bds_geom_init(g_old, &old, bds_div(len, l->chunk, &rem),
			    r->old_member, r->old_offset, l->nr_members);
	if (!err)
		err = bds_reshape_check(&rs);
	if (err)
		return bds_reshape_error(err);
	if (!bds_reshape_pos_ok(&rs, r->checkpoint))
		return BDS_MSG_RESHAPE_CKPT_STATE;
	return NULL;
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
	const struct bds_reshape_args *r = a->reshape_given ? a->reshape : NULL;
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
	if (seq || a->volume_given || w || r)
		emit(buf, size, &len, " %u",
		     (seq ? 2 : 0) + (a->volume_given ? 2 : 0) + (w ? 2 : 0) +
		     (r ? BDS_RESHAPE_VALUES + 1 : 0));
	if (seq)
		emit(buf, size, &len, " layout sequential");
	if (a->volume_given) {
		bds_uuid_text(a->volume_uuid, uuid);
		emit(buf, size, &len, " volume %s", uuid);
	}
	for (m = 0; w && m < a->nr_members; m++)
		emit(buf, size, &len, "%s%u", m ? "," : " weights ", a->weight[m]);
	if (r) {
		emit(buf, size, &len, " reshape %s %llu %llu",
		     r->dir == BDS_RESHAPE_BACKWARD ? "backward" : "forward",
		     (unsigned long long)r->checkpoint,
		     (unsigned long long)r->new_sectors);
		for (g = 0; g < r->old_nr_groups; g++)
			emit(buf, size, &len, "%c%u", g ? ',' : ' ',
			     r->old_group_size[g]);
		emit(buf, size, &len, " %s",
		     r->old_mode == BDS_LAYOUT_SEQUENTIAL ? "sequential" :
		     "interleave");
		for (m = 0; m < r->old_nr_members; m++)
			emit(buf, size, &len, "%c%u:%llu:%u", m ? ',' : ' ',
			     r->old_member[m],
			     (unsigned long long)r->old_offset[m],
			     r->old_weight[m]);
	}
	return len;
}
