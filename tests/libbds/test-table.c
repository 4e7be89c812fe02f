// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of a table's words (libbds/table.c) with the optional
 * argument "reshape", the table of a volume mid-restripe:
 *
 *   - accepted tables: what the first pass (bds_parse_table()) and the
 *     second (bds_parse_reshape()) find, word by word;
 *   - refused tables: each malformed word of "reshape", and each of its
 *     problems, gets its own reason (missing words, direction, numbers,
 *     group sizes, layout, members, indexes, offsets, weights, an old
 *     geometry the layout code refuses, no "volume", "reshape" twice);
 *   - bds_reshape_old_layout() names each refusal of the layout code;
 *   - the lengths (bds_reshape_check_len()): old cycle, new cycle, no
 *     shrinking, the checkpoint within the volume;
 *   - the writer: write(parse(text)) == text for canonical texts, and
 *     parse(write(x)) == x for hand-made and random geometries, the
 *     writer's count of optional words and its snprintf() length;
 *   - the target's messages (bds_parse_message()): each verb, its unit,
 *     and each malformed message refused with its reason.
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "libbds/table.h"	/* first: the header is self-contained */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define UUID	"10111213-1415-4617-9819-1a1b1c1d1e1f"
#define MAX_WORDS	600
#define LINE		16384

/* A table's words, split at blanks in a buffer of their own. */
struct words {
	char buf[LINE];
	char *argv[MAX_WORDS];
	unsigned int argc;
};

static void split(struct words *w, const char *text)
{
	char *p;

	snprintf(w->buf, sizeof(w->buf), "%s", text);
	w->argc = 0;
	for (p = strtok(w->buf, " "); p && w->argc < MAX_WORDS;
	     p = strtok(NULL, " "))
		w->argv[w->argc++] = p;
}

/* Both passes, as the constructor runs them: NULL or the reason. */
static const char *parse(const char *text, struct bds_args *a,
			 struct bds_reshape_args *r)
{
	static struct words w;
	const char *msg;

	split(&w, text);
	memset(r, 0x5a, sizeof(*r));
	msg = bds_parse_table(a, w.argc, w.argv);
	if (!msg)
		msg = bds_parse_reshape(a, w.argc, w.argv, r);
	return msg;
}

/* The writer's members: the words of a parsed table. */
struct table_members {
	char dev[BDS_MAX_MEMBERS][32];
	u64 offset[BDS_MAX_MEMBERS];
};

static const char *member_dev(const void *ctx, u32 m)
{
	return ((const struct table_members *)ctx)->dev[m];
}

static u64 member_offset(const void *ctx, u32 m)
{
	return ((const struct table_members *)ctx)->offset[m];
}

/* Write @a with reshape @r (NULL: none) and members m0, m1, ... */
static size_t write_table(char *buf, size_t size, struct bds_args *a,
			  const struct bds_reshape_args *r,
			  const struct table_members *tm)
{
	const struct bds_table_members mb = { member_dev, member_offset, tm };

	a->reshape = r;
	return bds_table_write(buf, size, a, &mb);
}

static void numbered_members(struct table_members *tm, u32 n)
{
	u32 m;

	for (m = 0; m < n; m++) {
		snprintf(tm->dev[m], sizeof(tm->dev[m]), "8:%u", 16 * m);
		tm->offset[m] = 2048 + 8 * m;
	}
}

/* The fields of two tables' first passes that the words give. */
static bool same_args(const struct bds_args *x, const struct bds_args *y)
{
	u32 g, m;

	if (x->chunk != y->chunk || x->nr_groups != y->nr_groups ||
	    x->mode != y->mode || x->volume_given != y->volume_given ||
	    x->nr_members != y->nr_members ||
	    x->reshape_given != y->reshape_given ||
	    (x->volume_given && memcmp(x->volume_uuid, y->volume_uuid, 16)))
		return false;
	for (g = 0; g < x->nr_groups; g++)
		if (x->group_size[g] != y->group_size[g])
			return false;
	for (m = 0; m < x->nr_members; m++)
		if (x->weight[m] != y->weight[m])
			return false;
	return true;
}

static bool same_reshape(const struct bds_reshape_args *x,
			 const struct bds_reshape_args *y)
{
	u32 g, i;

	if (x->dir != y->dir || x->checkpoint != y->checkpoint ||
	    x->new_sectors != y->new_sectors ||
	    x->old_nr_groups != y->old_nr_groups ||
	    x->old_mode != y->old_mode ||
	    x->old_nr_members != y->old_nr_members)
		return false;
	for (g = 0; g < x->old_nr_groups; g++)
		if (x->old_group_size[g] != y->old_group_size[g])
			return false;
	for (i = 0; i < x->old_nr_members; i++)
		if (x->old_member[i] != y->old_member[i] ||
		    x->old_offset[i] != y->old_offset[i] ||
		    x->old_weight[i] != y->old_weight[i])
			return false;
	return true;
}

/* 2 + 1 members grown to 2 + 2: the example of the documentation. */
#define GROW_NEW	"128 2 2 8:16 24 8:32 24 2 8:48 24 8:64 2048"
#define GROW		GROW_NEW " 9 volume " UUID

