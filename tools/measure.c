// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm plan --measure and create --measure: see measure.h.  The
 * figures become the plan's --disk-mbps and --controller-mbps, and the
 * summary shows them (plan_print_measure()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bdsadm.h"
#include "measure.h"
#include "plan.h"

/* What was measured, for the summary (argument order, controller order). */
struct plan_meas {
	double each;			/* seconds per measurement */
	double took;			/* seconds, all of it */
	struct meas_fig *disk;		/* c->mem[i] alone */
	bool *busy;			/* other I/O during its measurement */
	struct meas_fig *ctrl;		/* c->ctrls[k]'s disks together */
	double *alone_sum, *limit;	/* their sum alone; the limit (0: none) */
	struct meas_fig all;		/* every disk together */
};

/* One device being read: its descriptor, where it is, what it read. */
struct meas_dev {
	const char *name;
	int fd;
	unsigned long long size;	/* bytes */
	unsigned long long off;
	void *buf;
	unsigned long long bytes;	/* in the slice */
	unsigned long long total;	/* in all slices */
	double end, done;		/* the slice's end; when it stopped */
	int err;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *read_until(void *arg)
{
	struct meas_dev *d = arg;
	ssize_t n;

	while (now_s() < d->end) {
		n = pread(d->fd, d->buf, MEAS_IO, (off_t)d->off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			d->err = errno;
			break;
		}
		d->bytes += (unsigned long long)n;
		d->total += (unsigned long long)n;
		d->off += (unsigned long long)n;
		if (n < (ssize_t)MEAS_IO || d->off + MEAS_IO > d->size)
			d->off = 0;
	}
	d->done = now_s();
	return NULL;
}

/* One slice over the @n devices @set together: MB/s, or -1 (said why). */
static double slice(struct meas_dev **set, int n, double secs)
{
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	double start = now_s(), last = start;
	unsigned long long bytes = 0;
	int i, started = 0, err = 0, rerr = 0;

	if (!t) {
		bds_err("--measure: out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		set[i]->bytes = 0;
		set[i]->err = 0;
		set[i]->end = start + secs;
		err = pthread_create(&t[i], NULL, read_until, set[i]);
		if (err) {
			bds_err("--measure: cannot start a reader of %s: %s",
				set[i]->name, strerror(err));
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++) {
		pthread_join(t[i], NULL);
		bytes += set[i]->bytes;
		if (set[i]->done > last)
			last = set[i]->done;
		if (set[i]->err && !rerr) {
			rerr = set[i]->err;
			bds_err("--measure: reading %s: %s", set[i]->name,
				strerror(rerr));
		}
	}
	free(t);
	if (started < n || rerr || last <= start)
		return -1;
	return (double)bytes / (last - start) / 1e6;
}

/*
 * The figure of @set read together: MEAS_SLICES slices of @secs in all,
 * after one more that does not count (a disk's first reads, a cache or a
 * throttle's burst, are not its stream); once more when the spread is
 * above MEAS_SPREAD_MAX, and the steadier run counts.  False (said why)
 * when a read failed.
 */
static bool measure_set(struct meas_dev **set, int n, double secs,
			struct meas_fig *f)
{
	double s[MEAS_SLICES];
	struct meas_fig again;
	int run, i;

	for (run = 0; run < 2; run++) {
		/* a slice first, not counted: a start is not the stream */
		if (slice(set, n, secs / MEAS_SLICES) < 0)
			return false;
		for (i = 0; i < MEAS_SLICES; i++) {
			s[i] = slice(set, n, secs / MEAS_SLICES);
			if (s[i] < 0)
				return false;
		}
		meas_figure(s, MEAS_SLICES, run ? &again : f);
		if (!run && f->spread <= MEAS_SPREAD_MAX)
			break;
		if (run && again.spread < f->spread)
			*f = again;
	}
	return true;
}

/* Sectors read and writes completed of @m so far (its sysfs stat). */
static bool io_counts(const struct member *m, unsigned long long *rsect,
		      unsigned long long *writes)
{
	unsigned long long v[5];
	char path[PATH_MAX + 8];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/stat", m->dir);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fscanf(f, "%llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4]);
	fclose(f);
	if (n != 5)
		return false;
	*rsect = v[2];
	*writes = v[4];
	return true;
}

static void close_devs(struct meas_dev *d, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (d[i].fd >= 0)
			close(d[i].fd);
		free(d[i].buf);
	}
	free(d);
}

/* Every member opened for reading, exclusively, into *@out. */
static enum plan_status open_devs(struct plan_ctx *c, struct meas_dev **out)
{
	struct meas_dev *d = calloc((size_t)c->nmem, sizeof(*d));
	enum plan_status st = PLAN_OK;
	char path[NAME_SZ + 8];
	int i;

	*out = NULL;
	if (!d)
		return plan_fail(c, "--measure: out of memory");
	for (i = 0; i < c->nmem; i++)
		d[i].fd = -1;
	for (i = 0; i < c->nmem; i++) {
		snprintf(path, sizeof(path), "/dev/%s", c->mem[i].name);
		d[i].name = c->mem[i].name;
		d[i].size = c->mem[i].size * 512ULL;
		d[i].fd = open(path, O_RDONLY | O_DIRECT | O_EXCL | O_CLOEXEC);
		if (d[i].fd < 0 && errno == EBUSY)
			st = plan_fail(c, "--measure: %s is in use (an exclusive open fails: mounted, or held by device-mapper, md or a program); it measures idle devices only",
				       path);
		else if (d[i].fd < 0)
			st = plan_fail(c, "--measure: cannot open %s: %s", path,
				       strerror(errno));
		else if (d[i].size < MEAS_IO)
			st = plan_fail(c, "--measure: %s is smaller than one read (1 MiB)",
				       path);
		else if (posix_memalign(&d[i].buf, 4096, MEAS_IO))
			st = plan_fail(c, "--measure: out of memory");
		if (st) {
			close_devs(d, c->nmem);
			return st;
		}
	}
	*out = d;
	return PLAN_OK;
}

/* The disks alone, with a word when other I/O ran beside the reads. */
static bool measure_alone(struct plan_ctx *c, struct meas_dev *d,
			  struct plan_meas *pm)
{
	unsigned long long r0, w0, r1, w1;
	struct meas_dev *one;
	bool counted;
	int i;

	for (i = 0; i < c->nmem; i++) {
		one = &d[i];
		counted = io_counts(&c->mem[i], &r0, &w0);
		d[i].total = 0;
		if (!measure_set(&one, 1, pm->each, &pm->disk[i]))
			return false;
		/* reads beyond this process's own, or any write */
		if (counted && io_counts(&c->mem[i], &r1, &w1) &&
		    (w1 != w0 || (r1 - r0) * 512 > d[i].total + 4 * MEAS_IO)) {
			pm->busy[i] = true;
			note(c, "--measure: %s had other I/O during its measurement (written to, or read by another): its figure may be low; measure again when it is idle",
			     c->mem[i].name);
		}
		if (pm->disk[i].spread > MEAS_SPREAD_MAX)
			note(c, "--measure: %s's figure varied by %.0f %% between slices (other I/O?): uncertain",
			     c->mem[i].name, pm->disk[i].spread * 100);
	}
	return true;
}

/* Each controller's disks together, then all of them. */
static bool measure_groups(struct plan_ctx *c, struct meas_dev *d,
			   struct plan_meas *pm)
{
	struct meas_dev **set = calloc((size_t)c->nmem, sizeof(*set));
	double *alone = calloc((size_t)c->nmem, sizeof(*alone));
	bool ok = set && alone;
	int k, i, n;

	if (!ok)
		bds_err("--measure: out of memory");
	for (k = 0; ok && k < c->nctrl; k++) {
		for (i = 0, n = 0; i < c->nmem; i++)
			if (c->mem[i].ctrl == k) {
				set[n] = &d[i];
				alone[n++] = pm->disk[i].median;
				pm->alone_sum[k] += pm->disk[i].median;
			}
		if (n < 2)
			continue;
		ok = measure_set(set, n, pm->each, &pm->ctrl[k]);
		if (ok)
			pm->limit[k] = meas_ctrl_limit(alone, n,
						       pm->ctrl[k].median);
	}
	for (i = 0; ok && i < c->nmem; i++)
		set[i] = &d[i];
	if (ok && c->nctrl > 1)
		ok = measure_set(set, c->nmem, pm->each, &pm->all);
	free(set);
	free(alone);
	return ok;
}

static struct plan_meas *meas_new(int nmem, int nctrl)
{
	struct plan_meas *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return NULL;
	pm->disk = calloc((size_t)nmem, sizeof(*pm->disk));
	pm->busy = calloc((size_t)nmem, sizeof(*pm->busy));
	pm->ctrl = calloc((size_t)nctrl, sizeof(*pm->ctrl));
	pm->alone_sum = calloc((size_t)nctrl, sizeof(*pm->alone_sum));
	pm->limit = calloc((size_t)nctrl, sizeof(*pm->limit));
	if (pm->disk && pm->busy && pm->ctrl && pm->alone_sum && pm->limit)
		return pm;
	plan_meas_free(pm);
	return NULL;
}

void plan_meas_free(struct plan_meas *pm)
{
	if (!pm)
		return;
	free(pm->disk);
	free(pm->busy);
	free(pm->ctrl);
	free(pm->alone_sum);
	free(pm->limit);
	free(pm);
}

/* The figures as --disk-mbps and --controller-mbps would give them. */
static enum plan_status as_speeds(struct plan_ctx *c, struct plan_meas *pm)
{
	struct plan_opts *o = &c->opt;
	int i, k;

	o->disk_list = calloc((size_t)c->nmem, sizeof(double));
	o->ctrl_list = calloc((size_t)c->nctrl, sizeof(double));
	if (!o->disk_list || !o->ctrl_list)
		return plan_fail(c, "--measure: out of memory");
	for (i = 0; i < c->nmem; i++)
		o->disk_list[i] = pm->disk[i].median;
	for (k = 0; k < c->nctrl; k++)
		o->ctrl_list[k] = pm->limit[k];
	/* noise apart: equal disks get equal weights, the same each time */
	meas_settle(o->disk_list, c->nmem);
	meas_settle(o->ctrl_list, c->nctrl);
	plan_take_measured(c);
	return PLAN_OK;
}

void plan_take_measured(struct plan_ctx *c)
{
	struct plan_opts *o = &c->opt;

	o->ndisk = c->nmem;
	o->nctrl_mbps = c->nctrl;
	o->disk_mbps = o->disk_list[0];
	o->ctrl_mbps = o->ctrl_list[0];
	o->have_disk_mbps = true;
	o->have_ctrl_mbps = true;
	o->wt_tolerance = MEAS_TOLERANCE;
}

enum plan_status plan_measure(struct plan_ctx *c)
{
	struct plan_meas *pm;
	struct meas_dev *d;
	double start = now_s();
	int k, groups = 0;
	bool ok;

	if (!c->opt.real_sysfs)
		return plan_usage(c, "--measure reads the devices: not with --sysfs");
	for (k = 0; k < c->nctrl; k++)
		groups += c->ctrls[k].nmembers > 1;
	pm = meas_new(c->nmem, c->nctrl);
	if (!pm)
		return plan_fail(c, "--measure: out of memory");
	c->meas = pm;
	pm->each = c->opt.measure_time > 0 ?
		   c->opt.measure_time / (c->nmem + groups + (c->nctrl > 1)) :
		   MEAS_SECONDS_EACH;
	if (open_devs(c, &d))
		return PLAN_REFUSED;
	bds_progress("measuring (reads only): %d disk%s alone, %d controller%s disks together%s, %.1f s each, about %.0f s",
		     c->nmem, c->nmem == 1 ? "" : "s", groups,
		     groups == 1 ? "'s" : "s'",
		     c->nctrl > 1 ? ", all of them together" : "", pm->each,
		     pm->each * (1 + 1.0 / MEAS_SLICES) *
		     (c->nmem + groups + (c->nctrl > 1)));
	ok = measure_alone(c, d, pm) && measure_groups(c, d, pm);
	close_devs(d, c->nmem);
	pm->took = now_s() - start;
	if (!ok)
		return plan_fail(c, "--measure: stopped (the reason is above); nothing was written");
	return as_speeds(c, pm);
}

void plan_print_measure(const struct plan_ctx *c)
{
	const struct plan_meas *pm = c->meas;
	int i, k;

	if (!pm)
		return;
	printf("\nMeasured (sequential O_DIRECT reads of 1 MiB, %.1f s each; %.0f s in all; MB = 10^6 bytes):\n",
	       pm->each, pm->took);
	for (i = 0; i < c->nmem; i++)
		printf("  %-10s alone          %8.1f MB/s  (slices %.1f to %.1f, spread %.0f %%)%s\n",
		       c->mem[i].name, pm->disk[i].median, pm->disk[i].min,
		       pm->disk[i].max, pm->disk[i].spread * 100,
		       pm->busy[i] ? "  busy" : "");
	for (k = 0; k < c->nctrl; k++) {
		if (c->ctrls[k].nmembers < 2) {
			printf("  %-10s one disk: no limit of its own can show\n",
			       c->ctrls[k].name);
			continue;
		}
		printf("  %-10s disks together %8.1f MB/s  (alone %.1f summed, spread %.0f %%): %s\n",
		       c->ctrls[k].name, pm->ctrl[k].median, pm->alone_sum[k],
		       pm->ctrl[k].spread * 100,
		       pm->limit[k] > 0 ? "the controller limits them" :
		       "no controller limit");
	}
	if (c->nctrl > 1)
		printf("  all disks together       %8.1f MB/s  (spread %.0f %%)\n",
		       pm->all.median, pm->all.spread * 100);
	printf("  (figures within %.0f %% of each other are taken as one, their median,\n"
	       "   to two significant digits: the speeds the plan goes by below)\n",
	       MEAS_SAME * 100);
}

/* plan --json's "measured": null, or the figures (MB/s) */
void plan_json_measure(const struct plan_ctx *c)
{
	const struct plan_meas *pm = c->meas;
	int i, k;

	printf("  \"measured\": ");
	if (!pm) {
		printf("null,\n");
		return;
	}
	printf("{\"seconds_each\": %.1f, \"seconds\": %.1f, \"disks\": [",
	       pm->each, pm->took);
	for (i = 0; i < c->nmem; i++)
		printf("%s\n    {\"device\": \"%s\", \"mbps\": %.1f, \"min_mbps\": %.1f, \"max_mbps\": %.1f, \"spread\": %.3f, \"busy\": %s}",
		       i ? "," : "", c->mem[i].name, pm->disk[i].median,
		       pm->disk[i].min, pm->disk[i].max, pm->disk[i].spread,
		       pm->busy[i] ? "true" : "false");
	printf("],\n   \"controllers\": [");
	for (k = 0; k < c->nctrl; k++) {
		printf("%s\n    {\"name\": \"%s\", ", k ? "," : "",
		       c->ctrls[k].name);
		if (c->ctrls[k].nmembers < 2)
			printf("\"together_mbps\": null, ");
		else
			printf("\"together_mbps\": %.1f, ", pm->ctrl[k].median);
		printf("\"alone_sum_mbps\": %.1f, \"limit_mbps\": ",
		       pm->alone_sum[k]);
		if (pm->limit[k] > 0)
			printf("%.1f}", pm->limit[k]);
		else
			printf("null}");
	}
	printf("],\n   \"all_mbps\": ");
	if (c->nctrl > 1)
		printf("%.1f},\n", pm->all.median);
	else
		printf("null},\n");
}
