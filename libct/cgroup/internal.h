/* What the cgroup drivers share (libct/cgroup/): file access in a cgroup directory and the
 * resource table walker. Not for use outside libct/cgroup/. */
#ifndef CT_CGROUP_INTERNAL_H
#define CT_CGROUP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "libct/cgroup/cgroup.h"

/* Writes value to dir/file in one write(); err: `write "VALUE" to "DIR/FILE": strerror`. */
int ct_cg_write(const char *dir, const char *file, const char *value, struct ct_error *err);
/* The same write to an fd already open on path (a file that takes one value a write). */
int ct_cg_write_fd(int fd, const char *path, const char *value, struct ct_error *err);
/* The same through dirfd, an O_PATH fd of dir (ct_cgroup_dir.fd), when it is >= 0: one
 * lookup instead of a walk of the whole path; dir names the file in errors. */
int ct_cg_write_at(int dirfd, const char *dir, const char *file, const char *value,
		   struct ct_error *err);
/* Opens dir/file (through dirfd when >= 0), path receiving "DIR/FILE" for messages. */
int ct_cg_open_at(int dirfd, const char *dir, const char *file, int flags, char *path, size_t size);
char *ct_cg_read_at(int dirfd, const char *dir, const char *file);
bool ct_cg_has_at(int dirfd, const char *dir, const char *file);
/* Reads dir/file (NUL-terminated, trailing newline kept) into a malloc'ed buffer; NULL with
 * errno set. */
char *ct_cg_read(const char *dir, const char *file);
/* Whether a hierarchy key ("cpu,cpuacct", "name=systemd") lists controller. Pure. */
bool ct_cg_key_has(const char *key, const char *controller);
/* Whether dir/file exists. */
bool ct_cg_has(const char *dir, const char *file);
/* The value of "key N" in a flat-keyed file text (memory.events, cgroup.events); false when
 * absent. Pure. */
bool ct_cg_keyed_value(const char *text, const char *key, unsigned long long *out);
/* The pids of dir/cgroup.procs and of every directory below, appended to *pids (sorted and
 * deduplicated by the caller with ct_cg_pids_sort). */
int ct_cg_collect_pids(const char *dir, pid_t **pids, size_t *n, struct ct_error *err);
void ct_cg_pids_sort(pid_t *pids, size_t *n);
/* rmdir of dir's subdirectories (deepest first), then of dir; retried while EBUSY for a
 * short while (a dying process still counted). ENOENT is success. */
int ct_cg_remove_tree(const char *dir, struct ct_error *err);
/* Makes every missing component of path (0755); *made_from gets the first one made
 * (malloc'ed, NULL when all existed) so a failure can remove exactly what was made. */
int ct_cg_mkdir_p(const char *path, char **made_from, struct ct_error *err);
/* Makes the leaf path (and its missing parents, as ct_cg_mkdir_p) and opens it (O_PATH,
 * *fd): the parent is walked once, or not at all when *parent_fd has it open already (taken
 * and set to -1), and the leaf made and opened relative to it. A failure leaves nothing made
 * and nothing open. */
int ct_cg_mkdir_leaf(const char *path, int *parent_fd, int *fd, char **made_from,
		     struct ct_error *err);
/* Removes path and its parents up to and including stop (the first made), when empty. */
void ct_cg_rmdir_up(const char *path, const char *stop);
/* Removes the parents of path below base (exclusive) while they are empty. */
void ct_cg_rmdir_parents(const char *path, const char *base);
/* Sends sig to every pid listed (each by pidfd when it can be opened). */
void ct_cg_signal_pids(const pid_t *pids, size_t n, int sig);
/* Waits for an inotify/poll-able change of dir/file (the kernel's modify events on
 * cgroup.events), at most timeout_ms; returns 0 either way. */
int ct_cg_wait_modify(const char *dir, const char *file, int timeout_ms);

/* What both drivers do the same way (common.c). */
/* Makes every directory of part (recording made_from), calling prepare (may be NULL) on
 * each after it exists; a failure removes what was made of part (and drops the REST part
 * from cg: the ops' create). */
int ct_cg_make_dirs(struct ct_cgroup *cg, enum ct_cgroup_part part,
		    int (*prepare)(struct ct_cgroup *cg, struct ct_cgroup_dir *d,
				   struct ct_error *err),
		    struct ct_error *err);
