/* Device nodes in the container's /dev (config-linux.md#default-devices and linux.devices),
 * made inside the rootfs through libct/safefs.h: mknodat in the directory fd the resolution
 * gave, mode and owner set through the node's own O_PATH fd. Where mknod is refused (EPERM,
 * as in a user namespace) the host's node of the same path is bind-mounted instead. */
#ifndef CT_DEVICES_H
#define CT_DEVICES_H

#include "libct/error.h"
#include "libct/spawn.h"

/* The default nodes and /dev symlinks (plan->dev_is_tmpfs), then linux.devices. */
int ct_devices_create(const struct ct_init_plan *plan, int rootfd, struct ct_error *err);

#endif
