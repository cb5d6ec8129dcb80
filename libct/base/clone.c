/* The clone wrappers: a child process with a pidfd, whichever of clone3, clone(CLONE_PIDFD)
 * or clone + pidfd_open the kernel offers. */
#include "libct/base/clone.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/syscalls.h"

/* Returns the pid (0 in the child), -1 with errno on failure; *method names the call that
 * made the child, for the debug log (the fallbacks are otherwise invisible). cgroup_fd >= 0:
 * born in that cgroup2 directory (CLONE_INTO_CGROUP, 5.7+), *born says whether it was. */
pid_t ct_clone_pidfd_into(unsigned long flags, int cgroup_fd, int *pidfd, const char **method,
			  bool *born)
{
	struct clone_args args = {
		.flags = CLONE_PIDFD | flags,
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		/* a CLONE_PARENT child signals as its creator would: clone3 wants 0 here */
		.exit_signal = flags & CLONE_PARENT ? 0 : SIGCHLD,
	};
	*method = "clone3";
	*born = false;
	pid_t pid = -1;
	if (cgroup_fd >= 0) {
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (uint64_t)cgroup_fd;
		pid = ct_clone3(&args, sizeof(args));
		if (pid >= 0) {
			*born = pid > 0;
			return pid;
		}
		/* before 5.7 (E2BIG/EINVAL), or refused: the parent writes cgroup.procs */
		args.flags &= ~(uint64_t)CLONE_INTO_CGROUP;
		args.cgroup = 0;
	}
	pid = ct_clone3(&args, sizeof(args));
	if (pid >= 0 || (errno != ENOSYS && errno != EPERM))
		return pid;
	/* clone3 missing, or refused by an old seccomp profile: clone() with CLONE_PIDFD,
	 * used like fork (no new stack); x86_64 argument order: flags, stack, parent_tid. */
	*method = "clone";
	pid = (pid_t)syscall(SYS_clone, CLONE_PIDFD | flags | SIGCHLD, NULL, pidfd, NULL, 0);
	if (pid != -1 || errno != EINVAL)
		return pid;
	/* Before Linux 5.2 there is no CLONE_PIDFD: take the pidfd right after. */
	*method = "clone+pidfd_open";
	pid = (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid <= 0)
		return pid;
	*pidfd = ct_pidfd_open(pid, 0);
	if (*pidfd < 0) {
		/* No pidfd, no way to drive the init safely: do not leave it running. */
		int saved = errno;
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		errno = saved;
		return -1;
	}
	return pid;
}

pid_t ct_clone_pidfd(unsigned long flags, int *pidfd, const char **method)
{
	bool born;
	return ct_clone_pidfd_into(flags, -1, pidfd, method, &born);
}

/* Cleared in the caller around the clone, since the child's mm copies the flag: no moment
 * of the child's life, before its last execve, lets a process of the pid namespace it is
 * born into (or any other but root's) open its /proc/PID/fd, /proc/PID/exe or ptrace it
 * (CVE-2016-9962). A caller already not dumpable by others stays as it is. */
pid_t ct_clone_undumpable_into(unsigned long flags, int cgroup_fd, int *pidfd, const char **method,
			       bool *born)
{
	bool was_dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 1;
	if (was_dumpable && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return -1;
	pid_t pid = ct_clone_pidfd_into(flags, cgroup_fd, pidfd, method, born);
	if (pid != 0 && was_dumpable) {
		int saved = errno;
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		errno = saved;
	}
	return pid;
}

int ct_stay_undumpable(void)
{
	return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}
