/* `ctrun exec`: run another process in a container, as runc does. Exit status: the
 * process's in the foreground (128+N when killed by signal N), 0 with --detach, 127 / 126
 * when the command is missing / cannot be executed, 255 for any other failure before it
 * runs, 1 for a usage error. The flags are parsed here; the work is the lifecycle's
 * (libct/lifecycle/ops.h). */
#include "libct/lifecycle/ops.h"
#include "runtime/ctrun.h"
#include "runtime/exec_flags.h"

/* The flags over config.json's process object. */
static int apply_flags(void *flags, struct oci_process *p, struct ct_error *err)
{
	return ct_exec_apply_flags(flags, p, err);
}

int cmd_exec(const struct ct_globals *g, int argc, char **argv)
{
	struct ct_exec_flags f;
	int status = ct_exec_flags_parse(argc, argv, &f);
	if (status) {
		ct_exec_flags_free(&f);
		return status < 0 ? 1 : 0;
	}
	const struct ct_exec_args a = {
		.id = f.id,
		.process_file = f.process_file,
		.apply = apply_flags,
		.apply_arg = &f,
		.console_socket = f.console_socket,
		.pid_file = f.pid_file,
		.detach = f.detach,
		.ignore_paused = f.ignore_paused,
		.preserve_fds = f.preserve_fds,
		.sub_cgroups = f.cgroups,
		.n_sub_cgroups = f.n_cgroups,
	};
	status = ct_lifecycle_exec(&g->lc, &a);
	ct_exec_flags_free(&f);
	return status;
}
