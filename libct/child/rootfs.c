#include "libct/child/rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/syscalls.h"
#include "libct/child/devices.h"
#include "libct/child/propagation.h"
#include "libct/child/sysctl.h"
#include "libct/fs/copyup.h"
#include "libct/fs/fsinfo.h"
#include "libct/fs/mountfd.h"
#include "libct/fs/mountpoint.h"
#include "libct/fs/procfs.h"
#include "libct/fs/safefs.h"
#include "libct/plan/mount_expect.h"

/* mounted_fd: as ct_mount_at()'s, may be NULL. */
static int mount_request(struct ct_mountpoints *mp, size_t index, const char *dest,
			 const struct ct_mount_request *rq, uint64_t *mounted_id, int *mounted_fd,
			 struct ct_error *err)
{
	if (ct_mountpoint_mount(mp, dest, rq, mounted_id, mounted_fd, err) == 0)
		return 0;
	if (rq->exact_dir && (err->errnum == ELOOP || err->errnum == ENOTDIR))
		return ct_error_prefix(err, "config.json: .mounts[%zu]: \"%s\"", index, dest);
	return ct_error_prefix(err, "mount #%zu \"%s\"", index, dest);
}

/* procfs and sysfs go only on a directory at their very path: through a symlink of the image
 * (/proc -> /fakeproc) they would land where the masked paths and the LSM profiles do not
 * look, as runc refuses since CVE-2019-19921 and CVE-2023-27561. */
static bool goes_on_exact_dir(const struct ct_planned_mount *m)
{
	return m->type && (strcmp(m->type, "proc") == 0 || strcmp(m->type, "sysfs") == 0);
}

/* A "cgroup" mount on a v1 host: a tmpfs holding one mount per hierarchy (and cgroup2 at
 * unified on a hybrid host), as runc and crun show it; read-only after they are in. */
static int mount_cgroup_v1(const struct ct_plan_rootfs *fs, struct ct_plan_verify *v,
			   struct ct_mountpoints *mp, size_t index, struct ct_error *err)
{
	const struct ct_planned_mount *m = &fs->mounts[index];
	struct ct_mount_flags tmpfs = m->flags, hierarchy = m->flags;
	tmpfs.flags &= ~(unsigned long)MS_RDONLY;
	tmpfs.data = "mode=755";
	struct ct_mount_request rq = {
		.type = "tmpfs", .source = "tmpfs", .source_fd = -1, .flags = &tmpfs};
	_cleanup_close_ int made = -1;
	if (mount_request(mp, index, m->destination, &rq, ct_expect_id(v, index), &made, err) < 0)
		return -1;
	ct_mountpoint_add_fresh(mp, m->destination, &made);
	char dest[PATH_MAX];
	rq.flags = &hierarchy;
	for (size_t i = 0; i <= fs->n_cgroup_v1; i++) {
		bool unified = i == fs->n_cgroup_v1;
		if (unified && !fs->have_cgroup2_unified)
			break;
		const char *bind = unified ? fs->cgroup2_bind : fs->cgroup_v1[i].bind;
		hierarchy.data = unified || bind ? NULL : fs->cgroup_v1[i].options;
		hierarchy.bind = bind != NULL;
		rq.type = rq.source = unified ? "cgroup2" : "cgroup";
		if (bind)
			rq.source = bind;
		snprintf(dest, sizeof(dest), "%s/%s", m->destination,
			 unified ? "unified" : fs->cgroup_v1[i].dir);
		uint64_t *id = ct_expect_id(v, m->expect_hierarchies + i);
		if (mount_request(mp, index, dest, &rq, id, NULL, err) < 0)
			return -1;
	}
	if (!(m->flags.flags & MS_RDONLY))
		return 0;
	/* the tmpfs's fd, unless a failed re-check in the loop dropped (closed) it: then by path */
	int top = made >= 0 ? made : ct_mountpoint_fresh_dir(mp, m->destination);
	if ((top >= 0 ? ct_mount_fd_set_readonly(top, false, err)
		      : ct_mount_set_readonly(mp->rootfd, m->destination, false, err)) < 0)
		return ct_error_prefix(err, "mount #%zu \"%s\"", index, m->destination);
	return 0;
}

