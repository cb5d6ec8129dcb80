/* /proc/PID/stat parsing and the status derived from a recorded pid and start time. */
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/state/procstat.h"
#include "tests/unit/child.h"

#define STAT_FIELDS 52 /* proc(5) on Linux >= 3.5 */

/* A /proc/PID/stat line whose field N (4..52) is N, except field 22, the start time. */
static void make_stat_line(char *buf, size_t size, const char *comm, char state, uint64_t start)
{
	int n = snprintf(buf, size, "4242 (%s) %c", comm, state);
	for (int field = 4; field <= STAT_FIELDS; field++) {
		if (field == 22)
			n += snprintf(buf + n, size - n, " %" PRIu64, start);
		else
			n += snprintf(buf + n, size - n, " %d", field);
	}
	snprintf(buf + n, size - n, "\n");
}

static void assert_parsed(const char *comm, char state, uint64_t start)
{
	char line[1024];
	make_stat_line(line, sizeof(line), comm, state, start);
	uint64_t got_start = 0;
	char got_state = 0;
	cr_assert_eq(ct_proc_parse_stat(line, &got_start, &got_state), 0, "refused: %s", line);
	cr_expect_eq(got_start, start, "comm \"%s\": start %" PRIu64, comm, got_start);
	cr_expect_eq(got_state, state, "comm \"%s\": state '%c'", comm, got_state);
}

Test(procstat_parse, plain_comm)
{
	assert_parsed("bash", 'S', 123456789);
}

Test(procstat_parse, comm_with_spaces_and_parentheses)
{
	assert_parsed("a) b (c", 'R', 77);
	assert_parsed(") Z 1 2 3", 'S', 5);
	assert_parsed("((()))", 'D', 9);
	assert_parsed("", 'S', 1);
}

Test(procstat_parse, every_state_letter_and_large_start_times)
{
	const char states[] = "RSDZTtXxKWPI";
	for (size_t i = 0; i < sizeof(states) - 1; i++)
		assert_parsed("sh", states[i], UINT64_MAX - i);
	assert_parsed("sh", 'S', 0);
}

Test(procstat_parse, outputs_may_be_null)
{
	char line[1024];
	make_stat_line(line, sizeof(line), "x", 'S', 8);
	cr_assert_eq(ct_proc_parse_stat(line, NULL, NULL), 0);
}

