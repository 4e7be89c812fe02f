// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a bds-stripe table line.
 *
 * The input is split into words at blanks, as device-mapper splits a
 * table's parameters.  It is either the target's parameters alone
 *
 *   <chunk> <#groups> <group>... [<#opt> <word>...]
 *
 * or a whole "dmsetup table" line "<start> <length> bds-stripe <params>",
 * in which case <length> is the target length (otherwise a length of
 * whole stripes is derived from the input).  Member paths are arbitrary
 * words: no device is opened.
 *
 * Each table goes through two parsers that must agree word for word:
 *  - the kernel's own bds_parse_table() from libbds/table.c, the very
 *    code the target's constructor runs;
 *  - model_parse() below, written from Documentation/bds-stripe.rst,
 *    applying the kernel's checks in the same order.
 * Then, as bds_ctr() does, bds_layout_init() and bds_member_len(); a
 * refused geometry must leave the layout untouched, an accepted one must
 * pass the checks of fuzz-check.h.
 *
 * A table with "reshape" (a restripe's) also goes through the kernel's
 * second pass, bds_parse_reshape(), and model_reshape() below, which must
 * agree on the reason or on every value; its old geometry, built by
 * bds_reshape_old_layout(), passes the same checks as the new one; with
 * a length given, bds_reshape_check_len() and model_reshape_len() must
 * agree, and the old length maps through the old geometry.
 *
 * Every accepted table is written back by bds_table_write() and parsed
 * again: the same values, and written again the same text.  Any
 * disagreement calls abort().
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include <errno.h>

#include "libbds/layout.h"
#include "libbds/table.h"
#include "fuzz-check.h"

/* A table line in dm is limited by the ioctl buffer; keep ours small. */
#define MAX_WORDS	1024
#define MAX_INPUT	8192

struct model_args {
	u64 chunk;
	u32 nr_groups;
	u32 group_size[BDS_MAX_GROUPS];
	u32 mode;
	bool volume_given;
	u8 volume_uuid[16];
	bool weights_given;
	u32 weight[BDS_MAX_MEMBERS];
	unsigned int first_member;
	unsigned int opt_start;
	bool reshape_given;
	unsigned int reshape_at;
	u32 nr_members;
};

/* The values of "reshape", as the documentation gives them. */
struct model_reshape {
	u32 dir;			/* 0 forward, 1 backward */
	u64 checkpoint;
	u64 new_sectors;
	u32 nr_groups;
	u32 group_size[BDS_MAX_GROUPS];
	u32 mode;
	u32 nr_members;
	u32 member[BDS_MAX_MEMBERS];
	u64 offset[BDS_MAX_MEMBERS];
	u32 weight[BDS_MAX_MEMBERS];
};

/* Documentation "Errors", the table-shape reasons. */
#define E_NOT_ENOUGH	"Not enough arguments: expected <chunk_sectors> <#groups> <group>..."
#define E_CHUNK_NUM	"Invalid chunk size: not an unsigned decimal number of sectors"
#define E_GROUPS_NUM	"Invalid number of groups: not an unsigned decimal number"
#define E_FEW_GROUPS	"Not enough arguments: fewer groups than <#groups> says"
#define E_DEVS_NUM	"Invalid #devs of a group: not an unsigned decimal number"
#define E_FEW_MEMBERS	"Not enough arguments: a group lists fewer members than its #devs says"
#define E_OFFSET_NUM	"Invalid member offset: not an unsigned decimal number of sectors"
#define E_OPT_NUM	"Invalid number of optional arguments: not an unsigned decimal number"
#define E_OPT_FEW	"Not enough optional arguments: fewer words than <#opt_args> says"
#define E_OPT_MANY	"Unexpected words after the optional arguments"
#define E_OPT_UNKNOWN	"Unknown optional argument: accepted are 'layout <interleave|sequential>', 'volume <uuid>', 'weights <w0,w1,...>' and 'reshape ...'"
#define E_W_TWICE	"Optional argument 'weights' given more than once"
#define E_W_NOVALUE	"Optional argument 'weights' needs a value: one weight per member, comma-separated"
#define E_W_BAD		"Invalid weights: expected unsigned decimal numbers separated by single commas"
#define E_W_COUNT	"Invalid weights: the list must give exactly one weight per member"
#define E_VOL_TWICE	"Optional argument 'volume' given more than once"
#define E_VOL_NOVALUE	"Optional argument 'volume' needs a value: the volume's UUID"
#define E_VOL_BAD	"Invalid volume UUID: expected 8-4-4-4-12 hex digits, not all zero"
#define E_OPT_TWICE	"Optional argument 'layout' given more than once"
#define E_OPT_NOVALUE	"Optional argument 'layout' needs a value: interleave or sequential"
#define E_OPT_BADVALUE	"Invalid layout: accepted values are interleave and sequential"
#define E_R_NOVALUE	"Optional argument 'reshape' needs 6 values: <forward|backward> <checkpoint_units> <new_sectors> <old_group_sizes> <old_layout> <old_members>"
#define E_R_TWICE	"Optional argument 'reshape' given more than once"
#define E_R_NOVOLUME	"Optional argument 'reshape' needs 'volume <uuid>': only a labelled volume is restriped"
#define E_R_DIR		"Invalid restripe direction: accepted values are forward and backward"
#define E_R_CKPT	"Invalid restripe checkpoint: not an unsigned decimal number of stripe units"
#define E_R_NEW_NUM	"Invalid restripe new length: not an unsigned decimal number of sectors"
#define E_R_NEW_ZERO	"Invalid restripe new length: must be greater than 0"
#define E_R_G_BAD	"Invalid restripe old group sizes: expected unsigned decimal numbers separated by single commas"
#define E_R_G_MANY	"Invalid restripe old group sizes: at most 32 groups are supported"
#define E_R_G_EMPTY	"Invalid restripe old group size: each group must have at least 1 member"
#define E_R_G_MEMBERS	"Invalid restripe old group sizes: at most 128 members are supported"
#define E_R_LAYOUT	"Invalid restripe old layout: accepted values are interleave and sequential"
#define E_R_M_BAD	"Invalid restripe old members: expected <index>:<offset>:<weight> entries separated by single commas"
#define E_R_M_COUNT	"Invalid restripe old members: the list must give exactly one entry per old member (the sum of the old group sizes)"
#define E_R_M_INDEX	"Invalid restripe old member: its index is not a member of the table"
#define E_R_M_TWICE	"Invalid restripe old members: a table member is listed more than once"
#define E_R_M_OFFSET	"Invalid restripe old member: its offset does not fit 64 bits"
#define E_R_M_WEIGHT	"Invalid restripe old member: its weight must be 1 to 255"
#define E_R_OLD_WIDTH	"Old stripe width too large: chunk x old members in bytes exceeds 32 bits"
#define E_R_OLD_SUM	"Old weights too large: their sum must be at most 1024"
#define E_R_OLD_SEQ	"Old weights need old layout interleave: sequential gives equal shares"
#define E_R_OLD_CYCLE	"Old weighted cycle too large: chunk x sum of old weights in bytes exceeds 32 bits"
#define E_R_LEN_OLD	"Target length is not a multiple of the old cycle (chunk x sum of old weights)"
#define E_R_LEN_NEW	"Restripe new length is not a multiple of the cycle (chunk x sum of weights)"
#define E_R_SHRINK	"Restripe new length is below the target length: a restripe never shrinks a volume"
#define E_R_CKPT_PAST	"Invalid restripe checkpoint: beyond the stripe units of the target length"

/* ASCII case-insensitive comparison, as the kernel's strcasecmp(). */
static bool word_is(const char *w, const char *lower)
{
	for (; *w && *lower; w++, lower++) {
		char c = *w;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != *lower)
			return false;
	}
	return !*w && !*lower;
}

