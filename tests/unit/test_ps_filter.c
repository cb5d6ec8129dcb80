/* runtime/ps_filter.c: ps(1)'s header and only the rows of the container's pids, found by
 * the PID column wherever the ps arguments put it. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "runtime/ps_filter.h"

static void assert_filtered(const char *ps, const pid_t *pids, size_t n, const char *want)
{
	char *out = NULL;
	struct ct_error err = {0};
	cr_assert_eq(ct_ps_filter(ps, pids, n, &out, &err), 0, "%s", err.msg);
	cr_expect_str_eq(out, want);
	free(out);
}

Test(ps_filter, keeps_the_header_and_the_container_rows)
{
	const char *ps = "UID          PID    PPID  C STIME TTY          TIME CMD\n"
			 "root           1       0  0 10:00 ?        00:00:01 /sbin/init\n"
			 "root         812       1  0 10:00 ?        00:00:00 sleep 10\n"
			 "root        8120     812  0 10:00 ?        00:00:00 sh\n"
			 "root         813     812  0 10:00 ?        00:00:00 sh -c 1\n";
	const pid_t pids[] = {813, 812};
	assert_filtered(ps, pids, 2,
			"UID          PID    PPID  C STIME TTY          TIME CMD\n"
			"root         812       1  0 10:00 ?        00:00:00 sleep 10\n"
			"root         813     812  0 10:00 ?        00:00:00 sh -c 1\n");
}

Test(ps_filter, pid_column_anywhere_and_no_trailing_newline)
{
	const char *ps = "  PID TTY      STAT   TIME COMMAND\n"
			 "    7 ?        S      0:00 a\n"
			 "   70 ?        S      0:00 7";
	const pid_t pids[] = {7};
	assert_filtered(ps, pids, 1, "  PID TTY      STAT   TIME COMMAND\n"
				     "    7 ?        S      0:00 a\n");
	assert_filtered(ps, NULL, 0, "  PID TTY      STAT   TIME COMMAND\n");
}

Test(ps_filter, no_pid_column_is_an_error)
{
	char *out = NULL;
	struct ct_error err = {0};
	cr_expect_eq(ct_ps_filter("USER TIME CMD\nroot 0:00 sh\n", NULL, 0, &out, &err), -1);
	cr_expect_str_eq(err.msg, "no PID column in the output of ps");
	cr_expect_null(out);
}
