/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bds-stripe on-disk member label, version 1.
 *
 * Pure C shared by the kernel target, bdsadm, the unit tests and the
 * fuzzers: the only code that reads or writes a label.  Byte by byte in
 * Documentation/bds-stripe-label.rst; pinned by a golden vector in
 * tests/unit/test-label.c.  On-disk formats are forever: a change of
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
 * is not valid, at the end of the member as it is now.
 */
#ifndef DM_BDS_LABEL_H
#define DM_BDS_LABEL_H

#include "dm-bds-stripe.h"

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <asm/byteorder.h>
#else
#include <stddef.h>
#include <string.h>
#include "tools/kcompat.h"
#endif

#define BDS_LABEL_MAGIC		"BDSTRIPE"	/* 8 bytes, no NUL */
#define BDS_LABEL_VERSION	1
/*
 * Incompatible features: a reader that does not know a bit set here
 * refuses the label as a whole.  Known bits:
 *   WEIGHTS  some member's weight is not 1: the volume uses a weighted
 *            layout (target 1.5.0); set exactly when a weight is not 1,
 *            so that older readers (which required weight 1) refuse such
 *            a volume for the feature, not for a bad weight.
 */
#define BDS_LABEL_INCOMPAT_WEIGHTS	0x00000001U
#define BDS_LABEL_INCOMPAT_KNOWN	BDS_LABEL_INCOMPAT_WEIGHTS
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
 */
#define BDS_LABEL_COMPAT_OWNER		0x00000001U
#define BDS_LABEL_SIZE		8192		/* bytes, each copy */
#define BDS_LABEL_SECTORS	(BDS_LABEL_SIZE >> 9)
#define BDS_LABEL_PRIMARY	8		/* sector of the primary copy */
/* The backup ends on this boundary (bytes) at or below the member's end. */
#define BDS_LABEL_BACKUP_ALIGN	4096
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
	u8 reserved2[40];		/* 216 zero */
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
static_assert(offsetof(struct bds_label_head, name) == 256, "name");
static_assert(offsetof(struct bds_label_disk, members) == 1280, "members");

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
	u32 group_size[BDS_MAX_GROUPS];
	char controller[BDS_MAX_GROUPS][BDS_LABEL_CTRL_LEN + 1];
	u8 uuid[BDS_MAX_MEMBERS][BDS_UUID_LEN];
	u64 member_offset[BDS_MAX_MEMBERS];
	u32 weight[BDS_MAX_MEMBERS];
	char serial[BDS_MAX_MEMBERS][BDS_LABEL_SERIAL_LEN + 1];
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
};

static inline const char *bds_label_error(enum bds_label_err err)
{
	switch (err) {
	case BDS_LABEL_OK:
		return "valid label";
	case BDS_LABEL_ERR_SHORT:
		return "shorter than a label";
	case BDS_LABEL_ERR_MAGIC:
		return "no bds-stripe label (magic)";
	case BDS_LABEL_ERR_VERSION:
		return "label version not supported";
	case BDS_LABEL_ERR_SIZE:
		return "label size not supported";
	case BDS_LABEL_ERR_CRC:
		return "label checksum mismatch";
	case BDS_LABEL_ERR_INCOMPAT:
		return "label uses features this version does not know";
	case BDS_LABEL_ERR_GEOMETRY:
		return "label geometry invalid";
	case BDS_LABEL_ERR_INDEX:
		return "label member index out of range";
	case BDS_LABEL_ERR_GROUPS:
		return "label group table inconsistent";
	case BDS_LABEL_ERR_MEMBERS:
		return "label member table inconsistent";
	case BDS_LABEL_ERR_UUID:
		return "label UUIDs invalid (zero, repeated or not this member's)";
	case BDS_LABEL_ERR_NAME:
		return "label volume name invalid";
	case BDS_LABEL_ERR_PLACE:
		return "label data area or copy position invalid";
	case BDS_LABEL_ERR_WEIGHT:
		return "label member weight invalid";
	case BDS_LABEL_ERR_TEXT:
		return "label controller or serial text not printable or not NUL-padded";
	case BDS_LABEL_ERR_OWNER:
		return "label owner (system ID) invalid, or not as its compat bit says";
	}
	return "unknown label error";
}

