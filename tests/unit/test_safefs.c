/* libct/fs/safefs.c: resolution inside a root with hostile symlinks, with both resolvers (openat2
 * and the walk) giving the same answers, creation of missing paths, and chmod/chown through
 * O_PATH fds. Each test builds its own tree under a fresh temporary directory. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/fs/safefs.h"

static char top[PATH_MAX];  /* the test's temporary directory */
static char root[PATH_MAX]; /* top/root: the "rootfs" */
static char host[PATH_MAX]; /* top/host: stands for the host, outside the root */
static int rootfd = -1;

static void in(char *buf, const char *base, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s/%s", base, rel);
}

static void make_dir(const char *base, const char *rel)
{
	char p[PATH_MAX];
	in(p, base, rel);
	cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s: %s", p, strerror(errno));
}

static void make_file(const char *base, const char *rel)
{
	char p[PATH_MAX];
	in(p, base, rel);
	int fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	cr_assert_geq(fd, 0, "create %s: %s", p, strerror(errno));
	close(fd);
}

static void make_link(const char *target, const char *rel)
{
	char p[PATH_MAX];
	in(p, root, rel);
	cr_assert_eq(symlink(target, p), 0, "symlink %s: %s", p, strerror(errno));
}

static void setup(void)
{
	snprintf(top, sizeof(top), "/tmp/ctrun-safefs-XXXXXX");
	cr_assert_not_null(mkdtemp(top));
	in(root, top, "root");
	in(host, top, "host");
	cr_assert_eq(mkdir(root, 0755), 0);
	cr_assert_eq(mkdir(host, 0755), 0);
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(rootfd, 0);
	make_dir(root, "etc");
	make_file(root, "etc/passwd");
	make_file(host, "secret");
}

static void teardown(void)
{
	if (rootfd >= 0)
		close(rootfd);
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (top[0] && system(cmd) != 0)
		cr_log_warn("could not remove %s", top);
}

/* fd refers to base/rel (same inode). */
static void assert_is(int fd, const char *base, const char *rel)
{
	char p[PATH_MAX];
	in(p, base, rel);
	struct stat a, b;
	cr_assert_geq(fd, 0, "open of %s failed: %s", rel, strerror(errno));
	cr_assert_eq(fstat(fd, &a), 0);
	cr_assert_eq(lstat(p, &b), 0, "%s: %s", p, strerror(errno));
	cr_assert(a.st_dev == b.st_dev && a.st_ino == b.st_ino, "fd is not %s", p);
	close(fd);
}

static void assert_fails(int fd, int errnum)
{
	if (fd >= 0)
		close(fd);
	cr_assert_lt(fd, 0, "opened what should fail");
	cr_assert_eq(errno, errnum, "errno %d (%s), expected %d", errno, strerror(errno), errnum);
}

static void assert_host_untouched(void)
{
	char p[PATH_MAX];
	in(p, host, "made");
	cr_assert_neq(access(p, F_OK), 0, "something was created outside the root");
}

ParameterizedTestParameters(safefs, resolves)
{
	static enum ct_resolver how[] = {CT_RESOLVE_OPENAT2, CT_RESOLVE_WALK};
	return cr_make_param_array(enum ct_resolver, how, 2);
}

