// SPDX-License-Identifier: GPL-2.0
/*
 * The bds-stripe member label, version 1: its codec (see label.h and
 * Documentation/bds-stripe-label.rst).
 */
#include "crc32c.h"
#include "label.h"

const char *bds_label_error(enum bds_label_err err)
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
	case BDS_LABEL_ERR_WEIGHTS_MODE:
		return "label weights mode invalid, or not as its compat bit says";
	case BDS_LABEL_ERR_MEASURED:
		return "label measured figures invalid, or not as their compat bit says";
	case BDS_LABEL_ERR_RESHAPE:
		return "label restripe section not as its incompat bit says";
	case BDS_LABEL_ERR_RESHAPE_GEOMETRY:
		return "label restripe: old geometry invalid";
	case BDS_LABEL_ERR_RESHAPE_MEMBERS:
		return "label restripe: old member table invalid";
	case BDS_LABEL_ERR_RESHAPE_POSITION:
		return "label restripe: direction, old length or checkpoint invalid";
	case BDS_LABEL_ERR_RESHAPE_PLACE:
		return "label restripe: old data area invalid, or data moving the wrong way";
	}
	return "unknown label error";
}

u32 bds_label_crc(const u8 *buf)
{
	static const u8 zero[4];
	size_t off = offsetof(struct bds_label_head, crc);
	u32 crc;

	crc = bds_crc32c_raw(~0U, buf, off);
	crc = bds_crc32c_raw(crc, zero, sizeof(zero));
	crc = bds_crc32c_raw(crc, buf + off + 4, BDS_LABEL_SIZE - off - 4);
	return ~crc;
}

u64 bds_label_backup_sector(u64 member_sectors)
{
	u64 end = member_sectors & ~(u64)((BDS_LABEL_BACKUP_ALIGN >> 9) - 1);

	return end - BDS_LABEL_SECTORS;
}

u64 bds_label_data_end(const struct bds_label *l)
{
	return (l->incompat & BDS_LABEL_INCOMPAT_FRONT_BACKUP) ?
	       l->member_sectors : l->backup_sector;
}

u64 bds_label_data_least(const struct bds_label *l)
{
	return (l->incompat & BDS_LABEL_INCOMPAT_FRONT_BACKUP) ?
	       BDS_LABEL_FRONT_DATA : 0;
}

void bds_label_set_backup(struct bds_label *l, u64 backup_sector)
{
	l->backup_sector = backup_sector;
	l->incompat &= ~BDS_LABEL_INCOMPAT_FRONT_BACKUP;
	if (backup_sector == BDS_LABEL_FRONT_BACKUP &&
	    l->data_offset >= BDS_LABEL_FRONT_DATA)
		l->incompat |= BDS_LABEL_INCOMPAT_FRONT_BACKUP;
}

u64 bds_label_backup_place(u64 member_sectors, u64 data_offset,
			   u64 data_end)
{
	u64 end;

	if (member_sectors < BDS_LABEL_MIN_MEMBER || data_end < data_offset)
		return 0;
	end = bds_label_backup_sector(member_sectors);
	if (data_end <= end && data_offset >= BDS_LABEL_PRIMARY +
						BDS_LABEL_SECTORS)
		return end;
	if (data_offset >= BDS_LABEL_FRONT_DATA && data_end <= member_sectors)
		return BDS_LABEL_FRONT_BACKUP;
	return 0;
}

u64 bds_label_data_offset(u32 chunk, u32 pbs_sectors)
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

bool bds_uuid_is_zero(const u8 *u)
{
	int i;

	for (i = 0; i < BDS_UUID_LEN; i++)
		if (u[i])
			return false;
	return true;
}

bool bds_bytes_zero(const void *p, size_t len)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

bool bds_text_ok(const char *s, size_t len, bool need_text)
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

bool bds_name_ok(const char *s, size_t len)
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

