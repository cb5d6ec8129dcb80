#include "libct/rootfs.h"

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

#include "libct/cleanup.h"

bool ct_path_is_below(const char *root, const char *path)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n == 1 && root[0] == '/')
		return path[0] == '/';
	return strncmp(root, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* mkdir -p of `path`, then a check that what it resolves to is still inside the rootfs
 * (a symlink in the image must not lead a mount outside). The rootfs issue replaces this
 * with openat2(RESOLVE_IN_ROOT). */
static int make_mount_point(const char *rootfs, const char *path, bool file, struct ct_error *err)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + strlen(rootfs) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return ct_error_set(err, errno, "create mount point \"%s\"", buf);
		*p = '/';
	}
	if (file) {
		int fd = open(buf, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0 && errno != EISDIR)
			return ct_error_set(err, errno, "create mount point \"%s\"", buf);
		if (fd >= 0)
			close(fd);
	} else if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
		return ct_error_set(err, errno, "create mount point \"%s\"", buf);
	}
	char resolved[PATH_MAX];
	if (!realpath(buf, resolved))
		return ct_error_set(err, errno, "resolve mount point \"%s\"", buf);
	if (!ct_path_is_below(rootfs, resolved))
		return ct_error_set(err, EXDEV, "mount point \"%s\" resolves outside the rootfs",
				    path + strlen(rootfs));
	return 0;
}

static const char *container_path(const struct ct_init_plan *plan, const char *host_path)
{
	return host_path + strlen(plan->opts->rootfs);
}

static int mount_bind(const struct ct_init_plan *plan, const struct ct_planned_mount *m,
		      struct ct_error *err)
{
	unsigned long rec = m->flags.recursive_bind ? MS_REC : 0;
	if (mount(m->bind_source, m->target, NULL, MS_BIND | rec, NULL) < 0)
		return ct_error_set(err, errno, "bind mount \"%s\" on \"%s\"", m->bind_source,
				    container_path(plan, m->target));
	unsigned long flags = m->flags.flags & ~MS_REMOUNT;
	if (flags && mount(NULL, m->target, NULL, MS_BIND | MS_REMOUNT | flags, NULL) < 0)
		return ct_error_set(err, errno, "remount \"%s\" with its options",
				    container_path(plan, m->target));
	return 0;
}

static int mount_cgroup_v1(const struct ct_init_plan *plan, const struct ct_planned_mount *m,
			   struct ct_error *err)
{
	unsigned long flags = m->flags.flags;
	if (mount("tmpfs", m->target, "tmpfs", flags & ~MS_RDONLY, "mode=755") < 0)
		return ct_error_set(err, errno, "mount tmpfs on \"%s\"",
				    container_path(plan, m->target));
	char path[PATH_MAX];
	for (size_t i = 0; i < plan->n_cgroup_v1; i++) {
		const struct ct_cgroup_hierarchy *h = &plan->cgroup_v1[i];
		snprintf(path, sizeof(path), "%s/%s", m->target, h->dir);
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return ct_error_set(err, errno, "create \"%s\"", path);
		if (mount("cgroup", path, "cgroup", flags, h->options) < 0)
			return ct_error_set(err, errno, "mount cgroup \"%s\" on \"%s\"", h->options,
					    container_path(plan, path));
	}
	if (plan->have_cgroup2_unified) {
		snprintf(path, sizeof(path), "%s/unified", m->target);
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return ct_error_set(err, errno, "create \"%s\"", path);
		if (mount("cgroup2", path, "cgroup2", flags, NULL) < 0)
			return ct_error_set(err, errno, "mount cgroup2 on \"%s\"",
					    container_path(plan, path));
	}
	if ((flags & MS_RDONLY) && mount(NULL, m->target, NULL, MS_REMOUNT | flags, "mode=755") < 0)
		return ct_error_set(err, errno, "remount \"%s\" read-only",
				    container_path(plan, m->target));
	return 0;
}

/* "cgroup" shows the container's hierarchies: cgroup2 on a unified host, one mount per
 * v1 hierarchy under a tmpfs otherwise (as runc and crun do). */
static int mount_cgroup(const struct ct_init_plan *plan, const struct ct_planned_mount *m,
			struct ct_error *err)
{
	if (plan->cgroup2_host || strcmp(m->type, "cgroup2") == 0) {
		if (mount("cgroup2", m->target, "cgroup2", m->flags.flags, NULL) < 0)
			return ct_error_set(err, errno, "mount cgroup2 on \"%s\"",
					    container_path(plan, m->target));
		return 0;
	}
	return mount_cgroup_v1(plan, m, err);
}

