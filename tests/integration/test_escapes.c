/* The known runtime escapes (docs/security.md), one class per test, each a container that
 * tries what the published exploit did:
 *
 * - CVE-2019-5736: overwrite the host's runtime binary through /proc/<init>/exe or an fd of
 *   it held by a container process;
 * - CVE-2024-21626: use a host fd leaked into the container, or a process.cwd that leads
 *   out of the rootfs (a "..", a magic link /proc/self/fd/N to a host directory);
 * - CVE-2022-29162: a caller's inheritable capabilities in the container's processes;
 * - CVE-2016-9962: open the fds of ctrun's own process in the container (the created init,
 *   an exec'd process before its execve) through /proc/PID/fd;
 * - CVE-2025-52881: redirect a /proc write of the runtime to another file by mounting over
 *   /proc/<pid>/fd (the exec fifo here; sysctl and oom_score_adj in test_proc_writes.c);
 * - CVE-2025-31133: an image /dev/null that is a file or a symlink, which masking would
 *   bind over the masked paths;
 * - a host mount below an rbind of /sys (securityfs, tracefs) written from inside.
 *
 * Mount-destination symlink races (CVE-2021-30465) are test_hostile.c's swap tests. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <linux/capability.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(escapes, .fini = lc_cleanup);

#define ID "escape"

static struct stat stat_of(const char *path)
{
	struct stat st;
	cr_assert_eq(stat(path, &st), 0, "stat %s: %s", path, strerror(errno));
	return st;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* "dev:ino" as busybox `stat -c %d:%i` prints it inside the container. */
static void devino_text(const struct stat *st, char *buf, size_t size)
{
	snprintf(buf, size, "%llu:%llu", (unsigned long long)st->st_dev,
		 (unsigned long long)st->st_ino);
}

/* No fd of pid (seen from the host) is the file of st. */
static void assert_no_fd_of(pid_t pid, const struct stat *st, const char *what)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "opendir %s: %s", dir, strerror(errno));
	for (struct dirent *e; (e = readdir(d));) {
		char path[320];
		struct stat fst;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && stat(path, &fst) == 0)
			cr_expect(!same_file(&fst, st), "%s is %s", path, what);
	}
	closedir(d);
}

/* `create` with --preserve-fds n in the background (fd3 its fd 3 when >= 0), the
 * container's output appended to out; returns the created init's pid. */
static pid_t create_in_background(const struct lc *t, int preserve, int fd3, const char *out)
{
	char n[16];
	snprintf(n, sizeof(n), "%d", preserve);
	pid_t runtime =
		lc_spawn(t,
			 lc_ctrun_argv(t, (const char *const[]){"create", "--preserve-fds", n,
								"--bundle", t->bundle, ID, NULL}),
			 out, fd3);
	int status = lc_wait(runtime, 20000);
	cr_assert_eq(status, 0, "create: exit %d: %s", status, ctt_read_file(out));
	return lc_pid(t, ID);
}

/* ---- CVE-2019-5736: the host's ctrun binary ---- */

/* Each line "dev:ino name" of the container's `stat -L` of every /proc/N/exe and fd. */
static void expect_seen_from_inside(const char *seen, const struct stat *ctrun,
				    const struct stat *busybox)
{
	char host[64], user[64];
	devino_text(ctrun, host, sizeof(host));
	devino_text(busybox, user, sizeof(user));
	bool init_seen = false;
	for (const char *line = seen; *line;) {
		size_t n = strcspn(line, "\n");
		cr_expect(strncmp(line, host, strlen(host)) != 0 || line[strlen(host)] != ' ',
			  "inside, %.*s is the host's ctrun (%s)", (int)n, line, host);
		if (n > 12 && strncmp(line + n - 12, " /proc/1/exe", 12) == 0) {
			init_seen = true;
			cr_expect(strncmp(line, user, strlen(user)) == 0,
				  "inside, %.*s is not busybox (%s)", (int)n, line, user);
		}
		line += n + (line[n] == '\n');
	}
	cr_expect(init_seen, "no /proc/1/exe among what the container saw:\n%s", seen);
}

