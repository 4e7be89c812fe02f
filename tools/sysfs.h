/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading sysfs, for any verb: attributes, directory listings, a disk's
 * serial number.  No state, never exits: what cannot be read (or whose
 * path does not fit PATH_MAX) reads as absent.
 */
#ifndef BDS_SYSFS_H
#define BDS_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

#include "../libbds/compat.h"

/* A one-line attribute, without its newline; false if it cannot be read. */
bool read_attr(const char *dir, const char *attr, char *buf, size_t sz);
bool read_u64_attr(const char *dir, const char *attr, u64 *v);
bool exists(const char *dir, const char *name);
/* The names in a directory, natural order, blank-separated ("" if none). */
void list_dir(const char *dir, char *out, size_t sz);
/*
 * Is the block device of sysfs directory @dir a device-mapper device that
 * is suspended now?  Its dm name goes to @name ("" if it cannot be read).
 */
bool dm_suspended(const char *dir, char *name, size_t sz);
/* The partitions (subdirectories with a "partition" file) of a disk. */
void list_partitions(const char *diskdir, char *out, size_t sz);
/*
 * The serial of the disk at sysfs directory @diskdir, "" if none: see
 * sysfs.c.  bdsadm detail compares it with the label's, so both it and
 * the plan read it here.
 */
void disk_serial(const char *diskdir, char *serial, size_t sz);

#endif /* BDS_SYSFS_H */
