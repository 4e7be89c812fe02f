/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-bds-stripe: the target's own structures, and the one place where
 * the kernel versions it builds for differ (below).  What the target
 * shares with the tools (the layout, the table's words, the member
 * label) is libbds/, compiled into the module.
 */
#ifndef DM_BDS_STRIPE_H
#define DM_BDS_STRIPE_H

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/device-mapper.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "libbds/label.h"
#include "libbds/layout.h"
#include "libbds/table.h"

/* Raise a table event for the first few errors of a member, as striped. */
#define BDS_ERROR_EVENTS	15

/*
 * Compatibility with older kernels goes here, and only here.  Most
 * interfaces the target uses are the same from 6.1 on (io_min, io_opt and
 * chunk_sectors are plain queue_limits fields, dm_table_get_mode() hides
 * the fmode_t -> blk_mode_t change of 6.5).  What differs is which
 * per-bio hints a bio carries, and a member piece must keep them.  Kbuild
 * probes the headers for them:
 *   BDS_HAVE_BI_WRITE_HINT: 6.9, "block, fs: restore the per-bio/request
 *     data lifetime fields", brought back bio->bi_write_hint;
 *   BDS_HAVE_BI_WRITE_STREAM: 6.16, "block: add a bi_write_stream field".
 * Atomic writes (REQ_ATOMIC) reach a target only when it says it takes
 * them:
 *   BDS_HAVE_ATOMIC_WRITES: 6.14, "dm-table: atomic writes support",
 *     added DM_TARGET_ATOMIC_WRITES.
 * A queue's max_discard_sectors is derived from max_hw_discard_sectors
 * when its limits are committed, so io_hints can raise the latter:
 *   BDS_HAVE_USER_DISCARD_LIMIT: 6.9, "block: add a
 *     max_user_discard_sectors queue limit" (6.1 keeps the two apart).
 * The labels' CRC-32C is libbds/crc32c.c's own table code on every
 * kernel: the kernel's crc32c() comes from the libcrc32c module on 6.1
 * and 6.12 (<linux/crc32c.h>) and from the crc32 library on 7.2
 * (<linux/crc32.h>), a dependency that differs per kernel for a few
 * checksums per table load.
 */
#ifdef BDS_HAVE_ATOMIC_WRITES
#define BDS_TARGET_ATOMIC_WRITES	DM_TARGET_ATOMIC_WRITES

/*
 * An atomic write must reach one member whole: never split one.  It can
 * only span stripe units when the target does not start on a unit
 * boundary of the device (a table of several targets).  Fail it as the
 * block layer fails an atomic write it cannot take.
 */
static inline bool bds_bio_atomic(const struct bio *bio)
{
	return bio->bi_opf & REQ_ATOMIC;
}

static inline bool bds_fail_atomic_split(struct bio *bio)
{
	if (!bds_bio_atomic(bio))
		return false;
	bio->bi_status = BLK_STS_INVAL;
	bio_endio(bio);
	return true;
}
#else
#define BDS_TARGET_ATOMIC_WRITES	0
static inline bool bds_bio_atomic(const struct bio *bio)
{
	return false;
}

static inline bool bds_fail_atomic_split(struct bio *bio)
{
	return false;
}
#endif

/*
 * Let one discard give each member as much as it takes (see
 * bds_discard_limit()), as striped does on 7.x; only where the raise
 * takes effect.
 */
static inline void bds_raise_discard_limit(struct queue_limits *limits,
					   const struct bds_layout *l)
{
#ifdef BDS_HAVE_USER_DISCARD_LIMIT
	limits->max_hw_discard_sectors =
		bds_discard_limit(l, limits->max_hw_discard_sectors);
#endif
}

static inline void bds_copy_hints(struct bio *to, const struct bio *from)
{
	to->bi_ioprio = from->bi_ioprio;
#ifdef BDS_HAVE_BI_WRITE_HINT
	to->bi_write_hint = from->bi_write_hint;
#endif
#ifdef BDS_HAVE_BI_WRITE_STREAM
	to->bi_write_stream = from->bi_write_stream;
#endif
}

