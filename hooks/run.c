/* Running one hook: cloned with a pidfd, the state in a memfd as its stdin, its stdout and
 * stderr into pipes whose ends the error keeps, then one poll over the pidfd, both pipes
 * and the timeout: no busy loop, no thread, no signal handler.
 *
 * Output follows runc: stdout and stderr are both captured; on success they are dropped,
 * on failure their last lines are part of the error (runc's "stdout: ..., stderr: ...").
 * Nothing of the hook reaches ctrun's own stdout, which callers may parse. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hooks/hooks.h"
#include "libct/base/cleanup.h"
#include "libct/base/clone.h"
#include "libct/base/readall.h"
#include "libct/base/syscalls.h"

#define TAIL_LINES 3

const char *const ct_hook_kind_names[CT_HOOK_KINDS] = {
	[CT_HOOK_PRESTART] = "prestart",
	[CT_HOOK_CREATE_RUNTIME] = "createRuntime",
	[CT_HOOK_CREATE_CONTAINER] = "createContainer",
	[CT_HOOK_START_CONTAINER] = "startContainer",
	[CT_HOOK_POSTSTART] = "poststart",
	[CT_HOOK_POSTSTOP] = "poststop",
};

const oci_hook_list *ct_hook_list(const struct oci_hooks *h, enum ct_hook_kind kind)
{
	const oci_hook_list *lists[CT_HOOK_KINDS] = {
		[CT_HOOK_PRESTART] = &h->prestart,
		[CT_HOOK_CREATE_RUNTIME] = &h->create_runtime,
		[CT_HOOK_CREATE_CONTAINER] = &h->create_container,
		[CT_HOOK_START_CONTAINER] = &h->start_container,
		[CT_HOOK_POSTSTART] = &h->poststart,
		[CT_HOOK_POSTSTOP] = &h->poststop,
	};
	return lists[kind];
}

/* A memfd rather than a pipe: written whole before the hook starts, so a large state never
 * blocks us and a hook that never reads it cannot make us take SIGPIPE. */
static int state_input(const char *state, struct ct_error *err)
{
	_cleanup_close_ int fd = memfd_create("ctrun-hook-state", MFD_CLOEXEC);
	if (fd < 0)
		return ct_error_sys(err, errno, "make the state input");
	if (ct_write_all(fd, state, strlen(state)) < 0)
		return ct_error_sys(err, errno, "write the state input");
	if (lseek(fd, 0, SEEK_SET) < 0)
		return ct_error_sys(err, errno, "rewind the state input");
	return steal_fd(&fd);
}

/* argv and envp as execve wants them, made before the clone. args absent: argv is {path},
 * as execv(path, ...) callers and runc do; env absent: an empty environment. */
struct hook_exec {
	char **argv, **envp;
};

static char **null_terminated(const oci_strings *s, char *first_if_empty)
{
	char **v = calloc(s->len + 2, sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < s->len; i++)
		v[i] = s->items[i];
	if (!s->len)
		v[0] = first_if_empty;
	return v;
}

/* Everything of ours is closed at the execve: the hook gets fds 0-2 and nothing else. */
static void close_inherited_fds(void)
{
	/* CLOSE_RANGE_CLOEXEC (4), Linux 5.11; before it, each fd up to the limit */
	if (syscall(SYS_close_range, 3U, ~0U, 4U) == 0)
		return;
	struct rlimit rl;
	int max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (int)rl.rlim_cur
									    : 65536;
	for (int fd = 3; fd < max; fd++) {
		int flags = fcntl(fd, F_GETFD);
		if (flags >= 0)
			fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
	}
}

/* In the hook's process: a clean signal state (ctrun run blocks every signal), the three
 * streams, then the program. A failing exec sends its errno on `report`. */
__attribute__((noreturn)) static void exec_hook(const char *path, const struct hook_exec *x, int in,
						int out, int errfd, int report)
{
	sigset_t none;
	sigemptyset(&none);
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	int e = 0;
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
		e = errno;
	if (!e) {
		close_inherited_fds();
		execve(path, x->argv, x->envp);
		e = errno;
	}
	ssize_t n = write(report, &e, sizeof(e));
	(void)n;
	_exit(127);
}