/* The target's messages (Documentation/bds-stripe.rst, Messages). */
#define E_M_UNKNOWN	"Unknown message: accepted are 'reshape hold <unit>', 'reshape checkpoint <unit>' and 'reshape status'"
#define E_M_UNIT	"Message's stripe unit is not a decimal number"

/*
 * The documented message syntax, against bds_parse_message(): the same
 * verdict and reason, and for an accepted message the same verb and unit.
 */
static void check_message(unsigned int argc, char **argv)
{
	struct bds_message m;
	const char *kerr, *merr = NULL;
	int verb = -1;
	u64 unit = 0;
	const char *d;

	if (argc == 2 && word_is(argv[0], "reshape") && word_is(argv[1], "status")) {
		verb = BDS_MSG_STATUS;
	} else if (argc == 3 && word_is(argv[0], "reshape") &&
		   (word_is(argv[1], "hold") || word_is(argv[1], "checkpoint"))) {
		verb = word_is(argv[1], "hold") ? BDS_MSG_HOLD : BDS_MSG_CHECKPOINT;
		for (d = argv[2]; *d && !merr; d++) {
			if (*d < '0' || *d > '9' ||
			    unit > (~0ULL - (u64)(*d - '0')) / 10)
				merr = E_M_UNIT;
			else
				unit = unit * 10 + (u64)(*d - '0');
		}
	} else {
		merr = E_M_UNKNOWN;
	}
	kerr = bds_parse_message(argc, argv, &m);
	FUZZ_CHECK((kerr == NULL) == (merr == NULL) &&
		   (!kerr || !strcmp(kerr, merr)),
		   "message: parser '%s', model '%s'", kerr ? kerr : "accepts",
		   merr ? merr : "accepts");
	if (!kerr)
		FUZZ_CHECK((int)m.verb == verb && m.unit == unit,
			   "message: parser verb %d unit %llu, model %d %llu",
			   (int)m.verb, (unsigned long long)m.unit, verb,
			   (unsigned long long)unit);
}

/* A hex digit's value, or -1. */
static int hex_digit(char c)
{
	static const char digits[] = "0123456789abcdef";
	const char *p;

	if (c >= 'A' && c <= 'F')
		c = (char)(c - 'A' + 'a');
	p = c ? strchr(digits, c) : NULL;
	return p ? (int)(p - digits) : -1;
}

