/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bds-stripe on-disk member label, version 1.
 *
 * Shared by the kernel target, bdsadm, the unit tests and the fuzzers
 * (libbds): the only code that reads or writes a label.  Byte by byte in
 * Documentation/bds-stripe-label.rst; pinned by a golden vector in
 * tests/libbds/test-label.c.  On-disk formats are forever: a change of
 * meaning is a new version, never an edit of this one.
 *
 * Every member carries two copies of an 8 KiB label: the primary at byte
 * 4096 (sector 8) and the backup in the last 8 KiB of the member below a
 * 4 KiB boundary.  All fields are little-endian.  The crc32c (Castagnoli,
 * as iSCSI and btrfs use it) covers all 8192 bytes with the crc field
 * taken as zero.  A copy is valid only when everything checks out; of two
 * valid copies the one with the higher generation wins, the primary on a
 * tie.  A bad copy is "no label", never a partly read one.
 *
 * Members with logical blocks larger than 4 KiB cannot carry a label
 * (the copies would share blocks with other data): writers refuse them.
 * The backup is looked for where the primary says, or, when the primary
 * is not valid, at the end of the member as it is now and, if no valid
 * copy is there, at BDS_LABEL_FRONT_BACKUP (FRONT_BACKUP below).
 */
#ifndef LIBBDS_LABEL_H
#define LIBBDS_LABEL_H

#include "layout.h"

#define BDS_LABEL_MAGIC		"BDSTRIPE"	/* 8 bytes, no NUL */
#define BDS_LABEL_VERSION	1
/*
 * Incompatible features: a reader that does not know a bit set here
 * refuses the label as a whole.  Known bits:
 *   WEIGHTS  some member's weight is not 1: the volume uses a weighted
 *            layout (target 1.5.0); set exactly when a weight is not 1,
 *            so that older readers (which required weight 1) refuse such
 *            a volume for the feature, not for a bad weight.
 *   RESHAPE  the volume is being restriped (issue 34): the head's
 *            reserved1 bytes and the tail hold the geometry it is
 *            restriped from and the checkpoint of the copy (struct
 *            bds_label_reshape, struct bds_label_old); the rest of the
 *            label describes the geometry it is restriped to.  Set
 *            exactly when those bytes are not all zero.  Older readers
 *            refuse a volume mid-restripe instead of mapping it by one
 *            geometry.
 *   ADOPT    an adoption from md (bdsadm adopt) is under way: this copy
 *            is a backup written before the member's primary place,
 *            which still holds md's superblock, was overwritten.  Only
 *            ever in a backup copy.  The kernel refuses such a label;
 *            bdsadm assemble finishes the adoption once md can no
 *            longer assemble the array, and refuses before.  Older
 *            readers refuse it as an unknown feature, so no reader
 *            takes a member that md may still assemble.
 *   FRONT_BACKUP  this member's backup copy lies in front of its data, at
 *            sector BDS_LABEL_FRONT_BACKUP, and its data may run to the
 *            member's end (issue 35: md RAID0 members adopted with no
 *            room after md's data).  Set exactly when backup_sector is
 *            that sector.  Older readers, which put the end of the data
 *            at the backup copy, refuse it as an unknown feature.
 */
#define BDS_LABEL_INCOMPAT_WEIGHTS	0x00000001U
#define BDS_LABEL_INCOMPAT_RESHAPE	0x00000002U
#define BDS_LABEL_INCOMPAT_ADOPT	0x00000004U
#define BDS_LABEL_INCOMPAT_FRONT_BACKUP	0x00000008U
#define BDS_LABEL_INCOMPAT_KNOWN	(BDS_LABEL_INCOMPAT_WEIGHTS | \
					 BDS_LABEL_INCOMPAT_RESHAPE | \
					 BDS_LABEL_INCOMPAT_ADOPT | \
					 BDS_LABEL_INCOMPAT_FRONT_BACKUP)
/*
 * Compatible features: a reader that does not know a bit set here uses
 * the label as if the bit were clear, and a writer that does not know it
 * drops it, with the bytes it describes, when it rewrites the label.  So
 * a compatible feature may only carry what the volume can lose without
 * harm.  Known bits:
 *   OWNER    the owner field holds the system ID of the host that owns
 *            the volume (bdsadm 1.6.0); set exactly when it is not empty.
 *            Losing it makes the volume owned by every host, as a label
 *            without an owner is.
 *   WEIGHTS_MODE  the weights_mode field says how the volume's weights
 *            were chosen (tools 1.8.2), so that grow --add chooses the
 *            new set's the same way; set exactly when it is not 0.
 *            Losing it makes grow --add of a weighted volume ask for
 *            --weights, as for a label written before it.
 *   MEASURED the meas_* fields hold what bdsadm --measure read from this
 *            member's disk, alone and with its controller's other disks
 *            (issue 38), as information; set exactly when meas_disk
 *            is not 0.  Each member carries its own figures.  Losing
 *            them loses what examine shows of the measurement.
 */
