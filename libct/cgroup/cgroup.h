/* A container's cgroup: one small vtable (struct ct_cgroup_ops) with a driver per layout,
 * v1 (a directory per controller hierarchy, libct/cgroup/v1.c) and v2 (the unified
 * hierarchy, libct/cgroup/v2.c), plus systemd's (a transient unit over D-Bus whose cgroup
 * the v2 code then works on, libct/cgroup/systemd.c), behind the ct_cgroup_* calls below,
 * which are what the commands use (create, delete, kill --all, update, pause/resume, ps, events,
 * exec).
 *
 * The layout of /sys/fs/cgroup is detected once per process (ct_cgroup_layout_get):
 *   unified  cgroup2 on /sys/fs/cgroup: the v2 driver does everything.
 *   legacy   v1 hierarchies only: the v1 driver.
 *   hybrid   v1 hierarchies plus cgroup2 on /sys/fs/cgroup/unified (systemd's hybrid mode):
 *            the v1 driver applies the resources; the container is also placed in the
 *            unified hierarchy (as systemd puts every service there), born into it with
 *            clone3(CLONE_INTO_CGROUP), and that directory is what cgroup.kill and
 *            cgroup.events work on where the v1 freezer would need a loop.
 *
 * Paths (ct_cgroup_resolve_path): linux.cgroupsPath absolute -> as given below each
 * hierarchy's root; relative -> below the caller's own cgroup in that hierarchy (never at
 * the root beside other tenants); empty -> "ctrun/<id>" below the caller's cgroup. The
 * systemd form "slice:prefix:name" is the systemd driver's only (refused by the others).
 *
 * Every directory the container has is recorded in state.json ("ctrun"."cgroupPaths": a
 * map of hierarchy key -> absolute directory), so later commands find the cgroup without
 * the config: ct_cgroup_to_state() / ct_cgroup_from_state().
 *
 * Ownership: struct ct_cgroup is malloc'ed, freed by ct_cgroup_free() (which closes fds but
 * never removes directories: ct_cgroup_destroy() does that). */
#ifndef CT_CGROUP_H
#define CT_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "libct/cgroup/systemd_unit.h"
#include "libct/state/state.h"
#include "oci/config.h"

#define CT_CGROUP_ROOT		"/sys/fs/cgroup"
#define CT_CGROUP_UNIFIED_KEY	"unified" /* the cgroup2 directory's key in cgroupPaths */
#define CT_CGROUP_SELF_JOIN_MAX 32	  /* v1 hierarchies a child can join itself */

/* ---- layout detection ---- */

enum ct_cgroup_mode {
	CT_CGROUP_MODE_NONE,	/* nothing mounted on /sys/fs/cgroup */
	CT_CGROUP_MODE_LEGACY,	/* v1 only */
	CT_CGROUP_MODE_HYBRID,	/* v1 + cgroup2 on /sys/fs/cgroup/unified */
	CT_CGROUP_MODE_UNIFIED, /* cgroup2 on /sys/fs/cgroup */
};

/* One mounted v1 hierarchy. */
struct ct_cgroup_hierarchy_info {
	char *key; /* its controllers as in /proc/self/cgroup: "cpu,cpuacct", "name=systemd" */
	char *mountpoint;  /* "/sys/fs/cgroup/cpu,cpuacct" */
	char *mount_root;  /* the mount's root in the hierarchy (mountinfo field 4), usually "/" */
	char *caller_path; /* the caller's cgroup in it (from /proc/self/cgroup), "/..." */
	char *options;	   /* its mount data less rw/ro: "cpu,cpuacct", "xattr,name=systemd" */
};

struct ct_cgroup_layout {
	enum ct_cgroup_mode mode;
	struct ct_cgroup_hierarchy_info *v1; /* legacy and hybrid */
	size_t n_v1;
	char *unified_mount;	   /* cgroup2 mount point, NULL when there is none */
	char *unified_mount_root;  /* its root in the hierarchy, usually "/" */
	char *unified_caller_path; /* the caller's cgroup2 path ("0::" line), NULL without */
};

/* The layout of this process's view, detected on the first call and kept (never freed).
 * Fails only when /proc/self/mountinfo or /proc/self/cgroup cannot be read. */
