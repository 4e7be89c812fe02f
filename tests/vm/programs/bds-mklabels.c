// SPDX-License-Identifier: GPL-2.0
/*
 * bds-mklabels - test fixture for the guests: write bds-stripe member
 * labels (libbds/label.c, both copies) onto block devices and print the
 * table that goes with them, "volume <uuid>" included.  bdsadm create
 * will do this for real (with its checks); the VM tests of the kernel's
 * label check need labelled members before it exists.
 *
 *   bds-mklabels [--gen N] [--only M] [--name NAME] [--new M]
 *                [--copies both|primary] UUID CHUNK LAYOUT GROUPS DEV...
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
 * interrupted on that member).  The table goes to stdout:
 *   0 <len> bds-stripe <chunk> <#groups> ... <#opt> [layout L] volume UUID
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
#include "../../../libbds/table.h"

static void die(const char *what, const char *dev)
{
	fprintf(stderr, "bds-mklabels: %s%s%s: %s\n", what, dev ? " " : "",
		dev ? dev : "", strerror(errno));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: bds-mklabels [--gen N] [--only M] [--name NAME] [--new M] [--copies both|primary] UUID CHUNK interleave|sequential GROUPS DEV...\n");
	exit(2);
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
	u64 gen = 1, size[BDS_MAX_MEMBERS], data = ~0ULL;
	unsigned int pbs[BDS_MAX_MEMBERS];
	int only = -1, newm = -1, a = 1, i, n, fd;
	int backup = 1;
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
		else
			usage();
	}
	if (argc - a < 5 || !bds_parse_uuid(argv[a], l.volume_uuid))
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
		if ((bds_label_backup_sector(size[i]) - l.member_offset[i]) / chunk * chunk < data)
			data = (bds_label_backup_sector(size[i]) - l.member_offset[i]) /
			       chunk * chunk;
	}
	for (g = 0; g < l.nr_groups; g++)
		snprintf(l.controller[g], sizeof(l.controller[g]), "ctl%u", g);
	l.data_sectors = data;

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

	printf("0 %llu bds-stripe %u %u", (unsigned long long)data * (u64)n,
	       chunk, l.nr_groups);
	for (i = 0, g = 0; g < l.nr_groups; g++) {
		u32 k;

		printf(" %u", l.group_size[g]);
		for (k = 0; k < l.group_size[g]; k++, i++)
			printf(" %s %llu", argv[a + 4 + i],
			       (unsigned long long)l.member_offset[i]);
	}
	printf(" %d%s volume %s\n", l.layout ? 4 : 2,
	       l.layout ? " layout sequential" : "", argv[a]);
	return 0;
}
