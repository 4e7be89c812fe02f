/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device-mapper for bdsadm, through libdevmapper: create, remove, look
 * up and list volumes, with udev synchronisation (as lvm2 and cryptsetup
 * do), so that /dev/mapper/NAME exists when a call returns.  Without
 * udev (DM_DISABLE_UDEV=1, a bare initramfs), libdevmapper makes the
 * nodes itself.
 *
 * A bds-stripe volume made by bdsadm has the dm UUID "BDS-<volume uuid>".
 */
#ifndef BDS_DM_H
#define BDS_DM_H

#include <stdbool.h>
#include <stddef.h>

#include "../libbds/layout.h"
#include "../libbds/table.h"

#define BDS_DM_UUID_PREFIX	"BDS-"
/* The mirror of a bdsadm replace: "BDSR-<volume uuid>" (no volume). */
#define BDS_DM_MIRROR_PREFIX	"BDSR-"
/* DM_UUID_LEN and DM_NAME_LEN, both with the NUL */
#define BDS_DM_UUID_SZ		129
#define BDS_DM_NAME_SZ		128

struct bds_dm_info {
	bool exists;
	bool suspended;
	int open_count;
	unsigned int major, minor;
	char uuid[BDS_DM_UUID_SZ];	/* "" if none */
	char target[32];		/* type of the first target, "" if none */
};

/* Look up @name; false only if device-mapper could not be asked. */
bool bds_dm_info(const char *name, struct bds_dm_info *info);
/* libdevmapper's own messages through bdsadm's (errors only); at start */
void bds_dm_log_init(void);
/* Why device-mapper cannot be asked: not in the kernel, or not root */
const char *bds_dm_why_not(void);
/*
 * What to say after device-mapper refused a bds-stripe table: the
 * kernel log when the target is there; else that the module is not
 * built for the running kernel (its modules.dep does not name
 * dm-bds-stripe.ko) or did not load (Secure Boot's key), with what to do; in
 * @buf (@sz) when it needs the words.
 */
const char *bds_dm_refusal_hint(char *buf, size_t sz);

/*
 * The name of the device whose dm UUID is @uuid, in @name; false if there
 * is none.
 */
bool bds_dm_name_of_uuid(const char *uuid, char *name, size_t sz);

/*
 * Create @name with dm UUID @uuid (NULL: none) and the one-target table
 * "0 @length bds-stripe @params".  @ra_sectors: read-ahead to set (0:
 * the kernel's), raised only (@ra_minimum) or set exactly.  Returns true
 * when the device exists and is live; on failure libdevmapper has
 * removed what it made, and the kernel log names the reason.
 */
bool bds_dm_create(const char *name, const char *uuid, u64 length,
		   const char *params, u32 ra_sectors, bool ra_minimum);

/* The same with one target of type @ttype (a mirror, say). */
bool bds_dm_create_target(const char *name, const char *uuid, u64 length,
			  const char *ttype, const char *params,
			  u32 ra_sectors, bool ra_minimum);

/* One target of a table. */
struct bds_dm_tgt {
	u64 start, length;
	const char *ttype, *params;
};

/* The same with the @n targets @t, in order, covering the device. */
bool bds_dm_create_table(const char *name, const char *uuid,
			 const struct bds_dm_tgt *t, size_t n,
			 u32 ra_sectors, bool ra_minimum);

/*
 * Create @name read-only, no dm UUID, with "0 @length bds-stripe
 * @params": a table to read a volume through before anything is written
 * (bdsadm adopt's comparison).
 */
bool bds_dm_create_ro(const char *name, u64 length, const char *params);

/*
 * Replace @name's live table by one target "0 @length @ttype @params":
 * load it, suspend (in-flight I/O completes), resume (the new table is
 * live).  On false the table was refused and the old one stays live, or
 * the resume failed and bds_dm_resume() should be tried again.
 */
bool bds_dm_swap_table(const char *name, u64 length, const char *ttype,
		       const char *params);
bool bds_dm_resume(const char *name);

/*
 * The same with a "noflush" suspend: I/O the target holds back (a
 * mirror that lost a leg holds writes) is requeued and goes to the new
 * table, where a flushing suspend would wait for it forever or fail it.
 */
bool bds_dm_swap_noflush(const char *name, u64 length, const char *ttype,
			 const char *params);

/*
 * Suspend @name: in-flight I/O completes (flushed), new I/O waits until
 * bds_dm_resume().
 */
bool bds_dm_suspend(const char *name);

/*
 * Send message @msg to sector 0 of @name's table ("dmsetup message NAME 0
 * MSG"); the target's answer, if any, in @out.  Returns 0, or -errno of
 * the refusal (the kernel log says why).
 */
int bds_dm_message(const char *name, const char *msg, char *out, size_t sz);

/* Remove @name (retrying while udev still holds it briefly). */
bool bds_dm_remove(const char *name);

/* The params of @name's first target, in @buf; false if none. */
bool bds_dm_table(const char *name, char *buf, size_t sz);

/* Its status line (the target's part), in @buf; false if none. */
bool bds_dm_status(const char *name, char *buf, size_t sz);

/* The same for every target, one line each; false if @sz is too small. */
bool bds_dm_table_all(const char *name, char *buf, size_t sz);
bool bds_dm_status_all(const char *name, char *buf, size_t sz);

/*
 * Call @fn for every device-mapper device whose dm UUID starts with
 * BDS_DM_UUID_PREFIX, in the kernel's order.  Returns false if the list
 * could not be read.
 */
bool bds_dm_each_volume(void (*fn)(const char *name, const char *uuid,
				   void *arg), void *arg);

#endif /* BDS_DM_H */
