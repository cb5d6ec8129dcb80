/* The container lifecycle (runtime.md#lifecycle, runc's CLI): create, start, state, kill,
 * delete and list, checked from outside (exit codes, `state`, `list`, the pid file) and from
 * inside (marker files the container writes into its rootfs, what it prints). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(lifecycle, .fini = lc_cleanup);

#define RFC3339_NANO "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{1,9}Z$"

/* Records TERM and USR1 in /sig instead of dying; /ready says the traps are set. */
#define TRAP_SCRIPT                                                                    \
	"trap 'echo TERM >> /sig' TERM; trap 'echo USR1 >> /sig' USR1; touch /ready; " \
	"while :; do sleep 0.1; done"

/* lc_init with a writable root, where the container leaves its markers. */
static void init(struct lc *t)
{
	lc_init(t);
	ctt_config_set(t->bundle, ".root.readonly", "false");
}

/* init() with process.args `sh -c script`. */
static void init_running(struct lc *t, const char *script)
{
	init(t);
	lc_set_script(t, script);
}

static void create(const struct lc *t, const char *id)
{
	lc_ok(t, "create", "--bundle", t->bundle, id);
}

/* The status now (lc_wait_status would wait for a change that must not come). */
/* Removes a marker of an earlier container of the same bundle. */
static void forget(const struct lc *t, const char *rel)
{
	char *path = lc_rootfs_path(t, rel);
	unlink(path);
	free(path);
}

static void wait_marker(const struct lc *t, const char *rel)
{
	char *path = lc_rootfs_path(t, rel);
	ctt_wait_file(path);
	free(path);
}

static bool has_marker(const struct lc *t, const char *rel)
{
	char *path = lc_rootfs_path(t, rel);
	bool there = ctt_exists(path);
	free(path);
	return there;
}

/* Creates and starts id running script, which touches /ready once it is set up. */
static void start_ready(const struct lc *t, const char *id, const char *script)
{
	forget(t, "ready");
	lc_set_script(t, script);
	create(t, id);
	lc_ok(t, "start", id);
	wait_marker(t, "ready");
}

/* `create` of id in the background, its output (the container's too) appended to out. */
static pid_t spawn_create(const struct lc *t, const char *id, const char *out)
{
	return lc_spawn(t, lc_ctrun_argv(t, LC_ARGV("create", "--bundle", t->bundle, id)), out, -1);
}

/* spawn_create() of id into a new file (*out, malloc'd), which must exit 0; its pid. */
static pid_t create_behind(const struct lc *t, const char *id, char **out)
{
	*out = ctt_tmp_path("create.out");
	pid_t pid = spawn_create(t, id, *out);
	cr_assert_eq(lc_wait(pid, 30000), 0, "create: %s", ctt_read_file(*out));
	return pid;
}

/* A new bundle running script as id, created, started and waited for until stopped. */
static void run_until_stopped(struct lc *t, const char *id, const char *script)
{
	init(t);
	lc_set_script(t, script);
	create(t, id);
	lc_ok(t, "start", id);
	lc_wait_status(t, id, "stopped");
}

/* ---- create and start ---- */

static void expect_state_fields(const struct lc *t, yajl_val st, const char *id)
{
	char bundle[PATH_MAX];
	cr_assert_not_null(realpath(t->bundle, bundle));
	char *rootfs = ctt_path(bundle, "rootfs");
	const char *created = ctt_json_get_string(st, ".created");
	cr_expect(ctt_matches(ctt_json_get_string(st, ".ociVersion"), "^1\\.[0-9]+\\.[0-9]+"));
	cr_expect_str_eq(ctt_json_get_string(st, ".id"), id);
	cr_expect_str_eq(ctt_json_get_string(st, ".status"), "created");
	cr_expect_str_eq(ctt_json_get_string(st, ".bundle"), bundle);
	cr_expect_str_eq(ctt_json_get_string(st, ".rootfs"), rootfs);
	cr_expect(created && ctt_matches(created, RFC3339_NANO), "created: %s", created);
	/* runc's `state` has the owner key and leaves it empty; `list` fills it */
	cr_expect_not_null(ctt_json_get_string(st, ".owner"), "no owner string");
	cr_expect_str_eq(ctt_json_get_string(st, ".annotations[\"org.example.team\"]"), "infra");
	cr_expect_str_eq(ctt_json_get_string(st, ".annotations.empty"), "");
	free(rootfs);
}

static void expect_state_schema_valid(const struct lc *t, const char *id)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "state", id);
	char *file = ctt_tmp_path("state.json");
	ctt_write_file(file, r.out);
	ctt_assert_schema_valid(file, "state-schema.json");
	free(file);
	ctt_result_free(&r);
}

