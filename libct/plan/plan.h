/* The plan of a container init: everything the parent prepares before the clone (struct
 * ct_init_plan, made from struct ct_spawn_opts), which the child applies on its copy of the
 * memory image without parsing anything, and the handle the parent keeps of the spawned
 * init (struct ct_spawned). */
#ifndef CT_PLAN_H
#define CT_PLAN_H

#include <linux/capability.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "libct/cgroup/cgroup.h"
#include "libct/fs/mount_options.h"
#include "libct/fs/procfs.h"
#include "libct/plan/sched.h"
#include "libct/seccomp/seccomp.h"
#include "libct/seccomp/seccomp_cache.h"
#include "libct/state/state.h"
#include "libct/verify/mountcheck.h"
#include "oci/config.h"

/* How the init learns that the user process may run (runtime.md#start). */
/* Who writes the maps of a new user namespace (libct/parent/idmap_writer.h). */
enum ct_idmap_writer {
	CT_IDMAP_DIRECT, /* the parent writes the file: it is root */
	CT_IDMAP_OWN_ID, /* the parent writes its own id alone (a gid_map after setgroups deny) */
	CT_IDMAP_HELPER, /* newuidmap / newgidmap */
};

enum ct_start_mode {
	CT_START_FIFO, /* create: block on <state dir>/exec.fifo until `ctrun start` opens it */
	CT_START_SYNC, /* run: the same process says START over the sync socket */
};

struct ct_spawned;

struct ct_spawn_opts {
	const struct oci_config *config;
	const char *bundle; /* absolute */
	const char *rootfs; /* absolute */
	const char *id;
	int state_dirfd; /* where exec.fifo lives */
	/* The container's state as hooks read it (its pid is filled in per hook); needed
	 * when the config has hooks, may be NULL otherwise. */
	const struct ct_state *state;
	/* The runtime's own fds (state root, state dir, its flock): the child closes them at
	 * once, so the container never holds them and no flock outlives `create`. */
	int runtime_fds[4];
	size_t n_runtime_fds;
	enum ct_start_mode start;
	/* CT_START_SYNC: the caller does nothing after READY that could fail before the user
	 * process runs (no pid file, no console socket): START may go with the set-up
	 * (ct_init_plan.place.start_early says whether it does). */
	bool start_early;
	bool no_pivot, no_new_keyring;
	bool verify_mounts;		 /* compare the mount table with the config before READY */
	void (*warn)(const char *msg);	 /* a config.md warning, in the parent; may be NULL */
	void (*notice)(const char *msg); /* a line for the debug log, in the parent; may be NULL */
	bool log_steps; /* --debug: the init names the steps it ran in its READY note */
	/* Where compiled seccomp programs are kept (libct/seccomp/seccomp_cache.h); NULL: none. */
	const struct ct_seccomp_cache *seccomp_cache;
	int preserve_fds; /* fds 3 .. 3+n-1 stay open in the container */
	/* The container's cgroup, made and limited by the caller (libct/cgroup/cgroup.h): the
	 * init is born in it or put there before it runs anything; NULL: none. */
	struct ct_cgroup *cgroup;
	/* Non-NULL: the caller made only the EARLY part of the cgroup (ct_cgroup_create_part);
	 * ct_spawn makes the rest and applies these resources to it, after the clone while the
	 * init makes its network namespace, or before the clone when it makes none. */
	const struct oci_resources *cgroup_rest;
	sigset_t child_sigmask; /* the mask the user process starts with */
	/* Where the process object is, for messages: "config.json: .process" when NULL, or
	 * "proc.json: " for the document of `exec --process`. */
	const char *process_path;
	/* The container's status in the state a seccomp agent gets: NULL for "creating". */
	const char *agent_status;
	/* The caller's work that needs the init's pid, done while the init sets itself up
	 * (the two overlap); may be NULL. A failure kills the init. */
	int (*while_setting_up)(void *arg, const struct ct_spawned *s, struct ct_error *err);
	void *while_arg;
};

struct ct_planned_mount {
	const char *destination; /* in the container: resolved inside the rootfs */
	const char *source, *type;
	char *bind_source; /* absolute host path of a bind source */
	struct ct_mount_flags flags;
	bool is_cgroup;		   /* "cgroup"/"cgroup2" type: see mount_cgroup() in init.c */
	size_t expect_hierarchies; /* v1 "cgroup": first expectation of its hierarchies */
};

/* Where the child loads the seccomp filter (init.c). As late as possible is right before
 * execve; the kernel takes a filter only with no_new_privs or CAP_SYS_ADMIN, and an agent
 * must have the notify fd before create returns. */
enum ct_seccomp_point {
	CT_SECCOMP_BEFORE_EXEC,	    /* no_new_privs, or CAP_SYS_ADMIN kept */
	CT_SECCOMP_BEFORE_READY,    /* SCMP_ACT_NOTIFY: the fd goes out with the set-up */
	CT_SECCOMP_BEFORE_IDENTITY, /* neither: while the init still has CAP_SYS_ADMIN, as runc */
};