/* The documentation's UUID: 36 characters, dashes at 8, 13, 18, 23. */
static bool model_uuid(const char *w, u8 *out)
{
	unsigned int i, n = 0, nonzero = 0;

	if (strlen(w) != 36)
		return false;
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (w[i] != '-')
				return false;
			continue;
		}
		if (hex_digit(w[i]) < 0)
			return false;
		if (n % 2 == 0)
			out[n / 2] = (u8)(hex_digit(w[i]) << 4);
		else
			out[n / 2] |= (u8)hex_digit(w[i]);
		nonzero |= (unsigned int)hex_digit(w[i]);
		n++;
	}
	return nonzero != 0;
}

/*
 * "weights": the list cut at commas; read from the left, the first
 * element that is not a number (empty, or any character but a digit)
 * is refused as such, the first one past the member count as too many;
 * a short list gives too few.  A number above 255 stays above it.
 */
static const char *model_weights(struct model_args *a, const char *list,
				 unsigned int total)
{
	unsigned int k = 0;
	const char *e;

	for (;;) {
		size_t len;
		u32 v = 0;

		e = strchr(list, ',');
		len = e ? (size_t)(e - list) : strlen(list);
		if (!len || strspn(list, "0123456789") < len)
			return E_W_BAD;
		if (k == total)
			return E_W_COUNT;
		for (size_t c = 0; c < len; c++) {
			v = v * 10 + (u32)(list[c] - '0');
			if (v > 255)
				v = 256;
		}
		a->weight[k++] = v;
		if (!e)
			break;
		list = e + 1;
	}
	return k == total ? NULL : E_W_COUNT;
}

/*
 * The table shape, written from the documentation.  Returns NULL when
 * accepted, else the reason.  Only numbers are checked here; the
 * geometry (chunk alignment, member count, width) is bds_layout_init's.
 */
static const char *model_parse(struct model_args *a, unsigned int argc,
			       char **argv)
{
	unsigned int i, g, d, total = 0, left, nopt;
	u64 v;

	memset(a, 0, sizeof(*a));
	if (argc < 2)
		return E_NOT_ENOUGH;
	if (!bds_parse_u64(argv[0], &a->chunk))
		return E_CHUNK_NUM;
	if (!bds_parse_u64(argv[1], &v))
		return E_GROUPS_NUM;
	if (v == 0)
		return bds_geom_error(BDS_ERR_NO_GROUPS);
	if (v > 32)
		return bds_geom_error(BDS_ERR_TOO_MANY_GROUPS);
	a->nr_groups = (u32)v;
	a->first_member = 3;

	i = 2;
	for (g = 0; g < a->nr_groups; g++) {
		if (i >= argc)
			return E_FEW_GROUPS;
		if (!bds_parse_u64(argv[i], &v))
			return E_DEVS_NUM;
		if (v == 0)
			return bds_geom_error(BDS_ERR_EMPTY_GROUP);
		if (v > 128 - total)
			return bds_geom_error(BDS_ERR_TOO_MANY_MEMBERS);
		/* words left after #devs: a path and an offset per member */
		left = argc - i - 1;
		if (v > left / 2)
			return E_FEW_MEMBERS;
		a->group_size[g] = (u32)v;
		total += (u32)v;
		i++;
		for (d = 0; d < a->group_size[g]; d++, i += 2) {
			u64 off;

			if (!bds_parse_u64(argv[i + 1], &off))
				return E_OFFSET_NUM;
		}
	}
	a->opt_start = i;
	a->nr_members = total;
	for (d = 0; d < total; d++)
		a->weight[d] = 1;

	if (i == argc)
		return NULL;
	if (!bds_parse_u64(argv[i], &v))
		return E_OPT_NUM;
	left = argc - i - 1;
	if (v > left)
		return E_OPT_FEW;
	if (v < left)
		return E_OPT_MANY;
	nopt = (unsigned int)v;
	{
		bool given = false;
		unsigned int o;

		for (o = 0; o < nopt; o++) {
			const char *w = argv[i + 1 + o];

			/* "reshape" and the 6 words after it, whatever they are */
			if (word_is(w, "reshape")) {
				if (a->reshape_given)
					return E_R_TWICE;
				if (nopt - o - 1 < 6)
					return E_R_NOVALUE;
				a->reshape_given = true;
				a->reshape_at = i + 1 + o;
				o += 6;
				continue;
			}
			if (word_is(w, "weights")) {
				const char *e;

				if (a->weights_given)
					return E_W_TWICE;
				if (++o == nopt)
					return E_W_NOVALUE;
				e = model_weights(a, argv[i + 1 + o], total);
				if (e)
					return e;
				a->weights_given = true;
				continue;
			}
			if (word_is(w, "volume")) {
				if (a->volume_given)
					return E_VOL_TWICE;
				if (++o == nopt)
					return E_VOL_NOVALUE;
				if (!model_uuid(argv[i + 1 + o], a->volume_uuid))
					return E_VOL_BAD;
				a->volume_given = true;
				continue;
			}
			if (!word_is(w, "layout"))
				return E_OPT_UNKNOWN;
			if (given)
				return E_OPT_TWICE;
			if (++o == nopt)
				return E_OPT_NOVALUE;
			w = argv[i + 1 + o];
			if (word_is(w, "interleave"))
				a->mode = BDS_LAYOUT_INTERLEAVE;
			else if (word_is(w, "sequential"))
				a->mode = BDS_LAYOUT_SEQUENTIAL;
			else
				return E_OPT_BADVALUE;
			given = true;
		}
	}
	if (a->reshape_given && !a->volume_given)
		return E_R_NOVOLUME;
	return NULL;
}

