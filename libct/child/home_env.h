/* HOME for a process whose process.env has none (or an empty one), as runc and crun set
 * it: the home directory of process.user.uid's entry in the container's /etc/passwd, "/"
 * when the file or the entry is missing. Read by the init (or the exec'd process) in the
 * container's root after its mounts, as the process will see it (a bind over /etc/passwd
 * counts), as root before the identity switch: symlinks stay inside the root; a file that
 * is not regular (a masked path's /dev/null, a FIFO, a directory) is never opened and
 * counts as none; one larger than CT_PASSWD_MAX is refused with one error. */
#ifndef CT_HOME_ENV_H
#define CT_HOME_ENV_H

#include "libct/base/error.h"
#include "libct/plan/plan.h"

/* Sets proc->envp[proc->home_slot] when proc->needs_home; the cwd's root is the
 * container's. */
int ct_home_env_apply(struct ct_plan_process *proc, struct ct_error *err);

#endif
