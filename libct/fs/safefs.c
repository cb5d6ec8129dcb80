#include "libct/fs/safefs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/abspath.h"
#include "libct/base/cleanup.h"
#include "libct/base/syscalls.h"

#define MAX_SYMLINKS   40 /* the kernel's own limit for one lookup */
#define EAGAIN_RETRIES 16

static enum ct_resolver used_resolver = CT_RESOLVE_AUTO;
static bool no_fchmodat2;

enum ct_resolver ct_root_resolver(void)
{
	return used_resolver;
}

const char *ct_fd_path(int fd, char *buf, size_t size)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
	return buf;
}

/* How a path is resolved: whether a symlink as the last component is the answer, whether a
 * symlink anywhere fails the look-up (ELOOP). */
struct lookup {
	bool nofollow, no_symlinks;
};

static int open_openat2(int rootfd, const char *path, struct lookup lookup)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (lookup.nofollow ? O_NOFOLLOW : 0),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS |
			   (lookup.no_symlinks ? RESOLVE_NO_SYMLINKS : 0),
	};
	int fd;
	/* EAGAIN: a rename raced with the lookup; the kernel asks to try again */
	for (int i = 0; i < EAGAIN_RETRIES; i++)
		if ((fd = ct_openat2(rootfd, path, &how, sizeof(how))) >= 0 || errno != EAGAIN)
			break;
	return fd;
}

/* ---- the walk: the fallback without openat2 ---- */

/* The part of the path still to resolve; symlink targets are spliced in at its front. */
struct walk {
	char todo[PATH_MAX];
	char done[PATH_MAX]; /* components resolved so far, "/a/b": no symlink, no ".." */
	int cur;	     /* O_PATH fd of done */
	int links;
	struct lookup how;
	bool create; /* make what is missing: directories, and `last` as the last one */
	enum ct_make last;
};

/* cur := done, opened again from the root one component at a time (O_NOFOLLOW each), as a
 * directory on the way may have been swapped for a symlink since we passed it. */
static int reopen_done(struct walk *w, int rootfd)
{
	int fd = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
	for (char *p = w->done; fd >= 0 && *p;) {
		char *end = strchr(p + 1, '/');
		char name[NAME_MAX + 1];
		size_t n = end ? (size_t)(end - p - 1) : strlen(p + 1);
		snprintf(name, sizeof(name), "%.*s", (int)n, p + 1);
		ct_fd_replace(&fd, openat(fd, name, O_PATH | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY));
		p = end ? end : p + 1 + n;
	}
	if (fd < 0)
		return -1;
	ct_fd_replace(&w->cur, fd);
	return 0;
}

/* Takes the next component of todo into name (NAME_MAX + 1 bytes): 1, 0 at the end, -1
 * with ENAMETOOLONG for a component longer than a name can be (a symlink target from the
 * image can hold one). */
static int next_component(struct walk *w, char *name, bool *last)
{
	char *p = w->todo;
	while (*p == '/')
		p++;
	if (!*p)
		return 0;
	size_t n = strcspn(p, "/");
	if (n > NAME_MAX)
		return errno = ENAMETOOLONG, -1;
	memcpy(name, p, n);
	name[n] = '\0';
	p += n;
	while (*p == '/')
		p++;
	*last = *p == '\0';
	memmove(w->todo, p, strlen(p) + 1);
	return 1;
}

