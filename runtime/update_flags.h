/* `ctrun update`'s resource flags, as runc names and reads them, onto a LinuxResources
 * object (the one `--resources` gives, or an empty one). Pure. */
#ifndef CTRUN_UPDATE_FLAGS_H
#define CTRUN_UPDATE_FLAGS_H

#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "oci/config.h"

struct ct_update_flag {
	const char *name; /* without "--" */
	const char *help; /* for --help */
};

/* The i-th flag, NULL past the last. */
const struct ct_update_flag *ct_update_flag_at(size_t i);

/* Sets the field `--name value` stands for in res (and its has_* marks). An unknown name
 * or a bad value fails naming the flag: `--memory: invalid value "12x"`. */
int ct_update_flag_set(struct oci_resources *res, const char *name, const char *value,
		       struct ct_error *err);

/* A byte size as runc reads --memory (go-units RAMInBytes): a number, optionally with a
 * fraction, then an optional space and k, m, g, t or p (powers of 1024, any case) with an
 * optional "i" and "b"/"B"; "-1" is -1 (no limit). -1 with errno EINVAL or ERANGE. */
int ct_parse_ram_bytes(const char *text, int64_t *out);

#endif
