/* libct/cgroup/internal.h ct_cg_mkdir_leaf: the leaf made and opened through its parent's
 * fd, the parents made when missing, and nothing left behind when it fails (on a plain
 * directory tree, which behaves as cgroupfs does for mkdir and open). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/cgroup/internal.h"
#include "libct/state/state.h"

static char root[] = "/tmp/ctrun-cgmkdir.XXXXXX";

static void make_root(void)
{
	strcpy(root, "/tmp/ctrun-cgmkdir.XXXXXX");
	cr_assert_not_null(mkdtemp(root));
}

static void remove_root(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(cgroup_mkdir, .init = make_root, .fini = remove_root);

static char *at(const char *rel)
{
	static char buf[4][256];
	static int next;
	char *p = buf[next++ % 4];
	snprintf(p, 256, "%s/%s", root, rel);
	return p;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The fd is the leaf itself: a file made through it shows at the leaf's path. */
static void assert_fd_is(int fd, const char *path)
{
	cr_assert_geq(fd, 0);
	cr_expect_eq(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	struct stat a, b;
	cr_assert_eq(fstat(fd, &a), 0);
	cr_assert_eq(stat(path, &b), 0, "%s: %s", path, strerror(errno));
	cr_expect(a.st_ino == b.st_ino && a.st_dev == b.st_dev, "the fd is not %s", path);
}

/* ct_cg_mkdir_leaf of rel (below the test's root) succeeds with an fd of it and records
 * first_made (relative; NULL: nothing made) as the first directory it made. */
static void assert_leaf_made(const char *rel, const char *first_made)
{
	struct ct_error err = {0};
	int fd;
	char *made = (char *)"unset", *path = strdup(at(rel));
	cr_assert_eq(ct_cg_mkdir_leaf(path, &(int){-1}, &fd, &made, &err), 0, "%s", err.msg);
	assert_fd_is(fd, path);
	if (first_made) {
		cr_expect_str_eq(made, at(first_made), "%s", rel);
		free(made);
	} else {
		cr_expect_null(made, "%s was made", made);
	}
	close(fd);
	free(path);
}

Test(cgroup_mkdir, a_leaf_whose_parent_exists)
{
	mkdir(at("parent"), 0755);
	assert_leaf_made("parent/leaf", "parent/leaf");
}

Test(cgroup_mkdir, missing_parents_are_made_and_the_first_made_recorded)
{
	assert_leaf_made("a/b/c/leaf", "a");
}

Test(cgroup_mkdir, a_leaf_that_exists_is_opened_not_made)
{
	mkdir(at("p"), 0755);
	mkdir(at("p/leaf"), 0755);
	assert_leaf_made("p/leaf", NULL);
}

Test(cgroup_mkdir, a_leaf_that_is_a_file_fails_naming_it)
{
	struct ct_error err = {0};
	int fd;
	char *made;
	mkdir(at("p"), 0755);
	close(open(at("p/leaf"), O_WRONLY | O_CREAT, 0644));
	cr_assert_eq(ct_cg_mkdir_leaf(at("p/leaf"), &(int){-1}, &fd, &made, &err), -1);
	cr_expect_eq(fd, -1);
	cr_expect_null(made);
	cr_expect_eq(err.errnum, ENOTDIR);
	cr_expect_not_null(strstr(err.msg, at("p/leaf")), "%s", err.msg);
}

Test(cgroup_mkdir, a_failed_leaf_removes_the_parents_made_for_it)
{
	struct ct_error err = {0};
	int fd;
	char *made, rel[400];
	/* the parents can be made, the leaf cannot (a name longer than NAME_MAX) */
	snprintf(rel, sizeof(rel), "new/p/%0300d", 0);
	char path[600];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	cr_assert_eq(ct_cg_mkdir_leaf(path, &(int){-1}, &fd, &made, &err), -1);
	cr_expect_eq(fd, -1);
	cr_expect_null(made);
	cr_expect_eq(err.errnum, ENAMETOOLONG);
	cr_expect_not(is_dir(at("new")), "the parents made on the way were left behind");
	cr_expect_not_null(strstr(err.msg, "create cgroup"), "%s", err.msg);
}

static const char *map_value(const oci_string_map *m, const char *key)
{
	for (size_t i = 0; i < m->len; i++)
		if (strcmp(m->items[i].key, key) == 0)
			return m->items[i].value;
	return NULL;
}

/* What create records before it makes the cgroup: only the directories not there yet, each
 * with the deepest existing ancestor as where removing stops (never one that was there). */
Test(cgroup_mkdir, the_record_names_only_what_is_not_there)
{
	cr_assert_eq(mkdir(at("a"), 0755), 0);
	cr_assert_eq(mkdir(at("mine"), 0755), 0);
	struct ct_cgroup_dir dirs[] = {
		{.key = "memory", .path = at("a/b/c"), .fd = -1, .parent_fd = -1},
		{.key = "cpu", .path = at("a/c"), .fd = -1, .parent_fd = -1, .base = root},
		{.key = "pids", .path = at("mine"), .fd = -1, .parent_fd = -1},
	};
	struct ct_cgroup cg = {.dirs = dirs, .n_dirs = 3, .unified_fd = -1};
	struct ct_state st = {0};
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_unmade_to_state(&cg, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(st.cgroup_paths.len, 2);
	cr_expect_str_eq(map_value(&st.cgroup_paths, "memory"), at("a/b/c"));
	cr_expect_str_eq(map_value(&st.cgroup_bases, "memory"), at("a"));
	cr_expect_str_eq(map_value(&st.cgroup_paths, "cpu"), at("a/c"));
	cr_expect_str_eq(map_value(&st.cgroup_bases, "cpu"), at("a"), "not the plan's base");
	cr_expect_null(map_value(&st.cgroup_paths, "pids"), "a cgroup that was there");
	ct_state_free(&st);
	cr_expect_eq(dirs[0].parent_fd, -1, "a/b is not there to open");
	assert_fd_is(dirs[1].parent_fd, at("a"));
	assert_fd_is(dirs[2].parent_fd, root);
	close(dirs[1].parent_fd);
	close(dirs[2].parent_fd);
}

/* The parent the record opened is where the leaf is made, its path not walked again: moved
 * after it was opened, the leaf shows at its new place. The fd is taken (closed, -1). */
Test(cgroup_mkdir, an_open_parent_is_used_and_taken)
{
	struct ct_error err = {0};
	cr_assert_eq(mkdir(at("p"), 0755), 0);
	int parent = open(at("p"), O_PATH | O_DIRECTORY | O_CLOEXEC), fd;
	cr_assert_geq(parent, 0);
	cr_assert_eq(rename(at("p"), at("q")), 0);
	cr_assert_eq(mkdir(at("p"), 0755), 0);
	char *made = NULL, *path = strdup(at("p/leaf"));
	cr_assert_eq(ct_cg_mkdir_leaf(path, &parent, &fd, &made, &err), 0, "%s", err.msg);
	cr_expect_eq(parent, -1);
	assert_fd_is(fd, at("q/leaf"));
	cr_expect_not(is_dir(at("p/leaf")), "the path was walked again");
	close(fd);
	free(made);
	free(path);
}
