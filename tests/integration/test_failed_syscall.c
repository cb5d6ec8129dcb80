/* Errors the kernel returns along `create`, `run`, `start`, `exec` and `delete`: strace -f
 * (-e inject=SYSCALL:error=ERRNO:when=N) makes the Nth call of a syscall fail in ctrun and
 * in its init alike (strace counts each process's calls apart). Each point was picked from
 * a sweep of every syscall kind these commands make (first, second, middle and last call;
 * EIO, ENOMEM, EPERM, ENOSPC) as one that takes a clean-up path: cgroups made, the init
 * half set up, the state half written, a container left as it was. After each: the command
 * fails with one line that says what failed (or goes on where the error is tolerated), the
 * container is as it was before the command, `delete --force` and a create of the same id
 * work, and nothing is left: no cgroup in any hierarchy, state entry, process, fd on the
 * state root or the cgroup, or mount (leftovers.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "tests/lib/cgroup.h"
#include "tests/lib/container.h"
#include "tests/lib/leftovers.h"

TestSuite(failed_syscall, .fini = cgt_cleanup);

#define ID "fs"

/* One injection: the Nth call of a syscall fails with an errno; what the command's stderr
 * then says (its only line, or the first of lines), or NULL where ctrun goes on; what `run`
 * says where it fails elsewhere (run_says, NULL: the same). With path, only the calls
 * naming that path count (strace -P). */
struct point {
	const char *syscall;
	unsigned nth;
	const char *errno_name;
	const char *says;
	unsigned lines;
	const char *path;
	const char *run_says;
	unsigned run_lines;
};

/* p as `run` meets it. */
static struct point as_run(const struct point *p)
{
	struct point r = *p;
	if (p->run_says) {
		r.says = p->run_says;
		r.lines = p->run_lines;
	}
	return r;
}

/* strace's arguments for p (in w's storage), as t's wrapper. */
struct injector {
	char trace[64], inject[128];
	const char *argv[LC_WRAPPER_MAX + 4];
};

static void inject(struct lc *t, struct injector *w, const struct point *p)
{
	snprintf(w->trace, sizeof(w->trace), "trace=%s", p->syscall);
	snprintf(w->inject, sizeof(w->inject), "inject=%s:error=%s:when=%u", p->syscall,
		 p->errno_name, p->nth);
	const char *argv[] = {"strace", "-f", "-qq", "-o",	   "/dev/null", "-e", w->trace,
			      "-e",	w->inject, p->path ? "-P" : NULL, p->path, NULL};
	memcpy(w->argv, argv, sizeof(argv));
	t->wrapper = w->argv;
}

/* "create fails on openat #2 with EIO", for messages. */
static void name_point(char *buf, size_t size, const char *command, const struct point *p)
{
	snprintf(buf, size, "%s with %s #%u failing (%s%s%s)", command, p->syscall, p->nth,
		 p->errno_name, p->path ? " on " : "", p->path ? p->path : "");
}

/* r is the command's failure as p says, or its success where p tolerates the error. */
static void assert_failed_as_said(const struct ctt_result *r, const struct point *p,
				  const char *after)
{
	if (!p->says) {
		cr_assert_eq(r->status, 0, "%s: exit %d, stderr: %s", after, r->status, r->err);
		return;
	}
	cr_assert_neq(r->status, 0, "%s: it succeeded", after);
	cr_assert_eq(r->signal, 0, "%s: killed by signal %d", after, r->signal);
	unsigned lines = p->lines ? p->lines : 1;
	cr_assert_eq(ctt_count_lines(r->err), lines, "%s: %u lines wanted, stderr:\n%s", after,
		     lines, r->err);
	cr_assert(strncmp(r->err, "ctrun: ", 7) == 0, "%s: stderr: %s", after, r->err);
	cr_assert_not_null(strstr(r->err, p->says), "%s: \"%s\" not said, stderr: %s", after,
			   p->says, r->err);
}

