/* The container's root filesystem, set up in the child's new mount namespace: mounts in the
 * config's order, /dev nodes, pivot_root, masked and read-only paths, sysctls. */
#ifndef CT_ROOTFS_H
#define CT_ROOTFS_H

#include "libct/error.h"
#include "libct/spawn.h"

int ct_rootfs_setup(struct ct_init_plan *plan, struct ct_error *err);

/* True when `path` (resolved) is `root` or below it. Pure string check, unit-tested. */
bool ct_path_is_below(const char *root, const char *path);

#endif
