// SPDX-License-Identifier: GPL-2.0
/*
 * Finishing an adoption from md that was cut short (see adopt-finish.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adopt-finish.h"
#include "bdsadm.h"
#include "label-io.h"
#include "replace.h"
#include "signature.h"

enum bds_adopt_verdict bds_adopt_decide(const struct bds_found *found,
					size_t n, const u8 *uuid,
					struct bds_adopt_result *r)
{
	bool adopting = false;
	u32 p, nr = 0, nr_dev = 0, nr_md = 0;
	size_t i;

	memset(r, 0, sizeof(*r));
	for (p = 0; p < BDS_MAX_MEMBERS; p++)
		r->member[p] = -1;
	for (i = 0; i < n; i++) {
		const struct bds_label *l = &found[i].label;

		if (memcmp(l->volume_uuid, uuid, BDS_UUID_LEN))
			continue;
		adopting |= found[i].adopting;
		if (!r->label || l->generation > r->label->generation)
			r->label = l;
	}
	if (!adopting)
		return r->verdict = BDS_ADOPT_NONE;
	/*
	 * No primary of ours and md's superblock on every device: md
	 * assembles the array (adopt has not reached step 2, or release's
	 * mdadm wrote them all), whichever members carry a marked backup.
	 * A device with neither (a 1.1 superblock erased before its primary
	 * was written, or a primary torn over a 1.2 one) leaves md unable
	 * to: the backups are the volume.  No primary of ours and no md
	 * superblock at all: an adopt --from-table cut among its backups
	 * (it refuses members that hold any signature): nothing else can
	 * take the disks either.
	 */
	for (i = 0; i < n; i++)
		if (!memcmp(found[i].label.volume_uuid, uuid, BDS_UUID_LEN)) {
			r->nr_primary += found[i].copy == 0;
			nr_md += found[i].md_superblock;
			nr_dev++;
		}
	if (!r->nr_primary && nr_md == nr_dev)
		return r->verdict = BDS_ADOPT_MD_WHOLE;
	r->from_table = !r->nr_primary && !nr_md;
	nr = r->label->nr_members;
	for (i = 0; i < n; i++) {
		const struct bds_label *l = &found[i].label;

		if (memcmp(l->volume_uuid, uuid, BDS_UUID_LEN))
			continue;
		p = l->member_index;
		/* adopt writes generation 1 only: anything else is another set */
		if (l->generation != 1 || l->nr_members != nr ||
		    r->member[p] >= 0) {
			r->position = p;
			r->dev = r->member[p] >= 0 ? found[r->member[p]].dev :
				 NULL;
			r->dev2 = found[i].dev;
			return r->verdict = BDS_ADOPT_INCOMPLETE;
		}
		r->member[p] = (int)i;
	}
	for (p = 0; p < nr; p++)
		if (r->member[p] < 0) {
			r->position = p;
			return r->verdict = BDS_ADOPT_INCOMPLETE;
		}
	r->backup_only = r->nr_primary == nr;
	return r->verdict = BDS_ADOPT_FINISH;
}

