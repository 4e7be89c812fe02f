// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm detail's output (see detail.c for what it shows and the JSON
 * keys): for people, in the style of bdsadm examine, and --json.
 */
#include <stdio.h>
#include <string.h>

#include "assemble.h"
#include "detail.h"
#include "fmt.h"

/* Rates are in MB/s, MB = 10^6 bytes (as disks are sold and dd prints). */
#define MB_PER_SECTOR	(512.0 / 1e6)

static const char *layout_word(const struct bds_vol *v)
{
	return v->args.mode == BDS_LAYOUT_SEQUENTIAL ? "sequential" :
	       "interleave";
}

/* The controller of group @g at creation (label), "" if unknown. */
static const char *ctrl_of(const struct bds_detail *d, u32 g)
{
	return d->have_view && g < d->view.nr_groups ? d->view.controller[g] :
	       "";
}

static const char *ctrl_or_dash(const struct bds_detail *d, u32 g)
{
	return ctrl_of(d, g)[0] ? ctrl_of(d, g) : "-";
}

static const char *serial_of(const struct bds_detail *d, u32 i)
{
	return d->have_view ? d->view.serial[i] : "";
}

static u32 pos_of(const struct bds_vol *v, u32 i)
{
	return v->have_status ? v->pos_of[i] : 0;
}

/* Member @i's data sectors: its weight's share of the volume's size. */
static u64 share_of(const struct bds_vol *v, u32 i)
{
	return v->nr_slots ? v->sectors / v->nr_slots * v->args.weight[i] : 0;
}

/* Member @i's error count (status field 7), "?" when not known. */
static const char *errors_of(const struct bds_vol *v, u32 i, char *buf,
			     size_t sz)
{
	if (v->have_status && v->have_errors)
		snprintf(buf, sz, "%u", v->errors[i]);
	else
		snprintf(buf, sz, "?");
	return buf;
}

/* Per second, of the difference of two counters; @scale per unit. */
static double rate(u64 a, u64 b, double secs, double scale)
{
	return (double)(b - a) * scale / secs;
}

/* How far the restripe is, from the target. */
static u64 restripe_done(const struct bds_detail *d)
{
	return d->backward ? d->rs_units - d->rs_ckpt : d->rs_ckpt;
}

static void human_restripe(const struct bds_detail *d)
{
	if (!d->restriping)
		return;
	if (!d->have_restripe) {
		printf("       Restripe : in progress, position unknown (the target does not answer 'reshape status')\n");
		return;
	}
	printf("       Restripe : %s, at stripe unit %llu of %llu (%.1f %% done), %s; 'bdsadm grow --continue %s' carries it on\n",
	       d->backward ? "backward" : "forward", U(d->rs_ckpt),
	       U(d->rs_units),
	       d->rs_units ? 100.0 * (double)restripe_done(d) / (double)d->rs_units : 0.0,
	       d->rs_hold != d->rs_ckpt ? "copying" : "idle", d->vol.name);
}

