#include "libct/state/shared_root.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/fs/fsinfo.h"

#define RECORD_FILE "shared-root"
#define RECORD_MAX  (PATH_MAX + 128)

/* The unique id where the kernel has one, else the reusable one. */
static int root_mount_id(int fd, bool *unique, uint64_t *id, struct ct_error *err)
{
	struct ct_error no_unique;
	*unique = ct_fd_mount_id(fd, true, id, &no_unique) == 0;
	return *unique ? 0 : ct_fd_mount_id(fd, false, id, err);
}

const char *ct_shared_root_joined(const struct oci_config *c)
{
	const struct oci_linux *lx = &c->linux_;
	for (size_t i = 0; i < lx->namespaces.len; i++)
		if (lx->namespaces.items[i].type == OCI_NS_MOUNT)
			return lx->namespaces.items[i].path;
	return NULL;
}

int ct_shared_root_describe(int root, const char *joined_path, struct ct_shared_root *r,
			    struct ct_error *err)
{
	memset(r, 0, sizeof(*r));
	if (root_mount_id(root, &r->unique, &r->mount_id, err) < 0)
		return ct_error_prefix(err, "the rootfs's bind");
	const char *ns_path = joined_path ? joined_path : "/proc/self/ns/mnt";
	struct stat ns;
	if (stat(ns_path, &ns) < 0)
		return ct_error_set(err, errno, "the rootfs's bind: stat \"%s\"", ns_path);
	r->ns_dev = ns.st_dev;
	r->ns_ino = ns.st_ino;
	/* a path the record cannot hold is not kept: the bind is then reached in the caller's
	 * own namespace only */
	if (joined_path && !strchr(joined_path, '\n') && strlen(joined_path) < sizeof(r->joined))
		strcpy(r->joined, joined_path);
	return 0;
}

int ct_shared_root_record(const struct ct_container_dir *d, int root, const char *joined_path,
			  struct ct_error *err)
{
	struct ct_shared_root r;
	char text[RECORD_MAX];
	if (ct_shared_root_describe(root, joined_path, &r, err) < 0)
		return ct_error_prefix(err, "record");
	int n = ct_shared_root_format(&r, text, sizeof(text));
	return ct_state_replace_file(d, RECORD_FILE, text, (size_t)n, err);
}

int ct_shared_root_format(const struct ct_shared_root *r, char *buf, size_t size)
{
	return snprintf(buf, size, "%d %" PRIu64 " %ju %ju\n%s\n", r->unique ? 1 : 0, r->mount_id,
			(uintmax_t)r->ns_dev, (uintmax_t)r->ns_ino, r->joined);
}

/* Digits only (no sign, no space), ended by sep; moves *p past sep. */
static bool take_number(const char **p, char sep, uintmax_t *v)
{
	const char *s = *p;
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long n = strtoull(s, &end, 10);
	if (errno || *end != sep)
		return false;
	*v = n;
	*p = end + 1;
	return true;
}

int ct_shared_root_parse(const char *text, struct ct_shared_root *r)
{
	uintmax_t unique, id, dev, ino;
	memset(r, 0, sizeof(*r));
	if (!take_number(&text, ' ', &unique) || !take_number(&text, ' ', &id) ||
	    !take_number(&text, ' ', &dev) || !take_number(&text, '\n', &ino) || unique > 1)
		return -1;
	const char *end = strchr(text, '\n');
	if (!end || end[1] || (size_t)(end - text) >= sizeof(r->joined))
		return -1;
	memcpy(r->joined, text, (size_t)(end - text));
	r->unique = unique;
	r->mount_id = id;
	r->ns_dev = (dev_t)dev;
	r->ns_ino = (ino_t)ino;
	return r->ns_dev == dev && r->ns_ino == ino ? 0 : -1;
}

/* In the namespace where the bind was made: detached when the mount on top at rootfs is
 * still the recorded one. 0, or -1 with errno. */
static int detach_here(const char *rootfs, const struct ct_shared_root *r)
{
	_cleanup_close_ int fd =
		openat(AT_FDCWD, rootfs, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	uint64_t id;
	struct ct_error err;
	if (ct_fd_mount_id(fd, r->unique, &id, &err) < 0)
		return errno = err.errnum, -1;
	if (id != r->mount_id)
		return 0; /* detached already: what is there now is another's */
	return umount2(rootfs, MNT_DETACH | UMOUNT_NOFOLLOW);
}

static bool same_namespace(const struct stat *st, const struct ct_shared_root *r)
{
	return st->st_dev == r->ns_dev && st->st_ino == r->ns_ino;
}

/* A joined namespace, by its path: in a child, as setns() would change the mount namespace
 * of the whole command. 0 also when the path leads elsewhere now. */
static int detach_in(const char *rootfs, const struct ct_shared_root *r)
{
	_cleanup_close_ int ns = openat(AT_FDCWD, r->joined, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (ns < 0 || fstat(ns, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!same_namespace(&st, r))
		return 0;
	pid_t child = fork();
	if (child < 0)
		return -1;
	if (child == 0)
		_exit(setns(ns, CLONE_NEWNS) < 0 || detach_here(rootfs, r) < 0 ? errno & 0x7f : 0);
	int status;
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	errno = WIFEXITED(status) ? WEXITSTATUS(status) : EINTR;
	return -1;
}

int ct_shared_root_detach(const struct ct_shared_root *r, const char *rootfs, struct ct_error *err)
{
	struct stat own;
	if (stat("/proc/self/ns/mnt", &own) < 0)
		return ct_error_set(err, errno, "stat /proc/self/ns/mnt");
	int rc = 0;
	if (same_namespace(&own, r))
		rc = detach_here(rootfs, r);
	else if (r->joined[0])
		rc = detach_in(rootfs, r);
	if (rc < 0)
		return ct_error_set(err, errno, "detach the rootfs's bind \"%s\"", rootfs);
	return 0;
}

int ct_shared_root_release(const struct ct_container_dir *d, const char *rootfs,
			   struct ct_error *err)
{
	_cleanup_free_ char *text = ct_state_read_file(d, RECORD_FILE, RECORD_MAX, err);
	if (!text)
		return err->errnum == ENOENT ? 0 : -1;
	struct ct_shared_root r;
	if (ct_shared_root_parse(text, &r) < 0)
		return ct_error_set_plain(err, EINVAL, "%s: not a record of ctrun's", RECORD_FILE);
	return ct_shared_root_detach(&r, rootfs, err);
}
