/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A member of an active volume as the system shows it now, from its
 * table's "MAJ:MIN" and /sys/dev/block: its device node, its disk's
 * serial and the controller it hangs off.  For bdsadm monitor and check.
 */
#ifndef BDS_MEMBER_DEV_H
#define BDS_MEMBER_DEV_H

#include <limits.h>
#include <stdbool.h>

#include "plan.h"

struct bds_member_dev {
	char node[PATH_MAX];		/* /dev/sdb, /dev/mapper/m0 */
	char kname[NAME_SZ];		/* sdb, dm-3; "" if not in sysfs */
	char serial[NAME_SZ];		/* "" if none */
	char controller[NAME_SZ];	/* host2, nvme0, a PCI address, "" */
	bool found;			/* in /sys/dev/block */
};

/*
 * Fill @d for the device @majmin.  The node is /dev/mapper/NAME for a
 * device-mapper device, else /dev/KERNEL-NAME; when the device is not in
 * sysfs (gone), found is false and node says "MAJ:MIN (gone)".
 */
void bds_member_dev(const char *majmin, struct bds_member_dev *d);

/* "MAJ:MIN" of the block device @path in @buf; false if it is none. */
bool bds_majmin_of(const char *path, char *buf, size_t sz);

/*
 * A suspended device-mapper device holds every read of it, and a table
 * loaded over it, until it is resumed.  bds_suspended_why() says so in
 * @why for the device @path of dm name @name, the one text every verb
 * uses ("PATH is a suspended device-mapper device (NAME): its I/O waits
 * for 'dmsetup resume NAME'"); bds_dev_suspended() tells whether @path
 * is one, and then says so.
 */
void bds_suspended_why(char *why, size_t sz, const char *path,
		       const char *name);
bool bds_dev_suspended(const char *path, char *why, size_t sz);

#endif /* BDS_MEMBER_DEV_H */
