#include "libct/parent/spawned.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/syscalls.h"

/* Only for the init we spawned and have not reaped: its pid cannot be recycled yet, so
 * kill() is safe where a seccomp profile refuses pidfd_send_signal (without it, the wait
 * below would block forever on an init that waits for start). */
void ct_spawned_kill(struct ct_spawned *s)
{
	if (s->pidfd >= 0) {
		if (ct_pidfd_send_signal(s->pidfd, SIGKILL, NULL, 0) < 0)
			kill(s->pid, SIGKILL);
		siginfo_t info;
		while (waitid(P_PIDFD, (id_t)s->pidfd, &info, WEXITED) < 0 && errno == EINTR)
			;
	}
	ct_spawned_close(s);
}

void ct_spawned_close(struct ct_spawned *s)
{
	if (s->pidfd >= 0)
		close(s->pidfd);
	if (s->pty_master >= 0)
		close(s->pty_master);
	if (s->sync_fd >= 0)
		close(s->sync_fd);
	if (s->shared_root >= 0)
		close(s->shared_root);
	s->pidfd = s->pty_master = s->sync_fd = s->shared_root = -1;
}

void ct_spawned_close_sync(struct ct_spawned *s)
{
	if (s->sync_fd >= 0)
		close(s->sync_fd);
	s->sync_fd = -1;
}
