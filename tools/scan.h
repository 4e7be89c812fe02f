/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding members: every block device of the system is looked at for a
 * bds-stripe label (both copies, bds_labels_read()), wherever its disk
 * is now and whatever its name.  bdsadm's own volumes (dm UUID BDS-...)
 * are not looked into, nor suspended dm devices; a device held by another
 * dm or md device (multipath paths, a linear mapping over a disk) is seen
 * through its holder only.  Each device is read with a time limit
 * (bds_labels_read_path()): one that stops answering is told and left
 * out, and holds the scan no longer than that.
 */
#ifndef BDS_SCAN_H
#define BDS_SCAN_H

#include <stddef.h>

#include "assemble.h"

struct bds_scan {
	struct bds_found *found;	/* devices with a valid label */
	size_t n;
	char (*paths)[64];		/* their paths, found[i].dev points here */
	size_t conflicts;		/* devices whose two copies conflict */
};

/*
 * Scan <@sysfs>/class/block; device nodes are /dev/NAME.  Devices whose
 * copies conflict, or that cannot be read, are told on stderr and left
 * out.  Returns 0, or -1 if the list of block devices cannot be read.
 */
int bds_scan(const char *sysfs, struct bds_scan *s);
void bds_scan_free(struct bds_scan *s);

#endif /* BDS_SCAN_H */
