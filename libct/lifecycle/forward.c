#include "libct/lifecycle/forward.h"

#include <errno.h>
#include <poll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/lifecycle/subreaper.h"

void ct_forwarded_signals(sigset_t *set)
{
	sigfillset(set);
	static const int own[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		sigdelset(set, own[i]);
}

int ct_exit_status_of(const siginfo_t *info)
{
	if (info->si_code == CLD_EXITED)
		return info->si_status;
	return 128 + info->si_status; /* killed or dumped: as shells report it */
}

int ct_forward_and_wait(int pidfd, const sigset_t *signals, int (*send)(void *data, int sig),
			void *data, struct ct_error *err)
{
	/* non-blocking: a signal poll saw can be gone before the read (taken by a handler or
	 * its default action where the mask did not block it) */
	_cleanup_close_ int sfd = signalfd(-1, signals, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		return ct_error_sys(err, errno, "signalfd");
	struct pollfd fds[2] = {{.fd = pidfd, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
	int status = -1;
	while (status < 0) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			ct_error_sys(err, errno, "wait for the process");
			break;
		}
		struct signalfd_siginfo si;
		if ((fds[1].revents & POLLIN) && read(sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo != SIGCHLD)
				send(data, (int)si.ssi_signo);
			else
				ct_reap_orphans(pidfd);
		}
		siginfo_t info = {0};
		if ((fds[0].revents & POLLIN) &&
		    waitid(P_PIDFD, (id_t)pidfd, &info, WEXITED | WNOHANG) == 0 && info.si_pid)
			status = ct_exit_status_of(&info);
	}
	return status;
}
