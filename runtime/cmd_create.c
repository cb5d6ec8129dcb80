/* `ctrun create` (and the flags `run` shares with it). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "libct/lifecycle/ops.h"
#include "runtime/create_flags.h"
#include "runtime/ctrun.h"

enum {
	OPT_PID_FILE = 256,
	OPT_CONSOLE_SOCKET,
	OPT_NO_PIVOT,
	OPT_NO_NEW_KEYRING,
	OPT_PRESERVE_FDS,
	OPT_DETACH,
	OPT_KEEP
};

int ct_parse_create_flags(int argc, char **argv, bool is_run, struct ct_run_flags *f)
{
	static const struct option options[] = {
		{"bundle", required_argument, NULL, 'b'},
		{"pid-file", required_argument, NULL, OPT_PID_FILE},
		{"console-socket", required_argument, NULL, OPT_CONSOLE_SOCKET},
		{"no-pivot", no_argument, NULL, OPT_NO_PIVOT},
		{"no-new-keyring", no_argument, NULL, OPT_NO_NEW_KEYRING},
		{"preserve-fds", required_argument, NULL, OPT_PRESERVE_FDS},
		{"detach", no_argument, NULL, 'd'},
		{"keep", no_argument, NULL, OPT_KEEP},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	while ((c = ct_getopt(argc, argv, "+:b:dh", options)) != -1) {
		switch (c) {
		case 'b':
			f->create.bundle = optarg;
			break;
		case OPT_PID_FILE:
			f->create.pid_file = optarg;
			break;
		case OPT_CONSOLE_SOCKET:
			f->create.console_socket = optarg;
			break;
		case OPT_NO_PIVOT:
			f->create.no_pivot = true;
			break;
		case OPT_NO_NEW_KEYRING:
			f->create.no_new_keyring = true;
			break;
		case OPT_PRESERVE_FDS:
			if (ct_parse_count(argv[0], "--preserve-fds", optarg,
					   &f->create.preserve_fds) < 0)
				return -1;
			break;
		case 'd':
		case OPT_KEEP:
			if (!is_run)
				return ct_usage_error(argv[0], "unknown flag '%s'",
						      argv[optind - 1]),
				       -1;
			if (c == 'd')
				f->detach = true;
			else
				f->keep = true;
			break;
		case 'h':
			printf("Usage: ctrun %s [--bundle DIR] [--pid-file F] [--console-socket S] "
			       "[--no-pivot] [--no-new-keyring] [--preserve-fds N]%s ID\n",
			       argv[0], is_run ? " [--detach] [--keep]" : "");
			return 1;
		default:
			return -1;
		}
	}
	if (optind != argc - 1)
		return ct_usage_error(argv[0], optind >= argc ? "missing container id"
							      : "too many arguments"),
		       -1;
	f->create.id = argv[optind];
	return 0;
}

int cmd_create(const struct ct_globals *g, int argc, char **argv)
{
	struct ct_run_flags f = {.create = {.start = CT_START_FIFO}};
	int rc = ct_parse_create_flags(argc, argv, false, &f);
	if (rc)
		return rc < 0 ? 1 : 0;
	return ct_lifecycle_create(&g->lc, &f.create) < 0 ? 1 : 0;
}
