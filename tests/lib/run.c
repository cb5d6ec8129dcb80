/* Runs a program with pipes on its stdin, stdout and stderr and a deadline, so that a hung
 * program fails its test instead of hanging the suite. */
#include "tests/lib/testlib.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libct/base/readall.h"

extern char **environ;

struct buffer {
	char *data;
	size_t len, cap;
};

/* The parent's side of one run. */
struct run {
	pid_t pid;
	int pidfd;	   /* -1 when the kernel has no pidfd_open: then we poll in slices */
	int in, out, err;  /* parent's pipe ends, -1 once closed */
	const char *input; /* what is left to write */
	size_t input_left;
	struct buffer bout, berr;
	bool exited;
	int wstatus;
};

static void buffer_append(struct buffer *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->data = realloc(b->data, cap);
		cr_assert_not_null(b->data, "out of memory");
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

char **ctt_env_with(const char *const *extra)
{
	size_t n = 0, m = 0;
	while (environ[n])
		n++;
	while (extra && extra[m])
		m++;
	char **env = calloc(n + m + 1, sizeof(*env));
	cr_assert_not_null(env, "out of memory");
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t name_len = strcspn(environ[i], "=");
		bool overridden = false;
		for (size_t j = 0; j < m; j++)
			if (strncmp(extra[j], environ[i], name_len + 1) == 0)
				overridden = true;
		if (!overridden)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < m; j++)
		env[k++] = (char *)extra[j];
	return env;
}

static void make_pipe(int fds[2])
{
	cr_assert_eq(pipe2(fds, O_CLOEXEC), 0, "pipe2: %s", strerror(errno));
}

/* What a child gets before it execs: its stdio, an optional fd 3 and working directory. */
struct ctt_child {
	int in, out, err;
	int fd3;	 /* -1: none */
	const char *cwd; /* NULL: the test's */
	bool own_group;	 /* in a process group of its own (what a timeout kills) */
};

/* In the child: never returns. Only async-signal-safe calls. */
static void exec_child(const struct ctt_child *c, const char *const *argv, char *const *env)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL); /* ctt_run ignores it; SIG_IGN would survive execve */
	if (c->own_group)
		setpgid(0, 0); /* so a timeout kills what it started too */
	if (dup2(c->in, 0) < 0 || dup2(c->out, 1) < 0 || dup2(c->err, 2) < 0 ||
	    (c->fd3 >= 0 && dup2(c->fd3, 3) < 0))
		_exit(127);
	if (c->cwd && chdir(c->cwd) < 0) {
		static const char msg[] = "ctt_run: chdir failed\n";
		(void)!write(2, msg, sizeof(msg) - 1);
		_exit(127);
	}
	execvpe(argv[0], (char *const *)argv, env);
	static const char msg[] = "ctt_run: exec failed\n";
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(127);
}

static void start(struct run *r, const struct ctt_run_opts *opts, const char *const *argv)
{
	int pin[2] = {-1, -1}, pout[2], perr[2];
	if (opts->input)
		make_pipe(pin);
	else
		pin[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	cr_assert_geq(pin[0], 0, "stdin: %s", strerror(errno));
	make_pipe(pout);
	make_pipe(perr);
	char **env = ctt_env_with(opts->env);
	struct ctt_child child = {.in = pin[0],
				  .out = pout[1],
				  .err = perr[1],
				  .fd3 = -1,
				  .cwd = opts->cwd,
				  .own_group = true};
	r->pid = fork();
	cr_assert_geq(r->pid, 0, "fork: %s", strerror(errno));
	if (r->pid == 0)
		exec_child(&child, argv, env);
	free(env);
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	r->in = pin[1];
	r->out = pout[0];
	r->err = perr[0];
	r->input = opts->input;
	r->input_left = opts->input ? (opts->input_len ? opts->input_len : strlen(opts->input)) : 0;
	if (r->in >= 0 && r->input_left == 0)
		close_fd(&r->in);
	r->pidfd = (int)syscall(SYS_pidfd_open, r->pid, 0);
	int fds[] = {r->in, r->out, r->err};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] >= 0)
			fcntl(fds[i], F_SETFL, O_NONBLOCK);
}

