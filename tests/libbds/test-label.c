// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the on-disk member label (libbds/label.c).
 *
 *   - CRC-32C against published check values;
 *   - the golden vector (golden/label-v1.bin): decoded field by field
 *     against values written out here, and encoded back byte for byte
 *     from its description (label-golden.h);
 *   - every single-byte corruption of the golden vector is refused: all
 *     255 changes of each byte of the 512-byte head, and nine (each bit,
 *     and all bits) of each other byte;
 *   - each validity rule, one mutation at a time with the crc made right
 *     again, gives its own error; reserved bytes are ignored;
 *   - random valid labels round-trip through encode and decode, as
 *     primary and as backup copy;
 *   - the choice between two copies, the backup position and the default
 *     data offset.
 * Output is TAP; the last line is "N passed, N failed".
 *
 *   - the weighted golden vector (golden/label-v1-weighted.bin) the same
 *     way, and the rules that only weights bring.
 *   - the owned golden vector (golden/label-v1-owner.bin) the same way,
 *     the rules of the owner field, and unknown compat bits ignored.
 *   - the golden vector with a weights mode (golden/
 *     label-v1-weights-mode.bin) the same way: every single-byte
 *     corruption refused, the rules of the mode (rule 33), and older
 *     readers' view of it (the weighted golden label).
 *   - the golden vector with measured figures (golden/
 *     label-v1-measured.bin) the same way: every single-byte corruption
 *     refused, the rules of the figures (rule 35), and older readers'
 *     view of it (the weights-mode golden label).
 *   - the golden vector mid-restripe (golden/label-v1-reshape.bin) the
 *     same way: every single-byte corruption refused, no byte of the
 *     RESHAPE section ignored (each change with the crc made right is
 *     refused or read), each RESHAPE rule with its own error, and random
 *     labels with a restripe section round-trip.
 *
 *   - the golden vector with its backup in front of the data (golden/
 *     label-v1-front.bin, incompat FRONT_BACKUP) the same way: every
 *     single-byte corruption refused, the rules the bit changes (6, 18,
 *     19, 22, 26 and 32), its backup copy valid at sector 2032 only;
 *     bds_label_data_end(), bds_label_data_least(),
 *     bds_label_set_backup() and bds_label_backup_place() directly, and
 *     random front labels round-trip.
 *
 * Usage: test-label GOLDEN-FILE WEIGHTED-GOLDEN-FILE OWNER-GOLDEN-FILE
 *                   RESHAPE-GOLDEN-FILE WEIGHTS-MODE-GOLDEN-FILE
 *                   ADOPT-GOLDEN-FILE MEASURED-GOLDEN-FILE
 *                   FRONT-GOLDEN-FILE
 */
#include "libbds/label.h"	/* first: the header is self-contained */
#include "libbds/crc32c.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "label-golden.h"
#include "tap.h"

#define U(x) ((unsigned long long)(x))

/* Little-endian stores of our own, to mutate a label by offset. */
static void put32(u8 *b, size_t off, u32 v)
{
	int i;

	for (i = 0; i < 4; i++)
		b[off + i] = (u8)(v >> (8 * i));
}

static void put64(u8 *b, size_t off, u64 v)
{
	int i;

	for (i = 0; i < 8; i++)
		b[off + i] = (u8)(v >> (8 * i));
}

static u64 get64(const u8 *b, size_t off)
{
	u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = (v << 8) | b[off + i];
	return v;
}

static void refix_crc(u8 *b)
{
	put32(b, 16, bds_label_crc(b));
}

static u8 golden[BDS_LABEL_SIZE];

static bool load_golden(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;
	int extra;

	if (!f)
		return false;
	n = fread(golden, 1, sizeof(golden), f);
	extra = fgetc(f);
	fclose(f);
	return n == sizeof(golden) && extra == EOF;
}

/* CRC-32C bit by bit, from its definition. */
static u32 crc32c_bitwise(const u8 *p, size_t len)
{
	u32 crc = ~0U;
	int b;

	while (len--) {
		crc ^= *p++;
		for (b = 0; b < 8; b++)
			crc = (crc & 1) ? (crc >> 1) ^ 0x82f63b78U : crc >> 1;
	}
	return ~crc;
}

static void test_crc(void)
{
	u8 buf[32];
	u8 all[256];
	int i, bad = 0;

	for (i = 0; i < 256; i++) {
		u8 one = (u8)i;

		all[i] = (u8)i;
		if (bds_crc32c(&one, 1) != crc32c_bitwise(&one, 1))
			bad++;
	}
	check(bad == 0 && bds_crc32c(all, 256) == crc32c_bitwise(all, 256),
	      "crc32c table = the bitwise definition, every byte value");
	check(bds_crc32c(golden, sizeof(golden)) ==
	      crc32c_bitwise(golden, sizeof(golden)),
	      "crc32c of 8 KiB = the bitwise definition");

	check(bds_crc32c("123456789", 9) == 0xe3069283,
	      "crc32c(\"123456789\") = 0xe3069283");
	memset(buf, 0, sizeof(buf));
	check(bds_crc32c(buf, 32) == 0x8a9136aa,
	      "crc32c(32 x 0x00) = 0x8a9136aa (RFC 3720 B.4)");
	memset(buf, 0xff, sizeof(buf));
	check(bds_crc32c(buf, 32) == 0x62a8ab43,
	      "crc32c(32 x 0xff) = 0x62a8ab43 (RFC 3720 B.4)");
	{
		u8 copy[BDS_LABEL_SIZE];

		memcpy(copy, golden, sizeof(copy));
		memset(copy + 16, 0, 4);
		check(bds_label_crc(golden) == bds_crc32c(copy, sizeof(copy)),
		      "label crc = crc32c of the label with bytes 16..19 zero");
	}
}

static const u8 uuid_vol[16] = {
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x46, 0x17,
	0x98, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f };
static const u8 uuid_m1[16] = {
	0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x46, 0x37,
	0xb8, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f };

static void test_golden(void)
{
	struct bds_label l, want;
	static u8 enc[BDS_LABEL_SIZE];
	enum bds_label_err err;

	err = bds_label_decode(golden, sizeof(golden), &l);
	check(err == BDS_LABEL_OK, "golden decodes: %s", bds_label_error(err));
	check(U(get64(golden, 16) & 0xffffffff) == 0x4a8b05a8,
	      "golden crc field is 0x4a8b05a8");
	check(l.generation == 1 && l.ctime == 1767225600 &&
	      l.utime == 1767225600, "golden generation 1, times 2026-01-01");
	check(!memcmp(l.volume_uuid, uuid_vol, 16) &&
	      !memcmp(l.member_uuid, uuid_m1, 16) &&
	      !memcmp(l.uuid[1], uuid_m1, 16), "golden UUIDs");
	check(l.member_index == 1 && l.nr_members == 3 && l.nr_groups == 2 &&
	      l.layout == 0 && l.chunk_sectors == 128,
	      "golden geometry: member 1 of 3, 2 groups, interleave, 128");
	check(l.group_size[0] == 2 && l.group_size[1] == 1 &&
	      l.group_size[2] == 0, "golden groups 2 + 1");
	check(l.data_offset == 2048 && l.data_sectors == 4192128 &&
	      l.label_sector == 8 && l.backup_sector == 4194288 &&
	      l.member_sectors == 4194304,
	      "golden places: data 2048 + 4192128, copies at 8 and 4194288");
	check(!strcmp(l.name, "golden") && !strcmp(l.controller[0], "host0") &&
	      !strcmp(l.controller[1], "host1") &&
	      !strcmp(l.serial[0], "QM00001") &&
	      !strcmp(l.serial[2], "QM00003"), "golden texts");
	check(l.member_offset[0] == 2048 && l.member_offset[2] == 2048 &&
	      l.weight[0] == 1 && l.weight[2] == 1,
	      "golden member table: offsets 2048, weights 1");

	golden_label(&want);
	check(!memcmp(&l, &want, sizeof(l)),
	      "golden decodes to its description (label-golden.h)");
	bds_label_encode(&want, enc);
	check(!memcmp(enc, golden, sizeof(enc)),
	      "the description encodes to the golden vector byte for byte");
	check(bds_label_decode(golden, sizeof(golden) - 1, &l) ==
	      BDS_LABEL_ERR_SHORT, "8191 bytes: too short");
}

/*
 * Every single-byte corruption of @vec refused: all 255 changes of each
 * byte of the head, and nine (each bit, and all bits) of every other.
 */
static void test_corruption_of(const u8 *vec, const char *what)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l;
	size_t off, missed = 0, tried = 0, dirty = 0;
	unsigned int x;

	memcpy(buf, vec, sizeof(buf));
	for (off = 0; off < BDS_LABEL_SIZE; off++) {
		for (x = 1; x < 256; x++) {
			if (off >= 512 && x != 0xff && (x & (x - 1)))
				continue;
			buf[off] = (u8)(vec[off] ^ x);
			tried++;
			if (bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_OK)
				missed++;
			else if (!bds_bytes_zero(&l, sizeof(l)))
				dirty++;
		}
		buf[off] = vec[off];
	}
	check(missed == 0, "%severy single-byte corruption refused (%zu tried, %zu accepted)",
	      what, tried, missed);
	check(dirty == 0, "%sa refused copy leaves nothing decoded (%zu did)",
	      what, dirty);
}

static void test_corruption(void)
{
	test_corruption_of(golden, "");
}

struct mutation {
	const char *what;
	size_t off;
	int width;		/* 1, 4 or 8 bytes; 0: set a text; 16: a UUID */
	u64 value;
	const char *text;
	enum bds_label_err want;
	bool keep_crc;		/* leave the crc as it was */
};

