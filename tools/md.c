// SPDX-License-Identifier: GPL-2.0
/*
 * An md array, from mdadm and the kernel (see md.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "md.h"
#include "sysfs.h"
#include "util.h"

int bds_run_capture(char *const argv[], char *out, size_t sz)
{
	size_t n = 0;
	ssize_t got;
	int pfd[2], status;
	pid_t pid;

	if (sz)
		out[0] = '\0';
	fflush(NULL);
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(pfd[1], STDOUT_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		char sink[512];

		if (n + 1 < sz)
			got = read(pfd[0], out + n, sz - n - 1);
		else
			got = read(pfd[0], sink, sizeof(sink));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (n + 1 < sz)
			n += (size_t)got;
	}
	if (sz)
		out[n] = '\0';
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return -1;
	return WEXITSTATUS(status);
}

/* The value of KEY=VALUE line @key in @text, into @val; false if none. */
static bool export_value(const char *text, const char *key, char *val,
			 size_t sz)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(val, sz, "%.*s", (int)(len - kl - 1), p + kl + 1);
			return true;
		}
		p = eol ? eol + 1 : NULL;
	}
	return false;
}

/* The kernel name of block device @path (sdb for /dev/sdb). */
static bool kname_of(const char *path, char *out, size_t sz)
{
	char *real = realpath(path, NULL);
	bool ok = real && strncmp(real, "/dev/", 5) == 0;

	if (ok)
		snprintf(out, sz, "%s", base_name(real));
	free(real);
	return ok;
}

/* The members and roles of mdadm's export @text, checked against sysfs. */
static int md_members(struct bds_md *md, const char *text, const char *dir,
		      char *why, size_t sz)
{
	char key[128], val[PATH_MAX], kname[72], link[80], mdir[PATH_MAX + 256];
	const char *p = text;
	u64 kib;

	md->nr_found = 0;
	while ((p = strstr(p, "MD_DEVICE_")) != NULL) {
		const char *eq = strchr(p, '=');
		size_t kl;
		char *end;
		unsigned long role;
		struct bds_md_member *m;

		if (!eq)
			break;
		kl = (size_t)(eq - p);
		if (kl < 5 || kl >= sizeof(key) || strncmp(eq - 5, "_ROLE", 5)) {
			p = eq;
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)kl, p);
		p = eq;
		export_value(text, key, val, sizeof(val));
		role = strtoul(val, &end, 10);
		if (!val[0] || *end || role >= md->raid_disks ||
		    role >= BDS_MAX_MEMBERS) {
			snprintf(why, sz, "%s has a member that is not active in a role (%s=%s): a spare or a failed device",
				 md->node, key, val);
			return -1;
		}
		m = &md->member[role];
		if (m->dev[0]) {
			snprintf(why, sz, "mdadm lists two devices in role %lu of %s",
				 role, md->node);
			return -1;
		}
		memcpy(key + kl - 5, "_DEV", 5);
		if (!export_value(text, key, m->dev, sizeof(m->dev)) ||
		    !kname_of(m->dev, m->kname, sizeof(m->kname))) {
			snprintf(why, sz, "mdadm names no device node for %s of %s",
				 key, md->node);
			return -1;
		}
		md->nr_found++;
	}
	for (u32 r = 0; r < md->raid_disks; r++) {
		struct bds_md_member *m = &md->member[r];

		if (!m->dev[0])
			continue;
		snprintf(key, sizeof(key), "rd%u", r);
		snprintf(mdir, sizeof(mdir), "%s/%s", dir, key);
		snprintf(kname, sizeof(kname), "dev-%s", m->kname);
		memset(link, 0, sizeof(link));
		if (readlink(mdir, link, sizeof(link) - 1) < 0 ||
		    strcmp(base_name(link), kname)) {
			snprintf(why, sz, "mdadm puts %s in role %u of %s, the kernel does not (%s/%s: %s)",
				 m->dev, r, md->node, dir, key,
				 link[0] ? link : "missing");
			return -1;
		}
		snprintf(mdir, sizeof(mdir), "%s/%s", dir, kname);
		if (!read_u64_attr(mdir, "offset", &m->offset) ||
		    !read_u64_attr(mdir, "size", &kib) ||
		    !read_attr(mdir, "state", val, sizeof(val))) {
			snprintf(why, sz, "cannot read %s/{offset,size,state}", mdir);
			return -1;
		}
		m->used = kib * 2;
		m->in_sync = strstr(val, "in_sync") != NULL &&
			     !strstr(val, "faulty");
	}
	return 0;
}

