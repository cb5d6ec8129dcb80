#ifndef CT_MOUNTCHECK_PLAN_H
#define CT_MOUNTCHECK_PLAN_H

#include "libct/base/error.h"

struct ct_init_plan;

/* Builds the expectations of plan (its mounts, the cgroup v1 hierarchies, device nodes bound
 * from the host, masked and read-only paths, /dev/console, the read-only root) into
 * plan->verify.expect. Parent side. */
int ct_mountcheck_plan(struct ct_init_plan *plan, struct ct_error *err);

#endif
