/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdsadm: the verbs and what they share.
 *
 * Exit status of every verb: 0 done; 1 refused or failed, and then
 * nothing was changed; 2 usage error.
 */
#ifndef BDSADM_H
#define BDSADM_H

#include <stdbool.h>

#define BDS_EXIT_OK	0
#define BDS_EXIT_FAIL	1
#define BDS_EXIT_USAGE	2

/* "bdsadm: <message>" on stderr. */
void bds_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * What bdsadm says besides its errors, as -q and -v choose (mdadm's
 * --quiet and --verbose, given before or after the verb): the level,
 * like lvm2's, is the process's, set once by main() before the verb runs.
 */
enum bds_verbosity { BDS_QUIET = -1, BDS_NORMAL = 0, BDS_VERBOSE = 1 };
enum bds_verbosity bds_verbosity(void);
/* "bdsadm: <message>" on stdout: what was done; not with -q */
void bds_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "bdsadm: <message>" on stderr: progress; not with -q */
void bds_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "bdsadm: <message>" on stderr: each step, only with -v */
void bds_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "usage: bdsadm <what>" on stderr; returns BDS_EXIT_USAGE. */
int bds_usage(const char *what);
/*
 * A verb without options of its own asked for --help (or -h) alone:
 * print "usage: bdsadm @what" on stdout and return true (exit 0, as
 * every verb's --help).
 */
bool bds_help_only(int argc, char **argv, const char *what);
/*
 * A volume NAME as the admin gives it (NAME or /dev/mapper/NAME): the
 * dm name, or NULL after saying why it cannot be one.
 */
const char *bds_vol_name_arg(const char *arg);

int bds_cmd_create(int argc, char **argv);
int bds_cmd_assemble(int argc, char **argv);
int bds_cmd_stop(int argc, char **argv);
int bds_cmd_list(int argc, char **argv);
int bds_cmd_detail(int argc, char **argv);
int bds_cmd_incremental(int argc, char **argv);
int bds_cmd_grow(int argc, char **argv);
int bds_cmd_replace(int argc, char **argv);
int bds_cmd_examine(int argc, char **argv);
int bds_cmd_wipe(int argc, char **argv);
int bds_cmd_monitor(int argc, char **argv);
int bds_cmd_check(int argc, char **argv);
int bds_cmd_import(int argc, char **argv);
int bds_cmd_adopt(int argc, char **argv);
int bds_cmd_release(int argc, char **argv);

#endif /* BDSADM_H */
