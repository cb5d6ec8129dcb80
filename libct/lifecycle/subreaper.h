/* `run` in the foreground as runc and crun run: a child subreaper, so that what the container
 * orphans outside a pid namespace of its own is reparented to it and reaped (not to the
 * caller's subreaper or the host's init). */
#ifndef CT_SUBREAPER_H
#define CT_SUBREAPER_H

#include "libct/base/error.h"

/* Makes the calling process a child subreaper (PR_SET_CHILD_SUBREAPER). */
int ct_subreaper_become(struct ct_error *err);

/* Reaps every exited child but the process of pidfd, whose status is left to be waited for;
 * nothing without a pidfd (pidfd < 0), where the two cannot be told apart. */
void ct_reap_orphans(int pidfd);

#endif
