/* A container under test: its own state root and busybox bundle, ctrun run against them,
 * its state read back, and the clean-up that force-deletes what the test left. */
#include "tests/lib/container.h"
#include "tests/lib/cgroup.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_BOXES 64

/* Each Criterion test runs in its own process: this list is per test. */
static struct lc boxes[MAX_BOXES];
static unsigned nboxes;

static void forget_containers(void);

char *lc_mark_env(const struct lc *t)
{
	char *s;
	cr_assert_geq(asprintf(&s, "CTT_MARK=%s", t->root), 0);
	return s;
}

void lc_wrap_enosys(struct lc *t, const char **argv, const char *const *enosys_args)
{
	t->wrapper = NULL;
	if (!enosys_args)
		return;
	size_t n = 0;
	argv[n++] = ctt_helper("enosys");
	for (; *enosys_args; enosys_args++) {
		cr_assert_lt(n, LC_WRAPPER_MAX - 2, "too many enosys arguments");
		argv[n++] = *enosys_args;
	}
	argv[n++] = "--";
	argv[n] = NULL;
	t->wrapper = argv;
}

/* The CTT_MARK entry of process.env, by which lc_cleanup() knows t's processes. */
static void append_mark_env(const struct lc *t)
{
	char *mark = lc_mark_env(t);
	char *json = ctt_json_quote(mark);
	lc_config_append(t, ".process.env", json);
	free(json);
	free(mark);
}

void lc_init(struct lc *t)
{
	cr_assert_lt(nboxes, MAX_BOXES, "too many bundles in one test");
	ctt_cleanup_first(forget_containers);
	cgt_enter_own();
	t->wrapper = NULL;
	t->root = ctt_tmpdir();
	t->bundle = ctt_bundle_new();
	append_mark_env(t);
	boxes[nboxes++] = *t;
}

void lc_use_rootless_spec(const struct lc *t)
{
	char *config = ctt_path(t->bundle, "config.json");
	cr_assert_eq(unlink(config), 0, "remove %s", config);
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "spec", "--rootless", "--bundle", t->bundle, NULL);
	cr_assert_eq(r.status, 0, "ctrun spec --rootless: %s", r.err);
	ctt_result_free(&r);
	append_mark_env(t);
	free(config);
}

static const char **with_root(const struct lc *t, const char *const *args, const char **argv,
			      size_t max)
{
	size_t n = 0;
	argv[n++] = "--root";
	argv[n++] = t->root;
	for (; *args; args++) {
		cr_assert_lt(n + 1, max, "too many arguments");
		argv[n++] = *args;
	}
	argv[n] = NULL;
	return argv;
}

#define MAX_ARGV 72

/* t's wrapper, ctrun, --root and args into argv (max entries). */
static const char *const *full_argv(const struct lc *t, const char *const *args, const char **argv,
				    size_t max)
{
	size_t n = 0;
	for (const char *const *w = t->wrapper; w && *w; w++) {
		cr_assert_lt(n + 2, max, "wrapper too long");
		argv[n++] = *w;
	}
	argv[n++] = ctt_ctrun_path();
	with_root(t, args, argv + n, max - n);
	return argv;
}

int lc_ctrun_inputv(struct ctt_result *r, const struct lc *t, const char *input,
		    const char *const *args)
{
	const char *argv[MAX_ARGV];
	char *mark = lc_mark_env(t);
	const char *env[] = {mark, NULL};
	struct ctt_run_opts opts = {.env = env, .input = input};
	int status = ctt_run(r, &opts, full_argv(t, args, argv, MAX_ARGV));
	free(mark);
	return status;
}

int lc_ctrunv(struct ctt_result *r, const struct lc *t, const char *const *args)
{
	return lc_ctrun_inputv(r, t, NULL, args);
}

const char *const *lc_ctrun_argv(const struct lc *t, const char *const *args)
{
	static const char *argv[MAX_ARGV];
	return full_argv(t, args, argv, MAX_ARGV);
}

static char *joined(const char *const *args)
{
	static char buf[1024];
	buf[0] = '\0';
	for (; *args; args++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s", *args);
	return buf;
}

void lc_okv(const struct lc *t, const char *const *args)
{
	struct ctt_result r;
	lc_ctrunv(&r, t, args);
	cr_assert_eq(r.status, 0, "ctrun%s: exit %d\nstdout: %s\nstderr: %s", joined(args),
		     r.status, r.out, r.err);
	ctt_result_free(&r);
}

/* `run` as configured; what names the process in a failure. */
static char *run_output(const struct lc *t, const char *what)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "run", "--bundle", t->bundle, "sh");
	cr_assert_eq(r.status, 0, "run `%s`: exit %d\nstdout: %s\nstderr: %s", what, r.status,
		     r.out, r.err);
	free(r.err);
	return r.out;
}

