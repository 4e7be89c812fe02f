// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm check [--rate MB/S] NAME: read every sector of every member of
 * an active volume (a scrub: the volume has no redundancy, so this only
 * finds what cannot be read, before the data is needed), member after
 * member in table order.  Progress goes to stderr (a line redrawn on a
 * terminal, a line every 10 s otherwise).  Each unreadable range is
 * printed on stdout by member (table index, device, sectors on the
 * device) and by the volume sectors that map there (the target's own
 * layout, bds_unmap_sector() of libbds/layout.h); ranges are inclusive,
 * in 512-byte sectors.  The members are read directly, not through the
 * volume, so the volume's health string does not change.
 *
 * Exit 0 when everything was read; 1 when some range is unreadable, a
 * member cannot be opened, or NAME is not an active volume; 2 usage.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bdsadm.h"
#include "fmt.h"
#include "check.h"
#include "member-dev.h"

#define CHECK_USAGE "check [--rate MB/S] NAME"
/* volume ranges printed per unreadable range; the rest are counted */
#define MAX_VOL_PIECES	8

static struct bds_vol V;
static struct bds_member_dev M[BDS_MAX_MEMBERS];

/* The volume sectors of member sectors [r->start, r->end), on stdout. */
static void print_volume_ranges(const struct chk *c, const struct chk_range *r)
{
	const struct bds_layout *l = &c->layout;
	u64 s = r->start, n, vs, first = 0, last = 0;
	unsigned int pieces = 0, more = 0;
	bool open = false;

	printf(", volume sectors");
	for (; s < r->end; s += n) {
		n = bds_chunk_left(l, s);
		if (n > r->end - s)
			n = r->end - s;
		vs = bds_unmap_sector(l, r->member, s);
		if (open && vs == last + 1) {
			last = vs + n - 1;
			continue;
		}
		if (open && pieces++ < MAX_VOL_PIECES)
			printf(" %llu-%llu", U(first), U(last));
		else if (open)
			more++;
		first = vs;
		last = vs + n - 1;
		open = true;
	}
	if (pieces++ < MAX_VOL_PIECES)
		printf(" %llu-%llu", U(first), U(last));
	else
		more++;
	if (more)
		printf(" and %u more", more);
	printf("\n");
}

static void print_findings(const struct chk *c)
{
	size_t i;

	for (i = 0; i < c->nbad; i++) {
		const struct chk_range *r = &c->bad[i];
		u64 off = c->vol->offset[r->member];

		printf("unreadable: member %u (stripe position %u, %s%s%s), device sectors %llu-%llu (%llu sectors)",
		       r->member, c->vol->pos_of[r->member],
		       M[r->member].node, M[r->member].serial[0] ?
		       ", serial " : "", M[r->member].serial,
		       U(off + r->start), U(off + r->end - 1),
		       U(r->end - r->start));
		print_volume_ranges(c, r);
	}
}

/* @c's layout from V's table, with its weights; an exit status. */
static int layout_of_table(struct chk *c)
{
	static struct bds_slot slot[BDS_MAX_SLOTS];
	static u16 slot_of[BDS_MAX_SLOTS];
	enum bds_geom_err e;
	char mid[160];
	u32 m, w = 0;

	e = bds_layout_init(&c->layout, V.args.chunk, V.args.group_size,
			    V.args.nr_groups, V.args.mode);
	if (e == BDS_OK)
		e = bds_weights_check(&c->layout, V.args.weight, &w);
	if (e == BDS_OK)
		bds_layout_weigh(&c->layout, V.args.weight, w, slot, slot_of);
	if (e != BDS_OK || !bds_member_len(&c->layout, V.sectors,
					   &c->member_len)) {
		bds_err("%s: its table does not give a layout (%s); 'dmsetup table %s' shows it",
			V.name, e != BDS_OK ?
			bds_mid(bds_geom_error(e), mid, sizeof(mid)) :
			"length not a whole number of stripes", V.name);
		return BDS_EXIT_FAIL;
	}
	/* the status order is the layout's: pos_of for the messages */
	for (m = 0; m < c->layout.nr_members; m++)
		V.pos_of[m] = (u16)bds_member_slot(&c->layout, m, 0);
	c->vol = &V;
	return BDS_EXIT_OK;
}

