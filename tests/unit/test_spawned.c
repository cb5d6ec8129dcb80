/* ct_spawned_kill: the init we spawned goes and is reaped, with or without its pidfd (a
 * restored init has none where pidfd_open fails; the clone fallback may have none either). */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/syscalls.h"
#include "libct/parent/spawned.h"

/* A child of the test that waits until it is killed. */
static pid_t waiting_child(void)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

static struct ct_spawned spawned(pid_t pid, int pidfd)
{
	return (struct ct_spawned){
		.pid = pid, .pidfd = pidfd, .pty_master = -1, .sync_fd = -1, .shared_root = -1};
}

/* The child was reaped by ct_spawned_kill: nothing left to wait for. Kills it when not, so
 * that a failing test leaves no process. */
static void assert_reaped(pid_t pid)
{
	pid_t got = waitpid(pid, NULL, WNOHANG);
	int saved = errno;
	if (got == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	cr_assert(got < 0 && saved == ECHILD, "child %d not killed and reaped (waitpid: %d)",
		  (int)pid, (int)got);
}

Test(spawned, kill_through_the_pidfd_reaps_the_init)
{
	pid_t pid = waiting_child();
	int pidfd = ct_pidfd_open(pid, 0);
	if (pidfd < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		cr_skip_test("pidfd_open: %s", strerror(errno));
	}
	struct ct_spawned s = spawned(pid, pidfd);
	ct_spawned_kill(&s);
	assert_reaped(pid);
	cr_expect_eq(s.pidfd, -1, "the pidfd is closed");
}

Test(spawned, kill_without_a_pidfd_kills_and_reaps_by_pid)
{
	pid_t pid = waiting_child();
	struct ct_spawned s = spawned(pid, -1);
	ct_spawned_kill(&s);
	assert_reaped(pid);
}

Test(spawned, kill_of_no_process_does_nothing)
{
	struct ct_spawned s = spawned(-1, -1);
	ct_spawned_kill(&s); /* kill(-1) would signal every process we may: never reached */
	cr_expect_eq(s.pid, -1);
}
