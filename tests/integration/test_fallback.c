/* The spawn fallbacks (docs/design.md "The kernel interfaces that make ctrun itself"): ctrun run
 * under tests/helpers/enosys, which makes clone3 fail with ENOSYS (an old kernel) or EPERM
 * (an old seccomp profile), or clone() with CLONE_PIDFD fail with EINVAL (a kernel before
 * 5.2). Every command of a test runs under the same filter, and the debug log of create and
 * run says which call made the init, so each test proves it took the path it is about. Then
 * pidfd_send_signal (and pidfd_open) missing: kill, kill --all and delete --force fall back
 * to a kill() checked against the recorded start time; run and a failed create still work. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(fallback, .fini = lc_cleanup);

#define ID "fb"

/* What ctrun runs under, and the spawn method its debug log must name. */
struct path {
	const char *const *enosys_args; /* between the helper and "--"; NULL: no helper */
	const char *method;
};

static const struct path plain = {NULL, "clone3"};
static const struct path clone3_enosys = {(const char *const[]){"clone3", NULL}, "clone"};
static const struct path clone3_eperm = {(const char *const[]){"--errno", "EPERM", "clone3", NULL},
					 "clone"};
static const struct path no_clone_pidfd = {
	(const char *const[]){"--clone-pidfd-einval", "clone3", NULL}, "clone+pidfd_open"};

struct fb {
	struct lc t;
	const char *wrapper[LC_WRAPPER_MAX];
	char *log; /* the --log file of create and run */
};

/* A bundle running `sh -c script` with a writable root, ctrun under enosys_args. */
static void fb_init(struct fb *f, const char *const *enosys_args, const char *script)
{
	lc_init(&f->t);
	ctt_config_set(f->t.bundle, ".root.readonly", "false");
	lc_set_script(&f->t, script);
	char *dir = ctt_tmpdir();
	f->log = ctt_path(dir, "ctrun.log");
	free(dir);
	lc_wrap_enosys(&f->t, f->wrapper, enosys_args);
}

/* The debug record of create/run names method, and exactly it ("clone" is no "clone3"). */
static void assert_spawned_with(const struct fb *f, const char *method)
{
	char *log = ctt_read_file(f->log);
	char needle[64];
	snprintf(needle, sizeof(needle), "spawned with %s\"", method);
	cr_expect(strstr(log, "level=debug"), "no debug record in the log:\n%s", log);
	cr_expect(strstr(log, needle), "the log does not say \"%s\":\n%s", needle, log);
	free(log);
}

