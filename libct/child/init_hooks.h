/* The container init's side of the hooks (hooks/hooks.h, libct/plan/sync.h): asking the parent
 * for prestart/createRuntime, running createContainer and startContainer itself, and
 * telling `start` (or run) how the start went. */
#ifndef CT_INIT_HOOKS_H
#define CT_INIT_HOOKS_H

#include "libct/base/error.h"
#include "libct/child/steps.h"
#include "libct/plan/plan.h"

/* After the mounts, before pivot_root (config.md#createcontainer-hooks): the parent runs
 * prestart and createRuntime, then the init runs createContainer. Nothing to do, no
 * message: a config without these hooks pays nothing. */
extern const struct ct_step ct_init_create_hooks;

/* After `start`, in the container's root: startContainer. */
int ct_init_start_hooks(const struct ct_plan_hooks *hooks, struct ct_error *err);

/* Reports the start on `channel` (the exec fifo or the sync socket): STARTED when cause is
 * NULL, else the cause as an ERROR. */
int ct_init_report_start(const struct ct_plan_sync *sync, int channel, const struct ct_error *cause,
			 struct ct_error *err);

#endif
