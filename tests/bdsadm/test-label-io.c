// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of bdsadm's label I/O (tools/label-io.c) on sparse regular
 * files standing in for member disks:
 *   - a written label is found twice: the primary at sector 8, the
 *     backup where the label says, each saying where it lies;
 *   - the bytes on "disk" are the golden vector's (primary copy);
 *   - a corrupt primary: the backup counts; both corrupt: no label;
 *   - the newer generation wins from either copy;
 *   - copies of two different volumes: a conflict, no label;
 *   - a member that grew: the backup is still found through the primary;
 *   - wipe leaves neither copy;
 *   - a member whose backup lies in front of its data (FRONT_BACKUP):
 *     with no primary and no valid copy at the end, the copy at sector
 *     2032 is the backup; a valid copy at the end is taken first; wipe
 *     zeroes both copies and leaves the end, the member's data, alone;
 *   - a file too small for two copies: no label, and writing refused;
 *   - every write and wipe first checks that the device still holds
 *     what the caller saw (volume, member, generation; no label; two
 *     copies in conflict): otherwise -ESTALE and not a byte changed;
 *     the backup copy can be written alone;
 *   - a probe run within a time limit (bds_probe_within()) gives its
 *     answer, and one that never answers (it opens a FIFO nobody
 *     writes) or dies gives an error instead of holding the caller.
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "../../tools/label-io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../libbds/label-golden.h"
#include "../libbds/tap.h"

static char path[4096];

static void make_file(u64 sectors)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || ftruncate(fd, (off_t)(sectors << 9)) || close(fd)) {
		perror(path);
		exit(2);
	}
}

static void poke(u64 byte, u8 value)
{
	int fd = open(path, O_RDWR);

	if (fd < 0 || pwrite(fd, &value, 1, (off_t)byte) != 1 || close(fd)) {
		perror(path);
		exit(2);
	}
}

static struct bds_dev dev;
static char why[256];

static void reopen(bool write)
{
	int rc;

	bds_dev_close(&dev);
	rc = bds_dev_open(&dev, path, write, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "open: %s\n", why);
		exit(2);
	}
}

/* Write @l as the backup copy alone, behind label-io's back. */
static bool put_backup(struct bds_label *l)
{
	static u8 buf[BDS_LABEL_SIZE];
	int fd = open(path, O_RDWR);

	l->label_sector = l->backup_sector;
	bds_label_encode(l, buf);
	return fd >= 0 &&
	       pwrite(fd, buf, sizeof(buf), (off_t)(l->backup_sector << 9)) ==
	       (ssize_t)sizeof(buf) && !close(fd);
}

static const char *golden_file;

static bool primary_is_golden(void)
{
	static u8 disk[BDS_LABEL_SIZE], want[BDS_LABEL_SIZE];
	FILE *f = fopen(golden_file, "rb");
	bool ok;
	int fd = open(path, O_RDONLY);

	if (!f || fd < 0)
		return false;
	ok = fread(want, 1, sizeof(want), f) == sizeof(want) &&
	     pread(fd, disk, sizeof(disk), 4096) == (ssize_t)sizeof(disk) &&
	     !memcmp(disk, want, sizeof(disk));
	fclose(f);
	close(fd);
	return ok;
}

/* What the device holds now (the writes below that test other things). */
static const struct bds_label_id *now(void)
{
	static struct bds_dev_labels dl;
	static struct bds_label_id id;

	bds_labels_read(&dev, &dl);
	bds_label_id_held(&id, &dl);
	return &id;
}

/* The whole file's label areas, to see that a refused write changed nothing. */
static bool areas(u8 *buf, u64 backup)
{
	int fd = open(path, O_RDONLY);
	bool ok = fd >= 0 &&
		  pread(fd, buf, BDS_LABEL_SIZE, 4096) == BDS_LABEL_SIZE &&
		  pread(fd, buf + BDS_LABEL_SIZE, BDS_LABEL_SIZE,
			(off_t)(backup << 9)) == BDS_LABEL_SIZE;

	if (fd >= 0)
		close(fd);
	return ok;
}

