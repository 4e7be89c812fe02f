// SPDX-License-Identifier: GPL-2.0
/*
 * bds-mklabels - test fixture for the guests: write bds-stripe member
 * labels (libbds/label.c, both copies) onto block devices and print the
 * table that goes with them, "volume <uuid>" included.  bdsadm create
 * will do this for real (with its checks); the VM tests of the kernel's
 * label check need labelled members before it exists.
 *
 *   bds-mklabels [--gen N] [--only M] [--name NAME] [--new M]
 *                [--copies both|primary] [--old-members K --ckpt A]
 *                UUID CHUNK LAYOUT GROUPS DEV...
 *
 * GROUPS is the group sizes, "2,1"; DEV... the members in table order.
 * Each member's data offset is the format's default (1 MiB rounded up to
 * the stripe unit and the member's physical block); every member holds
 * the same whole number of stripe units, the most the smallest one can.
 * Member M's UUID is the volume's with byte 14 = M and byte 15 = 0xee;
 * its serial "BDSTEST-M", its group's controller "ctlG".  --only M writes
 * member M's label alone (the others' are left as they are), --gen N
 * gives generation N (default 1).  --new M gives member M another UUID
 * (byte 13 ^ 0x5a) and the serial "BDSTEST-NEW", as a disk that replaced
 * member M would have; --copies primary writes the primary copy only,
 * leaving the backup as it is (the state of a membership change
 * interrupted on that member).
 *
 * --old-members K --ckpt A (both or neither) label a volume mid-restripe
 * (feature RESHAPE, always forward): the old geometry is the first K
 * members (1 <= K < number of members) in one group, the same layout,
 * weights 1, each at the default data offset, holding the same data per
 * member as above; the new one is every member in GROUPS, the first K at
 * the data offsets libbds's bds_reshape_propose() gives forward, the
 * others at the default.  A is the checkpoint in stripe units: units
 * [0, A) are in the new geometry, the rest in the old one.  A restripe
 * libbds would refuse (bds_reshape_check(), bds_reshape_pos_ok(), A
 * beyond the old length) exits 1 without writing anything.
 *
 * The table goes to stdout:
 *   0 <len> bds-stripe <chunk> <#groups> ... <#opt> [layout L] volume UUID
 * and mid-restripe, <len> the old length and the member words with the new
 * offsets:
 *   ... <#opt> [layout L] volume UUID reshape forward A <new_len> K L
 *       0:<old_off0>:1,1:<old_off1>:1,...
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../../../libbds/label.h"
#include "../../../libbds/reshape.h"
#include "../../../libbds/table.h"

static void die(const char *what, const char *dev)
{
	fprintf(stderr, "bds-mklabels: %s%s%s: %s\n", what, dev ? " " : "",
		dev ? dev : "", strerror(errno));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: bds-mklabels [--gen N] [--only M] [--name NAME] [--new M] [--copies both|primary] [--old-members K --ckpt A] UUID CHUNK interleave|sequential GROUPS DEV...\n");
	exit(2);
}

/* A use of the fixture that libbds would refuse: say why, write nothing. */
static void refuse(const char *what, const char *why)
{
	fprintf(stderr, "bds-mklabels: %s%s%s\n", what, why ? ": " : "",
		why ? why : "");
	exit(1);
}

/*
 * Mid-restripe (--old-members K --ckpt A): make the old geometry (table
 * members 0..K-1 in one group, @l's layout, weights 1, at the data
 * offsets @l has now, the defaults) and the new one (@l's groups, all
 * its members), each member holding @data sectors in both; have
 * bds_reshape_propose() move the old members' data down (forward), check
 * the pair and checkpoint @ckpt as the target will, and put the new
 * offsets and the RESHAPE section into @l.  @end and @pbs, per member,
 * are as bds_reshape_propose() takes them (sectors).
 */
