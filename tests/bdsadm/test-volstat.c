// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bdsadm's reading of an active volume (tools/volstat.c):
 * the table and status lines of the target, as bdsadm list and detail
 * parse them.  device-mapper and sysfs are stubs here, giving the lines
 * a test sets.
 *
 *   the documented status example (Documentation/bds-stripe.rst) and its
 *   table                            members, order, counters per group,
 *                                    error counts per member (field 7)
 *   a status without field 7         accepted (a module of 1.2.0 or
 *                                    older), the error counts unknown
 *   labelled and sequential tables   the volume UUID, the layout word
 *   D in the health string           the members with errors, listed
 *   random geometries (1 to 128 members in 1 to 32 groups): the table
 *   and the status the target prints give back each member, its stripe
 *   position (that of bds_layout_init), each group's counters and,
 *   with field 7 or without, each member's error count
 *   every malformed status           refused, with its reason (field 7:
 *                                    too few, too many, empty, not a
 *                                    number, beyond 32 bits, a word after)
 *   weighted volumes                 the documented examples (2,1,1,1
 *                                    and T2's 36 slots), labelled, and
 *                                    random weights over random
 *                                    geometries: W slots, each member's
 *                                    first slot; an order that gives a
 *                                    member more or fewer slots than its
 *                                    weight (or a permutation) refused
 *   bds_vol_read: no device, another target, no status, a full read
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "../../tools/volstat.h"
#include "../../tools/assemble.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libbds/tap.h"

/* --- stubs of device-mapper (dm.c) and sysfs (util.c) --------------------- */

static struct bds_dm_info stub_info;
static const char *stub_table, *stub_status;
static bool stub_reachable = true;

bool bds_dm_info(const char *name, struct bds_dm_info *info)
{
	(void)name;
	*info = stub_info;
	return stub_reachable;
}

bool bds_dm_table(const char *name, char *buf, size_t sz)
{
	(void)name;
	if (!stub_table)
		return false;
	snprintf(buf, sz, "%s", stub_table);
	return true;
}

bool bds_dm_status(const char *name, char *buf, size_t sz)
{
	(void)name;
	if (!stub_status)
		return false;
	snprintf(buf, sz, "%s", stub_status);
	return true;
}

bool read_u64_attr(const char *dir, const char *attr, u64 *v)
{
	(void)dir;
	(void)attr;
	*v = 67108864;
	return true;
}

/* --- tests ------------------------------------------------------------------ */

#define T2X4 "128 2 4 8:16 0 8:32 0 8:48 0 8:64 0 4 8:80 0 8:96 0 8:112 0 8:128 0"
#define S2X4_6 "8 AADAAAAA interleave 0,4,1,5,2,6,3,7 2 100 40 12800 5120 101 41 12801 5121"
#define S2X4 S2X4_6 " 0,0,3,0,0,0,0,0"
/* The status of a module of 1.2.0 or older: no field 7. */
#define S2X4_OLD "8 AAAAAAAA interleave 0,4,1,5,2,6,3,7 2 100 40 12800 5120 101 41 12801 5121"
#define UUID "10111213-1415-4617-9819-1a1b1c1d1e1f"

static struct bds_vol v;

static void documented_example(void)
{
	char buf[64];
	const char *e1 = bds_vol_parse_table(T2X4, &v);
	const char *e2 = bds_vol_parse_status(S2X4, &v);

	check(!e1 && v.have_table && v.nr_members == 8 &&
	      v.args.nr_groups == 2 && v.args.chunk == 128,
	      "the 2 x 4 table: 8 members, 2 groups, chunk 128 (%s)", e1 ? e1 : "");
	check(!strcmp(v.dev[0], "8:16") && !strcmp(v.dev[4], "8:80") &&
	      !strcmp(v.dev[7], "8:128") && v.offset[7] == 0,
	      "members in table order");
	check(!e2 && v.have_status && !strcmp(v.health, "AADAAAAA"),
	      "its status parses (%s)", e2 ? e2 : "");
	check(v.have_errors && v.errors[2] == 3 && v.errors[0] == 0 &&
	      v.errors[3] == 0 && v.errors[7] == 0,
	      "field 7: member 2 has 3 errors, the others none");
	check(v.order[1] == 4 && v.pos_of[4] == 1 && v.pos_of[1] == 2 &&
	      v.pos_of[7] == 7, "order 0,4,1,5,2,6,3,7: member 4 at position 1");
	check(v.io[0].reads == 100 && v.io[0].writes == 40 &&
	      v.io[0].read_sectors == 12800 && v.io[0].write_sectors == 5120 &&
	      v.io[1].reads == 101 && v.io[1].write_sectors == 5121,
	      "the four counters of each group");
	bds_vol_errors(&v, buf, sizeof(buf));
	check(!strcmp(buf, "2"), "member 2 has errors: '%s'", buf);
	check(!bds_vol_parse_status(S2X4_OLD, &v), "no member with errors");
	bds_vol_errors(&v, buf, sizeof(buf));
	check(!buf[0], "no member with errors");
	check(!bds_vol_parse_status("8 AADAAAAD interleave 0,4,1,5,2,6,3,7 2 0 0 0 0 0 0 0 0 0,0,1,0,0,0,0,4294967295", &v) &&
	      v.errors[7] == 4294967295U, "a health string with D, counts up to 2^32 - 1");
	bds_vol_errors(&v, buf, sizeof(buf));
	check(!strcmp(buf, "2,7"), "members 2 and 7 have errors: '%s'", buf);
}

/* A module of 1.2.0 or older, still loaded during an upgrade. */
static void without_field_7(void)
{
	const char *e;

	bds_vol_parse_table(T2X4, &v);
	check(!bds_vol_parse_status(S2X4, &v) && v.have_errors,
	      "with field 7: the counts known");
	e = bds_vol_parse_status(S2X4_OLD, &v);
	check(!e && v.have_status && !v.have_errors && v.errors[2] == 0 &&
	      v.io[1].write_sectors == 5121,
	      "without field 7: accepted, the counts unknown (%s)", e ? e : "");
	e = bds_vol_parse_status("8 AADAAAAA interleave 0,4,1,5,2,6,3,7 2 0 0 0 0 0 0 0 0", &v);
	check(!e && v.have_status && !v.have_errors && v.health[2] == 'D',
	      "without field 7: a D member, its count unknown (%s)", e ? e : "");
}

static void labelled_and_sequential(void)
{
	char u[BDS_DM_UUID_SZ];

	memset(&v, 0, sizeof(v));
	strcpy(v.dm_uuid, "BDS-" UUID);
	check(!bds_vol_parse_table("128 1 2 8:16 2048 8:32 2048 4 layout sequential volume " UUID, &v) &&
	      v.args.volume_given && v.args.mode == BDS_LAYOUT_SEQUENTIAL,
	      "a labelled sequential table");
	bds_vol_uuid(&v, u, sizeof(u));
	check(!strcmp(u, UUID), "the volume UUID from the table: %s", u);
	check(v.offset[1] == 2048, "the data offsets");
	check(!bds_vol_parse_status("2 AA sequential 0,1 1 1 2 3 4", &v),
	      "its status with 'sequential'");
	check(bds_vol_parse_status("2 AA interleave 0,1 1 1 2 3 4", &v) != NULL,
	      "a status whose layout is not the table's is refused");
	memset(&v, 0, sizeof(v));
	strcpy(v.dm_uuid, "BDS-" UUID);
	bds_vol_parse_table("128 1 1 8:16 0", &v);
	bds_vol_uuid(&v, u, sizeof(u));
	check(!strcmp(u, UUID), "without 'volume': the UUID from the dm UUID");
}

/* The table and status words of a random geometry; checks the parse. */
static void random_geometry(int round)
{
	static char table[16384], status[16384];
	unsigned int size[BDS_MAX_GROUPS], n = 1 + (unsigned int)(rnd() % 128);
	unsigned int groups = random_groups(n, size), g, k, i = 0, len, slen;
	u64 io[BDS_MAX_GROUPS][4];
	u32 errors[BDS_MAX_MEMBERS], sz[BDS_MAX_GROUPS];
	bool ok = true, field7 = round % 2;
	struct bds_layout l;

	for (g = 0; g < groups; g++)
		sz[g] = size[g];
	bds_layout_init(&l, 8, sz, groups, BDS_LAYOUT_INTERLEAVE);
	len = (unsigned int)snprintf(table, sizeof(table), "8 %u", groups);
	for (g = 0; g < groups; g++) {
		len += (unsigned int)snprintf(table + len, sizeof(table) - len,
					      " %u", size[g]);
		for (k = 0; k < size[g]; k++, i++)
			len += (unsigned int)snprintf(table + len,
						      sizeof(table) - len,
						      " 65:%u %u", i, 2048 + i);
	}
	slen = (unsigned int)snprintf(status, sizeof(status), "%u ", n);
	for (i = 0; i < n; i++)
		status[slen++] = i % 3 ? 'A' : 'D';
	slen += (unsigned int)snprintf(status + slen, sizeof(status) - slen,
				       " interleave");
	for (i = 0; i < n; i++)
		slen += (unsigned int)snprintf(status + slen, sizeof(status) - slen,
					       "%c%u", i ? ',' : ' ', l.order[i]);
	slen += (unsigned int)snprintf(status + slen, sizeof(status) - slen,
				       " %u", groups);
	for (g = 0; g < groups; g++)
		for (k = 0; k < 4; k++) {
			io[g][k] = rnd() >> (rnd() % 64);
			slen += (unsigned int)snprintf(status + slen,
						       sizeof(status) - slen,
						       " %llu", (unsigned long long)io[g][k]);
		}
	for (i = 0; field7 && i < n; i++) {
		errors[i] = i % 3 ? 0 : (u32)(rnd() >> (rnd() % 64));
		slen += (unsigned int)snprintf(status + slen, sizeof(status) - slen,
					       "%c%u", i ? ',' : ' ', errors[i]);
	}
	memset(&v, 0, sizeof(v));
	ok = !bds_vol_parse_table(table, &v) && !bds_vol_parse_status(status, &v) &&
	     v.nr_members == n && v.have_errors == field7;
	for (i = 0; ok && i < n; i++) {
		char dev[24];

		snprintf(dev, sizeof(dev), "65:%u", i);
		ok = !strcmp(v.dev[i], dev) && v.offset[i] == 2048 + i &&
		     v.pos_of[i] == l.pos_of[i] && v.order[i] == l.order[i] &&
		     v.health[i] == (i % 3 ? 'A' : 'D') &&
		     v.errors[i] == (field7 ? errors[i] : 0);
	}
	for (g = 0; ok && g < groups; g++)
		ok = v.io[g].reads == io[g][0] && v.io[g].writes == io[g][1] &&
		     v.io[g].read_sectors == io[g][2] &&
		     v.io[g].write_sectors == io[g][3];
	check(ok, "random geometry %d: %u members in %u groups read back (%s field 7)",
	      round, n, groups, field7 ? "with" : "without");
}

static void malformed(void)
{
	static const char *const bad[] = {
		"7 AAAAAAAA interleave 0,4,1,5,2,6,3,7 2 0 0 0 0 0 0 0 0",
		"8 AAAAAAA interleave 0,4,1,5,2,6,3,7 2 0 0 0 0 0 0 0 0",
		"8 AAAAAAAX interleave 0,4,1,5,2,6,3,7 2 0 0 0 0 0 0 0 0",
		"8 AAAAAAAA striped 0,4,1,5,2,6,3,7 2 0 0 0 0 0 0 0 0",
		"8 AAAAAAAA interleave 0,4,1,5,2,6,3 2 0 0 0 0 0 0 0 0",
		"8 AAAAAAAA interleave 0,4,1,5,2,6,3,7,0 2 0 0 0 0 0 0 0 0",
		"8 AAAAAAAA interleave 0,4,1,5,2,6,3,3 2 0 0 0 0 0 0 0 0",
		"8 AAAAAAAA interleave 0,4,1,5,2,6,3,8 2 0 0 0 0 0 0 0 0",
		"8 AAAAAAAA interleave 0,4,1,5,2,6,3,-7 2 0 0 0 0 0 0 0 0",
		"8 AAAAAAAA interleave 0,4,1,5,2,6,3,7 1 0 0 0 0",
		"8 AAAAAAAA interleave 0,4,1,5,2,6,3,7 2 0 0 0 0 0 0 0",
		"8 AAAAAAAA interleave 0,4,1,5,2,6,3,7 2 0 0 0 0 0 0 0 0 0",
		"8 AAAAAAAA interleave 0,4,1,5,2,6,3,7 2 0 0 0 0 0 0 0 x",
		"8 AAAAAAAA interleave 0,4,1,5,2,6,3,7 2 0 0 0 0 0 0 0 18446744073709551616",
		"8 AAAAAAAA interleave",
		"",
	};
	/* field 7, after a good field 6: each with its own reason */
	static const struct {
		const char *f7, *why;
	} bad7[] = {
		{ "0,0,0,0,0,0,0", "not one number per member" },
		{ "0,0,0,0,0,0,0,0,0", "not one number per member" },
		{ "0,0,0,,0,0,0,0", "not one number per member" },
		{ ",0,0,0,0,0,0,0", "not one number per member" },
		{ "0,0,0,0,0,0,0,0,", "not one number per member" },
		{ "0", "not one number per member" },
		{ "0,0,0,x,0,0,0,0", "not a 32-bit number" },
		{ "0,0,0,-1,0,0,0,0", "not a 32-bit number" },
		{ "0,0,0,0,0,0,0,0x1", "not a 32-bit number" },
		{ "0,0,0,4294967296,0,0,0,0", "not a 32-bit number" },
		{ "0,0,0,0,0,0,0,18446744073709551616", "not a 32-bit number" },
		{ "0,0,0,0,0,0,0,123456789012345678901234567890", "not a 32-bit number" },
		{ "0;0;0;0;0;0;0;0", "not a 32-bit number" },
		{ "0,0,0,0,0,0,0,0 0", "four counters per group" },
	};
	char line[256];
	size_t i;

	check(bds_vol_parse_table("128 2 4 8:16 0", &v) != NULL,
	      "a table the target's parser refuses is refused");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *err;

		bds_vol_parse_table(T2X4, &v);
		err = bds_vol_parse_status(bad[i], &v);
		check(err && !v.have_status, "malformed status %zu refused: %s",
		      i, err ? err : "(accepted)");
	}
	for (i = 0; i < sizeof(bad7) / sizeof(bad7[0]); i++) {
		const char *err;

		bds_vol_parse_table(T2X4, &v);
		snprintf(line, sizeof(line), "%s %s", S2X4_6, bad7[i].f7);
		err = bds_vol_parse_status(line, &v);
		check(err && strstr(err, bad7[i].why) && !v.have_status &&
		      !v.have_errors, "malformed field 7 '%s' refused: %s", bad7[i].f7,
		      err ? err : "(accepted)");
	}
}

