/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reader of the kernel's dm-log-writes log, for the power-cut tests:
 * pure C, no I/O, shared by the replay program (tests/vm/programs/
 * bds-logreplay.c), its unit test and its fuzzer.
 *
 * The log, as Documentation/admin-guide/device-mapper/log-writes.rst and
 * drivers/md/dm-log-writes.c lay it out (version 1; all numbers little
 * endian; B = the logged device's logical block size, "sectorsize"):
 *
 *   block 0 (bytes 0..B-1)  the super:
 *       0  le64  magic 0x6a736677736872
 *       8  le64  version, 1
 *      16  le64  nr_entries, the entries logged
 *      24  le32  sectorsize B
 *      rest zero
 *   from block 1 on, nr_entries entries back to back, each:
 *     one block: the entry
 *       0  le64  sector      first block written, in units of B
 *       8  le64  nr_sectors  blocks written, in units of B
 *      16  le64  flags       1 FLUSH, 2 FUA, 4 DISCARD, 8 MARK, 16 METADATA
 *      24  le64  data_len    MARK: length of the mark's name, which
 *                            follows at byte 32 of this block; else 0
 *     then, unless DISCARD, nr_sectors blocks of the data written.
 *
 * The entries are in the order the writes became durable as far as the
 * log can tell: a write is logged when a flush submitted after it
 * completes (just before that flush's entry), a FUA write when it
 * completes, a discard as a write.  Removing the log-writes target logs
 * the writes still waiting for a flush, then a mark
 * "dm-log-writes-end".
 *
 * The super's nr_entries is rewritten after FUA and MARK entries only,
 * so a log read while the target is loaded may hold more entries than
 * it says; these readers go by nr_entries.
 */
#ifndef BDS_LOGW_H
#define BDS_LOGW_H

#include <endian.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define LOGW_MAGIC		0x6a736677736872ULL
#define LOGW_VERSION		1
#define LOGW_FLUSH		(1ULL << 0)
#define LOGW_FUA		(1ULL << 1)
#define LOGW_DISCARD		(1ULL << 2)
#define LOGW_MARK		(1ULL << 3)
#define LOGW_METADATA		(1ULL << 4)
#define LOGW_KNOWN_FLAGS	0x1fULL
#define LOGW_ENTRY_HEAD		32	/* bytes of an entry before the mark */
#define LOGW_MAX_BLOCK		65536	/* largest sectorsize accepted */

enum logw_err {
	LOGW_OK = 0,
	LOGW_ERR_SHORT,		/* the buffer is smaller than a block */
	LOGW_ERR_MAGIC,
	LOGW_ERR_VERSION,
	LOGW_ERR_SECTORSIZE,	/* not a power of two in 512..65536 */
	LOGW_ERR_TOO_MANY,	/* more entries than the log could hold */
	LOGW_ERR_FLAGS,		/* unknown flag bits */
	LOGW_ERR_MARK,		/* a mark with data blocks or a bad length */
	LOGW_ERR_DATA_LEN,	/* data_len on an entry that is not a mark */
	LOGW_ERR_DISCARD,	/* a discard that is also a flush or FUA */
	LOGW_ERR_PAST_END,	/* the entry's data runs past the log */
	LOGW_ERR_RANGE,		/* sector + nr_sectors overflows */
};

struct logw_super {
	uint64_t nr_entries;
	uint32_t sectorsize;
};

struct logw_entry {
	uint64_t sector;	/* in units of sectorsize */
	uint64_t nr_sectors;
	uint64_t flags;
	uint64_t data_len;
	uint64_t pos;		/* byte offset of the entry block in the log */
	uint64_t data_pos;	/* byte offset of its data (if it has data) */
	uint64_t next;		/* byte offset of the next entry */
	char mark[LOGW_MAX_BLOCK - LOGW_ENTRY_HEAD + 1];
};

static inline const char *logw_error(enum logw_err e)
{
	switch (e) {
	case LOGW_OK:
		return "no error";
	case LOGW_ERR_SHORT:
		return "shorter than one block";
	case LOGW_ERR_MAGIC:
		return "not a dm-log-writes log (bad magic)";
	case LOGW_ERR_VERSION:
		return "unknown log version";
	case LOGW_ERR_SECTORSIZE:
		return "sector size not a power of two from 512 to 65536";
	case LOGW_ERR_TOO_MANY:
		return "more entries than the log device can hold";
	case LOGW_ERR_FLAGS:
		return "unknown entry flags";
	case LOGW_ERR_MARK:
		return "a mark with data blocks or a name too long for its block";
	case LOGW_ERR_DATA_LEN:
		return "inline data on an entry that is not a mark";
	case LOGW_ERR_DISCARD:
		return "a discard that is also a flush or FUA write";
	case LOGW_ERR_PAST_END:
		return "an entry runs past the end of the log";
	case LOGW_ERR_RANGE:
		return "an entry's sector range overflows";
	}
	return "unknown error";
}

static inline uint64_t logw_le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline uint32_t logw_le32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

/*
 * Decode the super from @buf (@len bytes read from byte 0 of the log) of a
 * log device of @log_bytes bytes.
 */
static inline enum logw_err logw_read_super(const void *buf, size_t len,
					    uint64_t log_bytes,
					    struct logw_super *s)
{
	const unsigned char *p = buf;
	uint32_t ss;

	memset(s, 0, sizeof(*s));
	if (len < 28)
		return LOGW_ERR_SHORT;
	if (logw_le64(p) != LOGW_MAGIC)
		return LOGW_ERR_MAGIC;
	if (logw_le64(p + 8) != LOGW_VERSION)
		return LOGW_ERR_VERSION;
	ss = logw_le32(p + 24);
	if (ss < 512 || ss > LOGW_MAX_BLOCK || (ss & (ss - 1)))
		return LOGW_ERR_SECTORSIZE;
	/* Every entry takes at least one block after the super's. */
	if (log_bytes < ss || logw_le64(p + 16) > log_bytes / ss - 1)
		return LOGW_ERR_TOO_MANY;
	s->nr_entries = logw_le64(p + 16);
	s->sectorsize = ss;
	return LOGW_OK;
}

/*
 * Decode the entry whose block @blk (one sectorsize block) was read from
 * byte @pos of a log of @log_bytes bytes.  On success e->next is where
 * the next entry starts.
 */
static inline enum logw_err logw_read_entry(const struct logw_super *s,
					    const void *blk, uint64_t pos,
					    uint64_t log_bytes,
					    struct logw_entry *e)
{
	const unsigned char *p = blk;
	uint64_t ss = s->sectorsize, blocks;

	memset(e, 0, offsetof(struct logw_entry, mark) + 1);
	if (pos > log_bytes || log_bytes - pos < ss)
		return LOGW_ERR_PAST_END;
	e->sector = logw_le64(p);
	e->nr_sectors = logw_le64(p + 8);
	e->flags = logw_le64(p + 16);
	e->data_len = logw_le64(p + 24);
	e->pos = pos;
	e->data_pos = pos + ss;
	if (e->flags & ~LOGW_KNOWN_FLAGS)
		return LOGW_ERR_FLAGS;
	if (e->flags & LOGW_MARK) {
		if (e->nr_sectors || e->data_len >= ss - LOGW_ENTRY_HEAD)
			return LOGW_ERR_MARK;
		memcpy(e->mark, p + LOGW_ENTRY_HEAD, e->data_len);
		e->mark[e->data_len] = 0;
	} else if (e->data_len) {
		return LOGW_ERR_DATA_LEN;
	}
	if ((e->flags & LOGW_DISCARD) && (e->flags & (LOGW_FLUSH | LOGW_FUA)))
		return LOGW_ERR_DISCARD;
	if (e->sector + e->nr_sectors < e->sector)
		return LOGW_ERR_RANGE;
	blocks = (e->flags & LOGW_DISCARD) ? 0 : e->nr_sectors;
	/* The data must fit in what is left of the log after this block. */
	if (blocks > (log_bytes - pos) / ss - 1)
		return LOGW_ERR_PAST_END;
	e->next = e->data_pos + blocks * ss;
	return LOGW_OK;
}

/* Does the entry carry data blocks to write? */
static inline bool logw_has_data(const struct logw_entry *e)
{
	return e->nr_sectors && !(e->flags & (LOGW_DISCARD | LOGW_MARK));
}

#endif /* BDS_LOGW_H */
