/* libct/fs/canonical_path.h: realpath(3) through /proc/self/fd, with realpath's answers. */
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static void expect_as_realpath(const char *path)
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
	expect_as_realpath(path);
	snprintf(path, sizeof(path), "%s/link", tmpdir);
	expect_as_realpath(path);
	expect_as_realpath("/");
	expect_as_realpath(".");
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