Test(lifecycle, create_reports_created_state)
{
	struct lc t;
	init(&t);
	ctt_config_set(t.bundle, ".annotations", "{\"org.example.team\":\"infra\",\"empty\":\"\"}");
	lc_set_script(&t, "touch /started; sleep 1000");
	cr_assert_eq(rmdir(t.root), 0, "rmdir %s: %s", t.root, strerror(errno));
	char *piddir = ctt_tmpdir();
	char *pidfile = ctt_path(piddir, "ctr.pid");
	lc_ok(&t, "create", "--bundle", t.bundle, "--pid-file", pidfile, "c1");

	yajl_val st = lc_state(&t, "c1");
	expect_state_fields(&t, st, "c1");
	pid_t pid = (pid_t)ctt_json_get_int(st, ".pid");
	cr_expect_gt(pid, 0);
	cr_expect(ctt_alive(pid), "the init %d does not exist", pid);
	yajl_tree_free(st);
	expect_state_schema_valid(&t, "c1");

	struct stat sb;
	cr_assert_eq(stat(t.root, &sb), 0, "stat %s: %s", t.root, strerror(errno));
	cr_expect_eq(sb.st_mode & 07777, 0700, "state root mode %o", sb.st_mode & 07777);
	char *pidtext = ctt_read_file(pidfile);
	cr_expect_eq(atoi(pidtext), pid, "pid file \"%s\", state pid %d", pidtext, pid);
	cr_expect_eq(ctt_count_entries(piddir), 1, "a temporary file is left beside the pid file");
	/* the init waits for start: the user program has not run */
	cr_expect_not(has_marker(&t, "started"), "the program ran before start");
	free(pidtext);
	free(pidfile);
	free(piddir);
}

/* --bundle through a symlink and a "..": state.json has the path with neither (the kernel's
 * name of the opened directory, libct/fs/canonical_path.h), as realpath() gives it */
Test(lifecycle, bundle_through_a_symlink_is_recorded_canonical)
{
	struct lc t;
	init(&t);
	lc_set_script(&t, "sleep 1000");
	char *links = ctt_tmpdir();
	char *link = ctt_path(links, "bundle-link");
	cr_assert_eq(symlink(t.bundle, link), 0, "symlink: %s", strerror(errno));
	char given[PATH_MAX], bundle[PATH_MAX];
	snprintf(given, sizeof(given), "%s/rootfs/..", link);
	cr_assert_not_null(realpath(t.bundle, bundle));
	lc_ok(&t, "create", "--bundle", given, "c1");

	yajl_val st = lc_state(&t, "c1");
	char *rootfs = ctt_path(bundle, "rootfs");
	cr_expect_str_eq(ctt_json_get_string(st, ".bundle"), bundle);
	cr_expect_str_eq(ctt_json_get_string(st, ".rootfs"), rootfs);
	yajl_tree_free(st);
	free(rootfs);
	free(link);
	free(links);
}

Test(lifecycle, start_runs_the_process_once)
{
	struct lc t;
	init_running(&t, "touch /started; sleep 1000");
	create(&t, "s1");
	cr_expect_not(has_marker(&t, "started"));
	lc_ok(&t, "start", "s1");
	wait_marker(&t, "started");
	lc_assert_status(&t, "s1", "running");

	lc_assert_fails(&t, LC_ARGV("start", "s1"), "\"s1\"", "running");
	lc_assert_status(&t, "s1", "running");
	lc_assert_fails(&t, LC_ARGV("start", "nosuch"), "\"nosuch\"", "does not exist");
}

static ino_t assert_state_inode(const struct lc *t, const char *id)
{
	char *file = lc_state_file(t, id);
	struct stat st;
	cr_assert_eq(stat(file, &st), 0, "%s", file);
	free(file);
	return st.st_ino;
}

/* state.json is written once per create: start records itself by removing the exec fifo,
 * which state reads as running (one file less to make per start). */
Test(lifecycle, start_keeps_state_json_and_removes_the_fifo)
{
	struct lc t;
	init_running(&t, "sleep 1000");
	create(&t, "once");
	char *fifo = ctt_path(t.root, "once/exec.fifo");
	cr_expect(ctt_exists(fifo), "create leaves the exec fifo");
	ino_t before = assert_state_inode(&t, "once");
	lc_ok(&t, "start", "once");
	cr_expect_not(ctt_exists(fifo), "start removes the exec fifo");
	cr_expect_eq(assert_state_inode(&t, "once"), before, "start rewrote state.json");
	lc_assert_status(&t, "once", "running");
	lc_ok(&t, "delete", "--force", "once");
	free(fifo);
}

Test(lifecycle, container_inherits_stdio_without_terminal)
{
	struct lc t;
	init_running(&t, "echo out-from-container; echo err-from-container >&2");
	char *out;
	create_behind(&t, "io", &out);
	lc_ok(&t, "start", "io");
	free(ctt_wait_content(out, "out-from-container\n"));
	char *both = ctt_wait_content(out, "err-from-container\n");
	cr_expect(strstr(both, "out-from-container\n"), "stdout went missing: %s", both);
	free(both);
	free(out);
}