/* Documentation/bds-stripe.rst, Weights: the worked example and T2. */
static void weighted_examples(void)
{
	static const char *const t2 =
		"32 8 1 8:16 0 1 8:32 0 1 8:48 0 1 8:64 0 1 8:80 0 1 8:96 0 2 8:112 0 8:128 0 2 8:144 0 8:160 0 2 weights 4,4,4,4,4,4,3,3,3,3";
	static const char *const t2s =
		"10 AAAAAAAAAA interleave 6,8,0,1,2,3,4,5,7,9,0,1,2,3,4,5,6,8,7,9,0,1,2,3,4,5,6,8,0,1,2,3,4,5,7,9 8 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0,0,0,0,0,0,0,0,0,0";
	const char *e1, *e2;

	memset(&v, 0, sizeof(v));
	e1 = bds_vol_parse_table("8 2 2 8:16 0 8:32 0 2 8:48 0 8:64 0 2 weights 2,1,1,1", &v);
	e2 = bds_vol_parse_status("4 AAAA interleave 0,2,0,1,3 2 0 0 0 0 0 0 0 0 0,0,0,0", &v);
	check(!e1 && v.args.weights_given && v.nr_members == 4 && v.nr_slots == 5 &&
	      v.args.weight[0] == 2 && v.args.weight[3] == 1,
	      "weights 2,1,1,1: 4 members, 5 slots (%s)", e1 ? e1 : "");
	check(!e2 && v.have_status && v.order[0] == 0 && v.order[1] == 2 &&
	      v.order[2] == 0 && v.order[3] == 1 && v.order[4] == 3,
	      "its status 0,2,0,1,3 parses (%s)", e2 ? e2 : "");
	check(v.pos_of[0] == 0 && v.pos_of[1] == 3 && v.pos_of[2] == 1 &&
	      v.pos_of[3] == 4, "each member's first slot: 0, 3, 1, 4");
	e2 = bds_vol_parse_status("4 AAAA interleave 0,2,1,3 2 0 0 0 0 0 0 0 0 0,0,0,0", &v);
	check(e2 && !v.have_status, "a permutation for a weighted table is refused: %s",
	      e2 ? e2 : "(accepted)");
	memset(&v, 0, sizeof(v));
	e1 = bds_vol_parse_table(t2, &v);
	e2 = bds_vol_parse_status(t2s, &v);
	check(!e1 && !e2 && v.nr_slots == 36 && v.order[35] == 9 &&
	      v.pos_of[6] == 0 && v.pos_of[8] == 1 && v.pos_of[0] == 2 &&
	      v.pos_of[9] == 9, "T2: 36 slots, first slots of members 6, 8, 0, 9 (%s)",
	      e1 ? e1 : e2 ? e2 : "");
	memset(&v, 0, sizeof(v));
	check(!bds_vol_parse_table("128 2 2 8:16 2048 8:32 2048 2 8:48 2048 8:64 2048 4 volume " UUID " weights 3,1,1,2", &v) &&
	      v.args.volume_given && v.nr_slots == 7 && v.args.weight[3] == 2 &&
	      !bds_vol_parse_status("4 AAAA interleave 0,2,3,0,1,3,0 2 0 0 0 0 0 0 0 0 0,0,0,0", &v) &&
	      v.pos_of[3] == 2, "a labelled weighted table and its status");
}

