// SPDX-License-Identifier: GPL-2.0
/*
 * mklabel FILE [OPTION]... - test fixture: make FILE a 2 GiB sparse file
 * carrying the golden label (tests/libbds/label-golden.h), both copies, as
 * bdsadm's label I/O writes them.  Options change the label first:
 *   --member N        the label of member N (0..2) instead of 1
 *   --generation N    generation N
 *   --name NAME       volume name NAME
 *   --other-backup    then overwrite the backup with a copy of another
 *                     volume (a conflict)
 *   --weighted        the weighted golden label (weights 3,1,2), as
 *                     member N: its data is that member's share
 *                     (give it first)
 *   --weights-mode    the weighted golden label whose weights were
 *                     chosen by capacity (give it first)
 * Only the tests use it; bdsadm create will write real labels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "../../tools/label-io.h"
#include "../libbds/label-golden.h"

int main(int argc, char **argv)
{
	static struct bds_label l;
	static u8 buf[BDS_LABEL_SIZE];
	bool other = false;
	struct bds_label_id blank;
	struct bds_dev d;
	char why[256];
	int i, fd;

	if (argc < 2) {
		fprintf(stderr, "usage: mklabel FILE [--weighted|--weights-mode] [--member N] [--generation N] [--name NAME] [--other-backup]\n");
		return 2;
	}
	golden_label(&l);
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--weighted")) {
			golden_weighted_label(&l);
		} else if (!strcmp(argv[i], "--weights-mode")) {
			golden_weights_mode_label(&l);
		} else if (!strcmp(argv[i], "--member") && i + 1 < argc) {
			u64 unit = l.data_sectors / l.weight[l.member_index];

			l.member_index = (u32)atoi(argv[++i]) % 3;
			memcpy(l.member_uuid, l.uuid[l.member_index], BDS_UUID_LEN);
			l.data_sectors = unit * l.weight[l.member_index];
		} else if (!strcmp(argv[i], "--generation") && i + 1 < argc) {
			l.generation = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			snprintf(l.name, sizeof(l.name), "%s", argv[++i]);
		} else if (!strcmp(argv[i], "--other-backup")) {
			other = true;
		} else {
			fprintf(stderr, "mklabel: bad option %s\n", argv[i]);
			return 2;
		}
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)(GOLDEN_MEMBER_SECTORS << 9)) || close(fd)) {
		perror(argv[1]);
		return 1;
	}
	if (bds_dev_open(&d, argv[1], true, why, sizeof(why))) {
		fprintf(stderr, "mklabel: %s\n", why);
		return 1;
	}
	bds_label_id_of(&blank, NULL);	/* the file was made just now */
	if (bds_labels_write(&d, &blank, &l)) {
		fprintf(stderr, "mklabel: write failed\n");
		return 1;
	}
	bds_dev_close(&d);
	if (other) {
		l.volume_uuid[0] ^= 0xff;
		l.label_sector = l.backup_sector;
		bds_label_encode(&l, buf);
		fd = open(argv[1], O_WRONLY);
		if (fd < 0 || pwrite(fd, buf, sizeof(buf),
				     (off_t)(l.backup_sector << 9)) !=
		    (ssize_t)sizeof(buf) || close(fd)) {
			perror(argv[1]);
			return 1;
		}
	}
	return 0;
}