Test(escapes, host_binary_never_reachable_from_the_container)
{
	struct lc t;
	lc_init(&t);
	struct stat ctrun = stat_of(ctt_ctrun_path());
	char *busybox_path = lc_rootfs_path(&t, "bin/busybox");
	struct stat busybox = stat_of(busybox_path);
	lc_set_script(&t, "stat -L -c '%d:%i %n' /proc/[0-9]*/exe /proc/[0-9]*/fd/* "
			  "2>/dev/null; echo end; exec sleep 1000");
	char *out = ctt_tmp_path("out");
	pid_t pid = create_in_background(&t, 0, -1, out);
	char exe[64];
	snprintf(exe, sizeof(exe), "/proc/%d/exe", pid);

	/* created: the init is still ctrun's own clone, of a read-only view of the binary
	 * (libct/parent/exe_view.h), which nobody can write, even once it is no longer executed
	 * (test_exe_escape.c) */
	assert_no_fd_of(pid, &ctrun, "the host's ctrun");
	int fd = open(exe, O_WRONLY | O_CLOEXEC);
	int saved = errno;
	if (fd >= 0) { /* the sealed memfd copy opens, and refuses the write */
		saved = pwrite(fd, "x", 1, 0) < 0 ? errno : 0;
		close(fd);
	}
	/* the bind view answers ETXTBSY while the init executes it, EROFS after */
	cr_expect(saved == EROFS || saved == EPERM || saved == ETXTBSY, "write %s: %s", exe,
		  saved ? strerror(saved) : "it was written");
	struct stat view = stat_of(exe);
	struct statvfs view_mount;
	cr_assert_eq(statvfs(exe, &view_mount), 0, "statvfs %s: %s", exe, strerror(errno));
	cr_expect(!same_file(&view, &ctrun) || (view_mount.f_flag & ST_RDONLY),
		  "%s is the host's ctrun on its writable mount, not a view", exe);

	lc_ok(&t, "start", ID);
	char *seen = ctt_wait_content(out, "end\n");
	expect_seen_from_inside(seen, &ctrun, &busybox);
	/* and from outside: the init is busybox, holding no fd of ctrun */
	struct stat now = stat_of(exe);
	cr_expect(same_file(&now, &busybox), "%s is not the container's busybox", exe);
	assert_no_fd_of(pid, &ctrun, "the host's ctrun");
	lc_ok(&t, "delete", "--force", ID);
	free(seen);
	free(out);
	free(busybox_path);
}

/* ---- CVE-2024-21626: leaked fds and process.cwd ---- */

/* The created init's fds are checked from outside, the started process looks inside. */
static char *create_check_start(const struct lc *t, int preserve, int fd3)
{
	char *out = ctt_tmp_path("out");
	lc_assert_fds_cloexec(create_in_background(t, preserve, fd3, out), 3 + preserve);
	lc_ok(t, "start", ID);
	char *text = ctt_wait_content(out, "end\n");
	free(out);
	return text;
}

Test(escapes, no_host_fd_reaches_the_container)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "ls /proc/1/fd; echo end");
	char *plain = create_check_start(&t, 0, -1);
	cr_expect_str_eq(plain, "0\n1\n2\nend\n");
	lc_ok(&t, "delete", "--force", ID);

	/* a preserved fd, and only that one, comes in */
	int dir = open(ctt_tmpdir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dir, 0);
	char *preserved = create_check_start(&t, 1, dir);
	close(dir);
	cr_expect_str_eq(preserved, "0\n1\n2\n3\nend\n");
	lc_ok(&t, "delete", "--force", ID);
	free(preserved);
	free(plain);
}

static void set_cwd(const struct lc *t, const char *cwd)
{
	char *json = ctt_json_quote(cwd);
	ctt_config_set(t->bundle, ".process.cwd", json);
	free(json);
}