int ct_cgroup_layout_get(const struct ct_cgroup_layout **out, struct ct_error *err);

/* The pure parts of the detection, for tests: fill `out` (zeroed first) from the text of
 * /proc/self/mountinfo and /proc/self/cgroup. Free with ct_cgroup_layout_free. */
int ct_cgroup_layout_parse(const char *mountinfo, const char *proc_cgroup,
			   struct ct_cgroup_layout *out, struct ct_error *err);
void ct_cgroup_layout_free(struct ct_cgroup_layout *l);

/* The v1 hierarchy with that controller (a hierarchy mounting "cpu,cpuacct" has both), by
 * key ("memory", "name=systemd"); NULL when none is mounted. */
const struct ct_cgroup_hierarchy_info *ct_cgroup_layout_find(const struct ct_cgroup_layout *l,
							     const char *controller);

/* ---- paths ---- */

/* linux.cgroupsPath -> a path below a hierarchy's root, for a caller at caller_path there:
 * "/a/b" stays, "a/b" -> caller_path + "/a/b", "" -> caller_path + "/ctrun/<id>". Normalised
 * ("//" and a trailing "/" dropped); "." or ".." components and the systemd form
 * "slice:prefix:name" are refused naming .linux.cgroupsPath. *out malloc'ed. Pure. */
int ct_cgroup_resolve_path(const char *cgroups_path, const char *caller_path, const char *id,
			   char **out, struct ct_error *err);

/* Whether cgroupsPath has the systemd "slice:prefix:name" form. Pure. */
bool ct_cgroup_path_is_systemd(const char *cgroups_path);

/* A directory of the hierarchy for a path in it: mountpoint + (path less mount_root), or
 * -1 with EXDEV when the path is outside what is mounted there. *out malloc'ed. Pure. */
int ct_cgroup_dir_for(const char *mountpoint, const char *mount_root, const char *path, char **out,
		      struct ct_error *err);

/* ---- the cgroup and its driver ---- */

/* One directory of the container's cgroup in one hierarchy. */
struct ct_cgroup_dir {
	char *key;	 /* v1 hierarchy key, or CT_CGROUP_UNIFIED_KEY */
	char *path;	 /* absolute directory */
	int fd;		 /* O_PATH fd of path once ct_cgroup_create made/opened it, else -1 */
	int parent_fd;	 /* O_PATH fd of path's parent, opened by ct_cgroup_unmade_to_state for
			  * the mkdir to use (the long path walked once), else -1 */
	char *made_from; /* the first directory ct_cgroup_create made for it (a failed create
			  * removes from there down), NULL when all existed or not made here */
	char *base;	 /* a relative cgroupsPath's anchor, the caller's cgroup: destroy also
			  * removes the parents between it and the leaf once empty ("ctrun");
			  * for an absolute cgroupsPath the parent of made_from (the parents
			  * create made go too), NULL when it made none (only the leaf goes) */
	bool descended;	 /* path moved to a sub-cgroup by ct_cgroup_descend */
};

struct ct_cgroup_ops;

/* The systemd driver's unit (libct/cgroup/systemd.c). */
struct ct_cgroup_systemd {
	struct ct_systemd_unit unit;
	bool user_bus; /* rootless: the caller's own systemd */
	/* whose the unit is (libct/cgroup/systemd_unit.h): destroy stops the unit of its name
	 * when systemd took the start (even if its job then failed) or its answer was lost,
	 * and that unit carries token (another's may have its name once it went); never one
	 * whose start was refused because the name was taken */
	enum ct_systemd_claim claim;
	char token[CT_SYSTEMD_TOKEN_LEN + 1]; /* the create's, "" in a record without one */
	const char *id;
	const oci_string_map *annotations; /* org.systemd.property.*, create only */
};

struct ct_cgroup {
	const struct ct_cgroup_ops *ops; /* the driver that applies resources */
	struct ct_cgroup_dir *dirs;	 /* v1 hierarchies first, the cgroup2 one last */
	size_t n_dirs;
	int unified_fd; /* O_DIRECTORY fd of the cgroup2 directory once made/opened, or -1 */
	void (*warn)(const char *msg);	   /* warnings (a field the kernel dropped); may be NULL */
	struct ct_cgroup_systemd *systemd; /* the systemd driver's unit, else NULL */
	/* create's record of what it makes (libct/lifecycle: pending.json), written again when
	 * the driver knows more of what is the container's (systemd took its unit's start);
	 * NULL: none */
	int (*record)(void *arg, struct ct_cgroup *cg, struct ct_error *err);
	void *record_arg;
};

