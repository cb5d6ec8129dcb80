/* lock_holder FILE
 *
 * Takes a POSIX write lock on the whole of FILE (made when missing) and holds it until it is
 * killed: the held lock of the checkpoint tests (--file-locks), which /proc/locks shows from
 * outside. Runs inside the busybox rootfs, which has no libc: static, self-contained. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: lock_holder FILE\n");
		return 2;
	}
	int fd = open(argv[1], O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	if (fd < 0 || fcntl(fd, F_SETLKW, &lock) < 0) {
		perror(argv[1]);
		return 1;
	}
	for (;;)
		pause();
}