Test(lifecycle, create_returns_while_the_container_waits)
{
	struct lc t;
	init_running(&t, "touch /started");
	char *out;
	pid_t runtime = create_behind(&t, "w", &out);
	pid_t init = lc_pid(&t, "w");
	cr_expect_neq(init, runtime);
	cr_expect(ctt_alive(init), "the container init is gone with the runtime");
	lc_assert_status(&t, "w", "created");
	cr_expect_not(has_marker(&t, "started"));
	lc_ok(&t, "start", "w");
	wait_marker(&t, "started");
	free(out);
}

/* Without a /proc mount the init cannot reopen its exec fifo inside the root: it does so
 * in its own fd directory, opened before the root changed, so create, start and run work
 * as with /proc (crun's behaviour; runc refuses the container). */
#define NO_PROC_SCRIPT "echo proc-entries=$(ls -A /proc | wc -l); touch /started"

Test(lifecycle, create_and_start_without_a_proc_mount)
{
	struct lc t;
	init(&t);
	lc_remove_mount(&t, "/proc");
	lc_set_script(&t, NO_PROC_SCRIPT);
	char *out;
	create_behind(&t, "np", &out);
	lc_assert_status(&t, "np", "created");
	cr_expect_not(has_marker(&t, "started"), "the program ran before start");
	lc_ok(&t, "start", "np");
	free(ctt_wait_content(out, "proc-entries=0\n"));
	lc_wait_status(&t, "np", "stopped");
	cr_expect(has_marker(&t, "started"));
	lc_ok(&t, "delete", "np");
	lc_assert_nothing_left(&t);
	free(out);
}

Test(lifecycle, run_without_a_proc_mount)
{
	struct lc t;
	init(&t);
	lc_remove_mount(&t, "/proc");
	char *out = lc_sh_output(&t, NO_PROC_SCRIPT);
	cr_expect_str_eq(out, "proc-entries=0\n");
	cr_expect(has_marker(&t, "started"));
	lc_assert_nothing_left(&t);
	free(out);
}

Test(lifecycle, exited_process_is_stopped)
{
	struct lc t;
	run_until_stopped(&t, "e1", "touch /started; exit 3");
	cr_expect(has_marker(&t, "started"));
	yajl_val st = lc_state(&t, "e1");
	cr_expect_str_eq(ctt_json_get_string(st, ".id"), "e1");
	/* runc reports pid 0 once stopped: the recorded pid may belong to someone else */
	cr_expect_eq(ctt_json_get_int(st, ".pid"), 0);
	yajl_tree_free(st);
}

/* The state file still names the exited init's pid and start time; pointing the pid at a
 * live process of ours is exactly what a recycled pid looks like. */
Test(lifecycle, recycled_pid_is_stopped_and_never_signalled)
{
	struct lc t;
	run_until_stopped(&t, "r1", "true");
	pid_t other = lc_recycle_pid(&t, "r1");

	lc_assert_status(&t, "r1", "stopped");
	lc_assert_fails(&t, LC_ARGV("kill", "r1", "KILL"), "\"r1\"");
	lc_ok(&t, "delete", "r1");
	cr_expect(ctt_alive(other), "ctrun signalled the process that got the recycled pid");
}

/* ---- kill ---- */

Test(lifecycle, kill_sends_term_by_default)
{
	struct lc t;
	init(&t);
	start_ready(&t, "k1", TRAP_SCRIPT);
	lc_ok(&t, "kill", "k1");
	lc_assert_rootfs_content(&t, "sig", "TERM\n");
	lc_assert_status(&t, "k1", "running");
}

Test(lifecycle, kill_takes_names_and_numbers)
{
	static const char *const usr1[] = {"USR1", "SIGUSR1", "10"};
	static const char *const kill9[] = {"KILL", "SIGKILL", "9"};
	struct lc t;
	init(&t);
	for (size_t i = 0; i < 3; i++) {
		forget(&t, "sig");
		start_ready(&t, "n1", TRAP_SCRIPT);
		lc_ok(&t, "kill", "n1", usr1[i]);
		lc_assert_rootfs_content(&t, "sig", "USR1\n");
		lc_ok(&t, "kill", "n1", kill9[i]);
		lc_wait_status(&t, "n1", "stopped");
		lc_ok(&t, "delete", "n1");
	}
}

Test(lifecycle, kill_refuses_unknown_signal_and_stopped_container)
{
	struct lc t;
	init(&t);
	start_ready(&t, "u1", TRAP_SCRIPT);
	lc_assert_fails(&t, LC_ARGV("kill", "u1", "NOSUCHSIG"), "NOSUCHSIG");
	lc_assert_status(&t, "u1", "running");
	cr_expect_not(has_marker(&t, "sig"), "a signal was sent after all");

	lc_ok(&t, "kill", "u1", "KILL");
	lc_wait_status(&t, "u1", "stopped");
	lc_assert_fails(&t, LC_ARGV("kill", "u1", "KILL"), "\"u1\"", "container not running");
}

/* `kill ID 0` probes, as kill(2) and runc: 0 while the init lives (created or running, with
 * --all too), "container not running" once it is stopped; nothing reaches the process. */
