// SPDX-License-Identifier: GPL-2.0
/*
 * The table of a labelled volume (see volume.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "assemble.h"
#include "volume.h"

static bool volume_params(const struct bds_label *l, const char *const *devs,
			  const u64 *offsets, bool volume_words,
			  const struct bds_reshape_args *reshape, char *buf,
			  size_t sz);

u64 bds_volume_length(const struct bds_label *l)
{
	return bds_label_unit(l) * bds_label_slots(l);
}

bool bds_volume_params(const struct bds_label *l, const char *const *devs,
		       char *buf, size_t sz)
{
	return bds_volume_params_at(l, devs, l->member_offset, true, buf, sz);
}

/* Member words for the table writer: the given devices and offsets. */
struct member_words {
	const char *const *devs;
	const u64 *offsets;
};

static const char *word_dev(const void *ctx, u32 m)
{
	return ((const struct member_words *)ctx)->devs[m];
}

static u64 word_offset(const void *ctx, u32 m)
{
	return ((const struct member_words *)ctx)->offsets[m];
}

u64 bds_volume_old_length(const struct bds_label *l)
{
	u64 w = 0;
	u32 i;

	for (i = 0; i < l->old_nr_members; i++)
		w += l->old_weight[i];
	return l->old_member_len * w;
}

void bds_volume_reshape(const struct bds_label *l, u64 ckpt,
			struct bds_reshape_args *r)
{
	u32 i;

	memset(r, 0, sizeof(*r));
	r->dir = (enum bds_reshape_dir)l->reshape_dir;
	r->checkpoint = ckpt;
	r->new_sectors = bds_volume_length(l);
	r->old_nr_groups = l->old_nr_groups;
	for (i = 0; i < l->old_nr_groups; i++)
		r->old_group_size[i] = l->old_group_size[i];
	r->old_mode = (enum bds_order_mode)l->old_layout;
	r->old_nr_members = l->old_nr_members;
	for (i = 0; i < l->old_nr_members; i++) {
		r->old_member[i] = l->old_member[i];
		r->old_offset[i] = l->old_offset[i];
		r->old_weight[i] = l->old_weight[i];
	}
}

bool bds_volume_params_reshape(const struct bds_label *l,
			       const char *const *devs, u64 ckpt, char *buf,
			       size_t sz)
{
	static struct bds_reshape_args r;

	bds_volume_reshape(l, ckpt, &r);
	return volume_params(l, devs, l->member_offset, true, &r, buf, sz);
}

bool bds_volume_params_at(const struct bds_label *l, const char *const *devs,
			  const u64 *offsets, bool volume_words, char *buf,
			  size_t sz)
{
	return volume_params(l, devs, offsets, volume_words, NULL, buf, sz);
}

static bool volume_params(const struct bds_label *l, const char *const *devs,
			  const u64 *offsets, bool volume_words,
			  const struct bds_reshape_args *reshape, char *buf,
			  size_t sz)
{
	const struct member_words w = { devs, offsets };
	const struct bds_table_members mb = { word_dev, word_offset, &w };
	struct bds_args a = {
		.chunk = l->chunk_sectors,
		.nr_groups = l->nr_groups,
		.mode = (enum bds_order_mode)l->layout,
		.volume_given = volume_words,
		.nr_members = l->nr_members,
		.reshape_given = reshape != NULL,
		.reshape = reshape,
	};
	u32 i;

	for (i = 0; i < l->nr_groups; i++)
		a.group_size[i] = l->group_size[i];
	for (i = 0; i < l->nr_members; i++)
		a.weight[i] = l->weight[i];
	memcpy(a.volume_uuid, l->volume_uuid, BDS_UUID_LEN);
	/* the target's own writer: the table reads back as written */
	return bds_table_write(buf, sz, &a, &mb) < sz;
}

void bds_label_end_restripe(struct bds_label *l)
{
	l->incompat &= ~BDS_LABEL_INCOMPAT_RESHAPE;
	l->reshape_pos = 0;
	l->reshape_dir = 0;
	l->old_nr_members = 0;
	l->old_nr_groups = 0;
	l->old_layout = 0;
	l->old_member_len = 0;
	memset(l->old_group_size, 0, sizeof(l->old_group_size));
	memset(l->old_member, 0, sizeof(l->old_member));
	memset(l->old_weight, 0, sizeof(l->old_weight));
	memset(l->old_offset, 0, sizeof(l->old_offset));
}

void bds_label_start_restripe(struct bds_label *v, const struct bds_label *l,
			      const u8 *at, u32 dir, u64 pos)
{
	u32 i;

	v->reshape_pos = pos;
	v->reshape_dir = dir;
	v->old_nr_members = l->nr_members;
	v->old_nr_groups = l->nr_groups;
	v->old_layout = l->layout;
	v->old_member_len = bds_label_unit(l);
	memset(v->old_group_size, 0, sizeof(v->old_group_size));
	for (i = 0; i < l->nr_groups; i++)
		v->old_group_size[i] = l->group_size[i];
	for (i = 0; i < l->nr_members; i++) {
		v->old_member[i] = at[i];
		v->old_weight[i] = l->weight[i];
		v->old_offset[i] = l->member_offset[i];
	}
}

void bds_label_member_view(const struct bds_label *v, u32 t,
			   u64 member_sectors, u64 backup_sector,
			   struct bds_label *out)
{
	*out = *v;
	/*
	 * Measured figures are a member's own, and a view may carry another
	 * member's (grow's is a copy of whichever label assembly took, with
	 * member_index 0): none here; the writers keep each device's own
	 * (label-io.c).
	 */
	out->meas_disk = out->meas_ctrl = 0;
	out->meas_time = 0;
	out->compat &= ~BDS_LABEL_COMPAT_MEASURED;
	out->member_index = t;
	memcpy(out->member_uuid, v->uuid[t], BDS_UUID_LEN);
	out->data_offset = v->member_offset[t];
	out->data_sectors = bds_label_member_data(v, t);
	out->member_sectors = member_sectors;
	/* each member's backup where it is, front or end (FRONT_BACKUP) */
	bds_label_set_backup(out, backup_sector);
	out->label_sector = BDS_LABEL_PRIMARY;
}

void bds_new_uuid(u8 *u)
{
	size_t got = 0;

	while (got < BDS_UUID_LEN) {
		ssize_t n = getrandom(u + got, BDS_UUID_LEN - got, 0);

		if (n < 0 && errno != EINTR) {
			perror("bdsadm: getrandom");
			exit(1);
		}
		if (n > 0)
			got += (size_t)n;
	}
	u[6] = (u8)((u[6] & 0x0f) | 0x40);
	u[8] = (u8)((u[8] & 0x3f) | 0x80);
}

void bds_volume_dm_uuid(const struct bds_label *l, char *out, size_t sz)
{
	char uuid[37];

	bds_uuid_format(l->volume_uuid, uuid);
	snprintf(out, sz, BDS_DM_UUID_PREFIX "%s", uuid);
}