void bds_adopt_message(const struct bds_adopt_result *r, char *buf, size_t sz)
{
	const struct bds_label *l = r->label;
	const char *what = r->from_table ?
			   "an adoption from a table (bdsadm adopt --from-table)" :
			   "a change between md and bds-stripe";
	char vu[37];

	buf[0] = '\0';
	if (!l)
		return;
	bds_uuid_format(l->volume_uuid, vu);
	switch (r->verdict) {
	case BDS_ADOPT_NONE:
		break;
	case BDS_ADOPT_MD_WHOLE:
		snprintf(buf, sz, "volume %s (%s): a change between md and bds-stripe (bdsadm adopt or release) was cut short while every member holds md's superblock: the md array is whole and holds the data; start it ('mdadm --assemble --scan'); to adopt it, run 'bdsadm adopt %s --from /dev/mdN' again; nothing was written",
			 l->name, vu, l->name);
		break;
	case BDS_ADOPT_INCOMPLETE:
		if (r->dev2 && r->dev)
			snprintf(buf, sz, "volume %s (%s): %s was cut short, and member %u is claimed by both %s and %s: it is finished only over one device per member; nothing was written",
				 l->name, vu, what, r->position, r->dev, r->dev2);
		else if (r->dev2)
			snprintf(buf, sz, "volume %s (%s): %s was cut short, and %s carries a label of another generation or member count: it is finished only over the set adopt wrote; nothing was written",
				 l->name, vu, what, r->dev2);
		else if (r->from_table)
			snprintf(buf, sz, "volume %s (%s): %s was cut short, and member %u (serial %s) is missing or has no label yet: attach it; if its disk is here without a label, make the table again over the same disks and run 'bdsadm adopt %s --from-table' again; nothing was written",
				 l->name, vu, what, r->position,
				 l->serial[r->position][0] ?
				 l->serial[r->position] : "unknown", l->name);
		else
			snprintf(buf, sz, "volume %s (%s): %s was cut short, and member %u (serial %s) is missing: it is finished once every member is there; nothing was written",
				 l->name, vu, what, r->position,
				 l->serial[r->position][0] ?
				 l->serial[r->position] : "unknown");
		break;
	case BDS_ADOPT_FINISH:
		if (r->from_table)
			snprintf(buf, sz, "volume %s (%s): 'bdsadm adopt %s --from-table' was cut short after every member's backup label, and no member holds an md superblock; 'bdsadm assemble %s' (or the boot unit) finishes it; udev's path writes to no disk",
				 l->name, vu, l->name, l->name);
		else
			snprintf(buf, sz, "volume %s (%s): a change between md and bds-stripe (bdsadm adopt or release) was cut short with %u of %u members' primary labels bds-stripe's: md cannot assemble the array; 'bdsadm assemble %s' (or the boot unit) makes it the volume again; udev's path writes to no disk",
				 l->name, vu, r->nr_primary, l->nr_members,
				 l->name);
		break;
	}
}

/* Write @l without ADOPT on @f's device: the primary (@primary) or backup. */
static int write_one(const struct bds_found *f, bool primary)
{
	struct bds_dev_labels *dl = malloc(sizeof(*dl));
	struct bds_label_id was;
	struct bds_label l = f->label;
	struct bds_dev d;
	char why[512];
	int rc;

	if (!dl)
		return -1;
	l.incompat &= ~BDS_LABEL_INCOMPAT_ADOPT;
	if (bds_dev_open(&d, f->dev, true, why, sizeof(why))) {
		bds_err("%s; the adoption is not finished", why);
		free(dl);
		return -1;
	}
	rc = bds_labels_read(&d, dl);
	bds_label_id_held(&was, dl);
	free(dl);
	if (!rc)
		rc = primary ? bds_label_write_primary(&d, &was, &l) :
			       bds_label_write_backup(&d, &was, &l);
	bds_dev_close(&d);
	if (rc)
		bds_err("%s: writing its %s label failed: %s; the adoption is not finished",
			f->dev, primary ? "primary" : "backup",
			bds_label_io_error(rc));
	return rc ? -1 : 0;
}

static int erase_md(const struct bds_found *f)
{
	char why[512];

	if (!bds_md_superblock_wipe(f->dev, why, sizeof(why)))
		return 0;
	bds_err("%s: erasing md's superblock failed: %s; the adoption is not finished",
		f->dev, why);
	return -1;
}

int bds_adopt_finish(const struct bds_found *found,
		     const struct bds_adopt_result *r)
{
	u32 p, nr = r->label->nr_members, wrote = 0;

	for (p = 0; p < nr; p++) {
		const struct bds_found *f = &found[r->member[p]];

		if (f->copy == 0)
			continue;
		/* metadata 1.1's superblock, at sector 0, outlives the primary */
		if (f->md_superblock && erase_md(f))
			return -1;
		if (write_one(f, true))
			return -1;
		wrote++;
		rpl_crash_point("adopt-finish-primary");
	}
	for (p = 0; p < nr; p++) {
		const struct bds_found *f = &found[r->member[p]];

		if (f->adopting && write_one(f, false))
			return -1;
	}
	bds_info("volume %s: %s was cut short; finished as the volume from its backup labels (%u primary labels written, every backup without ADOPT)",
		 r->label->name, r->from_table ?
		 "an adoption from a table" :
		 "a change between md and bds-stripe", wrote);
	fflush(stdout);
	return 0;
}
