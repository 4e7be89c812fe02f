// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the on-disk member label reader, bds_label_decode()
 * of libbds/label.c, the code the kernel runs on every member it opens.
 *
 * Each input is decoded twice:
 *  - raw: the input as it is, in a heap buffer of exactly its length, so
 *    that ASan reports any read past it (any length, 0 included);
 *  - fixed up: the input cut or zero-padded to BDS_LABEL_SIZE, with the
 *    magic, version 1 and size 8192 forced and the crc (bytes 16..19)
 *    recomputed, so that random inputs get past the raw checks and into
 *    the structural ones.  How, is up to the flag byte, byte 148 of the
 *    input (the first reserved byte, ignored by the reader; 0 when the
 *    input is shorter):
 *      bit 0     keep magic, version and size as they are
 *      bit 1     keep the crc as it is (the copy is usually bad then)
 *      bit 2     give the fixed-up copy to bds_label_pick() as the
 *                primary, the raw one as the backup (else the reverse)
 *      bits 3-7  add this to the generation before the crc
 *    and by the second flag byte, byte 149 (also reserved):
 *      bit 0     set incompat RESHAPE exactly when the RESHAPE section
 *                (bytes 384..511, 7424..8191) is not all zero, so that
 *                mutated restripe labels get past rule 27
 *
 * Properties; any violation calls abort():
 *  1. No crash, hang, overread or undefined behaviour, whatever the
 *     length and the bytes.
 *  2. A refused copy leaves the decoded label all zero ("nothing to use").
 *  3. An accepted copy satisfies, checked here independently of the
 *     header: 1..32 groups, 1..128 members, group sizes adding up to the
 *     member count, unused groups and members zero, member_index in
 *     range and its uuid the member_uuid, member uuids nonzero and
 *     distinct, weights 1..255 with "incompat" WEIGHTS exactly when one
 *     is not 1 (sum at most 1024, interleave only, a cycle within 32
 *     bits), this member's offset the data offset, data at or after
 *     sector 24, a nonzero whole number of cycles' worth of this
 *     member's units ending at or before the backup, the backup where the member's size
 *     puts it; with FRONT_BACKUP (incompat bit 3) instead the backup at
 *     sector 2032, the data at or after sector 2048 and ending at or
 *     before the member's end; the copy at sector 8 or at the backup, a geometry
 *     bds_layout_init() and fuzz_expected_geom() both accept, and a
 *     non-empty NUL-terminated volume name of the documented characters,
 *     controller and serial texts of printable ASCII, and "compat" the
 *     known bits OWNER, WEIGHTS_MODE and MEASURED only: OWNER set
 *     exactly when the owner is a non-empty NUL-padded text of the
 *     name's characters (else all zero), WEIGHTS_MODE exactly when the
 *     weights mode (bytes 216..219) is 1, 2 or 3 (else 0), MEASURED
 *     exactly when the disk figure (220..223) is not 0, and then the
 *     time (232..239) not 0 either (else both, and the controller's
 *     figure at 224..227, 0).
 *     RESHAPE (incompat bit 1) set exactly when the section (bytes
 *     384..511 and 7424..8191) is not all zero, and then, checked here
 *     from the documentation: 1..old nr_members..nr_members old members
 *     in 1..32 old groups adding up, distinct members of the table,
 *     weights 1..255, offsets 24..2^32-1, unused entries zero, an old
 *     geometry bds_layout_init(), fuzz_expected_geom() and
 *     bds_weights_check() accept, direction 0 or 1, an old length of
 *     whole units no longer than the new, a checkpoint within it,
 *     every old member's data moving down (forward) or up (backward)
 *     to 24 or later, and this member's old data, if any, ending at or
 *     before its backup (its end with FRONT_BACKUP, and then starting
 *     at 2048 or later); without RESHAPE every decoded field of it zero.
 *     ADOPT (incompat bit 2) only in a copy at the backup sector.
 *  4. An accepted copy encodes back (bds_label_encode()) to the same
 *     bytes outside the reserved areas (head 148..151, 228..231 and
 *     240..255) and
 *     "compat" (144..147, written back with the known bits only; the
 *     crc too unless any of those differ), with zero reserved areas and
 *     a correct crc (by a bitwise crc32c written here), and that
 *     encoding decodes to the identical struct: a label mid-restripe
 *     encodes back identically, section included.  Decode
 *     is run on structs full of garbage, so this also checks that it
 *     clears the whole struct first.
 *  5. bds_label_pick() of the two results is -1 exactly when both are
 *     refused, never a refused copy, of two accepted copies of different
 *     volumes or members a conflict, and else the higher generation, the
 *     primary on a tie.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libbds/crc32c.h"