/* A status line of @n healthy members with @slots slots in @order. */
static void weighted_status(char *buf, size_t sz, u32 n, const u32 *order,
			    u32 slots, u32 groups)
{
	size_t len = (size_t)snprintf(buf, sz, "%u ", n);
	u32 i;

	for (i = 0; i < n; i++)
		buf[len++] = 'A';
	len += (size_t)snprintf(buf + len, sz - len, " interleave");
	for (i = 0; i < slots; i++)
		len += (size_t)snprintf(buf + len, sz - len, "%c%u",
					i ? ',' : ' ', order[i]);
	len += (size_t)snprintf(buf + len, sz - len, " %u", groups);
	for (i = 0; i < 4 * groups; i++)
		len += (size_t)snprintf(buf + len, sz - len, " %u", i);
}

/* Random weights over random geometries: the target's slots read back. */
static void random_weighted(int round)
{
	static char table[16384], status[16384];
	static struct bds_slot slot[BDS_MAX_SLOTS];
	static u16 slot_of[BDS_MAX_SLOTS];
	static u32 order[BDS_MAX_SLOTS];
	unsigned int size[BDS_MAX_GROUPS], n = 1 + (unsigned int)(rnd() % 128);
	unsigned int groups = random_groups(n, size), g, k, i = 0, len;
	u32 sz[BDS_MAX_GROUPS], w[BDS_MAX_MEMBERS], slots;
	struct bds_layout l;
	const char *err;
	bool ok;

	for (g = 0; g < groups; g++)
		sz[g] = size[g];
	bds_layout_init(&l, 8, sz, groups, BDS_LAYOUT_INTERLEAVE);
	do {
		for (i = 0; i < n; i++)
			w[i] = 1 + (u32)(rnd() % (rnd() % 2 ? 3 : 16));
	} while (bds_weights_check(&l, w, &slots) != BDS_OK);
	bds_layout_weigh(&l, w, slots, slot, slot_of);
	len = (unsigned int)snprintf(table, sizeof(table), "8 %u", groups);
	for (g = 0, i = 0; g < groups; g++) {
		len += (unsigned int)snprintf(table + len, sizeof(table) - len,
					      " %u", size[g]);
		for (k = 0; k < size[g]; k++, i++)
			len += (unsigned int)snprintf(table + len,
						      sizeof(table) - len,
						      " 65:%u 0", i);
	}
	len += (unsigned int)snprintf(table + len, sizeof(table) - len,
				      " 2 weights");
	for (i = 0; i < n; i++)
		len += (unsigned int)snprintf(table + len, sizeof(table) - len,
					      "%c%u", i ? ',' : ' ', w[i]);
	for (i = 0; i < slots; i++)
		order[i] = bds_slot_member(&l, i);
	weighted_status(status, sizeof(status), n, order, slots, groups);
	memset(&v, 0, sizeof(v));
	ok = !bds_vol_parse_table(table, &v) && !bds_vol_parse_status(status, &v) &&
	     v.nr_members == n && v.nr_slots == slots;
	for (i = 0; ok && i < slots; i++)
		ok = v.order[i] == order[i];
	for (i = 0; ok && i < n; i++)
		ok = v.args.weight[i] == w[i] &&
		     v.pos_of[i] == bds_member_slot(&l, i, 0);
	check(ok, "random weights %d: %u members in %u groups, W %u read back",
	      round, n, groups, slots);
	if (n < 2)
		return;
	/* the last slot given to a member of another: refused */
	order[slots - 1] = (order[slots - 1] + 1) % n;
	weighted_status(status, sizeof(status), n, order, slots, groups);
	err = bds_vol_parse_status(status, &v);
	ok = err && strstr(err, "as many slots as its weight") && !v.have_status;
	/* and one slot fewer */
	weighted_status(status, sizeof(status), n, order, slots - 1, groups);
	err = bds_vol_parse_status(status, &v);
	check(ok && err && strstr(err, "as many slots as its weight"),
	      "random weights %d: a member with a slot too many, or too few, refused: %s",
	      round, err ? err : "(accepted)");
}

