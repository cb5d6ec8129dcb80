/* clone3(CLONE_PIDFD | namespaces) of the container init, with the clone() fallback, and the
 * parent's side of the set-up conversation (libct/plan/sync.h). */
#include "libct/parent/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hooks/hooks.h"
#include "libct/base/cleanup.h"
#include "libct/base/clone.h"
#include "libct/base/pidfd_pid.h"
#include "libct/base/signals.h"
#include "libct/base/syscalls.h"
#include "libct/cgroup/cgroup.h"
#include "libct/child/init.h"
#include "libct/fs/procfs.h"
#include "libct/parent/idmap_writer.h"
#include "libct/parent/net_devices.h"
#include "libct/parent/spawn_cgroup.h"
#include "libct/parent/spawn_plan.h"
#include "libct/parent/spawned.h"
#include "libct/parent/userns.h"
#include "libct/plan/namespaces.h"
#include "libct/plan/plan.h"
#include "libct/plan/sync.h"
#include "libct/plan/sync_phase.h"
#include "libct/state/shared_root.h"

/* The fifo `ctrun start` opens; the child holds an O_PATH fd and reopens it through
 * /proc/self/fd after dropping privileges, so the 0700 state directory stays closed. */
static int make_exec_fifo(const struct ct_spawn_opts *o, struct ct_init_plan *plan,
			  struct ct_error *err)
{
	if (mkfifoat(o->state_dirfd, CT_EXEC_FIFO_FILE, 0600) < 0)
		return ct_error_sys(err, errno, "create exec fifo");
	if (fchmodat(o->state_dirfd, CT_EXEC_FIFO_FILE, 0622, 0) < 0)
		return ct_error_sys(err, errno, "chmod exec fifo");
	plan->sync.exec_fifo_fd = openat(o->state_dirfd, CT_EXEC_FIFO_FILE, O_PATH | O_CLOEXEC);
	if (plan->sync.exec_fifo_fd < 0)
		return ct_error_sys(err, errno, "open exec fifo");
	return 0;
}

static int write_time_offsets(const struct oci_time_offsets *t, struct ct_error *err)
{
	char buf[128];
	int n = 0;
	if (t->has_monotonic)
		n += snprintf(buf + n, sizeof(buf) - n, "monotonic %lld %u\n",
			      (long long)t->monotonic.secs, t->monotonic.nanosecs);
	if (t->has_boottime)
		n += snprintf(buf + n, sizeof(buf) - n, "boottime %lld %u\n",
			      (long long)t->boottime.secs, t->boottime.nanosecs);
	struct ct_procfs procfs;
	ct_procfs_open(&procfs, NULL);
	int rc = ct_procfs_write(&procfs, "/proc/self/timens_offsets", buf, err);
	ct_procfs_close(&procfs);
	if (rc < 0)
		return ct_error_prefix(err, "write time namespace offsets");
	return 0;
}

/* pid and time namespaces take effect for children only: the parent enters them (or makes
 * a new time namespace with its offsets, which must be set before anyone is inside). */
static int enter_parent_namespaces(struct ct_init_plan *plan, struct ct_error *err)
{
	const struct oci_linux *lx = &plan->config->linux_;
	if (plan->ns.join_fds[OCI_NS_PID] >= 0 &&
	    setns(plan->ns.join_fds[OCI_NS_PID], CLONE_NEWPID) < 0)
		return ct_error_sys(err, errno, "join pid namespace");
	if (plan->ns.join_fds[OCI_NS_TIME] >= 0 &&
	    setns(plan->ns.join_fds[OCI_NS_TIME], CLONE_NEWTIME) < 0)
		return ct_error_sys(err, errno, "join time namespace");
	if (plan->ns.unshare_flags & CLONE_NEWTIME) {
		plan->ns.unshare_flags &= ~(unsigned long)CLONE_NEWTIME;
		if (unshare(CLONE_NEWTIME) < 0)
			return ct_error_sys(err, errno, "create time namespace");
		if (lx->has_time_offsets && write_time_offsets(&lx->time_offsets, err) < 0)
			return -1;
	}
	return 0;
}

