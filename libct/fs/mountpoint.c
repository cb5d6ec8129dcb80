#include "libct/fs/mountpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/syscalls.h"

void ct_mountpoints_init(struct ct_mountpoints *mp, int rootfd)
{
	*mp = (struct ct_mountpoints){.rootfd = rootfd};
}

static void drop(struct ct_mountpoints *mp, size_t i)
{
	free(mp->fresh[i].path);
	ct_close_now(&mp->fresh[i].fd);
	mp->fresh[i] = mp->fresh[--mp->n];
}

void ct_mountpoints_release(struct ct_mountpoints *mp)
{
	while (mp->n)
		drop(mp, mp->n - 1);
}

bool ct_mountpoint_plain(const char *path)
{
	return path[0] == '/' && path[1] != '\0' && ct_path_is_normal(path);
}

int ct_mountpoint_add_fresh(struct ct_mountpoints *mp, const char *path, int *fd)
{
	int kept = *fd;
	if (!ct_mountpoint_plain(path))
		return kept;
	for (size_t i = mp->n; i-- > 0;)
		if (ct_path_within(mp->fresh[i].path, path))
			drop(mp, i);
	char *copy = mp->n < CT_MOUNTPOINT_FRESH_MAX ? strdup(path) : NULL;
	if (!copy)
		return kept;
	mp->fresh[mp->n++] = (struct ct_fresh_dir){.path = copy, .fd = kept, .checked = true};
	*fd = -1;
	return kept;
}

/* Whether a and b are the same directory on the same mount. */
static bool same_place(int a, int b)
{
	struct ct_statx sa, sb;
	unsigned want = STATX_INO | STATX_MNT_ID;
	return ct_statx(a, "", AT_EMPTY_PATH, want, &sa) == 0 &&
	       ct_statx(b, "", AT_EMPTY_PATH, want, &sb) == 0 && (sa.stx_mask & STATX_MNT_ID) &&
	       (sb.stx_mask & STATX_MNT_ID) && sa.stx_mnt_id == sb.stx_mnt_id &&
	       sa.stx_ino == sb.stx_ino && sa.stx_dev_major == sb.stx_dev_major &&
	       sa.stx_dev_minor == sb.stx_dev_minor;
}

/* Entry i, or -1 after dropping it when a mount made since may have covered it: its path
 * must still lead to the root of its tmpfs. */
static int checked_fd(struct ct_mountpoints *mp, size_t i)
{
	struct ct_fresh_dir *d = &mp->fresh[i];
	if (!d->checked) {
		_cleanup_close_ int now = ct_root_open(mp->rootfd, d->path, false);
		if (now < 0 || !same_place(now, d->fd)) {
			drop(mp, i);
			return -1;
		}
		d->checked = true;
	}
	return d->fd;
}

/* The fresh directory whose path is the first len bytes of path. */
static int find(struct ct_mountpoints *mp, const char *path, size_t len)
{
	for (size_t i = mp->n; i-- > 0;)
		if (strlen(mp->fresh[i].path) == len && strncmp(mp->fresh[i].path, path, len) == 0)
			return checked_fd(mp, i);
	return -1;
}

int ct_mountpoint_fresh_dir(struct ct_mountpoints *mp, const char *path)
{
	return ct_mountpoint_plain(path) ? find(mp, path, strlen(path)) : -1;
}

/* A fresh directory holding path's last component, and that component in name; -1 when
 * there is none. */
static int fresh_parent(struct ct_mountpoints *mp, const char *path, char *name, size_t size)
{
	if (!ct_mountpoint_plain(path))
		return -1;
	const char *last = strrchr(path, '/');
	if (last == path || strlen(last + 1) >= size)
		return -1;
	int dir = find(mp, path, (size_t)(last - path));
	if (dir >= 0)
		strcpy(name, last + 1);
	return dir;
}

/* What is made there is the new entry itself: nothing else can have put anything there. */
static int make_in_fresh(int dir, const char *name, enum ct_make what)
{
	if (what == CT_MAKE_FILE)
		return openat(dir, name, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			      0644);
	if (mkdirat(dir, name, 0755) < 0)
		return -1;
	return openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* A mount point taken from the root (already there, say, as a mount made twice): whatever
 * is mounted on it may cover a fresh directory. */
static void uncheck_fresh(struct ct_mountpoints *mp)
{
	for (size_t i = 0; i < mp->n; i++)
		mp->fresh[i].checked = false;
}

int ct_mountpoint_open(struct ct_mountpoints *mp, const char *path, enum ct_make what)
{
	char name[NAME_MAX + 1];
	int dir = fresh_parent(mp, path, name, sizeof(name));
	int fd = dir >= 0 ? make_in_fresh(dir, name, what) : -1;
	if (fd >= 0)
		return fd;
	uncheck_fresh(mp);
	return ct_root_mkpath(mp->rootfd, path, what);
}

/* 0 when mode is of what, else -1 with the errno ct_mountpoint_open_exact() names. */
static int check_kind(mode_t mode, enum ct_make what)
{
	if (what == CT_MAKE_DIR)
		return S_ISDIR(mode) ? 0 : (errno = ENOTDIR, -1);
	if (S_ISREG(mode) || S_ISCHR(mode))
		return 0;
	return errno = S_ISDIR(mode) ? EISDIR : EINVAL, -1;
}

int ct_mountpoint_open_exact(struct ct_mountpoints *mp, const char *path, enum ct_make what)
{
	uncheck_fresh(mp);
	_cleanup_close_ int fd = ct_root_open_exact(mp->rootfd, path);
	if (fd < 0 && errno == ENOENT) {
		/* no symlink before the missing part, and none in what is made after it */
		_cleanup_close_ int made = ct_root_mkpath(mp->rootfd, path, what);
		if (made < 0)
			return -1;
		fd = ct_root_open_exact(mp->rootfd, path);
	}
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) < 0 || check_kind(st.st_mode, what) < 0)
		return -1;
	return steal_fd(&fd);
}

int ct_mountpoint_mount(struct ct_mountpoints *mp, const char *path,
			const struct ct_mount_request *rq, uint64_t *mounted_id, int *mounted_fd,
			struct ct_error *err)
{
	_cleanup_close_ int target =
		rq->exact_dir ? ct_mountpoint_open_exact(mp, path, CT_MAKE_DIR)
			      : ct_mountpoint_open(mp, path, rq->file ? CT_MAKE_FILE : CT_MAKE_DIR);
	if (target < 0 && rq->exact_dir && (errno == ELOOP || errno == ENOTDIR))
		return ct_error_plain(err, errno,
				      "%s goes only on a directory at that very path, and a "
				      "symlink or a file of the image is on the way",
				      rq->type);
	if (target < 0)
		return ct_error_sys(err, errno, "create mount point");
	return ct_mount_at(mp->rootfd, path, target, rq, mounted_id, mounted_fd, err);
}

int ct_mountpoint_parent(struct ct_mountpoints *mp, const char *path, char *name, size_t size,
			 int *owned, bool *fresh)
{
	int dir = fresh_parent(mp, path, name, size);
	if (fresh)
		*fresh = dir >= 0;
	*owned = dir >= 0 ? -1 : ct_root_mkparent(mp->rootfd, path, name, size);
	return dir >= 0 ? dir : *owned;
}
