#ifndef CT_CONTAINER_ABORT_H
#define CT_CONTAINER_ABORT_H

#include "libct/lifecycle/container.h"

/* A failing startContainer or poststart hook stops the container and goes on with its
 * deletion (runtime.md#lifecycle): kill every process, wait for the init, remove the
 * state directory, run poststop. */
void ct_container_abort_start(struct ct_container *c);

#endif
