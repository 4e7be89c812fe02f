// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm wipe DEVICE...: erase both label copies of members that are not
 * in use.  A device held by device-mapper (an active volume), md or a
 * mounted filesystem is refused, naming the holder; so is a device
 * without a label (nothing to erase).  The data area is left alone.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "bdsadm.h"
#include "label-io.h"

/* The names of whoever holds @path (dm names where known), or "". */
static void holders(const char *path, char *out, size_t sz)
{
	char dir[128], f[512], name[256];
	struct dirent *e;
	struct stat st;
	size_t len = 0;
	DIR *d;

	out[0] = '\0';
	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders",
		 major(st.st_rdev), minor(st.st_rdev));
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		FILE *nf;

		if (e->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "%s", e->d_name);
		snprintf(f, sizeof(f), "%s/%s/dm/name", dir, e->d_name);
		nf = fopen(f, "r");
		if (nf) {
			if (fgets(name, sizeof(name), nf))
				name[strcspn(name, "\n")] = '\0';
			fclose(nf);
		}
		len += (size_t)snprintf(out + len, len < sz ? sz - len : 0,
					"%s%s", len ? ", " : "", name);
		if (len >= sz)
			break;
	}
	closedir(d);
}

/* Open @path for writing and read its labels; refuse what cannot be wiped. */
static int prepare(const char *path, struct bds_dev *d,
		   struct bds_dev_labels *dl)
{
	char why[512], held[256];
	int rc;

	rc = bds_dev_open(d, path, true, why, sizeof(why));
	if (rc) {
		holders(path, held, sizeof(held));
		if (rc == -EBUSY && held[0])
			bds_err("%s is in use by %s; not wiping anything: stop the volume first (bdsadm stop, or dmsetup remove)",
				path, held);
		else
			bds_err("%s; not wiping anything", why);
		return BDS_EXIT_FAIL;
	}
	rc = bds_labels_read(d, dl);
	if (rc) {
		bds_err("%s: read error: %s; not wiping anything", path,
			strerror(-rc));
		return BDS_EXIT_FAIL;
	}
	if (dl->err[0] == BDS_LABEL_ERR_MAGIC &&
	    dl->err[1] == BDS_LABEL_ERR_MAGIC) {
		bds_err("%s holds no bds-stripe label (neither copy's place has its magic); not wiping anything",
			path);
		return BDS_EXIT_FAIL;
	}
	if (dl->err[0] && dl->err[1]) {
		bds_err("%s holds no valid bds-stripe label (primary: %s; backup: %s); not wiping anything",
			path, bds_label_error(dl->err[0]),
			bds_label_error(dl->err[1]));
		return BDS_EXIT_FAIL;
	}
	return BDS_EXIT_OK;
}

/*
 * All or nothing: every device is opened and checked before the first
 * label is erased.
 */
int bds_cmd_wipe(int argc, char **argv)
{
	struct bds_dev_labels *dl;
	struct bds_dev *d;
	int i, n = argc - 1, status = BDS_EXIT_OK;

	if (bds_help_only(argc, argv, "wipe DEVICE..."))
		return BDS_EXIT_OK;
	if (argc < 2 || argv[1][0] == '-')
		return bds_usage("wipe DEVICE...");
	d = calloc((size_t)n, sizeof(*d));
	dl = calloc((size_t)n, sizeof(*dl));
	if (!d || !dl) {
		bds_err("out of memory; not wiping anything");
		free(d);
		free(dl);
		return BDS_EXIT_FAIL;
	}
	for (i = 0; i < n; i++)
		d[i].fd = -1;
	for (i = 0; i < n && status == BDS_EXIT_OK; i++)
		status = prepare(argv[i + 1], &d[i], &dl[i]);
	for (i = 0; i < n && status == BDS_EXIT_OK; i++) {
		const struct bds_label *l = bds_labels_best(&dl[i]);
		struct bds_label_id was;
		int rc;

		bds_label_id_held(&was, &dl[i]);
		rc = bds_labels_wipe(&d[i], &was);
		if (rc) {
			bds_err("%s: erasing the labels failed: %s; it may still carry one (check with 'bdsadm examine')%s",
				argv[i + 1], bds_label_io_error(rc),
				i ? "; the devices before it were wiped" : "");
			status = BDS_EXIT_FAIL;
			break;
		}
		if (l)
			bds_info("%s: labels erased (member %u of volume %s)",
			       argv[i + 1], l->member_index, l->name);
		else
			bds_info("%s: labels erased (two conflicting copies: primary member %u of volume %s, backup member %u of volume %s)",
			       argv[i + 1], dl[i].copy[0].member_index,
			       dl[i].copy[0].name, dl[i].copy[1].member_index,
			       dl[i].copy[1].name);
	}
	for (i = 0; i < n; i++)
		bds_dev_close(&d[i]);
	free(d);
	free(dl);
	return status;
}
