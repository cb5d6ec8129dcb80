#include "libct/plan/sync.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/fdpass.h"
#include "libct/plan/sync_decode.h"
#include "libct/plan/sync_phase.h"

int ct_sync_pair(int fds[2], struct ct_error *err)
{
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) < 0)
		return ct_error_sys(err, errno, "create sync socket");
	return 0;
}

int ct_sync_send(int sock, const struct ct_sync_msg *msg, struct ct_error *err)
{
	size_t len = ct_sync_wire_len(msg);
	for (;;) {
		ssize_t n = send(sock, msg, len, MSG_NOSIGNAL);
		if (n >= 0)
			return 0;
		if (errno != EINTR)
			return ct_error_sys(err, errno, "send sync message %s", ct_sync_name(msg->type));
	}
}

/* Up to CT_SYNC_TEXT_MAX bytes of s, without a NUL. */
static void set_text(struct ct_sync_text *t, const char *s)
{
	size_t n = strnlen(s, CT_SYNC_TEXT_MAX);
	memcpy(t->text, s, n);
	t->len = (uint16_t)n;
}

int ct_sync_send_ready(int sock, const char *note, struct ct_error *err)
{
	struct ct_sync_msg msg = {.type = CT_SYNC_READY};
	set_text(&msg.note, note ? note : "");
	return ct_sync_send(sock, &msg, err);
}

void ct_sync_error_msg(struct ct_sync_msg *msg, uint32_t type, const struct ct_error *cause)
{
	*msg = (struct ct_sync_msg){.type = type};
	/* an ERROR says why: a cause without an errno or a message still makes one */
	msg->error.errnum = cause->errnum > 0 && cause->errnum <= 4095 ? cause->errnum : EPROTO;
	set_text(&msg->error.message, cause->msg[0] ? cause->msg : "failed without a message");
}

int ct_sync_send_error(int sock, const struct ct_error *cause)
{
	return ct_sync_send_error_typed(sock, CT_SYNC_ERROR, cause);
}

int ct_sync_send_error_typed(int sock, uint32_t type, const struct ct_error *cause)
{
	struct ct_sync_msg msg;
	ct_sync_error_msg(&msg, type, cause);
	return ct_sync_send(sock, &msg, NULL);
}

/* A failed send of a message with fds, named as the others' are. */
static int failed_send(const struct ct_sync_msg *msg, struct ct_error *err)
{
	return ct_error_prefix(err, "send sync message %s", ct_sync_name(msg->type));
}

static int send_typed_fd(int sock, uint32_t type, int fd, struct ct_error *err)
{
	struct ct_sync_msg msg = {.type = type};
	if (ct_send_fd(sock, fd, &msg, ct_sync_wire_len(&msg), err) < 0)
		return failed_send(&msg, err);
	return 0;
}

int ct_sync_send_root_bind(int sock, int root, struct ct_error *err)
{
	return send_typed_fd(sock, CT_SYNC_ROOT_BIND, root, err);
}

int ct_sync_send_pty_master(int sock, int master, struct ct_error *err)
{
	return send_typed_fd(sock, CT_SYNC_PTY_MASTER, master, err);
}

int ct_sync_send_seccomp_fd(int sock, int listener, struct ct_error *err)
{
	return send_typed_fd(sock, CT_SYNC_SECCOMP_FD, listener, err);
}

int ct_sync_send_net_devices(int sock, int rtnl, struct ct_error *err)
{
	return send_typed_fd(sock, CT_SYNC_NET_DEVICES, rtnl, err);
}

/* A peer that closed its end with a message of ours unread (START sent ahead of READY,
 * libct/parent/spawn.c) makes the kernel report ECONNRESET once, ahead of the messages it sent
 * before it went (its ERROR): those come on the next receive, then EOF. */
static int recv_past_reset(int sock, int *fds, size_t max, size_t *n, void *buf, size_t *len,
			   struct ct_error *err)
{
	for (int tries = 0;; tries++) {
		size_t cap = *len;
		if (ct_recv_fds(sock, fds, max, n, buf, len, err) == 0) {
			if (tries > 0) /* the reset is behind us: nothing went wrong */
				*err = (struct ct_error){0};
			return 0;
		}
		*len = cap;
		if (err->errnum != ECONNRESET || tries > 0)
			return ct_error_prefix(err, "receive sync message");
	}
}

/* One record, decoded; the fds that came with a record refused are closed. */
static int recv_msg(int sock, int *fds, size_t max, size_t *n, struct ct_sync_msg *msg,
		    struct ct_error *err)
{
	union {
		char bytes[CT_SYNC_WIRE_MAX];
		struct ct_sync_msg aligned;
	} buf;
	size_t len = sizeof(buf.bytes);
	if (recv_past_reset(sock, fds, max, n, buf.bytes, &len, err) < 0)
		return -1;
	if (ct_sync_decode(buf.bytes, len, *n, msg, err) == 0)
		return 0;
	for (size_t i = 0; i < *n; i++)
		ct_close_now(&fds[i]);
	*n = 0;
	return -1;
}