/*
 * One decimal field, @len characters at @p: false if it is empty or
 * holds anything but digits; *@over when its value does not fit 64 bits.
 */
static bool model_number(const char *p, size_t len, u64 *v, bool *over)
{
	size_t c;

	if (!len || strspn(p, "0123456789") < len)
		return false;
	*v = 0;
	*over = false;
	for (c = 0; c < len; c++) {
		unsigned int d = (unsigned int)(p[c] - '0');

		if (*v > (UINT64_MAX - d) / 10)
			*over = true;
		if (!*over)
			*v = *v * 10 + d;
	}
	return true;
}

/* The length of the comma-separated element at @p. */
static size_t element_len(const char *p)
{
	const char *e = strchr(p, ',');

	return e ? (size_t)(e - p) : strlen(p);
}

/*
 * "<old_group_sizes>", from the documentation: elements cut at commas,
 * read from the left; the first that is not a number is refused as
 * such, then a 33rd group, a group of 0, a running sum above 128.
 */
static const char *model_old_groups(struct model_reshape *r, const char *p)
{
	for (;;) {
		size_t len = element_len(p);
		bool over;
		u64 v;

		if (!model_number(p, len, &v, &over))
			return E_R_G_BAD;
		if (r->nr_groups == 32)
			return E_R_G_MANY;
		if (!over && v == 0)
			return E_R_G_EMPTY;
		if (over || r->nr_members + v > 128)
			return E_R_G_MEMBERS;
		r->group_size[r->nr_groups++] = (u32)v;
		r->nr_members += (u32)v;
		if (!p[len])
			return NULL;
		p += len + 1;
	}
}

/*
 * "<old_members>": entries cut at commas, each cut at colons into
 * exactly three numbers; read from the left, an entry's form, then one
 * entry too many, then its index (below the table's members, not seen
 * before), its offset (64 bits), its weight (1..255); in the end, too
 * few entries.
 */
static const char *model_old_members(const struct model_args *a,
				     struct model_reshape *r, const char *p)
{
	bool seen[BDS_MAX_MEMBERS] = { false };
	u32 k = 0;

	for (;;) {
		size_t len = element_len(p), f1, f2;
		const char *c1, *c2;
		bool oi, oo, ow;
		u64 idx, off, w;

		c1 = memchr(p, ':', len);
		c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - p)) : NULL;
		if (!c2 || memchr(c2 + 1, ':', len - (size_t)(c2 + 1 - p)))
			return E_R_M_BAD;
		f1 = (size_t)(c1 - p);
		f2 = (size_t)(c2 - c1 - 1);
		if (!model_number(p, f1, &idx, &oi) ||
		    !model_number(c1 + 1, f2, &off, &oo) ||
		    !model_number(c2 + 1, len - f1 - f2 - 2, &w, &ow))
			return E_R_M_BAD;
		if (k == r->nr_members)
			return E_R_M_COUNT;
		if (oi || idx >= a->nr_members)
			return E_R_M_INDEX;
		if (seen[idx])
			return E_R_M_TWICE;
		if (oo)
			return E_R_M_OFFSET;
		if (ow || w < 1 || w > 255)
			return E_R_M_WEIGHT;
		seen[idx] = true;
		r->member[k] = (u32)idx;
		r->offset[k] = off;
		r->weight[k] = (u32)w;
		k++;
		if (!p[len])
			break;
		p += len + 1;
	}
	return k == r->nr_members ? NULL : E_R_M_COUNT;
}

static enum bds_geom_err model_weights_geom(const struct bds_layout *l,
					    const u32 *w, u32 n);

/*
 * The second pass: the 6 values of "reshape", in their order, then the
 * old geometry as the documentation's limits have it (a chunk refused as
 * the table's, the rest with the old geometry's reasons).
 */
static const char *model_reshape(const struct model_args *a, char **argv,
				 struct model_reshape *r)
{
	char **w = argv + a->reshape_at + 1;
	struct bds_layout fake;
	enum bds_geom_err e;
	const char *msg;
	bool over;

	memset(r, 0, sizeof(*r));
	if (word_is(w[0], "forward"))
		r->dir = 0;
	else if (word_is(w[0], "backward"))
		r->dir = 1;
	else
		return E_R_DIR;
	if (!model_number(w[1], strlen(w[1]), &r->checkpoint, &over) || over)
		return E_R_CKPT;
	if (!model_number(w[2], strlen(w[2]), &r->new_sectors, &over) || over)
		return E_R_NEW_NUM;
	if (r->new_sectors == 0)
		return E_R_NEW_ZERO;
	msg = model_old_groups(r, w[3]);
	if (msg)
		return msg;
	if (word_is(w[4], "interleave"))
		r->mode = 0;
	else if (word_is(w[4], "sequential"))
		r->mode = 1;
	else
		return E_R_LAYOUT;
	msg = model_old_members(a, r, w[5]);
	if (msg)
		return msg;

