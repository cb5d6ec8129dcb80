/* diffprobe: the process of the differential suite (test_differential.c). Prints what the
 * container gives its process, one "key: value" line per fact, so that the outputs under two
 * runtimes can be compared key by key:
 *
 *   diffprobe [--masked PATH]... [--ro PATH]... [--sysctl NAME]...
 *
 * status.*   the Cap*, Uid, Gid, Groups, NoNewPrivs, Seccomp*, Umask lines of /proc/self/status
 * sys.*      what a probe syscall (harmless arguments) returns: "ok" or the errno's name
 * rlimit.*   soft and hard limit of each resource
 * mount.DEST[#N] the Nth mount on DEST: type, source, root, mount and super options, propagation
 * dev.PATH   each entry of /dev and /dev/pts: type, mode, owner, device numbers or link target
 * devcg.*    whether a block and a char node can be made (and opened) in /dev
 * masked.P / ro.P   what reading and writing the path of --masked / --ro does
 * sysctl.N   the value of each --sysctl
 * plus hostname, domainname, env.NAME, cwd, pid1 (whether it is its pid namespace's init),
 * oom_score_adj, fd.N, uid_map, gid_map, cgroup.*
 *
 * Built static: the busybox rootfs has no libc. Self-contained, as the other side of what it
 * judges. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

extern char **environ;

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	int num;
	const char *name;
} errnos[] = {
	{EPERM, "EPERM"},   {ENOSYS, "ENOSYS"},		{EINVAL, "EINVAL"},
	{EACCES, "EACCES"}, {ENOENT, "ENOENT"},		{EEXIST, "EEXIST"},
	{EFAULT, "EFAULT"}, {EBADF, "EBADF"},		{EROFS, "EROFS"},
	{EIO, "EIO"},	    {ESRCH, "ESRCH"},		{ENOTDIR, "ENOTDIR"},
	{EISDIR, "EISDIR"}, {EOPNOTSUPP, "EOPNOTSUPP"}, {ENXIO, "ENXIO"},
	{ENODEV, "ENODEV"}, {EBUSY, "EBUSY"},		{ENOTTY, "ENOTTY"},
	{ENOMEM, "ENOMEM"}, {ENOKEY, "ENOKEY"},
};

static const char *errno_name(int err)
{
	static char other[32];
	for (size_t i = 0; i < ARRAY_LEN(errnos); i++)
		if (errnos[i].num == err)
			return errnos[i].name;
	snprintf(other, sizeof(other), "errno%d", err);
	return other;
}

static const char *outcome(long rc)
{
	return rc >= 0 ? "ok" : errno_name(errno);
}

/* A file's text with newlines turned into spaces, trailing ones dropped; NULL when it cannot
 * be read (errno set). Static storage. */
static const char *file_text(const char *path)
{
	static char buf[8192];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	int err = errno;
	close(fd);
	if (n < 0) {
		errno = err;
		return NULL;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
	return buf;
}

static void print_file(const char *key, const char *path)
{
	const char *text = file_text(path);
	printf("%s: %s\n", key, text ? text : errno_name(errno));
}

/* path opened for reading; NULL after printing "key: ERRNO" when it cannot be. */
static FILE *open_or_say(const char *path, const char *key)
{
	FILE *f = fopen(path, "re");
	if (!f)
		printf("%s: %s\n", key, errno_name(errno));
	return f;
}

static void print_status(void)
{
	static const char *const wanted[] = {
		"CapInh", "CapPrm", "CapEff",	  "CapBnd",  "CapAmb",		"Uid",
		"Gid",	  "Groups", "NoNewPrivs", "Seccomp", "Seccomp_filters", "Umask"};
	FILE *f = open_or_say("/proc/self/status", "status");
	char line[1024];
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		for (size_t i = 0; i < ARRAY_LEN(wanted); i++)
			if (strcmp(line, wanted[i]) == 0) {
				char *v = colon + 1 + strspn(colon + 1, " \t");
				v[strcspn(v, "\n")] = '\0';
				for (char *p = v; *p; p++)
					if (*p == '\t')
						*p = ' ';
				printf("status.%s: %s\n", line, v);
			}
	}
	fclose(f);
}

