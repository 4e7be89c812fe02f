/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan of a volume: which devices, on which controllers, in which
 * table order, with which geometry.  bdsadm plan prints it, bdsadm create
 * labels and creates it, bds-stripe-table is bdsadm plan under its old
 * name.  Making a plan (plan_build()) computes data and prints nothing;
 * its steps live in one file each:
 *
 *   topology.c  a device argument -> its sysfs entry and its controller
 *   fabrics.c   an NVMe over Fabrics namespace -> its storage host
 *   checks.c    in use? (mounted, held, busy, partitioned)
 *   groups.c    controllers -> table groups and table order
 *   plan.c      stripe unit, the layout the kernel will use, the length
 *   plan-weights.c  speeds per member and controller, --weights
 *   weights.c   the choice of weights itself, pure (weights.h)
 *   plan-msg.c  why a plan stopped, and the verb's words for it; notes
 *
 * The verbs, and what they make of a plan:
 *
 *   plan-options.c  the options of plan, create and bds-stripe-table
 *   plan-cmd.c  the plan verb, and bds-stripe-table
 *   create.c    the create verb: labels, then the device
 *   plan-table.c    the table line (libbds's table writer)
 *   summary.c   the printed explanation and bandwidth estimate
 *   summary-weights.c  the summary's "Weights" part
 *   table-create.c  bds-stripe-table --create (unlabelled volumes)
 *
 * What they share with the other verbs holds no state and never exits:
 * util.c (names, numbers, sizes) and sysfs.c (attributes, listings,
 * serial numbers).
 *
 * A plan's state is a struct plan_ctx that the verb owns and passes
 * down; a step that refuses says why in it and returns to the verb.
 */
#ifndef BDS_PLAN_H
#define BDS_PLAN_H

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

#include "../libbds/layout.h"
#include "../libbds/table.h"
#include "sysfs.h"
#include "util.h"

/* The target's version (tools/sources.mk passes it in). */
#ifndef BDS_VERSION
#error "BDS_VERSION is not defined: build with tools/Makefile"
#endif
/* More arguments than this are refused before any work is done. */
#define MAX_ARGS	1024
#define MAX_NOTES	512
#define DEFAULT_CHUNK_BYTES	(256ULL << 10)
#define XFS_BLOCK	4096ULL
#define GIB		(1ULL << 30)
/* dm device names: DM_NAME_LEN is 128 including the NUL */
#define DM_NAME_MAX	127
/* the page cache reads ahead in pages; read_ahead_kb is in KiB */
#define PAGE_KIB	4ULL

enum ra_mode { RA_AUTO, RA_OFF, RA_SET };

/* --weights: none (every weight 1), chosen, or a list in table order. */
enum wt_mode { WT_NONE, WT_CAPACITY, WT_BANDWIDTH, WT_LIST };

/* --group-by: what a fabrics namespace's group is (local disks: always
 * their controller). */
enum group_by { GROUP_BY_HOST, GROUP_BY_CONTROLLER, GROUP_BY_SUBSYSTEM };

/* NQNs are up to 223 bytes */
#define NQN_SZ		224

/* Which verb parses the options: they differ in what they accept. */
enum plan_verb { VERB_TABLE, VERB_PLAN, VERB_CREATE };

struct member {
	const char *arg;		/* as given */
	char name[NAME_SZ];		/* kernel name: sdb, sdb1, nvme0n1 */
	char dir[PATH_MAX];		/* real sysfs directory */
	char disk[NAME_SZ];		/* whole disk (== name unless partition) */
	char diskdir[PATH_MAX];
	unsigned int maj, min;
	u64 size;			/* 512-byte sectors */
	u32 lbs, pbs;			/* bytes */
	bool is_part;
	unsigned int partno;
	char holders[LIST_SZ];		/* space separated, may be empty */
	char parts[LIST_SZ];		/* partitions of a whole disk */
	char kind[NAME_SZ];		/* SCSI disk, NVMe namespace, ... */
	char serial[NAME_SZ];		/* WWN or serial, "" if none */
	int ctrl;			/* index into ctrls[] */
	int group;			/* table group */
	int index;			/* table index (0..N-1) */
	double mbps;			/* --disk-mbps, 0 if not given */
	/* NVMe over Fabrics only ("" otherwise): see fabrics.c */
	char host[NAME_SZ];		/* transport address: 10.0.1.1 */
	char where[2 * NAME_SZ];	/* tcp 10.0.1.1 port 4420 */
	char subsys[NQN_SZ];		/* subsystem NQN */
	char fabric_ctrl[NAME_SZ];	/* the (first) controller: nvme3 */
};

/* The fabrics facts of one NVMe controller (fabrics.c). */
struct fabric {
	char ctrl[NAME_SZ];		/* nvme3 */
	char transport[16];		/* tcp, rdma, fc, loop */
	char traddr[NAME_SZ];		/* "local" for loop */
	char trsvcid[32];		/* "" if none */
	char nqn[NQN_SZ];
};

struct controller {
	char name[NAME_SZ];
	char desc[2 * NAME_SZ];
	int nmembers;
	double mbps;			/* --controller-mbps, 0: no limit */
};

/*
 * What a step of the plan returns.  A step that stops the plan says why
 * in plan_ctx.why and returns to its caller, up to the verb, which
 * prints it with its own words (plan_exit()): nothing exits from deep
 * inside.
 */
enum plan_status {
	PLAN_OK,
	PLAN_REFUSED,		/* refused or failed: exit status 1 */
	PLAN_USAGE,		/* a usage error: exit status 2 */
	PLAN_DONE,		/* --help or --version printed: exit 0 */
};

struct plan_ctx;

struct plan_opts {
	enum plan_verb verb;
	const char *sysfs;
	const char *mounts;
	const char *chunk_arg;
	const char *transfer_arg;
	const char *groups_arg;
	const char *name;
	const char *create;
	enum bds_order_mode mode;
	enum ra_mode ra_mode;
	u64 ra_kib;		/* RA_SET: read-ahead in KiB */
	bool force, table_only, paths, sort, json;
	bool unlabelled;	/* plan --unlabelled: the table over whole devices */
	bool measure;		/* --measure: the speeds are read (measure.c) */
	double measure_time;	/* --measure-time, seconds; 0: the default */
	double disk_mbps, ctrl_mbps;	/* the first (or only) value */
	bool have_disk_mbps, have_ctrl_mbps;
	/* the values, one per device (argument order) or per controller */
	double *disk_list, *ctrl_list;
	int ndisk, nctrl_mbps;
	double wt_tolerance;	/* the speeds' error: MEAS_TOLERANCE when
				 * measured, 0 when given */
	enum wt_mode weights;
	const char *weights_arg;
	enum group_by group_by;
	bool real_sysfs;	/* --sysfs not given: also look at /dev */
	/*
	 * grow: the kernel name (dm-3) of the volume being grown; its
	 * members are held by it, and that is no problem.
	 */
	const char *own_holder;
	/*
	 * grow --add --measure: sets disk_list and ctrl_list (as --measure
	 * does) once the controllers are known, from what the members'
	 * labels record and what the new disks read; NULL otherwise.
	 */
	enum plan_status (*speeds)(struct plan_ctx *c, void *arg);
	void *speeds_arg;
	/*
	 * --measure: what the verb would refuse anyway (a name taken, disks
	 * that hold data), checked once the devices are found and before
	 * they are read for seconds; NULL: nothing.
	 */
	enum plan_status (*before_measure)(struct plan_ctx *c, void *arg);
	void *before_measure_arg;
};

/* A plan_status that is not looked at is a refusal lost. */
#ifndef __must_check
#define __must_check __attribute__((warn_unused_result))
#endif

/* What plan_build() computed. */
struct plan_result {
	struct bds_layout layout;	/* with the weights' slots */
	u64 chunk_b;		/* stripe unit in bytes */
	u64 member_len;		/* sectors of a member of weight 1 */
	u64 length;		/* volume sectors */
	/*
	 * bdsadm plan without --unlabelled: length and member_len are those
	 * of create's volume (plan_use_labelled()); whole_length is the
	 * table's over whole devices.
	 */
	bool labelled;
	u64 whole_length;
	u64 width_b;		/* a cycle in bytes, for the read-ahead */
	unsigned int transfer_k;	/* --transfer-size: this many cycles */
	u32 weight[BDS_MAX_MEMBERS];	/* table order; all 1 without weights */
	bool weighted;		/* some weight is not 1 */
	/* the weighted layout's slot arrays (layout.slot points here) */
	struct bds_slot slots[BDS_MAX_SLOTS];
	u16 slot_of[BDS_MAX_SLOTS];
};

/*
 * The plan of one run, passed down to every step (lvm2's cmd_context):
 * the options, the devices, their controllers and groups, the notes for
 * the summary.  plan_init() starts it, plan_free() frees what the steps
 * allocated.
 */
struct plan_ctx {
	const char *prog;		/* "bdsadm" or "bds-stripe-table" */
	struct plan_opts opt;
	struct member *mem;		/* in argument order */
	int nmem;
	struct member **tbl;		/* in table order */
	struct controller *ctrls;	/* natural name order once sorted */
	int nctrl;
	u32 *group_sizes;		/* the table's groups */
	int ngroups;
	bool groups_from_spec;		/* --groups made them */
	char devroot[PATH_MAX];		/* realpath of <sysfs>/devices */
	char *notes[MAX_NOTES];
	int nnotes;
	int nproblems;			/* devices that look in use */
	char **spec_args;		/* device names taken from --groups */
	int nspec;
	char table[65536];		/* the table line (plan_table()) */
	/*
	 * The table bdsadm create makes of the plan: every member from its
	 * label's data offset, up to its backup copy; "" when a member has
	 * no room for a stripe unit there (@no_room names it).
	 */
	char labelled[65536];
	const char *no_room;
	u64 labelled_cycles;	/* the cycles of its volume */
	u64 labelled_length;	/* its sectors: 0 with no_room */
	size_t table_words;		/* where its target's words start */
	char *why;			/* why the plan stopped (allocated) */
	bool said;			/* ... and it is on stderr already */
	struct plan_meas *meas;		/* --measure's figures, or NULL */
};

struct bds_dm_info;

/* plan.c */
void plan_init(struct plan_ctx *c, const char *prog);
void plan_free(struct plan_ctx *c);
u32 max_pbs(const struct plan_ctx *c);
enum plan_status __must_check plan_build(struct plan_ctx *c, char **args,
					 int nargs, struct plan_result *r);

/*
 * create.c: what device @node holds, signatures (libblkid) and
 * bds-stripe labels, each said on stderr (a warning with --force) and
 * counted in @found; its labels' identity into @held, for the label
 * write to check again.  Also grow's check of the disks it adds.
 */
struct bds_label_id;
enum plan_status __must_check plan_check_holds(struct plan_ctx *c,
					       const char *node,
					       struct bds_label_id *held,
					       int *found);
/* plan-msg.c */
/* Stop the plan: why into c->why (the first reason counts); PLAN_REFUSED. */
enum plan_status __must_check plan_fail(struct plan_ctx *c,
					const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same for a usage error: PLAN_USAGE. */
enum plan_status __must_check plan_usage(struct plan_ctx *c,
					 const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Stop the plan after saying why on stderr as it happened: PLAN_REFUSED. */
enum plan_status __must_check plan_said(struct plan_ctx *c);
/* snprintf, or PLAN_REFUSED (an internal error) if it would truncate. */
enum plan_status __must_check plan_path(struct plan_ctx *c, char *buf,
					size_t sz, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * The verb's words for @st: the reason on stderr, and then "nothing was
 * created" (create, bds-stripe-table; not plan, which never creates
 * anything) or "Try 'PROG --help'." (usage).  Returns the exit status.
 */
int plan_exit(const struct plan_ctx *c, enum plan_status st);
/* A line for the summary's notes. */
void note(struct plan_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* topology.c */
enum plan_status __must_check resolve(struct plan_ctx *c, struct member *m);

/* fabrics.c */
bool fabric_read(const char *dir, const char *name, struct fabric *f);
/* "NVMe/TCP", "NVMe loop" into @buf (32 bytes) */
const char *fabric_kind(const struct fabric *f, char *buf);
void fabric_where(const struct fabric *f, char *buf, size_t sz);
void fabric_key(enum group_by by, const struct fabric *f, char *key);
void fabric_group(struct plan_ctx *c, struct member *m,
		  const struct fabric *f, int n, char *ctrl, char *desc);

/* checks.c */
enum plan_status __must_check check_members(struct plan_ctx *c);

/* groups.c */
bool spec_is_counts(const char *spec);
void sort_controllers(struct plan_ctx *c);
enum plan_status __must_check make_groups(struct plan_ctx *c);

/* plan-weights.c */
/* The speeds of --disk-mbps and --controller-mbps onto mem[] and ctrls[]. */
enum plan_status __must_check plan_speeds(struct plan_ctx *c);
/* --weights LIST into @r->weight; NULL or why not (the target's words). */
const char *plan_weights_list(const struct plan_ctx *c,
			      struct plan_result *r);
/* The --weights choice for stripe unit @chunk into @r and its layout. */
enum plan_status __must_check plan_weights(struct plan_ctx *c,
					   struct plan_result *r, u64 chunk);
/* Sectors member @i (table order) has for data under a label. */
u64 plan_label_room(const struct plan_ctx *c, int i, u64 chunk);
/* The sectors of member @i (table order) the volume of @r may use. */
u64 plan_member_room(const struct plan_ctx *c, const struct plan_result *r,
		     int i);
/* measure.c: --measure (see measure.h) */
enum plan_status __must_check plan_measure(struct plan_ctx *c);
void plan_print_measure(const struct plan_ctx *c);
/*
 * The measured figures in c->opt.disk_list and ctrl_list (one per
 * member, one per controller) as the plan's speeds, known to
 * MEAS_TOLERANCE, as --disk-mbps and --controller-mbps would give them.
 */
void plan_take_measured(struct plan_ctx *c);
void plan_json_measure(const struct plan_ctx *c);
void plan_meas_free(struct plan_meas *pm);

/* bdsadm plan --json: the plan as one object (plan-json.c). */
void plan_print_json(const struct plan_ctx *c, const struct plan_result *r);
/*
 * The cycles every member has room for under a label (create's volume:
 * member i holds @weight[i] stripe units of @chunk sectors per cycle), 0
 * when one has none; the tightest member into @tight.
 */
u64 plan_label_cycles(const struct plan_ctx *c, const u32 *weight,
		      u64 chunk, int *tight);
/*
 * The members and controllers as weights.c sees them (@wm and @cm: room
 * for BDS_MAX_MEMBERS each).
 */
struct wt_member;
struct wt_input;
struct wt_input plan_wt_input(const struct plan_ctx *c, struct wt_member *wm,
			      double *cm, u64 chunk);

/* plan-table.c */
/*
 * The table lines of the plan @r: over whole devices into c->table, and
 * for bdsadm plan the one bdsadm create makes into c->labelled.
 */
enum plan_status __must_check plan_table(struct plan_ctx *c,
					 const struct plan_result *r);
/* The sizes of @r from here on those of c->labelled, create's volume. */
void plan_use_labelled(const struct plan_ctx *c, struct plan_result *r);

/* summary.c: what bds-stripe-table and bdsadm plan print under the table */
void print_summary(const struct plan_ctx *c, const struct plan_result *r);

/* summary-weights.c: its "Weights" part (only when --weights is given) */
void print_weights(const struct plan_ctx *c, const struct plan_result *r);

/* table-create.c */
/*
 * bds-stripe-table --create: the table line in c->table made into
 * /dev/mapper/NAME through libdevmapper, and its read-ahead set.
 */
enum plan_status __must_check create_device(struct plan_ctx *c,
					    const struct plan_result *r);
/*
 * Device-mapper as --create uses it: dm.c's libdevmapper calls, with no
 * dm UUID.  The tool tests build bdsadm with BDS_FAKE_DM and their fake
 * (tests/bdsadm/fake-dm.c) in its place; no other build has it.
 */
struct table_dm {
	bool (*info)(const char *name, struct bds_dm_info *info);
	bool (*create)(const char *name, u64 length, const char *params);
	bool (*remove)(const char *name);
};
#ifdef BDS_FAKE_DM
extern const struct table_dm bds_fake_dm;
#endif

/* plan-options.c */
/*
 * The options of @verb into c->opt; @first: the index of the first
 * argument after them.
 */
enum plan_status __must_check plan_parse_options(struct plan_ctx *c,
						 enum plan_verb verb, int argc,
						 char **argv, int *first);
/* A usage error unless @name can be a device-mapper name. */
enum plan_status __must_check plan_check_dm_name(struct plan_ctx *c,
						 const char *what,
						 const char *name);

/* plan-cmd.c */
int bds_cmd_plan(int argc, char **argv);
int bds_cmd_table(int argc, char **argv);

#endif /* BDS_PLAN_H */
