/* `checkpoint` (libct/lifecycle/ops.h): a running container dumped by CRIU. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"
#include "libct/cgroup/paused.h"
#include "libct/criu/swrk.h"
#include "libct/lifecycle/bundle.h"
#include "libct/lifecycle/container.h"
#include "libct/lifecycle/criu_container.h"
#include "libct/lifecycle/log.h"

/* descriptors.json (ct_criu_descriptors_json), which restore reads back. */
static int write_descriptors(int dirfd, pid_t pid, struct ct_error *err)
{
	_cleanup_free_ char *json = ct_criu_descriptors_json(pid, err);
	if (!json)
		return -1;
	_cleanup_close_ int fd =
		openat(dirfd, CT_CRIU_DESCRIPTORS, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ct_write_all(fd, json, strlen(json)) < 0)
		return ct_error_sys(err, errno, "write " CT_CRIU_DESCRIPTORS);
	return 0;
}

struct dump {
	const struct ct_criu_args *a;
	struct ct_container *c;
	struct oci_config *config;
	int image_fd, work_fd;
	struct ct_criu_opts opts;
	struct ct_criu_strings strings;
	struct ct_criu_log log;
};

static int build_opts(struct dump *d, struct ct_error *err)
{
	struct ct_criu_opts *o = &d->opts;
	int ns_fds[2];
	ct_criu_opts_init(o);
	if (ct_criu_opts_from_args(d->a, o, &d->strings, err) < 0 ||
	    ct_criu_external_mounts(d->config, d->c->state.bundle, false, o, &d->strings, err) <
		    0 ||
	    ct_criu_external_namespaces(d->config, false, o, &d->strings, ns_fds, err) < 0)
		return -1;
	o->images_dir_fd = d->image_fd;
	o->work_dir_fd = d->work_fd;
	o->pid = d->c->state.pid;
	o->root = d->c->state.rootfs;
	o->config_file = ct_criu_config_file(&d->config->annotations);
	bool v2;
	o->freeze_cgroup = ct_cgroup_freezer_dir(&d->c->state.cgroup_paths, &v2);
	o->log_file = d->a->pre_dump ? "pre-dump.log" : "dump.log";
	o->orphan_pts_master = d->config->process.terminal;
	o->track_mem = d->a->pre_dump || d->a->parent_path;
	ct_criu_log_of(d->a, o, &d->log);
	return 0;
}

static int run_dump(struct dump *d, struct ct_error *err)
{
	if (build_opts(d, err) < 0 || write_descriptors(d->image_fd, d->c->state.pid, err) < 0)
		return -1;
	int keep[] = {d->image_fd, d->work_fd, d->a->status_fd};
	struct ct_criu_swrk_opts so = {.keep_fds = keep, .n_keep = d->a->status_fd >= 0 ? 3 : 2};
	struct ct_criu_swrk w;
	if (ct_criu_swrk_start(&so, &w, err) < 0)
		return -1;
	struct ct_criu_req req = {.type = d->a->pre_dump ? CT_CRIU_PRE_DUMP : CT_CRIU_DUMP,
				  .opts = &d->opts};
	struct ct_criu_resp resp;
	int rc = ct_criu_swrk_call(&w, &req, NULL, NULL, &d->log, &resp, err);
	ct_criu_swrk_end(&w);
	return rc;
}

static int load_config(const char *bundle, struct oci_config **config, struct ct_error *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/config.json", bundle);
	struct oci_config_opts opts = {.on_unknown = ct_bundle_log_unknown};
	return oci_config_load(path, &opts, config, err);
}

static int checkpoint_open(struct dump *d, struct ct_error *err)
{
	/* paused too, as runc: containerd's shim pauses a task around its checkpoint, and criu
	 * given the freezer leaves a frozen cgroup as it found it */
	if (d->c->status != CT_STATUS_RUNNING && d->c->status != CT_STATUS_PAUSED)
		return ct_error_plain(err, EINVAL, "container is %s, not running or paused",
				      ct_status_name(d->c->status));
	if (load_config(d->c->state.bundle, &d->config, err) < 0)
		return -1;
	d->image_fd = ct_criu_open_dir(d->a->image_path, "--image-path", true, err);
	if (d->image_fd < 0)
		return -1;
	d->work_fd = ct_criu_open_work_dir(d->a->work_path, d->image_fd, true, err);
	return d->work_fd < 0 ? -1 : 0;
}

/* After a dump that stopped the processes, the container goes as delete makes it go. */
static int remove_dumped(struct ct_container *c, struct ct_error *err)
{
	if (ct_container_destroy(c, err) < 0)
		return -1;
	ct_container_poststop(c);
	return 0;
}

int ct_lifecycle_checkpoint(const struct ct_lifecycle_opts *lc, const struct ct_criu_args *a)
{
	struct ct_container c;
	struct ct_error err = {0};
	struct dump d = {.a = a, .c = &c, .image_fd = -1, .work_fd = -1};
	int rc = ct_container_open(lc, a->id, true, &c, &err);
	if (rc == 0)
		rc = checkpoint_open(&d, &err);
	if (rc == 0)
		rc = run_dump(&d, &err);
	if (rc == 0 && !d.opts.leave_running)
		rc = remove_dumped(&c, &err);
	if (rc < 0)
		ct_lifecycle_fail("checkpoint", a->id, &err);
	ct_close_now(&d.image_fd);
	ct_close_now(&d.work_fd);
	ct_criu_strings_free(&d.strings);
	oci_config_free(d.config);
	ct_container_close(&c);
	return rc;
}