/* Calls whose arguments make them fail harmlessly (or only read) when the kernel lets them
 * through, so the errno says whether the seccomp filter or the capabilities stopped them. */
static void print_syscalls(void)
{
	static const struct {
		const char *name;
		long nr;
		long a[4];
	} calls[] = {
		{"getpid", SYS_getpid, {0}},
		{"personality_query", SYS_personality, {0xffffffffL}},
		{"personality_linux32", SYS_personality, {0x0008}},
		{"clone3", SYS_clone3, {0}},
		{"unshare_none", SYS_unshare, {0}},
		{"mount_null", SYS_mount, {0}},
		{"umount2_null", SYS_umount2, {0}},
		{"bpf_bad", SYS_bpf, {-1}},
		{"perf_event_open_null", SYS_perf_event_open, {0, 0, -1, -1}},
		{"keyctl_bad", SYS_keyctl, {-1}},
		{"add_key_null", SYS_add_key, {0}},
		{"userfaultfd_bad", SYS_userfaultfd, {-1}},
		{"setns_bad", SYS_setns, {-1}},
		{"ptrace_bad", SYS_ptrace, {-1}},
		{"reboot_bad", SYS_reboot, {0}},
		{"chroot_null", SYS_chroot, {0}},
		{"syslog_size", SYS_syslog, {10}},
		{"clock_settime_bad", SYS_clock_settime, {-1}},
		{"pidfd_open_bad", SYS_pidfd_open, {-1}},
		{"open_by_handle_at_bad", SYS_open_by_handle_at, {-1}},
		{"swapon_null", SYS_swapon, {0}},
		{"init_module_null", SYS_init_module, {0}},
		{"io_uring_setup_null", SYS_io_uring_setup, {0}},
		{"fanotify_init_bad", SYS_fanotify_init, {-1, -1}},
		{"unshare_userns_bad", SYS_unshare, {-1}},
		{"mknod_fifo_null", SYS_mknod, {0}},
	};
	for (size_t i = 0; i < ARRAY_LEN(calls); i++) {
		errno = 0;
		long rc = syscall(calls[i].nr, calls[i].a[0], calls[i].a[1], calls[i].a[2],
				  calls[i].a[3], 0L, 0L);
		printf("sys.%s: %s\n", calls[i].name, outcome(rc));
		fflush(stdout);
	}
}

static void print_rlimits(void)
{
	static const struct {
		const char *name;
		int res;
	} limits[] = {
		{"CPU", RLIMIT_CPU},	       {"FSIZE", RLIMIT_FSIZE},
		{"DATA", RLIMIT_DATA},	       {"STACK", RLIMIT_STACK},
		{"CORE", RLIMIT_CORE},	       {"RSS", RLIMIT_RSS},
		{"NPROC", RLIMIT_NPROC},       {"NOFILE", RLIMIT_NOFILE},
		{"MEMLOCK", RLIMIT_MEMLOCK},   {"AS", RLIMIT_AS},
		{"LOCKS", RLIMIT_LOCKS},       {"SIGPENDING", RLIMIT_SIGPENDING},
		{"MSGQUEUE", RLIMIT_MSGQUEUE}, {"NICE", RLIMIT_NICE},
		{"RTPRIO", RLIMIT_RTPRIO},     {"RTTIME", RLIMIT_RTTIME},
	};
	for (size_t i = 0; i < ARRAY_LEN(limits); i++) {
		struct rlimit rl;
		if (getrlimit(limits[i].res, &rl) < 0) {
			printf("rlimit.%s: %s\n", limits[i].name, errno_name(errno));
			continue;
		}
		printf("rlimit.%s: %lld %lld\n", limits[i].name,
		       rl.rlim_cur == RLIM_INFINITY ? -1LL : (long long)rl.rlim_cur,
		       rl.rlim_max == RLIM_INFINITY ? -1LL : (long long)rl.rlim_max);
	}
}

