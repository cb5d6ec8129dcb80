/* What `ctrun mounts` shows beside each mount: whether config.json planned it, and its
 * options as one findmnt-like string. Pure helpers over a parsed config and a table. */
#ifndef CTRUN_MOUNTS_VIEW_H
#define CTRUN_MOUNTS_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "libct/fs/fsinfo.h"
#include "oci/config.h"

/* The paths a config mounts on (normalized): exact ones, and trees whose every mount is
 * planned (an rbind brings its submounts, a v1 "cgroup" mount its hierarchies). */
struct ct_planned_paths {
	char **exact, **trees;
	size_t n_exact, n_trees;
};

int ct_planned_paths_from_config(const struct oci_config *c, struct ct_planned_paths *out);
bool ct_planned_paths_match(const struct ct_planned_paths *p, const char *target);
void ct_planned_paths_free(struct ct_planned_paths *p);

/* "ro,nosuid,nodev,noexec,relatime" then the filesystem's own options, into buf. */
const char *ct_mount_options_string(const struct ct_mount *m, char *buf, size_t size);

#endif