/* A cwd of "..", and a symlink in the image to a host path, lead to the rootfs's own. */
Test(escapes, cwd_resolved_inside_the_rootfs)
{
	struct lc t;
	lc_init(&t);
	char *marker = lc_rootfs_file(&t, "in-rootfs", "");
	set_cwd(&t, "/../../../../");
	char *out = lc_sh_output(&t, "pwd; ls -d in-rootfs");
	cr_expect_str_eq(out, "/\nin-rootfs\n");
	free(out);

	/* the host directory and its copy in the image, each with its own marker */
	char *host = ctt_tmpdir();
	char *host_marker = ctt_path(host, "on-host");
	ctt_write_file(host_marker, "");
	char *copy = lc_rootfs_path(&t, host + 1);
	ctt_mkdir_p(copy);
	char *copy_marker = ctt_path(copy, "in-image");
	ctt_write_file(copy_marker, "");
	char *link = lc_rootfs_path(&t, "hostlink");
	cr_assert_eq(symlink(host, link), 0, "symlink %s: %s", link, strerror(errno));
	set_cwd(&t, "/hostlink");
	out = lc_sh_output(&t, "ls");
	cr_expect_str_eq(out, "in-image\n");
	free(out);
	free(link);
	free(copy_marker);
	free(copy);
	free(host_marker);
	free(marker);
}

/* A missing cwd is made (as runc does) in the rootfs whatever the image's symlinks say: one
 * to a host path and one that climbs with ".." both lead to directories of the rootfs; the
 * host directory gets nothing. */
#define CLIMBED "ctrun-escapes-climbed"

Test(escapes, missing_cwd_made_inside_the_rootfs)
{
	struct lc t;
	lc_init(&t);
	char *host = ctt_tmpdir();
	char *link = lc_rootfs_path(&t, "hostlink");
	cr_assert_eq(symlink(host, link), 0, "symlink %s: %s", link, strerror(errno));
	char *up = lc_rootfs_path(&t, "up");
	cr_assert_eq(symlink("../../../../../../../..", up), 0, "symlink %s", up);
	set_cwd(&t, "/hostlink/made");
	char *out = lc_sh_output(&t, "pwd");
	char *want = ctt_path(host, "made\n");
	cr_expect_str_eq(out, want, "the image's copy of the host path is the cwd");
	free(want);
	free(out);
	set_cwd(&t, "/up/" CLIMBED);
	out = lc_sh_output(&t, "pwd; ls -d /" CLIMBED);
	cr_expect_str_eq(out, "/" CLIMBED "\n/" CLIMBED "\n");
	free(out);

	char *on_host = ctt_path(host, "made");
	cr_expect(!ctt_exists(on_host), "%s was made on the host", on_host);
	char *copy = lc_rootfs_path(&t, host + 1);
	char *in_rootfs = ctt_path(copy, "made");
	cr_expect(ctt_exists(in_rootfs), "%s was not made", in_rootfs);
	char *climbed = lc_rootfs_path(&t, CLIMBED);
	cr_expect(ctt_exists(climbed), "%s was not made", climbed);
	cr_expect(!ctt_exists("/" CLIMBED), "/%s was made on the host", CLIMBED);
	free(climbed);
	free(in_rootfs);
	free(copy);
	free(on_host);
	free(up);
	free(link);
}

/* The runc exploit: cwd /proc/self/fd/N, N an fd of a host directory still open in the
 * init; passed here on purpose with --preserve-fds. */
Test(escapes, cwd_through_a_host_fd_refused)
{
	struct lc t;
	lc_init(&t);
	char *host = ctt_tmpdir();
	int dir = open(host, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dir, 0);
	set_cwd(&t, "/proc/self/fd/3");
	lc_set_script(&t, "ls; touch escaped");
	int status;
	char *out = lc_spawn_output(
		&t,
		lc_ctrun_argv(&t, (const char *const[]){"run", "--preserve-fds", "1", "--bundle",
							t.bundle, ID, NULL}),
		dir, &status);
	close(dir);
	cr_expect_neq(status, 0, "run succeeded: %s", out);
	cr_expect(strstr(out, "cwd \"/proc/self/fd/3\"") != NULL, "error does not name the cwd: %s",
		  out);
	char *escaped = ctt_path(host, "escaped");
	cr_expect(!ctt_exists(escaped), "the container wrote into the host directory");
	lc_assert_nothing_left(&t);
	free(escaped);
	free(out);
}