Test(lifecycle, kill_0_probes_that_the_init_lives)
{
	struct lc t;
	init(&t);
	lc_set_script(&t, "sleep 1000");
	lc_ok(&t, "create", "--bundle", t.bundle, "z1");
	lc_ok(&t, "kill", "z1", "0");
	lc_assert_status(&t, "z1", "created");
	lc_ok(&t, "delete", "--force", "z1");
	start_ready(&t, "z1", TRAP_SCRIPT);
	lc_ok(&t, "kill", "z1", "0");
	lc_ok(&t, "kill", "--all", "z1", "0");
	lc_assert_status(&t, "z1", "running");
	/* a signal sent after the probes: once its trap ran, one of theirs would have too */
	lc_ok(&t, "kill", "z1", "USR1");
	lc_assert_rootfs_content(&t, "sig", "USR1\n");
	lc_ok(&t, "kill", "z1", "KILL");
	lc_wait_status(&t, "z1", "stopped");
	lc_assert_fails(&t, LC_ARGV("kill", "z1", "0"), "\"z1\"", "container not running");
}

/* The init traps TERM; the background sleeps die of it, but only if they get it. */
#define SLEEPERS_SCRIPT                                                          \
	"trap 'echo TERM >> /sig' TERM; sleep 1000 & sleep 1000 & sleep 1000 & " \
	"touch /ready; while :; do sleep 0.1; done"

Test(lifecycle, kill_all_reaches_every_process)
{
	static const char *const flags[] = {"--all", "-a"};
	struct lc t;
	init(&t);
	for (size_t i = 0; i < 2; i++) {
		forget(&t, "sig");
		start_ready(&t, "a1", SLEEPERS_SCRIPT);
		pid_t init = lc_pid(&t, "a1");
		ctt_wait_count_in_pidns(init, "sleep 1000", 3);
		lc_ok(&t, "kill", "a1", "TERM");
		lc_assert_rootfs_content(&t, "sig", "TERM\n");
		cr_expect_eq(ctt_count_in_pidns(init, "sleep 1000"), 3,
			     "TERM reached more than pid 1");
		lc_ok(&t, "kill", flags[i], "a1", "TERM");
		lc_assert_rootfs_content(&t, "sig", "TERM\nTERM\n");
		ctt_wait_count_in_pidns(init, "sleep 1000", 0);
		lc_assert_status(&t, "a1", "running"); /* a trapped TERM must not kill the init */
		lc_ok(&t, "delete", "--force", "a1");
	}
}

/* Without a pid namespace of its own, the init's children outlive it: `kill --all` of the
 * stopped container still reaches them through its cgroup (containerd's shim sends it once
 * the init has exited, as runc takes it); a plain kill says the container is not running. */
Test(lifecycle, kill_all_of_a_stopped_container_ends_what_the_init_left)
{
	struct lc t;
	init(&t);
	lc_namespace_set(&t, "pid", NULL);
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	lc_set_script(&t, "sleep 1000 & echo $! > /orphan");
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, "k1");
	char *text = ctt_wait_content(lc_rootfs_path(&t, "orphan"), "\n");
	pid_t orphan = (pid_t)atoi(text);
	lc_wait_status(&t, "k1", "stopped");
	cr_assert(ctt_alive(orphan), "the init's child %d is gone already", orphan);
	lc_assert_fails(&t, LC_ARGV("kill", "k1", "9"), "\"k1\"", "container not running");
	cr_expect(ctt_alive(orphan), "a plain kill reached the init's child");
	lc_ok(&t, "kill", "--all", "k1", "9");
	/* both are the test's (the subreaper's) to reap */
	cr_expect_eq(lc_wait(orphan, 10000), 128 + SIGKILL, "the init's child did not get it");
	while (waitpid(-1, NULL, WNOHANG) > 0)
		; /* the init's zombie */
	lc_ok(&t, "delete", "k1");
	lc_assert_nothing_left(&t);
	free(text);
}

/* ---- delete ---- */

static void expect_gone(const struct lc *t, const char *id)
{
	struct ctt_result r;
	lc_assert_fails(t, LC_ARGV("state", id), id, "does not exist");
	lc_ctrun(&r, t, "list", "-q");
	cr_expect_null(strstr(r.out, id), "list -q: %s", r.out);
	ctt_result_free(&r);
}

Test(lifecycle, delete_removes_a_stopped_container)
{
	struct lc t;
	init_running(&t, "true");
	create(&t, "d1");
	lc_ok(&t, "start", "d1");
	lc_wait_status(&t, "d1", "stopped");
	lc_ok(&t, "delete", "d1");
	expect_gone(&t, "d1");
	lc_assert_nothing_left(&t);
}

/* Containers "created1", created, and "running1", started. */
static void created_and_running(const struct lc *t)
{
	create(t, "created1");
	create(t, "running1");
	lc_ok(t, "start", "running1");
}

/* runtime.md#delete: "Attempting to delete a container that is not stopped MUST generate an
 * error"; ctrun treats `created` as not stopped, as runc does, and --force kills first. */
