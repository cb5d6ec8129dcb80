/* What the tests assert about ctrun as a whole: one error line, nothing left behind. */
#include "tests/lib/container.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ctt_assert_error_line(const struct ctt_result *r, const char *const *needles)
{
	cr_expect_neq(r->status, 0, "exit 0, stdout: %s", r->out);
	cr_expect_eq(ctt_count_lines(r->err), 1, "one line expected on stderr: %s", r->err);
	cr_expect(ctt_matches(r->err, "^ctrun( [a-z]+)?: "), "stderr: %s", r->err);
	for (; *needles; needles++)
		cr_expect(strstr(r->err, *needles), "\"%s\" not in stderr: %s", *needles, r->err);
}

void lc_expect_failv(const struct lc *t, const char *const *args, const char *const *needles)
{
	struct ctt_result r;
	lc_ctrunv(&r, t, args);
	ctt_assert_error_line(&r, needles);
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

void lc_assert_nothing_left(const struct lc *t)
{
	/* no entry at all: containerd and Podman read each one as a container */
	cr_expect_eq(ctt_exists(t->root) ? ctt_count_entries(t->root) : 0, 0,
		     "the state root \"%s\" is not empty", t->root);
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

void ctt_assert_log_one_error(const char *log, const char *needle)
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

void lc_assert_rootfs_content(const struct lc *t, const char *rel, const char *want)
{
	char *path = lc_rootfs_path(t, rel);
	char *text = ctt_wait_content(path, want);
	cr_expect_str_eq(text, want, "/%s: %s", rel, text);
	free(text);
	free(path);
}

void lc_assert_sh_output(const struct lc *t, const char *script, const char *want)
{
	char *out = lc_sh_output(t, script);
	cr_expect_str_eq(out, want, "`%s`", script);
	free(out);
}

void lc_assert_run_output(const struct lc *t, const char *want)
{
	char *out = lc_run_output(t);
	cr_expect_str_eq(out, want, "the output of process.args");
	free(out);
}

void lc_assert_start_with_setup(const struct lc *t, const char *id, bool with_setup)
{
	struct ctt_result r;
	lc_debug_run_sh(&r, t, id, "echo ran; exit 5");
	cr_expect_eq(r.status, 5, "%s", r.err);
	cr_expect_str_eq(r.out, "ran\n");
	bool sent_with_setup = strstr(r.err, "START sent with the set-up") != NULL;
	cr_expect_eq(sent_with_setup, with_setup, "START %s with the set-up:\n%s",
		     sent_with_setup ? "sent" : "not sent", r.err);
	ctt_result_free(&r);
}

void lc_assert_status(const struct lc *t, const char *id, const char *want)
{
	char *status = lc_status(t, id);
	cr_expect_str_eq(status, want, "container %s", id);
	free(status);
}

void ctt_assert_output(const struct ctt_result *r, int status, const char *out, const char *err)
{
	cr_expect_eq(r->status, status, "exit %d, stdout: %s\nstderr: %s", r->status, r->out,
		     r->err);
	cr_expect_str_eq(r->out, out, "stdout");
	cr_expect_str_eq(r->err, err, "stderr");
}

void ctt_assert_line(const char *text, const char *regex)
{
	cr_expect(ctt_matches(text, regex), "no line matching /%s/ in:\n%s", regex, text);
}

/* The "flags:" of each fdinfo has O_CLOEXEC (02000000). */
void lc_assert_fds_cloexec(pid_t pid, int keep)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/fdinfo", pid);
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "opendir %s: %s", dir, strerror(errno));
	unsigned checked = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || atoi(e->d_name) < keep)
			continue;
		char path[320];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		char *info = ctt_read_file(path);
		const char *flags = strstr(info, "flags:");
		cr_assert_not_null(flags, "%s: %s", path, info);
		unsigned long f = strtoul(flags + strlen("flags:"), NULL, 8);
		cr_expect(f & O_CLOEXEC, "fd %s of process %d is not close-on-exec: %s", e->d_name,
			  pid, info);
		checked++;
		free(info);
	}
	closedir(d);
	cr_expect_gt(checked, 0, "process %d holds no fd of ctrun at all", pid);
}