/* The symlink at fd replaces its component: its target, then what was left. */
static int splice_symlink(struct walk *w, int rootfd, int fd)
{
	char target[PATH_MAX];
	if (++w->links > MAX_SYMLINKS)
		return errno = ELOOP, -1;
	ssize_t n = readlinkat(fd, "", target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	if (n + strlen(w->todo) + 2 > sizeof(w->todo))
		return errno = ENAMETOOLONG, -1;
	char rest[PATH_MAX];
	snprintf(rest, sizeof(rest), "%s", w->todo);
	snprintf(w->todo, sizeof(w->todo), "%s/%s", target, rest);
	if (target[0] == '/') {
		w->done[0] = '\0';
		return reopen_done(w, rootfd);
	}
	return 0;
}

static int make_component(int parent, const char *name, bool file)
{
	if (!file)
		return mkdirat(parent, name, 0755);
	_cleanup_close_ int fd =
		openat(parent, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644);
	return fd < 0 ? -1 : 0;
}

static int open_component(struct walk *w, const char *name, bool last)
{
	int fd = openat(w->cur, name, O_PATH | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0 || errno != ENOENT || !w->create)
		return fd;
	/* EEXIST: made meanwhile by someone else; opened below like any other */
	if (make_component(w->cur, name, last && w->last == CT_MAKE_FILE) < 0 && errno != EEXIST)
		return -1;
	return openat(w->cur, name, O_PATH | O_CLOEXEC | O_NOFOLLOW);
}

static int step(struct walk *w, int rootfd, const char *name, bool last)
{
	if (strcmp(name, ".") == 0)
		return 0;
	if (strcmp(name, "..") == 0) {
		/* lexically, so ".." at the root stays there and no fd can lead above it */
		char *slash = strrchr(w->done, '/');
		if (slash)
			*slash = '\0';
		return reopen_done(w, rootfd);
	}
	_cleanup_close_ int fd = open_component(w, name, last);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return -1;
	if (S_ISLNK(st.st_mode) && w->how.no_symlinks)
		return errno = ELOOP, -1;
	if (S_ISLNK(st.st_mode) && !(last && w->how.nofollow))
		return splice_symlink(w, rootfd, fd);
	if (!last && !S_ISDIR(st.st_mode))
		return errno = ENOTDIR, -1;
	size_t len = strlen(w->done);
	if (len + strlen(name) + 2 > sizeof(w->done))
		return errno = ENAMETOOLONG, -1;
	snprintf(w->done + len, sizeof(w->done) - len, "/%s", name);
	ct_fd_replace(&w->cur, steal_fd(&fd));
	return 0;
}

/* Walks path from rootfd with w, which the caller made for this one walk. */
static int walk(struct walk *w, int rootfd, const char *path)
{
	w->cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
	if (w->cur < 0)
		return -1;
	if (strlen(path) >= sizeof(w->todo)) {
		ct_close_now(&w->cur);
		return errno = ENAMETOOLONG, -1;
	}
	strcpy(w->todo, path);
	char name[NAME_MAX + 1];
	bool last;
	int more;
	while ((more = next_component(w, name, &last)) > 0)
		if (step(w, rootfd, name, last) < 0)
			break;
	if (more == 0)
		return w->cur;
	int saved = errno;
	ct_close_now(&w->cur);
	return errno = saved, -1;
}

/* The walks are the fallback and the rare case: not inlined, so that their 8 KiB of path
 * buffers are not on the stack of every ct_root_open() and ct_root_mkpath() (a container
 * init's stack pages count against its memory limit). */
static __attribute__((noinline)) int open_walk(int rootfd, const char *path, struct lookup how)
{
	struct walk w = {.how = how};
	return walk(&w, rootfd, path);
}

static __attribute__((noinline)) int create_walk(int rootfd, const char *path, enum ct_make what)
{
	struct walk w = {.create = true, .last = what};
	return walk(&w, rootfd, path);
}

/* path's symlink at fd replaced by its target: absolute, or joined to path's directory
 * (resolved again in the root, so neither form can leave it). */
static int follow_link(int fd, char *path, size_t size)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(fd, "", target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	char *slash = strrchr(path, '/');
	size_t dir = target[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
	if (dir + (size_t)n + 1 > size)
		return errno = ENAMETOOLONG, -1;
	memcpy(path + dir, target, (size_t)n + 1);
	return 0;
}

/* The regular file checked as st, opened for reading from its resolved directory: a
 * FIFO or device put there since never blocks the open (O_NONBLOCK) and is refused. */
static int open_checked(int rootfd, const char *path, const struct stat *st)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0, path);
	_cleanup_close_ int dirfd = ct_root_open(rootfd, dir[0] ? dir : "/", false);
	if (dirfd < 0)
		return -1;
	_cleanup_close_ int fd = openat(dirfd, slash ? slash + 1 : path,
					O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat now;
	if (fd < 0 || fstat(fd, &now) < 0)
		return -1;
	if (!S_ISREG(now.st_mode) || now.st_dev != st->st_dev || now.st_ino != st->st_ino)
		return errno = ESTALE, -1;
	return steal_fd(&fd);
}

int ct_root_open_regular(int rootfd, const char *path)
{
	char cur[PATH_MAX];
	if (snprintf(cur, sizeof(cur), "%s", path) >= (int)sizeof(cur))
		return errno = ENAMETOOLONG, -1;
	for (int links = 0; links <= MAX_SYMLINKS; links++) {
		_cleanup_close_ int fd = ct_root_open(rootfd, cur, true);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0)
			return -1;
		if (S_ISLNK(st.st_mode)) {
			if (follow_link(fd, cur, sizeof(cur)) < 0)
				return -1;
			continue;
		}
		if (!S_ISREG(st.st_mode))
			return errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL, -1;
		return open_checked(rootfd, cur, &st);
	}
	return errno = ELOOP, -1;
}