#include "libbds/label.h"
#include "fuzz-check.h"

#define FLAG_BYTE	148
#define FLAG2_BYTE	149
#define FLAG2_RESHAPE	0x01
#define FLAG_KEEP_HEAD	0x01
#define FLAG_KEEP_CRC	0x02
#define FLAG_SWAP	0x04
#define FLAG_GEN_SHIFT	3

#define CRC_OFF		16
#define COMPAT_OFF	144

static void put_le32(u8 *p, u32 v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (u8)(v >> (8 * i));
}

static u32 get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void put_le64(u8 *p, u64 v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (u8)(v >> (8 * i));
}

static u64 get_le64(const u8 *p)
{
	u64 v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (u64)p[i] << (8 * i);
	return v;
}

/* CRC-32C bit by bit, from its definition, to check the header's. */
static u32 crc32c_bitwise(const u8 *p, size_t len)
{
	u32 crc = ~0U;
	size_t i;
	int b;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0x82f63b78U & (0U - (crc & 1)));
	}
	return ~crc;
}

/* Reserved bytes of a copy: the reader ignores them, the writer zeroes. */
static bool is_reserved(size_t i)
{
	return (i >= 148 && i < 152) || (i >= 228 && i < 232) ||
	       (i >= 240 && i < 256);
}

/* The RESHAPE section: bytes 384..511 and 7424..8191. */
static bool section_zero(const u8 *buf)
{
	size_t i;

	for (i = 384; i < BDS_LABEL_SIZE; i++) {
		if (i == 512)
			i = 7424;
		if (buf[i])
			return false;
	}
	return true;
}

static bool all_zero(const void *p, size_t len)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

static bool reserved_zero(const u8 *buf)
{
	size_t i;

	for (i = 0; i < BDS_LABEL_SIZE; i++)
		if (is_reserved(i) && buf[i])
			return false;
	return true;
}

/* Volume names, as the documentation has them: [A-Za-z0-9._+-]. */
static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '+' ||
	       c == '-';
}

/* Text the reader hands out: printable ASCII only, up to its NUL. */
static bool printable(const char *t)
{
	for (; *t; t++)
		if (*t < 0x20 || *t > 0x7e)
			return false;
	return true;
}