/* config-linux.md#seccomp: the agent at listenerPath gets the notify fd with the state of
 * the container being created; failing to send it fails the create. */
int ct_spawn_forward_seccomp_fd(const struct ct_spawn_opts *o, pid_t pid, int fd,
				struct ct_error *err)
{
	const struct oci_seccomp *s = &o->config->linux_.seccomp;
	if (fd < 0)
		return ct_error_plain(err, EPROTO, "seccomp message without a descriptor");
	struct ct_seccomp_state st = {
		.id = o->id,
		.bundle = o->bundle,
		.metadata = s->listener_metadata,
		.pid = pid,
		.annotations = &o->config->annotations,
		.status = o->agent_status,
	};
	int rc = ct_seccomp_send_listener(s->listener_path, fd, &st, err);
	ct_close_now(&fd); /* ours was a copy: the agent has its own */
	return rc;
}

int ct_spawn_run_create_hooks(const struct ct_spawn_opts *o, pid_t pid, struct ct_error *err)
{
	const struct oci_hooks *h = &o->config->hooks;
	if (!h->prestart.len && !h->create_runtime.len)
		return 0;
	_cleanup_free_ char *state = NULL;
	if (ct_state_format_compact(o->state, "creating", pid, &state, err) < 0)
		return -1;
	if (ct_hooks_run(h, CT_HOOK_PRESTART, state, err) < 0 ||
	    ct_hooks_run(h, CT_HOOK_CREATE_RUNTIME, state, err) < 0)
		return -1;
	return 0;
}

/* The init waits for NET_DEVICES_DONE; fd is its rtnetlink socket. */
static int move_net_devices(const struct ct_spawn_opts *o, const struct ct_spawned *out, int fd,
			    struct ct_error *err)
{
	if (ct_net_devices_move(o->config, fd, err) < 0)
		return -1;
	return ct_sync_send_net_devices_done(out->sync_fd, err);
}

/* The init waits for HOOKS_DONE. */
static int run_create_runtime_hooks(const struct ct_spawn_opts *o, const struct ct_spawned *out,
				    struct ct_error *err)
{
	if (ct_spawn_run_create_hooks(o, out->pid, err) < 0)
		return -1;
	return ct_sync_send_hooks_done(out->sync_fd, err);
}

/* The set-up messages that carry an fd: the terminal's master (kept in *pty_master) and a
 * seccomp notify fd (passed on), taken from *fd. 1 when msg was one of them, 0 when not
 * (*fd left to the caller), -1 on error. */
static int take_fd(const struct ct_spawn_opts *o, pid_t pid, const struct ct_sync_msg *msg, int *fd,
		   int *pty_master, struct ct_error *err)
{
	switch (msg->type) {
	case CT_SYNC_PTY_MASTER: /* its fd: the decoder checked it came */
		ct_fd_replace(pty_master, steal_fd(fd));
		return 1;
	case CT_SYNC_SECCOMP_FD:
		return ct_spawn_forward_seccomp_fd(o, pid, steal_fd(fd), err) < 0 ? -1 : 1;
	default:
		return 0;
	}
}

int ct_spawn_next_msg(const struct ct_spawn_opts *o, int sock, pid_t pid, int *pty_master,
		      struct ct_sync_phase_state *phase, struct ct_sync_msg *msg, int *fd,
		      struct ct_error *err)
{
	for (;;) {
		int taken;
		if (ct_sync_recv(sock, msg, fd, err) < 0)
			return -1;
		if (ct_sync_phase_accept(phase, msg->type, err) < 0) {
			ct_close_now(fd);
			return -1;
		}
		if ((taken = take_fd(o, pid, msg, fd, pty_master, err)) < 0)
			return -1;
		if (!taken)
			return 0;
	}
}

