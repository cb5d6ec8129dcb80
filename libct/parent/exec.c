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
#include "libct/fs/procfs.h"
#include "libct/parent/spawn.h"
#include "libct/parent/spawn_plan.h"
#include "libct/plan/namespaces.h"
#include "libct/plan/sync.h"
#include "libct/state/procstat.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

/* The namespaces as /proc/PID/ns names them, in the order the fd fallback joins them: the
 * user namespace first (it owns the others), the mount namespace last (the /proc paths of
 * the others stay reachable until then). pid and time act on children: the parent joins
 * them before the clone, and compares them with its *_for_children. */
static const struct {
	enum oci_ns_type type;
	const char *name, *self_name;
	bool for_children;
} ns_table[] = {
	{OCI_NS_USER, "user", "user", false},
	{OCI_NS_IPC, "ipc", "ipc", false},
	{OCI_NS_UTS, "uts", "uts", false},
	{OCI_NS_NETWORK, "net", "net", false},
	{OCI_NS_CGROUP, "cgroup", "cgroup", false},
	{OCI_NS_MOUNT, "mnt", "mnt", false},
	{OCI_NS_PID, "pid", "pid_for_children", true},
	{OCI_NS_TIME, "time", "time_for_children", true},
};
#define N_NS (sizeof(ns_table) / sizeof(ns_table[0]))

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
		if (j->fds[i] >= 0)
			close(steal_fd(&j->fds[i]));
	if (j->rootfd >= 0)
		close(steal_fd(&j->rootfd));
}

/* 1 when the init's namespace of that row is not ours, 0 when it is (or the kernel has no
 * such namespace), -1 on error. */
static int ns_differs(pid_t pid, size_t row, struct ct_error *err)
{
	char theirs[64], ours[64];
	struct stat a, b;
	snprintf(theirs, sizeof(theirs), "/proc/%d/ns/%s", pid, ns_table[row].name);
	snprintf(ours, sizeof(ours), "/proc/self/ns/%s", ns_table[row].self_name);
	if (stat(ours, &b) < 0)
		return errno == ENOENT ? 0 : ct_error_set(err, errno, "stat \"%s\"", ours);
	if (stat(theirs, &a) < 0)
		return ct_error_set(err, errno, "stat \"%s\"", theirs);
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
		alive = poll(&p, 1, 0) == 0;
	} else {
		alive = ct_status_derive(t->pid, t->start_time, true) != CT_STATUS_STOPPED;
	}
	return alive ? 0 : ct_error_set_plain(err, ESRCH, "the container's init has exited");
}

static int plan_join(const struct ct_exec_target *t, struct exec_join *j, struct ct_error *err)
{
	char path[64];
	for (size_t i = 0; i < N_NS; i++) {
		int d = ns_differs(t->pid, i, err);
		if (d < 0)
			return -1;
		unsigned long flag = ct_ns_clone_flags[ns_table[i].type];
		if (ns_table[i].type == OCI_NS_PID)
			j->parent_flags |= flag; /* the same one again is harmless */
		else if (d && ns_table[i].for_children)
			j->parent_flags |= flag;
		else if (d)
			j->child_flags |= flag;
	}
	j->via_joiner = j->child_flags & CLONE_NEWUSER;
	snprintf(path, sizeof(path), "/proc/%d/root", t->pid);
	j->rootfd = openat(AT_FDCWD, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (j->rootfd < 0)
		return ct_error_set(err, errno, "open \"%s\"", path);
	return 0;
}

/* Before Linux 5.8 setns() takes no pidfd (EINVAL), and without pidfd_open there is none:
 * the namespace files of the init, opened by pid and then proved to be its own. */
static int open_ns_fds(const struct ct_exec_target *t, struct exec_join *j, struct ct_error *err)
{
	unsigned long wanted = j->child_flags | j->parent_flags;
	for (size_t i = 0; i < N_NS; i++) {
		enum oci_ns_type type = ns_table[i].type;
		if (!(wanted & ct_ns_clone_flags[type]))
			continue;
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", t->pid, ns_table[i].name);
		j->fds[type] = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
		if (j->fds[type] < 0)
			return ct_error_set(err, errno, "open \"%s\"", path);
	}
	return check_still_init(t, err);
}

static int setns_each(struct exec_join *j, unsigned long flags, struct ct_error *err)
{
	for (size_t i = 0; i < N_NS; i++) {
		enum oci_ns_type type = ns_table[i].type;
		unsigned long flag = ct_ns_clone_flags[type];
		if ((flags & flag) && setns(j->fds[type], (int)flag) < 0)
			return ct_error_set(err, errno, "join %s namespace",
					    oci_namespace_names[type]);
	}
	return 0;
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
			return ct_error_set(err, errno, "join the namespaces of the container");
	}
	if (!j->by_nsfd && open_ns_fds(t, j, err) < 0)
		return -1;
	j->by_nsfd = true;
	return setns_each(j, flags, err);
}