int bds_md_read(const char *path, struct bds_md *md, char *why, size_t sz)
{
	char *argv[] = { "mdadm", "--detail", "--export", md->node, NULL };
	char dir[PATH_MAX + 8], bdir[PATH_MAX], val[64], *text;
	u64 bytes;
	int rc;

	memset(md, 0, sizeof(*md));
	if (!strchr(path, '/'))
		snprintf(md->node, sizeof(md->node), "/dev/%s", path);
	else
		snprintf(md->node, sizeof(md->node), "%s", path);
	if (!kname_of(md->node, md->kname, sizeof(md->kname))) {
		snprintf(why, sz, "%s: no such device", md->node);
		return -1;
	}
	snprintf(bdir, sizeof(bdir), "/sys/class/block/%s", md->kname);
	snprintf(dir, sizeof(dir), "%s/md", bdir);
	if (strncmp(md->kname, "md", 2) || !exists(bdir, "md")) {
		snprintf(why, sz, "%s is not an md array", md->node);
		return -1;
	}
	snprintf(md->node, sizeof(md->node), "/dev/%s", md->kname);
	read_attr(dir, "array_state", md->array_state, sizeof(md->array_state));
	if (!strcmp(md->array_state, "inactive") || !md->array_state[0]) {
		snprintf(why, sz, "%s is degraded or inactive (array_state %s): adopt takes a running array with every member; start it whole first ('mdadm --assemble --scan')",
			 md->node, md->array_state[0] ? md->array_state : "unknown");
		return -1;
	}
	text = malloc(65536);
	if (!text) {
		snprintf(why, sz, "out of memory");
		return -1;
	}
	rc = bds_run_capture(argv, text, 65536);
	if (rc) {
		snprintf(why, sz, rc < 0 ? "cannot run mdadm (is it installed?)" :
			 "'mdadm --detail --export %s' failed (is the array running?)",
			 md->node);
		free(text);
		return -1;
	}
	export_value(text, "MD_LEVEL", md->level, sizeof(md->level));
	export_value(text, "MD_METADATA", md->metadata, sizeof(md->metadata));
	export_value(text, "MD_UUID", md->uuid, sizeof(md->uuid));
	if (!export_value(text, "MD_DEVICES", val, sizeof(val)) ||
	    !read_u64_attr(dir, "raid_disks", &bytes) ||
	    strtoul(val, NULL, 10) != bytes) {
		snprintf(why, sz, "mdadm and the kernel disagree on the number of members of %s",
			 md->node);
		free(text);
		return -1;
	}
	md->raid_disks = (u32)bytes;
	rc = md->raid_disks <= BDS_MAX_MEMBERS ?
	     md_members(md, text, dir, why, sz) : 0;
	free(text);
	if (rc)
		return -1;
	read_attr(dir, "reshape_position", md->reshape, sizeof(md->reshape));
	if (read_u64_attr(dir, "chunk_size", &bytes))
		md->chunk_sectors = bytes / 512;
	read_u64_attr(bdir, "size", &md->sectors);
	return 0;
}

bool bds_md_stop(const struct bds_md *md)
{
	char *argv[] = { "mdadm", "--stop", (char *)md->node, NULL };
	char out[512];

	return bds_run_capture(argv, out, sizeof(out)) == 0;
}

bool bds_md_start(const struct bds_md *md)
{
	char *argv[BDS_MAX_MEMBERS + 5] = { "mdadm", "--assemble",
					    (char *)md->node };
	char out[512];
	u32 i, n = 3;

	for (i = 0; i < md->raid_disks && i < BDS_MAX_MEMBERS; i++)
		argv[n++] = (char *)md->member[i].dev;
	argv[n] = NULL;
	return bds_run_capture(argv, out, sizeof(out)) == 0;
}