/* Writes that find the device otherwise than expected write nothing. */
static void test_checked_writes(struct bds_label *l)
{
	static u8 before[2 * BDS_LABEL_SIZE], after[2 * BDS_LABEL_SIZE];
	static struct bds_dev_labels dl;
	struct bds_label_id was, none;
	struct bds_label other = *l;

	bds_label_id_of(&none, NULL);
	make_file(GOLDEN_MEMBER_SECTORS);
	reopen(true);
	check(bds_labels_write(&dev, &none, l) == 0,
	      "checked: a blank device, expected blank: written");
	check(bds_labels_write(&dev, &none, l) == -ESTALE,
	      "checked: expected blank, holds a label: -ESTALE");
	bds_label_id_of(&was, l);
	was.generation++;
	areas(before, l->backup_sector);
	check(bds_labels_write(&dev, &was, l) == -ESTALE &&
	      bds_label_write_primary(&dev, &was, l) == -ESTALE &&
	      bds_label_write_backup(&dev, &was, l) == -ESTALE &&
	      bds_labels_wipe(&dev, &was) == -ESTALE,
	      "checked: another generation expected: -ESTALE for every write");
	bds_label_id_of(&was, l);
	was.member_uuid[0] ^= 1;
	check(bds_labels_wipe(&dev, &was) == -ESTALE,
	      "checked: another member expected: -ESTALE");
	bds_label_id_of(&was, l);
	was.volume_uuid[0] ^= 1;
	check(bds_labels_wipe(&dev, &was) == -ESTALE,
	      "checked: another volume expected: -ESTALE");
	areas(after, l->backup_sector);
	check(!memcmp(before, after, sizeof(before)),
	      "checked: the refused writes changed not a byte");
	check(strstr(bds_label_io_error(-ESTALE), "no longer holds") != NULL,
	      "checked: -ESTALE is told as such");

	/* the backup alone: the commit point of a membership change */
	bds_label_id_of(&was, l);
	other.generation = l->generation + 1;
	check(bds_label_write_primary(&dev, &was, &other) == 0 &&
	      bds_labels_read(&dev, &dl) == 0 && dl.pick == 0 &&
	      dl.copy[1].generation == l->generation,
	      "checked: the primary alone at the next generation");
	bds_label_id_of(&was, &other);
	check(bds_label_write_backup(&dev, &was, &other) == 0 &&
	      bds_labels_read(&dev, &dl) == 0 &&
	      dl.copy[0].generation == other.generation &&
	      dl.copy[1].generation == other.generation &&
	      dl.copy[1].label_sector == l->backup_sector,
	      "checked: then the backup alone: both at the next generation");

	/* two conflicting copies are what they are, not a label */
	other = *l;
	other.volume_uuid[3] ^= 0xff;
	put_backup(&other);
	bds_label_id_of(&was, l);
	check(bds_labels_wipe(&dev, &was) == -ESTALE,
	      "checked: conflicting copies, a label expected: -ESTALE");
	check(bds_labels_wipe(&dev, now()) == 0 &&
	      bds_labels_read(&dev, &dl) == 0 && dl.pick == -1,
	      "checked: conflicting copies, as expected: wiped");
}

/*
 * MEASURED: a label written without figures keeps those of the member's
 * own label on the device; another member's label does not take them.
 */
static void test_measured_kept(void)
{
	static struct bds_dev_labels dl;
	struct bds_label l, g2, o;

	golden_label(&l);
	l.meas_disk = 20000;
	l.meas_ctrl = 40000;
	l.meas_time = 1796515200ULL;
	l.compat |= BDS_LABEL_COMPAT_MEASURED;
	check(bds_labels_write(&dev, now(), &l) == 0,
	      "measured: the golden label with its figures written");
	golden_label(&g2);
	g2.generation = 2;
	check(bds_labels_write(&dev, now(), &g2) == 0 &&
	      bds_labels_read(&dev, &dl) == 0 && dl.pick == 0 &&
	      dl.copy[0].generation == 2 && dl.copy[1].generation == 2 &&
	      dl.copy[0].meas_disk == 20000 && dl.copy[1].meas_ctrl == 40000 &&
	      dl.copy[1].meas_time == 1796515200ULL,
	      "measured: generation 2 written without figures keeps the member's own (%u, %u kB/s)",
	      dl.copy[0].meas_disk, dl.copy[1].meas_ctrl);
	o = g2;
	o.generation = 3;
	o.member_index = 0;
	memcpy(o.member_uuid, o.uuid[0], BDS_UUID_LEN);
	o.data_offset = o.member_offset[0];
	check(bds_labels_write(&dev, now(), &o) == 0 &&
	      bds_labels_read(&dev, &dl) == 0 && dl.pick == 0 &&
	      dl.copy[0].member_index == 0 && !dl.copy[0].meas_disk &&
	      !dl.copy[1].meas_disk,
	      "measured: another member's label over it takes none");
}

