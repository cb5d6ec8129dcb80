/* The container's cgroup in the commands: made and limited by create before the clone,
 * found again from state.json by delete, kill --all and the others. */
#ifndef CT_CONTAINER_CGROUP_H
#define CT_CONTAINER_CGROUP_H

#include "libct/cgroup/cgroup.h"
#include "libct/lifecycle/opts.h"
#include "libct/state/state.h"

/* Plans the cgroup for config (linux.cgroupsPath), making nothing yet; *out NULL under
 * --cgroup-manager disabled, where only what a container without a cgroup can be given
 * passes. */
int ct_container_cgroup_plan(const struct ct_lifecycle_opts *lc, const char *id,
			     const struct oci_config *c, struct ct_cgroup **out,
			     struct ct_error *err);

/* Makes and limits the planned cg (linux.resources), taking it
 * over: *out is cg once made, NULL when cg is NULL or the caller may not make cgroups and
 * runs without one (rootless); on failure cg is freed and nothing is left. As root on a
 * v1 host only its EARLY part is made (libct/cgroup/cgroup.h): *rest then has the
 * resources for ct_spawn to make and limit the rest with (ct_spawn_opts.cgroup_rest: the
 * config's own, needed no longer than it), else it is NULL. */
int ct_container_cgroup_make(const char *id, const struct oci_config *c, struct ct_cgroup *cg,
			     struct ct_cgroup **out, const struct oci_resources **rest,
			     struct ct_error *err);

/* Whether a container made with config has no device filter while its device rules count on
 * its process having no CAP_MKNOD (create refuses it otherwise): --cgroup-manager disabled,
 * device rules, no user namespace. create records it in state.json (no_device_filter). */
bool ct_container_lacks_device_filter(const struct ct_lifecycle_opts *lc,
				      const struct oci_config *c);

/* exec into a container whose state.json records no device filter: its process (config's)
 * must not keep CAP_MKNOD, as create required of the init (errnum EPERM). */
int ct_container_check_exec_caps(const struct ct_state *st, const struct oci_config *c,
				 struct ct_error *err);

/* The cgroup recorded in state.json; *out NULL when the container has none. */
int ct_container_cgroup_open(const struct ct_state *st, struct ct_cgroup **out,
			     struct ct_error *err);

/* ct_container_cgroup_open for a command that needs the cgroup: none is an error (ENOENT),
 * "the container has no cgroup<purpose> (created with --cgroup-manager disabled)". */
int ct_container_cgroup_require(const struct ct_state *st, const char *purpose,
				struct ct_cgroup **out, struct ct_error *err);

/* Whether the recorded cgroup's freezer holds the container frozen: its status is then
 * `paused` (docs/design.md: derived, never stored). False without a cgroup or a readable
 * freezer. */
bool ct_container_cgroup_frozen(const struct ct_state *st);

/* Kills what is left in the recorded cgroup and removes it (nothing when there is none). */
int ct_container_cgroup_destroy(const struct ct_state *st, struct ct_error *err);

#endif