	e = fuzz_expected_geom(a->chunk, r->group_size, r->nr_groups, r->mode);
	if (e == BDS_OK) {
		fake.chunk = (u32)a->chunk;
		fake.mode = (enum bds_order_mode)r->mode;
		e = model_weights_geom(&fake, r->weight, r->nr_members);
	}
	switch (e) {
	case BDS_OK:
		return NULL;
	case BDS_ERR_CHUNK_ZERO:
	case BDS_ERR_CHUNK_ALIGN:
	case BDS_ERR_CHUNK_TOO_BIG:
		return bds_geom_error(e);
	case BDS_ERR_WIDTH_TOO_BIG:
		return E_R_OLD_WIDTH;
	case BDS_ERR_WEIGHT_SUM:
		return E_R_OLD_SUM;
	case BDS_ERR_WEIGHT_SEQUENTIAL:
		return E_R_OLD_SEQ;
	case BDS_ERR_CYCLE_TOO_BIG:
		return E_R_OLD_CYCLE;
	default:
		return "model: the words let through an impossible old geometry";
	}
}

/*
 * The lengths, from the documentation: <length> whole old cycles (chunk
 * x sum of the old weights), <new_sectors> whole cycles of the table's
 * weights and not below <length>, the checkpoint at most <length> /
 * chunk.
 */
static const char *model_reshape_len(const struct model_args *a,
				     const struct model_reshape *r, u64 len)
{
	u64 wo = 0, wn = 0;
	u32 m;

	for (m = 0; m < r->nr_members; m++)
		wo += r->weight[m];
	for (m = 0; m < a->nr_members; m++)
		wn += a->weight[m];
	if (len == 0 || len % (a->chunk * wo))
		return E_R_LEN_OLD;
	if (r->new_sectors % (a->chunk * wn))
		return E_R_LEN_NEW;
	if (r->new_sectors < len)
		return E_R_SHRINK;
	if (r->checkpoint > len / a->chunk)
		return E_R_CKPT_PAST;
	return NULL;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' ||
	       c == '\f' || c == '\r' || c == '\0';
}

static int verbose = -1;	/* BDS_FUZZ_VERBOSE set: print the verdict */
static struct bds_slot slots[BDS_MAX_SLOTS];
static u16 slot_of[BDS_MAX_SLOTS];

/*
 * The weights' checks, from the documentation ("Parameters", "Limits"):
 * each 1..255, their sum W at most 1024, none but 1 with the sequential
 * layout, and chunk x W bytes within 32 bits, in that order.
 */
static enum bds_geom_err model_weights_geom(const struct bds_layout *l,
					    const u32 *w, u32 n)
{
	u64 sum = 0;
	u32 m;

	for (m = 0; m < n; m++) {
		if (w[m] < 1 || w[m] > 255)
			return BDS_ERR_WEIGHT_RANGE;
		sum += w[m];
	}
	if (sum > 1024)
		return BDS_ERR_WEIGHT_SUM;
	if (sum != n && l->mode == BDS_LAYOUT_SEQUENTIAL)
		return BDS_ERR_WEIGHT_SEQUENTIAL;
	if ((u64)l->chunk * 512 * sum > 0xffffffffULL)
		return BDS_ERR_CYCLE_TOO_BIG;
	return BDS_OK;
}

/*
 * A weighted layout's slots: W of them, member m in exactly w_m, and
 * all weights 1 the layout without weights.
 */
static void fuzz_check_slots(const struct bds_layout *l, const u32 *w,
			     u32 nr_slots)
{
	u32 cnt[BDS_MAX_MEMBERS] = { 0 }, s, m;

	FUZZ_CHECK(l->nr_slots == nr_slots, "nr_slots %u, W %u", l->nr_slots,
		   nr_slots);
	FUZZ_CHECK(!l->slot == (nr_slots == l->nr_members),
		   "slot table %s with W %u, N %u", l->slot ? "set" : "unset",
		   nr_slots, l->nr_members);
	for (s = 0; s < nr_slots; s++) {
		m = bds_slot_member(l, s);
		FUZZ_CHECK(m < l->nr_members, "slot %u: member %u", s, m);
		cnt[m]++;
	}
	for (m = 0; m < l->nr_members; m++)
		FUZZ_CHECK(cnt[m] == w[m] && bds_weight(l, m) == w[m],
			   "member %u: %u slots, weight %u", m, cnt[m], w[m]);
}

/* The words of a written table, split again, and its members' words. */
static char out[2 * MAX_INPUT + 64], again[2 * MAX_INPUT + 64];
static char *out_words[MAX_WORDS];
static const char *member_dev[BDS_MAX_MEMBERS];
static u64 member_off[BDS_MAX_MEMBERS];

static const char *fuzz_dev(const void *ctx, u32 m)
{
	(void)ctx;
	return member_dev[m];
}

static u64 fuzz_offset(const void *ctx, u32 m)
{
	(void)ctx;
	return member_off[m];
}