static void print_identity(void)
{
	struct utsname u;
	char cwd[4096];
	if (uname(&u) == 0) {
		printf("hostname: %s\n", u.nodename);
		printf("domainname: %s\n", u.domainname);
	}
	printf("cwd: %s\n", getcwd(cwd, sizeof(cwd)) ? cwd : errno_name(errno));
	printf("pid1: %s\n", getpid() == 1 ? "yes" : "no");
	print_file("oom_score_adj", "/proc/self/oom_score_adj");
	print_file("uid_map", "/proc/self/uid_map");
	print_file("gid_map", "/proc/self/gid_map");
	for (char **e = environ; *e; e++) {
		size_t name_len = strcspn(*e, "=");
		printf("env.%.*s: %s\n", (int)name_len, *e,
		       (*e)[name_len] ? *e + name_len + 1 : "");
	}
}

/* What each open descriptor is (a leaked one shows up too), without a pipe's or socket's
 * inode, which differs from run to run. */
static void print_fds(void)
{
	for (int fd = 0; fd < 256; fd++) {
		char path[32], target[256];
		if (fd > 2 && fcntl(fd, F_GETFD) < 0)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		if (n < 0) {
			printf("fd.%d: %s\n", fd, errno_name(errno));
			continue;
		}
		target[n] = '\0';
		char *bracket = strchr(target, '[');
		if (bracket)
			*bracket = '\0';
		printf("fd.%d: %s\n", fd, target);
	}
}

/* /proc/self/cgroup with the hierarchy number: the path of each hierarchy. */
static void print_cgroups(void)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096];
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *ctrls = strchr(line, ':');
		char *path = ctrls ? strchr(ctrls + 1, ':') : NULL;
		if (!path)
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		printf("cgroup.%s: %s\n", *(ctrls + 1) ? ctrls + 1 : "unified", path);
	}
	fclose(f);
}

/* mountinfo's propagation fields without their peer group numbers, which differ by run. */
static void propagation(char *fields, char *out, size_t size)
{
	out[0] = '\0';
	for (char *tok = strtok(fields, " "); tok; tok = strtok(NULL, " ")) {
		size_t len = strcspn(tok, ":");
		snprintf(out + strlen(out), size - strlen(out), "%s%.*s", out[0] ? "," : "",
			 (int)len, tok);
	}
	if (!out[0])
		snprintf(out, size, "private");
}

struct seen {
	char dest[512];
	int count;
};

static int occurrence(struct seen *seen, size_t *n, size_t cap, const char *dest)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(seen[i].dest, dest) == 0)
			return ++seen[i].count;
	if (*n < cap) {
		snprintf(seen[*n].dest, sizeof(seen[*n].dest), "%s", dest);
		seen[(*n)++].count = 1;
	}
	return 1;
}

static void print_mounts(void)
{
	static struct seen seen[256];
	size_t nseen = 0;
	FILE *f = open_or_say("/proc/self/mountinfo", "mounts");
	char line[4096];
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		char root[1024], dest[1024], opts[512], type[64], source[1024], super[1024] = "";
		int consumed = 0;
		if (sscanf(line, "%*d %*d %*s %1023s %1023s %511s %n", root, dest, opts,
			   &consumed) != 3 ||
		    sscanf(dash + 3, "%63s %1023s %1023s", type, source, super) < 2)
			continue;
		char prop[256];
		propagation(line + consumed, prop, sizeof(prop));
		int nth = occurrence(seen, &nseen, ARRAY_LEN(seen), dest);
		printf("mount.%s", dest);
		if (nth > 1)
			printf("#%d", nth);
		printf(": %s src=%s root=%s opts=%s super=%s prop=%s\n", type, source, root, opts,
		       super, prop);
	}
	fclose(f);
}

static void print_dev_entry(const char *dir, const char *name)
{
	char path[512], link[256];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lstat(path, &st) < 0) {
		printf("dev.%s: %s\n", path, errno_name(errno));
		return;
	}
	printf("dev.%s: mode=%o owner=%u:%u", path, (unsigned)st.st_mode, (unsigned)st.st_uid,
	       (unsigned)st.st_gid);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		printf(" rdev=%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (S_ISLNK(st.st_mode)) {
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		if (n >= 0)
			printf(" link=%.*s", (int)n, link);
	}
	printf("\n");
}

