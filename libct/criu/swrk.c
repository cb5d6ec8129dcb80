#include "libct/criu/swrk.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

/* In the forked child: waits for the parent's go (its end of `go` closed), then becomes
 * criu with sock and keep_fds inherited. */
__attribute__((noreturn)) static void exec_criu(const char *criu, int sock, int go,
						const int *keep_fds, size_t n)
{
	char byte, fdarg[16];
	if (read(go, &byte, 1) != 0)
		_exit(127); /* the parent gave up: never run criu */
	if (quiet_stdio(keep_fds, n) < 0)
		_exit(127);
	for (size_t i = 0; i < n; i++)
		if (fcntl(keep_fds[i], F_SETFD, 0) < 0)
			_exit(127);
	if (fcntl(sock, F_SETFD, 0) < 0)
		_exit(127);
	snprintf(fdarg, sizeof(fdarg), "%d", sock);
	execl(criu, "criu", "swrk", fdarg, (char *)NULL);
	_exit(127);
}

int ct_criu_swrk_start(const int *keep_fds, size_t n,
		       int (*prepare)(void *arg, pid_t pid, struct ct_error *err), void *arg,
		       struct ct_criu_swrk *out, struct ct_error *err)
{
	*out = (struct ct_criu_swrk){.pid = -1, .sock = -1};
	char criu[PATH_MAX];
	int sv[2] = CT_FD_PAIR_INIT, go[2] = CT_FD_PAIR_INIT;
	if (find_criu(criu, err) < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return ct_error_sys(err, errno, "criu: socketpair");
	if (pipe2(go, O_CLOEXEC) < 0) {
		int saved = errno;
		ct_close_pairp(&sv);
		return ct_error_sys(err, saved, "criu: pipe2");
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		close(go[1]);
		exec_criu(criu, sv[1], go[0], keep_fds, n);
	}
	int saved = errno;
	close(sv[1]);
	close(go[0]);
	if (pid < 0) {
		close(sv[0]);
		close(go[1]);
		return ct_error_sys(err, saved, "criu: fork");
	}
	out->pid = pid;
	out->sock = sv[0];
	if (prepare && prepare(arg, pid, err) < 0) {
		kill(pid, SIGKILL); /* before its exec: criu never ran */
		close(go[1]);
		ct_criu_swrk_end(out);
		return -1;
	}
	close(go[1]);
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
	_cleanup_close_ int fd = log_path ? open(log_path, O_RDONLY | O_CLOEXEC) : -1;
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

static int failed_resp(const struct ct_criu_resp *resp, const char *log_hint, struct ct_error *err)
{
	char hint[PATH_MAX + 16] = "", why[256];
	if (log_hint)
		snprintf(hint, sizeof(hint), " (see %s)", log_hint);
	if (resp->cr_errmsg[0])
		return ct_error_plain(err, EIO, "criu failed: %s%s", resp->cr_errmsg, hint);
	if (resp->cr_errno)
		return ct_error_plain(err, EIO, "criu failed: %s%s", strerror(resp->cr_errno),
				      hint);
	last_error_line(log_hint, why, sizeof(why));
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
		      ct_criu_notify_fn on_notify, void *arg, const char *log_hint,
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
		return resp->success ? 0 : failed_resp(resp, log_hint, err);
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
