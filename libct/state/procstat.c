/* /proc/PID/stat parsing and the status derived from it (runtime.md#state). */
#include "libct/state/procstat.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/pathbuf.h"

/* proc(5): after ") " come field 3 (state) .. field 52; the start time is field 22. */
#define STAT_FIRST_FIELD_AFTER_COMM 3
#define STAT_START_TIME_FIELD	    22

/* Moves past one space-separated field; returns its start, or NULL at the end of the line. */
static const char *next_field(const char **cursor, size_t *len)
{
	const char *s = *cursor;
	while (*s == ' ')
		s++;
	if (!*s || *s == '\n')
		return NULL;
	const char *start = s;
	while (*s && *s != ' ' && *s != '\n')
		s++;
	*len = (size_t)(s - start);
	*cursor = s;
	return start;
}

static int parse_u64_field(const char *s, size_t len, uint64_t *out)
{
	if (len == 0 || len > 20)
		return -1;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		unsigned digit = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - digit) / 10)
			return -1;
		v = v * 10 + digit;
	}
	*out = v;
	return 0;
}

int ct_proc_parse_stat(const char *stat_line, uint64_t *start_time, char *state_char)
{
	/* The comm is whatever the process named itself (prctl PR_SET_NAME), ')' included:
	 * only the last ')' reliably ends it. */
	const char *close = stat_line ? strrchr(stat_line, ')') : NULL;
	if (!close || !strchr(stat_line, '('))
		return -1;
	const char *cursor = close + 1;
	char state = 0;
	for (int field = STAT_FIRST_FIELD_AFTER_COMM; field <= STAT_START_TIME_FIELD; field++) {
		size_t len;
		const char *s = next_field(&cursor, &len);
		if (!s)
			return -1;
		if (field == STAT_FIRST_FIELD_AFTER_COMM) {
			if (len != 1)
				return -1;
			state = s[0];
		} else if (field == STAT_START_TIME_FIELD) {
			uint64_t t;
			if (parse_u64_field(s, len, &t) < 0)
				return -1;
			if (start_time)
				*start_time = t;
		}
	}
	if (state_char)
		*state_char = state;
	return 0;
}

static int read_stat_line(pid_t pid, char *buf, size_t size, struct ct_error *err)
{
	char path[sizeof("/proc//stat") + CT_DEC_MAX] = "/proc/";
	size_t digits = ct_format_dec(path + strlen("/proc/"), (uint64_t)pid); /* pid > 0 */
	memcpy(path + strlen("/proc/") + digits, "/stat", sizeof("/stat"));
	_cleanup_close_ int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ct_error_sys(err, errno, "open \"%s\"", path);
	size_t got = 0;
	while (got < size - 1) {
		ssize_t n = read(fd, buf + got, size - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* a process reaped between open and read: the same as never there */
			int e = errno == ESRCH ? ENOENT : errno;
			return ct_error_sys(err, e, "read \"%s\"", path);
		}
		if (n == 0)
			break;
		bool short_read = (size_t)n < size - 1 - got;
		got += (size_t)n;
		/* a seq_file fills the buffer while text remains: a short read was its end, and
		 * a second read would only say so (libct/base/readall.h) */
		if (short_read)
			break;
	}
	buf[got] = '\0';
	return 0;
}

int ct_proc_stat(pid_t pid, uint64_t *start_time, char *state_char, struct ct_error *err)
{
	if (pid <= 0)
		return ct_error_plain(err, ENOENT, "process %d does not exist", (int)pid);
	/* comm is at most 64 bytes (kernel threads), the other 50 fields are numbers */
	char line[2048];
	if (read_stat_line(pid, line, sizeof(line), err) < 0)
		return -1;
	if (ct_proc_parse_stat(line, start_time, state_char) < 0)
		return ct_error_plain(err, EINVAL, "parse \"/proc/%d/stat\": unexpected format",
				      (int)pid);
	return 0;
}

int ct_proc_start_time(pid_t pid, uint64_t *start_time, struct ct_error *err)
{
	return ct_proc_stat(pid, start_time, NULL, err);
}

const char *ct_status_name(enum ct_status s)
{
	static const char *const names[] = {
		[CT_STATUS_CREATING] = "creating", [CT_STATUS_CREATED] = "created",
		[CT_STATUS_RUNNING] = "running",   [CT_STATUS_STOPPED] = "stopped",
		[CT_STATUS_PAUSED] = "paused",
	};
	if ((unsigned)s >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[s];
}

int ct_status_read(pid_t pid, uint64_t recorded_start_time, bool started, enum ct_status *status,
		   struct ct_error *err)
{
	uint64_t start_time;
	char state;
	struct ct_error why = {0};
	*status = CT_STATUS_STOPPED;
	if (ct_proc_stat(pid, &start_time, &state, &why) < 0) {
		/* gone, or a line that is no process's (EINVAL): stopped; anything else (EIO,
		 * ENOMEM, EACCES) says nothing about the process */
		if (why.errnum == ENOENT || why.errnum == ESRCH || why.errnum == EINVAL)
			return 0;
		*err = why;
		return -1;
	}
	/* A zombie has exited; only its parent's wait is missing. */
	if (state == 'Z' || state == 'X')
		return 0;
	if (start_time != recorded_start_time)
		return 0; /* the pid was reaped and given to someone else */
	*status = started ? CT_STATUS_RUNNING : CT_STATUS_CREATED;
	return 0;
}

enum ct_status ct_status_derive(pid_t pid, uint64_t recorded_start_time, bool started)
{
	enum ct_status status;
	struct ct_error ignored;
	ct_status_read(pid, recorded_start_time, started, &status, &ignored);
	return status;
}

int ct_proc_kill_checked(pid_t pid, uint64_t start_time, int sig, struct ct_error *err)
{
	/* What is left is the gap between two syscalls, the best a pid allows (runc too). */
	if (ct_status_derive(pid, start_time, true) == CT_STATUS_STOPPED)
		return ct_error_plain(err, ESRCH, "send signal %d to process %d: it has exited",
				      sig, (int)pid);
	if (kill(pid, sig) < 0)
		return ct_error_sys(err, errno, "send signal %d", sig);
	return 0;
}
