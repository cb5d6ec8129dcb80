/* Probe-once kernel feature checks. Each probe makes its syscall with arguments the kernel
 * rejects before doing anything (a size below the first published struct, fd -1, a NULL
 * request), so a present syscall answers EINVAL, EBADF or EFAULT and nothing is created.
 * Only ENOSYS and EPERM mean missing: those are what old kernels and seccomp profiles
 * return, and every probe below is chosen so that a kernel that has the call cannot return
 * them (except the capability checks noted for the new mount API in kernel.h). */
#include "libct/base/kernel.h"

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

#include "libct/base/syscalls.h"

enum probe_state {
	PROBE_UNKNOWN = 0, /* zero, so the static cache starts unknown */
	PROBE_PRESENT,
	PROBE_MISSING,
};

static int probe_cache[CT_KF_COUNT];

/* r is a syscall's return value; errno is its error when r < 0. */
static bool syscall_exists(long r)
{
	return r >= 0 || (errno != ENOSYS && errno != EPERM);
}

static bool probe_clone3(void)
{
	/* A size below CLONE_ARGS_SIZE_VER0 is refused before any copy: EINVAL. */
	return syscall_exists(ct_clone3(NULL, 0));
}

static bool probe_pidfd_open(void)
{
	int fd = ct_pidfd_open(getpid(), 0);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	return syscall_exists(fd);
}

static bool probe_pidfd_send_signal(void)
{
	/* Signal 0 to fd -1: EBADF. */
	return syscall_exists(ct_pidfd_send_signal(-1, 0, NULL, 0));
}

static bool probe_openat2(void)
{
	/* A size below OPEN_HOW_SIZE_VER0: EINVAL before the path is looked at. */
	return syscall_exists(ct_openat2(AT_FDCWD, "", NULL, 0));
}

static bool probe_new_mount_api(void)
{
	/* Each fails on fd -1 (EBADF/EINVAL) or a NULL name (EFAULT). */
	return syscall_exists(ct_open_tree(-1, "", AT_EMPTY_PATH)) &&
	       syscall_exists(ct_move_mount(-1, "", -1, "",
					    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH)) &&
	       syscall_exists(ct_fsopen(NULL, 0)) &&
	       syscall_exists(ct_fsconfig(-1, FSCONFIG_SET_FLAG, NULL, NULL, 0)) &&
	       syscall_exists(ct_fsmount(-1, 0, 0));
}

static bool probe_mount_setattr(void)
{
	/* A size below MOUNT_ATTR_SIZE_VER0 is refused before the CAP_SYS_ADMIN check. */
	return syscall_exists(ct_mount_setattr(-1, "", AT_EMPTY_PATH, NULL, 0));
}

static bool probe_fchmodat2(void)
{
	/* The fd -1 itself, by AT_EMPTY_PATH: EBADF. */
	return syscall_exists(ct_fchmodat2(-1, "", 0, AT_EMPTY_PATH));
}

static bool probe_statmount(void)
{
	/* Reading the request's size from NULL: EFAULT. */
	struct ct_statmount buf;
	return syscall_exists(ct_statmount(NULL, &buf, sizeof(buf), 0));
}

static bool probe_listmount(void)
{
	uint64_t id;
	return syscall_exists(ct_listmount(NULL, &id, 1, 0));
}

static const struct feature {
	const char *name;
	bool (*probe)(void);
} features[CT_KF_COUNT] = {
	[CT_KF_CLONE3] = {"clone3", probe_clone3},
	[CT_KF_CLONE_INTO_CGROUP] = {"clone_into_cgroup", probe_clone3},
	[CT_KF_PIDFD_OPEN] = {"pidfd_open", probe_pidfd_open},
	[CT_KF_PIDFD_SEND_SIGNAL] = {"pidfd_send_signal", probe_pidfd_send_signal},
	[CT_KF_OPENAT2] = {"openat2", probe_openat2},
	[CT_KF_NEW_MOUNT_API] = {"new_mount_api", probe_new_mount_api},
	[CT_KF_MOUNT_SETATTR] = {"mount_setattr", probe_mount_setattr},
	[CT_KF_FCHMODAT2] = {"fchmodat2", probe_fchmodat2},
	[CT_KF_STATMOUNT] = {"statmount", probe_statmount},
	[CT_KF_LISTMOUNT] = {"listmount", probe_listmount},
};

static bool valid_feature(enum ct_kernel_feature f)
{
	return (unsigned int)f < (unsigned int)CT_KF_COUNT;
}

bool ct_kernel_has(enum ct_kernel_feature f)
{
	if (!valid_feature(f))
		return false;

	int state = __atomic_load_n(&probe_cache[f], __ATOMIC_RELAXED);
	if (state == PROBE_UNKNOWN) {
		int saved_errno = errno;
		state = features[f].probe() ? PROBE_PRESENT : PROBE_MISSING;
		errno = saved_errno;
		__atomic_store_n(&probe_cache[f], state, __ATOMIC_RELAXED);
	}
	return state == PROBE_PRESENT;
}

const char *ct_kernel_feature_name(enum ct_kernel_feature f)
{
	return valid_feature(f) ? features[f].name : "unknown";
}

void ct_kernel_forget(void)
{
	for (int f = 0; f < CT_KF_COUNT; f++)
		__atomic_store_n(&probe_cache[f], PROBE_UNKNOWN, __ATOMIC_RELAXED);
}
