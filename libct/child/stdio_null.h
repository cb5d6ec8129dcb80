/* A container process's stdio that is the host's null device (conmon gives a detached
 * container's stdin so, and a detached exec'd process's) becomes the container's own
 * /dev/null: CRIU dumps an fd by the mount it is on, and the host's /dev is no mount of the
 * container's. A row of the init's table and of exec's. */
#ifndef CT_STDIO_NULL_H
#define CT_STDIO_NULL_H

#include "libct/child/steps.h"

/* In the final root (the init's after pivot_root, exec's after its chroot), with its fd in
 * ctx->rootfd: fds 0-2 that are the null device (char 1:3), opened again with their
 * status flags from the root's /dev/null. A root whose /dev/null is missing or no null device
 * (or no procfs at /proc to open it through) keeps the fds as they are. */
extern const struct ct_step ct_stdio_null;

#endif
