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
#include <sys/wait.h>
#include <unistd.h>

#include "libct/cgroup/internal.h"
#include "libct/state/state.h"
#include "tests/unit/child.h"

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

/* The record of one directory at path: 0, or -1 with err (errnum and message). */
static int record_one(const char *path, struct ct_error *err)
{
	struct ct_cgroup_dir dir = {
		.key = "memory", .path = (char *)path, .fd = -1, .parent_fd = -1};
	struct ct_cgroup cg = {.dirs = &dir, .n_dirs = 1, .unified_fd = -1};
	struct ct_state st = {0};
	int rc = ct_cgroup_unmade_to_state(&cg, &st, err);
	ct_state_free(&st);
	if (dir.parent_fd >= 0)
		close(dir.parent_fd);
	return rc;
}

/* A lookup that fails otherwise than ENOENT cannot say whether create makes the directory:
 * an error naming it, not a directory taken as there (and so never removed). */
static void assert_record_fails(const char *path, int errnum)
{
	struct ct_error err = {0};
	cr_expect_eq(record_one(path, &err), -1, "%s recorded", path);
	cr_expect_eq(err.errnum, errnum, "%s: %s", path, err.msg);
	cr_expect_not_null(strstr(err.msg, path), "%s", err.msg);
}

Test(cgroup_mkdir, a_lookup_that_fails_otherwise_than_enoent_is_an_error_naming_the_path)
{
	/* the parent is a file: it cannot be opened as a directory */
	int fd = creat(at("file"), 0644);
	cr_assert_geq(fd, 0);
	close(fd);
	assert_record_fails(at("file/leaf"), ENOTDIR);
	/* the parent opens, the leaf's lookup in it fails */
	char name[300];
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	char *long_leaf;
	cr_assert(asprintf(&long_leaf, "%s/%s", root, name) > 0);
	assert_record_fails(long_leaf, ENAMETOOLONG);
	free(long_leaf);
}

/* As a user who may open "locked" (O_PATH needs no permission on it) but not look into it:
 * the record fails with EACCES naming the path; the child says errnum and the message. */
Test(cgroup_mkdir, a_leaf_that_cannot_be_looked_up_is_an_error_naming_the_path)
{
	cr_assert_eq(chmod(root, 0711), 0);
	cr_assert_eq(mkdir(at("locked"), 0700), 0);
	const char *path = at("locked/leaf");
	int end;
	pid_t child = fork_piped(true, &end);
	if (child == 0) {
		struct ct_error err = {0};
		if (setresgid(65534, 65534, 65534) < 0 || setresuid(65534, 65534, 65534) < 0)
			_exit(2);
		int rc = record_one(path, &err);
		dprintf(end, "%d %d %s", rc, err.errnum, err.msg);
		_exit(0);
	}
	char text[512] = {0};
	cr_assert_gt(read(end, text, sizeof(text) - 1), 0, "the child said nothing");
	close(end);
	int status;
	cr_assert_eq(waitpid(child, &status, 0), child);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: status %d", status);
	int rc, errnum, at_msg = 0;
	cr_assert_eq(sscanf(text, "%d %d %n", &rc, &errnum, &at_msg), 2, "%s", text);
	cr_expect_eq(rc, -1, "recorded as there: %s", text);
	cr_expect_eq(errnum, EACCES, "%s", text);
	cr_expect_not_null(strstr(text + at_msg, path), "%s", text);
}
