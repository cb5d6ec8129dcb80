/* Mounting onto paths resolved inside a root (libct/fs/safefs.h): the destination is opened
 * (and created when missing) under the root fd, and the mount lands on that fd, never on a
 * path looked up again.
 *
 * The new mount API does it where the kernel has it: fsopen/fsconfig/fsmount for a new
 * filesystem, open_tree(OPEN_TREE_CLONE) for a bind, mount_setattr for the flags (the
 * recursive ones with AT_RECURSIVE), move_mount onto the destination fd. Elsewhere (Linux <
 * 5.12, or a seccomp profile refusing those calls) mount(2) on /proc/self/fd/N of that fd,
 * and a remount for the flags of a bind; the recursive options then need mount_setattr and
 * fail clearly without it. */
#ifndef CT_MOUNTFD_H
#define CT_MOUNTFD_H

#include <stdbool.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "libct/fs/mount_options.h"

struct ct_mount_request {
	const char *type;   /* filesystem type; ignored for a bind */
	const char *source; /* filesystem source, or the host path of a bind source (with a
			     * source_fd: what it is, for messages) */
	int source_fd;	    /* a bind of this O_PATH fd instead of source; -1 when unused */
	const struct ct_mount_flags *flags;
	bool file; /* the destination is a file (a bind of a file): create it as one */
	/* The destination must be a directory at that very path, no symlink of the image on
	 * the way (procfs, sysfs: CVE-2019-19921); honoured by ct_mountpoint_mount(). */
	bool exact_dir;
};

enum ct_mount_api { CT_MOUNT_API_AUTO, CT_MOUNT_API_NEW, CT_MOUNT_API_LEGACY };

/* Mounts rq on dest (inside rootfd; created when missing) and, when mounted_id is not NULL,
 * stores the id of the new mount there (the mnt_id of libct/fs/fsinfo.h), for the check that
 * it is still what sits at dest later. On failure err says which step failed ("create
 * mount point", "mount tmpfs", "remount read-only", ...), with the kernel's own message for
 * a refused filesystem option where it gives one; callers prefix the mount's index and
 * destination. */
int ct_mount_in_root(int rootfd, const char *dest, const struct ct_mount_request *rq,
		     uint64_t *mounted_id, struct ct_error *err);

/* ct_mount_in_root() onto target, an fd of dest already resolved in rootfd (made by the
 * caller: ct_root_mkpath, or libct/fs/mountpoint.h). mounted_fd, when not NULL, receives an fd
 * of the new mount's root (the caller closes it): where mounts inside it are made from, or
 * what a later ct_mount_fd_set_readonly() changes, with no look-up of dest again. */
int ct_mount_at(int rootfd, const char *dest, int target, const struct ct_mount_request *rq,
		uint64_t *mounted_id, int *mounted_fd, struct ct_error *err);

/* Makes the mount at dest (inside rootfd) read-only, with every mount below it when
 * recursive (mount_setattr; a remount of the top one where that call is missing). */
int ct_mount_set_readonly(int rootfd, const char *dest, bool recursive, struct ct_error *err);
/* The same for the mount whose root fd is. */
int ct_mount_fd_set_readonly(int fd, bool recursive, struct ct_error *err);

/* In a user namespace the kernel locks the flags of the mounts it copied from the host:
 * a bind remount must keep the source's ro/nosuid/nodev/noexec or it is refused. On: every
 * bind made from now on keeps those of its source (as runc does). */
void ct_mount_keep_source_flags(bool on);
/* The ro/nosuid/nodev/noexec of the mount under fd, as MS_* flags (statvfs's ST_* values
 * are the same bits); 0 when it cannot be read. */
unsigned long ct_mount_lockable_flags(int fd);

/* A detached, id-mapped mount with rq's flags (config.md "idmap"): a copy of rq's bind
 * source, or a new filesystem of rq's type (the kernel takes it for those with
 * FS_ALLOW_IDMAP: tmpfs since 6.3, ext4, btrfs, xfs, ...; EINVAL names the type
 * otherwise). Made where the filesystem's owner may id-map it (the parent, before the
 * clone: the kernel id-maps only filesystems of the initial user namespace).
 * ct_mount_in_root() in the child then attaches that mount (rq->flags->idmap_tree).
 * userns_fd: the user namespace of the mapping. Returns the fd, or -1. */
int ct_mount_idmapped_tree(const struct ct_mount_request *rq, int userns_fd, struct ct_error *err);

/* The API ct_mount_in_root() has used so far (AUTO before the first mount). */
enum ct_mount_api ct_mount_api_used(void);

#endif
