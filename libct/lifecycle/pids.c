/* The processes of a container, as `ps` lists them. */
#include "libct/lifecycle/pids.h"

#include <errno.h>

#include "libct/lifecycle/container.h"
#include "libct/lifecycle/container_cgroup.h"

int ct_container_pids(const struct ct_lifecycle_opts *lc, const char *id, pid_t **pids, size_t *n,
		      struct ct_error *err)
{
	struct ct_container c;
	struct ct_cgroup *cg = NULL;
	int rc = ct_container_open(lc, id, false, &c, err);
	if (rc == 0)
		rc = ct_container_cgroup_open(&c.state, &cg, err);
	if (rc == 0 && !cg)
		rc = ct_error_set_plain(err, ENOENT,
					"container \"%s\" has no cgroup to list "
					"(created with --cgroup-manager disabled)",
					ct_shown_id(id).s);
	if (rc == 0)
		rc = ct_cgroup_list_pids(cg, pids, n, err);
	ct_cgroup_free(cg);
	ct_container_close(&c);
	return rc;
}
