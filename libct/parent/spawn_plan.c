/* The parent's half of spawning: turn the parsed config into a ct_init_plan that the child
 * can apply without parsing, allocating or looking anything up by name. */
#include "libct/parent/spawn_plan.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/nsfs.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/selfstatus.h"
#include "libct/child/lsm.h"
#include "libct/child/process.h"
#include "libct/child/sysctl.h"
#include "libct/fs/mountfd.h"
#include "libct/fs/safefs.h"
#include "libct/parent/idmap_writer.h"
#include "libct/parent/mount_label.h"
#include "libct/parent/mountcheck_plan.h"
#include "libct/parent/placement.h"
#include "libct/parent/userns.h"
#include "libct/plan/namespaces.h"
#include "libct/plan/plan.h"
#include "oci/capabilities.h"

/* setns() of the child is typed, but a wrong type found there could not name the path:
 * check it here, where the path is known. */
static int check_namespace_type(int fd, const struct oci_namespace *ns, struct ct_error *err)
{
	const char *name = oci_namespace_names[ns->type];
	int type = ioctl(fd, NS_GET_NSTYPE);
	if (type < 0 && errno == ENOTTY)
		return ct_error_plain(err, EINVAL, "%s namespace \"%s\": not a namespace", name,
				      ns->path);
	if (type < 0)
		return ct_error_sys(err, errno, "%s namespace \"%s\"", name, ns->path);
	if ((unsigned long)type != ct_ns_clone_flags[ns->type])
		return ct_error_plain(err, EINVAL, "%s namespace \"%s\": not a %s namespace", name,
				      ns->path, name);
	return 0;
}

static int plan_namespaces(const struct oci_linux *lx, struct ct_init_plan *plan,
			   struct ct_error *err)
{
	for (int i = 0; i < OCI_NS_COUNT; i++)
		plan->ns.join_fds[i] = -1;
	for (size_t i = 0; i < lx->namespaces.len; i++) {
		const struct oci_namespace *ns = &lx->namespaces.items[i];
		if (!ns->path) {
			plan->ns.unshare_flags |= ct_ns_clone_flags[ns->type];
			continue;
		}
		plan->ns.join_fds[ns->type] = openat(AT_FDCWD, ns->path, O_RDONLY | O_CLOEXEC);
		if (plan->ns.join_fds[ns->type] < 0)
			return ct_error_sys(err, errno, "open %s namespace \"%s\"",
					    oci_namespace_names[ns->type], ns->path);
		if (check_namespace_type(plan->ns.join_fds[ns->type], ns, err) < 0)
			return -1;
	}
	plan->ns.new_mount_ns = plan->ns.unshare_flags & CLONE_NEWNS;
	plan->ns.userns =
		(plan->ns.unshare_flags & CLONE_NEWUSER) || plan->ns.join_fds[OCI_NS_USER] >= 0;
	/* a new user namespace could not join the others any more: they are joined first */
	bool others_joined =
		plan->ns.join_fds[OCI_NS_IPC] >= 0 || plan->ns.join_fds[OCI_NS_UTS] >= 0 ||
		plan->ns.join_fds[OCI_NS_NETWORK] >= 0 || plan->ns.join_fds[OCI_NS_CGROUP] >= 0;
	plan->ns.use_joiner = plan->ns.join_fds[OCI_NS_USER] >= 0 ||
			      ((plan->ns.unshare_flags & CLONE_NEWUSER) && others_joined);
	return 0;
}

/* A new user namespace gets its maps from the parent (spawn.c); a joined one has its own. */
static int plan_id_mappings(const struct oci_linux *lx, struct ct_init_plan *plan,
			    struct ct_error *err)
{
	if (!(plan->ns.unshare_flags & CLONE_NEWUSER))
		return 0;
	if (!lx->uid_mappings.len || !lx->gid_mappings.len)
		return ct_error_plain(err, EINVAL,
				      "config.json: .linux.%s: a new user namespace needs "
				      "uid and gid mappings",
				      lx->uid_mappings.len ? "gidMappings" : "uidMappings");
	if (ct_idmap_check(&lx->uid_mappings, "linux.uidMappings", err) < 0 ||
	    ct_idmap_check(&lx->gid_mappings, "linux.gidMappings", err) < 0)
		return -1;
	plan->ns.uid_map = ct_idmap_format(&lx->uid_mappings);
	plan->ns.gid_map = ct_idmap_format(&lx->gid_mappings);
	if (!plan->ns.uid_map || !plan->ns.gid_map)
		return ct_error_sys(err, ENOMEM, "plan the id mappings");
	bool root = geteuid() == 0;
	plan->ns.uid_writer = ct_idmap_writer_for(&lx->uid_mappings, root, geteuid());
	plan->ns.gid_writer = ct_idmap_writer_for(&lx->gid_mappings, root, getegid());
	plan->ns.setgroups_denied = plan->ns.gid_writer == CT_IDMAP_OWN_ID;
	plan->ns.dumpable_for_maps =
		plan->ns.uid_writer != CT_IDMAP_DIRECT || plan->ns.gid_writer != CT_IDMAP_DIRECT;
	if (plan->ns.setgroups_denied && plan->config->process.user.additional_gids.len)
		return ct_error_plain(err, EPERM,
				      "config.json: .process.user.additionalGids: a user "
				      "namespace whose gid map is the caller's own gid denies "
				      "setgroups; map more gids (newgidmap, /etc/subgid)");
	return 0;
}