/* Property 3: what an accepted label must look like. */
static void check_decoded(const struct bds_label *l)
{
	struct bds_layout layout;
	enum bds_geom_err gerr, want;
	u64 sum = 0, data_end, backup, wsum = 0;
	u32 g, i, j, nr_slots;
	bool weighted = false, front = l->incompat & 8U;
	size_t n;

	FUZZ_CHECK(l->nr_groups >= 1 && l->nr_groups <= BDS_MAX_GROUPS,
		   "nr_groups %u", l->nr_groups);
	FUZZ_CHECK(l->nr_members >= 1 && l->nr_members <= BDS_MAX_MEMBERS,
		   "nr_members %u", l->nr_members);
	for (g = 0; g < BDS_MAX_GROUPS; g++) {
		if (g < l->nr_groups)
			FUZZ_CHECK(l->group_size[g], "group %u empty", g);
		else
			FUZZ_CHECK(!l->group_size[g] &&
				   all_zero(l->controller[g],
					    sizeof(l->controller[g])),
				   "unused group %u not zero", g);
		FUZZ_CHECK(!l->controller[g][BDS_LABEL_CTRL_LEN],
			   "controller %u not NUL-terminated", g);
		FUZZ_CHECK(printable(l->controller[g]),
			   "controller %u not printable ASCII", g);
		sum += l->group_size[g];
	}
	FUZZ_CHECK(sum == l->nr_members, "group sizes add up to %llu, not %u",
		   (unsigned long long)sum, l->nr_members);
	FUZZ_CHECK(l->member_index < l->nr_members, "member_index %u of %u",
		   l->member_index, l->nr_members);
	FUZZ_CHECK(!memcmp(l->member_uuid, l->uuid[l->member_index],
			   BDS_UUID_LEN),
		   "member_uuid is not uuid[%u]", l->member_index);
	FUZZ_CHECK(!all_zero(l->volume_uuid, BDS_UUID_LEN), "volume uuid zero");

	for (i = 0; i < BDS_MAX_MEMBERS; i++) {
		FUZZ_CHECK(!l->serial[i][BDS_LABEL_SERIAL_LEN],
			   "serial %u not NUL-terminated", i);
		FUZZ_CHECK(printable(l->serial[i]),
			   "serial %u not printable ASCII", i);
		if (i >= l->nr_members) {
			FUZZ_CHECK(all_zero(l->uuid[i], BDS_UUID_LEN) &&
				   !l->member_offset[i] && !l->weight[i] &&
				   all_zero(l->serial[i], sizeof(l->serial[i])),
				   "unused member %u not zero", i);
			continue;
		}
		FUZZ_CHECK(!all_zero(l->uuid[i], BDS_UUID_LEN),
			   "member %u: uuid zero", i);
		for (j = 0; j < i; j++)
			FUZZ_CHECK(memcmp(l->uuid[i], l->uuid[j], BDS_UUID_LEN),
				   "members %u and %u: same uuid", j, i);
		FUZZ_CHECK(l->weight[i] >= 1 && l->weight[i] <= 255,
			   "member %u: weight %u", i, l->weight[i]);
		if (l->weight[i] != 1)
			weighted = true;
	}
	/* "incompat": WEIGHTS exactly for weights != 1, RESHAPE, ADOPT, FRONT */
	FUZZ_CHECK((l->incompat & ~14U) == (weighted ? 1U : 0U),
		   "incompat 0x%x with%s weights", l->incompat,
		   weighted ? "" : "out");

	FUZZ_CHECK(l->member_offset[l->member_index] == l->data_offset,
		   "member %u: offset %llu, data_offset %llu", l->member_index,
		   (unsigned long long)l->member_offset[l->member_index],
		   (unsigned long long)l->data_offset);
	/* after the primary; with FRONT_BACKUP after the backup at 2032 too */
	FUZZ_CHECK(l->data_offset >= (front ? 2048 : 24), "data_offset %llu%s",
		   (unsigned long long)l->data_offset,
		   front ? " with FRONT_BACKUP" : "");
	FUZZ_CHECK(l->data_sectors && l->data_sectors <= UINT64_MAX -
		   l->data_offset, "data_sectors %llu at %llu",
		   (unsigned long long)l->data_sectors,
		   (unsigned long long)l->data_offset);
	data_end = l->data_offset + l->data_sectors;
	FUZZ_CHECK(data_end <= (front ? l->member_sectors : l->backup_sector),
		   "data ends at %llu, past the %s at %llu",
		   (unsigned long long)data_end,
		   front ? "member's end" : "backup",
		   (unsigned long long)(front ? l->member_sectors :
					l->backup_sector));
	/*
	 * The backup: the last 16 sectors below a 4 KiB boundary, or with
	 * FRONT_BACKUP sector 2032, in front of the data.
	 */
	FUZZ_CHECK(l->member_sectors >= 16 + 8 + 16, "member_sectors %llu",
		   (unsigned long long)l->member_sectors);
	backup = front ? 2032 : l->member_sectors / 8 * 8 - 16;
	FUZZ_CHECK(l->backup_sector == backup,
		   "backup_sector %llu, member of %llu puts it at %llu",
		   (unsigned long long)l->backup_sector,
		   (unsigned long long)l->member_sectors,
		   (unsigned long long)backup);
	FUZZ_CHECK(l->label_sector == 8 || l->label_sector == l->backup_sector,
		   "label_sector %llu", (unsigned long long)l->label_sector);
	/* ADOPT (incompat bit 2) only in a backup copy */
	FUZZ_CHECK(!(l->incompat & 4) || l->label_sector == l->backup_sector,
		   "ADOPT in a copy at sector %llu",
		   (unsigned long long)l->label_sector);

	gerr = bds_layout_init(&layout, l->chunk_sectors, l->group_size,
			       l->nr_groups, (enum bds_order_mode)l->layout);
	want = fuzz_expected_geom(l->chunk_sectors, l->group_size,
				  l->nr_groups, l->layout);
	FUZZ_CHECK(gerr == BDS_OK && want == BDS_OK,
		   "geometry refused: bds_layout_init %d (%s), doc %d (%s)",
		   gerr, bds_geom_error(gerr), want, bds_geom_error(want));
	/* The weights: sum <= 1024, interleave only, cycle within 32 bits. */
	for (i = 0; i < l->nr_members; i++)
		wsum += l->weight[i];
	FUZZ_CHECK(wsum <= 1024 &&
		   (!weighted || l->layout == BDS_LAYOUT_INTERLEAVE) &&
		   l->chunk_sectors * 512 * wsum <= 0xffffffffULL,
		   "weights sum %llu, layout %u, chunk %llu accepted",
		   (unsigned long long)wsum, l->layout,
		   (unsigned long long)l->chunk_sectors);
	FUZZ_CHECK(bds_weights_check(&layout, l->weight, &nr_slots) == BDS_OK &&
		   nr_slots == wsum, "bds_weights_check refuses the label's weights");
	/* chunk_sectors is nonzero: the geometry was accepted */
	FUZZ_CHECK(l->data_sectors %
		   (l->chunk_sectors * l->weight[l->member_index]) == 0,
		   "data_sectors %llu not whole cycles of %llu x %u",
		   (unsigned long long)l->data_sectors,
		   (unsigned long long)l->chunk_sectors,
		   l->weight[l->member_index]);

	n = strnlen(l->name, BDS_LABEL_NAME_LEN);
	FUZZ_CHECK(n > 0 && n < BDS_LABEL_NAME_LEN, "name length %zu", n);
	FUZZ_CHECK(all_zero(l->name + n, BDS_LABEL_NAME_LEN - n),
		   "name not NUL-padded");
	FUZZ_CHECK(l->name[0] != '.' && l->name[0] != '-', "name starts '%c'",
		   l->name[0]);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(name_char(l->name[i]), "name byte %u is 0x%02x", i,
			   (u8)l->name[i]);

	/* "compat": OWNER, WEIGHTS_MODE and MEASURED only, each when used */
	FUZZ_CHECK(!(l->compat & ~(BDS_LABEL_COMPAT_OWNER |
				   BDS_LABEL_COMPAT_WEIGHTS_MODE |
				   BDS_LABEL_COMPAT_MEASURED)),
		   "compat 0x%x kept", l->compat);
	FUZZ_CHECK((l->compat & BDS_LABEL_COMPAT_MEASURED) ?
		   l->meas_disk && l->meas_time :
		   !l->meas_disk && !l->meas_ctrl && !l->meas_time,
		   "measured %u, %u kB/s at %llu, compat 0x%x", l->meas_disk,
		   l->meas_ctrl, (unsigned long long)l->meas_time, l->compat);
	FUZZ_CHECK(l->weights_mode <= 3 &&
		   !!l->weights_mode == !!(l->compat & BDS_LABEL_COMPAT_WEIGHTS_MODE),
		   "weights mode %u, compat 0x%x", l->weights_mode, l->compat);
	n = strnlen(l->owner, BDS_LABEL_OWNER_LEN);
	FUZZ_CHECK(n < BDS_LABEL_OWNER_LEN &&
		   (n > 0) == !!(l->compat & BDS_LABEL_COMPAT_OWNER),
		   "owner length %zu, compat 0x%x", n, l->compat);
	FUZZ_CHECK(all_zero(l->owner + n, BDS_LABEL_OWNER_LEN - n),
		   "owner not NUL-padded");
	FUZZ_CHECK(!n || (l->owner[0] != '.' && l->owner[0] != '-'),
		   "owner starts '%c'", l->owner[0]);
	for (i = 0; i < n; i++)
		FUZZ_CHECK(name_char(l->owner[i]), "owner byte %u is 0x%02x", i,
			   (u8)l->owner[i]);
}