static const struct mutation mutations[] = {
	{ "magic", 0, 1, 'b', NULL, BDS_LABEL_ERR_MAGIC, false },
	{ "version 2", 8, 4, 2, NULL, BDS_LABEL_ERR_VERSION, false },
	{ "version 0", 8, 4, 0, NULL, BDS_LABEL_ERR_VERSION, false },
	{ "label size 4096", 12, 4, 4096, NULL, BDS_LABEL_ERR_SIZE, false },
	{ "crc off by one", 16, 4, 0x4a8b05a9, NULL, BDS_LABEL_ERR_CRC, true },
	{ "incompat ADOPT in a primary copy", 20, 4, 4, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "incompat FRONT_BACKUP (0x8), backup at the end", 20, 4, 8, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "incompat feature 0x10", 20, 4, 0x10, NULL, BDS_LABEL_ERR_INCOMPAT, false },
	{ "incompat RESHAPE without its section", 20, 4, 2, NULL, BDS_LABEL_ERR_RESHAPE, false },
	{ "incompat feature 0x80000000", 20, 4, 0x80000000U, NULL, BDS_LABEL_ERR_INCOMPAT, false },
	{ "incompat WEIGHTS, every weight 1", 20, 4, 1, NULL, BDS_LABEL_ERR_WEIGHT, false },
	{ "member index 3 of 3", 80, 4, 3, NULL, BDS_LABEL_ERR_INDEX, false },
	{ "nr_members 0", 84, 4, 0, NULL, BDS_LABEL_ERR_MEMBERS, false },
	{ "nr_members 129", 84, 4, 129, NULL, BDS_LABEL_ERR_MEMBERS, false },
	{ "nr_members 4, groups hold 3", 84, 4, 4, NULL, BDS_LABEL_ERR_GROUPS, false },
	{ "nr_groups 0", 88, 4, 0, NULL, BDS_LABEL_ERR_GROUPS, false },
	{ "nr_groups 33", 88, 4, 33, NULL, BDS_LABEL_ERR_GROUPS, false },
	{ "nr_groups 1, group 1 used", 88, 4, 1, NULL, BDS_LABEL_ERR_GROUPS, false },
	{ "group 0 of 3 members", 512, 4, 3, NULL, BDS_LABEL_ERR_GROUPS, false },
	{ "group 1 empty", 536, 4, 0, NULL, BDS_LABEL_ERR_GROUPS, false },
	{ "group 0 of 2^32-1 members", 512, 4, 0xffffffff, NULL, BDS_LABEL_ERR_GROUPS, false },
	{ "unused group entry not zero", 512 + 24 * 5 + 4, 1, 'x', NULL, BDS_LABEL_ERR_GROUPS, false },
	{ "layout 2", 92, 4, 2, NULL, BDS_LABEL_ERR_GEOMETRY, false },
	{ "chunk 0", 96, 8, 0, NULL, BDS_LABEL_ERR_GEOMETRY, false },
	{ "chunk 100 (not 4 KiB)", 96, 8, 100, NULL, BDS_LABEL_ERR_GEOMETRY, false },
	{ "chunk 2^40", 96, 8, 1ULL << 40, NULL, BDS_LABEL_ERR_GEOMETRY, false },
	{ "volume UUID zero", 48, 16, 0, NULL, BDS_LABEL_ERR_UUID, false },
	{ "member UUID not the table's", 64, 1, 0x31, NULL, BDS_LABEL_ERR_UUID, false },
	{ "member 2 has member 0's UUID", 1280 + 96, 16, 1280, NULL, BDS_LABEL_ERR_UUID, false },
	{ "member 0 UUID zero", 1280, 16, 0, NULL, BDS_LABEL_ERR_UUID, false },
	{ "unused member entry not zero", 1280 + 48 * 3 + 30, 1, 'x', NULL, BDS_LABEL_ERR_MEMBERS, false },
	{ "weight 0", 1280 + 48 + 24, 4, 0, NULL, BDS_LABEL_ERR_WEIGHT, false },
	{ "weight 2 without incompat WEIGHTS", 1280 + 24, 4, 2, NULL, BDS_LABEL_ERR_WEIGHT, false },
	{ "name empty", 256, 0, 0, "", BDS_LABEL_ERR_NAME, false },
	{ "name with a blank", 256, 0, 0, "a b", BDS_LABEL_ERR_NAME, false },
	{ "name with a slash", 256, 0, 0, "a/b", BDS_LABEL_ERR_NAME, false },
	{ "name starting with '-'", 256, 0, 0, "-x", BDS_LABEL_ERR_NAME, false },
	{ "name starting with '.'", 256, 0, 0, ".x", BDS_LABEL_ERR_NAME, false },
	{ "name of 128 bytes, no NUL", 256, 0, 0,
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	  BDS_LABEL_ERR_NAME, false },
	{ "name text after its NUL", 256 + 10, 1, 'x', NULL, BDS_LABEL_ERR_NAME, false },
	{ "serial text after its NUL", 1280 + 28 + 10, 1, 'x', NULL, BDS_LABEL_ERR_TEXT, false },
	{ "controller text after its NUL", 512 + 4 + 10, 1, 'x', NULL, BDS_LABEL_ERR_TEXT, false },
	{ "data offset 16 (in the primary copy)", 104, 8, 16, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "data offset not the member table's", 104, 8, 4096, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "data length 0", 112, 8, 0, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "data length not whole units", 112, 8, 4192000 + 64, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "data runs into the backup", 112, 8, 4192128 + 128, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "data length near 2^64", 112, 8, ~0ULL - 127, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "copy at sector 0", 120, 8, 0, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "backup not at the member's end", 128, 8, 4194280, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "member size 1 GiB (data past it)", 136, 8, 2097152, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "member size 0", 136, 8, 0, NULL, BDS_LABEL_ERR_PLACE, false },
	{ "serial with a control character", 1280 + 28 + 2, 1, 0x07, NULL, BDS_LABEL_ERR_TEXT, false },
	{ "controller with a byte above 0x7e", 512 + 4 + 1, 1, 0xc3, NULL, BDS_LABEL_ERR_TEXT, false },
	{ "name with a byte above 0x7e", 256 + 1, 1, 0xe9, NULL, BDS_LABEL_ERR_NAME, false },
};

static void apply(u8 *b, const struct mutation *m)
{
	switch (m->width) {
	case 0:
		memset(b + m->off, 0, BDS_LABEL_NAME_LEN);
		memcpy(b + m->off, m->text, strnlen(m->text, BDS_LABEL_NAME_LEN));
		break;
	case 1:
		b[m->off] = (u8)m->value;
		break;
	case 4:
		put32(b, m->off, (u32)m->value);
		break;
	case 16:	/* a copy of the UUID at offset value, or zero */
		if (m->value)
			memcpy(b + m->off, b + m->value, BDS_UUID_LEN);
		else
			memset(b + m->off, 0, BDS_UUID_LEN);
		break;
	default:
		put64(b, m->off, m->value);
		break;
	}
	if (!m->keep_crc)
		refix_crc(b);
}

static void test_rules(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l;
	size_t i;

	for (i = 0; i < sizeof(mutations) / sizeof(mutations[0]); i++) {
		const struct mutation *m = &mutations[i];
		enum bds_label_err err;

		memcpy(buf, golden, sizeof(buf));
		apply(buf, m);
		err = bds_label_decode(buf, sizeof(buf), &l);
		check(err == m->want, "%s: %s (want: %s)", m->what,
		      bds_label_error(err), bds_label_error(m->want));
	}

	/* Reserved bytes are the future's: readers of version 1 ignore them. */
	memcpy(buf, golden, sizeof(buf));
	buf[148] = 1;
	buf[240] = 4;
	buf[255] = 5;
	refix_crc(buf);
	check(bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_OK,
	      "reserved bytes set: still valid");
	/* ... but for the RESHAPE section's, which must be zero without it */
	for (i = 0; i < 3; i++) {
		static const size_t at[3] = { 400, 7424, BDS_LABEL_SIZE - 1 };
		enum bds_label_err err;

		memcpy(buf, golden, sizeof(buf));
		buf[at[i]] = 2;
		refix_crc(buf);
		err = bds_label_decode(buf, sizeof(buf), &l);
		check(err == BDS_LABEL_ERR_RESHAPE,
		      "byte %zu of the RESHAPE section set without the bit: %s",
		      at[i], bds_label_error(err));
	}

	/* Text fields may fill their whole width. */
	memcpy(buf, golden, sizeof(buf));
	memset(buf + 1280 + 28, 'S', BDS_LABEL_SERIAL_LEN);
	memset(buf + 512 + 4, 'C', BDS_LABEL_CTRL_LEN);
	refix_crc(buf);
	check(bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_OK &&
	      strlen(l.serial[0]) == BDS_LABEL_SERIAL_LEN &&
	      strlen(l.controller[0]) == BDS_LABEL_CTRL_LEN,
	      "20-character serial and controller: valid, read whole");

	/* The name may have 127 characters. */
	memcpy(buf, golden, sizeof(buf));
	memset(buf + 256, 'n', BDS_LABEL_NAME_LEN - 1);
	refix_crc(buf);
	check(bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_OK &&
	      strlen(l.name) == BDS_LABEL_NAME_LEN - 1,
	      "127-character name: valid");

	/* The same label as the backup copy. */
	memcpy(buf, golden, sizeof(buf));
	put64(buf, 120, 4194288);
	refix_crc(buf);
	check(bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_OK &&
	      l.label_sector == 4194288, "the backup copy (at 4194288): valid");
	check(bds_label_read(buf, sizeof(buf), 4194288, &l) == BDS_LABEL_OK,
	      "the backup copy read where it says it lies: valid");
	check(bds_label_read(buf, sizeof(buf), 8, &l) == BDS_LABEL_ERR_PLACE &&
	      bds_bytes_zero(&l, sizeof(l)),
	      "the backup copy read at sector 8: no label");
	check(bds_label_read(golden, sizeof(golden), 8, &l) == BDS_LABEL_OK,
	      "the primary read at sector 8: valid");

	/*
	 * A member of fewer than 16 sectors, with a data area that would
	 * wrap around 2^64: no label (the backup position would wrap too).
	 */
	memcpy(buf, golden, sizeof(buf));
	put64(buf, 136, 0);
	put64(buf, 128, bds_label_backup_sector(0));
	put64(buf, 104, 24);
	put64(buf, 1280 + 48 + 16, 24);
	put64(buf, 112, ~0ULL - 40 - 127);
	put64(buf, 96, 8);
	refix_crc(buf);
	check(bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_ERR_PLACE,
	      "member size 0 with a data area wrapping 2^64: %s",
	      bds_label_error(bds_label_decode(buf, sizeof(buf), &l)));
	memcpy(buf, golden, sizeof(buf));
	put64(buf, 136, BDS_LABEL_MIN_MEMBER - 1);
	put64(buf, 128, bds_label_backup_sector(BDS_LABEL_MIN_MEMBER - 1));
	refix_crc(buf);
	check(bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_ERR_PLACE,
	      "member smaller than two copies and a block: no label");
}

static void random_text(char *s, size_t max, const char *set)
{
	size_t n = rnd() % (max + 1), i, k = strlen(set);

	memset(s, 0, max + 1);
	for (i = 0; i < n; i++)
		s[i] = set[rnd() % k];
	s[n] = '\0';
}

/*
 * Half of the interleaved labels get random weights (sum at most 1024,
 * a cycle within 32 bits of bytes, and room for a cycle of the heaviest
 * member below the backup); the others keep weight 1 everywhere.
 */
