/* `ctrun exec`: a process spawned into the namespaces and root of a running container
 * (libct/parent/exec.h draws the exchange). */
#include "libct/parent/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/clone.h"
#include "libct/base/syscalls.h"
#include "libct/child/process.h"
#include "libct/child/stdio_null.h"
#include "libct/fs/procfs.h"
#include "libct/parent/spawn.h"
#include "libct/parent/spawn_plan.h"
#include "libct/plan/namespaces.h"
#include "libct/plan/sync.h"
#include "libct/plan/sync_phase.h"
#include "libct/state/procstat.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

struct exec_join {
	unsigned long child_flags;  /* namespaces the child joins itself */
	unsigned long parent_flags; /* pid (always) and time: joined for our children */
	/* A user namespace of its own: a joiner joins them all (libct/parent/exec.h) */
	bool via_joiner;
	bool by_pidfd, by_nsfd; /* how the first setns went: the pidfd, or the fds below */
	int fds[OCI_NS_COUNT];	/* /proc/<init>/ns/<name>, the fallback only */
	int rootfd;		/* /proc/<init>/root */
};

static void exec_join_close(struct exec_join *j)
{
	for (int i = 0; i < OCI_NS_COUNT; i++)
		ct_close_now(&j->fds[i]);
	ct_close_now(&j->rootfd);
}

/* 1 when the init's namespace of that row is not ours, 0 when it is (or the kernel has no
 * such namespace), -1 on error. */
static int ns_differs(pid_t pid, size_t row, struct ct_error *err)
{
	char theirs[64], ours[64];
	struct stat a, b;
	snprintf(theirs, sizeof(theirs), "/proc/%d/ns/%s", pid, ct_ns_join_order[row].proc_name);
	snprintf(ours, sizeof(ours), "/proc/self/ns/%s", ct_ns_join_order[row].self_name);
	if (stat(ours, &b) < 0)
		return errno == ENOENT ? 0 : ct_error_sys(err, errno, "stat \"%s\"", ours);
	if (stat(theirs, &a) < 0)
		return ct_error_sys(err, errno, "stat \"%s\"", theirs);
	return a.st_dev != b.st_dev || a.st_ino != b.st_ino;
}

/* The init is still the process the target names: its pidfd has not turned readable, or
 * (without a pidfd) its start time is the recorded one. Checked after opening anything by
 * its pid, so a recycled pid never lends us another process's namespaces or root. */
static int check_still_init(const struct ct_exec_target *t, struct ct_error *err)
{
	bool alive;
	if (t->pidfd >= 0) {
		struct pollfd p = {.fd = t->pidfd, .events = POLLIN};
		int ready = poll(&p, 1, 0);
		if (ready < 0) /* not a sign the init went */
			return ct_error_sys(err, errno, "check that the container's init is there");
		alive = ready == 0;
	} else {
		alive = ct_status_derive(t->pid, t->start_time, true) != CT_STATUS_STOPPED;
	}
	return alive ? 0 : ct_error_plain(err, ESRCH, "the container's init has exited");
}

/* A created init is not dumpable until its last execve (libct/base/clone.h): a caller
 * without privilege over it (a rootless one) may not look at its namespaces before `start`,
 * where runc lets it in. */
static int refused_before_start(const struct ct_exec_target *t, struct ct_error *err)
{
	if (t->created && (err->errnum == EACCES || err->errnum == EPERM))
		return ct_error_plain(err, err->errnum,
				      "the container is created, not started: until it is "
				      "started its init lets in no caller without privilege "
				      "over it (CVE-2016-9962)");
	return -1;
}

