/* Device nodes in the container's /dev (config-linux.md#default-devices and linux.devices),
 * made inside the rootfs through libct/fs/mountpoint.h: mknodat in the directory fd the
 * resolution gave (or in the fresh /dev tmpfs ctrun mounted), mode and owner set through
 * the node's own O_PATH fd (by name in that fresh tmpfs). In a user namespace
 * (fs->bind_nodes), or once mknod is refused outside one (EPERM), the host's node of the same
 * path is bind-mounted instead. */
#ifndef CT_DEVICES_H
#define CT_DEVICES_H

#include "libct/base/error.h"
#include "libct/fs/mountpoint.h"
#include "libct/plan/plan.h"

/* The default nodes and /dev symlinks (fs->default_devices), then linux.devices. A node bound
 * from the host records its mount for the check (v->expect_devices + its index). */
int ct_devices_create(const struct ct_plan_rootfs *fs, struct ct_plan_verify *v,
		      struct ct_mountpoints *mp, struct ct_error *err);

/* The nodes ct_devices_create makes, in its order: how many, and node i's path. */
size_t ct_devices_count(const struct ct_plan_rootfs *fs);
const char *ct_devices_path(const struct ct_plan_rootfs *fs, size_t i);

#endif
