/* The pid a pidfd refers to, as the caller's pid namespace numbers it. */
#ifndef CT_PIDFD_PID_H
#define CT_PIDFD_PID_H

#include <sys/types.h>

/* The "Pid:" of /proc/self/fdinfo/PIDFD (Linux 5.3+): the process as this /proc's pid
 * namespace sees it, whoever made the pidfd and in whichever namespace. A pid another
 * process reports is its own namespace's: a joiner in the container's pid namespace says
 * 3 for what the host calls 32258. Returns -1 with errno set (ENOENT: no such line, ESRCH:
 * the process is gone or outside this namespace). */
int ct_pidfd_pid(int pidfd, pid_t *pid);

#endif