/* The child: the namespaces not joined for it (none after a joiner), then the init's
 * root. The mount namespace alone would leave us at its root, which is the host's for a
 * container that has none of its own and is only chroot()ed. */
static int join_container(const struct ct_exec_target *t, struct exec_join *j, struct ct_error *err)
{
	if (!j->via_joiner && join_flags(t, j, j->child_flags, err) < 0)
		return -1;
	if (fchdir(j->rootfd) < 0 || chroot(".") < 0)
		return ct_error_set(err, errno, "enter the container's root");
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
		return ct_error_set(err, errno, "read \"%s\"", path);
	plan->setgroups_denied = strncmp(text, "deny", 4) == 0;
	if (plan->setgroups_denied && plan->config->process.user.additional_gids.len)
		return ct_error_set_plain(err, EPERM,
					  "%s.user.additionalGids: the container's user namespace "
					  "denies setgroups",
					  ct_process_path(plan->opts));
	return 0;
}

static int set_affinity(bool given, const cpu_set_t *cpus, const char *which, struct ct_error *err)
{
	if (given && sched_setaffinity(0, sizeof(*cpus), cpus) < 0)
		return ct_error_set(err, errno, "set execCPUAffinity.%s", which);
	return 0;
}

static int child_steps(struct ct_init_plan *plan, const struct ct_exec_target *t,
		       struct exec_join *j, char *exe, size_t exe_size, bool *exec_failed,
		       struct ct_error *err)
{
	const struct ct_sched_plan *s = &plan->sched;
	*exec_failed = false;
	if ((j->via_joiner &&
	     ct_sync_expect(plan->sync_fd, CT_SYNC_USERNS_READY, "the exec'd process", err) < 0) ||
	    (plan->opts->cgroup &&
	     ct_sync_expect(plan->sync_fd, CT_SYNC_CGROUP_READY, "the cgroup", err) < 0) ||
	    join_container(t, j, err) < 0)
		return -1;
	/* through a procfs of our own in the container's pid namespace (libct/fs/procfs.h) */
	if (ct_process_writes_proc(&plan->config->process))
		ct_procfs_open(&plan->procfs, NULL);
	exec_join_close(j);
	if (t->pidfd >= 0)
		close(t->pidfd);
	/* config.md: final once the process is in the container's cgroup */
	if (set_affinity(s->has_final_cpus, &s->final_cpus, "final", err) < 0 ||
	    ct_process_join_keyring(plan, err) < 0 || ct_process_setup_early(plan, err) < 0 ||
	    ct_process_setup_late(plan, exe, exe_size, exec_failed, err) < 0)
		return -1;
	return 0;
}

__attribute__((noreturn)) static void run_child(struct ct_init_plan *plan,
						const struct ct_exec_target *t, struct exec_join *j)
{
	struct ct_error err = {0};
	char exe[PATH_MAX];
	bool exec_failed;
	/* Until the execve this is ctrun's image in the container's pid namespace: not
	 * dumpable, so no process there may open our /proc/PID/exe or fds (CVE-2019-5736). */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (child_steps(plan, t, j, exe, sizeof(exe), &exec_failed, &err) < 0) {
		ct_sync_send_error_typed(plan->sync_fd,
					 exec_failed ? CT_SYNC_EXEC_ERROR : CT_SYNC_ERROR, &err);
		_exit(1);
	}
	prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
	int status = ct_process_exec(plan, exe, &err);
	if (ct_sync_send_error_typed(plan->sync_fd, status < 0 ? CT_SYNC_ERROR : CT_SYNC_EXEC_ERROR,
				     &err) < 0)
		fprintf(stderr, "ctrun: %s\n", err.msg);
	_exit(status < 0 ? 126 : status);
}