/* ---- CVE-2016-9962: the runtime's process, seen from the container ---- */

/* Whether pid (seen from the host) holds an fd of a directory outside root: what the
 * attack below would climb out through. */
static bool holds_a_host_directory(pid_t pid, const char *root)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "opendir %s: %s", dir, strerror(errno));
	bool found = false;
	for (struct dirent *e; !found && (e = readdir(d));) {
		char path[320], target[PATH_MAX];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		if (e->d_name[0] == '.' || n <= 0 || stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		target[n] = '\0';
		found = strncmp(target, root, strlen(root)) != 0;
	}
	closedir(d);
	return found;
}

/* What a process of the container reaches of pid 1 (ctrun's until its execve): each fd's
 * link, the directory above a directory fd, the host's core_pattern through a procfs fd
 * (writable there, it runs a program of the container's as root on the host), the init's
 * environment; "fds N" counts the fds it saw. */
#define REACH_PID1                                                                               \
	"n=0; for f in /proc/1/fd/*; do n=$((n + 1)); "                                          \
	"readlink $f >/dev/null 2>&1 && echo \"link $f\"; "                                      \
	"ls $f/.. >/dev/null 2>&1 && echo \"up from $f\"; "                                      \
	"cat $f/../../sys/kernel/core_pattern >/dev/null 2>&1 && echo \"core_pattern via $f\"; " \
	"done; cat /proc/1/environ >/dev/null 2>&1 && echo environ; echo \"fds $n\""

/* The init waits for start as ctrun, holding fds of the host (its fd directory in a procfs
 * of the host's, cgroup directories, the exec fifo). An `exec`'d process of the same uid
 * and capabilities (docker's default set here, the init's by then) is not let in: the init
 * was born not dumpable. Before, /proc/1/fd/N/.. led to the host's cgroup tree and
 * /proc/1/fd/3/../../sys to the host's sysctls. */
Test(escapes, created_init_out_of_reach_of_the_container)
{
	struct lc t;
	lc_init(&t);
	char *caps = lc_shared_config_value("docker-default.json", ".process.capabilities");
	ctt_config_set(t.bundle, ".process.capabilities", caps);
	free(caps);
	ctt_config_set(t.bundle, ".process.noNewPrivileges", "false");
	lc_set_script(&t, "true");
	char *out = ctt_tmp_path("out");
	pid_t init = create_in_background(&t, 0, -1, out);
	char *root = lc_rootfs_path(&t, "");
	cr_assert(holds_a_host_directory(init, root), "the created init holds no host directory");
	struct ctt_result r;
	lc_ctrunv(&r, &t, LC_ARGV("exec", ID, "sh", "-c", REACH_PID1));
	cr_assert_eq(r.status, 0, "exec: exit %d: %s", r.status, r.err);
	const char *newline = strchr(r.out, '\n');
	cr_expect(strncmp(r.out, "fds ", 4) == 0 && atoi(r.out + 4) > 0 && newline &&
			  newline[1] == '\0',
		  "the container reached the created init:\n%s", r.out);
	ctt_result_free(&r);
	lc_ok(&t, "delete", "--force", ID);
	free(root);
	free(out);
}

/* ---- CVE-2022-29162: the inheritable capabilities ---- */

/* Adds cap to this test process's inheritable set, which ctrun inherits (fork, execve). */
static void raise_own_inheritable(int cap)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	cr_assert_eq(syscall(SYS_capget, &hdr, data), 0, "capget: %s", strerror(errno));
	data[cap / 32].inheritable |= 1U << (cap % 32);
	cr_assert_eq(syscall(SYS_capset, &hdr, data), 0, "capset: %s", strerror(errno));
}

