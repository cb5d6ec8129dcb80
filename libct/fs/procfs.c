#include "libct/fs/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/syscalls.h"
#include "libct/fs/fsinfo.h"

#define PROC_PREFIX "/proc/"

static const char *fs_name(long type)
{
	switch (type) {
	case TMPFS_MAGIC:
		return "tmpfs";
	case SYSFS_MAGIC:
		return "sysfs";
	case OVERLAYFS_SUPER_MAGIC:
		return "overlay";
	case EXT4_SUPER_MAGIC:
		return "ext4";
	default:
		return "another file system";
	}
}

bool ct_is_procfs(int fd)
{
	struct statfs sfs;
	return fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
}

/* The detached mount of fsopen("proc"), or -1. */
static int proc_by_fsmount(void)
{
	_cleanup_close_ int fsfd = ct_fsopen("proc", FSOPEN_CLOEXEC);
	if (fsfd < 0 || ct_fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return -1;
	return ct_fsmount(fsfd, FSMOUNT_CLOEXEC,
			  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
}

/* mount(2) of a proc on dir, opened, then detached from dir: only the fd holds it. */
static int proc_by_mount(const char *dir)
{
	if (mount("proc", dir, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return -1;
	int fd = openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (umount2(dir, MNT_DETACH) < 0 || (fd >= 0 && !ct_is_procfs(fd))) {
		ct_close_now(&fd);
		return -1;
	}
	return fd;
}

void ct_procfs_open(struct ct_procfs *p, const char *spare_dir)
{
	*p = (struct ct_procfs)CT_PROCFS_INIT;
	int saved = errno;
	if ((p->root = proc_by_fsmount()) >= 0)
		p->how = "fsmount";
	else if (spare_dir && (p->root = proc_by_mount(spare_dir)) >= 0)
		p->how = "mount";
	errno = saved;
}

void ct_procfs_close(struct ct_procfs *p)
{
	ct_close_now(&p->root);
	*p = (struct ct_procfs)CT_PROCFS_INIT;
}

static int check_procfs(int fd, const char *path, struct ct_error *err)
{
	struct statfs sfs;
	if (fstatfs(fd, &sfs) < 0)
		return ct_error_sys(err, errno, "statfs \"%s\"", path);
	if (sfs.f_type != PROC_SUPER_MAGIC)
		return ct_error_plain(err, EXDEV, "\"%s\" is not procfs (%s)", path,
				      fs_name((long)sfs.f_type));
	return 0;
}

/* Procfs alone is not enough: a bind of another procfs file over this one (a host volume's
 * symlink that led a bind source to /proc/sysrq-trigger, say) is procfs too, but a mount of
 * its own. The file must be on the mount of the procfs root. */
static int check_same_mount(int root, int fd, const char *path, struct ct_error *err)
{
	uint64_t want, have;
	if (ct_fd_mount_id(root, false, &want, err) < 0 ||
	    ct_fd_mount_id(fd, false, &have, err) < 0)
		return ct_error_prefix(err, "\"%s\"", path);
	if (want != have)
		return ct_error_plain(err, EXDEV,
				      "\"%s\" is not on the /proc mount: something is mounted "
				      "over it",
				      path);
	return 0;
}

int ct_procfs_write(const struct ct_procfs *p, const char *path, const char *value,
		    struct ct_error *err)
{
	if (strncmp(path, PROC_PREFIX, strlen(PROC_PREFIX)) != 0)
		return ct_error_plain(err, EINVAL, "\"%s\" is not under /proc", path);
	_cleanup_close_ int proc = -1;
	int root = p->root;
	if (root < 0 &&
	    (root = proc = openat(AT_FDCWD, "/proc", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return ct_error_sys(err, errno, "open /proc");
	_cleanup_close_ int fd = openat(root, path + strlen(PROC_PREFIX),
					O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (fd < 0)
		return ct_error_sys(err, errno, "open \"%s\"", path);
	if (check_procfs(fd, path, err) < 0 || check_same_mount(root, fd, path, err) < 0)
		return -1;
	size_t len = strlen(value);
	ssize_t n = write(fd, value, len);
	if (n < 0)
		return ct_error_sys(err, errno, "write \"%s\"", path);
	if ((size_t)n != len)
		return ct_error_plain(err, EIO, "write \"%s\": short write", path);
	return 0;
}

int ct_procfs_write_pid(pid_t pid, const char *file, const char *value, struct ct_error *err)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	struct ct_procfs procfs;
	ct_procfs_open(&procfs, NULL);
	int rc = ct_procfs_write(&procfs, path, value, err);
	ct_procfs_close(&procfs);
	return rc;
}