static void random_weights(struct bds_label *l)
{
	u64 room = l->backup_sector - l->data_offset;
	u32 i, w = 0, top;

	for (i = 0; i < l->nr_members; i++)
		l->weight[i] = 1;
	if (l->layout != BDS_LAYOUT_INTERLEAVE || (rnd() & 1))
		return;
	top = 1 + (u32)(rnd() % 255);
	for (i = 0; i < l->nr_members; i++) {
		u32 left = 1024 - w - (l->nr_members - i - 1);
		u32 max = top < left ? top : left;

		l->weight[i] = 1 + (u32)(rnd() % max);
		if ((l->chunk_sectors << 9) * (w + l->weight[i]) > 0xffffffffULL ||
		    l->chunk_sectors * l->weight[i] > room)
			l->weight[i] = 1;
		w += l->weight[i];
	}
	if (w != l->nr_members)
		l->incompat = BDS_LABEL_INCOMPAT_WEIGHTS;
}

static void random_label(struct bds_label *l)
{
	static const char name_set[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-";
	static const char text_set[] =
		"abcdefghijklmnopqrstuvwxyz0123456789:._-/ ~!";
	u32 n, g, i, j;
	u64 size;
	u32 pbs = (rnd() & 1) ? 8 : 1;

	memset(l, 0, sizeof(*l));
	n = 1 + (u32)(rnd() % BDS_MAX_MEMBERS);
	l->nr_members = n;
	l->nr_groups = random_groups(n, l->group_size);
	for (g = 0; g < l->nr_groups; g++)
		random_text(l->controller[g], BDS_LABEL_CTRL_LEN, text_set);
	l->chunk_sectors = 8 * (1 + rnd() % 512);
	l->layout = (u32)(rnd() & 1);
	do {
		size = (1ULL << 20) + rnd() % (1ULL << 40);
		l->data_offset = bds_label_data_offset((u32)l->chunk_sectors, pbs);
		l->backup_sector = bds_label_backup_sector(size);
	} while (l->backup_sector < l->data_offset + l->chunk_sectors);
	l->member_sectors = size;
	l->data_sectors = (l->backup_sector - l->data_offset) /
			  l->chunk_sectors * l->chunk_sectors;
	random_weights(l);
	l->label_sector = (rnd() & 1) ? BDS_LABEL_PRIMARY : l->backup_sector;
	l->generation = rnd();
	l->ctime = rnd() >> 30;
	l->utime = rnd() >> 30;
	for (i = 0; i < BDS_UUID_LEN; i++)
		l->volume_uuid[i] = (u8)rnd();
	l->volume_uuid[0] |= 1;
	for (i = 0; i < n; i++) {
		for (j = 0; j < BDS_UUID_LEN; j++)
			l->uuid[i][j] = (u8)rnd();
		l->uuid[i][0] = (u8)i;		/* distinct and never zero */
		l->uuid[i][1] = 0x80;
		l->member_offset[i] = 24 + rnd() % 100000;
		random_text(l->serial[i], BDS_LABEL_SERIAL_LEN, text_set);
	}
	l->member_index = (u32)(rnd() % n);
	if (l->incompat) {
		/* whole cycles: this member's weight in units each */
		u64 cyc = l->chunk_sectors * l->weight[l->member_index];

		l->data_sectors = (l->backup_sector - l->data_offset) / cyc * cyc;
		if (!l->data_sectors)
			l->data_sectors = cyc;	/* room: see random_weights() */
	}
	l->member_offset[l->member_index] = l->data_offset;
	memcpy(l->member_uuid, l->uuid[l->member_index], BDS_UUID_LEN);
	do {
		random_text(l->name, BDS_LABEL_NAME_LEN - 1, name_set);
	} while (!l->name[0] || l->name[0] == '.' || l->name[0] == '-');
	/* half of them owned */
	if (rnd() & 1) {
		do {
			random_text(l->owner, BDS_LABEL_OWNER_LEN - 1, name_set);
		} while (!l->owner[0] || l->owner[0] == '.' || l->owner[0] == '-');
		l->compat = BDS_LABEL_COMPAT_OWNER;
	}
}

static void test_round_trip(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l, d;
	int i, bad = 0, first = -1;
	enum bds_label_err err = BDS_LABEL_OK;

	for (i = 0; i < 2000; i++) {
		random_label(&l);
		bds_label_encode(&l, buf);
		err = bds_label_decode(buf, sizeof(buf), &d);
		if (err || memcmp(&l, &d, sizeof(l))) {
			if (first < 0)
				first = i;
			bad++;
		}
	}
	check(bad == 0, "2000 random labels round-trip (%d did not, first #%d: %s)",
	      bad, first, bds_label_error(err));
}

static void test_pick(void)
{
	struct bds_label p, b;

	memset(&p, 0, sizeof(p));
	memset(&b, 0, sizeof(b));
	p.generation = 5;
	b.generation = 5;
	check(bds_label_pick(BDS_LABEL_OK, &p, BDS_LABEL_OK, &b) == 0,
	      "same generation: the primary");
	b.generation = 6;
	check(bds_label_pick(BDS_LABEL_OK, &p, BDS_LABEL_OK, &b) == 1,
	      "backup newer: the backup");
	b.generation = 4;
	check(bds_label_pick(BDS_LABEL_OK, &p, BDS_LABEL_OK, &b) == 0,
	      "primary newer: the primary");
	check(bds_label_pick(BDS_LABEL_ERR_CRC, &p, BDS_LABEL_OK, &b) == 1,
	      "primary bad: the backup, whatever its generation");
	check(bds_label_pick(BDS_LABEL_OK, &p, BDS_LABEL_ERR_MAGIC, &b) == 0,
	      "backup bad: the primary");
	check(bds_label_pick(BDS_LABEL_ERR_CRC, &p, BDS_LABEL_ERR_MAGIC, &b) == -1,
	      "both bad: no label");
	b.generation = 9;
	b.volume_uuid[0] = 1;
	check(bds_label_pick(BDS_LABEL_OK, &p, BDS_LABEL_OK, &b) ==
	      BDS_LABEL_PICK_CONFLICT,
	      "copies of two volumes: a conflict, not the newer one");
	b.volume_uuid[0] = 0;
	b.member_uuid[0] = 1;
	check(bds_label_pick(BDS_LABEL_OK, &p, BDS_LABEL_OK, &b) ==
	      BDS_LABEL_PICK_CONFLICT, "copies of two members: a conflict");
}

static void test_places(void)
{
	check(bds_label_backup_sector(4194304) == 4194288,
	      "backup of a 2 GiB member at sector 4194288");
	check(bds_label_backup_sector(4194304 + 7) == 4194288,
	      "a size that is not whole 4 KiB: backup below the last whole 4 KiB");
	check(bds_label_data_offset(128, 1) == 2048, "data offset, 64 KiB unit: 1 MiB");
	check(bds_label_data_offset(192, 8) == 2112,
	      "data offset, 96 KiB unit: 2112 (11 units)");
	check(bds_label_data_offset(4096, 8) == 4096,
	      "data offset, 2 MiB unit: one unit");
	check(bds_label_data_offset(24, 16) == 2064,
	      "data offset, 12 KiB unit, 8 KiB blocks: 2064 (86 units)");
	check(bds_label_data_offset(24, 32) == 2112,
	      "data offset, 12 KiB unit, 16 KiB blocks: 2112 (88 units, the first on a block)");
	check(bds_label_data_offset(8, 64) == 2048,
	      "data offset, 4 KiB unit, 32 KiB blocks: 2048");
}

static u8 wgolden[BDS_LABEL_SIZE];

static bool load_file(const char *path, u8 *buf)
{
	FILE *f = fopen(path, "rb");
	size_t n;
	int extra;

	if (!f)
		return false;
	n = fread(buf, 1, BDS_LABEL_SIZE, f);
	extra = fgetc(f);
	fclose(f);
	return n == BDS_LABEL_SIZE && extra == EOF;
}

/* The weighted golden vector: its description encodes to it, and back. */
static void test_weighted_golden(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label want, l;
	enum bds_label_err err;

	golden_weighted_label(&want);
	bds_label_encode(&want, buf);
	check(!memcmp(buf, wgolden, sizeof(buf)),
	      "weighted golden: its description encodes to the file byte for byte");
	check(U(get64(wgolden, 16) & 0xffffffff) == 0xfec10e84,
	      "weighted golden: crc 0x%08llx, incompat 0x%08llx",
	      U(get64(wgolden, 16) & 0xffffffff), U(get64(wgolden, 16) >> 32));
	check((get64(wgolden, 16) >> 32) == BDS_LABEL_INCOMPAT_WEIGHTS,
	      "weighted golden: incompat says WEIGHTS (bytes 20..23 = 1)");
	err = bds_label_decode(wgolden, sizeof(wgolden), &l);
	check(err == BDS_LABEL_OK && !memcmp(&l, &want, sizeof(l)),
	      "weighted golden decodes to its description: %s",
	      bds_label_error(err));
	check(l.weight[0] == 3 && l.weight[1] == 1 && l.weight[2] == 2 &&
	      l.data_sectors % (128 * 1) == 0,
	      "weighted golden: weights 3,1,2; member 1 holds %llu sectors",
	      U(l.data_sectors));
}

/* Rules only weights bring, as mutations of the weighted golden vector. */
static void test_weighted_rules(void)
{
	static const struct mutation wm[] = {
		{ "WEIGHTS bit cleared, weights 3,1,2", 20, 4, 0, NULL, BDS_LABEL_ERR_WEIGHT, false },
		{ "unknown bit beside WEIGHTS", 20, 4, 0x11, NULL, BDS_LABEL_ERR_INCOMPAT, false },
		{ "weight 256", 1280 + 24, 4, 256, NULL, BDS_LABEL_ERR_WEIGHT, false },
		{ "weight 0", 1280 + 96 + 24, 4, 0, NULL, BDS_LABEL_ERR_WEIGHT, false },
		{ "layout sequential with weights", 92, 4, 1, NULL, BDS_LABEL_ERR_GEOMETRY, false },
		{ "chunk 2^21: a cycle of 6 over 32 bits", 96, 8, 1ULL << 21, NULL, BDS_LABEL_ERR_GEOMETRY, false },
		{ "this member's weight 2: data not whole cycles of 2 units", 1280 + 48 + 24, 4, 2, NULL, BDS_LABEL_ERR_PLACE, false },
	};
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l;
	enum bds_label_err err;
	size_t i;

	for (i = 0; i < sizeof(wm) / sizeof(wm[0]); i++) {
		memcpy(buf, wgolden, sizeof(buf));
		apply(buf, &wm[i]);
		err = bds_label_decode(buf, sizeof(buf), &l);
		check(err == wm[i].want, "weighted: %s: %s (want: %s)", wm[i].what,
		      bds_label_error(err), bds_label_error(wm[i].want));
	}
}

static u8 ogolden[BDS_LABEL_SIZE];

/* The owned golden vector: its description encodes to it, and back. */
static void test_owner_golden(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label want, l;
	enum bds_label_err err;

	golden_owner_label(&want);
	bds_label_encode(&want, buf);
	check(!memcmp(buf, ogolden, sizeof(buf)),
	      "owned golden: its description encodes to the file byte for byte");
	check(U(get64(ogolden, 16) & 0xffffffff) == 0x5efa2901,
	      "owned golden: crc 0x%08llx", U(get64(ogolden, 16) & 0xffffffff));
	check(U(get64(ogolden, 144) & 0xffffffff) == BDS_LABEL_COMPAT_OWNER &&
	      !memcmp(ogolden + 152, GOLDEN_OWNER, 32) &&
	      bds_bytes_zero(ogolden + 184, 256 - 184),
	      "owned golden: compat OWNER at 144, the system ID at 152, zero to 255");
	check(!memcmp(ogolden + 256, golden + 256, BDS_LABEL_SIZE - 256) &&
	      !memcmp(ogolden + 20, golden + 20, 144 - 20),
	      "owned golden: the rest is the golden label's, byte for byte");
	err = bds_label_decode(ogolden, sizeof(ogolden), &l);
	check(err == BDS_LABEL_OK && !memcmp(&l, &want, sizeof(l)),
	      "owned golden decodes to its description: %s",
	      bds_label_error(err));
	/* an older reader sees the golden label: the owner only is new */
	err = bds_label_decode(golden, sizeof(golden), &l);
	check(err == BDS_LABEL_OK && !l.owner[0] && !l.compat,
	      "the golden label has no owner (as every label before 1.6.0)");
}

/* Rules of the owner field, as mutations of the owned golden vector. */
static void test_owner_rules(void)
{
	static const struct mutation om[] = {
		{ "OWNER bit cleared, owner text kept", 144, 4, 0, NULL, BDS_LABEL_ERR_OWNER, false },
		{ "owner empty, OWNER bit set", 152, 0, 0, "", BDS_LABEL_ERR_OWNER, false },
		{ "owner with a blank", 152, 0, 0, "a b", BDS_LABEL_ERR_OWNER, false },
		{ "owner with a slash", 152, 0, 0, "host/1", BDS_LABEL_ERR_OWNER, false },
		{ "owner starting with '-'", 152, 0, 0, "-host", BDS_LABEL_ERR_OWNER, false },
		{ "owner text after its NUL", 152 + 40, 1, 'x', NULL, BDS_LABEL_ERR_OWNER, false },
		{ "owner with a control character", 152 + 3, 1, 0x1b, NULL, BDS_LABEL_ERR_OWNER, false },
	};
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l;
	enum bds_label_err err;
	size_t i;

	for (i = 0; i < sizeof(om) / sizeof(om[0]); i++) {
		memcpy(buf, ogolden, sizeof(buf));
		if (om[i].width == 0) {	/* a text in the 64-byte owner field */
			memset(buf + 152, 0, BDS_LABEL_OWNER_LEN);
			memcpy(buf + 152, om[i].text, strlen(om[i].text));
			refix_crc(buf);
		} else {
			apply(buf, &om[i]);
		}
		err = bds_label_decode(buf, sizeof(buf), &l);
		check(err == om[i].want, "owner: %s: %s (want: %s)", om[i].what,
		      bds_label_error(err), bds_label_error(om[i].want));
	}

	/* 63 characters fill the field but for its NUL; 64 do not fit */
	memcpy(buf, ogolden, sizeof(buf));
	memset(buf + 152, 'o', BDS_LABEL_OWNER_LEN - 1);
	refix_crc(buf);
	check(bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_OK &&
	      strlen(l.owner) == BDS_LABEL_OWNER_LEN - 1,
	      "owner: 63 characters: valid");
	buf[152 + BDS_LABEL_OWNER_LEN - 1] = 'o';
	refix_crc(buf);
	check(bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_ERR_OWNER,
	      "owner: 64 characters, no NUL: refused");

	/* compat bits this version does not know are ignored, not kept */
	memcpy(buf, ogolden, sizeof(buf));
	put32(buf, 144, 0xfffffff8U | BDS_LABEL_COMPAT_OWNER);
	refix_crc(buf);
	check(bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_OK &&
	      l.compat == BDS_LABEL_COMPAT_OWNER && !strcmp(l.owner, GOLDEN_OWNER),
	      "owner: unknown compat bits beside OWNER: valid, ignored");
	memcpy(buf, golden, sizeof(buf));
	put32(buf, 144, 0x80000000U);
	refix_crc(buf);
	check(bds_label_decode(buf, sizeof(buf), &l) == BDS_LABEL_OK &&
	      l.compat == 0 && !l.owner[0],
	      "an unknown compat bit alone: valid, no owner");
}

static u8 agolden[BDS_LABEL_SIZE];

/*
 * The adopting golden vector (a backup copy with ADOPT): its description
 * encodes to it and back; it differs from the golden label only in
 * incompat, label_sector and the crc; a reader of 1.8.3 and before
 * refuses it for the unknown bit, and ADOPT is valid only in a backup.
 */
static void test_adopt_golden(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label want, l;
	enum bds_label_err err;
	size_t i, diff = 0;

	golden_adopt_label(&want);
	bds_label_encode(&want, buf);
	check(!memcmp(buf, agolden, sizeof(buf)),
	      "adopting golden: its description encodes to the file byte for byte");
	check(U(get64(agolden, 16) & 0xffffffff) == 0x4660554c,
	      "adopting golden: crc 0x%08llx", U(get64(agolden, 16) & 0xffffffff));
	check(U(get64(agolden, 20) & 0xffffffff) == BDS_LABEL_INCOMPAT_ADOPT &&
	      get64(agolden, 120) == GOLDEN_MEMBER_SECTORS - 16,
	      "adopting golden: incompat ADOPT (4) at 20, label_sector the backup's at 120");
	for (i = 0; i < BDS_LABEL_SIZE; i++)
		if (agolden[i] != golden[i] && !(i >= 16 && i < 24) &&
		    !(i >= 120 && i < 128))
			diff++;
	check(!diff, "adopting golden: the rest is the golden label's (%zu bytes differ)",
	      diff);
	err = bds_label_read(agolden, sizeof(agolden), GOLDEN_MEMBER_SECTORS - 16, &l);
	check(err == BDS_LABEL_OK && !memcmp(&l, &want, sizeof(l)),
	      "adopting golden decodes to its description: %s",
	      bds_label_error(err));
	/* rule 6 of 1.8.3: no incompat bit but WEIGHTS and RESHAPE */
	check((get64(agolden, 20) & 0xffffffff &
	       ~(u64)(BDS_LABEL_INCOMPAT_WEIGHTS | BDS_LABEL_INCOMPAT_RESHAPE)) != 0,
	      "adopting golden: a reader that knows WEIGHTS and RESHAPE only refuses it (rule 6)");
	memcpy(buf, agolden, sizeof(buf));
	put64(buf, 120, 8);
	buf[20] |= BDS_LABEL_INCOMPAT_ADOPT;
	refix_crc(buf);
	err = bds_label_decode(buf, sizeof(buf), &l);
	check(err == BDS_LABEL_ERR_PLACE,
	      "adopting golden written as a primary (label_sector 8): %s",
	      bds_label_error(err));
}

static u8 mgolden[BDS_LABEL_SIZE];

/* The golden vector with a weights mode: its description, and back. */
static void test_weights_mode_golden(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label want, l;
	enum bds_label_err err;

	golden_weights_mode_label(&want);
	bds_label_encode(&want, buf);
	check(!memcmp(buf, mgolden, sizeof(buf)),
	      "weights-mode golden: its description encodes to the file byte for byte");
	check(U(get64(mgolden, 16) & 0xffffffff) == 0x378cd7f7,
	      "weights-mode golden: crc 0x%08llx", U(get64(mgolden, 16) & 0xffffffff));
	check(U(get64(mgolden, 144) & 0xffffffff) == BDS_LABEL_COMPAT_WEIGHTS_MODE &&
	      U(get64(mgolden, 216) & 0xffffffff) == BDS_WEIGHTS_MODE_CAPACITY,
	      "weights-mode golden: compat WEIGHTS_MODE at 144, mode 1 (capacity) at 216");
	check(!memcmp(mgolden + 20, wgolden + 20, 144 - 20) &&
	      !memcmp(mgolden + 148, wgolden + 148, 216 - 148) &&
	      !memcmp(mgolden + 220, wgolden + 220, BDS_LABEL_SIZE - 220),
	      "weights-mode golden: the rest is the weighted golden label's, byte for byte");
	err = bds_label_decode(mgolden, sizeof(mgolden), &l);
	check(err == BDS_LABEL_OK && !memcmp(&l, &want, sizeof(l)),
	      "weights-mode golden decodes to its description: %s",
	      bds_label_error(err));
	/* every label before 1.8.2 has no mode */
	err = bds_label_decode(wgolden, sizeof(wgolden), &l);
	check(err == BDS_LABEL_OK && !l.weights_mode && !l.compat,
	      "the weighted golden label has no weights mode (as every label before 1.8.2)");
	/* a reader before 1.8.2 ignored bytes 144..255 but the owner */
	memcpy(buf, mgolden, sizeof(buf));
	put32(buf, 144, 0);
	put32(buf, 216, 0);
	refix_crc(buf);
	check(!memcmp(buf, wgolden, sizeof(buf)),
	      "weights-mode golden: without the bit and the field, the weighted golden label");
}

static u8 ggolden[BDS_LABEL_SIZE];

/* The golden vector with measured figures: its description, and back. */
static void test_measured_golden(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label want, l;
	enum bds_label_err err;

	golden_measured_label(&want);
	bds_label_encode(&want, buf);
	check(!memcmp(buf, ggolden, sizeof(buf)),
	      "measured golden: its description encodes to the file byte for byte");
	check(U(get64(ggolden, 16) & 0xffffffff) == 0x9c83ab21,
	      "measured golden: crc 0x%08llx", U(get64(ggolden, 16) & 0xffffffff));
	check(U(get64(ggolden, 144) & 0xffffffff) ==
	      (BDS_LABEL_COMPAT_WEIGHTS_MODE | BDS_LABEL_COMPAT_MEASURED) &&
	      U(get64(ggolden, 220) & 0xffffffff) == 20000 &&
	      U(get64(ggolden, 224) & 0xffffffff) == 40000 &&
	      U(get64(ggolden, 232)) == 1796515200ULL,
	      "measured golden: compat WEIGHTS_MODE | MEASURED at 144, 20000 kB/s at 220, 40000 at 224, 2026-12-06 at 232");
	check(!memcmp(ggolden + 20, mgolden + 20, 144 - 20) &&
	      !memcmp(ggolden + 148, mgolden + 148, 220 - 148) &&
	      !memcmp(ggolden + 228, mgolden + 228, 4) &&
	      !memcmp(ggolden + 240, mgolden + 240, BDS_LABEL_SIZE - 240),
	      "measured golden: the rest is the weights-mode golden label's, byte for byte");
	err = bds_label_decode(ggolden, sizeof(ggolden), &l);
	check(err == BDS_LABEL_OK && !memcmp(&l, &want, sizeof(l)),
	      "measured golden decodes to its description: %s",
	      bds_label_error(err));
	/* a reader before MEASURED ignored bytes 220..255 */
	memcpy(buf, ggolden, sizeof(buf));
	put32(buf, 144, BDS_LABEL_COMPAT_WEIGHTS_MODE);
	memset(buf + 220, 0, 20);
	refix_crc(buf);
	check(!memcmp(buf, mgolden, sizeof(buf)),
	      "measured golden: without the bit and the fields, the weights-mode golden label");
}

/* Rule 35, as mutations of the golden vector with measured figures. */
static void test_measured_rules(void)
{
	static const struct mutation mm[] = {
		{ "MEASURED bit cleared, figures kept", 144, 4, BDS_LABEL_COMPAT_WEIGHTS_MODE, NULL, BDS_LABEL_ERR_MEASURED, false },
		{ "disk figure 0, MEASURED set", 220, 4, 0, NULL, BDS_LABEL_ERR_MEASURED, false },
		{ "time 0, MEASURED set", 232, 8, 0, NULL, BDS_LABEL_ERR_MEASURED, false },
		{ "reserved byte between the figures and the time", 228, 1, 1, NULL, BDS_LABEL_OK, false },
		{ "controller figure 0 (no limit showed)", 224, 4, 0, NULL, BDS_LABEL_OK, false },
		{ "disk figure 2^32 - 1 kB/s", 220, 4, 0xffffffffULL, NULL, BDS_LABEL_OK, false },
		{ "unknown compat bits beside MEASURED", 144, 4, 0xfffffffeU, NULL, BDS_LABEL_OK, false },
		{ "reserved byte after the figures", 255, 1, 1, NULL, BDS_LABEL_OK, false },
	};
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l;
	enum bds_label_err err;
	size_t i;

	for (i = 0; i < sizeof(mm) / sizeof(mm[0]); i++) {
		memcpy(buf, ggolden, sizeof(buf));
		apply(buf, &mm[i]);
		err = bds_label_decode(buf, sizeof(buf), &l);
		check(err == mm[i].want, "measured: %s: %s (want: %s)", mm[i].what,
		      bds_label_error(err), bds_label_error(mm[i].want));
		if (!err)
			check((l.compat & BDS_LABEL_COMPAT_MEASURED) && l.meas_disk &&
			      l.meas_time == 1796515200ULL,
			      "measured: %s: compat 0x%x, disk %u kB/s, controller %u",
			      mm[i].what, l.compat, l.meas_disk, l.meas_ctrl);
	}
	/* a clear bit wants all three fields 0, the controller's too */
	memcpy(buf, mgolden, sizeof(buf));
	put32(buf, 224, 40000);
	refix_crc(buf);
	err = bds_label_decode(buf, sizeof(buf), &l);
	check(err == BDS_LABEL_ERR_MEASURED,
	      "measured: a controller figure without MEASURED: %s",
	      bds_label_error(err));
}

/* Rule 33, as mutations of the golden vector with a weights mode. */
static void test_weights_mode_rules(void)
{
	static const struct mutation mm[] = {
		{ "WEIGHTS_MODE bit cleared, mode kept", 144, 4, 0, NULL, BDS_LABEL_ERR_WEIGHTS_MODE, false },
		{ "mode 0, WEIGHTS_MODE bit set", 216, 4, 0, NULL, BDS_LABEL_ERR_WEIGHTS_MODE, false },
		{ "mode 4", 216, 4, 4, NULL, BDS_LABEL_ERR_WEIGHTS_MODE, false },
		{ "mode 2^31 + 1", 216, 4, 0x80000001ULL, NULL, BDS_LABEL_ERR_WEIGHTS_MODE, false },
		{ "mode 2 (bandwidth)", 216, 4, 2, NULL, BDS_LABEL_OK, false },
		{ "mode 3 (list)", 216, 4, 3, NULL, BDS_LABEL_OK, false },
		{ "unknown compat bits beside WEIGHTS_MODE", 144, 4, 0xfffffffaU, NULL, BDS_LABEL_OK, false },
		{ "reserved byte after the measured figures", 240, 1, 1, NULL, BDS_LABEL_OK, false },
		{ "a measured figure without MEASURED", 220, 4, 20000, NULL, BDS_LABEL_ERR_MEASURED, false },
	};
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l;
	enum bds_label_err err;
	size_t i;

	for (i = 0; i < sizeof(mm) / sizeof(mm[0]); i++) {
		memcpy(buf, mgolden, sizeof(buf));
		apply(buf, &mm[i]);
		err = bds_label_decode(buf, sizeof(buf), &l);
		check(err == mm[i].want, "weights mode: %s: %s (want: %s)", mm[i].what,
		      bds_label_error(err), bds_label_error(mm[i].want));
		if (!err)
			check(l.compat == BDS_LABEL_COMPAT_WEIGHTS_MODE &&
			      l.weights_mode == (mm[i].off == 216 ? mm[i].value : 1),
			      "weights mode: %s: compat 0x%x, mode %u", mm[i].what,
			      l.compat, l.weights_mode);
	}
	/* a label without weights may keep a mode (capacity on equal disks) */
	memcpy(buf, golden, sizeof(buf));
	put32(buf, 144, BDS_LABEL_COMPAT_WEIGHTS_MODE);
	put32(buf, 216, BDS_WEIGHTS_MODE_CAPACITY);
	refix_crc(buf);
	err = bds_label_decode(buf, sizeof(buf), &l);
	check(err == BDS_LABEL_OK && l.weights_mode == BDS_WEIGHTS_MODE_CAPACITY &&
	      !bds_label_weighted(&l),
	      "weights mode capacity on a label without weights: valid: %s",
	      bds_label_error(err));
}

static u8 rgolden[BDS_LABEL_SIZE];

/* The golden label mid-restripe: its description encodes to it, and back. */
static void test_reshape_golden(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label want, l;
	enum bds_label_err err;
	size_t i, other = 0;

	golden_reshape_label(&want);
	bds_label_encode(&want, buf);
	check(!memcmp(buf, rgolden, sizeof(buf)),
	      "RESHAPE golden: its description encodes to the file byte for byte");
	check(U(get64(rgolden, 16) & 0xffffffff) == 0xe8ef1472 &&
	      (get64(rgolden, 16) >> 32) == BDS_LABEL_INCOMPAT_RESHAPE,
	      "RESHAPE golden: crc 0x%08llx, incompat 0x%llx (RESHAPE)",
	      U(get64(rgolden, 16) & 0xffffffff), U(get64(rgolden, 16) >> 32));
	err = bds_label_decode(rgolden, sizeof(rgolden), &l);
	check(err == BDS_LABEL_OK && !memcmp(&l, &want, sizeof(l)),
	      "RESHAPE golden decodes to its description: %s",
	      bds_label_error(err));
	check(l.reshape_pos == 2231 && l.reshape_dir == 0 &&
	      l.old_nr_members == 2 && l.old_nr_groups == 2 &&
	      l.old_layout == 0 && l.old_member_len == 4192128 &&
	      l.old_group_size[0] == 1 && l.old_group_size[1] == 1 &&
	      l.old_member[0] == 0 && l.old_member[1] == 2 &&
	      l.old_weight[0] == 1 && l.old_weight[1] == 1 &&
	      l.old_offset[0] == 2048 && l.old_offset[1] == 2048,
	      "RESHAPE golden: forward at unit 2231 from members 0 and 2 (1 + 1, interleave, 4192128 sectors each, at 2048)");
	check(get64(rgolden, 384) == 2231 && get64(rgolden, 392) == 2ULL << 32 &&
	      get64(rgolden, 400) == 2 && get64(rgolden, 408) == 4192128 &&
	      rgolden[416] == 1 && rgolden[417] == 1 &&
	      rgolden[7424] == 0 && rgolden[7425] == 2 &&
	      rgolden[7552] == 1 && rgolden[7553] == 1 &&
	      get64(rgolden, 7680) == (2048ULL | 2048ULL << 32),
	      "RESHAPE golden: the section's fields at their documented offsets");
	/* the rest is the golden label's, but for the new offsets */
	for (i = 0; i < BDS_LABEL_SIZE; i++) {
		if (i >= 16 && i < 24)
			continue;	/* crc, incompat */
		if ((i >= 1280 + 16 && i < 1280 + 24) ||
		    (i >= 1280 + 96 + 16 && i < 1280 + 96 + 24))
			continue;	/* members 0 and 2: data at 128 */
		if ((i >= 384 && i < 512) || i >= 7424)
			continue;	/* the section */
		if (rgolden[i] != golden[i])
			other++;
	}
	check(other == 0 && get64(rgolden, 1280 + 16) == 128 &&
	      get64(rgolden, 1280 + 96 + 16) == 128 &&
	      get64(rgolden, 1280 + 48 + 16) == 2048,
	      "RESHAPE golden: otherwise the golden label (%zu other bytes), old members' data at 128",
	      other);
	/* a reader of this version without RESHAPE refuses it by rule 6 */
	check((get64(rgolden, 16) >> 32) & ~(u64)BDS_LABEL_INCOMPAT_WEIGHTS,
	      "RESHAPE golden: a reader that knows only WEIGHTS sees an unknown incompat bit");
	/* its backup copy */
	memcpy(buf, rgolden, sizeof(buf));
	put64(buf, 120, 4194288);
	refix_crc(buf);
	check(bds_label_read(buf, sizeof(buf), 4194288, &l) == BDS_LABEL_OK &&
	      l.reshape_pos == 2231 && U(get64(buf, 16) & 0xffffffff) == 0xbfc90a86,
	      "RESHAPE golden's backup copy: valid at 4194288, crc 0x%08llx",
	      U(get64(buf, 16) & 0xffffffff));
}

/*
 * No byte of the RESHAPE section is ignored: every change of one (each
 * bit, and all bits) with the crc made right again is refused, or read
 * into another label.
 */
static void test_reshape_bytes_read(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label want, l;
	size_t off, ignored = 0, tried = 0, refused = 0;
	unsigned int x;

	golden_reshape_label(&want);
	for (off = 384; off < BDS_LABEL_SIZE; off++) {
		if (off == 512)
			off = 7424;
		for (x = 1; x < 256; x++) {
			if (x != 0xff && (x & (x - 1)))
				continue;
			memcpy(buf, rgolden, sizeof(buf));
			buf[off] ^= (u8)x;
			refix_crc(buf);
			tried++;
			if (bds_label_decode(buf, sizeof(buf), &l) != BDS_LABEL_OK)
				refused++;
			else if (!memcmp(&l, &want, sizeof(l)))
				ignored++;
		}
	}
	check(ignored == 0,
	      "RESHAPE golden: no byte of the section ignored (%zu changes, %zu refused, the others read, %zu ignored)",
	      tried, refused, ignored);
}

/* Several fields at once: offset, width, value; width 0 ends the list. */
struct multi {
	const char *what;
	struct { size_t off; int width; u64 value; } set[3];
	enum bds_label_err want;
};

/*
 * Each of @n single mutations @m, then each of @nm multiple ones @mm, on
 * a copy of golden vector @vec: decoded with the error each wants.
 */
static void check_mutations(const u8 *vec, const char *tag,
			    const struct mutation *m, size_t n,
			    const struct multi *mm, size_t nm)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l;
	enum bds_label_err err;
	size_t i, k;

	for (i = 0; i < n; i++) {
		memcpy(buf, vec, sizeof(buf));
		apply(buf, &m[i]);
		err = bds_label_decode(buf, sizeof(buf), &l);
		check(err == m[i].want, "%s: %s: %s (want: %s)", tag, m[i].what,
		      bds_label_error(err), bds_label_error(m[i].want));
	}
	for (i = 0; i < nm; i++) {
		memcpy(buf, vec, sizeof(buf));
		for (k = 0; k < 3 && mm[i].set[k].width; k++) {
			struct mutation one = { "", mm[i].set[k].off,
						mm[i].set[k].width,
						mm[i].set[k].value, NULL,
						BDS_LABEL_OK, false };

			apply(buf, &one);
		}
		err = bds_label_decode(buf, sizeof(buf), &l);
		check(err == mm[i].want, "%s: %s: %s (want: %s)", tag,
		      mm[i].what, bds_label_error(err),
		      bds_label_error(mm[i].want));
	}
}

