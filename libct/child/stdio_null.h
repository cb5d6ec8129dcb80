/* The init's stdio that is the host's null device (conmon gives a detached container's stdin
 * so) becomes the container's own /dev/null, as runc leaves it: CRIU dumps an fd by the
 * mount it is on, and the host's /dev is no mount of the container's. */
#ifndef CT_STDIO_NULL_H
#define CT_STDIO_NULL_H

#include "libct/child/steps.h"

/* After pivot_root: fds 0-2 that are the null device (char 1:3), opened again with their
 * access mode from the root's /dev/null. A root whose /dev/null is missing or no null device
 * (or no procfs at /proc to open it through) keeps the fds as they are. */
extern const struct ct_step ct_stdio_null;

#endif