/* The init closed the channel without a word: it died. How, when its pidfd says so within a
 * second (not reaped here: WNOWAIT); a signal is what the OOM killer sends an init whose set-up
 * does not fit in its memory limit, charged from its birth on cgroup v2. */
static int init_vanished(const struct ct_spawned *out, struct ct_error *err)
{
	static const char what[] = "container init exited during set-up";
	struct pollfd p = {.fd = out->pidfd, .events = POLLIN};
	siginfo_t info = {0};
	if (out->pidfd < 0 || poll(&p, 1, 1000) != 1 ||
	    waitid(P_PIDFD, (id_t)out->pidfd, &info, WEXITED | WNOWAIT | WNOHANG) < 0 ||
	    info.si_pid == 0)
		return ct_error_plain(err, ECHILD, "%s", what);
	if (info.si_code == CLD_EXITED)
		return ct_error_plain(err, ECHILD, "%s with status %d", what, info.si_status);
	return ct_error_plain(err, ECHILD,
			      "container init killed by signal %d (SIG%s) during set-up%s",
			      info.si_status, ct_signal_abbrev(info.si_status) ?: "?",
			      info.si_status == SIGKILL
				      ? " (the OOM killer's signal: is the memory limit too small?)"
				      : "");
}

static int wait_for_ready(const struct ct_spawn_opts *o, int sock, struct ct_spawned *out,
			  struct ct_error *err)
{
	struct ct_sync_phase_state phase;
	ct_sync_phase_enter(&phase, CT_SYNC_PHASE_SET_UP);
	for (;;) {
		struct ct_sync_msg msg;
		_cleanup_close_ int fd = -1; /* the message's, when it is not taken */
		if (ct_spawn_next_msg(o, sock, out->pid, &out->pty_master, &phase, &msg, &fd, err) <
		    0)
			return -1;
		switch (msg.type) {
		case CT_SYNC_READY:
			snprintf(out->note, sizeof(out->note), "%s", msg.note.text);
			return 0;
		case CT_SYNC_ROOT_BIND:
			ct_fd_replace(&out->shared_root, steal_fd(&fd));
			break;
		case CT_SYNC_NET_DEVICES: /* its fd: the decoder checked it came */
			if (move_net_devices(o, out, fd, err) < 0)
				return -1;
			break;
		case CT_SYNC_CREATE_HOOKS:
			if (run_create_runtime_hooks(o, out, err) < 0)
				return -1;
			break;
		case CT_SYNC_ERROR:
			return ct_error_plain(err, msg.error.errnum, "%s", msg.error.message.text);
		case CT_SYNC_EOF:
			return init_vanished(out, err);
		default:
			return ct_error_plain(err, EPROTO, "sync message %s not handled",
					      ct_sync_name(msg.type));
		}
	}
}

/* In its user namespace the init may not lower its oom_score_adj (CAP_SYS_RESOURCE is the
 * host's to have) nor open its /proc file (born undumpable: the host's root owns it), so
 * the parent writes it while the init waits, as runc writes it before its init leaves the
 * host's user namespace. */
static int write_init_oom_score_adj(const struct ct_init_plan *plan, pid_t pid,
				    struct ct_error *err)
{
	const struct oci_process *p = plan->process.p;
	if (!plan->process.oom_score_adj_by_parent)
		return 0;
	char value[32];
	snprintf(value, sizeof(value), "%d", p->oom_score_adj);
	if (ct_procfs_write_pid(pid, "oom_score_adj", value, err) < 0)
		return ct_error_prefix(err, "set the init's oom_score_adj %d", p->oom_score_adj);
	return 0;
}

/* The parent writes the maps: as root it may map any range, setgroups staying allowed;
 * a user without privilege through newuidmap/newgidmap, or its own id alone (setgroups
 * denied for a gid map), as runc in rootless mode (libct/parent/idmap_writer.h). */
