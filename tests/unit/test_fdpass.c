/* Passing an fd with SCM_RIGHTS: the way the pty master leaves the container. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/fdpass.h"

static void make_pair(int type, int sv[2])
{
	cr_assert_eq(socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, sv), 0, "socketpair: %s",
		     strerror(errno));
}

static int open_some_file(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open /proc/self/exe: %s", strerror(errno));
	return fd;
}

/* A connected pair of the given type and an open file to pass over it. */
static int pair_and_file(int type, int sv[2])
{
	make_pair(type, sv);
	return open_some_file();
}

static void send_ok(int sock, int fd, const void *payload, size_t len)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_send_fd(sock, fd, payload, len, &err), 0, "%s", err.msg);
}

/* Receives one message that must succeed; its fd (-1: none) and payload into buf/len. */
static int recv_ok(int sock, char *buf, size_t *len)
{
	struct ct_error err = {0};
	int got = -2; /* neither an fd nor the -1 of no fd: left as is, it fails either check */
	cr_assert_eq(ct_recv_fd(sock, &got, buf, len, &err), 0, "%s", err.msg);
	return got;
}

static void assert_same_file(int a, int b)
{
	struct stat sa, sb;
	cr_assert_eq(fstat(a, &sa), 0);
	cr_assert_eq(fstat(b, &sb), 0);
	cr_expect_eq(sa.st_dev, sb.st_dev);
	cr_expect_eq(sa.st_ino, sb.st_ino);
}

Test(fdpass, received_fd_is_the_same_file)
{
	int sv[2], file = pair_and_file(SOCK_STREAM, sv);
	send_ok(sv[0], file, "x", 1);
	char buf[8];
	size_t len = sizeof(buf);
	int got = recv_ok(sv[1], buf, &len);
	cr_assert_geq(got, 0);
	cr_expect_neq(got, file, "a new fd number in the receiving table");
	assert_same_file(file, got);
	cr_expect(fcntl(got, F_GETFD) & FD_CLOEXEC, "received fd is close-on-exec");
	cr_expect_eq(len, 1);
	cr_expect_eq(buf[0], 'x');
}

Test(fdpass, payload_round_trips_with_the_fd)
{
	int sv[2], file = pair_and_file(SOCK_STREAM, sv);
	static const char payload[] = "/dev/ptmx\0tail";
	send_ok(sv[0], file, payload, sizeof(payload));
	char buf[64];
	size_t len = sizeof(buf);
	int got = recv_ok(sv[1], buf, &len);
	cr_expect_eq(len, sizeof(payload));
	cr_expect_eq(memcmp(buf, payload, sizeof(payload)), 0);
	assert_same_file(file, got);
}

Test(fdpass, empty_payload_still_carries_the_fd)
{
	int sv[2], file = pair_and_file(SOCK_STREAM, sv);
	send_ok(sv[0], file, NULL, 0);
	char buf[4];
	size_t len = sizeof(buf);
	assert_same_file(file, recv_ok(sv[1], buf, &len));
	cr_expect_eq(len, 1, "one placeholder byte carried it");
	cr_expect_eq(buf[0], '\0');
}

Test(fdpass, receiver_may_ignore_the_payload)
{
	int sv[2], file = pair_and_file(SOCK_SEQPACKET, sv);
	send_ok(sv[0], file, "ignored", 7);
	assert_same_file(file, recv_ok(sv[1], NULL, NULL));
	send_ok(sv[0], file, "again", 5);
	size_t len = 0;
	assert_same_file(file, recv_ok(sv[1], NULL, &len));
	cr_expect_neq(len, 0, "a dropped payload does not read as EOF");
}

Test(fdpass, message_without_fd_gives_minus_one)
{
	int sv[2];
	make_pair(SOCK_STREAM, sv);
	send_ok(sv[0], -1, "ab", 2);
	char buf[8];
	size_t len = sizeof(buf);
	cr_expect_eq(recv_ok(sv[1], buf, &len), -1);
	cr_expect_eq(len, 2);
	cr_expect_eq(memcmp(buf, "ab", 2), 0);

	/* Plain data written by anyone, not ct_send_fd(). */
	cr_assert_eq(write(sv[0], "z", 1), 1);
	len = sizeof(buf);
	cr_expect_eq(recv_ok(sv[1], buf, &len), -1);
	cr_expect_eq(len, 1);
}

/* EOF is an empty message without fd, which ct_send_fd() never sends. */
static void assert_eof(int sock)
{
	char buf[8];
	size_t len = sizeof(buf);
	cr_expect_eq(recv_ok(sock, buf, &len), -1);
	cr_expect_eq(len, 0);
}

Test(fdpass, peer_closing_reads_as_an_empty_message)
{
	int sv[2];
	make_pair(SOCK_STREAM, sv);
	close(sv[0]);
	assert_eof(sv[1]);
}

Test(fdpass, peer_closing_after_a_message_is_seen_after_it)
{
	int sv[2], file = pair_and_file(SOCK_SEQPACKET, sv);
	send_ok(sv[0], file, "m", 1);
	close(sv[0]);
	char buf[4];
	size_t len = sizeof(buf);
	assert_same_file(file, recv_ok(sv[1], buf, &len));
	assert_eof(sv[1]);
}

