/* The systemd cgroup driver (libct/cgroup/cgroup.h): the container's cgroup is a transient
 * unit that systemd makes, on cgroup v2 only. The unit can only be started with the init's
 * pid, so the init is cloned first (not into its cgroup) and moved there by systemd (PIDs),
 * as runc does; then the unit's cgroup directory is what the v2 driver works on: the
 * files systemd has no property for, the freezer, kill, ps, stats, OOM events. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"
#include "libct/cgroup/internal.h"
#include "libct/cgroup/systemd_bus.h"
#include "libct/cgroup/systemd_props.h"

#define PROC_DEVICES_MAX (64u << 10)

/* The create's token: random, so that no unit another made carries it. */
static int make_token(char out[CT_SYSTEMD_TOKEN_LEN + 1], struct ct_error *err)
{
	uint8_t bytes[CT_SYSTEMD_TOKEN_LEN / 2];
	if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes))
		return ct_error_sys(err, errno, "systemd cgroup driver: a token for the unit");
	for (size_t i = 0; i < sizeof(bytes); i++)
		snprintf(out + 2 * i, 3, "%02x", bytes[i]);
	return 0;
}

int ct_cgroup_systemd_plan(const struct ct_cgroup_config *cfg, struct ct_cgroup *cg,
			   struct ct_error *err)
{
	const struct ct_cgroup_layout *l;
	struct ct_cgroup_systemd *sd = calloc(1, sizeof(*sd));
	if (!sd)
		return ct_error_sys(err, ENOMEM, "plan cgroup");
	cg->systemd = sd;
	cg->ops = &ct_cgroup_systemd_ops;
	sd->user_bus = geteuid() != 0;
	sd->id = cfg->id;
	sd->annotations = cfg->annotations;
	if (ct_systemd_unit_parse(cfg->cgroups_path, cfg->id, sd->user_bus, &sd->unit, err) < 0 ||
	    ct_cgroup_layout_get(&l, err) < 0 || make_token(sd->token, err) < 0)
		return -1;
	if (l->mode != CT_CGROUP_MODE_UNIFIED)
		return ct_error_plain(
			err, ENOTSUP,
			"the systemd cgroup driver needs cgroup v2 (systemd's unified layout), but "
			"/sys/fs/cgroup here is %s: use --cgroup-manager cgroupfs",
			l->mode == CT_CGROUP_MODE_HYBRID   ? "hybrid (v1 hierarchies, cgroup2 on "
							     "/sys/fs/cgroup/unified)"
			: l->mode == CT_CGROUP_MODE_LEGACY ? "cgroup v1"
							   : "not mounted");
	return 0;
}

bool ct_cgroup_waits_for_init(const struct ct_cgroup *cg)
{
	return cg && cg->systemd && !cg->n_dirs;
}

static char *read_proc_devices(void)
{
	_cleanup_close_ int fd = openat(AT_FDCWD, "/proc/devices", O_RDONLY | O_CLOEXEC);
	return fd < 0 ? NULL : ct_read_all(fd, PROC_DEVICES_MAX, NULL);
}

/* The properties of the unit into an a(sv)'s elements; the manager's version and
 * /proc/devices are read only when a property depends on them. */
static int build_props(const struct ct_cgroup_systemd *sd, struct ct_dbus_conn *c, pid_t pid,
		       const struct oci_resources *res, bool create, struct ct_dbus_writer *w,
		       struct ct_error *err)
{
	struct ct_systemd_props_needs needs = ct_systemd_props_needs(res);
	_cleanup_free_ char *devices = needs.proc_devices ? read_proc_devices() : NULL;
	struct ct_systemd_props_in in = {.id = sd->id,
					 .token = sd->token,
					 .slice = sd->unit.slice,
					 .is_slice = sd->unit.is_slice,
					 .pid = sd->unit.is_slice ? 0 : pid,
					 .res = res,
					 .annotations = sd->annotations,
					 .proc_devices = devices,
					 .systemd_version =
						 needs.version ? ct_systemd_version(c) : 0};
	ct_dbus_writer_init(w);
	int rc = create ? ct_systemd_props_create(&in, w, err)
			: ct_systemd_props_resources(&in, w, err);
	if (rc < 0)
		ct_dbus_writer_free(w);
	return rc;
}

