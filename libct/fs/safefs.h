/* Paths inside an untrusted rootfs, resolved as if its directory were "/" (docs/design.md "Safe
 * paths"): a symlink in the image, absolute or with "..", can never lead outside it, and
 * magic links (/proc/<pid>/root, /proc/self/fd/N) are refused. Everything returns O_PATH
 * descriptors: what is mounted on, created in, chmod'ed and chown'ed is the fd that was
 * checked, never a path name looked up again.
 *
 * openat2(RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS) does the work where the kernel has it;
 * elsewhere (Linux < 5.6, or a seccomp profile that refuses it) a component-by-component
 * openat(O_NOFOLLOW) walk that reads every symlink itself and keeps ".." at the root.
 *
 * Functions return a descriptor (or 0) on success and -1 with errno set on failure; callers
 * name the path in their error message. */
#ifndef CT_SAFEFS_H
#define CT_SAFEFS_H

#include <stdbool.h>
#include <sys/types.h>

/* Which resolver ct_root_open() uses; CT_RESOLVE_AUTO tries openat2 and falls back. */
enum ct_resolver { CT_RESOLVE_AUTO, CT_RESOLVE_OPENAT2, CT_RESOLVE_WALK };

/* O_PATH | O_CLOEXEC fd of path (relative or absolute, both taken from rootfd) under
 * rootfd. nofollow: a symlink as the last component is opened itself, not followed. */
int ct_root_open(int rootfd, const char *path, bool nofollow);

/* A regular file under rootfd opened for reading (O_RDONLY | O_CLOEXEC), symlinks followed
 * within the root as ct_root_open() follows them. Anything else is refused before it is
 * opened, so a FIFO or device planted there never blocks nor is opened: EISDIR for a
 * directory, EINVAL otherwise (ESTALE: swapped between the check and the open). */
int ct_root_open_regular(int rootfd, const char *path);

/* The same with a chosen resolver (CT_RESOLVE_OPENAT2 fails with ENOSYS where it is
 * missing); for tests and for the features report. */
int ct_root_open_with(enum ct_resolver how, int rootfd, const char *path, bool nofollow);

/* O_PATH | O_CLOEXEC fd of path under rootfd reached through no symlink at all, the last
 * component included: -1 with ELOOP when one is on the way. For what goes only at its very
 * path (procfs, sysfs: CVE-2019-19921). */
int ct_root_open_exact(int rootfd, const char *path);
int ct_root_open_exact_with(enum ct_resolver how, int rootfd, const char *path);

/* The resolver that ct_root_open() ended up using so far (AUTO before the first call). */
enum ct_resolver ct_root_resolver(void);

enum ct_make { CT_MAKE_DIR, CT_MAKE_FILE };

/* ct_root_open(), creating what is missing first: directories 0755 along the way and, as
 * the last component, a directory or an empty 0644 file. A dangling symlink on the way is
 * followed within the root like any other, and fails with ENOENT. */
int ct_root_mkpath(int rootfd, const char *path, enum ct_make what);

/* O_PATH fd of the directory that holds path's last component (resolved in the root, made
 * when missing), and that component in name (no '/'), for the *at() calls that create
 * (mknodat, symlinkat); fails with EINVAL when path has no last component ("/", "..",
 * "a/."). */
int ct_root_mkparent(int rootfd, const char *path, char *name, size_t size);

/* chmod / chown of what fd (O_PATH is fine) refers to, never following a symlink:
 * fchmodat2(AT_EMPTY_PATH) where the kernel has it (6.6), chmod of /proc/self/fd/N (the
 * inode of the fd, not a path lookup) otherwise; fchownat(AT_EMPTY_PATH). */
int ct_fd_chmod(int fd, mode_t mode);
int ct_fd_chown(int fd, uid_t uid, gid_t gid);
/* ct_fd_chmod()'s fallback alone, for tests. */
int ct_fd_chmod_by_proc(int fd, mode_t mode);

/* path made absolute and plain, by its text alone (no lookup): a leading '/', no empty, "."
 * or ".." components (".." above "/" stays there), no trailing '/'; "/" for "". Pure. */
void ct_path_normalize(const char *path, char *out, size_t size);
/* Whether path is as ct_path_normalize() gives it back: "/", or "/name" over and over with
 * no name empty, "." or "..". Pure. */
bool ct_path_is_normal(const char *path);
/* Whether path is top or below it, by the text ("/" holds every path; "/dev" holds
 * "/dev/pts" but not "/devx"). Pure. */
bool ct_path_within(const char *path, const char *top);

/* "/proc/self/fd/N" in buf, the way to hand an fd to calls that only take paths. */
const char *ct_fd_path(int fd, char *buf, size_t size);

#endif
