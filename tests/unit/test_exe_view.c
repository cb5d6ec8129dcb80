/* ct_exe_state_of: which files count as already safe to run ctrun from (libct/parent/exe_view.h).
 * The views themselves and the attack are tested end to end in test_exe_escape.c. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libct/parent/exe_state.h"
#include "libct/base/syscalls.h"

#define TMP_TEMPLATE "/tmp/exe-view-XXXXXX"

static int memfd_with_seals(int seals)
{
	int fd = memfd_create("exe-view-test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	cr_assert_geq(fd, 0, "memfd_create: %s", strerror(errno));
	cr_assert_eq(write(fd, "x", 1), 1);
	if (seals)
		cr_assert_eq(fcntl(fd, F_ADD_SEALS, seals), 0, "F_ADD_SEALS: %s", strerror(errno));
	return fd;
}

Test(exe_view, a_fully_sealed_memfd_is_safe)
{
	int fd = memfd_with_seals(F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE);
	cr_expect_eq(ct_exe_state_of(fd), CT_EXE_SEALED_MEMFD);
	close(fd);
}

/* Less than the full set is not what ctrun makes, so it is not trusted: without the write
 * seal the copy could be written, without the size seals cut or padded under the processes
 * that execute it. */
Test(exe_view, a_memfd_missing_a_seal_is_writable)
{
	const int all = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE;
	const int each[] = {F_SEAL_SEAL, F_SEAL_SHRINK, F_SEAL_GROW, F_SEAL_WRITE};
	for (size_t i = 0; i < sizeof(each) / sizeof(each[0]); i++) {
		int fd = memfd_with_seals(all & ~each[i]);
		cr_expect_eq(ct_exe_state_of(fd), CT_EXE_WRITABLE, "without seal %#x", each[i]);
		close(fd);
	}
}

/* A new file under /tmp (a writable mount): path is filled in, the file is open. */
static int tmp_file(char path[static sizeof(TMP_TEMPLATE)])
{
	memcpy(path, TMP_TEMPLATE, sizeof(TMP_TEMPLATE));
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0, "mkstemp: %s", strerror(errno));
	return fd;
}

Test(exe_view, a_file_on_a_writable_mount_is_writable)
{
	char path[sizeof(TMP_TEMPLATE)];
	int fd = tmp_file(path);
	unlink(path);
	cr_expect_eq(ct_exe_state_of(fd), CT_EXE_WRITABLE);
	close(fd);
}

/* View 1 as ct_exe_protect makes it: a detached copy of the file's mount, read-only. Made
 * here without touching any mount table (the copy is never attached). */
Test(exe_view, a_file_on_a_detached_read_only_bind_is_safe)
{
	char path[sizeof(TMP_TEMPLATE)];
	close(tmp_file(path));
	int tree = ct_open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	unlink(path);
	if (tree < 0)
		cr_skip_test("open_tree: %s (needs CAP_SYS_ADMIN and Linux 5.2)", strerror(errno));
	cr_expect_eq(ct_exe_state_of(tree), CT_EXE_WRITABLE, "before mount_setattr");
	struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};
	cr_assert_eq(ct_mount_setattr(tree, "", AT_EMPTY_PATH, &ro, sizeof(ro)), 0,
		     "mount_setattr: %s", strerror(errno));
	cr_expect_eq(ct_exe_state_of(tree), CT_EXE_READ_ONLY_MOUNT);
	close(tree);
}
