// SPDX-License-Identifier: GPL-2.0
/*
 * bds-stripe-table --create: "dmsetup create NAME --table TABLE" for an
 * unlabelled volume (labelled volumes: bdsadm create, dm.c), then the
 * read-ahead raised to two stripe widths.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "fmt.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* dmsetup                                                             */

/* Run dmsetup; returns its exit status (or -1).  quiet: output to null */
static int run_dmsetup(char *const argv[], bool quiet)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
				close(fd);
			}
		}
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", bds_prog, argv[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool dm_exists(const char *name)
{
	char *argv[] = { (char *)opt.dmsetup, "info", (char *)name, NULL };

	return run_dmsetup(argv, true) == 0;
}

/*
 * The kernel name (dm-N) of the device-mapper device called NAME: the
 * block device whose dm/name holds it, under <sysfs>/class/block.
 */
static bool dm_kernel_name(const char *name, char *out, size_t sz)
{
	char dir[PATH_MAX], sub[PATH_MAX], buf[NAME_SZ + 8];
	struct dirent *de;
	DIR *d;
	bool found = false;

	xsnprintf(dir, sizeof(dir), "%s/class/block", opt.sysfs);
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, "dm-", 3))
			continue;
		xsnprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (read_attr(sub, "dm/name", buf, sizeof(buf)) &&
		    !strcmp(buf, name)) {
			xsnprintf(out, sz, "%s", de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/*
 * After --create: set the volume's read-ahead.  auto raises it to two
 * stripe widths (rounded up to whole pages) unless it is already that
 * large; --read-ahead SIZE sets it; off leaves the kernel's value.
 * Failing here leaves the volume in place and is reported, not fatal.
 */
static void set_read_ahead(void)
{
	char dev[NAME_SZ], dir[PATH_MAX], path[PATH_MAX];
	u64 cur, want;
	FILE *f;
	bool ok;

	if (opt.ra_mode == RA_OFF)
		return;
	if (opt.ra_mode == RA_SET) {
		want = opt.ra_kib;
	} else {
		want = (2 * opt.width_b + 1023) / 1024;
		want = (want + PAGE_KIB - 1) / PAGE_KIB * PAGE_KIB;
	}
	if (!dm_kernel_name(opt.create, dev, sizeof(dev))) {
		fprintf(stderr, "%s: warning: %s not found under %s/class/block: read-ahead not set\n", bds_prog,
			opt.create, opt.sysfs);
		return;
	}
	xsnprintf(dir, sizeof(dir), "%s/class/block/%s/queue", opt.sysfs,
		  dev);
	if (!read_u64_attr(dir, "read_ahead_kb", &cur)) {
		fprintf(stderr, "%s: warning: cannot read %s/read_ahead_kb: read-ahead not set\n", bds_prog,
			dir);
		return;
	}
	if (opt.ra_mode == RA_AUTO && cur >= want) {
		fprintf(stderr, "%s: read-ahead of %s (%s) is %llu KiB, at least 2 stripe widths already\n", bds_prog,
			opt.create, dev, U(cur));
		return;
	}
	xsnprintf(path, sizeof(path), "%s/read_ahead_kb", dir);
	f = fopen(path, "w");
	ok = f && fprintf(f, "%llu\n", U(want)) > 0;
	if (f && fclose(f))
		ok = false;
	if (!ok) {
		fprintf(stderr, "%s: warning: cannot write %s: %s (read-ahead stays %llu KiB)\n", bds_prog,
			path, strerror(errno), U(cur));
		return;
	}
	fprintf(stderr, "%s: read-ahead of %s (%s): %llu KiB (was %llu KiB)\n", bds_prog,
		opt.create, dev, U(want), U(cur));
}

int create_device(void)
{
	char *create[] = { (char *)opt.dmsetup, "create", (char *)opt.create,
			   "--table", table, NULL };
	char *remove[] = { (char *)opt.dmsetup, "remove", (char *)opt.create,
			   NULL };
	int rc;

	if (dm_exists(opt.create))
		refuse("a device-mapper device named '%s' already exists",
		       opt.create);
	fprintf(stderr, "%s: running: %s create %s --table '%s'\n", bds_prog,
		opt.dmsetup, opt.create, table);
	rc = run_dmsetup(create, false);
	if (rc == 0) {
		fprintf(stderr, "%s: created /dev/mapper/%s\n", bds_prog,
			opt.create);
		set_read_ahead();
		return 0;
	}
	fprintf(stderr, "%s: dmsetup create %s failed (exit %d); the kernel log names the reason\n", bds_prog,
		opt.create, rc);
	if (dm_exists(opt.create)) {
		fprintf(stderr, "%s: removing the half-created %s\n", bds_prog,
			opt.create);
		if (run_dmsetup(remove, false))
			fprintf(stderr, "%s: dmsetup remove %s failed: remove it by hand\n", bds_prog,
				opt.create);
	}
	fprintf(stderr, "%s: nothing was created\n", bds_prog);
	return 1;
}

