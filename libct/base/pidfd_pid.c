#include "libct/base/pidfd_pid.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/readall.h"

int ct_pidfd_pid(int pidfd, pid_t *pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char *text = ct_read_file(fd, 4096, NULL);
	int saved = errno;
	close(fd);
	if (!text) {
		errno = saved;
		return -1;
	}
	const char *line = strstr(text, "\nPid:\t");
	long value = line ? strtol(line + 6, NULL, 10) : 0;
	free(text);
	if (!line) {
		errno = ENOENT;
		return -1;
	}
	if (value <= 0) {
		errno = ESRCH;
		return -1;
	}
	*pid = (pid_t)value;
	return 0;
}
