/* A seccomp agent for the tests of SCMP_ACT_NOTIFY with linux.seccomp.listenerPath:
 *
 *   seccomp_listener SOCKET STATE_FILE ANSWER [hold]
 *
 * Listens on SOCKET (AF_UNIX, SOCK_STREAM), prints "ready", accepts one connection from the
 * runtime and receives the notify fd with the container process state, which it writes to
 * STATE_FILE (through a rename, so a reader sees all of it or nothing). Then it answers
 * every notified syscall: ANSWER 0 as a success that did nothing, "continue" by letting
 * the kernel run the call (SECCOMP_USER_NOTIF_FLAG_CONTINUE), else as that errno; it prints
 * "answered NAME" for each. With "hold" it first prints "holding NAME PID" (PID in its own
 * pid namespace) and keeps the caller in the syscall until it gets SIGUSR1. It exits when
 * the container is gone (the fd hangs up), or after 30 s whatever happens, so a failed test
 * leaves no process. */
#include <errno.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "libct/base/fdpass.h"

#define STATE_MAX  65536
#define DEADLINE_S 30

static int listen_on(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0 || bind(sock, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(sock, 1) < 0) {
		perror("seccomp_listener: listen");
		exit(1);
	}
	return sock;
}

/* The state may come in several reads; the runtime closes the connection after it. */
static int receive_state(int conn, char *buf, size_t size)
{
	struct ct_error err = {0};
	size_t len = size - 1;
	int fd;
	if (ct_recv_fd(conn, &fd, buf, &len, &err) < 0 || fd < 0) {
		fprintf(stderr, "seccomp_listener: no fd: %s\n", err.msg);
		exit(1);
	}
	ssize_t n;
	while (len < size - 1 && (n = read(conn, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	return fd;
}

static void write_state(const char *path, const char *json)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fputs(json, f) < 0 || fclose(f) != 0 || rename(tmp, path) < 0) {
		perror("seccomp_listener: write state");
		exit(1);
	}
}

struct answer {
	int errnum;    /* 0: a success that did nothing */
	bool carry_on; /* the kernel runs the call */
	bool hold;     /* only once SIGUSR1 came */
};

/* Blocked from the start, so a SIGUSR1 sent before the hold waits for it. */
static void wait_for_release(const char *name, unsigned pid)
{
	printf("holding %s %u\n", name, pid);
	fflush(stdout);
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	int sig;
	sigwait(&usr1, &sig);
}

static void answer_one(int fd, const struct answer *answer)
{
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	if (seccomp_notify_alloc(&req, &resp) < 0)
		exit(1);
	if (seccomp_notify_receive(fd, req) == 0) {
		resp->id = req->id;
		resp->error = answer->errnum ? -answer->errnum : 0;
		resp->val = 0;
		resp->flags = answer->carry_on ? SECCOMP_USER_NOTIF_FLAG_CONTINUE : 0;
		char *name = seccomp_syscall_resolve_num_arch(req->data.arch, req->data.nr);
		if (answer->hold)
			wait_for_release(name ? name : "?", req->pid);
		/* the target may have died meanwhile (ENOENT): nothing to answer then */
		if (seccomp_notify_respond(fd, resp) == 0)
			printf("answered %s\n", name ? name : "?");
		free(name);
		fflush(stdout);
	}
	seccomp_notify_free(req, resp);
}

static void serve(int fd, const struct answer *answer)
{
	time_t end = time(NULL) + DEADLINE_S;
	while (time(NULL) < end) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, 200) < 0 && errno != EINTR)
			break;
		if (p.revents & POLLIN)
			answer_one(fd, answer);
		else if (p.revents & (POLLHUP | POLLERR))
			break;
	}
}

int main(int argc, char **argv)
{
	bool hold = argc == 5 && strcmp(argv[4], "hold") == 0;
	if (argc != 4 && !hold) {
		fprintf(stderr, "usage: seccomp_listener SOCKET STATE_FILE ANSWER [hold]\n");
		return 2;
	}
	bool carry_on = strcmp(argv[3], "continue") == 0;
	struct answer answer = {carry_on ? 0 : atoi(argv[3]), carry_on, hold};
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	int sock = listen_on(argv[1]);
	printf("ready\n");
	fflush(stdout);
	alarm(DEADLINE_S);
	int conn = accept4(sock, NULL, NULL, SOCK_CLOEXEC);
	if (conn < 0) {
		perror("seccomp_listener: accept");
		return 1;
	}
	static char state[STATE_MAX];
	int fd = receive_state(conn, state, sizeof(state));
	close(conn);
	close(sock);
	unlink(argv[1]);
	write_state(argv[2], state);
	serve(fd, &answer);
	return 0;
}
