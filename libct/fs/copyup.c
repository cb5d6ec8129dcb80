/* Copying an image directory into its tmpfs (see copyup.h). */
#include "libct/fs/copyup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/fs/safefs.h"

/* Where the copy stands: the entry's path relative to the source, for messages. */
struct copy_walk {
	char path[PATH_MAX];
	unsigned depth;
	struct ct_error *err;
};

static int copy_dir(int src, int dst, struct copy_walk *w);

static int fail(struct copy_walk *w, const char *what)
{
	return ct_error_sys(w->err, errno, "copy up \"%s\": %s", w->path[0] ? w->path : ".", what);
}

int ct_copy_attributes(int dst, const struct stat *st)
{
	/* chown first: it clears setuid/setgid, the chmod puts them back */
	if (ct_fd_chown(dst, st->st_uid, st->st_gid) < 0)
		return -1;
	return S_ISLNK(st->st_mode) ? 0 : ct_fd_chmod(dst, st->st_mode & 07777);
}

/* Owner, mode and times of the new entry name in dst; times last, after its content. */
static int finish_entry(int dst, const char *name, const struct stat *st, struct copy_walk *w)
{
	_cleanup_close_ int fd = openat(dst, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || ct_copy_attributes(fd, st) < 0)
		return fail(w, "set owner and mode");
	struct timespec times[2] = {st->st_atim, st->st_mtim};
	if (utimensat(dst, name, times, AT_SYMLINK_NOFOLLOW) < 0)
		return fail(w, "set times");
	return 0;
}

static int copy_bytes(int in, int out)
{
	for (;;) {
		ssize_t n = sendfile(out, in, NULL, 1 << 20);
		if (n == 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

int ct_open_same_regular(int dir, const char *name, const struct stat *seen, struct stat *st)
{
	/* O_NONBLOCK: a fifo swapped in has no writer and would block the open for ever */
	_cleanup_close_ int fd =
		openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) || st->st_dev != seen->st_dev ||
	    st->st_ino != seen->st_ino) {
		errno = ESTALE;
		return -1;
	}
	return steal_fd(&fd);
}

ssize_t ct_read_link(int dir, const char *name, char *buf, size_t size)
{
	ssize_t n = readlinkat(dir, name, buf, size);
	if (n < 0)
		return -1;
	/* a full buffer may be a cut one: no room for the '\0' either way */
	if ((size_t)n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	buf[n] = '\0';
	return n;
}

static int copy_file(int src, int dst, const char *name, const struct stat *seen,
		     struct copy_walk *w)
{
	struct stat st;
	_cleanup_close_ int in = ct_open_same_regular(src, name, seen, &st);
	if (in < 0 && errno == ESTALE)
		return ct_error_plain(w->err, ESTALE,
				      "copy up \"%s\": changed while being copied (no longer "
				      "the regular file first seen)",
				      w->path);
	if (in < 0)
		return fail(w, "open");
	_cleanup_close_ int out =
		openat(dst, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0)
		return fail(w, "create");
	if (copy_bytes(in, out) < 0)
		return fail(w, "copy the content");
	return finish_entry(dst, name, &st, w);
}

static int copy_symlink(int src, int dst, const char *name, const struct stat *st,
			struct copy_walk *w)
{
	char target[PATH_MAX];
	if (ct_read_link(src, name, target, sizeof(target)) < 0)
		return fail(w, "read the symlink");
	if (symlinkat(target, dst, name) < 0)
		return fail(w, "create the symlink");
	return finish_entry(dst, name, st, w);
}

static int copy_node(int dst, const char *name, const struct stat *st, struct copy_walk *w)
{
	if (mknodat(dst, name, st->st_mode & (S_IFMT | 0600), st->st_rdev) < 0)
		return fail(w, "create the node");
	return finish_entry(dst, name, st, w);
}

static int copy_subdir(int src, int dst, const char *name, const struct stat *st,
		       struct copy_walk *w)
{
	if (w->depth >= CT_COPYUP_MAX_DEPTH) {
		errno = ELOOP;
		return fail(w, "too deep");
	}
	if (mkdirat(dst, name, 0700) < 0)
		return fail(w, "create the directory");
	_cleanup_close_ int from =
		openat(src, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_close_ int to = openat(dst, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (from < 0 || to < 0)
		return fail(w, "open the directory");
	w->depth++;
	int rc = copy_dir(from, to, w);
	w->depth--;
	return rc < 0 ? -1 : finish_entry(dst, name, st, w);
}

static int copy_entry(int src, int dst, const char *name, struct copy_walk *w)
{
	struct stat st;
	if (fstatat(src, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return fail(w, "stat");
	switch (st.st_mode & S_IFMT) {
	case S_IFDIR:
		return copy_subdir(src, dst, name, &st, w);
	case S_IFREG:
		return copy_file(src, dst, name, &st, w);
	case S_IFLNK:
		return copy_symlink(src, dst, name, &st, w);
	case S_IFSOCK:
		return 0;
	default: /* fifos, character and block devices */
		return copy_node(dst, name, &st, w);
	}
}

static int copy_dir(int src, int dst, struct copy_walk *w)
{
	/* src stays open for the *at() calls */
	_cleanup_closedir_ DIR *dir = ct_opendir_at(src);
	if (!dir)
		return fail(w, "read the directory");
	size_t len = strlen(w->path);
	struct dirent *de;
	while ((errno = 0, de = readdir(dir))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(w->path + len, sizeof(w->path) - len, "%s%s", len ? "/" : "", de->d_name);
		if (copy_entry(src, dst, de->d_name, w) < 0)
			return -1;
		w->path[len] = '\0';
	}
	return errno ? fail(w, "read the directory") : 0;
}

int ct_copy_tree(int src, int dst, struct ct_error *err)
{
	struct copy_walk w = {.err = err};
	_cleanup_close_ int from = openat(src, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int to = openat(dst, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (from < 0 || to < 0)
		return fail(&w, "open the directory");
	return copy_dir(from, to, &w);
}
