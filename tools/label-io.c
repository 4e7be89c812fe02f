// SPDX-License-Identifier: GPL-2.0
/*
 * Label I/O on one member (see label-io.h).
 */
#define _GNU_SOURCE	/* O_DIRECT, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "label-io.h"

int bds_dev_open(struct bds_dev *d, const char *path, bool write,
		 char *why, size_t whysz)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	struct stat st;
	int fd, e;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->path = path;
	if (stat(path, &st)) {
		e = errno;
		snprintf(why, whysz, "%s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		snprintf(why, whysz, "%s: not a block device", path);
		return -ENOTBLK;
	}
	/* A writer wants the disk to itself: no filesystem, no dm holder. */
	if (write && S_ISBLK(st.st_mode))
		flags |= O_EXCL;
	fd = open(path, flags | O_DIRECT);
	if (fd < 0 && errno == EINVAL) {
		fd = open(path, flags);
	} else if (fd >= 0) {
		d->direct = true;
	}
	if (fd < 0) {
		e = errno;
		if (e == EBUSY)
			snprintf(why, whysz, "%s: in use (mounted, or held by device-mapper or md)",
				 path);
		else
			snprintf(why, whysz, "%s: %s", path, strerror(e));
		return -e;
	}
	d->fd = fd;
	if (S_ISBLK(st.st_mode)) {
		u64 bytes = 0;
		int lbs = 0;
		unsigned int pbs = 0;

		if (ioctl(fd, BLKGETSIZE64, &bytes) || ioctl(fd, BLKSSZGET, &lbs) ||
		    ioctl(fd, BLKPBSZGET, &pbs)) {
			e = errno;
			snprintf(why, whysz, "%s: cannot read its size: %s", path,
				 strerror(e));
			bds_dev_close(d);
			return -e;
		}
		d->sectors = bytes >> 9;
		d->lbs = (u32)lbs;
		d->pbs = pbs;
	} else {
		d->sectors = (u64)st.st_size >> 9;
		d->lbs = 512;
		d->pbs = 512;
	}
	return 0;
}

int bds_dev_open_held(struct bds_dev *d, const char *path, char *why,
		      size_t whysz)
{
	int fd, rc = bds_dev_open(d, path, false, why, whysz);

	if (rc)
		return rc;
	fd = open(path, O_RDWR | O_CLOEXEC | (d->direct ? O_DIRECT : 0));
	if (fd < 0) {
		rc = -errno;
		snprintf(why, whysz, "%s: %s", path, strerror(errno));
		bds_dev_close(d);
		return rc;
	}
	close(d->fd);
	d->fd = fd;
	return 0;
}

void bds_dev_close(struct bds_dev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

static int io_at(const struct bds_dev *d, void *buf, u64 sector, bool write)
{
	size_t done = 0;
	off_t off = (off_t)(sector << 9);

	while (done < BDS_LABEL_SIZE) {
		ssize_t n = write ?
			pwrite(d->fd, (u8 *)buf + done, BDS_LABEL_SIZE - done,
			       off + (off_t)done) :
			pread(d->fd, (u8 *)buf + done, BDS_LABEL_SIZE - done,
			      off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return write ? -ENOSPC : 1;	/* 1: end of device */
		done += (size_t)n;
	}
	return 0;
}

static void *label_buf(void)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, BDS_LABEL_SIZE))
		return NULL;
	return p;
}

/* Read the copy at @sector into slot @i of @out. */
static int read_copy(const struct bds_dev *d, u8 *buf, u64 sector, int i,
		     struct bds_dev_labels *out)
{
	int rc;

	out->sector[i] = sector;
	out->err[i] = BDS_LABEL_ERR_SHORT;
	if (sector + BDS_LABEL_SECTORS > d->sectors)
		return 0;
	rc = io_at(d, buf, sector, false);
	if (rc < 0) {
		out->io_err[i] = rc;
		return 0;
	}
	if (rc == 0)
		out->err[i] = bds_label_read(buf, BDS_LABEL_SIZE, sector,
					     &out->copy[i]);
	return 0;
}

/*
 * The copy in front of the data into slot 1 of @out, when it is valid;
 * else slot 1 keeps what was read at the end, and says why that is none.
 */
static void read_front(const struct bds_dev *d, u8 *buf,
		       struct bds_dev_labels *out)
{
	struct bds_label l;

	if (io_at(d, buf, BDS_LABEL_FRONT_BACKUP, false) != 0 ||
	    bds_label_read(buf, BDS_LABEL_SIZE, BDS_LABEL_FRONT_BACKUP,
			   &l) != BDS_LABEL_OK)
		return;
	out->sector[1] = BDS_LABEL_FRONT_BACKUP;
	out->err[1] = BDS_LABEL_OK;
	out->io_err[1] = 0;
	out->copy[1] = l;
}

