// SPDX-License-Identifier: GPL-2.0
/*
 * bds-logreplay - read and replay a dm-log-writes log (tests/logwrites/logw.h
 * has the format), for the power-cut tests.  Written from the documented
 * format, not from fstests' replay-log.
 *
 * usage: bds-logreplay list LOG
 *        bds-logreplay find LOG MARK
 *        bds-logreplay replay LOG DEV FROM TO [FIRST NR]
 *
 * list    one line per entry: "INDEX FLAGS SECTOR NR_SECTORS [MARK]", FLAGS
 *         letters of F (flush), U (FUA), D (discard), M (mark),
 *         m (metadata), or "-"; SECTOR and NR_SECTORS in 512-byte sectors;
 *         then "entries N sectorsize B".
 * find    the index of the first mark named MARK; exit 1 if there is none.
 * replay  apply entries FROM .. TO-1 to DEV, in log order: writes are
 *         written, discards written as zeroes, flushes and marks skipped;
 *         DEV is fsync'ed at the end.  Prints "replayed N entries: W
 *         writes, D discards, F flushes, M marks".  With FIRST and NR
 *         (512-byte sectors), only the writes and discards within
 *         sectors FIRST .. FIRST+NR-1 are applied (one member of a log
 *         taken under several), counted as "W writes" and so on, and the
 *         others are skipped; an entry that crosses the range's edge is
 *         an error.
 *
 * Exit status 0 on success, 1 when a mark is not found, 2 on a bad log,
 * a bad range or an I/O error (with a message on stderr).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../logwrites/logw.h"

static const char *prog = "bds-logreplay";

static void __attribute__((noreturn)) die(const char *what, const char *why)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, why);
	exit(2);
}

static uint64_t dev_bytes(int fd, const char *path)
{
	struct stat st;
	uint64_t n;

	if (fstat(fd, &st))
		die(path, strerror(errno));
	if (S_ISREG(st.st_mode))
		return (uint64_t)st.st_size;
	if (ioctl(fd, BLKGETSIZE64, &n))
		die(path, strerror(errno));
	return n;
}

static void read_at(int fd, const char *path, void *buf, size_t len,
		    uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	if (n < 0)
		die(path, strerror(errno));
	if ((size_t)n != len)
		die(path, "short read");
}

static void write_at(int fd, const char *path, const void *buf, size_t len,
		     uint64_t off)
{
	ssize_t n = pwrite(fd, buf, len, (off_t)off);

	if (n < 0)
		die(path, strerror(errno));
	if ((size_t)n != len)
		die(path, "short write");
}

struct log {
	const char *path;
	int fd;
	uint64_t bytes;
	struct logw_super s;
	unsigned char *blk;
	uint64_t index, pos;	/* the next entry */
	struct logw_entry e;
};

static void log_open(struct log *l, const char *path)
{
	unsigned char super[512];
	enum logw_err err;

	l->path = path;
	l->fd = open(path, O_RDONLY);
	if (l->fd < 0)
		die(path, strerror(errno));
	l->bytes = dev_bytes(l->fd, path);
	if (l->bytes < sizeof(super))
		die(path, logw_error(LOGW_ERR_SHORT));
	read_at(l->fd, path, super, sizeof(super), 0);
	err = logw_read_super(super, sizeof(super), l->bytes, &l->s);
	if (err)
		die(path, logw_error(err));
	l->blk = malloc(l->s.sectorsize);
	if (!l->blk)
		die(path, "out of memory");
	l->index = 0;
	l->pos = l->s.sectorsize;
}

static void log_close(struct log *l)
{
	free(l->blk);
	close(l->fd);
}

/* The next entry into l->e; false after the last one. */
static int log_next(struct log *l)
{
	enum logw_err err;
	char where[64];

	if (l->index == l->s.nr_entries)
		return 0;
	snprintf(where, sizeof(where), "entry %llu",
		 (unsigned long long)l->index);
	if (l->pos > l->bytes || l->bytes - l->pos < l->s.sectorsize)
		die(where, logw_error(LOGW_ERR_PAST_END));
	read_at(l->fd, l->path, l->blk, l->s.sectorsize, l->pos);
	err = logw_read_entry(&l->s, l->blk, l->pos, l->bytes, &l->e);
	if (err)
		die(where, logw_error(err));
	l->pos = l->e.next;
	l->index++;
	return 1;
}

static void flag_letters(uint64_t f, char *out)
{
	char *o = out;

	if (f & LOGW_FLUSH)
		*o++ = 'F';
	if (f & LOGW_FUA)
		*o++ = 'U';
	if (f & LOGW_DISCARD)
		*o++ = 'D';
	if (f & LOGW_MARK)
		*o++ = 'M';
	if (f & LOGW_METADATA)
		*o++ = 'm';
	if (o == out)
		*o++ = '-';
	*o = 0;
}

static int cmd_list(const char *path)
{
	uint64_t spb;
	struct log l;
	char fl[8];

	log_open(&l, path);
	spb = l.s.sectorsize / 512;
	while (log_next(&l)) {
		flag_letters(l.e.flags, fl);
		printf("%llu %s %llu %llu%s%s\n",
		       (unsigned long long)(l.index - 1), fl,
		       (unsigned long long)(l.e.sector * spb),
		       (unsigned long long)(l.e.nr_sectors * spb),
		       l.e.flags & LOGW_MARK ? " " : "", l.e.mark);
	}
	printf("entries %llu sectorsize %u\n",
	       (unsigned long long)l.s.nr_entries, l.s.sectorsize);
	log_close(&l);
	return 0;
}

