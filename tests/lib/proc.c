/* Processes as /proc shows them: alive or not, their start time, namespaces and command
 * lines. Read here, not through libct, so that ctrun's own parsers do not judge ctrun. */
#include "tests/lib/testlib.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Field 22 of /proc/PID/stat (clock ticks since boot); fails the test when unreadable. */
unsigned long long ctt_start_time(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	char *text = ctt_read_file(path), *p = strrchr(text, ')');
	unsigned long long t = 0;
	cr_assert(p && sscanf(p + 2,
			      "%*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			      "%*s %*s %*s %*s %*s %llu",
			      &t) == 1,
		  "no start time in %s", path);
	free(text);
	return t;
}

bool ctt_alive(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

/* Whether /proc/<pid>/<file> (NUL-separated) has an entry equal to entry. */
static bool proc_has_entry(const char *pid, const char *file, const char *entry, char sep)
{
	char path[64], buf[65536];
	snprintf(path, sizeof(path), "/proc/%s/%s", pid, file);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = sep;
	if (buf[n - 1] == sep)
		buf[n - 1] = '\0';
	if (sep == ' ')
		return strcmp(buf, entry) == 0;
	for (char *s = buf; s < buf + n; s += strlen(s) + 1)
		if (strcmp(s, entry) == 0)
			return true;
	return false;
}

char *ctt_ns_link(const char *who, const char *name)
{
	char path[64], buf[128];
	snprintf(path, sizeof(path), "/proc/%s/ns/%s", who, name);
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	cr_assert_gt(n, 0, "readlink %s", path);
	buf[n] = '\0';
	return strdup(buf);
}

/* How many processes ctt_count_in_pidns() means; *first gets one of them (0: none). */
static int scan_pidns(pid_t pid, const char *cmdline, pid_t *first)
{
	char path[64];
	struct stat ns, st;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	cr_assert_eq(stat(path, &ns), 0, "stat %s: %s", path, strerror(errno));
	DIR *d = opendir("/proc");
	cr_assert_not_null(d);
	int n = 0;
	*first = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (atoi(e->d_name) <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/pid", e->d_name);
		if (stat(path, &st) == 0 && st.st_ino == ns.st_ino && st.st_dev == ns.st_dev &&
		    proc_has_entry(e->d_name, "cmdline", cmdline, ' ') && !n++)
			*first = (pid_t)atoi(e->d_name);
	}
	closedir(d);
	return n;
}

int ctt_count_in_pidns(pid_t pid, const char *cmdline)
{
	pid_t first;
	return scan_pidns(pid, cmdline, &first);
}

/* Waits for it: a shell's "cmd &" forks first and execs later, so a marker the shell
 * writes next may come before the child shows the command line. */
pid_t ctt_find_in_pidns(pid_t pid, const char *cmdline)
{
	pid_t first;
	for (unsigned waited = 0; scan_pidns(pid, cmdline, &first) == 0; waited += 20) {
		cr_assert_lt(waited, CTT_POLL_LIMIT_MS, "no \"%s\" in the pid namespace of %d",
			     cmdline, (int)pid);
		ctt_sleep_ms(20);
	}
	return first;
}

void ctt_wait_count_in_pidns(pid_t pid, const char *cmdline, int want)
{
	for (unsigned waited = 0; ctt_count_in_pidns(pid, cmdline) != want; waited += 20) {
		cr_assert_lt(waited, CTT_POLL_LIMIT_MS, "%d of \"%s\" expected, %d there", want,
			     cmdline, ctt_count_in_pidns(pid, cmdline));
		ctt_sleep_ms(20);
	}
}

int ctt_count_processes_with_env(const char *entry)
{
	DIR *d = opendir("/proc");
	cr_assert_not_null(d, "opendir /proc: %s", strerror(errno));
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (atoi(e->d_name) > 0 && atoi(e->d_name) != getpid() &&
		    proc_has_entry(e->d_name, "environ", entry, '\0'))
			n++;
	closedir(d);
	return n;
}
