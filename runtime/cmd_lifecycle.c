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

/* Flags without arguments (option values 256..271, a one-letter name doubles as the short
 * flag: {"f", ...} makes -f) given as a mask, then positional args. Returns the number of
 * positional arguments (at argv + optind), -1 after a usage error, -2 after --help. */
static int parse_simple(int argc, char **argv, const struct option *opts, unsigned *set,
			const char *usage)
{
	struct option all[8];
	char shorts[16] = "+:h";
	int n = 0;
	for (; opts && opts[n].name && n < 6; n++) {
		all[n] = opts[n];
		if (!opts[n].name[1])
			strncat(shorts, opts[n].name, 1);
	}
	all[n++] = (struct option){"help", no_argument, NULL, 'h'};
	all[n] = (struct option){NULL, 0, NULL, 0};
	int c;
	while ((c = ct_getopt(argc, argv, shorts, all)) != -1) {
		if (c == 'h') {
			printf("Usage: ctrun %s %s\n", argv[0], usage);
			return -2;
		}
		for (int i = 0; c < 256 && opts && opts[i].name; i++)
			if (opts[i].name[0] == c && !opts[i].name[1])
				c = opts[i].val;
		if (c < 256 || c >= 256 + 16)
			return -1;
		*set |= 1u << (c - 256);
	}
	return argc - optind;
}

/* parse_simple() for a command on one container: the number of positional arguments
 * (1..max, the id first), or -1 with *rc set to the exit status (0 after --help). */
static int parse_id_command(int argc, char **argv, const struct option *opts, unsigned *set,
			    const char *usage, int max, int *rc)
{
	int n = parse_simple(argc, argv, opts, set, usage);
	*rc = n == -2 ? 0 : 1;
	if (n < 0)
		return -1;
	if (n < 1 || n > max) {
		*rc = ct_usage_error(argv[0],
				     n < 1 ? "missing container id" : "too many arguments");
		return -1;
	}
	return n;
}

int cmd_start(const struct ct_globals *g, int argc, char **argv)
{
	unsigned set = 0;
	int rc, n = parse_id_command(argc, argv, NULL, &set, "ID", 1, &rc);
	if (n < 0)
		return rc;
	return ct_lifecycle_start(&g->lc, argv[optind]) < 0 ? 1 : 0;
}

int cmd_state(const struct ct_globals *g, int argc, char **argv)
{
	unsigned set = 0;
	int rc, n = parse_id_command(argc, argv, NULL, &set, "ID", 1, &rc);
	if (n < 0)
		return rc;
	char *json;
	if (ct_lifecycle_state(&g->lc, argv[optind], &json) < 0)
		return 1;
	printf("%s\n", json);
	free(json);
	return 0;
}

enum { KILL_ALL = 256 };

int cmd_kill(const struct ct_globals *g, int argc, char **argv)
{
	static const struct option opts[] = {{"all", no_argument, NULL, KILL_ALL},
					     {"a", no_argument, NULL, KILL_ALL},
					     {NULL, 0, NULL, 0}};
	unsigned set = 0;
	int rc, n = parse_id_command(argc, argv, opts, &set, "[--all] ID [SIGNAL]", 2, &rc);
	if (n < 0)
		return rc;
	const char *signame = n == 2 ? argv[optind + 1] : "TERM";
	int sig = ct_signal_parse(signame);
	if (sig < 0)
		return ct_usage_error(argv[0], "unknown signal \"%s\"", signame);
	bool all = set & (1u << (KILL_ALL - 256));
	return ct_lifecycle_kill(&g->lc, argv[optind], sig, all) < 0 ? 1 : 0;
}

enum { DELETE_FORCE = 256 };

int cmd_delete(const struct ct_globals *g, int argc, char **argv)
{
	static const struct option opts[] = {{"force", no_argument, NULL, DELETE_FORCE},
					     {"f", no_argument, NULL, DELETE_FORCE},
					     {NULL, 0, NULL, 0}};
	unsigned set = 0;
	int rc, n = parse_id_command(argc, argv, opts, &set, "[--force] ID", 1, &rc);
	if (n < 0)
		return rc;
	bool force = set & (1u << (DELETE_FORCE - 256));
	return ct_lifecycle_delete(&g->lc, argv[optind], force) < 0 ? 1 : 0;
}

static int freeze_command(const struct ct_globals *g, int argc, char **argv, bool frozen)
{
	unsigned set = 0;
	int rc, n = parse_id_command(argc, argv, NULL, &set, "ID", 1, &rc);
	if (n < 0)
		return rc;
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
