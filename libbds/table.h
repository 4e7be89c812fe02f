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
 *
 * A restripe's table is the new geometry's, with one more optional
 * argument of 7 words, the old geometry and how far the copy has come:
 *
 *   reshape <forward|backward> <checkpoint_units> <new_sectors>
 *           <old_group_sizes> <old_layout> <old_members>
 *   <old_group_sizes> = <n0>,<n1>,...
 *   <old_members> = <index>:<offset>:<weight>,...
 *
 * Its words are read in a second pass (bds_parse_reshape()) into a
 * struct bds_reshape_args of the caller's, which the kernel allocates:
 * it is too large for a stack.
 */
#ifndef LIBBDS_TABLE_H
#define LIBBDS_TABLE_H

#include "layout.h"
#include "reshape.h"

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
	"Unknown optional argument: accepted are 'layout <interleave|sequential>', 'volume <uuid>', 'weights <w0,w1,...>' and 'reshape ...'"
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

/* "reshape": its place among the optional arguments (first pass) */
#define BDS_MSG_RESHAPE_TWICE \
	"Optional argument 'reshape' given more than once"
#define BDS_MSG_RESHAPE_NOVALUE \
	"Optional argument 'reshape' needs 6 values: <forward|backward> <checkpoint_units> <new_sectors> <old_group_sizes> <old_layout> <old_members>"
#define BDS_MSG_RESHAPE_NOVOLUME \
	"Optional argument 'reshape' needs 'volume <uuid>': only a labelled volume is restriped"
/* its words (bds_parse_reshape()) */
#define BDS_MSG_RESHAPE_DIR \
	"Invalid restripe direction: accepted values are forward and backward"
#define BDS_MSG_RESHAPE_CKPT \
	"Invalid restripe checkpoint: not an unsigned decimal number of stripe units"
#define BDS_MSG_RESHAPE_NEWLEN_BAD \
	"Invalid restripe new length: not an unsigned decimal number of sectors"
#define BDS_MSG_RESHAPE_NEWLEN_ZERO \
	"Invalid restripe new length: must be greater than 0"
#define BDS_MSG_RESHAPE_GROUPS_BAD \
	"Invalid restripe old group sizes: expected unsigned decimal numbers separated by single commas"
#define BDS_MSG_RESHAPE_GROUPS_MANY \
	"Invalid restripe old group sizes: at most 32 groups are supported"
#define BDS_MSG_RESHAPE_GROUP_EMPTY \
	"Invalid restripe old group size: each group must have at least 1 member"
#define BDS_MSG_RESHAPE_GROUPS_MEMBERS \
	"Invalid restripe old group sizes: at most 128 members are supported"
#define BDS_MSG_RESHAPE_LAYOUT \
	"Invalid restripe old layout: accepted values are interleave and sequential"
#define BDS_MSG_RESHAPE_MEMBERS_BAD \
	"Invalid restripe old members: expected <index>:<offset>:<weight> entries separated by single commas"
#define BDS_MSG_RESHAPE_MEMBERS_COUNT \
	"Invalid restripe old members: the list must give exactly one entry per old member (the sum of the old group sizes)"
#define BDS_MSG_RESHAPE_MEMBER_INDEX \
	"Invalid restripe old member: its index is not a member of the table"
#define BDS_MSG_RESHAPE_MEMBER_TWICE \
	"Invalid restripe old members: a table member is listed more than once"
#define BDS_MSG_RESHAPE_MEMBER_OFFSET \
	"Invalid restripe old member: its offset does not fit 64 bits"
#define BDS_MSG_RESHAPE_MEMBER_WEIGHT \
	"Invalid restripe old member: its weight must be 1 to 255"
/* the old geometry, as the layout code refuses it */
#define BDS_MSG_RESHAPE_OLD_WIDTH \
	"Old stripe width too large: chunk x old members in bytes exceeds 32 bits"
#define BDS_MSG_RESHAPE_OLD_WEIGHT_SUM \
	"Old weights too large: their sum must be at most 1024"
#define BDS_MSG_RESHAPE_OLD_SEQUENTIAL \
	"Old weights need old layout interleave: sequential gives equal shares"
#define BDS_MSG_RESHAPE_OLD_CYCLE \
	"Old weighted cycle too large: chunk x sum of old weights in bytes exceeds 32 bits"
