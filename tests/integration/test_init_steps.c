/* The init's set-up as a table of named steps (libct/child/init.c): `--debug` lists the steps
 * the init ran, in order, and a failing step is named in the error of create and run. */
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

Test(init_steps, debug_lists_the_steps_in_order)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "echo inside");
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "run", "--bundle", t.bundle, "steps");
	cr_assert_eq(r.status, 0, "run: exit %d\nstderr: %s", r.status, r.err);
	cr_expect_str_eq(r.out, "inside\n");
	const char *at = r.err;
	for (size_t i = 0; i < sizeof(in_order) / sizeof(in_order[0]); i++) {
		const char *next = strstr(at, in_order[i]);
		cr_expect_not_null(next, "'%s' not logged after the steps before it:\n%s",
				   in_order[i], r.err);
		if (next)
			at = next;
	}
	ctt_result_free(&r);
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