/* Units of @cycles cycles of @slots, or ~0 over 64 bits (as documented). */
static u64 units_of(u64 cycles, u64 slots)
{
	return cycles > UINT64_MAX / slots ? UINT64_MAX : cycles * slots;
}

/* Property 3, RESHAPE: the section of an accepted copy @buf, in @l. */
static void check_reshape(const u8 *buf, const struct bds_label *l)
{
	struct bds_layout layout;
	bool present = !section_zero(buf), used[BDS_MAX_MEMBERS] = { false };
	u64 sum = 0, wsum = 0, old_units, new_units, cycles_new;
	/* the data end: the backup, or the member's end with FRONT_BACKUP */
	u64 dend = (l->incompat & 8U) ? l->member_sectors : l->backup_sector;
	u32 g, i, nr_slots;
	enum bds_geom_err gerr, want;

	FUZZ_CHECK(present == !!(l->incompat & 2U),
		   "RESHAPE bit %u, section %s", !!(l->incompat & 2U),
		   present ? "there" : "all zero");
	if (!present) {
		FUZZ_CHECK(!l->reshape_pos && !l->reshape_dir &&
			   !l->old_nr_members && !l->old_nr_groups &&
			   !l->old_layout && !l->old_member_len &&
			   all_zero(l->old_group_size, sizeof(l->old_group_size)) &&
			   all_zero(l->old_member, sizeof(l->old_member)) &&
			   all_zero(l->old_weight, sizeof(l->old_weight)) &&
			   all_zero(l->old_offset, sizeof(l->old_offset)),
			   "no RESHAPE, yet restripe fields decoded");
		return;
	}
	FUZZ_CHECK(all_zero(buf + 448, 64), "section's reserved bytes set");
	FUZZ_CHECK(l->old_nr_members >= 1 && l->old_nr_members <= l->nr_members &&
		   l->old_nr_groups >= 1 && l->old_nr_groups <= 32,
		   "old members %u of %u, old groups %u", l->old_nr_members,
		   l->nr_members, l->old_nr_groups);
	for (g = 0; g < BDS_MAX_GROUPS; g++) {
		FUZZ_CHECK((g < l->old_nr_groups) == (l->old_group_size[g] != 0),
			   "old group %u of %u: %u members", g,
			   l->old_nr_groups, l->old_group_size[g]);
		sum += l->old_group_size[g];
	}
	FUZZ_CHECK(sum == l->old_nr_members, "old groups add up to %llu, not %u",
		   (unsigned long long)sum, l->old_nr_members);
	for (i = 0; i < BDS_MAX_MEMBERS; i++) {
		if (i >= l->old_nr_members) {
			FUZZ_CHECK(!l->old_member[i] && !l->old_weight[i] &&
				   !l->old_offset[i], "unused old member %u set", i);
			continue;
		}
		FUZZ_CHECK(l->old_member[i] < l->nr_members && !used[l->old_member[i]],
			   "old member %u: table member %u", i, l->old_member[i]);
		used[l->old_member[i]] = true;
		FUZZ_CHECK(l->old_weight[i] >= 1 && l->old_weight[i] <= 255,
			   "old member %u: weight %u", i, l->old_weight[i]);
		FUZZ_CHECK(l->old_offset[i] >= 24 && l->old_offset[i] <= 0xffffffffULL,
			   "old member %u: offset %llu", i,
			   (unsigned long long)l->old_offset[i]);
		wsum += l->old_weight[i];
	}
	gerr = bds_layout_init(&layout, l->chunk_sectors, l->old_group_size,
			       l->old_nr_groups, (enum bds_order_mode)l->old_layout);
	want = fuzz_expected_geom(l->chunk_sectors, l->old_group_size,
				  l->old_nr_groups, l->old_layout);
	FUZZ_CHECK(gerr == BDS_OK && want == BDS_OK &&
		   bds_weights_check(&layout, l->old_weight, &nr_slots) == BDS_OK &&
		   nr_slots == wsum, "old geometry accepted: %d, doc %d", gerr, want);
	FUZZ_CHECK(wsum <= 1024 && (wsum == l->old_nr_members || !l->old_layout) &&
		   l->chunk_sectors * 512 * wsum <= 0xffffffffULL,
		   "old weights sum %llu, layout %u", (unsigned long long)wsum,
		   l->old_layout);
	FUZZ_CHECK(l->reshape_dir <= 1, "direction %u", l->reshape_dir);
	FUZZ_CHECK(l->old_member_len && l->old_member_len % l->chunk_sectors == 0,
		   "old length %llu", (unsigned long long)l->old_member_len);
	old_units = units_of(l->old_member_len / l->chunk_sectors, wsum);
	cycles_new = l->data_sectors /
		     (l->chunk_sectors * l->weight[l->member_index]);
	wsum = 0;
	for (i = 0; i < l->nr_members; i++)
		wsum += l->weight[i];
	new_units = units_of(cycles_new, wsum);
	FUZZ_CHECK(old_units != UINT64_MAX && old_units <= new_units &&
		   l->reshape_pos <= old_units,
		   "old %llu units, new %llu, checkpoint %llu",
		   (unsigned long long)old_units, (unsigned long long)new_units,
		   (unsigned long long)l->reshape_pos);
	for (i = 0; i < l->old_nr_members; i++) {
		u64 was = l->old_offset[i], now = l->member_offset[l->old_member[i]];

		FUZZ_CHECK(now >= 24 && (l->reshape_dir ? now >= was : now <= was),
			   "old member %u moves from %llu to %llu, direction %u",
			   i, (unsigned long long)was, (unsigned long long)now,
			   l->reshape_dir);
		if (l->old_member[i] != l->member_index)
			continue;
		FUZZ_CHECK(was <= dend &&
			   (dend - was) / l->old_weight[i] >= l->old_member_len,
			   "this member's old data from %llu past its data end at %llu",
			   (unsigned long long)was, (unsigned long long)dend);
		FUZZ_CHECK(!(l->incompat & 8U) || was >= 2048,
			   "this member's old data from %llu, over its backup at 2032",
			   (unsigned long long)was);
	}
}

