/* console_receiver SOCKET_PATH [--input TEXT] [--winsize] [--timeout SECONDS]
 *
 * Plays conmon's part for tests of process.terminal: listens on SOCKET_PATH (a stale file
 * there is removed first), prints "ready" once the socket accepts connections, takes the
 * pty master that `ctrun create --console-socket SOCKET_PATH` sends, then
 *   --winsize       prints "winsize ROWS COLS" as the master reports it,
 *   --input TEXT    writes TEXT to the master (\n \r \t \\ and \xHH are unescaped, so a
 *                   test can type "echo hi\n" or end the input with ^D as "\x04"),
 * and copies everything the container writes to its terminal to stdout until the last
 * slave closes (EIO on the master). An alarm (default 30 s) ends it if that never happens,
 * so a test never hangs. Exit status: 0 after EIO/EOF, 1 on any error, 2 on timeout.
 *
 * Self-contained on purpose: it is the other side of the socket and must not share ctrun's
 * code, or a bug common to both ends would pass unseen. */
#ifndef _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include "libct/base/hex.h"

struct options {
	const char *socket_path;
	const char *input;
	bool winsize;
	unsigned timeout;
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("console_receiver: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void usage(void)
{
	die("usage: console_receiver SOCKET_PATH [--input TEXT] [--winsize] [--timeout SECONDS]");
}

static struct options parse_options(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"input", required_argument, NULL, 'i'},
		{"winsize", no_argument, NULL, 'w'},
		{"timeout", required_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	struct options o = {.timeout = 30};
	int c;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'i')
			o.input = optarg;
		else if (c == 'w')
			o.winsize = true;
		else if (c == 't')
			o.timeout = (unsigned)strtoul(optarg, NULL, 10);
		else
			usage();
	}
	if (optind != argc - 1)
		usage();
	o.socket_path = argv[optind];
	return o;
}

/* Unescapes in place; returns the length (the text may hold NUL as \x00). */
static size_t unescape(char *s)
{
	char *out = s;
	for (const char *in = s; *in; in++) {
		if (*in != '\\' || !in[1]) {
			*out++ = *in;
			continue;
		}
		in++;
		if (*in == 'n')
			*out++ = '\n';
		else if (*in == 'r')
			*out++ = '\r';
		else if (*in == 't')
			*out++ = '\t';
		else if (*in == 'x' && ct_hex_digit(in[1]) >= 0 && ct_hex_digit(in[2]) >= 0) {
			*out++ = (char)(ct_hex_digit(in[1]) * 16 + ct_hex_digit(in[2]));
			in += 2;
		} else
			*out++ = *in;
	}
	return (size_t)(out - s);
}

static int listen_on(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(addr.sun_path))
		die("socket path too long: %s", path);
	strcpy(addr.sun_path, path);
	if (unlink(path) < 0 && errno != ENOENT)
		die("unlink %s: %m", path);
	int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		die("socket: %m");
	if (bind(sock, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		die("bind %s: %m", path);
	if (listen(sock, 1) < 0)
		die("listen %s: %m", path);
	return sock;
}

static int accept_one(int sock)
{
	int conn;
	do
		conn = accept4(sock, NULL, NULL, SOCK_CLOEXEC);
	while (conn < 0 && errno == EINTR);
	if (conn < 0)
		die("accept: %m");
	return conn;
}

/* The runtime sends the master's name as data (runc: "/dev/ptmx") and the fd as
 * SCM_RIGHTS; like conmon, only the fd matters. */
static int receive_master(int conn)
{
	char name[4096];
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {.iov_base = name, .iov_len = sizeof(name)};
	struct msghdr msg = {.msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf)};
	ssize_t n;
	do
		n = recvmsg(conn, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		die("recvmsg: %m");
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(int)))
		die("the message (%zd bytes) carried no fd", n);
	int fd;
	memcpy(&fd, CMSG_DATA(c), sizeof(fd));
	return fd;
}

static void write_all(int fd, const char *buf, size_t len, const char *what)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("write %s: %m", what);
		buf += n;
		len -= (size_t)n;
	}
}

static void print_winsize(int master)
{
	struct winsize ws;
	if (ioctl(master, TIOCGWINSZ, &ws) < 0)
		die("TIOCGWINSZ: %m");
	char line[64];
	int n = snprintf(line, sizeof(line), "winsize %u %u\n", ws.ws_row, ws.ws_col);
	write_all(STDOUT_FILENO, line, (size_t)n, "stdout");
}

/* EIO is how a pty master says the last slave closed: the container has exited. */
static void copy_until_hangup(int master)
{
	char buf[4096];
	for (;;) {
		ssize_t n = read(master, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (n < 0 && errno == EIO))
			return;
		if (n < 0)
			die("read the pty master: %m");
		write_all(STDOUT_FILENO, buf, (size_t)n, "stdout");
	}
}

static const char *socket_to_remove;

/* Only async-signal-safe calls: the alarm may come at any point. */
static void on_timeout(int sig)
{
	(void)sig;
	static const char msg[] = "console_receiver: timed out\n";
	if (socket_to_remove)
		unlink(socket_to_remove);
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing left to tell anyone */
	}
	_exit(2);
}

int main(int argc, char **argv)
{
	struct options o = parse_options(argc, argv);
	socket_to_remove = o.socket_path;
	signal(SIGALRM, on_timeout);
	alarm(o.timeout);

	int sock = listen_on(o.socket_path);
	write_all(STDOUT_FILENO, "ready\n", 6, "stdout");
	int conn = accept_one(sock);
	int master = receive_master(conn);
	close(conn);
	close(sock);
	unlink(o.socket_path);
	socket_to_remove = NULL;

	if (o.winsize)
		print_winsize(master);
	if (o.input) {
		char *text = strdup(o.input);
		if (!text)
			die("out of memory");
		write_all(master, text, unescape(text), "the pty master");
		free(text);
	}
	copy_until_hangup(master);
	close(master);
	return 0;
}