static char *join_path(const char *a, const char *b)
{
	char *out;
	while (*b == '/')
		b++;
	if (asprintf(&out, "%s/%s", a, b) < 0)
		return NULL;
	return out;
}

static int plan_one_mount(const struct ct_spawn_opts *o, const struct oci_mount *m,
			  struct ct_planned_mount *pm, struct ct_error *err)
{
	pm->destination = m->destination;
	pm->source = m->source;
	pm->type = m->type;
	if (ct_mount_flags_parse(m->options.items, m->options.len, &pm->flags) < 0)
		return ct_error_sys(err, ENOMEM, "plan mount \"%s\"", m->destination);
	if (m->type && strcmp(m->type, "bind") == 0)
		pm->flags.bind = true;
	pm->is_cgroup =
		m->type && (strcmp(m->type, "cgroup") == 0 || strcmp(m->type, "cgroup2") == 0);
	if (pm->flags.bind) {
		if (!m->source)
			return ct_error_plain(err, EINVAL,
					      "mount \"%s\": bind mount without a source",
					      m->destination);
		pm->bind_source =
			m->source[0] == '/' ? strdup(m->source) : join_path(o->bundle, m->source);
		if (!pm->bind_source)
			return ct_error_sys(err, ENOMEM, "plan mount \"%s\"", m->destination);
	}
	return 0;
}

/* One of the maps of a mount of its own, checked (named .mounts[i].field) and formatted. */
static int mount_maps(const oci_id_mappings *m, size_t i, const char *field, char **text,
		      struct ct_error *err)
{
	char path[64];
	snprintf(path, sizeof(path), "mounts[%zu].%s", i, field);
	if (ct_idmap_check(m, path, err) < 0)
		return -1;
	*text = ct_idmap_format(m);
	return *text ? 0 : ct_error_sys(err, ENOMEM, "plan the id mappings");
}

/* config.md#mounts "idmap": the user namespace of the mount's own maps, else the
 * container's (made with its maps, or the joined one itself); neither is an error. */
static int open_mount_idmap(const struct ct_init_plan *plan, const struct oci_mount *m, size_t i,
			    struct ct_error *err)
{
	if (!m->uid_mappings.len != !m->gid_mappings.len)
		return ct_error_plain(err, EINVAL,
				      "config.json: .mounts[%zu].%s: needed along with %s", i,
				      m->uid_mappings.len ? "gidMappings" : "uidMappings",
				      m->uid_mappings.len ? "uidMappings" : "gidMappings");
	if (!m->uid_mappings.len && plan->ns.join_fds[OCI_NS_USER] >= 0) {
		int fd = fcntl(plan->ns.join_fds[OCI_NS_USER], F_DUPFD_CLOEXEC, 3);
		return fd >= 0 ? fd : ct_error_sys(err, errno, "plan mount #%zu", i);
	}
	if (!m->uid_mappings.len && !plan->ns.uid_map)
		return ct_error_plain(err, EINVAL,
				      "config.json: .mounts[%zu]: an id-mapped mount needs "
				      "uidMappings and gidMappings, or a user namespace",
				      i);
	_cleanup_free_ char *uid_map = NULL, *gid_map = NULL;
	if (m->uid_mappings.len &&
	    (mount_maps(&m->uid_mappings, i, "uidMappings", &uid_map, err) < 0 ||
	     mount_maps(&m->gid_mappings, i, "gidMappings", &gid_map, err) < 0))
		return -1;
	int fd = ct_userns_open(uid_map ? uid_map : plan->ns.uid_map,
				gid_map ? gid_map : plan->ns.gid_map, err);
	return fd >= 0 ? fd : ct_error_prefix(err, "mount #%zu \"%s\"", i, m->destination);
}

/* Mappings without "idmap"/"ridmap" make an id-mapped mount too (config.md: the option
 * SHOULD be there). The parent makes it, a bind or a new filesystem (libct/fs/mountfd.h); the
 * child attaches it. */
static int plan_mount_idmap(const struct ct_init_plan *plan, const struct oci_mount *m, size_t i,
			    struct ct_planned_mount *pm, struct ct_error *err)
{
	if (!pm->flags.idmap && !m->uid_mappings.len && !m->gid_mappings.len)
		return 0;
	pm->flags.idmap = true;
	_cleanup_close_ int userns = open_mount_idmap(plan, m, i, err);
	if (userns < 0)
		return -1;
	struct ct_mount_request rq = {
		.type = pm->type,
		.source = pm->flags.bind ? pm->bind_source : (pm->source ? pm->source : pm->type),
		.source_fd = -1,
		.flags = &pm->flags};
	pm->flags.idmap_tree = ct_mount_idmapped_tree(&rq, userns, err);
	if (pm->flags.idmap_tree < 0)
		return ct_error_prefix(err, "mount #%zu \"%s\"", i, m->destination);
	return 0;
}

static bool own_namespace(const struct ct_init_plan *plan, enum oci_ns_type type,
			  const char *proc_name);

/* A user namespace mounts a sysfs only with a network namespace it owns; without one, the
 * host's /sys is bound instead, as runc does. */
