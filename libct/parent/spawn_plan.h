/* The parent's half of spawning: the parsed config turned into a plan (libct/plan/plan.h)
 * that the child applies without parsing, allocating or looking anything up by name. */
#ifndef CT_SPAWN_PLAN_H
#define CT_SPAWN_PLAN_H

#include <sys/types.h>

#include "libct/base/error.h"
#include "libct/plan/plan.h"

/* Socket activation (sd_listen_fds(3)) as runc honours it: the number of fds from 3 on
 * that LISTEN_FDS hands to the container, or 0. They are ctrun's only when LISTEN_PID is
 * unset or names `self`: set to another pid, they were meant for that process, which
 * passed the variables on without clearing them. LISTEN_FDS must be a count of 1..65536.
 * Pure; ct_listen_fds() asks it about ctrun's own environment and pid. */
int ct_listen_fds_count(const char *listen_fds, const char *listen_pid, pid_t self);
int ct_listen_fds(void);

/* The plan of the init, from the config. */
int ct_init_plan_build(const struct ct_spawn_opts *opts, struct ct_init_plan *plan,
		       struct ct_error *err);
/* Opens the `tasks` of the v1 hierarchies the init joins itself (plan->cgroup.join) once
 * they exist; nothing when they are made after the clone (cgroup_rest_after_clone). */
int ct_init_plan_open_cgroup_join(struct ct_init_plan *plan, struct ct_error *err);
void ct_init_plan_free(struct ct_init_plan *plan);
/* A plan freed when its scope ends; ct_init_plan_build and ct_exec_plan_build first make it
 * safe to free, whatever else fails. */
#define _cleanup_init_plan_ __attribute__((cleanup(ct_init_plan_free)))
/* The plan of a process exec'd into an existing container (libct/parent/exec.h): the process's
 * attributes only, no namespaces, mounts or fifo. Freed by ct_init_plan_free(). */
int ct_exec_plan_build(const struct ct_spawn_opts *opts, struct ct_init_plan *plan,
		       struct ct_error *err);
/* For a process that will join a user namespace the plan did not know of (exec): it starts
 * there with the full bounding set, not ctrun's. */
void ct_plan_enters_user_ns(struct ct_init_plan *plan);
/* opts->process_path or its default. */
const char *ct_process_path(const struct ct_spawn_opts *opts);

/* Capability name ("CAP_KILL" or "kill") -> number, -1 when unknown. Pure. */
int ct_capability_from_name(const char *name);

#endif
