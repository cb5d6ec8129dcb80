/* The container init: runs in the child right after clone, on the parent's copied memory
 * image, applying the plan of spawn_plan.c as one readable sequence of named steps. Any
 * failing step sends its error to the parent over the sync socket and exits. */
#include "libct/child/init.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/clone.h"
#include "libct/base/syscalls.h"
#include "libct/child/init_hooks.h"
#include "libct/child/loopback.h"
#include "libct/child/net_devices.h"
#include "libct/child/lsm.h"
#include "libct/child/process.h"
#include "libct/child/rootfs.h"
#include "libct/child/stdio_null.h"
#include "libct/child/terminal.h"
#include "libct/fs/mountfd.h"
#include "libct/fs/procfs.h"
#include "libct/fs/safefs.h"
#include "libct/plan/namespaces.h"
#include "libct/plan/plan.h"
#include "libct/plan/sync.h"
#include "libct/verify/mountcheck.h"

/* pid and time namespaces apply to children only: the parent joined them before the clone
 * (spawn.c), and the user namespace a joiner did (libct/parent/spawn.h). */
static int join_namespaces(struct ct_plan_ns *ns, struct ct_error *err)
{
	const unsigned long own =
		CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWCGROUP | CLONE_NEWNS;
	return ct_ns_join_each(ns->join_fds, own, false, err);
}

/* user_namespaces(7): born with no id mapped (or cloned by a joiner that the parent has
 * not heard from yet), the init waits for the parent, then takes uid and gid 0 inside,
 * whose capabilities the rest of the set-up needs. */
