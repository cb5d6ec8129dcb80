/* ctrun: global flags (runc's), then one subcommand from the table in commands.c. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/criu/swrk.h"
#include "libct/parent/exe_view.h"
#include "libct/lifecycle/cache_dir.h"
#include "runtime/ctrun.h"
#include "runtime/log.h"

static void print_help(void)
{
	printf("Usage: ctrun [global flags] COMMAND [flags] [args]\n\n"
	       "ctrun is an OCI container runtime (runtime-spec 1.3).\n\nCommands:\n");
	for (const struct ct_command *c = ct_commands; c->name; c++)
		printf("  %-11s %s\n", c->name, c->summary);
	printf("\nGlobal flags:\n"
	       "  --root DIR                   state directory (default /run/ctrun)\n"
	       "  --log FILE                   also write log records to FILE\n"
	       "  --log-format text|json       format of the --log records\n"
	       "  --debug                      log debug messages\n"
	       "  --systemd-cgroup             cgroups as systemd units (= --cgroup-manager "
	       "systemd)\n"
	       "  --cgroup-manager cgroupfs|systemd|disabled\n"
	       "  --rootless auto|true|false   rootless mode\n"
	       "  --no-verify-mounts           skip the check of the mount table at create\n"
	       "  --criu PATH                  the criu of checkpoint and restore (default: "
	       "$CTRUN_CRIU, else criu in $PATH)\n"
	       "  -v, --version                print the version\n"
	       "  -h, --help                   print this help\n"
	       "\nRun 'ctrun COMMAND --help' for a command's flags.\n");
}

/* /run/ctrun for root; $XDG_RUNTIME_DIR/ctrun for another user (runc's choice), NULL when
 * that is unset: /run/ctrun is root's, and a user's state must be its own. */
static const char *default_root(void)
{
	static char buf[4096];
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	if (geteuid() == 0)
		return "/run/ctrun";
	if (!xdg || !*xdg)
		return NULL;
	snprintf(buf, sizeof(buf), "%s/ctrun", xdg);
	return buf;
}

static bool uses_state_root(const struct ct_command *cmd)
{
	return cmd->run != cmd_spec && cmd->run != cmd_features && cmd->run != cmd_validate;
}

/* The commands whose processes enter a container, running ctrun's image until their last
 * execve: they run only from a view of the binary no container can write (libct/parent/exe_view.h).
 * start, kill, delete and the rest put nothing there. */
static bool enters_container(const struct ct_command *cmd)
{
	return cmd->run == cmd_create || cmd->run == cmd_run || cmd->run == cmd_exec;
}

static int parse_choice(const char *flag, const char *value, const char *const *choices)
{
	for (int i = 0; choices[i]; i++)
		if (strcmp(value, choices[i]) == 0)
			return i;
	ct_usage_error(NULL, "%s: invalid value \"%s\"", flag, value);
	return -1;
}

enum {
	OPT_ROOT = 256,
	OPT_LOG,
	OPT_LOG_FORMAT,
	OPT_DEBUG,
	OPT_SYSTEMD,
	OPT_ROOTLESS,
	OPT_CGROUP_MANAGER,
	OPT_NO_VERIFY_MOUNTS,
	OPT_CRIU
};

