/* `pause` and `resume` of an existing container (libct/lifecycle/ops.h): the cgroup freezer,
 * as runc's (a created or running container can be paused, only a paused one resumed). */
#include "libct/lifecycle/container.h"
#include "libct/lifecycle/container_cgroup.h"
#include "libct/lifecycle/log.h"
#include "libct/lifecycle/ops.h"

static int set_frozen(struct ct_container *c, bool frozen, struct ct_error *err)
{
	struct ct_cgroup *cg = NULL;
	int rc = ct_container_cgroup_require(&c->state, " to freeze", &cg, err);
	if (rc == 0)
		rc = ct_cgroup_freeze(cg, frozen, err);
	ct_cgroup_free(cg);
	return rc;
}

static bool may_become(enum ct_status status, bool paused)
{
	return paused ? status == CT_STATUS_RUNNING || status == CT_STATUS_CREATED
		      : status == CT_STATUS_PAUSED;
}

int ct_lifecycle_set_paused(const struct ct_lifecycle_opts *lc, const char *id, bool paused)
{
	const char *verb = paused ? "pause" : "resume";
	struct ct_container c;
	struct ct_error err = {0};
	int rc = 0;
	if (ct_container_open(lc, id, true, &c, &err) < 0) {
		rc = ct_lifecycle_fail(verb, id, &err);
	} else if (!may_become(c.status, paused)) {
		ct_log(CT_LOG_ERROR, "%s container \"%s\": cannot %s a container that is %s", verb,
		       ct_shown_id(id).s, verb, ct_status_name(c.status));
		rc = -1;
	} else if (set_frozen(&c, paused, &err) < 0) {
		rc = ct_lifecycle_fail(verb, id, &err);
	}
	ct_container_close(&c);
	return rc;
}
