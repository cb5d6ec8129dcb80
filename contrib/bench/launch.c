/* launch [-e ERRFILE]: what the bench times. Reads commands from stdin (each argument ended
 * by a NUL byte, each command by an empty argument), starts them all at once and waits for
 * them all; prints the wall time in ns from the first start to the last exit, then each
 * command's exit status (128 + the signal when killed), one line each, in the order given.
 * The commands get /dev/null as stdin and stdout and ERRFILE (appended) or /dev/null as
 * stderr. Why not Python: Popen's CPU per process is of the order of a ctrun command's,
 * and a burst of runs would be started one Popen after the other, on one of the CPUs the
 * runs share. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CMDS 256
#define MAX_ARGS 64

struct command {
	char *argv[MAX_ARGS + 1];
	pid_t pid;
	int status;
};

static struct command cmds[MAX_CMDS];

/* All of stdin, NUL-terminated: input whose last argument lacks its NUL must not send
 * parse_commands' strlen past what was read. */
static char *read_stdin(size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	ssize_t got;
	while (buf && (got = read(0, buf + n, cap - 1 - n)) > 0) {
		n += (size_t)got;
		if (n == cap - 1) {
			char *grown = realloc(buf, cap *= 2);
			if (!grown)
				free(buf);
			buf = grown;
		}
	}
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/* Splits buf into commands; returns how many, or -1 when there are too many. */
static int parse_commands(char *buf, size_t len)
{
	int n = 0, argc = 0;
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1) {
		if (buf[i] != '\0') {
			if (n == MAX_CMDS || argc == MAX_ARGS)
				return -1;
			cmds[n].argv[argc++] = buf + i;
		} else if (argc > 0) {
			cmds[n++].argv[argc] = NULL;
			argc = 0;
		}
	}
	return n;
}

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int exit_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void reap_all(int n)
{
	int status;
	pid_t pid;
	while ((pid = wait(&status)) > 0 || (pid < 0 && errno == EINTR))
		for (int i = 0; i < n; i++)
			if (cmds[i].pid == pid)
				cmds[i].status = exit_status(status);
}

int main(int argc, char **argv)
{
	const char *errfile = "/dev/null";
	int opt;
	while ((opt = getopt(argc, argv, "e:")) != -1) {
		if (opt != 'e') {
			fprintf(stderr, "usage: launch [-e ERRFILE] < commands\n");
			return 2;
		}
		errfile = optarg;
	}
	size_t len;
	char *buf = read_stdin(&len);
	int n = buf ? parse_commands(buf, len) : -1;
	int null = openat(AT_FDCWD, "/dev/null", O_RDWR | O_CLOEXEC);
	int err = openat(AT_FDCWD, errfile, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (n <= 0 || null < 0 || err < 0) {
		fprintf(stderr, "launch: %s\n",
			n < 0	 ? "too many commands or arguments"
			: n == 0 ? "no command on stdin"
				 : strerror(errno));
		return 2;
	}
	long long start = now_ns();
	for (int i = 0; i < n; i++) {
		cmds[i].pid = vfork();
		if (cmds[i].pid == 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(err, 2);
			execvp(cmds[i].argv[0], cmds[i].argv);
			_exit(127);
		}
		cmds[i].status = cmds[i].pid < 0 ? 127 : -1;
	}
	reap_all(n);
	printf("%lld\n", now_ns() - start);
	for (int i = 0; i < n; i++)
		printf("%d\n", cmds[i].status);
	return 0;
}
