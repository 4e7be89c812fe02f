/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A labelled volume as device-mapper sees it: the table that the labels
 * describe (never the controllers as they are numbered now: the on-disk
 * layout is fixed at creation), and its dm UUID.
 */
#ifndef BDS_VOLUME_H
#define BDS_VOLUME_H

#include <stddef.h>

#include "../libbds/label.h"
#include "../libbds/table.h"
#include "dm.h"

/* The volume's length in sectors. */
u64 bds_volume_length(const struct bds_label *l);

/*
 * The bds-stripe parameters of volume @l, member i being the device
 * @devs[i] ("MAJ:MIN"), with "volume <uuid>" so that the kernel checks
 * every label.  Returns false if @buf is too small.
 */
bool bds_volume_params(const struct bds_label *l, const char *const *devs,
		       char *buf, size_t sz);

/*
 * The same with member i at @offsets[i], and without "volume <uuid>"
 * when @volume_words is false (a table the kernel does not check
 * against the labels: while bdsadm replace has a mirror in a member's
 * place).
 */
bool bds_volume_params_at(const struct bds_label *l, const char *const *devs,
			  const u64 *offsets, bool volume_words, char *buf,
			  size_t sz);

/*
 * Mid-restripe (label feature RESHAPE): the old volume's length, which is
 * the table's until the restripe ends; the words of "reshape" at
 * checkpoint @ckpt; and the parameters of the table with them, as
 * bds_volume_params().
 */
u64 bds_volume_old_length(const struct bds_label *l);
void bds_volume_reshape(const struct bds_label *l, u64 ckpt,
			struct bds_reshape_args *r);
bool bds_volume_params_reshape(const struct bds_label *l,
			       const char *const *devs, u64 ckpt, char *buf,
			       size_t sz);

/*
 * The label of a restripe that has ended (bds_label_restripe_done()):
 * the same label without feature RESHAPE and its section.
 */
void bds_label_end_restripe(struct bds_label *l);

/*
 * Give view @v (a label of the new geometry) the restripe section of a
 * restripe from the plain volume of label @l: its groups, layout,
 * weights and data offsets, old member i at table member @at[i], and the
 * checkpoint @pos in direction @dir (the restripe's start: 0 forward, the
 * old length in units backward).
 */
void bds_label_start_restripe(struct bds_label *v, const struct bds_label *l,
			      const u8 *at, u32 dir, u64 pos);

/*
 * Member @t's own label in the volume that @v describes (any member's
 * label, or a writer's view of the next one): its index, member UUID,
 * data offset and share, and the device's own size and backup place;
 * without measured figures, even @t's own: a view's may be another
 * member's (the label writers keep each member's own from its device:
 * label-io.c).
 */
void bds_label_member_view(const struct bds_label *v, u32 t,
			   u64 member_sectors, u64 backup_sector,
			   struct bds_label *out);

/* A new random (version 4) UUID; exits if the system has no randomness. */
void bds_new_uuid(u8 *u);

/* "BDS-<volume uuid>" */
void bds_volume_dm_uuid(const struct bds_label *l, char *out, size_t sz);

#endif /* BDS_VOLUME_H */
