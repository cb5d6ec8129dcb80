/* Helpers of the lifecycle suites: see lifecycle_util.h. */
#include "tests/integration/lifecycle_util.h"
#include "tests/integration/cgroup_util.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define POLL_LIMIT_MS 10000
#define MAX_BOXES     16
#define MAX_SPAWNED   24

extern char **environ;

/* Each Criterion test runs in its own process: these lists are per test. */
static struct lc boxes[MAX_BOXES];
static unsigned nboxes;
static pid_t spawned[MAX_SPAWNED];
static unsigned nspawned;

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};
	nanosleep(&ts, NULL);
}

char *lc_write_tmp(const char *name, const char *text)
{
	char *dir = ctt_tmpdir();
	char *path = ctt_path(dir, name);
	ctt_write_file(path, text);
	free(dir);
	return path;
}

char *lc_which(const char *name)
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

char *lc_shared_config_value(const char *file, const char *path)
{
	const char *src = getenv("CTRUN_SRC");
	if (!src || !*src)
		cr_assert_fail("CTRUN_SRC is not set (make integration sets it)");
	char *name;
	cr_assert_geq(asprintf(&name, "%s/../shared/configs/%s", src, file), 0, "out of memory");
	if (!ctt_exists(name))
		ctt_skip("%s is missing: the real-world configs are not there", name);
	yajl_val tree = ctt_json_load(name);
	yajl_val v = ctt_json_get(tree, path);
	cr_assert_not_null(v, "%s has no %s", name, path);
	char *text = ctt_json_text(v);
	yajl_tree_free(tree);
	free(name);
	return text;
}

char *lc_json_quote(const char *s)
{
	char *out = malloc(strlen(s) * 6 + 3);
	cr_assert_not_null(out, "out of memory");
	char *p = out;
	*p++ = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			p += sprintf(p, "\\%c", c);
		else if (c < 0x20)
			p += sprintf(p, "\\u%04x", c);
		else
			*p++ = (char)c;
	}
	*p++ = '"';
	*p = '\0';
	return out;
}

static char *mark_env(const struct lc *t)
{
	char *s;
	cr_assert_geq(asprintf(&s, "CTT_MARK=%s", t->root), 0);
	return s;
}

void lc_config_append(const struct lc *t, const char *path, const char *json)
{
	char *file = ctt_path(t->bundle, "config.json");
	yajl_val tree = ctt_json_load(file);
	bool absent = !ctt_json_get(tree, path);
	long n = absent ? 0 : ctt_json_len(tree, path);
	yajl_tree_free(tree);
	cr_assert_geq(n, 0, "config.json has no array at %s", path);
	if (absent)
		ctt_json_edit_file(file, path, "[]");
	char item[256];
	snprintf(item, sizeof(item), "%s[%ld]", path, n);
	ctt_json_edit_file(file, item, json);
	free(file);
}

/* options: comma-separated ("ro,size=1m") as a JSON array, malloc'd. */
static char *options_json(const char *options)
{
	char *copy = strdup(options), *save = NULL, *json = calloc(1, strlen(options) * 7 + 3);
	cr_assert(copy && json);
	strcat(json, "[");
	for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		char *q = lc_json_quote(o);
		strcat(json, json[1] ? "," : "");
		strcat(json, q);
		free(q);
	}
	strcat(json, "]");
	free(copy);
	return json;
}

void lc_add_mount(const struct lc *t, const char *dest, const char *type, const char *source,
		  const char *options)
{
	char *d = lc_json_quote(dest), *ty = lc_json_quote(type), *s = lc_json_quote(source);
	char *o = options ? options_json(options) : strdup("[]");
	char *json;
	cr_assert_geq(asprintf(&json,
			       "{\"destination\":%s,\"type\":%s,\"source\":%s,\"options\":%s}", d,
			       ty, s, o),
		      0);
	lc_config_append(t, ".mounts", json);
	free(json);
	free(o);
	free(s);
	free(ty);
	free(d);
}

