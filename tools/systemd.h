/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The systemd units bdsadm starts: assembly of a volume whose last member
 * appeared (incremental), and the copy of a volume that came up
 * mid-restripe (assemble).
 */
#ifndef BDS_SYSTEMD_H
#define BDS_SYSTEMD_H

#include <stdbool.h>

/* Is systemd the init (in an initramfs too)? */
bool bds_systemd_running(void);
/* In an initramfs whose init is systemd (/etc/initrd-release)? */
bool bds_in_initrd(void);

/*
 * "systemctl start --no-block @unit"; false when it could not be run or
 * refused.
 */
bool bds_start_unit(const char *unit);
/* "systemctl stop @unit", which waits until it has stopped. */
bool bds_stop_unit(const char *unit);
/* "systemctl is-active --quiet @unit". */
bool bds_unit_active(const char *unit);

#endif /* BDS_SYSTEMD_H */