/* Statistics for `events --stats` (runc's types.Stats). A field the kernel does not offer
 * stays 0 (with has_* false for groups). */
struct ct_cgroup_blkio_entry {
	uint64_t major, minor;
	char op[16]; /* "Read", "Write", "Sync", "Async", "Discard", "Total"; "" in sectors, time */
	uint64_t value;
};

/* runc's blkio lists, in its order (ioServiceBytesRecursive, ioServicedRecursive, ...). */
enum ct_cgroup_blkio_list {
	CT_BLKIO_SERVICE_BYTES,
	CT_BLKIO_SERVICED,
	CT_BLKIO_QUEUED,
	CT_BLKIO_SERVICE_TIME,
	CT_BLKIO_WAIT_TIME,
	CT_BLKIO_MERGED,
	CT_BLKIO_TIME,
	CT_BLKIO_SECTORS,
	CT_BLKIO_LISTS
};

struct ct_cgroup_memory_entry {
	uint64_t usage, max_usage, failcnt, limit;
};

struct ct_cgroup_hugetlb_entry {
	char page_size[16]; /* "2MB", "1GB" */
	uint64_t usage, max_usage, failcnt;
};

struct ct_cgroup_stats {
	bool has_cpu, has_memory, has_pids, has_blkio;
	struct {
		uint64_t total_ns, user_ns, kernel_ns;
		/* malloc'ed, v1 cpuacct.usage_percpu, .usage_percpu_sys, .usage_percpu_user */
		uint64_t *percpu_ns, *percpu_kernel_ns, *percpu_user_ns;
		size_t n_percpu, n_percpu_kernel, n_percpu_user;
		uint64_t periods, throttled_periods, throttled_ns;
	} cpu;
	/* v1 cpuset.* (runc 1.1 reads no cpuset statistics on cgroup2: all 0 there) */
	struct {
		uint16_t *cpus,
			*mems; /* malloc'ed, the lists expanded (libct/cgroup/cpuset_list.h) */
		size_t n_cpus, n_mems;
		uint64_t cpu_exclusive, mem_hardwall, mem_exclusive, memory_migrate;
		uint64_t memory_spread_page, memory_spread_slab, memory_pressure;
		uint64_t sched_load_balance;
		int64_t sched_relax_domain_level;
	} cpuset;
	struct {
		uint64_t cache;
		struct ct_cgroup_memory_entry usage, swap, kernel, kernel_tcp;
		bool use_hierarchy;
		char **raw_keys; /* memory.stat, as the kernel names its fields */
		uint64_t *raw_values;
		size_t n_raw;
	} memory;
	struct {
		uint64_t current, limit; /* limit 0: "max" */
	} pids;
	/* v1: the *_recursive files of the first of runc's groups (BFQ, CFQ, throttle) that
	 * has entries; v2: io.stat's reads and writes in the first two */
	struct {
		struct ct_cgroup_blkio_entry *entries; /* malloc'ed */
		size_t n;
	} blkio[CT_BLKIO_LISTS];
	struct ct_cgroup_hugetlb_entry *hugetlb;
	size_t n_hugetlb;
	uint64_t oom_kills; /* memory.oom_control / memory.events oom_kill */
};

/* A v1 create may be made in two parts around the init's clone (libct/parent/spawn.c): first the
 * directories the init needs at its birth, the cgroup2 one (CLONE_INTO_CGROUP) and the v1
 * memory one (joined before anything else, or its `tasks` opened for the init before the
 * clone), then the others, while the init makes its network namespace (both slow kernel
 * work, side by side when a second CPU is free; the kernel does not serialize
 * them, but with the other CPU busy the init waits on the parent's). */
enum ct_cgroup_part {
	CT_CGROUP_ALL,	 /* every directory */
	CT_CGROUP_EARLY, /* the cgroup2 one and the v1 memory one */
	CT_CGROUP_REST,	 /* the other v1 ones */
};