static void print_dev_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d) {
		printf("dev.%s: %s\n", dir, errno_name(errno));
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, "..") != 0)
			print_dev_entry(dir, e->d_name);
	closedir(d);
}

/* The device cgroup's mknod rule and its open rule for an unlisted block and char device. */
static void print_device_cgroup(void)
{
	static const struct {
		const char *name;
		mode_t type;
		unsigned major, minor;
	} nodes[] = {{"blk_7_0", S_IFBLK, 7, 0}, {"chr_1_9", S_IFCHR, 1, 9}};
	for (size_t i = 0; i < ARRAY_LEN(nodes); i++) {
		char path[64];
		snprintf(path, sizeof(path), "/dev/.diffprobe-%s", nodes[i].name);
		long rc =
			mknod(path, nodes[i].type | 0600, makedev(nodes[i].major, nodes[i].minor));
		printf("devcg.mknod_%s: %s\n", nodes[i].name, outcome(rc));
		if (rc < 0)
			continue;
		int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		printf("devcg.open_%s: %s\n", nodes[i].name, outcome(fd));
		if (fd >= 0)
			close(fd);
		unlink(path);
	}
}

static void print_access(const char *kind, const char *path)
{
	struct stat st;
	printf("%s.%s: ", kind, path);
	if (lstat(path, &st) < 0) {
		printf("stat=%s\n", errno_name(errno));
		return;
	}
	printf("type=%s", S_ISDIR(st.st_mode) ? "dir" : S_ISREG(st.st_mode) ? "file" : "other");
	/* whether a write would meet a read-only mount, which proc's own refusals hide */
	struct statvfs vfs;
	printf(" rdonly=%s", statvfs(path, &vfs) < 0	? errno_name(errno)
			     : (vfs.f_flag & ST_RDONLY) ? "yes"
							: "no");
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		int entries = 0;
		if (d) {
			while (readdir(d))
				entries++;
			closedir(d);
		}
		printf(" list=%s", d ? (entries > 2 ? "entries" : "empty") : errno_name(errno));
		char probe[1024];
		snprintf(probe, sizeof(probe), "%s/.diffprobe", path);
		long rc = mkdir(probe, 0700);
		printf(" mkdir=%s\n", outcome(rc));
		if (rc == 0)
			rmdir(probe);
		return;
	}
	char c;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	long n = fd < 0 ? -1 : read(fd, &c, 1);
	printf(" read=%s", fd < 0  ? errno_name(errno)
			   : n < 0 ? errno_name(errno)
			   : n	   ? "data"
				   : "empty");
	if (fd >= 0)
		close(fd);
	/* O_APPEND and no write: a writable path only proves it opens for writing. */
	fd = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC);
	printf(" open_write=%s\n", outcome(fd));
	if (fd >= 0)
		close(fd);
}

static void print_sysctl(const char *name)
{
	char path[512] = "/proc/sys/";
	size_t len = strlen(path);
	for (const char *p = name; *p && len < sizeof(path) - 1; p++)
		path[len++] = *p == '.' ? '/' : *p;
	path[len] = '\0';
	const char *text = file_text(path);
	printf("sysctl.%s: %s\n", name, text ? text : errno_name(errno));
}

static int print_requested(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (i + 1 >= argc) {
			fprintf(stderr, "diffprobe: %s needs a value\n", argv[i]);
			return -1;
		}
		if (strcmp(argv[i], "--masked") == 0)
			print_access("masked", argv[++i]);
		else if (strcmp(argv[i], "--ro") == 0)
			print_access("ro", argv[++i]);
		else if (strcmp(argv[i], "--sysctl") == 0)
			print_sysctl(argv[++i]);
		else {
			fprintf(stderr, "diffprobe: unknown option %s\n", argv[i]);
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	print_status();
	print_identity();
	print_fds();
	print_rlimits();
	print_cgroups();
	print_mounts();
	print_dev_dir("/dev");
	print_dev_dir("/dev/pts");
	print_device_cgroup();
	if (print_requested(argc, argv) < 0)
		return 2;
	/* What came so far stays printed should a filter kill the process at a probe call. */
	fflush(stdout);
	print_syscalls();
	return fflush(stdout) == 0 ? 0 : 1;
}
