// SPDX-License-Identifier: GPL-2.0
/*
 * dm-bds-stripe: a device-mapper target that stripes a volume over many
 * disks and lays the stripe units out so that consecutive units
 * alternate between the controllers the disks hang off.
 *
 * Table: <chunk_sectors> <#groups> <group>... [<#opt_args> <opt_arg>...]
 *        <group> = <#devs> (<dev_path> <offset>)...
 *
 * The layout arithmetic, the table's words and the member label live in
 * libbds/, compiled into this module and into the tools and the
 * userspace tests; dm-bds-stripe.h holds the target's structures and its
 * one compatibility section; this file is the kernel glue.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "dm-bds-stripe.h"

#define DM_MSG_PREFIX "bds-stripe"

/* Refuse a table: @msg is a static string, kept by dm for its log. */
static int bds_refuse(char **error, const char *msg)
{
	*error = (char *)msg;
	return -EINVAL;
}

static void bds_trigger_event(struct work_struct *work)
{
	struct bds_ctx *sc = container_of(work, struct bds_ctx, trigger_event);

	dm_table_event(sc->ti->table);
}

/* Open member @m from its table words and check that it can serve. */
static int bds_get_member(struct bds_ctx *sc, unsigned int m, char **words)
{
	struct dm_target *ti = sc->ti;
	struct bds_member *mb = &sc->members[m];
	struct block_device *bdev;
	unsigned int lbs, i;
	u64 offset, len;
	int r;

	/* Checked by bds_parse_table(); this cannot fail. */
	if (!bds_parse_u64(words[1], &offset))
		return -EINVAL;

	r = dm_get_device(ti, words[0], dm_table_get_mode(ti->table), &mb->dev);
	if (r) {
		DMERR("member %u: cannot open device %s", m, words[0]);
		ti->error = "Member device lookup failed";
		return r;
	}
	mb->offset = offset;
	bdev = mb->dev->bdev;

	for (i = 0; i < m; i++) {
		if (sc->members[i].dev->bdev->bd_dev == bdev->bd_dev) {
			DMERR("members %u and %u are both %s", i, m, mb->dev->name);
			ti->error = "Member device listed more than once";
			return -EINVAL;
		}
	}

	lbs = bdev_logical_block_size(bdev) >> SECTOR_SHIFT;
	if (sc->layout.chunk % lbs) {
		DMERR("member %u (%s): logical block size %u sectors",
		      m, mb->dev->name, lbs);
		ti->error = "Chunk size is not a multiple of a member's logical block size";
		return -EINVAL;
	}
	/* a power of 2: no 64-bit division, which 32-bit kernels lack */
	if (offset & (lbs - 1)) {
		DMERR("member %u (%s): offset %llu, logical block size %u sectors",
		      m, mb->dev->name, offset, lbs);
		ti->error = "Member offset is not a multiple of the member's logical block size";
		return -EINVAL;
	}
	len = bds_member_sectors(&sc->layout, sc->member_len, m);
	if (offset > bdev_nr_sectors(bdev) ||
	    len > bdev_nr_sectors(bdev) - offset) {
		DMERR("member %u (%s): needs %llu + %llu sectors, has %llu",
		      m, mb->dev->name, offset, len,
		      (u64)bdev_nr_sectors(bdev));
		ti->error = "Member device too small for offset + its share of the length";
		return -EINVAL;
	}
	return 0;
}

/* Scratch space of the label check: too large for the stack. */
struct bds_label_check {
	struct bds_label copy[2];	/* primary, backup of one member */
	u64 generation;			/* member 0's */
	u8 uuid[BDS_MAX_MEMBERS][BDS_UUID_LEN];	/* member 0's member table */
	/* mid-restripe: a label's geometries, its checkpoints' range */
	struct bds_geom new, old;
	struct bds_geom_slots new_slots, old_slots;
	u64 ckpt_min, ckpt_max;
};

/*
 * The label reads of a batch of members, in flight together: a table of
 * many members waits for its slowest member's two reads, not for the sum
 * of all of them.  Copy 0 is the primary, copy 1 the backup; a NULL bio
 * is a copy not read (a member that cannot carry a label, a backup that
 * cannot fit).  Pages for @slots members of a batch.
 */
#define BDS_LABEL_BATCH	16

struct bds_label_reads {
	atomic_t pending;
	struct completion done;
	unsigned int slots;
	struct page *page[BDS_LABEL_BATCH][2];
	struct bio *bio[BDS_LABEL_BATCH][2];
	int rd[BDS_LABEL_BATCH][2];	/* each read's error, 0 when read */
	u64 at[BDS_LABEL_BATCH];	/* copy 1's sector, 0 when not read */
	/* copy 1 read in front after none at the end: the end's verdict */
	bool fell[BDS_LABEL_BATCH];
	int end_rd[BDS_LABEL_BATCH];
	enum bds_label_err end_err[BDS_LABEL_BATCH];
};

static void bds_label_end_io(struct bio *bio)
{
	struct bds_label_reads *lr = bio->bi_private;

	if (atomic_dec_and_test(&lr->pending))
		complete(&lr->done);
}

/* Start reading copy @c of batch slot @i from @bdev at @sector. */
static void bds_start_read(struct bds_label_reads *lr, unsigned int i,
			   unsigned int c, struct block_device *bdev,
			   u64 sector)
{
	struct bio *bio = bio_alloc(bdev, 1, REQ_OP_READ | REQ_SYNC,
				    GFP_KERNEL);

	bio->bi_iter.bi_sector = sector;
	bio->bi_private = lr;
	bio->bi_end_io = bds_label_end_io;
	__bio_add_page(bio, lr->page[i][c], BDS_LABEL_SIZE, 0);
	lr->bio[i][c] = bio;
	atomic_inc(&lr->pending);
	submit_bio(bio);
}

/* Wait for the reads started, then keep each one's error. */
static void bds_wait_reads(struct bds_label_reads *lr, unsigned int n,
			   unsigned int c)
{
	unsigned int i;

	if (!atomic_dec_and_test(&lr->pending))
		wait_for_completion_io(&lr->done);
	for (i = 0; i < n; i++) {
		if (!lr->bio[i][c])
			continue;
		lr->rd[i][c] = blk_status_to_errno(lr->bio[i][c]->bi_status);
		bio_put(lr->bio[i][c]);
		lr->bio[i][c] = NULL;
	}
	atomic_set(&lr->pending, 1);
	reinit_completion(&lr->done);
}

/* Can @bdev carry a label (bds_member_label() says why not)? */
static bool bds_label_room(struct block_device *bdev)
{
	return bdev_nr_sectors(bdev) >= BDS_LABEL_MIN_MEMBER &&
	       bdev_logical_block_size(bdev) <= 4096;
}

/*
 * Where the backup copy of a member of @size sectors is: where its
 * primary says when the primary is valid (@primary), else at the end;
 * 0 when it cannot fit.
 */
static u64 bds_backup_at(u64 size, const struct bds_label *primary)
{
	u64 backup = primary ? primary->backup_sector :
			       bds_label_backup_sector(size);

	return backup > size - BDS_LABEL_SECTORS ? 0 : backup;
}

/*
 * No valid primary in slot @i of a member of @size sectors: is there no
 * valid copy where the backup was looked for first (the member's end),
 * so that it is looked for in front of the data (FRONT_BACKUP)?  Keeps
 * the end's verdict, which stands if none is in front either.
 */
static bool bds_front_wanted(struct bds_label_reads *lr, unsigned int i,
			     u64 size, struct bds_label *tmp)
{
	if (size < BDS_LABEL_FRONT_DATA + BDS_LABEL_SECTORS ||
	    lr->at[i] == BDS_LABEL_FRONT_BACKUP)
		return false;
	lr->end_rd[i] = lr->rd[i][1];
	lr->end_err[i] = BDS_LABEL_ERR_SHORT;
	if (lr->at[i] && !lr->rd[i][1])
		lr->end_err[i] = bds_label_read(page_address(lr->page[i][1]),
						BDS_LABEL_SIZE, lr->at[i], tmp);
	return lr->end_err[i] != BDS_LABEL_OK;
}

/* Decode the primary read into slot @i into @l: @l, or NULL if invalid. */
static const struct bds_label *bds_primary_of(struct bds_label_reads *lr,
					      unsigned int i,
					      struct bds_label *l,
					      enum bds_label_err *err)
{
	if (lr->rd[i][0])
		return NULL;
	*err = bds_label_read(page_address(lr->page[i][0]), BDS_LABEL_SIZE,
			      BDS_LABEL_PRIMARY, l);
	return *err ? NULL : l;
}

/*
 * Read both label copies of members @first to @first + @n - 1 into batch
 * slots 0 to @n - 1: every primary at once, then every backup at once,
 * then, for a member with neither a valid primary nor a valid copy at its
 * end, the copy in front of its data (which counts only if valid).
 */
static void bds_read_batch(struct bds_ctx *sc, struct bds_label_reads *lr,
			   unsigned int first, unsigned int n,
			   struct bds_label *tmp)
{
	enum bds_label_err err;
	struct block_device *bdev;
	unsigned int i;