static int plan_join(const struct ct_exec_target *t, struct exec_join *j, struct ct_error *err)
{
	char path[64];
	for (size_t i = 0; i < ct_ns_join_count; i++) {
		int d = ns_differs(t->pid, i, err);
		if (d < 0)
			return refused_before_start(t, err);
		unsigned long flag = ct_ns_clone_flags[ct_ns_join_order[i].type];
		if (ct_ns_join_order[i].type == OCI_NS_PID)
			j->parent_flags |= flag; /* the same one again is harmless */
		else if (d && ct_ns_join_order[i].for_children)
			j->parent_flags |= flag;
		else if (d)
			j->child_flags |= flag;
	}
	j->via_joiner = j->child_flags & CLONE_NEWUSER;
	snprintf(path, sizeof(path), "/proc/%d/root", t->pid);
	j->rootfd = openat(AT_FDCWD, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (j->rootfd < 0)
		return ct_error_sys(err, errno, "open \"%s\"", path);
	return 0;
}

/* Before Linux 5.8 setns() takes no pidfd (EINVAL), and without pidfd_open there is none:
 * the namespace files of the init, opened by pid and then proved to be its own. */
static int open_ns_fds(const struct ct_exec_target *t, struct exec_join *j, struct ct_error *err)
{
	unsigned long wanted = j->child_flags | j->parent_flags;
	for (size_t i = 0; i < ct_ns_join_count; i++) {
		enum oci_ns_type type = ct_ns_join_order[i].type;
		if (!(wanted & ct_ns_clone_flags[type]))
			continue;
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", t->pid,
			 ct_ns_join_order[i].proc_name);
		j->fds[type] = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
		if (j->fds[type] < 0)
			return ct_error_sys(err, errno, "open \"%s\"", path);
	}
	return check_still_init(t, err);
}

/* setns() into the namespaces of flags: in one call on the init's pidfd, or (before 5.8,
 * or without a pidfd) one by one through its namespace files. The first call decides. */
static int join_flags(const struct ct_exec_target *t, struct exec_join *j, unsigned long flags,
		      struct ct_error *err)
{
	if (!flags)
		return 0;
	if (t->pidfd >= 0 && !j->by_nsfd) {
		if (setns(t->pidfd, (int)flags) == 0) {
			j->by_pidfd = true;
			return 0;
		}
		if (errno != EINVAL || j->by_pidfd)
			return ct_error_sys(err, errno, "join the namespaces of the container");
	}
	if (!j->by_nsfd && open_ns_fds(t, j, err) < 0)
		return -1;
	j->by_nsfd = true;
	return ct_ns_join_each(j->fds, flags, false, err);
}

/* The child: the namespaces not joined for it (none after a joiner), then the init's
 * root. The mount namespace alone would leave us at its root, which is the host's for a
 * container that has none of its own and is only chroot()ed. */
static int join_container(const struct ct_exec_target *t, struct exec_join *j, struct ct_error *err)
{
	if (!j->via_joiner && join_flags(t, j, j->child_flags, err) < 0)
		return -1;
	if (fchdir(j->rootfd) < 0 || chroot(".") < 0)
		return ct_error_sys(err, errno, "enter the container's root");
	return 0;
}

/* A user namespace whose gid map is its maker's own gid denies setgroups(2)
 * (user_namespaces(7)): the process keeps the groups it has, and asks for none. */
static int check_setgroups(const struct ct_exec_target *t, struct ct_init_plan *plan,
			   struct ct_error *err)
{
	char path[64], text[8] = "";
	snprintf(path, sizeof(path), "/proc/%d/setgroups", t->pid);
	_cleanup_close_ int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, text, sizeof(text) - 1) < 0)
		return ct_error_sys(err, errno, "read \"%s\"", path);
	plan->ns.setgroups_denied = strncmp(text, "deny", 4) == 0;
	if (plan->ns.setgroups_denied && plan->config->process.user.additional_gids.len)
		return ct_error_plain(err, EPERM,
				      "%s.user.additionalGids: the container's user namespace "
				      "denies setgroups",
				      ct_process_path(plan->opts));
	return 0;
}

static int set_affinity(bool given, const cpu_set_t *cpus, const char *which, struct ct_error *err)
{
	if (given && sched_setaffinity(0, sizeof(*cpus), cpus) < 0)
		return ct_error_sys(err, errno, "set execCPUAffinity.%s", which);
	return 0;
}

/* What exec's own rows work on, besides the plan (ctx->caller). */
struct exec_child {
	const struct ct_exec_target *target;
	struct exec_join *join;
};

/* A joiner joined the user namespace (and the rest) for the child: once it is mapped. */
static int wait_for_joiner(const struct exec_join *j, const struct ct_plan_sync *sync,
			   struct ct_error *err)
{
	if (!j->via_joiner)
		return 0;
	return ct_sync_expect(sync->fd, CT_SYNC_USERNS_READY, "the exec'd process", err);
}