/* Write 8 KiB of @byte at @sector, behind label-io's back. */
static bool fill_at(u64 sector, u8 byte)
{
	static u8 buf[BDS_LABEL_SIZE];
	int fd = open(path, O_RDWR);

	memset(buf, byte, sizeof(buf));
	return fd >= 0 &&
	       pwrite(fd, buf, sizeof(buf), (off_t)(sector << 9)) ==
	       (ssize_t)sizeof(buf) && !close(fd);
}

/* Are the 8 KiB at @sector all @byte? */
static bool all_at(u64 sector, u8 byte)
{
	static u8 buf[BDS_LABEL_SIZE];
	int fd = open(path, O_RDONLY);
	bool ok = fd >= 0 &&
		  pread(fd, buf, sizeof(buf), (off_t)(sector << 9)) ==
		  (ssize_t)sizeof(buf);
	size_t i;

	if (fd >= 0)
		close(fd);
	for (i = 0; ok && i < sizeof(buf); i++)
		ok = buf[i] == byte;
	return ok;
}

/*
 * FRONT_BACKUP (issue 35): a member whose backup lies at sector 2032, in
 * front of its data, and whose data runs to its end.  With the primary
 * gone and nothing valid at the end, the copy at 2032 is read as the
 * backup; a valid copy at the end is still taken first; wipe erases
 * both copies and leaves the end, which is data, alone.
 */
static void test_front_backup(void)
{
	static struct bds_dev_labels dl;
	struct bds_label f, other;
	const u64 end = bds_label_backup_sector(GOLDEN_MEMBER_SECTORS);
	int rc;

	golden_front_label(&f);
	bds_dev_close(&dev);
	make_file(GOLDEN_MEMBER_SECTORS);
	reopen(true);
	check(bds_labels_write(&dev, now(), &f) == 0 &&
	      bds_labels_read(&dev, &dl) == 0 && dl.pick == 0 &&
	      dl.err[0] == BDS_LABEL_OK && dl.err[1] == BDS_LABEL_OK &&
	      dl.sector[1] == BDS_LABEL_FRONT_BACKUP &&
	      dl.copy[1].label_sector == BDS_LABEL_FRONT_BACKUP &&
	      (dl.copy[0].incompat & BDS_LABEL_INCOMPAT_FRONT_BACKUP),
	      "front: the front golden label written, its backup read at 2032 through the primary");
	check(all_at(end, 0), "front: nothing written at the end place");

	/* the primary zeroed: the end holds no label, the front copy counts */
	check(fill_at(BDS_LABEL_PRIMARY, 0), "front: the primary zeroed");
	rc = bds_labels_read(&dev, &dl);
	check(rc == 0 &&
	      dl.err[0] == BDS_LABEL_ERR_MAGIC && dl.err[1] == BDS_LABEL_OK &&
	      dl.pick == 1 && dl.sector[1] == BDS_LABEL_FRONT_BACKUP &&
	      bds_labels_best(&dl) == &dl.copy[1] &&
	      dl.copy[1].label_sector == BDS_LABEL_FRONT_BACKUP &&
	      dl.copy[1].data_sectors == f.data_sectors,
	      "front: no primary, nothing at the end: copy 1 is the one at 2032 (sector %llu, pick %d)",
	      (unsigned long long)dl.sector[1], dl.pick);
	/* the primary torn (bad crc), the end some data: the same */
	check(fill_at(end, 0x6b) && bds_labels_write(&dev, now(), &f) == 0,
	      "front: written again, data at the end place");
	poke(4096 + 300, 0x5a);
	rc = bds_labels_read(&dev, &dl);
	check(rc == 0 && dl.err[0] == BDS_LABEL_ERR_CRC && dl.pick == 1 &&
	      dl.sector[1] == BDS_LABEL_FRONT_BACKUP,
	      "front: primary corrupt, data at the end place: copy 1 is the one at 2032 (sector %llu)",
	      (unsigned long long)dl.sector[1]);

	/* a valid copy at the end place is read first, and taken */
	golden_label(&other);
	other.volume_uuid[3] ^= 0xff;
	other.generation = 5;
	check(put_backup(&other) && other.backup_sector == end,
	      "front: another volume's end backup written at %llu",
	      (unsigned long long)end);
	rc = bds_labels_read(&dev, &dl);
	check(rc == 0 && dl.err[1] == BDS_LABEL_OK &&
	      dl.pick == 1 && dl.sector[1] == end &&
	      dl.copy[1].generation == 5 &&
	      !memcmp(dl.copy[1].volume_uuid, other.volume_uuid, BDS_UUID_LEN) &&
	      !(dl.copy[1].incompat & BDS_LABEL_INCOMPAT_FRONT_BACKUP),
	      "front: a valid copy at the end place: it is copy 1, not the one at 2032 (sector %llu)",
	      (unsigned long long)dl.sector[1]);

	/* wipe with both copies valid: the end, the member's data, kept */
	check(bds_labels_write(&dev, now(), &f) == 0 && fill_at(end, 0x6b),
	      "front: the front label written again, data at the end place");
	check(bds_labels_wipe(&dev, now()) == 0, "front: wipe");
	check(all_at(end, 0x6b),
	      "front: wipe left the last 8 KiB (the member's data) unchanged");
	check(all_at(BDS_LABEL_PRIMARY, 0) && all_at(BDS_LABEL_FRONT_BACKUP, 0),
	      "front: wipe zeroed both copies, at 8 and at 2032");
	check(bds_labels_read(&dev, &dl) == 0 && dl.pick == -1,
	      "front: after wipe, no label");

	/* wipe with the primary torn: the copy found at 2032 zeroed too */
	check(bds_labels_write(&dev, now(), &f) == 0,
	      "front: the front label written again");
	poke(4096 + 300, 0x5a);
	rc = bds_labels_read(&dev, &dl);
	check(rc == 0 && dl.pick == 1 && dl.sector[1] == BDS_LABEL_FRONT_BACKUP &&
	      bds_labels_wipe(&dev, now()) == 0,
	      "front: primary corrupt, the front copy counts: wipe");
	check(all_at(end, 0x6b),
	      "front: that wipe left the last 8 KiB unchanged too");
	check(all_at(BDS_LABEL_PRIMARY, 0) && all_at(BDS_LABEL_FRONT_BACKUP, 0),
	      "front: that wipe zeroed the torn primary and the copy at 2032");
	check(bds_labels_read(&dev, &dl) == 0 && dl.pick == -1,
	      "front: after that wipe, no label");

	/*
	 * An ordinary member, both copies torn, nothing at 2032: the end
	 * copy's own verdict is reported, not the empty place in front.
	 */
	golden_label(&other);
	check(bds_labels_write(&dev, now(), &other) == 0,
	      "front: the plain golden label written");
	poke(4096 + 300, 0x5a);
	poke((end << 9) + 300, 0x5a);
	rc = bds_labels_read(&dev, &dl);
	check(rc == 0 && dl.pick == -1 && dl.err[0] == BDS_LABEL_ERR_CRC &&
	      dl.err[1] == BDS_LABEL_ERR_CRC && dl.sector[1] == end,
	      "front: both copies torn, none in front: the backup is the end's, checksum mismatch (sector %llu: %s)",
	      (unsigned long long)dl.sector[1], bds_label_error(dl.err[1]));
}

