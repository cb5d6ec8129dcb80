/* The container's cgroup as create, delete and kill use it (libct/lifecycle/container_cgroup.h). */
#include "libct/lifecycle/container_cgroup.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/capability.h>

#include "libct/cgroup/paused.h"
#include "libct/lifecycle/log.h"
#include "libct/parent/spawn_plan.h"
#include "libct/plan/plan.h"

static void log_cgroup_warning(const char *msg)
{
	ct_log(CT_LOG_WARNING, "%s", msg);
}

/* As runc: an unprivileged caller that may not make cgroups runs its container in its own
 * cgroup, as long as nothing asks for a limit there. */
static bool rootless_without_cgroup(const struct oci_config *c, const struct ct_error *err)
{
	return geteuid() != 0 && !c->linux_.has_resources &&
	       (err->errnum == EACCES || err->errnum == EPERM || err->errnum == EROFS);
}

/* Device rules are the one part of resources a container without a cgroup can be given:
 * its /dev holds only the standard nodes and linux.devices, and Podman sends a deny-all
 * rule even for --cgroups=disabled. Every limit still needs a cgroup. */
static bool asks_only_device_rules(const struct oci_resources *r)
{
	return !r->has_memory && !r->has_cpu && !r->has_pids && !r->has_block_io &&
	       !r->hugepage_limits.len && !r->has_network && !r->rdma.len && !r->unified.len;
}

static bool has_user_namespace(const struct oci_config *c)
{
	for (size_t i = 0; i < c->linux_.namespaces.len; i++)
		if (c->linux_.namespaces.items[i].type == OCI_NS_USER)
			return true;
	return false;
}

static bool names_cap_mknod(const oci_strings *set)
{
	for (size_t i = 0; i < set->len; i++)
		if (ct_capability_from_name(set->items[i]) == CAP_MKNOD)
			return true;
	return false;
}

/* Without capabilities in the config the process has none. After execve a process holds at
 * most its bounding, inheritable and ambient sets (root's permitted set is rebuilt from
 * them), so a CAP_MKNOD in any of the three is kept. */
static bool process_keeps_cap_mknod(const struct oci_config *c)
{
	if (!c->has_process || !c->process.has_capabilities)
		return false;
	const struct oci_capabilities *caps = &c->process.capabilities;
	return names_cap_mknod(&caps->bounding) || names_cap_mknod(&caps->inheritable) ||
	       names_cap_mknod(&caps->ambient);
}

/* Without a cgroup no device filter stands: a process outside a user namespace that keeps
 * CAP_MKNOD in its bounding set could make any node (a disk, /dev/mem) and open it. */
static bool may_make_device_nodes(const struct oci_config *c)
{
	return !has_user_namespace(c) && process_keeps_cap_mknod(c);
}

/* --cgroup-manager disabled: the container stays in the caller's cgroup, so only device
 * rules can be taken, and only by a process that cannot make nodes. */
static int check_without_cgroup(const struct oci_config *c, struct ct_error *err)
{
	if (c->linux_.has_resources && !asks_only_device_rules(&c->linux_.resources))
		return ct_error_plain(err, EINVAL,
				      "config.json: .linux.resources: needs a cgroup "
				      "(--cgroup-manager disabled)");
	if (!c->linux_.resources.devices.len)
		return 0;
	if (may_make_device_nodes(c))
		return ct_error_plain(
			err, EPERM,
			"config.json: .linux.resources.devices: --cgroup-manager disabled cannot "
			"enforce device rules while the process keeps CAP_MKNOD without a user "
			"namespace: drop CAP_MKNOD from .process.capabilities.bounding");
	log_cgroup_warning("config.json: .linux.resources.devices: not enforced without a "
			   "cgroup (--cgroup-manager disabled); the process cannot make device "
			   "nodes (no CAP_MKNOD, or a user namespace), but may open every node "
			   "its /dev and mounts hold");
	return 0;
}

bool ct_container_lacks_device_filter(const struct ct_lifecycle_opts *lc,
				      const struct oci_config *c)
{
	return lc->cgroup_manager == CT_CGROUP_DISABLED && c->linux_.resources.devices.len &&
	       !has_user_namespace(c);
}

int ct_container_check_exec_caps(const struct ct_state *st, const struct oci_config *c,
				 struct ct_error *err)
{
	if (!st->no_device_filter || !process_keeps_cap_mknod(c))
		return 0;
	return ct_error_plain(
		err, EPERM,
		"no device filter stands (created with --cgroup-manager disabled, device rules "
		"and no user namespace): the process may not have CAP_MKNOD, which could make "
		"and open any host device; drop it from its capabilities");
}

/* In two parts where the init's clone can go between them: v1 (what CLONE_INTO_CGROUP
 * needs is in the EARLY part), and as root: an unprivileged caller may be refused the
 * directories and then runs without a cgroup (rootless_without_cgroup), which is decided
 * before the clone, on the whole cgroup. */