static int wait_for_cgroup(const struct ct_plan_cgroup *cgroup, const struct ct_plan_sync *sync,
			   struct ct_error *err)
{
	if (!cgroup->cg)
		return 0;
	return ct_sync_expect(sync->fd, CT_SYNC_CGROUP_READY, "the cgroup", err);
}

/* The container's namespaces and root; then, through a procfs of our own in its pid
 * namespace (libct/fs/procfs.h), what the process writes to /proc. The root's fd goes on to
 * *rootfd, for the shared rows that work in the root (stdio-null). */
static int enter_container(const struct exec_child *c, const struct oci_process *p,
			   struct ct_procfs *procfs, int *rootfd, struct ct_error *err)
{
	if (join_container(c->target, c->join, err) < 0)
		return -1;
	*rootfd = steal_fd(&c->join->rootfd);
	if (ct_process_writes_proc(p))
		ct_procfs_open(procfs, NULL);
	exec_join_close(c->join);
	if (c->target->pidfd >= 0)
		close(c->target->pidfd);
	return 0;
}

/* config.md: final once the process is in the container's cgroup */
static int set_final_affinity(const struct ct_sched_plan *s, struct ct_error *err)
{
	return set_affinity(s->has_final_cpus, &s->final_cpus, "final", err);
}

/* The rows: each hands its step the part of the plan (or two) the step works on, and
 * exec's own state (ctx->caller). */
static int joiner_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	const struct exec_child *c = ctx->caller;
	return wait_for_joiner(c->join, &ctx->plan->sync, err);
}

static int cgroup_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return wait_for_cgroup(&ctx->plan->cgroup, &ctx->plan->sync, err);
}

static int enter_container_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return enter_container(ctx->caller, ctx->plan->process.p, &ctx->plan->procfs, &ctx->rootfd,
			       err);
}

static int final_affinity_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return set_final_affinity(&ctx->plan->process.sched, err);
}

/* exec's own rows with its subset of the init's (libct/child/init.c): stdio-null once in
 * the container's root, the process rows last. */
static const struct ct_step *const exec_steps[] = {
	&(const struct ct_step){"joiner", joiner_row},
	&(const struct ct_step){"cgroup", cgroup_row},
	&(const struct ct_step){"enter-container", enter_container_row},
	&ct_stdio_null,
	&(const struct ct_step){"final-affinity", final_affinity_row},
	&ct_process_keyring,
	&ct_process_early,
	&ct_process_late,
};

/* --debug: the steps that ran, as the init names its own, in READY's note for the log. */
static int send_steps(const struct ct_step_ctx *ctx, struct ct_error *err)
{
	if (!ctx->trace)
		return 0;
	char note[CT_ERROR_MSG_MAX];
	snprintf(note, sizeof(note), "exec steps: %s", ctx->trace->names);
	return ct_sync_send_ready(ctx->plan->sync.fd, note, err);
}

__attribute__((noreturn)) static void run_child(struct ct_init_plan *plan,
						const struct ct_exec_target *t, struct exec_join *j)
{
	struct ct_error err = {0};
	struct exec_child child = {t, j};
	struct ct_step_trace trace;
	struct ct_step_ctx ctx;
	ct_step_ctx_init(&ctx, plan, "exec");
	ctx.caller = &child;
	if (plan->opts->log_steps)
		ct_step_trace_start(&ctx, &trace);
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (ct_steps_run(exec_steps, sizeof(exec_steps) / sizeof(exec_steps[0]), &ctx, &err) < 0) {
		ct_sync_send_error_typed(
			plan->sync.fd, ctx.exec_failed ? CT_SYNC_EXEC_ERROR : CT_SYNC_ERROR, &err);
		_exit(1);
	}
	ct_step_ctx_release(&ctx);
	if (send_steps(&ctx, &err) < 0)
		_exit(1);
	prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
	int status = ct_process_exec(&plan->process, plan->sync.fd, ctx.exe, &err);
	if (ct_sync_send_error_typed(plan->sync.fd, status < 0 ? CT_SYNC_ERROR : CT_SYNC_EXEC_ERROR,
				     &err) < 0)
		fprintf(stderr, "ctrun: %s\n", err.msg);
	_exit(status < 0 ? 126 : status);
}

