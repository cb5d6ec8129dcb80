/* The hook runner (hooks/hooks.h): what an error keeps of a hook's output and says of its
 * end (pure), the runner itself on /bin/sh scripts (state on stdin, args, env, fds, the
 * timeout, a missing program), the list rules, and the hooks state.json keeps. */
#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hooks/hooks.h"
#include "libct/state/state.h"

/* ---- the output's tail ---- */

static void assert_tail(const char *written, unsigned lines, const char *want)
{
	struct ct_hook_tail t = {0};
	ct_hook_tail_append(&t, written, strlen(written));
	char out[CT_HOOK_TAIL_MAX + 8];
	ct_hook_tail_format(&t, lines, out, sizeof(out));
	cr_expect_str_eq(out, want, "tail of \"%s\"", written);
}

Test(hook_tail, last_lines_joined_blank_ones_skipped)
{
	/* a hook's output, how many of its last lines, what the error quotes */
	static const struct {
		const char *output;
		unsigned lines;
		const char *want;
	} rows[] = {
		{"", 3, ""},
		{"one\n", 3, "one"},
		{"one\ntwo", 3, "one; two"},
		{"a\n\n  \nb\nc\n\n", 3, "a; b; c"},
		{"a\nb\nc\nd\n", 3, "...b; c; d"},
		{"a\nb\nc\nd\n", 1, "...d"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_tail(rows[i].output, rows[i].lines, rows[i].want);
	assert_tail("bell\a and tab\tok\n", 3, "bell? and tab?ok");
}

Test(hook_tail, keeps_the_last_bytes_of_a_long_output)
{
	struct ct_hook_tail t = {0};
	for (int i = 0; i < 1000; i++)
		ct_hook_tail_append(&t, "xxxxxxxxx\n", 10);
	ct_hook_tail_append(&t, "the reason\n", 11);
	cr_expect(t.truncated);
	cr_expect_eq(t.len, CT_HOOK_TAIL_MAX);
	char out[CT_HOOK_TAIL_MAX + 8];
	ct_hook_tail_format(&t, 2, out, sizeof(out));
	cr_expect_str_eq(out, "...xxxxxxxxx; the reason");
}

Test(hook_exit, described_as_the_error_says)
{
	char out[64];
	ct_hook_describe_exit(CLD_EXITED, 3, out, sizeof(out));
	cr_expect_str_eq(out, "exited with status 3");
	ct_hook_describe_exit(CLD_KILLED, SIGKILL, out, sizeof(out));
	cr_expect_str_eq(out, "killed by signal 9 (SIGKILL)");
	ct_hook_describe_exit(CLD_DUMPED, SIGSEGV, out, sizeof(out));
	cr_expect_str_eq(out, "killed by signal 11 (SIGSEGV)");
}

Test(hook_kinds, spec_names_and_lists)
{
	struct oci_hooks h = {0};
	static const char *const names[] = {"prestart",	      "createRuntime", "createContainer",
					    "startContainer", "poststart",     "poststop"};
	const oci_hook_list *lists[] = {&h.prestart,	    &h.create_runtime, &h.create_container,
					&h.start_container, &h.poststart,      &h.poststop};
	for (int k = 0; k < CT_HOOK_KINDS; k++) {
		cr_expect_str_eq(ct_hook_kind_names[k], names[k]);
		cr_expect_eq(ct_hook_list(&h, k), lists[k], "%s", names[k]);
	}
}

/* ---- the runner, on /bin/sh ---- */

static char *sh_args[4];

static struct oci_hook sh_hook(const char *script)
{
	sh_args[0] = "sh";
	sh_args[1] = "-c";
	sh_args[2] = (char *)script;
	return (struct oci_hook){.path = "/bin/sh", .args = {sh_args, 3}};
}

static void assert_fails(const struct oci_hook *h, const char *const *needles)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_hook_run(CT_HOOK_CREATE_RUNTIME, 2, h, "{\"id\":\"x\"}", &err), -1,
		     "the hook succeeded");
	for (size_t i = 0; needles[i]; i++)
		cr_expect(strstr(err.msg, needles[i]), "\"%s\" not in: %s", needles[i], err.msg);
}
#define assert_hook_fails(h, ...) assert_fails(h, (const char *const[]){__VA_ARGS__, NULL})

Test(hook_run, exit_zero_succeeds)
{
	struct oci_hook h = sh_hook("cat >/dev/null; echo noise; echo more >&2");
	struct ct_error err = {0};
	cr_expect_eq(ct_hook_run(CT_HOOK_POSTSTART, 0, &h, "{}", &err), 0, "%s", err.msg);
}

/* Everything the hook got comes back in its stderr, which the error keeps. */
Test(hook_run, gets_the_state_args_env_and_only_fds_0_to_2)
{
	char *env[] = {"ONLY=this"};
	struct oci_hook h = sh_hook(
		"echo \"argv0=$0 state=$(cat)\" >&2; env | grep -v '^PWD=\\|^SHLVL=\\|^_=' | "
		"tr '\\n' ' ' >&2; echo >&2; ls /proc/self/fd | tr '\\n' ' ' >&2; exit 1");
	h.env = (oci_strings){env, 1};
	assert_hook_fails(&h, "createRuntime hook #2 \"/bin/sh\": exited with status 1",
			  "argv0=sh state={\"id\":\"x\"}", "; ONLY=this ;", "; 0 1 2 3 )");
}

Test(hook_run, timeout_kills_it)
{
	struct oci_hook h = sh_hook("echo waiting >&2; exec sleep 100");
	h.timeout = 1;
	h.has_timeout = true;
	assert_hook_fails(&h, "createRuntime hook #2 \"/bin/sh\": timed out after 1 s",
			  "(stderr: waiting)");
}