static int open_with(enum ct_resolver resolver, int rootfd, const char *path, struct lookup how)
{
	if (resolver == CT_RESOLVE_WALK)
		return open_walk(rootfd, path, how);
	int fd = open_openat2(rootfd, path, how);
	if (resolver == CT_RESOLVE_OPENAT2 || fd >= 0 || (errno != ENOSYS && errno != EPERM))
		return fd;
	/* EPERM is also what a seccomp profile answers: the walk tells a real EPERM apart */
	return open_walk(rootfd, path, how);
}

int ct_root_open_with(enum ct_resolver resolver, int rootfd, const char *path, bool nofollow)
{
	return open_with(resolver, rootfd, path, (struct lookup){.nofollow = nofollow});
}

int ct_root_open_exact_with(enum ct_resolver resolver, int rootfd, const char *path)
{
	return open_with(resolver, rootfd, path, (struct lookup){.no_symlinks = true});
}

static int open_auto(int rootfd, const char *path, struct lookup how)
{
	if (used_resolver == CT_RESOLVE_WALK)
		return open_walk(rootfd, path, how);
	int fd = open_openat2(rootfd, path, how);
	if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) {
		used_resolver = CT_RESOLVE_OPENAT2;
		return fd;
	}
	if (errno == ENOSYS)
		used_resolver = CT_RESOLVE_WALK;
	return open_walk(rootfd, path, how);
}

int ct_root_open(int rootfd, const char *path, bool nofollow)
{
	return open_auto(rootfd, path, (struct lookup){.nofollow = nofollow});
}

int ct_root_open_exact(int rootfd, const char *path)
{
	return open_auto(rootfd, path, (struct lookup){.no_symlinks = true});
}

/* path as its directory (dir, "." for none) and last component (name): -1 with EINVAL when
 * it has none ("/", "..", "a/."), ENAMETOOLONG when name does not fit. */
static int split_last(const char *path, char *dir, size_t dir_size, char *name, size_t size)
{
	size_t len = strlen(path);
	while (len > 0 && path[len - 1] == '/')
		len--;
	size_t start = len;
	while (start > 0 && path[start - 1] != '/')
		start--;
	size_t n = len - start;
	if (n == 0 || (n == 1 && path[start] == '.') ||
	    (n == 2 && path[start] == '.' && path[start + 1] == '.'))
		return errno = EINVAL, -1;
	if (n >= size || start >= dir_size)
		return errno = ENAMETOOLONG, -1;
	snprintf(name, size, "%.*s", (int)n, path + start);
	if (start)
		snprintf(dir, dir_size, "%.*s", (int)start, path);
	else
		snprintf(dir, dir_size, ".");
	return 0;
}

/* path without its trailing "." components ("a/./." is "a", a lookup's same directory), in
 * out when it had any; path itself otherwise or when it does not fit. */
