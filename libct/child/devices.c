#include "libct/child/devices.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/fs/mountfd.h"
#include "libct/fs/mountpoint.h"
#include "libct/fs/safefs.h"
#include "libct/plan/mount_expect.h"
#include "libct/verify/mountcheck.h"

/* dev is major << 8 | minor, as makedev() gives for these small numbers */
struct node {
	const char *path; /* in the container, also the host node to bind when mknod fails */
	mode_t type, mode;
	dev_t dev;
	uid_t uid;
	gid_t gid;
};

static const struct node default_nodes[] = {
	{"/dev/null", S_IFCHR, 0666, 0x103, 0, 0},    {"/dev/zero", S_IFCHR, 0666, 0x105, 0, 0},
	{"/dev/full", S_IFCHR, 0666, 0x107, 0, 0},    {"/dev/random", S_IFCHR, 0666, 0x108, 0, 0},
	{"/dev/urandom", S_IFCHR, 0666, 0x109, 0, 0}, {"/dev/tty", S_IFCHR, 0666, 0x500, 0, 0},
};
#define N_DEFAULT_NODES (sizeof(default_nodes) / sizeof(default_nodes[0]))

static size_t n_default_nodes(const struct ct_plan_rootfs *fs)
{
	return fs->default_devices ? N_DEFAULT_NODES : 0;
}

size_t ct_devices_count(const struct ct_plan_rootfs *fs)
{
	return n_default_nodes(fs) + fs->lx->devices.len;
}

const char *ct_devices_path(const struct ct_plan_rootfs *fs, size_t i)
{
	size_t n = n_default_nodes(fs);
	return i < n ? default_nodes[i].path : fs->lx->devices.items[i - n].path;
}

/* An empty file with the host's node bound on it: mknod is not allowed here. Node i's bind is
 * recorded for the mount check like any mount ctrun makes. */
static int bind_host_node(struct ct_plan_verify *v, size_t i, struct ct_mountpoints *mp,
			  const struct node *n, struct ct_error *err)
{
	/* the host's node is what gets bound: it must be the device asked for */
	_cleanup_close_ int host = openat(AT_FDCWD, n->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (host < 0 || fstat(host, &st) < 0)
		return ct_error_sys(err, errno, "open the host's \"%s\"", n->path);
	if ((st.st_mode & S_IFMT) != n->type || st.st_rdev != n->dev)
		return ct_error_plain(err, ENODEV,
				      "the host's \"%s\" is not the device asked for (%u:%u)",
				      n->path, major(n->dev), minor(n->dev));
	struct ct_mount_flags flags = {.bind = true};
	struct ct_mount_request rq = {
		.source = n->path, .source_fd = host, .flags = &flags, .file = true};
	ct_expect_bind_source(v, v->expect_devices + i, &st);
	return ct_mountpoint_mount(mp, n->path, &rq, ct_expect_id(v, v->expect_devices + i), NULL,
				   err);
}

#define REPLACE_FAILED (-2)

/* mknodat on its own first, as a fresh /dev tmpfs has nothing there; what the image holds at
 * the name (a file, a symlink to a host file) is removed and the node made again. 0, -1 with
 * errno from mknodat, REPLACE_FAILED with errno from the removal. */
static int mknod_replacing(int dir, const char *name, const struct node *n)
{
	mode_t mode = n->type | (n->mode & 0777);
	if (mknodat(dir, name, mode, n->dev) == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	if (unlinkat(dir, name, 0) < 0)
		return REPLACE_FAILED;
	return mknodat(dir, name, mode, n->dev);
}

/* In a fresh /dev tmpfs (libct/fs/mountpoint.h) the node just made is the one named: its
 * owner is set by name, and its mode is right as made (the umask is 0 here, and a fresh
 * tmpfs has no default ACL). Elsewhere both go through an fd of the node. */
static int set_owner_and_mode(int dir, const char *name, const struct node *n, bool fresh)
{
	if (fresh)
		return fchownat(dir, name, n->uid, n->gid, AT_SYMLINK_NOFOLLOW);
	_cleanup_close_ int fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || ct_fd_chmod(fd, n->mode) < 0 || ct_fd_chown(fd, n->uid, n->gid) < 0)
		return -1;
	return 0;
}

/* *bound_from_host: nodes are bound from the host, not made. It starts as the plan says (a
 * user namespace, as runc binds there) and turns on once mknod is refused outside one (a
 * seccomp filter, a device cgroup), so that every node is then bound alike. */
static int make_node(struct ct_plan_verify *v, size_t i, struct ct_mountpoints *mp,
		     const struct node *n, bool *bound_from_host, struct ct_error *err)
{
	char name[NAME_MAX + 1];
	_cleanup_close_ int owned = -1;
	bool fresh;
	int dir = ct_mountpoint_parent(mp, n->path, name, sizeof(name), &owned, &fresh);
	if (dir < 0)
		return ct_error_sys(err, errno, "create device \"%s\"", n->path);
	int made = mknod_replacing(dir, name, n);
	/* EBUSY: a mount point there, a config's mount or a node bound a moment ago (a user
	 * namespace whose config lists /dev/null too). Where nodes can be made it stands, as
	 * runc's and crun's mknod finds it and leaves it; where they are bound, the node is
	 * bound over it, as runc binds every node in a user namespace. */
	if (made == REPLACE_FAILED && errno == EBUSY && !*bound_from_host)
		return 0;
	if (made == REPLACE_FAILED && errno != EBUSY)
		return ct_error_sys(err, errno, "replace \"%s\" with a device", n->path);
	if (made < 0) {
		*bound_from_host |= errno == EPERM;
		if ((errno == EPERM || errno == EBUSY) && n->type != S_IFIFO)
			return bind_host_node(v, i, mp, n, err) < 0
				       ? ct_error_prefix(err, "bind device \"%s\"", n->path)
				       : 0;
		return ct_error_sys(err, errno, "create device \"%s\"", n->path);
	}
	if (set_owner_and_mode(dir, name, n, fresh) < 0)
		return ct_error_sys(err, errno, "set mode and owner of device \"%s\"", n->path);
	return 0;
}

/* /dev: the fresh tmpfs ctrun mounted, or the image's directory (its fd then in *owned). */
static int open_dev(struct ct_mountpoints *mp, int *owned)
{
	int dev = ct_mountpoint_fresh_dir(mp, "/dev");
	return dev >= 0 ? dev : (*owned = ct_root_open(mp->rootfd, "/dev", false));
}

static int create_default_devices(struct ct_plan_verify *v, struct ct_mountpoints *mp,
				  bool *bound_from_host, struct ct_error *err)
{
	static const char *const links[][2] = {
		{"/proc/self/fd", "fd"},
		{"/proc/self/fd/0", "stdin"},
		{"/proc/self/fd/1", "stdout"},
		{"/proc/self/fd/2", "stderr"},
	};
	for (size_t i = 0; i < N_DEFAULT_NODES; i++)
		if (make_node(v, i, mp, &default_nodes[i], bound_from_host, err) < 0)
			return -1;
	_cleanup_close_ int owned = -1;
	int dev = open_dev(mp, &owned);
	if (dev < 0)
		return ct_error_sys(err, errno, "open /dev");
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlinkat(links[i][0], dev, links[i][1]) < 0 && errno != EEXIST)
			return ct_error_sys(err, errno, "create symlink \"/dev/%s\"", links[i][1]);
	/* core only where the kernel has /proc/kcore, as config-linux.md says */
	if (access("/proc/kcore", F_OK) == 0 && symlinkat("/proc/kcore", dev, "core") < 0 &&
	    errno != EEXIST)
		return ct_error_sys(err, errno, "create symlink \"/dev/core\"");
	return 0;
}