	for (i = 0; i < n; i++) {
		bdev = sc->members[first + i].dev->bdev;
		lr->rd[i][0] = 0;
		lr->rd[i][1] = 0;
		lr->at[i] = 0;
		lr->fell[i] = false;
		if (bds_label_room(bdev))
			bds_start_read(lr, i, 0, bdev, BDS_LABEL_PRIMARY);
	}
	bds_wait_reads(lr, n, 0);
	for (i = 0; i < n; i++) {
		const struct bds_label *primary;

		bdev = sc->members[first + i].dev->bdev;
		if (!bds_label_room(bdev))
			continue;
		primary = bds_primary_of(lr, i, tmp, &err);
		lr->fell[i] = !primary;	/* until an end copy is valid */
		lr->at[i] = bds_backup_at(bdev_nr_sectors(bdev), primary);
		if (lr->at[i])
			bds_start_read(lr, i, 1, bdev, lr->at[i]);
	}
	bds_wait_reads(lr, n, 1);
	for (i = 0; i < n; i++) {
		bdev = sc->members[first + i].dev->bdev;
		if (!lr->fell[i] ||
		    !bds_front_wanted(lr, i, bdev_nr_sectors(bdev), tmp)) {
			lr->fell[i] = false;
			continue;
		}
		lr->at[i] = BDS_LABEL_FRONT_BACKUP;
		lr->rd[i][1] = 0;
		bds_start_read(lr, i, 1, bdev, lr->at[i]);
	}
	bds_wait_reads(lr, n, 1);
}

/*
 * Decode the copies of @bdev read into slot @i of @lr.  @err gets each
 * copy's verdict, @rd each read's error (0: it was read).
 */
static void bds_decode_copies(struct bds_label_reads *lr, unsigned int i,
			      struct block_device *bdev,
			      struct bds_label_check *lc,
			      enum bds_label_err *err, int *rd)
{
	if (bdev_nr_sectors(bdev) < BDS_LABEL_MIN_MEMBER)
		return;
	rd[0] = lr->rd[i][0];
	bds_primary_of(lr, i, &lc->copy[0], &err[0]);
	if (!lr->at[i])
		return;
	rd[1] = lr->rd[i][1];
	if (!rd[1])
		err[1] = bds_label_read(page_address(lr->page[i][1]),
					BDS_LABEL_SIZE, lr->at[i], &lc->copy[1]);
	/* nothing in front either: the end's verdict is the backup's */
	if (lr->fell[i] && (rd[1] || err[1] != BDS_LABEL_OK)) {
		rd[1] = lr->end_rd[i];
		err[1] = lr->end_err[i];
	}
}

/*
 * The label copy of member @m that counts, as userspace picks it: the
 * primary at sector 8, the backup where a valid primary says or else at
 * the member's end or in front of its data, the newer of two valid ones.  NULL with ti->error set
 * when there is none.
 */
static const struct bds_label *bds_member_label(struct bds_ctx *sc,
						unsigned int m,
						struct bds_label_reads *lr,
						unsigned int i,
						struct bds_label_check *lc,
						int *r)
{
	struct dm_target *ti = sc->ti;
	struct bds_member *mb = &sc->members[m];
	struct block_device *bdev = mb->dev->bdev;
	enum bds_label_err err[2] = { BDS_LABEL_ERR_SHORT, BDS_LABEL_ERR_SHORT };
	int rd[2] = { 0, 0 };
	int pick;

	*r = -EINVAL;
	if (bdev_logical_block_size(bdev) > 4096) {
		DMERR("member %u (%s): logical block size %u", m, mb->dev->name,
		      bdev_logical_block_size(bdev));
		ti->error = "Member's logical blocks exceed 4 KiB: it cannot carry a label";
		return NULL;
	}
	bds_decode_copies(lr, i, bdev, lc, err, rd);
	/*
	 * A copy that cannot be read counts as no copy: the other one
	 * decides, as it does when a copy is damaged.  With neither copy
	 * valid, an unreadable one is the reason given.
	 */
	pick = bds_label_pick(err[0], &lc->copy[0], err[1], &lc->copy[1]);
	if (rd[0] || rd[1]) {
		if (pick < 0 && pick != BDS_LABEL_PICK_CONFLICT) {
			DMERR("member %u (%s): label read error %d", m,
			      mb->dev->name, rd[0] ? rd[0] : rd[1]);
			ti->error = "Member's label could not be read";
			*r = rd[0] ? rd[0] : rd[1];
			return NULL;
		}
		DMWARN("member %u (%s): %s label copy unreadable (error %d), the %s counts",
		       m, mb->dev->name, rd[0] ? "primary" : "backup",
		       rd[0] ? rd[0] : rd[1], rd[0] ? "backup" : "primary");
	}
	*r = -EINVAL;
	if (pick == BDS_LABEL_PICK_CONFLICT) {
		DMERR("member %u (%s): its label copies name different volumes or members",
		      m, mb->dev->name);
		ti->error = "Member's two label copies conflict";
		return NULL;
	}
	if (pick < 0) {
		DMERR("member %u (%s): no valid label: primary: %s; backup: %s",
		      m, mb->dev->name, bds_label_error(err[0]),
		      bds_label_error(err[1]));
		ti->error = "Member has no valid bds-stripe label";
		return NULL;
	}
	if (lc->copy[pick].incompat & BDS_LABEL_INCOMPAT_ADOPT) {
		DMERR("member %u (%s): its label is of an adoption from md not finished",
		      m, mb->dev->name);
		ti->error = "Member's adoption from md is not finished: run bdsadm assemble";
		return NULL;
	}
	*r = 0;
	return &lc->copy[pick];
}

/* Does label @l describe the geometry the table gives? */
static bool bds_label_geometry_is(const struct bds_label *l,
				  const struct bds_layout *layout)
{
	u32 g, m;

	if (l->nr_members != layout->nr_members ||
	    l->nr_groups != layout->nr_groups ||
	    l->chunk_sectors != layout->chunk || l->layout != layout->mode)
		return false;
	for (g = 0; g < l->nr_groups; g++)
		if (l->group_size[g] != layout->group_size[g])
			return false;
	for (m = 0; m < l->nr_members; m++)
		if (l->weight[m] != bds_weight(layout, m))
			return false;
	return true;
}

/*
 * Mid-restripe: does label @l record the table's restripe (its direction
 * and old geometry)?  Its checkpoint joins the range of the labels'.
 */
static bool bds_label_restripe_is(const struct bds_restripe *rs,
				  const struct bds_label *l,
				  struct bds_label_check *lc)
{
	if (bds_reshape_from_label(l, &lc->new, &lc->new_slots, &lc->old,
				   &lc->old_slots) ||
	    l->reshape_dir != rs->args.dir || !bds_geom_same(&lc->old, &rs->old))
		return false;
	lc->ckpt_min = min(lc->ckpt_min, l->reshape_pos);
	lc->ckpt_max = max(lc->ckpt_max, l->reshape_pos);
	return true;
}

/* Check label @l of member @m against the table (and member 0's label). */
static int bds_check_label(struct bds_ctx *sc, unsigned int m,
			   const struct bds_label *l,
			   struct bds_label_check *lc)
{
	struct bds_member *mb = &sc->members[m];
	bool restripe = l->incompat & BDS_LABEL_INCOMPAT_RESHAPE;
	const char *why = NULL;

	if (restripe != !!sc->rs) {
		DMERR("member %u (%s): its label records %s restripe, the table %s",
		      m, mb->dev->name, restripe ? "a" : "no",
		      sc->rs ? "gives one" : "none");
		why = restripe ? BDS_MSG_RESHAPE_LABEL_HAS :
		      BDS_MSG_RESHAPE_LABEL_NONE;
	} else if (memcmp(l->volume_uuid, sc->table.volume_uuid, BDS_UUID_LEN)) {
		DMERR("member %u (%s): label of volume %pUb (%s), the table names %pUb",
		      m, mb->dev->name, l->volume_uuid, l->name,
		      sc->table.volume_uuid);
		why = "Member's label is of another volume";
	} else if (l->member_index != m) {
		DMERR("member %u (%s): its label gives it position %u",
		      m, mb->dev->name, l->member_index);
		why = "Member is not at the position its label gives it";
	} else if (!bds_label_geometry_is(l, &sc->layout)) {
		DMERR("member %u (%s): label geometry %llu sectors, %u groups, %u members",
		      m, mb->dev->name, l->chunk_sectors, l->nr_groups,
		      l->nr_members);
		why = "Member's label geometry differs from the table";
	} else if (l->data_offset != mb->offset) {
		DMERR("member %u (%s): offset %llu, label's data offset %llu",
		      m, mb->dev->name, (u64)mb->offset, l->data_offset);
		why = "Member offset is not its label's data offset";
	} else if (l->data_sectors !=
		   bds_member_sectors(&sc->layout, sc->member_len, m)) {
		DMERR("member %u (%s): %llu sectors on this member, label says %llu",
		      m, mb->dev->name,
		      bds_member_sectors(&sc->layout, sc->member_len, m),
		      l->data_sectors);
		why = "Target length is not the length its labels give the volume";
	} else if (m && (l->generation != lc->generation ||
			 memcmp(l->uuid, lc->uuid, sizeof(lc->uuid)))) {
		DMERR("member %u (%s): label generation %llu, member 0's %llu",
		      m, mb->dev->name, l->generation, lc->generation);
		why = "Member's label disagrees with member 0's (generation or member table)";
	} else if (sc->rs && !bds_label_restripe_is(sc->rs, l, lc)) {
		DMERR("member %u (%s): its label's restripe goes %s from another geometry",
		      m, mb->dev->name, l->reshape_dir ? "backward" : "forward");
		why = BDS_MSG_RESHAPE_LABEL_OTHER;
	}
	if (why) {
		sc->ti->error = (char *)why;
		return -EINVAL;
	}
	if (!m) {
		lc->generation = l->generation;
		memcpy(lc->uuid, l->uuid, sizeof(lc->uuid));
	}
	return 0;
}