static int plan_host_sysfs(const struct ct_init_plan *plan, struct ct_planned_mount *pm,
			   struct ct_error *err)
{
	if (!plan->ns.userns || !pm->type || strcmp(pm->type, "sysfs") != 0 ||
	    own_namespace(plan, OCI_NS_NETWORK, "net"))
		return 0;
	pm->flags.bind = pm->flags.recursive_bind = true;
	pm->bind_source = strdup("/sys");
	if (!pm->bind_source)
		return ct_error_sys(err, ENOMEM, "plan mount \"%s\"", pm->destination);
	return 0;
}

/* A mount on the container's "/" would lie under the root the process gets (runc 1.1.5 and
 * crun 1.8.1 fail on it later, each in its own way): refused, not silently lost. */
static int check_not_root(const struct oci_mount *m, size_t i, struct ct_error *err)
{
	char normal[PATH_MAX];
	ct_path_normalize(m->destination, normal, sizeof(normal));
	if (strcmp(normal, "/") != 0)
		return 0;
	return ct_error_plain(err, EINVAL,
			      "config.json: .mounts[%zu].destination: \"%s\" is the container's "
			      "root, which no mount may cover (root.path is the root)",
			      i, m->destination);
}

/* Only a bind goes without a type (pm: its options parsed). */
static int check_has_type(const struct oci_mount *m, const struct ct_planned_mount *pm, size_t i,
			  struct ct_error *err)
{
	if (m->type || pm->flags.bind)
		return 0;
	return ct_error_plain(err, EINVAL,
			      "config.json: .mounts[%zu].type: missing, and \"%s\" is no bind "
			      "(no \"bind\" or \"rbind\" in its options)",
			      i, m->destination);
}

/* "remount" would change what an earlier entry mounted at the destination: runc 1.1.5 and
 * crun 1.8.1 pass it to mount(2), which fails (EINVAL) on a destination no earlier entry
 * mounted, the usual case (["bind","remount","ro"] for a read-only bind). Refused at once. */
static int check_no_remount(const struct ct_planned_mount *pm, size_t i, struct ct_error *err)
{
	if (!(pm->flags.flags & MS_REMOUNT))
		return 0;
	return ct_error_plain(err, EINVAL,
			      "config.json: .mounts[%zu].options: \"remount\" is not supported: each "
			      "entry makes a mount at %s (a read-only bind needs only \"ro\")",
			      i, pm->destination);
}

static int plan_mounts(const struct ct_spawn_opts *o, struct ct_init_plan *plan,
		       struct ct_error *err)
{
	const struct oci_config *c = o->config;
	plan->rootfs.mounts = calloc(c->mounts.len + 1, sizeof(*plan->rootfs.mounts));
	if (!plan->rootfs.mounts)
		return ct_error_sys(err, ENOMEM, "plan mounts");
	plan->rootfs.default_devices = true;
	plan->rootfs.bind_nodes = plan->ns.userns;
	for (size_t i = 0; i < c->mounts.len; i++) {
		const struct oci_mount *m = &c->mounts.items[i];
		plan->rootfs.n_mounts++;
		if (check_not_root(m, i, err) < 0 ||
		    plan_one_mount(o, m, &plan->rootfs.mounts[i], err) < 0 ||
		    check_has_type(m, &plan->rootfs.mounts[i], i, err) < 0 ||
		    check_no_remount(&plan->rootfs.mounts[i], i, err) < 0 ||
		    plan_host_sysfs(plan, &plan->rootfs.mounts[i], err) < 0 ||
		    plan_mount_idmap(plan, m, i, &plan->rootfs.mounts[i], err) < 0)
			return -1;
		if (strcmp(m->destination, "/dev") == 0)
			plan->rootfs.default_devices = !plan->rootfs.mounts[i].flags.bind;
	}
	return 0;
}

/* The host directory bound for a hierarchy: the container's own cgroup, or without one
 * (--cgroup-manager disabled) the caller's, which the container stays in, as crun does: a
 * fresh mount would show the cgroup namespace's root, the host's whole tree, or for the
 * memory hierarchy, joined after the set-up, the runtime's. *out NULL: mount it fresh. */
static int cgroup_bind_dir(struct ct_init_plan *plan, const char *key, const char *mountpoint,
			   const char *mount_root, const char *caller_path, char **out,
			   struct ct_error *err)
{
	struct ct_cgroup *cg = plan->opts->cgroup;
	*out = NULL;
	if (cg) {
		const char *dir = ct_cgroup_dir_path(cg, key);
		if (dir && !(*out = strdup(dir)))
			return ct_error_sys(err, ENOMEM, "plan cgroup mount");
		return 0;
	}
	if (!mountpoint || !caller_path)
		return 0;
	if (ct_cgroup_dir_for(mountpoint, mount_root, caller_path, out, err) < 0)
		return ct_error_prefix(err, "bind the caller's cgroup (--cgroup-manager disabled)");
	return 0;
}