#define BDS_LABEL_COMPAT_OWNER		0x00000001U
#define BDS_LABEL_COMPAT_WEIGHTS_MODE	0x00000002U
#define BDS_LABEL_COMPAT_MEASURED	0x00000004U
/* weights_mode: how the weights were chosen (create, grow). */
#define BDS_WEIGHTS_MODE_NONE		0	/* not recorded */
#define BDS_WEIGHTS_MODE_CAPACITY	1	/* --weights capacity */
#define BDS_WEIGHTS_MODE_BANDWIDTH	2	/* --weights bandwidth */
#define BDS_WEIGHTS_MODE_LIST		3	/* given as a list */
#define BDS_WEIGHTS_MODE_MAX		3
#define BDS_LABEL_SIZE		8192		/* bytes, each copy */
#define BDS_LABEL_SECTORS	(BDS_LABEL_SIZE >> 9)
#define BDS_LABEL_PRIMARY	8		/* sector of the primary copy */
/* The backup ends on this boundary (bytes) at or below the member's end. */
#define BDS_LABEL_BACKUP_ALIGN	4096
/*
 * FRONT_BACKUP: the backup copy's sector, the 8 KiB below 1 MiB, and the
 * lowest data offset such a member may have.
 */
#define BDS_LABEL_FRONT_BACKUP	2032
#define BDS_LABEL_FRONT_DATA	(BDS_LABEL_FRONT_BACKUP + BDS_LABEL_SECTORS)
#define BDS_LABEL_NAME_LEN	128		/* name bytes, NUL included */
#define BDS_LABEL_SERIAL_LEN	20
#define BDS_LABEL_CTRL_LEN	20
#define BDS_LABEL_OWNER_LEN	64		/* owner bytes, NUL included */
#define BDS_UUID_LEN		16
/* The default data offset: 1 MiB, before rounding (bds_label_data_offset). */
#define BDS_DATA_OFFSET_DEFAULT	2048

/* Fixed part: bytes 0..511. */
struct bds_label_head {
	char magic[8];			/*   0 "BDSTRIPE" */
	__le32 version;			/*   8 1 */
	__le32 label_size;		/*  12 8192 */
	__le32 crc;			/*  16 crc32c of the label, this as 0 */
	__le32 incompat;		/*  20 features a reader must know */
	__le64 generation;		/*  24 bumped on every membership change */
	__le64 ctime;			/*  32 creation, seconds since 1970 UTC */
	__le64 utime;			/*  40 this generation, seconds */
	u8 volume_uuid[BDS_UUID_LEN];	/*  48 */
	u8 member_uuid[BDS_UUID_LEN];	/*  64 this member */
	__le32 member_index;		/*  80 this member, in table order */
	__le32 nr_members;		/*  84 1..128 */
	__le32 nr_groups;		/*  88 1..32 */
	__le32 layout;			/*  92 0 interleave, 1 sequential */
	__le64 chunk_sectors;		/*  96 stripe unit */
	__le64 data_offset;		/* 104 this member's data, sectors */
	__le64 data_sectors;		/* 112 this member's, whole cycles' worth */
	__le64 label_sector;		/* 120 where this copy lies */
	__le64 backup_sector;		/* 128 where this member's backup lies */
	__le64 member_sectors;		/* 136 the member's size at creation */
	__le32 compat;			/* 144 features a reader may ignore */
	u8 reserved0[4];		/* 148 zero */
	char owner[BDS_LABEL_OWNER_LEN];	/* 152 system ID, NUL-padded */
	__le32 weights_mode;		/* 216 WEIGHTS_MODE: 1..3 */
	__le32 meas_disk;		/* 220 MEASURED: this disk alone, kB/s */
	__le32 meas_ctrl;		/* 224 MEASURED: its controller, kB/s */
	u8 reserved3[4];		/* 228 zero */
	__le64 meas_time;		/* 232 MEASURED: when, seconds */
	u8 reserved2[16];		/* 240 zero */
	char name[BDS_LABEL_NAME_LEN];	/* 256 NUL-terminated, NUL-padded */
	u8 reserved1[128];		/* 384 zero */
} __packed;

