/* floor [-c CGROUPDIR]... ROOTFS CMD [ARG...]: the bench's floor, the least a runtime must do
 * for `run` with ctrun spec's default config, and nothing else: no config to parse, no state,
 * no checks. clone3 with the default namespaces (pid, net, ipc, uts, mount; cgroup after the
 * placement), each -c directory made and joined (cgroup v1: by writing the child's pid),
 * the new network namespace's loopback up (as runc, crun and ctrun leave it), the default mounts
 * (proc, /dev tmpfs with the standard nodes and links, devpts, shm, mqueue, sysfs, a tmpfs at
 * /sys/fs/cgroup with the joined hierarchies), pivot_root, the read-only root, exec CMD; the parent
 * waits on the pidfd and removes the cgroups.
 *
 *   parent                                   child
 *   clone3(CLONE_PIDFD | namespaces) ------> blocks reading the pipe
 *   mkdir + write pid to each cgroup.procs
 *   writes "go" to the pipe ---------------> unshare(CLONE_NEWCGROUP), lo up, mounts,
 *                                            pivot_root, execve(CMD)
 *   waitid(P_PIDFD) <----------------------- exits
 *   rmdir each cgroup
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CGROUPS 32

static void die(const char *fmt, ...)
{
	va_list ap;
	int saved = errno;
	va_start(ap, fmt);
	fputs("floor: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(saved));
	_exit(125);
}

/* ---- the child: mounts, pivot_root, exec ---- */

static void mount_at(const char *src, const char *dest, const char *type, unsigned long flags,
		     const char *data)
{
	if (mkdir(dest, 0755) < 0 && errno != EEXIST)
		die("mkdir %s", dest);
	if (mount(src, dest, type, flags, data) < 0)
		die("mount %s on %s", type ? type : src, dest);
}

static void make_dev_nodes(void)
{
	static const struct {
		const char *path;
		unsigned major, minor;
	} nodes[] = {{"dev/null", 1, 3},   {"dev/zero", 1, 5},	  {"dev/full", 1, 7},
		     {"dev/random", 1, 8}, {"dev/urandom", 1, 9}, {"dev/tty", 5, 0}};
	static const char *links[][2] = {{"/proc/self/fd", "dev/fd"},
					 {"/proc/self/fd/0", "dev/stdin"},
					 {"/proc/self/fd/1", "dev/stdout"},
					 {"/proc/self/fd/2", "dev/stderr"},
					 {"pts/ptmx", "dev/ptmx"}};
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++)
		if (mknod(nodes[i].path, S_IFCHR | 0666, makedev(nodes[i].major, nodes[i].minor)) <
		    0)
			die("mknod %s", nodes[i].path);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlink(links[i][0], links[i][1]) < 0)
			die("symlink %s", links[i][1]);
}

/* The hierarchy's mount options: its directory name lists its controllers, except for the
 * named ones (systemd's "name=systemd"). */
static void mount_cgroup_hierarchy(const char *hierarchy)
{
	char dest[256], opts[128];
	snprintf(dest, sizeof(dest), "sys/fs/cgroup/%s", hierarchy);
	if (strcmp(hierarchy, "systemd") == 0)
		snprintf(opts, sizeof(opts), "none,name=systemd");
	else
		snprintf(opts, sizeof(opts), "%s", hierarchy);
	mount_at("cgroup", dest, "cgroup", MS_NOSUID | MS_NOEXEC | MS_NODEV | MS_RDONLY, opts);
}

static const char *hierarchy_of(const char *cgroup_dir)
{
	static char name[128];
	const char *p = cgroup_dir + strlen("/sys/fs/cgroup/");
	size_t n = strcspn(p, "/");
	snprintf(name, sizeof(name), "%.*s", (int)n, p);
	return name;
}

static void mount_defaults(char **cgroups, int n_cgroups)
{
	const unsigned long nse = MS_NOSUID | MS_NOEXEC | MS_NODEV;
	mount_at("proc", "proc", "proc", nse, NULL);
	mount_at("tmpfs", "dev", "tmpfs", MS_NOSUID | MS_STRICTATIME, "mode=755,size=65536k");
	make_dev_nodes();
	mount_at("devpts", "dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
		 "newinstance,ptmxmode=0666,mode=0620,gid=5");
	mount_at("shm", "dev/shm", "tmpfs", nse, "mode=1777,size=65536k");
	mount_at("mqueue", "dev/mqueue", "mqueue", nse, NULL);
	mount_at("sysfs", "sys", "sysfs", nse | MS_RDONLY, NULL);
	mount_at("tmpfs", "sys/fs/cgroup", "tmpfs", nse, "mode=755");
	for (int i = 0; i < n_cgroups; i++)
		mount_cgroup_hierarchy(hierarchy_of(cgroups[i]));
	if (mount(NULL, "sys/fs/cgroup", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | nse, NULL) < 0)
		die("remount /sys/fs/cgroup read-only");
}

static void enter_rootfs(const char *rootfs)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("make / private");
	if (mount(rootfs, rootfs, NULL, MS_BIND | MS_REC, NULL) < 0)
		die("bind %s", rootfs);
	if (chdir(rootfs) < 0)
		die("chdir %s", rootfs);
}

