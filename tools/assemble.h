/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The assembly decision of bdsadm: from the labels found on devices, one
 * complete and consistent member set of a volume in table order, or one
 * specific refusal.  Pure: no device is opened here, so the unit tests
 * run every scenario (tests/bdsadm/test-assemble.c).
 *
 * Nothing a disk says is trusted further than the labels of the other
 * disks confirm it: a disk may be a restored clone, a member that left
 * the volume, or a label crafted to look like one.  A volume is
 * assembled only when, among the labels that name it:
 *   - one volume UUID carries the name (else: name clash);
 *   - the labels of the newest generation agree on everything that is
 *     the volume's (geometry, member table, name, creation time);
 *   - each position is claimed by exactly one device of the newest
 *     generation (none: missing; two: a cloned disk, duplicate);
 *   - no device of an older generation is the only one for its
 *     position (stale);
 *   - every device still holds its data area (not shrunk);
 *   - no older generation has more members than the newest (conflict:
 *     a membership change never takes members away, so one of the two
 *     sets is not this volume's, and which one is for the admin to
 *     say).
 * A partial or inconsistent set is never assembled, and an older set is
 * never taken in place of an incomplete newer one, except for the one
 * case below.
 *
 * When the newest generation is incomplete because a membership change
 * (bdsadm replace) was interrupted before its commit point, the
 * previous generation is decided on instead, from the devices' older
 * copies where they have them: the change is rolled back.  That is the
 * only decision that writes to disks, and it is taken only when the
 * labels prove it safe:
 *   - the disk that was to join is there, with its first label copy
 *     only: its second copy is the commit point (bds-stripe-label.rst,
 *     "Membership changes"), so it alone proves the change was not
 *     committed; with both copies the change was committed, and without
 *     it nothing can prove that it was not (a clone of a member that
 *     stays, at the old generation, looks like a member not yet
 *     updated): refused;
 *   - every device of the newest generation whose member belongs to the
 *     previous generation too holds a copy of exactly the previous
 *     generation (else a stale set is being taken for the volume);
 *   - only the devices whose member is not in the previous generation's
 *     member table (the disk that was to join) lose their labels.
 * After the commit point it never is: the new member is then the only
 * valid one.
 */
#ifndef BDS_ASSEMBLE_H
#define BDS_ASSEMBLE_H

#include "../libbds/label.h"
#include "../libbds/table.h"

/*
 * A label whose restripe has reached its end (forward: the checkpoint is
 * the old volume's length in units; backward: 0).  Every unit then lies
 * where the new geometry says, as with the same label without feature
 * RESHAPE, which is what bdsadm grow writes next: assembly counts the two
 * as one.
 */
bool bds_label_restripe_done(const struct bds_label *l);

/*
 * Is @l a label of a restripe of the same members (bdsadm grow --layout
 * or --weights: no member added, the table order kept) at its start
 * (checkpoint 0 forward, U backward)?  It places every unit where the
 * plain label it replaced does, at the same generation: assembly counts
 * the two as one volume, the restripe at its start, and writes the
 * plain ones as the restripe's.
 */
bool bds_label_restripe_fresh(const struct bds_label *l);

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
	/*
	 * Only one copy is valid: what the disk that joins a volume carries
	 * from its first label write until the change's commit point (its
	 * backup copy is written after it).
	 */
	bool single;
	/*
	 * A copy of this device carries incompat ADOPT: an adoption from md
	 * (bdsadm adopt) did not finish on it (adopt-finish.c).
	 */
	bool adopting;
	/*
	 * adopting, and libblkid finds md's superblock on it (or cannot
	 * probe it): an adoption from md, not from a table.
	 */
	bool md_superblock;
};

enum bds_asm_verdict {
	BDS_ASM_OK = 0,
	BDS_ASM_NOT_FOUND,	/* no label names the volume (generation) */
	BDS_ASM_NAME_CLASH,	/* two volumes of that name */
	BDS_ASM_GEOMETRY,	/* labels of one generation disagree */
	BDS_ASM_DUPLICATE,	/* two devices claim one position */
	BDS_ASM_STALE,		/* a position's only device is out of date */
	BDS_ASM_MISSING,	/* no device for a position */
	BDS_ASM_SHRUNK,		/* a device is smaller than its data area */
	BDS_ASM_CONFLICT,	/* an older generation has more members */
};

