#include "libct/criu/swrk.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/fdpass.h"
#include "libct/base/readall.h"

#define RESP_MAX (64 * 1024) /* one response datagram: small, criu's messages are short */

/* $CTRUN_CRIU, or the first executable "criu" in $PATH. */
static int find_criu(char path[PATH_MAX], struct ct_error *err)
{
	const char *env = getenv(CT_CRIU_ENV);
	if (env && *env) {
		if (access(env, X_OK) < 0)
			return ct_error_sys(err, errno, "criu \"%s\" (from $" CT_CRIU_ENV ")", env);
		snprintf(path, PATH_MAX, "%s", env);
		return 0;
	}
	const char *dirs = getenv("PATH");
	if (!dirs || !*dirs)
		dirs = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	while (*dirs) {
		size_t n = strcspn(dirs, ":");
		snprintf(path, PATH_MAX, "%.*s/criu", (int)n, dirs);
		if (n && access(path, X_OK) == 0)
			return 0;
		dirs += n + (dirs[n] == ':');
	}
	return ct_error_plain(err, ENOENT, "criu not found in $PATH (install criu)");
}

static bool kept(int fd, const int *keep_fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (keep_fds[i] == fd)
			return true;
	return false;
}

/* criu says all in its log and its response: its stdio (unless kept) is /dev/null, so that
 * nothing it prints mixes with ctrun's one error line. */
static int quiet_stdio(const int *keep_fds, size_t n)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return -1;
	for (int fd = 0; fd <= 2; fd++)
		if (!kept(fd, keep_fds, n) && dup2(null, fd) < 0)
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
	int here = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (here < 0)
		return -1;
	int rc = dup3(here, fd, O_CLOEXEC) < 0 ? -1 : 0;
	close(here);
	return rc;
}

/* criu opens the image and work directories as its client's /proc/PID/fd/N, PID from its
 * socket's peer credentials: those of whoever made the pair. Made here and its other end
 * passed to ctrun, criu is its own client, its fds the ones reopened in its namespace. */
static void own_socket(int *sock, int report)
{
	int pair[2];
	struct ct_error ignored;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0 ||
	    ct_send_fd(*sock, pair[0], NULL, 0, &ignored) < 0)
		child_fails(report, STEP_SOCKET);
	close(pair[0]);
	close(*sock);
	*sock = pair[1];
}

/* The restore's root bound where criu finds it, in a mount namespace of criu's own: the
 * bind goes with criu, whatever ends it, and never shows in the host's. */
static void bind_root_privately(const struct ct_criu_swrk_opts *o, int *sock, int report)
{
	if (!o->bind_source)
		return;
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		child_fails(report, STEP_MOUNT_NS);
	for (size_t i = 0; i < o->n_keep; i++)
		if (reopen_dir_here(o->keep_fds[i]) < 0)
			child_fails(report, STEP_MOUNT_NS);
	if (mount(o->bind_source, o->bind_target, NULL, MS_BIND | MS_REC, NULL) < 0)
		child_fails(report, STEP_BIND);
	own_socket(sock, report);
}

/* In the forked child: waits for the parent's go (its end of `go` closed), then becomes
 * criu with sock and the kept fds inherited. */
__attribute__((noreturn)) static void exec_criu(const char *criu, int sock, int go, int report,
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

/* 0 once criu runs (the report pipe closed by its exec), -1 with what the child failed at. */
static int wait_for_exec(int report, const char *criu, struct ct_error *err)
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

/* The socket criu made (own_socket), in place of the first one. */
static int take_socket(struct ct_criu_swrk *s, struct ct_error *err)
{
	int fd = -1;
	if (ct_recv_fd(s->sock, &fd, NULL, NULL, err) < 0)
		return ct_error_prefix(err, "criu: its socket");
	if (fd < 0)
		return ct_error_plain(err, EPROTO, "criu: its socket did not come");
	ct_fd_replace(&s->sock, fd);
	return 0;
}

/* The child's three channels: the swrk socket, the go pipe and the report pipe. */
static int make_channels(int (*sv)[2], int (*go)[2], int (*report)[2], struct ct_error *err)
{
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, *sv) < 0)
		return ct_error_sys(err, errno, "criu: socketpair");
	if (pipe2(*go, O_CLOEXEC) < 0 || pipe2(*report, O_CLOEXEC) < 0) {
		int saved = errno;
		ct_close_pairp(sv);
		ct_close_pairp(go);
		return ct_error_sys(err, saved, "criu: pipe2");
	}
	return 0;
}

int ct_criu_swrk_start(const struct ct_criu_swrk_opts *o, struct ct_criu_swrk *out,
		       struct ct_error *err)
{
	*out = (struct ct_criu_swrk){.pid = -1, .sock = -1};
	char criu[PATH_MAX];
	int sv[2] = CT_FD_PAIR_INIT, go[2] = CT_FD_PAIR_INIT, report[2] = CT_FD_PAIR_INIT;
	if (find_criu(criu, err) < 0 || make_channels(&sv, &go, &report, err) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		close(go[1]);
		close(report[0]);
		exec_criu(criu, sv[1], go[0], report[1], o);
	}
	int saved = errno;
	close(sv[1]);
	close(go[0]);
	close(report[1]);
	_cleanup_close_ int report_fd = report[0];
	if (pid < 0) {
		close(sv[0]);
		close(go[1]);
		return ct_error_sys(err, saved, "criu: fork");
	}
	out->pid = pid;
	out->sock = sv[0];
	if (o->prepare && o->prepare(o->arg, pid, err) < 0) {
		kill(pid, SIGKILL); /* before its exec: criu never ran */
		close(go[1]);
		ct_criu_swrk_end(out);
		return -1;
	}
	close(go[1]);
	if (wait_for_exec(report_fd, criu, err) < 0 ||
	    (o->bind_source && take_socket(out, err) < 0)) {
		ct_criu_swrk_end(out);
		return -1;
	}
	return 0;
}

