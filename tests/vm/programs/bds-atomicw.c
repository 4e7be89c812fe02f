// SPDX-License-Identifier: GPL-2.0
/*
 * bds-atomicw - one atomic write (pwritev2 with RWF_ATOMIC, O_DIRECT) to a
 * block device, for the VM tests: what `xfs_io -d -c 'pwrite -A -V1 OFF
 * LEN'` does on xfsprogs that know RWF_ATOMIC (Debian 12's 6.1 does not,
 * nor does its fio 3.33 know atomic=1).
 *
 * usage: bds-atomicw DEV OFFSET LENGTH BYTE
 *
 * Writes LENGTH bytes of the value BYTE (0..255) at byte OFFSET of DEV as
 * one atomic write.  Prints one line and exits with:
 *   0  "written"        the whole write was done
 *   3  "refused EINVAL" the kernel refused it as an atomic write
 *   4  "refused ENOTSUP" (EOPNOTSUPP) the kernel knows no RWF_ATOMIC
 *   1  anything else (short write, another error, bad usage)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef RWF_ATOMIC
#define RWF_ATOMIC 0x00000040	/* uapi/linux/fs.h, since 6.11 */
#endif

static int parse(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && end != s && !*end && *v <= max;
}

int main(int argc, char **argv)
{
	unsigned long long off, len, byte;
	struct iovec iov;
	void *buf;
	ssize_t n;
	int fd;

	if (argc != 5 || !parse(argv[2], 1ULL << 62, &off) ||
	    !parse(argv[3], 1ULL << 30, &len) || !len ||
	    !parse(argv[4], 255, &byte)) {
		fprintf(stderr, "usage: bds-atomicw DEV OFFSET LENGTH BYTE\n");
		return 1;
	}
	if (posix_memalign(&buf, 4096, len)) {
		fprintf(stderr, "bds-atomicw: out of memory\n");
		return 1;
	}
	memset(buf, (int)byte, len);
	fd = open(argv[1], O_WRONLY | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "bds-atomicw: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	iov.iov_base = buf;
	iov.iov_len = len;
	n = pwritev2(fd, &iov, 1, (off_t)off, RWF_ATOMIC);
	if (n < 0) {
		int e = errno;

		close(fd);
		if (e == EINVAL) {
			printf("refused EINVAL\n");
			return 3;
		}
		if (e == EOPNOTSUPP) {
			printf("refused ENOTSUP\n");
			return 4;
		}
		printf("error %s\n", strerror(e));
		return 1;
	}
	if (close(fd) || (unsigned long long)n != len) {
		printf("short write: %zd of %llu bytes\n", n, len);
		return 1;
	}
	printf("written\n");
	return 0;
}