void lc_remove_mount(const struct lc *t, const char *dest)
{
	char *file = ctt_path(t->bundle, "config.json");
	yajl_val tree = ctt_json_load(file);
	long n = ctt_json_len(tree, ".mounts");
	long found = -1;
	for (long i = 0; i < n && found < 0; i++) {
		char path[64];
		snprintf(path, sizeof(path), ".mounts[%ld].destination", i);
		const char *d = ctt_json_get_string(tree, path);
		if (d && strcmp(d, dest) == 0)
			found = i;
	}
	yajl_tree_free(tree);
	cr_assert_geq(found, 0, "config.json has no mount on \"%s\"", dest);
	char item[64];
	snprintf(item, sizeof(item), ".mounts[%ld]", found);
	ctt_json_edit_file(file, item, NULL);
	free(file);
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

static void forget_containers(void);

void lc_init(struct lc *t)
{
	cr_assert_lt(nboxes, MAX_BOXES, "too many bundles in one test");
	ctt_cleanup_first(forget_containers);
	cgt_enter_own();
	t->wrapper = NULL;
	t->root = ctt_tmpdir();
	t->bundle = ctt_bundle_new(NULL);
	char *mark = mark_env(t);
	char *json = lc_json_quote(mark);
	lc_config_append(t, ".process.env", json);
	free(json);
	free(mark);
	boxes[nboxes++] = *t;
}

void lc_set_args(const struct lc *t, const char *const *argv)
{
	size_t len = 3;
	for (size_t i = 0; argv[i]; i++)
		len += strlen(argv[i]) * 6 + 4;
	char *json = malloc(len);
	cr_assert_not_null(json);
	strcpy(json, "[");
	for (size_t i = 0; argv[i]; i++) {
		char *q = lc_json_quote(argv[i]);
		strcat(json, i ? "," : "");
		strcat(json, q);
		free(q);
	}
	strcat(json, "]");
	ctt_config_set(t->bundle, ".process.args", json);
	free(json);
}

void lc_set_script(const struct lc *t, const char *script)
{
	lc_set_args(t, (const char *const[]){"sh", "-c", script, NULL});
}

void lc_covered_mounts(const struct lc *t)
{
	ctt_config_set(t->bundle, ".root.readonly", "false");
	char *link = lc_rootfs_path(t, "y");
	cr_assert_eq(symlink("/x", link), 0, "symlink %s", link);
	free(link);
	lc_add_mount(t, "/x", "tmpfs", "tmpfs", "ro");
	lc_add_mount(t, "/y", "tmpfs", "tmpfs", "rw");
	lc_set_script(t, "grep ' /x ' /proc/self/mountinfo; "
			 "if touch /x/f; then echo x-writable; fi");
}

long lc_config_index(const struct lc *t, const char *array, const char *member, const char *value)
{
	char *file = ctt_path(t->bundle, "config.json");
	yajl_val tree = ctt_json_load(file);
	long n = ctt_json_len(tree, array), found = -1;
	for (long i = 0; i < n && found < 0; i++) {
		char path[256];
		snprintf(path, sizeof(path), "%s[%ld]%s", array, i, member);
		const char *s = ctt_json_get_string(tree, path);
		if (s && strcmp(s, value) == 0)
			found = i;
	}
	yajl_tree_free(tree);
	free(file);
	return found;
}

long lc_namespace_index(const struct lc *t, const char *type)
{
	return lc_config_index(t, ".linux.namespaces", ".type", type);
}

void lc_namespace_set(const struct lc *t, const char *type, const char *json)
{
	long i = lc_namespace_index(t, type);
	cr_assert_geq(i, 0, "config.json has no %s namespace", type);
	char path[64];
	snprintf(path, sizeof(path), ".linux.namespaces[%ld]", i);
	ctt_config_set(t->bundle, path, json);
}

/* ---- running ctrun ---- */

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
	char *mark = mark_env(t);
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
		if (strcmp(status, want) == 0 || waited >= POLL_LIMIT_MS)
			break;
		sleep_ms(20);
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

/* Field 22 of /proc/PID/stat (clock ticks since boot); fails the test when unreadable. */
static unsigned long long start_time(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	char *text = ctt_read_file(path), *p = strrchr(text, ')');
	unsigned long long t = 0;
	cr_assert(p && sscanf(p + 2,
			      "%*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			      "%*s %*s %*s %*s %*s %llu",
			      &t) == 1,
		  "no start time in %s", path);
	free(text);
	return t;
}

pid_t lc_recycle_pid(const struct lc *t, const char *id)
{
	char *file = lc_state_file(t, id), *out = ctt_path(ctt_tmpdir(), "recycled.out");
	yajl_val state = ctt_json_load(file);
	unsigned long long recorded =
		(unsigned long long)ctt_json_get_int(state, ".ctrun.pidStartTime");
	yajl_tree_free(state);
	pid_t other;
	/* a process started in the same clock tick as the init is, by start time, the init */
	for (;;) {
		other = lc_spawn(t, (const char *const[]){"/bin/sleep", "1000", NULL}, out, -1);
		if (start_time(other) != recorded)
			break;
		kill(other, SIGKILL);
		lc_wait(other, POLL_LIMIT_MS);
	}
	char pidtext[16];
	snprintf(pidtext, sizeof(pidtext), "%d", other);
	ctt_json_edit_file(file, ".pid", pidtext);
	free(out);
	free(file);
	return other;
}

void lc_assert_log_one_error(const char *log, const char *needle)
{
	char *text = ctt_read_file(log);
	cr_expect_eq(ctt_count_lines(text), 1, "log:\n%s", text);
	yajl_val v = ctt_json_parse(text, log);
	cr_expect_str_eq(ctt_json_get_string(v, ".level"), "error");
	const char *msg = ctt_json_get_string(v, ".msg");
	cr_expect(msg && strstr(msg, needle), "msg: %s", msg ? msg : "(none)");
	cr_expect_not_null(ctt_json_get_string(v, ".time"));
	cr_expect_eq(ctt_json_len(v, ""), 3, "other members than level, msg, time:\n%s", text);
	yajl_tree_free(v);
	free(text);
}

void lc_strip_cr(char *s)
{
	char *out = s;
	for (; *s; s++)
		if (*s != '\r')
			*out++ = *s;
	*out = '\0';
}

void lc_install_sysprobe(const struct lc *t)
{
	char *dest = lc_rootfs_path(t, "bin/sysprobe");
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"cp", ctt_helper("sysprobe"), dest, NULL});
	cr_assert_eq(r.status, 0, "cp sysprobe: %s", r.err);
	ctt_result_free(&r);
	free(dest);
}