static int send_req(int sock, const struct ct_criu_req *req, struct ct_error *err)
{
	struct ct_pb_buf b = {0};
	ct_criu_req_encode(req, &b);
	if (b.failed) {
		ct_pb_buf_free(&b);
		return ct_error_sys(err, ENOMEM, "criu request");
	}
	ssize_t sent = send(sock, b.data, b.len, MSG_NOSIGNAL);
	int saved = errno;
	ct_pb_buf_free(&b);
	if (sent < 0)
		return ct_error_sys(err, saved, "criu: send request (criu died?)");
	return 0;
}

static int recv_resp(int sock, struct ct_criu_resp *resp, int *fd, struct ct_error *err)
{
	_cleanup_free_ char *buf = malloc(RESP_MAX);
	size_t len = RESP_MAX;
	if (!buf)
		return ct_error_sys(err, ENOMEM, "criu response");
	if (ct_recv_fd(sock, fd, buf, &len, err) < 0)
		return ct_error_prefix(err, "criu: read response");
	if (len == 0)
		return ct_error_plain(err, EPIPE, "criu exited without a response");
	if (ct_criu_resp_decode(buf, len, resp, err) < 0) {
		ct_close_now(fd);
		return -1;
	}
	return 0;
}

/* The last line of criu's log that says "Error", without its timestamp: criu's own reason,
 * which its response leaves out when it has no message for it. Empty when there is none. */
static void last_error_line(const char *log_path, char *out, size_t size)
{
	out[0] = '\0';
	_cleanup_close_ int fd = log_path && *log_path ? open(log_path, O_RDONLY | O_CLOEXEC) : -1;
	size_t len;
	_cleanup_free_ char *text = fd >= 0 ? ct_read_file(fd, 1 << 20, &len) : NULL;
	if (!text)
		return;
	const char *found = NULL;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (strstr(line, "Error"))
			found = line;
	if (!found)
		return;
	const char *at = strstr(found, "Error");
	snprintf(out, size, "%s", at);
}

static int failed_resp(const struct ct_criu_resp *resp, const struct ct_criu_log *log,
		       struct ct_error *err)
{
	char hint[PATH_MAX + 64] = "", why[256];
	if (log)
		ct_criu_log_hint(log, hint, sizeof(hint));
	if (resp->cr_errmsg[0])
		return ct_error_plain(err, EIO, "criu failed: %s%s", resp->cr_errmsg, hint);
	if (resp->cr_errno)
		return ct_error_plain(err, EIO, "criu failed: %s%s", strerror(resp->cr_errno),
				      hint);
	last_error_line(log ? log->path : NULL, why, sizeof(why));
	if (why[0])
		return ct_error_plain(err, EIO, "criu failed: %s%s", why, hint);
	return ct_error_plain(err, EIO, "criu failed%s", hint);
}

/* Runs the handler and tells criu how it went. */
static int answer_notify(struct ct_criu_swrk *s, const struct ct_criu_resp *resp, int fd,
			 ct_criu_notify_fn on_notify, void *arg, struct ct_error *err)
{
	int rc = 0;
	if (on_notify)
		rc = on_notify(arg, resp->notify_script, resp->notify_pid, fd, err);
	else
		ct_close_now(&fd);
	struct ct_criu_req ack = {
		.type = CT_CRIU_NOTIFY, .has_notify_success = true, .notify_success = rc == 0};
	struct ct_error send_err = {0};
	if (send_req(s->sock, &ack, &send_err) < 0 && rc == 0) {
		*err = send_err;
		return -1;
	}
	return rc;
}

int ct_criu_swrk_call(struct ct_criu_swrk *s, const struct ct_criu_req *req,
		      ct_criu_notify_fn on_notify, void *arg, const struct ct_criu_log *log,
		      struct ct_criu_resp *resp, struct ct_error *err)
{
	if (send_req(s->sock, req, err) < 0)
		return -1;
	for (;;) {
		int fd = -1;
		if (recv_resp(s->sock, resp, &fd, err) < 0)
			return -1;
		if (resp->type == CT_CRIU_NOTIFY) {
			if (answer_notify(s, resp, fd, on_notify, arg, err) < 0)
				return -1;
			continue;
		}
		ct_close_now(&fd);
		if (resp->type != req->type)
			return ct_error_plain(err, EPROTO,
					      "criu answered request type %d with type %d",
					      (int)req->type, (int)resp->type);
		return resp->success ? 0 : failed_resp(resp, log, err);
	}
}

void ct_criu_swrk_end(struct ct_criu_swrk *s)
{
	if (s->sock >= 0)
		close(s->sock);
	s->sock = -1;
	if (s->pid > 0)
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
	s->pid = -1;
}