struct hook_proc {
	pid_t pid;
	int pidfd;
	int out, errfd; /* our ends of its stdout and stderr pipes, -1 once at EOF */
	struct ct_hook_tail tail_out, tail_err;
};

static void take_into_tail(void *tail, const char *data, size_t len)
{
	ct_hook_tail_append(tail, data, len);
}

/* Reads what the pipe holds now; at EOF the fd is -1, which poll ignores. */
static void drain(int *fd, struct ct_hook_tail *t)
{
	ct_read_available(fd, take_into_tail, t);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds left until the deadline for poll: -1 without one, at most INT_MAX. */
static int poll_ms(int64_t deadline)
{
	if (deadline < 0)
		return -1;
	int64_t left = deadline - now_ms();
	return left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left;
}

/* Returns true when it exited before the deadline (-1: none), false when the time ran out. */
static bool wait_exit(struct hook_proc *p, int64_t deadline)
{
	for (;;) {
		struct pollfd fds[3] = {{.fd = p->pidfd, .events = POLLIN},
					{.fd = p->out, .events = POLLIN},
					{.fd = p->errfd, .events = POLLIN}};
		int n = poll(fds, 3, poll_ms(deadline));
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 && deadline >= 0 && now_ms() >= deadline)
			return false;
		if (p->out >= 0 && fds[1].revents)
			drain(&p->out, &p->tail_out);
		if (p->errfd >= 0 && fds[2].revents)
			drain(&p->errfd, &p->tail_err);
		if (n > 0 && fds[0].revents)
			break;
	}
	/* what it wrote just before exiting; a child of its own may keep the pipes open, so
	 * only what is there now */
	if (p->out >= 0)
		drain(&p->out, &p->tail_out);
	if (p->errfd >= 0)
		drain(&p->errfd, &p->tail_err);
	return true;
}

static void kill_hook(const struct hook_proc *p)
{
	/* not reaped yet, so the pid is still its own: kill() where a profile refuses the
	 * pidfd call */
	if (ct_pidfd_send_signal(p->pidfd, SIGKILL, NULL, 0) < 0)
		kill(p->pid, SIGKILL);
}

static void reap(const struct hook_proc *p, siginfo_t *info)
{
	memset(info, 0, sizeof(*info));
	while (waitid(P_PID, (id_t)p->pid, info, WEXITED) < 0 && errno == EINTR)
		;
}

static void close_proc(struct hook_proc *p)
{
	ct_closep(&p->pidfd);
	ct_closep(&p->out);
	ct_closep(&p->errfd);
}

/* " (stderr: ...) (stdout: ...)" of what it wrote, "" when nothing. */
static void output_note(const struct hook_proc *p, char *out, size_t size)
{
	char err_text[CT_HOOK_TAIL_MAX + 8], out_text[CT_HOOK_TAIL_MAX + 8];
	ct_hook_tail_format(&p->tail_err, TAIL_LINES, err_text, sizeof(err_text));
	ct_hook_tail_format(&p->tail_out, TAIL_LINES, out_text, sizeof(out_text));
	snprintf(out, size, "%s%s%s%s%s%s", *err_text ? " (stderr: " : "", err_text,
		 *err_text ? ")" : "", *out_text ? " (stdout: " : "", out_text,
		 *out_text ? ")" : "");
}

enum { PIPE_OUT, PIPE_ERR, PIPE_REPORT, N_PIPES };

static void close_pipes(int (*p)[N_PIPES][2])
{
	for (int i = 0; i < N_PIPES; i++)
		ct_close_pairp(&(*p)[i]);
}

/* Its stdout, its stderr, and the report of a failed exec: close-on-exec pipes. */
static int make_pipes(int p[N_PIPES][2], struct ct_error *err)
{
	for (int i = 0; i < N_PIPES; i++)
		if (pipe2(p[i], O_CLOEXEC) < 0)
			return ct_error_sys(err, errno, "pipe");
	return 0;
}