static void test_accepts(void)
{
	static struct words w;
	struct bds_args a;
	struct bds_reshape_args r;
	const char *msg;

	msg = parse(GROW " reshape forward 1000 6291456 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
		    &a, &r);
	check(!msg, "grow 3 -> 4 forward: accepted (%s)", msg ? msg : "-");
	check(a.reshape_given && a.reshape_at == 15 && a.volume_given &&
	      a.nr_members == 4 && !a.reshape,
	      "first pass: reshape given at word 15, volume given, 4 members, no values pointer");
	check(r.dir == BDS_RESHAPE_FORWARD && r.checkpoint == 1000 &&
	      r.new_sectors == 6291456,
	      "direction forward, checkpoint 1000, new length 6291456");
	check(r.old_nr_groups == 2 && r.old_group_size[0] == 2 &&
	      r.old_group_size[1] == 1 && r.old_nr_members == 3 &&
	      r.old_mode == BDS_LAYOUT_INTERLEAVE,
	      "old groups 2,1 (3 members), interleave");
	check(r.old_member[0] == 0 && r.old_member[1] == 1 &&
	      r.old_member[2] == 2 && r.old_offset[0] == 2048 &&
	      r.old_offset[2] == 2048 && r.old_weight[0] == 1 &&
	      r.old_weight[2] == 1,
	      "old members 0, 1, 2 at 2048, weight 1");

	/* words in any case and order; numbers with leading zeros */
	msg = parse("8 1 3 a 24 b 24 c 24 9 RESHAPE Backward 0 0480 1,1 Sequential 2:00:1,0:18446744073709551615:1 volume " UUID,
		    &a, &r);
	check(!msg, "backward, before volume, words in upper case: accepted (%s)",
	      msg ? msg : "-");
	check(a.reshape_at == 10 && r.dir == BDS_RESHAPE_BACKWARD &&
	      r.checkpoint == 0 && r.new_sectors == 480 &&
	      r.old_mode == BDS_LAYOUT_SEQUENTIAL && r.old_nr_groups == 2 &&
	      r.old_member[0] == 2 && r.old_member[1] == 0 &&
	      r.old_offset[0] == 0 && r.old_offset[1] == ~0ULL,
	      "its values: member 2 then 0, offsets 0 and 2^64 - 1");

	/* re-weighting: the same members, old weights 3,1 */
	msg = parse("8 1 2 a 24 b 24 11 volume " UUID " weights 2,2 reshape backward 96 160 2 interleave 0:2048:3,1:2048:1",
		    &a, &r);
	check(!msg && r.old_weight[0] == 3 && r.old_weight[1] == 1 &&
	      a.weight[0] == 2 && r.old_nr_groups == 1,
	      "re-weighting 3,1 -> 2,2: accepted, old weights 3,1 (%s)",
	      msg ? msg : "-");
	msg = parse("8 1 1 a 24 9 volume " UUID " reshape forward 0 8 1 interleave 0:24:255",
		    &a, &r);
	check(!msg && r.old_weight[0] == 255,
	      "old weight 255 accepted (%s)", msg ? msg : "-");

	/* the first pass alone: the place of the words, not the words */
	split(&w, GROW " reshape up x y z w v");
	msg = bds_parse_table(&a, w.argc, w.argv);
	check(!msg && a.reshape_given && a.reshape_at == 15,
	      "first pass alone: 6 words after reshape taken as they are (%s)",
	      msg ? msg : "-");
	split(&w, GROW_NEW " 8 volume " UUID " reshape forward 0 6291456 2,1 interleave");
	msg = bds_parse_table(&a, w.argc, w.argv);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_NOVALUE),
	      "first pass alone: 5 words after reshape refused: '%s'",
	      msg ? msg : "accepted");

	/* the second pass of a table without "reshape" */
	msg = parse(GROW_NEW, &a, &r);
	check(!msg && !a.reshape_given && r.old_nr_members == 0 &&
	      r.new_sectors == 0,
	      "no reshape: the second pass accepts and zeroes the values");
}

