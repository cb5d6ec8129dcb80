/* The command line as containerd, Podman and people meet it: global flags, usage errors,
 * the version lines, the log file, and the commands that do not exist yet. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/container.h"
#include "tests/lib/rows.h"
#include "tests/lib/testlib.h"

TestSuite(cli, .fini = lc_cleanup);

/* A usage error: exit 1, nothing on stdout, exactly one line on stderr. */
static void assert_usage_error(const struct ctt_result *r, const char *what)
{
	cr_expect_eq(r->status, 1, "%s: exit %d", what, r->status);
	cr_expect_str_empty(r->out, "%s: stdout: %s", what, r->out);
	cr_expect_eq(ctt_count_lines(r->err), 1, "%s: stderr: %s", what, r->err);
	cr_expect(ctt_matches(r->err, "^ctrun( [a-z]+)?: .+\n$"), "%s: stderr: %s", what, r->err);
}

/* The three lines the clients parse, then the libc the binary was linked with. */
Test(cli, version_lines)
{
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "--version", NULL);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_assert_eq(ctt_count_lines(r.out), 4, "stdout: %s", r.out);
	cr_assert(ctt_matches(r.out, "^ctrun version [0-9]+\\.[0-9]+\\.[0-9]+\n"
				     "commit: ([0-9a-f]+|unknown)\n"
				     "spec: 1\\.3\\.0\n"
				     "libc: (musl|glibc [0-9]+\\.[0-9]+)\n$"),
		  "stdout: %s", r.out);
	ctt_result_free(&r);
}

Test(cli, short_version_flag)
{
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "-v", NULL);
	cr_assert_eq(r.status, 0);
	cr_assert(ctt_matches(r.out, "^ctrun version "), "stdout: %s", r.out);
	ctt_result_free(&r);
}

/* A usage error (unknown flag, command or value) names what was wrong, and the command when
 * a subcommand's flag was. */
struct usage_case {
	const char *args[5];  /* NULL-terminated */
	const char *what;     /* the command line, as the failure message shows it */
	const char *named[3]; /* what stderr must contain; NULL-terminated */
};

static const struct usage_case usage_cases[] = {
	{{"--no-such-flag", "state", "x"}, "--no-such-flag", {"--no-such-flag"}},
	{{"validate", "--no-such-flag"},
	 "validate --no-such-flag",
	 {"ctrun validate: ", "--no-such-flag"}},
	{{"frobnicate"}, "frobnicate", {"\"frobnicate\""}},
	{{"--log-format", "xml", "state", "x"}, "--log-format xml", {"\"xml\""}},
	/* a switch given a value, as runc's flag package takes it: named, not garbled */
	{{"--debug=true", "list"}, "--debug=true", {"flag '--debug' takes no value"}},
	{{"delete", "--force=true", "x"},
	 "delete --force=true",
	 {"ctrun delete: ", "flag '--force' takes no value"}},
	{{"list", "-qz"}, "list -qz", {"ctrun list: ", "'-z'"}},
	/* a bad letter inside a cluster after a good long flag: the letter, not the flag */
	{{"exec", "--detach", "-zt", "x"}, "exec --detach -zt", {"ctrun exec: ", "flag '-z'"}},
	/* values runc lets through (--preserve-fds -1 as 0, any --rootless until it is used) */
	{{"run", "--preserve-fds", "-1", "x"}, "run --preserve-fds -1", {"invalid count \"-1\""}},
	{{"--rootless", "maybe", "list"}, "--rootless maybe", {"\"maybe\""}},
};

ParameterizedTestParameters(cli, usage_error_names_what_was_wrong)
{
	return ctt_rows(CTT_COUNT(usage_cases));
}

ParameterizedTest(size_t *i, cli, usage_error_names_what_was_wrong)
{
	const struct usage_case *c = &usage_cases[*i];
	struct ctt_result r;
	ctt_ctrunv(&r, NULL, c->args);
	assert_usage_error(&r, c->what);
	for (const char *const *n = c->named; *n; n++)
		cr_expect(strstr(r.err, *n), "%s: stderr names %s: %s", c->what, *n, r.err);
	ctt_result_free(&r);
}