/* run, exec and exec --cap each print their CapInh: all empty. */
static void assert_no_inheritable(const struct lc *t)
{
	lc_set_script(t, "grep CapInh /proc/self/status; exec sleep 1000");
	char *out = ctt_tmp_path("out");
	create_in_background(t, 0, -1, out);
	lc_ok(t, "start", ID);
	char *seen = ctt_wait_content(out, "\n");
	cr_expect_str_eq(seen, "CapInh:\t0000000000000000\n", "the container's process");
	const char *const *execs[] = {LC_ARGV("exec", ID, "grep", "CapInh", "/proc/self/status"),
				      LC_ARGV("exec", "--cap", "CAP_SYS_ADMIN", ID, "grep",
					      "CapInh", "/proc/self/status")};
	for (size_t i = 0; i < 2; i++) {
		struct ctt_result r;
		lc_ctrunv(&r, t, execs[i]);
		cr_expect_eq(r.status, 0, "%s: %s", execs[i][1], r.err);
		cr_expect_str_eq(r.out, "CapInh:\t0000000000000000\n", "exec %s", execs[i][1]);
		ctt_result_free(&r);
	}
	lc_ok(t, "delete", "--force", ID);
	free(seen);
	free(out);
}

/* A caller whose inheritable set is not empty (a shell under `capsh --inh`, a daemon's
 * unit with CapabilityInheritable=): with no process.capabilities it passed into the
 * container (runc 1.1.5 clears it), where a program with inheritable file capabilities
 * would gain them even as a user other than root. Docker's capabilities list no
 * inheritable ones: none either. */
Test(escapes, caller_inheritable_capabilities_stay_out)
{
	raise_own_inheritable(CAP_NET_RAW);
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.capabilities", NULL);
	assert_no_inheritable(&t);
	char *caps = lc_shared_config_value("docker-default.json", ".process.capabilities");
	ctt_config_set(t.bundle, ".process.capabilities", caps);
	free(caps);
	assert_no_inheritable(&t);
}

/* ---- CVE-2025-52881: /proc writes redirected by a mount ----
 * The sysctl, oom_score_adj and label writes: test_proc_writes.c, on each of their routes. */

/* A host directory on /proc/1/fd, where the init would reopen its exec fifo through the
 * container's /proc (/proc/self/fd/N): one file per fd number the fifo could have. The init
 * reopens it in its own fd directory, opened before the root changed, so the mount neither
 * gets the write nor stops the start. */
Test(escapes, exec_fifo_not_written_through_a_mount_over_proc_fd)
{
	struct lc t;
	lc_init(&t);
	char *fake = ctt_tmpdir();
	char *files[64];
	for (int i = 0; i < 64; i++) {
		char name[16];
		snprintf(name, sizeof(name), "%d", i);
		files[i] = ctt_path(fake, name);
		ctt_write_file(files[i], "");
	}
	lc_add_mount(&t, "/proc/1/fd", "bind", fake, "bind");
	lc_set_script(&t, "echo ran");
	char *out = ctt_tmp_path("out");
	create_in_background(&t, 0, -1, out);
	lc_assert_status(&t, ID, "created");
	char *before = ctt_read_file(out);
	cr_expect(strstr(before, "ran") == NULL, "the process ran without start: %s", before);
	lc_ok(&t, "start", ID);
	free(ctt_wait_content(out, "ran\n"));
	lc_wait_status(&t, ID, "stopped");
	for (int i = 0; i < 64; i++) {
		ctt_assert_file_text(files[i], "");
		free(files[i]);
	}
	lc_ok(&t, "delete", ID);
	free(before);
	free(out);
}

/* ---- CVE-2025-31133: the /dev/null that masks ---- */

/* One masked path, the image's /etc/masked, so that the test does not depend on the host's
 * /proc; the /dev mounts of the default config gone. */
static void mask_one_file(const struct lc *t)
{
	static const char *const dev[] = {"/dev/pts", "/dev/shm", "/dev/mqueue", "/dev"};
	for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
		lc_remove_mount(t, dev[i]);
	char *masked = lc_rootfs_file(t, "etc/masked", "secret\n");
	free(masked);
	ctt_config_set(t->bundle, ".linux.maskedPaths", "[\"/etc/masked\"]");
}