/*
 * Write the accepted table @ka (its restripe @kr when given) and parse
 * the text again: the same values, the same member words, and the same
 * text written again.
 */
static void check_round_trip(const struct bds_args *ka,
			     const struct bds_reshape_args *kr, char **argv)
{
	static struct bds_reshape_args r2;
	const struct bds_table_members mb = { fuzz_dev, fuzz_offset, NULL };
	struct bds_args a = *ka, a2;
	unsigned int n = 0, g, d, i, m = 0;
	const char *err;
	size_t len, len2;
	char *p, *save;
	u64 off;

	for (g = 0, i = ka->first_member; g < ka->nr_groups; g++, i++)
		for (d = 0; d < ka->group_size[g]; d++, m++, i += 2) {
			member_dev[m] = argv[i];
			bds_parse_u64(argv[i + 1], &member_off[m]);
		}
	a.reshape = ka->reshape_given ? kr : NULL;
	len = bds_table_write(out, sizeof(out), &a, &mb);
	FUZZ_CHECK(len < sizeof(out) && len == strlen(out),
		   "written table of %zu bytes", len);
	memcpy(again, out, len + 1);
	for (p = strtok_r(again, " ", &save); p && n < MAX_WORDS;
	     p = strtok_r(NULL, " ", &save))
		out_words[n++] = p;
	err = bds_parse_table(&a2, n, out_words);
	if (!err && a2.reshape_given)
		err = bds_parse_reshape(&a2, n, out_words, &r2);
	FUZZ_CHECK(!err, "written table refused: %s\n%s", err, out);
	FUZZ_CHECK(a2.chunk == ka->chunk && a2.nr_groups == ka->nr_groups &&
		   a2.mode == ka->mode && a2.nr_members == ka->nr_members &&
		   a2.volume_given == ka->volume_given &&
		   (!a2.volume_given ||
		    !memcmp(a2.volume_uuid, ka->volume_uuid, 16)) &&
		   !memcmp(a2.group_size, ka->group_size,
			   ka->nr_groups * sizeof(u32)) &&
		   !memcmp(a2.weight, ka->weight,
			   ka->nr_members * sizeof(u32)) &&
		   a2.reshape_given == ka->reshape_given &&
		   (!a2.reshape_given || !memcmp(&r2, kr, sizeof(r2))),
		   "written table reads back otherwise:\n%s", out);
	for (g = 0, m = 0, i = a2.first_member; g < a2.nr_groups; g++, i++)
		for (d = 0; d < a2.group_size[g]; d++, m++, i += 2)
			FUZZ_CHECK(!strcmp(out_words[i], member_dev[m]) &&
				   bds_parse_u64(out_words[i + 1], &off) &&
				   off == member_off[m],
				   "member %u written as %s %s", m, out_words[i],
				   out_words[i + 1]);
	a2.reshape = a2.reshape_given ? &r2 : NULL;
	len2 = bds_table_write(again, sizeof(again), &a2, &mb);
	FUZZ_CHECK(len2 == len && !strcmp(again, out),
		   "written twice, two texts:\n%s\n%s", out, again);
}

static char buf[MAX_INPUT + 1];
static char *words[MAX_WORDS];

static struct bds_slot old_slots[BDS_MAX_SLOTS];
static u16 old_slot_of[BDS_MAX_SLOTS];

/*
 * The geometries the target makes of a restripe table whose lengths were
 * accepted (bds_reshape_of_table()), with the member offsets of its
 * words: when it accepts them, every sample sector of the volume lies in
 * the geometry the checkpoint says, and maps there and back.
 */
