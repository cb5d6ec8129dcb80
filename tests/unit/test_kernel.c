/* libct/base/kernel.c's probe-once feature checks and the libct/base/syscalls.h definitions they
 * rest on. Criterion runs each test in its own process, so a test may install a seccomp filter to
 * make a syscall look missing: it dies with that process. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "libct/base/cleanup.h"
#include "libct/base/kernel.h"
#include "libct/base/syscalls.h"
#include "tests/unit/block_syscall.h"

/* This machine runs 6.18, which has every feature. An older kernel may lack the newer ones:
 * that is a skip naming the feature, not a failure. clone3 and pidfd_open (5.3) are the
 * floor ctrun supports, so their absence fails. */
static void expect_present(enum ct_kernel_feature f, bool required)
{
	bool has = ct_kernel_has(f);
	if (!has && !required)
		cr_skip("this kernel lacks %s", ct_kernel_feature_name(f));
	cr_assert(has, "%s is missing; ctrun needs Linux >= 5.3", ct_kernel_feature_name(f));
}

#define FEATURE_PRESENT_TEST(test_name, feature, required) \
	Test(kernel_present, test_name)                    \
	{                                                  \
		expect_present(feature, required);         \
	}

FEATURE_PRESENT_TEST(clone3, CT_KF_CLONE3, true)
FEATURE_PRESENT_TEST(pidfd_open, CT_KF_PIDFD_OPEN, true)
FEATURE_PRESENT_TEST(pidfd_send_signal, CT_KF_PIDFD_SEND_SIGNAL, false)
FEATURE_PRESENT_TEST(clone_into_cgroup, CT_KF_CLONE_INTO_CGROUP, false)
FEATURE_PRESENT_TEST(openat2, CT_KF_OPENAT2, false)
FEATURE_PRESENT_TEST(new_mount_api, CT_KF_NEW_MOUNT_API, false)
FEATURE_PRESENT_TEST(mount_setattr, CT_KF_MOUNT_SETATTR, false)
FEATURE_PRESENT_TEST(fchmodat2, CT_KF_FCHMODAT2, false)
FEATURE_PRESENT_TEST(statmount, CT_KF_STATMOUNT, false)
FEATURE_PRESENT_TEST(listmount, CT_KF_LISTMOUNT, false)

Test(kernel_probe, clone_into_cgroup_follows_clone3)
{
	cr_assert_eq(ct_kernel_has(CT_KF_CLONE_INTO_CGROUP), ct_kernel_has(CT_KF_CLONE3));
}

Test(kernel_probe, second_answer_equals_first)
{
	bool first[CT_KF_COUNT];
	for (int f = 0; f < CT_KF_COUNT; f++)
		first[f] = ct_kernel_has(f);
	for (int f = 0; f < CT_KF_COUNT; f++)
		cr_expect_eq(ct_kernel_has(f), first[f], "%s changed", ct_kernel_feature_name(f));
}

/* The answer is remembered: a filter installed after the first probe does not change it,
 * and only ct_kernel_forget() makes the next call look again. */
Test(kernel_probe, probes_once_until_forgotten)
{
	if (!ct_kernel_has(CT_KF_FCHMODAT2))
		cr_skip("this kernel lacks fchmodat2");
	bool statmount_before = ct_kernel_has(CT_KF_STATMOUNT);

	block_syscall(__NR_fchmodat2, ENOSYS);
	cr_assert_eq(ct_fchmodat2(-1, "", 0, AT_EMPTY_PATH), -1);
	cr_assert_eq(errno, ENOSYS, "the filter is not in place");

	cr_expect(ct_kernel_has(CT_KF_FCHMODAT2), "probed again without ct_kernel_forget()");
	ct_kernel_forget();
	cr_expect_not(ct_kernel_has(CT_KF_FCHMODAT2), "ENOSYS not seen as missing");
	cr_expect_eq(ct_kernel_has(CT_KF_STATMOUNT), statmount_before,
		     "an unrelated feature changed");
}

/* Container hosts' seccomp profiles often answer EPERM rather than ENOSYS. */
Test(kernel_probe, eperm_from_seccomp_counts_as_missing)
{
	cr_assert(ct_kernel_has(CT_KF_CLONE3), "clone3 is missing before any filter");

	block_syscall(__NR_clone3, EPERM);
	ct_kernel_forget();
	cr_expect_not(ct_kernel_has(CT_KF_CLONE3));
	cr_expect_not(ct_kernel_has(CT_KF_CLONE_INTO_CGROUP));
	cr_expect(ct_kernel_has(CT_KF_PIDFD_OPEN));
}

