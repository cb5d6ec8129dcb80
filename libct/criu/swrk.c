#include "libct/criu/swrk.h"
#include "libct/criu/swrk_child.h"

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

static const char *criu_given; /* --criu */

void ct_criu_use(const char *path)
{
	criu_given = path;
}

/* The first executable name in $PATH, as runc's exec of its --criu (default "criu") finds it. */
static int search_path(const char *name, char path[PATH_MAX], struct ct_error *err)
{
	const char *dirs = getenv("PATH");
	if (!dirs || !*dirs)
		dirs = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	while (*dirs) {
		size_t n = strcspn(dirs, ":");
		snprintf(path, PATH_MAX, "%.*s/%s", (int)n, dirs, name);
		if (n && access(path, X_OK) == 0)
			return 0;
		dirs += n + (dirs[n] == ':');
	}
	return ct_error_plain(err, ENOENT, "%s not found in $PATH (install criu)", name);
}

/* --criu (a name without a slash searched in $PATH), $CTRUN_CRIU, or "criu" in $PATH. */
static int find_criu(char path[PATH_MAX], struct ct_error *err)
{
	if (criu_given && !strchr(criu_given, '/'))
		return search_path(criu_given, path, err);
	if (criu_given) {
		if (access(criu_given, X_OK) < 0)
			return ct_error_sys(err, errno, "criu \"%s\" (from --criu)", criu_given);
		snprintf(path, PATH_MAX, "%s", criu_given);
		return 0;
	}
	const char *env = getenv(CT_CRIU_ENV);
	if (env && *env) {
		if (access(env, X_OK) < 0)
			return ct_error_sys(err, errno, "criu \"%s\" (from $" CT_CRIU_ENV ")", env);
		snprintf(path, PATH_MAX, "%s", env);
		return 0;
	}
	return search_path("criu", path, err);
}

/* The socket criu made for itself (swrk_child.c), in place of the first one. */
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

/* The child's three channels: the swrk socket, the go pipe and the report pipe (closed by
 * the caller's cleanup, made or not). */
static int make_channels(int (*sv)[2], int (*go)[2], int (*report)[2], struct ct_error *err)
{
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, *sv) < 0)
		return ct_error_sys(err, errno, "criu: socketpair");
	if (pipe2(*go, O_CLOEXEC) < 0 || pipe2(*report, O_CLOEXEC) < 0)
		return ct_error_sys(err, errno, "criu: pipe2");
	return 0;
}

int ct_criu_swrk_start(const struct ct_criu_swrk_opts *o, struct ct_criu_swrk *out,
		       struct ct_error *err)
{
	*out = (struct ct_criu_swrk){.pid = -1, .sock = -1};
	char criu[PATH_MAX];
	_cleanup_close_pair_ int sv[2] = CT_FD_PAIR_INIT, go[2] = CT_FD_PAIR_INIT,
				 report[2] = CT_FD_PAIR_INIT;
	if (find_criu(criu, err) < 0 || make_channels(&sv, &go, &report, err) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return ct_error_sys(err, errno, "criu: fork");
	if (pid == 0) {
		ct_close_now(&sv[0]);
		ct_close_now(&go[1]);
		ct_close_now(&report[0]);
		ct_criu_child_exec(criu, sv[1], go[0], report[1], o);
	}
	ct_close_now(&sv[1]);
	ct_close_now(&go[0]);
	ct_close_now(&report[1]);
	out->pid = pid;
	out->sock = steal_fd(&sv[0]);
	if (o->prepare && o->prepare(o->arg, pid, err) < 0) {
		kill(pid, SIGKILL); /* before its go: criu never runs */
		ct_criu_swrk_end(out);
		return -1;
	}
	ct_close_now(&go[1]); /* the go */
	if (ct_criu_child_wait_exec(report[0], criu, err) < 0 ||
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
	_cleanup_close_ int fd =
		log_path && *log_path ? openat(AT_FDCWD, log_path, O_RDONLY | O_CLOEXEC) : -1;
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
	ct_close_now(&s->sock);
	ct_waitp(&s->pid);
	s->pid = -1;
}
