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
static int run_in_container(struct ct_init_plan *plan, enum ct_hook_kind kind, const char *status,
			    struct ct_error *err)
{
	const struct oci_hooks *h = &plan->config->hooks;
	if (!ct_hook_list(h, kind)->len)
		return 0;
	char *state;
	if (ct_state_format_compact(plan->opts->state, status, getpid(), &state, err) < 0)
		return -1;
	int rc = ct_hooks_run(h, kind, state, err);
	free(state);
	return rc;
}

static int run_create_hooks(struct ct_step_ctx *ctx, struct ct_error *err)
{
	struct ct_init_plan *plan = ctx->plan;
	const struct oci_hooks *h = &plan->config->hooks;
	if (h->prestart.len || h->create_runtime.len) {
		if (ct_sync_send_create_hooks(plan->sync_fd, err) < 0 ||
		    ct_sync_expect(plan->sync_fd, CT_SYNC_HOOKS_DONE, "the createRuntime hooks",
				   err) < 0)
			return -1;
	}
	/* runtime.md#state: "creating" until create has finished */
	return run_in_container(plan, CT_HOOK_CREATE_CONTAINER, "creating", err);
}

const struct ct_step ct_init_create_hooks = {"create-hooks", run_create_hooks};

int ct_init_start_hooks(struct ct_init_plan *plan, struct ct_error *err)
{
	/* "created": the user's program has not run yet (runtime.md#state) */
	return run_in_container(plan, CT_HOOK_START_CONTAINER, "created", err);
}

int ct_init_report_start(const struct ct_init_plan *plan, int channel, const struct ct_error *cause,
			 struct ct_error *err)
{
	if (plan->opts->start == CT_START_SYNC)
		return cause ? ct_sync_send_error(channel, cause)
			     : ct_sync_send_started(channel, err);
	struct ct_sync_msg msg = {.type = CT_SYNC_STARTED};
	if (cause) {
		msg.type = CT_SYNC_ERROR;
		msg.errnum = cause->errnum;
		snprintf(msg.text, sizeof(msg.text), "%s", cause->msg);
	}
	return ct_sync_fifo_write(channel, &msg, err);
}