static const struct {
	const char *what;
	const char *tail;	/* after GROW_NEW */
	const char *msg;
} refused[] = {
	/* the first pass: the argument's place */
	{ "5 values", " 8 volume " UUID " reshape forward 0 6291456 2,1 interleave",
	  BDS_MSG_RESHAPE_NOVALUE },
	{ "no values", " 3 volume " UUID " reshape", BDS_MSG_RESHAPE_NOVALUE },
	{ "1 value, no volume", " 2 reshape forward", BDS_MSG_RESHAPE_NOVALUE },
	{ "reshape without volume",
	  " 7 reshape forward 0 6291456 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_NOVOLUME },
	{ "reshape twice",
	  " 16 volume " UUID " reshape forward 0 6291456 1 interleave 0:2048:1 reshape forward 0 6291456 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_TWICE },
	{ "reshape twice, the second short",
	  " 11 volume " UUID " reshape forward 0 6291456 1 interleave 0:2048:1 RESHAPE forward",
	  BDS_MSG_RESHAPE_TWICE },
	{ "#opt_args one short of reshape's words",
	  " 8 volume " UUID " reshape forward 0 6291456 1 interleave 0:2048:1",
	  "Unexpected words after the optional arguments" },
	{ "an unknown word after reshape",
	  " 11 volume " UUID " reshape forward 0 6291456 1 interleave 0:2048:1 grow 1",
	  BDS_MSG_OPT_UNKNOWN },
	/* the direction */
	{ "direction 'up'", " 9 volume " UUID " reshape up 0 6291456 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_DIR },
	{ "direction '0'", " 9 volume " UUID " reshape 0 0 6291456 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_DIR },
	/* the checkpoint */
	{ "checkpoint negative", " 9 volume " UUID " reshape forward -1 6291456 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_CKPT },
	{ "checkpoint hex", " 9 volume " UUID " reshape forward 0x10 6291456 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_CKPT },
	{ "checkpoint 2^64", " 9 volume " UUID " reshape forward 18446744073709551616 6291456 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_CKPT },
	/* the new length */
	{ "new length '6291456s'", " 9 volume " UUID " reshape forward 0 6291456s 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_NEWLEN_BAD },
	{ "new length +1", " 9 volume " UUID " reshape forward 0 +1 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_NEWLEN_BAD },
	{ "new length 0", " 9 volume " UUID " reshape forward 0 0 1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_NEWLEN_ZERO },
	/* the old group sizes */
	{ "old groups '2,,1'", " 9 volume " UUID " reshape forward 0 6291456 2,,1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_BAD },
	{ "old groups '2,1,'", " 9 volume " UUID " reshape forward 0 6291456 2,1, interleave 0:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_BAD },
	{ "old groups ',2'", " 9 volume " UUID " reshape forward 0 6291456 ,2 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_BAD },
	{ "old groups '2;1'", " 9 volume " UUID " reshape forward 0 6291456 2;1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_BAD },
	{ "old groups '0x2'", " 9 volume " UUID " reshape forward 0 6291456 0x2 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_BAD },
	{ "old group of 0", " 9 volume " UUID " reshape forward 0 6291456 2,0 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_GROUP_EMPTY },
	{ "33 old groups", " 9 volume " UUID " reshape forward 0 6291456 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_MANY },
	{ "old groups of 129 members", " 9 volume " UUID " reshape forward 0 6291456 100,29 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_MEMBERS },
	{ "an old group of 2^64 members", " 9 volume " UUID " reshape forward 0 6291456 18446744073709551616 interleave 0:2048:1",
	  BDS_MSG_RESHAPE_GROUPS_MEMBERS },
	/* the old layout */
	{ "old layout 'striped'", " 9 volume " UUID " reshape forward 0 6291456 1 striped 0:2048:1",
	  BDS_MSG_RESHAPE_LAYOUT },
	/* the old members */
	{ "old member without weight", " 9 volume " UUID " reshape forward 0 6291456 1 interleave 0:2048",
	  BDS_MSG_RESHAPE_MEMBERS_BAD },
	{ "old member '0::1'", " 9 volume " UUID " reshape forward 0 6291456 1 interleave 0::1",
	  BDS_MSG_RESHAPE_MEMBERS_BAD },
	{ "old member '0:2048:1:'", " 9 volume " UUID " reshape forward 0 6291456 1 interleave 0:2048:1:",
	  BDS_MSG_RESHAPE_MEMBERS_BAD },
	{ "old members with a trailing comma", " 9 volume " UUID " reshape forward 0 6291456 1 interleave 0:2048:1,",
	  BDS_MSG_RESHAPE_MEMBERS_BAD },
	{ "old members '0:2048:1,,1:2048:1'", " 9 volume " UUID " reshape forward 0 6291456 2 interleave 0:2048:1,,1:2048:1",
	  BDS_MSG_RESHAPE_MEMBERS_BAD },
	{ "old member offset '-8'", " 9 volume " UUID " reshape forward 0 6291456 1 interleave 0:-8:1",
	  BDS_MSG_RESHAPE_MEMBERS_BAD },
	{ "old member index 'a'", " 9 volume " UUID " reshape forward 0 6291456 1 interleave a:2048:1",
	  BDS_MSG_RESHAPE_MEMBERS_BAD },
	{ "old members fewer than the groups", " 9 volume " UUID " reshape forward 0 6291456 2,1 interleave 0:2048:1,1:2048:1",
	  BDS_MSG_RESHAPE_MEMBERS_COUNT },
	{ "old members more than the groups", " 9 volume " UUID " reshape forward 0 6291456 2 interleave 0:2048:1,1:2048:1,2:2048:1",
	  BDS_MSG_RESHAPE_MEMBERS_COUNT },
	{ "old member index 4 of 4 members", " 9 volume " UUID " reshape forward 0 6291456 1 interleave 4:2048:1",
	  BDS_MSG_RESHAPE_MEMBER_INDEX },
	{ "old member index 2^64", " 9 volume " UUID " reshape forward 0 6291456 1 interleave 18446744073709551616:2048:1",
	  BDS_MSG_RESHAPE_MEMBER_INDEX },
	{ "old member index 256 (not wrapped to 0)", " 9 volume " UUID " reshape forward 0 6291456 1 interleave 256:2048:1",
	  BDS_MSG_RESHAPE_MEMBER_INDEX },
	{ "old member listed twice", " 9 volume " UUID " reshape forward 0 6291456 2,1 interleave 0:2048:1,1:2048:1,0:4096:1",
	  BDS_MSG_RESHAPE_MEMBER_TWICE },
	{ "old member offset 2^64", " 9 volume " UUID " reshape forward 0 6291456 1 interleave 0:18446744073709551616:1",
	  BDS_MSG_RESHAPE_MEMBER_OFFSET },
	{ "old member weight 0", " 9 volume " UUID " reshape forward 0 6291456 2 interleave 0:2048:0,1:2048:1",
	  BDS_MSG_RESHAPE_MEMBER_WEIGHT },
	{ "old member weight 256", " 9 volume " UUID " reshape forward 0 6291456 2 interleave 0:2048:1,1:2048:256",
	  BDS_MSG_RESHAPE_MEMBER_WEIGHT },
	{ "old member weight 2^64 + 1", " 9 volume " UUID " reshape forward 0 6291456 1 interleave 0:2048:18446744073709551617",
	  BDS_MSG_RESHAPE_MEMBER_WEIGHT },
	/* the old geometry, refused by the layout code */
	{ "old weights with old layout sequential", " 9 volume " UUID " reshape forward 0 6291456 2 sequential 0:2048:2,1:2048:1",
	  BDS_MSG_RESHAPE_OLD_SEQUENTIAL },
};

/* Refusals over another new table: more members, other chunks. */
static const struct {
	const char *what;
	const char *table;
	const char *msg;
} refused_geom[] = {
	{ "old weights summing to 1025",
	  "8 1 5 a 24 b 24 c 24 d 24 e 24 9 volume " UUID " reshape forward 0 10240 5 interleave 0:24:255,1:24:255,2:24:255,3:24:255,4:24:5",
	  BDS_MSG_RESHAPE_OLD_WEIGHT_SUM },
	/* 8388600 sectors x 2 units: a cycle over 32 bits of bytes */
	{ "old weighted cycle over 32 bits",
	  "8388600 1 2 a 24 b 24 9 volume " UUID " reshape forward 0 16777200 1 interleave 0:24:2",
	  BDS_MSG_RESHAPE_OLD_CYCLE },
	/* 65536 sectors x 128 members: the new width too, checked later */
	{ "old stripe width over 32 bits",
	  NULL, BDS_MSG_RESHAPE_OLD_WIDTH },
	{ "chunk 12: the chunk's own reason",
	  "12 1 1 a 24 9 volume " UUID " reshape forward 0 12 1 interleave 0:24:1",
	  "Invalid chunk size: must be a multiple of 8 sectors (4 KiB)" },
	{ "chunk 0: the chunk's own reason",
	  "0 1 1 a 24 9 volume " UUID " reshape forward 0 12 1 interleave 0:24:1",
	  "Invalid chunk size: must be greater than 0" },
	{ "an old member index past a 1-member table",
	  "8 1 1 a 24 9 volume " UUID " reshape forward 0 8 1 interleave 1:24:1",
	  BDS_MSG_RESHAPE_MEMBER_INDEX },
	/* the first pass's own reasons come first */
	{ "reshape twice and no volume",
	  "8 1 1 a 24 14 reshape forward 0 8 1 interleave 0:24:1 reshape forward 0 8 1 interleave 0:24:1",
	  BDS_MSG_RESHAPE_TWICE },
	{ "bad layout after a bad reshape",
	  "8 1 1 a 24 11 volume " UUID " reshape up 0 8 1 interleave 0:24:1 layout x",
	  "Invalid layout: accepted values are interleave and sequential" },
};

static void test_refusals(void)
{
	static char text[LINE], wide[LINE];
	struct bds_reshape_args r;
	struct bds_args a;
	const char *msg, *t;
	size_t n;
	u32 i, m;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", GROW_NEW, refused[i].tail);
		msg = parse(text, &a, &r);
		check(msg && !strcmp(msg, refused[i].msg), "%s: '%s'",
		      refused[i].what, msg ? msg : "accepted");
	}
	/* 128 members of 65536 sectors, 128 old ones */
	n = (size_t)snprintf(wide, sizeof(wide), "65536 1 128");
	for (m = 0; m < 128; m++)
		n += (size_t)snprintf(wide + n, sizeof(wide) - n, " m%u 24", m);
	n += (size_t)snprintf(wide + n, sizeof(wide) - n,
			      " 9 volume " UUID " reshape forward 0 8388608 128 interleave");
	for (m = 0; m < 128; m++)
		n += (size_t)snprintf(wide + n, sizeof(wide) - n, "%c%u:24:1",
				      m ? ',' : ' ', m);
	for (i = 0; i < sizeof(refused_geom) / sizeof(refused_geom[0]); i++) {
		t = refused_geom[i].table ? refused_geom[i].table : wide;
		msg = parse(t, &a, &r);
		check(msg && !strcmp(msg, refused_geom[i].msg), "%s: '%s'",
		      refused_geom[i].what, msg ? msg : "accepted");
	}
}

/* bds_reshape_old_layout(): each refusal of the layout code, named. */
static void test_old_layout(void)
{
	struct bds_reshape_args r;
	struct bds_layout l;
	const char *msg;
	u32 w = 0, m;

	memset(&r, 0, sizeof(r));
	r.old_nr_groups = 2;
	r.old_group_size[0] = 2;
	r.old_group_size[1] = 1;
	r.old_nr_members = 3;
	for (m = 0; m < 3; m++) {
		r.old_member[m] = (u8)m;
		r.old_weight[m] = 1 + m;
	}
	msg = bds_reshape_old_layout(&l, 128, &r, &w);
	check(!msg && w == 6 && l.nr_members == 3 && l.nr_groups == 2,
	      "2,1 weights 1,2,3: accepted, W 6 (%s)", msg ? msg : "-");
	r.old_weight[1] = 0;
	msg = bds_reshape_old_layout(&l, 128, &r, &w);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_MEMBER_WEIGHT),
	      "weight 0: '%s'", msg ? msg : "accepted");
	r.old_weight[1] = 2;
	r.old_group_size[1] = 0;
	msg = bds_reshape_old_layout(&l, 128, &r, &w);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_GROUP_EMPTY),
	      "an empty group: '%s'", msg ? msg : "accepted");
	r.old_group_size[1] = 1;
	r.old_nr_groups = 0;
	msg = bds_reshape_old_layout(&l, 128, &r, &w);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_GROUPS_BAD),
	      "no groups: '%s'", msg ? msg : "accepted");
	r.old_nr_groups = 33;
	msg = bds_reshape_old_layout(&l, 128, &r, &w);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_GROUPS_MANY),
	      "33 groups: '%s'", msg ? msg : "accepted");
	r.old_nr_groups = 2;
	r.old_group_size[0] = 128;
	msg = bds_reshape_old_layout(&l, 8, &r, &w);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_GROUPS_MEMBERS),
	      "129 members: '%s'", msg ? msg : "accepted");
	r.old_group_size[0] = 2;
	r.old_mode = (enum bds_order_mode)2;
	msg = bds_reshape_old_layout(&l, 8, &r, &w);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_LAYOUT),
	      "layout 2: '%s'", msg ? msg : "accepted");
	r.old_mode = BDS_LAYOUT_SEQUENTIAL;
	msg = bds_reshape_old_layout(&l, 8, &r, &w);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_OLD_SEQUENTIAL),
	      "weights 1,2,3 sequential: '%s'", msg ? msg : "accepted");
	r.old_mode = BDS_LAYOUT_INTERLEAVE;
	msg = bds_reshape_old_layout(&l, 16, &r, &w);
	check(!msg && w == 6, "chunk 16: accepted (%s)", msg ? msg : "-");
	msg = bds_reshape_old_layout(&l, 20, &r, &w);
	check(msg && !strcmp(msg, bds_geom_error(BDS_ERR_CHUNK_ALIGN)),
	      "chunk 20: '%s'", msg ? msg : "accepted");
	msg = bds_reshape_old_layout(&l, 8388608, &r, &w);
	check(msg && !strcmp(msg, bds_geom_error(BDS_ERR_CHUNK_TOO_BIG)),
	      "chunk 8388608: '%s'", msg ? msg : "accepted");
	/* 2^21 sectors x 6 units, 3 members: width fits, cycle does not */
	msg = bds_reshape_old_layout(&l, 2097152, &r, &w);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_OLD_CYCLE),
	      "chunk 2^21, W 6: '%s'", msg ? msg : "accepted");
	msg = bds_reshape_old_layout(&l, 4194304, &r, &w);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_OLD_WIDTH),
	      "chunk 2^22, 3 members: '%s'", msg ? msg : "accepted");
}

