#include "libct/lifecycle/kill_all.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/syscalls.h"
#include "libct/lifecycle/container_cgroup.h"
#include "libct/state/procstat.h"

static int pid_ns_of(pid_t pid, struct stat *st)
{
	char path[64];
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/ns/pid");
	return stat(path, st);
}

static bool same_ns(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The start time is read first and checked again by the fallback's kill(): the process
 * whose namespace was looked at is the one signalled, never a newcomer under its pid. */
static void signal_if_in_ns(pid_t pid, const struct stat *ns, int sig)
{
	uint64_t start_time;
	if (ct_proc_start_time(pid, &start_time, NULL) < 0)
		return;
	_cleanup_close_ int fd = ct_pidfd_open(pid, 0);
	struct stat st;
	if (pid_ns_of(pid, &st) < 0 || !same_ns(&st, ns))
		return;
	if (fd >= 0 && ct_pidfd_send_signal(fd, sig, NULL, 0) == 0)
		return;
	ct_proc_kill_checked(pid, start_time, sig, NULL);
}

/* A container whose init is already gone has nothing more to signal: not an error. */
static int signal_init(struct ct_container *c, int sig, struct ct_error *err)
{
	if (ct_container_signal(c, sig, err) < 0 && err->errnum != ESRCH)
		return -1;
	return 0;
}

/* Every process of the cgroup (cgroup.kill for SIGKILL where the kernel has it), the init
 * among them, once: a second signal would run its handler twice, and programs that take a
 * second SIGTERM as "stop now" would skip their graceful end. SIGKILL, which no handler
 * sees, goes to the init by its pidfd too, which makes its end sure. */
static int kill_by_cgroup(struct ct_container *c, struct ct_cgroup *cg, int sig,
			  struct ct_error *err)
{
	if (ct_cgroup_kill_all(cg, sig, err) < 0)
		return -1;
	return sig == SIGKILL ? signal_init(c, sig, err) : 0;
}

int ct_kill_all(struct ct_container *c, int sig, struct ct_error *err)
{
	struct ct_cgroup *cg;
	if (ct_container_cgroup_open(&c->state, &cg, err) < 0)
		return -1;
	if (cg) {
		int rc = kill_by_cgroup(c, cg, sig, err);
		ct_cgroup_free(cg);
		return rc;
	}
	struct stat init_ns, own_ns;
	if (pid_ns_of(c->state.pid, &init_ns) < 0 || pid_ns_of(0, &own_ns) < 0 ||
	    same_ns(&init_ns, &own_ns))
		return signal_init(c, sig, err);
	_cleanup_closedir_ DIR *proc = opendir("/proc");
	if (!proc)
		return ct_error_sys(err, errno, "open /proc");
	struct dirent *e;
	while ((e = readdir(proc))) {
		pid_t pid = (pid_t)atoi(e->d_name);
		if (pid > 0 && pid != c->state.pid)
			signal_if_in_ns(pid, &init_ns, sig);
	}
	return signal_init(c, sig, err);
}

int ct_kill_leftovers(struct ct_container *c, int sig, struct ct_error *err)
{
	struct ct_cgroup *cg;
	if (ct_container_cgroup_open(&c->state, &cg, err) < 0)
		return -1;
	if (!cg)
		return ct_error_plain(err, ESRCH, "container not running");
	/* a cgroup no longer the container's holds nothing of it to signal */
	int rc = ct_cgroup_still_containers(cg, err);
	if (rc > 0)
		rc = ct_cgroup_kill_all(cg, sig, err);
	ct_cgroup_free(cg);
	return rc < 0 ? -1 : 0;
}
