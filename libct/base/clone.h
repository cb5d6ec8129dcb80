#ifndef CT_CLONE_H
#define CT_CLONE_H

#include <stdbool.h>
#include <sys/types.h>

/* clone3(CLONE_PIDFD | flags) with the clone() and pidfd_open() fallbacks: the pid (0 in
 * the child) or -1 with errno; *method names the call that worked (static storage).
 */
pid_t ct_clone_pidfd(unsigned long flags, int *pidfd, const char **method);
/* The same, born in the cgroup2 directory cgroup_fd (clone3 CLONE_INTO_CGROUP) when it is
 * >= 0 and the kernel takes it: *born says so; otherwise the caller writes cgroup.procs
 * (ct_cgroup_enter) before the child runs anything of the container's. */
pid_t ct_clone_pidfd_into(unsigned long flags, int cgroup_fd, int *pidfd, const char **method,
			  bool *born);
/* ct_clone_pidfd_into() of a child born not dumpable (PR_SET_DUMPABLE 0), as every process
 * that enters a container must be until its last execve, which makes it dumpable again: its
 * fds, memory and /proc files stay out of the container's reach while they are ctrun's. */
pid_t ct_clone_undumpable_into(unsigned long flags, int cgroup_fd, int *pidfd, const char **method,
			       bool *born);
/* After a change of ids (setresuid, setresgid) in such a child: the kernel set the flag to
 * fs.suid_dumpable, which a host may have made 1 (dumpable); 0 again, whatever it was. */
int ct_stay_undumpable(void);

#endif