static const char *without_trailing_dots(const char *path, char *out, size_t size)
{
	size_t len = strlen(path), kept = len;
	while (kept > 0 && (path[kept - 1] == '/' ||
			    (path[kept - 1] == '.' && (kept == 1 || path[kept - 2] == '/'))))
		kept--;
	if (kept == len || path[kept] != '/' || kept >= size)
		return path;
	snprintf(out, size, "%.*s", (int)kept, path);
	return out;
}

/* The common case, only the last component missing: made in its parent as resolved, then
 * looked up again like any path. -1 (errno kept) when the parent is missing too. */
static __attribute__((noinline)) int make_last(int rootfd, const char *path, enum ct_make what)
{
	char dir[PATH_MAX], name[NAME_MAX + 1], named[PATH_MAX];
	if (split_last(without_trailing_dots(path, named, sizeof(named)), dir, sizeof(dir), name,
		       sizeof(name)) < 0)
		return -1;
	_cleanup_close_ int parent = ct_root_open(rootfd, dir, false);
	if (parent < 0)
		return -1;
	/* EEXIST: made meanwhile, or a dangling symlink (the lookup below says which) */
	if (make_component(parent, name, what == CT_MAKE_FILE) < 0 && errno != EEXIST)
		return -1;
	return ct_root_open(rootfd, path, false);
}

int ct_root_mkpath(int rootfd, const char *path, enum ct_make what)
{
	int fd = ct_root_open(rootfd, path, false);
	if (fd >= 0 || errno != ENOENT)
		return fd;
	if ((fd = make_last(rootfd, path, what)) >= 0 || errno != ENOENT)
		return fd;
	/* More is missing, or a dangling symlink leads on: the walk creates it, each component
	 * in the directory fd the walk holds, a symlink's target included (inside the root) */
	return create_walk(rootfd, path, what);
}

int ct_root_mkparent(int rootfd, const char *path, char *name, size_t size)
{
	char dir[PATH_MAX];
	if (split_last(path, dir, sizeof(dir), name, size) < 0)
		return -1;
	return ct_root_mkpath(rootfd, dir, CT_MAKE_DIR);
}

/* ---- attributes through the fd ---- */

int ct_fd_chmod(int fd, mode_t mode)
{
	if (!no_fchmodat2) {
		if (ct_fchmodat2(fd, "", mode, AT_EMPTY_PATH) == 0)
			return 0;
		if (errno != ENOSYS && errno != EPERM)
			return -1;
		/* ENOSYS is remembered; EPERM may be seccomp or real, the fallback tells */
		no_fchmodat2 = errno == ENOSYS;
	}
	return ct_fd_chmod_by_proc(fd, mode);
}

int ct_fd_chmod_by_proc(int fd, mode_t mode)
{
	char path[32];
	return chmod(ct_fd_path(fd, path, sizeof(path)), mode);
}

int ct_fd_chown(int fd, uid_t uid, gid_t gid)
{
	return fchownat(fd, "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
}

void ct_path_normalize(const char *path, char *out, size_t size)
{
	size_t n = 0;
	out[0] = '\0';
	for (const char *p = path; *p;) {
		while (*p == '/')
			p++;
		size_t len = strcspn(p, "/");
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (n > 0 && out[--n] != '/')
				;
			out[n] = '\0';
		} else if (len && !(len == 1 && p[0] == '.') && n + len + 2 < size) {
			n += (size_t)snprintf(out + n, size - n, "/%.*s", (int)len, p);
		}
		p += len;
	}
	if (n == 0)
		snprintf(out, size, "/");
}

/* Neither "." nor "..". */
static bool normal_component(const char *c, size_t len)
{
	return !(len == 1 && c[0] == '.') && !(len == 2 && c[0] == '.' && c[1] == '.');
}

bool ct_path_is_normal(const char *path)
{
	return ct_abspath_components_ok(path, normal_component);
}

bool ct_path_within(const char *path, const char *top)
{
	if (top[0] == '/' && top[1] == '\0')
		return true;
	/* one pass over the common prefix (the mount check calls it ~200 times: no strlen) */
	while (*top && *top == *path) {
		top++;
		path++;
	}
	return *top == '\0' && (*path == '\0' || *path == '/');
}