static int release_user_namespace(const struct ct_init_plan *plan, const struct ct_spawned *out,
				  struct ct_error *err)
{
	if (!plan->ns.userns)
		return 0;
	if (write_init_oom_score_adj(plan, out->pid, err) < 0)
		return -1;
	if (plan->ns.uid_map &&
	    (ct_idmap_write_with(out->pid, false, plan->ns.uid_writer, plan->ns.uid_map, err) < 0 ||
	     ct_idmap_write_with(out->pid, true, plan->ns.gid_writer, plan->ns.gid_map, err) < 0))
		return -1;
	return ct_sync_send_userns_ready(out->sync_fd, err);
}

/* In the joiner: the user namespace first (the others may belong to it), then those a new
 * user namespace could not join any more. The init inherits them; with their fds closed in
 * its copy of the plan, it does not join them again. */
static int join_early(struct ct_init_plan *plan, struct ct_error *err)
{
	const unsigned long early =
		CLONE_NEWUSER | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWCGROUP;
	return ct_ns_join_each(plan->ns.join_fds, early, true, err);
}

/* A process for the container is born not dumpable, but for an init whose id maps a caller
 * without privilege writes (plan.h: dumpable_for_maps). */
static pid_t clone_for_container(bool dumpable, unsigned long flags, int cgroup_fd, int *pidfd,
				 const char **method, bool *born)
{
	return dumpable ? ct_clone_pidfd_into(flags, cgroup_fd, pidfd, method, born)
			: ct_clone_undumpable_into(flags, cgroup_fd, pidfd, method, born);
}

/* The namespaces the init makes belong to the user namespace it is made in: the joiner
 * enters the namespaces to join, then clones the init as ctrun's own child (CLONE_PARENT),
 * hands over its pidfd and exits (spawn.h). The init waits for the parent first. */
void ct_joiner_finish(int sync_fd, bool joined, unsigned long flags, int cgroup_fd, bool dumpable,
		      void (*child)(void *arg), void *arg, const char *what, struct ct_error *err)
{
	int pidfd = -1;
	const char *method;
	bool born;
	if (joined) {
		pid_t pid = clone_for_container(dumpable, flags | CLONE_PARENT, cgroup_fd, &pidfd,
						&method, &born);
		if (pid == 0) {
			child(arg);
			_exit(1);
		}
		if (pid > 0 && ct_sync_send_init_pidfd(sync_fd, pidfd, pid, method, err) == 0)
			_exit(0);
		if (pid > 0)
			ct_pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
		else
			ct_error_sys(err, errno, "clone %s", what);
	}
	ct_sync_send_error(sync_fd, err);
	_exit(1);
}

static void run_init(void *plan)
{
	ct_init_run(plan);
}

__attribute__((noreturn)) static void run_joiner(struct ct_init_plan *plan)
{
	struct ct_error err = {0};
	bool joined = join_early(plan, &err) == 0;
	ct_joiner_finish(plan->sync.fd, joined, plan->ns.unshare_flags, plan->cgroup.fd,
			 plan->ns.dumpable_for_maps, run_init, plan, "the container init", &err);
}

/* The method named by the joiner, as the static string out->method must be. */
static const char *clone_method(const char *name)
{
	static const char *const methods[] = {"clone3", "clone", "clone+pidfd_open"};
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(name, methods[i]) == 0)
			return methods[i];
	return "clone";
}

/* The joiner's pid is its own pid namespace's, the container's when that one is joined: the
 * pidfd says which process it is here. Only a kernel without fdinfo's "Pid:" (before 5.3)
 * leaves the joiner's word; an init this /proc does not show would have that number name
 * another process of the host, to be moved into the cgroup and killed. */
static int init_pid_here(int pidfd, pid_t said, pid_t *pid, struct ct_error *err)
{
	if (ct_pidfd_pid(pidfd, pid) == 0)
		return 0;
	if (errno != ENOENT)
		return ct_error_sys(err, errno, "the init's pid from its pidfd");
	*pid = said;
	return 0;
}

