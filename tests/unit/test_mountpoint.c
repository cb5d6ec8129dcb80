/* libct/fs/mountpoint.c: mount points made straight in a fresh directory's fd, the fall back to
 * resolution in the root, and the check that a fresh directory is still where its path leads
 * once something was mounted elsewhere. Plain directories stand in for the tmpfs mounts:
 * "fresh" directory F is registered under a path that, in the root, leads elsewhere, so
 * that where a name gets made tells which way was taken. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/fs/mountpoint.h"

static char top[PATH_MAX]; /* root/ (the rootfs, with root/dev) and fresh/ */
static int rootfd = -1;
static struct ct_mountpoints mp;

static void at(char *buf, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s/%s", top, rel);
}

static int open_dir(const char *rel)
{
	char p[PATH_MAX];
	at(p, rel);
	int fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open %s: %s", p, strerror(errno));
	return fd;
}

static void setup(void)
{
	snprintf(top, sizeof(top), "/tmp/ctrun-mountpoint-XXXXXX");
	cr_assert_not_null(mkdtemp(top));
	const char *dirs[] = {"root", "root/dev", "fresh"};
	for (size_t i = 0; i < 3; i++) {
		char p[PATH_MAX];
		at(p, dirs[i]);
		cr_assert_eq(mkdir(p, 0755), 0);
	}
	rootfd = open_dir("root");
	ct_mountpoints_init(&mp, rootfd);
}

static void teardown(void)
{
	ct_mountpoints_release(&mp);
	close(rootfd);
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		cr_log_warn("could not remove %s", top);
}

TestSuite(mountpoint, .init = setup, .fini = teardown);

/* fd is top/rel, of that type. */
static void assert_is(int fd, const char *rel, mode_t type)
{
	cr_assert_geq(fd, 0, "no fd for %s: %s", rel, strerror(errno));
	char p[PATH_MAX];
	at(p, rel);
	struct stat a, b;
	cr_assert_eq(fstat(fd, &a), 0);
	cr_assert_eq(lstat(p, &b), 0, "%s was not made", p);
	cr_expect(a.st_dev == b.st_dev && a.st_ino == b.st_ino, "the fd is not %s", p);
	cr_expect_eq(b.st_mode & S_IFMT, type, "%s has type %o", p, b.st_mode & S_IFMT);
	close(fd);
}

static bool exists(const char *rel)
{
	char p[PATH_MAX];
	struct stat st;
	at(p, rel);
	return lstat(p, &st) == 0;
}

/* "fresh" registered as /dev, which in the root leads to root/dev. */
static void register_fresh_as_dev(void)
{
	int fd = open_dir("fresh");
	int got = ct_mountpoint_add_fresh(&mp, "/dev", &fd);
	cr_assert_eq(fd, -1, "not taken over");
	cr_assert_eq(got, mp.fresh[0].fd);
}

