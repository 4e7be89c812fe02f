// SPDX-License-Identifier: GPL-2.0
/*
 * Device-mapper through libdevmapper (see dm.h).
 */
#include <errno.h>
#include <libdevmapper.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "bdsadm.h"
#include "dm.h"
#include "volstat.h"

/*
 * libdevmapper's messages, through bdsadm's: errors (with -v warnings and
 * notices too; its levels are syslog's, with flags above the low bits),
 * as "bdsadm: device-mapper: ...", and none when device-mapper is not in the kernel at all: the
 * caller says that itself, with what to do (bds_dm_why_not()).
 */
#define DM_LEVEL_MASK	7
#define DM_LEVEL_ERR	3
#define DM_LEVEL_NOTICE	5

static void dm_log(int level, const char *file, int line, int dm_errno,
		   const char *f, ...) __attribute__((format(printf, 5, 6)));
static void dm_log(int level, const char *file, int line, int dm_errno,
		   const char *f, ...)
{
	char msg[1024];
	va_list ap;

	(void)file;
	(void)line;
	(void)dm_errno;
	if ((level & DM_LEVEL_MASK) >
	    (bds_verbosity() == BDS_VERBOSE ? DM_LEVEL_NOTICE : DM_LEVEL_ERR) ||
	    !bds_vol_dm_available())
		return;
	va_start(ap, f);
	vsnprintf(msg, sizeof(msg), f, ap);
	va_end(ap);
	/* its own words often start so already */
	fprintf(stderr, "bdsadm: %s%s\n",
		strncmp(msg, "device-mapper: ", 15) ? "device-mapper: " : "",
		msg);
}

void bds_dm_log_init(void)
{
	dm_log_with_errno_init(dm_log);
}

const char *bds_dm_why_not(void)
{
	return bds_vol_dm_available() ?
	       "cannot talk to device-mapper (are you root?)" :
	       "device-mapper is not in the kernel and could not be loaded ('modprobe dm_mod' says why)";
}

static struct dm_task *task(int type, const char *name)
{
	struct dm_task *dmt = dm_task_create(type);

	if (!dmt)
		return NULL;
	if (name && !dm_task_set_name(dmt, name)) {
		dm_task_destroy(dmt);
		return NULL;
	}
	return dmt;
}

bool bds_dm_info(const char *name, struct bds_dm_info *info)
{
	struct dm_task *dmt = task(DM_DEVICE_INFO, name);
	struct dm_info di;
	const char *uuid;
	bool ok = false;

	memset(info, 0, sizeof(*info));
	if (!dmt)
		return false;
	if (!dm_task_run(dmt) || !dm_task_get_info(dmt, &di))
		goto out;
	ok = true;
	if (!di.exists)
		goto out;
	info->exists = true;
	info->suspended = di.suspended;
	info->open_count = di.open_count;
	info->major = di.major;
	info->minor = di.minor;
	uuid = dm_task_get_uuid(dmt);
	snprintf(info->uuid, sizeof(info->uuid), "%s", uuid ? uuid : "");
	dm_task_destroy(dmt);

	/* the target type, from the table */
	dmt = task(DM_DEVICE_TABLE, name);
	if (dmt && dm_task_run(dmt)) {
		uint64_t start, length;
		char *type = NULL, *params = NULL;

		dm_get_next_target(dmt, NULL, &start, &length, &type, &params);
		snprintf(info->target, sizeof(info->target), "%s",
			 type ? type : "");
	}
out:
	if (dmt)
		dm_task_destroy(dmt);
	return ok;
}

bool bds_dm_create(const char *name, const char *uuid, u64 length,
		   const char *params, u32 ra_sectors, bool ra_minimum)
{
	return bds_dm_create_target(name, uuid, length, "bds-stripe", params,
				    ra_sectors, ra_minimum);
}

bool bds_dm_create_target(const char *name, const char *uuid, u64 length,
			  const char *ttype, const char *params,
			  u32 ra_sectors, bool ra_minimum)
{
	struct bds_dm_tgt t = { 0, length, ttype, params };

	return bds_dm_create_table(name, uuid, &t, 1, ra_sectors, ra_minimum);
}

