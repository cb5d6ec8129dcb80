/* The set-up's step loop (libct/child/steps.h): steps run in the table's order, the first
 * failure stops the run and its error names the step, each step is logged before it runs. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libct/child/steps.h"

/* What the rows below record, through ctx->caller. */
struct record {
	char ran[128];	  /* the names of the steps that ran, space-separated */
	char logged[128]; /* the names the log was given */
};

static void append(char *buf, size_t size, const char *name)
{
	size_t n = strlen(buf);
	snprintf(buf + n, size - n, "%s%s", n ? " " : "", name);
}

static int ok_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	(void)err;
	struct record *r = ctx->caller;
	append(r->ran, sizeof(r->ran), "ok");
	return 0;
}

static int failing_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	struct record *r = ctx->caller;
	append(r->ran, sizeof(r->ran), "fail");
	return ct_error_plain(err, EPERM, "mount \"proc\" on \"/proc\": refused");
}

static void log_name(struct ct_step_ctx *ctx, const char *name)
{
	struct record *r = ctx->caller;
	append(r->logged, sizeof(r->logged), name);
}

static const struct ct_step first = {"first", ok_row};
static const struct ct_step mounts = {"mounts", failing_row};
static const struct ct_step last = {"last", ok_row};

static void run(const struct ct_step *const *steps, size_t n, const char *who, bool log,
		struct record *r, struct ct_error *err, int *rc)
{
	struct ct_step_ctx ctx;
	ct_step_ctx_init(&ctx, NULL, who);
	ctx.caller = r;
	if (log)
		ctx.log = log_name;
	*rc = ct_steps_run(steps, n, &ctx, err);
	cr_expect_eq(ctx.rootfd, -1, "nothing made, nothing to release");
}

Test(steps, all_pass_in_order)
{
	const struct ct_step *const steps[] = {&first, &last};
	struct record r = {"", ""};
	struct ct_error err = {0};
	int rc;
	run(steps, 2, "init", true, &r, &err, &rc);
	cr_expect_eq(rc, 0);
	cr_expect_str_eq(r.ran, "ok ok");
	cr_expect_str_eq(r.logged, "first last");
	cr_expect_str_eq(err.msg, "");
}

Test(steps, failing_step_is_named_and_stops_the_run)
{
	const struct ct_step *const steps[] = {&first, &mounts, &last};
	struct record r = {"", ""};
	struct ct_error err = {0};
	int rc;
	run(steps, 3, "init", true, &r, &err, &rc);
	cr_expect_eq(rc, -1);
	cr_expect_str_eq(r.ran, "ok fail", "the row after the failing one does not run");
	cr_expect_str_eq(r.logged, "first mounts", "a step is logged before it runs");
	cr_expect_str_eq(err.msg, "init step mounts: mount \"proc\" on \"/proc\": refused");
	cr_expect_eq(err.errnum, EPERM, "the cause's errno is kept");
}

Test(steps, exec_names_itself_and_runs_without_a_log)
{
	const struct ct_step *const steps[] = {&mounts};
	struct record r = {"", ""};
	struct ct_error err = {0};
	int rc;
	run(steps, 1, "exec", false, &r, &err, &rc);
	cr_expect_eq(rc, -1);
	cr_expect_str_eq(r.logged, "");
	cr_expect_str_eq(err.msg, "exec step mounts: mount \"proc\" on \"/proc\": refused");
}

/* A group (rows two tables share) runs its rows in its place, each named for itself. */
Test(steps, group_runs_its_rows_in_place)
{
	static const struct ct_step *const inner[] = {&first, &mounts};
	static const struct ct_step group = CT_STEP_GROUP("group", inner);
	const struct ct_step *const steps[] = {&first, &group, &last};
	struct record r = {"", ""};
	struct ct_error err = {0};
	int rc;
	run(steps, 3, "init", true, &r, &err, &rc);
	cr_expect_eq(rc, -1);
	cr_expect_str_eq(r.ran, "ok ok fail");
	cr_expect_str_eq(r.logged, "first first mounts", "the group itself is no step");
	cr_expect_str_eq(err.msg, "init step mounts: mount \"proc\" on \"/proc\": refused");
}
