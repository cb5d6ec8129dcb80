#include "runtime/kill_all.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/cleanup.h"
#include "libct/syscalls.h"

static int pid_ns_of(pid_t pid, struct stat *st)
{
	char path[64];
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/ns/pid");
	return stat(path, st);
}

static bool same_ns(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static void signal_if_in_ns(pid_t pid, const struct stat *ns, int sig)
{
	_cleanup_close_ int fd = ct_pidfd_open(pid, 0);
	struct stat st;
	if (fd >= 0 && pid_ns_of(pid, &st) == 0 && same_ns(&st, ns))
		ct_pidfd_send_signal(fd, sig, NULL, 0);
}

int ct_kill_all(struct ct_container *c, int sig, struct ct_error *err)
{
	struct stat init_ns, own_ns;
	int pidfd = c->proc.pidfd;
	if (pid_ns_of(c->state.pid, &init_ns) < 0 || pid_ns_of(0, &own_ns) < 0 ||
	    same_ns(&init_ns, &own_ns)) {
		if (ct_pidfd_send_signal(pidfd, sig, NULL, 0) < 0 && errno != ESRCH)
			return ct_error_set(err, errno, "send signal %d", sig);
		return 0;
	}
	_cleanup_closedir_ DIR *proc = opendir("/proc");
	if (!proc)
		return ct_error_set(err, errno, "open /proc");
	struct dirent *e;
	while ((e = readdir(proc))) {
		pid_t pid = (pid_t)atoi(e->d_name);
		if (pid > 0 && pid != c->state.pid)
			signal_if_in_ns(pid, &init_ns, sig);
	}
	if (ct_pidfd_send_signal(pidfd, sig, NULL, 0) < 0 && errno != ESRCH)
		return ct_error_set(err, errno, "send signal %d", sig);
	return 0;
}
