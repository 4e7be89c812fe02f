// SPDX-License-Identifier: GPL-2.0
/*
 * bds-dmload - create, load and resume dm devices through the dm ioctls
 * (what "dmsetup create NAME --table TABLE" does), many times in one
 * process, for the VM tests.
 *
 * usage: bds-dmload --batch NAME <TABLES
 *        bds-dmload --sweep[=STRIDE] NAME TABLE MAXN DISK...
 *
 * --batch reads lines "V|START LENGTH TARGET PARAMS..." from stdin and, for
 * each, does what `dmsetup create` does (create, load, resume; the device
 * removed again when a step fails), then removes a device that was made,
 * and checks that NAME no longer exists.  V is 1 for a table that must be
 * accepted.  Prints each such table that was refused, each table after
 * which NAME was left, and a summary line:
 *   batch: tables=T accepted=A valid=V valid_refused=R left=L
 * Exit status 0 when R and L are 0.
 *
 * --sweep creates, loads (TABLE, one "START LENGTH TARGET PARAMS" line)
 * and resumes NAME with the N-th fault-injection site that this task hits
 * during the table load (DM_TABLE_LOAD: the target's constructor and dm's
 * table code) made to fail (/proc/thread-self/fail-nth), for N = 1, 2, ...
 * MAXN, in one process (a shell loop forks dozens of processes per step,
 * which takes tens of seconds on a KASAN kernel under emulation), until
 * the armed fault is no longer consumed; with STRIDE, only every
 * STRIDE-th site: N = 1, 1 + STRIDE, 1 + 2 * STRIDE, ... (a sample, for
 * make check; the last step still consumes no fault).  After each step it checks what a
 * clean refusal means: a failed step set an errno; a failed load left no inactive table; a
 * volume that was made reports health all 'A' (the second word of its
 * status); once the device is removed, it is gone, no DISK (a name in
 * /sys/block) has a holder, and dm_bds_stripe's reference count is 0.
 * Prints one line per step,
 *   n=<N> step=<S> errno=<E> injected=<0|1>
 * a line "problem: n=<N> ..." for each failed check, and at the end
 *   sweep: steps=<N> sites=<S> problems=<P> last=<the last N>
 * where sites is the number of steps whose fault was consumed.  Exit
 * status 0 when P is 0 and the last step consumed no fault and succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define BUF_SIZE (64 * 1024)

static unsigned char buf[BUF_SIZE] __attribute__((aligned(8)));

static struct dm_ioctl *header(const char *name, size_t data_size)
{
	struct dm_ioctl *io = (struct dm_ioctl *)buf;

	memset(buf, 0, sizeof(buf));
	io->version[0] = DM_VERSION_MAJOR;
	io->version[1] = 0;
	io->version[2] = 0;
	io->data_size = data_size;
	io->data_start = sizeof(*io);
	snprintf(io->name, sizeof(io->name), "%s", name);
	return io;
}

static int dm_simple(int ctl, unsigned long cmd, const char *name, unsigned int flags)
{
	struct dm_ioctl *io = header(name, sizeof(struct dm_ioctl));

	io->flags = flags;
	return ioctl(ctl, cmd, io) < 0 ? errno : 0;
}

/* DM_TABLE_LOAD of one "START LENGTH TARGET PARAMS" line; errno or 0. */
static int dm_load(int ctl, const char *name, const char *table)
{
	unsigned long long start, len;
	char type[DM_MAX_TYPE_NAME];
	struct dm_target_spec *spec;
	struct dm_ioctl *io;
	int consumed = 0;
	size_t plen;

	if (sscanf(table, "%llu %llu %15s %n", &start, &len, type, &consumed) != 3)
		return EINVAL;
	plen = strlen(table + consumed) + 1;
	if (sizeof(*io) + sizeof(*spec) + plen + 8 > BUF_SIZE)
		return E2BIG;
	io = header(name, (sizeof(*io) + sizeof(*spec) + plen + 7) & ~(size_t)7);
	io->target_count = 1;
	spec = (struct dm_target_spec *)(buf + sizeof(*io));
	spec->sector_start = start;
	spec->length = len;
	snprintf(spec->target_type, sizeof(spec->target_type), "%s", type);
	memcpy((char *)(spec + 1), table + consumed, plen);
	return ioctl(ctl, DM_TABLE_LOAD, io) < 0 ? errno : 0;
}

static int batch(const char *name)
{
	static char line[BUF_SIZE];
	unsigned long tables = 0, accepted = 0, valid = 0, refused = 0, left = 0;
	int ctl, err;
	char *t;

	ctl = open("/dev/mapper/control", O_RDWR);
	if (ctl < 0) {
		perror("bds-dmload: /dev/mapper/control");
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		t = strchr(line, '|');
		if (!t)
			continue;
		*t++ = '\0';
		tables++;
		if (line[0] == '1')
			valid++;
		err = dm_simple(ctl, DM_DEV_CREATE, name, 0);
		if (!err) {
			err = dm_load(ctl, name, t);
			if (!err)
				err = dm_simple(ctl, DM_DEV_SUSPEND, name, 0);
			if (!err)
				accepted++;
			/* Removed either way, as dmsetup create does on failure. */
			if (dm_simple(ctl, DM_DEV_REMOVE, name, 0))
				fprintf(stderr, "bds-dmload: cannot remove %s (%s)\n",
					name, strerror(errno));
		}
		if (err && line[0] == '1') {
			refused++;
			printf("valid table refused (%s): %s\n", strerror(err), t);
		}
		if (dm_simple(ctl, DM_DEV_STATUS, name, 0) != ENXIO) {
			left++;
			printf("%s left behind after: %s\n", name, t);
			dm_simple(ctl, DM_DEV_REMOVE, name, 0);
		}
	}
	printf("batch: tables=%lu accepted=%lu valid=%lu valid_refused=%lu left=%lu\n",
	       tables, accepted, valid, refused, left);
	close(ctl);
	return refused || left ? 1 : 0;
}

