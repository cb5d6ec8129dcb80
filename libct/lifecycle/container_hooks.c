/* The hooks the runtime runs itself after create (hooks/hooks.h): poststart in the runtime
 * namespace once the user process has been executed, poststop once the container is gone.
 * They come from state.json (struct ct_state), never from the bundle again. */
#include <stdlib.h>

#include "hooks/hooks.h"
#include "libct/lifecycle/container.h"
#include "libct/lifecycle/log.h"

int ct_container_poststart(struct ct_container *c, struct ct_error *err)
{
	if (!c->state.hooks.poststart.len)
		return 0;
	char *state;
	if (ct_state_format_compact(&c->state, "running", c->state.pid, &state, err) < 0)
		return -1;
	int rc = ct_hooks_run(&c->state.hooks, CT_HOOK_POSTSTART, state, err);
	free(state);
	return rc;
}

static void warn_hook(void *id, const char *msg)
{
	ct_log(CT_LOG_WARNING, "delete container \"%s\": %s", ct_shown_id(id).s, msg);
}

void ct_container_poststop(const struct ct_container *c)
{
	if (!c->state.hooks.poststop.len)
		return;
	char *state;
	struct ct_error err = {0};
	/* gen_runc_state shows pid 0 once stopped, as `ctrun state` does */
	if (ct_state_format_compact(&c->state, "stopped", 0, &state, &err) < 0) {
		warn_hook(c->state.id, err.msg);
		return;
	}
	ct_hooks_run_all(&c->state.hooks, CT_HOOK_POSTSTOP, state, warn_hook, c->state.id);
	free(state);
}