/* bds_labels_read() into @buf (BDS_LABEL_SIZE, aligned): no allocation. */
static int labels_read_buf(const struct bds_dev *d, u8 *buf,
			   struct bds_dev_labels *out)
{
	u64 backup;

	memset(out, 0, sizeof(*out));
	out->pick = -1;
	read_copy(d, buf, BDS_LABEL_PRIMARY, 0, out);
	if (out->err[0] == BDS_LABEL_OK)
		backup = out->copy[0].backup_sector;
	else if (d->sectors >= BDS_LABEL_MIN_MEMBER)
		backup = bds_label_backup_sector(d->sectors);
	else
		backup = d->sectors;	/* nothing to read */
	read_copy(d, buf, backup, 1, out);
	/*
	 * As the kernel does: no valid primary and no valid copy at the
	 * end, the copy in front of the data (FRONT_BACKUP) replaces it.
	 */
	if (out->err[0] != BDS_LABEL_OK && out->err[1] != BDS_LABEL_OK &&
	    backup != BDS_LABEL_FRONT_BACKUP &&
	    d->sectors >= BDS_LABEL_FRONT_DATA + BDS_LABEL_SECTORS)
		read_front(d, buf, out);
	out->pick = bds_label_pick(out->err[0], &out->copy[0], out->err[1],
				   &out->copy[1]);
	/* as the kernel does: an unreadable copy is no copy */
	if (out->pick == -1 && (out->io_err[0] || out->io_err[1]))
		return out->io_err[0] ? out->io_err[0] : out->io_err[1];
	return 0;
}

int bds_labels_read(const struct bds_dev *d, struct bds_dev_labels *out)
{
	u8 *buf = label_buf();
	int rc;

	if (!buf) {
		memset(out, 0, sizeof(*out));
		out->pick = -1;
		return -ENOMEM;
	}
	rc = labels_read_buf(d, buf, out);
	free(buf);
	return rc;
}

/* What the reading child sends back. */
struct timed_read {
	int rc;			/* of the open (with why) or the read */
	bool opened;
	u64 sectors;
	char why[256];
	struct bds_dev_labels dl;
};

/*
 * In the child: no descriptor of the caller's but the pipe's stays open.
 * A child stuck in a read must not keep what its parent holds: the
 * assembly lock (a flock, which lives as long as any descriptor of its
 * file), a device opened exclusively.  Returns the pipe's descriptor.
 */
static int child_fds(int fd)
{
	int i;

	if (fd != 3 && dup2(fd, 3) < 0)
		_exit(1);
#ifdef SYS_close_range
	if (!syscall(SYS_close_range, 4U, ~0U, 0U))
		return 3;
#endif
	for (i = 4; i < 65536; i++)
		close(i);
	return 3;
}