/* A unified host's cgroup mount without a cgroup namespace: the container's directory. */
static int mount_cgroup2_bind(const struct ct_plan_rootfs *fs, struct ct_plan_verify *v,
			      struct ct_mountpoints *mp, size_t index, struct ct_error *err)
{
	const struct ct_planned_mount *m = &fs->mounts[index];
	struct ct_mount_flags bind = m->flags;
	bind.bind = true;
	bind.data = NULL;
	struct ct_mount_request rq = {
		.type = "cgroup2", .source = fs->cgroup2_bind, .source_fd = -1, .flags = &bind};
	return mount_request(mp, index, m->destination, &rq, ct_expect_id(v, index), NULL, err);
}

/* Whether the filesystem data sets key ("mode=", "uid=", ...) itself. */
static bool data_sets(const char *data, const char *key)
{
	for (const char *p = data; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, key, strlen(key)) == 0)
			return true;
	return false;
}

/* The tmpfs root takes the image directory's owner and mode, unless the options say. */
static int copy_root_attributes(int tmpfs, const struct stat *st, const char *data)
{
	if (!data_sets(data, "uid=") && !data_sets(data, "gid=") &&
	    ct_fd_chown(tmpfs, st->st_uid, st->st_gid) < 0)
		return -1;
	return data_sets(data, "mode=") ? 0 : ct_fd_chmod(tmpfs, st->st_mode & 07777);
}

/* The image's directory under a "tmpcopyup" tmpfs, opened before the tmpfs covers it; -1
 * with errno 0 when there is nothing to copy (missing, or not a directory: the mount
 * itself then says what is wrong). */
static int open_copyup_source(int rootfd, const char *dest, struct stat *st)
{
	_cleanup_close_ int fd = ct_root_open(rootfd, dest, false);
	if (fd < 0)
		return errno == ENOENT ? (errno = 0, -1) : -1;
	if (fstat(fd, st) < 0)
		return -1;
	return S_ISDIR(st->st_mode) ? steal_fd(&fd) : (errno = 0, -1);
}

/* "tmpcopyup": the tmpfs is mounted writable, filled from the image's directory (an fd
 * opened before the mount hid it), then made read-only if asked. */
static int mount_tmpfs_copyup(const struct ct_plan_rootfs *fs, struct ct_plan_verify *v,
			      struct ct_mountpoints *mp, size_t index, struct ct_mount_request *rq,
			      struct ct_error *err)
{
	const struct ct_planned_mount *m = &fs->mounts[index];
	struct stat st;
	_cleanup_close_ int image = open_copyup_source(mp->rootfd, m->destination, &st);
	if (image < 0 && errno)
		return ct_error_sys(err, errno, "mount #%zu \"%s\": open the image's directory",
				    index, m->destination);
	struct ct_mount_flags writable = m->flags;
	writable.flags &= ~(unsigned long)MS_RDONLY;
	rq->flags = &writable;
	_cleanup_close_ int tmpfs = -1;
	if (mount_request(mp, index, m->destination, rq, ct_expect_id(v, index), &tmpfs, err) < 0)
		return -1;
	if (image < 0)
		return 0;
	if (copy_root_attributes(tmpfs, &st, m->flags.data) < 0)
		return ct_error_sys(err, errno, "mount #%zu \"%s\": copy up the directory", index,
				    m->destination);
	if (ct_copy_tree(image, tmpfs, err) < 0 ||
	    ((m->flags.flags & MS_RDONLY) && ct_mount_fd_set_readonly(tmpfs, false, err) < 0))
		return ct_error_prefix(err, "mount #%zu \"%s\"", index, m->destination);
	return 0;
}

/* A tmpfs of the config's own, empty: where mount points inside it are made directly. */
static bool is_fresh_tmpfs(const struct ct_planned_mount *m)
{
	return !m->flags.bind && !m->flags.idmap && !m->flags.tmpcopyup && !m->is_cgroup &&
	       m->type && strcmp(m->type, "tmpfs") == 0;
}