Test(lifecycle, delete_refuses_live_containers_without_force)
{
	struct lc t;
	init_running(&t, "sleep 1000");
	created_and_running(&t);
	const char *ids[] = {"created1", "running1"}, *status[] = {"created", "running"};
	for (size_t i = 0; i < 2; i++) {
		lc_assert_fails(&t, LC_ARGV("delete", ids[i]), ids[i], status[i], "--force");
		lc_assert_status(&t, ids[i], status[i]);
		cr_expect(ctt_alive(lc_pid(&t, ids[i])));
	}
}

Test(lifecycle, delete_force_kills_created_and_running)
{
	struct lc t;
	init_running(&t, "trap '' TERM; touch /started; sleep 1000");
	created_and_running(&t);
	wait_marker(&t, "started");
	pid_t pids[] = {lc_pid(&t, "created1"), lc_pid(&t, "running1")};
	lc_ok(&t, "delete", "--force", "created1");
	lc_ok(&t, "delete", "-f", "running1");
	expect_gone(&t, "created1");
	expect_gone(&t, "running1");
	cr_expect_not(ctt_alive(pids[0]) || ctt_alive(pids[1]), "a container init survived");
	lc_assert_nothing_left(&t);
}

/* delete --force ends the whole pid namespace, not only its init: a background child of
 * a running container's init, and of a paused one's (frozen processes die only once thawed). */
Test(lifecycle, delete_force_ends_the_children_of_the_init)
{
	struct lc t;
	init_running(&t, "sleep 1000 & touch /started; wait");
	const char *ids[] = {"running2", "paused2"};
	for (size_t i = 0; i < 2; i++) {
		create(&t, ids[i]);
		lc_ok(&t, "start", ids[i]);
		wait_marker(&t, "started");
		char *marker = lc_rootfs_path(&t, "started");
		cr_assert_eq(unlink(marker), 0, "unlink %s", marker);
		free(marker);
		pid_t init_pid = lc_pid(&t, ids[i]);
		pid_t child = ctt_find_in_pidns(init_pid, "sleep 1000");
		if (i == 1) {
			lc_ok(&t, "pause", ids[i]);
			lc_assert_status(&t, ids[i], "paused");
		}
		lc_ok(&t, "delete", "--force", ids[i]);
		expect_gone(&t, ids[i]);
		cr_expect_not(ctt_alive(init_pid), "%s: the init survived", ids[i]);
		cr_expect_not(ctt_alive(child), "%s: the init's child survived", ids[i]);
	}
	lc_assert_nothing_left(&t);
}

Test(lifecycle, delete_of_unknown_id)
{
	struct lc t;
	init(&t);
	struct ctt_result r;
	lc_assert_fails(&t, LC_ARGV("delete", "ghost"), "\"ghost\"", "does not exist");
	/* idempotent clean-up for CI: quietly done */
	lc_ctrun(&r, &t, "delete", "--force", "ghost");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_str_empty(r.err);
	cr_expect_str_empty(r.out);
	ctt_result_free(&r);
}

/* ---- list ---- */

#define TABLE_HEADER "^ID +PID +STATUS +BUNDLE +CREATED +OWNER$"

Test(lifecycle, list_of_an_empty_root)
{
	struct lc t;
	init(&t);
	struct ctt_result r;
	lc_ctrun(&r, &t, "list");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_eq(ctt_count_lines(r.out), 1, "list: %s", r.out);
	cr_expect(ctt_matches(r.out, TABLE_HEADER), "list: %s", r.out);
	ctt_result_free(&r);
	lc_ctrun(&r, &t, "list", "--format", "json");
	yajl_val list = ctt_json_parse(r.out, "list --format json");
	cr_expect(YAJL_IS_ARRAY(list) && ctt_json_len(list, ".") == 0, "json: %s", r.out);
	yajl_tree_free(list);
	ctt_result_free(&r);
	lc_ctrun(&r, &t, "list", "-q");
	cr_expect_str_empty(r.out);
	ctt_result_free(&r);
}

/* A state.json past the first read (8 KiB; annotations are what makes one big): state,
 * list and start read it whole. */
Test(lifecycle, a_big_state_file_is_read_whole)
{
	struct lc t;
	init(&t);
	enum { BIG = 20000 };
	char *big = malloc(BIG + 1), *json = malloc(BIG + 64);
	cr_assert(big && json);
	for (int i = 0; i < BIG; i++)
		big[i] = (char)('a' + i % 26);
	big[BIG] = '\0';
	snprintf(json, BIG + 64, "{\"big\":\"%s\",\"tier\":\"db\"}", big);
	ctt_config_set(t.bundle, ".annotations", json);
	lc_set_script(&t, "sleep 1000");
	create(&t, "big");
	char *file = ctt_read_file(lc_state_file(&t, "big"));
	cr_assert_gt(strlen(file), BIG, "state.json holds the annotation");
	lc_ok(&t, "start", "big");
	yajl_val st = lc_state(&t, "big");
	cr_expect_str_eq(ctt_json_get_string(st, ".annotations.big"), big);
	yajl_tree_free(st);
	struct ctt_result r;
	cr_assert_eq(lc_ctrun(&r, &t, "list", "--format", "json"), 0, "%s", r.err);
	yajl_val list = ctt_json_parse(r.out, "list --format json");
	cr_expect_str_eq(ctt_json_get_string(list, "[0].status"), "running");
	cr_expect_str_eq(ctt_json_get_string(list, "[0].annotations.big"), big);
	cr_expect_str_eq(ctt_json_get_string(list, "[0].annotations.tier"), "db");
	yajl_tree_free(list);
	ctt_result_free(&r);
	free(file);
	free(big);
	free(json);
}

