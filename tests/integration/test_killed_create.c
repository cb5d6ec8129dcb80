/* ctrun SIGKILLed in the middle of `create` or `run`: strace (-P FILE -e inject=...:signal=KILL)
 * kills it as it reaches a chosen step, or a createRuntime hook kills its parent. Before
 * create is done with the init, the init must go too (no process left blocked for ever)
 * and the id must be deletable and usable again; once create is done with it, the
 * container is "created" as runc's is and starts in all its cgroups. Checked from outside
 * (exit status, `state`, `delete`, `start`, the processes of the test) and from inside
 * (the started process's own memory cgroup). Then the sweeps: ctrun killed before each of
 * its syscalls in turn (the whole sequence of create and of run, strace's count of each
 * syscall naming the point) and at 30 random moments, after which `delete --force` or a
 * create of the same id leaves no cgroup (every hierarchy), state entry, process, fd or
 * mount, and never removes a cgroup that was there before. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/cgroup.h"
#include "tests/lib/container.h"
#include "tests/lib/leftovers.h"

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
	lc_assert_status(t, ID, "stopped");
	lc_ok(t, "delete", ID);
	lc_assert_nothing_left(t);
}

/* The id can be created again, and its container runs. The cgroup the killed create made
 * is not recorded anywhere: only a container of that id reuses it, and its delete removes
 * it (the suite's clean-up fails on a cgroup left). */
static void assert_id_usable_again(const struct lc *t)
{
	struct ctt_result r;
	lc_run_sh(&r, t, ID, "echo again");
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
	lc_assert_fails(&t, LC_ARGV("state", ID),
			"container \"" ID "\" does not exist: its create failed or was "
			"killed before recording it");
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
	lc_assert_status(&t, ID, "created");
	lc_ok(&t, "start", ID);
	char *started = lc_rootfs_path(&t, "started");
	ctt_wait_file(started);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)lc_pid(&t, ID));
	char *cgroups = ctt_read_file(path);
	char *memory = cgt_dir("memory", "");
	if (memory)
		cr_expect(ctt_matches(cgroups, "^[0-9]+:memory:/.*/ctrun/" ID "$"),
			  "not in its memory cgroup: %s", cgroups);
	free(memory), free(cgroups), free(started), free(pid_file), free(tmp);
	lc_ok(&t, "delete", "--force", ID);
	lc_assert_nothing_left(&t);
}

/* ---- a kill before each syscall of create and run, and at random moments ---- */

#define MAX_STEPS 4096

/* The global flags of the sweeps' commands (--cgroup-manager disabled), NULL-terminated. */
static const char *globals[3];

/* `ctrun [globals] args... ID` */
static void ctrun_id(struct ctt_result *r, const struct lc *t, const char *const *args)
{
	const char *argv[16];
	size_t n = 0;
	for (size_t i = 0; globals[i]; i++)
		argv[n++] = globals[i];
	for (size_t i = 0; args[i] && n < 14; i++)
		argv[n++] = args[i];
	argv[n++] = ID;
	argv[n] = NULL;
	lc_ctrunv(r, t, argv);
}

/* One syscall ctrun makes: its name and which of its calls it is (1: the first). */
struct step {
	char name[32];
	unsigned nth;
};

static unsigned calls_before(const struct step *steps, size_t n, const char *name)
{
	unsigned calls = 0;
	for (size_t i = 0; i < n; i++)
		calls += strcmp(steps[i].name, name) == 0;
	return calls;
}

/* The syscalls of `command` (ctrun's own, not its children's) in order, as strace lists
 * them; the container it made is deleted. */
