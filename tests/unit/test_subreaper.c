/* libct/lifecycle/subreaper.h: orphans reaped, the waited-for process left to its waiter. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/syscalls.h"
#include "libct/lifecycle/subreaper.h"

static pid_t exited_child(void)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(7);
	siginfo_t info = {0};
	/* a zombie, not reaped yet */
	cr_assert_eq(waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT), 0);
	return pid;
}

static void assert_reaped(pid_t pid)
{
	cr_assert_eq(waitpid(pid, NULL, WNOHANG), -1);
	cr_assert_eq(errno, ECHILD);
}

Test(subreaper, orphan_reaped_own_exited_process_left)
{
	pid_t orphan = exited_child();
	pid_t own = exited_child();
	int pidfd = ct_pidfd_open(own, 0);
	if (pidfd < 0 && errno == ENOSYS)
		cr_skip_test("pidfd_open: not in this kernel");
	cr_assert_geq(pidfd, 0);
	ct_reap_orphans(pidfd);
	assert_reaped(orphan);
	int status;
	cr_assert_eq(waitpid(own, &status, WNOHANG), own);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	close(pidfd);
}

Test(subreaper, nothing_reaped_without_a_pidfd)
{
	pid_t orphan = exited_child();
	ct_reap_orphans(-1);
	cr_assert_eq(waitpid(orphan, NULL, WNOHANG), orphan);
}