static void human_head(const struct bds_detail *d)
{
	const struct bds_vol *v = &d->vol;
	u64 width = v->args.chunk * v->nr_members;
	char u[BDS_DM_UUID_SZ], h[32], t[64], err[BDS_MAX_MEMBERS * 4];
	u32 g, k;

	bds_vol_uuid(v, u, sizeof(u));
	bds_vol_errors(v, err, sizeof(err));
	printf("/dev/mapper/%s (%u:%u):\n", v->name, v->major, v->minor);
	printf("         Volume : %s\n           UUID : %s\n", v->name, u);
	printf("           Size : %s (%llu sectors)\n",
	       bds_human(v->sectors << 9, h, sizeof(h)), U(v->sectors));
	printf("    Stripe unit : %s (%llu sectors)\n",
	       bds_human(v->args.chunk << 9, h, sizeof(h)), U(v->args.chunk));
	printf("   Stripe width : %s (%llu sectors), %u members\n",
	       bds_human(width << 9, h, sizeof(h)), U(width), v->nr_members);
	printf("         Layout : %s, groups", layout_word(v));
	for (g = 0; g < v->args.nr_groups; g++)
		printf("%s%u", g ? "+" : " ", v->args.group_size[g]);
	if (v->args.weights_given && v->nr_slots != v->nr_members) {
		printf("\n        Weights :");
		for (k = 0; k < v->nr_members; k++)
			printf("%s%u", k ? "," : " ", v->args.weight[k]);
		printf(" (table order)\n          Cycle : %s (%llu sectors), %u stripe units",
		       bds_human((v->args.chunk * v->nr_slots) << 9, h, sizeof(h)),
		       U(v->args.chunk * v->nr_slots), v->nr_slots);
	}
	printf("\n   Stripe order :");
	for (k = 0; v->have_status && k < v->nr_slots; k++)
		printf("%s%u", k ? "," : " ", v->order[k]);
	if (!v->have_status)
		printf(" unknown\n          State : unknown (%s)\n", v->why);
	else if (err[0])
		printf("\n          State : errors on member%s %s (an I/O error was seen; members stay in service)\n",
		       strchr(err, ',') ? "s" : "", err);
	else
		printf("\n          State : healthy\n");
	human_restripe(d);
	printf("     Open count : %d\n", v->open_count);
	if (d->have_view) {
		printf("        Created : %s\n",
		       bds_time(d->view.ctime, t, sizeof(t)));
		printf("     Generation : %llu (%s)\n", U(d->view.generation),
		       bds_time(d->view.utime, t, sizeof(t)));
		if (strcmp(d->view.name, v->name))
			printf("     Label name : %s\n", d->view.name);
	}
	printf("         Labels : %u of %u members carry the newest label at their position\n",
	       d->agreeing, v->nr_members);
	for (k = 0; k < v->nr_members; k++)
		if (strcmp(d->m[k].label, "ok"))
			printf("                  member %u (%s): label %s\n", k,
			       d->m[k].node, d->m[k].label);
}

static void human_members(const struct bds_detail *d)
{
	const struct bds_vol *v = &d->vol;
	char e[16];
	u32 g, k, i;

	printf("Members by controller group (table order):\n");
	for (g = 0, i = 0; g < v->args.nr_groups; g++) {
		printf("  group %u: controller %s at creation, %u member%s\n", g,
		       ctrl_of(d, g)[0] ? ctrl_of(d, g) : "unknown",
		       v->args.group_size[g], v->args.group_size[g] > 1 ? "s" : "");
		printf("      #   pos  device            dev        data offset  health      errors  serial at creation    serial now\n");
		for (k = 0; k < v->args.group_size[g]; k++, i++) {
			const char *ls = serial_of(d, i), *now = d->m[i].serial;
			bool differs = d->have_view &&
				       strncmp(ls, now, BDS_LABEL_SERIAL_LEN);

			printf("    %3u  %4u  %-16s  %-9s  %11llu  %-6s  %10s  %-20s  %s%s\n",
			       i, pos_of(v, i), d->m[i].node, v->dev[i],
			       U(v->offset[i]), !v->have_status ? "?" :
			       v->health[i] == 'D' ? "errors" : "ok",
			       errors_of(v, i, e, sizeof(e)),
			       ls[0] ? ls : "-", now[0] ? now : "-",
			       differs ? "  (differs)" : "");
		}
	}
}

/* A weighted volume: each member's weight and share. */
static void human_shares(const struct bds_detail *d)
{
	const struct bds_vol *v = &d->vol;
	char h[32];
	u32 i;

	printf("Member shares (weights: stripe units of each cycle of %u):\n",
	       v->nr_slots);
	printf("      #  weight    share  data\n");
	for (i = 0; i < v->nr_members; i++)
		printf("    %3u  %6u  %5.1f %%  %s (%llu sectors)\n", i,
		       v->args.weight[i],
		       100.0 * v->args.weight[i] / v->nr_slots,
		       bds_human(share_of(v, i) << 9, h, sizeof(h)),
		       U(share_of(v, i)));
}