/* In the child: open, read, send, exit.  No allocation (see below). */
static void __attribute__((noreturn))
child_read(const char *path, u8 *buf, struct timed_read *t, int fd)
{
	struct bds_dev d;
	size_t done = 0;

	fd = child_fds(fd);
	t->rc = bds_dev_open(&d, path, false, t->why, sizeof(t->why));
	if (!t->rc) {
		t->opened = true;
		t->sectors = d.sectors;
		t->rc = labels_read_buf(&d, buf, &t->dl);
		bds_dev_close(&d);
	}
	while (done < sizeof(*t)) {
		ssize_t n = write(fd, (u8 *)t + done, sizeof(*t) - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(1);
		done += (size_t)n;
	}
	_exit(0);
}

/* Read what the child sends, within @ms milliseconds in all. */
static int collect(int fd, void *buf, size_t len, int ms)
{
	struct timespec start, now;
	size_t done = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (done < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long left;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = ms - ((now.tv_sec - start.tv_sec) * 1000 +
			     (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!(p.revents & (POLLIN | POLLHUP)))
			continue;
		n = read(fd, (u8 *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;	/* the child died */
		done += (size_t)n;
	}
	return 0;
}

/*
 * The open and the reads run in a child process: a read of a device that
 * stops answering cannot be interrupted, and would hold the caller (and
 * with it a boot, or a udev worker) for as long as the device does.  The
 * child allocates nothing between fork() and _exit(), so that a caller
 * with threads is safe too.
 */
int bds_labels_read_path(const char *path, int timeout_ms, u64 *sectors,
			 struct bds_dev_labels *out, char *why, size_t whysz)
{
	struct timed_read *t = malloc(sizeof(*t));
	u8 *buf = label_buf();
	int pfd[2] = { -1, -1 }, rc, status;
	pid_t pid = -1;

	memset(out, 0, sizeof(*out));
	out->pick = -1;
	*sectors = 0;
	rc = -ENOMEM;
	if (!t || !buf)
		goto out;
	memset(t, 0, sizeof(*t));
	rc = pipe2(pfd, O_CLOEXEC) ? -errno : 0;
	if (!rc) {
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			rc = -errno;
	}
	if (rc) {
		snprintf(why, whysz, "%s: cannot start its read: %s", path,
			 strerror(-rc));
		goto out;
	}
	if (pid == 0) {
		close(pfd[0]);
		child_read(path, buf, t, pfd[1]);
	}
	close(pfd[1]);
	pfd[1] = -1;
	rc = collect(pfd[0], t, sizeof(*t), timeout_ms);
	if (rc == -ETIMEDOUT) {
		/* it goes when its read ends; nobody waits for it */
		kill(pid, SIGKILL);
		snprintf(why, whysz, "%s: did not answer within %d s", path,
			 timeout_ms / 1000);
		goto out;
	}
	waitpid(pid, &status, 0);
	if (rc) {
		snprintf(why, whysz, "%s: its read failed", path);
		goto out;
	}
	rc = t->rc;
	*sectors = t->sectors;
	*out = t->dl;
	if (!t->opened)
		snprintf(why, whysz, "%s", t->why);
	else if (rc)
		snprintf(why, whysz, "%s: read error: %s", path,
			 strerror(-rc));
out:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	free(t);
	free(buf);
	return rc;
}

/*
 * As bds_labels_read_path() bounds its reads: @probe runs in a child, and
 * its answer is taken only if it comes within @timeout_ms.  The child may
 * allocate (libblkid does): glibc makes malloc safe after fork(), and
 * bdsadm runs no threads while it scans.
 */
int bds_probe_within(int (*probe)(const char *path), const char *path,
		     int timeout_ms)
{
	int pfd[2], rc, status;
	signed char answer = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return rc;
	}
	if (pid == 0) {
		close(pfd[0]);
		answer = (signed char)probe(path);
		_exit(write(pfd[1], &answer, 1) == 1 ? 0 : 1);
	}
	close(pfd[1]);
	rc = collect(pfd[0], &answer, 1, timeout_ms);
	close(pfd[0]);
	if (rc == -ETIMEDOUT) {
		/* it goes when its read ends; nobody waits for it */
		kill(pid, SIGKILL);
		return rc;
	}
	waitpid(pid, &status, 0);
	return rc ? rc : answer;
}

const struct bds_label *bds_labels_best(const struct bds_dev_labels *dl)
{
	return dl->pick == 0 || dl->pick == 1 ? &dl->copy[dl->pick] : NULL;
}

void bds_label_id_of(struct bds_label_id *id, const struct bds_label *l)
{
	memset(id, 0, sizeof(*id));
	id->held = l ? BDS_HELD_LABEL : BDS_HELD_NONE;
	if (!l)
		return;
	memcpy(id->volume_uuid, l->volume_uuid, BDS_UUID_LEN);
	memcpy(id->member_uuid, l->member_uuid, BDS_UUID_LEN);
	id->generation = l->generation;
}

void bds_label_id_held(struct bds_label_id *id, const struct bds_dev_labels *dl)
{
	bds_label_id_of(id, bds_labels_best(dl));
	if (dl->pick == BDS_LABEL_PICK_CONFLICT)
		id->held = BDS_HELD_CONFLICT;
}

/*
 * MEASURED: a member's figures are its own (label.h), and the writers
 * build every member's label from one view of the volume, which carries
 * no figures of the others (bds_label_member_view()).  So a label
 * written without figures keeps those of the member's own label on the
 * device: the same volume and member UUIDs.  A new member (replace,
 * grow) has none until it is measured.
 */
static void keep_measured(struct bds_label *l, const struct bds_dev_labels *dl)
{
	int k, i;

	for (k = 0; k < 2 && !l->meas_disk; k++) {
		i = dl->pick == 1 ? !k : k;
		if (dl->err[i] != BDS_LABEL_OK || !dl->copy[i].meas_disk ||
		    memcmp(dl->copy[i].volume_uuid, l->volume_uuid, BDS_UUID_LEN) ||
		    memcmp(dl->copy[i].member_uuid, l->member_uuid, BDS_UUID_LEN))
			continue;
		l->meas_disk = dl->copy[i].meas_disk;
		l->meas_ctrl = dl->copy[i].meas_ctrl;
		l->meas_time = dl->copy[i].meas_time;
	}
}

/*
 * Does the device still hold @was?  0, -ESTALE, or a read's -errno; on 0,
 * @l (when not NULL) keeps the member's measured figures (keep_measured()).
 */
static int check_held(const struct bds_dev *d, const struct bds_label_id *was,
		      struct bds_label *l)
{
	struct bds_dev_labels *dl = malloc(sizeof(*dl));
	struct bds_label_id now;
	int rc;

	if (!dl)
		return -ENOMEM;
	rc = bds_labels_read(d, dl);
	if (!rc) {
		bds_label_id_held(&now, dl);
		if (memcmp(&now, was, sizeof(now)))
			rc = -ESTALE;
	}
	if (!rc && l)
		keep_measured(l, dl);
	free(dl);
	return rc;
}

const char *bds_label_io_error(int rc)
{
	if (rc == -ESTALE)
		return "it no longer holds the label it held when it was checked (another disk under that name, or changed since); nothing was written to it";
	return strerror(-rc);
}

static int write_copy(const struct bds_dev *d, u8 *buf, struct bds_label *l,
		      u64 sector)
{
	int rc;

	l->label_sector = sector;
	bds_label_encode(l, buf);
	rc = io_at(d, buf, sector, true);
	if (!rc && fdatasync(d->fd))
		rc = -errno;
	return rc;
}

#define COPY_PRIMARY	1
#define COPY_BACKUP	2

static int write_copies(const struct bds_dev *d, const struct bds_label_id *was,
			const struct bds_label *l, int which)
{
	struct bds_label *copy;
	u8 *buf;
	int rc;

	if (d->lbs > 4096 || l->backup_sector + BDS_LABEL_SECTORS > d->sectors)
		return -EINVAL;
	copy = malloc(sizeof(*copy));
	buf = label_buf();
	rc = -ENOMEM;
	if (copy && buf) {
		*copy = *l;
		rc = check_held(d, was, copy);
	}
	if (!rc) {
		if (which & COPY_PRIMARY)
			rc = write_copy(d, buf, copy, BDS_LABEL_PRIMARY);
		if (!rc && (which & COPY_BACKUP))
			rc = write_copy(d, buf, copy, copy->backup_sector);
	}
	free(copy);
	free(buf);
	return rc;
}

int bds_labels_write(const struct bds_dev *d, const struct bds_label_id *was,
		     const struct bds_label *l)
{
	return write_copies(d, was, l, COPY_PRIMARY | COPY_BACKUP);
}

int bds_label_write_primary(const struct bds_dev *d,
			    const struct bds_label_id *was,
			    const struct bds_label *l)
{
	return write_copies(d, was, l, COPY_PRIMARY);
}

int bds_label_write_backup(const struct bds_dev *d,
			   const struct bds_label_id *was,
			   const struct bds_label *l)
{
	return write_copies(d, was, l, COPY_BACKUP);
}

static int zero_at(const struct bds_dev *d, u8 *zero, u64 sector)
{
	if (sector + BDS_LABEL_SECTORS > d->sectors)
		return 0;
	return io_at(d, zero, sector, true);
}

/* Does a valid copy of @dl put the backup in front, the data to the end? */
static bool front_backup(const struct bds_dev_labels *dl)
{
	int i;

	for (i = 0; i < 2; i++)
		if (dl->err[i] == BDS_LABEL_OK &&
		    (dl->copy[i].incompat & BDS_LABEL_INCOMPAT_FRONT_BACKUP))
			return true;
	return false;
}

int bds_labels_wipe(const struct bds_dev *d, const struct bds_label_id *was)
{
	struct bds_dev_labels *dl = malloc(sizeof(*dl));
	struct bds_label_id now;
	u8 *zero = label_buf();
	int rc = -ENOMEM;

	if (!dl || !zero)
		goto out;
	memset(zero, 0, BDS_LABEL_SIZE);
	rc = bds_labels_read(d, dl);
	if (rc)
		goto out;
	bds_label_id_held(&now, dl);
	rc = -ESTALE;
	if (memcmp(&now, was, sizeof(now)))
		goto out;
	/* the primary's place, unless another tool's data is there */
	rc = dl->err[0] == BDS_LABEL_ERR_MAGIC ? 0 :
	     zero_at(d, zero, BDS_LABEL_PRIMARY);
	/* the end's place, unless a copy says the data runs there */
	if (!rc && d->sectors >= BDS_LABEL_MIN_MEMBER && !front_backup(dl))
		rc = zero_at(d, zero, bds_label_backup_sector(d->sectors));
	/* and where the copies found say the backup is */
	if (!rc && dl->err[0] == BDS_LABEL_OK)
		rc = zero_at(d, zero, dl->copy[0].backup_sector);
	if (!rc && dl->err[1] == BDS_LABEL_OK)
		rc = zero_at(d, zero, dl->sector[1]);
	if (!rc && fdatasync(d->fd))
		rc = -errno;
out:
	free(dl);
	free(zero);
	return rc;
}
