#include "libct/child/stdio_null.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/fs/procfs.h"
#include "libct/fs/safefs.h"

static bool is_null_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

/* The container's /dev/null (O_PATH, checked) or -1 when it has none to give. */
static int container_null(int rootfd, struct stat *st)
{
	_cleanup_close_ int fd = ct_root_open(rootfd, "/dev/null", true);
	if (fd < 0 || fstat(fd, st) < 0 || !is_null_device(st))
		return -1;
	return steal_fd(&fd);
}

/* Which of fds 0-2 are a null device (bit fd set), with each one's status flags: a
 * container whose stdio is pipes or a terminal costs this step three fstat()s. */
static unsigned null_stdio(int flags[3])
{
	unsigned which = 0;
	for (int fd = 0; fd <= 2; fd++) {
		struct stat st;
		if (fstat(fd, &st) == 0 && is_null_device(&st) &&
		    (flags[fd] = fcntl(fd, F_GETFL)) >= 0)
			which |= 1U << fd;
	}
	return which;
}

/* /proc/self/fd when it is procfs, else -1: a root without a /proc mount has the image's
 * files there, a fifo or a device among them. */
static int proc_fd_dir(void)
{
	_cleanup_close_ int dir =
		openat(AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0 || !ct_is_procfs(dir))
		return -1;
	return steal_fd(&dir);
}

/* null opened again with flags through its magic link in dir, or -1. The open neither waits
 * nor takes a terminal; the flags are set after the object is known to be null. */
static int open_again(int dir, int null, const struct stat *null_st, int flags)
{
	char name[16];
	snprintf(name, sizeof(name), "%d", null);
	_cleanup_close_ int fd =
		openat(dir, name, (flags & O_ACCMODE) | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_ino != null_st->st_ino ||
	    st.st_dev != null_st->st_dev || fcntl(fd, F_SETFL, flags) < 0)
		return -1;
	return steal_fd(&fd);
}

/* Every stdio fd that is a null device is replaced by the container's /dev/null opened again
 * with its flags. Even one that is the same inode already is: in a user namespace the
 * container's /dev/null is the host's node bound, and CRIU needs the fd on that bind, not on
 * the host's /dev. Without a procfs or a null device of the container's, stdio stays. */
static int stdio_null_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	int flags[3] = {0};
	unsigned which = null_stdio(flags);
	if (!which)
		return 0;
	struct stat null_st;
	_cleanup_close_ int null = container_null(ctx->rootfd, &null_st);
	_cleanup_close_ int dir = null < 0 ? -1 : proc_fd_dir();
	if (dir < 0)
		return 0;
	for (int fd = 0; fd <= 2; fd++) {
		if (!(which & (1U << fd)))
			continue;
		_cleanup_close_ int mine = open_again(dir, null, &null_st, flags[fd]);
		if (mine >= 0 && dup2(mine, fd) < 0)
			return ct_error_sys(err, errno,
					    "stdio fd %d onto the container's /dev/null", fd);
	}
	return 0;
}

const struct ct_step ct_stdio_null = {"stdio-null", stdio_null_row};