Test(fdpass, sending_to_a_closed_peer_is_epipe_without_sigpipe)
{
	int sv[2], file = pair_and_file(SOCK_STREAM, sv);
	close(sv[1]);
	struct ct_error err = {0};
	cr_assert_eq(ct_send_fd(sv[0], file, "x", 1, &err), -1);
	cr_expect_eq(err.errnum, EPIPE);
	char expected[64];
	snprintf(expected, sizeof(expected), "send fd %d: %s", file, strerror(EPIPE));
	cr_expect_str_eq(err.msg, expected);
}

static void send_two_fds(int sock, int a, int b)
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	memset(&ctl, 0, sizeof(ctl));
	int fds[2] = {a, b};
	struct iovec iov = {.iov_base = "2", .iov_len = 1};
	struct msghdr msg = {.msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	cr_assert_eq(sendmsg(sock, &msg, 0), 1, "sendmsg: %s", strerror(errno));
}

/* The lowest free fd number: an fd leaked by a refused message would take it. */
static int lowest_free_fd(void)
{
	int fd = dup(0);
	cr_assert_geq(fd, 0);
	close(fd);
	return fd;
}

/* The next message on sock is refused with errnum (and msg, unless NULL), and the fd that
 * came with it is closed. */
static void assert_refused_and_closed(int sock, int errnum, const char *msg)
{
	int before = lowest_free_fd();
	struct ct_error err = {0};
	int got = 123;
	char buf[4];
	size_t len = sizeof(buf);
	cr_assert_eq(ct_recv_fd(sock, &got, buf, &len, &err), -1);
	cr_expect_eq(got, -1);
	cr_expect_eq(err.errnum, errnum, "%s", err.msg);
	if (msg)
		cr_expect_str_eq(err.msg, msg);
	cr_expect_eq(lowest_free_fd(), before, "an fd leaked");
}

Test(fdpass, two_fds_are_refused_and_closed)
{
	int sv[2], file = pair_and_file(SOCK_STREAM, sv);
	send_two_fds(sv[0], file, file);
	assert_refused_and_closed(sv[1], EBADMSG, "receive fd: more than one fd came");
}

Test(fdpass, message_longer_than_the_buffer_is_refused)
{
	int sv[2], file = pair_and_file(SOCK_SEQPACKET, sv);
	send_ok(sv[0], file, "0123456789", 10);
	assert_refused_and_closed(sv[1], EMSGSIZE, NULL);
}

Test(fdpass, bad_socket_names_the_operation)
{
	struct ct_error err = {0};
	int got = 0;
	cr_assert_eq(ct_recv_fd(-1, &got, NULL, NULL, &err), -1);
	cr_expect_str_eq(err.msg, "receive (recvmsg): Bad file descriptor");
	cr_expect_eq(ct_send_fd(-1, -1, "x", 1, &err), -1);
	cr_expect_str_eq(err.msg, "send message: Bad file descriptor");
}

/* Several fds in one message: how the parent hands the init the `tasks` files of the
 * cgroup directories it made after the clone. */
Test(fdpass, several_fds_arrive_in_order)
{
	int sv[2], a = open_some_file(), b = open("/dev/null", O_RDONLY | O_CLOEXEC);
	make_pair(SOCK_SEQPACKET, sv);
	struct ct_error err = {0};
	int sent[3] = {a, b, a};
	cr_assert_eq(ct_send_fds(sv[0], sent, 3, "abc", 3, &err), 0, "%s", err.msg);

	int got[4];
	size_t n = 0;
	char buf[8];
	size_t len = sizeof(buf);
	cr_assert_eq(ct_recv_fds(sv[1], got, 4, &n, buf, &len, &err), 0, "%s", err.msg);
	cr_assert_eq(n, 3);
	cr_expect_eq(len, 3);
	cr_expect_eq(got[3], -1);
	for (size_t i = 0; i < 3; i++) {
		assert_same_file(got[i], sent[i]);
		cr_expect(fcntl(got[i], F_GETFD) & FD_CLOEXEC, "fd %zu not close-on-exec", i);
		close(got[i]);
	}
}

Test(fdpass, more_fds_than_asked_for_are_refused_and_closed)
{
	int sv[2], file = pair_and_file(SOCK_SEQPACKET, sv);
	struct ct_error err = {0};
	int sent[3] = {file, file, file};
	cr_assert_eq(ct_send_fds(sv[0], sent, 3, "abc", 3, &err), 0, "%s", err.msg);

	int before = lowest_free_fd();
	int got[2];
	size_t n = 9;
	cr_assert_eq(ct_recv_fds(sv[1], got, 2, &n, NULL, NULL, &err), -1);
	cr_expect_eq(n, 0);
	cr_expect_eq(err.errnum, EBADMSG);
	cr_expect_str_eq(err.msg, "receive fds: more than 2 came");
	cr_expect_eq(lowest_free_fd(), before, "no fd leaked");
}

Test(fdpass, too_many_to_send_is_refused)
{
	int fds[CT_FDPASS_MAX + 1];
	for (size_t i = 0; i < CT_FDPASS_MAX + 1; i++)
		fds[i] = 0;
	struct ct_error err = {0};
	cr_assert_eq(ct_send_fds(-1, fds, CT_FDPASS_MAX + 1, "x", 1, &err), -1);
	cr_expect_eq(err.errnum, E2BIG);
}