/*
 * Mid-restripe, the table's checkpoint must lie between the least and
 * the most advanced of the labels': the units between two labels'
 * checkpoints are alike in both places, the others are only where the
 * labels say.
 */
static int bds_check_checkpoint(struct bds_ctx *sc,
				const struct bds_label_check *lc)
{
	u64 ckpt = sc->rs->args.checkpoint;

	if (ckpt >= lc->ckpt_min && ckpt <= lc->ckpt_max)
		return 0;
	DMERR("restripe checkpoint %llu, the labels record %llu to %llu",
	      ckpt, lc->ckpt_min, lc->ckpt_max);
	sc->ti->error = BDS_MSG_RESHAPE_LABEL_CKPT;
	return -EINVAL;
}

/* Buffers for batches of @slots members (at most BDS_LABEL_BATCH). */
static struct bds_label_reads *bds_alloc_reads(unsigned int slots)
{
	struct bds_label_reads *lr = kzalloc(sizeof(*lr), GFP_KERNEL);
	unsigned int i, c;

	if (!lr)
		return NULL;
	atomic_set(&lr->pending, 1);
	init_completion(&lr->done);
	lr->slots = slots;
	for (i = 0; i < slots; i++)
		for (c = 0; c < 2; c++)
			lr->page[i][c] = alloc_pages(GFP_KERNEL,
						     get_order(BDS_LABEL_SIZE));
	return lr;
}

static void bds_free_reads(struct bds_label_reads *lr)
{
	unsigned int i, c;

	if (!lr)
		return;
	for (i = 0; i < lr->slots; i++)
		for (c = 0; c < 2; c++)
			if (lr->page[i][c])
				__free_pages(lr->page[i][c],
					     get_order(BDS_LABEL_SIZE));
	kfree(lr);
}

static bool bds_reads_ready(const struct bds_label_reads *lr)
{
	unsigned int i;

	if (!lr)
		return false;
	for (i = 0; i < lr->slots; i++)
		if (!lr->page[i][0] || !lr->page[i][1])
			return false;
	return true;
}

/*
 * "volume <uuid>": every member's label must agree with the table.  The
 * reads go a batch of members at a time, the checks member by member.
 */
static int bds_check_labels(struct bds_ctx *sc)
{
	unsigned int nr = sc->layout.nr_members, m, n, i;
	struct bds_label_check *lc;
	struct bds_label_reads *lr;
	const struct bds_label *l;
	int r = -ENOMEM;

	lc = kvmalloc(sizeof(*lc), GFP_KERNEL);
	lr = bds_alloc_reads(min_t(unsigned int, nr, BDS_LABEL_BATCH));
	if (!lc || !bds_reads_ready(lr)) {
		sc->ti->error = "Cannot allocate label buffers";
		goto out;
	}
	lc->ckpt_min = U64_MAX;
	lc->ckpt_max = 0;
	r = 0;
	for (m = 0; m < nr && !r; m += n) {
		n = min_t(unsigned int, nr - m, BDS_LABEL_BATCH);
		bds_read_batch(sc, lr, m, n, &lc->copy[0]);
		for (i = 0; i < n && !r; i++) {
			l = bds_member_label(sc, m + i, lr, i, lc, &r);
			if (l)
				r = bds_check_label(sc, m + i, l, lc);
		}
	}
	if (!r && sc->rs)
		r = bds_check_checkpoint(sc, lc);
out:
	bds_free_reads(lr);
	kvfree(lc);
	return r;
}

static void bds_put_members(struct bds_ctx *sc, unsigned int count)
{
	while (count--)
		dm_put_device(sc->ti, sc->members[count].dev);
}

/*
 * The layout of the table in @sc->layout, with its weights: the slot
 * arrays are allocated for the table's W, only when some weight is not 1.
 */
static int bds_init_layout(struct bds_ctx *sc, const struct bds_args *args)
{
	struct bds_layout *l = &sc->layout;
	enum bds_geom_err gerr;
	u32 nr_slots;

	gerr = bds_layout_init(l, args->chunk, args->group_size,
			       args->nr_groups, args->mode);
	if (gerr == BDS_OK)
		gerr = bds_weights_check(l, args->weight, &nr_slots);
	if (gerr != BDS_OK)
		return bds_refuse(&sc->ti->error, bds_geom_error(gerr));
	if (nr_slots == l->nr_members)
		return 0;
	/* W slots, then W u16 entries of slot_of. */
	sc->slots = kcalloc(nr_slots, sizeof(*sc->slots) + sizeof(u16),
			    GFP_KERNEL);
	if (!sc->slots) {
		sc->ti->error = "Cannot allocate the weighted slot tables";
		return -ENOMEM;
	}
	bds_layout_weigh(l, args->weight, nr_slots, sc->slots,
			 (u16 *)(sc->slots + nr_slots));
	return 0;
}

/*
 * A table with "reshape": its words (bds_parse_reshape()) and lengths,
 * then the length of a member of weight 1 in the new geometry, which
 * the members are checked against.  The geometries need the members'
 * offsets: bds_init_restripe() makes them.
 */
static int bds_parse_restripe(struct bds_ctx *sc, const struct bds_args *args,
			      unsigned int argc, char **argv)
{
	struct bds_restripe *rs;
	const char *msg;

	rs = kvzalloc(sizeof(*rs), GFP_KERNEL);
	if (!rs) {
		sc->ti->error = "Cannot allocate the restripe's geometries";
		return -ENOMEM;
	}
	sc->rs = rs;
	spin_lock_init(&rs->lock);
	bio_list_init(&rs->held);
	init_waitqueue_head(&rs->drained);
	mutex_init(&rs->msg_lock);
	msg = bds_parse_reshape(args, argc, argv, &rs->args);
	if (!msg)
		msg = bds_reshape_check_len(&rs->args, &sc->layout, sc->ti->len);
	if (!msg && !bds_member_len(&sc->layout, rs->args.new_sectors,
				    &sc->member_len))
		msg = BDS_MSG_RESHAPE_NEWLEN_CYCLE;
	return msg ? bds_refuse(&sc->ti->error, msg) : 0;
}

/* Does old member @i of the restripe fit its device, at its old offset? */
static int bds_check_old_member(struct bds_ctx *sc, u32 i)
{
	const struct bds_geom *g = &sc->rs->old;
	struct bds_member *mb = &sc->members[g->member[i]];
	struct block_device *bdev = mb->dev->bdev;
	u64 size = bdev_nr_sectors(bdev), off = g->offset[i];
	u64 len = bds_geom_member_units(g, i) * g->layout.chunk;
	unsigned int lbs = bdev_logical_block_size(bdev) >> SECTOR_SHIFT;

	if (off & (lbs - 1)) {	/* a power of 2, as in bds_get_member() */
		DMERR("member %u (%s): old offset %llu, logical block size %u sectors",
		      g->member[i], mb->dev->name, off, lbs);
		sc->ti->error = "Member's old offset is not a multiple of its logical block size";
		return -EINVAL;
	}
	if (off > size || len > size - off) {
		DMERR("member %u (%s): the old geometry needs %llu + %llu sectors, has %llu",
		      g->member[i], mb->dev->name, off, len, size);
		sc->ti->error = "Member device too small for its old offset + its old share";
		return -EINVAL;
	}
	return 0;
}

/* The restripe's two geometries, once the members are open. */
static int bds_init_restripe(struct bds_ctx *sc)
{
	struct bds_restripe *rs = sc->rs;
	const char *msg;
	u32 m, i;
	int r;

	for (m = 0; m < sc->layout.nr_members; m++)
		rs->offset[m] = sc->members[m].offset;
	msg = bds_reshape_of_table(&rs->args, &sc->layout, rs->offset,
				   sc->ti->len, &rs->new, &rs->old,
				   &rs->old_slots);
	if (msg)
		return bds_refuse(&sc->ti->error, msg);
	rs->r.old = &rs->old;
	rs->r.new = &rs->new;
	rs->r.dir = rs->args.dir;
	for (i = 0; i < rs->old.layout.nr_members; i++) {
		r = bds_check_old_member(sc, i);
		if (r)
			return r;
	}
	rs->hold = rs->args.checkpoint;
	rs->closing = rs->args.checkpoint;
	sc->table.reshape = &rs->args;
	return 0;
}

static void bds_init_stats(struct bds_ctx *sc, u32 nr_groups)
{
	u32 g;
	int cpu;

	for_each_possible_cpu(cpu)
		for (g = 0; g < nr_groups; g++)
			u64_stats_init(&per_cpu_ptr(sc->stats + g, cpu)->syncp);
}