/* the lengths (bds_reshape_check_len()) */
#define BDS_MSG_RESHAPE_LEN_OLD_CYCLE \
	"Target length is not a multiple of the old cycle (chunk x sum of old weights)"
#define BDS_MSG_RESHAPE_NEWLEN_CYCLE \
	"Restripe new length is not a multiple of the cycle (chunk x sum of weights)"
#define BDS_MSG_RESHAPE_SHRINK \
	"Restripe new length is below the target length: a restripe never shrinks a volume"
#define BDS_MSG_RESHAPE_CKPT_PAST \
	"Invalid restripe checkpoint: beyond the stripe units of the target length"
/* the members' labels (the target's label check) */
#define BDS_MSG_RESHAPE_LABEL_HAS \
	"Member's label records a restripe: the table needs its 'reshape' argument"
#define BDS_MSG_RESHAPE_LABEL_NONE \
	"Member's label records no restripe, the table gives one"
#define BDS_MSG_RESHAPE_LABEL_OTHER \
	"Member's label records another restripe than the table (direction or old geometry)"
#define BDS_MSG_RESHAPE_LABEL_CKPT \
	"Restripe checkpoint is not one the members' labels record"
/* the pair of geometries (bds_reshape_of_table()) */
#define BDS_MSG_RESHAPE_CKPT_STATE \
	"Invalid restripe checkpoint: the new data behind it would lie on old data ahead of it"

/*
 * The values of "reshape" (bds_parse_reshape()): the restripe in
 * progress, from the old geometry to the new one the table describes.
 * Both share the table's chunk.  Old member i is old_member[i] of the
 * table, in the old table's order; old_group_size[] splits the old
 * members into groups, in that order.  About 1.8 KiB: the kernel
 * allocates it.
 */
struct bds_reshape_args {
	enum bds_reshape_dir dir;
	/*
	 * Stripe units already in the new geometry: forward [0, checkpoint),
	 * backward [checkpoint, U), U the target length's units.
	 */
	u64 checkpoint;
	u64 new_sectors;		/* the length once restriped */
	u32 old_nr_groups;
	u32 old_group_size[BDS_MAX_GROUPS];
	enum bds_order_mode old_mode;
	u32 old_nr_members;		/* the sum of old_group_size[] */
	u8 old_member[BDS_MAX_MEMBERS];	/* old member -> table member */
	u64 old_offset[BDS_MAX_MEMBERS];	/* old data offset, sectors */
	u32 old_weight[BDS_MAX_MEMBERS];	/* 1..255; 1 without weights */
};

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
	bool reshape_given;		/* "reshape <6 values>" */
	unsigned int reshape_at;	/* argv index of the word "reshape" */
	/*
	 * For the writer: the restripe's values, written when reshape_given
	 * is set too.  The parser never sets it (bds_parse_reshape() fills
	 * a struct of the caller's); the caller points it there.
	 */
	const struct bds_reshape_args *reshape;
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
 *
 * Of "reshape" this pass checks only its place: given once, followed by
 * at least 6 words, and with "volume <uuid>" among the optional
 * arguments; it sets reshape_given and reshape_at and leaves the 6
 * words to bds_parse_reshape().  A table with "reshape" is accepted only
 * when both passes accept it.
 */
const char *bds_parse_table(struct bds_args *a, unsigned int argc,
			    char **argv);

/*
 * The second pass of a table that bds_parse_table() accepted into @a
 * with reshape_given: read the 6 values of "reshape" (at
 * argv[a->reshape_at + 1] on) into @r, and check them: each word's
 * syntax and range, the old members distinct members of the table (an
 * index below a->nr_members), as many as the old group sizes add up to,
 * and the old geometry (a->chunk, the old groups, layout and weights)
 * accepted by the layout code (bds_reshape_old_layout()).  The lengths
 * are the target's to check against its own (bds_reshape_check_len()).
 * Returns NULL, or the reason the table is refused.  Without
 * reshape_given, @r is zeroed and NULL returned.  No allocation; about
 * 1 KiB of stack (the old layout).
 */
const char *bds_parse_reshape(const struct bds_args *a, unsigned int argc,
			      char **argv, struct bds_reshape_args *r);