/* config-linux.md#default-devices: /dev/ptmx is the symlink pts/ptmx, to the ptmx of the
 * container's devpts, whatever the image or linux.devices put there (runc replaces it too). */
static int link_ptmx(struct ct_mountpoints *mp, struct ct_error *err)
{
	_cleanup_close_ int owned = -1;
	int dev = open_dev(mp, &owned);
	if (dev < 0)
		return ct_error_sys(err, errno, "open /dev");
	if (unlinkat(dev, "ptmx", 0) < 0 && errno != ENOENT)
		return ct_error_sys(err, errno, "replace \"/dev/ptmx\" with a symlink");
	if (symlinkat("pts/ptmx", dev, "ptmx") < 0)
		return ct_error_sys(err, errno, "create symlink \"/dev/ptmx\"");
	return 0;
}

/* A linux.devices entry for /dev/ptmx (privileged Podman and containerd configs copy the
 * host's) is not made where link_ptmx() puts the symlink: a node, or the host's bound where
 * mknod is refused, would be replaced, or reach the host's ptys. */
static bool is_ptmx(const struct ct_plan_rootfs *fs, const char *path)
{
	char normal[PATH_MAX];
	ct_path_normalize(path, normal, sizeof(normal));
	return fs->default_devices && strcmp(normal, "/dev/ptmx") == 0;
}

/* Whether an entry before i names the same path: the first one made stands, as under runc
 * and crun, whose mknod of the later one finds it there. */
static bool listed_before(const struct oci_linux *lx, size_t i)
{
	char normal[PATH_MAX], earlier[PATH_MAX];
	ct_path_normalize(lx->devices.items[i].path, normal, sizeof(normal));
	for (size_t j = 0; j < i; j++) {
		ct_path_normalize(lx->devices.items[j].path, earlier, sizeof(earlier));
		if (strcmp(normal, earlier) == 0)
			return true;
	}
	return false;
}

static int create_devices(const struct ct_plan_rootfs *fs, struct ct_plan_verify *v,
			  struct ct_mountpoints *mp, struct ct_error *err)
{
	bool bound_from_host = fs->bind_nodes;
	if (fs->default_devices && create_default_devices(v, mp, &bound_from_host, err) < 0)
		return -1;
	const struct oci_linux *lx = fs->lx;
	for (size_t i = 0; i < lx->devices.len; i++) {
		const struct oci_device *d = &lx->devices.items[i];
		if (is_ptmx(fs, d->path) || listed_before(lx, i))
			continue;
		struct node n = {
			.path = d->path,
			.type = oci_device_file_type(d->type),
			/* the type bits a fileMode may carry are .type's (oci/config.c) */
			.mode = d->has_file_mode ? d->file_mode & 0777 : 0666,
			.dev = makedev(d->major, d->minor),
			.uid = d->has_uid ? d->uid : 0,
			.gid = d->has_gid ? d->gid : 0,
		};
		if (make_node(v, n_default_nodes(fs) + i, mp, &n, &bound_from_host, err) < 0)
			return -1;
	}
	return fs->default_devices ? link_ptmx(mp, err) : 0;
}

/* The modes are made as asked, not cut by the umask the caller left us. */
int ct_devices_create(const struct ct_plan_rootfs *fs, struct ct_plan_verify *v,
		      struct ct_mountpoints *mp, struct ct_error *err)
{
	mode_t umask_was = umask(0);
	int rc = create_devices(fs, v, mp, err);
	umask(umask_was);
	return rc;
}
