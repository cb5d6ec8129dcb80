/* linux.rootfsPropagation at the namespace's start (see propagation.h). */
#include "libct/child/propagation.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

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

int ct_cut_propagation(const struct oci_linux *lx, const char *rootfs, struct ct_error *err)
{
	enum oci_propagation p = lx->has_rootfs_propagation ? lx->rootfs_propagation : OCI_PROP_RSLAVE;
	bool shared = p == OCI_PROP_SHARED || p == OCI_PROP_RSHARED;
	unsigned long host_side = shared ? MS_SHARED : p == OCI_PROP_RPRIVATE ? MS_PRIVATE : MS_SLAVE;
	if (mount(NULL, "/", NULL, MS_REC | host_side, NULL) < 0)
		return ct_error_sys(err, errno, "make / a recursive %s",
				    shared ? "shared" : host_side == MS_PRIVATE ? "private" : "slave");
	if (!shared)
		return 0;
	char point[PATH_MAX];
	if (mount_point_of(rootfs, point, sizeof(point), err) < 0)
		return ct_error_prefix(err, "find the mount of rootfs \"%s\"", rootfs);
	if (mount(NULL, point, NULL, MS_PRIVATE, NULL) < 0)
		return ct_error_sys(err, errno, "make \"%s\", the mount of the rootfs, private", point);
	return 0;
}

int ct_detach_old_root(int old_root, struct ct_error *err)
{
	/* "." must be the old root itself: the new root's mount lies below it */
	if (fchdir(old_root) < 0)
		return ct_error_sys(err, errno, "chdir to the old root");
	if (mount(NULL, ".", NULL, MS_SLAVE | MS_REC, NULL) < 0)
		return ct_error_sys(err, errno, "make the old root a recursive slave");
	if (umount2(".", MNT_DETACH) < 0)
		return ct_error_sys(err, errno, "detach the old root");
	return 0;
}
