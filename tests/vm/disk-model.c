// SPDX-License-Identifier: GPL-2.0
/*
 * bds-disk-model: an nbdkit plugin that serves the disks of one emulated
 * controller, each taking time per request (make bench's disk model,
 * vm-run's "backing=model").
 *
 * Every disk serves its requests one at a time, in the order they reach
 * the plugin.  A request of n bytes costs the disk a fixed time L
 * (command, seek, rotation) and then a transfer of n / disk_bps.  The
 * transfer also crosses the controller, a pipe of ctl_bps that carries
 * the transfers booked on it one after another: a transfer ends when
 * both the disk (n / disk_bps from the end of L) and the controller (n /
 * ctl_bps after the transfers booked before it, and not before the end
 * of L) are done.  Disks whose sum is below the controller's bandwidth
 * therefore never wait for it, one disk alone delivers n / (L + n /
 * min(disk_bps, ctl_bps)), and the disks of a controller together never
 * more than ctl_bps.
 *
 * The emulator's own path (guest, QEMU's NBD client, this socket) takes
 * a time of its own per request, which a real host spends in
 * microseconds but a TCG guest in up to a millisecond or two.  With
 * path-us=P, the time a disk has stood idle since its previous request
 * ended, up to P, counts towards the next request's L: at queue depth 1
 * the path's round trip is then hidden inside L instead of added to it
 * (a disk idle for longer still pays L - P; a queued request, which finds
 * the disk busy, pays the whole L).
 *
 * With rotation-us=R, a disk also misses a revolution between
 * back-to-back requests, as a disk without command queuing does when the
 * host sends its next command only after the previous one ended: a
 * request that arrived while the disk was still serving the previous one
 * and starts where that one ended has no seek, but its first sector has
 * just passed under the head.  It waits until the previous end plus R
 * instead of paying L.  A request that finds the disk idle pays L as
 * before (L's average rotation), sequential or not, so a stream at queue
 * depth 1 does not pay R: only the requests a striping layer sends in a
 * burst to one disk do (striped's and md's units of a transfer that wraps
 * the stripe).
 *
 * The plugin does the I/O on a sparse image file per disk at once, then
 * sleeps until the modelled end (clock_nanosleep, absolute, on
 * CLOCK_MONOTONIC): the time a request takes is the model's, not the host
 * file's, as long as the host keeps up.
 *
 * Parameters (nbdkit PLUGIN key=value):
 *   dir=DIR          the images: DIR/NAME.img for each disk
 *   disk=NAME:BPS    one disk (an export named NAME), BPS bytes/s, 0 for no
 *                    limit; repeat for each disk of the controller
 *   ctl-bps=BPS      the controller's bandwidth (0, the default: none)
 *   latency-us=US    L, in microseconds (default 0)
 *   path-us=US       P, in microseconds (default 0: none of the idle
 *                    time counts)
 *   rotation-us=US   R, in microseconds (default 0: no missed
 *                    revolution; back-to-back requests pay L)
 *
 * QEMU opens one NBD connection per disk (export NAME): the handle of a
 * connection is its disk.
 */
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL
#define MAX_DISKS 64
#define NSEC 1000000000ULL

struct disk {
	char name[64];
	uint64_t bps;			/* 0: no limit */
	int fd;
	int64_t size;
	pthread_mutex_t lock;		/* guards the tickets */
	pthread_cond_t turn;		/* serving moved on */
	uint64_t tickets;		/* requests that arrived */
	uint64_t serving;		/* the ticket being served */
	uint64_t idle_since;		/* ns: its last request ended (0: none yet) */
	uint64_t next_off;		/* where its last request ended */
};

static const char *dir;
static struct disk disks[MAX_DISKS];
static unsigned int nr_disks;
static uint64_t ctl_bps, latency_ns, path_ns, rotation_ns;
static pthread_mutex_t ctl_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t ctl_free_at;		/* ns: the controller's bookings end */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = t / NSEC, .tv_nsec = t % NSEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* n bytes at bps bytes/s, in ns (0 for no limit) */
static uint64_t xfer_ns(uint64_t n, uint64_t bps)
{
	return bps ? n * NSEC / bps : 0;
}

static int parse_u64(const char *what, const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || end == s || *end) {
		nbdkit_error("%s: not a number: %s", what, s);
		return -1;
	}
	return 0;
}

static int model_config(const char *key, const char *value)
{
	struct disk *d;
	const char *colon;

	if (!strcmp(key, "dir")) {
		dir = value;
		return 0;
	}
	if (!strcmp(key, "ctl-bps"))
		return parse_u64(key, value, &ctl_bps);
	if (!strcmp(key, "latency-us")) {
		if (parse_u64(key, value, &latency_ns))
			return -1;
		latency_ns *= 1000;
		return 0;
	}
	if (!strcmp(key, "path-us")) {
		if (parse_u64(key, value, &path_ns))
			return -1;
		path_ns *= 1000;
		return 0;
	}
	if (!strcmp(key, "rotation-us")) {
		if (parse_u64(key, value, &rotation_ns))
			return -1;
		rotation_ns *= 1000;
		return 0;
	}
	if (strcmp(key, "disk")) {
		nbdkit_error("unknown parameter %s", key);
		return -1;
	}
	colon = strchr(value, ':');
	if (!colon || colon == value || (size_t)(colon - value) >= sizeof(d->name)) {
		nbdkit_error("disk=NAME:BPS, not %s", value);
		return -1;
	}
	if (nr_disks == MAX_DISKS) {
		nbdkit_error("more than %d disks", MAX_DISKS);
		return -1;
	}
	d = &disks[nr_disks];
	memcpy(d->name, value, (size_t)(colon - value));
	d->name[colon - value] = '\0';
	if (parse_u64(key, colon + 1, &d->bps))
		return -1;
	d->fd = -1;
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->turn, NULL);
	nr_disks++;
	return 0;
}