static int bds_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct bds_args args;
	const char *msg;
	struct bds_ctx *sc;
	unsigned int m, g, d, i;
	int r;

	msg = bds_parse_table(&args, argc, argv);
	if (msg)
		return bds_refuse(&ti->error, msg);

	sc = kzalloc(struct_size(sc, members, args.nr_members), GFP_KERNEL);
	if (!sc) {
		ti->error = "Cannot allocate bds-stripe context";
		return -ENOMEM;
	}
	sc->ti = ti;
	r = bds_init_layout(sc, &args);
	if (r)
		goto bad_layout;
	if (args.reshape_given)
		r = bds_parse_restripe(sc, &args, argc, argv);
	else if (!bds_member_len(&sc->layout, ti->len, &sc->member_len))
		r = bds_refuse(&ti->error, sc->slots ? BDS_MSG_LEN_CYCLE :
			       BDS_MSG_LEN_WIDTH);
	if (r)
		goto bad_layout;
	sc->table = args;
	INIT_WORK(&sc->trigger_event, bds_trigger_event);

	sc->stats = __alloc_percpu(sizeof(*sc->stats) * args.nr_groups,
				   __alignof__(*sc->stats));
	if (!sc->stats) {
		ti->error = "Cannot allocate per-CPU counters";
		r = -ENOMEM;
		goto bad_layout;
	}
	bds_init_stats(sc, args.nr_groups);

	/* Member words follow each group's #devs. */
	for (m = 0, g = 0, i = args.first_member; g < args.nr_groups; g++, i++) {
		for (d = 0; d < args.group_size[g]; d++, m++, i += 2) {
			r = bds_get_member(sc, m, &argv[i]);
			if (r) {
				/* A failed lookup leaves no device to put. */
				if (sc->members[m].dev)
					m++;
				goto bad_members;
			}
		}
	}

	if (sc->rs) {
		r = bds_init_restripe(sc);
		if (r)
			goto bad_members;
	}
	if (sc->table.volume_given) {
		r = bds_check_labels(sc);
		if (r)
			goto bad_members;
	}

	r = bioset_init(&sc->pieces, BIO_POOL_SIZE,
			offsetof(struct bds_piece, bio), BIOSET_NEED_BVECS);
	if (r) {
		ti->error = "Cannot allocate the member bio set";
		goto bad_members;
	}

	/*
	 * Empty flushes come through the map, one per member, so that a
	 * member's failed flush is counted: never flush_bypasses_map (6.12
	 * on), with which device-mapper sends them itself and the target
	 * never sees their result.
	 */
	ti->num_flush_bios = args.nr_members;
	ti->num_discard_bios = args.nr_members;
	ti->num_secure_erase_bios = args.nr_members;
	ti->num_write_zeroes_bios = args.nr_members;
	/* A weighted bio's pieces are found by member: see bds_map_pieces(). */
	if (sc->slots)
		ti->per_io_data_size = args.nr_members * sizeof(struct bds_piece *);
	if (sc->rs) {
		sc->rs->io_at = ti->per_io_data_size;
		ti->per_io_data_size += sizeof(struct bds_rs_io);
	}
	sc->io_member_at = ti->per_io_data_size;
	ti->per_io_data_size += sizeof(struct bds_io);
	ti->private = sc;
	return 0;

bad_members:
	bds_put_members(sc, m);
	free_percpu(sc->stats);
bad_layout:
	kvfree(sc->rs);
	kfree(sc->slots);
	kfree(sc);
	return r;
}

static void bds_dtr(struct dm_target *ti)
{
	struct bds_ctx *sc = ti->private;

	if (sc->rs)
		mutex_destroy(&sc->rs->msg_lock);
	flush_work(&sc->trigger_event);
	bioset_exit(&sc->pieces);
	bds_put_members(sc, sc->layout.nr_members);
	free_percpu(sc->stats);
	kvfree(sc->rs);
	kfree(sc->slots);
	kfree(sc);
}

static struct bds_io *bds_io(struct bds_ctx *sc, struct bio *bio)
{
	char *data = dm_per_bio_data(bio, sc->ti->per_io_data_size);

	return (struct bds_io *)(data + sc->io_member_at);
}

/* Send clone @bio to member @m whole (its sector set by the caller). */
static void bds_to_member(struct bds_ctx *sc, struct bio *bio, u32 m)
{
	bio_set_dev(bio, sc->members[m].dev->bdev);
	bds_io(sc, bio)->member = m;
}

/* Narrow a discard, write-zeroes or secure-erase copy to one member. */
static int bds_map_range(struct bds_ctx *sc, struct bio *bio)
{
	unsigned int m = dm_bio_get_target_bio_nr(bio);
	struct bds_member *mb = &sc->members[m];
	u64 start = dm_target_offset(sc->ti, bio->bi_iter.bi_sector);
	u64 mstart, mend;

	if (!bds_member_range(&sc->layout, start, start + bio_sectors(bio), m,
			      &mstart, &mend)) {
		/* Nothing of the range lies on this member. */
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}
	bds_to_member(sc, bio, m);
	bio->bi_iter.bi_sector = mb->offset + mstart;
	bio->bi_iter.bi_size = (mend - mstart) << SECTOR_SHIFT;
	return DM_MAPIO_REMAPPED;
}

static void bds_account(struct bds_ctx *sc, struct bio *bio, u32 m)
{
	enum req_op op = bio_op(bio);
	struct bds_group_stats *st;
	unsigned long flags;

	if (op != REQ_OP_WRITE && op != REQ_OP_READ)
		return;
	st = get_cpu_ptr(sc->stats + sc->layout.group_of[m]);
	flags = u64_stats_update_begin_irqsave(&st->syncp);
	if (op == REQ_OP_WRITE) {
		u64_stats_inc(&st->writes);
		u64_stats_add(&st->write_sectors, bio_sectors(bio));
	} else {
		u64_stats_inc(&st->reads);
		u64_stats_add(&st->read_sectors, bio_sectors(bio));
	}
	u64_stats_update_end_irqrestore(&st->syncp, flags);
	put_cpu_ptr(st);
}

/*
 * Count an I/O error of member @m; the first few raise a table event.
 * Failed read-ahead, "not supported" and "would block" (REQ_NOWAIT) say
 * nothing about the member's health.
 */
static void bds_member_error(struct bds_ctx *sc, u32 m, struct bio *bio)
{
	blk_status_t st = bio->bi_status;

	if (!st || st == BLK_STS_NOTSUPP || st == BLK_STS_AGAIN ||
	    (bio->bi_opf & REQ_RAHEAD))
		return;
	if (atomic_inc_return(&sc->members[m].errors) <= BDS_ERROR_EVENTS)
		schedule_work(&sc->trigger_event);
}

/* Send @bio, which lies within one stripe unit, to its member. */
static int bds_map_unit(struct bds_ctx *sc, struct bio *bio)
{
	struct bds_member *mb;
	u64 msector;
	u32 m;

	bds_map_sector(&sc->layout,
		       dm_target_offset(sc->ti, bio->bi_iter.bi_sector),
		       &m, &msector);
	mb = &sc->members[m];
	bds_to_member(sc, bio, m);
	bio->bi_iter.bi_sector = mb->offset + msector;
	bds_account(sc, bio, m);
	return DM_MAPIO_REMAPPED;
}

static void bds_piece_end_io(struct bio *bio)
{
	struct bds_piece *p = container_of(bio, struct bds_piece, bio);
	struct bio *clone = bio->bi_private;

	if (bio->bi_status) {
		bds_member_error(p->sc, p->member, bio);
		/* As bio_chain_endio(): the first error wins. */
		if (!clone->bi_status)
			clone->bi_status = bio->bi_status;
	}
	bio_put(bio);
	bio_endio(clone);
}

static void bds_free_pieces(struct bds_piece *first)
{
	struct bds_piece *p = first, *next;

	do {
		next = p->next;
		bio_put(&p->bio);
		p = next;
	} while (p != first);
}

/*
 * The stripe units a piece for member @m carries of [@start, @end), which
 * spans @nr_units units from slot @pos0 on (@i: the piece's place when
 * the layout has no weights), one more for a partial last unit.
 */
static u64 bds_units_on(const struct bds_layout *l, u64 start, u64 end,
			u32 m, u64 nr_units, u32 i)
{
	u64 mstart, mend;
	u32 rem;

	if (!l->slot)
		return bds_piece_units(l, nr_units, i);
	bds_member_range(l, start, end, m, &mstart, &mend);
	return bds_div(mend - mstart, l->chunk, &rem) + 2;
}

/*
 * Allocate one piece per member that the @nr_units stripe units of @bio,
 * from @start at slot @pos0 on, touch: a ring in the order the units first
 * reach them.  Without weights (@weighted false) that is position order,
 * and the ring gives the piece of every next unit; with weights
 * @by_member (one entry per member, in the clone's per-bio data) does.
 * *@nr_pieces: how many.  Never sleeps: when memory
 * is short the caller sends the first stripe unit alone, through
 * device-mapper's own mempools, which always make progress.
 */