static int probe_yes(const char *p)
{
	return p[0] == '/';
}

static int probe_no(const char *p)
{
	(void)p;
	return 0;
}

static int probe_cannot(const char *p)
{
	(void)p;
	return -1;
}

/* an open of a FIFO for reading waits for a writer: here, for ever */
static int probe_stuck(const char *p)
{
	int fd = open(p, O_RDONLY);

	if (fd >= 0)
		close(fd);
	return 1;
}

static int probe_dies(const char *p)
{
	(void)p;
	_exit(3);
}

static void test_probe_within(void)
{
	const char *tmp = getenv("TMPDIR");
	char fifo[256];
	int rc;

	check(bds_probe_within(probe_yes, "/dev/x", 5000) == 1 &&
	      bds_probe_within(probe_no, "/dev/x", 5000) == 0 &&
	      bds_probe_within(probe_cannot, "/dev/x", 5000) == -1,
	      "a probe within a time limit gives its answer (1, 0, -1)");
	snprintf(fifo, sizeof(fifo), "%s/bds-probe-fifo.%d", tmp ? tmp : "/tmp",
		 (int)getpid());
	unlink(fifo);
	if (mkfifo(fifo, 0600)) {
		check(0, "mkfifo %s: %s", fifo, strerror(errno));
		return;
	}
	alarm(60);	/* a probe not bounded would hold this test: end it */
	rc = bds_probe_within(probe_stuck, fifo, 300);
	alarm(0);
	check(rc == -ETIMEDOUT, "a probe that never answers: -ETIMEDOUT (%d)", rc);
	unlink(fifo);
	rc = bds_probe_within(probe_dies, "/dev/x", 5000);
	check(rc == -EIO, "a probe that dies: -EIO (%d)", rc);
}

