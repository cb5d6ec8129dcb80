/* Whether a container's cgroup is frozen, read straight from the paths its state.json
 * records (cgroupPaths: hierarchy key -> absolute directory) without building a cgroup
 * object: `state`, `list` and every command that shows a status ask it of each container.
 * The same answer as the drivers' freezer reading (v1_freezer_state, v2_freeze's) gives. */
#ifndef CT_CGROUP_PAUSED_H
#define CT_CGROUP_PAUSED_H

#include <stdbool.h>

#include "oci/jsonwalk.h"

/* Where the freezer of `paths` is read: the directory of the v1 hierarchy whose key names
 * "freezer" (*v2 false), or, when every key is the unified one, the cgroup2 directory (*v2
 * true). NULL without a freezer (no cgroup, a v1 layout without that hierarchy). Pure. */
const char *ct_cgroup_freezer_dir(const oci_string_map *paths, bool *v2);

/* Whether freezer.state's text says the cgroup is (being) frozen: FROZEN or FREEZING, which
 * a process joining a frozen cgroup (exec --ignore-paused) brings back. Pure. */
bool ct_cgroup_v1_text_paused(const char *freezer_state);

/* Frozen or freezing: v1 reads freezer.state; v2 reads cgroup.events ("frozen 1") and
 * cgroup.freeze (asked to freeze, not every task stopped yet). False when there is no
 * freezer or it cannot be read. One open, read and close per file, no allocation. */
bool ct_cgroup_paths_paused(const oci_string_map *paths);

#endif
