// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm grow --continue NAME (see grow.h): find the volume mid-restripe
 * and its members, bring every label to the target's checkpoint, run the
 * copy loop, and finish: plain labels, then the new geometry's table.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bdsadm.h"
#include "dm.h"
#include "grow.h"
#include "member-dev.h"
#include "replace.h"
#include "run-lock.h"
#include "systemd.h"
#include "util.h"
#include "volume.h"

int grow_refuse(struct grow *g, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (g->tty)
		fputc('\n', stderr);
	bds_err("grow %s: %s", g->name, msg);
	return BDS_EXIT_FAIL;
}

/*
 * The restart's label write on member @m: the copy that is not valid
 * first, so that a cut never tears the one valid copy a cut before left
 * (Documentation/bds-stripe-label.rst, Restripe, Resuming).
 */
static int resume_member(struct grow *g, u32 m, const struct bds_label *l)
{
	struct bds_dev_labels dl;
	struct bds_label_id was;
	int r;

	bds_label_id_of(&was, &g->ml[m]);
	r = bds_labels_read(&g->dev[m], &dl);
	if (r)
		return r;
	if (dl.err[1] != BDS_LABEL_OK) {
		r = bds_label_write_backup(&g->dev[m], &was, l);
		return r ? r : bds_label_write_primary(&g->dev[m], &was, l);
	}
	r = bds_label_write_primary(&g->dev[m], &was, l);
	return r ? r : bds_label_write_backup(&g->dev[m], &was, l);
}

int grow_resume_labels(struct grow *g)
{
	struct bds_label l;
	u32 m;
	int r;

	for (m = 0; m < g->vol.nr_members; m++) {
		l = g->ml[m];
		l.reshape_pos = g->ckpt;
		r = resume_member(g, m, &l);
		if (r)
			return grow_refuse(g, "member %u (%s): cannot write its labels (%s); nothing was copied",
					   m, g->dev[m].path,
					   bds_label_io_error(r));
		g->ml[m] = l;
	}
	return 0;
}

int grow_write_checkpoint(struct grow *g, u64 ckpt)
{
	struct bds_label_id was;
	struct bds_label l;
	u32 m;
	int r;

	for (m = 0; m < g->vol.nr_members; m++) {
		l = g->ml[m];
		l.reshape_pos = ckpt;
		bds_label_id_of(&was, &g->ml[m]);
		r = bds_labels_write(&g->dev[m], &was, &l);
		if (r)
			return grow_refuse(g, "member %u (%s): cannot write its labels (%s)",
					   m, g->dev[m].path,
					   bds_label_io_error(r));
		g->ml[m] = l;
		if (!m)
			rpl_crash_point("grow-one-label");
	}
	return 0;
}

/*
 * The lock is held: when by the restripe's unit (started by assemble),
 * pause it (its SIGTERM) and go on here, with this run's options.
 */
static bool take_over(struct grow *g, int fd)
{
	char unit[BDS_DM_NAME_SZ + 32];

	snprintf(unit, sizeof(unit), "bds-stripe-grow@%s.service", g->name);
	if (!bds_systemd_running() || !bds_unit_active(unit))
		return false;
	bds_info("grow %s: the restripe runs in %s: pausing it to go on here",
	       g->name, unit);
	fflush(stdout);
	return bds_stop_unit(unit) && !flock(fd, LOCK_EX | LOCK_NB);
}

/* One copier per volume: a lock in the run directory, held until exit. */
static int lock_volume(struct grow *g)
{
	char path[256];
	int fd;

	if (g->lock_fd > 0)
		return 0;	/* this run holds it already (grow --add) */
	mkdir(BDS_RUN_DIR, 0755);
	snprintf(path, sizeof(path), BDS_RUN_DIR "/grow-%s.lock", g->name);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return grow_refuse(g, "cannot open %s (%s)", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) && !take_over(g, fd)) {
		close(fd);
		return grow_refuse(g, "another bdsadm grow is restriping it (%s is locked); nothing was changed",
				   path);
	}
	g->lock_fd = fd;	/* open until exit: so is the lock */
	return 0;
}

