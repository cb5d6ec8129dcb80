/* hook_recorder: an OCI hook for the tests (test_hooks.c). Appends one line to LOG, in one
 * write, of what it was given and where it runs, then does what its options say:
 *
 *   hook_recorder KIND LOG [--stdout TEXT] [--stderr TEXT] [--mount-tmpfs DIR]
 *                          [--sleep SECONDS] [--exit STATUS]
 *
 *   kind=KIND<TAB>mnt=mnt:[N]<TAB>pid=pid:[N]<TAB>net=net:[N]<TAB>user=user:[N]<TAB>root=DEV:INO
 *   <TAB>argv=A|B|...<TAB>env=E|...<TAB>fds=0,1,2<TAB>exe=DEV:INO<TAB>exe_mount=ro|rw
 *   <TAB>state=<stdin, as read>
 *
 * root is the device and inode of its "/" (the host's, or the container's after
 * pivot_root), fds the descriptors it inherited, exe the device and inode of the file
 * /proc/PID/exe of the state's pid is ("?" when it cannot be read): ctrun while the init is set up,
 * the container's program once it was executed; exe_mount whether that file's mount is
 * read-only ("?" when it cannot be read). Built static, so that it runs inside the busybox
 * rootfs too (startContainer). */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

extern char **environ;

static size_t put(char *buf, size_t n, size_t size, const char *s)
{
	size_t len = strlen(s);
	if (n + len >= size)
		len = size - n - 1;
	memcpy(buf + n, s, len);
	buf[n + len] = '\0';
	return n + len;
}

static size_t put_ns(char *buf, size_t n, size_t size, const char *ns)
{
	char path[64], link[64] = "?";
	snprintf(path, sizeof(path), "/proc/self/ns/%s", ns);
	ssize_t len = readlink(path, link, sizeof(link) - 1);
	if (len > 0)
		link[len] = '\0';
	n = put(buf, n, size, "\t");
	n = put(buf, n, size, ns);
	n = put(buf, n, size, "=");
	return put(buf, n, size, link);
}

static size_t put_list(char *buf, size_t n, size_t size, const char *key, char **v)
{
	n = put(buf, n, size, "\t");
	n = put(buf, n, size, key);
	n = put(buf, n, size, "=");
	for (size_t i = 0; v && v[i]; i++) {
		if (i)
			n = put(buf, n, size, "|");
		n = put(buf, n, size, v[i]);
	}
	return n;
}

static size_t put_fds(char *buf, size_t n, size_t size)
{
	n = put(buf, n, size, "\tfds=");
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return put(buf, n, size, "?");
	struct dirent *de;
	bool first = true;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || atoi(de->d_name) == dirfd(d))
			continue;
		if (!first)
			n = put(buf, n, size, ",");
		n = put(buf, n, size, de->d_name);
		first = false;
	}
	closedir(d);
	return n;
}

/* "ro" when the mount of path's file is read-only, "rw" when not. */
static const char *mount_mode(const char *path)
{
	struct statvfs sv;
	if (statvfs(path, &sv) < 0)
		return "?";
	return sv.f_flag & ST_RDONLY ? "ro" : "rw";
}

static size_t put_stdin(char *buf, size_t n, size_t size)
{
	static char state[1 << 15];
	size_t len = 0;
	ssize_t r;
	while (len + 1 < sizeof(state) && (r = read(0, state + len, sizeof(state) - len - 1)) > 0)
		len += (size_t)r;
	state[len] = '\0';
	const char *pid = strstr(state, "\"pid\":");
	char path[64], exe[64] = "?";
	struct stat sb;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid ? atoi(pid + 6) : 0);
	if (stat(path, &sb) == 0)
		snprintf(exe, sizeof(exe), "%lu:%lu", (unsigned long)sb.st_dev,
			 (unsigned long)sb.st_ino);
	n = put(buf, n, size, "\texe=");
	n = put(buf, n, size, exe);
	n = put(buf, n, size, "\texe_mount=");
	n = put(buf, n, size, mount_mode(path));
	n = put(buf, n, size, "\tstate=");
	return put(buf, n, size, state);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: hook_recorder KIND LOG [options]\n");
		return 2;
	}
	static char line[1 << 16];
	size_t n = 0, size = sizeof(line) - 1;
	n = put(line, n, size, "kind=");
	n = put(line, n, size, argv[1]);
	n = put_ns(line, n, size, "mnt");
	n = put_ns(line, n, size, "pid");
	n = put_ns(line, n, size, "net");
	n = put_ns(line, n, size, "user");
	struct stat root;
	char text[64] = "?";
	if (stat("/", &root) == 0)
		snprintf(text, sizeof(text), "%lu:%lu", (unsigned long)root.st_dev,
			 (unsigned long)root.st_ino);
	n = put(line, n, size, "\troot=");
	n = put(line, n, size, text);
	n = put_list(line, n, size, "argv", argv);
	n = put_list(line, n, size, "env", environ);
	n = put_fds(line, n, size);
	n = put_stdin(line, n, size);
	line[n++] = '\n';
	int fd = open(argv[2], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, line, n) != (ssize_t)n) {
		perror("hook_recorder: log");
		return 2;
	}
	close(fd);
	int status = 0;
	for (int i = 3; i + 1 < argc; i += 2) {
		const char *opt = argv[i], *val = argv[i + 1];
		if (!strcmp(opt, "--stdout"))
			printf("%s\n", val), fflush(stdout);
		else if (!strcmp(opt, "--stderr"))
			fprintf(stderr, "%s\n", val);
		else if (!strcmp(opt, "--sleep"))
			sleep((unsigned)atoi(val));
		else if (!strcmp(opt, "--exit"))
			status = atoi(val);
		else if (!strcmp(opt, "--mount-tmpfs") &&
			 mount("hooktmp", val, "tmpfs", 0, NULL) < 0)
			perror("hook_recorder: mount"), status = 2;
	}
	return status;
}
