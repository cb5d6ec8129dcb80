#include "libct/fdpass.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

union one_fd_cmsg {
	char buf[CMSG_SPACE(sizeof(int))];
	struct cmsghdr align;
};

/* Receiving makes room for a few fds so a peer sending more than one is seen and refused
 * (CMSG_SPACE padding alone already holds two); beyond that the kernel sets MSG_CTRUNC. */
union few_fds_cmsg {
	char buf[CMSG_SPACE(4 * sizeof(int))];
	struct cmsghdr align;
};

static void attach_fd(struct msghdr *msg, union one_fd_cmsg *ctl, int fd)
{
	memset(ctl, 0, sizeof(*ctl));
	msg->msg_control = ctl->buf;
	msg->msg_controllen = sizeof(ctl->buf);
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
}

static ssize_t sendmsg_retrying(int sock, const struct msghdr *msg)
{
	ssize_t n;
	do
		n = sendmsg(sock, msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n;
}

/* A stream socket may take the data in pieces; the fd travelled with the first piece. */
static int send_rest(int sock, const char *data, size_t len, struct ct_error *err)
{
	while (len > 0) {
		ssize_t n = send(sock, data, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ct_error_set(err, errno, "send fd payload");
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int ct_send_fd(int sock, int fd, const void *data, size_t len, struct ct_error *err)
{
	static const char placeholder = '\0';
	if (len == 0) {
		data = &placeholder;
		len = 1;
	}
	struct iovec iov = {.iov_base = (void *)data, .iov_len = len};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	union one_fd_cmsg ctl;
	if (fd >= 0)
		attach_fd(&msg, &ctl, fd);

	ssize_t n = sendmsg_retrying(sock, &msg);
	if (n < 0 && fd >= 0)
		return ct_error_set(err, errno, "send fd %d", fd);
	if (n < 0)
		return ct_error_set(err, errno, "send message");
	return send_rest(sock, (const char *)data + n, len - (size_t)n, err);
}

static ssize_t recvmsg_retrying(int sock, struct msghdr *msg)
{
	ssize_t n;
	do
		n = recvmsg(sock, msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	return n;
}

/* The fd that came with msg, or -1; *count says how many came. Every other fd in it is
 * closed, so nothing leaks into the process whatever the peer sent. */
static int take_passed_fd(struct msghdr *msg, size_t *count)
{
	int fd = -1;
	*count = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t nfds = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < nfds; i++) {
			int got;
			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (fd < 0)
				fd = got;
			else
				close(got);
			(*count)++;
		}
	}
	return fd;
}

static int check_whole_message(const struct msghdr *msg, int fd, size_t nfds, bool want_data,
			       size_t cap, struct ct_error *err)
{
	if (nfds > 1 || (msg->msg_flags & MSG_CTRUNC)) {
		if (fd >= 0)
			close(fd);
		return ct_error_set(err, EBADMSG, "receive fd: more than one fd came");
	}
	if (want_data && (msg->msg_flags & MSG_TRUNC)) {
		if (fd >= 0)
			close(fd);
		return ct_error_set(err, EMSGSIZE, "receive fd: message longer than %zu bytes",
				    cap);
	}
	return 0;
}

int ct_recv_fd(int sock, int *fd, void *data, size_t *len, struct ct_error *err)
{
	/* Without a buffer the payload is read into scratch and dropped: reading nothing at
	 * all would return 0 as EOF does and leave the byte that carried the fd queued. */
	char scratch;
	bool want_data = data && len && *len > 0;
	struct iovec iov = {.iov_base = want_data ? data : &scratch,
			    .iov_len = want_data ? *len : sizeof(scratch)};
	union few_fds_cmsg ctl;
	memset(&ctl, 0, sizeof(ctl));
	struct msghdr msg = {.msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf)};
	*fd = -1;

	ssize_t n = recvmsg_retrying(sock, &msg);
	if (n < 0)
		return ct_error_set(err, errno, "receive fd");
	size_t nfds;
	int got = take_passed_fd(&msg, &nfds);
	if (check_whole_message(&msg, got, nfds, want_data, iov.iov_len, err) < 0)
		return -1;
	*fd = got;
	if (len)
		*len = (size_t)n;
	return 0;
}