/* Waits for the child's execve (EOF on the close-on-exec socket), passing on what it sends
 * before: the terminal's master, a seccomp notify fd, under --debug the steps it ran. */
static int wait_for_exec(const struct ct_spawn_opts *o, int sock, struct ct_exec_proc *out,
			 struct ct_error *err)
{
	struct ct_sync_msg msg;
	struct ct_sync_phase_state phase;
	ct_sync_phase_enter(&phase, CT_SYNC_PHASE_EXEC);
	do {
		_cleanup_close_ int fd = -1; /* none is expected */
		if (ct_spawn_next_msg(o, sock, out->pid, &out->pty_master, &phase, &msg, &fd, err) <
		    0)
			return -1;
		if (msg.type == CT_SYNC_READY && o->notice)
			o->notice(msg.note.text);
	} while (msg.type == CT_SYNC_READY);
	switch (msg.type) {
	case CT_SYNC_EOF:
		return 0;
	case CT_SYNC_EXEC_ERROR:
		out->fail_status = ct_process_exec_status(msg.error.errnum);
		/* fall through */
	case CT_SYNC_ERROR:
		return ct_error_plain(err, msg.error.errnum, "%s", msg.error.message.text);
	default:
		return ct_error_plain(err, EPROTO, "sync message %s not handled",
				      ct_sync_name(msg.type));
	}
}

void ct_exec_proc_kill(struct ct_exec_proc *p)
{
	if (p->pidfd < 0)
		return;
	if (ct_pidfd_send_signal(p->pidfd, SIGKILL, NULL, 0) < 0 && p->pid > 0)
		kill(p->pid, SIGKILL); /* our unreaped child: its pid cannot be recycled */
	siginfo_t info;
	while (waitid(P_PIDFD, (id_t)p->pidfd, &info, WEXITED) < 0 && errno == EINTR)
		;
	ct_exec_proc_close(p);
}

struct child_args {
	struct ct_init_plan *plan;
	const struct ct_exec_target *t;
	struct exec_join *j;
};

static void run_child_of_joiner(void *arg)
{
	struct child_args *a = arg;
	run_child(a->plan, a->t, a->j);
}

/* A container with a user namespace of its own: a caller without privilege over the host
 * may join its pid namespace only from inside it. This fork joins them all (the user one
 * first), clones the process as ctrun's own child (CLONE_PARENT) and hands over its pidfd,
 * as spawn.c's joiner does for an init; the process waits until ctrun has it. */
__attribute__((noreturn)) static void
run_joiner(struct ct_init_plan *plan, const struct ct_exec_target *t, struct exec_join *j)
{
	struct ct_error err = {0};
	struct child_args a = {plan, t, j};
	bool joined = join_flags(t, j, j->child_flags | j->parent_flags, &err) == 0;
	ct_joiner_finish(plan->sync.fd, joined, 0, plan->cgroup.fd, false, run_child_of_joiner, &a,
			 "the exec'd process", &err);
}

/* The exec'd process as our child: cloned here, or by a joiner. sync[1] is closed. */
static int clone_child(struct ct_init_plan *plan, const struct ct_exec_target *t,
		       struct exec_join *j, int sync[2], struct ct_exec_proc *out,
		       struct ct_error *err)
{
	pid_t pid = j->via_joiner ? fork()
				  : ct_clone_undumpable_into(0, plan->cgroup.fd, &out->pidfd,
							     &out->method, &out->born_in_cgroup);
	if (pid == 0) {
		ct_close_now(&sync[0]);
		plan->sync.fd = sync[1];
		if (j->via_joiner)
			run_joiner(plan, t, j);
		run_child(plan, t, j);
	}
	int saved = errno;
	ct_close_now(&sync[1]);
	if (pid < 0)
		return ct_error_sys(err, saved, "%s",
				    j->via_joiner ? "fork the namespace joiner"
						  : "clone the exec'd process");
	if (!j->via_joiner) {
		out->pid = pid;
		return 0;
	}
	if (ct_spawn_receive_from_joiner(sync[0], pid, &out->pid, &out->pidfd, &out->method, err) <
	    0)
		return -1;
	return ct_sync_send_userns_ready(sync[0], err);
}