/* Every hostile case of one resolver, so that both run the same list. */
ParameterizedTest(enum ct_resolver *how, safefs, resolves, .init = setup, .fini = teardown)
{
	char hostsecret[PATH_MAX];
	in(hostsecret, host, "secret");
	make_link("/etc", "abs");
	make_link("../../../../../../etc", "dotdot");
	make_link(hostsecret, "tohost");
	make_link("loop2", "loop1");
	make_link("loop1", "loop2");
	make_link("etc/passwd", "rel");
	make_dir(root, "etc/sub");
	make_link("../passwd", "etc/sub/up");

	assert_is(ct_root_open_with(*how, rootfd, "/etc/passwd", false), root, "etc/passwd");
	assert_is(ct_root_open_with(*how, rootfd, "etc//passwd", false), root, "etc/passwd");
	assert_is(ct_root_open_with(*how, rootfd, "abs/passwd", false), root, "etc/passwd");
	assert_is(ct_root_open_with(*how, rootfd, "dotdot/passwd", false), root, "etc/passwd");
	assert_is(ct_root_open_with(*how, rootfd, "../../../etc/passwd", false), root,
		  "etc/passwd");
	assert_is(ct_root_open_with(*how, rootfd, "etc/sub/../../etc/./passwd", false), root,
		  "etc/passwd");
	assert_is(ct_root_open_with(*how, rootfd, "rel", false), root, "etc/passwd");
	assert_is(ct_root_open_with(*how, rootfd, "/etc/sub/up", false), root, "etc/passwd");
	assert_is(ct_root_open_with(*how, rootfd, "/", false), root, "");
	assert_is(ct_root_open_with(*how, rootfd, "..", false), root, "");
	/* the last symlink itself with nofollow */
	assert_is(ct_root_open_with(*how, rootfd, "tohost", true), root, "tohost");
	/* a host path through a symlink is looked up inside: missing there */
	assert_fails(ct_root_open_with(*how, rootfd, "tohost", false), ENOENT);
	assert_fails(ct_root_open_with(*how, rootfd, "loop1", false), ELOOP);
	assert_fails(ct_root_open_with(*how, rootfd, "etc/passwd/x", false), ENOTDIR);
}

ParameterizedTestParameters(safefs, exact)
{
	static enum ct_resolver how[] = {CT_RESOLVE_OPENAT2, CT_RESOLVE_WALK};
	return cr_make_param_array(enum ct_resolver, how, 2);
}

/* No symlink at all on the way, the last component included; both resolvers alike. */
ParameterizedTest(enum ct_resolver *how, safefs, exact, .init = setup, .fini = teardown)
{
	make_dir(root, "proc");
	make_link("/etc", "abs");
	make_link("etc", "rel");
	make_dir(root, "etc/sub");
	assert_is(ct_root_open_exact_with(*how, rootfd, "/proc"), root, "proc");
	assert_is(ct_root_open_exact_with(*how, rootfd, "/etc/sub"), root, "etc/sub");
	assert_fails(ct_root_open_exact_with(*how, rootfd, "/abs"), ELOOP);
	assert_fails(ct_root_open_exact_with(*how, rootfd, "/rel/sub"), ELOOP);
	assert_fails(ct_root_open_exact_with(*how, rootfd, "/abs/sub"), ELOOP);
	assert_fails(ct_root_open_exact_with(*how, rootfd, "/missing/x"), ENOENT);
}

Test(safefs, auto_resolver_is_openat2_here, .init = setup, .fini = teardown)
{
	assert_is(ct_root_open(rootfd, "etc/passwd", false), root, "etc/passwd");
	cr_assert_eq(ct_root_resolver(), CT_RESOLVE_OPENAT2);
}

Test(safefs, mkpath_makes_directories_and_files, .init = setup, .fini = teardown)
{
	assert_is(ct_root_mkpath(rootfd, "/a/b/c", CT_MAKE_DIR), root, "a/b/c");
	assert_is(ct_root_mkpath(rootfd, "a/b/c", CT_MAKE_DIR), root, "a/b/c");
	assert_is(ct_root_mkpath(rootfd, "/a/f", CT_MAKE_FILE), root, "a/f");
	char p[PATH_MAX];
	struct stat st;
	in(p, root, "a/f");
	cr_assert_eq(stat(p, &st), 0);
	cr_assert(S_ISREG(st.st_mode));
	in(p, root, "a/b");
	cr_assert_eq(stat(p, &st), 0);
	cr_assert(S_ISDIR(st.st_mode));
}

/* A trailing "." names the directory before it, as a mount destination "/mnt/." does. */
Test(safefs, mkpath_with_a_trailing_dot_makes_the_directory_before_it, .init = setup,
     .fini = teardown)
{
	assert_is(ct_root_mkpath(rootfd, "/d/./e/.", CT_MAKE_DIR), root, "d/e");
	assert_is(ct_root_mkpath(rootfd, "/d/e/./", CT_MAKE_DIR), root, "d/e");
	char p[PATH_MAX];
	struct stat st;
	in(p, root, "d/e");
	cr_assert_eq(stat(p, &st), 0);
	cr_assert(S_ISDIR(st.st_mode));
}

