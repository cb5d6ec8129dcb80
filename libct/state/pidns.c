#include "libct/state/pidns.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"
#include "libct/base/selfstatus.h"

/* A status file is a few KiB; NSpid comes early but the whole file is taken. */
#define STATUS_MAX (64 * 1024)

int ct_parse_nspid(const char *status_text, pid_t *innermost)
{
	const char *s = ct_proc_status_field(status_text, "NSpid");
	if (!s)
		return -1;
	long last = -1;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '\n')
			break;
		char *end;
		errno = 0;
		long v = strtol(s, &end, 10);
		if (end == s || errno || v <= 0 || v > INT_MAX ||
		    (*end && *end != ' ' && *end != '\t' && *end != '\n'))
			return -1;
		last = v;
		s = end;
	}
	if (last < 0)
		return -1;
	*innermost = (pid_t)last;
	return 0;
}

bool ct_proc_leads_pid_ns(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	_cleanup_close_ int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t len;
	_cleanup_free_ char *text = ct_read_all(fd, STATUS_MAX, &len);
	pid_t inner;
	/* pid 1 seen from our own namespace: ctrun runs as some container's init, not ours */
	return text && ct_parse_nspid(text, &inner) == 0 && inner == 1 && pid != 1;
}