static struct bds_slot slots[BDS_MAX_SLOTS];
static u16 slot_of[BDS_MAX_SLOTS];

/*
 * Both passes over @text, then its new layout, weighed, into @l (on the
 * slot arrays above): NULL, or why the table or the layout is refused.
 */
static const char *new_layout(const char *text, struct bds_reshape_args *r,
			      struct bds_layout *l)
{
	struct bds_args a;
	const char *msg;
	u32 w;

	msg = parse(text, &a, r);
	if (msg)
		return msg;
	if (bds_layout_init(l, a.chunk, a.group_size, a.nr_groups, a.mode) ||
	    bds_weights_check(l, a.weight, &w))
		return "new geometry refused";
	bds_layout_weigh(l, a.weight, w, slots, slot_of);
	return NULL;
}

/* bds_reshape_check_len() on the new layout of @text, target length @len. */
static const char *check_len(const char *text, u64 len)
{
	struct bds_reshape_args r;
	struct bds_layout l;
	const char *msg = new_layout(text, &r, &l);

	return msg ? msg : bds_reshape_check_len(&r, &l, len);
}

static void expect_len(const char *what, const char *text, u64 len,
		       const char *want)
{
	const char *msg = check_len(text, len);

	if (!want)
		check(!msg, "%s: accepted (%s)", what, msg ? msg : "-");
	else
		check(msg && !strcmp(msg, want), "%s: '%s'", what,
		      msg ? msg : "accepted");
}