/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), initial value
 * and final xor all ones: "123456789" gives 0xe3069283.  bds_crc32c_raw()
 * runs without the initial and final inversion, so that a label's crc
 * can be taken in pieces.  A byte table of its own, in the kernel too
 * (see the compat notes of dm-bds-stripe.c); tests/unit checks it
 * against the bitwise definition.
 */
static const u32 bds_crc32c_table[256] = {
	0x00000000, 0xf26b8303, 0xe13b70f7, 0x1350f3f4,
	0xc79a971f, 0x35f1141c, 0x26a1e7e8, 0xd4ca64eb,
	0x8ad958cf, 0x78b2dbcc, 0x6be22838, 0x9989ab3b,
	0x4d43cfd0, 0xbf284cd3, 0xac78bf27, 0x5e133c24,
	0x105ec76f, 0xe235446c, 0xf165b798, 0x030e349b,
	0xd7c45070, 0x25afd373, 0x36ff2087, 0xc494a384,
	0x9a879fa0, 0x68ec1ca3, 0x7bbcef57, 0x89d76c54,
	0x5d1d08bf, 0xaf768bbc, 0xbc267848, 0x4e4dfb4b,
	0x20bd8ede, 0xd2d60ddd, 0xc186fe29, 0x33ed7d2a,
	0xe72719c1, 0x154c9ac2, 0x061c6936, 0xf477ea35,
	0xaa64d611, 0x580f5512, 0x4b5fa6e6, 0xb93425e5,
	0x6dfe410e, 0x9f95c20d, 0x8cc531f9, 0x7eaeb2fa,
	0x30e349b1, 0xc288cab2, 0xd1d83946, 0x23b3ba45,
	0xf779deae, 0x05125dad, 0x1642ae59, 0xe4292d5a,
	0xba3a117e, 0x4851927d, 0x5b016189, 0xa96ae28a,
	0x7da08661, 0x8fcb0562, 0x9c9bf696, 0x6ef07595,
	0x417b1dbc, 0xb3109ebf, 0xa0406d4b, 0x522bee48,
	0x86e18aa3, 0x748a09a0, 0x67dafa54, 0x95b17957,
	0xcba24573, 0x39c9c670, 0x2a993584, 0xd8f2b687,
	0x0c38d26c, 0xfe53516f, 0xed03a29b, 0x1f682198,
	0x5125dad3, 0xa34e59d0, 0xb01eaa24, 0x42752927,
	0x96bf4dcc, 0x64d4cecf, 0x77843d3b, 0x85efbe38,
	0xdbfc821c, 0x2997011f, 0x3ac7f2eb, 0xc8ac71e8,
	0x1c661503, 0xee0d9600, 0xfd5d65f4, 0x0f36e6f7,
	0x61c69362, 0x93ad1061, 0x80fde395, 0x72966096,
	0xa65c047d, 0x5437877e, 0x4767748a, 0xb50cf789,
	0xeb1fcbad, 0x197448ae, 0x0a24bb5a, 0xf84f3859,
	0x2c855cb2, 0xdeeedfb1, 0xcdbe2c45, 0x3fd5af46,
	0x7198540d, 0x83f3d70e, 0x90a324fa, 0x62c8a7f9,
	0xb602c312, 0x44694011, 0x5739b3e5, 0xa55230e6,
	0xfb410cc2, 0x092a8fc1, 0x1a7a7c35, 0xe811ff36,
	0x3cdb9bdd, 0xceb018de, 0xdde0eb2a, 0x2f8b6829,
	0x82f63b78, 0x709db87b, 0x63cd4b8f, 0x91a6c88c,
	0x456cac67, 0xb7072f64, 0xa457dc90, 0x563c5f93,
	0x082f63b7, 0xfa44e0b4, 0xe9141340, 0x1b7f9043,
	0xcfb5f4a8, 0x3dde77ab, 0x2e8e845f, 0xdce5075c,
	0x92a8fc17, 0x60c37f14, 0x73938ce0, 0x81f80fe3,
	0x55326b08, 0xa759e80b, 0xb4091bff, 0x466298fc,
	0x1871a4d8, 0xea1a27db, 0xf94ad42f, 0x0b21572c,
	0xdfeb33c7, 0x2d80b0c4, 0x3ed04330, 0xccbbc033,
	0xa24bb5a6, 0x502036a5, 0x4370c551, 0xb11b4652,
	0x65d122b9, 0x97baa1ba, 0x84ea524e, 0x7681d14d,
	0x2892ed69, 0xdaf96e6a, 0xc9a99d9e, 0x3bc21e9d,
	0xef087a76, 0x1d63f975, 0x0e330a81, 0xfc588982,
	0xb21572c9, 0x407ef1ca, 0x532e023e, 0xa145813d,
	0x758fe5d6, 0x87e466d5, 0x94b49521, 0x66df1622,
	0x38cc2a06, 0xcaa7a905, 0xd9f75af1, 0x2b9cd9f2,
	0xff56bd19, 0x0d3d3e1a, 0x1e6dcdee, 0xec064eed,
	0xc38d26c4, 0x31e6a5c7, 0x22b65633, 0xd0ddd530,
	0x0417b1db, 0xf67c32d8, 0xe52cc12c, 0x1747422f,
	0x49547e0b, 0xbb3ffd08, 0xa86f0efc, 0x5a048dff,
	0x8ecee914, 0x7ca56a17, 0x6ff599e3, 0x9d9e1ae0,
	0xd3d3e1ab, 0x21b862a8, 0x32e8915c, 0xc083125f,
	0x144976b4, 0xe622f5b7, 0xf5720643, 0x07198540,
	0x590ab964, 0xab613a67, 0xb831c993, 0x4a5a4a90,
	0x9e902e7b, 0x6cfbad78, 0x7fab5e8c, 0x8dc0dd8f,
	0xe330a81a, 0x115b2b19, 0x020bd8ed, 0xf0605bee,
	0x24aa3f05, 0xd6c1bc06, 0xc5914ff2, 0x37faccf1,
	0x69e9f0d5, 0x9b8273d6, 0x88d28022, 0x7ab90321,
	0xae7367ca, 0x5c18e4c9, 0x4f48173d, 0xbd23943e,
	0xf36e6f75, 0x0105ec76, 0x12551f82, 0xe03e9c81,
	0x34f4f86a, 0xc69f7b69, 0xd5cf889d, 0x27a40b9e,
	0x79b737ba, 0x8bdcb4b9, 0x988c474d, 0x6ae7c44e,
	0xbe2da0a5, 0x4c4623a6, 0x5f16d052, 0xad7d5351,
};

