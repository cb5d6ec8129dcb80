/* The typed parent/child channel of libct/plan/sync.h over a real socketpair: each message comes
 * out as it went in, an fd travels with PTY_MASTER, and a closed peer reads as EOF. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/plan/sync.h"

/* fds[0] parent end, fds[1] child end. */
static int fds[2] = {-1, -1};

static void open_pair(void)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_sync_pair(fds, &err), 0, "%s", err.msg);
}

static void close_pair(void)
{
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

TestSuite(sync, .init = open_pair, .fini = close_pair);

static void recv_one(int sock, struct ct_sync_msg *msg, int *fd)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_sync_recv(sock, msg, fd, &err), 0, "%s", err.msg);
}

Test(sync, pair_is_close_on_exec_seqpacket)
{
	for (int i = 0; i < 2; i++) {
		cr_expect(fcntl(fds[i], F_GETFD) & FD_CLOEXEC, "fds[%d] is close-on-exec", i);
		int type = 0;
		socklen_t len = sizeof(type);
		cr_assert_eq(getsockopt(fds[i], SOL_SOCKET, SO_TYPE, &type, &len), 0);
		cr_expect_eq(type, SOCK_SEQPACKET, "one record per message");
	}
}

/* Receives the next message, which must be of type; returns the fd that came with it (-1:
 * none). */
static int assert_recv_type(int sock, struct ct_sync_msg *msg, int type)
{
	int fd = -2; /* neither an fd nor the -1 of none: left as is, it fails either check */
	recv_one(sock, msg, &fd);
	cr_expect_eq(msg->type, type, "message type %d, expected %d", msg->type, type);
	return fd;
}

static void send_ready(int sock)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_sync_send_ready(sock, NULL, &err), 0, "%s", err.msg);
}

static void send_start(int sock)
{
	struct ct_sync_msg start = {.type = CT_SYNC_START};
	struct ct_error err = {0};
	cr_assert_eq(ct_sync_send(sock, &start, &err), 0, "%s", err.msg);
}

/* Closes fds[i], as the peer that dies or is done. */
static void close_end(int i)
{
	close(fds[i]);
	fds[i] = -1;
}

Test(sync, ready)
{
	send_ready(fds[1]);
	struct ct_sync_msg msg;
	cr_expect_eq(assert_recv_type(fds[0], &msg, CT_SYNC_READY), -1, "READY carries no fd");
	cr_expect_eq(msg.note.len, 0);
	cr_expect_str_empty(msg.note.text);
}

Test(sync, error_carries_errno_and_text)
{
	struct ct_error cause = {0};
	ct_error_sys(&cause, EPERM, "mount \"proc\" on \"/proc\"");
	cr_assert_eq(ct_sync_send_error(fds[1], &cause), 0);
	struct ct_sync_msg msg;
	cr_expect_eq(assert_recv_type(fds[0], &msg, CT_SYNC_ERROR), -1);
	cr_expect_eq(msg.error.errnum, EPERM);
	cr_expect_str_eq(msg.error.message.text,
			 "mount \"proc\" on \"/proc\": Operation not permitted");
}

Test(sync, error_with_longest_message_arrives_whole)
{
	struct ct_error cause = {.errnum = EIO};
	memset(cause.msg, 'm', sizeof(cause.msg) - 1);
	cause.msg[sizeof(cause.msg) - 1] = '\0';
	cr_assert_eq(ct_sync_send_error(fds[1], &cause), 0);
	struct ct_sync_msg msg;
	assert_recv_type(fds[0], &msg, CT_SYNC_ERROR);
	cr_expect_eq(msg.error.errnum, EIO);
	cr_expect_str_eq(msg.error.message.text, cause.msg);
}

Test(sync, pty_master_carries_the_fd)
{
	char path[] = "/tmp/ct-h8-sync-XXXXXX";
	int file = mkstemp(path);
	cr_assert_geq(file, 0, "mkstemp: %s", strerror(errno));
	unlink(path);
	struct ct_error err = {0};
	cr_assert_eq(ct_sync_send_pty_master(fds[1], file, &err), 0, "%s", err.msg);

	struct ct_sync_msg msg;
	int got = assert_recv_type(fds[0], &msg, CT_SYNC_PTY_MASTER);
	cr_assert_geq(got, 0, "the message brought an fd");
	cr_expect_neq(got, file);
	struct stat want, have;
	cr_assert_eq(fstat(file, &want), 0);
	cr_assert_eq(fstat(got, &have), 0);
	cr_expect_eq(have.st_dev, want.st_dev);
	cr_expect_eq(have.st_ino, want.st_ino, "the received fd is the file that was sent");
	close(got);
	close(file);
}

Test(sync, start_from_parent_to_child)
{
	send_start(fds[0]);
	struct ct_sync_msg msg;
	cr_expect_eq(assert_recv_type(fds[1], &msg, CT_SYNC_START), -1);
}

Test(sync, messages_keep_their_order_and_boundaries)
{
	struct ct_error cause = {0};
	ct_error_plain(&cause, ENOENT, "first");
	cr_assert_eq(ct_sync_send_error(fds[1], &cause), 0);
	send_ready(fds[1]);

	struct ct_sync_msg msg;
	assert_recv_type(fds[0], &msg, CT_SYNC_ERROR);
	cr_expect_str_eq(msg.error.message.text, "first");
	assert_recv_type(fds[0], &msg, CT_SYNC_READY);
	cr_expect_str_empty(msg.note.text, "nothing of the first message leaks into the second");
}