Test(safefs, mkpath_through_a_symlink_stays_inside, .init = setup, .fini = teardown)
{
	make_link(host, "tohostdir");
	make_dir(root, "tmp");
	make_link("/var", "tovar");
	assert_is(ct_root_mkpath(rootfd, "tovar/lib/x", CT_MAKE_DIR), root, "var/lib/x");
	assert_is(ct_root_mkpath(rootfd, "../../../made", CT_MAKE_DIR), root, "made");
	assert_host_untouched();
	/* a link to a host directory is dangling inside: its target is made in the root */
	char inside[PATH_MAX];
	snprintf(inside, sizeof(inside), "%s/made", host + 1);
	assert_is(ct_root_mkpath(rootfd, "tohostdir/made", CT_MAKE_DIR), root, inside);
	assert_host_untouched();
}

Test(safefs, mkpath_on_a_file_component_fails, .init = setup, .fini = teardown)
{
	assert_fails(ct_root_mkpath(rootfd, "etc/passwd/x", CT_MAKE_DIR), ENOTDIR);
}

Test(safefs, mkparent, .init = setup, .fini = teardown)
{
	char name[NAME_MAX + 1];
	make_link("/etc", "abs");
	assert_is(ct_root_mkparent(rootfd, "/abs/passwd", name, sizeof(name)), root, "etc");
	cr_assert_str_eq(name, "passwd");
	assert_is(ct_root_mkparent(rootfd, "top", name, sizeof(name)), root, "");
	cr_assert_str_eq(name, "top");
	assert_is(ct_root_mkparent(rootfd, "/etc/new/", name, sizeof(name)), root, "etc");
	cr_assert_str_eq(name, "new");
	assert_is(ct_root_mkparent(rootfd, "/abs/made/dev", name, sizeof(name)), root, "etc/made");
	cr_assert_str_eq(name, "dev");
	assert_fails(ct_root_mkparent(rootfd, "/", name, sizeof(name)), EINVAL);
	assert_fails(ct_root_mkparent(rootfd, "etc/..", name, sizeof(name)), EINVAL);
	assert_fails(ct_root_mkparent(rootfd, "etc/.", name, sizeof(name)), EINVAL);
}

static mode_t mode_of(const char *rel)
{
	char p[PATH_MAX];
	struct stat st;
	in(p, root, rel);
	cr_assert_eq(lstat(p, &st), 0);
	return st.st_mode & 07777;
}

Test(safefs, chmod_and_chown_through_o_path, .init = setup, .fini = teardown)
{
	int fd = ct_root_open(rootfd, "etc/passwd", false);
	cr_assert_geq(fd, 0);
	cr_assert_eq(ct_fd_chmod(fd, 0600), 0, "%s", strerror(errno));
	cr_assert_eq(mode_of("etc/passwd"), 0600);
	cr_assert_eq(ct_fd_chmod_by_proc(fd, 0640), 0, "%s", strerror(errno));
	cr_assert_eq(mode_of("etc/passwd"), 0640);
	cr_assert_eq(ct_fd_chown(fd, 12, 34), 0, "%s", strerror(errno));
	struct stat st;
	cr_assert_eq(fstat(fd, &st), 0);
	cr_assert(st.st_uid == 12 && st.st_gid == 34);
	close(fd);
}

Test(safefs, chmod_of_a_symlink_fd_never_reaches_its_target, .init = setup, .fini = teardown)
{
	make_link("etc/passwd", "link");
	mode_t before = mode_of("etc/passwd");
	int fd = ct_root_open(rootfd, "link", true);
	cr_assert_geq(fd, 0);
	cr_assert_neq(ct_fd_chmod(fd, 0777), 0, "chmod of a symlink succeeded");
	cr_assert_eq(mode_of("etc/passwd"), before);
	close(fd);
}

Test(safefs, fd_path)
{
	char buf[32];
	cr_assert_str_eq(ct_fd_path(7, buf, sizeof(buf)), "/proc/self/fd/7");
}

static void assert_normal(const char *in_path, const char *want)
{
	char out[64];
	ct_path_normalize(in_path, out, sizeof(out));
	cr_assert_str_eq(out, want, "\"%s\"", in_path);
}