static int add_cgroup_hierarchy(struct ct_init_plan *plan,
				const struct ct_cgroup_hierarchy_info *info, struct ct_error *err)
{
	struct ct_cgroup_hierarchy *grown =
		realloc(plan->rootfs.cgroup_v1, (plan->rootfs.n_cgroup_v1 + 1) * sizeof(*grown));
	if (!grown)
		return ct_error_sys(err, ENOMEM, "plan cgroup mount");
	plan->rootfs.cgroup_v1 = grown;
	struct ct_cgroup_hierarchy *h = &plan->rootfs.cgroup_v1[plan->rootfs.n_cgroup_v1++];
	*h = (struct ct_cgroup_hierarchy){0};
	h->dir = strdup(info->mountpoint + sizeof(CT_CGROUP_ROOT));
	h->options = strdup(info->options);
	if (!h->dir || !h->options)
		return ct_error_sys(err, ENOMEM, "plan cgroup mount");
	return cgroup_bind_dir(plan, info->key, info->mountpoint, info->mount_root,
			       info->caller_path, &h->bind, err);
}

/* A "cgroup" mount shows the container's own hierarchies: on a v1 (or hybrid) host that is
 * one mount per v1 hierarchy, so the controller lists are read here, before the clone. */
static int plan_cgroup2_bind(struct ct_init_plan *plan, const struct ct_cgroup_layout *l,
			     struct ct_error *err)
{
	if (plan->place.late_cgroupns || plan->ns.join_fds[OCI_NS_CGROUP] >= 0)
		return 0;
	return cgroup_bind_dir(plan, CT_CGROUP_UNIFIED_KEY, l->unified_mount, l->unified_mount_root,
			       l->unified_caller_path, &plan->rootfs.cgroup2_bind, err);
}

/* The v1 hierarchies from the layout the cgroup was planned with (one read of mountinfo
 * per command: it takes the kernel's global namespace_sem, which every mount of every
 * container starting meanwhile holds for writing). */
static int plan_cgroup_hierarchies(struct ct_init_plan *plan, struct ct_error *err)
{
	const struct ct_cgroup_layout *l;
	if (ct_cgroup_layout_get(&l, err) < 0 || plan_cgroup2_bind(plan, l, err) < 0)
		return -1;
	if (l->mode == CT_CGROUP_MODE_UNIFIED) {
		plan->rootfs.cgroup2_host = true;
		return 0;
	}
	plan->rootfs.have_cgroup2_unified = l->mode == CT_CGROUP_MODE_HYBRID;
	for (size_t i = 0; i < l->n_v1; i++)
		if (add_cgroup_hierarchy(plan, &l->v1[i], err) < 0)
			return -1;
	return 0;
}