static void bds_copy_text(char *dst, const char *src, size_t len)
{
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* The checks of one copy that need no decoding. */
static enum bds_label_err bds_label_check_raw(const u8 *buf, size_t len)
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
static enum bds_label_err
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
static enum bds_label_err
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

/*
 * WEIGHTS_MODE is set exactly when weights_mode is not 0, and then it is
 * one of the modes this version knows.
 */
static enum bds_label_err
bds_label_decode_weights_mode(const struct bds_label_head *h,
			      struct bds_label *l)
{
	bool set = le32_to_cpu(h->compat) & BDS_LABEL_COMPAT_WEIGHTS_MODE;
	u32 mode = le32_to_cpu(h->weights_mode);

	if (set != !!mode || mode > BDS_WEIGHTS_MODE_MAX)
		return BDS_LABEL_ERR_WEIGHTS_MODE;
	if (set)
		l->compat |= BDS_LABEL_COMPAT_WEIGHTS_MODE;
	l->weights_mode = mode;
	return BDS_LABEL_OK;
}

/*
 * MEASURED is set exactly when meas_disk is not 0, and then the time is
 * not 0 either; clear, the three fields are 0 (rule 35).
 */
static enum bds_label_err
bds_label_decode_measured(const struct bds_label_head *h, struct bds_label *l)
{
	bool set = le32_to_cpu(h->compat) & BDS_LABEL_COMPAT_MEASURED;

	l->meas_disk = le32_to_cpu(h->meas_disk);
	l->meas_ctrl = le32_to_cpu(h->meas_ctrl);
	l->meas_time = le64_to_cpu(h->meas_time);
	if (set ? !l->meas_disk || !l->meas_time :
		  l->meas_disk || l->meas_ctrl || l->meas_time)
		return BDS_LABEL_ERR_MEASURED;
	if (set)
		l->compat |= BDS_LABEL_COMPAT_MEASURED;
	return BDS_LABEL_OK;
}

/*
 * Where the copies and the data lie must make sense for this member:
 * primary copy, data, backup copy, in that order, without overlap (all
 * compared without overflow).
 */
static enum bds_label_err bds_label_check_place(const struct bds_label *l)
{
	bool front = l->incompat & BDS_LABEL_INCOMPAT_FRONT_BACKUP;
	u64 end;
	u32 rem;

	/* 17, 18: the backup at the member's end, or in front (FRONT_BACKUP) */
	if (l->member_sectors < BDS_LABEL_MIN_MEMBER ||
	    l->backup_sector != (front ? BDS_LABEL_FRONT_BACKUP :
				 bds_label_backup_sector(l->member_sectors)))
		return BDS_LABEL_ERR_PLACE;
	/* 19, 20: the data after the primary, and after a front backup */
	if (l->data_offset < (front ? BDS_LABEL_FRONT_DATA :
			      BDS_LABEL_PRIMARY + BDS_LABEL_SECTORS) ||
	    l->member_offset[l->member_index] != l->data_offset)
		return BDS_LABEL_ERR_PLACE;
	/* 21, 22: the data ends at or before the backup, or the member's end */
	end = bds_label_data_end(l);
	if (!l->data_sectors || l->data_offset > end ||
	    l->data_sectors > end - l->data_offset)
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

/*
 * RESHAPE, rules 27 to 29: the section is there exactly when its bit
 * is, then its scalars, its old groups and its old member table.
 */
static enum bds_label_err
bds_label_decode_reshape_tables(const struct bds_label_disk *d,
				struct bds_label *l)
{
	const struct bds_label_reshape *h = (const void *)d->head.reserved1;
	const struct bds_label_old *t = (const void *)d->reserved;
	bool present = !bds_bytes_zero(h, sizeof(*h)) ||
		       !bds_bytes_zero(t, sizeof(*t));
	bool used[BDS_MAX_MEMBERS] = { false };
	u32 g, i, sum = 0;

	if (present != !!(l->incompat & BDS_LABEL_INCOMPAT_RESHAPE) ||
	    !bds_bytes_zero(h->reserved, sizeof(h->reserved)))
		return BDS_LABEL_ERR_RESHAPE;
	if (!present)
		return BDS_LABEL_OK;
	l->reshape_pos = le64_to_cpu(h->pos);
	l->reshape_dir = le32_to_cpu(h->dir);
	l->old_nr_members = le32_to_cpu(h->old_nr_members);
	l->old_nr_groups = le32_to_cpu(h->old_nr_groups);
	l->old_layout = le32_to_cpu(h->old_layout);
	l->old_member_len = le64_to_cpu(h->old_member_len);

	/* 28: the old groups */
	if (!l->old_nr_members || l->old_nr_members > l->nr_members ||
	    !l->old_nr_groups || l->old_nr_groups > BDS_MAX_GROUPS)
		return BDS_LABEL_ERR_RESHAPE_GEOMETRY;
	for (g = 0; g < BDS_MAX_GROUPS; g++) {
		bool used_group = g < l->old_nr_groups;

		l->old_group_size[g] = h->old_group_size[g];
		if (used_group != !!l->old_group_size[g])
			return BDS_LABEL_ERR_RESHAPE_GEOMETRY;
		sum += l->old_group_size[g];
	}
	if (sum != l->old_nr_members)
		return BDS_LABEL_ERR_RESHAPE_GEOMETRY;

	/* 29: the old members, each a distinct member of the table */
	for (i = 0; i < BDS_MAX_MEMBERS; i++) {
		l->old_member[i] = t->member[i];
		l->old_weight[i] = t->weight[i];
		l->old_offset[i] = le32_to_cpu(t->offset[i]);
		if (i >= l->old_nr_members) {
			if (t->member[i] || t->weight[i] || t->offset[i])
				return BDS_LABEL_ERR_RESHAPE_MEMBERS;
			continue;
		}
		if (t->member[i] >= l->nr_members || used[t->member[i]] ||
		    !t->weight[i] ||
		    l->old_offset[i] < BDS_LABEL_PRIMARY + BDS_LABEL_SECTORS)
			return BDS_LABEL_ERR_RESHAPE_MEMBERS;
		used[t->member[i]] = true;
	}
	return BDS_LABEL_OK;
}

/* Stripe units of @cycles cycles of @slots, or ~0 when over 64 bits. */
static u64 bds_label_units(u64 cycles, u32 slots)
{
	u32 rem;

	if (cycles > bds_div(~0ULL, slots, &rem))
		return ~0ULL;
	return cycles * slots;
}

/*
 * RESHAPE, rules 30 to 32, on a section that passed rules 27 to 29: the
 * old geometry, the lengths and the checkpoint, and where the data lies
 * and moves.
 */
static enum bds_label_err bds_label_check_reshape(const struct bds_label *l)
{
	struct bds_layout layout;
	u64 old_units, new_units, cycles, was, now, end;
	u32 old_slots, rem, i, me = BDS_MAX_MEMBERS;
	bool fwd = l->reshape_dir == 0;

	/* 30: a geometry the target accepts, with the same chunk */
	if (bds_layout_init(&layout, l->chunk_sectors, l->old_group_size,
			    l->old_nr_groups,
			    (enum bds_order_mode)l->old_layout) ||
	    bds_weights_check(&layout, l->old_weight, &old_slots))
		return BDS_LABEL_ERR_RESHAPE_GEOMETRY;

	/* 31: a direction, an old length within the new, a checkpoint in it */
	if (l->reshape_dir > 1 || !l->old_member_len)
		return BDS_LABEL_ERR_RESHAPE_POSITION;
	cycles = bds_div(l->old_member_len, (u32)l->chunk_sectors, &rem);
	if (rem)
		return BDS_LABEL_ERR_RESHAPE_POSITION;
	old_units = bds_label_units(cycles, old_slots);
	cycles = bds_div(l->data_sectors, (u32)l->chunk_sectors *
			 l->weight[l->member_index], &rem);
	new_units = bds_label_units(cycles, bds_label_slots(l));
	if (old_units == ~0ULL || old_units > new_units ||
	    l->reshape_pos > old_units)
		return BDS_LABEL_ERR_RESHAPE_POSITION;

	/* 32: data moving the direction's way, this member's old data fitting */
	for (i = 0; i < l->old_nr_members; i++) {
		was = l->old_offset[i];
		now = l->member_offset[l->old_member[i]];
		if ((fwd ? now > was : now < was) ||
		    now < BDS_LABEL_PRIMARY + BDS_LABEL_SECTORS)
			return BDS_LABEL_ERR_RESHAPE_PLACE;
		if (l->old_member[i] == l->member_index)
			me = i;
	}
	end = bds_label_data_end(l);
	if (me < BDS_MAX_MEMBERS &&
	    ((l->incompat & BDS_LABEL_INCOMPAT_FRONT_BACKUP &&
	      l->old_offset[me] < BDS_LABEL_FRONT_DATA) ||
	     l->old_offset[me] > end ||
	     bds_div(end - l->old_offset[me], l->old_weight[me],
		     &rem) < l->old_member_len))
		return BDS_LABEL_ERR_RESHAPE_PLACE;
	return BDS_LABEL_OK;
}

/* The decoding proper; bds_label_decode() clears *l when it fails. */
static enum bds_label_err bds_label_decode_copy(const u8 *buf, size_t len,
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
	/* 34: ADOPT only in a backup copy */
	if ((l->incompat & BDS_LABEL_INCOMPAT_ADOPT) &&
	    l->label_sector != l->backup_sector)
		return BDS_LABEL_ERR_PLACE;
	err = bds_label_decode_owner(h, l);
	if (!err)
		err = bds_label_decode_weights_mode(h, l);
	if (!err)
		err = bds_label_decode_measured(h, l);
	if (err)
		return err;
	err = bds_label_decode_reshape_tables(d, l);
	if (err || !(l->incompat & BDS_LABEL_INCOMPAT_RESHAPE))
		return err;
	return bds_label_check_reshape(l);
}

enum bds_label_err bds_label_decode(const u8 *buf, size_t len,
				    struct bds_label *l)
{
	enum bds_label_err err = bds_label_decode_copy(buf, len, l);

	if (err)
		memset(l, 0, sizeof(*l));
	return err;
}

/* Copy text into a field, '?' for anything but printable ASCII. */
static void bds_put_text(char *dst, const char *src, size_t len)
{
	size_t n = 0;

	while (n < len && src[n]) {
		dst[n] = (src[n] < 0x20 || src[n] > 0x7e) ? '?' : src[n];
		n++;
	}
}

/*
 * RESHAPE: the section, and its incompat bit, when @l has old members.
 * Old data offsets are 32-bit on disk: callers refuse a restripe whose
 * old offsets do not fit.
 */
static void bds_label_encode_reshape(const struct bds_label *l,
				     struct bds_label_disk *d)
{
	struct bds_label_reshape *h = (void *)d->head.reserved1;
	struct bds_label_old *t = (void *)d->reserved;
	u32 g, i;

	if (!l->old_nr_members)
		return;
	d->head.incompat = cpu_to_le32(le32_to_cpu(d->head.incompat) |
				       BDS_LABEL_INCOMPAT_RESHAPE);
	h->pos = cpu_to_le64(l->reshape_pos);
	h->dir = cpu_to_le32(l->reshape_dir);
	h->old_nr_members = cpu_to_le32(l->old_nr_members);
	h->old_nr_groups = cpu_to_le32(l->old_nr_groups);
	h->old_layout = cpu_to_le32(l->old_layout);
	h->old_member_len = cpu_to_le64(l->old_member_len);
	for (g = 0; g < l->old_nr_groups && g < BDS_MAX_GROUPS; g++)
		h->old_group_size[g] = (u8)l->old_group_size[g];
	for (i = 0; i < l->old_nr_members && i < BDS_MAX_MEMBERS; i++) {
		t->member[i] = l->old_member[i];
		t->weight[i] = (u8)l->old_weight[i];
		t->offset[i] = cpu_to_le32((u32)l->old_offset[i]);
	}
}

void bds_label_encode(const struct bds_label *l, u8 *buf)
{
	struct bds_label_disk *d = (void *)buf;
	struct bds_label_head *h = &d->head;
	u32 g, i, incompat = 0, compat = 0;

	memset(buf, 0, BDS_LABEL_SIZE);
	for (i = 0; i < l->nr_members && i < BDS_MAX_MEMBERS; i++)
		if (l->weight[i] != 1)
			incompat |= BDS_LABEL_INCOMPAT_WEIGHTS;
	incompat |= l->incompat & (BDS_LABEL_INCOMPAT_ADOPT |
				   BDS_LABEL_INCOMPAT_FRONT_BACKUP);
	h->incompat = cpu_to_le32(incompat);
	if (l->owner[0]) {
		compat |= BDS_LABEL_COMPAT_OWNER;
		bds_put_text(h->owner, l->owner, BDS_LABEL_OWNER_LEN - 1);
	}
	if (l->weights_mode) {
		compat |= BDS_LABEL_COMPAT_WEIGHTS_MODE;
		h->weights_mode = cpu_to_le32(l->weights_mode);
	}
	if (l->meas_disk) {
		compat |= BDS_LABEL_COMPAT_MEASURED;
		h->meas_disk = cpu_to_le32(l->meas_disk);
		h->meas_ctrl = cpu_to_le32(l->meas_ctrl);
		h->meas_time = cpu_to_le64(l->meas_time);
	}
	h->compat = cpu_to_le32(compat);
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
	bds_label_encode_reshape(l, d);
	h->crc = cpu_to_le32(bds_label_crc(buf));
}

enum bds_label_err bds_label_read(const u8 *buf, size_t len, u64 sector,
				  struct bds_label *l)
{
	enum bds_label_err err = bds_label_decode(buf, len, l);

	if (!err && l->label_sector != sector) {
		memset(l, 0, sizeof(*l));
		err = BDS_LABEL_ERR_PLACE;
	}
	return err;
}

u32 bds_label_group_of(const struct bds_label *l, u32 i)
{
	u32 g = 0, first = 0;

	while (g + 1 < l->nr_groups && first + l->group_size[g] <= i)
		first += l->group_size[g++];
	return g;
}

int bds_label_pick(enum bds_label_err pe, const struct bds_label *p,
		   enum bds_label_err be, const struct bds_label *b)
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

u32 bds_label_slots(const struct bds_label *l)
{
	u32 m, w = 0;

	for (m = 0; m < l->nr_members && m < BDS_MAX_MEMBERS; m++)
		w += l->weight[m];
	return w;
}

bool bds_label_weighted(const struct bds_label *l)
{
	return bds_label_slots(l) != l->nr_members;
}

u64 bds_label_unit(const struct bds_label *l)
{
	u32 rem, w = l->weight[l->member_index];

	return w ? bds_div(l->data_sectors, w, &rem) : 0;
}

u64 bds_label_member_data(const struct bds_label *l, u32 m)
{
	return bds_label_unit(l) * l->weight[m];
}
