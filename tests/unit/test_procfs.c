/* libct/fs/procfs.c: the private procfs ctrun writes through, and the checked /proc where it
 * has none. Writes go to this thread's own comm (/proc/thread-self, as the LSM labels do). */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "libct/fs/procfs.h"

static void assert_comm_written(const struct ct_procfs *p, const char *name)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_procfs_write(p, "/proc/thread-self/comm", name, &err), 0, "%s", err.msg);
	char comm[16] = "";
	cr_assert_eq(prctl(PR_GET_NAME, comm, 0, 0, 0), 0);
	cr_assert_str_eq(comm, name);
}

Test(procfs, private_procfs_is_a_detached_proc_mount)
{
	if (geteuid() != 0)
		cr_skip("mounting a procfs needs root");
	struct ct_procfs p;
	ct_procfs_open(&p, NULL);
	cr_assert_geq(p.root, 0);
	cr_assert_str_eq(p.how, "fsmount");
	struct statfs sfs;
	cr_assert_eq(fstatfs(p.root, &sfs), 0);
	cr_assert_eq(sfs.f_type, PROC_SUPER_MAGIC);
	assert_comm_written(&p, "private-proc");
	ct_procfs_close(&p);
	cr_assert_eq(p.root, -1);
}

Test(procfs, without_one_writes_go_through_proc)
{
	struct ct_procfs p = CT_PROCFS_INIT;
	cr_assert_str_eq(p.how, "/proc (checked)");
	assert_comm_written(&p, "checked-proc");
}

Test(procfs, a_path_outside_proc_is_refused)
{
	struct ct_procfs p = CT_PROCFS_INIT;
	struct ct_error err = {0};
	cr_assert_eq(ct_procfs_write(&p, "/sys/kernel/x", "1", &err), -1);
	cr_assert_eq(err.errnum, EINVAL);
	cr_assert_str_eq(err.msg, "\"/sys/kernel/x\" is not under /proc");
}

Test(procfs, a_file_elsewhere_is_not_procfs)
{
	struct ct_procfs p = CT_PROCFS_INIT;
	struct ct_error err = {0};
	/* /proc/self/fd/N opened with O_NOFOLLOW is the magic link itself: refused */
	cr_assert_eq(ct_procfs_write(&p, "/proc/self/fd/0", "x", &err), -1);
	cr_assert_str_eq(err.msg, "open \"/proc/self/fd/0\": Too many levels of symbolic links");
}