struct expected_row {
	const char *id, *status;
	pid_t pid;
};

/* One container of each status: "c-created", "r-running", "s-stopped" (list's order). */
static void make_three(const struct lc *t, struct expected_row rows[3])
{
	lc_set_script(t, "sleep 1000");
	create(t, "c-created");
	create(t, "r-running");
	lc_ok(t, "start", "r-running");
	lc_set_script(t, "true");
	create(t, "s-stopped");
	lc_ok(t, "start", "s-stopped");
	lc_wait_status(t, "s-stopped", "stopped");
	rows[0] = (struct expected_row){"c-created", "created", lc_pid(t, "c-created")};
	rows[1] = (struct expected_row){"r-running", "running", lc_pid(t, "r-running")};
	rows[2] = (struct expected_row){"s-stopped", "stopped", 0};
}

static void expect_table_row(const char *line, const struct expected_row *want, const char *bundle)
{
	char id[64], status[16], path[PATH_MAX], created[64], owner[64];
	int pid;
	cr_assert_eq(sscanf(line, "%63s %d %15s %4095s %63s %63s", id, &pid, status, path, created,
			    owner),
		     6, "row: %s", line);
	cr_expect_str_eq(id, want->id);
	cr_expect_eq(pid, want->pid, "row: %s", line);
	cr_expect_str_eq(status, want->status);
	cr_expect_str_eq(path, bundle);
	cr_expect(ctt_matches(created, RFC3339_NANO), "row: %s", line);
	cr_expect_str_eq(owner, "root");
}

Test(lifecycle, list_table_of_several_states)
{
	struct lc t;
	init(&t);
	struct expected_row rows[3];
	make_three(&t, rows);
	char bundle[PATH_MAX];
	cr_assert_not_null(realpath(t.bundle, bundle));
	struct ctt_result r;
	lc_ctrun(&r, &t, "list");
	cr_assert_eq(ctt_count_lines(r.out), 4, "list: %s", r.out);
	char *line = strtok(r.out, "\n");
	cr_expect(ctt_matches(line, TABLE_HEADER), "header: %s", line);
	for (int i = 0; i < 3; i++)
		expect_table_row(strtok(NULL, "\n"), &rows[i], bundle);
	ctt_result_free(&r);
	lc_ctrun(&r, &t, "list", "-q");
	cr_expect_str_eq(r.out, "c-created\nr-running\ns-stopped\n");
	ctt_result_free(&r);
}

static void expect_json_entry(yajl_val list, long i, const struct expected_row *want,
			      const char *bundle)
{
	char path[64];
#define FIELD(name) (snprintf(path, sizeof(path), "[%ld]." name, i), path)
	char *rootfs = ctt_path(bundle, "rootfs");
	cr_expect_str_eq(ctt_json_get_string(list, FIELD("id")), want->id);
	cr_expect_str_eq(ctt_json_get_string(list, FIELD("status")), want->status);
	cr_expect_eq(ctt_json_get_int(list, FIELD("pid")), want->pid);
	cr_expect_str_eq(ctt_json_get_string(list, FIELD("bundle")), bundle);
	cr_expect_str_eq(ctt_json_get_string(list, FIELD("rootfs")), rootfs);
	cr_expect_str_eq(ctt_json_get_string(list, FIELD("owner")), "root");
	cr_expect(ctt_matches(ctt_json_get_string(list, FIELD("created")), RFC3339_NANO));
	cr_expect(ctt_matches(ctt_json_get_string(list, FIELD("ociVersion")), "^1\\."));
	cr_expect_str_eq(ctt_json_get_string(list, FIELD("annotations.tier")), "db");
#undef FIELD
	free(rootfs);
}

Test(lifecycle, list_json_of_several_states)
{
	struct lc t;
	init(&t);
	ctt_config_set(t.bundle, ".annotations", "{\"tier\":\"db\"}");
	struct expected_row rows[3];
	make_three(&t, rows);
	char bundle[PATH_MAX];
	cr_assert_not_null(realpath(t.bundle, bundle));
	struct ctt_result r;
	lc_ctrun(&r, &t, "list", "--format", "json");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	yajl_val list = ctt_json_parse(r.out, "list --format json");
	cr_assert(YAJL_IS_ARRAY(list) && ctt_json_len(list, ".") == 3, "json: %s", r.out);
	for (long i = 0; i < 3; i++)
		expect_json_entry(list, i, &rows[i], bundle);
	yajl_tree_free(list);
	ctt_result_free(&r);
}

/* ---- keyring ---- */