/* The target's checkpoint and held band ("reshape status"). */
static int live_checkpoint(struct grow *g)
{
	char buf[128];
	unsigned long long c, h;
	unsigned int n;
	int r = bds_dm_message(g->name, "reshape status", buf, sizeof(buf));

	if (r)
		return grow_refuse(g, "the target does not answer 'reshape status' (%s): its module is older than this bdsadm ('dmsetup targets' shows its version; 1.8.0 or later restripes)",
				   strerror(-r));
	if (sscanf(buf, "checkpoint %llu hold %llu held %u", &c, &h, &n) != 3)
		return grow_refuse(g, "the target's restripe status '%s' is not one this bdsadm reads",
				   buf);
	if (h != c)
		return grow_refuse(g, "the target holds stripe units %llu to %llu: another copier is at work; nothing was changed",
				   c < h ? c : h, (c < h ? h : c) - 1);
	g->ckpt = c;
	return 0;
}

/* The members, in table order, open; their labels; the geometries. */
static int open_members(struct grow *g)
{
	char why[256];
	const struct bds_found *f;
	enum bds_reshape_err err;
	u64 lo = ~0ULL, hi = 0;
	u32 m;

	for (m = 0; m < g->vol.nr_members; m++) {
		f = &g->scan.found[g->r.member[m]];
		if (bds_dev_open_held(&g->dev[m], f->dev, why, sizeof(why)))
			return grow_refuse(g, "member %u: %s", m, why);
		if (!g->dev[m].direct)
			return grow_refuse(g, "member %u (%s) cannot be read and written with O_DIRECT: the copy would go through a page cache the volume bypasses",
					   m, f->dev);
		g->ml[m] = f->label;
		lo = g->ml[m].reshape_pos < lo ? g->ml[m].reshape_pos : lo;
		hi = g->ml[m].reshape_pos > hi ? g->ml[m].reshape_pos : hi;
	}
	err = bds_reshape_from_label(g->r.label, &g->g_new, &g->s_new,
				     &g->g_old, &g->s_old);
	if (err)
		return grow_refuse(g, "its labels' restripe is not one this bdsadm can run: %s",
				   bds_reshape_error(err));
	g->rs.old = &g->g_old;
	g->rs.new = &g->g_new;
	g->rs.dir = (enum bds_reshape_dir)g->r.label->reshape_dir;
	g->end = g->rs.dir == BDS_RESHAPE_FORWARD ? g->g_old.units : 0;
	if (g->ckpt < lo || g->ckpt > hi)
		return grow_refuse(g, "the target's checkpoint %llu is not one the labels record (%llu to %llu); stop and assemble the volume again",
				   (unsigned long long)g->ckpt,
				   (unsigned long long)lo, (unsigned long long)hi);
	return 0;
}

/* Each member of the live table is the device its labels give it. */
static int same_members(struct grow *g)
{
	char mm[24];
	u32 m;

	for (m = 0; m < g->vol.nr_members; m++)
		if (!bds_majmin_of(g->scan.found[g->r.member[m]].dev, mm, sizeof(mm)) ||
		    strcmp(mm, g->vol.dev[m]))
			return grow_refuse(g, "member %u of the live table (%s) is not the device its labels give that position",
					   m, g->vol.dev[m]);
	return 0;
}

int grow_find(struct grow *g, bool restriping)
{
	u8 vu[BDS_UUID_LEN];
	u32 m;

	if (!bds_vol_dm_available())
		return grow_refuse(g, "%s", BDS_DM_ABSENT);
	if (!bds_vol_read(g->name, &g->vol) || !g->vol.have_table ||
	    strncmp(g->vol.dm_uuid, BDS_DM_UUID_PREFIX, 4))
		return grow_refuse(g, "no such active bds-stripe volume made by bdsadm; 'bdsadm list' shows the volumes");
	if (g->vol.args.reshape_given != restriping)
		return GROW_OTHER_STATE;
	if (!g->vol.have_status)
		return grow_refuse(g, "cannot read its status (%s)", g->vol.why);
	for (m = 0; m < g->vol.nr_members; m++)
		if (g->vol.health[m] != 'A')
			return grow_refuse(g, "member %u (%s) has failed (status D)%s; 'bdsadm detail %s' shows the member",
					   m, g->vol.dev[m], restriping ?
					   ": the restripe stays where it is" :
					   ": replace it first", g->name);
	if (lock_volume(g) || (restriping && live_checkpoint(g)))
		return -1;
	if (bds_scan("/sys", &g->scan))
		return grow_refuse(g, "cannot list the block devices");
	if (!bds_uuid_parse(g->vol.dm_uuid + 4, vu) ||
	    bds_assemble(g->scan.found, g->scan.n, NULL, vu, &g->r) != BDS_ASM_OK ||
	    g->r.rollback ||
	    !(g->r.label->incompat & BDS_LABEL_INCOMPAT_RESHAPE) != !restriping)
		return grow_refuse(g, "its members' labels do not describe the active volume%s ('bdsadm detail %s' shows them)",
				   restriping ? " mid-restripe" : "", g->name);
	if (same_members(g))
		return -1;
	return restriping ? open_members(g) : 0;
}

