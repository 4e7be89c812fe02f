// SPDX-License-Identifier: GPL-2.0
/*
 * dm-bds-stripe: a device-mapper target that stripes a volume over many
 * disks and lays the stripe units out so that consecutive units
 * alternate between the controllers the disks hang off.
 *
 * Table: <chunk_sectors> <#groups> <group>... [<#opt_args> <opt_arg>...]
 *        <group> = <#devs> (<dev_path> <offset>)...
 *
 * The layout arithmetic lives in dm-bds-stripe.h, shared with the tools
 * and the userspace tests; this file is the kernel glue.
 */
#include <linux/blkdev.h>
#include <linux/device-mapper.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "dm-bds-stripe.h"

#define DM_MSG_PREFIX "bds-stripe"

/* Raise a table event for the first few errors of a member, as striped. */
#define BDS_ERROR_EVENTS	15

/*
 * Compatibility with older kernels goes here, and only here.  The target
 * currently needs none: every interface it uses is the same in 6.1 and
 * 6.12 (io_min/io_opt/chunk_sectors are plain queue_limits fields there,
 * and dm_table_get_mode() hides the fmode_t -> blk_mode_t change of 6.5).
 */

struct bds_member {
	struct dm_dev *dev;
	sector_t offset;
	atomic_t errors;
};

/* Per-CPU, per-group I/O counters, summed for "dmsetup status". */
struct bds_group_stats {
	u64 reads;
	u64 writes;
	u64 read_sectors;
	u64 write_sectors;
};

struct bds_ctx {
	struct dm_target *ti;
	struct bds_layout layout;
	sector_t member_len;
	struct bds_group_stats __percpu *stats;
	struct work_struct trigger_event;
	struct bds_member members[];
};

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
	u64 offset;
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
	if (offset % lbs) {
		DMERR("member %u (%s): offset %llu, logical block size %u sectors",
		      m, mb->dev->name, offset, lbs);
		ti->error = "Member offset is not a multiple of the member's logical block size";
		return -EINVAL;
	}
	if (offset > bdev_nr_sectors(bdev) ||
	    sc->member_len > bdev_nr_sectors(bdev) - offset) {
		DMERR("member %u (%s): needs %llu + %llu sectors, has %llu",
		      m, mb->dev->name, offset, (u64)sc->member_len,
		      (u64)bdev_nr_sectors(bdev));
		ti->error = "Member device too small for offset + length / members";
		return -EINVAL;
	}
	return 0;
}

static void bds_put_members(struct bds_ctx *sc, unsigned int count)
{
	while (count--)
		dm_put_device(sc->ti, sc->members[count].dev);
}

static int bds_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct bds_args args;
	struct bds_layout layout;
	enum bds_geom_err gerr;
	const char *msg;
	struct bds_ctx *sc;
	unsigned int m, g, d, i;
	u64 member_len;
	int r;

	msg = bds_parse_table(&args, argc, argv);
	if (msg)
		return bds_refuse(&ti->error, msg);

	gerr = bds_layout_init(&layout, args.chunk, args.group_size,
			       args.nr_groups, args.mode);
	if (gerr != BDS_OK)
		return bds_refuse(&ti->error, bds_geom_error(gerr));
	if (!bds_member_len(&layout, ti->len, &member_len)) {
		ti->error = "Target length is not a multiple of the stripe width (chunk x members)";
		return -EINVAL;
	}

	sc = kzalloc(struct_size(sc, members, layout.nr_members), GFP_KERNEL);
	if (!sc) {
		ti->error = "Cannot allocate bds-stripe context";
		return -ENOMEM;
	}
	sc->ti = ti;
	sc->layout = layout;
	sc->member_len = member_len;
	INIT_WORK(&sc->trigger_event, bds_trigger_event);

	sc->stats = __alloc_percpu(sizeof(*sc->stats) * layout.nr_groups,
				   __alignof__(*sc->stats));
	if (!sc->stats) {
		ti->error = "Cannot allocate per-CPU counters";
		r = -ENOMEM;
		goto bad_stats;
	}

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

	r = dm_set_target_max_io_len(ti, layout.chunk);
	if (r) {
		ti->error = "Cannot set the maximum I/O length to the chunk size";
		goto bad_members;
	}

	ti->num_flush_bios = layout.nr_members;
	ti->num_discard_bios = layout.nr_members;
	ti->num_secure_erase_bios = layout.nr_members;
	ti->num_write_zeroes_bios = layout.nr_members;
	ti->private = sc;
	return 0;