int main(int argc, char **argv)
{
	static struct bds_dev_labels dl;
	static struct bds_label l, other;
	const char *tmp = getenv("TMPDIR");
	u64 backup_byte;

	if (argc != 2) {
		fprintf(stderr, "usage: test-label-io GOLDEN-FILE\n");
		return 2;
	}
	golden_file = argv[1];
	snprintf(path, sizeof(path), "%s/bds-label-io.%d", tmp ? tmp : "/tmp",
		 (int)getpid());
	golden_label(&l);
	backup_byte = l.backup_sector << 9;

	make_file(GOLDEN_MEMBER_SECTORS);
	reopen(true);
	check(dev.sectors == GOLDEN_MEMBER_SECTORS, "file of 2 GiB: %llu sectors",
	      (unsigned long long)dev.sectors);
	check(bds_labels_write(&dev, now(), &l) == 0, "write the golden label");
	check(primary_is_golden(), "the primary on disk is the golden vector");
	check(bds_labels_read(&dev, &dl) == 0 && dl.err[0] == BDS_LABEL_OK &&
	      dl.err[1] == BDS_LABEL_OK && dl.pick == 0 &&
	      dl.copy[0].label_sector == 8 &&
	      dl.copy[1].label_sector == l.backup_sector &&
	      dl.sector[1] == l.backup_sector,
	      "both copies valid, each where it says; the primary counts");

	poke(4096 + 300, 0x5a);
	check(bds_labels_read(&dev, &dl) == 0 && dl.err[0] == BDS_LABEL_ERR_CRC &&
	      dl.pick == 1 && bds_labels_best(&dl) == &dl.copy[1],
	      "primary corrupt: the backup counts");
	poke(backup_byte + 5000, 0x5a);
	check(bds_labels_read(&dev, &dl) == 0 && dl.pick == -1 &&
	      !bds_labels_best(&dl), "both corrupt: no label");

	/* generations */
	check(bds_labels_write(&dev, now(), &l) == 0, "write generation 1 again");
	l.generation = 2;
	check(put_backup(&l), "backup rewritten at generation 2 only");
	check(bds_labels_read(&dev, &dl) == 0 && dl.pick == 1 &&
	      bds_labels_best(&dl)->generation == 2,
	      "the backup is newer: it counts");
	check(bds_labels_write(&dev, now(), &l) == 0 && bds_labels_read(&dev, &dl) == 0 &&
	      dl.pick == 0 && bds_labels_best(&dl)->generation == 2,
	      "both at generation 2: the primary");

	/* a backup of another volume */
	other = l;
	other.volume_uuid[3] ^= 0xff;
	other.generation = 7;
	check(put_backup(&other), "backup overwritten by another volume's, newer");
	check(bds_labels_read(&dev, &dl) == 0 &&
	      dl.pick == BDS_LABEL_PICK_CONFLICT && !bds_labels_best(&dl),
	      "copies of two volumes: a conflict, no label");

	/* the member grew: the backup is found through the primary */
	check(bds_labels_write(&dev, now(), &l) == 0, "write again");
	bds_dev_close(&dev);
	if (truncate(path, (off_t)((GOLDEN_MEMBER_SECTORS + 65536) << 9))) {
		perror(path);
		return 2;
	}
	reopen(true);
	check(bds_labels_read(&dev, &dl) == 0 && dl.pick == 0 &&
	      dl.err[1] == BDS_LABEL_OK && dl.sector[1] == l.backup_sector,
	      "after growing by 32 MiB: the backup read where the primary says");

	test_measured_kept();

	/* wipe */
	check(bds_labels_wipe(&dev, now()) == 0, "wipe");
	check(bds_labels_read(&dev, &dl) == 0 && dl.err[0] == BDS_LABEL_ERR_MAGIC &&
	      dl.err[1] == BDS_LABEL_ERR_MAGIC && dl.pick == -1,
	      "after wipe: neither copy");

	/* too small for a label */
	bds_dev_close(&dev);
	make_file(BDS_LABEL_MIN_MEMBER - 8);
	reopen(true);
	l.backup_sector = bds_label_backup_sector(GOLDEN_MEMBER_SECTORS);
	check(bds_labels_read(&dev, &dl) == 0 && dl.pick == -1,
	      "a file of %u sectors: no label", (unsigned int)dev.sectors);
	check(bds_labels_write(&dev, now(), &l) == -EINVAL,
	      "writing a label past its end is refused");

	golden_label(&l);
	test_checked_writes(&l);
	test_front_backup();
	test_probe_within();

	bds_dev_close(&dev);
	check(bds_dev_open(&dev, "/dev/null", false, why, sizeof(why)) == -ENOTBLK &&
	      strstr(why, "not a block device"), "a character device: %s", why);
	unlink(path);
	return tap_done();
}
