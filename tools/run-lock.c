// SPDX-License-Identifier: GPL-2.0
/*
 * The assembly lock (see run-lock.h).  flock() on a file of /run: it goes
 * with the process, so a killed bdsadm never leaves it held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run-lock.h"

static int lock_fd = -1;

/* Milliseconds since @t0. */
static long since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * flock() has no time limit of its own: it is tried without blocking,
 * then again every 50 ms until @timeout_ms have passed.
 */
int bds_run_lock(int timeout_ms)
{
	const struct timespec pause = { 0, 50 * 1000 * 1000 };
	struct timespec t0;
	int fd, err;

	if (lock_fd >= 0)
		return 0;
	if (mkdir(BDS_RUN_DIR, 0700) && errno != EEXIST)
		return -errno;
	fd = open(BDS_RUN_DIR "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		err = -errno;
		if (err == -EWOULDBLOCK && since(&t0) < timeout_ms) {
			nanosleep(&pause, NULL);
			continue;
		}
		if (err == -EINTR)
			continue;
		close(fd);
		return err == -EWOULDBLOCK ? -ETIMEDOUT : err;
	}
	lock_fd = fd;
	return 0;
}

void bds_run_unlock(void)
{
	if (lock_fd < 0)
		return;
	close(lock_fd);
	lock_fd = -1;
}