static int mount_planned(const struct ct_plan_rootfs *fs, struct ct_plan_verify *v,
			 struct ct_mountpoints *mp, size_t index, struct ct_error *err)
{
	const struct ct_planned_mount *m = &fs->mounts[index];
	struct ct_mount_request rq = {.type = m->type,
				      .source = m->source,
				      .source_fd = -1,
				      .flags = &m->flags,
				      .exact_dir = goes_on_exact_dir(m)};
	if (m->flags.bind) {
		struct stat st;
		if (stat(m->bind_source, &st) < 0)
			return ct_error_sys(err, errno, "mount #%zu \"%s\": bind source \"%s\"",
					    index, m->destination, m->bind_source);
		rq.source = m->bind_source;
		rq.file = !S_ISDIR(st.st_mode);
		ct_expect_bind_source(v, index, &st);
	} else if (m->is_cgroup && !fs->cgroup2_host && strcmp(m->type, "cgroup2") != 0) {
		return mount_cgroup_v1(fs, v, mp, index, err);
	} else if (m->is_cgroup) {
		/* the container's view of a unified host: its own cgroup2 */
		rq.type = rq.source = "cgroup2";
		if (fs->cgroup2_bind)
			return mount_cgroup2_bind(fs, v, mp, index, err);
	}
	if (!rq.source)
		rq.source = m->type;
	if (m->flags.tmpcopyup && m->type && strcmp(m->type, "tmpfs") == 0)
		return mount_tmpfs_copyup(fs, v, mp, index, &rq, err);
	_cleanup_close_ int made = -1;
	bool fresh = is_fresh_tmpfs(m);
	if (mount_request(mp, index, m->destination, &rq, ct_expect_id(v, index),
			  fresh ? &made : NULL, err) < 0)
		return -1;
	if (fresh)
		ct_mountpoint_add_fresh(mp, m->destination, &made);
	return 0;
}

/* In a mount namespace of its own the rootfs becomes its root (pivot_root, or MS_MOVE with
 * --no-pivot). In one it shares (inherited or joined), whose root belongs to others, the
 * init only chroots into the rootfs's bind, as runc does for an inherited namespace. */
static int enter_rootfs(const struct ct_plan_rootfs *fs, bool new_mount_ns, int rootfd,
			struct ct_error *err)
{
	if (fchdir(rootfd) < 0)
		return ct_error_sys(err, errno, "chdir to rootfs \"%s\"", fs->path);
	if (!new_mount_ns) {
		if (chroot(".") < 0)
			return ct_error_sys(err, errno, "chroot to \"%s\"", fs->path);
	} else if (fs->no_pivot) {
		if (ct_move_root_here(ct_propagation_shared(fs->lx), err) < 0)
			return -1;
		if (chroot(".") < 0)
			return ct_error_sys(err, errno, "chroot into rootfs");
	} else if (ct_pivot_root_here(ct_propagation_shared(fs->lx), fs->path, err) < 0) {
		return -1;
	}
	if (chdir("/") < 0)
		return ct_error_sys(err, errno, "chdir to /");
	return 0;
}

/* The source of a file mask, bound by this very fd: in a /dev bound from elsewhere (where
 * no default node is made) the null may be a file or a symlink to one that masking would
 * expose (CVE-2025-31133). */
static int open_dev_null(int rootfd, struct ct_error *err)
{
	_cleanup_close_ int fd = ct_root_open(rootfd, "/dev/null", true);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return ct_error_sys(err, errno, "open \"/dev/null\"");
	if (!S_ISCHR(st.st_mode) || st.st_rdev != makedev(1, 3))
		return ct_error_plain(err, EPERM,
				      "\"/dev/null\" is not the null device (char 1:3)");
	return steal_fd(&fd);
}

/* The first masked directory and file are mounted; every other one is a copy of the
 * first of its kind (open_tree, with its flags), not a tmpfs or a bind of its own. */
struct mask_models {
	int dir, file; /* the first mask's mount, -1 before it */
	int null;      /* /dev/null, -1 until a file is masked */
};

static void mask_models_close(struct mask_models *m)
{
	ct_close_now(&m->dir);
	ct_close_now(&m->file);
	ct_close_now(&m->null);
}

static int mask_one(const struct oci_linux *lx, struct ct_plan_verify *v, int rootfd, size_t i,
		    struct mask_models *models, struct ct_error *err)
{
	static const struct ct_mount_flags dir_mask = {.flags = MS_RDONLY,
						       .data = "size=0k,mode=0555"};
	static const struct ct_mount_flags file_mask = {.flags = MS_RDONLY, .bind = true};
	static const struct ct_mount_flags copy = {.bind = true};
	const char *p = lx->masked_paths.items[i];
	_cleanup_close_ int fd = ct_root_open(rootfd, p, false);
	struct stat st;
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &st) < 0)
		return ct_error_sys(err, errno, "mask \"%s\"", p);
	bool dir = S_ISDIR(st.st_mode);
	int *model = dir ? &models->dir : &models->file;
	if (!dir && *model < 0 && models->null < 0 &&
	    (models->null = open_dev_null(rootfd, err)) < 0)
		return ct_error_prefix(err, "mask \"%s\"", p);
	struct ct_mount_request rq = {
		.type = dir ? "tmpfs" : NULL,
		.source = dir ? "tmpfs" : "/dev/null",
		.source_fd = dir ? -1 : models->null,
		.flags = dir ? &dir_mask : &file_mask,
		.file = !dir,
	};
	if (*model >= 0) {
		rq.source = p;
		rq.source_fd = *model;
		rq.flags = &copy;
	}
	if (v->expect)
		v->expect[v->expect_masked + i].fstype = rq.type;
	if (ct_mount_at(rootfd, p, fd, &rq, ct_expect_id(v, v->expect_masked + i),
			*model < 0 ? model : NULL, err) < 0)
		return ct_error_prefix(err, "mask \"%s\"", p);
	return 0;
}

