/* The spec's way out of a failed start (runtime.md#lifecycle steps 7-9 -> 12-13): what
 * start and run do when a startContainer or poststart hook fails. */
#include "libct/lifecycle/container_abort.h"

#include <signal.h>

#include "libct/lifecycle/kill_all.h"
#include "libct/lifecycle/log.h"

void ct_container_abort_start(struct ct_container *c)
{
	struct ct_error ignored = {0};
	if (ct_container_attach(c, &ignored) == 0 && ct_kill_all(c, SIGKILL, &ignored) == 0)
		ct_container_wait_exit(c, &ignored);
	if (ct_container_destroy(c, &ignored) < 0)
		ct_log(CT_LOG_ERROR, "delete container \"%s\": %s", ct_shown_id(c->state.id).s,
		       ignored.msg);
	ct_container_poststop(c);
}
