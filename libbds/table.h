/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bds-stripe table's words: the parser the kernel's constructor runs
 * first (and the tools and fuzzers with it), and the one writer of table
 * text, which the kernel's table status and the tools both use, so that a
 * table read back is the table written.  Documentation/bds-stripe.rst
 * gives the syntax:
 *
 *   <chunk_sectors> <#groups> <group>... [<#opt_args> <opt_arg>...]
 *   <group> = <#devs> (<dev_path> <offset>)...
 */
#ifndef LIBBDS_TABLE_H
#define LIBBDS_TABLE_H

#include "layout.h"

/*
 * Strict unsigned decimal: digits only, no sign, no blank, no leading
 * "0x", no overflow.  The kernel and the tools accept the same words.
 */
bool bds_parse_u64(const char *s, u64 *out);

/*
 * A UUID as 8-4-4-4-12 hex digits (either case) into 16 bytes; false if
 * malformed or all zero (no volume has the zero UUID).
 */
bool bds_parse_uuid(const char *s, u8 *uuid);

/* UUID @u as 8-4-4-4-12 lower-case hex: 36 characters and a NUL. */
#define BDS_UUID_TEXT	37
void bds_uuid_text(const u8 *u, char *out);

/* Refusal reasons too long to stand in the parser's lines. */
#define BDS_MSG_OPT_UNKNOWN \
	"Unknown optional argument: accepted are 'layout <interleave|sequential>', 'volume <uuid>' and 'weights <w0,w1,...>'"
#define BDS_MSG_GROUP_SHORT \
	"Not enough arguments: a group lists fewer members than its #devs says"
#define BDS_MSG_VOLUME_NOVALUE \
	"Optional argument 'volume' needs a value: the volume's UUID"
#define BDS_MSG_VOLUME_BAD \
	"Invalid volume UUID: expected 8-4-4-4-12 hex digits, not all zero"
#define BDS_MSG_BAD_OFFSET \
	"Invalid member offset: not an unsigned decimal number of sectors"
#define BDS_MSG_LEN_WIDTH \
	"Target length is not a multiple of the stripe width (chunk x members)"
#define BDS_MSG_LEN_CYCLE \
	"Target length is not a multiple of the cycle (chunk x sum of weights)"
#define BDS_MSG_WEIGHTS_NOVALUE \
	"Optional argument 'weights' needs a value: one weight per member, comma-separated"
#define BDS_MSG_WEIGHTS_BAD \
	"Invalid weights: expected unsigned decimal numbers separated by single commas"
#define BDS_MSG_WEIGHTS_COUNT \
	"Invalid weights: the list must give exactly one weight per member"

/* What the first pass over a table's words found. */
struct bds_args {
	u64 chunk;
	u32 nr_groups;
	u32 group_size[BDS_MAX_GROUPS];
	enum bds_order_mode mode;
	bool mode_given;
	bool volume_given;		/* "volume <uuid>": check the labels */
	u8 volume_uuid[16];
	bool weights_given;		/* "weights <w0,w1,...>" */
	u32 nr_members;			/* members the groups list */
	u32 weight[BDS_MAX_MEMBERS];	/* table order; 1 when not given */
	unsigned int first_member;	/* argv index of the first member path */
	unsigned int opt_start;		/* argv index of <#opt_args>, or argc */
};

/*
 * "weights" <w0,w1,...>: one decimal number per member, in table order,
 * separated by single commas.  Their range and sum are the geometry's
 * (bds_weights_check()).  The numbers are capped while they are read, so
 * that a huge one is still out of range, never a wrapped small one.
 */
const char *bds_parse_weights(struct bds_args *a, const char *s);

/*
 * Check the shape of a table's words (numbers, counts against the words
 * present, optional arguments) without opening any device: the first
 * pass of the constructor.  Returns NULL, or the reason the table is
 * refused (a static string, as dm's ti->error wants).
 */
const char *bds_parse_table(struct bds_args *a, unsigned int argc,
			    char **argv);

/* Member m of a table, for the writer: its device's word and offset. */
struct bds_table_members {
	const char *(*dev)(const void *ctx, u32 m);
	u64 (*offset)(const void *ctx, u32 m);
	const void *ctx;
};

/*
 * Write the words of the table @a describes, member m as @mb gives it,
 * in the one canonical form: the optional arguments only where they
 * differ from the defaults (layout sequential, the volume's UUID, the
 * weights when one is not 1), in that order.  Writes at most @size bytes,
 * NUL included, and returns the length of the whole text, as snprintf
 * does.  The kernel's table status is this text.
 */
size_t bds_table_write(char *buf, size_t size, const struct bds_args *a,
		       const struct bds_table_members *mb);

#endif /* LIBBDS_TABLE_H */