static void take_into_buffer(void *b, const char *data, size_t len)
{
	buffer_append(b, data, len);
}

/* Reads what is there now; closes the fd at EOF. */
static void drain(int *fd, struct buffer *b)
{
	ct_read_available(fd, take_into_buffer, b);
}

static void feed_input(struct run *r)
{
	ssize_t n = write(r->in, r->input, r->input_left);
	if (n > 0) {
		r->input += n;
		r->input_left -= (size_t)n;
	}
	if (r->input_left == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		close_fd(&r->in); /* all written, or the program closed its stdin (EPIPE) */
}

static void try_reap(struct run *r)
{
	if (!r->exited && waitpid(r->pid, &r->wstatus, WNOHANG) == r->pid)
		r->exited = true;
}

/* One poll round of at most slice_ms. */
static void step(struct run *r, int slice_ms)
{
	struct pollfd p[4];
	int n = 0;
	if (r->in >= 0)
		p[n++] = (struct pollfd){.fd = r->in, .events = POLLOUT};
	if (r->out >= 0)
		p[n++] = (struct pollfd){.fd = r->out, .events = POLLIN};
	if (r->err >= 0)
		p[n++] = (struct pollfd){.fd = r->err, .events = POLLIN};
	if (r->pidfd >= 0)
		p[n++] = (struct pollfd){.fd = r->pidfd, .events = POLLIN};
	if (r->pidfd < 0 && slice_ms > 10)
		slice_ms = 10; /* no pidfd: notice the exit by polling waitpid */
	if (poll(p, (nfds_t)n, slice_ms) < 0 && errno != EINTR)
		cr_assert_fail("poll: %s", strerror(errno));
	if (r->in >= 0)
		feed_input(r);
	drain(&r->out, &r->bout);
	drain(&r->err, &r->berr);
	try_reap(r);
}

static void finish(struct run *r, struct ctt_result *res)
{
	drain(&r->out, &r->bout);
	drain(&r->err, &r->berr);
	close_fd(&r->in);
	close_fd(&r->out);
	close_fd(&r->err);
	close_fd(&r->pidfd);
	res->out = r->bout.data ? r->bout.data : strdup("");
	res->err = r->berr.data ? r->berr.data : strdup("");
	res->out_len = r->bout.len;
	res->err_len = r->berr.len;
	if (WIFSIGNALED(r->wstatus)) {
		res->signal = WTERMSIG(r->wstatus);
		res->status = 128 + res->signal;
	} else {
		res->status = WEXITSTATUS(r->wstatus);
	}
}

int ctt_run(struct ctt_result *res, const struct ctt_run_opts *opts, const char *const *argv)
{
	static const struct ctt_run_opts defaults;
	if (!opts)
		opts = &defaults;
	memset(res, 0, sizeof(*res));
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigaction(SIGPIPE, &ign, &old); /* a program that closes stdin early is no crash */

	struct run r = {.in = -1, .out = -1, .err = -1, .pidfd = -1};
	start(&r, opts, argv);
	long long deadline =
		now_ms() + (opts->timeout_ms ? opts->timeout_ms : CTT_DEFAULT_TIMEOUT_MS);
	while (!r.exited) {
		long long left = deadline - now_ms();
		if (left <= 0) {
			kill(-r.pid, SIGKILL);
			kill(r.pid, SIGKILL);
			res->timed_out = true;
			waitpid(r.pid, &r.wstatus, 0);
			r.exited = true;
			break;
		}
		step(&r, left > 1000 ? 1000 : (int)left);
	}
	finish(&r, res);
	sigaction(SIGPIPE, &old, NULL);
	if (res->timed_out && !opts->allow_timeout)
		cr_assert_fail("%s timed out after %u ms\nstdout: %s\nstderr: %s", argv[0],
			       opts->timeout_ms ? opts->timeout_ms : CTT_DEFAULT_TIMEOUT_MS,
			       res->out, res->err);
	return res->status;
}

const char *ctt_ctrun_path(void)
{
	const char *path = getenv("CTRUN");
	if (!path || !*path)
		cr_assert_fail(
			"CTRUN is not set: run the integration tests with `make integration`");
	return path;
}

const char *ctt_helper(const char *name)
{
	static char path[4][4096];
	static unsigned next;
	const char *dir = getenv("CTRUN_HELPERS");
	if (!dir || !*dir)
		cr_assert_fail("CTRUN_HELPERS is not set: run the tests with `make integration`");
	char *p = path[next++ % 4];
	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	cr_assert(access(p, X_OK) == 0, "%s is not built", p);
	return p;
}

int ctt_ctrunv(struct ctt_result *res, const struct ctt_run_opts *opts, const char *const *args)
{
	size_t n = 0;
	while (args[n])
		n++;
	const char **argv = calloc(n + 2, sizeof(*argv));
	cr_assert_not_null(argv, "out of memory");
	argv[0] = ctt_ctrun_path();
	memcpy(argv + 1, args, n * sizeof(*argv));
	int status = ctt_run(res, opts, argv);
	free(argv);
	return status;
}

int ctt_ctrun(struct ctt_result *res, const struct ctt_run_opts *opts, ...)
{
	const char *args[64];
	size_t n = 0;
	va_list ap;
	va_start(ap, opts);
	while ((args[n] = va_arg(ap, const char *)) != NULL) {
		n++;
		cr_assert_lt(n, sizeof(args) / sizeof(args[0]), "ctt_ctrun: too many arguments");
	}
	va_end(ap);
	return ctt_ctrunv(res, opts, args);
}

void ctt_result_free(struct ctt_result *res)
{
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
}

unsigned ctt_count_lines(const char *s)
{
	unsigned n = 0;
	for (; *s; s++)
		if (*s == '\n' || s[1] == '\0')
			n++;
	return n;
}

pid_t ctt_fork_exec(const char *const *argv, char *const *env, const char *in_file, const char *out,
		    const char *err, int fd3)
{
	struct ctt_child c = {
		.in = open(in_file, O_RDONLY | O_CLOEXEC),
		.out = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644),
		.err = open(err, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644),
		.fd3 = fd3,
	};
	cr_assert(c.in >= 0 && c.out >= 0 && c.err >= 0, "open \"%s\", \"%s\", \"%s\": %s", in_file,
		  out, err, strerror(errno));
	pid_t pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0)
		exec_child(&c, argv, env ? env : environ);
	close(c.in);
	close(c.out);
	close(c.err);
	return pid;
}

char *ctt_which(const char *name)
{
	const char *path = getenv("PATH");
	char *dirs = strdup(path && *path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
	cr_assert_not_null(dirs, "out of memory");
	char *found = NULL;
	for (char *save, *d = strtok_r(dirs, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		char *candidate = ctt_path(d, name);
		if (access(candidate, X_OK) == 0)
			found = candidate;
		else
			free(candidate);
	}
	free(dirs);
	return found;
}

void ctt_sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};
	nanosleep(&ts, NULL);
}

bool ctt_matches(const char *text, const char *pattern)
{
	regex_t re;
	cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB | REG_NEWLINE), 0,
		     "bad regex %s", pattern);
	bool ok = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

void ctt_strip_cr(char *s)
{
	char *out = s;
	for (; *s; s++)
		if (*s != '\r')
			*out++ = *s;
	*out = '\0';
}

bool ctt_in_list(const char *list, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (strncmp(p, item, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}
