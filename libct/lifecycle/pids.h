#ifndef CT_PIDS_H
#define CT_PIDS_H

#include <stddef.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "libct/lifecycle/opts.h"

/* The pids of container id (ps), from its cgroup: -1 with err, ENOENT when it has none. */
int ct_container_pids(const struct ct_lifecycle_opts *lc, const char *id, pid_t **pids, size_t *n,
		      struct ct_error *err);

#endif