/* Property 4: an accepted copy @buf, decoded into @l, encodes back. */
static void check_roundtrip(const u8 *buf, const struct bds_label *l)
{
	u32 compat = get_le32(buf + COMPAT_OFF);
	u32 known = BDS_LABEL_COMPAT_OWNER | BDS_LABEL_COMPAT_WEIGHTS_MODE |
		    BDS_LABEL_COMPAT_MEASURED;
	bool crc_same = reserved_zero(buf) && !(compat & ~known);
	struct bds_label *l2;
	enum bds_label_err err;
	u8 *enc, zcrc[4] = { 0 };
	u32 crc;
	size_t i;

	enc = malloc(BDS_LABEL_SIZE);
	l2 = malloc(sizeof(*l2));
	FUZZ_CHECK(enc && l2, "out of memory");

	memset(enc, 0xa5, BDS_LABEL_SIZE);
	bds_label_encode(l, enc);
	for (i = 0; i < BDS_LABEL_SIZE; i++) {
		if (is_reserved(i)) {
			FUZZ_CHECK(!enc[i], "reserved byte %zu: 0x%02x",
				   i, enc[i]);
			continue;
		}
		if (i >= CRC_OFF && i < CRC_OFF + 4 && !crc_same)
			continue;
		if (i >= COMPAT_OFF && i < COMPAT_OFF + 4)
			continue;	/* below: the known bits only */
		FUZZ_CHECK(enc[i] == buf[i],
			   "byte %zu: read 0x%02x, written back 0x%02x", i,
			   buf[i], enc[i]);
	}

	FUZZ_CHECK(get_le32(enc + COMPAT_OFF) == (compat & known),
		   "compat read 0x%08x, written back 0x%08x", compat,
		   get_le32(enc + COMPAT_OFF));

	/* the crc: crc32c of the copy with the field zeroed */
	crc = get_le32(enc + CRC_OFF);
	memcpy(enc + CRC_OFF, zcrc, 4);
	FUZZ_CHECK(crc == crc32c_bitwise(enc, BDS_LABEL_SIZE),
		   "encoded crc 0x%08x, crc32c 0x%08x", crc,
		   crc32c_bitwise(enc, BDS_LABEL_SIZE));
	put_le32(enc + CRC_OFF, crc);

	memset(l2, 0x5a, sizeof(*l2));
	err = bds_label_decode(enc, BDS_LABEL_SIZE, l2);
	FUZZ_CHECK(err == BDS_LABEL_OK, "re-encoded label refused: %d (%s)",
		   err, bds_label_error(err));
	FUZZ_CHECK(!memcmp(l, l2, sizeof(*l)),
		   "re-encoded label decodes differently");
	free(l2);
	free(enc);
}

