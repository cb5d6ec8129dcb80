/* The container's cgroup v1 hierarchies as its "cgroup" mount binds them (libct/rootfs.c):
 * detached copies of its directories, made by the parent from the O_PATH fds it holds, and
 * attached by the init with move_mount. A copy of an fd walks no path; a bind of the long
 * host path (/sys/fs/cgroup/<h>/.../<leaf>) leaves RCU walk in kernfs and, with containers
 * starting side by side, waits on the lock their cgroup mkdirs and rmdirs take. The init
 * cannot copy the parent's fds itself (another mount namespace: EINVAL), but a detached
 * mount may be attached in any. Without copies (the new mount API missing or refused, a
 * user namespace, whose binds must keep their source's locked flags) the init binds the
 * paths, as before. */
#ifndef CT_CGROUP_COPIES_H
#define CT_CGROUP_COPIES_H

#include <stddef.h>

#include "libct/error.h"
#include "libct/spawn.h"

/* In the parent: copies, with the "cgroup" mount's flags, of the hierarchies whose
 * directories exist and have none yet; all of them or none (a failure leaves the init
 * its path binds). fds, when not NULL, receives the new ones in the hierarchies' order
 * (room for max), *n their count. */
void ct_cgroup_copies_make(struct ct_init_plan *plan, int *fds, size_t max, size_t *n);

/* In the init: the n copies the parent made after the clone, passed with CGROUP_READY in the
 * same order: none, or one for each hierarchy still without (else EPROTO, all closed). */
int ct_cgroup_copies_adopt(struct ct_init_plan *plan, const int *fds, size_t n,
			   struct ct_error *err);

#endif
