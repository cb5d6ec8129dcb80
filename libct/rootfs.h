/* The container's root filesystem, set up in the child's new mount namespace: mounts in the
 * config's order, /dev nodes, pivot_root, masked and read-only paths, sysctls. Every path
 * in the rootfs is resolved inside it (libct/safefs.h) and mounted on by fd
 * (libct/mountfd.h). */
#ifndef CT_ROOTFS_H
#define CT_ROOTFS_H

#include "libct/error.h"
#include "libct/spawn.h"

int ct_rootfs_setup(struct ct_init_plan *plan, struct ct_error *err);

#endif