int ct_spawn_receive_from_joiner(int sock, pid_t joiner, pid_t *pid, int *pidfd,
				 const char **method, struct ct_error *err)
{
	while (waitpid(joiner, NULL, 0) < 0 && errno == EINTR)
		;
	struct ct_sync_msg msg;
	struct ct_sync_phase_state phase;
	_cleanup_close_ int fd = -1;
	ct_sync_phase_enter(&phase, CT_SYNC_PHASE_JOINER);
	if (ct_sync_recv(sock, &msg, &fd, err) < 0)
		return -1;
	if (ct_sync_phase_accept(&phase, msg.type, err) < 0)
		return -1;
	if (msg.type == CT_SYNC_ERROR)
		return ct_error_plain(err, msg.error.errnum, "%s", msg.error.message.text);
	if (msg.type == CT_SYNC_EOF)
		return ct_error_plain(err, ECHILD, "namespace joiner exited without a word");
	/* INIT_PIDFD, with its pidfd and fields checked by the decoder */
	*pidfd = steal_fd(&fd);
	*method = clone_method(msg.init_pidfd.method);
	return init_pid_here(*pidfd, msg.init_pidfd.pid, pid, err);
}

/* The init, through a joiner when the user namespace is joined; in the parent, out has
 * the pid, pidfd and sync socket. The child never returns. */
static int spawn_init(struct ct_init_plan *plan, int sync[2], struct ct_spawned *out,
		      struct ct_error *err)
{
	bool joiner = plan->ns.use_joiner;
	pid_t pid = joiner ? fork()
			   : clone_for_container(plan->ns.dumpable_for_maps, plan->ns.unshare_flags,
						 plan->cgroup.fd, &out->pidfd, &out->method,
						 &out->born_in_cgroup);
	if (pid < 0)
		return ct_error_sys(err, errno, "%s",
				    joiner ? "fork the namespace joiner"
					   : "clone the container init");
	if (pid == 0) {
		ct_close_now(&sync[0]);
		plan->sync.fd = sync[1];
		if (joiner)
			run_joiner(plan);
		ct_init_run(plan);
	}
	ct_close_now(&sync[1]);
	out->sync_fd = steal_fd(&sync[0]);
	if (!joiner) {
		out->pid = pid;
		return 0;
	}
	/* out->pid stays unset until the init's is known: the joiner is reaped there, and a
	 * failure's kill must not reach whoever takes its pid next */
	return ct_spawn_receive_from_joiner(out->sync_fd, pid, &out->pid, &out->pidfd,
					    &out->method, err);
}

/* A send failed because the init went already (it failed while the parent made its
 * cgroup): EPIPE, or ECONNRESET when it left a message of ours unread. */
static bool init_went(const struct ct_error *err)
{
	return err->errnum == EPIPE || err->errnum == ECONNRESET;
}

/* What the init said before it went, its ERROR (or how it died), is the error then. */
static int report_init_gone(const struct ct_spawn_opts *o, struct ct_spawned *out,
			    struct ct_error *err)
{
	struct ct_error why = {0};
	if (init_went(err) && wait_for_ready(o, out->sync_fd, out, &why) < 0)
		*err = why;
	return -1;
}

static int put_init_in_cgroup(const struct ct_init_plan *plan, struct ct_spawned *out,
			      struct ct_error *err)
{
	return ct_spawn_place_init(plan, out, err) < 0 ? report_init_gone(plan->opts, out, err) : 0;
}

static int send_start(struct ct_spawned *s, struct ct_error *err)
{
	struct ct_sync_msg msg = {.type = CT_SYNC_START};
	if (s->start_sent)
		return 0;
	s->start_sent = true;
	return ct_sync_send(s->sync_fd, &msg, err);
}

/* START, then STARTED (the startContainer hooks passed), then, when asked, EOF: the init's
 * execve closed its end, so the user process has been executed (libct/plan/sync.h). */
