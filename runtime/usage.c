/* Usage errors and the flag parser every subcommand shares (declared in ctrun.h); outside
 * main.c so that unit tests can parse a command's flags. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/base/vaformat.h"
#include "runtime/ctrun.h"

int ct_usage_error(const char *command, const char *fmt, ...)
{
	char msg[512];
	CT_VA_FORMAT(msg, fmt);
	fprintf(stderr, "ctrun%s%s: %s (see 'ctrun %s%s--help')\n", command ? " " : "",
		command ? command : "", msg, command ? command : "", command ? " " : "");
	return 1;
}

/* Whether word ("--NAME=VALUE") gives a value to a switch of longopts, the one getopt_long
 * named in optopt. */
static bool switch_given_value(const char *word, const struct option *longopts)
{
	const char *name = word + 2, *eq = strchr(name, '=');
	if (!eq || !optopt)
		return false;
	for (const struct option *o = longopts; o->name; o++)
		if (o->has_arg == no_argument && o->val == optopt &&
		    strlen(o->name) == (size_t)(eq - name) &&
		    strncmp(o->name, name, eq - name) == 0)
			return true;
	return false;
}

int ct_bad_flag_error(const char *command, char **argv, const struct option *longopts)
{
	/* a long flag's word is behind optind; a short one's may be too, or optind still on
	 * its cluster (`--detach -zt`: the word behind is a good long flag) */
	const char *word = optind > 0 ? argv[optind - 1] : "";
	bool long_word = strncmp(word, "--", 2) == 0;
	if (long_word && switch_given_value(word, longopts))
		return ct_usage_error(command, "flag '%.*s' takes no value",
				      (int)(strchr(word, '=') - word), word);
	/* getopt_long's unknown long flag: a short one's error names its letter */
	if (long_word && !optopt)
		return ct_usage_error(command, "unknown flag '%s'", word);
	if (optopt > 0 && optopt < 128)
		return ct_usage_error(command, "unknown or incomplete flag '-%c'", optopt);
	return ct_usage_error(command, "unknown flag '%s'", word);
}

int ct_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	int c = getopt_long(argc, argv, shortopts, longopts, NULL);
	if (c == '?') {
		ct_bad_flag_error(argv[0], argv, longopts);
	} else if (c == ':') {
		ct_usage_error(argv[0], "flag needs an argument: '%s'", argv[optind - 1]);
		c = '?';
	}
	return c;
}

int ct_parse_format(const char *command, const char *text, bool *json)
{
	if (strcmp(text, "json") != 0 && strcmp(text, "table") != 0)
		return ct_usage_error(command, "--format: invalid value \"%s\"", text);
	*json = strcmp(text, "json") == 0;
	return 0;
}

int ct_parse_count(const char *command, const char *flag, const char *text, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno || *end || end == text || v < 0 || v > 65536)
		return ct_usage_error(command, "%s: invalid count \"%s\"", flag, text), -1;
	*out = (int)v;
	return 0;
}
