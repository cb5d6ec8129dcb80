/* The command-line table every subcommand parses with (runtime/flags.c): the kinds of flag,
 * short and long forms, --help, a flag of another variant, the positional arguments. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <getopt.h>
#include <string.h>

#include "runtime/flags.h"

struct values {
	bool on, json;
	const char *text;
	int count;
	uint64_t interval;
	const char *called;
};

static int take_called(void *to, const char *command, const char *argument)
{
	(void)command;
	((struct values *)to)->called = argument ? argument : "(none)";
	return 0;
}

/* Parses argv ("cmd" first, NULL last) with a table of every kind; *first: the first
 * positional argument. */
static int parse(struct values *v, int max_args, char **argv, const char **first)
{
	const struct ct_flag flags[] = {
		{"on", 'o', CT_FLAG_TRUE, &v->on},
		{"text", 't', CT_FLAG_TEXT, &v->text},
		{"format", 'f', CT_FLAG_FORMAT, &v->json},
		{"count", 0, CT_FLAG_COUNT, &v->count},
		{"interval", 0, CT_FLAG_INTERVAL, &v->interval},
		{"call", 0, CT_FLAG_CALL_OPTIONAL, v, take_called},
		{"switch", 0, CT_FLAG_CALL_SWITCH, v, take_called},
		{"other", 'x', CT_FLAG_TRUE, NULL},
		{NULL},
	};
	const struct ct_command_line line = {"[flags] ID", flags, 1, max_args};
	int argc = 0;
	while (argv[argc])
		argc++;
	optind = 0; /* getopt_long: full reinitialisation */
	int rc = ct_parse_command_line(argc, argv, &line);
	if (first)
		*first = rc == 0 ? argv[optind] : NULL;
	return rc;
}

#define ARGS(...) ((char *[]){"cmd", __VA_ARGS__, NULL})

Test(flags, every_kind_long_and_short)
{
	struct values v = {0};
	const char *id;
	cr_assert_eq(parse(&v, 1,
			   ARGS("-o", "-t", "a", "--format=json", "--count", "3", "--interval",
				"2s", "--call=x", "box"),
			   &id),
		     0);
	cr_expect(v.on && v.json);
	cr_expect_str_eq(v.text, "a");
	cr_expect_eq(v.count, 3);
	cr_expect_eq(v.interval, 2000000000ULL);
	cr_expect_str_eq(v.called, "x");
	cr_expect_str_eq(id, "box");
	v = (struct values){0};
	cr_assert_eq(parse(&v, 1, ARGS("--call", "box"), &id), 0);
	cr_expect_str_eq(v.called, "(none)", "an optional argument is only --call=VALUE");
	cr_expect_str_eq(id, "box");
	v = (struct values){0};
	cr_assert_eq(parse(&v, 1, ARGS("--switch", "box"), &id), 0);
	cr_expect_str_eq(v.called, "(none)", "a switch's call takes no argument");
	cr_expect_str_eq(id, "box");
}

Test(flags, help_prints_the_usage, .init = cr_redirect_stdout)
{
	struct values v = {0};
	cr_expect_eq(parse(&v, 1, ARGS("--help"), NULL), 1);
	fflush(stdout);
	cr_expect_stdout_eq_str("Usage: ctrun cmd [flags] ID\n");
}

Test(flags, refusals_name_the_flag, .init = cr_redirect_stderr)
{
	struct values v = {0};
	cr_expect_eq(parse(&v, 1, ARGS("--other", "box"), NULL), -1);
	cr_expect_eq(parse(&v, 1, ARGS("--format", "yaml", "box"), NULL), -1);
	cr_expect_eq(parse(&v, 1, ARGS("--count", "-1", "box"), NULL), -1);
	cr_expect_eq(parse(&v, 1, ARGS("--interval", "0", "box"), NULL), -1);
	cr_expect_eq(parse(&v, 1, ARGS("--text"), NULL), -1);
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"ctrun cmd: unknown flag '--other' (see 'ctrun cmd --help')\n"
		"ctrun cmd: --format: invalid value \"yaml\" (see 'ctrun cmd --help')\n"
		"ctrun cmd: --count: invalid count \"-1\" (see 'ctrun cmd --help')\n"
		"ctrun cmd: --interval: invalid duration \"0\" (see 'ctrun cmd --help')\n"
		"ctrun cmd: flag needs an argument: '--text' (see 'ctrun cmd --help')\n");
}

Test(flags, positional_arguments_counted, .init = cr_redirect_stderr)
{
	struct values v = {0};
	cr_expect_eq(parse(&v, 1, ARGS("-o"), NULL), -1);
	cr_expect_eq(parse(&v, 1, ARGS("a", "b"), NULL), -1);
	cr_expect_eq(parse(&v, CT_ARGS_ANY, ARGS("a", "b", "c"), NULL), 0);
	fflush(stderr);
	cr_expect_stderr_eq_str("ctrun cmd: missing container id (see 'ctrun cmd --help')\n"
				"ctrun cmd: too many arguments (see 'ctrun cmd --help')\n");
}

Test(flags, no_positional_arguments, .init = cr_redirect_stderr)
{
	const struct ct_command_line line = {"", NULL, 0, 0};
	char *argv[] = {"cmd", "extra", NULL};
	optind = 0;
	cr_expect_eq(ct_parse_command_line(2, argv, &line), -1);
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"ctrun cmd: unexpected argument \"extra\" (see 'ctrun cmd --help')\n");
}