Test(cli, missing_flag_argument)
{
	static const char *const cases[][3] = {
		{"--root", NULL},
		{"--log", NULL},
		{"spec", "--bundle", NULL},
		{"validate", "--bundle", NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ctt_result r;
		ctt_ctrunv(&r, NULL, cases[i]);
		assert_usage_error(&r, cases[i][1] ? cases[i][1] : cases[i][0]);
		cr_expect(strstr(r.err, "needs an argument"), "stderr: %s", r.err);
		ctt_result_free(&r);
	}
}

/* Podman's probes for checkpoint support: `checkpoint --help` exits 0, and `restore
 * --lsm-mount-context` without its value names the missing argument as Go's flag package does. */
Test(cli, checkpoint_probes_answer_as_podman_expects)
{
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "checkpoint", "--help", NULL);
	cr_expect_eq(r.status, 0, "checkpoint --help: exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "--image-path"), "stdout: %s", r.out);
	ctt_result_free(&r);
	ctt_ctrun(&r, NULL, "restore", "--lsm-mount-context", NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "flag needs an argument"), "stderr: %s", r.err);
	ctt_result_free(&r);
}

/* go-runc writes -no-subreaper with one dash; a flag ctrun cannot honour is refused, naming it;
 * a checkpoint of a container that does not exist says so in one line and makes nothing. */
Test(cli, checkpoint_and_restore_flags)
{
	char *root = ctt_tmpdir();
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "restore", "-no-subreaper", "--help", NULL);
	cr_expect_eq(r.status, 0, "-no-subreaper: exit %d: %s", r.status, r.err);
	ctt_result_free(&r);
	ctt_ctrun(&r, NULL, "--root", root, "checkpoint", "--lazy-pages", "x", NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "--lazy-pages: not supported"), "stderr: %s", r.err);
	ctt_result_free(&r);
	ctt_ctrun(&r, NULL, "--root", root, "restore", "--leave-running", "x", NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "unknown flag '--leave-running'"), "stderr: %s", r.err);
	ctt_result_free(&r);
	ctt_ctrun(&r, NULL, "--root", root, "checkpoint", "--image-path", root, "nope", NULL);
	const char *needles[] = {"checkpoint container \"nope\"", "does not exist", NULL};
	ctt_assert_error_line(&r, needles);
	ctt_result_free(&r);
	free(root);
}

static void assert_json_log_line(const char *line, const char *msg_part)
{
	yajl_val rec = ctt_json_parse(line, "log line");
	cr_expect(YAJL_IS_OBJECT(rec), "not an object: %s", line);
	cr_expect_str_eq(ctt_json_get_string(rec, ".level"), "error", "line: %s", line);
	const char *msg = ctt_json_get_string(rec, ".msg");
	cr_expect(msg && strstr(msg, msg_part), "msg: %s", line);
	const char *time = ctt_json_get_string(rec, ".time");
	cr_expect(time && ctt_matches(time, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"
					    "(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"),
		  "time is not RFC 3339: %s", line);
	yajl_tree_free(rec);
}

Test(cli, log_file_json_one_object_per_line)
{
	char *dir = ctt_tmpdir();
	char *log = ctt_path(dir, "ctrun.log");
	char *missing = ctt_path(dir, "no-bundle");
	struct ctt_result r;
	/* Two runs append: each error is its own line. */
	for (int i = 0; i < 2; i++) {
		ctt_ctrun(&r, NULL, "--log", log, "--log-format", "json", "validate", "--bundle",
			  missing, NULL);
		cr_assert_eq(r.status, 1, "stderr: %s", r.err);
		cr_expect(strstr(r.err, "No such file or directory"), "stderr too: %s", r.err);
		ctt_result_free(&r);
	}
	char *text = ctt_read_file(log);
	cr_assert_eq(ctt_count_lines(text), 2, "log: %s", text);
	cr_assert_eq(text[strlen(text) - 1], '\n', "log: %s", text);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		assert_json_log_line(line, "No such file or directory");
	free(text);
	free(missing);
	free(log);
}

