/* Watching a running container (`events`): statistics records, every interval or once, and
 * a record each time the kernel's OOM killer acts in it, until it stops. The container's lock
 * is let go once its cgroup and init are in hand: the watch runs for as long as the container
 * does, and must not hold up kill, pause or delete meanwhile. */
#ifndef CT_EVENTS_H
#define CT_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "libct/cgroup/cgroup.h"
#include "libct/lifecycle/opts.h"

/* What the loop needs once the container directory is closed. */
struct ct_watch {
	char *id;
	struct ct_cgroup *cg;
	int pidfd; /* readable when the init exits; -1 without pidfd_open */
	pid_t pid;
	uint64_t start_time;
	uint64_t oom_kills; /* the count last seen (v2 memory.events) */
};

/* Where the records go; a failing call ends the watch with its error. */
struct ct_events_sink {
	int (*stats)(void *arg, const char *id, const struct ct_cgroup_stats *st,
		     struct ct_error *err);
	int (*oom)(void *arg, const char *id, struct ct_error *err);
	void *arg;
};

/* Opens container id, takes its cgroup and init, lets its directory go. w starts as
 * {.pidfd = -1}; ct_watch_close() either way. */
int ct_watch_open(const struct ct_lifecycle_opts *lc, const char *id, struct ct_watch *w,
		  struct ct_error *err);
/* One statistics record. */
int ct_watch_stats(struct ct_watch *w, const struct ct_events_sink *s, struct ct_error *err);
/* A statistics record every interval_ns and the OOM kills, until the container stops. */
int ct_watch_loop(struct ct_watch *w, uint64_t interval_ns, const struct ct_events_sink *s,
		  struct ct_error *err);
void ct_watch_close(struct ct_watch *w);

#endif
