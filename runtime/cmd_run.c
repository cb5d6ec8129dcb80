/* `ctrun run`: create + start in one process; in the foreground it forwards signals to the
 * container, reaps it, deletes it (unless --keep) and exits with its status. */
#include <errno.h>
#include <signal.h>

#include "libct/lifecycle/container.h"
#include "libct/lifecycle/container_abort.h"
#include "libct/parent/spawn.h"
#include "libct/parent/spawned.h"
#include "runtime/create_flags.h"
#include "runtime/forward.h"
#include "runtime/log.h"

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
			ct_log(CT_LOG_ERROR, "delete container \"%s\": %s",
			       ct_shown_id(c->state.id).s, err.msg);
	} else if (ct_container_destroy(c, &err) < 0) {
		ct_log(CT_LOG_ERROR, "delete container \"%s\": %s", ct_shown_id(c->state.id).s,
		       err.msg);
	} else {
		ct_container_poststop(c);
	}
}

int cmd_run(const struct ct_globals *g, int argc, char **argv)
{
	struct ct_run_flags f = {.create = {.start = CT_START_SYNC}};
	int rc = ct_parse_create_flags(argc, argv, true, &f);
	if (rc)
		return rc < 0 ? 1 : 0;
	sigset_t signals;
	ct_forwarded_signals(&signals);
	sigprocmask(SIG_BLOCK, &signals, &f.create.child_sigmask);
	struct ct_container c;
	struct ct_error err = {0};
	const char *id = f.create.id;
	if (ct_container_create(&g->lc, &f.create, &c, &err) < 0) {
		ct_log(CT_LOG_ERROR, "create container \"%s\": %s", ct_shown_id(id).s, err.msg);
		return 1;
	}
	if (start_now(&c, &err) < 0 || ct_container_poststart(&c, &err) < 0) {
		/* runtime.md#lifecycle steps 7-9: the error, then the container goes */
		ct_log(CT_LOG_ERROR, "start container \"%s\": %s", ct_shown_id(id).s, err.msg);
		ct_container_abort_start(&c);
		ct_container_close(&c);
		return 1;
	}
	if (f.detach) {
		ct_container_close(&c);
		return 0;
	}
	ct_state_unlock(&c.dir); /* others may look at it while it runs */
	/* a signal is forwarded as kill sends one (the checked kill() without pidfd_send_signal) */
	int status = ct_forward_and_wait(c.proc.pidfd, &signals, signal_container, &c, &err);
	if (status < 0)
		ct_log(CT_LOG_ERROR, "run container \"%s\": %s", ct_shown_id(id).s, err.msg);
	ct_spawned_close(&c.proc);
	if (!f.keep)
		delete_after_run(&c);
	ct_container_close(&c);
	return status < 0 ? 1 : status;
}
