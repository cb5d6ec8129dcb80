#include "libct/parent/exe_view.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/fs/fsinfo.h"
#include "libct/base/syscalls.h"

#define SELF_EXE       "/proc/self/exe"
#define REQUIRED_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

static bool sealed_memfd(int fd)
{
	int seals = fcntl(fd, F_GET_SEALS); /* EINVAL for anything but a memfd or shmem */
	return seals >= 0 && (seals & REQUIRED_SEALS) == REQUIRED_SEALS;
}

/* The mount of fd is in this process's mount namespace (statmount looks only there; a
 * detached mount is in none) and read-only, by its flag or its filesystem's. */
static bool attached_read_only_mount(int fd)
{
	struct ct_statx stx = {0};
	if (ct_statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID_UNIQUE, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID_UNIQUE))
		return false;
	struct ct_mnt_id_req req = {.size = MNT_ID_REQ_SIZE_VER0,
				    .mnt_id = stx.stx_mnt_id,
				    .param = STATMOUNT_SB_BASIC | STATMOUNT_MNT_BASIC};
	struct ct_statmount sm;
	if (ct_statmount(&req, &sm, sizeof(sm), 0) < 0)
		return false;
	return (sm.mnt_attr & MOUNT_ATTR_RDONLY) || (sm.sb_flags & CT_SB_RDONLY);
}

enum ct_exe_state ct_exe_state_of(int fd)
{
	if (sealed_memfd(fd))
		return CT_EXE_SEALED_MEMFD;
	struct statfs sfs;
	if (fstatfs(fd, &sfs) < 0 || !(sfs.f_flags & ST_RDONLY))
		return CT_EXE_WRITABLE;
	/* An overlayfs that reads only: the view made below. Read-only by a mount flag alone it
	 * could also be, were it a bind mount of a writable one; but the file ctrun runs from
	 * is chosen by whoever executes ctrun on the host, and no container can hand it one. */
	if ((unsigned long)sfs.f_type == OVERLAYFS_SUPER_MAGIC)
		return CT_EXE_RO_OVERLAY;
	return attached_read_only_mount(fd) ? CT_EXE_RO_MOUNT : CT_EXE_WRITABLE;
}

static bool holds_capabilities(void)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {{0}};
	if (syscall(SYS_capget, &hdr, data) < 0)
		return true;
	return data[0].permitted || data[1].permitted;
}

/* Rootless: ctrun runs as a user without capabilities, so its containers' ids are that
 * user's and the subordinate ids /etc/subuid grants it (newuidmap maps no other), never
 * host root, and their capabilities hold only over their own user namespace, where an
 * inode of an unmapped owner is out of reach. A binary owned by root that no group or
 * other may write (an ACL entry shows in the group bits) is then one no container can
 * write, and needs no copy. */