static size_t record_steps(struct lc *t, const char *command, struct step *steps)
{
	char *tmp = ctt_tmpdir();
	char *log = ctt_path(tmp, "strace.log");
	const char *wrap[] = {"strace", "-o", log, NULL};
	t->wrapper = wrap;
	struct ctt_result r;
	ctrun_id(&r, t, LC_ARGV(command, "--bundle", t->bundle));
	t->wrapper = NULL;
	cr_assert_eq(r.status, 0, "%s under strace: exit %d, stderr: %s", command, r.status, r.err);
	ctt_result_free(&r);
	ctrun_id(&r, t, LC_ARGV("delete", "--force"));
	cr_assert_eq(r.status, 0, "delete --force: %s", r.err);
	ctt_result_free(&r);
	char *text = ctt_read_file(log);
	size_t n = 0;
	for (char *line = strtok(text, "\n"); line && n < MAX_STEPS; line = strtok(NULL, "\n")) {
		size_t len = strspn(line, "abcdefghijklmnopqrstuvwxyz0123456789_");
		if (!len || line[len] != '(' || len >= sizeof(steps->name))
			continue;
		memcpy(steps[n].name, line, len);
		steps[n].name[len] = '\0';
		steps[n].nth = calls_before(steps, n, steps[n].name) + 1;
		n++;
	}
	cr_assert_gt(n, 10, "too few syscalls in %s", log);
	free(text), free(log), free(tmp);
	return n;
}

/* `command` under strace, killed with SIGKILL as it makes step s (before the kernel runs
 * it); a run that makes fewer calls is not killed. */
static void kill_before(struct lc *t, const char *command, const struct step *s)
{
	char trace[64], inject[96];
	snprintf(trace, sizeof(trace), "trace=%s", s->name);
	snprintf(inject, sizeof(inject), "inject=%s:signal=KILL:when=%u", s->name, s->nth);
	const char *wrap[] = {"strace", "-o", "/dev/null", "-e", trace, "-e", inject, NULL};
	t->wrapper = wrap;
	struct ctt_result r;
	ctrun_id(&r, t, LC_ARGV(command, "--bundle", t->bundle));
	t->wrapper = NULL;
	cr_assert(r.status == SIGKILLED || r.status == 0, "%s killed at %s #%u: exit %d: %s",
		  command, s->name, s->nth, r.status, r.err);
	ctt_result_free(&r);
}

/* After a kill: either `delete --force` (which always succeeds), or a `create` of the same
 * id, which finds and removes what the killed one left, or fails as the container exists
 * (the kill came after create recorded it), and the container is then deleted. The init
 * of a container the kill left created is reaped then (the test is its subreaper). */
static void recover(const struct lc *t, bool by_create, const char *after)
{
	struct ctt_result r;
	if (by_create) {
		ctrun_id(&r, t, LC_ARGV("create", "--bundle", t->bundle));
		bool exists = r.status != 0 && strstr(r.err, "already exists");
		cr_assert(r.status == 0 || exists, "%s: create again: exit %d, stderr: %s", after,
			  r.status, r.err);
		ctt_result_free(&r);
		if (exists)
			lc_ok(t, "state", ID);
	}
	ctrun_id(&r, t, LC_ARGV("delete", "--force"));
	cr_assert_eq(r.status, 0, "%s: delete --force: exit %d, stderr: %s", after, r.status,
		     r.err);
	ctt_result_free(&r);
	assert_orphans_end();
}

/* `command` killed before each of its syscalls in turn; after each kill the id is
 * recovered (by delete --force and by create, by turns) and nothing is left. */
static void assert_nothing_left_after_a_kill_at_every_syscall(const char *command)
{
	static struct step steps[MAX_STEPS];
	struct lc t;
	lc_init(&t);
	become_subreaper();
	lc_note_mounts(&t);
	cgt_use_path(&t, ID);
	lc_set_args(&t, LC_ARGV("/bin/true"));
	size_t n = record_steps(&t, command, steps);
	lc_assert_all_gone(&t, "the recording run");
	for (size_t i = 0; i < n; i++) {
		char after[128];
		snprintf(after, sizeof(after), "%s killed at syscall %zu of %zu (%s #%u)", command,
			 i + 1, n, steps[i].name, steps[i].nth);
		kill_before(&t, command, &steps[i]);
		recover(&t, i % 2, after);
		lc_assert_all_gone(&t, after);
	}
	assert_id_usable_again(&t);
}

Test(killed, create_at_every_syscall)
{
	assert_nothing_left_after_a_kill_at_every_syscall("create");
}

Test(killed, run_at_every_syscall)
{
	assert_nothing_left_after_a_kill_at_every_syscall("run");
}

/* Without a cgroup (--cgroup-manager disabled) nothing can kill the init but its own end:
 * none may stay at any kill point. */