static void test_lengths(void)
{
	/* old: 3 members of chunk 128, cycle 384; new: 4, cycle 512 */
	static const char *grow = GROW " reshape forward 12 6291456 2,1 interleave 0:2048:1,1:2048:1,2:2048:1";
	/* old weights 3,1 (cycle 32), new 1,3 (cycle 32) over chunk 8 */
	static const char *rew = "8 1 2 a 24 b 24 11 volume " UUID " weights 1,3 reshape backward 4 64 2 interleave 0:2048:3,1:2048:1";

	expect_len("grow, the old length 3/4 of the new", grow, 6291456 / 4 * 3 / 384 * 384, NULL);
	expect_len("grow, the old length not whole old cycles", grow, 384 * 1000 + 128,
		   BDS_MSG_RESHAPE_LEN_OLD_CYCLE);
	expect_len("grow, the old length 0", grow, 0, BDS_MSG_RESHAPE_LEN_OLD_CYCLE);
	expect_len("grow, new length equal to the old", GROW " reshape forward 0 1536 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
		   1536, NULL);
	expect_len("grow, new length not whole new cycles", GROW " reshape forward 0 6291584 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
		   384, BDS_MSG_RESHAPE_NEWLEN_CYCLE);
	expect_len("grow, new length below the old", GROW " reshape forward 0 1024 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
		   1152, BDS_MSG_RESHAPE_SHRINK);
	expect_len("grow, checkpoint at the end (9 units of 1152 sectors)",
		   GROW " reshape forward 9 6291456 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
		   1152, NULL);
	expect_len("grow, checkpoint one past the end",
		   GROW " reshape forward 10 6291456 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
		   1152, BDS_MSG_RESHAPE_CKPT_PAST);
	/* Documentation/bds-stripe.rst's example, word for word */
	expect_len("the documentation's example",
		   "128 2 2 /dev/sdb 128 /dev/sdc 128 2 /dev/sdd 128 /dev/sde 2048 "
		   "9 volume 10111213-1415-4617-9819-1a1b1c1d1e1f "
		   "reshape forward 65536 16760832 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
		   12570624, NULL);
	expect_len("re-weighting 3,1 -> 1,3, two cycles", rew, 64, NULL);
	expect_len("re-weighting, one old cycle and a half", rew, 48,
		   BDS_MSG_RESHAPE_LEN_OLD_CYCLE);
}

/* Canonical texts: written back word for word. */
static const char *const canonical[] = {
	GROW " reshape forward 1000 6291456 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
	"8 1 3 8:16 24 8:32 24 8:48 24 9 volume " UUID " reshape backward 0 480 1,1 sequential 2:0:1,0:18446744073709551615:1",
	"8 1 2 8:16 24 8:32 24 11 volume " UUID " weights 2,2 reshape backward 96 160 2 interleave 0:2048:3,1:2048:1",
	"192 3 2 8:16 1024 8:32 1024 2 8:48 1024 8:64 1024 1 8:80 2048 11 layout sequential volume " UUID " reshape forward 0 1920 2,1,1 sequential 4:2048:1,0:2048:1,2:2048:1,1:4096:1",
	"8 2 1 8:16 24 1 8:32 24 11 volume " UUID " weights 1,255 reshape forward 18446744073709551615 18446744073709551615 1 interleave 1:24:255",
};