static void fuzz_check_restripe(const struct bds_args *a,
				const struct bds_reshape_args *r,
				const struct bds_layout *l, char **argv, u64 len,
				const u64 *seeds, unsigned int nseeds)
{
	static struct bds_geom gn, go;
	static struct bds_geom_slots so;
	static u64 off[BDS_MAX_MEMBERS];
	struct bds_reshape rs = { .old = &go, .new = &gn, .dir = r->dir };
	const struct bds_geom *g, *want;
	unsigned int i, grp, d, m = 0;
	u64 s, left, ps, edge;
	const char *err;
	u32 dev;

	for (grp = 0, i = a->first_member; grp < a->nr_groups; grp++, i++) {
		for (d = 0; d < a->group_size[grp]; d++, i += 2, m++) {
			bool ok = bds_parse_u64(argv[i + 1], &off[m]);

			FUZZ_CHECK(ok, "member %u: offset word", m);
		}
	}
	err = bds_reshape_of_table(r, l, off, len, &gn, &go, &so);
	if (verbose && err)
		fprintf(stderr, "table: %s\n", err);
	if (err)
		return;
	edge = bds_reshape_boundary(&rs, r->checkpoint);
	for (i = 0; i < nseeds; i++) {
		s = seeds[i] % len;
		g = bds_reshape_geom_of(&rs, r->checkpoint, s, &left);
		want = (s < edge) == (r->dir == BDS_RESHAPE_FORWARD) ? &gn : &go;
		FUZZ_CHECK(g == want && left && (s >= edge || s + left == edge),
			   "sector %llu, boundary %llu: the wrong geometry",
			   (unsigned long long)s, (unsigned long long)edge);
		bds_geom_map(g, s, &dev, &ps);
		FUZZ_CHECK(g->index[dev] != BDS_GEOM_NONE &&
			   bds_geom_unmap(g, dev, ps) == s,
			   "sector %llu: member %u sector %llu does not map back",
			   (unsigned long long)s, dev, (unsigned long long)ps);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bds_reshape_args kres;
	static struct model_reshape mres;
	struct bds_args kargs;
	struct model_args margs;
	struct bds_layout layout, before, old_layout;
	unsigned int argc = 0, nseeds = 0, g, i;
	const char *merr;
	const char *kerr;
	char *p, **argv;
	enum bds_geom_err gerr, want;
	u64 len = 0, seeds[16], member_len;
	bool len_given = false;
	u32 nr_slots;
	int r;

	if (verbose < 0)
		verbose = getenv("BDS_FUZZ_VERBOSE") != NULL;
	if (size > MAX_INPUT)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (p = buf; p < buf + size;) {
		while (p < buf + size && is_blank(*p))
			*p++ = '\0';
		if (p == buf + size)
			break;
		if (argc == MAX_WORDS)
			return 0;
		words[argc++] = p;
		while (p < buf + size && !is_blank(*p))
			p++;
	}
	argv = words;
	check_message(argc, argv);

	/* "<start> <length> bds-stripe <params>" */
	if (argc >= 3 && !strcmp(words[2], "bds-stripe")) {
		u64 start;

		if (!bds_parse_u64(words[0], &start) ||
		    !bds_parse_u64(words[1], &len) || !len)
			return 0;	/* device-mapper refuses it first */
		len_given = true;
		argv += 3;
		argc -= 3;
	}

	merr = model_parse(&margs, argc, argv);
	kerr = bds_parse_table(&kargs, argc, argv);
	r = kerr ? -EINVAL : 0;

	if (verbose)
		fprintf(stderr, "table: %s\n", r ? kerr : "accepted");
	FUZZ_CHECK((r == 0) == (merr == NULL),
		   "kernel parser %s (%s), model %s (%s)",
		   r ? "refuses" : "accepts", kerr ? kerr : "-",
		   merr ? "refuses" : "accepts", merr ? merr : "-");
	if (r) {
		FUZZ_CHECK(r == -EINVAL, "kernel parser returned %d", r);
		FUZZ_CHECK(kerr && !strcmp(kerr, merr),
			   "reasons differ: kernel '%s', model '%s'",
			   kerr ? kerr : "(none)", merr);
		return 0;	/* refused: nothing else is touched */
	}
	FUZZ_CHECK(kargs.chunk == margs.chunk &&
		   kargs.nr_groups == margs.nr_groups &&
		   (u32)kargs.mode == margs.mode &&
		   kargs.volume_given == margs.volume_given &&
		   kargs.weights_given == margs.weights_given &&
		   !memcmp(kargs.weight, margs.weight,
			   kargs.nr_members * sizeof(u32)) &&
		   (!kargs.volume_given ||
		    !memcmp(kargs.volume_uuid, margs.volume_uuid, 16)) &&
		   kargs.first_member == margs.first_member &&
		   kargs.opt_start == margs.opt_start &&
		   kargs.nr_members == margs.nr_members &&
		   kargs.reshape_given == margs.reshape_given &&
		   (!kargs.reshape_given ||
		    kargs.reshape_at == margs.reshape_at),
		   "parsers disagree on an accepted table");
	for (g = 0; g < kargs.nr_groups; g++)
		FUZZ_CHECK(kargs.group_size[g] == margs.group_size[g],
			   "group %u: kernel %u, model %u", g,
			   kargs.group_size[g], margs.group_size[g]);

	/* As bds_ctr(): the geometry, on a layout full of garbage. */
	memset(&layout, 0xa5, sizeof(layout));
	before = layout;
	gerr = bds_layout_init(&layout, kargs.chunk, kargs.group_size,
			       kargs.nr_groups, kargs.mode);
	want = fuzz_expected_geom(kargs.chunk, kargs.group_size,
				  kargs.nr_groups, (u32)kargs.mode);
	FUZZ_CHECK(gerr == want, "bds_layout_init says %d (%s), doc says %d (%s)",
		   gerr, bds_geom_error(gerr), want, bds_geom_error(want));
	if (verbose && gerr != BDS_OK)
		fprintf(stderr, "table: %s\n", bds_geom_error(gerr));
	if (gerr != BDS_OK) {
		FUZZ_CHECK(!memcmp(&layout, &before, sizeof(layout)),
			   "refused geometry wrote to the layout");
		return 0;
	}
	fuzz_check_order(&layout, kargs.chunk, kargs.group_size,
			 kargs.nr_groups, (u32)kargs.mode);

	/* The weights, as bds_ctr() applies them. */
	gerr = bds_weights_check(&layout, kargs.weight, &nr_slots);
	want = model_weights_geom(&layout, margs.weight, kargs.nr_members);
	FUZZ_CHECK(gerr == want, "bds_weights_check says %d (%s), doc says %d (%s)",
		   gerr, bds_geom_error(gerr), want, bds_geom_error(want));
	if (verbose && gerr != BDS_OK)
		fprintf(stderr, "table: %s\n", bds_geom_error(gerr));
	if (gerr != BDS_OK)
		return 0;
	bds_layout_weigh(&layout, kargs.weight, nr_slots, slots, slot_of);
	fuzz_check_slots(&layout, kargs.weight, nr_slots);

	/* A restripe's words, as bds_ctr() reads them after the layout. */
	if (kargs.reshape_given) {
		u32 k, old_slots_nr;

		kerr = bds_parse_reshape(&kargs, argc, argv, &kres);
		merr = model_reshape(&margs, argv, &mres);
		if (verbose)
			fprintf(stderr, "table: reshape %s\n",
				kerr ? kerr : "accepted");
		FUZZ_CHECK((kerr == NULL) == (merr == NULL) &&
			   (!kerr || !strcmp(kerr, merr)),
			   "reshape: kernel parser '%s', model '%s'",
			   kerr ? kerr : "accepts", merr ? merr : "accepts");
		if (kerr)
			return 0;
		FUZZ_CHECK((u32)kres.dir == mres.dir &&
			   kres.checkpoint == mres.checkpoint &&
			   kres.new_sectors == mres.new_sectors &&
			   kres.old_nr_groups == mres.nr_groups &&
			   (u32)kres.old_mode == mres.mode &&
			   kres.old_nr_members == mres.nr_members,
			   "reshape: parsers disagree on the values");
		for (k = 0; k < kres.old_nr_groups; k++)
			FUZZ_CHECK(kres.old_group_size[k] == mres.group_size[k],
				   "reshape: old group %u", k);
		for (k = 0; k < kres.old_nr_members; k++)
			FUZZ_CHECK(kres.old_member[k] == mres.member[k] &&
				   kres.old_offset[k] == mres.offset[k] &&
				   kres.old_weight[k] == mres.weight[k],
				   "reshape: old member %u", k);

		/* the old geometry passes the new one's checks */
		kerr = bds_reshape_old_layout(&old_layout, kargs.chunk, &kres,
					      &old_slots_nr);
		FUZZ_CHECK(!kerr, "accepted old geometry refused: %s", kerr);
		fuzz_check_order(&old_layout, kargs.chunk, kres.old_group_size,
				 kres.old_nr_groups, (u32)kres.old_mode);
		bds_layout_weigh(&old_layout, kres.old_weight, old_slots_nr,
				 old_slots, old_slot_of);
		fuzz_check_slots(&old_layout, kres.old_weight, old_slots_nr);
	}
	check_round_trip(&kargs, &kres, argv);

	/* The member words sit where bds_ctr() will look for them. */
	for (g = 0, i = kargs.first_member; g < kargs.nr_groups; g++, i++) {
		FUZZ_CHECK(i - 1 < argc, "group %u: #devs word past the end", g);
		i += 2 * kargs.group_size[g];
		FUZZ_CHECK(i <= argc, "group %u: member words past the end", g);
	}
	FUZZ_CHECK(i - 1 == kargs.opt_start, "opt_start %u, groups end at %u",
		   kargs.opt_start, i - 1);

	/* sample values: the numbers in the table, and hashes of it */
	for (i = 0; i < (unsigned int)argc && nseeds < 8; i++) {
		u64 v;

		if (bds_parse_u64(argv[i], &v))
			seeds[nseeds++] = v;
	}
	while (nseeds < 16) {
		seeds[nseeds] = fuzz_hash(data, size, 100 + nseeds);
		nseeds++;
	}

	if (len_given && kargs.reshape_given) {
		/* <length> is the old one; the volume grows to new_sectors */
		kerr = bds_reshape_check_len(&kres, &layout, len);
		merr = model_reshape_len(&margs, &mres, len);
		if (verbose && kerr)
			fprintf(stderr, "table: %s\n", kerr);
		FUZZ_CHECK((kerr == NULL) == (merr == NULL) &&
			   (!kerr || !strcmp(kerr, merr)),
			   "reshape lengths: kernel '%s', model '%s'",
			   kerr ? kerr : "accepts", merr ? merr : "accepts");
		if (kerr)
			return 0;
		fuzz_check_mapping(&old_layout, len, seeds, nseeds);
		fuzz_check_restripe(&kargs, &kres, &layout, argv, len, seeds,
				    nseeds);
		len = kres.new_sectors;
	} else if (len_given) {
		bool ok = bds_member_len(&layout, len, &member_len);

		FUZZ_CHECK(ok == (len % bds_cycle(&layout) == 0),
			   "length %llu, cycle %u: bds_member_len says %d",
			   (unsigned long long)len, bds_cycle(&layout), ok);
		if (verbose && !ok)
			fprintf(stderr, "table: length not whole cycles\n");
		if (!ok)
			return 0;
	} else {
		len = fuzz_pick_len(&layout, fuzz_hash(data, size, 1));
	}

	fuzz_check_mapping(&layout, len, seeds, nseeds);
	return 0;
}
