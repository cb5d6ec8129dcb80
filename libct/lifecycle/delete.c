/* `delete` of an existing container (libct/lifecycle/ops.h). */
#include <errno.h>
#include <signal.h>

#include "libct/lifecycle/container.h"
#include "libct/lifecycle/kill_all.h"
#include "libct/lifecycle/log.h"
#include "libct/lifecycle/ops.h"
#include "libct/state/pidns.h"

/* delete --force: SIGKILL through the init's pidfd, then wait on that pidfd (no sleeps). An
 * init that leads its own pid namespace takes the rest of it along, so it alone is signalled
 * (as runc does); otherwise, or when paused (a frozen task dies only once thawed), every
 * process of the cgroup is, which on cgroup v1 means freezing it first. */
static int kill_and_wait(struct ct_container *c, struct ct_error *err)
{
	if (ct_container_attach(c, err) < 0)
		return err->errnum == ESRCH ? 0 : -1; /* exited since we looked: nothing to kill */
	if (c->status != CT_STATUS_PAUSED && ct_proc_leads_pid_ns(c->proc.pid)) {
		if (ct_container_signal(c, SIGKILL, err) < 0 && err->errnum != ESRCH)
			return -1;
	} else if (ct_kill_all(c, SIGKILL, err) < 0) {
		return -1;
	}
	return ct_container_wait_exit(c, err);
}

int ct_lifecycle_delete(const struct ct_lifecycle_opts *lc, const char *id, bool force)
{
	struct ct_container c;
	struct ct_error err = {0};
	int rc = 0;
	if (ct_container_open(lc, id, true, &c, &err) < 0) {
		/* --force on a container that is already gone: idempotent clean-up */
		rc = force && err.errnum == ENOENT ? 0 : ct_lifecycle_fail("delete", id, &err);
	} else if (c.status != CT_STATUS_STOPPED && !force) {
		/* runtime.md#delete: deleting a container that is not stopped is an error */
		ct_log(CT_LOG_ERROR,
		       "delete container \"%s\": container is %s, not stopped "
		       "(use --force)",
		       ct_shown_id(id).s, ct_status_name(c.status));
		rc = -1;
	} else if (c.status != CT_STATUS_STOPPED && kill_and_wait(&c, &err) < 0) {
		rc = ct_lifecycle_fail("delete", id, &err);
	} else if (ct_container_destroy(&c, &err) < 0) {
		rc = ct_lifecycle_fail("delete", id, &err);
	} else {
		ct_container_poststop(&c); /* after the container is deleted (config.md) */
	}
	ct_container_close(&c);
	return rc;
}