#define KEYCTL_JOIN_SESSION_KEYRING 1
#define KEYCTL_SETPERM		    5
#define KEY_POS_ALL		    0x3f000000

/* Gives this test process (and so ctrun) a session keyring only a possessor can see: it
 * shows in a container's /proc/keys exactly when the container shares it. */
static void join_private_session_keyring(char *name, size_t size)
{
	snprintf(name, size, "ctt-caller-%d", getpid());
	long serial = syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, name, 0, 0, 0);
	if (serial < 0 && (errno == ENOSYS || errno == EPERM))
		ctt_skip("no session keyrings here: %s", strerror(errno));
	cr_assert_geq(serial, 0, "join session keyring: %s", strerror(errno));
	cr_assert_eq(syscall(SYS_keyctl, KEYCTL_SETPERM, serial, KEY_POS_ALL, 0, 0), 0,
		     "setperm: %s", strerror(errno));
}

/* The default spec masks /proc/keys, which is what the container must read. */
static void unmask_proc_keys(const struct lc *t)
{
	long at = lc_config_index(t, ".linux.maskedPaths", "", "/proc/keys");
	if (at >= 0) {
		char path[64];
		snprintf(path, sizeof(path), ".linux.maskedPaths[%ld]", at);
		ctt_config_set(t->bundle, path, NULL);
	}
}

static char *proc_keys_in(const struct lc *t, const char *flag, const char *id)
{
	lc_set_script(t, "cat /proc/keys");
	struct ctt_result r;
	if (flag)
		lc_ctrun(&r, t, "run", flag, "--bundle", t->bundle, id);
	else
		lc_ctrun(&r, t, "run", "--bundle", t->bundle, id);
	cr_assert_eq(r.status, 0, "run: %s", r.err);
	free(r.err);
	return r.out;
}

Test(lifecycle, session_keyring_per_container_unless_no_new_keyring)
{
	struct lc t;
	init(&t);
	unmask_proc_keys(&t);
	char caller[64];
	join_private_session_keyring(caller, sizeof(caller));

	char *keys = proc_keys_in(&t, NULL, "key1");
	cr_expect(strstr(keys, " _ses.key1: "), "no own keyring in:\n%s", keys);
	cr_expect_null(strstr(keys, caller), "the caller's keyring is shared:\n%s", keys);
	free(keys);
	keys = proc_keys_in(&t, "--no-new-keyring", "key2");
	cr_expect(strstr(keys, caller), "the caller's keyring is not shared:\n%s", keys);
	free(keys);
}

/* The serials of the keyrings named name in a /proc/keys text, one a line (malloc'd). */
static char *keyring_serials(const char *keys, const char *name)
{
	char needle[96], *out = calloc(1, strlen(keys) + 1);
	cr_assert_not_null(out);
	snprintf(needle, sizeof(needle), " keyring   %s: ", name);
	for (const char *line = keys; *line;) {
		const char *end = strchrnul(line, '\n');
		const char *hit = strstr(line, needle);
		if (hit && hit < end)
			strncat(out, line, strcspn(line, " ")), strcat(out, "\n");
		line = *end ? end + 1 : end;
	}
	return out;
}

/* A process exec'd into the container joins the init's session keyring, as under runc: the
 * keyring is searchable by its user (KEY_USR_SEARCH), so the join finds it by name instead of
 * making a second, empty one. Seen from inside (the serial the init and the exec'd process
 * see) and from outside (one keyring of the name on the host). */
Test(lifecycle, exec_joins_the_session_keyring_of_the_init)
{
	struct lc t;
	init(&t);
	unmask_proc_keys(&t);
	char caller[64];
	join_private_session_keyring(caller, sizeof(caller));
	char id[32], name[40]; /* unique on the host, whose /proc/keys the test reads */
	snprintf(id, sizeof(id), "key3-%d", getpid());
	snprintf(name, sizeof(name), "_ses.%s", id);
	start_ready(&t, id, "cat /proc/keys > /init-keys; touch /ready; sleep 1000");
	struct ctt_result r;
	lc_ctrun(&r, &t, "exec", id, "cat", "/proc/keys");
	cr_assert_eq(r.status, 0, "exec: %s", r.err);
	char *path = lc_rootfs_path(&t, "init-keys"), *init_keys = ctt_read_file(path);
	char *seen_by_init = keyring_serials(init_keys, name);
	char *seen_by_exec = keyring_serials(r.out, name);
	cr_expect_eq(ctt_count_lines(seen_by_init), 1, "init:\n%s", init_keys);
	cr_expect_str_eq(seen_by_exec, seen_by_init, "exec'd process saw:\n%s", r.out);
	char *host = ctt_read_file("/proc/keys"), *on_host = keyring_serials(host, name);
	cr_expect_str_eq(on_host, seen_by_init, "on the host:\n%s", host);
	/* runc's bits: the kernel's 3f130000 for a joined keyring with KEY_USR_SEARCH (80000)
	 * added, nothing for the group or others */
	char perm_line[128];
	snprintf(perm_line, sizeof(perm_line),
		 "^[0-9a-f]+ [^ ]+ +[0-9]+ [^ ]+ 3f1b0000 .* %s: ", name);
	ctt_assert_line(host, perm_line);
	ctt_result_free(&r);
	free(on_host), free(host), free(seen_by_exec), free(seen_by_init), free(init_keys);
	free(path);
}