bool lc_alive(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

char *lc_rootfs_path(const struct lc *t, const char *rel)
{
	char *rootfs = ctt_path(t->bundle, "rootfs");
	char *path = ctt_path(rootfs, rel);
	free(rootfs);
	return path;
}

void lc_assert_rootfs_content(const struct lc *t, const char *rel, const char *want)
{
	char *path = lc_rootfs_path(t, rel);
	char *text = lc_wait_content(path, want);
	cr_expect_str_eq(text, want, "/%s: %s", rel, text);
	free(text);
	free(path);
}

void lc_wait_file(const char *path)
{
	for (unsigned waited = 0; !ctt_exists(path); waited += 20) {
		cr_assert_lt(waited, POLL_LIMIT_MS, "\"%s\" never appeared", path);
		sleep_ms(20);
	}
}

char *lc_wait_content(const char *path, const char *needle)
{
	for (unsigned waited = 0;; waited += 20) {
		char *text = ctt_exists(path) ? ctt_read_file(path) : strdup("");
		if (strstr(text, needle))
			return text;
		cr_assert_lt(waited, POLL_LIMIT_MS, "\"%s\" never held \"%s\": %s", path, needle,
			     text);
		free(text);
		sleep_ms(20);
	}
}

/* ---- background processes ---- */

/* environ plus the mark, built before fork: the child only execs. */
static char **env_with_mark(const struct lc *t)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **env = calloc(n + 2, sizeof(*env));
	cr_assert_not_null(env);
	memcpy(env, environ, n * sizeof(*env));
	env[n] = mark_env(t);
	return env;
}