/* The end: plain labels, then the new geometry's table and length. */
static int finish(struct grow *g)
{
	static char params[16384];
	const char *devp[BDS_MAX_MEMBERS];
	struct bds_label_id was;
	struct bds_label l;
	u64 old_len = g->g_old.units * g->g_old.layout.chunk, len;
	u32 m;
	int r;

	rpl_crash_point("grow-done");
	for (m = 0; m < g->vol.nr_members; m++) {
		l = g->ml[m];
		bds_label_end_restripe(&l);
		bds_label_id_of(&was, &g->ml[m]);
		r = bds_labels_write(&g->dev[m], &was, &l);
		if (r)
			return grow_refuse(g, "member %u (%s): cannot write its labels (%s); the volume stays usable as it is, and assemble finishes the labels",
					   m, g->dev[m].path, bds_label_io_error(r));
		g->ml[m] = l;
		if (!m)
			rpl_crash_point("grow-one-plain");
	}
	for (m = 0; m < g->vol.nr_members; m++)
		devp[m] = g->vol.dev[m];
	len = bds_volume_length(&g->ml[0]);
	if (!bds_volume_params(&g->ml[0], devp, params, sizeof(params)) ||
	    !bds_dm_swap_table(g->name, len, "bds-stripe", params))
		return grow_refuse(g, "device-mapper refused the new table (dmesg says why): the restripe is done and the labels say so; 'bdsadm stop %s' and 'bdsadm assemble %s' bring it up at its new size",
				   g->name, g->name);
	rpl_crash_point("grow-reloaded");
	bds_info("grow %s: done: %llu MiB -> %llu MiB, %u members, stripe width %llu KiB",
	       g->name, (unsigned long long)(old_len >> 11),
	       (unsigned long long)(len >> 11), g->vol.nr_members,
	       (unsigned long long)(g->g_new.layout.chunk *
				    bds_label_slots(&g->ml[0]) / 2));
	if (len > old_len)
		bds_info("grow %s: a file system keeps its size: grow XFS with 'xfs_growfs MOUNTPOINT'",
		       g->name);
	if (g->g_new.layout.nr_slots != g->g_old.layout.nr_slots)
		bds_info("grow %s: a file system keeps its geometry: mount XFS with -o sunit=%llu,swidth=%llu to use the new width",
		       g->name, (unsigned long long)g->g_new.layout.chunk,
		       (unsigned long long)(g->g_new.layout.chunk *
					    bds_label_slots(&g->ml[0])));
	return BDS_EXIT_OK;
}

static int do_continue(struct grow *g)
{
	struct bds_reshape_sched s;
	size_t bytes;
	int r;

	r = grow_find(g, true);
	if (r == GROW_OTHER_STATE) {
		bds_info("grow %s: not mid-restripe; nothing to resume",
		       g->name);
		return BDS_EXIT_OK;
	}
	if (r)
		return BDS_EXIT_FAIL;
	grow_catch_signals();
	/* a restart: every label at the target's checkpoint first */
	if (grow_resume_labels(g))
		return BDS_EXIT_FAIL;
	bds_reshape_sched_init(&s, g->g_new.layout.chunk, 0, 0);
	g->window_sectors = s.window * g->g_new.layout.chunk;
	bytes = (size_t)(g->window_sectors << 9);
	if (posix_memalign((void **)&g->old_buf, 4096, bytes) ||
	    posix_memalign((void **)&g->new_buf, 4096, bytes))
		return grow_refuse(g, "cannot allocate %zu bytes of copy buffers", 2 * bytes);
	bds_info("grow %s: restriping %s from stripe unit %llu of %llu while the volume stays in use%s",
	       g->name, g->rs.dir == BDS_RESHAPE_FORWARD ? "forward" : "backward",
	       (unsigned long long)g->ckpt, (unsigned long long)g->g_old.units,
	       g->rate > 0 ? " (rate-limited)" : "");
	fflush(stdout);
	r = grow_copy(g);
	if (r == 1) {
		bds_info("grow %s: paused at stripe unit %llu of %llu; 'bdsadm grow --continue %s' resumes",
		       g->name, (unsigned long long)g->ckpt,
		       (unsigned long long)g->g_old.units, g->name);
		return BDS_EXIT_OK;
	}
	if (r)
		return BDS_EXIT_FAIL;
	return finish(g);
}