static int mount_one(const struct ct_init_plan *plan, const struct ct_planned_mount *m,
		     struct ct_error *err)
{
	bool file_target = false;
	struct stat st;
	if (m->flags.bind) {
		if (stat(m->bind_source, &st) < 0)
			return ct_error_set(err, errno, "bind source \"%s\"", m->bind_source);
		file_target = !S_ISDIR(st.st_mode);
	}
	if (make_mount_point(plan->opts->rootfs, m->target, file_target, err) < 0)
		return -1;
	int rc;
	if (m->flags.bind)
		rc = mount_bind(plan, m, err);
	else if (m->is_cgroup)
		rc = mount_cgroup(plan, m, err);
	else if (mount(m->source ? m->source : m->type, m->target, m->type, m->flags.flags,
		       m->flags.data) < 0)
		rc = ct_error_set(err, errno, "mount \"%s\" on \"%s\"", m->type ? m->type : "",
				  container_path(plan, m->target));
	else
		rc = 0;
	if (rc == 0 && m->flags.propagation &&
	    mount(NULL, m->target, NULL, m->flags.propagation, NULL) < 0)
		rc = ct_error_set(err, errno, "set propagation of \"%s\"",
				  container_path(plan, m->target));
	return rc;
}

static int create_default_devices(const struct ct_init_plan *plan, struct ct_error *err)
{
	static const struct {
		const char *name;
		unsigned major, minor;
	} nodes[] = {{"null", 1, 3},   {"zero", 1, 5},	  {"full", 1, 7},
		     {"random", 1, 8}, {"urandom", 1, 9}, {"tty", 5, 0}};
	static const char *const links[][2] = {
		{"/proc/self/fd", "fd"},       {"/proc/self/fd/0", "stdin"},
		{"/proc/self/fd/1", "stdout"}, {"/proc/self/fd/2", "stderr"},
		{"pts/ptmx", "ptmx"},	       {"/proc/kcore", "core"},
	};
	char path[PATH_MAX];
	mode_t old = umask(0);
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		snprintf(path, sizeof(path), "%s/dev/%s", plan->opts->rootfs, nodes[i].name);
		if (mknod(path, S_IFCHR | 0666, makedev(nodes[i].major, nodes[i].minor)) < 0 &&
		    errno != EEXIST) {
			umask(old);
			return ct_error_set(err, errno, "create device \"/dev/%s\"", nodes[i].name);
		}
	}
	umask(old);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		snprintf(path, sizeof(path), "%s/dev/%s", plan->opts->rootfs, links[i][1]);
		if (symlink(links[i][0], path) < 0 && errno != EEXIST)
			return ct_error_set(err, errno, "create symlink \"/dev/%s\"", links[i][1]);
	}
	return 0;
}

static int create_config_devices(const struct ct_init_plan *plan, struct ct_error *err)
{
	const struct oci_linux *lx = &plan->config->linux_;
	char path[PATH_MAX];
	for (size_t i = 0; i < lx->devices.len; i++) {
		const struct oci_device *d = &lx->devices.items[i];
		mode_t type = d->type[0] == 'b' ? S_IFBLK : d->type[0] == 'p' ? S_IFIFO : S_IFCHR;
		mode_t mode = d->has_file_mode ? d->file_mode : 0666;
		snprintf(path, sizeof(path), "%s%s", plan->opts->rootfs, d->path);
		if (make_mount_point(plan->opts->rootfs, path, true, err) < 0)
			return -1;
		unlink(path);
		if (mknod(path, type | mode, makedev(d->major, d->minor)) < 0)
			return ct_error_set(err, errno, "create device \"%s\"", d->path);
		if (chmod(path, mode) < 0 ||
		    chown(path, d->has_uid ? d->uid : 0, d->has_gid ? d->gid : 0) < 0)
			return ct_error_set(err, errno, "set owner and mode of \"%s\"", d->path);
	}
	return 0;
}

static int enter_rootfs(const struct ct_init_plan *plan, struct ct_error *err)
{
	const char *rootfs = plan->opts->rootfs;
	if (chdir(rootfs) < 0)
		return ct_error_set(err, errno, "chdir to rootfs \"%s\"", rootfs);
	if (plan->opts->no_pivot) {
		if (mount(rootfs, "/", NULL, MS_MOVE, NULL) < 0)
			return ct_error_set(err, errno, "move rootfs to /");
		if (chroot(".") < 0)
			return ct_error_set(err, errno, "chroot into rootfs");
	} else {
		/* pivot_root(".", ".") stacks the old root on the new one; detach it at once */
		if (syscall(SYS_pivot_root, ".", ".") < 0)
			return ct_error_set(err, errno, "pivot_root to \"%s\"", rootfs);
		if (umount2(".", MNT_DETACH) < 0)
			return ct_error_set(err, errno, "detach the old root");
	}
	if (chdir("/") < 0)
		return ct_error_set(err, errno, "chdir to /");
	return 0;
}