/* Entries of /sys/block/DISK/holders; -1 when it cannot be read. */
static int holders(const char *disk)
{
	char path[256];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/block/%s/holders", disk);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* The module's reference count; -1 when it cannot be read. */
static long module_refcnt(void)
{
	long n = -1;
	FILE *f = fopen("/sys/module/dm_bds_stripe/refcnt", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/* The second word of the live table's status ("" when there is none). */
static const char *health(int ctl, const char *name)
{
	static char word[256];
	struct dm_target_spec *spec;
	struct dm_ioctl *io = header(name, BUF_SIZE);
	const char *st;

	word[0] = '\0';
	if (ioctl(ctl, DM_TABLE_STATUS, io) < 0 || io->target_count != 1)
		return word;
	spec = (struct dm_target_spec *)(buf + io->data_start);
	st = (const char *)(spec + 1);
	sscanf(st, "%*s %255s", word);
	return word;
}

/* One fail-nth step: create, load with the N-th fault armed, resume. */
static const char *sweep_step(int ctl, int fn, const char *name, const char *table,
			      int n, int *err, long *remaining)
{
	char nth[32];
	ssize_t r;

	*remaining = -1;
	*err = dm_simple(ctl, DM_DEV_CREATE, name, 0);
	if (*err)
		return "create";
	snprintf(nth, sizeof(nth), "%d", n);
	if (pwrite(fn, nth, strlen(nth), 0) < 0) {
		*err = errno;
		return "arm";
	}
	*err = dm_load(ctl, name, table);
	r = pread(fn, nth, sizeof(nth) - 1, 0);
	if (r > 0) {
		nth[r] = '\0';
		*remaining = strtol(nth, NULL, 10);
	}
	if (pwrite(fn, "0", 1, 0) < 0)
		perror("bds-dmload: disarming fail-nth");
	if (*err)
		return "load";
	*err = dm_simple(ctl, DM_DEV_SUSPEND, name, 0);
	return *err ? "resume" : "done";
}

static int sweep(const char *name, const char *table, int maxn, int stride,
		 char **disks, int ndisks)
{
	int ctl, fn, n, i, err = 0, problems = 0, sites = 0, steps = 0;
	const char *step = "none";
	struct dm_ioctl *io;
	long remaining = -1;

	ctl = open("/dev/mapper/control", O_RDWR);
	fn = open("/proc/thread-self/fail-nth", O_RDWR);
	if (ctl < 0 || fn < 0) {
		perror("bds-dmload: /dev/mapper/control or fail-nth");
		return 2;
	}
	for (n = 1; n <= maxn; n += stride) {
		steps++;
		step = sweep_step(ctl, fn, name, table, n, &err, &remaining);
		printf("n=%d step=%s errno=%d injected=%d\n", n, step, err, remaining == 0);
		if (strcmp(step, "done") && !err) {
			printf("problem: n=%d step %s failed without an errno\n", n, step);
			problems++;
		}
		if (!strcmp(step, "load")) {
			io = header(name, sizeof(*io));
			if (ioctl(ctl, DM_DEV_STATUS, io) == 0 &&
			    (io->flags & DM_INACTIVE_PRESENT_FLAG)) {
				printf("problem: n=%d failed load left an inactive table\n", n);
				problems++;
			}
		}
		if (!strcmp(step, "done") && strspn(health(ctl, name), "A") != 4) {
			printf("problem: n=%d created, but health '%s'\n", n, health(ctl, name));
			problems++;
		}
		if (strcmp(step, "create") && dm_simple(ctl, DM_DEV_REMOVE, name, 0)) {
			printf("problem: n=%d cannot remove %s (%s)\n", n, name, strerror(errno));
			problems++;
		}
		if (dm_simple(ctl, DM_DEV_STATUS, name, 0) != ENXIO) {
			printf("problem: n=%d %s still exists\n", n, name);
			problems++;
			dm_simple(ctl, DM_DEV_REMOVE, name, 0);
		}
		for (i = 0; i < ndisks; i++) {
			if (holders(disks[i])) {
				printf("problem: n=%d %s has holders (%d)\n", n, disks[i],
				       holders(disks[i]));
				problems++;
			}
		}
		if (module_refcnt()) {
			printf("problem: n=%d module refcnt %ld\n", n, module_refcnt());
			problems++;
		}
		fflush(stdout);
		if (remaining != 0)
			break;
		sites++;
	}
	printf("sweep: steps=%d sites=%d problems=%d last=%d\n", steps, sites, problems,
	       n > maxn ? maxn : n);
	close(fn);
	close(ctl);
	return problems || n > maxn || strcmp(step, "done") ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--batch"))
		return batch(argv[2]);
	if (argc >= 5 && !strcmp(argv[1], "--sweep"))
		return sweep(argv[2], argv[3], atoi(argv[4]), 1, argv + 5, argc - 5);
	if (argc >= 5 && !strncmp(argv[1], "--sweep=", 8) && atoi(argv[1] + 8) > 0)
		return sweep(argv[2], argv[3], atoi(argv[4]), atoi(argv[1] + 8),
			     argv + 5, argc - 5);
	fprintf(stderr, "usage: %s --batch NAME <TABLES\n"
		"       %s --sweep[=STRIDE] NAME TABLE MAXN DISK...\n", argv[0], argv[0]);
	return 2;
}
