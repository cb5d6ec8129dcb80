#include "libct/parent/spawned.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/syscalls.h"

/* Only for the init we spawned (or criu restored as our child) and have not reaped: its pid
 * cannot be recycled yet, so kill() is safe where a seccomp profile refuses
 * pidfd_send_signal, and where there is no pidfd at all (without the kill, the wait would
 * block forever on an init that waits for start; without the wait, a restored init would
 * run on, unowned). */
void ct_spawned_kill(struct ct_spawned *s)
{
	if (s->pidfd >= 0) {
		if (ct_pidfd_send_signal(s->pidfd, SIGKILL, NULL, 0) < 0 && s->pid > 0)
			kill(s->pid, SIGKILL);
		siginfo_t info;
		while (waitid(P_PIDFD, (id_t)s->pidfd, &info, WEXITED) < 0 && errno == EINTR)
			;
	} else if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	ct_spawned_close(s);
}

void ct_spawned_close(struct ct_spawned *s)
{
	ct_close_now(&s->pidfd);
	ct_close_now(&s->pty_master);
	ct_close_now(&s->sync_fd);
	ct_close_now(&s->shared_root);
}

void ct_spawned_close_sync(struct ct_spawned *s)
{
	ct_close_now(&s->sync_fd);
}
