/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An adoption from md (bdsadm adopt) cut short, as assemble finds it:
 * devices of a volume with a copy that carries incompat ADOPT.  adopt
 * writes every member's backup with ADOPT, then every primary (over md's
 * superblock) without it, then every backup without it
 * (Documentation/bds-stripe-label.rst, "Adoption").  So:
 *   - no member's primary is ours and every device holds md's
 *     superblock: md assembles the array and holds the data; nothing
 *     here takes it (MD_WHOLE: adopt it again), whichever members carry
 *     a marked backup (adopt cut among them, release among its
 *     erasures);
 *   - no member's primary is ours, and a device holds no md superblock
 *     (metadata 1.1's, at sector 0, is erased before the primary is
 *     written): md cannot assemble the array, as below;
 *   - some member's primary is ours: md can no longer assemble the
 *     array, and every member's label is known, from its primary or
 *     its backup: assemble finishes the adoption (FINISH), once every
 *     position is there exactly once (else INCOMPLETE);
 *   - no member's primary is ours and no member holds md's superblock:
 *     adopt --from-table (adopt-table.c), which writes in the same
 *     order, was cut among its backups; the table it removed is all
 *     that placed the data, and the marked backups say where it lies:
 *     FINISH from the backups alone once every position is there
 *     exactly once (else INCOMPLETE), from_table set.
 * The decision is pure (tests/bdsadm/test-assemble.c); the writing is
 * bds_adopt_finish().
 */
#ifndef BDS_ADOPT_FINISH_H
#define BDS_ADOPT_FINISH_H

#include "assemble.h"

enum bds_adopt_verdict {
	BDS_ADOPT_NONE,		/* no copy of the volume carries ADOPT */
	BDS_ADOPT_MD_WHOLE,	/* no member's primary written yet */
	BDS_ADOPT_INCOMPLETE,	/* a position missing or claimed twice */
	BDS_ADOPT_FINISH,	/* finish it: write the labels left */
};

struct bds_adopt_result {
	enum bds_adopt_verdict verdict;
	const struct bds_label *label;	/* a label of the volume */
	u32 position;			/* INCOMPLETE: the position */
	const char *dev, *dev2;		/* INCOMPLETE: who claims it */
	u32 nr_primary;			/* members whose primary is ours */
	bool backup_only;		/* every member's primary is ours */
	bool from_table;		/* no primary ours, no md superblock */
	int member[BDS_MAX_MEMBERS];	/* found[] index, by position */
};

/* Decide for the volume @uuid over the @n devices in @found. */
enum bds_adopt_verdict bds_adopt_decide(const struct bds_found *found,
					size_t n, const u8 *uuid,
					struct bds_adopt_result *r);

/* The refusal (or, for FINISH, what is to be done) in @buf. */
void bds_adopt_message(const struct bds_adopt_result *r, char *buf,
		       size_t sz);

/*
 * FINISH: write the primary of every member whose primary is not ours
 * (erasing md's superblock first where one is left: metadata 1.1's),
 * then every backup without ADOPT.  Returns 0, or -1 (said on stderr).
 */
int bds_adopt_finish(const struct bds_found *found,
		     const struct bds_adopt_result *r);

#endif /* BDS_ADOPT_FINISH_H */
