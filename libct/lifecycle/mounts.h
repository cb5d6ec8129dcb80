#ifndef CT_MOUNTS_H
#define CT_MOUNTS_H

#include "libct/base/error.h"
#include "libct/fs/fsinfo.h"
#include "libct/lifecycle/container.h"

/* The table as the init sees it: statmount inside its mount namespace, or its mountinfo
 * (read from outside first, as the container's /proc has no entry for us). */
int ct_container_mounts(struct ct_container *c, struct ct_mount_table *t, struct ct_error *err);

#endif