static bool in_two_parts(const struct ct_cgroup *cg)
{
	return cg->ops == &ct_cgroup_v1_ops && geteuid() == 0;
}

/* The limits of a cgroup made whole (the other's are for ct_spawn to apply). */
static int apply_whole(struct ct_cgroup *cg, const struct oci_resources *res, struct ct_error *err)
{
	if (ct_cgroup_apply(cg, res, CT_CGROUP_APPLY_CREATE, err) < 0) {
		struct ct_error ignored;
		ct_cgroup_destroy(cg, &ignored);
		return -1;
	}
	return 0;
}

static void log_made(const char *id, const struct ct_cgroup *cg, bool split)
{
	if (split)
		ct_log(CT_LOG_DEBUG,
		       "container \"%s\": cgroup %s planned, its memory and cgroup2 directories "
		       "made (%s driver)",
		       ct_shown_id(id).s, cg->dirs[cg->n_dirs - 1].path, cg->ops->name);
	else
		ct_log(CT_LOG_DEBUG, "container \"%s\": cgroup %s made (%s driver)",
		       ct_shown_id(id).s, cg->dirs[cg->n_dirs - 1].path, cg->ops->name);
}

/* Makes cg, or with split its EARLY part; 1 when the caller may not and its container
 * runs without a cgroup (rootless_without_cgroup: never with split, which is root's). */
static int make_cgroup(struct ct_cgroup *cg, bool split, const char *id, const struct oci_config *c,
		       struct ct_error *err)
{
	if (ct_cgroup_create_part(cg, split ? CT_CGROUP_EARLY : CT_CGROUP_ALL, err) == 0)
		return 0;
	if (!rootless_without_cgroup(c, err))
		return -1;
	ct_log(CT_LOG_DEBUG, "container \"%s\": no cgroup (rootless): %s", ct_shown_id(id).s,
	       err->msg);
	return 1;
}

int ct_container_cgroup_plan(const struct ct_lifecycle_opts *lc, const char *id,
			     const struct oci_config *c, struct ct_cgroup **out,
			     struct ct_error *err)
{
	*out = NULL;
	if (lc->cgroup_manager == CT_CGROUP_DISABLED)
		return check_without_cgroup(c, err);
	struct ct_cgroup_config cfg = {.id = id,
				       .cgroups_path = c->linux_.cgroups_path,
				       .warn = log_cgroup_warning,
				       .systemd = lc->cgroup_manager == CT_CGROUP_SYSTEMD,
				       .annotations = &c->annotations};
	return ct_cgroup_plan(&cfg, out, err);
}

int ct_container_cgroup_make(const char *id, const struct oci_config *c, struct ct_cgroup *cg,
			     struct ct_cgroup **out, const struct oci_resources **rest,
			     struct ct_error *err)
{
	*out = NULL;
	*rest = NULL;
	if (!cg)
		return 0;
	/* runc's and crun's device filter: the config's rules and the standard devices
	 * (libct/cgroup/device_rules.h); a linux.devices node opens only as they allow */
	const struct oci_resources *res = &c->linux_.resources;
	if (ct_cgroup_waits_for_init(cg)) {
		/* the unit is started with the init's pid: ct_spawn applies res then */
		*out = cg;
		*rest = res;
		return 0;
	}
	bool split = in_two_parts(cg);
	int made = make_cgroup(cg, split, id, c, err);
	if (made == 0 && !split)
		made = apply_whole(cg, res, err);
	if (made != 0) {
		ct_cgroup_free(cg);
		return made < 0 ? -1 : 0;
	}
	log_made(id, cg, split);
	*out = cg;
	*rest = split ? res : NULL;
	return 0;
}

int ct_container_cgroup_open(const struct ct_state *st, struct ct_cgroup **out,
			     struct ct_error *err)
{
	if (ct_cgroup_from_state(st, log_cgroup_warning, out, err) < 0)
		return ct_error_prefix(err, "container \"%s\"", ct_shown_id(st->id).s);
	return 0;
}

int ct_container_cgroup_require(const struct ct_state *st, const char *purpose,
				struct ct_cgroup **out, struct ct_error *err)
{
	if (ct_container_cgroup_open(st, out, err) < 0)
		return -1;
	if (!*out)
		return ct_error_plain(err, ENOENT,
				      "the container has no cgroup%s (created with "
				      "--cgroup-manager disabled)",
				      purpose);
	return 0;
}

int ct_container_cgroup_destroy(const struct ct_state *st, struct ct_error *err)
{
	struct ct_cgroup *cg;
	if (ct_container_cgroup_open(st, &cg, err) < 0)
		return -1;
	int rc = cg ? ct_cgroup_destroy(cg, err) : 0;
	ct_cgroup_free(cg);
	return rc;
}

bool ct_container_cgroup_frozen(const struct ct_state *st)
{
	/* read from the recorded paths: a cgroup object of nine directories only to read one
	 * file was most of what a status cost after the pid check */
	return ct_cgroup_paths_paused(&st->cgroup_paths);
}
