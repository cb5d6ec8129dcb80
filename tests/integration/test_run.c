/* `ctrun run`: exit codes, signal forwarding, deletion after a foreground run, --keep,
 * --detach with --pid-file, and the container on ctrun's own stdin, stdout and stderr. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(run, .fini = lc_cleanup);

#define ID	    "box"
#define RUN_WAIT_MS 20000

/* The container tells the test it got somewhere by writing into its rootfs. */
static void writable_root(const struct lc *t)
{
	ctt_config_set(t->bundle, ".root.readonly", "false");
}

/* Foreground `run` of `sh -c script`; returns ctrun's exit status. */
static int run_script(const struct lc *t, const char *script)
{
	struct ctt_result r;
	lc_run_sh(&r, t, ID, script);
	int status = r.status;
	ctt_result_free(&r);
	return status;
}

static void assert_run_exits(const char *script, int want)
{
	struct lc t;
	lc_init(&t);
	cr_expect_eq(run_script(&t, script), want, "`%s`", script);
	lc_assert_nothing_left(&t);
}

/* Starts `run` of script in the background and waits until the container has written
 * /ready. Returns the pid of ctrun. */
static pid_t spawn_run_ready(const struct lc *t, const char *script)
{
	writable_root(t);
	lc_set_script(t, script);
	char *out = ctt_tmp_path("out");
	pid_t pid = lc_spawn(
		t, lc_ctrun_argv(t, (const char *const[]){"run", "--bundle", t->bundle, ID, NULL}),
		out, -1);
	char *ready = lc_rootfs_path(t, "ready");
	ctt_wait_file(ready);
	free(ready);
	free(out);
	return pid;
}

static void assert_state_fails(const struct lc *t)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "state", ID);
	ctt_assert_error(&r, ID);
	ctt_result_free(&r);
}

Test(run, exit_0_round_trips)
{
	assert_run_exits("true", 0);
}

Test(run, exit_3_round_trips)
{
	assert_run_exits("exit 3", 3);
}

Test(run, explicit_exit_143_round_trips)
{
	assert_run_exits("exit 143", 143);
}

/* SIGKILL from the parent namespace kills even a pid-namespace init. */
Test(run, killed_by_sigkill_exits_137)
{
	struct lc t;
	lc_init(&t);
	pid_t pid = spawn_run_ready(&t, "touch /ready; exec sleep 100");
	lc_ok(&t, "kill", ID, "KILL");
	cr_expect_eq(lc_wait(pid, RUN_WAIT_MS), 137);
	lc_assert_nothing_left(&t);
}

/* Without a pid namespace the process is no init, so an unhandled SIGTERM kills it. */
Test(run, killed_by_sigterm_exits_143)
{
	struct lc t;
	lc_init(&t);
	lc_namespace_set(&t, "pid", NULL);
	pid_t pid = spawn_run_ready(&t, "touch /ready; exec sleep 100");
	lc_ok(&t, "kill", ID, "TERM");
	cr_expect_eq(lc_wait(pid, RUN_WAIT_MS), 143);
	lc_assert_nothing_left(&t);
}

static const struct {
	int sig;
	const char *name;
} trapped[] = {{SIGTERM, "TERM"}, {SIGINT, "INT"}, {SIGUSR1, "USR1"}, {SIGHUP, "HUP"}};

#define N_TRAPPED (sizeof(trapped) / sizeof(trapped[0]))

/* Each trapped signal writes its name to /got and exits with 100 + its number. `wait` on a
 * background sleep returns as soon as a trapped signal arrives. */
static char *trapping_script(void)
{
	char *script = strdup("");
	for (size_t i = 0; i < N_TRAPPED; i++) {
		char *next;
		cr_assert_geq(asprintf(&next, "%strap 'echo %s > /got; exit %d' %s; ", script,
				       trapped[i].name, 100 + trapped[i].sig, trapped[i].name),
			      0);
		free(script);
		script = next;
	}
	char *full;
	cr_assert_geq(asprintf(&full, "%stouch /ready; sleep 100 & wait", script), 0);
	free(script);
	return full;
}