/* After the clone: EOF at its execve (close-on-exec), or the errno of a failed one. */
static int exec_report(int fd)
{
	int e = 0;
	ssize_t n;
	while ((n = read(fd, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	return n == (ssize_t)sizeof(e) ? e : 0;
}

/* Clones the hook's process with its three streams; p gets our ends. */
static int start_hook(const struct oci_hook *h, const struct hook_exec *x, int in,
		      struct hook_proc *p, struct ct_error *err)
{
	__attribute__((cleanup(close_pipes))) int pipes[N_PIPES][2] = {
		CT_FD_PAIR_INIT, CT_FD_PAIR_INIT, CT_FD_PAIR_INIT};
	if (make_pipes(pipes, err) < 0)
		return -1;
	const char *method;
	p->pid = ct_clone_pidfd(0, &p->pidfd, &method);
	if (p->pid == 0)
		exec_hook(h->path, x, in, pipes[PIPE_OUT][1], pipes[PIPE_ERR][1],
			  pipes[PIPE_REPORT][1]);
	int saved = errno;
	for (int i = 0; i < N_PIPES; i++)
		ct_close_now(&pipes[i][1]); /* so that its exec or exit is our EOF */
	p->out = steal_fd(&pipes[PIPE_OUT][0]);
	p->errfd = steal_fd(&pipes[PIPE_ERR][0]);
	if (p->pid < 0)
		return ct_error_sys(err, saved, "start");
	fcntl(p->out, F_SETFL, O_NONBLOCK);
	fcntl(p->errfd, F_SETFL, O_NONBLOCK);
	int e = exec_report(pipes[PIPE_REPORT][0]);
	if (e) {
		siginfo_t info;
		reap(p, &info);
		return ct_error_sys(err, e, "exec");
	}
	return 0;
}

static int run_started(const struct oci_hook *h, struct hook_proc *p, struct ct_error *err)
{
	int64_t deadline = -1;
	if (h->has_timeout)
		deadline = h->timeout > INT64_MAX / 1000 - now_ms() ? INT64_MAX
								    : now_ms() + h->timeout * 1000;
	bool exited = wait_exit(p, deadline);
	if (!exited)
		kill_hook(p);
	siginfo_t info;
	reap(p, &info);
	char note[2 * CT_HOOK_TAIL_MAX + 64];
	output_note(p, note, sizeof(note));
	if (!exited)
		return ct_error_plain(err, ETIMEDOUT, "timed out after %lld s%s",
				      (long long)h->timeout, note);
	if (info.si_code == CLD_EXITED && info.si_status == 0)
		return 0;
	char how[64];
	ct_hook_describe_exit(info.si_code, info.si_status, how, sizeof(how));
	return ct_error_plain(err, ECANCELED, "%s%s", how, note);
}

int ct_hook_run(enum ct_hook_kind kind, size_t index, const struct oci_hook *h, const char *state,
		struct ct_error *err)
{
	struct hook_exec x = {null_terminated(&h->args, h->path), null_terminated(&h->env, NULL)};
	__attribute__((cleanup(close_proc))) struct hook_proc p = {
		.pid = -1, .pidfd = -1, .out = -1, .errfd = -1};
	_cleanup_close_ int in = -1;
	int rc = -1;
	if (!x.argv || !x.envp) {
		ct_error_sys(err, ENOMEM, "prepare");
		goto out;
	}
	in = state_input(state, err);
	if (in >= 0 && start_hook(h, &x, in, &p, err) == 0)
		rc = run_started(h, &p, err);
out:
	if (rc < 0)
		ct_error_prefix(err, "%s hook #%zu \"%s\"", ct_hook_kind_names[kind], index,
				h->path);
	free(x.argv);
	free(x.envp);
	return rc;
}

int ct_hooks_run(const struct oci_hooks *hooks, enum ct_hook_kind kind, const char *state,
		 struct ct_error *err)
{
	const oci_hook_list *l = ct_hook_list(hooks, kind);
	for (size_t i = 0; i < l->len; i++)
		if (ct_hook_run(kind, i, &l->items[i], state, err) < 0)
			return -1;
	return 0;
}

void ct_hooks_run_all(const struct oci_hooks *hooks, enum ct_hook_kind kind, const char *state,
		      void (*warn)(void *arg, const char *msg), void *arg)
{
	const oci_hook_list *l = ct_hook_list(hooks, kind);
	for (size_t i = 0; i < l->len; i++) {
		struct ct_error err = {0};
		if (ct_hook_run(kind, i, &l->items[i], state, &err) < 0 && warn)
			warn(arg, err.msg);
	}
}
