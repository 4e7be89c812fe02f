/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output helpers of bdsadm: sizes for people, times, JSON strings.
 */
#ifndef BDS_FMT_H
#define BDS_FMT_H

#include <stdio.h>

#include "../libbds/layout.h"
#include "../libbds/table.h"

/* "4 GiB", "1.50 GiB", "512 B": truncated, never more than there is. */
const char *bds_human(u64 bytes, char *buf, size_t sz);
/* "2026-01-01 00:00:00 UTC" */
const char *bds_time(u64 seconds, char *buf, size_t sz);
/* @s as a JSON string, quotes included. */
/*
 * The first key of every JSON object bdsadm prints ("output_version",
 * as zpool's -j output has): it grows when a key changes meaning or goes
 * away, not when one is added.  Documentation/bdsadm.schema.json.
 */
#define BDS_JSON_OUTPUT_VERSION 1

void bds_json_str(FILE *f, const char *s);
/*
 * The kernel's words (a ti->error the target shares with the tools,
 * "Invalid chunk size: ...") for the middle of a sentence: @s with its
 * first letter in lower case, in @buf (@sz).
 */
const char *bds_mid(const char *s, char *buf, size_t sz);

#endif /* BDS_FMT_H */
