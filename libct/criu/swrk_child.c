#include "libct/criu/swrk_child.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/fdpass.h"

static bool kept(int fd, const int *keep_fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (keep_fds[i] == fd)
			return true;
	return false;
}

/* criu says all in its log and its response: its stdio (unless kept) is /dev/null, so that
 * nothing it prints mixes with ctrun's one error line. A stdio fd ctrun was started without
 * is where null itself lands: dup2 onto itself would leave it close-on-exec, closed in criu. */
static int quiet_stdio(const int *keep_fds, size_t n)
{
	int null = openat(AT_FDCWD, "/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return -1;
	for (int fd = 0; fd <= 2; fd++)
		if (!kept(fd, keep_fds, n) &&
		    (fd == null ? fcntl(fd, F_SETFD, 0) : dup2(null, fd)) < 0)
			return -1;
	return 0;
}

/* What the child failed at before criu ran, sent on its report pipe (the exec closes it
 * unwritten when criu runs). */
enum child_step { STEP_WAIT, STEP_MOUNT_NS, STEP_BIND, STEP_SOCKET, STEP_FDS, STEP_EXEC };
static const char *const step_names[] = {
	[STEP_WAIT] = "wait for its go",	[STEP_MOUNT_NS] = "a mount namespace of its own",
	[STEP_BIND] = "bind the restored root", [STEP_SOCKET] = "a socket of its own",
	[STEP_FDS] = "its inherited fds",	[STEP_EXEC] = "exec",
};

struct child_failure {
	int step, errnum;
};

__attribute__((noreturn)) static void child_fails(int report, enum child_step step)
{
	struct child_failure f = {step, errno};
	ssize_t n = write(report, &f, sizeof(f));
	(void)n; /* the parent reads a short report as criu exiting unexplained */
	_exit(127);
}

/* A kept directory opened again by its path, in the namespace now ours: criu mounts in its
 * work directory (its cgroup yard), which it may not in a mount of another namespace. */
static int reopen_dir_here(int fd)
{
	struct stat st;
	char link[64], path[PATH_MAX];
	if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return -1;
	path[n] = '\0';
	_cleanup_close_ int here = openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return here < 0 || dup3(here, fd, O_CLOEXEC) < 0 ? -1 : 0;
}

/* criu opens the image and work directories as its client's /proc/PID/fd/N, PID from its
 * socket's peer credentials: those of whoever made the pair. Made here and its other end
 * passed to ctrun, criu is its own client, its fds the ones reopened in its namespace. */
static void own_socket(int *sock, int report)
{
	_cleanup_close_pair_ int pair[2] = CT_FD_PAIR_INIT;
	struct ct_error ignored;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0 ||
	    ct_send_fd(*sock, pair[0], NULL, 0, &ignored) < 0)
		child_fails(report, STEP_SOCKET);
	ct_fd_replace(sock, steal_fd(&pair[1]));
}

/* The restore's root bound where criu finds it, in a mount namespace of criu's own: the
 * bind goes with criu, whatever ends it, and never shows in the host's. Its mounts are the
 * host's slaves, not private: criu copies a restored bind mount's propagation from the
 * mount of its source (MOVE_MOUNT_SET_GROUP), which the kernel refuses from a private one
 * (a systemd host's shared root). */
static void bind_root_privately(const struct ct_criu_swrk_opts *o, int *sock, int report)
{
	if (!o->bind_source)
		return;
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		child_fails(report, STEP_MOUNT_NS);
	for (size_t i = 0; i < o->n_keep; i++)
		if (reopen_dir_here(o->keep_fds[i]) < 0)
			child_fails(report, STEP_MOUNT_NS);
	if (mount(o->bind_source, o->bind_target, NULL, MS_BIND | MS_REC, NULL) < 0)
		child_fails(report, STEP_BIND);
	own_socket(sock, report);
}

void ct_criu_child_exec(const char *criu, int sock, int go, int report,
			const struct ct_criu_swrk_opts *o)
{
	char byte, fdarg[16];
	if (read(go, &byte, 1) != 0)
		child_fails(report, STEP_WAIT); /* the parent gave up: never run criu */
	bind_root_privately(o, &sock, report);
	if (quiet_stdio(o->keep_fds, o->n_keep) < 0)
		child_fails(report, STEP_FDS);
	for (size_t i = 0; i < o->n_keep; i++)
		if (fcntl(o->keep_fds[i], F_SETFD, 0) < 0)
			child_fails(report, STEP_FDS);
	if (fcntl(sock, F_SETFD, 0) < 0)
		child_fails(report, STEP_FDS);
	snprintf(fdarg, sizeof(fdarg), "%d", sock);
	execl(criu, "criu", "swrk", fdarg, (char *)NULL);
	child_fails(report, STEP_EXEC);
}

int ct_criu_child_wait_exec(int report, const char *criu, struct ct_error *err)
{
	struct child_failure f;
	ssize_t n;
	while ((n = read(report, &f, sizeof(f))) < 0 && errno == EINTR)
		;
	if (n == 0)
		return 0;
	if (n != (ssize_t)sizeof(f) || f.step < 0 || f.step > STEP_EXEC)
		return ct_error_plain(err, ECHILD, "criu \"%s\" exited before it ran", criu);
	if (f.step == STEP_EXEC)
		return ct_error_sys(err, f.errnum, "criu: exec \"%s\"", criu);
	return ct_error_sys(err, f.errnum, "criu: %s", step_names[f.step]);
}
