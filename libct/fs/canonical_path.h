/* realpath(3) in five system calls where musl's takes a readlink() per component of the
 * path, each a walk from / of the path so far: the path is opened and the kernel's name for
 * the open file read back from /proc/self/fd, then checked to reach that file. */
#ifndef CT_FS_CANONICAL_PATH_H
#define CT_FS_CANONICAL_PATH_H

#include <limits.h>

/* As realpath(path, out): out (PATH_MAX bytes) gets the absolute path with every symlink
 * resolved; NULL with errno on failure. Where /proc cannot answer (not mounted, a name the
 * kernel marks " (deleted)", one that reaches another file from our root), realpath() does;
 * EXDEV where its answer too reaches another file (a path through /proc/PID/root of another
 * mount namespace: the kernel names the file as seen from there, realpath() likewise). */
char *ct_canonical_path(const char *path, char out[PATH_MAX]);

/* Whether a /proc/self/fd link's text is a path realpath() would give: absolute, and not
 * the kernel's " (deleted)" mark. Pure, unit-tested. */
int ct_fd_link_is_path(const char *text);

#endif
