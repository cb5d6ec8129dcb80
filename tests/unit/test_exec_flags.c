/* `ctrun exec` flags (runtime/exec_flags.c): every flag in its `--flag value`, `--flag=value`
 * and short forms, the refusals, and the process object the flags make from config.json's
 * (runc's rules); plus the --process document (oci_process_parse) and its errors. */
#include <criterion/criterion.h>
#include <getopt.h>
#include <string.h>

#include "oci/config.h"
#include "runtime/exec_flags.h"

#define JSON(...) #__VA_ARGS__

/* Parses a NULL-terminated argument list (argv[0] "exec" is added). */
static int parse(struct ct_exec_flags *f, const char *const *args)
{
	static char *argv[64];
	int argc = 0;
	argv[argc++] = "exec";
	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	argv[argc] = NULL;
	optind = 0; /* getopt_long: full reinitialisation */
	return ct_exec_flags_parse(argc, argv, f);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

Test(exec_flags, every_flag_in_its_long_form)
{
	struct ct_exec_flags f;
	cr_assert_eq(
		parse(&f, ARGS("--process", "p.json", "--detach", "--pid-file", "pf",
			       "--console-socket", "cs", "--tty", "--cwd", "/w", "--env", "A=1",
			       "--user", "5:6", "--additional-gids", "7", "--cap", "CAP_KILL",
			       "--no-new-privs", "--apparmor", "aa", "--process-label", "lbl",
			       "--preserve-fds", "2", "--ignore-paused", "box")),
		0);
	cr_expect_str_eq(f.process_file, "p.json");
	cr_expect(f.detach && f.tty && f.ignore_paused);
	cr_expect_str_eq(f.pid_file, "pf");
	cr_expect_str_eq(f.console_socket, "cs");
	cr_expect_str_eq(f.cwd, "/w");
	cr_expect_eq(f.n_env, 1);
	cr_expect_str_eq(f.env[0], "A=1");
	cr_expect(f.has_user && f.has_gid);
	cr_expect_eq(f.uid, 5);
	cr_expect_eq(f.gid, 6);
	cr_expect_eq(f.n_gids, 1);
	cr_expect_eq(f.gids[0], 7);
	cr_expect_str_eq(f.caps[0], "CAP_KILL");
	cr_expect(f.no_new_privs_set && f.no_new_privs);
	cr_expect_str_eq(f.apparmor, "aa");
	cr_expect_str_eq(f.process_label, "lbl");
	cr_expect_eq(f.preserve_fds, 2);
	cr_expect_str_eq(f.id, "box");
	cr_expect_eq(f.n_args, 0);
	ct_exec_flags_free(&f);
}

Test(exec_flags, equals_forms_short_forms_and_repeats)
{
	struct ct_exec_flags f;
	cr_assert_eq(parse(&f, ARGS("--cwd=/x", "-e", "A=1", "--env=B=2", "-u", "9", "-g", "1",
				    "--additional-gids=2", "-c", "net_raw", "--cap=CAP_CHOWN",
				    "--no-new-privs=false", "--pid-file=/p", "-d", "-t", "box",
				    "sh", "-c", "echo --not-a-flag")),
		     0);
	cr_expect_str_eq(f.cwd, "/x");
	cr_expect_eq(f.n_env, 2);
	cr_expect_str_eq(f.env[1], "B=2");
	cr_expect(f.has_user && !f.has_gid);
	cr_expect_eq(f.uid, 9);
	cr_expect_eq(f.n_gids, 2);
	cr_expect_eq(f.gids[1], 2);
	cr_expect_eq(f.n_caps, 2);
	cr_expect(f.no_new_privs_set && !f.no_new_privs);
	cr_expect_str_eq(f.pid_file, "/p");
	cr_expect(f.detach && f.tty);
	cr_expect_eq(f.n_args, 3);
	cr_expect_str_eq(f.args[2], "echo --not-a-flag");
	cr_expect_null(f.args[3]);
	ct_exec_flags_free(&f);
}

static void assert_refused(const char *const *args)
{
	struct ct_exec_flags f;
	cr_expect_eq(parse(&f, args), -1, "accepted: %s %s", args[0], args[1]);
	ct_exec_flags_free(&f);
}

Test(exec_flags, bad_values_and_missing_pieces_are_usage_errors)
{
	assert_refused(ARGS("--user", "root", "box", "sh"));
	assert_refused(ARGS("--user", "1:", "box", "sh"));
	assert_refused(ARGS("--user", "-1", "box", "sh"));
	assert_refused(ARGS("--user", "4294967296", "box", "sh"));
	assert_refused(ARGS("-g", "x", "box", "sh"));
	assert_refused(ARGS("--cap", "CAP_NOPE", "box", "sh"));
	assert_refused(ARGS("--no-new-privs=maybe", "box", "sh"));
	assert_refused(ARGS("--preserve-fds", "-1", "box", "sh"));
	assert_refused(ARGS("--bogus", "box", "sh"));
	assert_refused(ARGS("--cwd"));
	assert_refused(ARGS("box"));				  /* no command */
	assert_refused(ARGS("--process", "p.json", "box", "sh")); /* both */
	assert_refused((const char *const[]){NULL});
}

Test(exec_flags, help_is_not_an_error)
{
	struct ct_exec_flags f;
	cr_expect_eq(parse(&f, ARGS("--help")), 1);
	ct_exec_flags_free(&f);
}

Test(exec_flags, user_text)
{
	uint32_t uid = 0, gid = 0;
	bool has_gid;
	char why[128];
	cr_expect_eq(ct_exec_parse_user("1000:100", &uid, &gid, &has_gid, why, sizeof(why)), 0);
	cr_expect(uid == 1000 && gid == 100 && has_gid);
	cr_expect_eq(ct_exec_parse_user("0", &uid, &gid, &has_gid, why, sizeof(why)), 0);
	cr_expect(uid == 0 && !has_gid);
	cr_expect_eq(ct_exec_parse_user("a:b", &uid, &gid, &has_gid, why, sizeof(why)), -1);
	cr_expect(strstr(why, "\"a:b\""), "%s", why);
	cr_expect_eq(
		ct_exec_parse_user("4294967294:4294967294", &uid, &gid, &has_gid, why, sizeof(why)),
		0);
	cr_expect(uid == 4294967294u && gid == 4294967294u);
}

/* (uid_t)-1 would leave the process root: refused as a uid, a gid and an
 * additional gid, with why. */
Test(exec_flags, minus_one_is_no_id)
{
	uint32_t uid = 0, gid = 0;
	bool has_gid;
	char why[256];
	static const char *const users[] = {"4294967295", "0:4294967295", "4294967295:0"};
	for (size_t i = 0; i < 3; i++) {
		cr_expect_eq(ct_exec_parse_user(users[i], &uid, &gid, &has_gid, why, sizeof(why)),
			     -1, "%s", users[i]);
		cr_expect(strstr(why, "(uid_t)-1"), "%s", why);
	}
	assert_refused(ARGS("--user", "4294967295", "box", "id"));
	assert_refused(ARGS("--additional-gids", "4294967295", "box", "id"));
	assert_refused(ARGS("-g", "1", "-g", "4294967295", "box", "id"));
}

/* The config's process, as the walker makes it. */
static void config_process(struct oci_process *p, const char *json)
{
	struct ct_error err = {0};
	cr_assert_eq(oci_process_parse(json, "config.json", p, &err), 0, "%s", err.msg);
}

static bool has(const oci_strings *s, const char *v)
{
	for (size_t i = 0; i < s->len; i++)
		if (strcmp(s->items[i], v) == 0)
			return true;
	return false;
}

Test(exec_flags, flags_are_laid_over_the_config_process_as_runc_does)
{
	struct oci_process p;
	config_process(&p, JSON({
		"args" : [ "sleep", "1" ],
		"cwd" : "/",
		"env" : [ "PATH=/bin", "TERM=xterm" ],
		"terminal" : true,
		"user" : {"uid" : 1, "gid" : 2, "additionalGids" : [3]},
		"capabilities" : {"bounding" : ["CAP_KILL"], "effective" : ["CAP_KILL"]},
		"noNewPrivileges" : true,
		"rlimits" : [ {"type" : "RLIMIT_NOFILE", "soft" : 5, "hard" : 6} ]
	}));
	struct ct_exec_flags f;
	cr_assert_eq(parse(&f, ARGS("-e", "TERM=dumb", "-e", "NEW=1", "-u", "7", "-g", "8", "-c",
				    "CAP_CHOWN", "--cwd", "/w", "--no-new-privs=false", "box", "id",
				    "-u")),
		     0);
	struct ct_error err = {0};
	cr_assert_eq(ct_exec_apply_flags(&f, &p, &err), 0, "%s", err.msg);
	cr_expect_eq(p.args.len, 2);
	cr_expect_str_eq(p.args.items[0], "id");
	cr_expect_str_eq(p.cwd, "/w");
	cr_expect_eq(p.env.len, 3);
	cr_expect_str_eq(p.env.items[1], "TERM=dumb"); /* replaced in its place */
	cr_expect_str_eq(p.env.items[2], "NEW=1");
	cr_expect_eq(p.user.uid, 7);
	cr_expect_eq(p.user.gid, 2); /* no :GID: the config's stays */
	cr_expect_eq(p.user.additional_gids.len, 2);
	cr_expect(has(&p.capabilities.bounding, "CAP_CHOWN") &&
		  has(&p.capabilities.effective, "CAP_CHOWN") &&
		  has(&p.capabilities.permitted, "CAP_CHOWN"));
	cr_expect_not(has(&p.capabilities.inheritable, "CAP_CHOWN"));
	cr_expect_not(p.no_new_privileges);
	cr_expect_not(p.terminal, "no --tty: no terminal, whatever the config says");
	cr_expect_eq(p.rlimits.len, 1, "the rest of the config's process stays");
	oci_process_free(&p);
	ct_exec_flags_free(&f);
}

static void assert_process_error(const char *json, const char *needle)
{
	struct oci_process p;
	struct ct_error err = {0};
	cr_expect_eq(oci_process_parse(json, "/run/p.json", &p, &err), -1, "accepted: %s", json);
	cr_expect(strstr(err.msg, "/run/p.json: "), "no file: %s", err.msg);
	cr_expect(strstr(err.msg, needle), "no \"%s\" in: %s", needle, err.msg);
}

Test(exec_flags, process_document_errors_name_the_file_and_path)
{
	assert_process_error(JSON({"args" : ["true"], "cwd" : "/", "user" : {"uid" : "x"}}),
			     ".user.uid: expected");
	assert_process_error(JSON({"cwd" : "/"}), ".args: required");
	assert_process_error(JSON({"args" : ["true"]}), "\"cwd\"");
	assert_process_error(JSON({"args" : ["true"], "cwd" : "rel"}), ".cwd");
	assert_process_error(JSON({"args" : ["true"], "cwd" : "/", "rlimits" : [ {"type" : 1} ]}),
			     ".rlimits[0].type");
	assert_process_error("{", "/run/p.json");
}

Test(exec_flags, process_document_as_containerd_writes_it)
{
	struct oci_process p;
	config_process(&p, JSON({
		"user" : {"uid" : 0, "gid" : 0},
		"args" : [ "sh", "-c", "true" ],
		"env" : ["PATH=/bin"],
		"cwd" : "/",
		"capabilities" : {"bounding" : ["CAP_KILL"]},
		"apparmorProfile" : "p",
		"oomScoreAdj" : 5,
		"execCPUAffinity" : {"initial" : "0", "final" : "0-1"}
	}));
	cr_expect_eq(p.args.len, 3);
	cr_expect(p.has_capabilities && p.has_oom_score_adj && p.has_exec_cpu_affinity);
	cr_expect_str_eq(p.exec_cpu_affinity.final, "0-1");
	oci_process_free(&p);
}
