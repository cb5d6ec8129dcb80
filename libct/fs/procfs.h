/* Writes to /proc files that a container could try to redirect (CVE-2025-52881 class): a
 * config mount over /proc or /proc/sys, or an image that makes them something else, must
 * not turn a sysctl, oom_score_adj, LSM label or id map write into a write to another file.
 *
 * The writes go through a procfs that ctrun mounted itself and that has no path in any
 * tree: fsopen("proc") + fsmount() (a detached mount), or where the new mount API is
 * missing, a proc mounted with mount(2) on a directory ctrun chose and detached at once
 * (the fd keeps it). Either belongs to the pid namespace of the process that made it
 * (proc_fill_super takes task_active_pid_ns(current)), so /proc/self there is the caller.
 * Where no procfs may be mounted (a user namespace without a pid namespace of its own, a
 * host /proc with parts hidden), the writes go through /proc with a check instead: the
 * file must be procfs and on the mount of /proc itself. */
#ifndef CT_PROCFS_H
#define CT_PROCFS_H

#include <stdbool.h>
#include <sys/types.h>

#include "libct/base/error.h"

struct ct_procfs {
	int root; /* O_PATH fd of a private procfs root; -1: /proc, checked */
	/* How it was made, for the debug log: "fsmount", "mount" or "/proc (checked)". */
	const char *how;
};

#define CT_PROCFS_INIT                               \
	{                                            \
		.root = -1, .how = "/proc (checked)" \
	}

/* Mounts a private procfs of the caller's pid namespace. spare_dir (NULL: none) is where
 * a mount(2) may put it for the moment it takes to open it; it must be in a mount
 * namespace of the caller's own whose propagation is not shared with the host, and a path
 * the container does not control. Never fails: without a private procfs, p says /proc. */
void ct_procfs_open(struct ct_procfs *p, const char *spare_dir);
void ct_procfs_close(struct ct_procfs *p);

/* Opens path ("/proc/sys/kernel/x", "/proc/self/oom_score_adj": always under /proc/) in p
 * for writing, never following a symlink as its last component, checks with fstatfs()
 * that it is procfs and by its mount id that it is on p's mount (not a procfs file bound
 * over it), and writes value in one write(). On failure err names path ("\"/proc/sys/x\"
 * is not procfs (tmpfs)"); callers say what they were setting. */
int ct_procfs_write(const struct ct_procfs *p, const char *path, const char *value,
		    struct ct_error *err);

/* Writes value to /proc/<pid>/<file> through a private procfs of the caller's (ct_procfs_open,
 * no spare directory), as ct_procfs_write. */
int ct_procfs_write_pid(pid_t pid, const char *file, const char *value, struct ct_error *err);

/* Whether fd is on a procfs (fstatfs). */
bool ct_is_procfs(int fd);

#endif
