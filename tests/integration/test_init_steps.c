/* The init's set-up as a table of named steps (libct/child/init.c): `--debug` lists the steps
 * the init ran, in order, and a failing step is named in the error of create and run; exec
 * runs its subset of the rows (libct/parent/exec.c), logged and named the same way. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tests/lib/container.h"

TestSuite(init_steps, .fini = lc_cleanup);

/* Names of the table's rows, in an order the set-up cannot change without breaking it:
 * the mounts before createContainer hooks before pivot_root, the executable last of all. */
static const char *const in_order[] = {"init steps: ", " mounts ",	 " create-hooks ",
				       " pivot-root ", " masked-paths ", " identity ",
				       " executable "};

/* Looks for names in order in text, each after the one before it. */
static void expect_in_order(const char *text, const char *const *names, size_t n)
{
	const char *at = text;
	for (size_t i = 0; i < n; i++) {
		const char *next = strstr(at, names[i]);
		cr_expect_not_null(next, "'%s' not logged after the steps before it:\n%s", names[i],
				   text);
		if (next)
			at = next;
	}
}

Test(init_steps, debug_lists_the_steps_in_order)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "echo inside");
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "run", "--bundle", t.bundle, "steps");
	cr_assert_eq(r.status, 0, "run: exit %d\nstderr: %s", r.status, r.err);
	cr_expect_str_eq(r.out, "inside\n");
	expect_in_order(r.err, in_order, sizeof(in_order) / sizeof(in_order[0]));
	ctt_result_free(&r);
}

/* exec's own rows (into the container), the init's stdio-null in the container's root, then
 * the process rows it shares with the init. */
static const char *const exec_in_order[] = {
	"exec steps: ", "cgroup ",	  "enter-container stdio-null ", " keyring ", " identity ",
	" executable ", "exec'd process "};

Test(init_steps, debug_lists_the_steps_of_exec)
{
	struct lc t;
	lc_init(&t);
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, "execsteps");
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "exec", "execsteps", "sh", "-c", "echo inside-$$");
	cr_assert_eq(r.status, 0, "exec: exit %d\nstderr: %s", r.status, r.err);
	cr_expect_str_neq(r.out, "inside-1\n", "the exec'd process is not the init");
	cr_expect_eq(strncmp(r.out, "inside-", 7), 0, "%s", r.out);
	cr_expect_null(strstr(r.err, "init steps"), "exec runs no init: %s", r.err);
	expect_in_order(r.err, exec_in_order, sizeof(exec_in_order) / sizeof(exec_in_order[0]));
	ctt_result_free(&r);
	lc_ctrun(&r, &t, "exec", "execsteps", "true");
	cr_assert_eq(r.status, 0, "exec: exit %d\nstderr: %s", r.status, r.err);
	cr_expect_null(strstr(r.err, "exec steps"), "without --debug: %s", r.err);
	ctt_result_free(&r);
	lc_ok(&t, "delete", "--force", "execsteps");
}

Test(init_steps, without_debug_no_step_is_logged)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "true");
	struct ctt_result r;
	lc_ctrun(&r, &t, "run", "--bundle", t.bundle, "quiet");
	cr_assert_eq(r.status, 0, "run: exit %d\nstderr: %s", r.status, r.err);
	cr_expect_null(strstr(r.err, "init steps"), "%s", r.err);
	ctt_result_free(&r);
}

/* A cwd that is a file of the image cannot be entered: the step that failed is named. */
Test(init_steps, failing_step_is_named)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.cwd", "\"/bin/busybox\"");
	lc_assert_create_refused(
		&t, "cwdfile",
		LC_ARGV("init step enter-cwd: ", "\"/bin/busybox\": Not a directory"));
}