static void test_reshape_rules(void)
{
	static const struct mutation rm[] = {
		{ "RESHAPE cleared, section kept", 20, 4, 0, NULL, BDS_LABEL_ERR_RESHAPE, false },
		{ "RESHAPE and an unknown bit", 20, 4, 0x12, NULL, BDS_LABEL_ERR_INCOMPAT, false },
		{ "a reserved byte of the section", 448, 1, 1, NULL, BDS_LABEL_ERR_RESHAPE, false },
		{ "the section's last reserved byte", 511, 1, 0x80, NULL, BDS_LABEL_ERR_RESHAPE, false },
		{ "old nr_members 0", 396, 4, 0, NULL, BDS_LABEL_ERR_RESHAPE_GEOMETRY, false },
		{ "old nr_members 4, more than now", 396, 4, 4, NULL, BDS_LABEL_ERR_RESHAPE_GEOMETRY, false },
		{ "old nr_groups 0", 400, 4, 0, NULL, BDS_LABEL_ERR_RESHAPE_GEOMETRY, false },
		{ "old nr_groups 33", 400, 4, 33, NULL, BDS_LABEL_ERR_RESHAPE_GEOMETRY, false },
		{ "old group sizes 1 + 2, not 2", 417, 1, 2, NULL, BDS_LABEL_ERR_RESHAPE_GEOMETRY, false },
		{ "old group 2 used", 418, 1, 1, NULL, BDS_LABEL_ERR_RESHAPE_GEOMETRY, false },
		{ "old group 1 empty", 417, 1, 0, NULL, BDS_LABEL_ERR_RESHAPE_GEOMETRY, false },
		{ "old layout 2", 404, 4, 2, NULL, BDS_LABEL_ERR_RESHAPE_GEOMETRY, false },
		{ "old member 1 is member 3, not in the table", 7425, 1, 3, NULL, BDS_LABEL_ERR_RESHAPE_MEMBERS, false },
		{ "old members 0 and 0", 7425, 1, 0, NULL, BDS_LABEL_ERR_RESHAPE_MEMBERS, false },
		{ "old weight 0", 7553, 1, 0, NULL, BDS_LABEL_ERR_RESHAPE_MEMBERS, false },
		{ "old data offset 16, in the primary label", 7680, 4, 16, NULL, BDS_LABEL_ERR_RESHAPE_MEMBERS, false },
		{ "unused old member entry: member", 7424 + 5, 1, 1, NULL, BDS_LABEL_ERR_RESHAPE_MEMBERS, false },
		{ "unused old member entry: weight", 7552 + 127, 1, 1, NULL, BDS_LABEL_ERR_RESHAPE_MEMBERS, false },
		{ "unused old member entry: offset", 7680 + 4 * 2, 4, 2048, NULL, BDS_LABEL_ERR_RESHAPE_MEMBERS, false },
		{ "old layout sequential, weights 1: valid", 404, 4, 1, NULL, BDS_LABEL_OK, false },
		{ "direction 2", 392, 4, 2, NULL, BDS_LABEL_ERR_RESHAPE_POSITION, false },
		{ "old length 0", 408, 8, 0, NULL, BDS_LABEL_ERR_RESHAPE_POSITION, false },
		{ "old length not whole units", 408, 8, 4192128 + 64, NULL, BDS_LABEL_ERR_RESHAPE_POSITION, false },
		{ "old length twice the new per member: longer volume", 408, 8, 2 * 4192128, NULL, BDS_LABEL_ERR_RESHAPE_POSITION, false },
		{ "old length of 2^57 units: over 64 bits", 408, 8, 1ULL << 63, NULL, BDS_LABEL_ERR_RESHAPE_POSITION, false },
		{ "checkpoint past the old volume (65503)", 384, 8, 65503, NULL, BDS_LABEL_ERR_RESHAPE_POSITION, false },
		{ "checkpoint at the end (65502)", 384, 8, 65502, NULL, BDS_LABEL_OK, false },
		{ "checkpoint 0", 384, 8, 0, NULL, BDS_LABEL_OK, false },
		{ "forward, member 0's data moving up to 4096", 1280 + 16, 8, 4096, NULL, BDS_LABEL_ERR_RESHAPE_PLACE, false },
		{ "member 2's new data at 16, in its label", 1280 + 96 + 16, 8, 16, NULL, BDS_LABEL_ERR_RESHAPE_PLACE, false },
		{ "backward, data moving down", 392, 4, 1, NULL, BDS_LABEL_ERR_RESHAPE_PLACE, false },
	};
	static const struct multi mm[] = {
		{ "old weights 2,1 with the old layout sequential",
		  { { 7552, 1, 2 }, { 404, 4, 1 }, { 0, 0, 0 } },
		  BDS_LABEL_ERR_RESHAPE_GEOMETRY },
		{ "old weights 2,1, interleaved: valid",
		  { { 7552, 1, 2 }, { 0, 0, 0 } }, BDS_LABEL_OK },
		{ "this member an old one (old member 1 is member 1): valid",
		  { { 7425, 1, 1 }, { 0, 0, 0 } }, BDS_LABEL_OK },
		{ "this member's old data past its backup label",
		  { { 7425, 1, 1 }, { 408, 8, 4194304 }, { 0, 0, 0 } },
		  BDS_LABEL_ERR_RESHAPE_PLACE },
		{ "this member's old data starting at its backup label",
		  { { 7425, 1, 1 }, { 7684, 4, 4194288 }, { 1280 + 48 + 16, 8, 2048 } },
		  BDS_LABEL_ERR_RESHAPE_PLACE },
		{ "this member's old data ending at its backup label: valid",
		  { { 7425, 1, 1 }, { 7684, 4, 2160 }, { 0, 0, 0 } },
		  BDS_LABEL_OK },
		{ "backward, data moving up: valid",
		  { { 392, 4, 1 }, { 7680, 4, 24 }, { 7684, 4, 128 } },
		  BDS_LABEL_OK },
	};

	check_mutations(rgolden, "RESHAPE", rm, sizeof(rm) / sizeof(rm[0]), mm,
			sizeof(mm) / sizeof(mm[0]));
	/* the error texts are the ones documented, and distinct */
	check(!strcmp(bds_label_error(BDS_LABEL_ERR_RESHAPE),
		      "label restripe section not as its incompat bit says") &&
	      strcmp(bds_label_error(BDS_LABEL_ERR_RESHAPE_GEOMETRY),
		     bds_label_error(BDS_LABEL_ERR_RESHAPE_MEMBERS)) &&
	      strcmp(bds_label_error(BDS_LABEL_ERR_RESHAPE_POSITION),
		     bds_label_error(BDS_LABEL_ERR_RESHAPE_PLACE)),
	      "RESHAPE errors have texts of their own");
}