/* A controller group, as seen at creation: 24 bytes, 32 of them. */
struct bds_label_group {
	__le32 nr_members;		/*  0 0 for an unused entry */
	char controller[BDS_LABEL_CTRL_LEN];	/*  4 for messages only */
} __packed;

/* A member, in table order: 48 bytes, 128 of them. */
struct bds_label_member {
	u8 uuid[BDS_UUID_LEN];		/*  0 */
	__le64 data_offset;		/* 16 sectors */
	__le32 weight;			/* 24 1..255, stripe units per cycle */
	char serial[BDS_LABEL_SERIAL_LEN];	/* 28 for messages only */
} __packed;

struct bds_label_disk {
	struct bds_label_head head;			/*    0 */
	struct bds_label_group groups[BDS_MAX_GROUPS];	/*  512 */
	struct bds_label_member members[BDS_MAX_MEMBERS]; /* 1280 */
	u8 reserved[768];				/* 7424 zero */
} __packed;

static_assert(sizeof(struct bds_label_head) == 512, "label head");
static_assert(sizeof(struct bds_label_group) == 24, "label group");
static_assert(sizeof(struct bds_label_member) == 48, "label member");
static_assert(sizeof(struct bds_label_disk) == BDS_LABEL_SIZE, "label");
static_assert(offsetof(struct bds_label_head, owner) == 152, "owner");
static_assert(offsetof(struct bds_label_head, weights_mode) == 216,
	      "weights_mode");
static_assert(offsetof(struct bds_label_head, meas_disk) == 220,
	      "meas_disk");
static_assert(offsetof(struct bds_label_head, meas_time) == 232,
	      "meas_time");
static_assert(offsetof(struct bds_label_head, reserved2) == 240,
	      "reserved2");
static_assert(offsetof(struct bds_label_head, name) == 256, "name");
static_assert(offsetof(struct bds_label_disk, members) == 1280, "members");

/*
 * RESHAPE: the head's reserved1 (bytes 384..511) when incompat RESHAPE
 * is set: the restripe's scalars and the old geometry's groups.  All
 * zero when it is clear.
 */
struct bds_label_reshape {
	__le64 pos;			/* 384 checkpoint, stripe units */
	__le32 dir;			/* 392 0 forward, 1 backward */
	__le32 old_nr_members;		/* 396 1..nr_members */
	__le32 old_nr_groups;		/* 400 1..32 */
	__le32 old_layout;		/* 404 0 interleave, 1 sequential */
	__le64 old_member_len;		/* 408 old data of a member of weight 1 */
	u8 old_group_size[BDS_MAX_GROUPS];	/* 416 old members per group */
	u8 reserved[64];		/* 448 zero */
} __packed;

/*
 * RESHAPE: the label's reserved tail (bytes 7424..8191) when incompat
 * RESHAPE is set: the old geometry's members, in its table order.  All
 * zero when it is clear, and in entries at or above old_nr_members.
 */
struct bds_label_old {
	u8 member[BDS_MAX_MEMBERS];	/* 7424 its index in the member table */
	u8 weight[BDS_MAX_MEMBERS];	/* 7552 its old weight, 1..255 */
	__le32 offset[BDS_MAX_MEMBERS];	/* 7680 its old data offset, sectors */
} __packed;

static_assert(sizeof(struct bds_label_reshape) == 128, "reshape head");
static_assert(sizeof(struct bds_label_old) == 768, "reshape tail");
static_assert(offsetof(struct bds_label_head, reserved1) == 384, "reserved1");
static_assert(offsetof(struct bds_label_disk, reserved) == 7424, "tail");