/* The test reaps what a failed command orphaned (it is their subreaper). */
static void reap_orphans(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* delete --force, then a create and a delete --force of the same id: all work, and
 * nothing of the container is left. */
static void assert_id_recovers(struct lc *t, const char *after)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "delete", "--force", ID);
	cr_assert_eq(r.status, 0, "%s: delete --force: %s", after, r.err);
	ctt_result_free(&r);
	reap_orphans();
	lc_assert_all_gone(t, after);
	lc_ctrun(&r, t, "create", "--bundle", t->bundle, ID);
	cr_assert_eq(r.status, 0, "%s: create again: %s", after, r.err);
	ctt_result_free(&r);
	lc_ok(t, "delete", "--force", ID);
	reap_orphans();
	lc_assert_all_gone(t, after);
}

/* A container of its own cgroup, the test its processes' subreaper, the mounts noted. */
static void set_up(struct lc *t, const char *const *args)
{
	lc_init(t);
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	lc_note_mounts(t);
	cgt_use_path(t, ID);
	lc_set_args(t, args);
}

/* `command ... ID` (argv before the id) under p's injection. */
static void run_injected(struct lc *t, const struct point *p, const char *const *argv,
			 const char *after)
{
	struct injector w;
	struct ctt_result r;
	inject(t, &w, p);
	lc_ctrunv(&r, t, argv);
	t->wrapper = NULL;
	assert_failed_as_said(&r, p, after);
	ctt_result_free(&r);
}

/* `create` and `run` of /bin/true, each under each point. */
static void assert_create_and_run_clean_up(const struct point *points, size_t n)
{
	struct lc t;
	set_up(&t, LC_ARGV("/bin/true"));
	for (size_t i = 0; i < n; i++) {
		static const char *const commands[] = {"create", "run"};
		for (size_t c = 0; c < 2; c++) {
			char after[256];
			name_point(after, sizeof(after), commands[c], &points[i]);
			struct point p = c ? as_run(&points[i]) : points[i];
			run_injected(&t, &p, LC_ARGV(commands[c], "--bundle", t.bundle, ID),
				     after);
			assert_id_recovers(&t, after);
		}
	}
}

/* In ctrun before the init exists, with cgroups and the state directory made. */
Test(failed_syscall, in_the_parent_before_the_init)
{
	static const struct point points[] = {
		{"socketpair", 1, "ENOMEM", "create sync socket", 0, NULL},
		/* run has no exec fifo: the init's first device node fails */
		{"mknodat", 1, "ENOSPC", "create exec fifo", 0, NULL, "create device", 0},
		{"mkdirat", 2, "EIO", "create cgroup", 0, NULL},
		{"renameat2", 1, "EIO", "create the directory of container", 0, NULL},
	};
	assert_create_and_run_clean_up(points, sizeof(points) / sizeof(points[0]));
}

/* In the init's set-up: its mounts half made, its namespaces there. */
Test(failed_syscall, in_the_init_set_up)
{
	static const struct point points[] = {
		{"sethostname", 1, "EPERM", "init step hostname", 0, NULL},
		{"fsopen", 2, "ENOMEM", "init step mounts", 0, NULL},
		{"pivot_root", 1, "EIO", "init step pivot-root", 0, NULL},
		{"keyctl", 1, "ENOMEM", "init step keyring", 0, NULL},
		{"capset", 1, "EPERM", "init step identity: set capabilities", 0, NULL},
		/* the parent's first receive: the init's ERROR or READY never read */
		{"recvmsg", 1, "EIO", "receive sync message", 0, NULL},
		/* READY not sent: the init says why itself, the parent that it exited; run's
		 * START (sent ahead of READY) fails first */
		{"sendto", 1, "EIO", "send sync message READY", 2, NULL, "send sync message START",
		 1},
	};
	assert_create_and_run_clean_up(points, sizeof(points) / sizeof(points[0]));
}

/* In ctrun once the init is set up: the last step, state.json, fails. */
Test(failed_syscall, writing_the_state)
{
	struct lc t;
	set_up(&t, LC_ARGV("/bin/true"));
	/* -P matches the name as given: state.json.tmp is opened relative to the directory */
	struct point p = {"openat", 1, "EIO", "write the state of container", 0, "state.json.tmp"};
	struct point renamed = {"renameat", 2, "ENOSPC", "write the state of container", 0, NULL};
	const struct point *points[] = {&p, &renamed};
	for (size_t i = 0; i < 2; i++) {
		char after[256];
		name_point(after, sizeof(after), "create", points[i]);
		run_injected(&t, points[i], LC_ARGV("create", "--bundle", t.bundle, ID), after);
		assert_id_recovers(&t, after);
	}
}