static inline u32 bds_crc32c_raw(u32 crc, const void *data, size_t len)
{
	const u8 *p = data;

	while (len--)
		crc = (crc >> 8) ^ bds_crc32c_table[(crc ^ *p++) & 0xff];
	return crc;
}

static inline u32 bds_crc32c(const void *data, size_t len)
{
	return ~bds_crc32c_raw(~0U, data, len);
}

/* The label's crc: crc32c of the 8192 bytes with the crc field as zero. */
static inline u32 bds_label_crc(const u8 *buf)
{
	static const u8 zero[4];
	size_t off = offsetof(struct bds_label_head, crc);
	u32 crc;

	crc = bds_crc32c_raw(~0U, buf, off);
	crc = bds_crc32c_raw(crc, zero, sizeof(zero));
	crc = bds_crc32c_raw(crc, buf + off + 4, BDS_LABEL_SIZE - off - 4);
	return ~crc;
}

/*
 * Sector of the backup copy on a member of @member_sectors sectors (at
 * least BDS_LABEL_MIN_MEMBER: readers check the size first).
 */
static inline u64 bds_label_backup_sector(u64 member_sectors)
{
	u64 end = member_sectors & ~(u64)((BDS_LABEL_BACKUP_ALIGN >> 9) - 1);

	return end - BDS_LABEL_SECTORS;
}

/*
 * The default data offset: the first multiple of the stripe unit @chunk
 * at or above 1 MiB that is also a multiple of the physical block size
 * (@pbs_sectors, a power of two).  The stripe unit is a multiple of 4 KiB,
 * so for the usual physical blocks (512 bytes to 4 KiB) the first
 * multiple of the unit is the answer.
 */
