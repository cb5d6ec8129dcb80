/* The default config.json that `ctrun spec` writes: runc's `runc spec` document, tuned to
 * run busybox `sh` non-interactively. Pure: the caller passes the ids it runs as. */
#ifndef OCI_SPEC_DEFAULT_H
#define OCI_SPEC_DEFAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "libct/base/error.h"

struct oci_spec_opts {
	bool rootless; /* user namespace mapping container root to uid/gid below */
	uint32_t uid;  /* the caller's euid (only used when rootless) */
	uint32_t gid;  /* the caller's egid (only used when rootless) */
};

/* Returns the pretty-printed document (malloc'd, NUL-terminated, ends with a newline), or
 * NULL with err set. */
char *oci_spec_default_json(const struct oci_spec_opts *opts, struct ct_error *err);

#endif
