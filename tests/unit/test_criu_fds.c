/* checkpoint's and restore's fds when the process runs out of them (RLIMIT_NOFILE): each
 * failed call says which it was, with its errno, and the copies ctrun makes stay
 * close-on-exec. Criterion runs each test in a process of its own, so a lowered limit and
 * the fds that fill it go with the test. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "libct/criu/swrk.h"
#include "libct/lifecycle/criu_container.h"

#define FD_LIMIT 128

/* Lowers the fd limit and fills every free fd number below it, but `left` of them. */
static void leave_free_fds(int left)
{
	struct rlimit rl;
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	cr_assert_geq(rl.rlim_max, FD_LIMIT, "hard fd limit %lu", (unsigned long)rl.rlim_max);
	rl.rlim_cur = FD_LIMIT;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &rl), 0, "setrlimit: %s", strerror(errno));
	int fds[FD_LIMIT], n = 0;
	for (int fd; (fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0;)
		fds[n++] = fd;
	cr_assert_eq(errno, EMFILE, "filling the fds: %s", strerror(errno));
	cr_assert_geq(n, left, "only %d fds were free", n);
	for (int i = 0; i < left; i++)
		close(fds[n - 1 - i]);
}

static void assert_failed_with(const struct ct_error *err, int errnum, const char *needle)
{
	cr_assert_eq(err->errnum, errnum, "errno %d (%s), want %d", err->errnum, err->msg, errnum);
	cr_assert_not_null(strstr(err->msg, needle), "\"%s\" does not name %s", err->msg, needle);
}

/* Two fds free: the socketpair gets them, the pipe that holds criu back does not. */
Test(criu_fds, swrk_names_pipe2_when_it_fails)
{
	setenv(CT_CRIU_ENV, "/bin/true", 1); /* never run: it fails before */
	leave_free_fds(2);
	struct ct_criu_swrk w;
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_swrk_start(&(struct ct_criu_swrk_opts){0}, &w, &err), -1);
	assert_failed_with(&err, EMFILE, "criu: pipe2: ");
	cr_expect_eq(w.pid, -1, "no criu started");
}

Test(criu_fds, swrk_names_socketpair_when_it_fails)
{
	setenv(CT_CRIU_ENV, "/bin/true", 1);
	leave_free_fds(1);
	struct ct_criu_swrk w;
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_swrk_start(&(struct ct_criu_swrk_opts){0}, &w, &err), -1);
	assert_failed_with(&err, EMFILE, "criu: socketpair: ");
}

static int open_root(void)
{
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open /: %s", strerror(errno));
	return fd;
}

/* Without --work-path criu works in the image directory: a copy of its fd, failing in one
 * error (not an error left unset). */
Test(criu_fds, work_dir_copy_fails_with_its_errno)
{
	int image_fd = open_root();
	leave_free_fds(0);
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_open_work_dir(NULL, image_fd, true, &err), -1);
	assert_failed_with(&err, EMFILE, "--image-path");
}

Test(criu_fds, work_dir_copy_is_close_on_exec)
{
	int image_fd = open_root();
	struct ct_error err = {0};
	int fd = ct_criu_open_work_dir(NULL, image_fd, true, &err);
	cr_assert_geq(fd, 0, "%s", err.msg);
	cr_expect_neq(fd, image_fd);
	cr_expect(fcntl(fd, F_GETFD) & FD_CLOEXEC, "the copy leaks into what ctrun runs");
	close(fd);
	close(image_fd);
}

Test(criu_fds, work_path_is_made_when_asked)
{
	char dir[] = "/tmp/criu-fds-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char work[sizeof(dir) + 8];
	snprintf(work, sizeof(work), "%s/work", dir);
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_open_work_dir(work, -1, false, &err), -1, "made without make");
	assert_failed_with(&err, ENOENT, "--work-path \"");
	int fd = ct_criu_open_work_dir(work, -1, true, &err);
	cr_assert_geq(fd, 0, "%s", err.msg);
	cr_expect(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	rmdir(work);
	rmdir(dir);
}