static inline u64 bds_label_data_offset(u32 chunk, u32 pbs_sectors)
{
	u64 off = BDS_DATA_OFFSET_DEFAULT;
	u32 rem;

	bds_div(off, chunk, &rem);
	if (rem)
		off += chunk - rem;
	while (pbs_sectors > 1 && (off & (pbs_sectors - 1)))
		off += chunk;
	return off;
}

static inline bool bds_uuid_is_zero(const u8 *u)
{
	int i;

	for (i = 0; i < BDS_UUID_LEN; i++)
		if (u[i])
			return false;
	return true;
}

static inline bool bds_bytes_zero(const void *p, size_t len)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

/*
 * A fixed-size text field: printable ASCII (0x20..0x7e), then NUL padding
 * to the end (@need_text: at least one character, and room for the NUL).
 * Writers replace anything else by '?', so that messages never print
 * control characters read from a disk.
 */
static inline bool bds_text_ok(const char *s, size_t len, bool need_text)
{
	size_t n = 0;

	while (n < len && s[n]) {
		if (s[n] < 0x20 || s[n] > 0x7e)
			return false;
		n++;
	}
	if (need_text && (n == 0 || n == len))
		return false;
	return bds_bytes_zero(s + n, len - n);
}

/* Volume names: 1..127 of [A-Za-z0-9._+-], not starting with '.' or '-'. */
static inline bool bds_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!bds_text_ok(s, len, true) || s[0] == '.' || s[0] == '-')
		return false;
	for (i = 0; i < len && s[i]; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '+' || c == '-'))
			return false;
	}
	return true;
}

static inline void bds_copy_text(char *dst, const char *src, size_t len)
{
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* The checks of one copy that need no decoding. */
static inline enum bds_label_err bds_label_check_raw(const u8 *buf,
						     size_t len)
{
	const struct bds_label_disk *d = (const void *)buf;

	if (len < BDS_LABEL_SIZE)
		return BDS_LABEL_ERR_SHORT;
	if (memcmp(d->head.magic, BDS_LABEL_MAGIC, 8))
		return BDS_LABEL_ERR_MAGIC;
	if (le32_to_cpu(d->head.version) != BDS_LABEL_VERSION)
		return BDS_LABEL_ERR_VERSION;
	if (le32_to_cpu(d->head.label_size) != BDS_LABEL_SIZE)
		return BDS_LABEL_ERR_SIZE;
	if (le32_to_cpu(d->head.crc) != bds_label_crc(buf))
		return BDS_LABEL_ERR_CRC;
	if (le32_to_cpu(d->head.incompat) & ~BDS_LABEL_INCOMPAT_KNOWN)
		return BDS_LABEL_ERR_INCOMPAT;
	return BDS_LABEL_OK;
}

/* The group and member tables of a copy whose head is decoded in @l. */
static inline enum bds_label_err
bds_label_decode_tables(const struct bds_label_disk *d, struct bds_label *l)
{
	u32 g, i, j, sum = 0;
	bool weighted = false;

	for (g = 0; g < BDS_MAX_GROUPS; g++) {
		const struct bds_label_group *e = &d->groups[g];
		bool used = g < l->nr_groups;

		l->group_size[g] = le32_to_cpu(e->nr_members);
		if (used != !!l->group_size[g])
			return BDS_LABEL_ERR_GROUPS;
		if (g >= l->nr_groups && !bds_bytes_zero(e, sizeof(*e)))
			return BDS_LABEL_ERR_GROUPS;
		if (!bds_text_ok(e->controller, BDS_LABEL_CTRL_LEN, false))
			return BDS_LABEL_ERR_TEXT;
		bds_copy_text(l->controller[g], e->controller, BDS_LABEL_CTRL_LEN);
		sum += l->group_size[g] > BDS_MAX_MEMBERS ?
		       BDS_MAX_MEMBERS + 1 : l->group_size[g];
		if (sum > BDS_MAX_MEMBERS)
			return BDS_LABEL_ERR_GROUPS;
	}
	if (sum != l->nr_members)
		return BDS_LABEL_ERR_GROUPS;

	for (i = 0; i < BDS_MAX_MEMBERS; i++) {
		const struct bds_label_member *e = &d->members[i];

		if (i >= l->nr_members) {
			if (!bds_bytes_zero(e, sizeof(*e)))
				return BDS_LABEL_ERR_MEMBERS;
			continue;
		}
		memcpy(l->uuid[i], e->uuid, BDS_UUID_LEN);
		l->member_offset[i] = le64_to_cpu(e->data_offset);
		l->weight[i] = le32_to_cpu(e->weight);
		if (!bds_text_ok(e->serial, BDS_LABEL_SERIAL_LEN, false))
			return BDS_LABEL_ERR_TEXT;
		bds_copy_text(l->serial[i], e->serial, BDS_LABEL_SERIAL_LEN);
		if (bds_uuid_is_zero(e->uuid))
			return BDS_LABEL_ERR_UUID;
		for (j = 0; j < i; j++)
			if (!memcmp(l->uuid[j], e->uuid, BDS_UUID_LEN))
				return BDS_LABEL_ERR_UUID;
		if (!l->weight[i] || l->weight[i] > BDS_MAX_WEIGHT)
			return BDS_LABEL_ERR_WEIGHT;
		if (l->weight[i] != 1)
			weighted = true;
	}
	/* The WEIGHTS bit is set exactly when some weight is not 1. */
	if (weighted != !!(l->incompat & BDS_LABEL_INCOMPAT_WEIGHTS))
		return BDS_LABEL_ERR_WEIGHT;
	return BDS_LABEL_OK;
}

/*
 * The compatible features this version knows: OWNER is set exactly when
 * the owner field holds a system ID (the characters of a volume name),
 * and the field is all zero when it is clear.  Unknown compatible bits
 * are ignored: l->compat keeps the known ones only.
 */
static inline enum bds_label_err
bds_label_decode_owner(const struct bds_label_head *h, struct bds_label *l)
{
	bool owned = le32_to_cpu(h->compat) & BDS_LABEL_COMPAT_OWNER;

	l->compat = owned ? BDS_LABEL_COMPAT_OWNER : 0;
	if (owned ? !bds_name_ok(h->owner, BDS_LABEL_OWNER_LEN) :
		    !bds_bytes_zero(h->owner, BDS_LABEL_OWNER_LEN))
		return BDS_LABEL_ERR_OWNER;
	memcpy(l->owner, h->owner, BDS_LABEL_OWNER_LEN);
	return BDS_LABEL_OK;
}

/* The smallest member that can hold both copies and some data. */
#define BDS_LABEL_MIN_MEMBER	(BDS_LABEL_PRIMARY + 2 * BDS_LABEL_SECTORS + \
				 (BDS_LABEL_BACKUP_ALIGN >> 9))