static __always_inline struct bds_piece *
__bds_alloc_pieces(struct bds_ctx *sc, struct bio *bio, u64 start, u32 pos0,
		   u64 nr_units, struct bds_piece **by_member, u32 *nr_pieces,
		   bool weighted)
{
	const struct bds_layout *l = &sc->layout;
	struct bds_piece *first = NULL, *last = NULL, *p;
	unsigned int nr_bvecs = 0, nr_vecs;
	struct bvec_iter iter;
	struct bio_vec bv;
	struct bio *pb;
	u32 i, n, m, s = pos0, pieces = 0;

	bio_for_each_bvec(bv, bio, iter)
		nr_bvecs++;

	if (weighted)
		memset(by_member, 0, l->nr_members * sizeof(*by_member));
	n = min_t(u64, nr_units, l->nr_slots);
	for (i = 0; i < n; i++, s = s + 1 == l->nr_slots ? 0 : s + 1) {
		if (weighted) {
			m = bds_slot_member(l, s);
			if (by_member[m])
				continue;
		} else {
			m = l->order[s];
		}
		/* A unit boundary may split a bvec: one more per unit. */
		nr_vecs = nr_bvecs;
		if (weighted)
			nr_vecs += bds_units_on(l, start, start + bio_sectors(bio),
						m, nr_units, i);
		else
			nr_vecs += bds_piece_units(l, nr_units, i);
		pb = bio_alloc_bioset(sc->members[m].dev->bdev,
				      min_t(unsigned int, nr_vecs, BIO_MAX_VECS),
				      bio->bi_opf, GFP_NOWAIT | __GFP_NOWARN,
				      &sc->pieces);
		if (!pb)
			break;
		p = container_of(pb, struct bds_piece, bio);
		p->sc = sc;
		p->member = m;
		if (weighted)
			by_member[m] = p;
		if (last)
			last->next = p;
		else
			first = p;
		last = p;
		pieces++;
	}
	if (!first)
		return NULL;
	last->next = first;
	if (i < n) {
		bds_free_pieces(first);
		return NULL;
	}
	*nr_pieces = pieces;
	return first;
}

static struct bds_piece *bds_alloc_pieces(struct bds_ctx *sc, struct bio *bio,
					  u32 pos0, u64 nr_units,
					  u32 *nr_pieces)
{
	return __bds_alloc_pieces(sc, bio, 0, pos0, nr_units, NULL, nr_pieces,
				  false);
}

static struct bds_piece *
bds_alloc_pieces_weighted(struct bds_ctx *sc, struct bio *bio, u64 start,
			  u32 pos0, u64 nr_units, struct bds_piece **by_member,
			  u32 *nr_pieces)
{
	return __bds_alloc_pieces(sc, bio, start, pos0, nr_units, by_member,
				  nr_pieces, true);
}

/* With weights, the piece of the stripe unit after the one at slot *@s. */
static struct bds_piece *bds_next_piece(const struct bds_layout *l,
					struct bds_piece **by_member, u32 *s)
{
	*s = *s + 1 == l->nr_slots ? 0 : *s + 1;
	return by_member[bds_slot_member(l, *s)];
}

/*
 * Gather the data of @bio into the pieces, one stripe unit after the
 * other, from piece @p; the first unit holds @first_unit_sectors of the
 * bio.  @weighted: @by_member gives the piece of each next unit, from
 * slot @s on; else the ring of pieces does.  Returns the number of sectors
 * gathered: all of @bio, or the whole stripe units before the first that
 * did not fit into its piece's bvecs (0 if that is the first).
 */
static __always_inline u32 __bds_fill_pieces(struct bds_ctx *sc,
					     struct bio *bio,
					     struct bds_piece *p,
					     struct bds_piece **by_member,
					     u32 s, u32 first_unit_sectors,
					     bool weighted)
{
	u32 unit = sc->layout.chunk << SECTOR_SHIFT;
	u32 left = first_unit_sectors << SECTOR_SHIFT;
	u32 done = 0, unit_len = left, off, len, n;
	/* The piece's state where the current unit began in it. */
	unsigned short vcnt = 0;
	unsigned int size = 0;
	struct bvec_iter iter;
	struct bio_vec bv;

	/* bv itself must stay intact: the iterator advances by its length. */
	bio_for_each_bvec(bv, bio, iter) {
		for (off = bv.bv_offset, len = bv.bv_len; len; len -= n) {
			if (p->bio.bi_vcnt == p->bio.bi_max_vecs) {
				p->bio.bi_vcnt = vcnt;
				p->bio.bi_iter.bi_size = size;
				return done >> SECTOR_SHIFT;
			}
			n = min(len, left);
			__bio_add_page(&p->bio, bv.bv_page, n, off);
			off += n;
			left -= n;
			if (!left) {
				done += unit_len;
				/* No next unit: with weights, maybe no piece. */
				if (weighted && done == bio->bi_iter.bi_size)
					return bio_sectors(bio);
				p = weighted ? bds_next_piece(&sc->layout, by_member, &s) :
					       p->next;
				vcnt = p->bio.bi_vcnt;
				size = p->bio.bi_iter.bi_size;
				left = unit;
				unit_len = unit;
			}
		}
	}
	return bio_sectors(bio);
}

/*
 * The two instances: the one without weights walks the ring and keeps
 * its inner loop as lean as before weights existed (icount: the generic
 * loop cost about 1 % more instructions per 1 MiB read).
 */
static u32 bds_fill_pieces(struct bds_ctx *sc, struct bio *bio,
			   struct bds_piece *p, u32 first_unit_sectors)
{
	return __bds_fill_pieces(sc, bio, p, NULL, 0, first_unit_sectors,
				 false);
}

static u32 bds_fill_pieces_weighted(struct bds_ctx *sc, struct bio *bio,
				    struct bds_piece *p,
				    struct bds_piece **by_member, u32 s,
				    u32 first_unit_sectors)
{
	return __bds_fill_pieces(sc, bio, p, by_member, s, first_unit_sectors,
				 true);
}

/* Send piece @p, which holds [@mstart, @mend) of its member. */
static void bds_submit_piece(struct bds_ctx *sc, struct bio *clone,
			     struct bds_piece *p, u64 mstart, u64 mend)
{
	struct bio *pb = &p->bio;

	if (WARN_ON_ONCE(pb->bi_iter.bi_size != (mend - mstart) << SECTOR_SHIFT)) {
		/* Cannot happen; never write data where it does not belong. */
		clone->bi_status = BLK_STS_IOERR;
		bio_put(pb);
		return;
	}
	pb->bi_iter.bi_sector = sc->members[p->member].offset + mstart;
	pb->bi_private = clone;
	pb->bi_end_io = bds_piece_end_io;
	bds_copy_hints(pb, clone);
	bio_clone_blkg_association(pb, clone);
	bds_account(sc, pb, p->member);
	bio_inc_remaining(clone);
	dm_submit_bio_remap(clone, pb);
}

/*
 * Send a read or write that spans several stripe units as one request per
 * member, carrying that member's units, instead of one request per unit.
 * A member's units of the bio are contiguous on the member, with weights
 * too: the member's units of a cycle are its next w_m units on the
 * member, in slot order, and cycles follow one another.  @start is the bio's first sector in the
 * target, @left the sectors of its first unit.  Returns false when it
 * cannot; the caller then sends the first stripe unit alone and
 * device-mapper the rest later.
 */
static bool bds_map_pieces(struct bds_ctx *sc, struct bio *clone, u64 start,
			   u32 left)
{
	const struct bds_layout *l = &sc->layout;
	struct bds_piece **by_member = NULL;
	u64 nr_units, mstart, mend;
	struct bds_piece *p, *next;
	u32 pos0, len, i, n;

	/*
	 * Polled bios must stay one bio; integrity data is per clone.  A
	 * REQ_NOWAIT piece of several units may exceed a member's limits,
	 * and blk-mq does not split a NOWAIT bio: it ends it "would block"
	 * while other pieces have written.  Those go unit by unit, as
	 * striped sends them.
	 */
	if ((bio_op(clone) != REQ_OP_READ && bio_op(clone) != REQ_OP_WRITE) ||
	    (clone->bi_opf & (REQ_POLLED | REQ_INTEGRITY | REQ_NOWAIT)))
		return false;

	if (sc->slots)
		by_member = dm_per_bio_data(clone, sc->ti->per_io_data_size);
	nr_units = bds_span(l, start, start + bio_sectors(clone), &pos0);
	if (by_member)
		p = bds_alloc_pieces_weighted(sc, clone, start, pos0, nr_units,
					      by_member, &n);
	else
		p = bds_alloc_pieces(sc, clone, pos0, nr_units, &n);
	if (!p)
		return false;
	if (by_member)
		len = bds_fill_pieces_weighted(sc, clone, p, by_member, pos0,
					       left);
	else
		len = bds_fill_pieces(sc, clone, p, left);
	if (!len) {
		bds_free_pieces(p);
		return false;
	}
	if (len < bio_sectors(clone))
		dm_accept_partial_bio(clone, len);

	for (i = 0; i < n; i++, p = next) {
		next = p->next;
		if (bds_member_range(l, start, start + len, p->member,
				     &mstart, &mend))
			bds_submit_piece(sc, clone, p, mstart, mend);
		else
			bio_put(&p->bio);	/* cut off by a partial accept */
	}
	/* Drop the reference the clone came with: the pieces hold it now. */
	bio_endio(clone);
	return true;
}

/* A read or write from volume sector @start, in the table's geometry. */
static int bds_map_rw(struct bds_ctx *sc, struct bio *bio, u64 start)
{
	u32 left = bds_chunk_left(&sc->layout, start);

	if (bio_sectors(bio) > left) {
		if (bds_fail_atomic_split(bio))
			return DM_MAPIO_SUBMITTED;
		if (bds_map_pieces(sc, bio, start, left))
			return DM_MAPIO_SUBMITTED;
		dm_accept_partial_bio(bio, left);
	}
	return bds_map_unit(sc, bio);
}

