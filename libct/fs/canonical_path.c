#include "libct/fs/canonical_path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"

#define DELETED_MARK " (deleted)"

int ct_fd_link_is_path(const char *text)
{
	size_t len = strlen(text), mark = strlen(DELETED_MARK);
	if (text[0] != '/')
		return 0;
	return len < mark || strcmp(text + len - mark, DELETED_MARK) != 0;
}

char *ct_canonical_path(const char *path, char out[PATH_MAX])
{
	_cleanup_close_ int fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char link[32];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, out, PATH_MAX - 1);
	if (n > 0 && n < PATH_MAX - 1) {
		out[n] = '\0';
		if (ct_fd_link_is_path(out))
			return out;
	}
	return realpath(path, out);
}
