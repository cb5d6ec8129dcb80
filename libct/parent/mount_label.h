/* linux.mountLabel: the SELinux context of the container's filesystems, given to each new
 * filesystem as its context= mount option. Where SELinux is not enabled the label means
 * nothing and is ignored (the runtime says so at debug level), as runc and crun do. */
#ifndef CT_MOUNT_LABEL_H
#define CT_MOUNT_LABEL_H

#include <stdbool.h>

#include "libct/plan/plan.h"

/* Whether a mount of this type takes a context= option: new filesystems do, binds keep
 * their source's labels, and proc, sysfs, cgroup and mqueue refuse it. Pure. */
bool ct_mount_takes_label(const struct ct_planned_mount *m);

/* Adds context="label" to the data of every planned mount that takes one. -1 on ENOMEM. */
int ct_mount_label_apply(struct ct_init_plan *plan, const char *label);

#endif
