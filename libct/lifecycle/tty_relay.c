#include "libct/lifecycle/tty_relay.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"
#include "libct/lifecycle/forward.h"
#include "libct/lifecycle/subreaper.h"

/* The caller's terminal in raw mode while we relay, so that keys reach the process as
 * typed (^C as a byte, not as our SIGINT); restored at the end. */
struct raw_tty {
	bool set;
	struct termios saved;
};

static void make_raw(struct raw_tty *r)
{
	struct termios t;
	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &r->saved) < 0)
		return;
	t = r->saved;
	cfmakeraw(&t);
	r->set = tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0;
}

static void restore_tty(const struct raw_tty *r)
{
	if (r->set)
		tcsetattr(STDIN_FILENO, TCSANOW, &r->saved);
}

static void copy_window_size(int master)
{
	struct winsize ws;
	if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0)
		ioctl(master, TIOCSWINSZ, &ws);
}

/* One read from `from` written to `to`, its last byte kept in *last (when given); false at
 * end of file or error (EIO on a master whose slave side is closed). */
static bool pump(int from, int to, char *last)
{
	char buf[8192];
	ssize_t n;
	do
		n = read(from, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n <= 0 || ct_write_all(to, buf, (size_t)n) < 0)
		return false;
	if (last)
		*last = buf[n - 1];
	return true;
}

/* Our input ended (a pipe, a file): the process reads that end as on a terminal, from the
 * EOF character when the pty reads in lines, twice after a partial line, whose first EOF
 * only hands the line over. In raw mode the process has no end of file to read, as on a
 * terminal. */
static void end_of_input(int master, char last)
{
	struct termios t;
	if (tcgetattr(master, &t) < 0 || !(t.c_lflag & ICANON))
		return;
	const char eof[2] = {(char)t.c_cc[VEOF], (char)t.c_cc[VEOF]};
	(void)ct_write_all(master, eof, last == '\n' ? 1 : 2);
}

enum { R_PIDFD, R_SIGNALS, R_MASTER, R_STDIN, R_COUNT };

/* SIGWINCH resizes the pty, SIGCHLD reaps orphans; every other signal goes to the process. */
static void take_signal(int sfd, int pidfd, int master, int (*send)(void *, int), void *data)
{
	struct signalfd_siginfo si;
	if (read(sfd, &si, sizeof(si)) != sizeof(si))
		return;
	if (si.ssi_signo == SIGCHLD)
		ct_reap_orphans(pidfd);
	else if (si.ssi_signo == SIGWINCH)
		copy_window_size(master);
	else
		send(data, (int)si.ssi_signo);
}

/* Relays until the process has exited and its output is drained (the last holder of the
 * slave closed it); its status or -1. */
static int relay(struct pollfd *fds, int master, int (*send)(void *, int), void *data,
		 struct ct_error *err)
{
	int pidfd = fds[R_PIDFD].fd;
	bool exited = false;
	char last_in = '\n'; /* nothing typed yet: no partial line */
	while (!exited || fds[R_MASTER].fd >= 0) {
		if (poll(fds, R_COUNT, -1) < 0) {
			if (errno == EINTR)
				continue;
			return ct_error_sys(err, errno, "relay the terminal");
		}
		if (fds[R_SIGNALS].revents & POLLIN)
			take_signal(fds[R_SIGNALS].fd, pidfd, master, send, data);
		if (fds[R_STDIN].revents && !pump(STDIN_FILENO, master, &last_in)) {
			end_of_input(master, last_in);
			fds[R_STDIN].fd = -1; /* the process keeps its pty */
		}
		if (fds[R_MASTER].revents && !pump(master, STDOUT_FILENO, NULL))
			fds[R_MASTER].fd = -1;
		if (fds[R_PIDFD].revents) {
			exited = true;
			fds[R_PIDFD].fd = -1;
		}
	}
	siginfo_t info = {0};
	if (waitid(P_PIDFD, (id_t)pidfd, &info, WEXITED) < 0)
		return ct_error_sys(err, errno, "wait for the process");
	return ct_exit_status_of(&info);
}

int ct_tty_relay_and_wait(int pidfd, int master, const sigset_t *signals,
			  int (*send)(void *data, int sig), void *data, struct ct_error *err)
{
	/* non-blocking: a signal poll saw can be gone before the read (taken by a handler or
	 * its default action where the mask did not block it) */
	_cleanup_close_ int sfd = signalfd(-1, signals, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		return ct_error_sys(err, errno, "signalfd");
	struct pollfd fds[R_COUNT] = {
		[R_PIDFD] = {.fd = pidfd, .events = POLLIN},
		[R_SIGNALS] = {.fd = sfd, .events = POLLIN},
		[R_MASTER] = {.fd = master, .events = POLLIN},
		[R_STDIN] = {.fd = STDIN_FILENO, .events = POLLIN},
	};
	struct raw_tty raw = {.set = false};
	copy_window_size(master);
	make_raw(&raw);
	int status = relay(fds, master, send, data, err);
	restore_tty(&raw);
	return status;
}