/* Errors ctrun gets past: the clone into the cgroup (clone3 CLONE_INTO_CGROUP) falls back to
 * joining it after the clone; the container runs. */
Test(failed_syscall, tolerated_by_run)
{
	struct lc t;
	set_up(&t, LC_ARGV("/bin/true"));
	struct point p = {"clone3", 1, "EIO", NULL, 0, NULL};
	run_injected(&t, &p, LC_ARGV("run", "--bundle", t.bundle, ID), "run, clone3 #1 failing");
	lc_assert_all_gone(&t, "run, clone3 #1 failing");
}

/* run blocks the signals it forwards first: without them it would not know its container
 * exited (it waited for ever). */
Test(failed_syscall, run_without_its_signal_mask)
{
	struct lc t;
	set_up(&t, LC_ARGV("/bin/true"));
	struct point p = {"rt_sigprocmask", 1, "EPERM", "block the signals to forward", 0, NULL};
	run_injected(&t, &p, LC_ARGV("run", "--bundle", t.bundle, ID), "run, sigprocmask failing");
	assert_id_recovers(&t, "run, sigprocmask failing");
}

/* `command` fails at p on a container made by `prepare`, which is then still status. */
static void assert_container_kept(struct lc *t, const char *prepare, const char *status,
				  const char *const *argv, const struct point *p)
{
	char after[256];
	name_point(after, sizeof(after), argv[0], p);
	if (strcmp(prepare, "run") == 0)
		lc_ok(t, "run", "--detach", "--bundle", t->bundle, ID);
	else
		lc_ok(t, "create", "--bundle", t->bundle, ID);
	run_injected(t, p, argv, after);
	lc_assert_status(t, ID, status);
	cr_assert_eq(lc_count_left_processes(t), 1, "%s: a process besides the init", after);
	assert_id_recovers(t, after);
}

/* The init's /proc/PID/stat unreadable (EIO) says nothing of the init: a plain delete of a
 * running container used to take it for stopped, kill it and remove it. */
Test(failed_syscall, delete_cannot_read_the_status)
{
	struct lc t;
	set_up(&t, LC_ARGV("/bin/sleep", "1000"));
	/* its first read is state.json's, the second the init's stat */
	struct point p = {"read", 2, "EIO", "the status of its init", 0, NULL};
	assert_container_kept(&t, "run", "running", LC_ARGV("delete", ID), &p);
}

/* start fails and leaves the container created; exec fails and leaves no process of its
 * own; delete --force fails and the container is there to delete again. */
Test(failed_syscall, start_exec_and_delete_keep_the_container)
{
	struct lc t;
	set_up(&t, LC_ARGV("/bin/sleep", "1000"));
	struct point start_points[] = {
		{"pidfd_open", 1, "EMFILE", "open a pidfd for its init", 0, NULL},
		{"read", 2, "EIO", "the status of its init", 0, NULL},
	};
	for (size_t i = 0; i < sizeof(start_points) / sizeof(start_points[0]); i++)
		assert_container_kept(&t, "create", "created", LC_ARGV("start", ID),
				      &start_points[i]);
	struct point exec_points[] = {
		{"poll", 1, "ENOSPC", "check that the container's init is there", 0, NULL},
		{"setns", 1, "EPERM", "join the namespaces of the container", 0, NULL},
		{"capset", 1, "EPERM", "exec step identity: set capabilities", 0, NULL},
		/* the child's wait for CGROUP_READY: its ERROR, not our send's EPIPE */
		{"recvmsg", 1, "EIO", "receive sync message", 0, NULL},
	};
	for (size_t i = 0; i < sizeof(exec_points) / sizeof(exec_points[0]); i++)
		assert_container_kept(&t, "run", "running", LC_ARGV("exec", ID, "/bin/true"),
				      &exec_points[i]);
	struct point kill = {"pidfd_send_signal", 1, "EIO", "send signal", 0, NULL};
	assert_container_kept(&t, "run", "running", LC_ARGV("delete", "--force", ID), &kill);
}
