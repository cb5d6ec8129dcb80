/* The subcommand table: one row per command of runc's CLI surface. A NULL handler answers
 * "not implemented yet" (exit 1) until the issue that brings it lands. */
#include <stddef.h>

#include "runtime/ctrun.h"

const struct ct_command ct_commands[] = {
	{"create", "[--bundle DIR] [--pid-file F] [--console-socket S] ID",
	 "create a container (it waits for start)", cmd_create, true},
	{"start", "ID", "run the user process of a created container", cmd_start, false},
	{"run", "[--bundle DIR] [--detach] ID", "create and start a container", cmd_run, true},
	{"state", "ID", "print the state of a container as JSON", cmd_state, false},
	{"list", "[--format table|json] [-q]", "list containers", cmd_list, false},
	{"kill", "[--all] ID [SIGNAL]", "send a signal to a container", cmd_kill, false},
	{"delete", "[--force] ID", "delete a container", cmd_delete, false},
	{"exec", "[flags] ID [CMD ARGS...]", "run a process in a running container", cmd_exec,
	 true},
	{"ps", "[--format table|json] ID [PS_ARGS...]", "list the processes of a container",
	 cmd_ps, false},
	{"pause", "ID", "freeze every process of a container", cmd_pause, false},
	{"resume", "ID", "thaw a paused container", cmd_resume, false},
	{"update", "[--resources FILE|-] [flags] ID", "change the resources of a container",
	 cmd_update, true},
	{"events", "[--stats] [--interval D] ID", "print container events and statistics",
	 cmd_events, false},
	{"spec", "[--bundle DIR] [--rootless]", "write a default config.json", cmd_spec, false},
	{"features", "", "print the features document of this runtime", cmd_features, false},
	{"validate", "[--bundle DIR]", "check a bundle's config.json", cmd_validate, false},
	{"mounts", "[--format table|json] ID", "print the mount table of a container", cmd_mounts,
	 false},
	{"checkpoint", "[--image-path DIR] [--leave-running] [flags] ID",
	 "checkpoint a running container with CRIU", cmd_checkpoint, true},
	{"restore", "[--image-path DIR] [--bundle DIR] [--detach] [flags] ID",
	 "restore a container from a CRIU checkpoint", cmd_restore, true},
	{NULL},
};
