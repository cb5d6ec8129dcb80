#include "libct/fs/mountfd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/syscalls.h"
#include "libct/fs/fsinfo.h"
#include "libct/fs/safefs.h"

#define MOVE_FLAGS  (MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH)
#define ATIME_FLAGS (MS_NOATIME | MS_NODIRATIME | MS_RELATIME | MS_STRICTATIME)

static enum ct_mount_api api = CT_MOUNT_API_AUTO;
static bool keep_source_flags;

void ct_mount_keep_source_flags(bool on)
{
	keep_source_flags = on;
}

unsigned long ct_mount_lockable_flags(int fd)
{
	struct statvfs sv;
	if (fstatvfs(fd, &sv) < 0)
		return 0;
	return sv.f_flag & (ST_RDONLY | ST_NOSUID | ST_NODEV | ST_NOEXEC);
}

/* What a bind of the mount under fd must keep (ct_mount_keep_source_flags). */
static unsigned long kept_flags(int fd)
{
	return keep_source_flags ? ct_mount_lockable_flags(fd) : 0;
}

enum ct_mount_api ct_mount_api_used(void)
{
	return api;
}

/* The new API is missing (old kernel) or refused (seccomp): use mount(2) from now on. */
static bool new_api_missing(void)
{
	if (errno != ENOSYS && errno != EPERM)
		return false;
	api = CT_MOUNT_API_LEGACY;
	return true;
}