/* What grow's option parsing found. */
struct grow_args {
	bool cont, add, force, measure;
	const char *layout, *weights;
};

static int grow_options(int argc, char **argv, struct grow *g,
			struct grow_args *ga)
{
	static const struct option lo[] = {
		{ "continue", no_argument, NULL, 'c' },
		{ "add", no_argument, NULL, 'a' },
		{ "force", no_argument, NULL, 'f' },
		{ "measure", no_argument, NULL, 'm' },
		{ "layout", required_argument, NULL, 'l' },
		{ "weights", required_argument, NULL, 'w' },
		{ "rate", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double mbs;
	int c;

	while ((c = getopt_long(argc, argv, "cafml:w:r:h", lo, NULL)) != -1) {
		switch (c) {
		case 'c':
			ga->cont = true;
			break;
		case 'a':
			ga->add = true;
			break;
		case 'f':
			ga->force = true;
			break;
		case 'm':
			ga->measure = true;
			break;
		case 'l':
			ga->layout = optarg;
			break;
		case 'w':
			ga->weights = optarg;
			break;
		case 'r':
			if (!parse_mbps(optarg, &mbs)) {
				bds_err("--rate %s: not a number of MB/s (10^6 bytes a second, more than 0)",
					optarg);
				return bds_usage(GROW_USAGE);
			}
			g->rate = mbs * 1e6;
			break;
		case 'h':
			printf("usage: bdsadm " GROW_USAGE "\n");
			return -1;
		default:
			return bds_usage(GROW_USAGE);
		}
	}
	if (ga->cont + ga->add + !!(ga->layout || (ga->weights && !ga->add)) != 1) {
		bds_err("grow: give --add DEVICE... to restripe onto more disks, --layout or --weights to restripe the same ones, or --continue to carry a restripe on: one of them");
		return bds_usage(GROW_USAGE);
	}
	if (ga->add ? argc - optind < 2 : argc - optind != 1)
		return bds_usage(GROW_USAGE);
	if (ga->force && !ga->add)
		return bds_usage(GROW_USAGE);
	if (ga->measure && !ga->add) {
		bds_err("grow: --measure reads the disks --add brings (the members are in use: their speeds come from what create --measure recorded in their labels)");
		return bds_usage(GROW_USAGE);
	}
	g->name = bds_vol_name_arg(argv[optind]);
	return g->name ? 0 : bds_usage(GROW_USAGE);
}

/* Let go of what one pass over the volume took; the lock stays. */
static void grow_release(struct grow *g)
{
	u32 m;

	for (m = 0; m < BDS_MAX_MEMBERS; m++)
		bds_dev_close(&g->dev[m]);
	bds_scan_free(&g->scan);
	memset(&g->scan, 0, sizeof(g->scan));
	memset(&g->r, 0, sizeof(g->r));
}

int bds_cmd_grow(int argc, char **argv)
{
	static struct grow g;
	struct grow_args ga = { 0 };
	int rc;
	u32 m;

	for (m = 0; m < BDS_MAX_MEMBERS; m++)
		g.dev[m].fd = -1;
	rc = grow_options(argc, argv, &g, &ga);
	if (rc)
		return rc < 0 ? BDS_EXIT_OK : rc;
	g.tty = isatty(2);
	rc = BDS_EXIT_OK;
	if (ga.add) {
		rc = grow_add(&g, argv + optind + 1, argc - optind - 1, ga.force,
			      ga.measure, ga.weights);
		grow_release(&g);
	} else if (ga.layout || ga.weights) {
		rc = grow_relayout(&g, ga.layout, ga.weights);
		grow_release(&g);
		if (rc == GROW_NOTHING)
			return BDS_EXIT_OK;
	}
	if (!rc)
		rc = do_continue(&g);
	grow_release(&g);
	free(g.old_buf);
	free(g.new_buf);
	return rc;
}