Test(hook_run, a_signal_is_reported)
{
	struct oci_hook h = sh_hook("kill -TERM $$");
	assert_hook_fails(&h, "killed by signal 15 (SIGTERM)");
}

Test(hook_run, missing_program_is_an_exec_error)
{
	struct oci_hook h = {.path = "/nonexistent/hook"};
	assert_hook_fails(&h, "createRuntime hook #2 \"/nonexistent/hook\": exec: No such file");
}

Test(hook_run, without_args_argv0_is_the_path)
{
	struct oci_hook h = {.path = "/bin/false"};
	assert_hook_fails(&h, "\"/bin/false\": exited with status 1");
}

/* ---- the lists ---- */

static char marker[64];

static void make_marker_path(void)
{
	snprintf(marker, sizeof(marker), "/tmp/ctrun-hook-unit-%d", getpid());
	unlink(marker);
}

static char *warnings[4];
static int nwarnings;

static void collect(void *arg, const char *msg)
{
	cr_expect_str_eq(arg, "arg");
	if (nwarnings < 4)
		warnings[nwarnings++] = strdup(msg);
}

Test(hook_lists, first_failure_stops_the_list_run_all_goes_on)
{
	make_marker_path();
	char touch[128];
	snprintf(touch, sizeof(touch), "echo ran >> %s", marker);
	char *fail_args[] = {"sh", "-c", "exit 9"}, *touch_args[] = {"sh", "-c", touch};
	struct oci_hook list[] = {{.path = "/bin/sh", .args = {fail_args, 3}},
				  {.path = "/bin/sh", .args = {touch_args, 3}}};
	struct oci_hooks hooks = {.poststart = {list, 2}, .poststop = {list, 2}};
	struct ct_error err = {0};
	cr_expect_eq(ct_hooks_run(&hooks, CT_HOOK_POSTSTART, "{}", &err), -1);
	cr_expect(strstr(err.msg, "poststart hook #0 \"/bin/sh\": exited with status 9"), "%s",
		  err.msg);
	cr_expect_neq(access(marker, F_OK), 0, "the hook after the failing one ran");
	ct_hooks_run_all(&hooks, CT_HOOK_POSTSTOP, "{}", collect, "arg");
	cr_expect_eq(access(marker, F_OK), 0, "poststop stopped at the failing hook");
	cr_assert_eq(nwarnings, 1);
	cr_expect(strstr(warnings[0], "poststop hook #0"), "%s", warnings[0]);
	unlink(marker);
	struct oci_hooks none = {0};
	cr_expect_eq(ct_hooks_run(&none, CT_HOOK_PRESTART, "{}", &err), 0);
}

/* ---- the state they read, and the hooks state.json keeps ---- */

static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb, (void)type, (void)ftw;
	return remove(path);
}

Test(hook_state, compact_one_line_with_the_pid_given)
{
	struct ct_state st = {
		.id = "c", .bundle = "/b", .rootfs = "/b/rootfs", .created = "t", .pid = 4242};
	char *json;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_format_compact(&st, "creating", 1, &json, &err), 0, "%s", err.msg);
	cr_expect_str_eq(json,
			 "{\"ociVersion\":\"" CT_STATE_OCI_VERSION "\",\"id\":\"c\",\"pid\":1,"
			 "\"status\":\"creating\",\"bundle\":\"/b\",\"rootfs\":\"/b/rootfs\","
			 "\"created\":\"t\",\"owner\":\"\"}");
	free(json);
}

Test(hook_state, poststart_and_poststop_survive_state_json)
{
	char dir[] = "/tmp/ctrun-hook-state-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	struct ct_error err = {0};
	int rootfd = ct_state_root_open(dir, false, &err);
	struct ct_container_dir d;
	cr_assert_eq(ct_state_reserve(rootfd, "c", &d, &err), 0, "%s", err.msg);
	char *args[] = {"notify", "-x"}, *env[] = {"A=1"};
	struct oci_hook start = {.path = "/bin/notify",
				 .args = {args, 2},
				 .env = {env, 1},
				 .timeout = 5,
				 .has_timeout = true};
	struct oci_hook stop = {.path = "/bin/cleanup"};
	struct ct_state st = {.id = "c",
			      .bundle = "/b",
			      .rootfs = "/b/r",
			      .created = "t",
			      .pid = 7,
			      .hooks = {.poststart = {&start, 1}, .poststop = {&stop, 1}}};
	cr_assert_eq(ct_state_write(&d, &st, &err), 0, "%s", err.msg);
	struct ct_state back;
	cr_assert_eq(ct_state_read(&d, &back, &err), 0, "%s", err.msg);
	cr_assert_eq(back.hooks.poststart.len, 1);
	const struct oci_hook *h = &back.hooks.poststart.items[0];
	cr_expect_str_eq(h->path, "/bin/notify");
	cr_expect_eq(h->args.len, 2);
	cr_expect_str_eq(h->args.items[1], "-x");
	cr_expect_str_eq(h->env.items[0], "A=1");
	cr_expect(h->has_timeout && h->timeout == 5);
	cr_assert_eq(back.hooks.poststop.len, 1);
	cr_expect_str_eq(back.hooks.poststop.items[0].path, "/bin/cleanup");
	cr_expect_not(back.hooks.poststop.items[0].has_timeout);
	cr_expect_eq(back.hooks.prestart.len + back.hooks.start_container.len, 0);
	ct_state_free(&back);
	ct_container_dir_close(&d);
	close(rootfd);
	nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}
