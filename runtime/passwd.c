/* User names from /etc/passwd, parsed here instead of through NSS (see passwd.h). */
#include "runtime/passwd.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/readall.h"

#define PASSWD_MAX (16 << 20)

/* The uid field of one line "name:pw:uid:..." (end excluded), or -1 when malformed. */
static long long line_uid(const char *line, const char *end)
{
	const char *p = line;
	for (int field = 0; field < 2; field++) {
		p = memchr(p, ':', end - p);
		if (!p)
			return -1;
		p++;
	}
	long long uid = 0;
	const char *digits = p;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		uid = uid * 10 + (*p - '0');
		if (uid > 0xffffffffLL)
			return -1;
	}
	return p > digits && p < end && *p == ':' ? uid : -1;
}

bool ct_passwd_find_name(const char *text, uid_t uid, char *name, size_t size)
{
	for (const char *line = text; *line;) {
		const char *end = strchrnul(line, '\n');
		const char *colon = memchr(line, ':', end - line);
		if (colon && colon > line && line_uid(line, end) == (long long)uid) {
			snprintf(name, size, "%.*s", (int)(colon - line), line);
			return true;
		}
		line = *end ? end + 1 : end;
	}
	return false;
}

void ct_owner_name(uid_t uid, char *name, size_t size)
{
	static char *passwd;
	if (!passwd) {
		int fd = openat(AT_FDCWD, "/etc/passwd", O_RDONLY | O_CLOEXEC);
		passwd = fd >= 0 ? ct_read_all(fd, PASSWD_MAX, NULL) : NULL;
		if (fd >= 0)
			close(fd);
		if (!passwd)
			passwd = strdup("");
	}
	if (!passwd || !ct_passwd_find_name(passwd, uid, name, size))
		snprintf(name, size, "#%u", (unsigned)uid);
}
