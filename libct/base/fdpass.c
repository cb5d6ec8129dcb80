#include "libct/base/fdpass.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "libct/base/cleanup.h"

/* Room for CT_FDPASS_MAX fds, and on receiving a few more, so that a peer sending more than
 * asked for is seen and refused (beyond that the kernel sets MSG_CTRUNC). */
union fds_cmsg {
	char buf[CMSG_SPACE((CT_FDPASS_MAX + 4) * sizeof(int))];
	struct cmsghdr align;
};

static void attach_fds(struct msghdr *msg, union fds_cmsg *ctl, const int *fds, size_t n)
{
	memset(ctl, 0, sizeof(*ctl));
	msg->msg_control = ctl->buf;
	msg->msg_controllen = CMSG_SPACE(n * sizeof(int));
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(cmsg), fds, n * sizeof(int));
}

static ssize_t sendmsg_retrying(int sock, const struct msghdr *msg)
{
	ssize_t n;
	do
		n = sendmsg(sock, msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n;
}

/* A stream socket may take the data in pieces; the fds travelled with the first piece. */
static int send_rest(int sock, const char *data, size_t len, struct ct_error *err)
{
	while (len > 0) {
		ssize_t n = send(sock, data, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ct_error_sys(err, errno, "send fd payload");
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int ct_send_fds(int sock, const int *fds, size_t n, const void *data, size_t len,
		struct ct_error *err)
{
	static const char placeholder = '\0';
	if (n > CT_FDPASS_MAX)
		return ct_error_plain(err, E2BIG, "send %zu fds: at most %d", n, CT_FDPASS_MAX);
	if (len == 0) {
		data = &placeholder;
		len = 1;
	}
	struct iovec iov = {.iov_base = (void *)data, .iov_len = len};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	union fds_cmsg ctl;
	if (n)
		attach_fds(&msg, &ctl, fds, n);

	ssize_t sent = sendmsg_retrying(sock, &msg);
	if (sent < 0 && n == 1)
		return ct_error_sys(err, errno, "send fd %d", fds[0]);
	if (sent < 0 && n)
		return ct_error_sys(err, errno, "send %zu fds", n);
	if (sent < 0)
		return ct_error_sys(err, errno, "send message");
	return send_rest(sock, (const char *)data + sent, len - (size_t)sent, err);
}

int ct_send_fd(int sock, int fd, const void *data, size_t len, struct ct_error *err)
{
	return ct_send_fds(sock, &fd, fd >= 0, data, len, err);
}

static ssize_t recvmsg_retrying(int sock, struct msghdr *msg)
{
	ssize_t n;
	do
		n = recvmsg(sock, msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	return n;
}

/* The fds that came with msg, the first max of them into fds; *count says how many came.
 * Every other fd in it is closed, so nothing leaks into the process whatever the peer
 * sent. */
static void take_passed_fds(struct msghdr *msg, int *fds, size_t max, size_t *count)
{
	*count = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t nfds = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < nfds; i++) {
			int got;
			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (*count < max)
				fds[*count] = got;
			else
				close(got);
			(*count)++;
		}
	}
}

static void close_taken(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ct_close_now(&fds[i]);
}

static int check_whole_message(const struct msghdr *msg, int *fds, size_t max, size_t nfds,
			       bool want_data, size_t cap, struct ct_error *err)
{
	size_t kept = nfds < max ? nfds : max;
	if (nfds > max || (msg->msg_flags & MSG_CTRUNC)) {
		close_taken(fds, kept);
		if (max == 1)
			return ct_error_plain(err, EBADMSG, "receive fd: more than one fd came");
		return ct_error_plain(err, EBADMSG, "receive fds: more than %zu came", max);
	}
	if (want_data && (msg->msg_flags & MSG_TRUNC)) {
		close_taken(fds, kept);
		return ct_error_plain(err, EMSGSIZE, "receive fd: message longer than %zu bytes",
				      cap);
	}
	return 0;
}

int ct_recv_fds(int sock, int *fds, size_t max, size_t *n, void *data, size_t *len,
		struct ct_error *err)
{
	/* Without a buffer the payload is read into scratch and dropped: reading nothing at
	 * all would return 0 as EOF does and leave the byte that carried the fd queued. */
	char scratch;
	bool want_data = data && len && *len > 0;
	struct iovec iov = {.iov_base = want_data ? data : &scratch,
			    .iov_len = want_data ? *len : sizeof(scratch)};
	union fds_cmsg ctl;
	memset(&ctl, 0, sizeof(ctl));
	struct msghdr msg = {.msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf)};
	*n = 0;
	for (size_t i = 0; i < max; i++)
		fds[i] = -1;

	ssize_t got = recvmsg_retrying(sock, &msg);
	if (got < 0)
		return ct_error_sys(err, errno, "receive (recvmsg)");
	size_t nfds;
	take_passed_fds(&msg, fds, max, &nfds);
	if (check_whole_message(&msg, fds, max, nfds, want_data, iov.iov_len, err) < 0)
		return -1;
	*n = nfds;
	if (len)
		*len = (size_t)got;
	return 0;
}

int ct_recv_fd(int sock, int *fd, void *data, size_t *len, struct ct_error *err)
{
	size_t n;
	return ct_recv_fds(sock, fd, 1, &n, data, len, err);
}

/* Returns 0 or -errno, taken before the cleanup closes pathfd (which could change errno). */
static int connect_path(int sock, const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	_cleanup_close_ int pathfd = -1;
	if (strlen(path) < sizeof(addr.sun_path)) {
		strcpy(addr.sun_path, path);
	} else {
		/* connect() follows the /proc link like any other path */
		pathfd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
		if (pathfd < 0)
			return -errno;
		snprintf(addr.sun_path, sizeof(addr.sun_path), "/proc/self/fd/%d", pathfd);
	}
	int rc;
	do
		rc = connect(sock, (struct sockaddr *)&addr, sizeof(addr));
	while (rc < 0 && errno == EINTR);
	return rc < 0 ? -errno : 0;
}

int ct_unix_connect(const char *path, const char *what, struct ct_error *err)
{
	_cleanup_close_ int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return ct_error_sys(err, errno, "create a socket for %s \"%s\"", what, path);
	int rc = connect_path(sock, path);
	if (rc < 0)
		return ct_error_sys(err, -rc, "connect to %s \"%s\"", what, path);
	return steal_fd(&sock);
}

int ct_send_fd_to(const char *path, const char *what, int fd, const void *data, size_t len,
		  struct ct_error *err)
{
	_cleanup_close_ int sock = ct_unix_connect(path, what, err);
	if (sock < 0)
		return -1;
	if (ct_send_fd(sock, fd, data, len, err) < 0)
		return ct_error_prefix(err, "%s \"%s\"", what, path);
	return 0;
}