Test(killed, create_without_a_cgroup_at_every_syscall)
{
	globals[0] = "--cgroup-manager";
	globals[1] = "disabled";
	assert_nothing_left_after_a_kill_at_every_syscall("create");
}

static void sleep_us(unsigned us)
{
	struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000};
	nanosleep(&ts, NULL);
}

#define RANDOM_TRIES   30
#define RANDOM_SPAN_US 10000

/* SIGKILL at 30 random moments spread over 0-10 ms of a create (one in each 1/30 of it). */
Test(killed, at_random_moments)
{
	struct lc t;
	lc_init(&t);
	become_subreaper();
	lc_note_mounts(&t);
	cgt_use_path(&t, ID);
	char *tmp = ctt_tmpdir();
	char *out = ctt_path(tmp, "out");
	unsigned seed = (unsigned)getpid() ^ (unsigned)time(NULL);
	srandom(seed);
	for (unsigned i = 0; i < RANDOM_TRIES; i++) {
		unsigned slot = RANDOM_SPAN_US / RANDOM_TRIES;
		unsigned us = i * slot + (unsigned)random() % slot;
		char after[128];
		snprintf(after, sizeof(after), "create killed after %u us (try %u, seed %u)", us, i,
			 seed);
		pid_t pid =
			lc_spawn(&t, lc_ctrun_argv(&t, LC_ARGV("create", "--bundle", t.bundle, ID)),
				 out, -1);
		sleep_us(us);
		kill(pid, SIGKILL);
		int status = lc_wait(pid, 20000);
		cr_assert(status == SIGKILLED || status == 0, "%s: exit %d", after, status);
		recover(&t, i % 2, after);
		lc_assert_all_gone(&t, after);
	}
	free(out), free(tmp);
	assert_id_usable_again(&t);
}

/* ---- a cgroup that was there ---- */

static void make_dir(const char *controllers, const char *dir, void *arg)
{
	(void)controllers, (void)arg;
	cr_assert(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir %s: %s", dir, strerror(errno));
}

static void assert_dir_kept(const char *controllers, const char *dir, void *after)
{
	cr_assert(ctt_exists(dir), "%s: the cgroup the test made in \"%s\" was removed: %s",
		  (const char *)after, controllers, dir);
}

/* rmdir, while a process killed a moment ago is still counted (EBUSY), a little longer. */
static void remove_dir(const char *controllers, const char *dir, void *arg)
{
	(void)controllers, (void)arg;
	int tries = 0;
	while (rmdir(dir) < 0 && errno == EBUSY && tries++ < 500)
		usleep(10000);
	cr_assert(!ctt_exists(dir), "rmdir %s: %s", dir, strerror(errno));
}

/* cgroupsPath names a cgroup the test made, empty, in every hierarchy: a create killed
 * before it recorded its container leaves it, as it did not make it. Once the container is
 * recorded the cgroup is the container's, and delete removes it (as runc's does). */
Test(killed, keeps_a_cgroup_that_was_there)
{
	static struct step steps[MAX_STEPS];
	struct lc t;
	lc_init(&t);
	become_subreaper();
	lc_note_mounts(&t);
	char mine[128];
	snprintf(mine, sizeof(mine), "%s/mine", cgt_subtree());
	cgt_use_path(&t, "mine");
	size_t n = record_steps(&t, "create", steps);
	for (size_t i = 0; i < n; i++) {
		char after[128];
		snprintf(after, sizeof(after), "create killed at syscall %zu of %zu (%s #%u)",
			 i + 1, n, steps[i].name, steps[i].nth);
		cgt_each_dir(cgt_subtree(), make_dir, NULL);
		cgt_each_dir(mine, make_dir, NULL);
		kill_before(&t, "create", &steps[i]);
		struct ctt_result r;
		lc_ctrun(&r, &t, "state", ID);
		bool recorded = r.status == 0;
		ctt_result_free(&r);
		recover(&t, false, after);
		if (!recorded)
			cgt_each_dir(mine, assert_dir_kept, after);
		cgt_each_dir(mine, remove_dir, NULL);
		cgt_each_dir(cgt_subtree(), remove_dir, NULL);
		lc_assert_all_gone(&t, after);
	}
}