static int model_config_complete(void)
{
	char path[PATH_MAX];
	struct stat st;
	unsigned int i;

	if (!dir || !nr_disks) {
		nbdkit_error("dir= and at least one disk= are needed");
		return -1;
	}
	for (i = 0; i < nr_disks; i++) {
		snprintf(path, sizeof(path), "%s/%s.img", dir, disks[i].name);
		disks[i].fd = open(path, O_RDWR | O_CLOEXEC);
		if (disks[i].fd < 0 || fstat(disks[i].fd, &st)) {
			nbdkit_error("%s: %m", path);
			return -1;
		}
		disks[i].size = st.st_size;
	}
	return 0;
}

static int model_list_exports(int readonly, int is_tls,
			      struct nbdkit_exports *exports)
{
	unsigned int i;

	for (i = 0; i < nr_disks; i++)
		if (nbdkit_add_export(exports, disks[i].name, NULL))
			return -1;
	return 0;
}

static void *model_open(int readonly)
{
	const char *name = nbdkit_export_name();
	unsigned int i;

	for (i = 0; name && i < nr_disks; i++)
		if (!strcmp(disks[i].name, name))
			return &disks[i];
	nbdkit_error("no disk %s", name ? name : "(none)");
	return NULL;
}

static int64_t model_get_size(void *handle)
{
	return ((struct disk *)handle)->size;
}

/*
 * L for a request arriving at @now on disk @d: less the time the disk
 * stood idle since its last request, up to path_ns.
 */
static uint64_t latency_at(const struct disk *d, uint64_t now)
{
	uint64_t idle = d->idle_since && now > d->idle_since ? now - d->idle_since : 0;

	if (idle > path_ns)
		idle = path_ns;
	return latency_ns > idle ? latency_ns - idle : 0;
}

/*
 * When a request that arrived at @arrived and starts at @off may start on
 * disk @d, the disk free from @now: a back-to-back sequential request
 * waits out the revolution it missed (rotation_ns), any other pays L.
 */
static uint64_t start_at(const struct disk *d, uint64_t arrived, uint64_t off,
			 uint64_t now)
{
	uint64_t turn;

	if (rotation_ns && d->idle_since && arrived < d->idle_since &&
	    off == d->next_off) {
		turn = d->idle_since + rotation_ns;
		return turn > now ? turn : now;
	}
	return now + latency_at(d, now);
}

/*
 * Serve one request of @n bytes on disk @d: book it as the model says,
 * do the I/O (@write: pwrite of @wbuf, else pread into @rbuf), and come
 * back at the modelled end.
 */
static int serve(struct disk *d, void *rbuf, const void *wbuf, uint32_t n,
		 uint64_t off)
{
	uint64_t arrived = now_ns(), now, start, end, cend, ticket;
	ssize_t r;
	int ret = 0;

	/* in the order they arrived: nbdkit's threads may race to the disk */
	pthread_mutex_lock(&d->lock);
	ticket = d->tickets++;
	while (d->serving != ticket)
		pthread_cond_wait(&d->turn, &d->lock);
	pthread_mutex_unlock(&d->lock);
	now = now_ns();
	start = start_at(d, arrived, off, now);
	end = start + xfer_ns(n, d->bps);
	if (ctl_bps) {
		pthread_mutex_lock(&ctl_lock);
		cend = (ctl_free_at > start ? ctl_free_at : start) + xfer_ns(n, ctl_bps);
		ctl_free_at = cend;
		pthread_mutex_unlock(&ctl_lock);
		if (end < cend)
			end = cend;
	}
	r = wbuf ? pwrite(d->fd, wbuf, n, (off_t)off) : pread(d->fd, rbuf, n, (off_t)off);
	if (r != (ssize_t)n) {
		nbdkit_error("%s: %s at %llu: %m", d->name, wbuf ? "write" : "read",
			     (unsigned long long)off);
		ret = -1;
	}
	sleep_until(end);
	/* from the modelled end: the sleep's overshoot is the path's too */
	d->idle_since = end;
	d->next_off = off + n;
	pthread_mutex_lock(&d->lock);
	d->serving++;
	pthread_cond_broadcast(&d->turn);
	pthread_mutex_unlock(&d->lock);
	return ret;
}

static int model_pread(void *handle, void *buf, uint32_t count,
		       uint64_t offset, uint32_t flags)
{
	return serve(handle, buf, NULL, count, offset);
}

static int model_pwrite(void *handle, const void *buf, uint32_t count,
			uint64_t offset, uint32_t flags)
{
	return serve(handle, NULL, buf, count, offset);
}

/* The model's disks have no cache: a flush costs nothing. */
static int model_flush(void *handle, uint32_t flags)
{
	return 0;
}

static struct nbdkit_plugin plugin = {
	.name = "bdsdiskmodel",
	.version = "1",
	.longname = "bds-stripe bench disk model",
	.config = model_config,
	.config_complete = model_config_complete,
	.config_help = "dir=DIR disk=NAME:BPS... [ctl-bps=BPS] [latency-us=US] [path-us=US] [rotation-us=US]",
	.list_exports = model_list_exports,
	.open = model_open,
	.get_size = model_get_size,
	.pread = model_pread,
	.pwrite = model_pwrite,
	.flush = model_flush,
};

NBDKIT_REGISTER_PLUGIN(plugin)
