/* The flags `create` and `run` share. */
#ifndef CTRUN_CREATE_FLAGS_H
#define CTRUN_CREATE_FLAGS_H

#include "libct/lifecycle/container.h"

struct ct_run_flags {
	struct ct_create_args create;
	bool detach, keep; /* run only */
	bool no_subreaper; /* run's: in the foreground, no child subreaper (runc's flag) */
};

/* Returns 0, -1 after a usage error, 1 after --help. */
int ct_parse_create_flags(int argc, char **argv, bool is_run, struct ct_run_flags *f);

#endif