Test(safefs, path_normalize)
{
	assert_normal("", "/");
	assert_normal("/", "/");
	assert_normal("//", "/");
	assert_normal("data", "/data");
	assert_normal("/dev/", "/dev");
	assert_normal("/a//b/./c", "/a/b/c");
	assert_normal("/a/b/../c", "/a/c");
	assert_normal("../../x", "/x");
	assert_normal("/a/..", "/");
	assert_normal("./", "/");
}

Test(safefs, path_is_normal_is_what_ct_path_normalize_keeps_as_it_is)
{
	const char *normal[] = {"/", "/dev", "/dev/pts", "/a/.b/..c/...", "/sys/fs/cgroup"};
	const char *odd[] = {"", "dev", "//", "/dev/", "/a//b", "/a/./b", "/a/..", "/.", "./a"};
	for (size_t i = 0; i < sizeof(normal) / sizeof(normal[0]); i++)
		cr_expect(ct_path_is_normal(normal[i]), "%s", normal[i]);
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		cr_expect(!ct_path_is_normal(odd[i]), "%s", odd[i]);
}

Test(safefs, path_within_goes_by_whole_components)
{
	cr_expect(ct_path_within("/dev", "/dev"));
	cr_expect(ct_path_within("/dev/pts", "/dev"));
	cr_expect(ct_path_within("/dev/pts", "/"));
	cr_expect(ct_path_within("/", "/"));
	cr_expect(!ct_path_within("/devx", "/dev"));
	cr_expect(!ct_path_within("/dev", "/dev/pts"));
	cr_expect(!ct_path_within("/", "/dev"));
}

/* A symlink target can hold one component far longer than a name: refused, never copied. */
Test(safefs, overlong_component_in_a_symlink_target, .init = setup, .fini = teardown)
{
	static char target[3100];
	memset(target, 'A', 3000);
	memcpy(target, "missing/", 8);
	make_link(target, "long");
	assert_fails(ct_root_mkpath(rootfd, "/long", CT_MAKE_DIR), ENAMETOOLONG);
	assert_fails(ct_root_open_with(CT_RESOLVE_WALK, rootfd, "/long/x", false), ENAMETOOLONG);
	make_link(target + 8, "long2");
	assert_fails(ct_root_open_with(CT_RESOLVE_WALK, rootfd, "/long2", false), ENAMETOOLONG);
}

/* A regular file opened for reading, through symlinks that stay inside the root (relative to
 * the link's own directory); a FIFO, a directory or a host path are refused, the FIFO
 * without blocking (opened, it would wait for a writer). */
Test(safefs, open_regular_follows_links_inside_and_refuses_the_rest, .init = setup,
     .fini = teardown)
{
	char hostsecret[PATH_MAX], fifo[PATH_MAX];
	in(hostsecret, host, "secret");
	in(fifo, root, "etc/fifo");
	cr_assert_eq(mkfifo(fifo, 0644), 0);
	make_dir(root, "etc/sub");
	make_link("../passwd", "etc/sub/up");
	make_link("sub/up", "etc/chain");
	make_link("/etc/chain", "abs");
	make_link(hostsecret, "tohost");
	make_link("loop2", "loop1");
	make_link("loop1", "loop2");
	make_link("fifo", "etc/tofifo");

	int fd = ct_root_open_regular(rootfd, "/etc/passwd");
	cr_assert_geq(fd, 0, "%s", strerror(errno));
	cr_expect_eq(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDONLY, "opened for reading");
	char c;
	cr_expect_eq(read(fd, &c, 1), 0, "the empty file reads");
	assert_is(fd, root, "etc/passwd");
	assert_is(ct_root_open_regular(rootfd, "abs"), root, "etc/passwd");
	assert_is(ct_root_open_regular(rootfd, "etc/chain"), root, "etc/passwd");
	assert_is(ct_root_open_regular(rootfd, "../../etc/sub/up"), root, "etc/passwd");
	assert_fails(ct_root_open_regular(rootfd, "tohost"), ENOENT);
	assert_fails(ct_root_open_regular(rootfd, "loop1"), ELOOP);
	assert_fails(ct_root_open_regular(rootfd, "etc/fifo"), EINVAL);
	assert_fails(ct_root_open_regular(rootfd, "etc/tofifo"), EINVAL);
	assert_fails(ct_root_open_regular(rootfd, "etc"), EISDIR);
	assert_fails(ct_root_open_regular(rootfd, "/"), EISDIR);
}
