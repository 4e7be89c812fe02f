/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of bdsadm that hold no state and never exit: names, numbers,
 * sizes, speeds, one string appender.  Any verb may use them.
 */
#ifndef BDS_UTIL_H
#define BDS_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "../libbds/compat.h"

#define NAME_SZ		128
#define LIST_SZ		1024
#define SECTOR		512ULL

#define U(x) ((unsigned long long)(x))

/*
 * Append to the string in @buf (@sz bytes); false if it did not fit
 * (then as much as fits was appended).
 */
bool cat(char *buf, size_t sz, const char *fmt, ...) __printf(3, 4);
/* "250 MB/s", "12.5 MB/s" */
const char *speed(double mbps, char *buf, size_t sz);
/* Natural order: digit runs compare as numbers ("sdb2" < "sdb10"). */
int natcmp(const char *a, const char *b);
/* "prefix" followed by one or more digits and nothing else */
bool is_name_num(const char *s, const char *prefix);
/* PCI function address: DDDD:BB:DD.F */
bool is_pci_addr(const char *s);
/* @word is one of the words of the blank-separated @list */
bool in_list(const char *list, const char *word);
const char *base_name(const char *path);
/* A size: digits and an optional suffix (s, K, M, G: see util.c). */
bool parse_size(const char *s, u64 *bytes);
/* A speed in MB/s: a positive number. */
bool parse_mbps(const char *s, double *v);
/*
 * A time option's seconds (--measure-time, --rescan, --program-timeout):
 * a whole number from 1 to PARSE_SECONDS_MAX.
 */
#define PARSE_SECONDS_MAX 3600
bool parse_whole_seconds(const char *s, unsigned int *secs);

#endif /* BDS_UTIL_H */
