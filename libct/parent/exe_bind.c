#include "libct/parent/exe_bind.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/syscalls.h"
#include "libct/fs/trusted_dir.h"
#include "libct/parent/exe_state.h"

#define KEPT_NAME_MAX 64

/* In one call where the kernel has open_tree_attr (Linux 6.15), else in two. */
int ct_exe_detached_bind(int self, struct ct_error *err)
{
	struct mount_attr ro = {.attr_set =
					MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV};
	unsigned flags = OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH;
	int tree = ct_open_tree_attr(self, "", flags, &ro, sizeof(ro));
	if (tree >= 0 || (errno != ENOSYS && errno != EINVAL && errno != E2BIG))
		return tree >= 0 ? tree
				 : ct_error_set(err, errno, "open_tree_attr of ctrun's binary");
	_cleanup_close_ int copy = ct_open_tree(self, "", flags);
	if (copy < 0)
		return ct_error_set(err, errno, "open_tree of ctrun's binary");
	if (ct_mount_setattr(copy, "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0)
		return ct_error_set(err, errno, "make the bind of ctrun's binary read-only");
	return steal_fd(&copy);
}

/* name in dir when it is the binary (bin) itself behind a read-only mount; -1 when not. */
static int open_kept(int dir, const char *name, const struct stat *bin)
{
	_cleanup_close_ int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_dev != bin->st_dev || st.st_ino != bin->st_ino ||
	    ct_exe_state_of(fd) != CT_EXE_READ_ONLY_MOUNT)
		return -1;
	return steal_fd(&fd);
}

/* A view whose binary was deleted since runs no later command (its path now names another
 * file): unmounted, through its own fd, and its mount point removed. Running processes keep
 * their image. */
static void drop_if_deleted(int dir, const char *name)
{
	_cleanup_close_ int fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_nlink != 0)
		return;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (umount2(path, MNT_DETACH) == 0)
		unlinkat(dir, name, 0);
}

static void drop_deleted_views(int dir)
{
	int it = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = it >= 0 ? fdopendir(it) : NULL;
	if (!d) {
		if (it >= 0)
			close(it);
		return;
	}
	for (struct dirent *e; (e = readdir(d));)
		if (strncmp(e->d_name, CT_EXE_KEPT_PREFIX, strlen(CT_EXE_KEPT_PREFIX)) == 0)
			drop_if_deleted(dir, e->d_name);
	closedir(d);
}

/* The mount point (an empty file) and the detached bind moved onto it: attached, its fd's
 * close unmounts nothing. A point this call made is removed again when the mount fails. */
static int make_kept(int dir, const char *name, int self, struct ct_error *err)
{
	int point = openat(dir, name, O_CREAT | O_EXCL | O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0400);
	bool made = point >= 0;
	if (point < 0 && errno != EEXIST)
		return ct_error_set(err, errno, "make the mount point %s", name);
	if (made)
		close(point);
	_cleanup_close_ int tree = ct_exe_detached_bind(self, err);
	if (tree >= 0 && ct_move_mount(tree, "", dir, name, MOVE_MOUNT_F_EMPTY_PATH) == 0)
		return 0;
	if (tree >= 0)
		ct_error_set(err, errno, "mount the view of ctrun's binary at %s", name);
	if (made)
		unlinkat(dir, name, 0);
	return -1;
}

int ct_exe_kept_bind(const char *dirpath, int self, struct ct_error *err)
{
	struct stat bin;
	if (fstat(self, &bin) < 0)
		return ct_error_set(err, errno, "fstat ctrun's binary");
	char name[KEPT_NAME_MAX];
	snprintf(name, sizeof(name), CT_EXE_KEPT_PREFIX "%llx-%llx", (unsigned long long)bin.st_dev,
		 (unsigned long long)bin.st_ino);
	_cleanup_close_ int dir = ct_open_trusted_dir(AT_FDCWD, dirpath, true);
	if (dir < 0)
		return ct_error_set(err, 0, "%s is missing, not ctrun's or writable by others",
				    dirpath);
	int fd = open_kept(dir, name, &bin);
	if (fd >= 0)
		return fd;
	/* two makers would stack two mounts on the point */
	if (flock(dir, LOCK_EX) < 0)
		return ct_error_set(err, errno, "lock %s", dirpath);
	fd = open_kept(dir, name, &bin);
	if (fd >= 0)
		return fd;
	drop_deleted_views(dir);
	if (make_kept(dir, name, self, err) < 0)
		return ct_error_prefix(err, "%s", dirpath);
	fd = open_kept(dir, name, &bin);
	if (fd < 0)
		return ct_error_set(err, 0, "%s/%s is not ctrun's binary on a read-only mount",
				    dirpath, name);
	return fd;
}
