/* A child process joined to the test by a pipe. */
#include "tests/unit/child.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

pid_t fork_piped(bool child_writes, int *end)
{
	int p[2];
	cr_assert_eq(pipe(p), 0, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	int child_end = child_writes ? p[1] : p[0], test_end = child_writes ? p[0] : p[1];
	*end = pid == 0 ? child_end : test_end;
	close(pid == 0 ? test_end : child_end);
	return pid;
}
