/* The stdio of a process `ctrun exec --detach` starts, as the caller hands it over. Stdio
 * that is the host's /dev/null (conmon gives a `podman exec -d` process so) is the
 * container's own /dev/null once the process runs, on the container's mount: a daemon it
 * leaves, adopted by the init, is checkpointed with that stdio, and CRIU dumps an fd by its
 * mount, which the host's /dev is none of the container's (the vm suite's cr-exec). Stdio on
 * pipes stays the pipes. Checked from outside, in /proc/<pid>/fd, fdinfo and mountinfo. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(exec_stdio, .fini = lc_cleanup);

#define ID	"exstdio"
#define WAIT_MS 20000

static void start_sleeping(struct lc *t)
{
	lc_set_args(t, LC_ARGV("sleep", "1000"));
	lc_ok(t, "run", "--detach", "--bundle", t->bundle, ID);
}

/* `ctrun exec --detach` of sleep with stdin from in, stdout and stderr appended to out: the
 * exec'd process's pid. ctrun's errors go to a log too, out may be /dev/null. */
static pid_t exec_detached(const struct lc *t, const char *in, const char *out)
{
	char *pidfile = ctt_tmp_path("exec.pid"), *log = ctt_tmp_path("exec.log");
	pid_t ctrun = lc_spawn_stdin(
		t,
		lc_ctrun_argv(t, LC_ARGV("--log", log, "exec", "--detach", "--pid-file", pidfile,
					 ID, "sleep", "1000")),
		in, out, -1);
	int status = lc_wait(ctrun, WAIT_MS);
	cr_assert_eq(status, 0, "exec --detach: exit %d, log:\n%s", status,
		     ctt_exists(log) ? ctt_read_file(log) : "");
	char *text = ctt_read_file(pidfile);
	pid_t pid = atoi(text);
	cr_assert_gt(pid, 0, "pid file: %s", text);
	free(text);
	free(log);
	free(pidfile);
	return pid;
}

static char *fd_link(pid_t pid, int fd)
{
	char path[64];
	static char target[PATH_MAX];
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	cr_assert_geq(n, 0, "readlink %s", path);
	target[n] = '\0';
	return target;
}

/* The value of the "key:" line of /proc/<pid>/fdinfo/<fd>, read in base. */
static long fdinfo_field(pid_t pid, int fd, const char *key, int base)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	char *info = ctt_read_file(path);
	size_t len = strlen(key);
	const char *line = info;
	while (line && !(strncmp(line, key, len) == 0 && line[len] == ':'))
		line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
	cr_assert_not_null(line, "no %s in %s:\n%s", key, path, info);
	long v = strtol(line + len + 1, NULL, base);
	free(info);
	return v;
}

/* The id of the mount pid sees on mountpoint (the top-most one), -1 when none is there. */
static long mount_id_on(pid_t pid, const char *mountpoint)
{
	char path[64], *save = NULL;
	snprintf(path, sizeof(path), "/proc/%d/mountinfo", pid);
	char *table = ctt_read_file(path);
	long id = -1;
	for (char *line = strtok_r(table, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long this_id;
		char point[PATH_MAX];
		if (sscanf(line, "%ld %*d %*s %*s %4095s", &this_id, point) == 2 &&
		    strcmp(point, mountpoint) == 0)
			id = this_id;
	}
	free(table);
	return id;
}

/* The mount of the container's /dev/null: its own where it is a bind (a user namespace's),
 * else /dev's. */
static long container_null_mount(pid_t pid)
{
	long id = mount_id_on(pid, "/dev/null");
	if (id < 0)
		id = mount_id_on(pid, "/dev");
	cr_assert_geq(id, 0, "the container has no /dev mount");
	return id;
}

/* fd of pid is the container's /dev/null, with the flags the host's was opened with. */
static void assert_on_containers_null(pid_t pid, int fd, int want_flags)
{
	cr_expect_str_eq(fd_link(pid, fd), "/dev/null", "fd %d", fd);
	long mount = container_null_mount(pid), mine = fdinfo_field(pid, fd, "mnt_id", 10);
	cr_expect_eq(mine, mount, "fd %d is on mount %ld, not the container's null mount %ld", fd,
		     mine, mount);
	long flags = fdinfo_field(pid, fd, "flags", 8) & (O_ACCMODE | O_APPEND);
	cr_expect_eq(flags, want_flags, "fd %d flags 0%lo, want 0%o", fd, flags, want_flags);
}

/* ctt_fork_exec's: stdin read-only, stdout and stderr appended. */
static void assert_host_null_stdio_moved(void (*configure)(struct lc *t))
{
	struct lc t;
	lc_init(&t);
	if (configure)
		configure(&t);
	start_sleeping(&t);
	long host_null = mount_id_on(getpid(), "/dev");
	pid_t pid = exec_detached(&t, "/dev/null", "/dev/null");
	cr_expect_neq(container_null_mount(pid), host_null, "the container has the host's /dev");
	assert_on_containers_null(pid, 0, O_RDONLY);
	assert_on_containers_null(pid, 1, O_WRONLY | O_APPEND);
	assert_on_containers_null(pid, 2, O_WRONLY | O_APPEND);
	lc_ok(&t, "delete", "--force", ID);
}

Test(exec_stdio, host_null_stdio_becomes_the_containers)
{
	assert_host_null_stdio_moved(NULL);
}

/* In a user namespace /dev/null is the host's node bound, the same inode as the stdio: the
 * fds still move to the bind, the mount CRIU can find. */
static void map_root(struct lc *t)
{
	lc_map_root(t, 0, 65536);
}

Test(exec_stdio, host_null_stdio_becomes_the_containers_in_a_user_namespace)
{
	assert_host_null_stdio_moved(map_root);
}

static void expect_pipe(pid_t pid, int fd, int pipe_end)
{
	struct stat st;
	cr_assert_eq(fstat(pipe_end, &st), 0);
	char want[64];
	snprintf(want, sizeof(want), "pipe:[%lu]", (unsigned long)st.st_ino);
	cr_expect_str_eq(fd_link(pid, fd), want, "fd %d", fd);
}

Test(exec_stdio, piped_stdio_stays_the_pipes)
{
	struct lc t;
	lc_init(&t);
	start_sleeping(&t);
	int in[2], out[2];
	cr_assert_eq(pipe2(in, O_CLOEXEC), 0);
	cr_assert_eq(pipe2(out, O_CLOEXEC), 0);
	char in_path[32], out_path[32];
	snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in[0]);
	snprintf(out_path, sizeof(out_path), "/proc/self/fd/%d", out[1]);
	pid_t pid = exec_detached(&t, in_path, out_path);
	expect_pipe(pid, 0, in[0]);
	expect_pipe(pid, 1, out[1]);
	expect_pipe(pid, 2, out[1]);
	lc_ok(&t, "delete", "--force", ID);
	for (int i = 0; i < 2; i++) {
		close(in[i]);
		close(out[i]);
	}
}