/* Waits for the child's execve (EOF on the close-on-exec socket), passing on what it sends
 * before: the terminal's master, a seccomp notify fd. */
static int wait_for_exec(const struct ct_spawn_opts *o, int sock, struct ct_exec_proc *out,
			 struct ct_error *err)
{
	struct ct_sync_msg msg;
	int fd;
	if (ct_spawn_next_msg(o, sock, out->pid, &out->pty_master, &msg, &fd, err) < 0)
		return -1;
	switch (msg.type) {
	case CT_SYNC_EOF:
		return 0;
	case CT_SYNC_EXEC_ERROR:
		out->fail_status = ct_process_exec_status(msg.errnum);
		/* fall through */
	case CT_SYNC_ERROR:
		return ct_error_set_plain(err, msg.errnum, "%s", msg.text);
	default:
		if (fd >= 0)
			close(fd);
		return ct_error_set(err, EPROTO, "unexpected sync message %u", msg.type);
	}
}

void ct_exec_proc_kill(struct ct_exec_proc *p)
{
	if (p->pidfd < 0)
		return;
	if (ct_pidfd_send_signal(p->pidfd, SIGKILL, NULL, 0) < 0)
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
	ct_joiner_finish(plan->sync_fd, joined, 0, plan->cgroup_fd, run_child_of_joiner, &a,
			 "the exec'd process", &err);
}

/* The exec'd process as our child: cloned here, or by a joiner. sync[1] is closed. */
static int clone_child(struct ct_init_plan *plan, const struct ct_exec_target *t,
		       struct exec_join *j, int sync[2], struct ct_exec_proc *out,
		       struct ct_error *err)
{
	pid_t pid = j->via_joiner ? fork()
				  : ct_clone_pidfd_into(0, plan->cgroup_fd, &out->pidfd,
							&out->method, &out->born_in_cgroup);
	if (pid == 0) {
		close(sync[0]);
		plan->sync_fd = sync[1];
		if (j->via_joiner)
			run_joiner(plan, t, j);
		run_child(plan, t, j);
	}
	int saved = errno;
	close(steal_fd(&sync[1]));
	if (pid < 0)
		return ct_error_set(err, saved, "%s",
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
	if (ct_cgroup_enter(cg, out->pid, out->born_in_cgroup, NULL, err) < 0)
		return ct_error_prefix(err, "place the exec'd process in the container's cgroup");
	return ct_sync_send_cgroup_ready(sock, err);
}

static int spawn_child(struct ct_init_plan *plan, const struct ct_exec_target *t,
		       struct exec_join *j, struct ct_exec_proc *out, struct ct_error *err)
{
	int sync[2];
	if (ct_sync_pair(sync, err) < 0)
		return -1;
	int rc = clone_child(plan, t, j, sync, out, err);
	if (rc == 0)
		rc = place_child(plan, sync[0], out, err);
	if (rc == 0)
		rc = wait_for_exec(plan->opts, sync[0], out, err);
	close(sync[0]);
	return rc;
}

int ct_exec_spawn(const struct ct_spawn_opts *o, const struct ct_exec_target *t,
		  struct ct_exec_proc *out, struct ct_error *err)
{
	*out = (struct ct_exec_proc){.pid = -1, .pidfd = -1, .pty_master = -1, .fail_status = 255};
	struct ct_init_plan plan;
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
	if (set_affinity(plan.sched.has_initial_cpus, &plan.sched.initial_cpus, "initial", err) < 0)
		goto out;
	if (spawn_child(&plan, t, &j, out, err) < 0) {
		ct_exec_proc_kill(out);
		goto out;
	}
	ret = 0;
out:
	exec_join_close(&j);
	ct_init_plan_free(&plan);
	return ret;
}

void ct_exec_proc_close(struct ct_exec_proc *p)
{
	if (p->pidfd >= 0)
		close(steal_fd(&p->pidfd));
	if (p->pty_master >= 0)
		close(steal_fd(&p->pty_master));
}
