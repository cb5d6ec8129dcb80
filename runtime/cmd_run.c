/* `ctrun run`: create + start in one process; in the foreground it forwards signals to the
 * container, reaps it, deletes it (unless --keep) and exits with its status. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/container.h"
#include "runtime/create_flags.h"
#include "runtime/log.h"

/* Signals a shell may send us; all are passed on to the container. Faults stay ours. */
static void forwarded_signals(sigset_t *set)
{
	sigfillset(set);
	static const int own[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		sigdelset(set, own[i]);
}

static int exit_status_of(const siginfo_t *info)
{
	if (info->si_code == CLD_EXITED)
		return info->si_status;
	return 128 + info->si_status; /* killed or dumped: as shells report it */
}

/* Returns the container's exit status, or -1 with err set. A signal is forwarded as kill
 * sends one (ct_container_signal: the checked kill() where pidfd_send_signal is missing). */
static int forward_and_wait(struct ct_container *c, const sigset_t *signals, struct ct_error *err)
{
	int pidfd = c->proc.pidfd;
	int sfd = signalfd(-1, signals, SFD_CLOEXEC);
	if (sfd < 0)
		return ct_error_set(err, errno, "signalfd");
	struct pollfd fds[2] = {{.fd = pidfd, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
	int status = -1;
	while (status < 0) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			ct_error_set(err, errno, "wait for the container");
			break;
		}
		struct signalfd_siginfo si;
		if ((fds[1].revents & POLLIN) && read(sfd, &si, sizeof(si)) == sizeof(si) &&
		    si.ssi_signo != SIGCHLD)
			ct_container_signal(c, (int)si.ssi_signo, NULL);
		siginfo_t info = {0};
		if ((fds[0].revents & POLLIN) &&
		    waitid(P_PIDFD, (id_t)pidfd, &info, WEXITED | WNOHANG) == 0 && info.si_pid)
			status = exit_status_of(&info);
	}
	close(sfd);
	return status;
}

static int start_now(struct ct_container *c, struct ct_error *err)
{
	c->state.started = true;
	if (ct_state_write(&c->dir, &c->state, err) < 0 || ct_spawn_start(&c->proc, err) < 0)
		return -1;
	c->status = CT_STATUS_RUNNING;
	return 0;
}

static void delete_after_run(const struct ct_globals *g, const char *id)
{
	struct ct_container c;
	struct ct_error err = {0};
	if (ct_container_open(g, id, true, &c, &err) < 0 || ct_container_destroy(&c, &err) < 0)
		ct_log(CT_LOG_ERROR, "delete container \"%s\": %s", ct_shown_id(id).s, err.msg);
	else
		ct_container_poststop(&c);
	ct_container_close(&c);
}

int cmd_run(const struct ct_globals *g, int argc, char **argv)
{
	struct ct_run_flags f = {.create = {.start = CT_START_SYNC}};
	int rc = ct_parse_create_flags(argc, argv, true, &f);
	if (rc)
		return rc < 0 ? 1 : 0;
	sigset_t signals;
	forwarded_signals(&signals);
	sigprocmask(SIG_BLOCK, &signals, &f.create.child_sigmask);
	struct ct_container c;
	struct ct_error err = {0};
	const char *id = f.create.id;
	if (ct_container_create(g, &f.create, &c, &err) < 0) {
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
	ct_container_dir_close(&c.dir); /* others may look at it while it runs */
	int status = forward_and_wait(&c, &signals, &err);
	if (status < 0)
		ct_log(CT_LOG_ERROR, "run container \"%s\": %s", ct_shown_id(id).s, err.msg);
	ct_container_close(&c);
	if (!f.keep)
		delete_after_run(g, id);
	return status < 0 ? 1 : status;
}