static const struct {
	const char *name;
	int resource;
} rlimit_names[] = {
	{"RLIMIT_AS", RLIMIT_AS},
	{"RLIMIT_CORE", RLIMIT_CORE},
	{"RLIMIT_CPU", RLIMIT_CPU},
	{"RLIMIT_DATA", RLIMIT_DATA},
	{"RLIMIT_FSIZE", RLIMIT_FSIZE},
	{"RLIMIT_LOCKS", RLIMIT_LOCKS},
	{"RLIMIT_MEMLOCK", RLIMIT_MEMLOCK},
	{"RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE},
	{"RLIMIT_NICE", RLIMIT_NICE},
	{"RLIMIT_NOFILE", RLIMIT_NOFILE},
	{"RLIMIT_NPROC", RLIMIT_NPROC},
	{"RLIMIT_RSS", RLIMIT_RSS},
	{"RLIMIT_RTPRIO", RLIMIT_RTPRIO},
	{"RLIMIT_RTTIME", RLIMIT_RTTIME},
	{"RLIMIT_SIGPENDING", RLIMIT_SIGPENDING},
	{"RLIMIT_STACK", RLIMIT_STACK},
};

static int plan_rlimits(const struct oci_process *p, struct ct_init_plan *plan,
			struct ct_error *err)
{
	plan->process.rlimits = calloc(p->rlimits.len + 1, sizeof(*plan->process.rlimits));
	if (!plan->process.rlimits)
		return ct_error_sys(err, ENOMEM, "plan rlimits");
	for (size_t i = 0; i < p->rlimits.len; i++) {
		const struct oci_rlimit *r = &p->rlimits.items[i];
		size_t k = 0;
		while (k < sizeof(rlimit_names) / sizeof(rlimit_names[0]) &&
		       strcmp(rlimit_names[k].name, r->type) != 0)
			k++;
		if (k == sizeof(rlimit_names) / sizeof(rlimit_names[0]))
			return ct_error_plain(err, EINVAL,
					      "%s.rlimits[%zu].type: unknown rlimit \"%s\"",
					      ct_process_path(plan->opts), i, r->type);
		plan->process.rlimits[plan->process.n_rlimits++] =
			(struct ct_planned_rlimit){rlimit_names[k].resource, {r->soft, r->hard}};
	}
	return 0;
}

/* One name only, any case, the CAP_ prefix optional: no number, list or padding. */
int ct_capability_from_name(const char *name)
{
	const char *bare = strncasecmp(name, "cap_", 4) == 0 ? name + 4 : name;
	for (int i = 0; oci_capability_names[i]; i++)
		if (strcasecmp(oci_capability_names[i] + 4, bare) == 0)
			return i;
	return -1;
}

static int read_cap_last(void)
{
	char text[16] = "";
	_cleanup_close_ int fd =
		openat(AT_FDCWD, "/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, text, sizeof(text) - 1) <= 0)
		return CAP_LAST_CAP;
	char *end;
	long last = strtol(text, &end, 10);
	return end == text || last < 0 || last > 63 ? CAP_LAST_CAP : (int)last;
}

/* config.md: a name the runtime knows but the running kernel lacks is a warning. */
static int cap_set_mask(const struct ct_init_plan *plan, const oci_strings *names, const char *set,
			uint64_t *mask, struct ct_error *err)
{
	int last = plan->process.cap_last;
	*mask = 0;
	for (size_t i = 0; i < names->len; i++) {
		int v = ct_capability_from_name(names->items[i]);
		if (v < 0)
			return ct_error_plain(err, EINVAL,
					      "%s.capabilities.%s[%zu]: unknown capability \"%s\"",
					      ct_process_path(plan->opts), set, i, names->items[i]);
		if (v <= last) {
			*mask |= 1ULL << v;
		} else if (plan->opts->warn) {
			char msg[160];
			snprintf(msg, sizeof(msg),
				 "%s.capabilities.%s[%zu]: \"%s\" is unknown to this kernel: "
				 "skipped",
				 ct_process_path(plan->opts), set, i, names->items[i]);
			plan->opts->warn(msg);
		}
	}
	return 0;
}

static uint64_t known_caps(const struct ct_init_plan *plan)
{
	return plan->process.cap_last >= 63 ? ~0ULL : (1ULL << (plan->process.cap_last + 1)) - 1;
}

/* A process entering a user namespace gets the full bounding set there
 * (user_namespaces(7)); otherwise the init starts from ctrun's own. */
static uint64_t bounding_at_start(const struct ct_init_plan *plan, uint64_t own)
{
	return (plan->ns.userns ? ~0ULL : own) & known_caps(plan);
}

void ct_plan_enters_user_ns(struct ct_init_plan *plan)
{
	plan->process.cap_drop = known_caps(plan) & ~plan->process.cap_bounding;
}

/* prctl(2): the kernel raises an ambient capability only if it is both permitted and
 * inheritable. runc and crun go on without the others, silently: their own `spec` (and
 * Buildah's, Docker's) lists ambient capabilities without inheritable ones since
 * CVE-2022-29162. So does ctrun; --debug names each one left out. */
static void keep_raisable_ambient(struct ct_init_plan *plan, const oci_strings *names)
{
	uint64_t raisable = plan->process.cap_permitted & plan->process.cap_inheritable;
	uint64_t skipped = plan->process.cap_ambient & ~raisable;
	plan->process.cap_ambient &= raisable;
	if (!skipped || !plan->opts->notice)
		return;
	for (size_t i = 0; i < names->len; i++) {
		int v = ct_capability_from_name(names->items[i]);
		if (v < 0 || v > plan->process.cap_last || !(skipped & (1ULL << v)))
			continue;
		char msg[200];
		snprintf(msg, sizeof(msg),
			 "%s.capabilities.ambient[%zu]: \"%s\" not raised: it is not both "
			 "permitted and inheritable",
			 ct_process_path(plan->opts), i, names->items[i]);
		plan->opts->notice(msg);
	}
}

static int plan_capabilities(const struct oci_process *p, struct ct_init_plan *plan,
			     uint64_t own_bounding, struct ct_error *err)
{
	plan->process.cap_last = read_cap_last();
	/* without the object every set is empty, as under runc and crun: the process does not
	 * keep the runtime's own (the host root's) */
	const struct oci_capabilities *c = &p->capabilities;
	plan->process.set_caps = true;
	if (cap_set_mask(plan, &c->bounding, "bounding", &plan->process.cap_bounding, err) < 0 ||
	    cap_set_mask(plan, &c->effective, "effective", &plan->process.cap_effective, err) < 0 ||
	    cap_set_mask(plan, &c->permitted, "permitted", &plan->process.cap_permitted, err) < 0 ||
	    cap_set_mask(plan, &c->inheritable, "inheritable", &plan->process.cap_inheritable,
			 err) < 0 ||
	    cap_set_mask(plan, &c->ambient, "ambient", &plan->process.cap_ambient, err) < 0)
		return -1;
	plan->process.cap_drop =
		bounding_at_start(plan, own_bounding) & ~plan->process.cap_bounding;
	keep_raisable_ambient(plan, &c->ambient);
	return 0;
}

/* Whether the user process keeps CAP_SYS_ADMIN in its effective set. */
static bool keeps_sys_admin(const struct ct_init_plan *plan)
{
	return plan->process.cap_effective & (1ULL << CAP_SYS_ADMIN);
}

/* Compiled here, in the parent, so a bad profile fails create before the clone. Needs
 * plan_capabilities() first: the load point depends on what the process keeps. */
static int plan_seccomp(const struct oci_config *c, struct ct_init_plan *plan, struct ct_error *err)
{
	const struct oci_process *p = &c->process;
	if (!c->linux_.has_seccomp)
		return 0;
	if (ct_seccomp_prepare(plan->opts->seccomp_cache, &c->linux_.seccomp, plan->opts->notice,
			       &plan->process.seccomp, err) < 0)
		return -1;
	if (!p->no_new_privileges && !keeps_sys_admin(plan))
		plan->process.seccomp_point = CT_SECCOMP_BEFORE_IDENTITY;
	else if (plan->process.seccomp.notify)
		plan->process.seccomp_point = CT_SECCOMP_BEFORE_READY;
	else
		plan->process.seccomp_point = CT_SECCOMP_BEFORE_EXEC;
	return 0;
}

/* A decimal number and nothing else; -1 otherwise. */
static long parse_decimal(const char *s)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		return -1;
	return v;
}

int ct_listen_fds_count(const char *listen_fds, const char *listen_pid, pid_t self)
{
	if (!listen_fds || (listen_pid && parse_decimal(listen_pid) != (long)self))
		return 0;
	long n = parse_decimal(listen_fds);
	return n >= 1 && n <= 65536 ? (int)n : 0;
}

int ct_listen_fds(void)
{
	return ct_listen_fds_count(getenv("LISTEN_FDS"), getenv("LISTEN_PID"), getpid());
}

/* The slot of envp[0..n) holding the variable of kv (NAME=...), or n. */
static size_t env_slot(char **envp, size_t n, const char *kv)
{
	size_t name_len = (size_t)(strchr(kv, '=') - kv) + 1;
	for (size_t i = 0; i < n; i++)
		if (strncmp(envp[i], kv, name_len) == 0)
			return i;
	return n;
}

/* runc's rule, crun's too: an entry is NAME=VALUE with a name, and a variable given again
 * replaces the earlier value in its place (getenv() would find the first). */
static int env_entry_add(const struct ct_init_plan *plan, size_t i, const char *kv,
			 size_t *n, struct ct_error *err)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv)
		return ct_error_plain(err, EINVAL, "%s.env[%zu]: \"%s\" is not NAME=VALUE",
				      ct_process_path(plan->opts), i, kv);
	size_t slot = env_slot(plan->process.envp, *n, kv);
	plan->process.envp[slot] = (char *)kv;
	if (slot == *n)
		(*n)++;
	return 0;
}