/* A decoded label, in host order. */
struct bds_label {
	u32 incompat;
	u32 compat;			/* the known bits only */
	u64 generation;
	u64 ctime;
	u64 utime;
	u8 volume_uuid[BDS_UUID_LEN];
	u8 member_uuid[BDS_UUID_LEN];
	u32 member_index;
	u32 nr_members;
	u32 nr_groups;
	u32 layout;
	u64 chunk_sectors;
	u64 data_offset;
	u64 data_sectors;
	u64 label_sector;
	u64 backup_sector;
	u64 member_sectors;
	char name[BDS_LABEL_NAME_LEN];
	char owner[BDS_LABEL_OWNER_LEN];	/* "" when none */
	u32 weights_mode;		/* BDS_WEIGHTS_MODE_*; 0 when none */
	/*
	 * MEASURED: this member's disk alone and its controller's limit
	 * (0: none showed), kB/s (10^3 bytes); when, seconds since 1970
	 * UTC.  All 0 when not measured.  A member's own, not the volume's.
	 */
	u32 meas_disk;
	u32 meas_ctrl;
	u64 meas_time;
	u32 group_size[BDS_MAX_GROUPS];
	char controller[BDS_MAX_GROUPS][BDS_LABEL_CTRL_LEN + 1];
	u8 uuid[BDS_MAX_MEMBERS][BDS_UUID_LEN];
	u64 member_offset[BDS_MAX_MEMBERS];
	u32 weight[BDS_MAX_MEMBERS];
	char serial[BDS_MAX_MEMBERS][BDS_LABEL_SERIAL_LEN + 1];
	/*
	 * RESHAPE (incompat bit 1): the geometry the volume is restriped
	 * from, and the checkpoint.  All zero without a restripe; the
	 * encoder writes the section exactly when old_nr_members is not 0.
	 */
	u64 reshape_pos;		/* checkpoint, stripe units */
	u32 reshape_dir;		/* enum bds_reshape_dir: 0 fwd, 1 back */
	u32 old_nr_members;
	u32 old_nr_groups;
	u32 old_layout;
	u64 old_member_len;		/* sectors of an old member of weight 1 */
	u32 old_group_size[BDS_MAX_GROUPS];
	u8 old_member[BDS_MAX_MEMBERS];	/* old member i: its table index */
	u32 old_weight[BDS_MAX_MEMBERS];
	u64 old_offset[BDS_MAX_MEMBERS];
};

/* Why a copy is not a valid label; see bds_label_error(). */
enum bds_label_err {
	BDS_LABEL_OK = 0,
	BDS_LABEL_ERR_SHORT,
	BDS_LABEL_ERR_MAGIC,
	BDS_LABEL_ERR_VERSION,
	BDS_LABEL_ERR_SIZE,
	BDS_LABEL_ERR_CRC,
	BDS_LABEL_ERR_INCOMPAT,
	BDS_LABEL_ERR_GEOMETRY,
	BDS_LABEL_ERR_INDEX,
	BDS_LABEL_ERR_GROUPS,
	BDS_LABEL_ERR_MEMBERS,
	BDS_LABEL_ERR_UUID,
	BDS_LABEL_ERR_NAME,
	BDS_LABEL_ERR_PLACE,
	BDS_LABEL_ERR_WEIGHT,
	BDS_LABEL_ERR_TEXT,
	BDS_LABEL_ERR_OWNER,
	/* RESHAPE; appended, the values above stay */
	BDS_LABEL_ERR_RESHAPE,
	BDS_LABEL_ERR_RESHAPE_GEOMETRY,
	BDS_LABEL_ERR_RESHAPE_MEMBERS,
	BDS_LABEL_ERR_RESHAPE_POSITION,
	BDS_LABEL_ERR_RESHAPE_PLACE,
	/* WEIGHTS_MODE; appended */
	BDS_LABEL_ERR_WEIGHTS_MODE,
	/* MEASURED; appended */
	BDS_LABEL_ERR_MEASURED,
};

const char *bds_label_error(enum bds_label_err err);

/* The label's crc: crc32c of the 8192 bytes with the crc field as zero. */
u32 bds_label_crc(const u8 *buf);

/*
 * Sector of the backup copy on a member of @member_sectors sectors (at
 * least BDS_LABEL_MIN_MEMBER: readers check the size first).
 */
u64 bds_label_backup_sector(u64 member_sectors);

/*
 * Where @l's data area must end: at its backup copy, or at the member's
 * end (member_sectors) when the backup lies in front (FRONT_BACKUP).
 */
u64 bds_label_data_end(const struct bds_label *l);

/*
 * The lowest data offset @l's member may take in a restripe: 0 (after
 * the primary, as for any member), or BDS_LABEL_FRONT_DATA when its
 * backup lies in front of its data.
 */
u64 bds_label_data_least(const struct bds_label *l);

/*
 * Put @l's backup copy at @backup_sector, with FRONT_BACKUP exactly when
 * that is in front of the data (BDS_LABEL_FRONT_BACKUP, and the data
 * starting at BDS_LABEL_FRONT_DATA or later: a member of 2048 to 2055
 * sectors has its end backup at the same sector, before its data).
 * Set data_offset first.
 */
void bds_label_set_backup(struct bds_label *l, u64 backup_sector);

