/* CVE-2019-5736 and its class: a process that enters a container runs ctrun's image until
 * its final execve, so /proc/<pid>/exe of it (and of a /proc/self/exe it executes there)
 * leads to the file ctrun runs from. That file must be one no container process can write.
 *
 * ct_exe_protect() is the first thing the commands that put processes into a container do:
 * when the running image is already such a file it returns 0; otherwise it re-executes
 * ctrun, with the same argv, environment and inherited fds, from a read-only view of its
 * binary, and does not return. -1 (err set) when no view can be had: the caller refuses to
 * go on rather than run exposed.
 *
 * The views, in order of preference:
 *  1. a detached overlayfs mount whose only layers are the binary's directory and an empty
 *     tmpfs: no copy, and read-only in its superblock, so neither clearing the mount's
 *     read-only flag (mount_setattr, which a process with a user namespace of its own may
 *     do on a detached mount) nor a remount makes it writable. A read-only bind mount is
 *     not enough for exactly that reason. Needs CAP_SYS_ADMIN over ctrun's mount namespace.
 *  2. a copy in a memfd sealed against writes, shrinking, growing and further sealing.
 *
 * Already safe, judged by the file itself (never by an environment variable):
 *  - a memfd carrying those seals;
 *  - a read-only overlayfs (view 1 after the re-exec);
 *  - a file on a read-only mount that is attached in ctrun's own mount namespace: a
 *    container cannot change a mount of another namespace (mount_setattr answers EINVAL),
 *    and making its filesystem writable again takes CAP_SYS_ADMIN in the host's user
 *    namespace, which a container holding it has anyway (it can mount the host's disk);
 *  - for a user without capabilities (rootless), a binary owned by root that only its
 *    owner may write: no id of its containers maps to host root. */
#ifndef CT_EXE_VIEW_H
#define CT_EXE_VIEW_H

#include "libct/base/error.h"

/* How the running image's file stands. */
enum ct_exe_state {
	CT_EXE_WRITABLE,     /* a container could come to write it: needs a view */
	CT_EXE_SEALED_MEMFD, /* view 2 */
	CT_EXE_RO_OVERLAY,   /* view 1 */
	CT_EXE_RO_MOUNT,     /* the binary's own mount is read-only and attached here */
};

/* The state of the file open at fd (any open of an executable). */
enum ct_exe_state ct_exe_state_of(int fd);

/* See above. argv and envp are main()'s (NULL-terminated). */
int ct_exe_protect(char *const argv[], char *const envp[], struct ct_error *err);

#endif