/* process.env plus LISTEN_FDS/LISTEN_PID when socket-activated fds are passed on. */
static int plan_environment(const struct oci_process *p, struct ct_init_plan *plan,
			    struct ct_error *err)
{
	int listen_fds = ct_listen_fds();
	size_t n = 0;
	plan->process.envp = calloc(p->env.len + 4, sizeof(char *));
	if (!plan->process.envp)
		return ct_error_sys(err, ENOMEM, "plan environment");
	for (size_t i = 0; i < p->env.len; i++)
		if (env_entry_add(plan, i, p->env.items[i], &n, err) < 0)
			return -1;
	size_t home_slot = env_slot(plan->process.envp, n, "HOME=");
	size_t path_slot = env_slot(plan->process.envp, n, "PATH=");
	const char *home = home_slot < n ? plan->process.envp[home_slot] + 5 : NULL;
	if (path_slot < n)
		plan->process.path_env = plan->process.envp[path_slot] + 5;
	/* an empty HOME is none, as for runc */
	plan->process.needs_home = !home || !*home;
	plan->process.home_slot = home_slot;
	if (listen_fds > 0) {
		static char fds_var[64];
		snprintf(fds_var, sizeof(fds_var), "LISTEN_FDS=%d", listen_fds);
		plan->process.envp[n++] = fds_var;
		plan->process.envp[n++] = "LISTEN_PID=1";
	}
	if (!home)
		plan->process.home_slot = n;
	plan->process.argv = calloc(p->args.len + 1, sizeof(char *));
	if (!plan->process.argv)
		return ct_error_sys(err, ENOMEM, "plan arguments");
	memcpy(plan->process.argv, p->args.items, p->args.len * sizeof(char *));
	if (!plan->process.path_env)
		plan->process.path_env =
			"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	return 0;
}

static bool nonempty(const char *s)
{
	return s && *s;
}

/* Ignored without SELinux: the runtime says so (ct_selinux_enabled) at debug level. */
static int plan_mount_label(const struct oci_linux *lx, struct ct_init_plan *plan,
			    struct ct_error *err)
{
	if (!nonempty(lx->mount_label) || !ct_selinux_enabled())
		return 0;
	if (ct_mount_label_apply(plan, lx->mount_label) < 0)
		return ct_error_sys(err, ENOMEM, "apply linux.mountLabel");
	return 0;
}

/* A new namespace of that type, or a joined one that is not ctrun's own (the host's). */
static bool own_namespace(const struct ct_init_plan *plan, enum oci_ns_type type,
			  const char *proc_name)
{
	/* before the placement: the namespaces the init makes itself are still there */
	if (plan->ns.unshare_flags & ct_ns_clone_flags[type])
		return true;
	char path[64];
	struct stat joined, ours;
	snprintf(path, sizeof(path), "/proc/self/ns/%s", proc_name);
	return plan->ns.join_fds[type] >= 0 && fstat(plan->ns.join_fds[type], &joined) == 0 &&
	       stat(path, &ours) == 0 && joined.st_ino != ours.st_ino;
}

/* Only keys of namespaces the container has of its own: never the host's sysctls. */
static int plan_sysctls(const struct oci_linux *lx, const struct ct_init_plan *plan,
			struct ct_error *err)
{
	if (!lx->sysctl.len)
		return 0;
	struct ct_sysctl_namespaces ns = {
		.ipc = own_namespace(plan, OCI_NS_IPC, "ipc"),
		.net = own_namespace(plan, OCI_NS_NETWORK, "net"),
		.uts = own_namespace(plan, OCI_NS_UTS, "uts"),
	};
	for (size_t i = 0; i < lx->sysctl.len; i++)
		if (ct_sysctl_check(lx->sysctl.items[i].key, &ns, err) < 0)
			return -1;
	return 0;
}

