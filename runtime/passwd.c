/* User names from the host's /etc/passwd, for `list` (see passwd.h). */
#include "runtime/passwd.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/passwd.h"
#include "libct/base/readall.h"

void ct_owner_name(uid_t uid, char *name, size_t size)
{
	static char *passwd;
	static size_t len;
	if (!passwd) {
		int fd = openat(AT_FDCWD, "/etc/passwd", O_RDONLY | O_CLOEXEC);
		passwd = fd >= 0 ? ct_read_all(fd, CT_PASSWD_MAX, &len) : NULL;
		if (fd >= 0)
			close(fd);
		if (!passwd)
			passwd = strdup(""), len = 0;
	}
	if (!passwd || !ct_passwd_find_name(passwd, len, uid, name, size))
		snprintf(name, size, "#%u", (unsigned)uid);
}
