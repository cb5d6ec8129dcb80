/* What every subcommand of the `ctrun` program shares: global flags and the command table. */
#ifndef CTRUN_RUNTIME_H
#define CTRUN_RUNTIME_H

#include <stdbool.h>

#include "libct/base/error.h"
#include "libct/lifecycle/opts.h"

enum ct_log_format { CT_LOG_TEXT, CT_LOG_JSON };
enum ct_rootless { CT_ROOTLESS_AUTO, CT_ROOTLESS_TRUE, CT_ROOTLESS_FALSE };

/* runc-compatible global flags, given before the subcommand. */
struct ct_globals {
	/* --root (default /run/ctrun or $XDG_RUNTIME_DIR/ctrun), --no-verify-mounts,
	 * --systemd-cgroup / --cgroup-manager: what the lifecycle takes */
	struct ct_lifecycle_opts lc;
	const char *log_file;
	enum ct_log_format log_format;
	bool debug;
	enum ct_rootless rootless;
};

struct ct_command {
	const char *name;
	const char *args;    /* usage after the name: "[--bundle DIR] ID" */
	const char *summary; /* one line for `ctrun --help` */
	/* argv[0] is the command name; returns the process exit status. NULL: not implemented
	 * yet (the later issues bring it). */
	int (*run)(const struct ct_globals *g, int argc, char **argv);
};

extern const struct ct_command ct_commands[];

/* Subcommands (runtime/cmd_*.c). */
int cmd_create(const struct ct_globals *g, int argc, char **argv);
int cmd_start(const struct ct_globals *g, int argc, char **argv);
int cmd_run(const struct ct_globals *g, int argc, char **argv);
int cmd_state(const struct ct_globals *g, int argc, char **argv);
int cmd_list(const struct ct_globals *g, int argc, char **argv);
int cmd_kill(const struct ct_globals *g, int argc, char **argv);
int cmd_delete(const struct ct_globals *g, int argc, char **argv);
int cmd_exec(const struct ct_globals *g, int argc, char **argv);
int cmd_mounts(const struct ct_globals *g, int argc, char **argv);
int cmd_ps(const struct ct_globals *g, int argc, char **argv);
int cmd_pause(const struct ct_globals *g, int argc, char **argv);
int cmd_resume(const struct ct_globals *g, int argc, char **argv);
int cmd_update(const struct ct_globals *g, int argc, char **argv);
int cmd_events(const struct ct_globals *g, int argc, char **argv);
int cmd_spec(const struct ct_globals *g, int argc, char **argv);
int cmd_validate(const struct ct_globals *g, int argc, char **argv);
int cmd_features(const struct ct_globals *g, int argc, char **argv);
int cmd_checkpoint(const struct ct_globals *g, int argc, char **argv);
int cmd_restore(const struct ct_globals *g, int argc, char **argv);

void ct_print_version(void);
/* "version commit" of this build: part of every seccomp cache key. */
const char *ct_runtime_version(void);

/* A usage error: "ctrun <cmd>: <message>" plus the usage hint; returns 1. */
int ct_usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --format table|json of list, ps and mounts: *json set; 1 after a usage error, else 0. */
int ct_parse_format(const char *command, const char *text, bool *json);

/* Parses a non-negative count flag (--preserve-fds): 0, or -1 after a usage error. */
int ct_parse_count(const char *command, const char *flag, const char *text, int *out);

/* The usage error of a flag getopt_long refused ('?') with longopts: an unknown one, or a
 * switch given a value (`--force=true`, which runc's flag package takes); command NULL for
 * the globals. Returns 1. */
struct option;
int ct_bad_flag_error(const char *command, char **argv, const struct option *longopts);

/* Parses the subcommand's own flags with getopt_long (`--flag value` and `--flag=value`).
 * Returns the option character, -1 at the end, or '?' after printing a usage error. */
int ct_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);

#endif
