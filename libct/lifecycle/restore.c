/* `restore` (libct/lifecycle/ops.h): a container made as create makes one, its init brought
 * back by CRIU (criu swrk, RPC RESTORE) instead of spawned. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yajl/yajl_tree.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"
#include "libct/base/syscalls.h"
#include "libct/criu/swrk.h"
#include "libct/lifecycle/container.h"
#include "libct/lifecycle/criu_container.h"
#include "libct/lifecycle/forward.h"
#include "libct/lifecycle/log.h"
#include "libct/parent/spawn.h"
#include "libct/parent/spawn_cgroup.h"
#include "libct/parent/spawned.h"
#include "oci/jsontree.h"

#define CRIU_ROOT_DIR	"criu-root" /* in the state directory: the rootfs bound for criu */
#define DESCRIPTORS_MAX (64 * 1024)

struct restore {
	const struct ct_criu_args *a;
	const struct ct_spawn_opts *so;
	int image_fd, work_fd, ns_fds[2];
	int stdio[3]; /* copies of our fds 0-2 given to the init as its pipes */
	struct ct_criu_opts opts;
	struct ct_criu_strings strings;
	yajl_val descriptors;
	char root[PATH_MAX];
	struct ct_criu_log log;
	int pty_master; /* orphan-pts-master's */
};