/*
 * Where the copies and the data lie must make sense for this member:
 * primary copy, data, backup copy, in that order, without overlap (all
 * compared without overflow).
 */
static inline enum bds_label_err bds_label_check_place(const struct bds_label *l)
{
	u32 rem;

	if (l->member_sectors < BDS_LABEL_MIN_MEMBER ||
	    l->backup_sector != bds_label_backup_sector(l->member_sectors))
		return BDS_LABEL_ERR_PLACE;
	if (l->data_offset < BDS_LABEL_PRIMARY + BDS_LABEL_SECTORS ||
	    l->member_offset[l->member_index] != l->data_offset)
		return BDS_LABEL_ERR_PLACE;
	if (!l->data_sectors || l->data_offset > l->backup_sector ||
	    l->data_sectors > l->backup_sector - l->data_offset)
		return BDS_LABEL_ERR_PLACE;
	/* Whole cycles: w_m stripe units each (chunk x 255 fits 32 bits). */
	bds_div(l->data_sectors,
		(u32)l->chunk_sectors * l->weight[l->member_index], &rem);
	if (rem)
		return BDS_LABEL_ERR_PLACE;
	if (l->label_sector != BDS_LABEL_PRIMARY &&
	    l->label_sector != l->backup_sector)
		return BDS_LABEL_ERR_PLACE;
	return BDS_LABEL_OK;
}

/* The decoding proper; bds_label_decode() clears *l when it fails. */
static inline enum bds_label_err bds_label_decode_copy(const u8 *buf,
						       size_t len,
						       struct bds_label *l)
{
	const struct bds_label_disk *d = (const void *)buf;
	const struct bds_label_head *h = &d->head;
	struct bds_layout layout;
	enum bds_label_err err;
	u32 nr_slots;