struct ct_planned_rlimit {
	int resource;
	struct rlimit limit;
};

/* Where the steps that cost most go, so that the parent's work and the init's overlap:
 * one strategy, chosen once when the plan is built (libct/parent/placement.c, which says
 * why each is where it is). Each field moves a step away from the plain sequence of
 * libct/plan/sync.h. */
struct ct_placement {
	bool early_netns;   /* the init makes its network namespace while the parent places it */
	bool late_ipcns;    /* the init makes its IPC namespace once root in its user namespace */
	bool late_cgroupns; /* the init makes its cgroup namespace once in its cgroup */
	bool memory_first;  /* no memory limit: the init joins v1 memory before the set-up */
	/* a seccomp filter before the identity change, or an LSM label, could refuse the init
	 * the late memory join: the parent writes it after READY */
	bool memory_by_parent;
	/* the REST of a cgroup made in two parts (ct_spawn_opts.cgroup_rest) is made after the
	 * clone: cgroup.join comes with CGROUP_READY, opened by the parent */
	bool cgroup_rest_after_clone;
	bool start_early; /* run: START goes ahead of READY, with the set-up */
};

/* The plan's parts, one per concern: a step of the child's table (libct/child/steps.h) is
 * given the part (or two) it works on, so what it can touch shows in its signature. */

/* The channel to the parent and to the starter (libct/plan/sync.h). */
struct ct_plan_sync {
	int fd;			  /* the child's end of the sync socket */
	enum ct_start_mode start; /* opts->start */
	int exec_fifo_fd;	  /* O_PATH fd of exec.fifo, or -1 */
	/* The init's own /proc/self/fd, opened by the init before its root changes: the fifo
	 * is reopened there, so a container without /proc (or with a mount over /proc/1/fd)
	 * starts all the same. -1 in the parent, or where the caller's /proc lacks it. */
	int own_fd_dir;
	char ready_note[512]; /* the child's line for the debug log, sent with READY */
};

/* The namespaces the child is born in, joins and makes. */
struct ct_plan_ns {
	int join_fds[OCI_NS_COUNT];  /* setns() targets, -1 when not joined */
	unsigned long unshare_flags; /* CLONE_NEW* given to clone */
	bool new_mount_ns;
	bool userns;		 /* a user namespace of its own, new or joined: locked mounts */
	char *uid_map, *gid_map; /* a new one's maps, the parent writes (libct/parent/userns.h) */
	enum ct_idmap_writer uid_writer, gid_writer; /* how (libct/parent/idmap_writer.h) */
	bool setgroups_denied; /* the gid map of a user without newgidmap: no setgroups() */
	/* the maps are written without privilege (own id, newuidmap): the init is born
	 * dumpable, /proc/PID/uid_map being root's otherwise, and stops being so once mapped */
	bool dumpable_for_maps;
	/* spawned through a joiner (libct/parent/spawn.h): a joined user namespace, or a new
	 * one with other namespaces joined, which it could not join from inside */
	bool use_joiner;
};

/* The child's place in the container's cgroup (libct/cgroup/cgroup.h). */
struct ct_plan_cgroup {
	struct ct_cgroup *cg; /* opts->cgroup: NULL for none */
	int fd; /* cgroup2 directory for CLONE_INTO_CGROUP (owned by the cgroup), -1 */
	/* the init's v1 hierarchies, joined by the init itself: all but the late one first,
	 * the late one (memory) once set up, or first of all (place.memory_first), unless the
	 * parent writes it after READY (place.memory_by_parent: join_late empty) */
	struct ct_cgroup_self_join join, join_late;
};

/* The container's root filesystem (libct/child/rootfs.h). */
struct ct_plan_rootfs {
	const char *path; /* opts->rootfs: absolute */
	bool no_pivot;
	bool readonly;		    /* root.readonly */
	const struct oci_linux *lx; /* the config's: paths, sysctls, devices, propagation */
	/* In a shared mount namespace, until READY (libct/child/rootfs.h): an O_PATH fd of the
	 * caller's root, and whether the rootfs's bind is made, to detach it after a failure. */
	int caller_root;
	bool bound;
	struct ct_planned_mount *mounts;
	size_t n_mounts;
	/* config-linux.md#default-devices: made in /dev (a tmpfs of the config's or the image's
	 * directory) unless /dev is bound from elsewhere, which brings its own (runc's rule) */
	bool default_devices;
	/* In a user namespace, new or joined: nodes are bound from the host, as runc binds them,
	 * over a config's mount at their path too (libct/child/devices.h) */
	bool bind_nodes;
	struct ct_cgroup_hierarchy {
		char *dir;     /* "cpu,cpuacct" under /sys/fs/cgroup */
		char *options; /* its mount data: "cpu,cpuacct", "name=systemd" */
		char *bind;    /* the container's own cgroup in it, bound there; NULL: mounted */
	} * cgroup_v1;	       /* for a "cgroup" mount on a v1 host */
	size_t n_cgroup_v1;
	bool cgroup2_host; /* /sys/fs/cgroup is cgroup2 */
	/* Without a cgroup namespace of its own a fresh cgroup2 mount would show the host's
	 * whole tree: the container's cgroup2 directory is bound instead; NULL otherwise. */
	char *cgroup2_bind;
	bool have_cgroup2_unified; /* hybrid: cgroup2 at /sys/fs/cgroup/unified */
};