static void test_canonical(void)
{
	static char out[LINE];
	static struct words w;
	struct bds_reshape_args r;
	struct table_members tm;
	struct bds_args a;
	const char *msg;
	u32 i, g, d, m, k;
	size_t n;

	for (i = 0; i < sizeof(canonical) / sizeof(canonical[0]); i++) {
		msg = parse(canonical[i], &a, &r);
		if (msg) {
			check(false, "canonical %u refused: %s", i, msg);
			continue;
		}
		/* the member words, from the parsed text */
		split(&w, canonical[i]);
		for (g = 0, m = 0, k = a.first_member; g < a.nr_groups; g++, k++)
			for (d = 0; d < a.group_size[g]; d++, m++, k += 2) {
				snprintf(tm.dev[m], sizeof(tm.dev[m]), "%s",
					 w.argv[k]);
				bds_parse_u64(w.argv[k + 1], &tm.offset[m]);
			}
		n = write_table(out, sizeof(out), &a, &r, &tm);
		if (n == strlen(canonical[i]) && !strcmp(out, canonical[i]))
			check(true, "canonical %u written back as read", i);
		else
			check(false, "canonical %u written back as read:\n#  in:  %s\n#  out: %s",
			      i, canonical[i], out);
		/* without the pointer, no reshape is written */
		a.reshape = NULL;
		n = bds_table_write(out, sizeof(out), &a,
				    &(const struct bds_table_members){
					member_dev, member_offset, &tm });
		check(!strstr(out, "reshape"),
		      "canonical %u: reshape_given without values writes none", i);
	}
}

/* parse(write(x)) == x for the restripe @r of table @a. */
static bool round_trip(struct bds_args *a, const struct bds_reshape_args *r,
		       const char *what, bool quiet)
{
	static char out[LINE], again[LINE];
	struct bds_reshape_args r2;
	struct table_members tm;
	struct bds_args a2;
	const char *msg;
	size_t n, n2;
	bool ok;

	numbered_members(&tm, a->nr_members);
	n = write_table(out, sizeof(out), a, r, &tm);
	msg = parse(out, &a2, &r2);
	ok = n == strlen(out) && !msg && same_args(a, &a2) &&
	     (!r || same_reshape(r, &r2));
	n2 = ok ? write_table(again, sizeof(again), &a2, &r2, &tm) : 0;
	ok = ok && n2 == n && !strcmp(out, again);
	if (!ok)
		check(false, "%s: parse(write(x)) == x%s%s\n#  %s", what,
		      msg ? ": " : "", msg ? msg : "", out);
	else if (!quiet)
		check(true, "%s: parse(write(x)) == x", what);
	return ok;
}

/* A new table of @n members in @groups, a volume, weights @w (NULL: 1). */
static void make_args(struct bds_args *a, u64 chunk, u32 nr_groups,
		      const u32 *groups, enum bds_order_mode mode,
		      const u32 *w)
{
	u32 g, m;

	memset(a, 0, sizeof(*a));
	a->chunk = chunk;
	a->nr_groups = nr_groups;
	a->mode = mode;
	a->volume_given = true;
	bds_parse_uuid(UUID, a->volume_uuid);
	for (g = 0; g < nr_groups; g++) {
		a->group_size[g] = groups[g];
		a->nr_members += groups[g];
	}
	for (m = 0; m < a->nr_members; m++)
		a->weight[m] = w ? w[m] : 1;
	a->weights_given = !!w;
	a->reshape_given = true;
}

static void make_reshape(struct bds_reshape_args *r, enum bds_reshape_dir dir,
			 u64 ckpt, u64 new_sectors, u32 nr_groups,
			 const u32 *groups, enum bds_order_mode mode,
			 const u8 *member, const u64 *offset, const u32 *w)
{
	u32 g, i;

	memset(r, 0, sizeof(*r));
	r->dir = dir;
	r->checkpoint = ckpt;
	r->new_sectors = new_sectors;
	r->old_nr_groups = nr_groups;
	r->old_mode = mode;
	for (g = 0; g < nr_groups; g++) {
		r->old_group_size[g] = groups[g];
		r->old_nr_members += groups[g];
	}
	for (i = 0; i < r->old_nr_members; i++) {
		r->old_member[i] = member[i];
		r->old_offset[i] = offset[i];
		r->old_weight[i] = w ? w[i] : 1;
	}
}