/* A device "moved" into the runtime's own network namespace would stay where it is: the
 * container has a network namespace of its own, new or by a path that is not ctrun's. Here,
 * not as config.json is read: the schema's own examples give netDevices alone, and only
 * here is a joined namespace known. */
static int plan_net_devices(const struct oci_linux *lx, const struct ct_init_plan *plan,
			    struct ct_error *err)
{
	if (!lx->net_devices.len || own_namespace(plan, OCI_NS_NETWORK, "net"))
		return 0;
	return ct_error_plain(err, EINVAL,
			      "config.json: .linux.netDevices: moving network devices needs a "
			      "network namespace of the container's, new or by path");
}

/* The hooks create and the init run read the state the caller gives (libct/plan/plan.h). */
static int check_hook_state(const struct ct_spawn_opts *o, struct ct_error *err)
{
	const struct oci_hooks *h = &o->config->hooks;
	bool run_here = h->prestart.len || h->create_runtime.len || h->create_container.len ||
			h->start_container.len;
	if (run_here && !o->state)
		return ct_error_plain(err, EINVAL, "hooks given without the state they read");
	return 0;
}

/* runtime.md#create: a property that cannot be applied is an error, never ignored. These
 * wait for their issues (Intel RDT). */
static int refuse_unsupported(const struct oci_config *c, struct ct_error *err)
{
	const struct oci_linux *lx = &c->linux_;
	const struct {
		bool given;
		const char *field;
	} rows[] = {
		{lx->has_intel_rdt, ".linux.intelRdt"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].given)
			return ct_error_plain(err, ENOTSUP, "config.json: %s: not supported yet",
					      rows[i].field);
	return 0;
}

static int plan_cgroup(struct ct_init_plan *plan, struct ct_error *err)
{
	struct ct_cgroup *cg = plan->opts->cgroup;
	if (cg && ct_cgroup_dir_path(cg, CT_CGROUP_UNIFIED_KEY) &&
	    (plan->cgroup.fd = ct_cgroup_clone_fd(cg, err)) < 0)
		return -1;
	return 0;
}

/* The `tasks` files of the v1 hierarchies the init joins itself, as placed
 * (libct/parent/placement.c): the others' here, or by ct_spawn once it made them, before
 * the clone (ct_init_plan_open_cgroup_join) or after it, then passed to the init with
 * CGROUP_READY; the late one (memory) here unless the parent writes it. */
static int plan_cgroup_self_join(struct ct_init_plan *plan, struct ct_error *err)
{
	struct ct_cgroup *cg = plan->opts->cgroup;
	if (!cg)
		return 0;
	const char *late = ct_cgroup_late_key(cg);
	if (!plan->opts->cgroup_rest && ct_init_plan_open_cgroup_join(plan, err) < 0)
		return -1;
	if (!late || plan->place.memory_by_parent)
		return 0;
	return ct_cgroup_self_join_open_one(cg, late, &plan->cgroup.join_late, err);
}

int ct_init_plan_open_cgroup_join(struct ct_init_plan *plan, struct ct_error *err)
{
	struct ct_cgroup *cg = plan->opts->cgroup;
	if (!cg || plan->place.cgroup_rest_after_clone)
		return 0;
	return ct_cgroup_self_join_open(cg, ct_cgroup_late_key(cg), &plan->cgroup.join, err);
}

const char *ct_process_path(const struct ct_spawn_opts *o)
{
	return o->process_path ? o->process_path : "config.json: .process";
}

/* Nothing owned: every fd -1. */
static void plan_reset(struct ct_init_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	for (int i = 0; i < OCI_NS_COUNT; i++)
		plan->ns.join_fds[i] = -1;
	plan->sync.fd = plan->sync.exec_fifo_fd = plan->sync.own_fd_dir = plan->cgroup.fd =
		plan->rootfs.caller_root = -1;
	plan->procfs = (struct ct_procfs)CT_PROCFS_INIT;
}

/* What the parts take of the options and the config, so that a step sees only its part. */
static void plan_take_opts(const struct ct_spawn_opts *o, struct ct_init_plan *plan)
{
	plan->sync.start = o->start;
	plan->cgroup.cg = o->cgroup;
	plan->rootfs.path = o->rootfs;
	plan->rootfs.no_pivot = o->no_pivot;
	plan->rootfs.readonly = o->config->root.readonly;
	plan->rootfs.lx = &o->config->linux_;
	plan->hooks.hooks = &o->config->hooks;
	plan->hooks.state = o->state;
	plan->verify.run = o->verify_mounts;
	plan->process.p = &o->config->process;
	plan->process.sigmask = o->child_sigmask;
	plan->process.new_keyring = !o->no_new_keyring;
	plan->process.preserve_fds = o->preserve_fds;
}