/* ---- concurrency ---- */

/* One `list --format json` while others come and go: exit 0, "keep" running with its pid,
 * every other entry one of the churning containers in a status a create or delete passes
 * through. Returns how many churning ones it saw. */
static int assert_list_whole(const struct lc *t, pid_t keep_pid)
{
	struct ctt_result r;
	cr_assert_eq(lc_ctrun(&r, t, "list", "--format", "json"), 0, "list: %s", r.err);
	yajl_val list = ctt_json_parse(r.out, "list --format json");
	long n = ctt_json_len(list, ".");
	int kept = 0, churning = 0;
	for (long i = 0; i < n; i++) {
		char path[64];
		snprintf(path, sizeof(path), "[%ld].id", i);
		const char *id = ctt_json_get_string(list, path);
		snprintf(path, sizeof(path), "[%ld].status", i);
		const char *status = ctt_json_get_string(list, path);
		cr_assert(id && status, "entry %ld: %s", i, r.out);
		if (strcmp(id, "keep") == 0) {
			kept++;
			cr_expect_str_eq(status, "running");
			snprintf(path, sizeof(path), "[%ld].pid", i);
			cr_expect_eq(ctt_json_get_int(list, path), keep_pid);
			continue;
		}
		churning++;
		cr_expect(ctt_matches(id, "^churn[0-9]$"), "unexpected entry %s: %s", id, r.out);
		cr_expect(ctt_matches(status, "^(created|stopped)$"), "%s is %s", id, status);
	}
	cr_expect_eq(kept, 1, "list: %s", r.out);
	yajl_tree_free(list);
	ctt_result_free(&r);
	return churning;
}

/* list takes no lock: a container half made (its directory without state.json yet), being
 * created or being deleted meanwhile fails neither list nor hides the others. */
Test(lifecycle, list_while_containers_come_and_go)
{
	struct lc t;
	init_running(&t, "sleep 1000");
	create(&t, "keep");
	lc_ok(&t, "start", "keep");
	pid_t keep_pid = lc_pid(&t, "keep");
	char *half = ctt_path(t.root, "half-made"), *stray = ctt_path(t.root, "stray-file");
	cr_assert_eq(mkdir(half, 0700), 0);
	ctt_write_file(stray, "not a container\n");

	char script[PATH_MAX * 3];
	snprintf(script, sizeof(script),
		 "for i in 0 1 2 3 4 5 6 7; do '%s' --root '%s' create --bundle '%s' churn$i && "
		 "'%s' --root '%s' delete --force churn$i || exit 1; done",
		 ctt_ctrun_path(), t.root, t.bundle, ctt_ctrun_path(), t.root);
	char *out = ctt_tmp_path("churn.out");
	pid_t churn = lc_spawn(&t, (const char *const[]){"/bin/sh", "-c", script, NULL}, out, -1);
	int seen = 0;
	for (int i = 0; i < 40; i++)
		seen += assert_list_whole(&t, keep_pid);
	cr_assert_eq(lc_wait(churn, 60000), 0, "churn: %s", ctt_read_file(out));
	cr_log_info("list saw %d churning containers in 40 runs", seen);

	struct ctt_result r;
	lc_ctrun(&r, &t, "list", "-q");
	cr_expect_str_eq(r.out, "keep\n", "half-made, the stray file and the churn are not listed");
	ctt_result_free(&r);
	rmdir(half);
	free(half);
	free(stray);
	free(out);
}

Test(lifecycle, concurrent_create_of_one_id)
{
	struct lc t;
	init_running(&t, "touch /started; sleep 1000");
	char *dir = ctt_tmpdir();
	char *out[2] = {ctt_path(dir, "a.out"), ctt_path(dir, "b.out")};
	pid_t pid[2];
	for (int i = 0; i < 2; i++)
		pid[i] = spawn_create(&t, "twin", out[i]);
	int status[2] = {lc_wait(pid[0], 30000), lc_wait(pid[1], 30000)};
	cr_assert((status[0] == 0) != (status[1] == 0), "exits %d and %d", status[0], status[1]);
	int loser = status[0] == 0;
	char *err = ctt_read_file(out[loser]);
	cr_expect(ctt_matches(err, "^ctrun: .*\"twin\".*already exists\n$"), "loser: %s", err);
	char *winner = ctt_read_file(out[!loser]);
	cr_expect_str_empty(winner, "winner: %s", winner);
	free(winner);

	lc_assert_status(&t, "twin", "created");
	cr_expect(ctt_alive(lc_pid(&t, "twin")));
	lc_ok(&t, "start", "twin");
	wait_marker(&t, "started");
	free(err);
	free(out[0]);
	free(out[1]);
	free(dir);
}