static bool create_table(const char *name, const char *uuid,
			 const struct bds_dm_tgt *t, size_t n,
			 u32 ra_sectors, bool ra_minimum, bool ro)
{
	struct dm_task *dmt = task(DM_DEVICE_CREATE, name);
	uint32_t cookie = 0;
	bool ok = false;
	size_t i;

	if (!dmt)
		return false;
	if (uuid && !dm_task_set_uuid(dmt, uuid))
		goto out;
	if (ro && !dm_task_set_ro(dmt))
		goto out;
	for (i = 0; i < n; i++) {
		bds_verbose("device-mapper: create %s%s: %llu %llu %s %s", name,
			    ro ? " (read-only)" : "",
			    (unsigned long long)t[i].start,
			    (unsigned long long)t[i].length, t[i].ttype,
			    t[i].params);
		if (!dm_task_add_target(dmt, t[i].start, t[i].length,
					t[i].ttype, t[i].params))
			goto out;
	}
	if (ra_sectors &&
	    !dm_task_set_read_ahead(dmt, ra_sectors, ra_minimum ?
				    DM_READ_AHEAD_MINIMUM_FLAG : 0))
		goto out;
	if (!dm_task_set_cookie(dmt, &cookie, 0))
		goto out;
	ok = dm_task_run(dmt);
	/* wait for udev (or make the node) whether or not it worked */
	dm_udev_wait(cookie);
out:
	dm_task_destroy(dmt);
	return ok;
}

bool bds_dm_create_table(const char *name, const char *uuid,
			 const struct bds_dm_tgt *t, size_t n,
			 u32 ra_sectors, bool ra_minimum)
{
	return create_table(name, uuid, t, n, ra_sectors, ra_minimum, false);
}

bool bds_dm_create_ro(const char *name, u64 length, const char *params)
{
	struct bds_dm_tgt t = { 0, length, "bds-stripe", params };

	return create_table(name, NULL, &t, 1, 0, false, true);
}

bool bds_dm_remove(const char *name)
{
	struct dm_task *dmt = task(DM_DEVICE_REMOVE, name);
	uint32_t cookie = 0;
	bool ok = false;

	if (!dmt)
		return false;
	if (dm_task_retry_remove(dmt) && dm_task_set_cookie(dmt, &cookie, 0)) {
		ok = dm_task_run(dmt);
		dm_udev_wait(cookie);
	}
	dm_task_destroy(dmt);
	return ok;
}

/* Suspend (@noflush: see bds_dm_swap_noflush) or resume @name; a resume waits for udev. */
static bool suspend_resume(const char *name, int type, bool noflush)
{
	struct dm_task *dmt = task(type, name);
	uint32_t cookie = 0;
	bool ok = false;

	if (!dmt)
		return false;
	if (type == DM_DEVICE_RESUME) {
		if (dm_task_set_cookie(dmt, &cookie, 0)) {
			ok = dm_task_run(dmt);
			dm_udev_wait(cookie);
		}
	} else {
		ok = (!noflush || dm_task_no_flush(dmt)) && dm_task_run(dmt);
	}
	dm_task_destroy(dmt);
	return ok;
}

static bool swap(const char *name, u64 length, const char *ttype,
		 const char *params, bool noflush)
{
	struct dm_task *dmt = task(DM_DEVICE_RELOAD, name);
	bool ok;

	if (!dmt)
		return false;
	bds_verbose("device-mapper: reload %s: 0 %llu %s %s", name,
		    (unsigned long long)length, ttype, params);
	ok = dm_task_add_target(dmt, 0, length, ttype, params) &&
	     dm_task_run(dmt);
	dm_task_destroy(dmt);
	if (!ok)
		return false;	/* refused: the live table is untouched */
	if (!suspend_resume(name, DM_DEVICE_SUSPEND, noflush)) {
		dmt = task(DM_DEVICE_CLEAR, name);
		if (dmt) {
			dm_task_run(dmt);
			dm_task_destroy(dmt);
		}
		return false;
	}
	/* the resume makes the loaded table live */
	return suspend_resume(name, DM_DEVICE_RESUME, false);
}

bool bds_dm_swap_table(const char *name, u64 length, const char *ttype,
		       const char *params)
{
	return swap(name, length, ttype, params, false);
}

bool bds_dm_swap_noflush(const char *name, u64 length, const char *ttype,
			 const char *params)
{
	return swap(name, length, ttype, params, true);
}

bool bds_dm_resume(const char *name)
{
	return suspend_resume(name, DM_DEVICE_RESUME, false);
}

bool bds_dm_suspend(const char *name)
{
	return suspend_resume(name, DM_DEVICE_SUSPEND, false);
}

/* The params of @name's first target, or (@all) of every target, one a line. */
static bool target_lines(int type, const char *name, bool all, char *buf,
			 size_t sz)
{
	struct dm_task *dmt = task(type, name);
	uint64_t start, length;
	char *ttype = NULL, *params = NULL;
	void *next = NULL;
	size_t used = 0;
	bool ok = false;

	if (!dmt)
		return false;
	if (sz)
		buf[0] = 0;
	if (dm_task_run(dmt)) {
		do {
			next = dm_get_next_target(dmt, next, &start, &length,
						  &ttype, &params);
			if (!ttype || !params)
				break;
			used += (size_t)snprintf(buf + used, sz - used, "%s%s",
						 used ? "\n" : "", params);
			ok = used < sz;
		} while (ok && all && next);
	}
	dm_task_destroy(dmt);
	return ok;
}

