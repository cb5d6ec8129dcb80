/* `ctrun exec` flags (runc's) and the process object they make: the --process document, or
 * the container's config.json process with the flags laid over it, as runc does. Pure. */
#ifndef CTRUN_EXEC_FLAGS_H
#define CTRUN_EXEC_FLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "oci/config.h"

struct ct_exec_flags {
	const char *id;
	char **args; /* CMD ARGS..., NULL-terminated (argv's own) */
	size_t n_args;
	const char *process_file, *pid_file, *console_socket, *cwd, *apparmor, *process_label;
	bool detach, tty, ignore_paused;
	bool no_new_privs, no_new_privs_set; /* --no-new-privs[=false] */
	bool has_user;
	uint32_t uid, gid;
	bool has_gid;
	const char **env, **caps; /* K=V and capability names, in the order given */
	size_t n_env, n_caps;
	const char **cgroups; /* --cgroup [CONTROLLER:]SUB, in the order given */
	size_t n_cgroups;
	uint32_t *gids; /* --additional-gids */
	size_t n_gids;
	int preserve_fds;
};

/* Parses argv (argv[0] "exec"); the arrays are malloc'd (ct_exec_flags_free). Returns 0,
 * -1 after a usage error (printed), 1 after --help. */
int ct_exec_flags_parse(int argc, char **argv, struct ct_exec_flags *f);
void ct_exec_flags_free(struct ct_exec_flags *f);

/* "UID" or "UID:GID", decimal: 0, or -1 with a message in why. */
int ct_exec_parse_user(const char *text, uint32_t *uid, uint32_t *gid, bool *has_gid, char *why,
		       size_t why_size);

/* Lays the flags over p (the container's process, owned by the walker's allocations, which
 * this keeps): args, cwd, env appended (a K= given again replaces the earlier one), user,
 * additional gids, capabilities added to bounding, effective and permitted, apparmor,
 * label, noNewPrivileges, terminal. Returns 0 or -1 (ENOMEM). */
int ct_exec_apply_flags(const struct ct_exec_flags *f, struct oci_process *p, struct ct_error *err);

#endif
