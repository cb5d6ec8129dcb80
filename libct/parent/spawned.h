/* The handle of a spawned init (struct ct_spawned, libct/plan/plan.h): killing it and closing
 * what the parent holds of it. */
#ifndef CT_SPAWNED_H
#define CT_SPAWNED_H

#include "libct/plan/plan.h"

/* SIGKILL through the pidfd (by pid when there is none), reap, close everything. */
void ct_spawned_kill(struct ct_spawned *s);
void ct_spawned_close(struct ct_spawned *s);
void ct_spawned_close_sync(struct ct_spawned *s);

#endif