int ct_sync_recv(int sock, struct ct_sync_msg *msg, int *fd, struct ct_error *err)
{
	size_t n;
	return recv_msg(sock, fd, 1, &n, msg, err);
}

int ct_sync_send_userns_ready(int sock, struct ct_error *err)
{
	struct ct_sync_msg msg = {.type = CT_SYNC_USERNS_READY};
	return ct_sync_send(sock, &msg, err);
}

int ct_sync_send_cgroup_ready(int sock, struct ct_error *err)
{
	struct ct_sync_msg msg = {.type = CT_SYNC_CGROUP_READY};
	return ct_sync_send(sock, &msg, err);
}

int ct_sync_send_cgroup_ready_fds(int sock, const int *fds, size_t n, struct ct_error *err)
{
	struct ct_sync_msg msg = {.type = CT_SYNC_CGROUP_READY};
	if (ct_send_fds(sock, fds, n, &msg, ct_sync_wire_len(&msg), err) < 0)
		return failed_send(&msg, err);
	return 0;
}

int ct_sync_send_init_pidfd(int sock, int pidfd, pid_t pid, const char *method,
			    struct ct_error *err)
{
	struct ct_sync_msg msg = {.type = CT_SYNC_INIT_PIDFD, .init_pidfd.pid = (int32_t)pid};
	snprintf(msg.init_pidfd.method, sizeof(msg.init_pidfd.method), "%s", method);
	if (ct_send_fd(sock, pidfd, &msg, ct_sync_wire_len(&msg), err) < 0)
		return failed_send(&msg, err);
	return 0;
}

int ct_sync_expect(int sock, uint32_t type, const char *what, struct ct_error *err)
{
	struct ct_sync_msg msg;
	int fd;
	if (ct_sync_recv(sock, &msg, &fd, err) < 0)
		return -1;
	ct_close_now(&fd); /* none is expected */
	if (msg.type != type)
		return ct_error_plain(err, ECANCELED, "runtime went away before %s", what);
	return 0;
}

int ct_sync_expect_fds(int sock, uint32_t type, const char *what, int *fds, size_t max, size_t *n,
		       struct ct_error *err)
{
	struct ct_sync_msg msg;
	if (recv_msg(sock, fds, max, n, &msg, err) < 0)
		return -1;
	if (msg.type == type)
		return 0;
	for (size_t i = 0; i < *n; i++)
		ct_close_now(&fds[i]);
	*n = 0;
	return ct_error_plain(err, ECANCELED, "runtime went away before %s", what);
}

static int send_type(int sock, uint32_t type, struct ct_error *err)
{
	struct ct_sync_msg msg = {.type = type};
	return ct_sync_send(sock, &msg, err);
}

int ct_sync_send_create_hooks(int sock, struct ct_error *err)
{
	return send_type(sock, CT_SYNC_CREATE_HOOKS, err);
}

int ct_sync_send_hooks_done(int sock, struct ct_error *err)
{
	return send_type(sock, CT_SYNC_HOOKS_DONE, err);
}

int ct_sync_send_net_devices_done(int sock, struct ct_error *err)
{
	return send_type(sock, CT_SYNC_NET_DEVICES_DONE, err);
}

int ct_sync_send_created(int sock, struct ct_error *err)
{
	return send_type(sock, CT_SYNC_CREATED, err);
}

int ct_sync_send_started(int sock, struct ct_error *err)
{
	return send_type(sock, CT_SYNC_STARTED, err);
}

/* One record per write: a pipe write of at most PIPE_BUF bytes is never split or
 * interleaved, so the reader gets it whole in one read. */
_Static_assert(CT_SYNC_WIRE_MAX <= 4096, "one atomic fifo write (PIPE_BUF)");

int ct_sync_fifo_write(int fd, const struct ct_sync_msg *msg, struct ct_error *err)
{
	size_t len = ct_sync_wire_len(msg);
	ssize_t n;
	while ((n = write(fd, msg, len)) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)len)
		return ct_error_sys(err, n < 0 ? errno : EIO, "write exec fifo");
	return 0;
}

int ct_sync_fifo_read(int fd, struct ct_sync_msg *msg, struct ct_error *err)
{
	/* one byte more than any record: a longer one is seen, not cut */
	union {
		char bytes[CT_SYNC_WIRE_MAX + 1];
		struct ct_sync_msg aligned;
	} buf;
	ssize_t n;
	while ((n = read(fd, buf.bytes, sizeof(buf.bytes))) < 0 && errno == EINTR)
		;
	if (n < 0)
		return ct_error_sys(err, errno, "read exec fifo");
	if (ct_sync_decode(buf.bytes, (size_t)n, 0, msg, err) < 0)
		return ct_error_prefix(err, "read exec fifo");
	return 0;
}
