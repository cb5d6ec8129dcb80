/* The "tmpcopyup" mount option (a runc/crun extension Podman relies on): what the image has
 * in a directory is copied into the tmpfs mounted over it, so /run or /tmp keep their
 * content. The copy works on descriptors only: every entry is opened with O_NOFOLLOW
 * relative to its already-opened parent, a symlink in the image is copied as a symlink and
 * never followed, so nothing outside the two trees is read or written. */
#ifndef CT_COPYUP_H
#define CT_COPYUP_H

#include <sys/stat.h>

#include "libct/error.h"

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

#endif
