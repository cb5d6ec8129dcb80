/* Where the set-up's mounts go: the fd of a destination in the rootfs, made when missing.
 *
 * Most destinations are resolved in the root (libct/fs/safefs.h: openat2 RESOLVE_IN_ROOT, a
 * missing one made in its resolved parent and looked up again). A destination right inside
 * a tmpfs ctrun itself mounted earlier in the set-up (/dev/pts in the /dev tmpfs, each
 * cgroup v1 hierarchy in the /sys/fs/cgroup tmpfs) is made from that tmpfs's own fd with
 * one mkdirat and one openat, no look-up in the root: the tmpfs held nothing but what ctrun
 * made there, nothing of the container runs yet, so no symlink or ".." can be in the way.
 *
 * A mount made anywhere else may cover such a tmpfs (through a symlink of the image, too),
 * so after one the tmpfs is used again only once its destination is seen to lead to it. */
#ifndef CT_MOUNTPOINT_H
#define CT_MOUNTPOINT_H

#include <stdbool.h>
#include <stddef.h>

#include "libct/fs/mountfd.h"
#include "libct/fs/safefs.h"

#define CT_MOUNTPOINT_FRESH_MAX 8

struct ct_mountpoints {
	int rootfd;
	size_t n;
	struct ct_fresh_dir {
		char *path;   /* its destination, plain (ct_mountpoint_plain) */
		int fd;	      /* the root of the tmpfs */
		bool checked; /* no mount elsewhere since path was last seen leading to fd */
	} fresh[CT_MOUNTPOINT_FRESH_MAX];
};

void ct_mountpoints_init(struct ct_mountpoints *mp, int rootfd);
/* Closes the fds of the fresh directories. */
void ct_mountpoints_release(struct ct_mountpoints *mp);

/* A tmpfs just mounted at path (its content: only what ctrun makes there), *fd its root:
 * taken over (*fd = -1) unless path is not plain or there is no room, when it stays the
 * caller's. Returns the fd either way; fresh directories at or below path are dropped. */
int ct_mountpoint_add_fresh(struct ct_mountpoints *mp, const char *path, int *fd);

/* O_PATH fd of path, made when missing (a directory, or an empty file for what), as
 * ct_root_mkpath(); -1 with errno. Every call that does not go through a fresh tmpfs counts
 * as a mount made elsewhere (the caller mounts on what it gets). */
int ct_mountpoint_open(struct ct_mountpoints *mp, const char *path, enum ct_make what);

/* O_PATH fd of what is at path itself, reached through no symlink (ct_root_open_exact), made
 * when missing as what: a directory, or an empty file, where a file or a character device
 * already there is taken too (a bind of one). -1 with ELOOP when a symlink is on the way (the
 * last component included); when something else is there, ENOTDIR for a directory, EISDIR
 * or EINVAL (neither a file nor a device) for a file; or another errno. Counts as a mount
 * made elsewhere, as ct_mountpoint_open(). */
int ct_mountpoint_open_exact(struct ct_mountpoints *mp, const char *path, enum ct_make what);

/* ct_mount_at() of rq onto path, its mount point made by ct_mountpoint_open() (a file for
 * rq->file), or by ct_mountpoint_open_exact() of a directory for rq->exact_dir; "create
 * mount point" in err when that fails. */
int ct_mountpoint_mount(struct ct_mountpoints *mp, const char *path,
			const struct ct_mount_request *rq, uint64_t *mounted_id, int *mounted_fd,
			struct ct_error *err);

/* The directory holding path's last component (name, as ct_root_mkparent()): a fresh
 * tmpfs's fd, borrowed (*owned = -1), or one resolved in the root that the caller closes
 * (*owned = the fd). fresh, when not NULL, tells which. -1 with errno. */
int ct_mountpoint_parent(struct ct_mountpoints *mp, const char *path, char *name, size_t size,
			 int *owned, bool *fresh);

/* The fd of the fresh tmpfs at path (borrowed), or -1 when path is none (any more). */
int ct_mountpoint_fresh_dir(struct ct_mountpoints *mp, const char *path);

/* Whether path is absolute and plain: no empty, "." or ".." component, no trailing '/'
 * ("/" itself is not). Pure. */
bool ct_mountpoint_plain(const char *path);

#endif