struct bds_member {
	struct dm_dev *dev;
	sector_t offset;
	atomic_t errors;
};

/*
 * Per-CPU, per-group I/O counters, summed for "dmsetup status".  The
 * u64_stats sequence makes a 32-bit kernel's reader retry rather than see
 * half of a 64-bit count; on 64-bit kernels it is empty.
 */
struct bds_group_stats {
	u64_stats_t reads;
	u64_stats_t writes;
	u64_stats_t read_sectors;
	u64_stats_t write_sectors;
	struct u64_stats_sync syncp;
};

/* One group's counters summed over the CPUs. */
struct bds_group_sum {
	u64 reads;
	u64 writes;
	u64 read_sectors;
	u64 write_sectors;
};

/*
 * A volume mid-restripe (a table with "reshape"): the units behind the
 * checkpoint are mapped through the new geometry, the table's own, and
 * the others through the old one (Documentation/bds-stripe-restripe.rst).
 */
struct bds_restripe {
	struct bds_reshape_args args;	/* the words; args.checkpoint: where */
	struct bds_geom new;		/* the table's layout, offsets, new length */
	struct bds_geom old;
	struct bds_geom_slots old_slots;
	struct bds_reshape r;		/* old, new and the direction */
	u64 offset[BDS_MAX_MEMBERS];	/* scratch: the table's offsets */

	/*
	 * The copier's messages move args.checkpoint and the bands below;
	 * a band is the units between args.checkpoint and its edge (none
	 * when they are equal).  Writes to the held band wait, and every
	 * I/O to the closing band, while a checkpoint moves across it.
	 * The bios that wait are on @held.  Each I/O the target sends is
	 * counted in the epoch it was admitted in, so that a message can
	 * wait for those admitted before it (bds_quiesce()).
	 */
	spinlock_t lock;		/* the fields up to @epoch */
	u64 hold;			/* edge of the held band */
	u64 closing;			/* edge of the closing band */
	struct bio_list held;
	unsigned int nr_held;
	bool suspended;			/* from presuspend to resume: no hold */
	unsigned int epoch;
	atomic_t inflight[2];		/* per epoch */
	wait_queue_head_t drained;
	struct mutex msg_lock;		/* one message at a time */
	unsigned int io_at;		/* where struct bds_rs_io is per bio */
};

/* Per bio, mid-restripe: the epoch the bio was counted in, if it was. */
struct bds_rs_io {
	bool counted;
	u8 epoch;
};

/*
 * Per bio: the member a clone was sent to whole, or BDS_IO_PIECES when
 * it went as pieces (each counts its own errors).  Kept here, not read
 * back from bi_bdev: a bio-based member driver (md) may change that.
 */
#define BDS_IO_PIECES	U32_MAX
struct bds_io {
	u32 member;
};

struct bds_ctx {
	struct dm_target *ti;
	struct bds_layout layout;
	struct bds_slot *slots;		/* a weighted layout's W slots, or NULL */
	sector_t member_len;		/* sectors of a member of weight 1 */
	struct bds_group_stats __percpu *stats;
	struct work_struct trigger_event;
	struct bio_set pieces;
	/* the table's words as given (its "volume <uuid>": labels checked) */
	struct bds_args table;
	struct bds_restripe *rs;	/* NULL but mid-restripe */
	unsigned int io_member_at;	/* where struct bds_io is per bio */
	struct bds_member members[];
};

/*
 * A member's share of a read or write that spans several stripe units:
 * that member's stripe units of the bio, which are contiguous on the
 * member, gathered into one bio.  The pieces of one bio form a ring in
 * position order while they are built.
 */
struct bds_piece {
	struct bds_ctx *sc;
	struct bds_piece *next;
	u32 member;
	struct bio bio;		/* last: the bio_set's front_pad ends here */
};

#endif /* DM_BDS_STRIPE_H */