/* The kernel's reasons for a refused fsconfig(), "tmpfs: Unknown parameter 'x'". */
static void append_fs_log(int fsfd, struct ct_error *err)
{
	char buf[512];
	ssize_t n;
	while ((n = read(fsfd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		size_t len = strlen(err->msg);
		if (buf[0] == 'e' && buf[1] == ' ')
			snprintf(err->msg + len, sizeof(err->msg) - len, " (%s)", buf + 2);
	}
}

/* Each "key=value" or "key" of the comma-separated data as one fsconfig() call; a quoted
 * value loses its quotes, which only mount(2)'s data string needs. */
static int configure_data(int fsfd, const char *data)
{
	_cleanup_free_ char *copy = data ? strdup(data) : NULL;
	if (data && !copy)
		return errno = ENOMEM, -1;
	char *cursor = copy;
	for (char *opt; (opt = ct_mount_data_next(&cursor));) {
		char *value = strchr(opt, '=');
		if (value)
			*value++ = '\0';
		size_t n = value ? strlen(value) : 0;
		if (n >= 2 && value[0] == '"' && value[n - 1] == '"') {
			value[n - 1] = '\0';
			value++;
		}
		if (ct_fsconfig(fsfd, value ? FSCONFIG_SET_STRING : FSCONFIG_SET_FLAG, opt, value,
				0) < 0)
			return -1;
	}
	return 0;
}

/* Superblock flags that mount(2) takes with the others. */
static int configure_sb_flags(int fsfd, unsigned long ms)
{
	static const struct {
		unsigned long flag;
		const char *key;
	} sb[] = {{MS_RDONLY, "ro"}, {MS_SYNCHRONOUS, "sync"}, {MS_DIRSYNC, "dirsync"}};
	for (size_t i = 0; i < sizeof(sb) / sizeof(sb[0]); i++)
		if ((ms & sb[i].flag) &&
		    ct_fsconfig(fsfd, FSCONFIG_SET_FLAG, sb[i].key, NULL, 0) < 0)
			return -1;
	return 0;
}

/* A detached mount of a new filesystem, or -1 (err set unless the API is missing). */
static int new_fs_mount(const struct ct_mount_request *rq, struct ct_error *err)
{
	const struct ct_mount_flags *f = rq->flags;
	_cleanup_close_ int fsfd = ct_fsopen(rq->type, FSOPEN_CLOEXEC);
	if (fsfd < 0) {
		if (new_api_missing())
			return -1;
		return ct_error_set(err, errno, "open filesystem \"%s\"", rq->type);
	}
	if ((rq->source && ct_fsconfig(fsfd, FSCONFIG_SET_STRING, "source", rq->source, 0) < 0) ||
	    configure_data(fsfd, f->data) < 0 || configure_sb_flags(fsfd, f->flags) < 0 ||
	    ct_fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		ct_error_set(err, errno, "mount %s", rq->type);
		append_fs_log(fsfd, err);
		return -1;
	}
	int mnt = ct_fsmount(fsfd, FSMOUNT_CLOEXEC, ct_mount_attr_of(f->flags));
	if (mnt < 0)
		return ct_error_set(err, errno, "mount %s", rq->type);
	return mnt;
}

static int setattr(int mnt, bool recursive, unsigned set, unsigned clear, uint64_t propagation)
{
	struct mount_attr a = {.attr_set = set, .attr_clr = clear, .propagation = propagation};
	return ct_mount_setattr(mnt, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), &a,
				sizeof(a));
}

/* What mount_setattr() gives a bind's copy: like mount(2)'s bind remount, the flags given
 * replace the source's, except that the atime mode is kept when none is given (the remount
 * keeps it too). kept: the source's flags a bind in a user namespace must keep. */
static struct mount_attr bind_attr(const struct ct_mount_flags *f, unsigned long kept)
{
	struct mount_attr a = {
		.attr_set = ct_mount_attr_of(f->flags | kept),
		.attr_clr = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			    MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NOSYMFOLLOW,
	};
	if (f->flags & ATIME_FLAGS)
		a.attr_clr |= MOUNT_ATTR_NODIRATIME | MOUNT_ATTR__ATIME;
	return a;
}

static bool no_open_tree_attr;

/* The copy with a applied, in one call (open_tree_attr, Linux 6.15) instead of open_tree and
 * mount_setattr; -1 when the caller must make it in two: the kernel lacks the call (or a
 * seccomp profile refuses it, remembered), or it failed: the two calls then say why. Used
 * once the new API has attached a mount in this process, so that a kernel or filter without
 * move_mount never gets a copy it cannot attach. */
static int open_tree_folded(int dirfd, const char *path, unsigned flags, struct mount_attr *a)
{
	if (no_open_tree_attr || api != CT_MOUNT_API_NEW)
		return -1;
	int tree = ct_open_tree_attr(dirfd, path, flags, a, sizeof(*a));
	if (tree < 0 && (errno == ENOSYS || errno == EPERM))
		no_open_tree_attr = true;
	return tree;
}

/* A detached copy of the bind source with the asked per-mount flags. When rec_done is not
 * NULL, the recursive options may be applied too, with *rec_done set when they were. */
static int new_bind_mount(const struct ct_mount_request *rq, bool *rec_done, struct ct_error *err)
{
	const struct ct_mount_flags *f = rq->flags;
	unsigned flags =
		OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | (f->recursive_bind ? AT_RECURSIVE : 0);
	int dirfd = rq->source_fd >= 0 ? rq->source_fd : AT_FDCWD;
	const char *path = rq->source_fd >= 0 ? "" : rq->source;
	if (rq->source_fd >= 0)
		flags |= AT_EMPTY_PATH;
	/* open_tree_attr applies its attributes to the whole copy of an rbind: the per-mount
	 * flags fold in only for a single mount, the recursive ones only when alone */
	bool fold_flags = f->flags && !f->recursive_bind && !keep_source_flags;
	bool fold_rec = !f->flags && (f->rec_set | f->rec_clear) && rec_done;
	struct mount_attr folded =
		fold_flags ? bind_attr(f, 0)
			   : (struct mount_attr){.attr_set = f->rec_set, .attr_clr = f->rec_clear};
	int tree = fold_flags || fold_rec ? open_tree_folded(dirfd, path, flags, &folded) : -1;
	if (tree >= 0) {
		if (rec_done)
			*rec_done = fold_rec;
		return tree;
	}
	_cleanup_close_ int copy = ct_open_tree(dirfd, path, flags);
	if (copy < 0) {
		if (new_api_missing())
			return -1;
		return ct_error_set(err, errno, "bind \"%s\"", rq->source ? rq->source : "");
	}
	struct mount_attr a = bind_attr(f, f->flags ? kept_flags(copy) : 0);
	if (f->flags && setattr(copy, false, a.attr_set, a.attr_clr, 0) < 0)
		return ct_error_set(err, errno, "set the options of the bind mount");
	return steal_fd(&copy);
}

static int apply_recursive(int mnt, const struct ct_mount_flags *f, struct ct_error *err)
{
	if (!(f->rec_set | f->rec_clear) || setattr(mnt, true, f->rec_set, f->rec_clear, 0) == 0)
		return 0;
	if (errno == ENOSYS)
		return ct_error_set_plain(err, ENOSYS,
					  "recursive mount options need mount_setattr() "
					  "(Linux 5.12), which this kernel lacks");
	return ct_error_set(err, errno, "apply the recursive options");
}

static int apply_propagation(int mnt, const char *fdpath, unsigned long propagation,
			     struct ct_error *err)
{
	if (!propagation)
		return 0;
	unsigned long type = propagation & ~(unsigned long)MS_REC;
	int rc = fdpath ? mount(NULL, fdpath, NULL, propagation, NULL)
			: setattr(mnt, propagation & MS_REC, 0, 0, type);
	return rc < 0 ? ct_error_set(err, errno, "set the propagation") : 0;
}

static int record_id(int mnt, uint64_t *mounted_id, struct ct_error *err)
{
	return mounted_id ? ct_fd_mount_id(mnt, false, mounted_id, err) : 0;
}

/* MOUNT_ATTR_IDMAP goes on the detached mount, before it is attached (mount_setattr(2)).
 * EINVAL is the filesystem's refusal (no FS_ALLOW_IDMAP: proc, sysfs, mqueue, ...). */
static int apply_idmap(int mnt, const struct ct_mount_request *rq, int userns_fd,
		       struct ct_error *err)
{
	struct mount_attr a = {.attr_set = MOUNT_ATTR_IDMAP, .userns_fd = (uint64_t)userns_fd};
	unsigned at = AT_EMPTY_PATH | (rq->flags->ridmap ? AT_RECURSIVE : 0);
	if (ct_mount_setattr(mnt, "", at, &a, sizeof(a)) == 0)
		return 0;
	if (errno == EINVAL && !rq->flags->bind)
		return ct_error_set(err, errno,
				    "id-map the %s mount (%s takes no id-mapped mounts)", rq->type,
				    rq->type);
	if (errno == EINVAL)
		return ct_error_set(err, errno, "id-map the mount (does its filesystem take it?)");
	return ct_error_set(err, errno, "id-map the mount");
}

#define NO_IDMAP_API \
	"an id-mapped mount needs the new mount API (open_tree, mount_setattr: Linux 5.12)"

int ct_mount_idmapped_tree(const struct ct_mount_request *rq, int userns_fd, struct ct_error *err)
{
	_cleanup_close_ int tree =
		rq->flags->bind ? new_bind_mount(rq, NULL, err) : new_fs_mount(rq, err);
	if (tree < 0 && api == CT_MOUNT_API_LEGACY)
		return ct_error_set_plain(err, ENOSYS, NO_IDMAP_API ", which is missing");
	if (tree < 0 || apply_idmap(tree, rq, userns_fd, err) < 0 ||
	    apply_recursive(tree, rq->flags, err) < 0)
		return -1;
	return steal_fd(&tree);
}

/* The parent's id-mapped mount, which has its flags already; attaching it uses it up. */
static int premade_mount(const struct ct_mount_flags *f, struct ct_error *err)
{
	int mnt = fcntl(f->idmap_tree, F_DUPFD_CLOEXEC, 3);
	return mnt >= 0 ? mnt : ct_error_set(err, errno, "take the id-mapped mount");
}

/* The new API is used whole or not at all: mount_setattr (5.12) came after fsopen,
 * open_tree and move_mount (5.2), and a bind's options or a propagation need it. Probed
 * once, with a bad fd: EBADF says it is there. */
static bool have_mount_setattr(void)
{
	struct mount_attr a = {0};
	return ct_mount_setattr(-1, "", AT_EMPTY_PATH, &a, sizeof(a)) == 0 || !new_api_missing();
}

/* 1: mounted; 0: the new API is missing, nothing was done; -1: failed. */
static int mount_new(int target, const struct ct_mount_request *rq, uint64_t *mounted_id,
		     int *mounted_fd, struct ct_error *err)
{
	const struct ct_mount_flags *f = rq->flags;
	if (api == CT_MOUNT_API_AUTO && !have_mount_setattr())
		return 0;
	bool rec_done = false;
	_cleanup_close_ int mnt = f->idmap  ? premade_mount(f, err)
				  : f->bind ? new_bind_mount(rq, &rec_done, err)
					    : new_fs_mount(rq, err);
	if (mnt < 0)
		return api == CT_MOUNT_API_LEGACY && !f->idmap ? 0 : -1;
	if (!f->idmap && !rec_done && apply_recursive(mnt, f, err) < 0)
		return -1;
	if (ct_move_mount(mnt, "", target, "", MOVE_FLAGS) < 0)
		return ct_error_set(err, errno, "attach the mount");
	api = CT_MOUNT_API_NEW;
	if (apply_propagation(mnt, NULL, f->propagation, err) < 0 ||
	    record_id(mnt, mounted_id, err) < 0)
		return -1;
	if (mounted_fd)
		*mounted_fd = steal_fd(&mnt);
	return 1;
}

/* What now sits on target, for the remount and the attributes. An fd of target never
 * crosses into the mount made on it, a lookup does: its last component is looked up from
 * the parent (a symlink there sends us through the root again), and a result still on
 * target's own mount means the path no longer leads to the new one. */
static int open_mounted(int rootfd, const char *dest, int target)
{
	char name[NAME_MAX + 1];
	_cleanup_close_ int parent = ct_root_mkparent(rootfd, dest, name, sizeof(name));
	int fd = parent >= 0 ? openat(parent, name, O_PATH | O_NOFOLLOW | O_CLOEXEC) : -1;
	struct stat st;
	if (fd < 0 || (fstat(fd, &st) == 0 && S_ISLNK(st.st_mode))) {
		if (fd >= 0)
			close(fd);
		fd = ct_root_open(rootfd, dest, false); /* "/", "..", or a symlink */
	}
	uint64_t made, under;
	if (fd >= 0 && ct_fd_mount_id(fd, false, &made, NULL) == 0 &&
	    ct_fd_mount_id(target, false, &under, NULL) == 0 && made == under) {
		close(fd);
		return errno = EXDEV, -1;
	}
	return fd;
}

static int mount_legacy(int rootfd, const char *dest, int target, const struct ct_mount_request *rq,
			uint64_t *mounted_id, int *mounted_fd, struct ct_error *err)
{
	const struct ct_mount_flags *f = rq->flags;
	char on[32], from[32];
	if (f->idmap)
		return ct_error_set_plain(err, ENOSYS, NO_IDMAP_API);
	ct_fd_path(target, on, sizeof(on));
	int rc;
	if (f->bind) {
		const char *src = rq->source_fd >= 0 ? ct_fd_path(rq->source_fd, from, sizeof(from))
						     : rq->source;
		rc = mount(src, on, NULL, MS_BIND | (f->recursive_bind ? MS_REC : 0), NULL);
	} else {
		rc = mount(rq->source ? rq->source : rq->type, on, rq->type, f->flags, f->data);
	}
	if (rc < 0)
		return ct_error_set(err, errno, f->bind ? "bind \"%s\"" : "mount %s",
				    f->bind ? (rq->source ? rq->source : "") : rq->type);
	_cleanup_close_ int mnt = open_mounted(rootfd, dest, target);
	if (mnt < 0)
		return ct_error_set(err, errno, "open the new mount");
	ct_fd_path(mnt, on, sizeof(on));
	if (f->bind && f->flags &&
	    mount(NULL, on, NULL, MS_BIND | MS_REMOUNT | f->flags | kept_flags(mnt), NULL) < 0)
		return ct_error_set(err, errno, "remount the bind with its options");
	if (apply_recursive(mnt, f, err) < 0 ||
	    apply_propagation(-1, on, f->propagation, err) < 0 ||
	    record_id(mnt, mounted_id, err) < 0)
		return -1;
	if (mounted_fd)
		*mounted_fd = steal_fd(&mnt);
	return 0;
}

int ct_mount_at(int rootfd, const char *dest, int target, const struct ct_mount_request *rq,
		uint64_t *mounted_id, int *mounted_fd, struct ct_error *err)
{
	if (api != CT_MOUNT_API_LEGACY) {
		int rc = mount_new(target, rq, mounted_id, mounted_fd, err);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
	}
	return mount_legacy(rootfd, dest, target, rq, mounted_id, mounted_fd, err);
}

int ct_mount_in_root(int rootfd, const char *dest, const struct ct_mount_request *rq,
		     uint64_t *mounted_id, struct ct_error *err)
{
	_cleanup_close_ int target =
		ct_root_mkpath(rootfd, dest, rq->file ? CT_MAKE_FILE : CT_MAKE_DIR);
	if (target < 0)
		return ct_error_set(err, errno, "create mount point");
	return ct_mount_at(rootfd, dest, target, rq, mounted_id, NULL, err);
}

int ct_mount_set_readonly(int rootfd, const char *dest, bool recursive, struct ct_error *err)
{
	_cleanup_close_ int mnt = ct_root_open(rootfd, dest, false);
	if (mnt < 0)
		return ct_error_set(err, errno, "open the mount");
	return ct_mount_fd_set_readonly(mnt, recursive, err);
}

int ct_mount_fd_set_readonly(int mnt, bool recursive, struct ct_error *err)
{
	if (setattr(mnt, recursive, MOUNT_ATTR_RDONLY, 0, 0) == 0)
		return 0;
	if (errno != ENOSYS && errno != EPERM)
		return ct_error_set(err, errno, "make the mount read-only");
	/* MS_BIND with MS_REMOUNT changes the mount, not its filesystem, as mount_setattr does,
	 * but sets all its flags: the ones it has are given again */
	struct statvfs sv;
	if (fstatvfs(mnt, &sv) < 0)
		return ct_error_set(err, errno, "read the flags of the mount");
	unsigned long keep = (sv.f_flag & ST_NOSUID ? MS_NOSUID : 0) |
			     (sv.f_flag & ST_NODEV ? MS_NODEV : 0) |
			     (sv.f_flag & ST_NOEXEC ? MS_NOEXEC : 0) |
			     (sv.f_flag & ST_NOATIME ? MS_NOATIME : 0) |
			     (sv.f_flag & ST_NODIRATIME ? MS_NODIRATIME : 0) |
			     (sv.f_flag & ST_RELATIME ? MS_RELATIME : 0) |
			     (sv.f_flag & ST_NOSYMFOLLOW ? MS_NOSYMFOLLOW : 0);
	char on[32];
	if (mount(NULL, ct_fd_path(mnt, on, sizeof(on)), NULL,
		  MS_BIND | MS_REMOUNT | MS_RDONLY | keep, NULL) < 0)
		return ct_error_set(err, errno, "remount read-only");
	return 0;
}