Test(procstat_parse, malformed_lines_are_refused)
{
	uint64_t t;
	char s;
	const char *bad[] = {
		"",
		"4242 bash S 1 2 3",		   /* no parentheses */
		"4242 (bash) S 1 2 3 4 5 6 7 8 9", /* too few fields */
		"4242 (bash)",
		"4242 (bash) SS 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22",
		"4242 (bash) S 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 -1",
		"4242 (bash) S 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 2x",
		"4242 (bash) S 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 "
		"18446744073709551616",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(ct_proc_parse_stat(bad[i], &t, &s), -1, "accepted: \"%s\"", bad[i]);
	cr_expect_eq(ct_proc_parse_stat(NULL, &t, &s), -1);
}

Test(procstat_parse, exact_twenty_two_fields_are_enough)
{
	uint64_t t = 0;
	char s = 0;
	cr_assert_eq(ct_proc_parse_stat(
			     "1 (x) S 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 99", &t, &s),
		     0);
	cr_expect_eq(t, 99);
	cr_expect_eq(s, 'S');
}

/* ---- the live /proc ---- */

static uint64_t own_start_time(void)
{
	uint64_t t = 0;
	struct ct_error err = {0};
	cr_assert_eq(ct_proc_start_time(getpid(), &t, &err), 0, "%s", err.msg);
	return t;
}

Test(procstat_live, own_stat_matches_proc_self)
{
	uint64_t start = own_start_time();
	char state = 0;
	uint64_t again = 0;
	struct ct_error err = {0};
	cr_assert_eq(ct_proc_stat(getpid(), &again, &state, &err), 0, "%s", err.msg);
	cr_expect_eq(again, start, "the start time of a live process changed");
	cr_expect_eq(state, 'R', "reading our own stat, we are running, not '%c'", state);

	/* our parent started no later than we did */
	uint64_t parent_start = 0;
	cr_assert_eq(ct_proc_start_time(getppid(), &parent_start, &err), 0, "%s", err.msg);
	cr_expect_leq(parent_start, start);
}

Test(procstat_live, gone_pid_is_enoent)
{
	pid_t child = fork();
	cr_assert_geq(child, 0);
	if (child == 0)
		_exit(0);
	cr_assert_eq(waitpid(child, NULL, 0), child);
	uint64_t t;
	struct ct_error err = {0};
	cr_assert_eq(ct_proc_start_time(child, &t, &err), -1);
	cr_expect_eq(err.errnum, ENOENT, "errnum %d: %s", err.errnum, err.msg);
	cr_assert_eq(ct_proc_start_time(0, &t, &err), -1);
	cr_expect_eq(err.errnum, ENOENT);
}

Test(status, names)
{
	cr_expect_str_eq(ct_status_name(CT_STATUS_CREATING), "creating");
	cr_expect_str_eq(ct_status_name(CT_STATUS_CREATED), "created");
	cr_expect_str_eq(ct_status_name(CT_STATUS_RUNNING), "running");
	cr_expect_str_eq(ct_status_name(CT_STATUS_STOPPED), "stopped");
	cr_expect_str_eq(ct_status_name(CT_STATUS_PAUSED), "paused");
	cr_expect_str_eq(ct_status_name((enum ct_status)99), "unknown");
}

Test(status, own_pid_is_running_once_started_else_created)
{
	uint64_t start = own_start_time();
	cr_expect_eq(ct_status_derive(getpid(), start, true), CT_STATUS_RUNNING);
	cr_expect_eq(ct_status_derive(getpid(), start, false), CT_STATUS_CREATED);
}

Test(status, start_time_mismatch_is_stopped)
{
	uint64_t start = own_start_time();
	/* what a recycled pid looks like: the same number, another process */
	cr_expect_eq(ct_status_derive(getpid(), start + 1, true), CT_STATUS_STOPPED);
	cr_expect_eq(ct_status_derive(getpid(), start - 1, false), CT_STATUS_STOPPED);
}

Test(status, no_pid_is_stopped)
{
	cr_expect_eq(ct_status_derive(0, 0, true), CT_STATUS_STOPPED);
	cr_expect_eq(ct_status_derive(-1, 0, false), CT_STATUS_STOPPED);
}

/* A child that blocks until its pipe closes, so its start time can be read while it lives. */
static pid_t fork_waiting_child(int *release_fd, uint64_t *start)
{
	pid_t child = fork_piped(false, release_fd);
	if (child == 0) {
		char c;
		while (read(*release_fd, &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	struct ct_error err = {0};
	cr_assert_eq(ct_proc_start_time(child, start, &err), 0, "%s", err.msg);
	return child;
}

Test(status, live_child_then_reaped_child)
{
	int release;
	uint64_t start;
	pid_t child = fork_waiting_child(&release, &start);
	cr_expect_eq(ct_status_derive(child, start, true), CT_STATUS_RUNNING);
	cr_expect_eq(ct_status_derive(child, start, false), CT_STATUS_CREATED);
	close(release);
	cr_assert_eq(waitpid(child, NULL, 0), child);
	cr_expect_eq(ct_status_derive(child, start, true), CT_STATUS_STOPPED);
	cr_expect_eq(ct_status_derive(child, start, false), CT_STATUS_STOPPED);
}

/* A child that exited and is left unreaped, a zombie (waitid with WNOWAIT); its start time
 * in *start. */
static pid_t zombie_child(uint64_t *start)
{
	int release;
	pid_t child = fork_waiting_child(&release, start);
	close(release);
	siginfo_t info;
	cr_assert_eq(waitid(P_PID, (id_t)child, &info, WEXITED | WNOWAIT), 0);
	return child;
}

Test(status, zombie_child_is_stopped)
{
	uint64_t start;
	pid_t child = zombie_child(&start);
	char state = 0;
	struct ct_error err = {0};
	cr_assert_eq(ct_proc_stat(child, NULL, &state, &err), 0, "%s", err.msg);
	cr_expect_eq(state, 'Z', "an exited, unreaped child is in state '%c'", state);
	cr_expect_eq(ct_status_derive(child, start, true), CT_STATUS_STOPPED);
	cr_expect_eq(ct_status_derive(child, start, false), CT_STATUS_STOPPED);
	cr_assert_eq(waitpid(child, NULL, 0), child);
}

/* ---- kill by pid, checked against the start time ---- */

/* The signal that ended the child, or 0 when it exited by itself (pipe closed). */
static int release_and_reap(pid_t child, int release)
{
	close(release);
	int status;
	cr_assert_eq(waitpid(child, &status, 0), child);
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

Test(kill_checked, signals_the_recorded_process)
{
	int release;
	uint64_t start;
	pid_t child = fork_waiting_child(&release, &start);
	struct ct_error err = {0};
	cr_expect_eq(ct_proc_kill_checked(child, start, SIGTERM, &err), 0, "%s", err.msg);
	cr_expect_eq(release_and_reap(child, release), SIGTERM);
}

Test(kill_checked, another_start_time_is_never_signalled)
{
	int release;
	uint64_t start;
	pid_t child = fork_waiting_child(&release, &start);
	/* the same pid with another start time: what a recycled pid looks like */
	struct ct_error err = {0};
	cr_expect_eq(ct_proc_kill_checked(child, start + 1, SIGTERM, &err), -1);
	cr_expect_eq(err.errnum, ESRCH, "errnum %d: %s", err.errnum, err.msg);
	cr_expect_eq(release_and_reap(child, release), 0, "the process was signalled");
}

Test(kill_checked, gone_or_zombie_is_esrch)
{
	uint64_t start;
	pid_t child = zombie_child(&start);
	struct ct_error err = {0};
	cr_expect_eq(ct_proc_kill_checked(child, start, SIGKILL, &err), -1);
	cr_expect_eq(err.errnum, ESRCH, "zombie: errnum %d: %s", err.errnum, err.msg);
	cr_assert_eq(waitpid(child, NULL, 0), child);
	cr_expect_eq(ct_proc_kill_checked(child, start, SIGKILL, &err), -1);
	cr_expect_eq(err.errnum, ESRCH, "reaped: errnum %d: %s", err.errnum, err.msg);
}
