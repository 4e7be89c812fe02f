// SPDX-License-Identifier: GPL-2.0
/*
 * Signatures through libblkid (see signature.h).
 */
#define _GNU_SOURCE
#include <blkid/blkid.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bdsadm.h"
#include "signature.h"

static void add(char *what, size_t sz, const char *s)
{
	size_t len = strlen(what);

	snprintf(what + len, sz - len, "%s%s", len ? " and " : "", s);
}

/* One probe of everything: superblocks, then partition tables. */
static blkid_probe new_probe(int fd)
{
	blkid_probe pr = blkid_new_probe();

	if (!pr)
		return NULL;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_free_probe(pr);
		return NULL;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE |
					  BLKID_SUBLKS_MAGIC);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	return pr;
}

static bool is_our_label(blkid_probe pr)
{
	const char *type = NULL;

	return !blkid_probe_lookup_value(pr, "TYPE", &type, NULL) && type &&
	       !strcmp(type, "bds_stripe_member");
}

static void describe(blkid_probe pr, char *what, size_t sz)
{
	const char *type = NULL, *usage = NULL;
	char s[128];

	if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) {
		snprintf(s, sizeof(s), "a partition table (%s)", type);
	} else if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL)) {
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		if (usage && !strcmp(usage, "filesystem"))
			snprintf(s, sizeof(s), "a filesystem (%s)", type);
		else if (usage && !strcmp(usage, "raid"))
			snprintf(s, sizeof(s), "a RAID or volume member signature (%s)",
				 type);
		else
			snprintf(s, sizeof(s), "a signature (%s)", type);
	} else {
		snprintf(s, sizeof(s), "an unknown signature");
	}
	add(what, sz, s);
}

int bds_signatures(const char *path, char *what, size_t sz)
{
	blkid_probe pr;
	int fd, found = 0;

	what[0] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(what, sz, "cannot open it to look for signatures: %s",
			 strerror(errno));
		return -1;
	}
	pr = new_probe(fd);
	if (!pr) {
		snprintf(what, sz, "libblkid cannot probe it");
		close(fd);
		return -1;
	}
	/*
	 * every signature, not only the first (wipefs' way of probing); our
	 * own label, which a libblkid with tools/blkid's prober reports too,
	 * is bdsadm's to judge by its own rules (label-io.c), not here
	 */
	while (blkid_do_probe(pr) == 0) {
		if (is_our_label(pr))
			continue;
		describe(pr, what, sz);
		found = 1;
	}
	blkid_free_probe(pr);
	close(fd);
	return found;
}

int bds_md_superblock(const char *path)
{
	const char *type;
	blkid_probe pr;
	int fd, found = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	pr = new_probe(fd);
	if (!pr) {
		close(fd);
		return -1;
	}
	while (!found && blkid_do_probe(pr) == 0) {
		type = NULL;
		found = !blkid_probe_lookup_value(pr, "TYPE", &type, NULL) &&
			type && !strcmp(type, "linux_raid_member");
	}
	blkid_free_probe(pr);
	close(fd);
	return found;
}

/* Erase the signatures of type @only (NULL: all) that libblkid finds. */
static int wipe(const char *path, const char *only, char *why, size_t sz)
{
	blkid_probe pr;
	int fd, rc = 0;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, sz, "cannot open it: %s", strerror(errno));
		return -1;
	}
	pr = new_probe(fd);
	if (!pr) {
		snprintf(why, sz, "libblkid cannot probe it");
		close(fd);
		return -1;
	}
	while (blkid_do_probe(pr) == 0) {
		char what[160] = "";
		const char *off = NULL, *type = NULL;

		if (only && (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) ||
			     !type || strcmp(type, only)))
			continue;
		describe(pr, what, sizeof(what));
		if (blkid_probe_lookup_value(pr, "SBMAGIC_OFFSET", &off,
					     NULL))
			blkid_probe_lookup_value(pr, "PTMAGIC_OFFSET", &off,
						 NULL);
		if (blkid_do_wipe(pr, 0)) {
			snprintf(why, sz, "cannot erase %s: %s", what,
				 strerror(errno));
			rc = -1;
			break;
		}
		bds_progress("%s: erased %s (magic at byte %s)",
			path, what, off ? off : "?");
	}
	if (!rc && fsync(fd)) {
		snprintf(why, sz, "cannot sync it: %s", strerror(errno));
		rc = -1;
	}
	blkid_free_probe(pr);
	if (close(fd) && !rc) {
		snprintf(why, sz, "cannot close it: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}

int bds_signatures_wipe(const char *path, char *why, size_t sz)
{
	return wipe(path, NULL, why, sz);
}

int bds_md_superblock_wipe(const char *path, char *why, size_t sz)
{
	return wipe(path, "linux_raid_member", why, sz);
}