/* Into the container's cgroup before it runs anything of the container's: born in its
 * cgroup2 directory with CLONE_INTO_CGROUP where that worked, cgroup.procs for the rest
 * (moving a process where it is changes nothing). */
static int place_child(const struct ct_init_plan *plan, int sock, const struct ct_exec_proc *out,
		       struct ct_error *err)
{
	struct ct_cgroup *cg = plan->opts->cgroup;
	if (!cg)
		return 0;
	if (ct_cgroup_enter(cg, out->pid, out->born_in_cgroup, NULL, err) < 0) {
		/* Rootless: cgroup v2 lets a user move a process only below a cgroup it may write
		 * that holds both ends, which a caller outside the user's delegated tree does not
		 * have. The process then stays in its caller's cgroup, as runc and crun leave it:
		 * its user's own, with no limit it could escape. */
		if ((err->errnum != EACCES && err->errnum != EPERM) || geteuid() == 0)
			return ct_error_prefix(err, "place the exec'd process in the container's "
						    "cgroup");
		if (plan->opts->warn)
			plan->opts->warn(
				"rootless: the exec'd process stays in its caller's cgroup "
				"(no write access to a cgroup above both)");
		*err = (struct ct_error){0};
	}
	return ct_sync_send_cgroup_ready(sock, err);
}

/* CGROUP_READY not taken because the child failed first (EPIPE): its ERROR, still to be
 * read, says why, where our send error says only that it went. */
static int child_failed_first(const struct ct_init_plan *plan, int sock, struct ct_exec_proc *out,
			      struct ct_error *err)
{
	struct ct_error why = {0};
	if ((err->errnum == EPIPE || err->errnum == ECONNRESET) &&
	    wait_for_exec(plan->opts, sock, out, &why) < 0 && why.msg[0])
		*err = why;
	return -1;
}

static int spawn_child(struct ct_init_plan *plan, const struct ct_exec_target *t,
		       struct exec_join *j, struct ct_exec_proc *out, struct ct_error *err)
{
	_cleanup_close_pair_ int sync[2] = CT_FD_PAIR_INIT;
	if (ct_sync_pair(sync, err) < 0 || clone_child(plan, t, j, sync, out, err) < 0)
		return -1;
	if (place_child(plan, sync[0], out, err) < 0)
		return child_failed_first(plan, sync[0], out, err);
	return wait_for_exec(plan->opts, sync[0], out, err);
}

int ct_exec_spawn(const struct ct_spawn_opts *o, const struct ct_exec_target *t,
		  struct ct_exec_proc *out, struct ct_error *err)
{
	*out = (struct ct_exec_proc){.pid = -1, .pidfd = -1, .pty_master = -1, .fail_status = 255};
	_cleanup_init_plan_ struct ct_init_plan plan;
	struct exec_join j = {.rootfd = -1};
	for (int i = 0; i < OCI_NS_COUNT; i++)
		j.fds[i] = -1;
	int ret = -1;
	/* without a joiner, our children are born in the container's pid (and time) namespace */
	if (ct_exec_plan_build(o, &plan, err) < 0 || plan_join(t, &j, err) < 0 ||
	    check_setgroups(t, &plan, err) < 0 || check_still_init(t, err) < 0 ||
	    (!j.via_joiner && join_flags(t, &j, j.parent_flags, err) < 0))
		goto out;
	out->ns_join = j.via_joiner ? "a joiner" : j.by_pidfd ? "pidfd" : "nsfd";
	if (j.via_joiner)
		ct_plan_enters_user_ns(&plan);
	/* config.md: initial before the process joins the container's cgroup; inherited */
	if (set_affinity(plan.process.sched.has_initial_cpus, &plan.process.sched.initial_cpus,
			 "initial", err) < 0)
		goto out;
	if (spawn_child(&plan, t, &j, out, err) < 0) {
		ct_exec_proc_kill(out);
		goto out;
	}
	ret = 0;
out:
	exec_join_close(&j);
	return ret;
}

void ct_exec_proc_close(struct ct_exec_proc *p)
{
	ct_close_now(&p->pidfd);
	ct_close_now(&p->pty_master);
}