/*
 * A random valid restripe section for random label @l: an old geometry
 * of some of its members (never longer than the new one), a direction
 * the offsets agree with, a checkpoint.  False if none fits.
 */
static bool random_reshape(struct bds_label *l)
{
	u32 n = 1 + (u32)(rnd() % l->nr_members), i, w = 0, me = ~0U;
	u64 new_units, cycles, most;
	u8 perm[BDS_MAX_MEMBERS];

	l->old_nr_members = n;
	l->old_nr_groups = random_groups(n, l->old_group_size);
	l->old_layout = (u32)(rnd() & 1);
	l->reshape_dir = (u32)(rnd() & 1);
	for (i = 0; i < l->nr_members; i++)
		perm[i] = (u8)i;
	for (i = 0; i < n; i++) {
		u32 k = i + (u32)(rnd() % (l->nr_members - i));
		u8 t = perm[i];

		perm[i] = perm[k];
		perm[k] = t;
		l->old_member[i] = perm[i];
		l->old_weight[i] = l->old_layout ? 1 : 1 + (u32)(rnd() % 4);
		w += l->old_weight[i];
		if (perm[i] == l->member_index)
			me = i;
	}
	if ((l->chunk_sectors << 9) * w > 0xffffffffULL)
		return false;
	for (i = 0; i < n; i++) {
		u64 now = l->member_offset[l->old_member[i]];

		if (l->reshape_dir == 0)
			l->old_offset[i] = now + rnd() % 5000;
		else
			l->old_offset[i] = 24 + rnd() % (now - 24 + 1);
	}
	new_units = l->data_sectors / (l->chunk_sectors * l->weight[l->member_index]) *
		    bds_label_slots(l);
	most = new_units / w;
	if (me != ~0U) {
		if (l->old_offset[me] >= l->backup_sector)
			return false;
		cycles = (l->backup_sector - l->old_offset[me]) /
			 (l->chunk_sectors * l->old_weight[me]);
		if (cycles < most)
			most = cycles;
	}
	if (!most)
		return false;
	cycles = 1 + rnd() % most;
	l->old_member_len = cycles * l->chunk_sectors;
	l->reshape_pos = rnd() % (cycles * w + 1);
	l->incompat |= BDS_LABEL_INCOMPAT_RESHAPE;
	return true;
}

