/* The subcommand table: one row per command of runc's CLI surface. A NULL handler answers
 * "not implemented yet" (exit 1) until the issue that brings it lands. */
#include <stddef.h>

#include "runtime/ctrun.h"

const struct ct_command ct_commands[] = {
	{"create", "[--bundle DIR] [--pid-file F] [--console-socket S] ID",
	 "create a container (it waits for start)", cmd_create},
	{"start", "ID", "run the user process of a created container", cmd_start},
	{"run", "[--bundle DIR] [--detach] ID", "create and start a container", cmd_run},
	{"state", "ID", "print the state of a container as JSON", cmd_state},
	{"list", "[--format table|json] [-q]", "list containers", cmd_list},
	{"kill", "[--all] ID [SIGNAL]", "send a signal to a container", cmd_kill},
	{"delete", "[--force] ID", "delete a container", cmd_delete},
	{"exec", "[flags] ID [CMD ARGS...]", "run a process in a running container", cmd_exec},
	{"ps", "[--format table|json] ID [PS_ARGS...]", "list the processes of a container",
	 cmd_ps},
	{"pause", "ID", "freeze every process of a container", cmd_pause},
	{"resume", "ID", "thaw a paused container", cmd_resume},
	{"update", "[--resources FILE|-] [flags] ID", "change the resources of a container",
	 cmd_update},
	{"events", "[--stats] [--interval D] ID", "print container events and statistics",
	 cmd_events},
	{"spec", "[--bundle DIR] [--rootless]", "write a default config.json", cmd_spec},
	{"features", "", "print the features document of this runtime", cmd_features},
	{"validate", "[--bundle DIR]", "check a bundle's config.json", cmd_validate},
	{"mounts", "[--format table|json] ID", "print the mount table of a container", cmd_mounts},
	{"checkpoint", "ID", "checkpoint a container (CRIU)", NULL},
	{"restore", "ID", "restore a container from a checkpoint (CRIU)", NULL},
	{NULL},
};
