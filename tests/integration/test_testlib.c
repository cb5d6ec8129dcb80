/* The test library itself: the runner's stdin, deadline and capture, JSON edits, cleanup.
 * Lifecycle tests rely on these behaving exactly as testlib.h says. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/testlib.h"

TestSuite(testlib, .fini = ctt_cleanup);

static const char *const sh = "/bin/sh";

Test(testlib, captures_stdout_stderr_and_status)
{
	struct ctt_result r;
	int status = ctt_run(
		&r, NULL, (const char *const[]){sh, "-c", "echo out; echo err >&2; exit 3", NULL});
	cr_expect_eq(status, 3);
	cr_expect_eq(r.signal, 0);
	ctt_assert_output(&r, 3, "out\n", "err\n");
	ctt_result_free(&r);
}

Test(testlib, feeds_stdin)
{
	struct ctt_result r;
	/* Larger than a pipe buffer: the runner must write and read at the same time. */
	size_t n = 256 * 1024;
	char *input = malloc(n + 1);
	memset(input, 'x', n);
	input[n] = '\0';
	ctt_run(&r, &(struct ctt_run_opts){.input = input}, (const char *const[]){"cat", NULL});
	cr_expect_eq(r.status, 0);
	cr_expect_eq(r.out_len, n);
	ctt_result_free(&r);
	free(input);
}

Test(testlib, stdin_is_dev_null_by_default)
{
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"cat", NULL});
	ctt_assert_output(&r, 0, "", "");
	ctt_result_free(&r);
}

/* The whole group is killed at the deadline: the shell's background child too, not only the
 * shell that ctt_run waits for. */
Test(testlib, deadline_kills_the_process_group)
{
	char *dir = ctt_tmpdir();
	char *pidfile = ctt_path(dir, "bg.pid");
	char script[PATH_MAX + 64];
	snprintf(script, sizeof(script), "sleep 30 & echo $! > %s; sleep 30", pidfile);
	struct ctt_result r;
	ctt_run(&r, &(struct ctt_run_opts){.timeout_ms = 300, .allow_timeout = true},
		(const char *const[]){sh, "-c", script, NULL});
	cr_expect(r.timed_out);
	cr_expect_eq(r.signal, 9);
	cr_expect_eq(r.status, 128 + 9);
	char *text = ctt_read_file(pidfile);
	pid_t bg = (pid_t)atoi(text);
	cr_assert_gt(bg, 1, "background pid \"%s\"", text);
	/* SIGKILL is on its way to it: it must end (reaped by whoever adopted it, or a zombie) */
	bool dead = false;
	for (int i = 0; i < 1000 && !dead; i++) {
		dead = !ctt_alive(bg);
		if (!dead)
			usleep(10000);
	}
	cr_expect(dead, "the background sleep %d outlived the deadline's SIGKILL", (int)bg);
	free(text);
	free(pidfile);
	ctt_result_free(&r);
}

/* ctrun create leaves a container holding its stdio: the run ends when ctrun exits. */
Test(testlib, returns_when_the_program_exits_not_its_children)
{
	struct ctt_result r;
	ctt_run(&r, &(struct ctt_run_opts){.timeout_ms = 5000},
		(const char *const[]){sh, "-c", "echo before; sleep 3 & exit 0", NULL});
	cr_expect_eq(r.status, 0);
	cr_expect_not(r.timed_out);
	cr_expect_str_eq(r.out, "before\n");
	ctt_result_free(&r);
}

Test(testlib, env_and_cwd)
{
	char *dir = ctt_tmpdir();
	struct ctt_result r;
	ctt_run(&r,
		&(struct ctt_run_opts){.cwd = dir,
				       .env = (const char *const[]){"CTT_X=1", "HOME=/h", NULL}},
		(const char *const[]){sh, "-c", "echo $CTT_X $HOME; pwd", NULL});
	char *want = NULL;
	cr_assert_geq(asprintf(&want, "1 /h\n%s\n", dir), 0);
	cr_expect_str_eq(r.out, want);
	ctt_result_free(&r);
	free(want);
}

Test(testlib, missing_program_is_127)
{
	struct ctt_result r;
	cr_expect_eq(ctt_run(&r, NULL, (const char *const[]){"/nonexistent/program", NULL}), 127);
	ctt_result_free(&r);
}

Test(testlib, json_edit_replace_add_append_remove)
{
	char *file = ctt_tmp_path("x.json");
	ctt_write_file(file, "{\"a\": {\"b\": [1, 2], \"c\": \"keep\"}, \"n\": 1.50}");
	ctt_json_edit_file(file, ".a.b[1]", "\"two\"");
	ctt_json_edit_file(file, ".a.b[2]", "{\"k\": true}");
	ctt_json_edit_file(file, ".a[\"d.e\"]", "null");
	ctt_json_edit_file(file, ".a.b[0]", NULL);
	ctt_json_edit_file(file, ".a.c", NULL);
	yajl_val v = ctt_json_load(file);
	cr_expect_eq(ctt_json_len(v, ".a.b"), 2);
	cr_expect_str_eq(ctt_json_get_string(v, ".a.b[0]"), "two");
	cr_expect(ctt_json_get_bool(v, ".a.b[1].k"));
	cr_expect(YAJL_IS_NULL(ctt_json_get(v, ".a[\"d.e\"]")));
	cr_expect_null(ctt_json_get(v, ".a.c"));
	cr_expect_str_eq(YAJL_GET_NUMBER(ctt_json_get(v, ".n")), "1.50", "numbers kept verbatim");
	yajl_tree_free(v);
	free(file);
}

Test(testlib, rm_rf_does_not_follow_symlinks)
{
	char *outside = ctt_tmpdir();
	char *keep = ctt_path(outside, "keep");
	ctt_write_file(keep, "x");
	char *dir = ctt_tmpdir();
	char *sub = ctt_path(dir, "a/b");
	ctt_mkdir_p(sub);
	char *link = ctt_path(sub, "link");
	cr_assert_eq(symlink(outside, link), 0);
	cr_expect_eq(ctt_rm_rf(dir), 0);
	cr_expect_not(ctt_exists(dir));
	cr_expect(ctt_exists(keep), "the symlink's target survived");
	free(link);
	free(sub);
	free(keep);
}

static int first_calls;

static void count_first(void)
{
	first_calls++;
}

/* What the container helpers (container.h) rely on so that a skipped test leaves no container. */
Test(testlib, cleanup_first_runs_once_before_the_directories_go)
{
	char *dir = ctt_tmpdir();
	first_calls = 0;
	ctt_cleanup_first(count_first);
	ctt_cleanup();
	cr_expect_eq(first_calls, 1);
	cr_expect_not(ctt_exists(dir), "the directory outlived ctt_cleanup");
	ctt_cleanup();
	cr_expect_eq(first_calls, 1, "the hook ran again");
	free(dir);
}