/*
 * The old geometry of @r by the layout code, for stripe unit @chunk:
 * bds_layout_init() of its groups and layout into @l, then
 * bds_weights_check() of its weights, *@nr_slots getting their sum W
 * (for bds_layout_weigh(), with slot arrays of the caller's).  Returns
 * NULL, or the reason: a chunk refused as such (the new geometry's
 * chunk too) or one of the BDS_MSG_RESHAPE_OLD_* reasons.
 */
const char *bds_reshape_old_layout(struct bds_layout *l, u64 chunk,
				   const struct bds_reshape_args *r,
				   u32 *nr_slots);

/*
 * The lengths of a restripe table: @len, the target's length (the old
 * volume's, until the restripe ends), a nonzero multiple of the old
 * cycle; r->new_sectors a multiple of the cycle of @l (the new layout,
 * weighed) and at least @len; the checkpoint at most @len's stripe
 * units.  Takes the place of bds_member_len()'s check for such a table.
 * Returns NULL, or the reason the table is refused.
 */
const char *bds_reshape_check_len(const struct bds_reshape_args *r,
				  const struct bds_layout *l, u64 len);

/*
 * The two geometries of a restripe table whose words (bds_parse_reshape())
 * and lengths (bds_reshape_check_len()) were accepted: @g_new from the
 * table's layout @l (weighed; its slot arrays stay the caller's), the
 * members' table offsets @offset and r->new_sectors; @g_old from the
 * old groups, layout, members, offsets and weights of @r (its slot
 * arrays in @s_old) and the target length @len.  Then the pair
 * (bds_reshape_check(): same chunk, offsets the right way for the
 * direction) and the checkpoint (bds_reshape_pos_ok(): a state the copy
 * can leave).  Returns NULL, or the reason the table is refused.  No
 * allocation; about 1 KiB of stack.
 */
const char *bds_reshape_of_table(const struct bds_reshape_args *r,
				 const struct bds_layout *l, const u64 *offset,
				 u64 len, struct bds_geom *g_new,
				 struct bds_geom *g_old,
				 struct bds_geom_slots *s_old);

/*
 * The target's messages ("dmsetup message NAME 0 <words>"), by which the
 * copier of a restripe moves it on (Documentation/bds-stripe.rst,
 * Messages):
 *   reshape hold <unit>        writes to the units between the checkpoint
 *                              and <unit> wait (the held band)
 *   reshape checkpoint <unit>  the units behind <unit> are in the new
 *                              geometry; held writes to them go there
 *   reshape status             prints "checkpoint C hold H held N"
 */
enum bds_msg_verb {
	BDS_MSG_HOLD,
	BDS_MSG_CHECKPOINT,
	BDS_MSG_STATUS,
};

struct bds_message {
	enum bds_msg_verb verb;
	u64 unit;			/* hold and checkpoint */
};

#define BDS_MSG_MESSAGE_UNKNOWN \
	"Unknown message: accepted are 'reshape hold <unit>', 'reshape checkpoint <unit>' and 'reshape status'"
#define BDS_MSG_MESSAGE_UNIT \
	"Message's stripe unit is not a decimal number"
/* the target's refusals of a message it parsed */
#define BDS_MSG_MESSAGE_NO_RESHAPE \
	"Message refused: the table has no restripe"
#define BDS_MSG_MESSAGE_SUSPENDED \
	"Message refused: the device is suspended, resume it and hold again"
#define BDS_MSG_MESSAGE_FRONTIER \
	"Hold refused: past the frontier, the copy would write over data not yet copied"
#define BDS_MSG_MESSAGE_UNHELD \
	"Checkpoint refused: the units up to it are not held (hold, copy, then checkpoint)"

/*
 * Read a message's words (dm gives the target those after the sector)
 * into @m.  Returns NULL, or the reason it is refused.
 */
const char *bds_parse_message(unsigned int argc, char **argv,
			      struct bds_message *m);

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
 * weights when one is not 1, the restripe when reshape_given and
 * reshape are set), in that order.  "reshape" is written with every one
 * of its words, its checkpoint as *a->reshape holds it now, numbers in
 * plain decimal and the words lower case.  Writes at most @size bytes,
 * NUL included, and returns the length of the whole text, as snprintf
 * does.  The kernel's table status is this text.
 */
size_t bds_table_write(char *buf, size_t size, const struct bds_args *a,
		       const struct bds_table_members *mb);

#endif /* LIBBDS_TABLE_H */
