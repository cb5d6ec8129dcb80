/* A subcommand's command line as a table: its flags, where each value goes, its usage line
 * and how many positional arguments it takes; one parser reads them all. */
#ifndef CTRUN_FLAGS_H
#define CTRUN_FLAGS_H

#include <stdbool.h>
#include <stdint.h>

enum ct_flag_kind {
	CT_FLAG_TRUE,	       /* bool *: set to true */
	CT_FLAG_TEXT,	       /* const char **: the argument */
	CT_FLAG_FORMAT,	       /* bool *: --format table|json, true for json */
	CT_FLAG_COUNT,	       /* int *: a non-negative count */
	CT_FLAG_INTERVAL,      /* uint64_t *: a duration above zero, in nanoseconds */
	CT_FLAG_CALL,	       /* take(to, command, argument) */
	CT_FLAG_CALL_OPTIONAL, /* the same, the argument optional (--flag=value): NULL without */
	CT_FLAG_CALL_SWITCH    /* the same, without an argument: NULL always */
};

struct ct_flag {
	const char *name; /* the long name, without "--" */
	char letter;	  /* the short flag, 0 for none */
	enum ct_flag_kind kind;
	/* where the value goes; NULL: a flag of another variant of the command (run's --detach
	 * given to create), refused as unknown */
	void *to;
	/* CT_FLAG_CALL*: 0, or -1 after printing a usage error */
	int (*take)(void *to, const char *command, const char *argument);
};

#define CT_ARGS_ANY (-1)

struct ct_command_line {
	const char *usage;	     /* what follows "Usage: ctrun NAME" */
	const struct ct_flag *flags; /* ends with a row whose name is NULL */
	/* positional arguments: fewer than min is a "missing container id", more than max
	 * "too many arguments" ("unexpected argument" where max is 0) */
	int min_args, max_args;
};

/* Parses argv (argv[0] the command's name) with getopt_long, --help included. Returns 0 with
 * the positional arguments at argv + optind, 1 after --help (printed), -1 after a usage
 * error (printed). */
int ct_parse_command_line(int argc, char **argv, const struct ct_command_line *line);

#endif