char *lc_run_output(const struct lc *t)
{
	return run_output(t, "process.args");
}

char *lc_sh_output(const struct lc *t, const char *script)
{
	lc_set_script(t, script);
	return run_output(t, script);
}

yajl_val lc_state(const struct lc *t, const char *id)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "state", id);
	cr_assert_eq(r.status, 0, "state %s: exit %d, stderr: %s", id, r.status, r.err);
	yajl_val tree = ctt_json_parse(r.out, "state output");
	ctt_result_free(&r);
	return tree;
}

char *lc_status(const struct lc *t, const char *id)
{
	yajl_val st = lc_state(t, id);
	const char *s = ctt_json_get_string(st, ".status");
	cr_assert_not_null(s, "state has no status");
	char *copy = strdup(s);
	yajl_tree_free(st);
	return copy;
}

void lc_wait_status(const struct lc *t, const char *id, const char *want)
{
	char *status = NULL;
	for (unsigned waited = 0;; waited += 20) {
		free(status);
		status = lc_status(t, id);
		if (strcmp(status, want) == 0 || waited >= CTT_POLL_LIMIT_MS)
			break;
		ctt_sleep_ms(20);
	}
	cr_assert_str_eq(status, want, "container %s is still %s", id, status);
	free(status);
}

pid_t lc_pid(const struct lc *t, const char *id)
{
	yajl_val st = lc_state(t, id);
	pid_t pid = (pid_t)ctt_json_get_int(st, ".pid");
	yajl_tree_free(st);
	return pid;
}

char *lc_state_file(const struct lc *t, const char *id)
{
	char *dir = ctt_path(t->root, id);
	char *file = ctt_path(dir, "state.json");
	free(dir);
	return file;
}

char *lc_rootfs_path(const struct lc *t, const char *rel)
{
	char *rootfs = ctt_path(t->bundle, "rootfs");
	char *path = ctt_path(rootfs, rel);
	free(rootfs);
	return path;
}

void lc_install_helper(const struct lc *t, const char *name)
{
	char *rel = malloc(strlen(name) + 5);
	cr_assert_not_null(rel);
	sprintf(rel, "bin/%s", name);
	char *dest = lc_rootfs_path(t, rel);
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"cp", ctt_helper(name), dest, NULL});
	cr_assert_eq(r.status, 0, "cp %s: %s", name, r.err);
	ctt_result_free(&r);
	free(dest);
	free(rel);
}

void lc_install_sysprobe(const struct lc *t)
{
	lc_install_helper(t, "sysprobe");
}

/* Without the wrapper: clean-up must work whatever the test made ctrun lack. */
static void delete_all(const struct lc *box)
{
	struct lc plain = *box;
	plain.wrapper = NULL;
	const struct lc *t = &plain;
	struct ctt_result r;
	lc_ctrun(&r, t, "list", "-q");
	for (char *id = strtok(r.out, "\n"); id; id = strtok(NULL, "\n")) {
		struct ctt_result d;
		lc_ctrun(&d, t, "delete", "--force", id);
		ctt_result_free(&d);
	}
	ctt_result_free(&r);
}

/* Every spawned process and container of the test, gone; registered with
 * ctt_cleanup_first() so that a skipped test (no .fini) leaves none either. */
static void forget_containers(void)
{
	lc_kill_spawned();
	while (nboxes)
		delete_all(&boxes[--nboxes]);
	cgt_leave_own();
}

void lc_cleanup(void)
{
	forget_containers();
	ctt_cleanup();
}

int lc_count_left_processes(const struct lc *t)
{
	char *mark = lc_mark_env(t);
	int n = ctt_count_processes_with_env(mark);
	free(mark);
	return n;
}

int lc_run_sh(struct ctt_result *r, const struct lc *t, const char *id, const char *script)
{
	lc_set_script(t, script);
	return lc_ctrun(r, t, "run", "--bundle", t->bundle, id);
}

int lc_debug_run_sh(struct ctt_result *r, const struct lc *t, const char *id, const char *script)
{
	lc_set_script(t, script);
	return lc_ctrun(r, t, "--debug", "run", "--bundle", t->bundle, id);
}

char *lc_rootfs_file(const struct lc *t, const char *rel, const char *text)
{
	char *path = lc_rootfs_path(t, rel);
	char *dir = strdup(path);
	cr_assert_not_null(dir, "out of memory");
	*strrchr(dir, '/') = '\0';
	ctt_mkdir_p(dir);
	ctt_write_file(path, text);
	free(dir);
	return path;
}
