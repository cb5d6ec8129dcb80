/* `create` and `run` (libct/lifecycle/ops.h): a new container from a bundle; run starts it
 * at once and, in the foreground, passes signals on to it, waits for it and deletes it. */
#include <errno.h>
#include <signal.h>

#include "libct/lifecycle/container.h"
#include "libct/lifecycle/container_abort.h"
#include "libct/lifecycle/forward.h"
#include "libct/lifecycle/log.h"
#include "libct/lifecycle/ops.h"
#include "libct/lifecycle/tty_relay.h"
#include "libct/parent/spawn.h"
#include "libct/parent/spawned.h"

int ct_lifecycle_create(const struct ct_lifecycle_opts *lc, const struct ct_create_args *args)
{
	struct ct_create_args a = *args;
	sigprocmask(SIG_SETMASK, NULL, &a.child_sigmask);
	struct ct_container c;
	struct ct_error err = {0};
	if (ct_container_create(lc, &a, &c, &err) < 0)
		return ct_lifecycle_fail("create", a.id, &err);
	ct_container_close(&c);
	return 0;
}

static int signal_container(void *data, int sig)
{
	return ct_container_signal(data, sig, NULL);
}

/* state.json says started already (libct/lifecycle/container.c, record_state) */
static int start_now(struct ct_container *c, struct ct_error *err)
{
	if (ct_spawn_start(&c->proc, c->state.hooks.poststart.len > 0, err) < 0)
		return -1;
	c->status = CT_STATUS_RUNNING;
	return 0;
}

/* The state in memory is the one on disk (run wrote it, nobody rewrites it): only the
 * lock is taken again. A container deleted meanwhile (delete --force) is left alone. */
static void delete_after_run(struct ct_container *c)
{
	struct ct_error err = {0};
	if (ct_state_relock(&c->dir, &err) < 0) {
		if (err.errnum != ENOENT)
			ct_lifecycle_fail("delete", c->state.id, &err);
	} else if (ct_container_destroy(c, &err) < 0) {
		ct_lifecycle_fail("delete", c->state.id, &err);
	} else {
		ct_container_poststop(c);
	}
}

/* Created and started, its poststart hooks run; -1 logged, nothing left. */
static int create_and_start(const struct ct_lifecycle_opts *lc, const struct ct_create_args *a,
			    struct ct_container *c)
{
	struct ct_error err = {0};
	if (ct_container_create(lc, a, c, &err) < 0)
		return ct_lifecycle_fail("create", a->id, &err);
	if (start_now(c, &err) < 0 || ct_container_poststart(c, &err) < 0) {
		/* runtime.md#lifecycle steps 7-9: the error, then the container goes */
		ct_lifecycle_fail("start", a->id, &err);
		ct_container_abort_start(c);
		ct_container_close(c);
		return -1;
	}
	return 0;
}

int ct_lifecycle_run(const struct ct_lifecycle_opts *lc, const struct ct_create_args *args,
		     bool detach, bool keep)
{
	struct ct_create_args a = *args;
	a.relay_terminal = !detach;
	sigset_t signals;
	ct_forwarded_signals(&signals);
	struct ct_error err = {0};
	if (sigprocmask(SIG_BLOCK, &signals, &a.child_sigmask) < 0) { /* none would be forwarded */
		ct_error_sys(&err, errno, "block the signals to forward");
		ct_lifecycle_fail("run", a.id, &err);
		return 1;
	}
	struct ct_container c;
	if (create_and_start(lc, &a, &c) < 0)
		return 1;
	if (detach) {
		ct_container_close(&c);
		return 0;
	}
	return ct_container_foreground(&c, &signals, "run", keep);
}

int ct_container_foreground(struct ct_container *c, const sigset_t *signals, const char *verb,
			    bool keep)
{
	ct_state_unlock(&c->dir); /* others may look at it while it runs */
	/* a signal is forwarded as kill sends one (the checked kill() without pidfd_send_signal) */
	struct ct_error err = {0};
	int status =
		c->proc.pty_master >= 0
			? ct_tty_relay_and_wait(c->proc.pidfd, c->proc.pty_master, signals,
						signal_container, c, &err)
			: ct_forward_and_wait(c->proc.pidfd, signals, signal_container, c, &err);
	if (status < 0)
		ct_lifecycle_fail(verb, c->state.id, &err);
	ct_spawned_close(&c->proc);
	if (!keep)
		delete_after_run(c);
	ct_container_close(c);
	return status < 0 ? 1 : status;
}
