/* The NSpid line of /proc/PID/status and whether a process leads its pid namespace. */
#include <criterion/criterion.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/state/pidns.h"

static void assert_nspid(const char *text, pid_t want)
{
	pid_t got = -7;
	cr_assert_eq(ct_parse_nspid(text, &got), 0, "refused: %s", text);
	cr_expect_eq(got, want, "%s: got %d", text, got);
}

static void assert_refused(const char *text)
{
	pid_t got = -7;
	cr_expect_eq(ct_parse_nspid(text, &got), -1, "accepted: %s", text);
	cr_expect_eq(got, -7, "output written for: %s", text);
}

Test(nspid, the_innermost_pid_is_the_last)
{
	assert_nspid("Name:\tsh\nNSpid:\t4242\n", 4242);
	assert_nspid("Name:\tsh\nTgid:\t9\nNSpid:\t4242\t17\t1\nNSsid:\t1\n", 1);
	assert_nspid("NSpid:\t300 2\n", 2);
	assert_nspid("NSpid:\t5", 5); /* no trailing newline */
}

Test(nspid, other_lines_that_look_alike_are_not_taken)
{
	assert_nspid("NStgid:\t10\t1\nNSpid:\t11\t2\nNSpgid:\t1\n", 2);
	assert_refused("Name:\tNSpid:\t1\n");
	assert_refused("NSpgid:\t1\nNSsid:\t1\n");
}

Test(nspid, malformed_lines_are_refused)
{
	assert_refused("");
	assert_refused("NSpid:\n");
	assert_refused("NSpid:\t\t\n");
	assert_refused("NSpid:\t12x\n");
	assert_refused("NSpid:\t-1\n");
	assert_refused("NSpid:\t0\n");
	assert_refused("NSpid:\t99999999999999999999\n");
}

Test(pidns_live, own_process_and_gone_pid_lead_nothing)
{
	cr_expect_not(ct_proc_leads_pid_ns(getpid()));
	pid_t child = fork();
	cr_assert_geq(child, 0);
	if (child == 0)
		_exit(0);
	cr_assert_eq(waitpid(child, NULL, 0), child);
	cr_expect_not(ct_proc_leads_pid_ns(child), "a reaped pid leads nothing");
}

/* A child in a new pid namespace is its pid 1 (needs CAP_SYS_ADMIN: make check is root). */
Test(pidns_live, a_child_in_a_new_pid_namespace_leads_it)
{
	if (geteuid() != 0)
		cr_skip_test("creating a pid namespace needs root");
	int ready[2];
	cr_assert_eq(pipe(ready), 0);
	pid_t child = (pid_t)syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, NULL, NULL, NULL, NULL);
	cr_assert_geq(child, 0);
	if (child == 0) {
		char byte;
		close(ready[1]);
		_exit(read(ready[0], &byte, 1) < 0);
	}
	close(ready[0]);
	cr_expect(ct_proc_leads_pid_ns(child));
	close(ready[1]);
	cr_assert_eq(waitpid(child, NULL, 0), child);
}
