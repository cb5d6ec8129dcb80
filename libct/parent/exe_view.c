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
#include "libct/parent/exe_bind.h"
#include "libct/parent/exe_state.h"

#define SELF_EXE "/proc/self/exe"
#define SEALS	 (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

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

static int copy_whole(int dst, int src, struct ct_error *err)
{
	struct stat st;
	if (fstat(src, &st) < 0)
		return ct_error_sys(err, errno, "fstat %s", SELF_EXE);
	for (off_t left = st.st_size; left > 0;) {
		ssize_t n = sendfile(dst, src, NULL, (size_t)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ct_error_sys(err, n < 0 ? errno : EIO, "copy %s to a memfd",
					    SELF_EXE);
		left -= n;
	}
	return 0;
}

/* View 3: a sealed copy. MFD_EXEC keeps it executable where vm.memfd_noexec would make
 * new memfds non-executable; kernels before 6.3 do not know the flag (EINVAL). */
static int sealed_copy(int self, struct ct_error *err)
{
	unsigned flags = MFD_CLOEXEC | MFD_ALLOW_SEALING;
	_cleanup_close_ int fd = memfd_create("ctrun", flags | MFD_EXEC);
	if (fd < 0 && errno == EINVAL)
		fd = memfd_create("ctrun", flags);
	if (fd < 0)
		return ct_error_sys(err, errno, "memfd_create");
	if (copy_whole(fd, self, err) < 0)
		return -1;
	if (fcntl(fd, F_ADD_SEALS, SEALS) < 0)
		return ct_error_sys(err, errno, "seal the memfd copy of ctrun");
	return steal_fd(&fd);
}

/* A view the caller made: fd when the file is one no container can write, else -1 with
 * err set. The kept view needs none: ct_exe_kept_bind proved it so when it opened it. */
static int proven(int fd, struct ct_error *err)
{
	if (fd < 0 || ct_exe_state_of(fd) != CT_EXE_WRITABLE)
		return fd;
	close(fd);
	return ct_error_plain(err, 0, "the view of ctrun's binary is writable");
}

/* Executes the proven view fd (so the re-executed ctrun finds it safe, and never loops);
 * returns only on failure, err set (as it is already when fd is -1). */
static void exec_view(int fd, char *const argv[], char *const envp[], struct ct_error *err)
{
	if (fd < 0)
		return;
	if (ct_execveat(fd, "", argv, envp, AT_EMPTY_PATH) < 0)
		ct_error_sys(err, errno, "execute the view of ctrun's binary");
	close(fd);
}

int ct_exe_protect(char *const argv[], char *const envp[], const char *kept_dir,
		   struct ct_error *err)
{
	_cleanup_close_ int self = openat(AT_FDCWD, SELF_EXE, O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return ct_error_sys(err, errno, "open %s", SELF_EXE);
	if (ct_exe_state_of(self) != CT_EXE_WRITABLE || out_of_rootless_reach(self))
		return 0;
	struct ct_error kept = {.msg = "no cache directory"}, detached = {0};
	if (kept_dir)
		exec_view(ct_exe_kept_bind(kept_dir, self, &kept), argv, envp, &kept);
	/* No cache directory, a read-only one: the view made for this command alone. */
	exec_view(proven(ct_exe_detached_bind(self, &detached), &detached), argv, envp, &detached);
	/* No mount API (before Linux 5.2, or a seccomp profile), no CAP_SYS_ADMIN (rootless), a
	 * binary without a directory entry: the copy. */
	exec_view(proven(sealed_copy(self, err), err), argv, envp, err);
	return ct_error_prefix(err, "no read-only view of ctrun's binary (kept: %s; detached: %s)",
			       kept.msg, detached.msg);
}
