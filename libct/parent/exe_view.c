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
#include "libct/base/syscalls.h"

#define SELF_EXE       "/proc/self/exe"
#define REQUIRED_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

static bool sealed_memfd(int fd)
{
	int seals = fcntl(fd, F_GET_SEALS); /* EINVAL for anything but a memfd or shmem */
	return seals >= 0 && (seals & REQUIRED_SEALS) == REQUIRED_SEALS;
}

/* statfs reports ST_RDONLY for a read-only mount flag and a read-only superblock alike.
 * Attached in ctrun's mount namespace, the mount is one no container can change: a
 * container cannot reach a mount of another namespace (mount_setattr and remount answer
 * EINVAL), and making the filesystem writable again takes CAP_SYS_ADMIN in the host's user
 * namespace, which a container holding it has anyway. Detached, it is view 1 after the
 * re-exec: the fd that made it was closed by that execve, which unmounted the copy for
 * good, so no one can change its flags any more (mount_setattr answers EINVAL, from any user
 * namespace). A read-only mount of yet another namespace is possible only when whoever
 * executes ctrun on the host picks such a file: no container can hand it one. */
enum ct_exe_state ct_exe_state_of(int fd)
{
	if (sealed_memfd(fd))
		return CT_EXE_SEALED_MEMFD;
	struct statfs sfs;
	if (fstatfs(fd, &sfs) < 0 || !(sfs.f_flags & ST_RDONLY))
		return CT_EXE_WRITABLE;
	return CT_EXE_READ_ONLY_MOUNT;
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

/* View 1: a detached bind mount of the binary alone, read-only. The copy is made in one
 * call where the kernel has open_tree_attr (Linux 6.15), else in two. */
static int bind_view(struct ct_error *err)
{
	struct mount_attr ro = {.attr_set =
					MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV};
	unsigned flags = OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC;
	int tree = ct_open_tree_attr(AT_FDCWD, SELF_EXE, flags, &ro, sizeof(ro));
	if (tree >= 0 || (errno != ENOSYS && errno != EINVAL && errno != E2BIG))
		return tree >= 0 ? tree : ct_error_set(err, errno, "open_tree_attr %s", SELF_EXE);
	_cleanup_close_ int copy = ct_open_tree(AT_FDCWD, SELF_EXE, flags);
	if (copy < 0)
		return ct_error_set(err, errno, "open_tree %s", SELF_EXE);
	if (ct_mount_setattr(copy, "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0)
		return ct_error_set(err, errno, "make the bind of %s read-only", SELF_EXE);
	return steal_fd(&copy);
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
	_cleanup_close_ int view = bind_view(&first);
	if (view >= 0)
		exec_view(view, argv, envp, &first);
	/* No mount API (before Linux 5.2, or a seccomp profile), no CAP_SYS_ADMIN (rootless), a
	 * binary without a directory entry: the copy. */
	_cleanup_close_ int copy = sealed_copy(err);
	if (copy >= 0)
		exec_view(copy, argv, envp, err);
	return ct_error_prefix(err, "no read-only view of ctrun's binary (bind mount: %s)",
			       first.msg);
}
