/* Spawning the container init from its plan (libct/plan/plan.h): one clone3(CLONE_PIDFD |
 * namespaces), or clone(CLONE_PIDFD) where clone3 is refused, then the parent's side of the
 * set-up conversation (libct/plan/sync.h) until the init is READY.
 *
 * A joined user namespace, or a new one with other namespaces joined: the init's new
 * namespaces must belong to that user namespace, so a joiner (a fork) joins them, the user
 * namespace first, and clones the init as ctrun's own child (CLONE_PARENT):
 *
 *   fork -------------> joiner: setns, clone ----> init: waits
 *        <------------- INIT_PIDFD (+pidfd) {pid, clone call}; the joiner exits
 *   reap the joiner, write the maps
 *   USERNS_READY -------------------------------> the rest of the exchange */
#ifndef CT_SPAWN_H
#define CT_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "libct/plan/plan.h"

/* Spawns the init and waits until it is READY (set up, waiting to start). On failure the
 * child is killed and reaped and the exec fifo removed: nothing is left. */
int ct_spawn(const struct ct_spawn_opts *opts, struct ct_spawned *out, struct ct_error *err);
/* CT_START_SYNC: let the user process run, once its startContainer hooks passed; with
 * wait_exec (poststart hooks to run), return only after its execve. */
int ct_spawn_start(struct ct_spawned *s, bool wait_exec, struct ct_error *err);

/* The end of a namespace joiner, spawn's and exec's (above): clones the real child
 * as the runtime's own (CLONE_PARENT, into cgroup_fd when >= 0), which runs child(arg)
 * (never to return), hands its pidfd over on sync_fd and exits; when that fails, or the
 * joiner's own work did (joined false, err set), the error goes to the parent. The child
 * is born not dumpable unless dumpable (an init whose maps are written without privilege). */
__attribute__((noreturn)) void ct_joiner_finish(int sync_fd, bool joined, unsigned long flags,
						int cgroup_fd, bool dumpable,
						void (*child)(void *arg), void *arg,
						const char *what, struct ct_error *err);

/* Reaps a namespace joiner (a fork that joined namespaces and cloned the real child as our
 * own, CLONE_PARENT) and takes that child from its INIT_PIDFD message (above). */
int ct_spawn_receive_from_joiner(int sock, pid_t joiner, pid_t *pid, int *pidfd,
				 const char **method, struct ct_error *err);

/* The next set-up message from the child that carries no fd, the same for the init and
 * exec: on the way, the terminal's master is kept in *pty_master and a seccomp notify fd
 * passed on to listenerPath, after each message is checked against *phase
 * (libct/plan/sync_phase.h). *fd: a descriptor that came with msg (the caller's to close),
 * or -1, as it is on an error. */
struct ct_sync_msg;
struct ct_sync_phase_state;
int ct_spawn_next_msg(const struct ct_spawn_opts *opts, int sock, pid_t pid, int *pty_master,
		      struct ct_sync_phase_state *phase, struct ct_sync_msg *msg, int *fd,
		      struct ct_error *err);

/* prestart then createRuntime (runtime.md#lifecycle steps 3-4), in the runtime's
 * namespaces, with the state as the runtime sees it ("creating", the init's pid): once the
 * init's namespaces exist, before it runs anything of the container's (spawned, or restored
 * by criu). */
int ct_spawn_run_create_hooks(const struct ct_spawn_opts *opts, pid_t pid, struct ct_error *err);

/* config-linux.md#seccomp: sends a notify fd (closed here) to listenerPath with the state
 * of the container and the process pid. */
int ct_spawn_forward_seccomp_fd(const struct ct_spawn_opts *opts, pid_t pid, int fd,
				struct ct_error *err);

#endif