static void restripe(struct bds_label *l, u32 k, u64 ckpt, u64 data,
		     const u64 *end, const u32 *pbs)
{
	static struct bds_geom g_old, g_new;
	struct bds_reshape r = {
		.old = &g_old, .new = &g_new, .dir = BDS_RESHAPE_FORWARD,
	};
	struct bds_layout lo, ln;
	enum bds_reshape_err err;
	u8 id[BDS_MAX_MEMBERS];
	u32 i, n = l->nr_members, one_group = k;
	u64 units = data / l->chunk_sectors * n;

	if (k < 1 || k >= n)
		refuse("--old-members must be 1 to the number of members - 1", NULL);
	if (bds_layout_init(&lo, l->chunk_sectors, &one_group, 1,
			    (enum bds_order_mode)l->layout) ||
	    bds_layout_init(&ln, l->chunk_sectors, l->group_size, l->nr_groups,
			    (enum bds_order_mode)l->layout))
		refuse("the old or the new geometry is refused", NULL);
	for (i = 0; i < n; i++)
		id[i] = (u8)i;
	err = bds_geom_init(&g_old, &lo, data / l->chunk_sectors * k, id,
			    l->member_offset, n);
	if (err)
		refuse("old geometry", bds_reshape_error(err));
	err = bds_geom_init(&g_new, &ln, units, id, l->member_offset, n);
	if (err)
		refuse("new geometry", bds_reshape_error(err));
	/* units is set: propose only moves the old members' offsets */
	bds_reshape_propose(&g_new, &g_old, BDS_RESHAPE_FORWARD, end, pbs);
	if (g_new.units != units)
		refuse("bds_reshape_propose() changed the new length", NULL);
	err = bds_reshape_check(&r);
	if (err)
		refuse("restripe", bds_reshape_error(err));
	if (ckpt > g_old.units)
		refuse("--ckpt is beyond the old geometry's stripe units", NULL);
	if (!bds_reshape_pos_ok(&r, ckpt))
		refuse("--ckpt is not a state of the copy (bds_reshape_pos_ok())",
		       NULL);

	for (i = 0; i < n; i++)
		l->member_offset[i] = g_new.offset[i];
	/* the encoder sets incompat RESHAPE because old_nr_members is not 0 */
	l->reshape_pos = ckpt;
	l->reshape_dir = BDS_RESHAPE_FORWARD;
	l->old_nr_members = k;
	l->old_nr_groups = 1;
	l->old_group_size[0] = k;
	l->old_layout = l->layout;
	l->old_member_len = data;
	for (i = 0; i < k; i++) {
		l->old_member[i] = g_old.member[i];
		l->old_weight[i] = 1;
		l->old_offset[i] = g_old.offset[i];
	}
}

static void put(int fd, const char *dev, struct bds_label *l, u64 sector)
{
	static u8 buf[BDS_LABEL_SIZE];

	l->label_sector = sector;
	bds_label_encode(l, buf);
	if (pwrite(fd, buf, sizeof(buf), (off_t)(sector << 9)) != (ssize_t)sizeof(buf) ||
	    fdatasync(fd))
		die("write to", dev);
}

