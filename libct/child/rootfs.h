/* The container's root filesystem, set up in the child's new mount namespace (or, in a
 * shared one, in a private bind of the rootfs there): mounts in the config's order, /dev
 * nodes, pivot_root (chroot in a shared namespace), masked and read-only paths, sysctls. Every path
 * in the rootfs is resolved inside it (libct/fs/safefs.h) and mounted on by fd
 * (libct/fs/mountfd.h). */
#ifndef CT_ROOTFS_H
#define CT_ROOTFS_H

#include "libct/base/error.h"
#include "libct/plan/plan.h"

/* The rootfs bound onto itself (private in a shared namespace) and the config's mounts and
 * /dev nodes made in it, paths resolved in it: an O_PATH fd of it, or -1. */
int ct_rootfs_mount(struct ct_init_plan *plan, struct ct_error *err);
/* Into the rootfs (pivot_root, or chroot in a shared namespace), then, inside it, sysctls,
 * the cwd, masked and read-only paths, the root's propagation and read-only flag. */
int ct_rootfs_enter(struct ct_init_plan *plan, int rootfd, struct ct_error *err);
/* After a failed set-up (or a failure after it, before READY) in a shared mount namespace:
 * the rootfs's bind, with every mount made in it, detached from the namespace. */
void ct_rootfs_undo_shared(struct ct_init_plan *plan);
/* READY: the bind is the container's now, detached by delete (libct/state/shared_root.h). */
void ct_rootfs_set_up(struct ct_init_plan *plan);

#endif
