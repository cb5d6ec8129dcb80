/* The set-up's step loop (libct/child/steps.h): steps run in the table's order, the first
 * failure stops the run and its error names the step, each step is logged before it runs. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libct/child/steps.h"
#include "tests/lib/rows.h"

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

static const struct ct_step *const first_last[] = {&first, &last};
static const struct ct_step *const fails_second[] = {&first, &mounts, &last};
static const struct ct_step *const fails_alone[] = {&mounts};
/* A group (rows two tables share) runs its rows in its place, each named for itself. */
static const struct ct_step *const inner[] = {&first, &mounts};
static const struct ct_step group = CT_STEP_GROUP("group", inner);
static const struct ct_step *const with_group[] = {&first, &group, &last};

#define STEPS(table) table, CTT_COUNT(table)

/* A table of steps run as who (with a log or not), and what must come of it. */
static const struct {
	const char *name;
	const struct ct_step *const *steps;
	size_t n;
	const char *who;
	bool log;
	int rc, errnum;
	const char *ran, *logged, *msg;
} cases[] = {
	{"all pass in order", STEPS(first_last), "init", true, 0, 0, "ok ok", "first last", ""},
	/* the row after the failing one does not run; a step is logged before it runs; the
	 * cause's errno is kept */
	{"the failing step is named and stops the run", STEPS(fails_second), "init", true, -1,
	 EPERM, "ok fail", "first mounts",
	 "init step mounts: mount \"proc\" on \"/proc\": refused"},
	{"exec names itself and runs without a log", STEPS(fails_alone), "exec", false, -1, EPERM,
	 "fail", "", "exec step mounts: mount \"proc\" on \"/proc\": refused"},
	/* the group itself is no step */
	{"a group runs its rows in place", STEPS(with_group), "init", true, -1, EPERM, "ok ok fail",
	 "first first mounts", "init step mounts: mount \"proc\" on \"/proc\": refused"},
};

ParameterizedTestParameters(steps, run)
{
	return ctt_rows(CTT_COUNT(cases));
}

ParameterizedTest(size_t *i, steps, run)
{
	const typeof(cases[0]) *c = &cases[*i];
	struct record r = {"", ""};
	struct ct_error err = {0};
	struct ct_step_ctx ctx;
	ct_step_ctx_init(&ctx, NULL, c->who);
	ctx.caller = &r;
	if (c->log)
		ctx.log = log_name;
	int rc = ct_steps_run(c->steps, c->n, &ctx, &err);
	cr_expect_eq(rc, c->rc, "%s: returned %d", c->name, rc);
	cr_expect_eq(ctx.rootfd, -1, "%s: nothing made, nothing to release", c->name);
	cr_expect_str_eq(r.ran, c->ran, "%s: the steps that ran", c->name);
	cr_expect_str_eq(r.logged, c->logged, "%s: the steps logged", c->name);
	cr_expect_str_eq(err.msg, c->msg, "%s: the error", c->name);
	cr_expect_eq(err.errnum, c->errnum, "%s: the errno", c->name);
}
