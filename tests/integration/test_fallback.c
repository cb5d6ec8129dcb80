/* The spawn fallbacks (DESIGN.md "The kernel interfaces that make ctrun itself"): ctrun run
 * under tests/helpers/enosys, which makes clone3 fail with ENOSYS (an old kernel) or EPERM
 * (an old seccomp profile), or clone() with CLONE_PIDFD fail with EINVAL (a kernel before
 * 5.2). Every command of a test runs under the same filter, and the debug log of create and
 * run says which call made the init, so each test proves it took the path it is about. Then
 * pidfd_send_signal missing: what kill, delete --force, run and a failed create do. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/integration/lifecycle_util.h"

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
static void check_lifecycle(const struct path *p)
{
	struct fb f;
	fb_init(&f, p->enosys_args, "echo \"pid $$ host $(hostname)\" > /inside; exec sleep 600");
	ctt_config_set(f.t.bundle, ".hostname", "\"fallback-box\"");
	lc_ok(&f.t, "--debug", "--log", f.log, "create", "--bundle", f.t.bundle, ID);
	assert_spawned_with(&f, p->method);
	expect_status(&f, "created");
	lc_ok(&f.t, "start", ID);
	char *inside = lc_rootfs_path(&f.t, "inside");
	free(lc_wait_content(inside, "\n"));
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
static void check_run(const struct path *p)
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
	check_lifecycle(&plain);
}

Test(fallback, run_uses_clone3_when_the_kernel_has_it)
{
	check_run(&plain);
}

Test(fallback, lifecycle_works_when_clone3_is_enosys)
{
	check_lifecycle(&clone3_enosys);
}

Test(fallback, run_works_when_clone3_is_enosys)
{
	check_run(&clone3_enosys);
}

Test(fallback, lifecycle_works_when_clone3_is_eperm)
{
	check_lifecycle(&clone3_eperm);
}

Test(fallback, run_works_when_clone3_is_eperm)
{
	check_run(&clone3_eperm);
}

Test(fallback, lifecycle_works_without_clone_pidfd)
{
	check_lifecycle(&no_clone_pidfd);
}

Test(fallback, run_works_without_clone_pidfd)
{
	check_run(&no_clone_pidfd);
}

/* ---- pidfd_send_signal missing ---- */

/* ctrun has no pid-based fallback for it: kill and delete --force fail with one clear line
 * naming the container and the errno, and the container is left as it was. */
static void check_kill_refused(const char *errno_name, int errnum)
{
	struct fb f;
	fb_init(&f, NULL, "exec sleep 600");
	lc_ok(&f.t, "run", "--detach", "--bundle", f.t.bundle, ID);
	lc_wrap_enosys(&f.t, f.wrapper,
		       (const char *const[]){"--errno", errno_name, "pidfd_send_signal", NULL});
	struct ctt_result r;
	lc_ctrun(&r, &f.t, "kill", ID, "KILL");
	lc_expect_error(&r, "kill container \"" ID "\"", "send signal 9", strerror(errnum));
	ctt_result_free(&r);
	lc_ctrun(&r, &f.t, "delete", "--force", ID);
	lc_expect_error(&r, "delete container \"" ID "\"", "send signal 9", strerror(errnum));
	ctt_result_free(&r);
	expect_status(&f, "running");
	lc_wrap_enosys(&f.t, f.wrapper, NULL);
	lc_ok(&f.t, "kill", ID, "KILL");
	lc_wait_status(&f.t, ID, "stopped");
	lc_ok(&f.t, "delete", ID);
	lc_assert_nothing_left(&f.t);
}

Test(fallback, kill_without_pidfd_send_signal_is_a_clear_error)
{
	check_kill_refused("ENOSYS", ENOSYS);
}

Test(fallback, kill_with_pidfd_send_signal_refused_is_a_clear_error)
{
	check_kill_refused("EPERM", EPERM);
}

/* run only forwards signals with it: waiting and the exit code need no pidfd_send_signal. */
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
	lc_expect_error(&r, "console socket", sock, strerror(ENOENT));
	ctt_result_free(&r);
	free(sock);
	lc_assert_nothing_left(&f.t);
}