Test(kernel_probe, every_family_member_is_needed_for_new_mount_api)
{
	if (!ct_kernel_has(CT_KF_NEW_MOUNT_API))
		cr_skip("this kernel (or this process's privilege) lacks the new mount API");

	block_syscall(__NR_fsmount, ENOSYS);
	ct_kernel_forget();
	cr_expect_not(ct_kernel_has(CT_KF_NEW_MOUNT_API));
	cr_expect_eq(ct_kernel_has(CT_KF_MOUNT_SETATTR), true);
}

Test(kernel_probe, keeps_errno)
{
	ct_kernel_forget();
	for (int f = 0; f < CT_KF_COUNT; f++) {
		errno = EXDEV;
		(void)ct_kernel_has(f);
		cr_expect_eq(errno, EXDEV, "probing %s changed errno", ct_kernel_feature_name(f));
	}
}

Test(kernel_names, are_unique_and_not_empty)
{
	for (int f = 0; f < CT_KF_COUNT; f++) {
		const char *name = ct_kernel_feature_name(f);
		cr_assert_not_null(name);
		cr_assert_neq(name[0], '\0', "feature %d has no name", f);
		cr_assert_str_neq(name, "unknown", "feature %d has no name", f);
		for (int g = 0; g < f; g++)
			cr_expect_str_neq(name, ct_kernel_feature_name(g), "%d and %d share a name",
					  f, g);
	}
}

Test(kernel_names, name_the_syscall)
{
	cr_expect_str_eq(ct_kernel_feature_name(CT_KF_CLONE3), "clone3");
	cr_expect_str_eq(ct_kernel_feature_name(CT_KF_FCHMODAT2), "fchmodat2");
	cr_expect_str_eq(ct_kernel_feature_name(CT_KF_STATMOUNT), "statmount");
	cr_expect_str_eq(ct_kernel_feature_name(CT_KF_LISTMOUNT), "listmount");
}

Test(kernel_names, out_of_range_is_unknown_and_missing)
{
	cr_expect_str_eq(ct_kernel_feature_name(CT_KF_COUNT), "unknown");
	cr_expect_str_eq(ct_kernel_feature_name((enum ct_kernel_feature) - 1), "unknown");
	cr_expect_not(ct_kernel_has(CT_KF_COUNT));
	cr_expect_not(ct_kernel_has((enum ct_kernel_feature) - 1));
}

/* ---- libct/base/syscalls.h against the running kernel: numbers, flags and layouts ----- */

Test(syscalls, clone3_with_pidfd_spawns_and_waits)
{
	int pidfd = -1;
	struct clone_args args = {
		.flags = CLONE_PIDFD,
		.pidfd = (uint64_t)(uintptr_t)&pidfd,
		.exit_signal = SIGCHLD,
	};
	pid_t pid = ct_clone3(&args, sizeof(args));
	cr_assert_geq(pid, 0, "clone3: %s", strerror(errno));
	if (pid == 0)
		_exit(7);

	_cleanup_close_ int fd = pidfd;
	cr_assert_geq(fd, 0);
	siginfo_t info = {0};
	cr_assert_eq(waitid(P_PIDFD, (id_t)fd, &info, WEXITED), 0, "waitid: %s", strerror(errno));
	cr_expect_eq(info.si_pid, pid);
	cr_expect_eq(info.si_code, CLD_EXITED);
	cr_expect_eq(info.si_status, 7);
}

Test(syscalls, pidfd_send_signal_reaches_the_process)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	_cleanup_close_ int fd = ct_pidfd_open(pid, 0);
	cr_assert_geq(fd, 0, "pidfd_open: %s", strerror(errno));
	cr_assert_eq(ct_pidfd_send_signal(fd, SIGKILL, NULL, 0), 0);
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* RESOLVE_IN_ROOT keeps an absolute symlink inside the directory. */
Test(syscalls, openat2_in_root_does_not_escape)
{
	char dir[] = "/tmp/ct-kernel-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char link[sizeof(dir) + 8];
	snprintf(link, sizeof(link), "%s/esc", dir);
	cr_assert_eq(symlink("/etc", link), 0);

	_cleanup_close_ int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dfd, 0);
	struct open_how how = {.flags = O_RDONLY | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT};
	int fd = ct_openat2(dfd, "esc/passwd", &how, sizeof(how));
	int err = errno;
	if (fd >= 0)
		close(fd);
	unlink(link);
	rmdir(dir);
	cr_assert_lt(fd, 0, "/etc/passwd reached from inside %s", dir);
	cr_expect_eq(err, ENOENT);
}

Test(syscalls, fchmodat2_changes_mode_by_fd)
{
	if (!ct_kernel_has(CT_KF_FCHMODAT2))
		cr_skip("this kernel lacks fchmodat2");
	char path[] = "/tmp/ct-kernel-XXXXXX";
	int tmp = mkstemp(path);
	cr_assert_geq(tmp, 0);
	close(tmp);

	_cleanup_close_ int fd = open(path, O_PATH | O_CLOEXEC);
	int r = ct_fchmodat2(fd, "", 0640, AT_EMPTY_PATH);
	int err = errno;
	struct stat st;
	int s = stat(path, &st);
	unlink(path);
	cr_assert_eq(r, 0, "fchmodat2: %s", strerror(err));
	cr_assert_eq(s, 0);
	cr_expect_eq(st.st_mode & 07777, 0640);
}