/* Properties 2 to 4 for one decode of @buf. */
static void check_result(enum bds_label_err err, const u8 *buf, size_t len,
			 const struct bds_label *l)
{
	if (err != BDS_LABEL_OK) {
		FUZZ_CHECK(err <= BDS_LABEL_ERR_MEASURED, "unknown error %d", err);
		FUZZ_CHECK(len >= BDS_LABEL_SIZE || err == BDS_LABEL_ERR_SHORT,
			   "%zu bytes: error %d (%s)", len, err,
			   bds_label_error(err));
		FUZZ_CHECK(all_zero(l, sizeof(*l)),
			   "refused label (%d: %s) left data in the struct",
			   err, bds_label_error(err));
		return;
	}
	FUZZ_CHECK(len >= BDS_LABEL_SIZE, "%zu bytes accepted", len);
	check_decoded(l);
	check_reshape(buf, l);
	check_roundtrip(buf, l);
}

/* Property 5. */
static void check_pick(enum bds_label_err pe, const struct bds_label *p,
		       enum bds_label_err be, const struct bds_label *b)
{
	int pick = bds_label_pick(pe, p, be, b), want;

	if (pe && be)
		want = -1;
	else if (pe)
		want = 1;
	else if (be)
		want = 0;
	else if (memcmp(p->volume_uuid, b->volume_uuid, BDS_UUID_LEN) ||
		 memcmp(p->member_uuid, b->member_uuid, BDS_UUID_LEN))
		want = BDS_LABEL_PICK_CONFLICT;
	else
		want = b->generation > p->generation;
	FUZZ_CHECK(pick >= BDS_LABEL_PICK_CONFLICT && pick <= 1, "pick %d",
		   pick);
	FUZZ_CHECK((pick == -1) == (pe && be), "pick %d, errors %d and %d",
		   pick, pe, be);
	FUZZ_CHECK(pick != 0 || !pe, "picked the refused primary (%d)", pe);
	FUZZ_CHECK(pick != 1 || !be, "picked the refused backup (%d)", be);
	FUZZ_CHECK(pick == want,
		   "pick %d, want %d (errors %d, %d; generations %llu, %llu)",
		   pick, want, pe, be, (unsigned long long)p->generation,
		   (unsigned long long)b->generation);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool crc_checked;
	struct bds_label *rl, *fl;
	enum bds_label_err rerr, ferr;
	u8 *raw, *fixed, flag;