static int cmd_find(const char *path, const char *mark)
{
	struct log l;

	log_open(&l, path);
	while (log_next(&l)) {
		if ((l.e.flags & LOGW_MARK) && !strcmp(l.e.mark, mark)) {
			printf("%llu\n", (unsigned long long)(l.index - 1));
			log_close(&l);
			return 0;
		}
	}
	fprintf(stderr, "%s: %s: no mark \"%s\"\n", prog, path, mark);
	log_close(&l);
	return 1;
}

static uint64_t parse_index(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end)
		die(s, "not an entry index");
	return v;
}

/* Write @len bytes at byte @off of the device: the entry's data, or zeroes. */
static void apply(struct log *l, int dev, const char *devpath,
		  uint64_t dev_size, uint64_t off, uint64_t len, int zero)
{
	static unsigned char buf[1 << 20];
	uint64_t done, n, src = l->e.data_pos;

	if (off > dev_size || len > dev_size - off)
		die(devpath, "an entry lies beyond the end of the device");
	if (zero) {
		uint64_t range[2] = { off, len };

		/* A block device zeroes it (write-zeroes or the kernel's
		 * own zero pages); a file gets zeroes written.
		 */
		if (!ioctl(dev, BLKZEROOUT, range))
			return;
		memset(buf, 0, sizeof(buf));
	}
	for (done = 0; done < len; done += n) {
		n = len - done < sizeof(buf) ? len - done : sizeof(buf);
		if (!zero)
			read_at(l->fd, l->path, buf, n, src + done);
		write_at(dev, devpath, buf, n, off + done);
	}
}

/*
 * Is the entry's extent within [@first, @first + @nr) (512-byte sectors)?
 * One that lies partly inside is an error: the range was meant to be one
 * member of the device the log was taken under, and no write crosses one.
 */
static int in_range(struct log *l, uint64_t first, uint64_t nr)
{
	uint64_t s = l->e.sector * (l->s.sectorsize / 512);
	uint64_t n = l->e.nr_sectors * (l->s.sectorsize / 512);

	if (s >= first && s + n <= first + nr)
		return 1;
	if (s + n <= first || s >= first + nr)
		return 0;
	die(l->path, "an entry crosses the edge of the range");
}

static int cmd_replay(const char *path, const char *devpath,
		      const char *from_s, const char *to_s,
		      const char *first_s, const char *nr_s)
{
	uint64_t from = parse_index(from_s), to = parse_index(to_s);
	uint64_t first = first_s ? parse_index(first_s) : 0;
	uint64_t nr = nr_s ? parse_index(nr_s) : UINT64_MAX;
	uint64_t writes = 0, discards = 0, flushes = 0, marks = 0;
	uint64_t dev_size, ss;
	struct log l;
	int dev;

	log_open(&l, path);
	if (from > to || to > l.s.nr_entries)
		die(to_s, "the range is not within the log's entries");
	dev = open(devpath, O_WRONLY);
	if (dev < 0)
		die(devpath, strerror(errno));
	dev_size = dev_bytes(dev, devpath);
	ss = l.s.sectorsize;
	while (l.index < to && log_next(&l)) {
		if (l.index - 1 < from)
			continue;
		if (l.e.flags & LOGW_MARK) {
			marks++;
			continue;
		}
		if (l.e.flags & LOGW_FLUSH)
			flushes++;
		if (nr_s && (l.e.flags & LOGW_DISCARD || logw_has_data(&l.e)) &&
		    !in_range(&l, first, nr))
			continue;
		if (l.e.flags & LOGW_DISCARD) {
			apply(&l, dev, devpath, dev_size, l.e.sector * ss,
			      l.e.nr_sectors * ss, 1);
			discards++;
		} else if (logw_has_data(&l.e)) {
			apply(&l, dev, devpath, dev_size, l.e.sector * ss,
			      l.e.nr_sectors * ss, 0);
			writes++;
		}
	}
	if (fsync(dev) || close(dev))
		die(devpath, strerror(errno));
	log_close(&l);
	printf("replayed %llu entries: %llu writes, %llu discards, %llu flushes, %llu marks\n",
	       (unsigned long long)(to - from), (unsigned long long)writes,
	       (unsigned long long)discards, (unsigned long long)flushes,
	       (unsigned long long)marks);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "list"))
		return cmd_list(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "find"))
		return cmd_find(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "replay"))
		return cmd_replay(argv[2], argv[3], argv[4], argv[5], NULL,
				  NULL);
	if (argc == 8 && !strcmp(argv[1], "replay"))
		return cmd_replay(argv[2], argv[3], argv[4], argv[5], argv[6],
				  argv[7]);
	fprintf(stderr,
		"usage: %s list LOG\n       %s find LOG MARK\n       %s replay LOG DEV FROM TO [FIRST NR]\n",
		prog, prog, prog);
	return 2;
}
