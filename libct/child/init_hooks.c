/* The container init's side of the hooks (libct/child/init_hooks.h). The hooks it runs are its
 * own children, so they are in every namespace of the container (a new pid namespace
 * included) without joining anything, as config.md wants for createContainer and
 * startContainer. createContainer runs before pivot_root, where the init's root is still
 * the host's: its path resolves in the runtime namespace. startContainer runs after it, so
 * its path resolves in the container. */
#include "libct/child/init_hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hooks/hooks.h"
#include "libct/plan/sync.h"

/* The state as the container sees it: runtime.md#state gives a hook in the container
 * namespace the pid as seen there (1 in a new pid namespace). */
static int run_in_container(const struct ct_plan_hooks *hooks, enum ct_hook_kind kind,
			    const char *status, struct ct_error *err)
{
	const struct oci_hooks *h = hooks->hooks;
	if (!ct_hook_list(h, kind)->len)
		return 0;
	char *state;
	if (ct_state_format_compact(hooks->state, status, getpid(), &state, err) < 0)
		return -1;
	int rc = ct_hooks_run(h, kind, state, err);
	free(state);
	return rc;
}

static int run_create_hooks(const struct ct_plan_hooks *hooks, const struct ct_plan_sync *sync,
			    struct ct_error *err)
{
	const struct oci_hooks *h = hooks->hooks;
	if (h->prestart.len || h->create_runtime.len) {
		if (ct_sync_send_create_hooks(sync->fd, err) < 0 ||
		    ct_sync_expect(sync->fd, CT_SYNC_HOOKS_DONE, "the createRuntime hooks", err) <
			    0)
			return -1;
	}
	/* runtime.md#state: "creating" until create has finished */
	return run_in_container(hooks, CT_HOOK_CREATE_CONTAINER, "creating", err);
}

static int create_hooks_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return run_create_hooks(&ctx->plan->hooks, &ctx->plan->sync, err);
}

const struct ct_step ct_init_create_hooks = {"create-hooks", create_hooks_row};

int ct_init_start_hooks(const struct ct_plan_hooks *hooks, struct ct_error *err)
{
	/* "created": the user's program has not run yet (runtime.md#state) */
	return run_in_container(hooks, CT_HOOK_START_CONTAINER, "created", err);
}

int ct_init_report_start(const struct ct_plan_sync *sync, int channel, const struct ct_error *cause,
			 struct ct_error *err)
{
	if (sync->start == CT_START_SYNC)
		return cause ? ct_sync_send_error(channel, cause)
			     : ct_sync_send_started(channel, err);
	struct ct_sync_msg msg = {.type = CT_SYNC_STARTED};
	if (cause)
		ct_sync_error_msg(&msg, CT_SYNC_ERROR, cause);
	return ct_sync_fifo_write(channel, &msg, err);
}
