/* The placement strategy of a container's start (struct ct_placement, libct/plan/plan.h):
 * which costly steps move from the plain sequence so that the parent's work and the
 * init's overlap, chosen once from the plan's namespaces, cgroup, seccomp and hooks. */
#ifndef CT_PLACEMENT_H
#define CT_PLACEMENT_H

#include "libct/plan/plan.h"

/* Fills plan->place and takes the namespaces the init makes itself out of
 * plan->ns.unshare_flags. After the namespaces, the process (seccomp) and plan->cgroup.fd are
 * planned, before the cgroup's `tasks` files are opened (they follow the placement). */
void ct_placement_choose(struct ct_init_plan *plan);

#endif