static void reading(void)
{
	struct bds_dm_info info = { .exists = true, .major = 254, .minor = 3 };

	stub_reachable = false;
	check(!bds_vol_read("vol", &v) && strstr(v.why, "cannot talk"),
	      "device-mapper not reachable: %s", v.why);
	stub_reachable = true;
	check(!bds_vol_read("vol", &v) && strstr(v.why, "no such"),
	      "no such device: %s", v.why);
	strcpy(info.uuid, "BDS-" UUID);
	strcpy(info.target, "linear");
	stub_info = info;
	check(bds_vol_read("vol", &v) && !v.have_table && strstr(v.why, "not a bds-stripe"),
	      "another target: %s", v.why);
	strcpy(stub_info.target, "bds-stripe");
	stub_table = T2X4;
	stub_status = NULL;
	check(bds_vol_read("vol", &v) && v.have_table && !v.have_status &&
	      v.sectors == 67108864 && v.major == 254,
	      "no status: the table still read (%s)", v.why);
	stub_status = S2X4;
	check(bds_vol_read("vol", &v) && v.have_status && !v.why[0] &&
	      v.io[1].reads == 101 && v.have_errors && v.errors[2] == 3,
	      "table and status read");
	stub_status = "8 AADAAAAA interleave 0,4,1,5,2,6,3,7 2 200 40 12800 5120 101 41 12801 5121 0,0,5,0,0,0,0,0";
	check(bds_vol_reread_status(&v) && v.io[0].reads == 200 &&
	      v.errors[2] == 5, "the status read again (--interval)");
	stub_status = "8 AADAAAAA interleave 0,4,1,5,2,6,3,7 2 200 40 12800 5120 101 41 12801 5121 0,0,5,0";
	check(!bds_vol_reread_status(&v) && !v.have_status && strstr(v.why, "error counts"),
	      "a malformed field 7 read again: %s", v.why);
}

int main(void)
{
	int i;

	documented_example();
	without_field_7();
	labelled_and_sequential();
	for (i = 0; i < 200; i++)
		random_geometry(i);
	malformed();
	weighted_examples();
	for (i = 0; i < 100; i++)
		random_weighted(i);
	reading();
	return tap_done();
}
