/* ctrun SIGKILLed in the middle of `create` or `run`: strace (-P FILE -e inject=...:signal=KILL)
 * kills it as it reaches a chosen step, or a createRuntime hook kills its parent. Before
 * create is done with the init, the init must go too (no process left blocked for ever)
 * and the id must be deletable and usable again; once create is done with it, the
 * container is "created" as runc's is and starts in all its cgroups. Checked from outside
 * (exit status, `state`, `delete`, `start`, the processes of the test) and from inside
 * (the started process's own memory cgroup). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/integration/cgroup_util.h"
#include "tests/integration/lifecycle_util.h"

TestSuite(killed, .fini = cgt_cleanup);

#define ID	  "kc"
#define SIGKILLED 137

/* The commands of ctrun under t, traced by strace, which kills ctrun with SIGKILL as it
 * makes the first of the syscalls (comma-separated) naming path (NULL: the first of them). */
struct killer {
	char trace[128], inject[160];
	const char *argv[LC_WRAPPER_MAX + 4];
};

static void kill_at(struct lc *t, struct killer *k, const char *syscalls, const char *path)
{
	snprintf(k->trace, sizeof(k->trace), "trace=%s", syscalls);
	snprintf(k->inject, sizeof(k->inject), "inject=%s:signal=KILL", syscalls);
	const char *argv[] = {"strace", "-o",	   "/dev/null",	       "-e", k->trace,
			      "-e",	k->inject, path ? "-P" : NULL, path, NULL};
	memcpy(k->argv, argv, sizeof(argv));
	t->wrapper = k->argv;
}

/* `command --bundle B ID` under t's wrapper: killed by SIGKILL, saying nothing. */
static void assert_killed(const struct lc *t, const char *command)
{
	struct ctt_result r;
	lc_ctrun(&r, t, command, "--bundle", t->bundle, ID);
	cr_expect_eq(r.status, SIGKILLED, "%s: exit %d, stderr: %s", command, r.status, r.err);
	ctt_result_free(&r);
}

/* The test is the subreaper of a killed ctrun's init: it must reap it, as a zombie stays
 * in its v1 cgroups, which no delete could then remove. */
static void become_subreaper(void)
{
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
}

/* The init a kill orphaned is the test's child (it is their subreaper): it must end, and
 * is reaped (until it is gone, one on its way out still reads as alive). */
static void assert_orphans_end(void)
{
	for (unsigned waited = 0;; waited += 20) {
		pid_t pid = waitpid(-1, NULL, WNOHANG);
		if (pid < 0 && errno == ECHILD)
			return;
		if (pid > 0)
			continue;
		cr_assert_lt(waited, 10000, "a process the kill orphaned is still there");
		usleep(20000);
	}
}

static void assert_status(const struct lc *t, const char *want)
{
	char *status = lc_status(t, ID);
	cr_expect_str_eq(status, want);
	free(status);
}

/* ctrun killed running `command` (exit status and all), then its orphans gone. */
static void assert_killed_and_reaped(struct lc *t, const char *command)
{
	assert_killed(t, command);
	t->wrapper = NULL;
	assert_orphans_end();
}

/* ... and the container it left is stopped: a plain delete removes all of it. */
static void assert_killed_and_stopped(struct lc *t, const char *command)
{
	assert_killed_and_reaped(t, command);
	assert_status(t, "stopped");
	lc_ok(t, "delete", ID);
	lc_assert_nothing_left(t);
}

/* The id can be created again, and its container runs. The cgroup the killed create made
 * is not recorded anywhere: only a container of that id reuses it, and its delete removes
 * it (the suite's clean-up fails on a cgroup left). */
static void assert_id_usable_again(const struct lc *t)
{
	lc_set_script(t, "echo again");
	struct ctt_result r;
	lc_ctrun(&r, t, "run", "--bundle", t->bundle, ID);
	cr_expect_eq(r.status, 0, "run: exit %d, stderr: %s", r.status, r.err);
	cr_expect_str_eq(r.out, "again\n");
	ctt_result_free(&r);
	lc_assert_nothing_left(t);
}

/* Each of `create` and `run` killed in turn, as the test's children's subreaper. */
static void assert_killed_in_create_and_run(void (*killed)(const char *command))
{
	become_subreaper();
	killed("create");
	killed("run");
}

/* Killed before state.json was written: the init dies with it; `state` says the container
 * does not exist and why, `delete --force` removes the directory left, and the id is free. */