static void test_reshape_round_trip(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l, d;
	int i, bad = 0, made = 0, first = -1;
	enum bds_label_err err = BDS_LABEL_OK, first_err = BDS_LABEL_OK;

	for (i = 0; i < 2000; i++) {
		random_label(&l);
		if (!random_reshape(&l))
			continue;
		made++;
		bds_label_encode(&l, buf);
		err = bds_label_decode(buf, sizeof(buf), &d);
		if (err || memcmp(&l, &d, sizeof(l))) {
			if (first < 0) {
				first = i;
				first_err = err;
			}
			bad++;
		}
	}
	check(made > 1000 && bad == 0,
	      "%d random labels with a restripe section round-trip (%d did not, first #%d: %s)",
	      made, bad, first, bds_label_error(first_err));
}

static u8 fgolden[BDS_LABEL_SIZE];

/*
 * The front-backup golden vector (issue 35): decoded field by field,
 * encoded back from its description byte for byte; it differs from the
 * golden label in incompat, data_sectors, backup_sector and the crc.
 * Its backup copy is valid read at sector 2032 only.
 */
static void test_front_golden(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label want, l;
	enum bds_label_err err;
	size_t i, other = 0;

	golden_front_label(&want);
	bds_label_encode(&want, buf);
	check(!memcmp(buf, fgolden, sizeof(buf)),
	      "front golden: its description encodes to the file byte for byte");
	check(U(get64(fgolden, 16) & 0xffffffff) == 0x07802f84,
	      "front golden: crc 0x%08llx", U(get64(fgolden, 16) & 0xffffffff));
	check((get64(fgolden, 16) >> 32) == BDS_LABEL_INCOMPAT_FRONT_BACKUP &&
	      BDS_LABEL_INCOMPAT_FRONT_BACKUP == 8,
	      "front golden: incompat FRONT_BACKUP (bytes 20..23 = 08 00 00 00)");
	check(get64(fgolden, 104) == 2048 && get64(fgolden, 112) == 4192256 &&
	      get64(fgolden, 120) == 8 && get64(fgolden, 128) == 2032 &&
	      get64(fgolden, 136) == 4194304,
	      "front golden: data 2048 + 4192256, copies at 8 and 2032, member 4194304, at their documented offsets");
	for (i = 0; i < BDS_LABEL_SIZE; i++) {
		if ((i >= 16 && i < 24) || (i >= 112 && i < 120) ||
		    (i >= 128 && i < 136))
			continue;	/* crc, incompat, data_sectors, backup */
		if (fgolden[i] != golden[i])
			other++;
	}
	check(other == 0,
	      "front golden: otherwise the golden label (%zu other bytes)", other);

	err = bds_label_decode(fgolden, sizeof(fgolden), &l);
	check(err == BDS_LABEL_OK, "front golden decodes: %s",
	      bds_label_error(err));
	check(l.incompat == BDS_LABEL_INCOMPAT_FRONT_BACKUP &&
	      l.backup_sector == 2032 && l.label_sector == 8 &&
	      l.member_sectors == 4194304,
	      "front golden: FRONT_BACKUP, backup at 2032, the primary at 8, 2 GiB member");
	check(l.data_offset == 2048 && l.data_sectors == 4192256 &&
	      l.data_offset + l.data_sectors == l.member_sectors &&
	      l.data_sectors % 128 == 0,
	      "front golden: data from 2048, 32752 units of 128, to the member's end");
	check(l.member_offset[0] == 2048 && l.member_offset[1] == 2048 &&
	      l.member_offset[2] == 2048 && l.weight[0] == 1 &&
	      l.weight[1] == 1 && l.weight[2] == 1 && l.member_index == 1 &&
	      l.nr_members == 3 && l.chunk_sectors == 128 &&
	      !memcmp(l.member_uuid, uuid_m1, 16) &&
	      !memcmp(l.volume_uuid, uuid_vol, 16) && !strcmp(l.name, "golden"),
	      "front golden: member 1 of the golden volume, every offset 2048, weights 1");
	check(err == BDS_LABEL_OK && !memcmp(&l, &want, sizeof(l)),
	      "front golden decodes to its description (label-golden.h)");
	check(bds_label_read(fgolden, sizeof(fgolden), 8, &l) == BDS_LABEL_OK,
	      "front golden read at sector 8: valid");
	check(bds_label_read(fgolden, sizeof(fgolden), 2032, &l) ==
	      BDS_LABEL_ERR_PLACE && bds_bytes_zero(&l, sizeof(l)),
	      "front golden (the primary) read at sector 2032: no label");
	/* rule 6 of tools 1.9.0: no incompat bit but 0..2 */
	check((get64(fgolden, 16) >> 32) &
	      ~(u64)(BDS_LABEL_INCOMPAT_WEIGHTS | BDS_LABEL_INCOMPAT_RESHAPE |
		     BDS_LABEL_INCOMPAT_ADOPT),
	      "front golden: a reader that knows bits 0..2 only refuses it (rule 6)");

	/* its backup copy, at 2032 */
	memcpy(buf, fgolden, sizeof(buf));
	put64(buf, 120, 2032);
	refix_crc(buf);
	err = bds_label_read(buf, sizeof(buf), 2032, &l);
	check(err == BDS_LABEL_OK && l.label_sector == 2032 &&
	      U(get64(buf, 16) & 0xffffffff) == 0x322f854b,
	      "front golden's backup copy read at 2032: %s, crc 0x%08llx",
	      bds_label_error(err), U(get64(buf, 16) & 0xffffffff));
	err = bds_label_read(buf, sizeof(buf), 8, &l);
	check(err == BDS_LABEL_ERR_PLACE && bds_bytes_zero(&l, sizeof(l)),
	      "front golden's backup copy read at sector 8: %s (rule 26)",
	      bds_label_error(err));
	err = bds_label_read(buf, sizeof(buf), 4194288, &l);
	check(err == BDS_LABEL_ERR_PLACE,
	      "front golden's backup copy read at the end place: %s (rule 26)",
	      bds_label_error(err));
	/* a front backup may carry ADOPT, as any backup copy */
	put32(buf, 20, BDS_LABEL_INCOMPAT_FRONT_BACKUP | BDS_LABEL_INCOMPAT_ADOPT);
	refix_crc(buf);
	err = bds_label_read(buf, sizeof(buf), 2032, &l);
	check(err == BDS_LABEL_OK &&
	      l.incompat == (BDS_LABEL_INCOMPAT_FRONT_BACKUP |
			     BDS_LABEL_INCOMPAT_ADOPT),
	      "front golden's backup copy with ADOPT, read at 2032: %s",
	      bds_label_error(err));
}