/* The unit's cgroup as the driver's one directory (the cgroup2 mount + ControlGroup). */
static int adopt_unit_cgroup(struct ct_cgroup *cg, struct ct_dbus_conn *c, struct ct_error *err)
{
	const struct ct_cgroup_layout *l;
	_cleanup_free_ char *cgroup = NULL;
	char *dir;
	if (ct_cgroup_layout_get(&l, err) < 0 ||
	    ct_systemd_unit_cgroup(c, cg->systemd->unit.name, &cgroup, err) < 0 ||
	    ct_cgroup_dir_for(l->unified_mount, l->unified_mount_root, cgroup, &dir, err) < 0)
		return -1;
	cg->dirs = calloc(1, sizeof(*cg->dirs));
	if (!cg->dirs || !(cg->dirs[0].key = strdup(CT_CGROUP_UNIFIED_KEY))) {
		free(dir);
		free(cg->dirs);
		cg->dirs = NULL;
		return ct_error_sys(err, ENOMEM, "systemd unit cgroup");
	}
	cg->dirs[0].path = dir;
	cg->dirs[0].fd = -1;
	cg->n_dirs = 1;
	return 0;
}

/* A slice holds no process of its own in systemd's tree: the init joins its directory the
 * cgroupfs way. */
static int enter_slice(struct ct_cgroup *cg, pid_t pid, struct ct_error *err)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%d", (int)pid);
	return ct_cg_write(cg->dirs[0].path, "cgroup.procs", buf, err);
}

/* systemd took the start: the unit is the container's, and create's record says so at once,
 * so that a create killed from here on leaves it to delete --force even when systemd will
 * not tell its Description then. */
static int note_taken(void *arg, struct ct_error *err)
{
	struct ct_cgroup *cg = arg;
	cg->systemd->claim = CT_SYSTEMD_OURS;
	return cg->record ? cg->record(cg->record_arg, cg, err) : 0;
}

/* The start, and whose the unit is after it: from the moment the call may be sent, a unit
 * carrying the token is the container's. */
static int start_unit(struct ct_cgroup *cg, struct ct_dbus_conn *c,
		      const struct ct_dbus_writer *props, struct ct_error *err)
{
	struct ct_cgroup_systemd *sd = cg->systemd;
	struct ct_systemd_start s = {.on_taken = note_taken, .arg = cg};
	sd->claim = CT_SYSTEMD_IF_MARKED;
	int rc = ct_systemd_start_unit(c, sd->unit.name, props, &s, err);
	sd->claim = s.claim;
	return rc;
}

int ct_cgroup_systemd_start(struct ct_cgroup *cg, pid_t pid, const struct oci_resources *res,
			    struct ct_error *err)
{
	struct ct_cgroup_systemd *sd = cg->systemd;
	struct ct_dbus_conn c;
	struct ct_dbus_writer props;
	if (ct_systemd_connect(&c, sd->user_bus, true, err) < 0)
		return -1;
	int rc = build_props(sd, &c, pid, res, true, &props, err);
	if (rc == 0) {
		rc = start_unit(cg, &c, &props, err);
		ct_dbus_writer_free(&props);
	}
	/* a failure once systemd may have taken the start (its job's too, or a lost answer)
	 * leaves the unit to the caller's ct_cgroup_destroy, its one stopper */
	if (rc == 0)
		rc = adopt_unit_cgroup(cg, &c, err);
	ct_dbus_close(&c);
	if (rc == 0 && sd->unit.is_slice)
		rc = enter_slice(cg, pid, err);
	/* systemd enables the controllers its accounting and limits need; those of the limits
	 * it has no property for (hugetlb, rdma) are made available as runc does */
	if (rc == 0 && res && (res->hugepage_limits.len || res->rdma.len))
		ct_cg_v2_enable_above(cg->dirs[0].path);
	if (rc == 0 && res)
		rc = ct_cgroup_v2_ops.apply(cg, res, CT_CGROUP_APPLY_CREATE, err);
	return rc < 0 ? ct_error_prefix(err, "systemd unit %s", sd->unit.name) : 0;
}