/* What an apply is for: create writes everything given; update (ctrun update) also checks
 * memory.checkBeforeUpdate and orders the v1 memory/memsw writes against the old values. */
enum ct_cgroup_apply_mode { CT_CGROUP_APPLY_CREATE, CT_CGROUP_APPLY_UPDATE };

/* The vtable. Every entry returns 0 or -1 with err naming the file and the value. */
struct ct_cgroup_ops {
	const char *name; /* "v1", "v2" */
	bool unified;	  /* v2: every controller in the one cgroup2 directory */
	/* Makes the directories of part (cg->dirs, parents included) and prepares them for the
	 * container (v1: cpuset.cpus/mems copied from the parent when empty; v2: the parents'
	 * cgroup.subtree_control). A failure removes what it made; a failure of the REST part
	 * also drops that part's directories from cg (one may be another's, populated), so
	 * that destroy then removes only the EARLY ones, the container's own. */
	int (*create)(struct ct_cgroup *cg, enum ct_cgroup_part part, struct ct_error *err);
	/* Writes linux.resources (table-driven, libct/cgroup/resources.c). Fields the driver
	 * cannot express fail naming the JSON path: "... not supported yet" or refused. */
	int (*apply)(struct ct_cgroup *cg, const struct oci_resources *res,
		     enum ct_cgroup_apply_mode mode, struct ct_error *err);
	/* Freezes (true) or thaws (false) every process, and waits until the kernel says the
	 * whole cgroup is frozen / thawed. */
	int (*freeze)(struct ct_cgroup *cg, bool frozen, struct ct_error *err);
	/* Every pid in the cgroup and below it (cgroup.procs of each directory, sorted, no
	 * duplicates). *pids malloc'ed. */
	int (*list_pids)(struct ct_cgroup *cg, pid_t **pids, size_t *n, struct ct_error *err);
	/* Fills `out` (zeroed first); free with ct_cgroup_stats_free. */
	int (*stats)(struct ct_cgroup *cg, struct ct_cgroup_stats *out, struct ct_error *err);
	/* An fd that turns readable (poll POLLIN/POLLPRI) when the OOM killer acts in the
	 * cgroup: v1 an eventfd registered on memory.oom_control (read 8 bytes to rearm), v2 an
	 * inotify fd on memory.events (read the events; compare ct_cgroup_stats.oom_kills). */
	int (*oom_watch)(struct ct_cgroup *cg, struct ct_error *err);
	/* Sends sig to every process (SIGKILL: cgroup.kill where present; otherwise the
	 * cgroup is frozen, each pid signalled, thawed: none can fork away meanwhile). */
	int (*kill_all)(struct ct_cgroup *cg, int sig, struct ct_error *err);
	/* Kills what is still in the cgroup, then removes its directories (and what is below
	 * them), waiting for them to empty (cgroup.events on cgroup2, a short retry on v1).
	 * Directories ct_cgroup_create made above the leaf go too when empty. */
	int (*destroy)(struct ct_cgroup *cg, struct ct_error *err);
};

extern const struct ct_cgroup_ops ct_cgroup_v1_ops, ct_cgroup_v2_ops, ct_cgroup_systemd_ops;

/* What the caller asks for. */
struct ct_cgroup_config {
	const char *id;
	const char *cgroups_path; /* linux.cgroupsPath, NULL or "" for the default */
	void (*warn)(const char *msg);
	bool systemd;			   /* the systemd driver (--systemd-cgroup) */
	const oci_string_map *annotations; /* the config's, for org.systemd.property.* */
};

/* Plans the container's cgroup for the detected layout: the driver and one directory per
 * hierarchy (nothing is made yet). Fails on a bad cgroupsPath, or with ENOTSUP when the
 * host has no cgroups. The systemd driver plans its unit (cgroupsPath "slice:prefix:name",
 * libct/cgroup/systemd_unit.h) and no directory: that is the unit's, known once started;
 * it is refused (ENOTSUP) on a layout other than unified. */
int ct_cgroup_plan(const struct ct_cgroup_config *cfg, struct ct_cgroup **out,
		   struct ct_error *err);

/* The systemd driver: whether cg waits for the init's pid to be made (its unit is started
 * with it; until then it has no directory, and the init is not born in it). */
