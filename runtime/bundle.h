/* A bundle on disk: its config.json and its root filesystem (bundle.md). */
#ifndef CTRUN_BUNDLE_H
#define CTRUN_BUNDLE_H

#include "libct/error.h"
#include "oci/config.h"

/* root.path (relative to the bundle unless absolute) must be an existing directory. */
int ct_bundle_check_root(const char *bundle, const struct oci_config *config, struct ct_error *err);

/* on_unknown callback of oci_config_opts: a --debug line per ignored property. */
void ct_bundle_log_unknown(void *data, const char *file, const char *path);

#endif