/* Rules 6, 18, 19 and 22 with FRONT_BACKUP, as mutations of its golden. */
static void test_front_rules(void)
{
	static const struct mutation fm[] = {
		{ "FRONT_BACKUP cleared: 2032 is not the end place", 20, 4, 0, NULL, BDS_LABEL_ERR_PLACE, false },
		{ "backup at the end place with FRONT_BACKUP", 128, 8, 4194288, NULL, BDS_LABEL_ERR_PLACE, false },
		{ "backup at 2040 with FRONT_BACKUP", 128, 8, 2040, NULL, BDS_LABEL_ERR_PLACE, false },
		{ "data one cycle more than fits before the member's end", 112, 8, 4192256 + 128, NULL, BDS_LABEL_ERR_PLACE, false },
		{ "data one cycle less: valid", 112, 8, 4192256 - 128, NULL, BDS_LABEL_OK, false },
		{ "member size 1 GiB (data past its end)", 136, 8, 2097152, NULL, BDS_LABEL_ERR_PLACE, false },
		{ "member grown to 4 GiB, data as it was: valid", 136, 8, 8388608, NULL, BDS_LABEL_OK, false },
		{ "incompat bit 4 (0x10) beside FRONT_BACKUP", 20, 4, 0x18, NULL, BDS_LABEL_ERR_INCOMPAT, false },
		{ "FRONT_BACKUP and ADOPT in a primary copy", 20, 4, 0xc, NULL, BDS_LABEL_ERR_PLACE, false },
		{ "copy at sector 2040", 120, 8, 2040, NULL, BDS_LABEL_ERR_PLACE, false },
	};
	static const struct multi mm[] = {
		{ "data offset 2040 with FRONT_BACKUP (in the backup copy)",
		  { { 104, 8, 2040 }, { 1280 + 48 + 16, 8, 2040 }, { 0, 0, 0 } },
		  BDS_LABEL_ERR_PLACE },
		{ "FRONT_BACKUP cleared, backup at the end, data to the member's end",
		  { { 20, 4, 0 }, { 128, 8, 4194288 }, { 0, 0, 0 } },
		  BDS_LABEL_ERR_PLACE },
		{ "FRONT_BACKUP cleared, backup at the end, data before it: valid",
		  { { 20, 4, 0 }, { 128, 8, 4194288 }, { 112, 8, 4192128 } },
		  BDS_LABEL_OK },
		{ "data offset 4096 (after the backup copy), the rest to the end: valid",
		  { { 104, 8, 4096 }, { 1280 + 48 + 16, 8, 4096 }, { 112, 8, 4190208 } },
		  BDS_LABEL_OK },
		{ "data offset 4096, one cycle past the end",
		  { { 104, 8, 4096 }, { 1280 + 48 + 16, 8, 4096 }, { 112, 8, 4190336 } },
		  BDS_LABEL_ERR_PLACE },
	};
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l;

	check_mutations(fgolden, "front", fm, sizeof(fm) / sizeof(fm[0]), mm,
			sizeof(mm) / sizeof(mm[0]));

	/* the copy at 2032 read as the backup: valid there, not at 8 */
	memcpy(buf, fgolden, sizeof(buf));
	put64(buf, 120, 2032);
	refix_crc(buf);
	check(bds_label_read(buf, sizeof(buf), 2032, &l) == BDS_LABEL_OK,
	      "front: the copy with label_sector 2032 read at 2032: valid");
	check(bds_label_read(buf, sizeof(buf), 8, &l) == BDS_LABEL_ERR_PLACE,
	      "front: the copy with label_sector 2032 read at 8: refused (rule 26)");
}

/*
 * Rule 32 with FRONT_BACKUP: this member's old data may run to the
 * member's end (its data end), and may not start in front of 2048.
 */
