#include "libct/fs/trusted_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

bool ct_trusted_stat(const struct stat *st)
{
	return st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

static int open_dir_at(int atfd, const char *name)
{
	return openat(atfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int ct_open_trusted_dir(int atfd, const char *name, bool create)
{
	int fd = open_dir_at(atfd, name);
	if (fd < 0 && errno == ENOENT && create) {
		if (mkdirat(atfd, name, 0700) < 0 && errno != EEXIST)
			return -1;
		fd = open_dir_at(atfd, name);
	}
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !ct_trusted_stat(&st))) {
		close(fd);
		return -1;
	}
	return fd;
}
