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
 * pass the checks of fuzz-check.h.  Any disagreement calls abort().
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
static char buf[MAX_INPUT + 1];
static char *words[MAX_WORDS];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bds_args kargs;
	struct model_args margs;
	struct bds_layout layout, before;
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
		   kargs.opt_start == margs.opt_start,
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

	/* The member words sit where bds_ctr() will look for them. */
	for (g = 0, i = kargs.first_member; g < kargs.nr_groups; g++, i++) {
		FUZZ_CHECK(i - 1 < argc, "group %u: #devs word past the end", g);
		i += 2 * kargs.group_size[g];
		FUZZ_CHECK(i <= argc, "group %u: member words past the end", g);
	}
	FUZZ_CHECK(i - 1 == kargs.opt_start, "opt_start %u, groups end at %u",
		   kargs.opt_start, i - 1);

	if (len_given) {
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
	fuzz_check_mapping(&layout, len, seeds, nseeds);
	return 0;
}