	memset(l, 0, sizeof(*l));
	err = bds_label_check_raw(buf, len);
	if (err)
		return err;
	l->incompat = le32_to_cpu(h->incompat);
	l->generation = le64_to_cpu(h->generation);
	l->ctime = le64_to_cpu(h->ctime);
	l->utime = le64_to_cpu(h->utime);
	memcpy(l->volume_uuid, h->volume_uuid, BDS_UUID_LEN);
	memcpy(l->member_uuid, h->member_uuid, BDS_UUID_LEN);
	l->member_index = le32_to_cpu(h->member_index);
	l->nr_members = le32_to_cpu(h->nr_members);
	l->nr_groups = le32_to_cpu(h->nr_groups);
	l->layout = le32_to_cpu(h->layout);
	l->chunk_sectors = le64_to_cpu(h->chunk_sectors);
	l->data_offset = le64_to_cpu(h->data_offset);
	l->data_sectors = le64_to_cpu(h->data_sectors);
	l->label_sector = le64_to_cpu(h->label_sector);
	l->backup_sector = le64_to_cpu(h->backup_sector);
	l->member_sectors = le64_to_cpu(h->member_sectors);

	if (!l->nr_groups || l->nr_groups > BDS_MAX_GROUPS)
		return BDS_LABEL_ERR_GROUPS;
	if (!l->nr_members || l->nr_members > BDS_MAX_MEMBERS)
		return BDS_LABEL_ERR_MEMBERS;
	if (l->member_index >= l->nr_members)
		return BDS_LABEL_ERR_INDEX;
	err = bds_label_decode_tables(d, l);
	if (err)
		return err;
	if (bds_layout_init(&layout, l->chunk_sectors, l->group_size,
			    l->nr_groups, (enum bds_order_mode)l->layout) ||
	    bds_weights_check(&layout, l->weight, &nr_slots))
		return BDS_LABEL_ERR_GEOMETRY;
	if (bds_uuid_is_zero(l->volume_uuid) ||
	    memcmp(l->uuid[l->member_index], l->member_uuid, BDS_UUID_LEN))
		return BDS_LABEL_ERR_UUID;
	if (!bds_name_ok(h->name, BDS_LABEL_NAME_LEN))
		return BDS_LABEL_ERR_NAME;
	memcpy(l->name, h->name, BDS_LABEL_NAME_LEN);
	err = bds_label_check_place(l);
	if (err)
		return err;
	return bds_label_decode_owner(h, l);
}

/*
 * Decode and check one copy of @len bytes (at least BDS_LABEL_SIZE).
 * Returns BDS_LABEL_OK with *l filled in, or why the copy is not a label;
 * then *l is all zero: nothing of a bad copy is ever used.
 */
static inline enum bds_label_err bds_label_decode(const u8 *buf, size_t len,
						  struct bds_label *l)
{
	enum bds_label_err err = bds_label_decode_copy(buf, len, l);

	if (err)
		memset(l, 0, sizeof(*l));
	return err;
}

/* Copy text into a field, '?' for anything but printable ASCII. */
static inline void bds_put_text(char *dst, const char *src, size_t len)
{
	size_t n = 0;

	while (n < len && src[n]) {
		dst[n] = (src[n] < 0x20 || src[n] > 0x7e) ? '?' : src[n];
		n++;
	}
}

/*
 * Encode @l into @buf (BDS_LABEL_SIZE bytes) as the copy at sector
 * @l->label_sector, crc included.  Controller and serial texts longer
 * than their fields are cut, and bytes other than printable ASCII become
 * '?'; the name, and the owner when there is one, must be valid already
 * (callers check them with bds_name_ok()).  The caller is
 * expected to have built @l so that bds_label_decode() accepts the result.
 */
