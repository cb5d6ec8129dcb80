/* Compiled seccomp programs kept in ctrun's own cache directory (never in a state root:
 * containerd and Podman read every entry of theirs as a container), so that a profile is
 * compiled by libseccomp once (for Podman's, longer than the rest of a run) and not at every
 * create, run and exec.
 *
 *   <dir>/                          ctrun's cache directory (lifecycle/cache_dir.h), made 0700,
 *                                   owned by the caller's euid
 *   <dir>/seccomp/                  0700, owned by the caller's euid
 *   <dir>/seccomp/<key>.bpf         the program's instructions, then SHA-256(key,
 *                                   instructions): a torn, truncated or swapped file fails
 *                                   the check and is never loaded
 *
 * key: libct/seccomp/seccomp_key.h. An entry is written to a temporary name and renamed into place
 * (concurrent runs see a whole entry or none); at most CT_SECCOMP_CACHE_MAX are kept, the
 * oldest removed, and a temporary file older than CT_SECCOMP_CACHE_TMP_STALE_SEC (its writer
 * killed before the rename) is removed too, both whenever an entry is written. A directory
 * that is a symlink, not the euid's or group/other writable is not used; an entry that is not
 * a regular file owned by the euid, is group/other writable, has a bad length or fails the
 * check is a miss: the profile is compiled and the entry replaced. No cache failure fails the
 * container. The directories are opened and closed within ct_seccomp_prepare(): no fd of
 * them outlives it (none can reach a container).
 *
 * Notify (SCMP_ACT_NOTIFY) profiles go through the cache too: the cache holds only the
 * instructions; how they are loaded (SECCOMP_FILTER_FLAG_* from .flags, NEW_LISTENER for
 * notify) comes from the profile itself (ct_seccomp_load_mode()), as for a fresh compile,
 * and the listener fd is the kernel's answer to that load in the child. */
#ifndef CT_SECCOMP_CACHE_H
#define CT_SECCOMP_CACHE_H

#include "libct/seccomp/seccomp.h"

#define CT_SECCOMP_CACHE_DIR	       "seccomp"
#define CT_SECCOMP_CACHE_MAX	       64
#define CT_SECCOMP_CACHE_TMP_STALE_SEC 300

struct ct_seccomp_cache {
	const char *dir;     /* ctrun's cache directory, absolute; made when missing */
	const char *runtime; /* ctrun's "version commit", part of every key */
};

/* ct_seccomp_compile() through the cache (cache NULL: compile only). notice gets one line
 * saying whether the program came from the cache or was compiled (and why), plus the
 * compile's own lines; a program from the cache skips those (its profile compiled once). */
int ct_seccomp_prepare(const struct ct_seccomp_cache *cache, const struct oci_seccomp *s,
		       void (*notice)(const char *msg), struct ct_seccomp_prog *out,
		       struct ct_error *err);

#endif
