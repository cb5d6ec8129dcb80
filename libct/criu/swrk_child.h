/* The child ct_criu_swrk_start forks, which becomes criu: it waits for the parent's go,
 * makes what a restore needs in a mount namespace of criu's own (the root bound, the kept
 * directories reopened there, a socket criu is the client of), then execs criu with its fds.
 * What it fails at before the exec comes back on its report pipe, which the exec closes
 * unwritten. */
#ifndef CT_CRIU_SWRK_CHILD_H
#define CT_CRIU_SWRK_CHILD_H

#include "libct/base/error.h"
#include "libct/criu/swrk.h"

/* In the forked child: waits until the parent closes its end of `go` (a byte or an error
 * instead: the parent gave up, criu never runs), then becomes criu swrk with sock and
 * o->keep_fds inherited. Never returns: a failure is written to report, then _exit. */
__attribute__((noreturn)) void ct_criu_child_exec(const char *criu, int sock, int go, int report,
						  const struct ct_criu_swrk_opts *o);

/* In the parent: 0 once criu runs (report closed by its exec, unwritten), -1 with what the
 * child failed at ("criu: bind the restored root: ...", "criu: exec ..."). */
int ct_criu_child_wait_exec(int report, const char *criu, struct ct_error *err);

#endif