static void test_round_trip(void)
{
	static const u32 g22[] = { 2, 2 }, g21[] = { 2, 1 }, g1[] = { 1 };
	static const u32 g4[] = { 4 }, w4[] = { 3, 1, 1, 2 }, w3[] = { 1, 2, 5 };
	static const u8 id[] = { 0, 1, 2, 3 }, back[] = { 3, 1, 0 };
	static const u64 off[] = { 2048, 2048, 2048, 2048 };
	static const u64 odd[] = { 24, 18446744073709551615ULL, 1 };
	struct bds_reshape_args r;
	struct bds_args a;
	int round, bad = 0;

	make_args(&a, 128, 2, g22, BDS_LAYOUT_INTERLEAVE, NULL);
	make_reshape(&r, BDS_RESHAPE_FORWARD, 0, 6291456, 2, g21,
		     BDS_LAYOUT_INTERLEAVE, id, off, NULL);
	round_trip(&a, &r, "grow 2+1 -> 2+2 forward", false);
	make_args(&a, 8, 1, g4, BDS_LAYOUT_INTERLEAVE, w4);
	make_reshape(&r, BDS_RESHAPE_BACKWARD, 77, 56, 1, g4,
		     BDS_LAYOUT_INTERLEAVE, id, off, NULL);
	round_trip(&a, &r, "re-weighting 1,1,1,1 -> 3,1,1,2 backward", false);
	make_args(&a, 24, 2, g22, BDS_LAYOUT_SEQUENTIAL, NULL);
	make_reshape(&r, BDS_RESHAPE_FORWARD, 5, 96, 1, g21 + 1,
		     BDS_LAYOUT_SEQUENTIAL, back + 2, off, NULL);
	round_trip(&a, &r, "1 -> 4, both sequential", false);
	make_args(&a, 8, 2, g22, BDS_LAYOUT_INTERLEAVE, w4);
	make_reshape(&r, BDS_RESHAPE_BACKWARD, ~0ULL, ~0ULL, 2, g21,
		     BDS_LAYOUT_INTERLEAVE, back, odd, w3);
	round_trip(&a, &r, "old weights 1,2,5 on members 3,1,0, largest numbers", false);
	make_args(&a, 8, 1, g1, BDS_LAYOUT_INTERLEAVE, NULL);
	make_reshape(&r, BDS_RESHAPE_FORWARD, 0, 8, 1, g1,
		     BDS_LAYOUT_INTERLEAVE, id, off, NULL);
	round_trip(&a, &r, "one member to itself", false);

	/* random: 1..128 new members, a random subset of them old */
	for (round = 0; round < 2000; round++) {
		u32 gn[BDS_MAX_GROUPS], go[BDS_MAX_GROUPS], wn[BDS_MAX_MEMBERS];
		u32 wo[BDS_MAX_MEMBERS], n, k, i, j, ngn, ngo;
		u8 perm[BDS_MAX_MEMBERS], t;
		u64 offs[BDS_MAX_MEMBERS];
		bool weighted = rnd() % 2, oweighted = rnd() % 2;

		n = 1 + (u32)(rnd() % BDS_MAX_MEMBERS);
		ngn = random_groups(n, gn);
		for (i = 0; i < n; i++) {
			wn[i] = 1 + (u32)(rnd() % 8);
			wo[i] = oweighted ? 1 + (u32)(rnd() % 8) : 1;
			perm[i] = (u8)i;
			offs[i] = rnd() % 3 ? 24 + rnd() % 4096 : rnd();
		}
		for (i = n - 1; i > 0; i--) {
			j = (u32)(rnd() % (i + 1));
			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		k = 1 + (u32)(rnd() % n);
		ngo = random_groups(k, go);
		make_args(&a, 8 * (1 + rnd() % 64), ngn, gn,
			  weighted || rnd() % 2 ? BDS_LAYOUT_INTERLEAVE :
			  BDS_LAYOUT_SEQUENTIAL, weighted ? wn : NULL);
		make_reshape(&r, (enum bds_reshape_dir)(rnd() % 2),
			     rnd() % 4 ? rnd() % 100000 : rnd(),
			     1 + rnd() % (1ULL << 40), ngo, go,
			     oweighted || rnd() % 2 ? BDS_LAYOUT_INTERLEAVE :
			     BDS_LAYOUT_SEQUENTIAL, perm, offs,
			     oweighted ? wo : NULL);
		if (!round_trip(&a, &r, "random", true))
			bad++;
	}
	check(!bad, "2000 random restripe tables: parse(write(x)) == x and written back the same (%d not)",
	      bad);
}

/* The writer's length, as snprintf()'s, and a buffer too small. */
static void test_writer_length(void)
{
	static char full[LINE], small[40];
	static const u32 g21[] = { 2, 1 }, g3[] = { 3 };
	static const u8 id[] = { 0, 1, 2 };
	static const u64 off[] = { 2048, 2048, 2048 };
	struct bds_reshape_args r;
	struct table_members tm;
	struct bds_args a;
	size_t n, m;

	make_args(&a, 128, 1, g3, BDS_LAYOUT_INTERLEAVE, NULL);
	make_reshape(&r, BDS_RESHAPE_FORWARD, 3, 4608, 2, g21,
		     BDS_LAYOUT_INTERLEAVE, id, off, NULL);
	numbered_members(&tm, 3);
	n = write_table(full, sizeof(full), &a, &r, &tm);
	m = write_table(small, sizeof(small), &a, &r, &tm);
	check(n == m && n == strlen(full) && strlen(small) == sizeof(small) - 1 &&
	      !strncmp(full, small, sizeof(small) - 1),
	      "a short buffer: the same length returned, the text cut (%zu)", n);
	check(!strcmp(full, "128 1 3 8:0 2048 8:16 2056 8:32 2064 9 volume " UUID
		      " reshape forward 3 4608 2,1 interleave 0:2048:1,1:2048:1,2:2048:1"),
	      "the optional words: 9 of them, volume then reshape: %s", full);
}

/* A restripe table's two geometries (bds_reshape_of_table()). */
static const char *geoms(const char *text, u64 len, const u64 *offset,
			 struct bds_geom *gn, struct bds_geom *go)
{
	static struct bds_geom_slots so;
	struct bds_reshape_args r;
	struct bds_layout l;
	const char *msg = new_layout(text, &r, &l);

	if (!msg)
		msg = bds_reshape_check_len(&r, &l, len);
	if (!msg)
		msg = bds_reshape_of_table(&r, &l, offset, len, gn, go, &so);
	return msg;
}

static void test_geometries(void)
{
	static const u64 grown[4] = { 24, 24, 24, 2048 };
	static const u64 upward[4] = { 24, 4096, 24, 2048 };
	static const u64 same[2] = { 2048, 2048 };
	static struct bds_geom gn, go;
	struct bds_reshape r = { .old = &go, .new = &gn };
	const char *msg;
	u64 left, p;
	u32 dev;

	msg = geoms(GROW " reshape forward 1000 6291456 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
		    4718592, grown, &gn, &go);
	check(!msg && gn.units == 49152 && go.units == 36864 &&
	      gn.layout.nr_members == 4 && go.layout.nr_members == 3 &&
	      go.member[2] == 2 && go.offset[0] == 2048 &&
	      gn.offset[0] == 24 && gn.offset[3] == 2048 &&
	      go.index[3] == BDS_GEOM_NONE,
	      "grow 3 -> 4: 36864 units on members 0-2 at 2048 -> 49152 on 0-3 (%s)",
	      msg ? msg : "-");
	r.dir = BDS_RESHAPE_FORWARD;
	check(bds_reshape_geom_of(&r, 1000, 999 * 128, &left) == &gn &&
	      left == 128 && bds_reshape_geom_of(&r, 1000, 1000 * 128, &left) == &go,
	      "unit 999 in the new geometry (128 sectors to the boundary), unit 1000 in the old");
	bds_geom_map(&go, 1000 * 128, &dev, &p);
	check(p == 2048 + 333 * 128 && bds_geom_unmap(&go, dev, p) == 1000 * 128,
	      "unit 1000 in the old geometry: member %u, sector %llu, and back",
	      dev, (unsigned long long)p);

	msg = geoms(GROW " reshape forward 1000 6291456 2,1 interleave 0:2048:1,1:2048:1,2:2048:1",
		    4718592, upward, &gn, &go);
	check(msg && !strcmp(msg, bds_reshape_error(BDS_RESHAPE_ERR_OFFSET)),
	      "forward with member 1's data moving up: '%s'", msg ? msg : "accepted");

	/* weights 1,1 -> 1,3 of the same members, no room: member 1's share rises */
	msg = geoms("8 1 2 a 2048 b 2048 11 volume " UUID " weights 1,3 reshape forward 0 1600 2 interleave 0:2048:1,1:2048:1",
		    1600, same, &gn, &go);
	check(!msg, "re-weighting 1,1 -> 1,3 without room, at checkpoint 0: accepted (%s)",
	      msg ? msg : "-");
	msg = geoms("8 1 2 a 2048 b 2048 11 volume " UUID " weights 1,3 reshape forward 10 1600 2 interleave 0:2048:1,1:2048:1",
		    1600, same, &gn, &go);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_CKPT_STATE),
	      "... at checkpoint 10, member 1's new data on its old: '%s'",
	      msg ? msg : "accepted");
	msg = geoms("8 1 2 a 2048 b 2048 9 volume " UUID " reshape forward 0 1600 2 sequential 0:2048:1,3:2048:1",
		    1600, same, &gn, &go);
	check(msg && !strcmp(msg, BDS_MSG_RESHAPE_MEMBER_INDEX),
	      "an old member beyond the table: '%s'", msg ? msg : "accepted");
}