static inline void bds_label_encode(const struct bds_label *l, u8 *buf)
{
	struct bds_label_disk *d = (void *)buf;
	struct bds_label_head *h = &d->head;
	u32 g, i, incompat = 0;

	memset(buf, 0, BDS_LABEL_SIZE);
	for (i = 0; i < l->nr_members && i < BDS_MAX_MEMBERS; i++)
		if (l->weight[i] != 1)
			incompat |= BDS_LABEL_INCOMPAT_WEIGHTS;
	h->incompat = cpu_to_le32(incompat);
	if (l->owner[0]) {
		h->compat = cpu_to_le32(BDS_LABEL_COMPAT_OWNER);
		bds_put_text(h->owner, l->owner, BDS_LABEL_OWNER_LEN - 1);
	}
	memcpy(h->magic, BDS_LABEL_MAGIC, 8);
	h->version = cpu_to_le32(BDS_LABEL_VERSION);
	h->label_size = cpu_to_le32(BDS_LABEL_SIZE);
	h->generation = cpu_to_le64(l->generation);
	h->ctime = cpu_to_le64(l->ctime);
	h->utime = cpu_to_le64(l->utime);
	memcpy(h->volume_uuid, l->volume_uuid, BDS_UUID_LEN);
	memcpy(h->member_uuid, l->member_uuid, BDS_UUID_LEN);
	h->member_index = cpu_to_le32(l->member_index);
	h->nr_members = cpu_to_le32(l->nr_members);
	h->nr_groups = cpu_to_le32(l->nr_groups);
	h->layout = cpu_to_le32(l->layout);
	h->chunk_sectors = cpu_to_le64(l->chunk_sectors);
	h->data_offset = cpu_to_le64(l->data_offset);
	h->data_sectors = cpu_to_le64(l->data_sectors);
	h->label_sector = cpu_to_le64(l->label_sector);
	h->backup_sector = cpu_to_le64(l->backup_sector);
	h->member_sectors = cpu_to_le64(l->member_sectors);
	bds_put_text(h->name, l->name, BDS_LABEL_NAME_LEN - 1);
	for (g = 0; g < l->nr_groups && g < BDS_MAX_GROUPS; g++) {
		d->groups[g].nr_members = cpu_to_le32(l->group_size[g]);
		bds_put_text(d->groups[g].controller, l->controller[g],
			     BDS_LABEL_CTRL_LEN);
	}
	for (i = 0; i < l->nr_members && i < BDS_MAX_MEMBERS; i++) {
		struct bds_label_member *e = &d->members[i];

		memcpy(e->uuid, l->uuid[i], BDS_UUID_LEN);
		e->data_offset = cpu_to_le64(l->member_offset[i]);
		e->weight = cpu_to_le32(l->weight[i]);
		bds_put_text(e->serial, l->serial[i], BDS_LABEL_SERIAL_LEN);
	}
	h->crc = cpu_to_le32(bds_label_crc(buf));
}

/*
 * Decode the copy read from sector @sector of a member: as
 * bds_label_decode(), and the copy must say that it lies there.  A copy
 * that claims another place (a stale copy from before a resize, or a
 * block written to the wrong sector) is no label.
 */
static inline enum bds_label_err bds_label_read(const u8 *buf, size_t len,
						u64 sector,
						struct bds_label *l)
{
	enum bds_label_err err = bds_label_decode(buf, len, l);

	if (!err && l->label_sector != sector) {
		memset(l, 0, sizeof(*l));
		err = BDS_LABEL_ERR_PLACE;
	}
	return err;
}

/* bds_label_pick(): both copies valid, of different volumes or members. */
#define BDS_LABEL_PICK_CONFLICT	(-2)

/* The group (controller) of member @i, in table order, of label @l. */
static inline u32 bds_label_group_of(const struct bds_label *l, u32 i)
{
	u32 g = 0, first = 0;

	while (g + 1 < l->nr_groups && first + l->group_size[g] <= i)
		first += l->group_size[g++];
	return g;
}

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
static inline int bds_label_pick(enum bds_label_err pe,
				 const struct bds_label *p,
				 enum bds_label_err be,
				 const struct bds_label *b)
{
	if (pe && be)
		return -1;
	if (pe)
		return 1;
	if (be)
		return 0;
	if (memcmp(p->volume_uuid, b->volume_uuid, BDS_UUID_LEN) ||
	    memcmp(p->member_uuid, b->member_uuid, BDS_UUID_LEN))
		return BDS_LABEL_PICK_CONFLICT;
	return b->generation > p->generation ? 1 : 0;
}

#endif /* DM_BDS_LABEL_H */