static void assert_forwarded(int sig, const char *name)
{
	struct lc t;
	lc_init(&t);
	char *script = trapping_script();
	pid_t pid = spawn_run_ready(&t, script);
	cr_assert_eq(kill(pid, sig), 0);
	cr_expect_eq(lc_wait(pid, RUN_WAIT_MS), 100 + sig, "after SIG%s", name);
	char *got = lc_rootfs_path(&t, "got");
	char *text = ctt_read_file(got);
	char want[16];
	snprintf(want, sizeof(want), "%s\n", name);
	cr_expect_str_eq(text, want);
	free(text);
	free(got);
	free(script);
	lc_assert_nothing_left(&t);
}

Test(run, forwards_sigterm)
{
	assert_forwarded(SIGTERM, "TERM");
}

Test(run, forwards_sigint)
{
	assert_forwarded(SIGINT, "INT");
}

Test(run, forwards_sigusr1)
{
	assert_forwarded(SIGUSR1, "USR1");
}

Test(run, forwards_sighup)
{
	assert_forwarded(SIGHUP, "HUP");
}

Test(run, foreground_run_deletes_the_container)
{
	struct lc t;
	lc_init(&t);
	cr_expect_eq(run_script(&t, "true"), 0);
	assert_state_fails(&t);
	lc_assert_nothing_left(&t);
}

/* Another delete --force while run waits: run reports the kill and takes the deletion as
 * done for it (no "does not exist" error). */
Test(run, foreground_run_after_a_delete_force_from_outside)
{
	struct lc t;
	lc_init(&t);
	writable_root(&t);
	lc_set_script(&t, "touch /ready; exec sleep 100");
	char *out = ctt_tmp_path("run.out");
	pid_t pid = lc_spawn(
		&t, lc_ctrun_argv(&t, (const char *const[]){"run", "--bundle", t.bundle, ID, NULL}),
		out, -1);
	char *ready = lc_rootfs_path(&t, "ready");
	ctt_wait_file(ready);
	lc_ok(&t, "delete", "--force", ID);
	cr_expect_eq(lc_wait(pid, RUN_WAIT_MS), 137);
	char *text = ctt_read_file(out);
	cr_expect_not(strstr(text, "ctrun:"), "run said: %s", text);
	assert_state_fails(&t);
	lc_assert_nothing_left(&t);
	free(text), free(ready), free(out);
}

Test(run, keep_leaves_it_stopped_until_delete)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "exit 3");
	struct ctt_result r;
	lc_ctrun(&r, &t, "run", "--keep", "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 3, "stderr: %s", r.err);
	ctt_result_free(&r);
	lc_assert_status(&t, ID, "stopped");
	lc_ctrun(&r, &t, "list", "-q");
	cr_expect_str_eq(r.out, ID "\n");
	ctt_result_free(&r);
	lc_ok(&t, "delete", ID);
	assert_state_fails(&t);
	lc_assert_nothing_left(&t);
}

Test(run, detach_returns_while_it_runs)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "exec sleep 100");
	char *pid_file = ctt_tmp_path("pid");
	lc_ok(&t, "run", "--detach", "--pid-file", pid_file, "--bundle", t.bundle, ID);
	lc_assert_status(&t, ID, "running");
	pid_t pid = lc_pid(&t, ID);
	char *text = ctt_read_file(pid_file);
	cr_expect_eq(atoi(text), pid, "pid file holds \"%s\", state says %d", text, pid);
	cr_expect_eq(kill(pid, 0), 0, "pid %d is not alive", pid);
	lc_ok(&t, "kill", ID, "KILL");
	lc_wait_status(&t, ID, "stopped");
	lc_ok(&t, "delete", ID);
	lc_assert_nothing_left(&t);
	free(text);
	free(pid_file);
}

/* Nothing to do between READY and START: START goes with the set-up (no round trip), and
 * the container's program still runs once, after the set-up, with its output and status. */
Test(run, start_goes_with_the_set_up)
{
	struct lc t;
	lc_init(&t);
	lc_assert_start_with_setup(&t, ID, true);
	lc_assert_nothing_left(&t);
}

/* With --pid-file, START waits for READY and the pid file: the container's program finds
 * the file already written; it holds the init's pid on the host. */