/* The volume and its layout; an exit status. */
static int open_volume(const char *name, struct chk *c)
{
	if (!bds_vol_dm_available()) {
		bds_err("%s: %s", name, BDS_DM_ABSENT);
		return BDS_EXIT_FAIL;
	}
	if (!bds_vol_read(name, &V) ||
	    strncmp(V.dm_uuid, BDS_DM_UUID_PREFIX, strlen(BDS_DM_UUID_PREFIX))) {
		bds_err("%s: no such active bds-stripe volume; 'bdsadm list' shows the volumes ('bdsadm assemble %s' activates one)",
			name, name);
		return BDS_EXIT_FAIL;
	}
	if (!V.have_table) {
		bds_err("%s: cannot read its table (%s); 'dmsetup table %s' shows what is loaded",
			name, V.why, name);
		return BDS_EXIT_FAIL;
	}
	if (V.args.reshape_given) {
		bds_err("%s: it is mid-restripe (its table has \"reshape\"): a member's data lies in two places until the restripe ends, and check reads one geometry; nothing was read",
			name);
		return BDS_EXIT_FAIL;
	}
	return layout_of_table(c);
}

/* Read members @first to @last - 1; print what cannot be read. */
static int run_check(struct chk *c, u32 first, u32 last)
{
	char path[NAME_SZ + 8];
	bool unopened = false;
	u32 m, k;

	for (c->total = 0, m = first; m < last; m++)
		c->total += chk_member_len(c, m);
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	for (m = first; m < last; m++) {
		bds_member_dev(V.dev[m], &M[m]);
		snprintf(path, sizeof(path), "/dev/%s", M[m].kname);
		if (!M[m].found) {
			bds_err("member %u (%s) is not in /sys/dev/block: its disk is gone; it is not checked",
				m, V.dev[m]);
			unopened = true;
		} else if (chk_member(c, m, path)) {
			unopened = true;
		}
		for (c->done = 0, k = first; k <= m; k++)
			c->done += chk_member_len(c, k);
	}
	chk_progress(c, last - 1, true);
	print_findings(c);
	if (c->nomem)
		printf("out of memory: not every unreadable range is listed\n");
	if (c->layout.slot)	/* weighted: the members' lengths differ */
		printf("%s: %u member%s, %llu sectors in all, read, %zu unreadable range%s%s\n",
		       V.name, last - first, last - first == 1 ? "" : "s",
		       U(c->total), c->nbad, c->nbad == 1 ? "" : "s",
		       unopened ? ", some member not checked" : "");
	else
		printf("%s: %u member%s of %llu sectors read, %zu unreadable range%s%s\n",
		       V.name, last - first, last - first == 1 ? "" : "s",
		       U(c->member_len), c->nbad,
		       c->nbad == 1 ? "" : "s",
		       unopened ? ", some member not checked" : "");
	if (c->nbad)
		printf("%s: copy off what you need from outside the ranges above, then replace the member (bdsadm(8))\n",
		       V.name);
	free(c->bad);
	return c->nbad || unopened || c->nomem ? BDS_EXIT_FAIL : BDS_EXIT_OK;
}

int bds_cmd_check(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "rate", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct chk c = { 0 };
	const char *name;
	double mbps;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "r:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'r':
			if (!parse_mbps(optarg, &mbps)) {
				bds_err("--rate %s: not a number of MB/s (10^6 bytes a second, more than 0)",
					optarg);
				return bds_usage(CHECK_USAGE);
			}
			c.rate = mbps * 1e6;
			break;
		case 'h':
			printf("usage: bdsadm " CHECK_USAGE "\n");
			return BDS_EXIT_OK;
		default:
			return bds_usage(CHECK_USAGE);
		}
	}
	if (optind + 1 != argc)
		return bds_usage(CHECK_USAGE);
	name = bds_vol_name_arg(argv[optind]);
	if (!name)
		return bds_usage(CHECK_USAGE);
	c.tty = isatty(STDERR_FILENO);
	rc = open_volume(name, &c);
	return rc ? rc : run_check(&c, 0, V.nr_members);
}

int bds_check_table_member(const struct bds_vol *vol, u32 m, const char *path,
			    struct chk *c)
{
	int rc;

	V = *vol;
	c->tty = isatty(STDERR_FILENO);
	if (m >= V.nr_members || layout_of_table(c))
		return -1;
	bds_member_dev(V.dev[m], &M[m]);
	c->total = chk_member_len(c, m);
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	rc = chk_member(c, m, path);
	chk_progress(c, m, true);
	print_findings(c);
	if (c->nomem) {
		printf("out of memory: not every unreadable range is listed\n");
		rc = -1;
	}
	return rc;
}

int bds_check_member(const char *name, u32 m)
{
	struct chk c = { 0 };
	int rc;

	c.tty = isatty(STDERR_FILENO);
	rc = open_volume(name, &c);
	if (!rc && m >= V.nr_members)
		rc = BDS_EXIT_FAIL;
	return rc ? rc : run_check(&c, m, m + 1);
}