static bool out_of_rootless_reach(int fd)
{
	struct stat st;
	return geteuid() != 0 && !holds_capabilities() && fstat(fd, &st) == 0 && st.st_uid == 0 &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* A detached, read-only, empty tmpfs: overlayfs without an upper layer wants two lower
 * ones, and the second may not overlap the binary's directory. */
static int empty_layer(struct ct_error *err)
{
	_cleanup_close_ int fs = ct_fsopen("tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return ct_error_set(err, errno, "fsopen tmpfs");
	if (ct_fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return ct_error_set(err, errno, "create tmpfs");
	int mnt = ct_fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_RDONLY);
	if (mnt < 0)
		return ct_error_set(err, errno, "fsmount tmpfs");
	return mnt;
}

/* Both layers in one "lowerdir" option, named by their fds: /proc/self/fd/N has no ':' or
 * ',' to escape, whatever the binary's path holds, and the option is known to every kernel
 * with the mount API (Linux 5.2), where "lowerdir+" needs 6.8. */
static int set_lower_layers(int fs, int top, int bottom, struct ct_error *err)
{
	char layers[64];
	snprintf(layers, sizeof(layers), "/proc/self/fd/%d:/proc/self/fd/%d", top, bottom);
	if (ct_fsconfig(fs, FSCONFIG_SET_STRING, "lowerdir", layers, 0) < 0)
		return ct_error_set(err, errno, "overlayfs lowerdir=%s", layers);
	return 0;
}

/* The overlay of dir (an O_PATH fd of the binary's directory) and an empty layer, mounted
 * detached and read-only; returns the mount's root fd. */
static int read_only_overlay(int dir, struct ct_error *err)
{
	_cleanup_close_ int empty = empty_layer(err);
	if (empty < 0)
		return -1;
	_cleanup_close_ int fs = ct_fsopen("overlay", FSOPEN_CLOEXEC);
	if (fs < 0)
		return ct_error_set(err, errno, "fsopen overlay");
	if (set_lower_layers(fs, dir, empty, err) < 0)
		return -1;
	if (ct_fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return ct_error_set(err, errno, "create overlayfs");
	int mnt = ct_fsmount(fs, FSMOUNT_CLOEXEC,
			     MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOSUID);
	if (mnt < 0)
		return ct_error_set(err, errno, "fsmount overlayfs");
	return mnt;
}

/* View 1: the binary as the overlay of its directory shows it. A binary replaced or
 * removed since it started ("... (deleted)") has no directory entry to show. */
static int overlay_view(struct ct_error *err)
{
	char path[PATH_MAX];
	ssize_t n = readlink(SELF_EXE, path, sizeof(path) - 1);
	if (n < 0)
		return ct_error_set(err, errno, "readlink %s", SELF_EXE);
	path[n] = '\0';
	char *slash = strrchr(path, '/');
	if (!slash || strstr(path, " (deleted)"))
		return ct_error_set(err, ENOENT, "%s is \"%s\"", SELF_EXE, path);
	*slash = '\0';
	_cleanup_close_ int dir =
		openat(AT_FDCWD, *path ? path : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return ct_error_set(err, errno, "open \"%s\"", path);
	_cleanup_close_ int mnt = read_only_overlay(dir, err);
	if (mnt < 0)
		return -1;
	int exe = openat(mnt, slash + 1, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (exe < 0)
		return ct_error_set(err, errno, "open \"%s\" in the overlay", slash + 1);
	return exe;
}

static int copy_whole(int dst, int src, struct ct_error *err)
{
	struct stat st;
	if (fstat(src, &st) < 0)
		return ct_error_set(err, errno, "fstat %s", SELF_EXE);
	for (off_t left = st.st_size; left > 0;) {
		ssize_t n = sendfile(dst, src, NULL, (size_t)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ct_error_set(err, n < 0 ? errno : EIO, "copy %s to a memfd",
					    SELF_EXE);
		left -= n;
	}
	return 0;
}

/* View 2: a sealed copy. MFD_EXEC keeps it executable where vm.memfd_noexec would make
 * new memfds non-executable; kernels before 6.3 do not know the flag (EINVAL). */
static int sealed_copy(struct ct_error *err)
{
	_cleanup_close_ int src = openat(AT_FDCWD, SELF_EXE, O_RDONLY | O_CLOEXEC);
	if (src < 0)
		return ct_error_set(err, errno, "open %s", SELF_EXE);
	unsigned flags = MFD_CLOEXEC | MFD_ALLOW_SEALING;
	_cleanup_close_ int fd = memfd_create("ctrun", flags | MFD_EXEC);
	if (fd < 0 && errno == EINVAL)
		fd = memfd_create("ctrun", flags);
	if (fd < 0)
		return ct_error_set(err, errno, "memfd_create");
	if (copy_whole(fd, src, err) < 0)
		return -1;
	if (fcntl(fd, F_ADD_SEALS, REQUIRED_SEALS) < 0)
		return ct_error_set(err, errno, "seal the memfd copy of ctrun");
	return steal_fd(&fd);
}

/* Executes fd when it is safe (so the re-executed ctrun finds it so, and never loops);
 * returns only on failure: -1 with err set. */
static int exec_view(int fd, char *const argv[], char *const envp[], struct ct_error *err)
{
	if (ct_exe_state_of(fd) == CT_EXE_WRITABLE)
		return ct_error_set(err, 0, "the view of ctrun's binary is writable");
	ct_execveat(fd, "", argv, envp, AT_EMPTY_PATH);
	return ct_error_set(err, errno, "execute the view of ctrun's binary");
}

int ct_exe_protect(char *const argv[], char *const envp[], struct ct_error *err)
{
	{
		_cleanup_close_ int self = openat(AT_FDCWD, SELF_EXE, O_RDONLY | O_CLOEXEC);
		if (self < 0)
			return ct_error_set(err, errno, "open %s", SELF_EXE);
		if (ct_exe_state_of(self) != CT_EXE_WRITABLE || out_of_rootless_reach(self))
			return 0;
	}
	struct ct_error first = {0};
	_cleanup_close_ int view = overlay_view(&first);
	if (view >= 0)
		exec_view(view, argv, envp, &first);
	/* No mount API (before Linux 5.2, or a seccomp profile), no CAP_SYS_ADMIN (rootless), a
	 * binary without a directory entry: the copy. */
	_cleanup_close_ int copy = sealed_copy(err);
	if (copy >= 0)
		exec_view(copy, argv, envp, err);
	return ct_error_prefix(err, "no read-only view of ctrun's binary (overlayfs: %s)",
			       first.msg);
}
