/* `kill` of an existing container (libct/lifecycle/ops.h). */
#include "libct/lifecycle/container.h"
#include "libct/lifecycle/kill_all.h"
#include "libct/lifecycle/log.h"
#include "libct/lifecycle/ops.h"

static int send_signal(struct ct_container *c, int sig, bool all, struct ct_error *err)
{
	if (ct_container_attach(c, err) < 0)
		return -1;
	if (all)
		return ct_kill_all(c, sig, err);
	return ct_container_signal(c, sig, err);
}

int ct_lifecycle_kill(const struct ct_lifecycle_opts *lc, const char *id, int sig, bool all)
{
	struct ct_container c;
	struct ct_error err = {0};
	int rc = 0;
	if (ct_container_open(lc, id, false, &c, &err) < 0) {
		rc = ct_lifecycle_fail("kill", id, &err);
	} else if (c.status == CT_STATUS_STOPPED && all) {
		if (ct_kill_leftovers(&c, sig, &err) < 0)
			rc = ct_lifecycle_fail("kill", id, &err);
	} else if (c.status == CT_STATUS_STOPPED) {
		ct_log(CT_LOG_ERROR, "kill container \"%s\": container not running",
		       ct_shown_id(id).s);
		rc = -1;
	} else if (send_signal(&c, sig, all, &err) < 0) {
		rc = ct_lifecycle_fail("kill", id, &err);
	}
	ct_container_close(&c);
	return rc;
}