/* Nothing to make before the init exists (ct_cgroup_systemd_start makes the unit). */
static int sd_create(struct ct_cgroup *cg, enum ct_cgroup_part part, struct ct_error *err)
{
	(void)cg;
	(void)part;
	(void)err;
	return 0;
}

/* update: the unit's properties (kept by systemd), then the files as cgroupfs writes them. */
static int sd_apply(struct ct_cgroup *cg, const struct oci_resources *res,
		    enum ct_cgroup_apply_mode mode, struct ct_error *err)
{
	if (mode == CT_CGROUP_APPLY_UPDATE) {
		struct ct_dbus_conn c;
		struct ct_dbus_writer props;
		if (ct_systemd_connect(&c, cg->systemd->user_bus, false, err) < 0)
			return -1;
		int rc = build_props(cg->systemd, &c, 0, res, false, &props, err);
		if (rc == 0) {
			rc = ct_systemd_set_properties(&c, cg->systemd->unit.name, &props, err);
			ct_dbus_writer_free(&props);
		}
		ct_dbus_close(&c);
		if (rc < 0)
			return ct_error_prefix(err, "systemd unit %s", cg->systemd->unit.name);
	}
	return ct_cgroup_v2_ops.apply(cg, res, mode, err);
}

/* SIGKILL to the processes of the unit's cgroup, and the wait for them (pidfds) where the
 * kernel allows it. */
static int kill_and_wait(struct ct_cgroup *cg, struct ct_error *err)
{
	int done = ct_cg_kill_and_wait(cg, err);
	if (done != 0)
		return done < 0 ? -1 : 0;
	return ct_cgroup_v2_ops.kill_all(cg, SIGKILL, err);
}

/* Whether the last call failed because systemd has no such unit (any more). */
static bool unit_gone(const struct ct_dbus_conn *c)
{
	return ct_dbus_failed_with(c, "org.freedesktop.systemd1.NoSuchUnit") ||
	       ct_dbus_failed_with(c, "org.freedesktop.DBus.Error.UnknownObject");
}

/* The unit's processes are killed and waited for before it is stopped: systemd would send
 * them TERM, which a container's init ignores, and wait its stop timeout. Its cgroup comes
 * from systemd when state.json has none (a create that failed or was killed before it knew
 * it); when systemd will not say it, systemd kills them (the stop then waits for them).
 * systemd stops a scope that has emptied and removes its directory on its own, at any
 * moment: a directory gone before or during the kill (its files then fail with ENOENT, or
 * ENODEV once removal has begun) held nothing left to kill, as only an empty cgroup can be
 * removed. */
static int kill_unit_processes(struct ct_cgroup *cg, struct ct_dbus_conn *c, struct ct_error *err)
{
	struct ct_error unknown;
	if (!cg->n_dirs && adopt_unit_cgroup(cg, c, &unknown) < 0) {
		if (!unit_gone(c)) /* a failure here shows in the stop that follows */
			ct_systemd_kill_unit(c, cg->systemd->unit.name, SIGKILL, &unknown);
		return 0;
	}
	const char *dir = cg->dirs[0].path;
	if (kill_and_wait(cg, err) == 0)
		return 0;
	if (err->errnum != ENODEV && err->errnum != ENOENT &&
	    (access(dir, F_OK) == 0 || errno != ENOENT))
		return -1;
	*err = (struct ct_error){0};
	return 0;
}

/* Whether the unit of the container's name is the container's: 1 when it carries the
 * create's token; 0 when it is gone or another's (named in a warning: left alone); -1 when
 * systemd will not say. A unit systemd took can go (emptied, or stopped by someone) and
 * another be made under its name; a start whose answer was lost may never have been taken.
 * systemd acts on its bus messages in the order the bus hands them over, so a start the bus
 * took before this question has been acted on (the unit made and described, or refused) by
 * the time it is answered. */
