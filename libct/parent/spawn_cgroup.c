/* The parent's side of putting the container init in its cgroup (libct/plan/sync.h): the part
 * of a two-part v1 cgroup made while the init makes its network namespace, CGROUP_READY
 * with the `tasks` fds the init joins through, and the memory hierarchy after READY. */
#include "libct/parent/spawn_cgroup.h"

#include "libct/cgroup/cgroup.h"
#include "libct/parent/spawn_plan.h"
#include "libct/parent/spawned.h"
#include "libct/plan/sync.h"

int ct_spawn_make_cgroup_rest(const struct ct_spawn_opts *o, struct ct_error *err)
{
	if (ct_cgroup_create_part(o->cgroup, CT_CGROUP_REST, err) < 0)
		return -1;
	return ct_cgroup_apply(o->cgroup, o->cgroup_rest, CT_CGROUP_APPLY_CREATE, err);
}

/* The rest refused (a resource this host has no file for, a directory that is another's)
 * fails the create as it would made before the clone: the init, which ran nothing of the
 * container's yet, goes and counts as never spawned (no poststop hooks,
 * libct/lifecycle/container.c). */
static int make_cgroup_rest_after_clone(const struct ct_spawn_opts *o, struct ct_spawned *out,
					struct ct_error *err)
{
	if (ct_spawn_make_cgroup_rest(o, err) == 0)
		return 0;
	ct_spawned_kill(out);
	out->pid = -1;
	return -1;
}

/* Without work of its own for the init to overlap it with, the rest is made as a whole cgroup
 * is, before the clone, and the init's `tasks` opened. */
int ct_spawn_cgroup_before_clone(const struct ct_spawn_opts *o, struct ct_init_plan *plan,
				 struct ct_error *err)
{
	if (!o->cgroup_rest || plan->place.cgroup_rest_after_clone ||
	    ct_cgroup_waits_for_init(o->cgroup))
		return 0;
	if (ct_spawn_make_cgroup_rest(o, err) < 0)
		return -1;
	return ct_init_plan_open_cgroup_join(plan, err);
}

/* The init waits (libct/plan/sync.h) until it is in every directory of its cgroup but the one
 * it joins once set up (ct_cgroup_late_key); born into the cgroup2 one with clone3, it
 * joins the v1 ones itself (plan->cgroup.join), what is left is written here. A joiner's
 * init may or may not have been born there: moving a process into the cgroup it is in
 * changes nothing. */
static int place_init(const struct ct_init_plan *plan, const struct ct_cgroup_self_join *j,
		      const struct ct_spawned *out, struct ct_error *err)
{
	struct ct_cgroup *cg = plan->opts->cgroup;
	if (ct_cgroup_enter_others(cg, out->pid, out->born_in_cgroup, ct_cgroup_late_key(cg), j,
				   err) < 0)
		return ct_error_prefix(err, "place the container init in its cgroup");
	return 0;
}

/* The v1 directories made after the clone, while the init makes its network namespace:
 * their `tasks` go to the init with CGROUP_READY (opened here through the directories'
 * fds, where the init would walk each long path again). */
static int place_init_after_rest(const struct ct_init_plan *plan, struct ct_spawned *out,
				 struct ct_error *err)
{
	const struct ct_spawn_opts *o = plan->opts;
	struct ct_cgroup_self_join j = {.n = 0};
	if (make_cgroup_rest_after_clone(o, out, err) < 0 ||
	    ct_cgroup_self_join_open(o->cgroup, ct_cgroup_late_key(o->cgroup), &j, err) < 0)
		return -1;
	out->cgroup_after_clone = true;
	int rc = place_init(plan, &j, out, err);
	if (rc == 0)
		rc = ct_sync_send_cgroup_ready_fds(out->sync_fd, j.fds, j.n, err);
	ct_cgroup_self_join_close(&j);
	return rc;
}

/* The systemd driver: the unit is started with the init in it, then limited (the init,
 * which ran nothing of the container's yet, goes when that fails). */
static int place_init_in_unit(const struct ct_init_plan *plan, struct ct_spawned *out,
			      struct ct_error *err)
{
	const struct ct_spawn_opts *o = plan->opts;
	if (ct_cgroup_systemd_start(o->cgroup, out->pid, o->cgroup_rest, err) < 0) {
		ct_spawned_kill(out);
		out->pid = -1;
		return -1;
	}
	return ct_sync_send_cgroup_ready(out->sync_fd, err);
}

int ct_spawn_place_init(const struct ct_init_plan *plan, struct ct_spawned *out,
			struct ct_error *err)
{
	if (!plan->opts->cgroup)
		return 0;
	if (ct_cgroup_waits_for_init(plan->opts->cgroup))
		return place_init_in_unit(plan, out, err);
	if (plan->place.cgroup_rest_after_clone)
		return place_init_after_rest(plan, out, err);
	if (place_init(plan, &plan->cgroup.join, out, err) < 0)
		return -1;
	return ct_sync_send_cgroup_ready(out->sync_fd, err);
}

/* After READY: the set-up's memory stays charged where it was made, so even a tiny limit
 * leaves room for the execve of the user process. Unless the init joined it itself, at the
 * end of its set-up (plan->cgroup.join_late). */
bool ct_spawn_memory_left_to_parent(const struct ct_init_plan *plan)
{
	struct ct_cgroup *cg = plan->opts->cgroup;
	return cg && !plan->cgroup.join_late.n && ct_cgroup_late_key(cg);
}

int ct_spawn_place_init_late(const struct ct_init_plan *plan, const struct ct_spawned *out,
			     struct ct_error *err)
{
	struct ct_cgroup *cg = plan->opts->cgroup;
	if (ct_spawn_memory_left_to_parent(plan) &&
	    ct_cgroup_add_pid_to(cg, ct_cgroup_late_key(cg), out->pid, err) < 0)
		return ct_error_prefix(err, "place the container init in its cgroup");
	return 0;
}