static int mask_paths(const struct oci_linux *lx, struct ct_error *err)
{
	for (size_t i = 0; i < lx->masked_paths.len; i++) {
		const char *p = lx->masked_paths.items[i];
		struct stat st;
		if (stat(p, &st) < 0) {
			if (errno == ENOENT)
				continue;
			return ct_error_set(err, errno, "mask \"%s\"", p);
		}
		int rc = S_ISDIR(st.st_mode)
				 ? mount("tmpfs", p, "tmpfs", MS_RDONLY, "size=0k,mode=0555")
				 : mount("/dev/null", p, NULL, MS_BIND, NULL);
		if (rc < 0)
			return ct_error_set(err, errno, "mask \"%s\"", p);
	}
	return 0;
}

static int make_paths_readonly(const struct oci_linux *lx, struct ct_error *err)
{
	for (size_t i = 0; i < lx->readonly_paths.len; i++) {
		const char *p = lx->readonly_paths.items[i];
		if (mount(p, p, NULL, MS_BIND | MS_REC, NULL) < 0) {
			if (errno == ENOENT)
				continue;
			return ct_error_set(err, errno, "bind \"%s\" read-only", p);
		}
		if (mount(NULL, p, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_REC, NULL) < 0)
			return ct_error_set(err, errno, "remount \"%s\" read-only", p);
	}
	return 0;
}

static int write_sysctls(const struct oci_linux *lx, struct ct_error *err)
{
	for (size_t i = 0; i < lx->sysctl.len; i++) {
		const struct oci_kv *kv = &lx->sysctl.items[i];
		char path[PATH_MAX];
		int n = snprintf(path, sizeof(path), "/proc/sys/%s", kv->key);
		for (char *p = path + 10; p < path + n; p++)
			if (*p == '.')
				*p = '/';
		_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0 || write(fd, kv->value, strlen(kv->value)) < 0)
			return ct_error_set(err, errno, "set sysctl %s=%s", kv->key, kv->value);
	}
	return 0;
}

static int prepare_root_propagation(const struct ct_init_plan *plan, struct ct_error *err)
{
	/* Slave by default (runc's choice): host mounts may appear, ours never leak out. */
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		return ct_error_set(err, errno, "make / a recursive slave");
	const char *rootfs = plan->opts->rootfs;
	if (mount(rootfs, rootfs, NULL, MS_BIND | MS_REC, NULL) < 0)
		return ct_error_set(err, errno, "bind rootfs \"%s\" onto itself", rootfs);
	return 0;
}

static int finish_root(const struct ct_init_plan *plan, struct ct_error *err)
{
	const struct oci_config *c = plan->config;
	static const unsigned long propagation[] = {MS_PRIVATE, MS_SHARED, MS_SLAVE, MS_UNBINDABLE};
	if (c->linux_.has_rootfs_propagation &&
	    mount(NULL, "/", NULL, MS_REC | propagation[c->linux_.rootfs_propagation], NULL) < 0)
		return ct_error_set(err, errno, "set rootfs propagation \"%s\"",
				    oci_propagation_names[c->linux_.rootfs_propagation]);
	if (c->root.readonly && mount(NULL, "/", NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL) < 0)
		return ct_error_set(err, errno, "remount the root read-only");
	return 0;
}

int ct_rootfs_setup(struct ct_init_plan *plan, struct ct_error *err)
{
	const struct oci_linux *lx = &plan->config->linux_;
	if (prepare_root_propagation(plan, err) < 0)
		return -1;
	for (size_t i = 0; i < plan->n_mounts; i++)
		if (mount_one(plan, &plan->mounts[i], err) < 0)
			return -1;
	if (plan->dev_is_tmpfs && create_default_devices(plan, err) < 0)
		return -1;
	if (create_config_devices(plan, err) < 0 || enter_rootfs(plan, err) < 0 ||
	    write_sysctls(lx, err) < 0 || mask_paths(lx, err) < 0 ||
	    make_paths_readonly(lx, err) < 0 || finish_root(plan, err) < 0)
		return -1;
	return 0;
}
