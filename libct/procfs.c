#include "libct/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "libct/cleanup.h"
#include "libct/fsinfo.h"

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

static int check_procfs(int fd, const char *path, struct ct_error *err)
{
	struct statfs sfs;
	if (fstatfs(fd, &sfs) < 0)
		return ct_error_set(err, errno, "statfs \"%s\"", path);
	if (sfs.f_type != PROC_SUPER_MAGIC)
		return ct_error_set_plain(err, EXDEV, "\"%s\" is not procfs (%s)", path,
					  fs_name((long)sfs.f_type));
	return 0;
}

/* Procfs alone is not enough: a bind of another procfs file over this one (a host volume's
 * symlink that led a bind source to /proc/sysrq-trigger, say) is procfs too, but a mount of
 * its own. The file must be on the mount of /proc itself. */
static int check_proc_mount(int fd, const char *path, struct ct_error *err)
{
	_cleanup_close_ int proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	uint64_t want, have;
	if (proc < 0)
		return ct_error_set(err, errno, "open /proc");
	if (ct_fd_mount_id(proc, false, &want, err) < 0 ||
	    ct_fd_mount_id(fd, false, &have, err) < 0)
		return ct_error_prefix(err, "\"%s\"", path);
	if (want != have)
		return ct_error_set_plain(err, EXDEV,
					  "\"%s\" is not on the /proc mount: something is mounted "
					  "over it",
					  path);
	return 0;
}

int ct_proc_write(const char *path, const char *value, struct ct_error *err)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (fd < 0)
		return ct_error_set(err, errno, "open \"%s\"", path);
	if (check_procfs(fd, path, err) < 0 || check_proc_mount(fd, path, err) < 0)
		return -1;
	size_t len = strlen(value);
	ssize_t n = write(fd, value, len);
	if (n < 0)
		return ct_error_set(err, errno, "write \"%s\"", path);
	if ((size_t)n != len)
		return ct_error_set_plain(err, EIO, "write \"%s\": short write", path);
	return 0;
}