Test(sync, closed_peer_is_eof)
{
	close_end(1);
	struct ct_sync_msg msg;
	memset(&msg, 0x5a, sizeof(msg));
	cr_expect_eq(assert_recv_type(fds[0], &msg, CT_SYNC_EOF), -1);
}

/* A socket closed with messages unread resets its peer: still EOF, not an error. */
Test(sync, peer_closed_with_our_message_unread_is_eof)
{
	send_start(fds[0]);
	close_end(1);
	struct ct_sync_msg msg;
	cr_expect_eq(assert_recv_type(fds[0], &msg, CT_SYNC_EOF), -1);
}

/* The init's ERROR, sent before it exited with our START unread: the reset the kernel
 * reports first does not hide it. */
Test(sync, error_before_a_reset_is_still_read)
{
	send_start(fds[0]);
	struct ct_error cause = {.errnum = EPERM};
	snprintf(cause.msg, sizeof(cause.msg), "mount #7: refused");
	cr_assert_eq(ct_sync_send_error(fds[1], &cause), 0);
	close_end(1);
	struct ct_sync_msg msg;
	assert_recv_type(fds[0], &msg, CT_SYNC_ERROR);
	cr_expect_str_eq(msg.error.message.text, "mount #7: refused");
	assert_recv_type(fds[0], &msg, CT_SYNC_EOF);
}

/* A message sent before dying is not lost. */
Test(sync, eof_after_the_last_message)
{
	send_ready(fds[1]);
	close_end(1);
	struct ct_sync_msg msg;
	assert_recv_type(fds[0], &msg, CT_SYNC_READY);
	assert_recv_type(fds[0], &msg, CT_SYNC_EOF);
}

Test(sync, send_to_a_closed_peer_fails_without_sigpipe)
{
	close_end(0);
	struct ct_error err = {0};
	cr_expect_eq(ct_sync_send_ready(fds[1], NULL, &err), -1);
	cr_expect_eq(err.errnum, EPIPE);
	cr_expect_str_eq(err.msg, "send sync message READY: Broken pipe");
}

Test(sync, hook_messages_in_order)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_sync_send_create_hooks(fds[1], &err), 0, "%s", err.msg);
	cr_assert_eq(ct_sync_send_hooks_done(fds[0], &err), 0, "%s", err.msg);
	cr_assert_eq(ct_sync_send_started(fds[1], &err), 0, "%s", err.msg);
	struct ct_sync_msg msg;
	assert_recv_type(fds[0], &msg, CT_SYNC_CREATE_HOOKS);
	cr_expect_eq(ct_sync_expect(fds[1], CT_SYNC_HOOKS_DONE, "the hooks", &err), 0, "%s",
		     err.msg);
	assert_recv_type(fds[0], &msg, CT_SYNC_STARTED);
}

/* create's last word to the init, then the EOF of its close; an EOF in its place (create
 * killed) is refused as a missing CREATED. */
Test(sync, created_then_eof)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_sync_send_created(fds[0], &err), 0, "%s", err.msg);
	close_end(0);
	cr_expect_eq(ct_sync_expect(fds[1], CT_SYNC_CREATED, "create was done", &err), 0, "%s",
		     err.msg);
	cr_expect_eq(ct_sync_expect(fds[1], CT_SYNC_CREATED, "create was done", &err), -1);
	cr_expect_eq(err.errnum, ECANCELED);
	cr_expect_str_eq(err.msg, "runtime went away before create was done");
}

/* The exec fifo's channel: one whole message, then EOF once the writer is gone. */
Test(sync, fifo_message_then_eof)
{
	int p[2];
	cr_assert_eq(pipe(p), 0);
	struct ct_error err = {0};
	struct ct_sync_msg out, in;
	struct ct_error cause = {.errnum = EPERM};
	snprintf(cause.msg, sizeof(cause.msg),
		 "startContainer hook #0 \"/x\": exited with status 1");
	ct_sync_error_msg(&out, CT_SYNC_ERROR, &cause);
	cr_assert_eq(ct_sync_fifo_write(p[1], &out, &err), 0, "%s", err.msg);
	close(p[1]);
	cr_assert_eq(ct_sync_fifo_read(p[0], &in, &err), 0, "%s", err.msg);
	cr_expect_eq(in.type, CT_SYNC_ERROR);
	cr_expect_eq(in.error.errnum, EPERM);
	cr_expect_str_eq(in.error.message.text, cause.msg);
	cr_assert_eq(ct_sync_fifo_read(p[0], &in, &err), 0, "%s", err.msg);
	cr_expect_eq(in.type, CT_SYNC_EOF);
	close(p[0]);
}

Test(sync, fifo_short_record_is_refused)
{
	int p[2];
	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(write(p[1], "0", 1), 1); /* what an older init wrote */
	close(p[1]);
	struct ct_sync_msg in;
	struct ct_error err = {0};
	cr_expect_eq(ct_sync_fifo_read(p[0], &in, &err), -1);
	cr_expect_str_eq(err.msg, "read exec fifo: sync record of 1 bytes: no message type");
	close(p[0]);
}
