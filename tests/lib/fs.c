/* Files and temporary directories of the integration tests. */
#include "tests/lib/testlib.h"
#include "libct/base/syscalls.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* Each Criterion test runs in its own process, so this list is per test. */
#define MAX_TMPDIRS 128
static char *tmpdirs[MAX_TMPDIRS];
static unsigned ntmpdirs;

char *ctt_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = ctt_path(base && *base ? base : "/tmp", "ctrun-test.XXXXXX");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp \"%s\": %s", dir, strerror(errno));
	cr_assert_lt(ntmpdirs, MAX_TMPDIRS, "too many temporary directories in one test");
	tmpdirs[ntmpdirs++] = strdup(dir);
	return dir;
}

static void (*cleanup_first)(void);

/* The host mounts of the test, detached before its directories are removed (the removal
 * never crosses into another file system). */
#define MAX_HOST_MOUNTS 8
static char *host_mounts[MAX_HOST_MOUNTS];
static unsigned nhost_mounts;

void ctt_mount_tmpfs(const char *path, unsigned long flags, const char *data)
{
	cr_assert_lt(nhost_mounts, MAX_HOST_MOUNTS, "too many host mounts in one test");
	cr_assert_eq(mount("tmpfs", path, "tmpfs", flags, data), 0, "mount tmpfs on %s: %s", path,
		     strerror(errno));
	host_mounts[nhost_mounts++] = strdup(path);
}

void ctt_require_mount_setattr(void)
{
	/* a size below the first struct: EINVAL from a kernel that has the call */
	if (ct_mount_setattr(-1, "", AT_EMPTY_PATH, NULL, 0) < 0 &&
	    (errno == ENOSYS || errno == EPERM))
		ctt_skip("mount_setattr: %s (recursive mount attributes need Linux 5.12)",
			 strerror(errno));
}

static void detach_host_mounts(void)
{
	while (nhost_mounts) {
		char *path = host_mounts[--nhost_mounts];
		if (umount2(path, MNT_DETACH) < 0)
			fprintf(stderr, "ctt_cleanup: cannot detach \"%s\": %s\n", path,
				strerror(errno));
		free(path);
	}
}

void ctt_cleanup_first(void (*fn)(void))
{
	cleanup_first = fn;
}

void ctt_cleanup(void)
{
	void (*first)(void) = cleanup_first;
	cleanup_first = NULL;
	if (first)
		first();
	detach_host_mounts();
	while (ntmpdirs) {
		char *dir = tmpdirs[--ntmpdirs];
		if (ctt_rm_rf(dir) < 0)
			fprintf(stderr, "ctt_cleanup: cannot remove \"%s\": %s\n", dir,
				strerror(errno));
		free(dir);
	}
}

static int rm_children(int dirfd, dev_t dev);

/* Removes name in dirfd; a directory only when it is on dev (the same file system). */
static int rm_entry(int dirfd, const char *name, dev_t dev)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dirfd, name, 0) < 0 && errno != ENOENT ? -1 : 0;
	if (st.st_dev != dev) {
		errno = EXDEV; /* a mount inside: not ours to walk into */
		return -1;
	}
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int ret = rm_children(fd, dev); /* closes fd */
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		ret = -1;
	return ret;
}

static int rm_children(int dirfd, dev_t dev)
{
	DIR *d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		return -1;
	}
	int ret = 0, saved = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (rm_entry(dirfd, e->d_name, dev) < 0) {
			saved = errno;
			ret = -1;
		}
	}
	closedir(d);
	errno = saved;
	return ret;
}

int ctt_rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	return rm_entry(AT_FDCWD, path, st.st_dev);
}

char *ctt_path(const char *dir, const char *name)
{
	char *p;
	cr_assert_geq(asprintf(&p, "%s/%s", dir, name), 0, "out of memory");
	return p;
}

void ctt_mkdir_p(const char *path)
{
	char *p = strdup(path);
	cr_assert_not_null(p, "out of memory");
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		cr_assert(mkdir(p, 0755) == 0 || errno == EEXIST, "mkdir \"%s\": %s", p,
			  strerror(errno));
		*s = '/';
	}
	cr_assert(mkdir(p, 0755) == 0 || errno == EEXIST, "mkdir \"%s\": %s", p, strerror(errno));
	free(p);
}

void ctt_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	cr_assert_geq(fd, 0, "open \"%s\": %s", path, strerror(errno));
	size_t len = strlen(text);
	while (len) {
		ssize_t n = write(fd, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		cr_assert_gt(n, 0, "write \"%s\": %s", path, strerror(errno));
		text += n;
		len -= (size_t)n;
	}
	cr_assert_eq(close(fd), 0, "close \"%s\": %s", path, strerror(errno));
}

char *ctt_read_file(const char *path)
{
	FILE *f = fopen(path, "re");
	cr_assert_not_null(f, "open \"%s\": %s", path, strerror(errno));
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	cr_assert_not_null(mem, "out of memory");
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, mem);
	cr_assert(!ferror(f), "read \"%s\": %s", path, strerror(errno));
	fclose(f);
	fclose(mem);
	return buf;
}

bool ctt_exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

char *ctt_write_tmp(const char *name, const char *text)
{
	char *dir = ctt_tmpdir();
	char *path = ctt_path(dir, name);
	ctt_write_file(path, text);
	free(dir);
	return path;
}

void ctt_chown_tree(const char *path, unsigned uid)
{
	char owner[32];
	snprintf(owner, sizeof(owner), "%u:%u", uid, uid);
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"chown", "-R", "-h", owner, path, NULL});
	cr_assert_eq(r.status, 0, "chown -R %s %s: %s", owner, path, r.err);
	ctt_result_free(&r);
}

void ctt_make_searchable(const char *dir)
{
	cr_assert_eq(chmod(dir, 0755), 0, "chmod %s: %s", dir, strerror(errno));
}

void ctt_wait_file(const char *path)
{
	for (unsigned waited = 0; !ctt_exists(path); waited += 20) {
		cr_assert_lt(waited, CTT_POLL_LIMIT_MS, "\"%s\" never appeared", path);
		ctt_sleep_ms(20);
	}
}

char *ctt_wait_content(const char *path, const char *needle)
{
	for (unsigned waited = 0;; waited += 20) {
		char *text = ctt_exists(path) ? ctt_read_file(path) : strdup("");
		if (strstr(text, needle))
			return text;
		cr_assert_lt(waited, CTT_POLL_LIMIT_MS, "\"%s\" never held \"%s\": %s", path,
			     needle, text);
		free(text);
		ctt_sleep_ms(20);
	}
}

void ctt_assert_file_text(const char *path, const char *want)
{
	char *got = ctt_read_file(path);
	cr_expect_str_eq(got, want, "%s changed", path);
	free(got);
}

unsigned ctt_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "opendir %s: %s", dir, strerror(errno));
	unsigned n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

char *ctt_tmp_path(const char *name)
{
	char *dir = ctt_tmpdir();
	char *path = ctt_path(dir, name);
	free(dir);
	return path;
}