int main(int argc, char **argv)
{
	static struct bds_label l;
	u64 gen = 1, size[BDS_MAX_MEMBERS], end[BDS_MAX_MEMBERS], data = ~0ULL;
	u64 ckpt = 0;
	unsigned int pbs[BDS_MAX_MEMBERS];
	u32 pbs_sectors[BDS_MAX_MEMBERS];
	int only = -1, newm = -1, a = 1, i, n, fd;
	int backup = 1, old_k = 0, have_old = 0, have_ckpt = 0;
	const char *name = "labelled";
	char *groups, *tok;
	u32 g, chunk;

	for (; a < argc && argv[a][0] == '-'; a += 2) {
		if (a + 1 >= argc)
			usage();
		if (!strcmp(argv[a], "--gen"))
			gen = strtoull(argv[a + 1], NULL, 10);
		else if (!strcmp(argv[a], "--only"))
			only = atoi(argv[a + 1]);
		else if (!strcmp(argv[a], "--name"))
			name = argv[a + 1];
		else if (!strcmp(argv[a], "--new"))
			newm = atoi(argv[a + 1]);
		else if (!strcmp(argv[a], "--copies"))
			backup = strcmp(argv[a + 1], "primary");
		else if (!strcmp(argv[a], "--old-members")) {
			old_k = atoi(argv[a + 1]);
			have_old = 1;
		} else if (!strcmp(argv[a], "--ckpt")) {
			ckpt = strtoull(argv[a + 1], NULL, 10);
			have_ckpt = 1;
		} else
			usage();
	}
	if (argc - a < 5 || !bds_parse_uuid(argv[a], l.volume_uuid) ||
	    have_old != have_ckpt)
		usage();
	chunk = (u32)strtoul(argv[a + 1], NULL, 10);
	l.layout = !strcmp(argv[a + 2], "sequential");
	groups = argv[a + 3];
	n = argc - a - 4;
	for (tok = strtok(groups, ","); tok; tok = strtok(NULL, ","))
		l.group_size[l.nr_groups++] = (u32)atoi(tok);
	l.nr_members = (u32)n;
	l.chunk_sectors = chunk;
	l.generation = gen;
	l.ctime = 1767225600;
	l.utime = 1767225600 + gen;
	snprintf(l.name, sizeof(l.name), "%s", name);

	for (i = 0; i < n; i++) {
		const char *dev = argv[a + 4 + i];

		fd = open(dev, O_RDONLY);
		if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size[i]) ||
		    ioctl(fd, BLKPBSZGET, &pbs[i]))
			die("cannot size", dev);
		close(fd);
		size[i] >>= 9;
		memcpy(l.uuid[i], l.volume_uuid, BDS_UUID_LEN);
		l.uuid[i][14] = (u8)i;
		l.uuid[i][15] = 0xee;
		l.weight[i] = 1;
		snprintf(l.serial[i], sizeof(l.serial[i]), "BDSTEST-%d", i);
		if (i == newm) {
			l.uuid[i][13] ^= 0x5a;
			snprintf(l.serial[i], sizeof(l.serial[i]), "BDSTEST-NEW");
		}
		l.member_offset[i] = bds_label_data_offset(chunk, pbs[i] >> 9);
		end[i] = bds_label_backup_sector(size[i]);
		pbs_sectors[i] = pbs[i] >> 9;
		if ((end[i] - l.member_offset[i]) / chunk * chunk < data)
			data = (end[i] - l.member_offset[i]) / chunk * chunk;
	}
	for (g = 0; g < l.nr_groups; g++)
		snprintf(l.controller[g], sizeof(l.controller[g]), "ctl%u", g);
	l.data_sectors = data;
	if (have_old)
		restripe(&l, (u32)old_k, ckpt, data, end, pbs_sectors);

	for (i = 0; i < n; i++) {
		const char *dev = argv[a + 4 + i];

		if (only >= 0 && only != i)
			continue;
		l.member_index = (u32)i;
		memcpy(l.member_uuid, l.uuid[i], BDS_UUID_LEN);
		l.data_offset = l.member_offset[i];
		l.member_sectors = size[i];
		l.backup_sector = bds_label_backup_sector(size[i]);
		fd = open(dev, O_RDWR);
		if (fd < 0)
			die("cannot open", dev);
		put(fd, dev, &l, BDS_LABEL_PRIMARY);
		if (backup)
			put(fd, dev, &l, l.backup_sector);
		close(fd);
	}

	printf("0 %llu bds-stripe %u %u",
	       (unsigned long long)data * (u64)(have_old ? old_k : n), chunk,
	       l.nr_groups);
	for (i = 0, g = 0; g < l.nr_groups; g++) {
		u32 k;

		printf(" %u", l.group_size[g]);
		for (k = 0; k < l.group_size[g]; k++, i++)
			printf(" %s %llu", argv[a + 4 + i],
			       (unsigned long long)l.member_offset[i]);
	}
	printf(" %d%s volume %s", (l.layout ? 4 : 2) + (have_old ? 7 : 0),
	       l.layout ? " layout sequential" : "", argv[a]);
	if (have_old) {
		printf(" reshape forward %llu %llu %u %s", (unsigned long long)ckpt,
		       (unsigned long long)data * (u64)n, l.old_group_size[0],
		       l.old_layout ? "sequential" : "interleave");
		for (i = 0; i < old_k; i++)
			printf("%c%u:%llu:%u", i ? ',' : ' ', l.old_member[i],
			       (unsigned long long)l.old_offset[i],
			       l.old_weight[i]);
	}
	printf("\n");
	return 0;
}
