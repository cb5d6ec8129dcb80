/* What the running kernel offers, probed once per process (docs/design.md "The kernel interfaces
 * that make ctrun itself"). A feature is missing when its syscall fails with ENOSYS (an old
 * kernel) or EPERM (a seccomp profile around ctrun, as container hosts install for clone3);
 * the callers then take the documented fallback. There is no switch to fake an answer: run
 * under tests/helpers/enosys to see the fallbacks. */
#ifndef CT_KERNEL_H
#define CT_KERNEL_H

#include <stdbool.h>

enum ct_kernel_feature {
	CT_KF_CLONE3,
	/* Reported equal to CT_KF_CLONE3: probing it needs a cgroup2 directory fd, and a
	 * kernel with clone3 but without it (5.3 to 5.6) fails the clone3 call with EINVAL, on
	 * which the spawn code falls back to joining the cgroup through cgroup.procs. */
	CT_KF_CLONE_INTO_CGROUP,
	CT_KF_PIDFD_OPEN,
	CT_KF_PIDFD_SEND_SIGNAL,
	CT_KF_OPENAT2,
	/* open_tree, move_mount, fsopen, fsconfig, fsmount: all of them, or it counts as
	 * missing. move_mount, fsopen and fsmount check CAP_SYS_ADMIN before their arguments,
	 * so a process without it over its mount namespace sees this as missing too, which
	 * is the right answer for it. */
	CT_KF_NEW_MOUNT_API,
	CT_KF_MOUNT_SETATTR,
	CT_KF_FCHMODAT2,
	CT_KF_STATMOUNT,
	CT_KF_LISTMOUNT,
	CT_KF_COUNT
};

/* Probes f on first use, with a call that fails on bad arguments and creates nothing, and
 * answers from the cache after that. errno is preserved. Concurrent first calls may probe
 * twice and agree; the cache is inherited across fork(). Unknown f: false. */
bool ct_kernel_has(enum ct_kernel_feature f);

/* "clone3", "fchmodat2", ... (the syscall's name, or the family's); "unknown" when f is out
 * of range. */
const char *ct_kernel_feature_name(enum ct_kernel_feature f);

/* Drops the cache so the next ct_kernel_has() probes again. For tests. */
void ct_kernel_forget(void);

#endif