bool ct_cgroup_waits_for_init(const struct ct_cgroup *cg);
/* Starts the unit with pid in it (waiting for its job), takes its cgroup directory, and
 * writes res (may be NULL) to the files as the v2 driver does. */
int ct_cgroup_systemd_start(struct ct_cgroup *cg, pid_t pid, const struct oci_resources *res,
			    struct ct_error *err);
/* Whether cg is still the container's, for a command that acts on a stopped container's
 * cgroup (kill --all): once the init is gone, the systemd driver's unit may have gone too
 * and another been made under its name, whose cgroup has the recorded path. 1 when the
 * unit carries the create's token; 0 when it is gone or another's (a warning names it);
 * -1 when systemd will not say. The other drivers' directories are the container's: 1. */
int ct_cgroup_still_containers(struct ct_cgroup *cg, struct ct_error *err);

/* The cgroup of an existing container from its state.json (cgroup_paths, cgroup_bases);
 * *out NULL when it has none (created with --cgroup-manager disabled). The directories
 * are not opened; a missing one shows in the calls that need it. This is how every command
 * after create (delete, kill, update, pause, ps, events, exec) finds the cgroup. */
int ct_cgroup_from_state(const struct ct_state *st, void (*warn)(const char *msg),
			 struct ct_cgroup **out, struct ct_error *err);
/* Records the directories in st->cgroup_paths and st->cgroup_bases (malloc'ed copies). */
int ct_cgroup_to_state(const struct ct_cgroup *cg, struct ct_state *st, struct ct_error *err);
/* For the record create keeps before it makes the planned cg (ct_state_write_pending): in
 * st->cgroup_paths only the directories that are not there yet, which are the ones create
 * would make, each with the deepest existing ancestor as its base, so that removing them
 * takes nothing that was there before. Keeps each existing parent open in the dir's
 * parent_fd for the mkdir that follows. A directory whose lookup fails otherwise than
 * ENOENT (EACCES, ENOTDIR) fails naming its path. */
int ct_cgroup_unmade_to_state(struct ct_cgroup *cg, struct ct_state *st, struct ct_error *err);

/* The dispatching calls (cg->ops). ct_cgroup_create (every directory) and the EARLY part
 * also open cg->unified_fd. */
int ct_cgroup_create(struct ct_cgroup *cg, struct ct_error *err);
int ct_cgroup_create_part(struct ct_cgroup *cg, enum ct_cgroup_part part, struct ct_error *err);
/* Whether d is made in part. Pure. */
bool ct_cgroup_dir_in_part(const struct ct_cgroup_dir *d, enum ct_cgroup_part part);
/* Whether cg's memory controller has a swap limit file (memory.memsw.limit_in_bytes needs
 * swap accounting on v1; memory.swap.max, swap support on v2). */
bool ct_cgroup_limits_swap(const struct ct_cgroup *cg);
/* res as ct_cgroup_forget_unset() (libct/cgroup/zero_unset.h) leaves it: a 0 that means
 * "not set" must not reach the table as a value to write. */
int ct_cgroup_apply(struct ct_cgroup *cg, const struct oci_resources *res,
		    enum ct_cgroup_apply_mode mode, struct ct_error *err);
int ct_cgroup_freeze(struct ct_cgroup *cg, bool frozen, struct ct_error *err);
int ct_cgroup_list_pids(struct ct_cgroup *cg, pid_t **pids, size_t *n, struct ct_error *err);
int ct_cgroup_stats(struct ct_cgroup *cg, struct ct_cgroup_stats *out, struct ct_error *err);
void ct_cgroup_stats_free(struct ct_cgroup_stats *st);
int ct_cgroup_oom_watch(struct ct_cgroup *cg, struct ct_error *err);
int ct_cgroup_kill_all(struct ct_cgroup *cg, int sig, struct ct_error *err);
int ct_cgroup_destroy(struct ct_cgroup *cg, struct ct_error *err);
void ct_cgroup_free(struct ct_cgroup *cg);

/* For a process born into the cgroup (spawn, exec): an O_DIRECTORY fd of its cgroup2
 * directory to give clone3(CLONE_INTO_CGROUP), opened on the first call and owned by cg;
 * -1 (no error) when the cgroup has no cgroup2 directory. */
