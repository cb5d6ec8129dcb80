#include "libct/parent/placement.h"

#include <sched.h>

#include "libct/cgroup/cgroup.h"

/* A new network namespace costs more than the rest of the clone (its loopback device):
 * made by the init itself, it overlaps the parent's cgroup and state writes. Not in a user
 * namespace, which must own it (made at clone, or by the joiner), nor when the init is born
 * into a cgroup2 directory that accounts memory from the start (no late memory join,
 * libct/cgroup/cgroup.h): then clone3 makes it, charged to the runtime, else a tiny memory
 * limit could not even hold it. */
static bool early_netns(const struct ct_init_plan *plan)
{
	struct ct_cgroup *cg = plan->opts->cgroup;
	if (!(plan->ns.unshare_flags & CLONE_NEWNET) || plan->ns.userns)
		return false;
	return !(cg && plan->cgroup.fd >= 0 && !ct_cgroup_late_key(cg));
}

/* A memory limit the set-up's own memory could crowd out (what the late join is for). */
static bool memory_limited(const struct oci_resources *r)
{
	const struct oci_memory *m = &r->memory;
	return (m->has_limit && m->limit > 0) || (m->has_swap && m->swap > 0);
}

/* The init joins its v1 hierarchies by itself, without the lock a parent's write takes
 * (ct_cgroup_self_join). The late one (memory) too, after the set-up, unless by then a
 * seccomp filter (loaded before the identity change) or an LSM label could refuse it the
 * write: the parent writes it then, after READY. Without a memory limit it joins memory
 * first of all instead: the kernel objects of its set-up (its network namespace, its
 * mounts) live as long as the container and are charged to the container, not to the
 * caller's cgroup, and /proc/self/cgroup shows its memory cgroup as the cgroup namespace's
 * root, as the others. */
static void place_memory(const struct ct_init_plan *plan, struct ct_placement *place)
{
	struct ct_cgroup *cg = plan->opts->cgroup;
	const struct oci_process *p = &plan->config->process;
	if (!cg || !ct_cgroup_late_key(cg))
		return;
	place->memory_first = !memory_limited(&plan->config->linux_.resources);
	bool refusable = (plan->process.seccomp.insns &&
			  plan->process.seccomp_point == CT_SECCOMP_BEFORE_IDENTITY) ||
			 (p->apparmor_profile && *p->apparmor_profile) ||
			 (p->selinux_label && *p->selinux_label);
	place->memory_by_parent = refusable && !place->memory_first;
}

/* The rest of a cgroup made in two parts (ct_spawn_opts.cgroup_rest) is made after the clone
 * when the init has its own work to overlap it with (its network namespace), on a second
 * CPU when one is free, unless the init joins memory first while the config writes memory
 * files: those must be there before it joins (the memory directory is made before the
 * clone, but its files are written with the rest). */
static bool cgroup_rest_after_clone(const struct ct_init_plan *plan,
				    const struct ct_placement *place)
{
	const struct ct_spawn_opts *o = plan->opts;
	return o->cgroup_rest && !ct_cgroup_waits_for_init(o->cgroup) && place->early_netns &&
	       !(place->memory_first && o->cgroup_rest->has_memory);
}

/* run: START is sent once the caller's own work is done, before READY, so that the init
 * finds it waiting and goes on to its execve without a round trip through the parent (two
 * wake-ups across CPUs). Only when nothing the parent does once the init runs can still
 * fail the create: the caller's say, no createRuntime hooks answered before READY, no
 * memory cgroup left for the parent to write, no seccomp notify fd to hand to the agent
 * (its forwarding fails when no agent listens, and the program must not have run by
 * then), no network device to move (the init waits for the parent's word on them). */
static bool start_early(const struct ct_init_plan *plan, const struct ct_placement *place)
{
	const struct ct_spawn_opts *o = plan->opts;
	const struct oci_hooks *h = &o->config->hooks;
	return o->start == CT_START_SYNC && o->start_early && !h->prestart.len &&
	       !h->create_runtime.len && !place->memory_by_parent && !plan->process.seccomp.notify &&
	       !o->config->linux_.net_devices.len;
}

void ct_placement_choose(struct ct_init_plan *plan)
{
	struct ct_placement *place = &plan->place;
	place->early_netns = early_netns(plan);
	/* The root of a new IPC namespace's mqueue belongs to the ids of whoever made it: made
	 * at clone as the caller (unmapped inside: 65534), so made by the init once it is root
	 * in the user namespace (/dev/mqueue owned by 0:0, as under crun). */
	place->late_ipcns = (plan->ns.unshare_flags & CLONE_NEWIPC) && plan->ns.userns;
	/* made in the cgroup, its root is the container's cgroup, not the runtime's */
	place->late_cgroupns = plan->opts->cgroup && (plan->ns.unshare_flags & CLONE_NEWCGROUP);
	place_memory(plan, place);
	place->cgroup_rest_after_clone = cgroup_rest_after_clone(plan, place);
	place->start_early = start_early(plan, place);
	if (place->early_netns)
		plan->ns.unshare_flags &= ~(unsigned long)CLONE_NEWNET;
	if (place->late_ipcns)
		plan->ns.unshare_flags &= ~(unsigned long)CLONE_NEWIPC;
	if (place->late_cgroupns)
		plan->ns.unshare_flags &= ~(unsigned long)CLONE_NEWCGROUP;
}
