/* libct/fs/canonical_path.h: realpath(3) through /proc/self/fd, with realpath's answers. */
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/fs/canonical_path.h"

static char tmpdir[] = "/tmp/ct-canonical-XXXXXX";

static void make_tree(void)
{
	cr_assert_not_null(mkdtemp(tmpdir));
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/real", tmpdir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/real/sub", tmpdir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/link", tmpdir);
	cr_assert_eq(symlink("real", path), 0);
}

static void remove_tree(void)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	cr_expect_eq(system(cmd), 0);
}

static void assert_as_realpath(const char *path)
{
	char want[PATH_MAX], got[PATH_MAX];
	cr_assert_not_null(realpath(path, want), "%s", path);
	cr_assert_not_null(ct_canonical_path(path, got), "%s: %s", path, strerror(errno));
	cr_expect_str_eq(got, want, "%s", path);
}

Test(canonical_path, gives_what_realpath_gives, .init = make_tree, .fini = remove_tree)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/link/sub/../sub//", tmpdir);
	assert_as_realpath(path);
	snprintf(path, sizeof(path), "%s/link", tmpdir);
	assert_as_realpath(path);
	assert_as_realpath("/");
	assert_as_realpath(".");
}

Test(canonical_path, a_missing_path_fails_as_realpath_does, .init = make_tree,
     .fini = remove_tree)
{
	char path[PATH_MAX], out[PATH_MAX];
	snprintf(path, sizeof(path), "%s/link/missing", tmpdir);
	errno = 0;
	cr_expect_null(ct_canonical_path(path, out));
	cr_expect_eq(errno, ENOENT);
}

Test(canonical_path, link_texts_that_are_not_paths)
{
	cr_expect(ct_fd_link_is_path("/srv/bundle"));
	cr_expect(ct_fd_link_is_path("/"));
	cr_expect(ct_fd_link_is_path("/srv/deleted"));
	cr_expect_not(ct_fd_link_is_path("/srv/bundle (deleted)"));
	cr_expect_not(ct_fd_link_is_path("(unreachable)/srv/bundle"));
	cr_expect_not(ct_fd_link_is_path("anon_inode:[pidfd]"));
	cr_expect_not(ct_fd_link_is_path(""));
}

/* A process in a mount namespace of its own with a tmpfs over dir, holding inner there. */
static pid_t hide_under_tmpfs(const char *dir)
{
	int ready[2];
	cr_assert_eq(pipe(ready), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		char inner[PATH_MAX];
		snprintf(inner, sizeof(inner), "%s/inner", dir);
		char ok = unshare(CLONE_NEWNS) == 0 &&
				  mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
				  mount("ct-test", dir, "tmpfs", 0, NULL) == 0 && mkdir(inner, 0700) == 0
			  ? 'y'
			  : 'n';
		if (write(ready[1], &ok, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	char ok = 'n';
	cr_assert_eq(read(ready[0], &ok, 1), 1);
	close(ready[0]);
	if (ok != 'y') {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		cr_skip_test("no mount namespace of a child's own here (not root?)");
	}
	return pid;
}

/* Through /proc/PID/root of another mount namespace the kernel's name for the file is that
 * namespace's: the same text on the host names another file (here a decoy), never taken. */
Test(canonical_path, a_name_of_another_mount_namespace_is_not_taken, .init = make_tree,
     .fini = remove_tree)
{
	char dir[PATH_MAX], decoy[PATH_MAX], path[PATH_MAX], out[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/real", tmpdir);
	snprintf(decoy, sizeof(decoy), "%s/inner", dir);
	cr_assert_eq(mkdir(decoy, 0700), 0);
	pid_t pid = hide_under_tmpfs(dir);
	snprintf(path, sizeof(path), "/proc/%d/root%s/inner", (int)pid, dir);
	struct stat want, got;
	cr_assert_eq(stat(path, &want), 0);
	char *r = ct_canonical_path(path, out);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (r) {
		cr_assert_eq(stat(out, &got), 0, "%s", out);
		cr_expect(got.st_dev == want.st_dev && got.st_ino == want.st_ino,
			  "%s names another file than %s", out, path);
	} else {
		cr_expect_eq(errno, EXDEV);
	}
}