bad_members:
	bds_put_members(sc, m);
	free_percpu(sc->stats);
bad_stats:
	kfree(sc);
	return r;
}

static void bds_dtr(struct dm_target *ti)
{
	struct bds_ctx *sc = ti->private;

	flush_work(&sc->trigger_event);
	bds_put_members(sc, sc->layout.nr_members);
	free_percpu(sc->stats);
	kfree(sc);
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
	bio_set_dev(bio, mb->dev->bdev);
	bio->bi_iter.bi_sector = mb->offset + mstart;
	bio->bi_iter.bi_size = (mend - mstart) << SECTOR_SHIFT;
	return DM_MAPIO_REMAPPED;
}

static void bds_account(struct bds_ctx *sc, struct bio *bio, u32 m)
{
	struct bds_group_stats __percpu *st =
		sc->stats + sc->layout.group_of[m];

	if (bio_op(bio) == REQ_OP_WRITE) {
		this_cpu_inc(st->writes);
		this_cpu_add(st->write_sectors, bio_sectors(bio));
	} else if (bio_op(bio) == REQ_OP_READ) {
		this_cpu_inc(st->reads);
		this_cpu_add(st->read_sectors, bio_sectors(bio));
	}
}

static int bds_map(struct dm_target *ti, struct bio *bio)
{
	struct bds_ctx *sc = ti->private;
	struct bds_member *mb;
	u64 msector;
	u32 m;

	if (bio->bi_opf & REQ_PREFLUSH) {
		/* An empty flush: dm sends one copy per member. */
		m = dm_bio_get_target_bio_nr(bio);
		bio_set_dev(bio, sc->members[m].dev->bdev);
		return DM_MAPIO_REMAPPED;
	}

	switch (bio_op(bio)) {
	case REQ_OP_DISCARD:
	case REQ_OP_SECURE_ERASE:
	case REQ_OP_WRITE_ZEROES:
		return bds_map_range(sc, bio);
	default:
		break;
	}

	/* dm splits every bio at stripe unit boundaries (max_io_len). */
	bds_map_sector(&sc->layout,
		       dm_target_offset(ti, bio->bi_iter.bi_sector),
		       &m, &msector);
	mb = &sc->members[m];
	bio_set_dev(bio, mb->dev->bdev);
	bio->bi_iter.bi_sector = mb->offset + msector;
	bds_account(sc, bio, m);
	return DM_MAPIO_REMAPPED;
}

static int bds_end_io(struct dm_target *ti, struct bio *bio,
		      blk_status_t *error)
{
	struct bds_ctx *sc = ti->private;
	unsigned int m;

	if (!*error || *error == BLK_STS_NOTSUPP)
		return DM_ENDIO_DONE;
	if (bio->bi_opf & REQ_RAHEAD)
		return DM_ENDIO_DONE;

	/* The clone was remapped: its device names the member. */
	for (m = 0; m < sc->layout.nr_members; m++) {
		if (sc->members[m].dev->bdev == bio->bi_bdev) {
			if (atomic_inc_return(&sc->members[m].errors) <=
			    BDS_ERROR_EVENTS)
				schedule_work(&sc->trigger_event);
			break;
		}
	}
	return DM_ENDIO_DONE;
}

static const char *bds_layout_word(const struct bds_layout *l)
{
	return l->mode == BDS_LAYOUT_SEQUENTIAL ? "sequential" : "interleave";
}

