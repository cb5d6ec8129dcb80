/* `ctrun create` (and the flags `run` shares with it). */
#include <unistd.h>

#include "libct/lifecycle/ops.h"
#include "runtime/create_flags.h"
#include "runtime/ctrun.h"
#include "runtime/flags.h"

#define CREATE_USAGE                                                                          \
	"[--bundle DIR] [--pid-file F] [--console-socket S] [--no-pivot] [--no-new-keyring] " \
	"[--preserve-fds N]"

int ct_parse_create_flags(int argc, char **argv, bool is_run, struct ct_run_flags *f)
{
	struct ct_create_args *a = &f->create;
	const struct ct_flag flags[] = {
		{"bundle", 'b', CT_FLAG_TEXT, &a->bundle},
		{"pid-file", 0, CT_FLAG_TEXT, &a->pid_file},
		{"console-socket", 0, CT_FLAG_TEXT, &a->console_socket},
		{"no-pivot", 0, CT_FLAG_TRUE, &a->no_pivot},
		{"no-new-keyring", 0, CT_FLAG_TRUE, &a->no_new_keyring},
		{"preserve-fds", 0, CT_FLAG_COUNT, &a->preserve_fds},
		/* run's own: create refuses them as unknown */
		{"detach", 'd', CT_FLAG_TRUE, is_run ? &f->detach : NULL},
		{"keep", 0, CT_FLAG_TRUE, is_run ? &f->keep : NULL},
		{"no-subreaper", 0, CT_FLAG_TRUE, is_run ? &f->no_subreaper : NULL},
		{NULL},
	};
	const struct ct_command_line line = {is_run ? CREATE_USAGE
						     " [--detach] [--keep] [--no-subreaper] ID"
						    : CREATE_USAGE " ID",
					     flags, 1, 1};
	int parsed = ct_parse_command_line(argc, argv, &line);
	if (parsed == 0)
		a->id = argv[optind];
	return parsed;
}

int cmd_create(const struct ct_globals *g, int argc, char **argv)
{
	struct ct_run_flags f = {.create = {.start = CT_START_FIFO}};
	int rc = ct_parse_create_flags(argc, argv, false, &f);
	if (rc)
		return rc < 0 ? 1 : 0;
	return ct_lifecycle_create(&g->lc, &f.create) < 0 ? 1 : 0;
}
