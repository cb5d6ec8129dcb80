/* The set-up of a process in a container as a table of named steps, run by one loop: the
 * container init's sequence (libct/child/init.c) and an exec'd process's subset of the same
 * rows (libct/parent/exec.c). A failing step is named in the error ("init step mounts:
 * ..."), and each step can be logged as it starts. */
#ifndef CT_STEPS_H
#define CT_STEPS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "libct/base/error.h"
#include "libct/plan/plan.h"

/* What the steps share besides the plan: what one step makes for a later one. */
struct ct_step_ctx {
	struct ct_init_plan *plan;
	const char *who; /* "init" or "exec": the error's first word */
	/* The rootfs (O_PATH) from its bind until the root is final, then -1 (rootfs.h);
	 * exec's: the init's root from enter-container until the steps are done. */
	int rootfd;
	char exe[PATH_MAX]; /* the executable found in the container's PATH */
	bool exec_failed;   /* the command is missing or cannot be exec'd (126/127) */
	void *caller;	    /* the caller's own state, for its own rows (exec's join) */
	/* Called with each step's name before it runs; NULL: no log. */
	void (*log)(struct ct_step_ctx *ctx, const char *name);
	struct ct_step_trace *trace; /* ct_step_trace_start's */
};

/* --debug: the names of the steps that ran, in order, space-separated, for the note the
 * child sends with READY (libct/plan/sync.h). */
struct ct_step_trace {
	char names[CT_ERROR_MSG_MAX / 2];
};

/* A row: a step to run, or a group of rows that two tables share (run NULL). A row's run
 * hands its step only the part of the plan (or two) the step works on (struct
 * ct_init_plan's parts, libct/plan/plan.h), so a step's signature says what it can touch. */
struct ct_step {
	const char *name;
	int (*run)(struct ct_step_ctx *ctx, struct ct_error *err);
	const struct ct_step *const *rows;
	size_t n_rows;
};

#define CT_STEP_GROUP(group_name, group_rows)                        \
	{                                                            \
		.name = group_name, .rows = group_rows,              \
		.n_rows = sizeof(group_rows) / sizeof(group_rows[0]) \
	}

/* A context for plan with nothing made yet. */
void ct_step_ctx_init(struct ct_step_ctx *ctx, struct ct_init_plan *plan, const char *who);

/* Records the name of each step ctx runs from now on into t (through ctx->log). */
void ct_step_trace_start(struct ct_step_ctx *ctx, struct ct_step_trace *t);

/* Runs steps[0..n) in order, a group's rows in its place; the first that fails stops the
 * run, its error prefixed with "<who> step <name>: ". Returns 0 or -1. */
int ct_steps_run(const struct ct_step *const *steps, size_t n, struct ct_step_ctx *ctx,
		 struct ct_error *err);

/* Releases what the steps left in ctx (the rootfs fd of a failed run). */
void ct_step_ctx_release(struct ct_step_ctx *ctx);

#endif
