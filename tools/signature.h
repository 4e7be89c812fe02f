/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Signatures on a device that is to become a member, through libblkid
 * (as mkfs, pvcreate and wipefs find them): filesystems, partition
 * tables, LVM PVs, md and other RAID superblocks, swap.  bds-stripe's own
 * label is not known to libblkid: bds_labels_read() finds that.
 */
#ifndef BDS_SIGNATURE_H
#define BDS_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What @path holds, as "a filesystem (xfs)", "a partition table (dos)",
 * "a RAID or volume member signature (LVM2_member)" ...; several are
 * joined with " and ".  Returns 1 if something was found (in @what), 0 if nothing,
 * -1 if the device could not be probed (a reason in @what).
 */
int bds_signatures(const char *path, char *what, size_t sz);

/*
 * Whether libblkid finds an md superblock on @path (TYPE
 * linux_raid_member, of any metadata version): 1 if so, 0 if not, -1 if
 * the device could not be probed.
 */
int bds_md_superblock(const char *path);

/*
 * Erase every signature libblkid finds on @path (the magic bytes only,
 * as wipefs does), telling on stderr what went.  Returns 0, or -1 with a
 * reason in @why.
 */
int bds_signatures_wipe(const char *path, char *why, size_t sz);

/*
 * As bds_signatures_wipe(), md's superblocks only (adopt of metadata
 * 1.1, whose superblock at sector 0 the labels do not overwrite).
 */
int bds_md_superblock_wipe(const char *path, char *why, size_t sz);

#endif /* BDS_SIGNATURE_H */