static void bds_sum_stats(struct bds_ctx *sc, u32 g,
			  struct bds_group_stats *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		struct bds_group_stats *st = per_cpu_ptr(sc->stats + g, cpu);

		sum->reads += READ_ONCE(st->reads);
		sum->writes += READ_ONCE(st->writes);
		sum->read_sectors += READ_ONCE(st->read_sectors);
		sum->write_sectors += READ_ONCE(st->write_sectors);
	}
}

static void bds_status(struct dm_target *ti, status_type_t type,
		       unsigned int status_flags, char *result,
		       unsigned int maxlen)
{
	struct bds_ctx *sc = ti->private;
	struct bds_layout *l = &sc->layout;
	struct bds_group_stats sum;
	unsigned int sz = 0, m, g;

	switch (type) {
	case STATUSTYPE_INFO:
		DMEMIT("%u ", l->nr_members);
		for (m = 0; m < l->nr_members; m++)
			DMEMIT("%c", atomic_read(&sc->members[m].errors) ?
			       'D' : 'A');
		DMEMIT(" %s ", bds_layout_word(l));
		for (m = 0; m < l->nr_members; m++)
			DMEMIT("%s%u", m ? "," : "", l->order[m]);
		DMEMIT(" %u", l->nr_groups);
		for (g = 0; g < l->nr_groups; g++) {
			bds_sum_stats(sc, g, &sum);
			DMEMIT(" %llu %llu %llu %llu", sum.reads, sum.writes,
			       sum.read_sectors, sum.write_sectors);
		}
		break;

	case STATUSTYPE_TABLE:
		DMEMIT("%u %u", l->chunk, l->nr_groups);
		for (m = 0, g = 0; g < l->nr_groups; g++) {
			DMEMIT(" %u", l->group_size[g]);
			for (; m < l->nr_members && l->group_of[m] == g; m++)
				DMEMIT(" %s %llu", sc->members[m].dev->name,
				       (u64)sc->members[m].offset);
		}
		if (l->mode != BDS_LAYOUT_INTERLEAVE)
			DMEMIT(" 2 layout %s", bds_layout_word(l));
		break;

	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",chunk_sectors=%u,groups=%u,layout=%s,member_count=%u",
		       l->chunk, l->nr_groups, bds_layout_word(l),
		       l->nr_members);
		for (m = 0; m < l->nr_members; m++) {
			struct bds_member *mb = &sc->members[m];

			DMEMIT(",member_%u_device_name=%s", m, mb->dev->name);
			DMEMIT(",member_%u_physical_start=%llu", m,
			       (u64)mb->offset);
			DMEMIT(",member_%u_group=%u", m, l->group_of[m]);
			DMEMIT(",member_%u_status=%c", m,
			       atomic_read(&mb->errors) ? 'D' : 'A');
		}
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

	for (m = 0; !r && m < sc->layout.nr_members; m++)
		r = fn(ti, sc->members[m].dev, sc->members[m].offset,
		       sc->member_len, data);
	return r;
}

static void bds_io_hints(struct dm_target *ti, struct queue_limits *limits)
{
	struct bds_ctx *sc = ti->private;
	u32 unit = sc->layout.chunk << SECTOR_SHIFT;

	/* Both fit 32 bits: bds_layout_init() refused any larger. */
	limits->io_min = unit;
	limits->io_opt = unit * sc->layout.nr_members;
	limits->chunk_sectors = sc->layout.chunk;
}

static struct target_type bds_target = {
	.name = "bds-stripe",
	.version = { 1, 0, 0 },
	.features = DM_TARGET_PASSES_INTEGRITY | DM_TARGET_NOWAIT,
	.module = THIS_MODULE,
	.ctr = bds_ctr,
	.dtr = bds_dtr,
	.map = bds_map,
	.end_io = bds_end_io,
	.status = bds_status,
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