/* With --log the stderr line is runc's bare message (conmon passes it to Podman, which
 * prefixes the runtime's name itself); without, it says who speaks. */
Test(cli, error_line_is_bare_with_a_log_file)
{
	char *log = ctt_tmp_path("ctrun.log");
	const char *want = "kill container \"ctrun-none\": container \"ctrun-none\" does not exist";
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "--root", "/nonexistent", "--log", log, "--log-format", "json", "kill",
		  "ctrun-none", "15", NULL);
	cr_expect_eq(r.status, 1);
	cr_expect_eq(strncmp(r.err, want, strlen(want)), 0, "stderr: %s", r.err);
	cr_expect_eq(ctt_count_lines(r.err), 1, "stderr: %s", r.err);
	ctt_result_free(&r);
	ctt_ctrun(&r, NULL, "--root", "/nonexistent", "kill", "ctrun-none", "15", NULL);
	cr_expect_eq(strncmp(r.err, "ctrun: ", 7), 0, "stderr: %s", r.err);
	cr_expect(strstr(r.err, want), "stderr: %s", r.err);
	ctt_result_free(&r);
	free(log);
}

/* --log-format text is logrus's, as runc writes it: each record one line of key=value pairs,
 * msg quoted as Go's %q where it holds more than letters, digits and -._/@^+, so that the
 * quotes of `container "ID"` do not end it early. */
static void assert_logrus_text_lines(const char *text)
{
	cr_assert(text[0] && text[strlen(text) - 1] == '\n', "log: %s", text);
	char *copy = strdup(text);
	for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n"))
		cr_expect(ctt_matches(line,
				      "^time=\"[0-9T:.Z-]+\" level=(debug|info|warning|error) "
				      "msg=(\"([^\"\\\\]|\\\\.)*\"|[-A-Za-z0-9._/@^+]*)$"),
			  "not a logrus text record: %s", line);
	free(copy);
}

Test(cli, log_file_text_quotes_messages_as_logrus)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "echo inside-ran");
	char *log = ctt_tmp_path("ctrun.log");
	struct ctt_result r;
	lc_ctrun(&r, &t, "--log", log, "--log-format", "text", "--debug", "run", "--bundle",
		 t.bundle, "logtext");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, "inside-ran\n");
	ctt_result_free(&r);
	lc_ok(&t, "create", "--bundle", t.bundle, "logtext");
	lc_ctrun(&r, &t, "--log", log, "--log-format", "text", "create", "--bundle", t.bundle,
		 "logtext");
	cr_expect_eq(r.status, 1);
	ctt_result_free(&r);
	lc_assert_status(&t, "logtext", "created");
	char *text = ctt_read_file(log);
	assert_logrus_text_lines(text);
	cr_expect(strstr(text, "level=debug msg=\"container \\\"logtext\\\": init "),
		  "no debug record of the run: %s", text);
	cr_expect(ctt_matches(text, "level=error msg=\"[^\n]*container \\\\\"logtext\\\\\""),
		  "no error record of the second create: %s", text);
	free(text);
	free(log);
}

/* getopt_long's "--flag=value" form, globally and per command. */
Test(cli, flag_equals_value_form)
{
	char *dir = ctt_tmpdir();
	char *log = ctt_path(dir, "ctrun.log");
	char *flag_log = NULL, *flag_bundle = NULL;
	cr_assert_geq(asprintf(&flag_log, "--log=%s", log), 0);
	cr_assert_geq(asprintf(&flag_bundle, "--bundle=%s", dir), 0);
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "--log-format=json", "--root=/x", flag_log, "spec", flag_bundle, NULL);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	ctt_result_free(&r);
	char *config = ctt_path(dir, "config.json");
	cr_assert(ctt_exists(config), "--bundle=DIR was not used");

	/* The second spec fails: its error reaches the log as JSON, so --log-format=json took. */
	ctt_ctrun(&r, NULL, "--log-format=json", "--root=/x", flag_log, "spec", flag_bundle, NULL);
	cr_assert_eq(r.status, 1);
	ctt_result_free(&r);
	char *text = ctt_read_file(log);
	cr_assert_eq(ctt_count_lines(text), 1, "log: %s", text);
	assert_json_log_line(text, "already exists");
	free(text);
	free(config);
	free(flag_bundle);
	free(flag_log);
	free(log);
}