double bds_detail_group_measured(const struct bds_detail *d, u32 g)
{
	const struct bds_vol *v = &d->vol;
	u32 k, i = 0, ctrl = 0;
	double sum = 0;

	for (k = 0; k < g; k++)
		i += v->args.group_size[k];
	for (k = 0; k < v->args.group_size[g]; k++, i++) {
		if (!d->m[i].meas_disk)
			return 0;
		sum += d->m[i].meas_disk / 1000.0;
		if (d->m[i].meas_ctrl && (!ctrl || d->m[i].meas_ctrl < ctrl))
			ctrl = d->m[i].meas_ctrl;
	}
	return ctrl && ctrl / 1000.0 < sum ? ctrl / 1000.0 : sum;
}

/* --interval, and figures create --measure recorded: how much is used. */
static void human_against_measured(const struct bds_detail *d)
{
	const struct bds_group_io *a = d->before, *b = d->vol.io;
	double now, was;
	bool any = false;
	u32 g;

	for (g = 0; g < d->vol.args.nr_groups; g++) {
		was = bds_detail_group_measured(d, g);
		if (!was)
			continue;
		if (!any)
			printf("Against what create --measure read (each group's disks, or its controller when lower):\n");
		any = true;
		now = rate(a[g].read_sectors, b[g].read_sectors, d->secs,
			   MB_PER_SECTOR) +
		      rate(a[g].write_sectors, b[g].write_sectors, d->secs,
			   MB_PER_SECTOR);
		printf("  group %u (%s): %.2f MB/s now of %g MB/s measured (%.0f %%)\n",
		       g, ctrl_or_dash(d, g), now, was, 100.0 * now / was);
	}
}

static void human_io(const struct bds_detail *d)
{
	const struct bds_group_io *a = d->before, *b = d->vol.io;
	const double s = d->secs;
	char h[32], h2[32];
	u32 g;

	printf("I/O per group since the table was loaded:\n");
	printf("  group  controller                 reads      writes        read     written\n");
	for (g = 0; g < d->vol.args.nr_groups; g++)
		printf("  %5u  %-20s  %10llu  %10llu  %10s  %10s\n", g,
		       ctrl_or_dash(d, g), U(b[g].reads), U(b[g].writes),
		       bds_human(b[g].read_sectors << 9, h, sizeof(h)),
		       bds_human(b[g].write_sectors << 9, h2, sizeof(h2)));
	if (!d->have_rates)
		return;
	printf("I/O rates per group over %.2f s (MB = 10^6 bytes):\n", s);
	printf("  group  controller             read MB/s  write MB/s   read IO/s  write IO/s\n");
	for (g = 0; g < d->vol.args.nr_groups; g++)
		printf("  %5u  %-20s  %10.2f  %10.2f  %10.1f  %10.1f\n", g,
		       ctrl_or_dash(d, g),
		       rate(a[g].read_sectors, b[g].read_sectors, s, MB_PER_SECTOR),
		       rate(a[g].write_sectors, b[g].write_sectors, s, MB_PER_SECTOR),
		       rate(a[g].reads, b[g].reads, s, 1),
		       rate(a[g].writes, b[g].writes, s, 1));
	human_against_measured(d);
}

void bds_detail_human(const struct bds_detail *d)
{
	human_head(d);
	human_members(d);
	if (d->vol.nr_slots != d->vol.nr_members)
		human_shares(d);
	if (d->vol.have_status)
		human_io(d);
}

static void json_key_str(const char *key, const char *val)
{
	printf(", \"%s\": ", key);
	bds_json_str(stdout, val);
}

