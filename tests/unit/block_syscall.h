/* For unit tests that need a syscall to look missing, the way an old kernel (ENOSYS) or a
 * container host's seccomp profile (ENOSYS, EPERM) makes it look. Criterion runs each test
 * in its own process, so the filter dies with that test. */
#ifndef CTRUN_UNIT_BLOCK_SYSCALL_H
#define CTRUN_UNIT_BLOCK_SYSCALL_H

#include <criterion/criterion.h>
#include <seccomp.h>
#include <sys/prctl.h>

/* Makes nr fail with err in this (test) process from now on. */
static inline void block_syscall(int nr, int err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	cr_assert_not_null(ctx);
	cr_assert_eq(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), nr, 0), 0);
	cr_assert_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	cr_assert_eq(seccomp_load(ctx), 0);
	seccomp_release(ctx);
}

#endif
