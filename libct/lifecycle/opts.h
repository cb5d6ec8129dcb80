/* What every operation on containers takes from its caller: the global flags of runc's
 * command line that are not about the command line itself. */
#ifndef CT_LIFECYCLE_OPTS_H
#define CT_LIFECYCLE_OPTS_H

#include <stdbool.h>

enum ct_cgroup_manager { CT_CGROUP_CGROUPFS, CT_CGROUP_SYSTEMD, CT_CGROUP_DISABLED };

struct ct_lifecycle_opts {
	const char *root;      /* the state root: a directory per container */
	bool no_verify_mounts; /* no mount check after the set-up (for measuring its cost) */
	enum ct_cgroup_manager cgroup_manager;
	const char *version; /* "version commit" of the program: part of every seccomp cache key */
};

#endif
