/* Writes to /proc files that a container could try to redirect (CVE-2025-52881 class): a
 * config mount over /proc or /proc/sys, or an image that makes them something else, must
 * not turn a sysctl or oom_score_adj write into a write to another file system. */
#ifndef CT_PROCFS_H
#define CT_PROCFS_H

#include "libct/error.h"

/* Opens path for writing (never following a symlink as its last component), checks with
 * fstatfs() that the file is on procfs, and by its mount id that it is on the mount of /proc
 * itself (not a procfs file bound over it), and writes value in one write(). On failure err
 * names path ("\"/proc/sys/x\" is not procfs (tmpfs)" for a redirected one); callers say
 * what they were setting. */
int ct_proc_write(const char *path, const char *value, struct ct_error *err);

#endif
