/* Starting criu (libct/criu/swrk.c): what the child fails at before criu runs comes back as
 * the error, and the root a restore binds for criu is in criu's mount namespace only. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/criu/swrk.h"

static char dir[] = "/tmp/criu-swrk-XXXXXX";

/* The test's directory and what it holds (no subdirectory but an unmounted root). */
static void remove_dir(void)
{
	if (strchr(dir, 'X'))
		return;
	static const char *const names[] = {"criu", "ran", "ran.ran", "seen", "root"};
	char path[sizeof(dir) + 16];
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (unlink(path) < 0)
			rmdir(path);
	}
	rmdir(dir);
}

TestSuite(criu_swrk, .fini = remove_dir);

static void make_dir(void)
{
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

/* dir/name holding text, mode 0755: what $CTRUN_CRIU names. */
static char *criu_file(const char *name, const char *text)
{
	static char path[sizeof(dir) + 32];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	cr_assert_eq(chmod(path, 0755), 0);
	setenv(CT_CRIU_ENV, path, 1);
	return path;
}

static void assert_start_fails_with(const struct ct_criu_swrk_opts *o, int errnum,
				    const char *needle)
{
	struct ct_criu_swrk w;
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_swrk_start(o, &w, &err), -1, "criu started");
	cr_expect_eq(err.errnum, errnum, "errno %d: %s", err.errnum, err.msg);
	cr_expect_not_null(strstr(err.msg, needle), "\"%s\" does not say %s", err.msg, needle);
	cr_expect_eq(w.pid, -1, "the child is reaped");
}

Test(criu_swrk, a_criu_that_cannot_be_executed_is_named)
{
	make_dir();
	criu_file("criu", ""); /* executable, no format the kernel knows */
	assert_start_fails_with(&(struct ct_criu_swrk_opts){0}, ENOEXEC,
				"criu: exec \"/tmp/criu-swrk-");
}

Test(criu_swrk, a_root_that_cannot_be_bound_fails_before_criu_runs)
{
	if (geteuid() != 0)
		cr_skip_test("binding needs root (a mount namespace of criu's own)");
	make_dir();
	char *ran = strdup(criu_file("ran", ""));
	char script[256];
	snprintf(script, sizeof(script), "#!/bin/sh\ntouch %s.ran\n", ran);
	criu_file("criu", script);
	struct ct_criu_swrk_opts o = {.bind_source = "/nonexistent-root", .bind_target = dir};
	assert_start_fails_with(&o, ENOENT, "criu: bind the restored root: ");
	char marker[300];
	snprintf(marker, sizeof(marker), "%s.ran", ran);
	cr_expect_neq(access(marker, F_OK), 0, "criu ran");
	free(ran);
}

/* criu sees the root bound, the caller's mount table does not, during and after. */
Test(criu_swrk, the_bound_root_is_criu_s_alone)
{
	if (geteuid() != 0)
		cr_skip_test("binding needs root (a mount namespace of criu's own)");
	make_dir();
	char target[sizeof(dir) + 8], seen[sizeof(dir) + 16], script[512];
	snprintf(target, sizeof(target), "%s/root", dir);
	snprintf(seen, sizeof(seen), "%s/seen", dir);
	cr_assert_eq(mkdir(target, 0700), 0);
	snprintf(script, sizeof(script), "#!/bin/sh\ngrep -c ' %s ' /proc/self/mountinfo > %s\n",
		 target, seen);
	criu_file("criu", script);
	struct ct_criu_swrk_opts o = {.bind_source = "/etc", .bind_target = target};
	struct ct_criu_swrk w;
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_swrk_start(&o, &w, &err), 0, "%s", err.msg);
	ct_criu_swrk_end(&w); /* reaps criu: its file is written */
	FILE *f = fopen(seen, "r");
	cr_assert_not_null(f, "criu did not run");
	int n = 0;
	cr_expect_eq(fscanf(f, "%d", &n), 1);
	fclose(f);
	cr_expect_eq(n, 1, "criu sees the bind once, not %d times", n);
	FILE *m = fopen("/proc/self/mountinfo", "r");
	char line[4096], needle[sizeof(target) + 2];
	snprintf(needle, sizeof(needle), " %s ", target);
	while (fgets(line, sizeof(line), m))
		cr_expect_null(strstr(line, needle), "bound in the caller's namespace: %s", line);
	fclose(m);
	rmdir(target);
}

/* criu's stdio is /dev/null even where ctrun was started with it closed. */
Test(criu_swrk, criu_s_stdio_is_open_when_the_caller_s_is_closed)
{
	make_dir();
	char seen[sizeof(dir) + 16], script[512];
	snprintf(seen, sizeof(seen), "%s/seen", dir);
	/* $(...) is expanded before the redirection: fds of criu's own */
	snprintf(script, sizeof(script),
		 "#!/bin/sh\nr() { readlink /proc/$$/fd/$1; }\n"
		 "printf '%%s\\n' \"$(r 0)\" \"$(r 1)\" \"$(r 2)\" >%s\n",
		 seen);
	criu_file("criu", script);
	cr_assert_eq(close(0), 0);
	struct ct_criu_swrk w;
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_swrk_start(&(struct ct_criu_swrk_opts){0}, &w, &err), 0, "%s",
		     err.msg);
	ct_criu_swrk_end(&w);
	FILE *f = fopen(seen, "r");
	cr_assert_not_null(f, "criu did not run");
	char text[256] = "";
	size_t len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	cr_expect_str_eq(text, "/dev/null\n/dev/null\n/dev/null\n", "criu's stdio");
}
