#include "libct/cgroup_copies.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "libct/cgroup/cgroup.h"
#include "libct/mountfd.h"

/* The flags of the config's "cgroup" mount of a v1 host (mount_planned in libct/rootfs.c
 * makes its hierarchies), NULL without one. A second such mount binds the paths: the
 * first attaches the copies. */
static const struct ct_mount_flags *v1_mount_flags(const struct ct_init_plan *plan)
{
	if (plan->cgroup2_host)
		return NULL;
	for (size_t i = 0; i < plan->n_mounts; i++) {
		const struct ct_planned_mount *m = &plan->mounts[i];
		if (m->is_cgroup && !m->flags.bind && strcmp(m->type, "cgroup2") != 0)
			return &m->flags;
	}
	return NULL;
}

/* A hierarchy the container binds its own directory of, and not copied yet. */
static bool wants_copy(const struct ct_cgroup_hierarchy *h)
{
	return h->bind && h->copy < 0;
}

/* A failure part way: the copies of this call go, the init binds those paths. */
static void drop_copies(struct ct_init_plan *plan, const size_t *made, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		close(plan->cgroup_v1[made[k]].copy);
		plan->cgroup_v1[made[k]].copy = -1;
	}
}

void ct_cgroup_copies_make(struct ct_init_plan *plan, int *fds, size_t max, size_t *n)
{
	const struct ct_cgroup *cg = plan->opts->cgroup;
	const struct ct_mount_flags *f = v1_mount_flags(plan);
	*n = 0;
	if (!cg || !f || plan->userns || ct_mount_api_used() == CT_MOUNT_API_LEGACY)
		return;
	size_t made[plan->n_cgroup_v1 + 1], k = 0;
	for (size_t i = 0; i < plan->n_cgroup_v1; i++) {
		struct ct_cgroup_hierarchy *h = &plan->cgroup_v1[i];
		int dir = wants_copy(h) ? ct_cgroup_dir_fd(cg, h->key) : -1;
		if (dir < 0)
			continue;
		if ((fds && k == max) || (h->copy = ct_mount_bind_copy(dir, f)) < 0) {
			drop_copies(plan, made, k);
			return;
		}
		if (fds)
			fds[k] = h->copy;
		made[k++] = i;
	}
	*n = k;
}

int ct_cgroup_copies_adopt(struct ct_init_plan *plan, const int *fds, size_t n,
			   struct ct_error *err)
{
	size_t want = 0;
	for (size_t i = 0; i < plan->n_cgroup_v1; i++)
		want += wants_copy(&plan->cgroup_v1[i]);
	if (n && n != want) {
		for (size_t i = 0; i < n; i++)
			close(fds[i]);
		return ct_error_set_plain(
			err, EPROTO, "cgroup v1 hierarchy copies: %zu passed for %zu", n, want);
	}
	for (size_t i = 0, k = 0; i < plan->n_cgroup_v1 && k < n; i++)
		if (wants_copy(&plan->cgroup_v1[i]))
			plan->cgroup_v1[i].copy = fds[k++];
	return 0;
}