static void assert_gone_before_the_state(const char *command)
{
	struct lc t;
	struct killer k;
	lc_init(&t);
	kill_at(&t, &k, "openat", "state.json.tmp");
	assert_killed_and_reaped(&t, command);
	struct ctt_result r;
	lc_ctrun(&r, &t, "state", ID);
	lc_assert_error(&r, "container \"" ID "\" does not exist: its create was killed "
			    "before recording it");
	ctt_result_free(&r);
	lc_ok(&t, "delete", "--force", ID);
	lc_assert_nothing_left(&t);
	assert_id_usable_again(&t);
}

Test(killed, before_the_state_is_recorded)
{
	assert_killed_in_create_and_run(assert_gone_before_the_state);
}

/* A createRuntime hook kills ctrun (its parent) while the init waits for the hooks: the
 * init goes, the container is stopped and deleted as any other. */
static void assert_stopped_by_a_hook(const char *command)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".hooks",
		       "{\"createRuntime\": [{\"path\": \"/bin/sh\","
		       " \"args\": [\"sh\", \"-c\", \"kill -9 $PPID\"]}]}");
	assert_killed_and_stopped(&t, command);
}

Test(killed, by_a_create_runtime_hook)
{
	assert_killed_in_create_and_run(assert_stopped_by_a_hook);
}

/* Under a memory limit the v1 memory cgroup is joined after READY (the set-up stays charged
 * to the caller), by create itself where a seccomp filter loaded before the identity change
 * could refuse the init the write (Podman's usual config: a profile, noNewPrivileges false,
 * no CAP_SYS_ADMIN): create killed before it, the init used to wait for `start` and then
 * ran outside its memory limit. It must go instead: the container is stopped. */
static void assert_stopped_before_the_memory_cgroup(const char *command)
{
	struct lc t;
	struct killer k;
	lc_init(&t);
	ctt_config_set(t.bundle, ".linux.seccomp", "{\"defaultAction\": \"SCMP_ACT_ALLOW\"}");
	ctt_config_set(t.bundle, ".process.noNewPrivileges", "false");
	ctt_config_set(t.bundle, ".linux.resources", "{\"memory\": {\"limit\": 268435456}}");
	char *dir = cgt_dir("memory", "ctrun/" ID);
	if (!dir)
		ctt_skip("no cgroup v1 memory hierarchy: nothing follows READY there");
	/* the first open of its cgroup.procs is then the join, not an emptiness check */
	cr_assert_not(ctt_exists(dir), "%s exists already", dir);
	char *procs = ctt_path(dir, "cgroup.procs");
	kill_at(&t, &k, "openat", procs);
	assert_killed_and_stopped(&t, command);
	free(procs), free(dir);
}

Test(killed, after_ready_before_the_memory_cgroup)
{
	assert_killed_in_create_and_run(assert_stopped_before_the_memory_cgroup);
}

/* Killed after create was done with the init (writing the pid file): the container is
 * "created", as runc's would be, and `start` runs its process in its memory cgroup. */
Test(killed, after_the_init_is_created)
{
	struct lc t;
	struct killer k;
	lc_init(&t);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	lc_set_script(&t, "touch /started; exec sleep 1000");
	char *tmp = ctt_tmpdir();
	char *pid_file = ctt_path(tmp, "ctr.pid");
	/* the pid file is what create renames with rename(2) (state.json and the reservation
	 * with renameat and renameat2); strace 6.1's -P does not match rename(2)'s names */
	kill_at(&t, &k, "rename", NULL);
	struct ctt_result r;
	lc_ctrun(&r, &t, "create", "--bundle", t.bundle, "--pid-file", pid_file, ID);
	cr_expect_eq(r.status, SIGKILLED, "exit %d, stderr: %s", r.status, r.err);
	ctt_result_free(&r);
	t.wrapper = NULL;
	cr_expect_not(ctt_exists(pid_file), "the pid file was written");
	assert_status(&t, "created");
	lc_ok(&t, "start", ID);
	char *started = lc_rootfs_path(&t, "started");
	lc_wait_file(started);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)lc_pid(&t, ID));
	char *cgroups = ctt_read_file(path);
	char *memory = cgt_dir("memory", "");
	if (memory)
		cr_expect(lc_matches(cgroups, "^[0-9]+:memory:/.*/ctrun/" ID "$"),
			  "not in its memory cgroup: %s", cgroups);
	free(memory), free(cgroups), free(started), free(pid_file), free(tmp);
	lc_ok(&t, "delete", "--force", ID);
	lc_assert_nothing_left(&t);
}