static void test_front_reshape(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label want, l;
	enum bds_label_err err;

	/* backward from members 0 and 1 (this one), 1 + 1, at 2048 */
	golden_front_label(&want);
	want.incompat |= BDS_LABEL_INCOMPAT_RESHAPE;
	want.reshape_pos = 1000;
	want.reshape_dir = 1;
	want.old_nr_members = 2;
	want.old_nr_groups = 2;
	want.old_layout = BDS_LAYOUT_INTERLEAVE;
	want.old_group_size[0] = 1;
	want.old_group_size[1] = 1;
	want.old_member[0] = 0;
	want.old_member[1] = 1;
	want.old_weight[0] = 1;
	want.old_weight[1] = 1;
	want.old_offset[0] = 2048;
	want.old_offset[1] = 2048;
	want.old_member_len = want.data_sectors;	/* to the end */
	bds_label_encode(&want, buf);
	err = bds_label_decode(buf, sizeof(buf), &l);
	check(err == BDS_LABEL_OK && !memcmp(&l, &want, sizeof(l)),
	      "front, RESHAPE: this member's old data from 2048 to the member's end: %s",
	      bds_label_error(err));
	want.old_member_len += 128;
	bds_label_encode(&want, buf);
	err = bds_label_decode(buf, sizeof(buf), &l);
	check(err == BDS_LABEL_ERR_RESHAPE_PLACE,
	      "front, RESHAPE: this member's old data one unit past its end: %s",
	      bds_label_error(err));
	want.old_member_len -= 128;
	want.old_offset[1] = 2040;	/* backward: the data moves up to 2048 */
	bds_label_encode(&want, buf);
	err = bds_label_decode(buf, sizeof(buf), &l);
	check(err == BDS_LABEL_ERR_RESHAPE_PLACE,
	      "front, RESHAPE: this member's old data at 2040, over its backup copy: %s",
	      bds_label_error(err));
	want.old_offset[1] = 2048;
	want.old_offset[0] = 2040;	/* another member's: no front rule */
	bds_label_encode(&want, buf);
	err = bds_label_decode(buf, sizeof(buf), &l);
	check(err == BDS_LABEL_OK,
	      "front, RESHAPE: another member's old data at 2040: %s",
	      bds_label_error(err));
}

/* bds_label_data_end(), bds_label_data_least(), bds_label_set_backup(). */
static void test_front_helpers(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l, d;
	enum bds_label_err err;

	golden_front_label(&l);
	check(bds_label_data_end(&l) == 4194304 &&
	      bds_label_data_least(&l) == 2048,
	      "front golden: data end 4194304 (the member's end), least offset 2048 (%llu, %llu)",
	      U(bds_label_data_end(&l)), U(bds_label_data_least(&l)));
	golden_label(&l);
	check(bds_label_data_end(&l) == 4194288 && bds_label_data_least(&l) == 0,
	      "golden: data end 4194288 (its backup), least offset 0 (%llu, %llu)",
	      U(bds_label_data_end(&l)), U(bds_label_data_least(&l)));

	/* set_backup: the bit exactly for 2032 in front of the data */
	golden_label(&l);
	l.incompat = BDS_LABEL_INCOMPAT_ADOPT;
	bds_label_set_backup(&l, BDS_LABEL_FRONT_BACKUP);
	check(l.backup_sector == 2032 &&
	      l.incompat == (BDS_LABEL_INCOMPAT_FRONT_BACKUP |
			     BDS_LABEL_INCOMPAT_ADOPT),
	      "set_backup 2032, data at 2048: FRONT_BACKUP set, ADOPT kept (0x%x)",
	      l.incompat);
	bds_label_set_backup(&l, 4194288);
	check(l.backup_sector == 4194288 &&
	      l.incompat == BDS_LABEL_INCOMPAT_ADOPT,
	      "set_backup at the end: FRONT_BACKUP cleared, ADOPT kept (0x%x)",
	      l.incompat);
	golden_label(&l);
	l.incompat = BDS_LABEL_INCOMPAT_FRONT_BACKUP | BDS_LABEL_INCOMPAT_WEIGHTS;
	bds_label_set_backup(&l, 4194288);
	check(l.incompat == BDS_LABEL_INCOMPAT_WEIGHTS,
	      "set_backup at the end of a front label: the bit cleared, WEIGHTS kept (0x%x)",
	      l.incompat);
	golden_label(&l);
	l.data_offset = 4096;
	bds_label_set_backup(&l, BDS_LABEL_FRONT_BACKUP);
	check(l.incompat == BDS_LABEL_INCOMPAT_FRONT_BACKUP,
	      "set_backup 2032, data at 4096: FRONT_BACKUP set (0x%x)", l.incompat);
	golden_label(&l);
	l.data_offset = 2040;
	bds_label_set_backup(&l, BDS_LABEL_FRONT_BACKUP);
	check(l.backup_sector == 2032 && !l.incompat,
	      "set_backup 2032, data at 2040: no FRONT_BACKUP (0x%x)", l.incompat);

	/*
	 * A member of 2050 sectors: its end backup lies at 2032 with its
	 * data before it; the bit stays clear, and the label is valid.
	 */
	golden_label(&l);
	l.member_sectors = 2050;
	l.data_offset = 24;
	l.member_offset[l.member_index] = 24;
	l.data_sectors = 15 * 128;
	l.incompat = BDS_LABEL_INCOMPAT_FRONT_BACKUP;	/* a stale bit */
	bds_label_set_backup(&l, bds_label_backup_sector(2050));
	check(bds_label_backup_sector(2050) == 2032 && l.backup_sector == 2032 &&
	      !l.incompat,
	      "set_backup on a 2050-sector member, its end backup at 2032, data at 24: the bit clear (0x%x)",
	      l.incompat);
	check(bds_label_data_end(&l) == 2032 && bds_label_data_least(&l) == 0,
	      "the 2050-sector member: data end 2032 (its backup), least offset 0");
	l.label_sector = 2032;
	bds_label_encode(&l, buf);
	err = bds_label_read(buf, sizeof(buf), 2032, &d);
	check(err == BDS_LABEL_OK && !(d.incompat & BDS_LABEL_INCOMPAT_FRONT_BACKUP),
	      "the 2050-sector member's end backup at 2032, no bit: valid (%s)",
	      bds_label_error(err));
	put32(buf, 20, BDS_LABEL_INCOMPAT_FRONT_BACKUP);
	refix_crc(buf);
	err = bds_label_read(buf, sizeof(buf), 2032, &d);
	check(err == BDS_LABEL_ERR_PLACE,
	      "the same with FRONT_BACKUP set (data before the copy): %s",
	      bds_label_error(err));
}

/* bds_label_backup_place(): the end when it fits, else the front, else 0. */
static void test_front_place(void)
{
	const u64 m = GOLDEN_MEMBER_SECTORS;

	check(bds_label_backup_place(m, 2048, 4194176) == 4194288,
	      "backup place, data ending 112 sectors before the end place: the end");
	check(bds_label_backup_place(m, 2048, 4194288) == 4194288,
	      "backup place, data ending at the end place: the end");
	check(bds_label_backup_place(m, 24, 4194288) == 4194288,
	      "backup place, data from 24 ending at the end place: the end");
	check(bds_label_backup_place(m, 2048, 4194289) == 2032,
	      "backup place, data one sector into the end place, from 2048: the front");
	check(bds_label_backup_place(m, 2048, m) == 2032,
	      "backup place, data to the member's end, from 2048: the front");
	check(bds_label_backup_place(m, 131072, m) == 2032,
	      "backup place, data to the member's end, from 128 MiB: the front");
	check(bds_label_backup_place(m, 2040, m) == 0,
	      "backup place, data to the member's end, from 2040: none");
	check(bds_label_backup_place(m, 24, m) == 0,
	      "backup place, data to the member's end, from 24: none");
	check(bds_label_backup_place(m, 2048, m + 1) == 0,
	      "backup place, data past the member's end: none");
	check(bds_label_backup_place(m, 16, 4194176) == 0,
	      "backup place, data from 16 (in the primary): none");
	check(bds_label_backup_place(BDS_LABEL_MIN_MEMBER - 1, 24, 24) == 0,
	      "backup place, a member too small for a label: none");
	check(bds_label_backup_place(m, 4096, 2048) == 0,
	      "backup place, data ending before it starts: none");
	check(bds_label_backup_place(2050, 24, 2032) == 2032,
	      "backup place, 2050-sector member, data from 24 to 2032: its end place, 2032");
}

/* Random front labels round-trip through encode and decode. */
static void test_front_round_trip(void)
{
	static u8 buf[BDS_LABEL_SIZE];
	struct bds_label l, d;
	int i, bad = 0, first = -1;
	enum bds_label_err err = BDS_LABEL_OK, first_err = BDS_LABEL_OK;

	for (i = 0; i < 1000; i++) {
		u64 cyc;

		random_label(&l);
		/* the data from the default offset to the member's end */
		cyc = l.chunk_sectors * l.weight[l.member_index];
		l.data_sectors = (l.member_sectors - l.data_offset) / cyc * cyc;
		bds_label_set_backup(&l, BDS_LABEL_FRONT_BACKUP);
		if (l.label_sector != BDS_LABEL_PRIMARY)
			l.label_sector = BDS_LABEL_FRONT_BACKUP;
		bds_label_encode(&l, buf);
		err = bds_label_read(buf, sizeof(buf), l.label_sector, &d);
		if (err || memcmp(&l, &d, sizeof(l)) ||
		    !(d.incompat & BDS_LABEL_INCOMPAT_FRONT_BACKUP)) {
			if (first < 0) {
				first = i;
				first_err = err;
			}
			bad++;
		}
	}
	check(bad == 0,
	      "1000 random front labels round-trip, as primary and at 2032 (%d did not, first #%d: %s)",
	      bad, first, bds_label_error(first_err));
}

int main(int argc, char **argv)
{
	tap_rng = 0x6c6162656c2d7631ULL;
	if (argc != 9 || !load_file(argv[2], wgolden) || !load_file(argv[3], ogolden) ||
	    !load_file(argv[4], rgolden) || !load_file(argv[5], mgolden) ||
	    !load_file(argv[6], agolden) || !load_file(argv[7], ggolden) ||
	    !load_file(argv[8], fgolden) || !load_golden(argv[1])) {
		fprintf(stderr, "usage: test-label GOLDEN-FILE WEIGHTED-GOLDEN-FILE OWNER-GOLDEN-FILE RESHAPE-GOLDEN-FILE WEIGHTS-MODE-GOLDEN-FILE ADOPT-GOLDEN-FILE MEASURED-GOLDEN-FILE FRONT-GOLDEN-FILE (8192 bytes each)\n");
		return 2;
	}
	test_crc();
	test_golden();
	test_corruption();
	test_rules();
	test_round_trip();
	test_pick();
	test_places();
	test_weighted_golden();
	test_weighted_rules();
	test_owner_golden();
	test_owner_rules();
	test_weights_mode_golden();
	test_corruption_of(mgolden, "weights-mode golden: ");
	test_weights_mode_rules();
	test_reshape_golden();
	test_corruption_of(rgolden, "RESHAPE golden: ");
	test_reshape_bytes_read();
	test_reshape_rules();
	test_reshape_round_trip();
	test_adopt_golden();
	test_corruption_of(agolden, "adopting golden: ");
	test_measured_golden();
	test_corruption_of(ggolden, "measured golden: ");
	test_measured_rules();
	test_front_golden();
	test_corruption_of(fgolden, "front golden: ");
	test_front_rules();
	test_front_reshape();
	test_front_helpers();
	test_front_place();
	test_front_round_trip();
	return tap_done();
}