pid_t lc_fork_exec(const char *const *argv, char *const *env, const char *in_file, const char *out,
		   const char *err, int fd3)
{
	int in = open(in_file, O_RDONLY | O_CLOEXEC);
	int o = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	int e = open(err, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	cr_assert(in >= 0 && o >= 0 && e >= 0, "open \"%s\", \"%s\", \"%s\": %s", in_file, out, err,
		  strerror(errno));
	pid_t pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (dup2(in, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0 ||
		    (fd3 >= 0 && dup2(fd3, 3) < 0))
			_exit(127);
		execvpe(argv[0], (char *const *)argv, env ? env : environ);
		_exit(127);
	}
	close(in);
	close(o);
	close(e);
	return pid;
}

pid_t lc_spawn(const struct lc *t, const char *const *argv, const char *out, int fd3)
{
	unsigned slot = 0;
	while (slot < nspawned && spawned[slot])
		slot++;
	cr_assert_lt(slot, MAX_SPAWNED, "too many background processes");
	char **env = env_with_mark(t);
	pid_t pid = lc_fork_exec(argv, env, "/dev/null", out, out, fd3);
	size_t n = 0;
	while (env[n + 1])
		n++;
	free(env[n]); /* the mark, last */
	free(env);
	spawned[slot] = pid;
	if (slot == nspawned)
		nspawned++;
	return pid;
}

char *lc_spawn_output(const struct lc *t, const char *const *argv, int fd3, int *status)
{
	char *out = ctt_path(ctt_tmpdir(), "out");
	pid_t pid = lc_spawn(t, argv, out, fd3);
	*status = lc_wait(pid, 20000);
	char *text = ctt_read_file(out);
	free(out);
	return text;
}

pid_t lc_console_receiver(const struct lc *t, const char *sock, const char *out,
			  const char *const *opts)
{
	const char *argv[8] = {ctt_helper("console_receiver"), sock};
	size_t n = 2;
	for (; opts && *opts; opts++) {
		cr_assert_lt(n, 7, "too many receiver options");
		argv[n++] = *opts;
	}
	argv[n] = NULL;
	pid_t pid = lc_spawn(t, argv, out, -1);
	free(lc_wait_content(out, "ready\n"));
	return pid;
}

const char *const *lc_ctrun_argv(const struct lc *t, const char *const *args)
{
	static const char *argv[MAX_ARGV];
	return full_argv(t, args, argv, MAX_ARGV);
}

int lc_wait(pid_t pid, unsigned timeout_ms)
{
	int wstatus;
	for (unsigned waited = 0;; waited += 10) {
		pid_t r = waitpid(pid, &wstatus, WNOHANG);
		cr_assert_geq(r, 0, "waitpid %d: %s", pid, strerror(errno));
		if (r == pid)
			break;
		if (waited >= timeout_ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &wstatus, 0);
			cr_assert_fail("process %d did not exit within %u ms", pid, timeout_ms);
		}
		sleep_ms(10);
	}
	for (unsigned i = 0; i < nspawned; i++)
		if (spawned[i] == pid)
			spawned[i] = 0;
	return WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : WEXITSTATUS(wstatus);
}

/* ---- checks ---- */

bool lc_matches(const char *text, const char *pattern)
{
	regex_t re;
	cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB | REG_NEWLINE), 0,
		     "bad regex %s", pattern);
	bool ok = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

void lc_assert_error_line(const struct ctt_result *r, const char *const *needles)
{
	cr_expect_neq(r->status, 0, "exit 0, stdout: %s", r->out);
	cr_expect_eq(ctt_count_lines(r->err), 1, "one line expected on stderr: %s", r->err);
	cr_expect(lc_matches(r->err, "^ctrun( [a-z]+)?: "), "stderr: %s", r->err);
	for (; *needles; needles++)
		cr_expect(strstr(r->err, *needles), "\"%s\" not in stderr: %s", *needles, r->err);
}

void lc_expect_failv(const struct lc *t, const char *const *args, const char *const *needles)
{
	struct ctt_result r;
	lc_ctrunv(&r, t, args);
	lc_assert_error_line(&r, needles);
	ctt_result_free(&r);
}

void lc_assert_create_refused(const struct lc *t, const char *id, const char *const *needles)
{
	static const char *const commands[] = {"create", "run"};
	for (size_t i = 0; i < 2; i++) {
		lc_expect_failv(t, LC_ARGV(commands[i], "--bundle", t->bundle, id), needles);
		lc_assert_nothing_left(t);
	}
}

void lc_assert_file_text(const char *path, const char *want)
{
	char *got = ctt_read_file(path);
	cr_expect_str_eq(got, want, "%s changed", path);
	free(got);
}

/* Whether /proc/<pid>/<file> (NUL-separated) has an entry equal to entry. */
static bool proc_has_entry(const char *pid, const char *file, const char *entry, char sep)
{
	char path[64], buf[65536];
	snprintf(path, sizeof(path), "/proc/%s/%s", pid, file);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = sep;
	if (buf[n - 1] == sep)
		buf[n - 1] = '\0';
	if (sep == ' ')
		return strcmp(buf, entry) == 0;
	for (char *s = buf; s < buf + n; s += strlen(s) + 1)
		if (strcmp(s, entry) == 0)
			return true;
	return false;
}

