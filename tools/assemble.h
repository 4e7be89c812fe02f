/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The assembly decision of bdsadm: from the labels found on devices, one
 * complete and consistent member set of a volume in table order, or one
 * specific refusal.  Pure: no device is opened here, so the unit tests
 * run every scenario (tests/unit/test-assemble.c).
 *
 * A volume is assembled only when, among the labels that name it:
 *   - one volume UUID carries the name (else: name clash);
 *   - the labels of the newest generation agree on everything that is
 *     the volume's (geometry, member table, name, creation time);
 *   - each position is claimed by exactly one device of the newest
 *     generation (none: missing; two: a cloned disk, duplicate);
 *   - no device of an older generation is the only one for its
 *     position (stale);
 *   - every device still holds its data area (not shrunk).
 * A partial or inconsistent set is never assembled.
 *
 * When the newest generation is incomplete because a membership change
 * (bdsadm replace) was interrupted before its commit point (a member
 * that stays in the volume still carries the previous generation), the
 * previous generation is decided on instead, from the devices' older
 * copies where they have them: the change is rolled back.  After the
 * commit point (every member that stays carries the new generation) it
 * never is: the new member is then the only valid one.
 */
#ifndef BDS_ASSEMBLE_H
#define BDS_ASSEMBLE_H

#include "../dm-bds-label.h"

/*
 * The weights of a label's volume (Documentation/bds-stripe.rst,
 * Weights): member m holds weight[m] stripe units of every cycle of W
 * (their sum), and a label's data_sectors is its own member's share,
 * weight x the data of a member of weight 1.  Without weights W is N
 * and every member's data is the same.
 */
static inline u32 bds_label_slots(const struct bds_label *l)
{
	u32 m, w = 0;

	for (m = 0; m < l->nr_members && m < BDS_MAX_MEMBERS; m++)
		w += l->weight[m];
	return w;
}

static inline bool bds_label_weighted(const struct bds_label *l)
{
	return bds_label_slots(l) != l->nr_members;
}

/* Sectors of a member of weight 1 (the decoder checked the division). */
static inline u64 bds_label_unit(const struct bds_label *l)
{
	u32 w = l->weight[l->member_index];

	return w ? l->data_sectors / w : 0;
}

/* Member @m's data sectors, as the volume of label @l gives them. */
static inline u64 bds_label_member_data(const struct bds_label *l, u32 m)
{
	return bds_label_unit(l) * l->weight[m];
}

/* A device that holds a valid label (the copy bds_label_pick() chose). */
struct bds_found {
	const char *dev;		/* its path, for messages */
	u64 sectors;			/* its size now */
	int copy;			/* 0 primary, 1 backup */
	struct bds_label label;
	/*
	 * The other copy, when it is valid, of the same volume and member,
	 * and of an older generation: what a membership change interrupted
	 * between its primary and backup writes leaves behind
	 * (Documentation/bds-stripe-label.rst, "Membership changes").
	 */
	bool has_older;
	struct bds_label older;
};

enum bds_asm_verdict {
	BDS_ASM_OK = 0,
	BDS_ASM_NOT_FOUND,	/* no label names the volume */
	BDS_ASM_NAME_CLASH,	/* two volumes of that name */
	BDS_ASM_GEOMETRY,	/* labels of one generation disagree */
	BDS_ASM_DUPLICATE,	/* two devices claim one position */
	BDS_ASM_STALE,		/* a position's only device is out of date */
	BDS_ASM_MISSING,	/* no device for a position */
	BDS_ASM_SHRUNK,		/* a device is smaller than its data area */
};

struct bds_asm_result {
	enum bds_asm_verdict verdict;
	char name[BDS_LABEL_NAME_LEN];
	u8 volume_uuid[BDS_UUID_LEN];
	u8 other_uuid[BDS_UUID_LEN];	/* name clash: the other volume */
	/* The member a refusal is about (position in table order). */
	u32 position;
	u8 member_uuid[BDS_UUID_LEN];
	char serial[BDS_LABEL_SERIAL_LEN + 1];
	char controller[BDS_LABEL_CTRL_LEN + 1];
	const char *dev;		/* the device concerned */
	const char *dev2;		/* the second one (duplicate, geometry) */
	u64 generation;			/* the volume's newest generation */
	u64 dev_generation;		/* stale: the device's */
	u32 nr_missing;			/* missing: how many positions */
	const char *field;		/* geometry: what disagrees */
	/* OK: the volume in table order. */
	const struct bds_label *label;	/* a newest label (the volume's view) */
	u32 nr_members;
	int member[BDS_MAX_MEMBERS];	/* index into the found devices */
	u32 nr_backup;			/* members read from their backup copy */
	u32 nr_ignored;			/* stale devices left out */
	/*
	 * An interrupted membership change (generation @abandoned) that had
	 * not reached its commit point: the volume is the previous
	 * generation's.  Before the table is loaded, the devices in
	 * restore[] get their older copy written back as the primary, and
	 * the labels of the devices in drop[] (taking part only in the
	 * abandoned generation: the disk that was to come in) are erased.
	 */
	bool rollback;
	u64 abandoned;
	u32 nr_restore, nr_drop;
	int restore[BDS_MAX_MEMBERS];
	int drop[BDS_MAX_MEMBERS];
	struct bds_label rolled;	/* ->label points here on a rollback */
};

/*
 * Decide for the volume named @name, or with @uuid when @name is NULL,
 * over the @n devices in @found.  Fills *r; returns r->verdict.
 */
enum bds_asm_verdict bds_assemble(const struct bds_found *found, size_t n,
				  const char *name, const u8 *uuid,
				  struct bds_asm_result *r);

/*
 * The distinct volume UUIDs among @found, in the order first seen; at
 * most @max are stored in @uuids.  Returns how many there are.
 */
size_t bds_volumes(const struct bds_found *found, size_t n,
		   u8 (*uuids)[BDS_UUID_LEN], size_t max);

/* A refusal as one line for the admin, with what to do next. */
void bds_asm_message(const struct bds_asm_result *r, char *buf, size_t sz);

/* UUID as 8-4-4-4-12 lower-case hex (37 bytes with the NUL). */
void bds_uuid_format(const u8 *uuid, char *out);
/* The reverse (bds_parse_uuid()); false if malformed or all zero. */
bool bds_uuid_parse(const char *s, u8 *uuid);

#endif /* BDS_ASSEMBLE_H */
