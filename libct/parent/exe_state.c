#include "libct/parent/exe_state.h"

#include <fcntl.h>
#include <stdbool.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#define REQUIRED_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

/* Less than the full set is not what ctrun makes: without the write seal the copy could be
 * written, without the size seals cut or padded under the processes that execute it. */
static bool sealed_memfd(int fd)
{
	int seals = fcntl(fd, F_GET_SEALS); /* EINVAL for anything but a memfd or shmem */
	return seals >= 0 && (seals & REQUIRED_SEALS) == REQUIRED_SEALS;
}

/* statfs reports ST_RDONLY for a read-only mount flag and a read-only superblock alike.
 * Attached in ctrun's mount namespace (the kept view, or a binary installed on a read-only
 * mount), the mount is one no container can change: a container cannot reach a mount of
 * another namespace (mount_setattr and remount answer EINVAL), and making the filesystem
 * writable again takes CAP_SYS_ADMIN in the host's user namespace, which a container
 * holding it has anyway. Detached, it is the detached view after the re-exec: the fd that
 * made it was closed by that execve, which unmounted the copy for good, so no one can
 * change its flags any more (mount_setattr answers EINVAL, from any user namespace). A
 * read-only mount of yet another namespace is possible only when whoever executes ctrun on
 * the host picks such a file: no container can hand it one. */
enum ct_exe_state ct_exe_state_of(int fd)
{
	/* the mount first: a view is what ctrun runs from on the way into a container, and a
	 * memfd's internal mount is never read-only */
	struct statfs sfs;
	if (fstatfs(fd, &sfs) == 0 && (sfs.f_flags & ST_RDONLY))
		return CT_EXE_READ_ONLY_MOUNT;
	return sealed_memfd(fd) ? CT_EXE_SEALED_MEMFD : CT_EXE_WRITABLE;
}
