/* The default config.json that `ctrun spec` writes: runc's `runc spec` document, tuned to
 * run busybox `sh` non-interactively. Pure: the caller passes the ids it runs as and what
 * the kernel offers. */
#ifndef OCI_SPEC_DEFAULT_H
#define OCI_SPEC_DEFAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "libct/base/error.h"

struct oci_spec_opts {
	bool rootless; /* user namespace mapping container root to uid/gid below */
	uint32_t uid;  /* the caller's euid (only used when rootless) */
	uint32_t gid;  /* the caller's egid (only used when rootless) */
	/* The kernel applies rro, rnosuid, ... (mount_setattr with AT_RECURSIVE): the rootless
	 * /sys bind asks for them. Without it a runtime refuses them, so they are left out. */
	bool recursive_mount_attrs;
};

/* Returns the pretty-printed document (malloc'd, NUL-terminated, ends with a newline), or
 * NULL with err set. */
char *oci_spec_default_json(const struct oci_spec_opts *opts, struct ct_error *err);

#endif