/* After pivot_root: "/" is the rootfs, resolution still refuses magic links. */
static int mask_paths(const struct oci_linux *lx, struct ct_plan_verify *v, int rootfd,
		      struct ct_error *err)
{
	struct mask_models models = {-1, -1, -1};
	int rc = 0;
	for (size_t i = 0; i < lx->masked_paths.len && rc == 0; i++)
		rc = mask_one(lx, v, rootfd, i, &models, err);
	mask_models_close(&models);
	return rc;
}

/* With the new mount API the copy is made read-only, with all below it, before it is
 * attached; otherwise after (mountfd.h: a remount of the top one without mount_setattr). */
static int make_path_readonly(const struct oci_linux *lx, struct ct_plan_verify *v, int rootfd,
			      size_t i, struct ct_error *err)
{
	const char *p = lx->readonly_paths.items[i];
	_cleanup_close_ int fd = ct_root_open(rootfd, p, false);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return ct_error_sys(err, errno, "make \"%s\" read-only", p);
	struct ct_mount_flags rbind = {.bind = true, .recursive_bind = true};
	if (ct_mount_api_used() == CT_MOUNT_API_NEW)
		rbind.rec_set = MOUNT_ATTR_RDONLY;
	struct ct_mount_request rq = {.source = p, .source_fd = fd, .flags = &rbind};
	uint64_t *id = ct_expect_id(v, v->expect_readonly + i);
	_cleanup_close_ int made = -1;
	if (ct_mount_at(rootfd, p, fd, &rq, id, rbind.rec_set ? NULL : &made, err) < 0 ||
	    (!rbind.rec_set && ct_mount_fd_set_readonly(made, true, err) < 0))
		return ct_error_prefix(err, "make \"%s\" read-only", p);
	return 0;
}

static int make_paths_readonly(const struct oci_linux *lx, struct ct_plan_verify *v, int rootfd,
			       struct ct_error *err)
{
	for (size_t i = 0; i < lx->readonly_paths.len; i++)
		if (make_path_readonly(lx, v, rootfd, i, err) < 0)
			return -1;
	return 0;
}

static int write_sysctls(const struct oci_linux *lx, const struct ct_procfs *procfs,
			 struct ct_error *err)
{
	for (size_t i = 0; i < lx->sysctl.len; i++) {
		const struct oci_kv *kv = &lx->sysctl.items[i];
		char path[PATH_MAX];
		if (ct_sysctl_path(kv->key, path, sizeof(path)) < 0)
			return ct_error_plain(err, ENAMETOOLONG, "set sysctl %s: name too long",
					      kv->key);
		if (ct_procfs_write(procfs, path, kv->value, err) < 0)
			return ct_error_prefix(err, "set sysctl %s=%s", kv->key, kv->value);
	}
	return 0;
}

/* Returns an O_PATH fd of the rootfs as a mount of its own (pivot_root needs one). In a
 * shared mount namespace the propagation of the others' mounts is left as it is (runc makes
 * all of it slave, and the rootfs's parent private): the bind alone is made private, so
 * that nothing mounted in it reaches the namespace's peers, and delete detaches it
 * (libct/state/shared_root.h). */