/* The image's own /dev (no mount there) with /dev/null as make() leaves it. */
static void image_dev_null(const struct lc *t, void (*make)(const char *path))
{
	mask_one_file(t);
	char *null = lc_rootfs_path(t, "dev/null");
	unlink(null);
	make(null);
	free(null);
}

/* /dev bound from a host directory (no default nodes made then) whose null make() makes. */
static void bound_dev_null(const struct lc *t, void (*make)(const char *path))
{
	mask_one_file(t);
	char *dev = ctt_tmpdir();
	char *null = ctt_path(dev, "null");
	make(null);
	lc_add_mount(t, "/dev", "bind", dev, "rbind");
	free(null);
	free(dev);
}

static void make_regular(const char *path)
{
	ctt_write_file(path, "not null\n");
}

static void make_link_to_victim(const char *path)
{
	cr_assert_eq(symlink("/host/victim", path), 0, "symlink %s: %s", path, strerror(errno));
}

static void make_null_node(const char *path)
{
	cr_assert_eq(mknod(path, S_IFCHR | 0666, makedev(1, 3)), 0, "mknod %s: %s", path,
		     strerror(errno));
}

#define NULL_AND_MASKED "stat -c '%n %F %t:%T' /dev/null /etc/masked; wc -c </etc/masked"
#define BOTH_NULL                                \
	"/dev/null character special file 1:3\n" \
	"/etc/masked character special file 1:3\n0\n"

/* Without a /dev mount the default nodes are made in the image's /dev, replacing what is
 * there: the masks bind the real null device. */
Test(escapes, image_dev_null_file_replaced_by_the_null_device)
{
	struct lc t;
	lc_init(&t);
	image_dev_null(&t, make_regular);
	lc_assert_sh_output(&t, NULL_AND_MASKED, BOTH_NULL);
}

/* The link leads to a host file bound into the container: it is replaced, never followed. */
Test(escapes, image_dev_null_symlink_to_a_host_file_replaced)
{
	struct lc t;
	lc_init(&t);
	char *host = ctt_tmpdir();
	char *victim = ctt_path(host, "victim");
	ctt_write_file(victim, "victim\n");
	lc_add_mount(&t, "/host", "bind", host, "rbind");
	image_dev_null(&t, make_link_to_victim);
	char *out = lc_sh_output(&t, NULL_AND_MASKED "; cat /host/victim");
	cr_expect_str_eq(out, BOTH_NULL "victim\n");
	ctt_assert_file_text(victim, "victim\n");
	free(out);
	free(victim);
}

/* A /dev of the config's (a bind) keeps its own nodes: a null there that is a file is
 * refused for masking. */
Test(escapes, mask_refuses_a_bound_dev_null_that_is_a_file)
{
	struct lc t;
	lc_init(&t);
	bound_dev_null(&t, make_regular);
	lc_assert_create_refused(&t, ID,
				 (const char *const[]){"mask \"/etc/masked\"", "\"/dev/null\"",
						       "not the null device", NULL});
}

/* A real null device in the image's /dev is used: the masked file reads as it. */
Test(escapes, mask_uses_the_image_null_device)
{
	struct lc t;
	lc_init(&t);
	image_dev_null(&t, make_null_node);
	lc_assert_sh_output(&t, NULL_AND_MASKED, BOTH_NULL);
}

/* A mount of the host's below a tree the config rbinds: runc spec --rootless's /sys, where
 * a host has securityfs, tracefs or debugfs, in a user namespace whose root is the host's
 * root (what that config maps when root runs it). Plain ro is the top mount's, as config.md
 * and runc say (mounts/rro_reaches_the_submounts_and_ro_does_not); with rro, rnosuid, rnodev
 * and rnoexec every mount below is read-only too, the ones the user namespace locks
 * included, and a write there reaches nothing of the host's. */