/* Every directory's tree removed (the leaf; made parents when empty). */
int ct_cg_remove_dirs(struct ct_cgroup *cg, struct ct_error *err);
/* The usual delete, whose processes are all gone: one rmdir per directory (and its made
 * parents). False as soon as one fails (processes or child cgroups left, EBUSY): the
 * caller then kills and removes the long way, which takes what is left. */
bool ct_cg_remove_empty_dirs(struct ct_cgroup *cg);
/* The union of the pids of every directory, sorted. */
int ct_cg_list_all_pids(struct ct_cgroup *cg, pid_t **pids, size_t *n, struct ct_error *err);
/* Writes pid to cgroup.procs of every directory. */
/* Signals every process: frozen meanwhile through freeze (when not NULL) so that none forks
 * away between the listing and the signal. */
int ct_cg_signal_frozen(struct ct_cgroup *cg, int sig,
			int (*freeze)(struct ct_cgroup *cg, bool frozen, struct ct_error *err),
			struct ct_error *err);
/* SIGKILL to every process through pidfds, waiting on them for each to exit, again until
 * the cgroup is empty or 5 s have passed (kill_wait.c): 1 done, 0 not possible here (no
 * pidfds, or the calls refused), -1 when the cgroup cannot be listed or rounds of processes
 * that exit at once keep finding new ones until the deadline. No freezer, no
 * sleeps; a frozen v1 cgroup must be thawed first (its tasks die only then). */
int ct_cg_kill_and_wait(struct ct_cgroup *cg, struct ct_error *err);
/* SIGKILL through cgroup.kill of the cgroup2 directory (5.14+): 1 done, 0 not there. */
int ct_cg_kill_v2(struct ct_cgroup *cg, struct ct_error *err);
/* One "KEY VALUE" per line of dir/file into the stats' raw memory fields. */
int ct_cg_read_raw_stats(const char *dir, const char *file, struct ct_cgroup_stats *st);
/* A number in dir/file (the first of the text); false when unreadable. "max" reads 0. */
bool ct_cg_read_u64(const char *dir, const char *file, uint64_t *out);
/* The whitespace-separated numbers of dir/file (cpuacct.usage_percpu), *out malloc'ed; an
 * unreadable file is an empty list. -1 only when out of memory. */
int ct_cg_read_u64_list(const char *dir, const char *file, uint64_t **out, size_t *n);
/* v1 cpuset.* of dir into st->cpuset (cpuset_stats.c); -1 with err naming the file of a bad
 * cpu or node list. */
int ct_cg_cpuset_stats(const char *dir, struct ct_cgroup_stats *st, struct ct_error *err);
/* v1 blkio statistics of dir (blkio_stats.c); -1 when out of memory. */
int ct_cg_blkio_v1_stats(const char *dir, struct ct_cgroup_stats *st);
/* hugetlb.<size>.* of dir into st->hugetlb, one entry per page size the kernel has
 * (hugetlb_stats.c); v1: usage_in_bytes, max_usage_in_bytes, failcnt; cgroup2: current and
 * events' "max". -1 when out of memory. */
int ct_cg_hugetlb_stats(const char *dir, bool unified, struct ct_cgroup_stats *st);

/* The directory where a controller's files are: v2 the cgroup2 one; v1 the hierarchy
 * that has it ("cpu" in "cpu,cpuacct"); NULL when there is none. */
const char *ct_cg_controller_dir(const struct ct_cgroup *cg, const char *controller);
/* The same directory's entry (its path and its fd), NULL when there is none. */
const struct ct_cgroup_dir *ct_cg_controller(const struct ct_cgroup *cg, const char *controller);

/* Every controller made available down to leaf's parent (v2.c), as the v2 driver's create
 * does: for a directory made by someone else (the systemd driver's unit). */
void ct_cg_v2_enable_above(const char *leaf);

/* The systemd driver's plan of cg (systemd.c): its unit from cfg, the layout checked. */
int ct_cgroup_systemd_plan(const struct ct_cgroup_config *cfg, struct ct_cgroup *cg,
			   struct ct_error *err);
/* ct_cgroup_still_containers for the systemd driver (systemd.c): whether the unit of its
 * name carries the create's token. */
int ct_cgroup_systemd_still_ours(struct ct_cgroup *cg, struct ct_error *err);

/* The resource table (resources.c), for either version. */
enum ct_cg_version { CT_CG_V1, CT_CG_V2 };
int ct_cg_apply_resources(struct ct_cgroup *cg, enum ct_cg_version v,
			  const struct oci_resources *res, enum ct_cgroup_apply_mode mode,
			  struct ct_error *err);

#endif
