/* The container init into its cgroup, the parent's side (libct/parent/spawn_cgroup.c). */
#ifndef CT_SPAWN_CGROUP_H
#define CT_SPAWN_CGROUP_H

#include <stdbool.h>

#include "libct/base/error.h"
#include "libct/plan/plan.h"

/* The REST part of a cgroup made in two parts (ct_spawn_opts.cgroup_rest), with the
 * resources applied: the init joins none of those hierarchies before they hold its limits
 * and device rules. */
int ct_spawn_make_cgroup_rest(const struct ct_spawn_opts *o, struct ct_error *err);

/* Before the clone: the rest of a two-part cgroup when the init has nothing to overlap it
 * with, made as a whole cgroup is, and the init's `tasks` opened. */
int ct_spawn_cgroup_before_clone(const struct ct_spawn_opts *o, struct ct_init_plan *plan,
				 struct ct_error *err);

/* After the clone: what the init does not join itself, then CGROUP_READY (with the `tasks`
 * fds of the hierarchies made after the clone). A failure to make those kills the init. */
int ct_spawn_place_init(const struct ct_init_plan *plan, struct ct_spawned *out,
			struct ct_error *err);

/* Whether the v1 memory hierarchy is the parent's to write after READY: the init could not
 * join it itself (ct_init_plan.cgroup.join_late empty). */
bool ct_spawn_memory_left_to_parent(const struct ct_init_plan *plan);

/* After READY: the memory hierarchy, unless the init joined it itself. */
int ct_spawn_place_init_late(const struct ct_init_plan *plan, const struct ct_spawned *out,
			     struct ct_error *err);

#endif