#define SUBMOUNT  "/sys/kernel/security"
#define HOST_FILE SUBMOUNT "/host-file"

/* The host's mount at SUBMOUNT is the test's own, a tmpfs holding HOST_FILE, in a mount
 * namespace of its own. */
static void make_own_submount(void)
{
	if (access(SUBMOUNT, F_OK) != 0)
		ctt_skip("%s: %s (a kernel without securityfs)", SUBMOUNT, strerror(errno));
	cr_assert_eq(unshare(CLONE_NEWNS), 0, "unshare: %s", strerror(errno));
	cr_assert_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0, "make private: %s",
		     strerror(errno));
	while (umount2(SUBMOUNT, MNT_DETACH) == 0)
		continue;
	cr_assert_eq(mount("escape-submount", SUBMOUNT, "tmpfs", 0, "size=64k,mode=1777"), 0,
		     "mount tmpfs on %s: %s", SUBMOUNT, strerror(errno));
	ctt_write_file(HOST_FILE, "host\n");
}

/* What the container prints: the options of its SUBMOUNT, then how each write went. */
#define TRY_SUBMOUNT_WRITES                                                             \
	"grep ' " SUBMOUNT " ' /proc/self/mountinfo | cut -d' ' -f6; "                  \
	"echo escaped >" HOST_FILE " 2>/dev/null && echo overwritten || echo refused; " \
	"echo escaped >" SUBMOUNT "/x 2>/dev/null && echo created || echo refused"

/* t's container tried TRY_SUBMOUNT_WRITES (its output is out): the submount was read-only
 * inside, and the host sees its file as it was and nothing new. */
static void assert_submount_untouched(const char *out)
{
	cr_expect(ctt_matches(out, "^ro,nosuid,nodev,noexec(,[a-z]*)*\nrefused\nrefused\n$"),
		  "the host's mount below /sys, and writes into it:\n%s", out);
	ctt_assert_file_text(HOST_FILE, "host\n");
	struct stat st;
	cr_expect(stat(SUBMOUNT "/x", &st) < 0 && errno == ENOENT,
		  "the container wrote %s/x on the host", SUBMOUNT);
}

Test(escapes, host_mount_below_an_rro_rbind_of_sys_is_not_writable_in_a_user_namespace)
{
	make_own_submount();
	struct lc t;
	lc_init(&t);
	lc_map_root(&t, 0, 65536);
	lc_namespace_set(&t, "network", NULL);
	lc_remove_mount(&t, "/sys/fs/cgroup");
	lc_remove_mount(&t, "/sys");
	lc_add_mount(&t, "/sys", "bind", "/sys",
		     "rbind,nosuid,noexec,nodev,ro,rro,rnosuid,rnodev,rnoexec");
	char *out = lc_sh_output(&t, TRY_SUBMOUNT_WRITES);
	assert_submount_untouched(out);
	free(out);
	lc_assert_nothing_left(&t);
}

/* `ctrun spec --rootless` as root runs it: root in the container is the host's root, and
 * the host's mounts below /sys come with its rbind. Where the kernel has mount_setattr the
 * spec asks for rro and the like (runc spec --rootless writes plain ro, which leaves them
 * writable): they stay out of reach. Without the call no runtime could apply rro, and the
 * spec writes plain ro (spec/rootless_sys_plain_ro_without_mount_setattr). */
Test(escapes, spec_rootless_run_by_root_cannot_write_a_host_mount_below_sys)
{
	ctt_require_mount_setattr();
	make_own_submount();
	struct lc t;
	lc_init(&t);
	lc_use_rootless_spec(&t);
	char *out = lc_sh_output(&t, "tr -s ' ' </proc/self/uid_map; " TRY_SUBMOUNT_WRITES);
	const char *writes = strchr(out, '\n');
	cr_assert_not_null(writes, "no uid_map line:\n%s", out);
	cr_expect(strncmp(out, " 0 0 1\n", 7) == 0, "not root mapped to host root:\n%s", out);
	assert_submount_untouched(writes + 1);
	free(out);
	lc_assert_nothing_left(&t);
}