bool bds_dm_table(const char *name, char *buf, size_t sz)
{
	return target_lines(DM_DEVICE_TABLE, name, false, buf, sz);
}

bool bds_dm_status(const char *name, char *buf, size_t sz)
{
	return target_lines(DM_DEVICE_STATUS, name, false, buf, sz);
}

bool bds_dm_table_all(const char *name, char *buf, size_t sz)
{
	return target_lines(DM_DEVICE_TABLE, name, true, buf, sz);
}

bool bds_dm_status_all(const char *name, char *buf, size_t sz)
{
	return target_lines(DM_DEVICE_STATUS, name, true, buf, sz);
}

bool bds_dm_each_volume(void (*fn)(const char *name, const char *uuid,
				   void *arg), void *arg)
{
	struct dm_task *dmt = task(DM_DEVICE_LIST, NULL);
	struct dm_names *n;
	unsigned int next = 0;

	if (!dmt)
		return false;
	if (!dm_task_run(dmt) || !(n = dm_task_get_names(dmt))) {
		dm_task_destroy(dmt);
		return false;
	}
	if (n->dev) {
		do {
			struct bds_dm_info info;

			n = (struct dm_names *)((char *)n + next);
			if (bds_dm_info(n->name, &info) && info.exists &&
			    !strncmp(info.uuid, BDS_DM_UUID_PREFIX,
				     strlen(BDS_DM_UUID_PREFIX)))
				fn(n->name, info.uuid, arg);
			next = n->next;
		} while (next);
	}
	dm_task_destroy(dmt);
	return true;
}

struct uuid_find {
	const char *uuid;
	char *name;
	size_t sz;
	bool found;
};

static void match_uuid(const char *name, const char *uuid, void *arg)
{
	struct uuid_find *f = arg;

	if (!f->found && !strcmp(uuid, f->uuid)) {
		snprintf(f->name, f->sz, "%s", name);
		f->found = true;
	}
}

bool bds_dm_name_of_uuid(const char *uuid, char *name, size_t sz)
{
	struct uuid_find f = { uuid, name, sz, false };

	bds_dm_each_volume(match_uuid, &f);
	return f.found;
}

int bds_dm_message(const char *name, const char *msg, char *out, size_t sz)
{
	struct dm_task *dmt = task(DM_DEVICE_TARGET_MSG, name);
	const char *resp;
	int r = 0;

	if (sz)
		out[0] = 0;
	if (!dmt)
		return -ENOMEM;
	bds_verbose("device-mapper: message %s: %s", name, msg);
	if (!dm_task_set_sector(dmt, 0) || !dm_task_set_message(dmt, msg)) {
		dm_task_destroy(dmt);
		return -ENOMEM;
	}
	if (!dm_task_run(dmt)) {
		r = dm_task_get_errno(dmt);
		r = r > 0 ? -r : -EIO;
	} else if (sz) {
		resp = dm_task_get_message_response(dmt);
		snprintf(out, sz, "%s", resp ? resp : "");
	}
	dm_task_destroy(dmt);
	return r;
}

/*
 * Whether the kernel @release has dm-bds-stripe.ko installed: depmod's
 * modules.dep names it (DKMS's updates/dkms/, make install's extra/).
 */
static bool module_there(const char *release)
{
	char path[400], line[1024];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", release);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		/* the module a line is about comes before its colon */
		if (colon) {
			*colon = '\0';
			found = strstr(line, "/dm-bds-stripe.ko") != NULL;
		}
	}
	fclose(f);
	return found;
}

/* Whether the kernel has the target @name now (DM_LIST_VERSIONS). */
static bool target_loaded(const char *name)
{
	struct dm_task *dmt = task(DM_DEVICE_LIST_VERSIONS, NULL);
	struct dm_versions *v, *last;
	bool found = false;

	if (!dmt)
		return false;
	if (dm_task_run(dmt) && (v = dm_task_get_versions(dmt))) {
		do {
			last = v;
			found = !strcmp(v->name, name);
			v = (struct dm_versions *)((char *)v + v->next);
		} while (!found && last != v);
	}
	dm_task_destroy(dmt);
	return found;
}

const char *bds_dm_refusal_hint(char *buf, size_t sz)
{
	struct utsname u;

	if (target_loaded("bds-stripe"))
		return "the kernel log (dmesg) names the reason";
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "(unknown)");
	if (!module_there(u.release))
		snprintf(buf, sz, "the kernel has no bds-stripe target: the module dm-bds-stripe is not built for the running kernel %s ('dkms status bds-stripe' says for which it is; install linux-headers-%s, then 'dkms autoinstall')",
			 u.release, u.release);
	else
		snprintf(buf, sz, "the kernel has no bds-stripe target and did not load the module dm-bds-stripe: 'modprobe dm-bds-stripe' says why (with Secure Boot on, the module's signing key must be enrolled: 'mokutil --import /var/lib/dkms/mok.pub', then reboot)");
	return buf;
}
