/* A bundle on disk: its config.json and its root filesystem (bundle.md). */
#ifndef CT_BUNDLE_H
#define CT_BUNDLE_H

#include "libct/base/error.h"
#include "oci/config.h"

/* root.path (relative to the bundle unless absolute) must be an existing directory, not a
 * symlink; its absolute path without symlinks goes to rootfs (PATH_MAX bytes) unless NULL. */
int ct_bundle_rootfs(const char *bundle, const struct oci_config *config, char *rootfs,
		     struct ct_error *err);

/* on_unknown callback of oci_config_opts: a --debug line per ignored property. */
void ct_bundle_log_unknown(void *data, const char *file, const char *path);

#endif