/* The systemd driver works on systemd's unified layout only; a hybrid host (this one:
 * cgroup2 on /sys/fs/cgroup/unified) gets the reason and what to use instead. */
Test(cli, systemd_cgroup_refused_on_a_hybrid_layout)
{
	if (!ctt_exists("/sys/fs/cgroup/unified/cgroup.controllers"))
		ctt_skip("/sys/fs/cgroup is not hybrid here: the systemd driver is not refused");
	static const char want[] = "the systemd cgroup driver needs cgroup v2 (systemd's unified "
				   "layout), but /sys/fs/cgroup here is hybrid (v1 hierarchies, "
				   "cgroup2 on /sys/fs/cgroup/unified): use --cgroup-manager "
				   "cgroupfs";
	char *bundle = ctt_bundle_new(), *root = ctt_tmpdir();
	static const char *const flags[][2] = {{"--systemd-cgroup", NULL},
					       {"--cgroup-manager", "systemd"}};
	for (size_t i = 0; i < 2; i++) {
		struct ctt_result r;
		if (flags[i][1])
			ctt_ctrun(&r, NULL, "--root", root, flags[i][0], flags[i][1], "create",
				  "--bundle", bundle, "x", NULL);
		else
			ctt_ctrun(&r, NULL, "--root", root, flags[i][0], "create", "--bundle",
				  bundle, "x", NULL);
		cr_expect_eq(r.status, 1, "%s: exit %d", flags[i][0], r.status);
		cr_expect(strstr(r.err, want), "%s: stderr: %s", flags[i][0], r.err);
		cr_expect_eq(ctt_count_entries(root), 0, "nothing left in the state root");
		ctt_result_free(&r);
	}
	free(bundle);
	free(root);
}

Test(cli, help_lists_every_command)
{
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "--help", NULL);
	cr_assert_eq(r.status, 0);
	static const char *const names[] = {"spec", "features", "validate", "create", "delete"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char pat[64];
		snprintf(pat, sizeof(pat), "^  %s ", names[i]);
		cr_expect(ctt_matches(r.out, pat), "%s missing from help: %s", names[i], r.out);
	}
	ctt_result_free(&r);
}

/* runc's `help COMMAND` is `COMMAND --help`; a name that is no command is a usage error. */
Test(cli, help_with_a_command_prints_its_help)
{
	static const char *const names[] = {"state", "exec", "update", "run"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct ctt_result topic, flag;
		ctt_ctrun(&topic, NULL, "help", names[i], NULL);
		ctt_ctrun(&flag, NULL, names[i], "--help", NULL);
		cr_expect_eq(topic.status, 0, "help %s: exit %d: %s", names[i], topic.status,
			     topic.err);
		cr_expect_str_eq(topic.out, flag.out, "help %s", names[i]);
		ctt_result_free(&topic);
		ctt_result_free(&flag);
	}
	struct ctt_result r, program;
	ctt_ctrun(&r, NULL, "help", "help", NULL);
	ctt_ctrun(&program, NULL, "--help", NULL);
	cr_expect_eq(r.status, 0, "help help: exit %d: %s", r.status, r.err);
	cr_expect_str_eq(r.out, program.out, "help help");
	ctt_result_free(&r);
	ctt_result_free(&program);
	ctt_ctrun(&r, NULL, "help", "frobnicate", NULL);
	assert_usage_error(&r, "help frobnicate");
	cr_expect(strstr(r.err, "\"frobnicate\""), "stderr: %s", r.err);
	ctt_result_free(&r);
}