Test(run, pid_file_is_written_before_the_program_runs)
{
	struct lc t;
	lc_init(&t);
	char *dir = ctt_tmpdir(), *pid_file = ctt_path(dir, "pid");
	lc_add_mount(&t, dir, "bind", dir, "rbind,rw");
	char *script;
	cr_assert_geq(asprintf(&script, "test -s %s && echo pid-file-first", pid_file), 0);
	lc_set_script(&t, script);
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "run", "--pid-file", pid_file, "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "pid-file-first\n");
	cr_expect_null(strstr(r.err, "START sent with the set-up"), "%s", r.err);
	ctt_result_free(&r);
	char *pid = ctt_read_file(pid_file);
	cr_expect_gt(atoi(pid), 1, "pid file holds \"%s\"", pid);
	lc_assert_nothing_left(&t);
	free(pid);
	free(script);
	free(pid_file);
}

Test(run, stdout_and_stderr_are_ctruns)
{
	struct lc t;
	lc_init(&t);
	struct ctt_result r;
	lc_run_sh(&r, &t, ID, "echo to-out; echo to-err >&2");
	ctt_assert_output(&r, 0, "to-out\n", "to-err\n");
	ctt_result_free(&r);
}

Test(run, stdin_is_passed)
{
	struct lc t;
	lc_init(&t);
	lc_set_args(&t, (const char *const[]){"cat", NULL});
	static const char input[] = "line one\nline two\n";
	struct ctt_result r;
	lc_ctrun_input(&r, &t, input, "run", "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, input);
	ctt_result_free(&r);
}

/* --debug with --log: the records go to the file alone, as runc's; the caller's stderr
 * (which Buildah prints as a failed RUN's error) holds the container's own output only.
 * Without --log they are on stderr. */
Test(run, debug_records_go_to_the_log_file_not_stderr)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "echo inside; echo inside-err >&2; exit 3");
	char *log = ctt_tmp_path("ctrun.log");
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "--log", log, "run", "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 3, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, "inside\n");
	cr_expect_str_eq(r.err, "inside-err\n");
	ctt_result_free(&r);
	char *text = ctt_read_file(log);
	cr_expect(strstr(text, "level=debug msg=\"container \\\"" ID "\\\": init "), "log: %s",
		  text);
	free(text);
	lc_ctrun(&r, &t, "--debug", "run", "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 3, "stderr: %s", r.err);
	cr_expect(strstr(r.err, "ctrun: debug: container \"" ID "\": init "), "stderr: %s", r.err);
	ctt_result_free(&r);
	free(log);
	lc_assert_nothing_left(&t);
}

/* runc's `run --no-subreaper` (crun takes it too): accepted, and the run is as without it
 * (ctrun never makes itself a subreaper): the container's output and exit status, and
 * nothing left. `create` refuses it, as runc does. */
/* Outside a pid namespace of its own, a process the container orphans goes to the nearest
 * subreaper: `run` in the foreground is one, as runc 1.1.5's and crun 1.8.1's, and reaps it;
 * with --no-subreaper (runc's flag) it goes elsewhere. The orphan is told apart by its
 * parent: the init's own (ctrun) or another. */
#define ORPHAN_SCRIPT                                                                      \
	"sh -c 'sleep 1000 & echo $! > /tmp/orphan'; o=$(cat /tmp/orphan); "               \
	"p=$(sed -n 's/^PPid:\\t//p' /proc/$o/status); "                                   \
	"[ \"$p\" = \"$PPID\" ] && echo orphan-to-run || echo orphan-elsewhere; kill $o; "  \
	"[ \"$p\" = \"$PPID\" ] && { i=0; while [ -e /proc/$o ] && [ $i -lt 2000 ]; do "   \
	"sleep 0.01; i=$((i+1)); done; [ -e /proc/$o ] && echo zombie || echo reaped; }; exit 4"

static void assert_orphans_go(const char *flag, const char *want)
{
	struct lc t;
	lc_init(&t);
	lc_namespace_set(&t, "pid", NULL);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	lc_set_script(&t, ORPHAN_SCRIPT);
	struct ctt_result r;
	if (flag)
		lc_ctrun(&r, &t, "run", flag, "--bundle", t.bundle, ID);
	else
		lc_ctrun(&r, &t, "run", "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 4, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, want);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

Test(run, foreground_run_is_the_subreaper_of_orphans_unless_no_subreaper)
{
	assert_orphans_go(NULL, "orphan-to-run\nreaped\n");
	assert_orphans_go("--no-subreaper", "orphan-elsewhere\n");
	struct lc t;
	lc_init(&t);
	lc_assert_fails(&t, LC_ARGV("create", "--no-subreaper", "--bundle", t.bundle, ID),
			"--no-subreaper");
	lc_assert_nothing_left(&t);
}
