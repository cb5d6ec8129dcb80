/* libct/fs/copyup.c: an image directory copied into another directory (what "tmpcopyup" does
 * into its tmpfs): content, modes, owners, times, symlinks kept as symlinks, special files,
 * and the entries that must stop the copy. Each test works in a fresh temporary tree:
 * top/src (the image's directory), top/dst (the new tmpfs), top/host (outside both). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libct/fs/copyup.h"

static char top[PATH_MAX], src[PATH_MAX], dst[PATH_MAX], host[PATH_MAX];

static void in(char *buf, const char *base, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s/%s", base, rel);
}

static void rm_tree(void)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (top[0] && system(cmd) != 0)
		cr_log_warn("could not remove %s", top);
}

static void setup(void)
{
	snprintf(top, sizeof(top), "/tmp/ctrun-copyup-XXXXXX");
	cr_assert_not_null(mkdtemp(top));
	in(src, top, "src");
	in(dst, top, "dst");
	in(host, top, "host");
	cr_assert_eq(mkdir(src, 0755), 0);
	cr_assert_eq(mkdir(dst, 0755), 0);
	cr_assert_eq(mkdir(host, 0755), 0);
}

TestSuite(copyup, .init = setup, .fini = rm_tree);

static void write_at(const char *base, const char *rel, const char *text, mode_t mode)
{
	char p[PATH_MAX];
	in(p, base, rel);
	int fd = open(p, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	cr_assert_geq(fd, 0, "create %s: %s", p, strerror(errno));
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	cr_assert_eq(chmod(p, mode), 0);
}

static struct stat lstat_at(const char *base, const char *rel)
{
	char p[PATH_MAX];
	struct stat st;
	in(p, base, rel);
	cr_assert_eq(lstat(p, &st), 0, "lstat %s: %s", p, strerror(errno));
	return st;
}

static char *read_at(const char *base, const char *rel)
{
	static char buf[256];
	char p[PATH_MAX];
	in(p, base, rel);
	FILE *f = fopen(p, "re");
	cr_assert_not_null(f, "open %s: %s", p, strerror(errno));
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Copies src into dst; returns the rc, the message in msg (may be NULL). */
static int copy(char *msg, size_t size)
{
	int s = open(src, O_PATH | O_DIRECTORY | O_CLOEXEC),
	    d = open(dst, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cr_assert(s >= 0 && d >= 0);
	struct ct_error err = {0};
	int rc = ct_copy_tree(s, d, &err);
	if (msg)
		snprintf(msg, size, "%s", rc < 0 ? err.msg : "");
	close(s);
	close(d);
	return rc;
}

static void assert_copied(void)
{
	char msg[512];
	cr_assert_eq(copy(msg, sizeof(msg)), 0, "copy failed: %s", msg);
}

static void assert_same_attributes(const char *rel)
{
	struct stat a = lstat_at(src, rel), b = lstat_at(dst, rel);
	cr_expect_eq(a.st_mode, b.st_mode, "%s: mode %o, copied %o", rel, a.st_mode, b.st_mode);
	cr_expect_eq(a.st_uid, b.st_uid, "%s: uid", rel);
	cr_expect_eq(a.st_gid, b.st_gid, "%s: gid", rel);
	if (!S_ISLNK(a.st_mode))
		cr_expect_eq(a.st_mtim.tv_sec, b.st_mtim.tv_sec, "%s: mtime", rel);
}

Test(copyup, files_and_directories_with_content_modes_and_times)
{
	write_at(src, "plain", "hello\n", 0644);
	write_at(src, "secret", "s", 0600);
	char sub[PATH_MAX];
	in(sub, src, "sub");
	cr_assert_eq(mkdir(sub, 0750), 0);
	write_at(src, "sub/deep", "deep\n", 0755);
	in(sub, src, "sub/empty");
	cr_assert_eq(mkdir(sub, 01777), 0);
	cr_assert_eq(chmod(sub, 01777), 0); /* umask may have taken bits */
	struct timespec old[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
	cr_assert_eq(utimensat(AT_FDCWD, sub, old, 0), 0);
	assert_copied();
	cr_expect_str_eq(read_at(dst, "plain"), "hello\n");
	cr_expect_str_eq(read_at(dst, "sub/deep"), "deep\n");
	static const char *const all[] = {"plain", "secret", "sub", "sub/deep", "sub/empty"};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		assert_same_attributes(all[i]);
	cr_expect_eq(lstat_at(dst, "sub/empty").st_mtim.tv_sec, 1000000000);
}

Test(copyup, setuid_bits_and_owners_survive)
{
	if (geteuid() != 0)
		cr_skip("chown to other users needs root");
	write_at(src, "suid", "x", 0755);
	char p[PATH_MAX];
	in(p, src, "suid");
	cr_assert_eq(chown(p, 12, 34), 0);
	cr_assert_eq(chmod(p, 06755), 0);
	in(p, src, "owned");
	cr_assert_eq(mkdir(p, 02770), 0);
	cr_assert_eq(chown(p, 5, 6), 0);
	cr_assert_eq(chmod(p, 02770), 0);
	assert_copied();
	assert_same_attributes("suid");
	assert_same_attributes("owned");
	cr_expect_eq(lstat_at(dst, "suid").st_mode & 07777, 06755);
}

/* A symlink is copied as the link text; its target (outside both trees) is never read. */
Test(copyup, symlinks_stay_links_and_are_never_followed)
{
	write_at(host, "secret", "host data", 0600);
	char target[PATH_MAX], p[PATH_MAX];
	in(target, host, "secret");
	in(p, src, "abs");
	cr_assert_eq(symlink(target, p), 0);
	in(p, src, "up");
	cr_assert_eq(symlink("../host", p), 0);
	in(p, src, "dangling");
	cr_assert_eq(symlink("/nonexistent/x", p), 0);
	assert_copied();
	char text[PATH_MAX];
	in(p, dst, "abs");
	ssize_t n = readlink(p, text, sizeof(text) - 1);
	cr_assert_gt(n, 0);
	text[n] = '\0';
	cr_expect_str_eq(text, target);
	cr_expect(S_ISLNK(lstat_at(dst, "up").st_mode), "../host stays a link, not a copied dir");
	cr_expect(S_ISLNK(lstat_at(dst, "dangling").st_mode));
	/* nothing was written through a link either */
	cr_expect_str_eq(read_at(host, "secret"), "host data");
}

Test(copyup, fifos_are_made_and_sockets_skipped)
{
	char p[PATH_MAX];
	in(p, src, "fifo");
	cr_assert_eq(mkfifo(p, 0620), 0);
	cr_assert_eq(chmod(p, 0620), 0);
	in(p, src, "sock");
	cr_assert_eq(mknod(p, S_IFSOCK | 0600, 0), 0);
	assert_copied();
	cr_expect(S_ISFIFO(lstat_at(dst, "fifo").st_mode));
	assert_same_attributes("fifo");
	in(p, dst, "sock");
	cr_expect_neq(access(p, F_OK), 0, "a socket is not copied");
}

Test(copyup, device_nodes_keep_their_numbers)
{
	char p[PATH_MAX];
	in(p, src, "null");
	if (mknod(p, S_IFCHR | 0666, makedev(1, 3)) < 0)
		cr_skip("mknod refused here: %s", strerror(errno));
	assert_copied();
	struct stat st = lstat_at(dst, "null");
	cr_expect(S_ISCHR(st.st_mode));
	cr_expect_eq(st.st_rdev, makedev(1, 3));
}

/* An entry already in the target is an error naming it, not an overwrite. */
Test(copyup, an_existing_entry_fails_with_its_name)
{
	write_at(src, "a", "image", 0644);
	write_at(dst, "a", "tmpfs", 0644);
	char msg[512];
	cr_assert_lt(copy(msg, sizeof(msg)), 0);
	cr_expect(strstr(msg, "copy up \"a\"") != NULL, "message: %s", msg);
	cr_expect_str_eq(read_at(dst, "a"), "tmpfs");
}

/* A tree deeper than CT_COPYUP_MAX_DEPTH stops with ELOOP and a message. */
Test(copyup, too_deep_a_tree_is_refused)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s", src);
	for (int i = 0; i <= CT_COPYUP_MAX_DEPTH + 1; i++) {
		strncat(p, "/d", sizeof(p) - strlen(p) - 1);
		cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s", p);
	}
	char msg[PATH_MAX + 64];
	cr_assert_lt(copy(msg, sizeof(msg)), 0);
	cr_expect(strstr(msg, "too deep") != NULL, "message: %s", msg);
}

/* ct_open_same_regular() on rel in src, expecting what lstat found at expected_rel. */
static int open_expecting(const char *rel, const char *expected_rel, struct stat *st)
{
	struct stat seen = lstat_at(src, expected_rel);
	int dir = open(src, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dir, 0);
	int fd = ct_open_same_regular(dir, rel, &seen, st);
	int saved = errno;
	close(dir);
	errno = saved;
	return fd;
}

static void assert_refused_as_changed(const char *rel, const char *expected_rel)
{
	struct stat st;
	int fd = open_expecting(rel, expected_rel, &st);
	cr_expect_lt(fd, 0, "%s opened as the regular file %s", rel, expected_rel);
	cr_expect_eq(errno, ESTALE, "%s: %s", rel, strerror(errno));
	if (fd >= 0)
		close(fd);
}

Test(copyup, the_file_first_seen_is_opened)
{
	write_at(src, "f", "data", 0640);
	struct stat st;
	int fd = open_expecting("f", "f", &st);
	cr_assert_geq(fd, 0, "%s", strerror(errno));
	cr_expect(S_ISREG(st.st_mode) && st.st_size == 4 && (st.st_mode & 07777) == 0640);
	char buf[8] = "";
	cr_expect_eq(read(fd, buf, sizeof(buf)), 4);
	cr_expect_str_eq(buf, "data");
	close(fd);
}

/* What a shared image dir may swap in between the stat and the open: another file, a fifo
 * (no writer: a blocking open would hang the create), a device node. The fifo and the
 * device are refused even when expected, as they are no regular file. */
Test(copyup, anything_but_the_regular_file_first_seen_is_refused)
{
	write_at(src, "f", "data", 0644);
	write_at(src, "other", "other", 0644);
	assert_refused_as_changed("other", "f");
	char p[PATH_MAX];
	in(p, src, "fifo");
	cr_assert_eq(mkfifo(p, 0600), 0);
	assert_refused_as_changed("fifo", "fifo");
	assert_refused_as_changed("fifo", "f");
	in(p, src, "null");
	if (mknod(p, S_IFCHR | 0666, makedev(1, 3)) == 0)
		assert_refused_as_changed("null", "null");
	else
		cr_log_warn("mknod refused here (%s): the device case is not tried",
			    strerror(errno));
	in(p, src, "link");
	cr_assert_eq(symlink("f", p), 0);
	struct stat st;
	cr_expect_lt(open_expecting("link", "f", &st), 0, "a symlink to it is followed");
}

static ssize_t read_link_into(const char *rel, char *buf, size_t size)
{
	int dir = open(src, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dir, 0);
	ssize_t n = ct_read_link(dir, rel, buf, size);
	int saved = errno;
	close(dir);
	errno = saved;
	return n;
}

/* A target that fills the buffer may have been cut: refused, never copied shortened. */
Test(copyup, a_link_target_that_does_not_fit_is_refused)
{
	char p[PATH_MAX], buf[8];
	in(p, src, "fits");
	cr_assert_eq(symlink("1234567", p), 0);
	in(p, src, "full");
	cr_assert_eq(symlink("12345678", p), 0);
	cr_expect_eq(read_link_into("fits", buf, sizeof(buf)), 7);
	cr_expect_str_eq(buf, "1234567");
	cr_expect_lt(read_link_into("full", buf, sizeof(buf)), 0);
	cr_expect_eq(errno, ENAMETOOLONG, "%s", strerror(errno));
}

/* The longest target Linux stores (PATH_MAX - 1) is copied whole. */
Test(copyup, the_longest_link_target_is_copied_whole)
{
	static char target[PATH_MAX], copied[PATH_MAX + 1];
	memset(target, 'a', PATH_MAX - 1);
	for (size_t i = 100; i < PATH_MAX - 1; i += 100)
		target[i] = '/';
	char p[PATH_MAX];
	in(p, src, "long");
	if (symlink(target, p) < 0)
		cr_skip("this file system refuses a %d-byte link: %s", PATH_MAX - 1,
			strerror(errno));
	assert_copied();
	in(p, dst, "long");
	ssize_t n = readlink(p, copied, sizeof(copied));
	cr_assert_eq(n, PATH_MAX - 1);
	copied[n] = '\0';
	cr_expect_str_eq(copied, target);
}