/* The start of every plan: nothing owned yet, so that a free after a failure is safe. */
static int plan_begin(const struct ct_spawn_opts *o, struct ct_init_plan *plan,
		      struct ct_error *err)
{
	const struct oci_config *c = o->config;
	plan_reset(plan);
	plan->opts = o;
	plan->config = c;
	plan_take_opts(o, plan);
	if (!c->has_process)
		return ct_error_plain(err, EINVAL, "config.json: .process: required to run");
	plan->writes_proc = c->linux_.sysctl.len || ct_process_writes_proc(&c->process);
	if (!c->process.args.len)
		return ct_error_plain(err, EINVAL,
				      "%s.args: required to run on Linux "
				      "(.process.commandLine is for Windows)",
				      ct_process_path(o));
	snprintf(plan->process.keyring_name, sizeof(plan->process.keyring_name), "_ses.%s", o->id);
	return 0;
}

/* What the user process is: the same for the init and for exec. */
static int plan_process(const struct oci_config *c, struct ct_init_plan *plan, struct ct_error *err)
{
	struct ct_self_status own;
	ct_self_status_read(&own);
	plan->process.sig_reset = own.sig_ignored;
	if (plan_rlimits(&c->process, plan, err) < 0 ||
	    plan_capabilities(&c->process, plan, own.cap_bounding, err) < 0 ||
	    plan_seccomp(c, plan, err) < 0 ||
	    ct_sched_plan_build(c, &plan->process.sched, err) < 0 ||
	    plan_environment(&c->process, plan, err) < 0)
		return -1;
	return 0;
}

int ct_init_plan_build(const struct ct_spawn_opts *o, struct ct_init_plan *plan,
		       struct ct_error *err)
{
	const struct oci_config *c = o->config;
	if (plan_begin(o, plan, err) < 0 || refuse_unsupported(c, err) < 0 ||
	    check_hook_state(o, err) < 0 ||
	    ct_lsm_check(c->process.apparmor_profile, c->process.selinux_label, err) < 0 ||
	    plan_namespaces(&c->linux_, plan, err) < 0 ||
	    plan_id_mappings(&c->linux_, plan, err) < 0 ||
	    plan_sysctls(&c->linux_, plan, err) < 0 ||
	    plan_net_devices(&c->linux_, plan, err) < 0 || plan_mounts(o, plan, err) < 0 ||
	    plan_mount_label(&c->linux_, plan, err) < 0 || plan_process(c, plan, err) < 0)
		return -1;
	/* in its user namespace the init cannot write its own (libct/parent/spawn.c) */
	plan->process.oom_score_adj_by_parent = plan->ns.userns && plan->process.p->has_oom_score_adj;
	if (plan_cgroup(plan, err) < 0)
		return -1;
	ct_placement_choose(plan);
	if (plan_cgroup_self_join(plan, err) < 0)
		return -1;
	plan->process.console_is_terminal = true;
	for (size_t i = 0; i < plan->rootfs.n_mounts; i++)
		if (plan->rootfs.mounts[i].is_cgroup) {
			if (plan_cgroup_hierarchies(plan, err) < 0)
				return -1;
			break;
		}
	/* with the check off (--no-verify-mounts) nothing reads the expectations */
	return o->verify_mounts ? ct_mountcheck_plan(plan, err) : 0;
}

int ct_exec_plan_build(const struct ct_spawn_opts *o, struct ct_init_plan *plan,
		       struct ct_error *err)
{
	const struct oci_config *c = o->config;
	if (plan_begin(o, plan, err) < 0 ||
	    ct_lsm_check_at(ct_process_path(o), c->process.apparmor_profile,
			    c->process.selinux_label, err) < 0 ||
	    plan_cgroup(plan, err) < 0 || plan_process(c, plan, err) < 0)
		return -1;
	return 0;
}

static void free_ns(struct ct_plan_ns *ns)
{
	for (int i = 0; i < OCI_NS_COUNT; i++)
		ct_close_now(&ns->join_fds[i]);
	free(ns->uid_map);
	free(ns->gid_map);
}

static void free_rootfs(struct ct_plan_rootfs *fs)
{
	for (size_t i = 0; i < fs->n_mounts; i++) {
		ct_close_now(&fs->mounts[i].flags.idmap_tree);
		free(fs->mounts[i].bind_source);
		free(fs->mounts[i].flags.data);
	}
	free(fs->mounts);
	for (size_t i = 0; i < fs->n_cgroup_v1; i++) {
		free(fs->cgroup_v1[i].dir);
		free(fs->cgroup_v1[i].options);
		free(fs->cgroup_v1[i].bind);
	}
	free(fs->cgroup_v1);
	free(fs->cgroup2_bind);
	ct_close_now(&fs->caller_root);
}

static void free_process(struct ct_plan_process *proc)
{
	free(proc->rlimits);
	free(proc->envp);
	free(proc->home_var);
	free(proc->argv);
	ct_seccomp_prog_free(&proc->seccomp);
}

void ct_init_plan_free(struct ct_init_plan *plan)
{
	free_ns(&plan->ns);
	free_rootfs(&plan->rootfs);
	free_process(&plan->process);
	free(plan->verify.expect);
	ct_close_now(&plan->sync.exec_fifo_fd);
	ct_close_now(&plan->sync.own_fd_dir);
	ct_close_now(&plan->sync.fd);
	ct_procfs_close(&plan->procfs);
	ct_cgroup_self_join_close(&plan->cgroup.join);
	ct_cgroup_self_join_close(&plan->cgroup.join_late);
	plan_reset(plan);
}
