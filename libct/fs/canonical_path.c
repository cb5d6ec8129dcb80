#include "libct/fs/canonical_path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Whether name, walked from our root, reaches the file open as st. */
static bool names_file(const char *name, const struct stat *st)
{
	struct stat there;
	return stat(name, &there) == 0 && there.st_dev == st->st_dev && there.st_ino == st->st_ino;
}

/* The kernel's name for fd, when it is a path that reaches the file from our root: a file
 * reached through another mount namespace (/proc/PID/root) or a detached mount is named as
 * seen from there, with no mark, and the same text here may name another file. */
static bool fd_name(int fd, const struct stat *st, char out[PATH_MAX])
{
	char link[32];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, out, PATH_MAX - 1);
	if (n <= 0 || n >= PATH_MAX - 1)
		return false;
	out[n] = '\0';
	return ct_fd_link_is_path(out) && names_file(out, st);
}

/* No path from our root reaches the file. */
static char *no_name_here(void)
{
	errno = EXDEV;
	return NULL;
}

char *ct_canonical_path(const char *path, char out[PATH_MAX])
{
	_cleanup_close_ int fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return NULL;
	if (fd_name(fd, &st, out))
		return out;
	/* the file is open: a name that reaches nothing or another file is another root's */
	if (!realpath(path, out))
		return errno == ENOENT ? no_name_here() : NULL;
	return names_file(out, &st) ? out : no_name_here();
}
