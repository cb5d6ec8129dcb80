/* The container's root filesystem, set up in the child's new mount namespace (or, in a
 * shared one, in a private bind of the rootfs there): mounts in the config's order, /dev
 * nodes, pivot_root (chroot in a shared namespace), masked and read-only paths, sysctls. Every path
 * in the rootfs is resolved inside it (libct/fs/safefs.h) and mounted on by fd
 * (libct/fs/mountfd.h). */
#ifndef CT_ROOTFS_H
#define CT_ROOTFS_H

#include "libct/base/error.h"
#include "libct/child/steps.h"
#include "libct/plan/plan.h"

/* The rows of the init's table (libct/child/steps.h), in their order there; the
 * createContainer hooks go between the mounts and pivot_root (libct/child/init_hooks.h).
 * The bind of the rootfs onto itself (private in a shared namespace), into ctx->rootfd: */
extern const struct ct_step ct_rootfs_bind;
/* the config's mounts in order, then the /dev nodes, paths resolved in the rootfs: */
extern const struct ct_step ct_rootfs_mounts;
/* into the rootfs: pivot_root, or chroot in a shared namespace: */
extern const struct ct_step ct_rootfs_pivot_root;
/* then, inside it, the sysctls, the check that masked and read-only paths under /proc and
 * /sys are the kernel's, the cwd, masked paths, read-only paths, and last the root's
 * propagation and read-only flag (which closes ctx->rootfd): */
extern const struct ct_step ct_rootfs_sysctls, ct_rootfs_check_paths, ct_rootfs_cwd,
	ct_rootfs_masks, ct_rootfs_readonly_paths, ct_rootfs_finish;
/* After a failed set-up (or a failure after it, before READY) in a shared mount namespace:
 * the rootfs's bind, with every mount made in it, detached from the namespace. */
void ct_rootfs_undo_shared(struct ct_plan_rootfs *fs, bool new_mount_ns);
/* READY: the bind is the container's now, detached by delete (libct/state/shared_root.h). */
void ct_rootfs_set_up(struct ct_plan_rootfs *fs);

#endif