/* The hooks the init runs itself, or asks the parent to run (libct/child/init_hooks.h). */
struct ct_plan_hooks {
	const struct oci_hooks *hooks; /* the config's */
	/* The container's state as hooks read it (its pid is filled in per hook); may be NULL
	 * without hooks. */
	const struct ct_state *state;
};

/* Mount verification (libct/verify/mountcheck.h): an expectation per mount made, in groups:
 * [0, n_mounts) the config's mounts, the cgroup v1 hierarchies of each "cgroup" mount,
 * then from the indices below the masked paths, the read-only paths, /dev/console and
 * the read-only root. The child fills in the ids of what it mounted. */
struct ct_plan_verify {
	bool run; /* opts->verify_mounts: compare the mount table before READY */
	struct ct_mount_expect *expect;
	size_t n_expect;
	size_t expect_devices, expect_masked, expect_readonly, expect_console, expect_root;
};

/* The user process's attributes (libct/child/process.h). */
struct ct_plan_process {
	const struct oci_process *p; /* the config's */
	struct ct_planned_rlimit *rlimits;
	size_t n_rlimits;
	char **argv;	      /* process.args, NULL-terminated */
	char **envp;	      /* process.env (+ LISTEN_FDS/LISTEN_PID, + HOME) */
	const char *path_env; /* PATH to search process.args[0] in */
	/* process.env sets no HOME, or an empty one: the init sets it from the container's
	 * /etc/passwd (libct/child/home_env.h) into envp[home_slot], the "HOME=" entry or the end
	 */
	bool needs_home;
	size_t home_slot;
	char *home_var; /* "HOME=...", made by the init */
	/* The init's terminal is the container's /dev/console; an exec'd process's is its own
	 * and changes nothing in the container's mount namespace. */
	bool console_is_terminal;
	/* capability sets as bit masks over the kernel's capabilities */
	uint64_t cap_bounding, cap_effective, cap_permitted, cap_inheritable, cap_ambient;
	bool set_caps;
	int cap_last;
	/* what the init undoes of what it inherits (libct/base/selfstatus.h): the capabilities to
	 * drop from the bounding set it starts with, the ignored signals (bit n-1: signal n) */
	uint64_t cap_drop, sig_reset;
	sigset_t sigmask; /* opts->child_sigmask */
	bool new_keyring; /* not --no-new-keyring */
	char keyring_name[128];
	int preserve_fds;		/* opts->preserve_fds */
	struct ct_seccomp_prog seccomp; /* insns NULL without .linux.seccomp */
	struct ct_sched_plan sched;	/* scheduler, ioPriority, memoryPolicy, personality */
	enum ct_seccomp_point seccomp_point;
	/* The parent writes process.oomScoreAdj (an init in a user namespace: spawn.c). */
	bool oom_score_adj_by_parent;
};

/* Everything the child needs, computed before the clone. */
struct ct_init_plan {
	const struct ct_spawn_opts *opts;
	const struct oci_config *config;
	struct ct_plan_sync sync;
	struct ct_plan_ns ns;
	struct ct_plan_cgroup cgroup;
	struct ct_placement place;
	struct ct_plan_rootfs rootfs;
	struct ct_plan_verify verify;
	struct ct_plan_hooks hooks;
	struct ct_plan_process process;
	struct ct_procfs procfs; /* the init's own, for its /proc writes: made in the init */
	bool writes_proc;	 /* sysctls, oom_score_adj or a label: procfs needed */
};

struct ct_spawned {
	pid_t pid;
	int pidfd;
	int pty_master; /* -1 without process.terminal */
	int sync_fd;	/* CT_START_SYNC: open until ct_spawn_start() */
	/* In a shared mount namespace: the root of the rootfs's bind (O_PATH), for the caller to
	 * record (libct/state/shared_root.h); -1 otherwise. */
	int shared_root;
	/* The call that made the init: "clone3", "clone" (CLONE_PIDFD) or "clone+pidfd_open";
	 * static storage, NULL before a spawn. */
	const char *method;
	bool born_in_cgroup;	 /* clone3 made it in its cgroup2 directory (CLONE_INTO_CGROUP) */
	bool cgroup_after_clone; /* the REST of the cgroup was made after the clone */
	bool start_sent;	 /* START is on its way already (ct_spawn_opts.start_early) */
	/* what the child said with READY (the mount check, --debug: its steps), "" when nothing */
	char note[CT_ERROR_MSG_MAX];
};

#endif
