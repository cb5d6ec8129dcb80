/* `ctrun start`, `state`, `kill`, `delete`, `pause`, `resume`: the flags of the commands on
 * one existing container; the work is the lifecycle's (libct/lifecycle/ops.h). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/signals.h"
#include "libct/lifecycle/ops.h"
#include "runtime/ctrun.h"
#include "runtime/flags.h"

/* A command on one existing container: 0 with the id at argv[optind] (and up to max
 * positional arguments in all), 1 after --help, -1 after a usage error. */
static int parse_id_command(int argc, char **argv, const struct ct_flag *flags, const char *usage,
			    int max)
{
	const struct ct_command_line line = {usage, flags, 1, max};
	return ct_parse_command_line(argc, argv, &line);
}

/* parse_id_command for a command whose one flag is a switch (--all, --force): sets *on. */
static int parse_switch_command(int argc, char **argv, const char *name, char letter, bool *on,
				const char *usage, int max)
{
	*on = false;
	const struct ct_flag flags[] = {{name, letter, CT_FLAG_TRUE, on}, {NULL}};
	return parse_id_command(argc, argv, flags, usage, max);
}

int cmd_start(const struct ct_globals *g, int argc, char **argv)
{
	int parsed = parse_id_command(argc, argv, NULL, "ID", 1);
	if (parsed)
		return parsed < 0;
	return ct_lifecycle_start(&g->lc, argv[optind]) < 0 ? 1 : 0;
}

int cmd_state(const struct ct_globals *g, int argc, char **argv)
{
	int parsed = parse_id_command(argc, argv, NULL, "ID", 1);
	if (parsed)
		return parsed < 0;
	char *json;
	if (ct_lifecycle_state(&g->lc, argv[optind], &json) < 0)
		return 1;
	printf("%s\n", json);
	free(json);
	return 0;
}

int cmd_kill(const struct ct_globals *g, int argc, char **argv)
{
	bool all;
	int parsed = parse_switch_command(argc, argv, "all", 'a', &all, "[--all] ID [SIGNAL]", 2);
	if (parsed)
		return parsed < 0;
	const char *signame = optind + 1 < argc ? argv[optind + 1] : "TERM";
	int sig = ct_signal_parse(signame);
	if (sig < 0)
		return ct_usage_error(argv[0], "unknown signal \"%s\"", signame);
	return ct_lifecycle_kill(&g->lc, argv[optind], sig, all) < 0 ? 1 : 0;
}

int cmd_delete(const struct ct_globals *g, int argc, char **argv)
{
	bool force;
	int parsed = parse_switch_command(argc, argv, "force", 'f', &force, "[--force] ID", 1);
	if (parsed)
		return parsed < 0;
	return ct_lifecycle_delete(&g->lc, argv[optind], force) < 0 ? 1 : 0;
}

static int freeze_command(const struct ct_globals *g, int argc, char **argv, bool frozen)
{
	int parsed = parse_id_command(argc, argv, NULL, "ID", 1);
	if (parsed)
		return parsed < 0;
	return ct_lifecycle_set_paused(&g->lc, argv[optind], frozen) < 0 ? 1 : 0;
}

int cmd_pause(const struct ct_globals *g, int argc, char **argv)
{
	return freeze_command(g, argc, argv, true);
}

int cmd_resume(const struct ct_globals *g, int argc, char **argv)
{
	return freeze_command(g, argc, argv, false);
}
