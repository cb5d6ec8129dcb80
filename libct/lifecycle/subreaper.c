#include "libct/lifecycle/subreaper.h"

#include <errno.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

int ct_subreaper_become(struct ct_error *err)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return ct_error_sys(err, errno, "become a child subreaper");
	return 0;
}

/* The pid of the exited child that waitid() would give next, left unreaped; 0 for none. */
static pid_t next_exited(idtype_t type, id_t id)
{
	siginfo_t info = {0};
	if (waitid(type, id, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
		return 0;
	return info.si_pid;
}

/* The process of pidfd is asked after the exited child is found, not before: it may exit
 * in between, and would then be taken for an orphan and its status lost to the caller. */
void ct_reap_orphans(int pidfd)
{
	if (pidfd < 0)
		return;
	for (pid_t pid; (pid = next_exited(P_ALL, 0)) && pid != next_exited(P_PIDFD, (id_t)pidfd);)
		if (waitpid(pid, NULL, WNOHANG) <= 0)
			break;
}
