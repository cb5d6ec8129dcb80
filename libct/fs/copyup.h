/* The "tmpcopyup" mount option (a runc/crun extension Podman relies on): what the image has
 * in a directory is copied into the tmpfs mounted over it, so /run or /tmp keep their
 * content. The copy works on descriptors only: every entry is opened with O_NOFOLLOW
 * relative to its already-opened parent, a symlink in the image is copied as a symlink and
 * never followed, so nothing outside the two trees is read or written. */
#ifndef CT_COPYUP_H
#define CT_COPYUP_H

#include <sys/stat.h>
#include <sys/types.h>

#include "libct/base/error.h"

/* How deep the copy descends before it gives up with ELOOP (each level holds two fds). */
#define CT_COPYUP_MAX_DEPTH 64

/* Copies the content of directory src into directory dst (both opened fds; O_PATH is
 * fine): regular files, directories, symlinks, fifos and device nodes, each with its mode
 * (setuid/setgid/sticky included), owner and timestamps. Hard links become separate files;
 * sockets are skipped (a socket file without its listener is no use). An entry that exists
 * in dst already fails with EEXIST. err names the entry that failed, relative to src. */
int ct_copy_tree(int src, int dst, struct ct_error *err);

/* Gives dst (an fd, O_PATH is fine) the owner and permission bits of st, as the copy does
 * for every directory: for the root of a copied-up tmpfs. */
int ct_copy_attributes(int dst, const struct stat *st);

/* O_RDONLY fd of name in dir if it is still the regular file an earlier fstatat saw (seen:
 * same device and inode), its fstat in *st. Otherwise -1: errno from the open, or ESTALE
 * when another inode or a non-regular file took its place. Never blocks on a fifo and never
 * makes a tty the controlling one: the image may be changed under us. */
int ct_open_same_regular(int dir, const char *name, const struct stat *seen, struct stat *st);

/* readlinkat() of name in dir into buf, '\0'-terminated; its length, or -1 with errno
 * (ENAMETOOLONG when the target and its '\0' do not fit: never a cut target). */
ssize_t ct_read_link(int dir, const char *name, char *buf, size_t size);

#endif
