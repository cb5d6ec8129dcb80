/* Scope-bound ownership: every fd closed exactly once, by its cleanup or by ct_close_now,
 * never after it was stolen; a child waited for when its scope ends. Whether an fd is
 * still open is asked of the kernel (fcntl F_GETFD). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/cleanup.h"

static bool is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

static int scoped_pair(int out[2], bool steal_read)
{
	_cleanup_close_pair_ int p[2] = CT_FD_PAIR_INIT;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	out[0] = p[0];
	out[1] = p[1];
	return steal_read ? steal_fd(&p[0]) : 0;
}

Test(cleanup, pair_closes_both_ends)
{
	int seen[2];
	cr_assert_eq(scoped_pair(seen, false), 0);
	cr_expect_not(is_open(seen[0]));
	cr_expect_not(is_open(seen[1]));
}

Test(cleanup, pair_keeps_a_stolen_end)
{
	int seen[2];
	int kept = scoped_pair(seen, true);
	cr_assert_eq(kept, seen[0]);
	cr_expect(is_open(kept), "the stolen end was closed");
	cr_expect_not(is_open(seen[1]));
	close(kept);
}

Test(cleanup, close_now_forgets_the_fd)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	int was = fd;
	ct_close_now(&fd);
	cr_expect_eq(fd, -1);
	cr_expect_not(is_open(was));
	ct_close_now(&fd); /* a second close of -1 is a no-op, not close(-1) */
	cr_expect_eq(fd, -1);
}

Test(cleanup, fd_replace_closes_the_old_one)
{
	int owner = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int next = open("/dev/null", O_RDONLY | O_CLOEXEC);
	cr_assert(owner >= 0 && next >= 0);
	int old = owner;
	ct_fd_replace(&owner, next);
	cr_expect_eq(owner, next);
	cr_expect_not(is_open(old));
	cr_expect(is_open(next));
	ct_close_now(&owner);
}

/* fdopendir takes the fd only when it works: on failure it stays the caller's, open,
 * with fdopendir's errno. */
Test(cleanup, fdopendir_takes_the_fd_only_on_success)
{
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	DIR *d = ct_fdopendir(&fd);
	cr_assert_not_null(d);
	cr_expect_eq(fd, -1, "taken over by the DIR");
	closedir(d);

	int file = open("/dev/null", O_RDONLY | O_CLOEXEC);
	cr_assert_geq(file, 0);
	int was = file;
	cr_expect_null(ct_fdopendir(&file));
	cr_expect_eq(errno, ENOTDIR);
	cr_expect_eq(file, was, "still the caller's");
	cr_expect(is_open(file));
	ct_close_now(&file);

	int none = -1;
	cr_expect_null(ct_fdopendir(&none));
}

static pid_t scoped_child(void)
{
	_cleanup_wait_ pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	return pid;
}

Test(cleanup, wait_reaps_the_child)
{
	pid_t pid = scoped_child();
	cr_assert_gt(pid, 0);
	cr_expect_eq(waitpid(pid, NULL, WNOHANG), -1, "the child was left to reap");
	cr_expect_eq(errno, ECHILD);
}