/*
 * The backup copy's sector for a member of @member_sectors sectors whose
 * data starts at @data_offset and ends at @data_end: at the member's end
 * when the data ends at or before that place, else in front of the data
 * (BDS_LABEL_FRONT_BACKUP) when it starts at or after BDS_LABEL_FRONT_DATA
 * and ends at or before the member's end; 0 when neither fits.
 */
u64 bds_label_backup_place(u64 member_sectors, u64 data_offset,
			   u64 data_end);

/*
 * The default data offset: the first multiple of the stripe unit @chunk
 * at or above 1 MiB that is also a multiple of the physical block size
 * (@pbs_sectors, a power of two).  The stripe unit is a multiple of 4 KiB,
 * so for the usual physical blocks (512 bytes to 4 KiB) the first
 * multiple of the unit is the answer.
 */
u64 bds_label_data_offset(u32 chunk, u32 pbs_sectors);

bool bds_uuid_is_zero(const u8 *u);

bool bds_bytes_zero(const void *p, size_t len);

/*
 * A fixed-size text field: printable ASCII (0x20..0x7e), then NUL padding
 * to the end (@need_text: at least one character, and room for the NUL).
 * Writers replace anything else by '?', so that messages never print
 * control characters read from a disk.
 */
bool bds_text_ok(const char *s, size_t len, bool need_text);

/* Volume names: 1..127 of [A-Za-z0-9._+-], not starting with '.' or '-'. */
bool bds_name_ok(const char *s, size_t len);

/* The smallest member that can hold both copies and some data. */
#define BDS_LABEL_MIN_MEMBER	(BDS_LABEL_PRIMARY + 2 * BDS_LABEL_SECTORS + \
				 (BDS_LABEL_BACKUP_ALIGN >> 9))

/*
 * Decode and check one copy of @len bytes (at least BDS_LABEL_SIZE).
 * Returns BDS_LABEL_OK with *l filled in, or why the copy is not a label;
 * then *l is all zero: nothing of a bad copy is ever used.
 */
enum bds_label_err bds_label_decode(const u8 *buf, size_t len,
				    struct bds_label *l);

/*
 * Encode @l into @buf (BDS_LABEL_SIZE bytes) as the copy at sector
 * @l->label_sector, crc included.  Controller and serial texts longer
 * than their fields are cut, and bytes other than printable ASCII become
 * '?'; the name, and the owner when there is one, must be valid already
 * (callers check them with bds_name_ok()).  The caller is
 * expected to have built @l so that bds_label_decode() accepts the result.
 */
void bds_label_encode(const struct bds_label *l, u8 *buf);

/*
 * Decode the copy read from sector @sector of a member: as
 * bds_label_decode(), and the copy must say that it lies there.  A copy
 * that claims another place (a stale copy from before a resize, or a
 * block written to the wrong sector) is no label.
 */
enum bds_label_err bds_label_read(const u8 *buf, size_t len, u64 sector,
				  struct bds_label *l);

/* bds_label_pick(): both copies valid, of different volumes or members. */
#define BDS_LABEL_PICK_CONFLICT	(-2)

/* The group (controller) of member @i, in table order, of label @l. */
u32 bds_label_group_of(const struct bds_label *l, u32 i);

/*
 * Of the two copies of one member (each read with bds_label_read(),
 * @pe/@be their results), which one counts: 0 the primary, 1 the backup,
 * -1 neither is valid.  The higher generation wins, the primary on a tie.
 * Two valid copies that name different volumes or members are not two
 * generations of one label: BDS_LABEL_PICK_CONFLICT, and the caller
 * refuses the device rather than guess.
 *
 * Writers update a member's copies one after the other, never both at
 * once: the primary, a flush, then the backup and a flush, so that a
 * torn write leaves at least one valid copy.
 */
int bds_label_pick(enum bds_label_err pe, const struct bds_label *p,
		   enum bds_label_err be, const struct bds_label *b);

/*
 * The weights of a label's volume (Documentation/bds-stripe.rst,
 * Weights): member m holds weight[m] stripe units of every cycle of W
 * (their sum), and a label's data_sectors is its own member's share,
 * weight x the data of a member of weight 1.  Without weights W is N
 * and every member's data is the same.
 */
u32 bds_label_slots(const struct bds_label *l);
bool bds_label_weighted(const struct bds_label *l);
/* Sectors of a member of weight 1 (the decoder checked the division). */
u64 bds_label_unit(const struct bds_label *l);
/* Member @m's data sectors, as the volume of label @l gives them. */
u64 bds_label_member_data(const struct bds_label *l, u32 m);

#endif /* LIBBDS_LABEL_H */
