/* The user process's attributes, applied in the child by the container init (init.c) and
 * by exec (exec.c) from the same plan fields (plan.h, filled by spawn_plan.c): keyring,
 * oom_score_adj, rlimits, scheduling, terminal, LSM label, seccomp, user and capabilities,
 * cwd, the executable, inherited fds, and the execve itself. */
#ifndef CT_PROCESS_H
#define CT_PROCESS_H

#include <stdbool.h>
#include <stddef.h>

#include "libct/base/error.h"
#include "libct/plan/plan.h"

/* Whether the process's set-up writes to /proc (oom_score_adj, an LSM label): only then is
 * a private procfs worth making (libct/fs/procfs.h). */
bool ct_process_writes_proc(const struct oci_process *p);

/* The session keyring "_ses.<id>", unless --no-new-keyring. */
int ct_process_join_keyring(struct ct_init_plan *plan, struct ct_error *err);

/* While still privileged: oom_score_adj, rlimits, scheduler/ioPriority/memoryPolicy and the
 * terminal (its master goes to the parent over plan->sync_fd). */
int ct_process_setup_early(struct ct_init_plan *plan, struct ct_error *err);

/* The rest before the process may run: LSM label, seccomp (at its point), user, groups and
 * capabilities, no_new_privs, cwd (resolved inside the root), the executable found in the
 * container's PATH (into exe), fds, personality. *exec_failed tells a missing or
 * unexecutable command (127/126) from any other failure. */
int ct_process_setup_late(struct ct_init_plan *plan, char *exe, size_t exe_size, bool *exec_failed,
			  struct ct_error *err);

/* The last steps: default signal dispositions and the mask of the process, the seccomp
 * filter where its point is right before execve, then execve. Returns only on failure,
 * with err set: -1 when the filter failed, else the exit status for a command that could
 * not be exec'd (ct_process_exec_status). */
int ct_process_exec(struct ct_init_plan *plan, const char *exe, struct ct_error *err);

/* Exit status for a command that could not be exec'd, as shells and runc say it: 127 when
 * it is not there, 126 otherwise. */
int ct_process_exec_status(int errnum);

#endif