int ct_cgroup_clone_fd(struct ct_cgroup *cg, struct ct_error *err);

/* After a clone: moves pid into the directories it is not in yet (all of them, or all but
 * the cgroup2 one when born there with CLONE_INTO_CGROUP). skip_key names a hierarchy to
 * leave for later (ct_cgroup_add_pid_to), e.g. "memory" (see ct_cgroup_late_key). */
int ct_cgroup_enter(struct ct_cgroup *cg, pid_t pid, bool born_in_unified, const char *skip_key,
		    struct ct_error *err);
int ct_cgroup_add_pid_to(struct ct_cgroup *cg, const char *key, pid_t pid, struct ct_error *err);

/* A process that joins its v1 hierarchies itself: a thread writing "0" to a hierarchy's
 * `tasks` moves itself without the kernel's global cgroup_threadgroup_rwsem, which a pid
 * written to cgroup.procs takes for writing (it waits for every fork and exit in flight on
 * the machine, after a quiet spell for an RCU grace period, holding cgroup_mutex, which
 * every other cgroup mkdir, rmdir and attach then waits for). The parent opens the files
 * before the clone (the child may be unable to reach them later); the child, still single
 * threaded, writes and closes them. A cgroup2 directory is never among them (clone3
 * places the child there). */
struct ct_cgroup_self_join {
	int fds[CT_CGROUP_SELF_JOIN_MAX];
	const char *keys[CT_CGROUP_SELF_JOIN_MAX]; /* the hierarchies, as cg->dirs[].key */
	size_t n;
};

/* Opens `tasks` (O_WRONLY) in every v1 directory of cg but skip_key's; none on v2. On
 * failure nothing stays open. */
int ct_cgroup_self_join_open(const struct ct_cgroup *cg, const char *skip_key,
			     struct ct_cgroup_self_join *j, struct ct_error *err);
/* The same for key's hierarchy alone (the late memory join, ct_cgroup_late_key). */
int ct_cgroup_self_join_open_one(const struct ct_cgroup *cg, const char *key,
				 struct ct_cgroup_self_join *j, struct ct_error *err);
/* In the child, for directories made after its clone: takes the `tasks` fds the parent
 * opened as ct_cgroup_self_join_open does (same hierarchies, same order) and passed with
 * CGROUP_READY. Another count is refused (EPROTO) and every fd closed. */
int ct_cgroup_self_join_adopt(const struct ct_cgroup *cg, const char *skip_key, const int *fds,
			      size_t n, struct ct_cgroup_self_join *j, struct ct_error *err);
/* In the child: writes "0" to each, closing them; err names the hierarchy. */
int ct_cgroup_self_join(struct ct_cgroup_self_join *j, struct ct_error *err);
void ct_cgroup_self_join_close(struct ct_cgroup_self_join *j);
/* ct_cgroup_enter for a process that joins j's hierarchies itself: the parent writes the
 * others (j may be NULL: all). */
int ct_cgroup_enter_others(struct ct_cgroup *cg, pid_t pid, bool born_in_unified,
			   const char *skip_key, const struct ct_cgroup_self_join *j,
			   struct ct_error *err);

/* The v1 memory hierarchy's key when the init should join it only once its set-up is done
 * (v1: the set-up's memory stays charged to the runtime, so a tiny limit still lets the
 * container start, as crun does); NULL when there is none (v2: born in its cgroup). */
const char *ct_cgroup_late_key(const struct ct_cgroup *cg);

/* The directory of a hierarchy key (CT_CGROUP_UNIFIED_KEY, "memory"...), NULL when none. */
const char *ct_cgroup_dir_path(const struct ct_cgroup *cg, const char *key);

/* `exec --cgroup [CONTROLLER[,CONTROLLER]:]SUB` (runc's): the directories of cg that hold
 * one of the comma-separated controllers (every one for NULL; on cgroup v2 the one
 * directory) become their sub-cgroup SUB, which must exist and stay below them (no ".."
 * component). A directory descends once: a second call naming it is refused. For a cgroup
 * opened from a state, before any process enters it. */
int ct_cgroup_descend(struct ct_cgroup *cg, const char *controllers, const char *sub,
		      struct ct_error *err);

#endif