/*
 * Mid-restripe, send the range [@ps, @pe) of member @m of a discard,
 * write-zeroes or secure erase @clone as a bio of its own, beside the
 * clone: one clone goes to one range of its member, and a range that
 * crosses the boundary may lie in two places of it.
 */
static bool bds_send_range(struct bds_ctx *sc, struct bio *clone, u32 m,
			   u64 ps, u64 pe)
{
	gfp_t gfp = clone->bi_opf & REQ_NOWAIT ? GFP_NOWAIT : GFP_NOIO;
	struct bds_piece *p;
	struct bio *pb;

	pb = bio_alloc_bioset(sc->members[m].dev->bdev, 0, clone->bi_opf, gfp,
			      &sc->pieces);
	if (!pb)
		return false;
	p = container_of(pb, struct bds_piece, bio);
	p->sc = sc;
	p->member = m;
	pb->bi_iter.bi_sector = ps;
	pb->bi_iter.bi_size = (pe - ps) << SECTOR_SHIFT;
	pb->bi_private = clone;
	pb->bi_end_io = bds_piece_end_io;
	bds_copy_hints(pb, clone);
	bio_clone_blkg_association(pb, clone);
	bio_inc_remaining(clone);
	dm_submit_bio_remap(clone, pb);
	return true;
}

/*
 * Mid-restripe, narrow a discard, write-zeroes or secure-erase copy to
 * member @m's ranges: the part before the boundary of checkpoint @ckpt
 * in one geometry, the part from it on in the other.
 */
static int bds_map_range_restripe(struct bds_ctx *sc, struct bio *bio,
				  u64 start, u64 ckpt)
{
	const struct bds_restripe *rs = sc->rs;
	bool fwd = rs->r.dir == BDS_RESHAPE_FORWARD;
	const struct bds_geom *lo = fwd ? &rs->new : &rs->old;
	const struct bds_geom *hi = fwd ? &rs->old : &rs->new;
	u64 end = start + bio_sectors(bio), ps[2], pe[2];
	u64 edge = bds_reshape_boundary(&rs->r, ckpt);
	u32 m = dm_bio_get_target_bio_nr(bio);
	bool in_lo, in_hi;

	in_lo = start < edge &&
		bds_geom_member_range(lo, start, min(end, edge), m, &ps[0], &pe[0]);
	in_hi = end > edge &&
		bds_geom_member_range(hi, max(start, edge), end, m, &ps[1], &pe[1]);
	if (!in_lo && !in_hi) {
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}
	if (in_lo && in_hi && !bds_send_range(sc, bio, m, ps[1], pe[1])) {
		bio->bi_status = BLK_STS_AGAIN;
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}
	bds_to_member(sc, bio, m);
	bio->bi_iter.bi_sector = in_lo ? ps[0] : ps[1];
	bio->bi_iter.bi_size = (in_lo ? pe[0] - ps[0] : pe[1] - ps[1]) << SECTOR_SHIFT;
	return DM_MAPIO_REMAPPED;
}

static struct bds_rs_io *bds_rs_io(struct bds_ctx *sc, struct bio *bio)
{
	char *data = dm_per_bio_data(bio, sc->ti->per_io_data_size);

	return (struct bds_rs_io *)(data + sc->rs->io_at);
}

static bool bds_is_range_op(struct bio *bio)
{
	return bio_op(bio) == REQ_OP_DISCARD ||
	       bio_op(bio) == REQ_OP_SECURE_ERASE ||
	       bio_op(bio) == REQ_OP_WRITE_ZEROES;
}

/*
 * How many sectors of @bio from volume sector @start on the target maps
 * as one while the checkpoint is @ckpt: a range operation whole, a read
 * or write up to the boundary in the new geometry and up to the end of
 * its stripe unit in the old one.
 */
static u64 bds_restripe_len(const struct bds_restripe *rs, struct bio *bio,
			    u64 start, u64 ckpt)
{
	u64 left;

	if (bds_is_range_op(bio))
		return bio_sectors(bio);
	if (bds_reshape_geom_of(&rs->r, ckpt, start, &left) == &rs->old)
		left = bds_chunk_left(&rs->old.layout, start);
	return left;
}

/* Does a band from the checkpoint to @edge meet the units [@u0, @u1)? */
static bool bds_in_band(u64 ckpt, u64 edge, u64 u0, u64 u1)
{
	return u0 < max(ckpt, edge) && u1 > min(ckpt, edge);
}

/* Under rs->lock: must @bio, from volume sector @start, wait? */
static bool bds_must_wait(const struct bds_restripe *rs, struct bio *bio,
			  u64 start)
{
	const struct bds_layout *l = &rs->new.layout;
	u64 ckpt = rs->args.checkpoint, u0, u1;
	u32 in;

	if (rs->hold == ckpt && rs->closing == ckpt)
		return false;
	u0 = bds_chunk_of(l, start, &in);
	u1 = bds_chunk_of(l, start + max(bio_sectors(bio), 1U) - 1, &in) + 1;
	return bds_in_band(ckpt, rs->closing, u0, u1) ||
	       (op_is_write(bio_op(bio)) && bds_in_band(ckpt, rs->hold, u0, u1));
}

/*
 * Mid-restripe, admit @bio: cut it where its geometry or old stripe unit
 * ends (only when it is first mapped: a held bio was cut then), then
 * hold it, or count it in the current epoch.  *@ckpt gets the checkpoint
 * it is mapped by, which cannot pass it before it ends (bds_quiesce()).
 * Returns DM_MAPIO_REMAPPED when the caller maps it on.
 */
static int bds_admit(struct bds_ctx *sc, struct bio *bio, bool first,
		     u64 start, u64 *ckpt)
{
	struct bds_restripe *rs = sc->rs;
	struct bds_rs_io *io = bds_rs_io(sc, bio);
	unsigned long flags;
	u64 len;

	io->counted = false;
	spin_lock_irqsave(&rs->lock, flags);
	*ckpt = rs->args.checkpoint;
	len = bds_restripe_len(rs, bio, start, *ckpt);
	if (bio_sectors(bio) > len) {
		if (!first || bds_bio_atomic(bio)) {
			spin_unlock_irqrestore(&rs->lock, flags);
			/* a held bio was cut to fit: never here */
			if (WARN_ON_ONCE(!first))
				bio_io_error(bio);
			else
				bds_fail_atomic_split(bio);
			return DM_MAPIO_SUBMITTED;
		}
		dm_accept_partial_bio(bio, len);
	}
	if (bds_must_wait(rs, bio, start)) {
		if (bio->bi_opf & REQ_NOWAIT) {
			spin_unlock_irqrestore(&rs->lock, flags);
			bio->bi_status = BLK_STS_AGAIN;
			bio_endio(bio);
			return DM_MAPIO_SUBMITTED;
		}
		bio_list_add(&rs->held, bio);
		rs->nr_held++;
		spin_unlock_irqrestore(&rs->lock, flags);
		return DM_MAPIO_SUBMITTED;
	}
	io->counted = true;
	io->epoch = rs->epoch;
	atomic_inc(&rs->inflight[io->epoch]);
	spin_unlock_irqrestore(&rs->lock, flags);
	return DM_MAPIO_REMAPPED;
}

/*
 * Mid-restripe: a read or write is cut where the geometries meet; its
 * part in the new geometry goes the usual way, a part in the old one
 * unit by unit.  @first: from dm's map, not a held bio let go.
 */
static int bds_map_restripe(struct bds_ctx *sc, struct bio *bio, bool first)
{
	const struct bds_restripe *rs = sc->rs;
	u64 start = dm_target_offset(sc->ti, bio->bi_iter.bi_sector), left, ps;
	const struct bds_geom *g;
	u64 ckpt;
	u32 m;
	int r;

	r = bds_admit(sc, bio, first, start, &ckpt);
	if (r != DM_MAPIO_REMAPPED)
		return r;
	if (bds_is_range_op(bio))
		return bds_map_range_restripe(sc, bio, start, ckpt);
	g = bds_reshape_geom_of(&rs->r, ckpt, start, &left);
	if (g == &rs->new)
		return bds_map_rw(sc, bio, start);
	bds_geom_map(g, start, &m, &ps);
	bds_to_member(sc, bio, m);
	bio->bi_iter.bi_sector = ps;
	bds_account(sc, bio, m);
	return DM_MAPIO_REMAPPED;
}

/* Map again, and send, the held bios of @list that may go now. */
static void bds_release(struct bds_ctx *sc, struct bio_list *list)
{
	struct bio *bio;

	while ((bio = bio_list_pop(list))) {
		if (bds_map_restripe(sc, bio, false) == DM_MAPIO_REMAPPED)
			dm_submit_bio_remap(bio, NULL);
	}
}

/* Under rs->lock: move the held bios that need not wait any more to @out. */
static void bds_take_released(struct bds_ctx *sc, struct bio_list *out)
{
	struct bds_restripe *rs = sc->rs;
	struct bio_list still = BIO_EMPTY_LIST;
	struct bio *bio;
	u64 start;

	while ((bio = bio_list_pop(&rs->held))) {
		start = dm_target_offset(sc->ti, bio->bi_iter.bi_sector);
		if (bds_must_wait(rs, bio, start)) {
			bio_list_add(&still, bio);
		} else {
			bio_list_add(out, bio);
			rs->nr_held--;
		}
	}
	rs->held = still;
}