static void json_head(const struct bds_detail *d)
{
	const struct bds_vol *v = &d->vol;
	char u[BDS_DM_UUID_SZ], dev[BDS_DM_NAME_SZ + 16];
	u32 g, k, i;

	bds_vol_uuid(v, u, sizeof(u));
	snprintf(dev, sizeof(dev), "/dev/mapper/%s", v->name);
	printf("{\"output_version\": %d, \"name\": ", BDS_JSON_OUTPUT_VERSION);
	bds_json_str(stdout, v->name);
	json_key_str("uuid", u);
	json_key_str("dm_uuid", v->dm_uuid);
	json_key_str("device", dev);
	printf(", \"dev\": \"%u:%u\", \"open_count\": %d,\n", v->major,
	       v->minor, v->open_count);
	printf(" \"size_sectors\": %llu, \"chunk_sectors\": %llu, \"width_sectors\": %llu, \"nr_members\": %u, \"layout\": \"%s\",\n",
	       U(v->sectors), U(v->args.chunk),
	       U(v->args.chunk * v->nr_members), v->nr_members, layout_word(v));
	printf(" \"group_sizes\": [");
	for (g = 0; g < v->args.nr_groups; g++)
		printf("%s%u", g ? ", " : "", v->args.group_size[g]);
	printf("], \"order\": [");
	for (k = 0; v->have_status && k < v->nr_slots; k++)
		printf("%s%u", k ? ", " : "", v->order[k]);
	printf("], \"health\": \"%s\", \"state\": \"%s\", \"error_members\": [",
	       v->health, !v->have_status ? "unknown" :
	       strchr(v->health, 'D') ? "errors" : "healthy");
	for (i = 0, k = 0; v->have_status && i < v->nr_members; i++)
		if (v->health[i] == 'D')
			printf("%s%u", k++ ? ", " : "", i);
	printf("], \"weights\": [");
	for (k = 0; k < v->nr_members; k++)
		printf("%s%u", k ? ", " : "", v->args.weight[k]);
	printf("], \"cycle_sectors\": %llu,\n \"restripe\": ",
	       U(v->args.chunk * v->nr_slots));
	if (!d->restriping)
		printf("null");
	else if (!d->have_restripe)
		printf("{\"state\": \"unknown\"}");
	else
		printf("{\"state\": \"%s\", \"direction\": \"%s\", \"checkpoint_units\": %llu, \"total_units\": %llu, \"done_units\": %llu, \"held_bios\": %u}",
		       d->rs_hold != d->rs_ckpt ? "copying" : "idle",
		       d->backward ? "backward" : "forward", U(d->rs_ckpt),
		       U(d->rs_units), U(restripe_done(d)), d->rs_held);
	printf(",\n \"label\": ");
	if (d->have_view) {
		printf("{\"name\": ");
		bds_json_str(stdout, d->view.name);
		printf(", \"ctime\": %llu, \"utime\": %llu, \"generation\": %llu, \"agreeing\": %u}",
		       U(d->view.ctime), U(d->view.utime),
		       U(d->view.generation), d->agreeing);
	} else {
		printf("null");
	}
}

static void json_groups(const struct bds_detail *d)
{
	const struct bds_vol *v = &d->vol;
	u32 g, k, i;

	printf(",\n \"groups\": [");
	for (g = 0, i = 0; g < v->args.nr_groups; g++) {
		printf("%s\n  {\"group\": %u", g ? "," : "", g);
		json_key_str("controller", ctrl_of(d, g));
		printf(", \"members\": [");
		for (k = 0; k < v->args.group_size[g]; k++, i++)
			printf("%s%u", k ? ", " : "", i);
		printf("], \"reads\": %llu, \"writes\": %llu, \"read_sectors\": %llu, \"write_sectors\": %llu}",
		       U(v->io[g].reads), U(v->io[g].writes),
		       U(v->io[g].read_sectors), U(v->io[g].write_sectors));
	}
	printf("]");
}

static void json_members(const struct bds_detail *d)
{
	const struct bds_vol *v = &d->vol;
	char u[37], e[16];
	u32 g, k, i;

	printf(",\n \"members\": [");
	for (g = 0, i = 0; g < v->args.nr_groups; g++) {
		for (k = 0; k < v->args.group_size[g]; k++, i++) {
			u[0] = '\0';
			if (!bds_uuid_is_zero(d->m[i].uuid))
				bds_uuid_format(d->m[i].uuid, u);
			printf("%s\n  {\"index\": %u, \"position\": %u, \"group\": %u",
			       i ? "," : "", i, pos_of(v, i), g);
			json_key_str("device", d->m[i].node);
			printf(", \"dev\": \"%s\", \"offset\": %llu, \"weight\": %u, \"data_sectors\": %llu, \"uuid\": \"%s\"",
			       v->dev[i], U(v->offset[i]), v->args.weight[i],
			       U(share_of(v, i)), u);
			json_key_str("serial_label", serial_of(d, i));
			json_key_str("serial_now", d->m[i].serial);
			errors_of(v, i, e, sizeof(e));
			printf(", \"health\": \"%c\", \"errors\": %s, \"label\": \"%s\"}",
			       v->have_status ? v->health[i] : '?',
			       e[0] == '?' ? "null" : e, d->m[i].label);
		}
	}
	printf("]");
}

