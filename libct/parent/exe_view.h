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
 *  1. the kept view (libct/parent/exe_bind.h): a read-only bind mount of the binary alone,
 *     attached in ctrun's cache directory and used by every later command of the same
 *     binary in the same mount namespace. No copy, and, once made, no mount work at all:
 *     a detached view costs every command the unmount that follows its execve.
 *  2. a detached bind mount of the binary alone, made read-only for this command only. While
 *     the fd that holds it is open, a process with a user namespace of its own could clear
 *     its read-only flag (mount_setattr on a detached mount asks for CAP_SYS_ADMIN over the
 *     caller's mount namespace only); that fd is ctrun's alone and close-on-exec, so the
 *     execve into the view closes it, which unmounts the copy for good before the first
 *     instruction of the new image: from then on its flags are fixed.
 *  3. a copy in a memfd sealed against writes, shrinking, growing and further sealing.
 * The bind views need CAP_SYS_ADMIN over ctrun's mount namespace.
 *
 * Already safe (libct/parent/exe_state.h):
 *  - a memfd carrying those seals;
 *  - a file on a read-only mount (a bind view after the re-exec, or a binary installed on
 *    one): see ct_exe_state_of() for why no container can make it writable;
 *  - for a user without capabilities (rootless), a binary owned by root that only its
 *    owner may write: no id of its containers maps to host root. */
#ifndef CT_EXE_VIEW_H
#define CT_EXE_VIEW_H

#include "libct/base/error.h"

/* See above. argv and envp are main()'s (NULL-terminated); kept_dir is the directory of the
 * kept view (ctrun's cache directory), NULL for none. */
int ct_exe_protect(char *const argv[], char *const envp[], const char *kept_dir,
		   struct ct_error *err);

#endif