	if (!crc_checked) {
		const u8 *kat = (const u8 *)"123456789";

		FUZZ_CHECK(crc32c_bitwise(kat, 9) == 0xe3069283 &&
			   bds_crc32c(kat, 9) == 0xe3069283,
			   "crc32c(\"123456789\") = 0x%08x, header 0x%08x",
			   crc32c_bitwise(kat, 9), bds_crc32c(kat, 9));
		crc_checked = true;
	}

	rl = malloc(sizeof(*rl));
	fl = malloc(sizeof(*fl));
	fixed = malloc(BDS_LABEL_SIZE);
	raw = malloc(size);
	FUZZ_CHECK(rl && fl && fixed && (raw || !size), "out of memory");

	/* raw: exactly the input's bytes */
	if (size)
		memcpy(raw, data, size);
	memset(rl, 0xa5, sizeof(*rl));
	/* malloc(0) may give NULL: then any non-NULL buffer of length 0 */
	rerr = bds_label_decode(raw ? raw : fixed, size, rl);
	check_result(rerr, raw, size, rl);

	/* fixed up: one whole copy that gets past the raw checks */
	memset(fixed, 0, BDS_LABEL_SIZE);
	if (size)
		memcpy(fixed, data,
		       size < BDS_LABEL_SIZE ? size : BDS_LABEL_SIZE);
	flag = size > FLAG_BYTE ? data[FLAG_BYTE] : 0;
	if (!(flag & FLAG_KEEP_HEAD)) {
		memcpy(fixed, BDS_LABEL_MAGIC, 8);
		put_le32(fixed + 8, BDS_LABEL_VERSION);
		put_le32(fixed + 12, BDS_LABEL_SIZE);
	}
	if (flag >> FLAG_GEN_SHIFT)
		put_le64(fixed + 24,
			 get_le64(fixed + 24) + (flag >> FLAG_GEN_SHIFT));
	if (size > FLAG2_BYTE && (data[FLAG2_BYTE] & FLAG2_RESHAPE))
		put_le32(fixed + 20, (get_le32(fixed + 20) & ~2U) |
			 (section_zero(fixed) ? 0 : 2U));
	if (!(flag & FLAG_KEEP_CRC))
		put_le32(fixed + CRC_OFF, bds_label_crc(fixed));
	memset(fl, 0xa5, sizeof(*fl));
	ferr = bds_label_decode(fixed, BDS_LABEL_SIZE, fl);
	check_result(ferr, fixed, BDS_LABEL_SIZE, fl);

	if (flag & FLAG_SWAP)
		check_pick(ferr, fl, rerr, rl);
	else
		check_pick(rerr, rl, ferr, fl);

	free(raw);
	free(fixed);
	free(fl);
	free(rl);
	return 0;
}