static void json_rates(const struct bds_detail *d)
{
	const struct bds_group_io *a = d->before, *b = d->vol.io;
	const double s = d->secs;
	u32 g;

	printf(",\n \"rates\": {\"seconds\": %.3f, \"groups\": [", s);
	for (g = 0; g < d->vol.args.nr_groups; g++) {
		printf("%s\n  {\"group\": %u, \"read_mbps\": %.3f, \"write_mbps\": %.3f, \"read_iops\": %.1f, \"write_iops\": %.1f, \"measured_mbps\": ",
		       g ? "," : "", g,
		       rate(a[g].read_sectors, b[g].read_sectors, s, MB_PER_SECTOR),
		       rate(a[g].write_sectors, b[g].write_sectors, s, MB_PER_SECTOR),
		       rate(a[g].reads, b[g].reads, s, 1),
		       rate(a[g].writes, b[g].writes, s, 1));
		if (bds_detail_group_measured(d, g))
			printf("%g}", bds_detail_group_measured(d, g));
		else
			printf("null}");
	}
	printf("]}");
}

/*
 * One KEY=VALUE a line, as examine --export and mdadm --detail --export
 * print them: the volume, then BDS_MEMBER_<index>_* per member.
 */
void bds_detail_export(const struct bds_detail *d)
{
	const struct bds_vol *v = &d->vol;
	char u[BDS_DM_UUID_SZ], e[16];
	u32 g, k, i;

	bds_vol_uuid(v, u, sizeof(u));
	printf("BDS_DM_NAME=%s\n", v->name);
	printf("BDS_DEVICE=/dev/mapper/%s\n", v->name);
	printf("BDS_VOLUME_UUID=%s\n", u);
	printf("BDS_SIZE_SECTORS=%llu\n", U(v->sectors));
	printf("BDS_CHUNK_SECTORS=%llu\n", U(v->args.chunk));
	printf("BDS_LAYOUT=%s\n", layout_word(v));
	printf("BDS_GROUPS=%u\n", v->args.nr_groups);
	printf("BDS_MEMBERS=%u\n", v->nr_members);
	printf("BDS_STATE=%s\n", !v->have_status ? "unknown" :
	       strchr(v->health, 'D') ? "errors" : "healthy");
	printf("BDS_HEALTH=%s\n", v->have_status ? v->health : "");
	printf("BDS_RESTRIPE=%s\n", !d->restriping ? "none" :
	       !d->have_restripe ? "unknown" :
	       d->rs_hold != d->rs_ckpt ? "copying" : "idle");
	if (d->have_view)
		printf("BDS_GENERATION=%llu\n", U(d->view.generation));
	for (g = 0, i = 0; g < v->args.nr_groups; g++) {
		for (k = 0; k < v->args.group_size[g]; k++, i++) {
			printf("BDS_MEMBER_%u_DEVICE=%s\n", i, d->m[i].node);
			printf("BDS_MEMBER_%u_DEV=%s\n", i, v->dev[i]);
			printf("BDS_MEMBER_%u_GROUP=%u\n", i, g);
			printf("BDS_MEMBER_%u_HEALTH=%c\n", i,
			       v->have_status ? v->health[i] : '?');
			printf("BDS_MEMBER_%u_ERRORS=%s\n", i,
			       errors_of(v, i, e, sizeof(e)));
			printf("BDS_MEMBER_%u_SERIAL=%s\n", i, d->m[i].serial);
		}
	}
}

void bds_detail_json(const struct bds_detail *d)
{
	json_head(d);
	json_groups(d);
	json_members(d);
	if (d->have_rates)
		json_rates(d);
	printf("}\n");
}