static int prepare_root(const struct ct_plan_rootfs *fs, bool new_mount_ns, struct ct_error *err)
{
	const char *rootfs = fs->path;
	if (new_mount_ns && ct_cut_propagation(fs->lx, rootfs, err) < 0)
		return -1;
	if (mount(rootfs, rootfs, NULL, MS_BIND | MS_REC, NULL) < 0)
		return ct_error_sys(err, errno, "bind rootfs \"%s\" onto itself", rootfs);
	if (!new_mount_ns && mount(NULL, rootfs, NULL, MS_PRIVATE | MS_REC, NULL) < 0) {
		int saved = errno;
		umount2(rootfs, MNT_DETACH);
		return ct_error_sys(err, saved, "make the bind of rootfs \"%s\" private", rootfs);
	}
	/* opened after the bind, so that the fd is on the new mount */
	int fd = openat(AT_FDCWD, rootfs, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return ct_error_sys(err, errno, "open rootfs \"%s\"", rootfs);
	return fd;
}

static int finish_root(const struct ct_plan_rootfs *fs, struct ct_plan_verify *v, int rootfd,
		       struct ct_error *err)
{
	const struct oci_linux *lx = fs->lx;
	static const unsigned long propagation[] = {MS_PRIVATE, MS_SHARED, MS_SLAVE, MS_UNBINDABLE,
						    MS_PRIVATE, MS_SHARED, MS_SLAVE, MS_UNBINDABLE};
	/* "/" alone, the r forms too: a recursive change would undo the mounts' own
	 * propagation (cut off from the host's by prepare_root, but for an rshared bind's
	 * peer group under a shared rootfsPropagation) */
	if (lx->has_rootfs_propagation &&
	    mount(NULL, "/", NULL, propagation[lx->rootfs_propagation], NULL) < 0)
		return ct_error_sys(err, errno, "set rootfs propagation \"%s\"",
				    oci_propagation_names[lx->rootfs_propagation]);
	if (!fs->readonly)
		return 0;
	if (ct_mount_fd_set_readonly(rootfd, false, err) < 0)
		return ct_error_prefix(err, "make the root read-only");
	uint64_t *id = ct_expect_id(v, v->expect_root);
	return id ? ct_fd_mount_id(rootfd, false, id, err) : 0;
}

/* The config's mounts in order, then the /dev nodes, every path resolved in the rootfs. */
static int mount_all(const struct ct_plan_rootfs *fs, struct ct_plan_verify *v, int rootfd,
		     struct ct_error *err)
{
	struct ct_mountpoints mp;
	ct_mountpoints_init(&mp, rootfd);
	int rc = 0;
	for (size_t i = 0; i < fs->n_mounts && rc == 0; i++)
		rc = mount_planned(fs, v, &mp, i, err);
	if (rc == 0)
		rc = ct_devices_create(fs, v, &mp, err);
	ct_mountpoints_release(&mp);
	return rc;
}

/* A missing process.cwd is made as runc and crun make it (a build step's WORKDIR): by the
 * init, as root, after the mounts (it may be in one of them) and before the paths are masked
 * or made read-only; 0755 less the caller's umask, resolved in the root like every rootfs
 * path. An exec'd process gets no such help, in runc neither. */
static int make_cwd(const char *cwd, int rootfd, struct ct_error *err)
{
	if (strcmp(cwd, "/") == 0) /* the root itself: nothing to make */
		return 0;
	_cleanup_close_ int fd = ct_root_mkpath(rootfd, cwd, CT_MAKE_DIR);
	if (fd < 0)
		return ct_error_sys(err, errno, "make cwd \"%s\"", cwd);
	return 0;
}

/* Whether top is, in the root, a directory reached through no symlink, or missing. */
static bool is_exact_dir_or_missing(int rootfd, const char *top)
{
	_cleanup_close_ int fd = ct_root_open_exact(rootfd, top);
	struct stat st;
	if (fd < 0)
		return errno == ENOENT;
	return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Index of the first of paths at or below top, -1 when none is. */
static ssize_t first_under(const oci_strings *paths, const char *top)
{
	for (size_t i = 0; i < paths->len; i++) {
		char p[PATH_MAX];
		ct_path_normalize(paths->items[i], p, sizeof(p));
		if (ct_path_within(p, top))
			return (ssize_t)i;
	}
	return -1;
}

/* A masked or read-only path under /proc or /sys is one of procfs's or sysfs's files only
 * where /proc or /sys is no symlink of the image (see goes_on_exact_dir): refused otherwise.
 * One look at each top, named by the first path under it. */
static int check_masked_and_readonly(const struct oci_linux *lx, int rootfd, struct ct_error *err)
{
	static const char *const tops[] = {"/proc", "/sys"};
	for (size_t t = 0; t < sizeof(tops) / sizeof(tops[0]); t++) {
		const char *list = "maskedPaths";
		const oci_strings *paths = &lx->masked_paths;
		ssize_t i = first_under(paths, tops[t]);
		if (i < 0) {
			list = "readonlyPaths";
			paths = &lx->readonly_paths;
			i = first_under(paths, tops[t]);
		}
		if (i >= 0 && !is_exact_dir_or_missing(rootfd, tops[t]))
			return ct_error_plain(
				err, ELOOP,
				"config.json: .linux.%s[%zd]: \"%s\": \"%s\" is a symlink or a "
				"file of the image: what is under it is not the kernel's",
				list, i, paths->items[i], tops[t]);
	}
	return 0;
}

/* The rootfs bound onto itself: the mounts go in that bind, whose fd goes to *rootfd. */
static int bind_rootfs(struct ct_plan_rootfs *fs, bool new_mount_ns, int *rootfd,
		       struct ct_error *err)
{
	/* opened first: a failed set-up in a shared namespace detaches the bind from here */
	if (!new_mount_ns &&
	    (fs->caller_root = openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return ct_error_sys(err, errno, "open /");
	*rootfd = prepare_root(fs, new_mount_ns, err);
	if (*rootfd < 0)
		return -1;
	fs->bound = true;
	return 0;
}

/* The rows: each hands its step the part of the plan (or two) the step works on, and the
 * rootfs's fd (ctx->rootfd). */
static int rootfs_bind_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	struct ct_init_plan *plan = ctx->plan;
	if (bind_rootfs(&plan->rootfs, plan->ns.new_mount_ns, &ctx->rootfd, err) < 0)
		return -1;
	/* Before any mount of the config: the image has no say in it. The rootfs path is the
	 * bundle's, and our mounts do not propagate out of this namespace any more. */
	if (plan->writes_proc)
		ct_procfs_open(&plan->procfs, plan->rootfs.path);
	return 0;
}

static int mounts_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return mount_all(&ctx->plan->rootfs, &ctx->plan->verify, ctx->rootfd, err);
}

static int pivot_root_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return enter_rootfs(&ctx->plan->rootfs, ctx->plan->ns.new_mount_ns, ctx->rootfd, err);
}

static int sysctls_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return write_sysctls(ctx->plan->rootfs.lx, &ctx->plan->procfs, err);
}

