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
#include <unistd.h>

#include "run-lock.h"

static int lock_fd = -1;

int bds_run_lock(void)
{
	int fd, err;

	if (lock_fd >= 0)
		return 0;
	if (mkdir(BDS_RUN_DIR, 0700) && errno != EEXIST)
		return -errno;
	fd = open(BDS_RUN_DIR "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX)) {
		if (errno == EINTR)
			continue;
		err = -errno;
		close(fd);
		return err;
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
