/* Where ctrun keeps what it computes once for many containers (the compiled seccomp programs,
 * libct/seccomp/seccomp_cache.h): a directory of its own, never the state root (--root), whose
 * every entry containerd and Podman read as a container. */
#ifndef CT_CACHE_DIR_H
#define CT_CACHE_DIR_H

/* The directory for this caller (absolute, static storage), or NULL: no cache then. Found on
 * the first call, kept for the process. */
const char *ct_cache_dir(void);

#endif