/* Set both bands' edges, and let go of the held bios that may go. */
static void bds_set_bands(struct bds_ctx *sc, u64 hold, u64 closing)
{
	struct bds_restripe *rs = sc->rs;
	struct bio_list out = BIO_EMPTY_LIST;

	spin_lock_irq(&rs->lock);
	rs->hold = hold;
	rs->closing = closing;
	bds_take_released(sc, &out);
	spin_unlock_irq(&rs->lock);
	bds_release(sc, &out);
}

/*
 * Wait until every I/O admitted before now has ended: those of the
 * other epoch (left by a wait that was killed), then those of this one,
 * after new ones go to the other.  Called with msg_lock held.
 */
static int bds_quiesce(struct bds_restripe *rs)
{
	unsigned int e = rs->epoch;

	if (wait_event_killable(rs->drained, !atomic_read(&rs->inflight[!e])))
		return -EINTR;
	spin_lock_irq(&rs->lock);
	rs->epoch = !e;
	spin_unlock_irq(&rs->lock);
	if (wait_event_killable(rs->drained, !atomic_read(&rs->inflight[e])))
		return -EINTR;
	return 0;
}

/* Is @x between @a and @b, both included, whichever is larger? */
static bool bds_between(u64 x, u64 a, u64 b)
{
	return x >= min(a, b) && x <= max(a, b);
}

/*
 * "reshape hold <end>": from now on, writes to the units between the
 * checkpoint and @end wait; held writes outside go to their old places.
 * Returns once every I/O sent before has ended, so that the copier reads
 * what the last acknowledged writes left.  Only as far as the frontier:
 * the copy of a held band never lands on data not yet copied.
 */
static int bds_msg_hold(struct bds_ctx *sc, u64 end)
{
	struct bds_restripe *rs = sc->rs;
	u64 ckpt = rs->args.checkpoint;
	int r;

	if (rs->suspended) {
		DMERR("%s", BDS_MSG_MESSAGE_SUSPENDED);
		return -EBUSY;
	}
	if (!bds_between(end, ckpt, bds_reshape_frontier(&rs->r, ckpt))) {
		DMERR("hold %llu: checkpoint %llu, frontier %llu", end, ckpt,
		      bds_reshape_frontier(&rs->r, ckpt));
		DMERR("%s", BDS_MSG_MESSAGE_FRONTIER);
		return -ERANGE;
	}
	bds_set_bands(sc, end, ckpt);
	r = bds_quiesce(rs);
	if (r)	/* the copier is gone: nothing waits for it */
		bds_set_bands(sc, ckpt, ckpt);
	return r;
}

/*
 * "reshape checkpoint <b>": the units between the checkpoint and @b,
 * all held, are in the new geometry from now on.  Every I/O to them
 * waits while those sent to their old places end; then they all go to
 * the new ones.  The copier sends it once every member's labels say @b.
 */
static int bds_msg_checkpoint(struct bds_ctx *sc, u64 b)
{
	struct bds_restripe *rs = sc->rs;
	u64 ckpt = rs->args.checkpoint;
	int r;

	if (b == ckpt)
		return 0;
	if (!bds_between(b, ckpt, rs->hold)) {
		DMERR("checkpoint %llu: checkpoint %llu, held up to %llu", b,
		      ckpt, rs->hold);
		DMERR("%s", BDS_MSG_MESSAGE_UNHELD);
		return -ERANGE;
	}
	bds_set_bands(sc, rs->hold, b);
	r = bds_quiesce(rs);
	spin_lock_irq(&rs->lock);
	if (!r)
		rs->args.checkpoint = b;
	spin_unlock_irq(&rs->lock);
	bds_set_bands(sc, r ? ckpt : rs->hold, rs->args.checkpoint);
	return r;
}

static int bds_message(struct dm_target *ti, unsigned int argc, char **argv,
		       char *result, unsigned int maxlen)
{
	struct bds_ctx *sc = ti->private;
	struct bds_restripe *rs = sc->rs;
	struct bds_message msg;
	const char *why;
	unsigned int sz = 0;
	int r = 0;

	why = bds_parse_message(argc, argv, &msg);
	if (!why && !rs)
		why = BDS_MSG_MESSAGE_NO_RESHAPE;
	if (why) {
		DMERR("%s", why);
		return -EINVAL;
	}
	mutex_lock(&rs->msg_lock);
	switch (msg.verb) {
	case BDS_MSG_HOLD:
		r = bds_msg_hold(sc, msg.unit);
		break;
	case BDS_MSG_CHECKPOINT:
		r = bds_msg_checkpoint(sc, msg.unit);
		break;
	case BDS_MSG_STATUS:
		spin_lock_irq(&rs->lock);
		DMEMIT("checkpoint %llu hold %llu held %u",
		       rs->args.checkpoint, rs->hold, rs->nr_held);
		spin_unlock_irq(&rs->lock);
		r = 1;
		break;
	}
	mutex_unlock(&rs->msg_lock);
	return r;
}

/*
 * A held write let go before the checkpoint passes it goes to its old
 * place, where the target maps it, and here to its new place as well:
 * the copier may have written a checkpoint past it into every label and
 * not told the target yet, and after a power cut assembly would read
 * the new place.  (F)/(B) keep the new places of the held band clear of
 * data not yet copied.
 */
static void bds_mirror_to_new(struct bds_ctx *sc, struct bio *bio)
{
	const struct bds_restripe *rs = sc->rs;
	u64 start = dm_target_offset(sc->ti, bio->bi_iter.bi_sector), ps, pe;
	struct bds_piece *p;
	struct bio *clone;
	u32 m;

	if (!op_is_write(bio_op(bio)))
		return;
	if (bds_is_range_op(bio)) {
		m = dm_bio_get_target_bio_nr(bio);
		if (bds_geom_member_range(&rs->new, start,
					  start + bio_sectors(bio), m, &ps, &pe) &&
		    !bds_send_range(sc, bio, m, ps, pe))
			DMERR_LIMIT("member %u: no bio for a held range's new place", m);
		return;
	}
	/* a held read or write lies within one stripe unit */
	bds_geom_map(&rs->new, start, &m, &ps);
	clone = bio_alloc_clone(sc->members[m].dev->bdev, bio, GFP_NOIO,
				&sc->pieces);
	if (!clone) {
		/* not with GFP_NOIO from the bio set's reserve; say so if ever */
		DMERR_LIMIT("member %u: no bio for a held write's new place", m);
		return;
	}
	p = container_of(clone, struct bds_piece, bio);
	p->sc = sc;
	p->member = m;
	clone->bi_iter.bi_sector = ps;
	clone->bi_private = bio;
	clone->bi_end_io = bds_piece_end_io;
	bio_inc_remaining(bio);
	dm_submit_bio_remap(bio, clone);
}

/*
 * dm waits for every bio it sent us before a suspend completes: let the
 * held ones go, to their old places (and their new ones:
 * bds_mirror_to_new()), and hold nothing until resume.  A copy under
 * way must hold again, and copy again what it had copied.
 */
static void bds_presuspend(struct dm_target *ti)
{
	struct bds_ctx *sc = ti->private;
	struct bds_restripe *rs = sc->rs;
	struct bio_list out = BIO_EMPTY_LIST;
	struct bio *bio;

	if (!rs)
		return;
	mutex_lock(&rs->msg_lock);
	rs->suspended = true;
	spin_lock_irq(&rs->lock);
	rs->hold = rs->args.checkpoint;
	rs->closing = rs->args.checkpoint;
	bds_take_released(sc, &out);
	spin_unlock_irq(&rs->lock);
	bio_list_for_each(bio, &out)
		bds_mirror_to_new(sc, bio);
	bds_release(sc, &out);
	mutex_unlock(&rs->msg_lock);
}

/*
 * A suspend that failed after bds_presuspend() (interrupted while dm
 * waited for I/O in flight): the device goes on unsuspended, so the
 * copier may hold again, as after a resume.  What presuspend let go
 * stays let go: the copier finds its band dropped and copies it again.
 */
static void bds_presuspend_undo(struct dm_target *ti)
{
	struct bds_ctx *sc = ti->private;

	if (!sc->rs)
		return;
	mutex_lock(&sc->rs->msg_lock);
	sc->rs->suspended = false;
	mutex_unlock(&sc->rs->msg_lock);
}

/*
 * A table event at every resume: a table that replaced another (a
 * restripe's start or end, a member replaced) wakes those that wait for
 * the volume's events (bdsadm monitor), which device-mapper's table swap
 * alone does not.
 */
static void bds_resume(struct dm_target *ti)
{
	struct bds_ctx *sc = ti->private;

	if (sc->rs) {
		mutex_lock(&sc->rs->msg_lock);
		sc->rs->suspended = false;
		mutex_unlock(&sc->rs->msg_lock);
	}
	schedule_work(&sc->trigger_event);
}