/* pivot_root(".", ".") stacks the old root on the new one; detaching it leaves the new. */
static void pivot_into_cwd(void)
{
	if (syscall(SYS_pivot_root, ".", ".") < 0)
		die("pivot_root");
	if (umount2(".", MNT_DETACH) < 0)
		die("detach the old root");
	if (chdir("/") < 0)
		die("chdir /");
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) < 0)
		die("remount / read-only");
}

static void loopback_up(void)
{
	struct ifreq ifr = {.ifr_flags = IFF_UP | IFF_LOOPBACK}; /* lo's flags, up */
	strcpy(ifr.ifr_name, "lo");
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0 || ioctl(sock, SIOCSIFFLAGS, &ifr) < 0)
		die("bring lo up");
	close(sock);
}

static void child(int wait_fd, const char *rootfs, char **cgroups, int n_cgroups, char **argv)
{
	char byte;
	if (read(wait_fd, &byte, 1) != 1) /* EOF: the parent failed and is gone */
		_exit(125);
	close(wait_fd);
	umask(0); /* the nodes' modes as given */
	if (unshare(CLONE_NEWCGROUP) < 0)
		die("unshare the cgroup namespace");
	loopback_up();
	enter_rootfs(rootfs);
	mount_defaults(cgroups, n_cgroups);
	pivot_into_cwd();
	execv(argv[0], argv);
	die("exec %s", argv[0]);
}

/* ---- the parent: cgroups, clone3, wait ---- */

static void copy_parent_file(char *dir, const char *file)
{
	char path[512], text[256];
	char *slash = strrchr(dir, '/');
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	*slash = '/';
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len = fd < 0 ? -1 : read(fd, text, sizeof(text));
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (len <= 0 || fd < 0 || write(fd, text, len) != len)
		die("copy %s into %s", file, dir);
	close(fd);
}

/* A new v1 cpuset cgroup starts with no cpus and no memory nodes: nothing could join it. */
static void make_cgroup_dir(char *path)
{
	if (mkdir(path, 0755) < 0) {
		if (errno == EEXIST)
			return;
		die("mkdir %s", path);
	}
	if (strncmp(path, "/sys/fs/cgroup/cpuset/", 22) == 0) {
		copy_parent_file(path, "cpuset.cpus");
		copy_parent_file(path, "cpuset.mems");
	}
}

static void mkdir_p(char *path)
{
	for (char *p = strchr(path + strlen("/sys/fs/cgroup/"), '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		make_cgroup_dir(path);
		*p = '/';
	}
	make_cgroup_dir(path);
}

static void join_cgroup(const char *dir, pid_t pid)
{
	char path[512], text[16];
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int len = snprintf(text, sizeof(text), "%d", pid);
	if (fd < 0 || write(fd, text, len) != len)
		die("join %s", dir);
	close(fd);
}

static pid_t clone_child(int *pidfd)
{
	struct clone_args args = {
		.flags = CLONE_PIDFD | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS |
			 CLONE_NEWNS,
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
	};
	return syscall(SYS_clone3, &args, sizeof(args));
}

static int wait_pidfd(int pidfd)
{
	siginfo_t info = {0};
	while (waitid(P_PIDFD, pidfd, &info, WEXITED) < 0)
		if (errno != EINTR)
			die("waitid");
	return info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
}

int main(int argc, char **argv)
{
	char *cgroups[MAX_CGROUPS];
	int n_cgroups = 0, opt;
	while ((opt = getopt(argc, argv, "+c:")) != -1) {
		if (opt != 'c' || n_cgroups == MAX_CGROUPS ||
		    strncmp(optarg, "/sys/fs/cgroup/", 15) != 0) {
			fprintf(stderr,
				"usage: floor [-c /sys/fs/cgroup/H/PATH]... ROOTFS CMD...\n");
			return 2;
		}
		cgroups[n_cgroups++] = optarg;
	}
	if (argc - optind < 2) {
		fprintf(stderr, "usage: floor [-c /sys/fs/cgroup/H/PATH]... ROOTFS CMD...\n");
		return 2;
	}
	int sync[2], pidfd = -1;
	if (pipe2(sync, O_CLOEXEC) < 0)
		die("pipe");
	for (int i = 0; i < n_cgroups; i++)
		mkdir_p(cgroups[i]);
	pid_t pid = clone_child(&pidfd);
	if (pid < 0)
		die("clone3");
	if (pid == 0) {
		close(sync[1]);
		child(sync[0], argv[optind], cgroups, n_cgroups, argv + optind + 1);
	}
	close(sync[0]);
	for (int i = 0; i < n_cgroups; i++)
		join_cgroup(cgroups[i], pid);
	if (write(sync[1], "g", 1) != 1)
		die("release the child");
	close(sync[1]);
	int status = wait_pidfd(pidfd);
	for (int i = 0; i < n_cgroups; i++)
		if (rmdir(cgroups[i]) < 0)
			die("rmdir %s", cgroups[i]);
	return status;
}
