#include "libct/child/steps.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void ct_step_ctx_init(struct ct_step_ctx *ctx, struct ct_init_plan *plan, const char *who)
{
	*ctx = (struct ct_step_ctx){.plan = plan, .who = who, .rootfd = -1};
}

static void trace_step(struct ct_step_ctx *ctx, const char *name)
{
	char *names = ctx->trace->names;
	size_t n = strlen(names);
	snprintf(names + n, sizeof(ctx->trace->names) - n, "%s%s", n ? " " : "", name);
}

void ct_step_trace_start(struct ct_step_ctx *ctx, struct ct_step_trace *t)
{
	t->names[0] = '\0';
	ctx->trace = t;
	ctx->log = trace_step;
}

int ct_steps_run(const struct ct_step *const *steps, size_t n, struct ct_step_ctx *ctx,
		 struct ct_error *err)
{
	for (size_t i = 0; i < n; i++) {
		const struct ct_step *step = steps[i];
		if (step->rows) {
			if (ct_steps_run(step->rows, step->n_rows, ctx, err) < 0)
				return -1;
			continue;
		}
		if (ctx->log)
			ctx->log(ctx, step->name);
		if (step->run(ctx, err) < 0)
			return ct_error_prefix(err, "%s step %s", ctx->who, step->name);
	}
	return 0;
}

void ct_step_ctx_release(struct ct_step_ctx *ctx)
{
	if (ctx->rootfd >= 0)
		close(ctx->rootfd);
	ctx->rootfd = -1;
}
