/* The container lifecycle as a library: create (for create and run), open with the live
 * status (start, state, kill, delete, ...), attach, signal, wait, start and destroy. It logs
 * through libct/lifecycle/log.h; the CLI (runtime/) parses the flags and prints. */
#ifndef CT_CONTAINER_H
#define CT_CONTAINER_H

#include <signal.h>
#include <stdbool.h>

#include "libct/lifecycle/opts.h"
#include "libct/plan/plan.h"
#include "libct/state/procstat.h"
#include "libct/state/state.h"

struct ct_spawn_opts;
struct ct_spawned;

/* Who makes the init instead of ct_spawn (restore: CRIU brings it back). It gets the spawn's
 * options with the cgroup made and must fill *out (pid, pidfd, pty_master when it has a
 * terminal's master) and call opts->while_setting_up once the pid is known. */
struct ct_init_maker {
	int (*make)(void *arg, const struct ct_spawn_opts *opts, struct ct_spawned *out,
		    struct ct_error *err);
	void *arg;
};

struct ct_create_args {
	const char *id;
	const char *bundle;
	const char *pid_file;
	const char *console_socket;
	/* run in the foreground: with process.terminal and no console_socket, the caller keeps
	 * the master and relays it (ct_container_foreground), as runc and crun do */
	bool relay_terminal;
	bool no_pivot, no_new_keyring;
	int preserve_fds;
	enum ct_start_mode start;
	sigset_t child_sigmask;
	const struct ct_init_maker *maker; /* NULL: ct_spawn */
};

/* A container that exists: its locked directory, state, and live status. */
struct ct_container {
	int rootfd;
	struct ct_container_dir dir;
	struct ct_state state;
	enum ct_status status;
	struct ct_spawned proc;	  /* pidfd of the init when it lives (and we made or opened it) */
	struct ct_cgroup *cgroup; /* create: the cgroup it made (freed by ct_container_close) */
	bool start_refused;	  /* a startContainer hook failed: the init is on its way out */
};

/* create: reserves the id, spawns the init, writes state.json and the pid file. On error
 * nothing is left: no state directory, no process. */
int ct_container_create(const struct ct_lifecycle_opts *lc, const struct ct_create_args *args,
			struct ct_container *out, struct ct_error *err);

/* Opens an existing container (id checked), reads its state, derives its status. A
 * directory without state.json, found under its lock, is a create killed before it recorded
 * the container: errnum ENOENT, and an exclusive opener removes the directory. */
int ct_container_open(const struct ct_lifecycle_opts *lc, const char *id, bool exclusive,
		      struct ct_container *out, struct ct_error *err);

/* What `list` shows of one container in a state root the caller holds open (rootfd is
 * borrowed): its state and live status, derived by the same rule as ct_container_open's,
 * without opening or locking its directory (ct_state_read_unlocked). A container removed
 * or still being created meanwhile fails with errnum ENOENT. `st` is the caller's to free
 * (ct_state_free) on success and holds nothing on failure. */
int ct_container_peek(int rootfd, const char *id, struct ct_state *st, enum ct_status *status,
		      struct ct_error *err);

/* Takes hold of a live init: c->proc.pid, and c->proc.pidfd opened and verified against
 * the recorded start time (race-free signalling), or -1 where pidfd_open is missing. Fails
 * (errnum ESRCH) when the init is gone. A container just created is held already. */
int ct_container_attach(struct ct_container *c, struct ct_error *err);

/* Signals the attached init through its pidfd; where pidfd_open or pidfd_send_signal is
 * missing (ENOSYS, EPERM from seccomp), by kill() once the start time proved the pid is
 * still the init's (docs/design.md: a recycled pid never gets the signal). */
int ct_container_signal(struct ct_container *c, int sig, struct ct_error *err);

/* Waits until the attached init has exited, whoever its parent is. */
int ct_container_wait_exit(struct ct_container *c, struct ct_error *err);

/* Opens the exec fifo, lets the init run its startContainer hooks and exec, and returns with
 * `started` recorded (once the execve happened, when poststart hooks are to run). A refusal by a
 * startContainer hook is returned as the error with c->start_refused set. */
int ct_container_start_fifo(struct ct_container *c, struct ct_error *err);

/* ---- the hooks the runtime runs after create (libct/lifecycle/container_hooks.c) ---- */

/* poststart, in order, the first failure returned. */
int ct_container_poststart(struct ct_container *c, struct ct_error *err);
/* poststop, every one; failures are logged as warnings. The state directory may be gone. */
void ct_container_poststop(const struct ct_container *c);
/* Removes the cgroup (killing what is left in it) and the state directory; the container
 * must be stopped. */
int ct_container_destroy(struct ct_container *c, struct ct_error *err);

void ct_container_close(struct ct_container *c);

/* The foreground of run (and restore) once the init runs: signals of `signals` (blocked)
 * passed on until it exits (the terminal relayed when ctrun holds its master), then the container
 * deleted unless keep, and closed. Returns the init's exit status as a shell gives it, 1 after an
 * error (logged with verb). */
int ct_container_foreground(struct ct_container *c, const sigset_t *signals, const char *verb,
			    bool keep);

/* Writes the pid to `path` atomically (temp file in the same directory, rename). */
int ct_write_pid_file(const char *path, pid_t pid, struct ct_error *err);

#endif