/* statx's unique mount id of "/" names the mount that statmount describes as "/", which
 * checks the numbers, struct ct_mnt_id_req, struct ct_statmount and the mask bits at once. */
Test(syscalls, statmount_describes_the_root_mount)
{
	if (!ct_kernel_has(CT_KF_STATMOUNT))
		cr_skip("this kernel lacks statmount");
	struct statx stx;
	cr_assert_eq(statx(AT_FDCWD, "/", 0, STATX_MNT_ID_UNIQUE, &stx), 0);
	cr_assert(stx.stx_mask & STATX_MNT_ID_UNIQUE);

	static char buf[8192];
	struct ct_statmount *sm = (struct ct_statmount *)buf;
	struct ct_mnt_id_req req = {
		.size = MNT_ID_REQ_SIZE_VER0,
		.mnt_id = stx.stx_mnt_id,
		.param = STATMOUNT_MNT_BASIC | STATMOUNT_MNT_POINT | STATMOUNT_FS_TYPE,
	};
	cr_assert_eq(ct_statmount(&req, sm, sizeof(buf), 0), 0, "statmount: %s", strerror(errno));
	cr_assert_eq(sm->mask & req.param, req.param);
	cr_expect_eq(sm->mnt_id, stx.stx_mnt_id);
	cr_expect_str_eq(sm->str + sm->mnt_point, "/");
	cr_expect_neq(sm->str[sm->fs_type], '\0');
	cr_expect_leq(sm->size, sizeof(buf));
}

/* 6.15 reports which mask bits it knows; the 6.18 ones are defined here with those values. */
Test(syscalls, statmount_supported_mask_covers_our_bits)
{
	if (!ct_kernel_has(CT_KF_STATMOUNT))
		cr_skip("this kernel lacks statmount");
	struct statx stx;
	cr_assert_eq(statx(AT_FDCWD, "/", 0, STATX_MNT_ID_UNIQUE, &stx), 0);
	struct ct_statmount sm;
	struct ct_mnt_id_req req = {
		.size = MNT_ID_REQ_SIZE_VER0,
		.mnt_id = stx.stx_mnt_id,
		.param = STATMOUNT_SUPPORTED_MASK,
	};
	cr_assert_eq(ct_statmount(&req, &sm, sizeof(sm), 0), 0, "statmount: %s", strerror(errno));
	if (!(sm.mask & STATMOUNT_SUPPORTED_MASK))
		cr_skip("this kernel (< 6.15) does not report supported_mask");
	uint64_t ours = STATMOUNT_SB_BASIC | STATMOUNT_MNT_BASIC | STATMOUNT_PROPAGATE_FROM |
			STATMOUNT_MNT_ROOT | STATMOUNT_MNT_POINT | STATMOUNT_FS_TYPE |
			STATMOUNT_MNT_NS_ID | STATMOUNT_MNT_OPTS | STATMOUNT_FS_SUBTYPE |
			STATMOUNT_SB_SOURCE | STATMOUNT_OPT_ARRAY | STATMOUNT_OPT_SEC_ARRAY |
			STATMOUNT_SUPPORTED_MASK | STATMOUNT_MNT_UIDMAP | STATMOUNT_MNT_GIDMAP;
	cr_expect_eq(sm.supported_mask & ours, ours, "supported %#llx",
		     (unsigned long long)sm.supported_mask);
}

/* listmount(LSMT_ROOT) walks the whole namespace, so the mount of "/" is among the ids. */
Test(syscalls, listmount_lists_the_root_mount)
{
	if (!ct_kernel_has(CT_KF_LISTMOUNT))
		cr_skip("this kernel lacks listmount");
	struct statx stx;
	cr_assert_eq(statx(AT_FDCWD, "/", 0, STATX_MNT_ID_UNIQUE, &stx), 0);

	static uint64_t ids[4096];
	struct ct_mnt_id_req req = {.size = MNT_ID_REQ_SIZE_VER0, .mnt_id = LSMT_ROOT};
	ssize_t n = ct_listmount(&req, ids, sizeof(ids) / sizeof(ids[0]), 0);
	cr_assert_gt(n, 0, "listmount: %s", strerror(errno));

	bool found = false;
	for (ssize_t i = 0; i < n; i++)
		found |= ids[i] == stx.stx_mnt_id;
	cr_expect(found, "the mount of / (%#llx) is not among the %zd listed",
		  (unsigned long long)stx.stx_mnt_id, n);
}
