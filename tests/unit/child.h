/* A child process of a unit test joined to it by a pipe (test_cache_dir.c, test_procstat.c). */
#ifndef CTRUN_TESTS_UNIT_CHILD_H
#define CTRUN_TESTS_UNIT_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

/* Forks; returns 0 in the child and the child's pid in the test, as fork() does. *end is
 * the caller's end of a pipe between them: in the child the write end when child_writes,
 * else the read end; in the test the other one. The other end is closed on each side. */
pid_t fork_piped(bool child_writes, int *end);

#endif