static int enter_user_namespace(const struct ct_plan_ns *ns, const struct ct_plan_sync *sync,
				struct ct_error *err)
{
	if (!ns->userns)
		return 0;
	if (ct_sync_expect(sync->fd, CT_SYNC_USERNS_READY, "the user namespace", err) < 0)
		return -1;
	/* born dumpable for the maps' writer: no longer once they are written */
	if (ns->dumpable_for_maps && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return ct_error_sys(err, errno, "make the init not dumpable");
	if (ct_setresgid_1thread(0, 0, 0) < 0)
		return ct_error_sys(err, errno, "set gid 0 in the user namespace");
	if (ct_setresuid_1thread(0, 0, 0) < 0)
		return ct_error_sys(err, errno, "set uid 0 in the user namespace");
	if (ct_stay_undumpable() < 0)
		return ct_error_sys(err, errno, "stay not dumpable in the user namespace");
	ct_mount_keep_source_flags(true);
	return 0;
}

/* Without a memory limit, memory before anything is made (libct/parent/spawn_plan.c): what the
 * set-up makes is the container's. */
static int join_memory_first(const struct ct_placement *place, struct ct_plan_cgroup *cgroup,
			     struct ct_error *err)
{
	return place->memory_first ? ct_cgroup_self_join(&cgroup->join_late, err) : 0;
}

static int make_network_namespace(const struct ct_placement *place, struct ct_error *err)
{
	if (place->early_netns && unshare(CLONE_NEWNET) < 0)
		return ct_error_sys(err, errno, "create network namespace");
	return 0;
}

/* The parent puts the init in its cgroup before it runs anything of the container's
 * (libct/plan/sync.h), but for the v1 hierarchies the init joins itself, without the kernel's
 * global lock; the cgroup namespace made after that has the container's cgroup as root.
 * Directories the parent made after the clone come with CGROUP_READY, their `tasks` open. */
static int wait_for_cgroup(struct ct_plan_cgroup *cgroup, bool rest_after_clone, int sync_fd,
			   struct ct_error *err)
{
	struct ct_cgroup *cg = cgroup->cg;
	if (!cg)
		return 0;
	if (!rest_after_clone) {
		if (ct_sync_expect(sync_fd, CT_SYNC_CGROUP_READY, "the cgroup", err) < 0)
			return -1;
	} else {
		int fds[CT_CGROUP_SELF_JOIN_MAX];
		size_t n;
		if (ct_sync_expect_fds(sync_fd, CT_SYNC_CGROUP_READY, "the cgroup", fds,
				       CT_CGROUP_SELF_JOIN_MAX, &n, err) < 0 ||
		    ct_cgroup_self_join_adopt(cg, ct_cgroup_late_key(cg), fds, n, &cgroup->join,
					      err) < 0)
			return -1;
	}
	return ct_cgroup_self_join(&cgroup->join, err);
}

/* The namespaces the plan leaves to the init (libct/parent/spawn_plan.c): IPC once root in the user
 * namespace, cgroup once in the container's cgroup. */
static int unshare_late_namespaces(const struct ct_placement *place, struct ct_error *err)
{
	if (place->late_ipcns && unshare(CLONE_NEWIPC) < 0)
		return ct_error_sys(err, errno, "create IPC namespace");
	if (place->late_cgroupns && unshare(CLONE_NEWCGROUP) < 0)
		return ct_error_sys(err, errno, "create cgroup namespace");
	return 0;
}

/* An empty name is no name, as for the uts namespace check (oci/config.c): the namespace
 * keeps the one it was made with, as under runc and crun. */
static int set_host_names(const struct oci_config *c, struct ct_error *err)
{
	if (c->hostname && *c->hostname && sethostname(c->hostname, strlen(c->hostname)) < 0)
		return ct_error_sys(err, errno, "set hostname \"%s\"", c->hostname);
	if (c->domainname && *c->domainname &&
	    setdomainname(c->domainname, strlen(c->domainname)) < 0)
		return ct_error_sys(err, errno, "set domainname \"%s\"", c->domainname);
	return 0;
}

static bool same_inode(int a, int b)
{
	struct stat sa, sb;
	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* create may still have work on the init after READY (the v1 memory cgroup, where the init
 * could not join it itself): killed before it is done, the init would wait on the exec fifo
 * for ever, startable outside its memory limit. The socket's EOF instead of CREATED says so,
 * and the init goes. (run: START does it.) */
static int wait_for_create(const struct ct_plan_sync *sync, struct ct_error *err)
{
	if (sync->start != CT_START_FIFO)
		return 0;
	return ct_sync_expect(sync->fd, CT_SYNC_CREATED, "create was done", err);
}

/* Before any namespace is joined or the root changes, while /proc is the caller's: the
 * directory of the init's own fds, where the exec fifo is reopened (wait_for_start). */
static void open_own_fd_dir(struct ct_plan_sync *sync)
{
	if (sync->start == CT_START_FIFO)
		sync->own_fd_dir =
			openat(AT_FDCWD, "/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* Blocks until `ctrun start` opens the fifo for reading (or run says START) and returns the
 * channel the start is reported on. The O_PATH fd is reopened for writing through the
 * init's own fd directory, opened before the root changed; only where the caller's /proc
 * had none, through the container's /proc, where a config mount (on /proc/1/fd) may put
 * another file: either way it is used only when it is the fifo. */
static int wait_for_start(const struct ct_plan_sync *sync, struct ct_error *err)
{
	if (sync->start == CT_START_SYNC)
		return ct_sync_expect(sync->fd, CT_SYNC_START, "start", err) < 0 ? -1 : sync->fd;
	char path[64];
	int dir = sync->own_fd_dir >= 0 ? sync->own_fd_dir : AT_FDCWD;
	snprintf(path, sizeof(path), "%s%d", dir == AT_FDCWD ? "/proc/self/fd/" : "",
		 sync->exec_fifo_fd);
	int fd;
	do
		fd = openat(dir, path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return ct_error_sys(err, errno, "open exec fifo");
	if (!same_inode(fd, sync->exec_fifo_fd)) {
		ct_close_now(&fd);
		return ct_error_plain(err, EXDEV, "open exec fifo: \"%s\" is not the fifo", path);
	}
	return fd;
}

/* startContainer, then STARTED or the error to the starter. The channel stays open and
 * close-on-exec: its EOF tells the starter that the execve happened (poststart). Returns
 * 0, -1 with err to print, or 1 after a failure the starter has been told. */
static int start_container(const struct ct_plan_sync *sync, const struct ct_plan_hooks *hooks,
			   struct ct_error *err)
{
	int channel = wait_for_start(sync, err);
	if (channel < 0)
		return -1;
	if (ct_init_start_hooks(hooks, err) < 0)
		return ct_init_report_start(sync, channel, err, NULL) < 0 ? -1 : 1;
	return ct_init_report_start(sync, channel, NULL, err);
}

/* The note's first part, for the debug log: the mount check's report ends the line. */
static void note_proc_writes(struct ct_plan_sync *sync, const struct ct_procfs *procfs,
			     bool writes_proc)
{
	snprintf(sync->ready_note, sizeof(sync->ready_note), "/proc writes through %s",
		 writes_proc ? procfs->how : "none (nothing to write)");
}

/* The mount check's report ends the note. */
static int verify_mounts(const struct ct_plan_verify *verify, struct ct_plan_sync *sync,
			 struct ct_error *err)
{
	if (!verify->run)
		return 0;
	_cleanup_close_ int root = openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct ct_mountcheck_report r;
	if (root < 0)
		return ct_error_sys(err, errno, "open /");
	if (ct_mountcheck_run(verify->expect, verify->n_expect, root, &r, err) < 0)
		return -1;
	size_t n = strlen(sync->ready_note);
	snprintf(sync->ready_note + n, sizeof(sync->ready_note) - n,
		 "%smounts verified with %s: %zu checked, %zu extra%s%s", n ? "; " : "",
		 ct_mounts_backend_name(r.backend), r.checked, r.n_extra, r.n_extra ? ": " : "",
		 r.extra);
	return 0;
}

/* In a shared mount namespace the parent records the rootfs's bind, which delete detaches
 * (libct/state/shared_root.h), and detaches it itself if the set-up fails from here on: its root
 * is the init's root now. */
static int send_root_bind(const struct ct_plan_ns *ns, const struct ct_plan_sync *sync,
			  struct ct_error *err)
{
	if (ns->new_mount_ns)
		return 0;
	_cleanup_close_ int root = openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return ct_error_sys(err, errno, "open /");
	return ct_sync_send_root_bind(sync->fd, root, err);
}

/* The rows: each hands its step the part of the plan (or two) the step works on. */
static int memory_first_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return join_memory_first(&ctx->plan->place, &ctx->plan->cgroup, err);
}

static int netns_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return make_network_namespace(&ctx->plan->place, err);
}

static int cgroup_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	struct ct_init_plan *plan = ctx->plan;
	return wait_for_cgroup(&plan->cgroup, plan->place.cgroup_rest_after_clone, plan->sync.fd,
			       err);
}

static int userns_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return enter_user_namespace(&ctx->plan->ns, &ctx->plan->sync, err);
}

static int late_namespaces_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return unshare_late_namespaces(&ctx->plan->place, err);
}