/* descriptors.json: the init's stdio pipes get ours (fds 0-2), as runc gives them. */
static int inherit_stdio(struct restore *r, struct ct_error *err)
{
	_cleanup_close_ int fd = openat(r->image_fd, CT_CRIU_DESCRIPTORS, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ct_error_sys(err, errno, "%s/" CT_CRIU_DESCRIPTORS, r->a->image_path);
	_cleanup_free_ char *text = ct_read_file(fd, DESCRIPTORS_MAX, NULL);
	if (!text)
		return ct_error_sys(err, errno, "%s/" CT_CRIU_DESCRIPTORS, r->a->image_path);
	r->descriptors = oci_json_parse(CT_CRIU_DESCRIPTORS, text, err);
	if (!r->descriptors)
		return -1;
	if (!YAJL_IS_ARRAY(r->descriptors))
		return ct_error_plain(err, EINVAL, "%s/" CT_CRIU_DESCRIPTORS ": not an array",
				      r->a->image_path);
	size_t n = r->descriptors->u.array.len;
	for (size_t i = 0; i < n && i < 3; i++) {
		const char *what = YAJL_GET_STRING(r->descriptors->u.array.values[i]);
		if (!what)
			return ct_error_plain(err, EINVAL,
					      "%s/" CT_CRIU_DESCRIPTORS ": [%zu]: not a string",
					      r->a->image_path, i);
		if (strncmp(what, "pipe:", 5) != 0)
			continue;
		/* a copy above 2: criu's own stdio is /dev/null (libct/criu/swrk.h) */
		r->stdio[i] = fcntl((int)i, F_DUPFD_CLOEXEC, 3);
		if (r->stdio[i] < 0)
			return ct_error_sys(err, errno, "fd %zu for %s", i, what);
		if (ct_criu_opts_add_inherit_fd(&r->opts, what, r->stdio[i], err) < 0)
			return -1;
	}
	return 0;
}

/* criu restores into a mount point: the rootfs, bound on <state dir>/criu-root in criu's
 * own mount namespace (libct/criu/swrk.h), so that no end of the restore leaves it mounted. */
static int make_root_dir(struct restore *r, const struct ct_spawn_opts *so, struct ct_error *err)
{
	snprintf(r->root, sizeof(r->root), "/proc/self/fd/%d/" CRIU_ROOT_DIR, so->state_dirfd);
	char real[PATH_MAX];
	if (mkdirat(so->state_dirfd, CRIU_ROOT_DIR, 0700) < 0 || !realpath(r->root, real))
		return ct_error_sys(err, errno, "make " CRIU_ROOT_DIR);
	snprintf(r->root, sizeof(r->root), "%s", real);
	return 0;
}

static void remove_root_dir(struct restore *r)
{
	if (r->root[0])
		rmdir(r->root);
}

/* The whole cgroup before criu runs: v1's rest (ct_spawn_opts.cgroup_rest) has no clone to
 * overlap with here. The systemd driver's unit is made by enter_cgroup, with criu in it. */
static int make_cgroup_rest(const struct ct_spawn_opts *so, struct ct_error *err)
{
	if (!so->cgroup_rest || ct_cgroup_waits_for_init(so->cgroup))
		return 0;
	return ct_spawn_make_cgroup_rest(so, err);
}

/* criu goes into the container's cgroup (the systemd driver's unit started with criu in it,
 * limited with the rest's resources) */
static int put_criu_in_cgroup(const struct restore *r, pid_t pid, struct ct_error *err)
{
	struct ct_cgroup *cg = r->so->cgroup;
	if (ct_cgroup_waits_for_init(cg))
		return ct_cgroup_systemd_start(cg, pid, r->so->cgroup_rest, err);
	return ct_cgroup_enter(cg, pid, false, NULL, err);
}

/* CRIU puts what it restores in its own cgroup: it goes into the container's, and tells
 * criu that is the root of what it restores (as read back from /proc/PID/cgroup). */
static int enter_cgroup(void *arg, pid_t pid, struct ct_error *err)
{
	struct restore *r = arg;
	if (!r->so->cgroup)
		return 0;
	if (put_criu_in_cgroup(r, pid, err) < 0)
		return -1;
	char path[64], line[PATH_MAX + 64];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	if (!f)
		return ct_error_sys(err, errno, "%s", path);
	while (fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *where = ctrl ? strchr(ctrl + 1, ':') : NULL;
		if (!where)
			continue;
		*where++ = '\0';
		where[strcspn(where, "\n")] = '\0';
		char *c = ct_criu_keep(&r->strings, err, "%s", ctrl + 1);
		char *p = ct_criu_keep(&r->strings, err, "%s", where);
		if (!c || !p || ct_criu_opts_add_cg_root(&r->opts, c, p, err) < 0)
			return -1;
	}
	return 0;
}

static int on_notify(void *arg, const char *script, pid_t pid, int fd, struct ct_error *err)
{
	struct restore *r = arg;
	if (fd >= 0 && strcmp(script, "orphan-pts-master") == 0) {
		ct_fd_replace(&r->pty_master, fd);
		return 0;
	}
	ct_close_now(&fd);
	/* the restored init's namespaces exist, it has not run (config.md#posix-platform-hooks) */
	if (strcmp(script, "setup-namespaces") == 0)
		return ct_spawn_run_create_hooks(r->so, pid, err);
	return 0;
}

static int build_opts(struct restore *r, const struct ct_spawn_opts *so, struct ct_error *err)
{
	struct ct_criu_opts *o = &r->opts;
	if (ct_criu_opts_from_args(r->a, o, &r->strings, err) < 0 ||
	    ct_criu_external_mounts(so->config, so->bundle, true, o, &r->strings, err) < 0 ||
	    ct_criu_external_namespaces(so->config, true, o, &r->strings, r->ns_fds, err) < 0 ||
	    inherit_stdio(r, err) < 0 || make_root_dir(r, so, err) < 0)
		return -1;
	o->images_dir_fd = r->image_fd;
	o->work_dir_fd = r->work_fd;
	o->root = r->root;
	o->config_file = ct_criu_config_file(&so->config->annotations);
	o->log_file = "restore.log";
	ct_criu_log_of(r->a, o, &r->log);
	o->rst_sibling = true; /* the init is ours, as a spawned one is */
	o->orphan_pts_master = so->config->process.terminal;
	return 0;
}

/* The kept fds criu inherits: the directories, the namespaces, stdio, the status fd. */
static size_t fds_to_keep(const struct restore *r, int keep[9])
{
	size_t n = 0;
	keep[n++] = r->image_fd;
	keep[n++] = r->work_fd;
	for (int i = 0; i < 2; i++)
		if (r->ns_fds[i] >= 0)
			keep[n++] = r->ns_fds[i];
	for (int i = 0; i < 3; i++)
		if (r->stdio[i] >= 0)
			keep[n++] = r->stdio[i];
	if (r->a->status_fd >= 0)
		keep[n++] = r->a->status_fd;
	return n;
}

static int criu_restore(struct restore *r, struct ct_spawned *out, struct ct_error *err)
{
	int keep[9];
	struct ct_criu_swrk_opts so = {.keep_fds = keep,
				       .n_keep = fds_to_keep(r, keep),
				       .prepare = enter_cgroup,
				       .arg = r,
				       .bind_source = r->so->rootfs,
				       .bind_target = r->root};
	struct ct_criu_swrk w;
	if (ct_criu_swrk_start(&so, &w, err) < 0)
		return -1;
	struct ct_criu_req req = {.type = CT_CRIU_RESTORE, .opts = &r->opts};
	struct ct_criu_resp resp;
	int rc = ct_criu_swrk_call(&w, &req, on_notify, r, &r->log, &resp, err);
	ct_criu_swrk_end(&w);
	if (rc < 0)
		return -1;
	if (resp.restore_pid <= 0)
		return ct_error_plain(err, EPROTO, "criu restored no process");
	out->pid = resp.restore_pid;
	out->pidfd = ct_pidfd_open(out->pid, 0);
	out->method = "criu restore";
	out->pty_master = steal_fd(&r->pty_master);
	return 0;
}

static int make_restored(void *arg, const struct ct_spawn_opts *so, struct ct_spawned *out,
			 struct ct_error *err)
{
	struct restore *r = arg;
	r->so = so;
	int rc = make_cgroup_rest(so, err);
	if (rc == 0)
		rc = build_opts(r, so, err);
	if (rc == 0)
		rc = criu_restore(r, out, err);
	remove_root_dir(r);
	if (rc < 0)
		return -1;
	return so->while_setting_up(so->while_arg, out, err);
}

static int open_dirs(struct restore *r, struct ct_error *err)
{
	const struct ct_criu_args *a = r->a;
	r->image_fd = ct_criu_open_dir(a->image_path, "--image-path", false, err);
	if (r->image_fd < 0)
		return -1;
	r->work_fd = ct_criu_open_work_dir(a->work_path, r->image_fd, false, err);
	return r->work_fd < 0 ? -1 : 0;
}

static void restore_free(struct restore *r)
{
	ct_close_now(&r->image_fd);
	ct_close_now(&r->work_fd);
	ct_close_now(&r->ns_fds[0]);
	ct_close_now(&r->ns_fds[1]);
	ct_close_now(&r->pty_master);
	for (int i = 0; i < 3; i++)
		ct_close_now(&r->stdio[i]);
	ct_criu_strings_free(&r->strings);
	oci_json_free(r->descriptors);
}

static int create_restored(const struct ct_lifecycle_opts *lc, struct restore *r,
			   const sigset_t *signals, struct ct_container *c)
{
	const struct ct_criu_args *a = r->a;
	struct ct_init_maker maker = {make_restored, r};
	struct ct_create_args ca = {.id = a->id,
				    .bundle = a->bundle,
				    .pid_file = a->pid_file,
				    .console_socket = a->console_socket,
				    .start = CT_START_SYNC, /* recorded as started */
				    .child_sigmask = *signals,
				    .maker = &maker};
	struct ct_error err = {0};
	/* criu's strict mode restores into cgroups it makes, but create makes the container's
	 * before criu runs (its limits, as config.json says) */
	if (a->cg_mode && strcmp(a->cg_mode, "strict") == 0)
		return ct_lifecycle_fail("restore", a->id,
					 &(struct ct_error){EINVAL,
							    "--manage-cgroups-mode strict: "
							    "not supported by restore (the "
							    "container's cgroup exists before "
							    "criu runs)"});
	if (ct_state_check_id(a->id, &err) < 0 || open_dirs(r, &err) < 0 ||
	    ct_container_create(lc, &ca, c, &err) < 0)
		return ct_lifecycle_fail("restore", a->id, &err);
	c->status = CT_STATUS_RUNNING;
	if (ct_container_poststart(c, &err) < 0)
		ct_log(CT_LOG_WARNING, "restore container \"%s\": %s", ct_shown_id(a->id).s,
		       err.msg);
	return 0;
}

int ct_lifecycle_restore(const struct ct_lifecycle_opts *lc, const struct ct_criu_args *a)
{
	struct restore r = {
		.a = a, .image_fd = -1, .work_fd = -1, .ns_fds = {-1, -1}, .pty_master = -1};
	ct_criu_opts_init(&r.opts);
	sigset_t signals;
	ct_forwarded_signals(&signals);
	struct ct_container c;
	/* signals stay deliverable while criu works: a restore stuck in criu (an image with
	 * cut pages can hang it) can be ended by SIGTERM; the foreground blocks them after */
	int rc = create_restored(lc, &r, &signals, &c);
	restore_free(&r);
	if (rc < 0)
		return 1;
	if (a->detach) {
		ct_container_close(&c);
		return 0;
	}
	sigprocmask(SIG_BLOCK, &signals, NULL);
	return ct_container_foreground(&c, &signals, "restore", false);
}