/* At most this many devices are named in a result's lists. */
#define BDS_ASM_LIST_MAX	BDS_MAX_MEMBERS

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
	u64 generation;			/* the generation decided on */
	u64 newest;			/* the newest generation found */
	u64 want_generation;		/* asked for one (0: the decision's) */
	u64 dev_generation;		/* stale: the device's */
	bool same_member;		/* stale: of this position's member */
	u32 nr_missing;			/* missing: how many positions */
	const char *field;		/* geometry: what disagrees */
	/* OK: the volume in table order. */
	const struct bds_label *label;	/* a newest label (the volume's view) */
	u32 nr_members;
	int member[BDS_MAX_MEMBERS];	/* index into the found devices */
	u32 nr_backup;			/* members read from their backup copy */
	/*
	 * The devices of the volume that are not in the set decided on
	 * (clones, former members, older generations): never written to.
	 */
	u32 nr_ignored;
	int ignored[BDS_ASM_LIST_MAX];	/* the first BDS_ASM_LIST_MAX */
	/*
	 * Another generation, for the refusal to name (0 when there is
	 * none): with CONFLICT the newest older one of more members, and
	 * the devices that carry it; with MISSING or STALE the newest older
	 * one that is a complete set, and its devices in table order.
	 */
	u64 other_generation;
	u32 other_members;		/* its member table's size */
	u32 nr_other;
	const char *other_dev[BDS_MAX_MEMBERS];
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
	/*
	 * The newest generation was incomplete and the labels do not prove
	 * a change to it cut short before its commit point, so nothing is
	 * rolled back: a member of both generations has no copy of the
	 * previous one (@unsafe_rollback, that device), or the disk that
	 * was to join is not there and the members that stay do not show
	 * the change committed (@unproven_rollback, a device of the newest
	 * generation).
	 */
	const char *unsafe_rollback;
	const char *unproven_rollback;
};

/*
 * Decide for the volume named @name, or with @uuid when @name is NULL,
 * over the @n devices in @found.  Fills *r; returns r->verdict.
 */
enum bds_asm_verdict bds_assemble(const struct bds_found *found, size_t n,
				  const char *name, const u8 *uuid,
				  struct bds_asm_result *r);

/*
 * The same for generation @generation only (0: as bds_assemble()): the
 * devices whose label that counts is of that generation, never rolled
 * back; what an admin asks for to choose between two sets.
 */
enum bds_asm_verdict bds_assemble_at(const struct bds_found *found, size_t n,
				     const char *name, const u8 *uuid,
				     u64 generation, struct bds_asm_result *r);

/*
 * The label member @p of the set decided on is assembled with: its
 * device's label that counts, or its older copy on a rollback.
 */
const struct bds_label *bds_asm_member_label(const struct bds_found *found,
					     const struct bds_asm_result *r,
					     u32 p);

/*
 * A device of another volume than @uuid's that carries the name @name:
 * two volumes of one name are assembled under neither name by a scan,
 * whichever would come first.  NULL when there is none.
 */
const struct bds_found *bds_name_clash(const struct bds_found *found, size_t n,
				       const char *name, const u8 *uuid);

/*
 * The distinct volume UUIDs among @found, in the order first seen; at
 * most @max are stored in @uuids.  Returns how many there are.
 */
size_t bds_volumes(const struct bds_found *found, size_t n,
		   u8 (*uuids)[BDS_UUID_LEN], size_t max);

/*
 * Whose is the volume decided on (@r OK), by its members' labels, to a
 * host whose system ID is @system_id ("" for none)?
 *   HERE     every member names this host, or no host (a label without
 *            owner belongs to every host);
 *   NONE     no member names a host;
 *   FOREIGN  another host: *@other names it;
 *   MIXED    the members name different hosts (an import cut short):
 *            *@other names one that is not this one.
 * HERE and NONE are this host's to assemble on its own.
 */
enum bds_asm_owner {
	BDS_OWNER_HERE,
	BDS_OWNER_NONE,
	BDS_OWNER_FOREIGN,
	BDS_OWNER_MIXED,
};

enum bds_asm_owner bds_asm_owner(const struct bds_found *found,
				 const struct bds_asm_result *r,
				 const char *system_id, const char **other);

/* A refusal as one line for the admin, with what to do next. */
void bds_asm_message(const struct bds_asm_result *r, char *buf, size_t sz);

/* UUID as 8-4-4-4-12 lower-case hex (37 bytes with the NUL). */
void bds_uuid_format(const u8 *uuid, char *out);
/* The reverse (bds_parse_uuid()); false if malformed or all zero. */
bool bds_uuid_parse(const char *s, u8 *uuid);

#endif /* BDS_ASSEMBLE_H */