static int join_namespaces_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return join_namespaces(&ctx->plan->ns, err);
}

/* A network namespace of its own: new by clone or by the init's early unshare. */
static int loopback_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	const struct ct_init_plan *plan = ctx->plan;
	bool own = plan->place.early_netns || (plan->ns.unshare_flags & CLONE_NEWNET);
	return own ? ct_loopback_up(err) : 0;
}

static int hostname_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return set_host_names(ctx->plan->config, err);
}

static int send_root_bind_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return send_root_bind(&ctx->plan->ns, &ctx->plan->sync, err);
}

static int verify_mounts_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	struct ct_init_plan *plan = ctx->plan;
	note_proc_writes(&plan->sync, &plan->procfs, plan->writes_proc);
	return verify_mounts(&plan->verify, &plan->sync, err);
}

/* The whole set-up before READY, in order. */
static const struct ct_step *const init_steps[] = {
	&(const struct ct_step){"memory-first", memory_first_row},
	&(const struct ct_step){"netns", netns_row},
	&(const struct ct_step){"cgroup", cgroup_row},
	&(const struct ct_step){"userns", userns_row},
	&(const struct ct_step){"late-namespaces", late_namespaces_row},
	&(const struct ct_step){"join-namespaces", join_namespaces_row},
	&(const struct ct_step){"loopback", loopback_row},
	&ct_init_net_devices,
	&(const struct ct_step){"hostname", hostname_row},
	&ct_process_keyring,
	/* createContainer hooks run after the mounts and before pivot_root, so that their
	 * paths resolve on the host's root (config.md) */
	&ct_rootfs_bind,
	&ct_rootfs_mounts,
	&ct_init_create_hooks,
	&ct_rootfs_pivot_root,
	&ct_stdio_null,
	&ct_rootfs_sysctls,
	&ct_rootfs_check_paths,
	&ct_rootfs_cwd,
	&ct_rootfs_masks,
	&ct_rootfs_readonly_paths,
	&ct_rootfs_finish,
	&(const struct ct_step){"send-root-bind", send_root_bind_row},
	&ct_process_early,
	/* last of the mount work (the terminal's bind included), before the identity changes */
	&(const struct ct_step){"verify-mounts", verify_mounts_row},
	&ct_process_late,
};

