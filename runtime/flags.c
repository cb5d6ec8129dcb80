#include "runtime/flags.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "runtime/ctrun.h"
#include "runtime/duration.h"

/* getopt_long returns a long flag's index above the letters it returns for short ones. */
#define FIRST_FLAG_VALUE 256

static size_t count_flags(const struct ct_flag *flags)
{
	size_t n = 0;
	while (flags && flags[n].name)
		n++;
	return n;
}

static int argument_of(enum ct_flag_kind kind)
{
	if (kind == CT_FLAG_TRUE || kind == CT_FLAG_CALL_SWITCH)
		return no_argument;
	return kind == CT_FLAG_CALL_OPTIONAL ? optional_argument : required_argument;
}

/* getopt_long's tables for the n flags, --help last; shorts holds 3 + 3n + 1 chars. */
static void build_options(const struct ct_flag *flags, size_t n, struct option *opts, char *shorts)
{
	strcpy(shorts, "+:h");
	char *end = shorts + strlen(shorts);
	for (size_t i = 0; i < n; i++) {
		int has_arg = argument_of(flags[i].kind);
		opts[i] = (struct option){flags[i].name, has_arg, NULL, FIRST_FLAG_VALUE + (int)i};
		if (!flags[i].letter)
			continue;
		*end++ = flags[i].letter;
		for (int colons = has_arg; colons > 0; colons--)
			*end++ = ':';
	}
	*end = '\0';
	opts[n] = (struct option){"help", no_argument, NULL, 'h'};
	opts[n + 1] = (struct option){NULL, 0, NULL, 0};
}

/* The flag getopt_long's c stands for, NULL for none ('?' after a usage error). */
static const struct ct_flag *flag_of(const struct ct_flag *flags, size_t n, int c)
{
	if (c >= FIRST_FLAG_VALUE && (size_t)(c - FIRST_FLAG_VALUE) < n)
		return &flags[c - FIRST_FLAG_VALUE];
	for (size_t i = 0; i < n; i++)
		if (flags[i].letter && flags[i].letter == c)
			return &flags[i];
	return NULL;
}

static int take_interval(const struct ct_flag *f, const char *command, const char *text)
{
	uint64_t *ns = f->to;
	if (ct_parse_duration(text, ns) < 0 || *ns == 0)
		return ct_usage_error(command, "--%s: invalid duration \"%s\"", f->name, text), -1;
	return 0;
}

/* The flag's value into its place: 0, or -1 after a usage error. */
static int take_value(const struct ct_flag *f, char **argv)
{
	const char *command = argv[0];
	if (!f->to)
		return ct_usage_error(command, "unknown flag '%s'", argv[optind - 1]), -1;
	char flag[64];
	switch (f->kind) {
	case CT_FLAG_TRUE:
		*(bool *)f->to = true;
		return 0;
	case CT_FLAG_TEXT:
		*(const char **)f->to = optarg;
		return 0;
	case CT_FLAG_FORMAT:
		return ct_parse_format(command, optarg, f->to) ? -1 : 0;
	case CT_FLAG_COUNT:
		snprintf(flag, sizeof(flag), "--%s", f->name);
		return ct_parse_count(command, flag, optarg, f->to);
	case CT_FLAG_INTERVAL:
		return take_interval(f, command, optarg);
	case CT_FLAG_CALL:
	case CT_FLAG_CALL_OPTIONAL:
		return f->take(f->to, command, optarg);
	case CT_FLAG_CALL_SWITCH:
		return f->take(f->to, command, NULL);
	}
	return -1;
}

static int check_positional(int argc, char **argv, const struct ct_command_line *line)
{
	int n = argc - optind;
	if (n < line->min_args)
		return ct_usage_error(argv[0], "missing container id"), -1;
	if (line->max_args == CT_ARGS_ANY || n <= line->max_args)
		return 0;
	if (line->max_args == 0)
		return ct_usage_error(argv[0], "unexpected argument \"%s\"", argv[optind]), -1;
	return ct_usage_error(argv[0], "too many arguments"), -1;
}

int ct_parse_command_line(int argc, char **argv, const struct ct_command_line *line)
{
	size_t n = count_flags(line->flags);
	struct option opts[n + 2];
	char shorts[3 + 3 * n + 1];
	build_options(line->flags, n, opts, shorts);
	int c;
	while ((c = ct_getopt(argc, argv, shorts, opts)) != -1) {
		if (c == 'h') {
			printf("Usage: ctrun %s%s%s\n", argv[0], *line->usage ? " " : "",
			       line->usage);
			return 1;
		}
		const struct ct_flag *f = flag_of(line->flags, n, c);
		if (!f || take_value(f, argv) < 0)
			return -1;
	}
	return check_positional(argc, argv, line);
}