static int marked_as_ours(struct ct_cgroup *cg, struct ct_dbus_conn *c, struct ct_error *err)
{
	const struct ct_cgroup_systemd *sd = cg->systemd;
	_cleanup_free_ char *description = NULL;
	if (ct_systemd_unit_description(c, sd->unit.name, &description, err) < 0) {
		if (unit_gone(c))
			return 0;
		return ct_error_prefix(
			err, "systemd unit %s: cannot tell whether it is the container's%s",
			sd->unit.name,
			sd->claim == CT_SYSTEMD_IF_MARKED
				? " (systemd's answer to its start was lost)"
				: "");
	}
	if (ct_systemd_description_marked(description, sd->token))
		return 1;
	char msg[1024];
	snprintf(msg, sizeof(msg),
		 "container \"%s\": systemd unit %s is another's (Description \"%.400s\", not "
		 "this create's): left alone",
		 ct_shown_id(sd->id).s, sd->unit.name, description);
	if (cg->warn)
		cg->warn(msg);
	return 0;
}

/* marked_as_ours, but for a unit systemd refused (0), and one a record from before tokens
 * names: every unit recorded then was taken as the container's, and cannot be told (1). */
static int unit_is_ours(struct ct_cgroup *cg, struct ct_dbus_conn *c, struct ct_error *err)
{
	const struct ct_cgroup_systemd *sd = cg->systemd;
	if (sd->claim == CT_SYSTEMD_NOT_OURS)
		return 0;
	if (sd->claim == CT_SYSTEMD_OURS && !sd->token[0])
		return 1;
	return marked_as_ours(cg, c, err);
}

int ct_cgroup_systemd_still_ours(struct ct_cgroup *cg, struct ct_error *err)
{
	struct ct_dbus_conn c;
	if (cg->systemd->claim == CT_SYSTEMD_NOT_OURS)
		return 0;
	if (ct_systemd_connect(&c, cg->systemd->user_bus, false, err) < 0)
		return -1;
	int ours = unit_is_ours(cg, &c, err);
	ct_dbus_close(&c);
	return ours;
}

static int empty_and_stop(struct ct_cgroup *cg, struct ct_dbus_conn *c, struct ct_error *err)
{
	if (kill_unit_processes(cg, c, err) < 0)
		return -1;
	return ct_systemd_stop_unit(c, cg->systemd->unit.name, err);
}

/* The container's unit emptied, stopped and reset; its directory goes with it, or here if
 * it stayed. Another's is left alone, and so is the directory of one gone: systemd removed
 * it with the unit, and one there now is not the container's (another unit of the name may
 * be making it). */
static int sd_destroy(struct ct_cgroup *cg, struct ct_error *err)
{
	const struct ct_cgroup_systemd *sd = cg->systemd;
	if (sd->claim == CT_SYSTEMD_NOT_OURS)
		return 0;
	struct ct_dbus_conn c;
	if (ct_systemd_connect(&c, sd->user_bus, true, err) < 0)
		return -1;
	int ours = unit_is_ours(cg, &c, err);
	int rc = ours > 0 ? empty_and_stop(cg, &c, err) : ours;
	ct_dbus_close(&c);
	if (ours <= 0 || rc < 0 || !cg->n_dirs)
		return rc;
	return ct_cg_remove_dirs(cg, err);
}

static int sd_freeze(struct ct_cgroup *cg, bool frozen, struct ct_error *err)
{
	return ct_cgroup_v2_ops.freeze(cg, frozen, err);
}

static int sd_stats(struct ct_cgroup *cg, struct ct_cgroup_stats *out, struct ct_error *err)
{
	return ct_cgroup_v2_ops.stats(cg, out, err);
}

static int sd_oom_watch(struct ct_cgroup *cg, struct ct_error *err)
{
	return ct_cgroup_v2_ops.oom_watch(cg, err);
}

static int sd_kill_all(struct ct_cgroup *cg, int sig, struct ct_error *err)
{
	return ct_cgroup_v2_ops.kill_all(cg, sig, err);
}

const struct ct_cgroup_ops ct_cgroup_systemd_ops = {
	.name = "systemd",
	.unified = true,
	.create = sd_create,
	.apply = sd_apply,
	.freeze = sd_freeze,
	.list_pids = ct_cg_list_all_pids,
	.stats = sd_stats,
	.oom_watch = sd_oom_watch,
	.kill_all = sd_kill_all,
	.destroy = sd_destroy,
};