static int check_paths_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return check_masked_and_readonly(ctx->plan->rootfs.lx, ctx->rootfd, err);
}

static int make_cwd_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return make_cwd(ctx->plan->process.p->cwd, ctx->rootfd, err);
}

static int masks_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return mask_paths(ctx->plan->rootfs.lx, &ctx->plan->verify, ctx->rootfd, err);
}

static int readonly_paths_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return make_paths_readonly(ctx->plan->rootfs.lx, &ctx->plan->verify, ctx->rootfd, err);
}

/* The last rootfs step: the root's own propagation and read-only flag; its fd is done
 * with. */
static int finish_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	int rc = finish_root(&ctx->plan->rootfs, &ctx->plan->verify, ctx->rootfd, err);
	ct_step_ctx_release(ctx);
	return rc;
}

const struct ct_step ct_rootfs_bind = {"rootfs-bind", rootfs_bind_row};
const struct ct_step ct_rootfs_mounts = {"mounts", mounts_row};
const struct ct_step ct_rootfs_pivot_root = {"pivot-root", pivot_root_row};
/* after pivot_root, rootfd is the new root itself: pivot_root and MS_MOVE move the mount
 * it is on */
const struct ct_step ct_rootfs_sysctls = {"sysctls", sysctls_row};
const struct ct_step ct_rootfs_check_paths = {"check-masked-paths", check_paths_row};
const struct ct_step ct_rootfs_cwd = {"make-cwd", make_cwd_row};
const struct ct_step ct_rootfs_masks = {"masked-paths", masks_row};
const struct ct_step ct_rootfs_readonly_paths = {"readonly-paths", readonly_paths_row};
const struct ct_step ct_rootfs_finish = {"root-propagation", finish_row};

void ct_rootfs_undo_shared(struct ct_plan_rootfs *fs, bool new_mount_ns)
{
	if (fs->bound && !new_mount_ns && fs->caller_root >= 0 && fchdir(fs->caller_root) == 0)
		umount2(fs->path + 1, MNT_DETACH); /* relative to the caller's root */
	ct_rootfs_set_up(fs);
}

void ct_rootfs_set_up(struct ct_plan_rootfs *fs)
{
	ct_close_now(&fs->caller_root);
	fs->bound = false;
}
