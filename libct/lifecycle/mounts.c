/* The live mount table of a container (`mounts`), read in its mount namespace. */
#include "libct/lifecycle/mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"

/* A user other than root has no say over the container's mount namespace until it is in
 * the container's user namespace, which it owns (a rootless container). */
static bool needs_user_namespace(pid_t pid)
{
	struct stat ours, theirs;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	return geteuid() != 0 && stat("/proc/self/ns/user", &ours) == 0 &&
	       stat(path, &theirs) == 0 && ours.st_ino != theirs.st_ino;
}

/* setns() takes a pidfd from Linux 5.8; before, or without pidfd_open, the namespace files
 * of the pid the start time just vouched for (the user namespace first). */
static int enter_namespaces(struct ct_container *c, struct ct_error *err)
{
	bool user = needs_user_namespace(c->state.pid);
	int flags = CLONE_NEWNS | (user ? CLONE_NEWUSER : 0);
	if (c->proc.pidfd >= 0 && setns(c->proc.pidfd, flags) == 0)
		return 0;
	static const struct {
		int flag;
		const char *file, *what;
	} order[] = {{CLONE_NEWUSER, "user", "enter the user namespace"},
		     {CLONE_NEWNS, "mnt", "enter the mount namespace"}};
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!(flags & order[i].flag))
			continue;
		char ns[64];
		snprintf(ns, sizeof(ns), "/proc/%d/ns/%s", c->state.pid, order[i].file);
		_cleanup_close_ int nsfd = openat(AT_FDCWD, ns, O_RDONLY | O_CLOEXEC);
		if (nsfd < 0 || setns(nsfd, order[i].flag) < 0)
			return ct_error_sys(err, errno, "%s", order[i].what);
	}
	return 0;
}

int ct_container_mounts(struct ct_container *c, struct ct_mount_table *t, struct ct_error *err)
{
	if (ct_container_attach(c, err) < 0)
		return -1;
	_cleanup_free_ char *text = ct_mountinfo_read(c->state.pid, err);
	if (!text)
		return -1;
	/* A created init is not dumpable until its execve: a caller without privilege may not
	 * enter its namespaces (libct/base/clone.h), and gets what mountinfo says. */
	if (enter_namespaces(c, err) < 0) {
		if (err->errnum != EPERM && err->errnum != EACCES)
			return -1;
		*err = (struct ct_error){0};
	} else if (ct_mounts_read(t, CT_MOUNTS_STATMOUNT, err) == 0) {
		return 0;
	}
	return ct_mountinfo_parse(text, t, err);
}