/* --debug: the steps the init ran go with READY, before what the set-up found (the mount
 * check's report ends the line), in the note the parent logs (libct/plan/sync.h). */
static int send_ready(struct ct_step_ctx *ctx, struct ct_error *err)
{
	if (!ctx->trace)
		return ct_sync_send_ready(ctx->plan->sync.fd, ctx->plan->sync.ready_note, err);
	char note[CT_ERROR_MSG_MAX];
	snprintf(note, sizeof(note), "init steps: %s; %s", ctx->trace->names,
		 ctx->plan->sync.ready_note);
	return ct_sync_send_ready(ctx->plan->sync.fd, note, err);
}

/* What the parent could not be told (the socket failed) goes to the init's stderr, the
 * caller's: else the parent has only "init exited". With the parent gone (EPIPE) nobody is
 * left to tell. */
static void print_unsent(const struct ct_error *what, int send_errno)
{
	if (send_errno != EPIPE && send_errno != ECONNRESET)
		fprintf(stderr, "ctrun: %s\n", what->msg);
}

/* The set-up's table; READY, or the failing step's error, to the parent. */
static void set_up(struct ct_step_ctx *ctx)
{
	struct ct_error err = {0};
	struct ct_init_plan *plan = ctx->plan;
	if (ct_steps_run(init_steps, sizeof(init_steps) / sizeof(init_steps[0]), ctx, &err) < 0) {
		ct_rootfs_undo_shared(&plan->rootfs, plan->ns.new_mount_ns);
		if (ct_sync_send_error(plan->sync.fd, &err) < 0)
			print_unsent(&err, errno);
		_exit(1);
	}
	ct_step_ctx_release(ctx);
	/* cleared before READY: create may exit as soon as it has sent CREATED */
	prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
	if (send_ready(ctx, &err) < 0) {
		print_unsent(&err, err.errnum);
		ct_rootfs_undo_shared(&plan->rootfs, plan->ns.new_mount_ns);
		_exit(1);
	}
	if (wait_for_create(&plan->sync, &err) < 0) {
		ct_rootfs_undo_shared(&plan->rootfs, plan->ns.new_mount_ns);
		_exit(1);
	}
	ct_rootfs_set_up(&plan->rootfs);
}

void ct_init_run(struct ct_init_plan *plan)
{
	struct ct_error err = {0};
	struct ct_step_trace trace;
	struct ct_step_ctx ctx;
	ct_step_ctx_init(&ctx, plan, "init");
	if (plan->opts->log_steps)
		ct_step_trace_start(&ctx, &trace);
	for (size_t i = 0; i < plan->opts->n_runtime_fds; i++)
		close(plan->opts->runtime_fds[i]);
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); /* until READY: die with a failed create */
	open_own_fd_dir(&plan->sync);
	set_up(&ctx);
	/* after READY: dropping a detached mount waits for an RCU grace period, which the
	 * parent need not wait for */
	ct_procfs_close(&plan->procfs);
	int started = start_container(&plan->sync, &plan->hooks, &err);
	if (plan->sync.own_fd_dir >= 0)
		close(plan->sync.own_fd_dir);
	plan->sync.own_fd_dir = -1;
	if (started != 0) {
		if (started < 0)
			fprintf(stderr, "ctrun: %s\n", err.msg);
		_exit(126);
	}
	/* after the start: READY and the exec fifo are through, only execve is left */
	int status = ct_process_exec(&plan->process, plan->sync.fd, ctx.exe, &err);
	fprintf(stderr, "ctrun: %s\n", err.msg);
	_exit(status < 0 ? 126 : status);
}
