/* linux.rootfsPropagation at the namespace's start (see propagation.h). */
#include "libct/child/propagation.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/fs/fsinfo.h"

static int mount_id_of(const char *path, uint64_t *id, struct ct_error *err)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return ct_error_sys(err, errno, "open \"%s\"", path);
	int rc = ct_fd_mount_id(fd, false, id, err);
	close(fd);
	return rc;
}

/* The mount point of the mount path is on: the highest of path and its parents on the same
 * mount (path is canonical). */
static int mount_point_of(const char *path, char *point, size_t size, struct ct_error *err)
{
	uint64_t want, id;
	if (strlen(path) >= size)
		return ct_error_plain(err, ENAMETOOLONG, "rootfs \"%s\": path too long", path);
	strcpy(point, path);
	if (mount_id_of(point, &want, err) < 0)
		return -1;
	char parent[PATH_MAX];
	while (strcmp(point, "/") != 0) {
		strcpy(parent, point);
		char *slash = strrchr(parent, '/');
		slash[slash == parent ? 1 : 0] = '\0';
		if (mount_id_of(parent, &id, err) < 0)
			return -1;
		if (id != want)
			break;
		strcpy(point, parent);
	}
	return 0;
}

bool ct_propagation_shared(const struct oci_linux *lx)
{
	return lx->has_rootfs_propagation && (lx->rootfs_propagation == OCI_PROP_SHARED ||
					      lx->rootfs_propagation == OCI_PROP_RSHARED);
}

int ct_cut_propagation(const struct oci_linux *lx, const char *rootfs, struct ct_error *err)
{
	bool shared = ct_propagation_shared(lx);
	bool private = lx->has_rootfs_propagation && lx->rootfs_propagation == OCI_PROP_RPRIVATE;
	unsigned long host_side = shared ? MS_SHARED : private ? MS_PRIVATE : MS_SLAVE;
	/* "shared" is the root's alone, as runc 1.1.5 applies it: the namespace's other mounts
	 * keep what they were given from the host's */
	bool recursive = !(lx->has_rootfs_propagation && lx->rootfs_propagation == OCI_PROP_SHARED);
	if (mount(NULL, "/", NULL, (recursive ? MS_REC : 0) | host_side, NULL) < 0)
		return ct_error_sys(err, errno, "make / %s%s", recursive ? "a recursive " : "",
				    shared ? "shared" : private ? "private" : "slave");
	if (!shared)
		return 0;
	char point[PATH_MAX];
	if (mount_point_of(rootfs, point, sizeof(point), err) < 0)
		return ct_error_prefix(err, "find the mount of rootfs \"%s\"", rootfs);
	if (mount(NULL, point, NULL, MS_PRIVATE, NULL) < 0)
		return ct_error_sys(err, errno, "make \"%s\", the mount of the rootfs, private", point);
	return 0;
}

/* The old root, a slave of nothing when the namespace was cut (slave or private), is still
 * in the host's peer groups when it was kept shared: then it is made a recursive slave
 * first, from a cwd on it (the new root lies below it), so that its detach stays ours. */
int ct_pivot_root_here(bool shared, const char *rootfs, struct ct_error *err)
{
	_cleanup_close_ int old_root = shared ? open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (shared && old_root < 0)
		return ct_error_sys(err, errno, "open the old root");
	/* pivot_root(".", ".") stacks the old root on the new one; detach it at once */
	if (syscall(SYS_pivot_root, ".", ".") < 0)
		return ct_error_sys(err, errno, "pivot_root to \"%s\"", rootfs);
	if (shared && fchdir(old_root) < 0)
		return ct_error_sys(err, errno, "chdir to the old root");
	if (shared && mount(NULL, ".", NULL, MS_SLAVE | MS_REC, NULL) < 0)
		return ct_error_sys(err, errno, "make the old root a recursive slave");
	if (umount2(".", MNT_DETACH) < 0)
		return ct_error_sys(err, errno, "detach the old root");
	return 0;
}

int ct_move_root_here(bool shared, struct ct_error *err)
{
	/* the namespace's root is still the host's peer where the rootfs has a mount of its own */
	if (shared && mount(NULL, "/", NULL, MS_PRIVATE, NULL) < 0)
		return ct_error_sys(err, errno, "make / private before the rootfs moves onto it");
	if (mount(".", "/", NULL, MS_MOVE, NULL) < 0)
		return ct_error_sys(err, errno, "move rootfs to /");
	return 0;
}