static int bds_map(struct dm_target *ti, struct bio *bio)
{
	struct bds_ctx *sc = ti->private;

	bds_io(sc, bio)->member = BDS_IO_PIECES;
	if (bio->bi_opf & REQ_PREFLUSH) {
		if (sc->rs)
			bds_rs_io(sc, bio)->counted = false;
		/* An empty flush: dm sends one copy per member. */
		bds_to_member(sc, bio, dm_bio_get_target_bio_nr(bio));
		return DM_MAPIO_REMAPPED;
	}
	if (sc->rs)
		return bds_map_restripe(sc, bio, true);

	switch (bio_op(bio)) {
	case REQ_OP_DISCARD:
	case REQ_OP_SECURE_ERASE:
	case REQ_OP_WRITE_ZEROES:
		return bds_map_range(sc, bio);
	default:
		break;
	}
	return bds_map_rw(sc, bio, dm_target_offset(ti, bio->bi_iter.bi_sector));
}

static int bds_end_io(struct dm_target *ti, struct bio *bio,
		      blk_status_t *error)
{
	struct bds_ctx *sc = ti->private;
	struct bds_rs_io *io;
	u32 m;

	if (sc->rs) {
		io = bds_rs_io(sc, bio);
		if (io->counted &&
		    atomic_dec_and_test(&sc->rs->inflight[io->epoch]))
			wake_up(&sc->rs->drained);
	}
	if (!*error)
		return DM_ENDIO_DONE;

	/* the members of a clone sent as pieces: bds_piece_end_io() */
	m = bds_io(sc, bio)->member;
	if (m != BDS_IO_PIECES)
		bds_member_error(sc, m, bio);
	return DM_ENDIO_DONE;
}

static const char *bds_layout_word(const struct bds_layout *l)
{
	return l->mode == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave";
}

static void bds_sum_stats(struct bds_ctx *sc, u32 g, struct bds_group_sum *sum)
{
	struct bds_group_sum one;
	unsigned int start;
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		struct bds_group_stats *st = per_cpu_ptr(sc->stats + g, cpu);

		do {
			start = u64_stats_fetch_begin(&st->syncp);
			one.reads = u64_stats_read(&st->reads);
			one.writes = u64_stats_read(&st->writes);
			one.read_sectors = u64_stats_read(&st->read_sectors);
			one.write_sectors = u64_stats_read(&st->write_sectors);
		} while (u64_stats_fetch_retry(&st->syncp, start));
		sum->reads += one.reads;
		sum->writes += one.writes;
		sum->read_sectors += one.read_sectors;
		sum->write_sectors += one.write_sectors;
	}
}

/* @key, then the weights in table order separated by @sep. */
static void bds_emit_weights(const struct bds_layout *l, const char *key,
			     const char *sep, char *result, unsigned int maxlen,
			     unsigned int *szp)
{
	unsigned int sz = *szp, m;

	DMEMIT("%s", key);
	for (m = 0; m < l->nr_members; m++)
		DMEMIT("%s%u", m ? sep : "", bds_weight(l, m));
	*szp = sz;
}

/* Member @m's words for the table text: "MAJ:MIN" and its offset. */
static const char *bds_member_dev(const void *ctx, u32 m)
{
	const struct bds_ctx *sc = ctx;

	return sc->members[m].dev->name;
}

static u64 bds_member_offset(const void *ctx, u32 m)
{
	const struct bds_ctx *sc = ctx;

	return sc->members[m].offset;
}

static void bds_status(struct dm_target *ti, status_type_t type,
		       unsigned int status_flags, char *result,
		       unsigned int maxlen)
{
	struct bds_ctx *sc = ti->private;
	struct bds_layout *l = &sc->layout;
	const struct bds_table_members members = {
		.dev = bds_member_dev, .offset = bds_member_offset, .ctx = sc,
	};
	struct bds_group_sum sum;
	unsigned int sz = 0, m, g;

	switch (type) {
	case STATUSTYPE_INFO:
		DMEMIT("%u ", l->nr_members);
		for (m = 0; m < l->nr_members; m++)
			DMEMIT("%c", atomic_read(&sc->members[m].errors) ?
			       'D' : 'A');
		DMEMIT(" %s ", bds_layout_word(l));
		for (m = 0; m < l->nr_slots; m++)
			DMEMIT("%s%u", m ? "," : "", bds_slot_member(l, m));
		DMEMIT(" %u", l->nr_groups);
		for (g = 0; g < l->nr_groups; g++) {
			bds_sum_stats(sc, g, &sum);
			DMEMIT(" %llu %llu %llu %llu", sum.reads, sum.writes,
			       sum.read_sectors, sum.write_sectors);
		}
		/* Since 1.3.0, last so that positional readers still work. */
		for (m = 0; m < l->nr_members; m++)
			DMEMIT("%c%u", m ? ',' : ' ',
			       (unsigned int)atomic_read(&sc->members[m].errors));
		break;

	case STATUSTYPE_TABLE:
		/* the tools write tables with the same code (libbds/table.c) */
		if (sz < maxlen) {
			bds_table_write(result + sz, maxlen - sz, &sc->table,
					&members);
			sz += strnlen(result + sz, maxlen - sz);
		}
		break;

	case STATUSTYPE_IMA:
		/*
		 * dm-ima keeps about 2 KiB of each target's data: one key per
		 * list rather than keys per member, so that a table of 128
		 * members is measured whole.
		 */
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",chunk_sectors=%u,groups=%u,layout=%s,member_count=%u",
		       l->chunk, l->nr_groups, bds_layout_word(l),
		       l->nr_members);
		DMEMIT(",group_sizes=");
		for (g = 0; g < l->nr_groups; g++)
			DMEMIT("%s%u", g ? "+" : "", l->group_size[g]);
		DMEMIT(",member_devices=");
		for (m = 0; m < l->nr_members; m++)
			DMEMIT("%s%s", m ? "+" : "", sc->members[m].dev->name);
		DMEMIT(",member_physical_starts=");
		for (m = 0; m < l->nr_members; m++)
			DMEMIT("%s%llu", m ? "+" : "",
			       (u64)sc->members[m].offset);
		DMEMIT(",member_health=");
		for (m = 0; m < l->nr_members; m++)
			DMEMIT("%c", atomic_read(&sc->members[m].errors) ?
			       'D' : 'A');
		if (sc->table.volume_given)
			DMEMIT(",volume_uuid=%pUb", sc->table.volume_uuid);
		if (sc->slots)
			bds_emit_weights(l, ",weights=", "+", result, maxlen, &sz);
		DMEMIT(";");
		break;
	}
}

static int bds_iterate_devices(struct dm_target *ti,
			       iterate_devices_callout_fn fn, void *data)
{
	struct bds_ctx *sc = ti->private;
	unsigned int m;
	int r = 0;

	u64 start, end;
	u32 i;

	for (m = 0; !r && m < sc->layout.nr_members; m++) {
		start = sc->members[m].offset;
		end = start + bds_member_sectors(&sc->layout, sc->member_len, m);
		/* mid-restripe, a member's old data may lie elsewhere */
		i = sc->rs ? sc->rs->old.index[m] : BDS_GEOM_NONE;
		if (i != BDS_GEOM_NONE) {
			start = min(start, sc->rs->old.offset[i]);
			end = max(end, sc->rs->old.offset[i] +
				  bds_geom_member_units(&sc->rs->old, i) *
				  sc->layout.chunk);
		}
		r = fn(ti, sc->members[m].dev, start, end - start, data);
	}
	return r;
}

static void bds_io_hints(struct dm_target *ti, struct queue_limits *limits)
{
	struct bds_ctx *sc = ti->private;
	u32 unit = sc->layout.chunk << SECTOR_SHIFT;

	/*
	 * Both fit 32 bits: bds_layout_init() and bds_weights_check()
	 * refused any larger.  A full cycle (a stripe without weights) is
	 * the transfer that keeps every member busy for its share.
	 */
	limits->io_min = unit;
	/* mid-restripe, the volume is the old geometry's length and file system */
	limits->io_opt = unit * (sc->rs ? sc->rs->old.layout.nr_slots :
				 sc->layout.nr_slots);
	/*
	 * Also what keeps atomic writes within one stripe unit: the block
	 * layer caps the atomic unit at the largest power of two dividing
	 * chunk_sectors, and the writes are aligned to their size.
	 */
	limits->chunk_sectors = sc->layout.chunk;
	bds_raise_discard_limit(limits, &sc->layout);
}

static struct target_type bds_target = {
	.name = "bds-stripe",
	.version = { 1, 10, 0 },
	.features = DM_TARGET_PASSES_INTEGRITY | DM_TARGET_NOWAIT |
		    BDS_TARGET_ATOMIC_WRITES,
	.module = THIS_MODULE,
	.ctr = bds_ctr,
	.dtr = bds_dtr,
	.map = bds_map,
	.end_io = bds_end_io,
	.presuspend = bds_presuspend,
	.presuspend_undo = bds_presuspend_undo,
	.resume = bds_resume,
	.status = bds_status,
	.message = bds_message,
	.iterate_devices = bds_iterate_devices,
	.io_hints = bds_io_hints,
};

static int __init dm_bds_stripe_init(void)
{
	return dm_register_target(&bds_target);
}

static void __exit dm_bds_stripe_exit(void)
{
	dm_unregister_target(&bds_target);
}

module_init(dm_bds_stripe_init);
module_exit(dm_bds_stripe_exit);

MODULE_DESCRIPTION(DM_NAME " controller-aware striping target");
MODULE_AUTHOR("The bds-stripe authors");
MODULE_LICENSE("GPL");
