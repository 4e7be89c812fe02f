/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdsadm grow --continue NAME: carry an active volume's restripe to its
 * end while the volume stays in use (Documentation/bds-stripe-restripe.rst).
 * The labels hold both geometries and the checkpoint; the target maps
 * both and holds writes to the units being copied, through its messages.
 *
 * grow.c finds the volume and its members, brings every label to the
 * live checkpoint, and finishes: plain labels, then the table of the new
 * geometry and length.  grow-copy.c is the copy loop: hold a window,
 * copy it from the old places to the new ones, and at each checkpoint
 * flush the members, write the labels and tell the target.
 */
#ifndef BDS_GROW_H
#define BDS_GROW_H

#include <stdbool.h>
#include <time.h>

#include "../libbds/reshape.h"
#include "assemble.h"
#include "label-io.h"
#include "scan.h"
#include "volstat.h"

#define GROW_USAGE "grow NAME --add DEVICE... [--measure] [--weights capacity|bandwidth|LIST] [--force] [--rate MB/S] | grow NAME [--layout interleave|sequential] [--weights capacity|bandwidth|LIST] [--rate MB/S] | grow --continue NAME [--rate MB/S]"

/* One restripe run: the command context, passed down. */
struct grow {
	const char *name;
	double rate;			/* --rate, bytes/s; 0: as fast as it goes */
	bool tty;			/* progress redrawn on a terminal */
	int lock_fd;			/* the per-volume lock, once taken */
	struct bds_vol vol;
	struct bds_scan scan;
	struct bds_asm_result r;
	/* member m (table order): its device, open, and its own label */
	struct bds_dev dev[BDS_MAX_MEMBERS];
	struct bds_label ml[BDS_MAX_MEMBERS];
	/* the two geometries (bds_reshape_from_label()) */
	struct bds_geom g_new, g_old;
	struct bds_geom_slots s_new, s_old;
	struct bds_reshape rs;
	u64 end;			/* forward: U, backward: 0 */
	u64 ckpt;			/* the durable checkpoint, the target's */
	u64 pos;			/* copied up to here (past ckpt) */
	/* copy buffers: one window of the old places, one of the new */
	u8 *old_buf, *new_buf;
	u64 window_sectors;
	/* progress */
	struct timespec t0, last;
	u64 copied;			/* units copied in this run */
};

/*
 * The active volume @g->name and its labels, the lock taken: 0;
 * GROW_OTHER_STATE when it is (@restriping false) or is not (true)
 * mid-restripe, for the caller to say; else nonzero, said.
 * Mid-restripe it also reads the target's checkpoint, opens the members
 * and makes the geometries.
 */
#define GROW_OTHER_STATE	(-2)

/*
 * Why a member whose backup label lies in front of its data (adopted
 * with no room at its end) has no room below its data: "; " then the
 * reason (GROW_FRONT_NOTE + 2 for the reason alone).
 */
#define GROW_FRONT_NOTE	"; its backup label lies in front of its data, at sector 2032, so its data may not start below sector 2048, and the data runs to the member's end"

int grow_find(struct grow *g, bool restriping);

/*
 * grow NAME --add DEVICE... [--measure] [--weights W] (grow-add.c): start
 * the restripe onto the members and @add, with weights @weights (NULL:
 * as the volume's were chosen); @measure reads the new disks' speeds
 * first (their labels record them; bandwidth weights go by them and by
 * what the members' labels record); BDS_EXIT_OK once the table with
 * "reshape" is live.
 */
int grow_add(struct grow *g, char **add, int nadd, bool force, bool measure,
	     const char *weights);

/*
 * grow NAME --layout MODE / --weights W (grow-relayout.c): start the
 * restripe of the same members into another layout or other weights;
 * @layout and @weights NULL keep the volume's.  BDS_EXIT_OK once the
 * table with "reshape" is live; GROW_NOTHING when the volume has that
 * geometry already (said).
 */
#define GROW_NOTHING	(-3)
int grow_relayout(struct grow *g, const char *layout, const char *weights);

/*
 * The new labels @ml (@n members) as the target and assembly will read
 * them: each one encoded, decoded and turned into geometries, which must
 * be @g_new and @g_old.  0, or BDS_EXIT_FAIL said (nothing written yet).
 */
int grow_self_check(struct grow *g, const struct bds_label *ml, u32 n,
		    const struct bds_geom *g_new, const struct bds_geom *g_old);

/*
 * The table of label @l0 (member 0's new label) at checkpoint @ckpt,
 * with the members @devs ("major:minor", table order), in the live
 * table's place.  0, or BDS_EXIT_FAIL said.
 */
int grow_start_table(struct grow *g, const struct bds_label *l0,
		     char (*devs)[16], u64 ckpt);

/* "grow NAME: message" on stderr; returns BDS_EXIT_FAIL. */
int grow_refuse(struct grow *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A restart: the target's checkpoint g->ckpt into both label copies of
 * every member, each member's invalid copy first.  0, or -1 said.
 */
int grow_resume_labels(struct grow *g);

/*
 * Write checkpoint @ckpt into both label copies of every member, each
 * member's primary then its backup, each synced.  0, or -1 said.
 */
int grow_write_checkpoint(struct grow *g, u64 ckpt);

/*
 * Copy until the checkpoint reaches the end (0), a signal asks for a
 * pause (1), or a member fails or the target refuses (-1, said).  On
 * return nothing is held.
 */
int grow_copy(struct grow *g);

/* SIGINT and SIGTERM ask grow_copy() to stop at the next window. */
void grow_catch_signals(void);

#endif /* BDS_GROW_H */