Test(mountpoint, plain_paths)
{
	const char *plain[] = {"/dev", "/sys/fs/cgroup", "/a.b/..c/...", "/.x"};
	const char *bad[] = {"/",	  "",		"dev",	   "/dev/", "//dev",
			     "/dev//pts", "/dev/./pts", "/dev/..", "/..",   "/."};
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		cr_expect(ct_mountpoint_plain(plain[i]), "%s", plain[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect(!ct_mountpoint_plain(bad[i]), "%s", bad[i]);
}

Test(mountpoint, made_straight_in_the_fresh_directory)
{
	register_fresh_as_dev();
	assert_is(ct_mountpoint_open(&mp, "/dev/pts", CT_MAKE_DIR), "fresh/pts", S_IFDIR);
	assert_is(ct_mountpoint_open(&mp, "/dev/null", CT_MAKE_FILE), "fresh/null", S_IFREG);
	cr_expect(!exists("root/dev/pts") && !exists("root/dev/null"), "made in the root");
}

/* Only a direct child, given plainly; anything else is resolved in the root. */
Test(mountpoint, other_paths_are_resolved_in_the_root)
{
	register_fresh_as_dev();
	assert_is(ct_mountpoint_open(&mp, "/dev/a/b", CT_MAKE_DIR), "root/dev/a/b", S_IFDIR);
	assert_is(ct_mountpoint_open(&mp, "dev/c", CT_MAKE_DIR), "root/dev/c", S_IFDIR);
	assert_is(ct_mountpoint_open(&mp, "/dev/x/../d", CT_MAKE_DIR), "root/dev/d", S_IFDIR);
	assert_is(ct_mountpoint_open(&mp, "/e", CT_MAKE_DIR), "root/e", S_IFDIR);
	cr_expect(!exists("fresh/a") && !exists("fresh/c") && !exists("fresh/d"));
}

/* Something already there (a symlink the fast way would not follow): the root decides. */
Test(mountpoint, existing_name_is_resolved_in_the_root)
{
	register_fresh_as_dev();
	char p[PATH_MAX];
	at(p, "fresh/pts");
	cr_assert_eq(symlink("/etc", p), 0);
	assert_is(ct_mountpoint_open(&mp, "/dev/pts", CT_MAKE_DIR), "root/dev/pts", S_IFDIR);
	cr_expect(!exists("root/etc"), "the symlink was followed");
}

/* After a mount point taken from the root, /dev is looked at again: it leads to root/dev,
 * not to the fresh directory, which is dropped. */
Test(mountpoint, dropped_once_its_path_leads_elsewhere)
{
	register_fresh_as_dev();
	assert_is(ct_mountpoint_open(&mp, "/other", CT_MAKE_DIR), "root/other", S_IFDIR);
	assert_is(ct_mountpoint_open(&mp, "/dev/pts", CT_MAKE_DIR), "root/dev/pts", S_IFDIR);
	cr_expect_eq(mp.n, 0);
	cr_expect_eq(ct_mountpoint_fresh_dir(&mp, "/dev"), -1);
	cr_expect(!exists("fresh/pts"));
}

/* The same, with the fresh directory where /dev leads: kept, used again. */
Test(mountpoint, kept_while_its_path_leads_to_it)
{
	int fd = open_dir("root/dev");
	ct_mountpoint_add_fresh(&mp, "/dev", &fd);
	cr_assert_eq(fd, -1);
	assert_is(ct_mountpoint_open(&mp, "/other", CT_MAKE_DIR), "root/other", S_IFDIR);
	cr_expect(!mp.fresh[0].checked);
	assert_is(ct_mountpoint_open(&mp, "/dev/pts", CT_MAKE_DIR), "root/dev/pts", S_IFDIR);
	cr_expect_eq(mp.n, 1);
	cr_expect(mp.fresh[0].checked);
}

Test(mountpoint, parent_is_borrowed_when_fresh_and_owned_otherwise)
{
	register_fresh_as_dev();
	char name[NAME_MAX + 1];
	int owned;
	bool fresh;
	int dir = ct_mountpoint_parent(&mp, "/dev/null", name, sizeof(name), &owned, &fresh);
	cr_expect(fresh && owned == -1 && dir == mp.fresh[0].fd);
	cr_expect_str_eq(name, "null");
	dir = ct_mountpoint_parent(&mp, "/dev/net/tun", name, sizeof(name), &owned, &fresh);
	cr_expect(!fresh && owned == dir);
	cr_expect_str_eq(name, "tun");
	assert_is(dir, "root/dev/net", S_IFDIR);
	cr_expect(mp.fresh[0].checked, "a parent is no mount: nothing to check again");
}

Test(mountpoint, not_plain_or_no_room_stays_with_the_caller)
{
	int fd = open_dir("fresh");
	cr_expect_eq(ct_mountpoint_add_fresh(&mp, "/dev/", &fd), fd);
	cr_expect_geq(fd, 0);
	cr_expect_eq(mp.n, 0);
	close(fd);
	for (int i = 0; i < CT_MOUNTPOINT_FRESH_MAX; i++) {
		char path[32];
		snprintf(path, sizeof(path), "/d%d", i);
		fd = open_dir("fresh");
		ct_mountpoint_add_fresh(&mp, path, &fd);
		cr_assert_eq(fd, -1);
	}
	fd = open_dir("fresh");
	ct_mountpoint_add_fresh(&mp, "/one/more", &fd);
	cr_expect_geq(fd, 0, "taken with no room");
	close(fd);
}

/* A tmpfs mounted on or above a fresh one hides it. */
Test(mountpoint, a_new_one_replaces_those_at_and_below_it)
{
	const char *paths[] = {"/sys/fs/cgroup", "/sys/fsx", "/sys", "/sys/fs"};
	for (size_t i = 0; i < 4; i++) {
		int fd = open_dir("fresh");
		ct_mountpoint_add_fresh(&mp, paths[i], &fd);
	}
	cr_expect_eq(mp.n, 2);
	cr_expect_eq(ct_mountpoint_fresh_dir(&mp, "/sys/fs/cgroup"), -1);
	cr_expect_eq(ct_mountpoint_fresh_dir(&mp, "/sys/fsx"), -1);
	cr_expect_geq(ct_mountpoint_fresh_dir(&mp, "/sys"), 0);
	cr_expect_geq(ct_mountpoint_fresh_dir(&mp, "/sys/fs"), 0);
}

/* Entries of the image under root/ for the exact mount points: a symlink, a directory, a
 * FIFO, an empty file. */
static void plant_symlink(const char *rel, const char *target)
{
	char p[PATH_MAX];
	at(p, rel);
	cr_assert_eq(symlink(target, p), 0, "symlink %s: %s", p, strerror(errno));
}

static void plant_dir(const char *rel)
{
	char p[PATH_MAX];
	at(p, rel);
	cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s: %s", p, strerror(errno));
}

static void plant_fifo(const char *rel)
{
	char p[PATH_MAX];
	at(p, rel);
	cr_assert_eq(mkfifo(p, 0644), 0, "mkfifo %s: %s", p, strerror(errno));
}

static void plant_file(const char *rel)
{
	char p[PATH_MAX];
	at(p, rel);
	int fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	cr_assert_geq(fd, 0, "create %s: %s", p, strerror(errno));
	close(fd);
}

/* ct_mountpoint_open_exact() of path as what fails with errnum. */
static void assert_exact_refused(const char *path, enum ct_make what, int errnum)
{
	errno = 0;
	cr_expect_eq(ct_mountpoint_open_exact(&mp, path, what), -1, "%s was taken", path);
	cr_expect_eq(errno, errnum, "%s: %s", path, strerror(errno));
}

/* ct_mountpoint_open_exact() of path as what gives an fd, and root/path is of type (S_IF*). */
static void assert_exact_opened(const char *path, enum ct_make what, mode_t type)
{
	int fd = ct_mountpoint_open_exact(&mp, path, what);
	cr_expect_geq(fd, 0, "%s: %s", path, strerror(errno));
	close(fd);
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/root%s", top, path);
	struct stat st;
	cr_expect(stat(p, &st) == 0 && (st.st_mode & S_IFMT) == type, "%s is not of type 0%o", p,
		  (unsigned)type);
}

/* Nothing is at root/rel (a symlink's target, say). */
static void assert_not_made(const char *rel, const char *why)
{
	char p[PATH_MAX];
	at(p, rel);
	cr_expect_neq(access(p, F_OK), 0, "%s: %s", p, why);
}

/* procfs and sysfs go only on a directory at their very path (docs/security.md): a symlink of the
 * image at or above it is refused before anything is made at its target. */
Test(mountpoint, exact_directory_refuses_symlinks_and_files_and_makes_what_is_missing)
{
	plant_symlink("root/proc", "/fakeproc");
	plant_symlink("root/sys", "real");
	plant_dir("root/real");
	plant_file("root/file");

	assert_exact_refused("/proc", CT_MAKE_DIR, ELOOP);
	assert_not_made("root/fakeproc", "the symlink's target was made");
	assert_exact_refused("/sys/fs", CT_MAKE_DIR, ELOOP);
	assert_not_made("root/real/fs", "made through the symlink");
	assert_exact_refused("/file", CT_MAKE_DIR, ENOTDIR);
	assert_exact_opened("/real/a/b", CT_MAKE_DIR, S_IFDIR);
}

/* The terminal goes only on a file at /dev/console itself (CVE-2025-52565): a symlink is
 * refused before anything is made where it leads, a directory or a FIFO is no file. */
Test(mountpoint, exact_file_refuses_symlinks_and_other_kinds_and_makes_what_is_missing)
{
	plant_symlink("root/dev/console", "../victim");
	plant_dir("root/dev/dir");
	plant_fifo("root/dev/fifo");
	plant_file("root/dev/file");

	assert_exact_refused("/dev/console", CT_MAKE_FILE, ELOOP);
	assert_not_made("root/victim", "the symlink's target was made");
	assert_exact_refused("/dev/dir", CT_MAKE_FILE, EISDIR);
	assert_exact_refused("/dev/fifo", CT_MAKE_FILE, EINVAL);
	assert_exact_opened("/dev/file", CT_MAKE_FILE, S_IFREG);
	assert_exact_opened("/dev/new", CT_MAKE_FILE, S_IFREG);
}
