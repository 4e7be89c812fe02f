/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading, writing and erasing the two label copies of one member
 * (libbds/label.c) through an open file descriptor: a block device, or a
 * regular file in the tests.  Only this file does label I/O in bdsadm.
 *
 * Reads and writes bypass the page cache (O_DIRECT) where the device
 * allows it, so that what bdsadm sees is what the disk holds, and every
 * write is followed by fdatasync(): the primary copy first, then the
 * backup, never both at once (a torn write leaves one valid copy).
 */
#ifndef BDS_LABEL_IO_H
#define BDS_LABEL_IO_H

#include "../libbds/label.h"

/* A member device, opened by bds_dev_open(). */
struct bds_dev {
	int fd;
	const char *path;
	u64 sectors;		/* size in 512-byte sectors */
	u32 lbs;		/* logical block size, bytes */
	u32 pbs;		/* physical block size, bytes */
	bool direct;		/* opened with O_DIRECT */
};

/* What a device holds: both copies and the one that counts. */
struct bds_dev_labels {
	enum bds_label_err err[2];	/* primary, backup */
	int io_err[2];			/* -errno of a failed read, else 0 */
	u64 sector[2];			/* where each was read */
	struct bds_label copy[2];
	int pick;			/* 0, 1, -1 none, BDS_LABEL_PICK_CONFLICT */
};

/*
 * Open @path for reading (@write false) or writing, and learn its size
 * and block sizes.  Returns 0, or -errno with a reason in @why.
 */
int bds_dev_open(struct bds_dev *d, const char *path, bool write,
		 char *why, size_t whysz);
void bds_dev_close(struct bds_dev *d);

/*
 * Open a member of an active volume for writing its labels: not
 * exclusively (device-mapper holds it), which is safe only because the
 * labels lie outside the data area the volume uses.  Returns as
 * bds_dev_open().
 */
int bds_dev_open_held(struct bds_dev *d, const char *path, char *why,
		      size_t whysz);

/*
 * Read both copies.  The backup is read where a valid primary says it
 * is, else at the end of the device as it is now.  A copy that cannot be
 * read counts as no copy (->io_err says why), as in the kernel.  Returns
 * 0 (the copies may still both be invalid: see ->pick), or -errno when
 * no copy counts and a read failed.
 */
int bds_labels_read(const struct bds_dev *d, struct bds_dev_labels *out);

/*
 * Open @path for reading and read both copies as bds_labels_read() does,
 * giving up after @timeout_ms milliseconds: a device that stops
 * answering (a dead disk, a dm device that queues its I/O) never holds
 * the caller longer.  *@sectors: the device's size (0 if it could not be
 * opened); a device too small for a label has none.  Returns 0, or
 * -errno with the reason in @why: -ETIMEDOUT when it did not answer, or
 * the open's or the read's error.
 */
#define BDS_READ_TIMEOUT_MS	10000

int bds_labels_read_path(const char *path, int timeout_ms, u64 *sectors,
			 struct bds_dev_labels *out, char *why, size_t whysz);

/*
 * @probe(@path) (a libblkid probe, say), run in a child process and given
 * @timeout_ms to answer, for the same reason.  Returns what @probe
 * returned, which must be -1, 0 or 1 (as bds_md_superblock()'s answers);
 * -ETIMEDOUT when it did not answer, or another -errno when the child
 * could not run or died.
 */
int bds_probe_within(int (*probe)(const char *path), const char *path,
		     int timeout_ms);

/* The copy that counts, or NULL (no label, or a conflict). */
const struct bds_label *bds_labels_best(const struct bds_dev_labels *dl);

/*
 * What a device holds, for a write to check first: the volume, member
 * and generation of the label copy that counts, no label, or two copies
 * that conflict.  Every label write below re-reads both copies through
 * the descriptor it writes with, and writes nothing unless the device
 * still holds what the caller saw when it decided to write (the same
 * disk under that name, in the same state): -ESTALE otherwise.
 */
enum bds_label_held {
	BDS_HELD_NONE,
	BDS_HELD_LABEL,
	BDS_HELD_CONFLICT,
};

struct bds_label_id {
	enum bds_label_held held;
	u8 volume_uuid[BDS_UUID_LEN];
	u8 member_uuid[BDS_UUID_LEN];
	u64 generation;
};

/* The identity of label @l; @l NULL: no label. */
void bds_label_id_of(struct bds_label_id *id, const struct bds_label *l);
/* What a device whose copies are @dl holds. */
void bds_label_id_held(struct bds_label_id *id, const struct bds_dev_labels *dl);

/*
 * Write label @l (its label_sector is set here) as the primary, sync,
 * then as the backup at l->backup_sector, sync, if the device holds
 * @was.  Refuses devices whose logical blocks are larger than 4 KiB
 * (-EINVAL).  Returns 0 or -errno (-ESTALE: see above).
 */
int bds_labels_write(const struct bds_dev *d, const struct bds_label_id *was,
		     const struct bds_label *l);

/*
 * Write label @l as the primary copy only, and sync: the first step of a
 * membership change on each member, and what assemble does to roll an
 * interrupted change back (the backup then still holds the other
 * generation).  Returns as bds_labels_write().
 */
int bds_label_write_primary(const struct bds_dev *d,
			    const struct bds_label_id *was,
			    const struct bds_label *l);

/*
 * Write label @l as the backup copy only, and sync: the commit point of
 * a membership change is the backup copy of the disk that joins.
 * Returns as bds_labels_write().
 */
int bds_label_write_backup(const struct bds_dev *d,
			   const struct bds_label_id *was,
			   const struct bds_label *l);

/*
 * Erase both copies (zeroes), where they are now and where a valid
 * primary says the backup is, if the device holds @was.  The primary's
 * place is left alone when it does not start with the label's magic:
 * another tool's metadata (md's superblock, during an adoption) lies
 * there.  Returns 0 or
 * -errno (-ESTALE: see above).
 */
int bds_labels_wipe(const struct bds_dev *d, const struct bds_label_id *was);

/* The reason for a failed label write, for messages. */
const char *bds_label_io_error(int rc);

#endif /* BDS_LABEL_IO_H */
