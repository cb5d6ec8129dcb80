#include "libct/child/stdio_null.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
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

/* fd opened again from null (O_PATH) with fd's access mode; 0 when it is left as it was.
 * Even an fd that is the same inode already is: in a user namespace the container's /dev/null
 * is the host's node bound, and CRIU needs the fd on that bind, not on the host's /dev. */
static int reopen_as(int fd, int null, const struct stat *null_st, struct ct_error *err)
{
	struct stat st;
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fstat(fd, &st) < 0 || !is_null_device(&st))
		return 0; /* closed, or no null device */
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", null);
	_cleanup_close_ int mine = open(path, (flags & O_ACCMODE) | O_CLOEXEC);
	struct stat mine_st;
	if (mine < 0 || fstat(mine, &mine_st) < 0 || mine_st.st_ino != null_st->st_ino ||
	    mine_st.st_dev != null_st->st_dev)
		return 0; /* no /proc of the container's to open it through */
	if (dup2(mine, fd) < 0)
		return ct_error_sys(err, errno, "stdio fd %d onto the container's /dev/null", fd);
	return 0;
}

static int stdio_null_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	struct stat null_st;
	_cleanup_close_ int null = container_null(ctx->rootfd, &null_st);
	if (null < 0)
		return 0;
	for (int fd = 0; fd <= 2; fd++)
		if (reopen_as(fd, null, &null_st, err) < 0)
			return -1;
	return 0;
}

const struct ct_step ct_stdio_null = {"stdio-null", stdio_null_row};