/* The namespace of that type of pid differs from ours. */
static void expect_own_namespace(pid_t pid, const char *type)
{
	char path[64];
	struct stat theirs, ours;
	snprintf(path, sizeof(path), "/proc/%d/ns/%s", pid, type);
	cr_assert_eq(stat(path, &theirs), 0, "stat %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "/proc/self/ns/%s", type);
	cr_assert_eq(stat(path, &ours), 0, "stat %s: %s", path, strerror(errno));
	cr_expect(theirs.st_ino != ours.st_ino, "the container shares our %s namespace", type);
}

static void expect_status(const struct fb *f, const char *want)
{
	char *status = lc_status(&f->t, ID);
	cr_expect_str_eq(status, want);
	free(status);
}

/* create, start, state, kill, delete, all under the path's filter. Inside, the process is
 * pid 1 of its own pid namespace with the configured hostname. */
static void assert_lifecycle_works(const struct path *p)
{
	struct fb f;
	fb_init(&f, p->enosys_args, "echo \"pid $$ host $(hostname)\" > /inside; exec sleep 600");
	ctt_config_set(f.t.bundle, ".hostname", "\"fallback-box\"");
	lc_ok(&f.t, "--debug", "--log", f.log, "create", "--bundle", f.t.bundle, ID);
	assert_spawned_with(&f, p->method);
	expect_status(&f, "created");
	lc_ok(&f.t, "start", ID);
	char *inside = lc_rootfs_path(&f.t, "inside");
	free(ctt_wait_content(inside, "\n"));
	char *text = ctt_read_file(inside);
	cr_expect_str_eq(text, "pid 1 host fallback-box\n");
	free(text);
	free(inside);
	expect_status(&f, "running");
	pid_t pid = lc_pid(&f.t, ID);
	static const char *const types[] = {"pid", "mnt", "uts", "ipc"};
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		expect_own_namespace(pid, types[i]);
	lc_ok(&f.t, "kill", ID, "KILL");
	lc_wait_status(&f.t, ID, "stopped");
	lc_ok(&f.t, "delete", ID);
	lc_assert_nothing_left(&f.t);
}

/* `run` in the foreground under the path's filter: the container's output and exit code
 * come back, and it is deleted. */
static void assert_run_works(const struct path *p)
{
	struct fb f;
	fb_init(&f, p->enosys_args, "echo \"pid $$\"; exit 3");
	struct ctt_result r;
	lc_ctrun(&r, &f.t, "--debug", "--log", f.log, "run", "--bundle", f.t.bundle, ID);
	cr_expect_eq(r.status, 3, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, "pid 1\n");
	ctt_result_free(&r);
	assert_spawned_with(&f, p->method);
	lc_assert_nothing_left(&f.t);
}

Test(fallback, clone3_is_used_when_the_kernel_has_it)
{
	assert_lifecycle_works(&plain);
}

Test(fallback, run_uses_clone3_when_the_kernel_has_it)
{
	assert_run_works(&plain);
}

Test(fallback, lifecycle_works_when_clone3_is_enosys)
{
	assert_lifecycle_works(&clone3_enosys);
}

Test(fallback, run_works_when_clone3_is_enosys)
{
	assert_run_works(&clone3_enosys);
}

Test(fallback, lifecycle_works_when_clone3_is_eperm)
{
	assert_lifecycle_works(&clone3_eperm);
}

Test(fallback, run_works_when_clone3_is_eperm)
{
	assert_run_works(&clone3_eperm);
}

Test(fallback, lifecycle_works_without_clone_pidfd)
{
	assert_lifecycle_works(&no_clone_pidfd);
}

Test(fallback, run_works_without_clone_pidfd)
{
	assert_run_works(&no_clone_pidfd);
}

/* ---- pidfd_send_signal (and pidfd_open) missing ---- */

/* Filters under which kill and delete --force fall back to kill() by pid, checked against
 * the start time recorded in state.json. */
static const char *const send_signal_enosys[] = {"pidfd_send_signal", NULL};
static const char *const send_signal_eperm[] = {"--errno", "EPERM", "pidfd_send_signal", NULL};
static const char *const no_pidfd_calls[] = {"pidfd_open,pidfd_send_signal", NULL};

/* The init records USR1 and TERM; its two background sleeps die of TERM. */
#define RECORDER_SCRIPT                                                  \
	"trap 'echo USR1 >> /sig' USR1; trap 'echo TERM >> /sig' TERM; " \
	"sleep 1000 & sleep 1000 & touch /ready; while :; do sleep 0.1; done"

/* The whole lifecycle under the filter: the status is derived, kill reaches the init,
 * kill --all the init and every other process, delete --force kills and removes it. */
static void assert_kill_fallback_works(const char *const *enosys_args)
{
	struct fb f;
	fb_init(&f, enosys_args, RECORDER_SCRIPT);
	lc_ok(&f.t, "create", "--bundle", f.t.bundle, ID);
	expect_status(&f, "created");
	lc_ok(&f.t, "start", ID);
	char *ready = lc_rootfs_path(&f.t, "ready");
	ctt_wait_file(ready);
	free(ready);
	expect_status(&f, "running");
	pid_t init = lc_pid(&f.t, ID);
	ctt_wait_count_in_pidns(init, "sleep 1000", 2);

	lc_ok(&f.t, "kill", ID, "USR1");
	lc_assert_rootfs_content(&f.t, "sig", "USR1\n");
	lc_ok(&f.t, "kill", "--all", ID, "TERM");
	lc_assert_rootfs_content(&f.t, "sig", "USR1\nTERM\n");
	ctt_wait_count_in_pidns(init, "sleep 1000", 0);
	expect_status(&f, "running");

	lc_ok(&f.t, "delete", "--force", ID);
	cr_expect_not(ctt_alive(init), "delete --force left the init %d running", init);
	lc_assert_nothing_left(&f.t);
}

Test(fallback, kill_works_when_pidfd_send_signal_is_enosys)
{
	assert_kill_fallback_works(send_signal_enosys);
}

Test(fallback, kill_works_when_pidfd_send_signal_is_eperm)
{
	assert_kill_fallback_works(send_signal_eperm);
}

Test(fallback, kill_works_without_pidfd_open_and_pidfd_send_signal)
{
	assert_kill_fallback_works(no_pidfd_calls);
}

/* A stopped container whose pid now names an unrelated process of ours (a sleep with
 * another start time): under the fallback it is still stopped, kill refuses, kill --all
 * signals only what is left in its cgroup (nothing), delete --force only removes it, and
 * the sleep is never signalled. */
static void assert_recycled_pid_spared(const char *const *enosys_args)
{
	struct fb f;
	fb_init(&f, NULL, "true");
	lc_ok(&f.t, "run", "--detach", "--bundle", f.t.bundle, ID);
	lc_wait_status(&f.t, ID, "stopped");
	pid_t other = lc_recycle_pid(&f.t, ID);

	lc_wrap_enosys(&f.t, f.wrapper, enosys_args);
	expect_status(&f, "stopped");
	struct ctt_result r;
	lc_ctrun(&r, &f.t, "kill", ID, "KILL");
	ctt_assert_error(&r, "kill container \"" ID "\"", "container not running");
	ctt_result_free(&r);
	lc_ok(&f.t, "kill", "--all", ID, "KILL");
	lc_ok(&f.t, "delete", "--force", ID);
	cr_expect(ctt_alive(other), "ctrun signalled the process that got the recycled pid");
	kill(other, SIGKILL); /* ours: lc_spawn()ed above */
	lc_wait(other, 10000);
	lc_assert_nothing_left(&f.t);
}

Test(fallback, recycled_pid_is_spared_without_pidfd_send_signal)
{
	assert_recycled_pid_spared(send_signal_enosys);
}

Test(fallback, recycled_pid_is_spared_without_pidfd_open_and_pidfd_send_signal)
{
	assert_recycled_pid_spared(no_pidfd_calls);
}

/* Waiting and the exit code need no pidfd_send_signal. */
Test(fallback, run_works_without_pidfd_send_signal)
{
	struct fb f;
	fb_init(&f, (const char *const[]){"pidfd_send_signal", NULL}, "echo ran; exit 3");
	struct ctt_result r;
	lc_ctrun(&r, &f.t, "run", "--bundle", f.t.bundle, ID);
	cr_expect_eq(r.status, 3, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, "ran\n");
	ctt_result_free(&r);
	lc_assert_nothing_left(&f.t);
}

/* A foreground run still forwards the signals it gets, by the checked kill(): the
 * container's trap runs and its exit status comes back. */
Test(fallback, run_forwards_signals_without_pidfd_send_signal)
{
	struct fb f;
	fb_init(&f, send_signal_enosys,
		"trap 'echo TERM > /got; exit 7' TERM; touch /ready; sleep 100 & wait");
	char *out = ctt_tmp_path("run.out");
	pid_t run = lc_spawn(
		&f.t,
		lc_ctrun_argv(&f.t, (const char *const[]){"run", "--bundle", f.t.bundle, ID, NULL}),
		out, -1);
	char *ready = lc_rootfs_path(&f.t, "ready");
	ctt_wait_file(ready);
	cr_assert_eq(kill(run, SIGTERM), 0); /* ours: lc_spawn()ed above */
	int status = lc_wait(run, 20000);
	char *text = ctt_read_file(out);
	cr_expect_eq(status, 7, "run: %s", text);
	free(text);
	lc_assert_rootfs_content(&f.t, "got", "TERM\n");
	lc_assert_nothing_left(&f.t);
	free(ready);
	free(out);
}

/* A create that fails after the init is ready (no console socket listener) must still kill
 * the init and return; it used to wait forever for an init it could not signal. */
Test(fallback, failed_create_without_pidfd_send_signal_leaves_nothing)
{
	struct fb f;
	fb_init(&f, (const char *const[]){"pidfd_send_signal", NULL}, "true");
	ctt_config_set(f.t.bundle, ".process.terminal", "true");
	char *sock = ctt_path(f.t.root, "nobody.sock");
	struct ctt_result r;
	lc_ctrun(&r, &f.t, "create", "--bundle", f.t.bundle, "--console-socket", sock, ID);
	ctt_assert_error(&r, "console socket", sock, strerror(ENOENT));
	ctt_result_free(&r);
	free(sock);
	lc_assert_nothing_left(&f.t);
}