int lc_count_left_processes(const struct lc *t)
{
	char *mark = mark_env(t);
	DIR *d = opendir("/proc");
	cr_assert_not_null(d, "opendir /proc: %s", strerror(errno));
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (atoi(e->d_name) > 0 && atoi(e->d_name) != getpid() &&
		    proc_has_entry(e->d_name, "environ", mark, '\0'))
			n++;
	closedir(d);
	free(mark);
	return n;
}

static unsigned count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	unsigned n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

void lc_assert_nothing_left(const struct lc *t)
{
	/* no entry at all: containerd and Podman read each one as a container */
	cr_expect_eq(count_entries(t->root), 0, "the state root \"%s\" is not empty", t->root);
	struct ctt_result r;
	lc_ctrun(&r, t, "list", "-q");
	cr_expect_eq(r.status, 0, "list -q: %s", r.err);
	cr_expect_str_empty(r.out, "list -q: %s", r.out);
	ctt_result_free(&r);
	cr_expect_eq(lc_count_left_processes(t), 0, "a process of the test's containers is left");
	char *mounts = ctt_read_file("/proc/self/mountinfo");
	cr_expect_null(strstr(mounts, t->bundle), "a mount is left below %s", t->bundle);
	free(mounts);
}

char *lc_ns_link(const char *who, const char *name)
{
	char path[64], buf[128];
	snprintf(path, sizeof(path), "/proc/%s/ns/%s", who, name);
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	cr_assert_gt(n, 0, "readlink %s", path);
	buf[n] = '\0';
	return strdup(buf);
}

/* How many processes lc_count_in_pidns() means; *first gets one of them (0: none). */
static int scan_pidns(pid_t pid, const char *cmdline, pid_t *first)
{
	char path[64];
	struct stat ns, st;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", pid);
	cr_assert_eq(stat(path, &ns), 0, "stat %s: %s", path, strerror(errno));
	DIR *d = opendir("/proc");
	cr_assert_not_null(d);
	int n = 0;
	*first = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (atoi(e->d_name) <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/pid", e->d_name);
		if (stat(path, &st) == 0 && st.st_ino == ns.st_ino && st.st_dev == ns.st_dev &&
		    proc_has_entry(e->d_name, "cmdline", cmdline, ' ') && !n++)
			*first = (pid_t)atoi(e->d_name);
	}
	closedir(d);
	return n;
}

int lc_count_in_pidns(pid_t pid, const char *cmdline)
{
	pid_t first;
	return scan_pidns(pid, cmdline, &first);
}

/* Waits for it: a shell's "cmd &" forks first and execs later, so a marker the shell
 * writes next may come before the child shows the command line. */
pid_t lc_find_in_pidns(pid_t pid, const char *cmdline)
{
	pid_t first;
	for (unsigned waited = 0; scan_pidns(pid, cmdline, &first) == 0; waited += 20) {
		cr_assert_lt(waited, POLL_LIMIT_MS, "no \"%s\" in the pid namespace of %d", cmdline,
			     (int)pid);
		sleep_ms(20);
	}
	return first;
}

void lc_wait_count_in_pidns(pid_t pid, const char *cmdline, int want)
{
	for (unsigned waited = 0; lc_count_in_pidns(pid, cmdline) != want; waited += 20) {
		cr_assert_lt(waited, POLL_LIMIT_MS, "%d of \"%s\" expected, %d there", want,
			     cmdline, lc_count_in_pidns(pid, cmdline));
		sleep_ms(20);
	}
}

/* ---- clean-up ---- */

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
	for (unsigned i = 0; i < nspawned; i++)
		if (spawned[i] > 0) {
			kill(spawned[i], SIGKILL);
			waitpid(spawned[i], NULL, 0);
		}
	nspawned = 0;
	while (nboxes)
		delete_all(&boxes[--nboxes]);
	cgt_leave_own();
}

void lc_cleanup(void)
{
	forget_containers();
	ctt_cleanup();
}

void lc_chown_tree(const char *path, unsigned uid)
{
	char owner[32];
	snprintf(owner, sizeof(owner), "%u:%u", uid, uid);
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"chown", "-R", "-h", owner, path, NULL});
	cr_assert_eq(r.status, 0, "chown -R %s %s: %s", owner, path, r.err);
	ctt_result_free(&r);
}

void lc_make_searchable(const char *dir)
{
	cr_assert_eq(chmod(dir, 0755), 0, "chmod %s: %s", dir, strerror(errno));
}
