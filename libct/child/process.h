/* The user process's attributes, applied in the child by the container init (init.c) and
 * by exec (exec.c) from the same plan fields (plan.h, filled by spawn_plan.c): keyring,
 * oom_score_adj, rlimits, scheduling, terminal, LSM label, seccomp, user and capabilities,
 * cwd, the executable, inherited fds, and the execve itself. */
#ifndef CT_PROCESS_H
#define CT_PROCESS_H

#include <stdbool.h>
#include <stddef.h>

#include "libct/base/error.h"
#include "libct/child/steps.h"
#include "libct/plan/plan.h"

/* Whether the process's set-up writes to /proc (oom_score_adj, an LSM label): only then is
 * a private procfs worth making (libct/fs/procfs.h). */
bool ct_process_writes_proc(const struct oci_process *p);

/* The rows of the set-up tables (libct/child/steps.h), the init's and exec's, in the order
 * they take there. The session keyring "_ses.<id>", unless --no-new-keyring: */
extern const struct ct_step ct_process_keyring;
/* While still privileged: oom_score_adj, rlimits, scheduler/ioPriority/memoryPolicy and the
 * terminal (its master goes to the parent over the sync socket): a group of rows. */
extern const struct ct_step ct_process_early;
/* The rest before the process may run, a group of rows: HOME from the container's
 * /etc/passwd, the LSM label, seccomp at its point, user, groups and capabilities with
 * no_new_privs, the cwd (resolved inside the root), the executable found in the container's
 * PATH (into ctx->exe; a failure sets ctx->exec_failed: 127/126), the late memory cgroup,
 * the fds, personality. */
extern const struct ct_step ct_process_late;

/* The last steps: default signal dispositions and the mask of the process, the seccomp
 * filter where its point is right before execve, then execve. Returns only on failure,
 * with err set: -1 when the filter failed, else the exit status for a command that could
 * not be exec'd (ct_process_exec_status). */
int ct_process_exec(const struct ct_plan_process *proc, int sync_fd, const char *exe,
		    struct ct_error *err);

/* Exit status for a command that could not be exec'd, as shells and runc say it: 127 when
 * it is not there, 126 otherwise. */
int ct_process_exec_status(int errnum);

#endif
