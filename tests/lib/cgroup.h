/* Helpers of the cgroup suites (test_cgroup*.c): where the test process's own cgroup is in
 * each hierarchy (read here from /proc/self/cgroup, not through libct, so that ctrun's own
 * parser does not judge ctrun), the subtree every container of a test goes under, and the
 * check that nothing is left of it. */
#ifndef CTRUN_TESTS_CGROUP_H
#define CTRUN_TESTS_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "tests/lib/container.h"

/* The test process's own cgroup: lc_init() moves the test process (each test runs in a
 * process of its own) into "ctrun-test-<pid>" below its cgroup in every hierarchy, so the
 * containers of concurrent test runs (same ids, default paths) never meet; the clean-up
 * moves it back and removes that cgroup, failing the test when a cgroup is left in it. */
void cgt_enter_own(void);
void cgt_leave_own(void);

/* The relative cgroupsPath of the tests' subtree ("ctrun-test-<pid>"). */
const char *cgt_subtree(void);

/* "<subtree>/<name>", malloc'd: the cgroup cgt_use_path() names, relative to the test's. */
char *cgt_rel(const char *name);

/* Sets .linux.cgroupsPath of t's bundle to "<subtree>/<name>". */
void cgt_use_path(const struct lc *t, const char *name);

/* Runs container id at <subtree>/<id> detached with script, which touches /ready once the
 * container is as the test wants it; returns then. */
void cgt_run_ready(const struct lc *t, const char *id, const char *script);

/* The directory of the test process's cgroup + "/" + rel in the hierarchy holding
 * controller ("memory", "cpu", "name=systemd", "" for cgroup2), malloc'ed; NULL when the
 * host has no such hierarchy. */
char *cgt_dir(const char *controller, const char *rel);
/* The same for an absolute cgroupsPath ("/libpod_parent/libpod-ID"): below the hierarchy's
 * root, not below the test's cgroup. */
char *cgt_root_dir(const char *controller, const char *path);

/* The content of dir/file without its trailing newline, malloc'ed (fails when missing). */
char *cgt_read(const char *dir, const char *file);

/* No directory named cgt_subtree() below the test's cgroup in any hierarchy. */
void cgt_assert_subtree_gone(void);
/* The hierarchies where that directory is (quoted, space-separated), malloc'ed; NULL:
 * none. */
char *cgt_subtree_left(void);

/* fn(controllers, directory of the test's cgroup + "/" + rel, arg) in every hierarchy. */
void cgt_each_dir(const char *rel, void (*fn)(const char *controllers, const char *dir, void *arg),
		  void *arg);

/* The suite's .fini: lc_cleanup(), then cgt_assert_subtree_gone(). */
void cgt_cleanup(void);

#endif
