/* The container init: the child of the clone, which sets itself up from the plan
 * (libct/plan/plan.h), reports READY, waits for start and execs the user process. */
#ifndef CT_INIT_H
#define CT_INIT_H

#include "libct/plan/plan.h"

/* Runs the child's whole sequence; never returns. */
__attribute__((noreturn)) void ct_init_run(struct ct_init_plan *plan);

#endif
