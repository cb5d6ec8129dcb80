#include "libct/child/terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/fdpass.h"

/* pts devices: majors 136-143 (Documentation/admin-guide/devices.txt) */
#define UNIX98_PTY_SLAVE_MAJOR 136

#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

int ct_pty_open(int *master, char *slave_name, size_t size, struct ct_error *err)
{
	_cleanup_close_ int fd = openat(AT_FDCWD, "/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ct_error_sys(err, errno, "open \"/dev/ptmx\"");
	/* A new master starts locked so nobody opens the slave before it is set up. */
	if (unlockpt(fd) < 0)
		return ct_error_sys(err, errno, "unlock pty \"/dev/ptmx\"");
	int rc = ptsname_r(fd, slave_name, size);
	if (rc != 0)
		return ct_error_sys(err, rc, "get the slave name of pty \"/dev/ptmx\"");
	*master = steal_fd(&fd);
	return 0;
}

int ct_pty_open_slave(int master, const char *slave_name, struct ct_error *err)
{
	int fd = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno != EINVAL && errno != ENOTTY)
		return ct_error_sys(err, errno, "open the slave of pty \"%s\"", slave_name);
	/* by name, in the container's /dev/pts: what opened must be a pty slave, as it is
	 * bound on /dev/console next (CVE-2025-52565) */
	_cleanup_close_ int named = openat(AT_FDCWD, slave_name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (named < 0 || fstat(named, &st) < 0)
		return ct_error_sys(err, errno, "open \"%s\"", slave_name);
	if (!S_ISCHR(st.st_mode) || major(st.st_rdev) < UNIX98_PTY_SLAVE_MAJOR ||
	    major(st.st_rdev) >= UNIX98_PTY_SLAVE_MAJOR + 8)
		return ct_error_plain(err, EPERM, "\"%s\" is not a pty slave", slave_name);
	return steal_fd(&named);
}

int ct_pty_set_size(int master, unsigned short rows, unsigned short cols, struct ct_error *err)
{
	struct winsize ws = {.ws_row = rows, .ws_col = cols};
	if (ioctl(master, TIOCSWINSZ, &ws) < 0)
		return ct_error_sys(err, errno, "set the pty size to %u rows, %u columns", rows,
				    cols);
	return 0;
}

/* A terminal can become controlling only for a session leader without one. Already being
 * the leader of our own session (the caller ran setsid()) is as good as a new session. */
static int start_session(struct ct_error *err)
{
	if (setsid() >= 0)
		return 0;
	if (errno == EPERM && getsid(0) == getpid())
		return 0;
	return ct_error_sys(err, errno, "setsid");
}

/* what names the slave in messages: "\"/dev/pts/0\"" or "the pty slave". */
static int install_as_stdio(int slave, const char *what, struct ct_error *err)
{
	for (int target = 0; target <= 2; target++) {
		/* dup2 onto itself keeps the flags: clear O_CLOEXEC so the process keeps it. */
		if (slave == target) {
			if (fcntl(slave, F_SETFD, 0) < 0)
				return ct_error_sys(err, errno, "clear close-on-exec of %s", what);
		} else if (dup2(slave, target) < 0) {
			return ct_error_sys(err, errno, "dup2 %s to fd %d", what, target);
		}
	}
	return 0;
}

static int take_terminal(int slave, const char *what, struct ct_error *err)
{
	int rc = start_session(err);
	/* Opening never made it controlling (O_NOCTTY): this does, for a session leader. */
	if (rc == 0 && ioctl(slave, TIOCSCTTY, 0) < 0)
		rc = ct_error_sys(err, errno, "make %s the controlling terminal", what);
	if (rc == 0)
		rc = install_as_stdio(slave, what, err);
	if (slave > 2) /* its copies on 0-2 are what stays */
		close(slave);
	return rc;
}

int ct_pty_make_controlling_fd(int slave, struct ct_error *err)
{
	return take_terminal(slave, "the pty slave", err);
}

int ct_pty_make_controlling(const char *slave_name, struct ct_error *err)
{
	int slave = openat(AT_FDCWD, slave_name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (slave < 0)
		return ct_error_sys(err, errno, "open \"%s\"", slave_name);
	char what[128];
	snprintf(what, sizeof(what), "\"%s\"", slave_name);
	return take_terminal(slave, what, err);
}

int ct_console_send_master(const char *socket_path, int master, struct ct_error *err)
{
	return ct_send_fd_to(socket_path, "console socket", master, CT_CONSOLE_PAYLOAD,
			     strlen(CT_CONSOLE_PAYLOAD), err);
}