static const struct option global_options[] = {
	{"root", required_argument, NULL, OPT_ROOT},
	{"log", required_argument, NULL, OPT_LOG},
	{"log-format", required_argument, NULL, OPT_LOG_FORMAT},
	{"debug", no_argument, NULL, OPT_DEBUG},
	{"systemd-cgroup", no_argument, NULL, OPT_SYSTEMD},
	{"rootless", required_argument, NULL, OPT_ROOTLESS},
	{"cgroup-manager", required_argument, NULL, OPT_CGROUP_MANAGER},
	{"no-verify-mounts", no_argument, NULL, OPT_NO_VERIFY_MOUNTS},
	{"criu", required_argument, NULL, OPT_CRIU},
	{"version", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* Returns -1 to go on to the subcommand, else the exit status. */
static int parse_globals(int argc, char **argv, struct ct_globals *g)
{
	static const char *const formats[] = {"text", "json", NULL};
	static const char *const rootless[] = {"auto", "true", "false", NULL};
	static const char *const managers[] = {"cgroupfs", "systemd", "disabled", NULL};
	int c, v;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:vh", global_options, NULL)) != -1) {
		switch (c) {
		case OPT_ROOT:
			g->lc.root = optarg;
			break;
		case OPT_LOG:
			g->log_file = optarg;
			break;
		case OPT_DEBUG:
			g->debug = true;
			break;
		case OPT_SYSTEMD:
			g->lc.cgroup_manager = CT_CGROUP_SYSTEMD;
			break;
		case OPT_NO_VERIFY_MOUNTS:
			g->lc.no_verify_mounts = true;
			break;
		case OPT_CRIU: /* runc's: go-runc passes it to every command when set */
			ct_criu_use(optarg);
			break;
		case OPT_LOG_FORMAT:
			if ((v = parse_choice("--log-format", optarg, formats)) < 0)
				return 1;
			g->log_format = (enum ct_log_format)v;
			break;
		case OPT_ROOTLESS:
			if ((v = parse_choice("--rootless", optarg, rootless)) < 0)
				return 1;
			g->rootless = (enum ct_rootless)v;
			break;
		case OPT_CGROUP_MANAGER:
			if ((v = parse_choice("--cgroup-manager", optarg, managers)) < 0)
				return 1;
			g->lc.cgroup_manager = (enum ct_cgroup_manager)v;
			break;
		case 'v':
			ct_print_version();
			return 0;
		case 'h':
			print_help();
			return 0;
		case ':':
			return ct_usage_error(NULL, "flag needs an argument: '%s'",
					      argv[optind - 1]);
		default:
			return ct_bad_flag_error(NULL, argv, global_options);
		}
	}
	return -1;
}

static const struct ct_command *find_command(const char *name)
{
	for (const struct ct_command *c = ct_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* `help [COMMAND]`: the program's help (`help help` too: help is no command of the table),
 * or the command's own (`COMMAND --help`), as runc. */
static int help_topic(const struct ct_globals *g, int argc, char **argv)
{
	if (argc == 0 || strcmp(argv[0], "help") == 0) {
		print_help();
		return 0;
	}
	const struct ct_command *cmd = find_command(argv[0]);
	if (!cmd)
		return ct_usage_error(NULL, "no help topic for \"%s\"", argv[0]);
	char *help_argv[] = {argv[0], "--help", NULL};
	optind = 0; /* glibc and musl: restart getopt for the command's own argv */
	return cmd->run(g, 2, help_argv);
}

int main(int argc, char **argv, char **envp)
{
	struct ct_globals g = {.lc = {.root = NULL, .version = ct_runtime_version()}};
	int status = parse_globals(argc, argv, &g);
	if (status >= 0)
		return status;
	if (!g.lc.root)
		g.lc.root = default_root();
	if (optind >= argc) {
		print_help();
		return 1;
	}
	const char *name = argv[optind];
	if (strcmp(name, "help") == 0)
		return help_topic(&g, argc - optind - 1, argv + optind + 1);
	const struct ct_command *cmd = find_command(name);
	if (!cmd)
		return ct_usage_error(NULL, "unknown command \"%s\"", name);
	struct ct_error err = {0};
	if (ct_log_open(&g, &err) < 0) {
		fprintf(stderr, "ctrun: %s\n", err.msg);
		return 1;
	}
	if (enters_container(cmd) && ct_exe_protect(argv, envp, ct_cache_dir(), &err) < 0) {
		ct_log(CT_LOG_ERROR, "%s: %s", cmd->name, err.msg);
		return 1;
	}
	if (!cmd->run) {
		ct_log(CT_LOG_ERROR, "%s: not implemented yet", cmd->name);
		return 1;
	}
	if (!g.lc.root && uses_state_root(cmd)) {
		ct_log(CT_LOG_ERROR,
		       "%s: XDG_RUNTIME_DIR is not set: as a user other than root, "
		       "give --root DIR for the containers' state",
		       cmd->name);
		return 1;
	}
	int sub = optind;
	optind = 0; /* glibc: restart getopt for the subcommand's own argv */
	return cmd->run(&g, argc - sub, argv + sub);
}
