// SPDX-License-Identifier: GPL-2.0
/*
 * bds-crashload - the filesystem workload of the power-cut tests, and its
 * checker.
 *
 * usage: bds-crashload run DIR SEED OPS MARKCMD >JOURNAL
 *        bds-crashload verify DIR JOURNAL MAXMARK
 *
 * run     OPS operations in DIR (on the filesystem under test), chosen by
 *         SEED: creates, overwrites, appends, truncates, renames and
 *         unlinks of "churn" files (c*, also under sub/), with
 *         fdatasync, sync_file_range and plain buffered writes mixed in,
 *         and about one in four a "durable" file d<n>: written once,
 *         fsync'ed (or fdatasync'ed), DIR fsync'ed, then never touched
 *         again.  After each durable file the program runs "MARKCMD n"
 *         (a shell command that marks every member's log), and then
 *         prints "D n NAME SIZE HASH" on stdout.  Churn files carry no
 *         promise and are not checked.
 * verify  every durable file of JOURNAL with n < MAXMARK is in DIR with
 *         exactly its size and content hash.  Prints one line per
 *         mismatch and "verified N durable files, M mismatches"; exit 0
 *         when M is 0.
 *
 * The content of a file is a function of SEED and the operation number,
 * so verify needs only the journal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DURABLE_SIZE	(192 * 1024)
#define MAX_CHURN_SIZE		(512 * 1024)
#define NR_CHURN		24

static uint64_t rng;

static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Content of operation @op of run @seed: @len bytes into @buf. */
static void content(uint64_t seed, uint64_t op, unsigned char *buf, size_t len)
{
	uint64_t s = seed * 0x100000001b3ULL ^ op, z = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(i % 8)) {
			z = (s += 0x9e3779b97f4a7c15ULL);
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
			z ^= z >> 27;
		}
		buf[i] = (unsigned char)(z >> (8 * (i % 8)));
	}
}

static uint64_t fnv(const unsigned char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void die(const char *what)
{
	fprintf(stderr, "bds-crashload: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void write_all(int fd, const unsigned char *p, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n <= 0)
			die("write");
		p += n;
		len -= (size_t)n;
		off += n;
	}
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd < 0 || fsync(fd) || close(fd))
		die(dir);
}

static unsigned char buf[MAX_CHURN_SIZE];

static void durable(const char *dir, uint64_t seed, uint64_t op, unsigned n,
		    const char *markcmd)
{
	size_t len = next() % 4 ? next() % MAX_DURABLE_SIZE : next() % 64;
	char path[4096], cmd[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/d%u", dir, n);
	content(seed, op, buf, len);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		die(path);
	write_all(fd, buf, len, 0);
	if ((next() % 2 ? fsync(fd) : fdatasync(fd)) || close(fd))
		die(path);
	sync_dir(dir);
	snprintf(cmd, sizeof(cmd), "%s %u", markcmd, n);
	if (system(cmd))
		die(cmd);
	printf("D %u d%u %zu %016llx\n", n, n, len,
	       (unsigned long long)fnv(buf, len));
	fflush(stdout);
}

static void churn(const char *dir, uint64_t seed, uint64_t op)
{
	char a[4096], b[4096];
	unsigned int x = next() % NR_CHURN, y = next() % NR_CHURN;
	const char *sa = x % 3 ? "" : "sub/", *sb = y % 2 ? "" : "sub/";
	size_t len = next() % MAX_CHURN_SIZE;
	int fd, kind = (int)(next() % 8), datasync, writeback;

	snprintf(a, sizeof(a), "%s/%sc%u", dir, sa, x);
	snprintf(b, sizeof(b), "%s/%sc%u", dir, sb, y);
	switch (kind) {
	case 0: case 1: case 2:		/* create or overwrite, or append */
		fd = open(a, O_WRONLY | O_CREAT | (kind == 2 ? O_APPEND : 0), 0644);
		if (fd < 0)
			die(a);
		content(seed, op, buf, len);
		write_all(fd, buf, len, kind == 2 ? lseek(fd, 0, SEEK_END) :
			  (off_t)(next() % MAX_CHURN_SIZE));
		/* A third fdatasync'ed, a third (independently) written back
		 * without a flush.
		 */
		datasync = next() % 3 == 0;
		writeback = next() % 3 == 0;
		if (datasync && fdatasync(fd))
			die(a);
		if (writeback && sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE))
			die(a);
		if (close(fd))
			die(a);
		break;
	case 3:
		if (truncate(a, (off_t)(next() % MAX_CHURN_SIZE)) && errno != ENOENT)
			die(a);
		break;
	case 4: case 5:
		if (rename(a, b) && errno != ENOENT)
			die(a);
		break;
	case 6:
		if (unlink(a) && errno != ENOENT)
			die(a);
		break;
	default:			/* a metadata-only fsync */
		fd = open(a, O_RDONLY);
		if (fd >= 0 && (fsync(fd) || close(fd)))
			die(a);
		break;
	}
}

static int run(const char *dir, uint64_t seed, uint64_t ops, const char *markcmd)
{
	char sub[4096];
	unsigned int n = 0;
	uint64_t op;

	rng = seed;
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	if (mkdir(sub, 0755) && errno != EEXIST)
		die(sub);
	for (op = 0; op < ops; op++) {
		if (next() % 4 == 0)
			durable(dir, seed, op, n++, markcmd);
		else
			churn(dir, seed, op);
	}
	return 0;
}

static int verify(const char *dir, const char *journal, unsigned long maxmark)
{
	unsigned long checked = 0, bad = 0;
	char line[512], name[256], path[4096];
	unsigned long long hash;
	unsigned int n;
	size_t len;
	FILE *j = fopen(journal, "r");

	if (!j)
		die(journal);
	while (fgets(line, sizeof(line), j)) {
		struct stat st;
		ssize_t got;
		int fd;

		if (sscanf(line, "D %u %255s %zu %llx", &n, name, &len, &hash) != 4)
			continue;
		if (n >= maxmark)
			continue;
		checked++;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			printf("mismatch: %s (durable %u): missing (%s)\n", name, n,
			       strerror(errno));
			bad++;
			continue;
		}
		if (fstat(fd, &st))
			die(path);
		if ((size_t)st.st_size != len) {
			printf("mismatch: %s (durable %u): size %lld, durable %zu\n",
			       name, n, (long long)st.st_size, len);
			bad++;
			close(fd);
			continue;
		}
		got = pread(fd, buf, len, 0);
		close(fd);
		if (got != (ssize_t)len || fnv(buf, len) != hash) {
			printf("mismatch: %s (durable %u): content differs\n", name, n);
			bad++;
		}
	}
	fclose(j);
	printf("verified %lu durable files, %lu mismatches\n", checked, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "run"))
		return run(argv[2], strtoull(argv[3], NULL, 0),
			   strtoull(argv[4], NULL, 0), argv[5]);
	if (argc == 5 && !strcmp(argv[1], "verify"))
		return verify(argv[2], argv[3], strtoul(argv[4], NULL, 0));
	fprintf(stderr, "usage: bds-crashload run DIR SEED OPS MARKCMD >JOURNAL\n"
		"       bds-crashload verify DIR JOURNAL MAXMARK\n");
	return 2;
}