/* A message: NULL or the reason, the verb and unit in @m. */
static const char *message(const char *text, struct bds_message *m)
{
	static struct words w;

	split(&w, text);
	memset(m, 0x5a, sizeof(*m));
	return bds_parse_message(w.argc, w.argv, m);
}

static void test_messages(void)
{
	static const struct {
		const char *text;
		const char *why;
		enum bds_msg_verb verb;
		u64 unit;
	} cases[] = {
		{ "reshape hold 104", NULL, BDS_MSG_HOLD, 104 },
		{ "reshape hold 0", NULL, BDS_MSG_HOLD, 0 },
		{ "RESHAPE Checkpoint 18446744073709551615", NULL,
		  BDS_MSG_CHECKPOINT, ~0ULL },
		{ "reshape status", NULL, BDS_MSG_STATUS, 0 },
		{ "reshape hold 18446744073709551616", BDS_MSG_MESSAGE_UNIT, BDS_MSG_HOLD, 0 },
		{ "reshape hold -1", BDS_MSG_MESSAGE_UNIT, BDS_MSG_HOLD, 0 },
		{ "reshape checkpoint 1x", BDS_MSG_MESSAGE_UNIT, BDS_MSG_HOLD, 0 },
		{ "reshape hold", BDS_MSG_MESSAGE_UNKNOWN, BDS_MSG_HOLD, 0 },
		{ "reshape hold 1 2", BDS_MSG_MESSAGE_UNKNOWN, BDS_MSG_HOLD, 0 },
		{ "reshape status 1", BDS_MSG_MESSAGE_UNKNOWN, BDS_MSG_HOLD, 0 },
		{ "reshape release 1", BDS_MSG_MESSAGE_UNKNOWN, BDS_MSG_HOLD, 0 },
		{ "reshape", BDS_MSG_MESSAGE_UNKNOWN, BDS_MSG_HOLD, 0 },
		{ "hold 1", BDS_MSG_MESSAGE_UNKNOWN, BDS_MSG_HOLD, 0 },
		{ "", BDS_MSG_MESSAGE_UNKNOWN, BDS_MSG_HOLD, 0 },
	};
	struct bds_message m;
	const char *why;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why = message(cases[i].text, &m);
		if (cases[i].why) {
			check(why && !strcmp(why, cases[i].why),
			      "message '%s' refused: '%s'", cases[i].text,
			      why ? why : "accepted");
			continue;
		}
		check(!why && m.verb == cases[i].verb && m.unit == cases[i].unit,
		      "message '%s': verb %d unit %llu (%s)", cases[i].text,
		      (int)m.verb, (unsigned long long)m.unit,
		      why ? why : "accepted");
	}
}

int main(void)
{
	test_accepts();
	test_refusals();
	test_old_layout();
	test_lengths();
	test_canonical();
	test_round_trip();
	test_writer_length();
	test_geometries();
	test_messages();
	return tap_done();
}