int ct_spawn_start(struct ct_spawned *s, bool wait_exec, struct ct_error *err)
{
	struct ct_sync_msg msg;
	struct ct_sync_phase_state phase;
	int fd = -1;
	ct_sync_phase_enter(&phase, CT_SYNC_PHASE_START);
	if (send_start(s, err) < 0 || ct_sync_recv(s->sync_fd, &msg, &fd, err) < 0)
		return -1;
	ct_close_now(&fd);
	if (ct_sync_phase_accept(&phase, msg.type, err) < 0)
		return -1;
	if (msg.type == CT_SYNC_ERROR)
		return ct_error_plain(err, msg.error.errnum, "%s", msg.error.message.text);
	if (msg.type != CT_SYNC_STARTED)
		return ct_error_plain(err, ECHILD, "container init exited before start");
	if (wait_exec && ct_sync_recv(s->sync_fd, &msg, &fd, err) < 0)
		return -1;
	ct_close_now(&fd);
	ct_spawned_close_sync(s);
	if (wait_exec && msg.type != CT_SYNC_EOF)
		return ct_error_plain(
			err, EPROTO, "sync message %s after STARTED: the %s phase ends with EOF",
			ct_sync_name(msg.type), ct_sync_phase_name(CT_SYNC_PHASE_START));
	return 0;
}

/* START is then sent once the caller's own work is done (libct/parent/placement.c). */
static int send_start_early(const struct ct_init_plan *plan, struct ct_spawned *out,
			    struct ct_error *err)
{
	if (!plan->place.start_early)
		return 0;
	if (send_start(out, err) == 0)
		return 0;
	if (!init_went(err))
		return -1;
	/* the init failed its set-up and went already: its ERROR (or EOF) is what to report */
	*err = (struct ct_error){0};
	return 0;
}

/* A set-up that failed after the init sent its ROOT_BIND, when the init itself may have no
 * right to detach it any more (its capabilities dropped): the parent does. */
static void detach_shared_root(const struct ct_spawn_opts *o, int root)
{
	struct ct_shared_root r;
	struct ct_error ignored;
	if (root < 0)
		return;
	if (ct_shared_root_describe(root, ct_shared_root_joined(o->config), &r, &ignored) == 0)
		ct_shared_root_detach(&r, o->rootfs, &ignored);
	close(root);
}

int ct_spawn(const struct ct_spawn_opts *o, struct ct_spawned *out, struct ct_error *err)
{
	*out = (struct ct_spawned){
		.pid = -1, .pidfd = -1, .pty_master = -1, .sync_fd = -1, .shared_root = -1};
	_cleanup_init_plan_ struct ct_init_plan plan;
	_cleanup_close_pair_ int sync[2] = CT_FD_PAIR_INIT;
	int ret = -1;
	if (ct_init_plan_build(o, &plan, err) < 0)
		goto out;
	if (o->start == CT_START_FIFO && make_exec_fifo(o, &plan, err) < 0)
		goto out;
	if (ct_spawn_cgroup_before_clone(o, &plan, err) < 0 ||
	    enter_parent_namespaces(&plan, err) < 0 || ct_sync_pair(sync, err) < 0)
		goto out;
	if (spawn_init(&plan, sync, out, err) < 0 || put_init_in_cgroup(&plan, out, err) < 0 ||
	    release_user_namespace(&plan, out, err) < 0 ||
	    (o->while_setting_up && o->while_setting_up(o->while_arg, out, err) < 0) ||
	    send_start_early(&plan, out, err) < 0 ||
	    wait_for_ready(o, out->sync_fd, out, err) < 0 ||
	    ct_spawn_place_init_late(&plan, out, err) < 0 ||
	    (o->start == CT_START_FIFO && ct_sync_send_created(out->sync_fd, err) < 0)) {
		int shared_root = out->shared_root;
		out->shared_root = -1;
		ct_spawned_kill(out);
		detach_shared_root(o, shared_root);
		goto out;
	}
	if (o->start == CT_START_FIFO)
		ct_spawned_close_sync(out);
	ret = 0;
out:
	if (ret < 0 && o->start == CT_START_FIFO)
		unlinkat(o->state_dirfd, CT_EXEC_FIFO_FILE, 0);
	return ret;
}
