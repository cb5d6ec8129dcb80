/* What Podman (through conmon) and containerd (through its runc shim) hand ctrun (issue
 * 11). tests/fixtures/podman-config.json is podman 4.3's own config.json (`podman init` of
 * `--read-only --ulimit nofile=1024 --ulimit nproc=512 --personality LINUX32 --umask 0027`,
 * its paths replaced by @NAMES@): tmpcopyup tmpfs, file binds, a "cgroup" mount, a
 * deny-all device list, a network namespace joined by path, cgroupsPath
 * /libpod_parent/libpod-ID, 437 seccomp names with defaultErrnoRet 38 and argument
 * conditions. containerd-config.json is containerd 1.6's default spec: root.path
 * relative, noNewPrivileges, tmpfs /run, explicit device rules, cgroupsPath /<ns>/<id>.
 *
 * Each runs as its client runs it: the client's flag forms, a pid file read once create
 * has exited, the test as the subreaper the init is handed to, a leaked fd 3 and conmon's
 * stale _OCI_*PIPE variables; checked from inside (what the process sees) and outside
 * (pid file, parent, cgroup files, exit status, the JSON log, nothing left). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/lib/cgroup.h"

TestSuite(clients, .fini = lc_cleanup);

/* One container as a client drives it. */
struct client {
	struct lc t;
	char id[80];
	char *pidfile, *log, *out; /* out: the container's stdout and stderr, and create's */
};

static void client_init(struct client *c, const char *id_prefix)
{
	lc_init(&c->t);
	snprintf(c->id, sizeof(c->id), "%s%d", id_prefix, (int)getpid());
	char *dir = ctt_tmpdir();
	c->pidfile = ctt_path(dir, "init.pid");
	c->log = ctt_path(dir, "log.json");
	c->out = ctt_path(dir, "out");
	free(dir);
}

/* text with every key replaced by value, malloc'd. */
static char *replace_all(const char *text, const char *key, const char *value)
{
	size_t klen = strlen(key), vlen = strlen(value), n = 0;
	for (const char *p = strstr(text, key); p; p = strstr(p + klen, key))
		n++;
	char *out = malloc(strlen(text) + n * vlen + 1), *w = out;
	cr_assert_not_null(out);
	for (const char *p = text, *hit; (hit = strstr(p, key)); p = hit + klen) {
		memcpy(w, p, (size_t)(hit - p));
		w = stpcpy(w + (hit - p), value);
		text = hit + klen;
	}
	strcpy(w, text);
	return out;
}

/* tests/fixtures/name with each "@KEY@" of subst (key, value pairs) replaced becomes the
 * bundle's config.json, with the CTT_MARK by which the helpers find leftovers. */
static void install_fixture(const struct client *c, const char *name, const char *const *subst)
{
	const char *src = getenv("CTRUN_SRC");
	cr_assert_not_null(src, "CTRUN_SRC is not set (run through make integration)");
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", src, name);
	char *text = ctt_read_file(path);
	for (; subst && subst[0]; subst += 2) {
		char *next = replace_all(text, subst[0], subst[1]);
		free(text);
		text = next;
	}
	char *config = ctt_path(c->t.bundle, "config.json");
	ctt_write_file(config, text);
	char mark[4200];
	snprintf(mark, sizeof(mark), "\"CTT_MARK=%s\"", c->t.root);
	lc_config_append(&c->t, ".process.env", mark);
	free(config);
	free(text);
}

/* `ctrun --root ROOT args...` as the clients start it: a leaked fd 3 (containerd's
 * socket, as it were) and conmon's stale _OCI_*PIPE variables; stdout and stderr to out.
 * Returns its exit status. */
static int run_leaky(const struct client *c, const char *const *args, const char *out)
{
	cr_assert_eq(setenv("_OCI_SYNCPIPE", "3", 1) | setenv("_OCI_STARTPIPE", "3", 1), 0);
	int leak = open(c->t.bundle, O_RDONLY | O_DIRECTORY);
	cr_assert_geq(leak, 0);
	pid_t p = lc_spawn(&c->t, lc_ctrun_argv(&c->t, args), out, leak);
	int status = lc_wait(p, 20000);
	close(leak);
	unsetenv("_OCI_SYNCPIPE");
	unsetenv("_OCI_STARTPIPE");
	return status;
}

/* The pid in pidfile, written before the command exited, of a process whose parent is now
 * the test: the subreaper it was handed to. */
static pid_t assert_pid_file_of_our_child(const char *pidfile)
{
	cr_assert(ctt_exists(pidfile), "no pid file once the command has exited");
	char *text = ctt_read_file(pidfile);
	pid_t pid = (pid_t)atoi(text);
	cr_assert_gt(pid, 0, "pid file: \"%s\"", text);
	char status_file[64], ppid[32];
	snprintf(status_file, sizeof(status_file), "/proc/%d/status", pid);
	snprintf(ppid, sizeof(ppid), "\nPPid:\t%d\n", (int)getpid());
	char *st = ctt_read_file(status_file);
	cr_expect(strstr(st, ppid), "%d is not the subreaper's child:\n%s", pid, st);
	free(st);
	free(text);
	return pid;
}

/* The client's `create` (args after the global flags), which must exit 0 having written
 * the pid file; the init, whose pid that is, then belongs to the test. Returns the pid. */
static pid_t client_create(const struct client *c, const char *const *args)
{
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	int status = run_leaky(c, args, c->out);
	cr_assert_eq(status, 0, "create: exit %d: %s", status, ctt_read_file(c->out));
	pid_t pid = assert_pid_file_of_our_child(c->pidfile);
	cr_expect_eq(pid, lc_pid(&c->t, c->id), "the pid file and state disagree");
	return pid;
}

/* conmon's exec: `exec --process P --detach --pid-file F ID` of `sh -c script`; waits for
 * the process (the test's child once exec is gone) and returns its output. */
static char *client_exec_detached(const struct client *c, const char *const *globals,
				  const char *script)
{
	char *dir = ctt_tmpdir(), *process = ctt_path(dir, "process.json");
	char *pidfile = ctt_path(dir, "exec.pid"), *out = ctt_path(dir, "out");
	char *quoted = ctt_json_quote(script), json[4096];
	snprintf(json, sizeof(json),
		 "{\"args\": [\"sh\", \"-c\", %s], \"cwd\": \"/\", \"user\": {\"uid\": 0, "
		 "\"gid\": 0}, \"env\": [\"PATH=/bin\"]}",
		 quoted);
	ctt_write_file(process, json);
	int status =
		run_leaky(c,
			  LC_ARGV(globals[0], globals[1], globals[2], globals[3], "exec",
				  "--process", process, "--detach", "--pid-file", pidfile, c->id),
			  out);
	cr_assert_eq(status, 0, "exec: exit %d: %s", status, ctt_read_file(out));
	pid_t pid = assert_pid_file_of_our_child(pidfile);
	int ws;
	cr_assert_eq(waitpid(pid, &ws, 0), pid);
	cr_expect(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "exec'd process: status 0x%x", ws);
	char *text = ctt_read_file(out);
	free(quoted), free(out), free(pidfile), free(process), free(dir);
	return text;
}

/* The init's exit status, reaped by the test (the subreaper) once state says stopped. */
static int reap_init(const struct client *c, pid_t pid)
{
	lc_wait_status(&c->t, c->id, "stopped");
	int ws;
	cr_assert_eq(waitpid(pid, &ws, 0), pid, "waitpid %d: %s", pid, strerror(errno));
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* A file holding nothing, or no file: the log after commands that all succeeded. */
static void assert_log_empty(const char *log)
{
	if (!ctt_exists(log))
		return;
	char *text = ctt_read_file(log);
	cr_expect_str_eq(text, "", "records in the log though nothing failed");
	free(text);
}

/* The cgroup file of an absolute cgroupsPath in controller's hierarchy, or NULL when the
 * host has no such hierarchy. */
static char *cgroup_file(const char *controller, const char *path, const char *file)
{
	char *dir = cgt_root_dir(controller, path);
	if (!dir)
		return NULL;
	char *f = ctt_path(dir, file);
	free(dir);
	return f;
}

/* ---- Podman ---- */

/* A process in a network namespace of its own: Podman's pods join the infra container's
 * namespaces by /proc/<pid>/ns paths. Returns its pid once the namespace is there. */
static pid_t netns_holder(const struct client *c)
{
	char *log = ctt_tmp_path("holder");
	pid_t pid = lc_spawn(&c->t, LC_ARGV("/usr/bin/unshare", "--net", "sleep", "1000"), log, -1);
	char who[32], *mine = ctt_ns_link("self", "net");
	snprintf(who, sizeof(who), "%d", (int)pid);
	for (int i = 0; i < 1000; i++) {
		char *theirs = ctt_ns_link(who, "net");
		bool moved = strcmp(theirs, mine) != 0 && strstr(theirs, "net:");
		free(theirs);
		if (moved)
			break;
		usleep(10000);
	}
	free(mine);
	free(log);
	return pid;
}

/* Podman's userdata directory: hostname, hosts, resolv.conf, shm, run/.containerenv. */
static char *podman_userdata(void)
{
	char *dir = ctt_tmpdir();
	static const char *const files[][2] = {{"hostname", "ctrunpod\n"},
					       {"hosts", "127.0.0.1 localhost ctrunpod\n"},
					       {"resolv.conf", "nameserver 10.88.0.1\n"},
					       {"run/.containerenv", "engine=\"podman-4.3.1\"\n"}};
	char *shm = ctt_path(dir, "shm"), *run = ctt_path(dir, "run");
	ctt_mkdir_p(shm);
	ctt_mkdir_p(run);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *f = ctt_path(dir, files[i][0]);
		ctt_write_file(f, files[i][1]);
		free(f);
	}
	free(run);
	free(shm);
	return dir;
}

#define PODMAN_VIEW                                                                         \
	"exec 2>&1; uname -m; umask; ulimit -n; ulimit -u; cat /run/img/marker; "           \
	"touch /run/new && echo run-writable; cat /etc/hostname /run/.containerenv; "       \
	"touch /etc/hosts 2>/dev/null || echo hosts-ro; "                                   \
	"touch /sys/fs/cgroup/x 2>/dev/null || echo cgroup-ro; "                            \
	"cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max; "     \
	"readlink /proc/self/ns/net; grep Seccomp: /proc/self/status; "                     \
	"sysprobe personality:8 personality:0x40008; "                                      \
	"head -c 3 /dev/zero | wc -c; echo x > /dev/null && echo null-ok; ls /proc/$$/fd; " \
	"env | grep -c _OCI_; echo end"

static const char podman_want_fmt[] =
	"i686\n0027\n1024\n512\nfrom the image\nrun-writable\n"
	"ctrunpod\nengine=\"podman-4.3.1\"\nhosts-ro\ncgroup-ro\n"
	"2048\n%s\nSeccomp:\t2\npersonality=ok\npersonality=ENOSYS\n3\n"
	"null-ok\n0\n1\n2\n0\nend\n";

/* Outside, while created: the cgroup has the pids limit and, for the deny-all device
 * list, the standard devices ctrun adds as runc does (v1; the v2 eBPF program is tested by the
 * bpf_devices suite). */
static void assert_podman_cgroup(const char *path)
{
	char *pids = cgroup_file("pids", path, "pids.max");
	if (pids) {
		char *v = ctt_read_file(pids);
		cr_expect_str_eq(v, "2048\n");
		free(v);
	}
	char *devices = cgroup_file("devices", path, "devices.list");
	if (devices && ctt_exists(devices)) {
		char *list = ctt_read_file(devices);
		static const char *const standard[] = {"b *:* m",      "c *:* m",    "c 1:3 rwm",
						       "c 1:5 rwm",    "c 1:7 rwm",  "c 1:8 rwm",
						       "c 1:9 rwm",    "c 5:0 rwm",  "c 5:2 rwm",
						       "c 10:200 rwm", "c 136:* rwm"};
		for (size_t i = 0; i < sizeof(standard) / sizeof(standard[0]); i++)
			cr_expect(strstr(list, standard[i]), "%s missing:\n%s", standard[i], list);
		cr_expect_not(strstr(list, "a *:* rwm"), "everything allowed:\n%s", list);
		free(list);
	}
	free(devices);
	free(pids);
}

Test(clients, podman_config_as_conmon_runs_it)
{
	struct client c;
	client_init(&c, "0123456789abcdef");
	char *userdata = podman_userdata(), *rootfs = lc_rootfs_path(&c.t, "");
	char *marker = lc_rootfs_path(&c.t, "run/img/marker");
	char *img = lc_rootfs_path(&c.t, "run/img");
	ctt_mkdir_p(img);
	ctt_write_file(marker, "from the image\n");
	char holder[32], cgpath[128];
	pid_t holder_pid = netns_holder(&c);
	snprintf(holder, sizeof(holder), "%d", (int)holder_pid);
	snprintf(cgpath, sizeof(cgpath), "/libpod_parent/libpod-%s", c.id);
	char *parent = cgt_root_dir("pids", "/libpod_parent");
	bool parent_existed = parent && ctt_exists(parent);
	install_fixture(&c, "podman-config.json",
			LC_ARGV("@ROOTFS@", rootfs, "@USERDATA@", userdata, "@ID@", c.id,
				"@NETNS_PID@", holder));
	lc_set_script(&c.t, PODMAN_VIEW);
	lc_install_sysprobe(&c.t);

	char log_flag[4200], bundle_flag[4200], pid_flag[4200];
	snprintf(log_flag, sizeof(log_flag), "--log=%s", c.log);
	snprintf(bundle_flag, sizeof(bundle_flag), "--bundle=%s", c.t.bundle);
	snprintf(pid_flag, sizeof(pid_flag), "--pid-file=%s", c.pidfile);
	pid_t pid = client_create(
		&c, LC_ARGV(log_flag, "--log-format=json", "create", bundle_flag, pid_flag, c.id));
	assert_podman_cgroup(cgpath);
	lc_ok(&c.t, log_flag, "--log-format=json", "start", c.id);
	cr_expect_eq(reap_init(&c, pid), 0);

	char *net = ctt_ns_link(holder, "net"), want[sizeof(podman_want_fmt) + 64];
	snprintf(want, sizeof(want), podman_want_fmt, net);
	char *out = ctt_read_file(c.out);
	cr_expect_str_eq(out, want);
	assert_log_empty(c.log);
	/* podman's rm: delete --force, without runtime flags; again on the deleted one */
	lc_ok(&c.t, "delete", "--force", c.id);
	lc_ok(&c.t, "delete", "--force", c.id);
	char *cg = cgt_root_dir("pids", cgpath);
	cr_expect(!cg || !ctt_exists(cg), "cgroup left: %s", cg);
	cr_expect(parent_existed || !parent || !ctt_exists(parent), "ctrun's parent left");
	cr_assert_eq(kill(holder_pid, SIGKILL), 0); /* ours, lc_spawn()ed */
	lc_wait(holder_pid, 10000);
	lc_assert_nothing_left(&c.t);
	free(cg), free(out), free(net), free(parent), free(img), free(marker), free(rootfs);
	free(userdata);
}

/* ---- containerd ---- */

#define CONTAINERD_VIEW                                                                       \
	"trap 'echo got-term; exit 143' TERM; exec 2>&1; grep NoNewPrivs /proc/self/status; " \
	"ulimit -n; grep -c ' /run .* - tmpfs ' /proc/self/mountinfo; "                       \
	"(mknod /dev/blk b 7 0 && head -c 1 /dev/blk) >/dev/null 2>&1 || echo loop-denied; "  \
	"head -c 1 /dev/full | wc -c; ls /proc/$$/fd; env | grep -c _OCI_; echo ready; "      \
	"while :; do sleep 0.1; done"

static const char containerd_want[] = "NoNewPrivs:\t1\n1024\n1\nloop-denied\n1\n0\n1\n2\n0\n"
				      "ready\ngot-term\n";

/* `ps --format json ID`: a JSON array of host pids, the init among them. */
static void assert_ps_json_has(const struct client *c, const char *const *globals, pid_t pid)
{
	struct ctt_result r;
	lc_ctrun(&r, &c->t, globals[0], globals[1], globals[2], globals[3], "ps", "--format",
		 "json", c->id);
	cr_assert_eq(r.status, 0, "ps: %s", r.err);
	yajl_val v = ctt_json_parse(r.out, "ps --format json");
	cr_assert(YAJL_IS_ARRAY(v), "not an array: %s", r.out);
	bool found = false;
	for (size_t i = 0; i < v->u.array.len; i++)
		found |= YAJL_IS_INTEGER(v->u.array.values[i]) &&
			 YAJL_GET_INTEGER(v->u.array.values[i]) == pid;
	cr_expect(found, "pid %d not in %s", pid, r.out);
	yajl_tree_free(v);
	ctt_result_free(&r);
}

Test(clients, containerd_config_as_the_shim_runs_it)
{
	struct client c;
	client_init(&c, "ctd-");
	char ns[64], cgpath[160];
	snprintf(ns, sizeof(ns), "ctrun-test-ns-%d", (int)getpid());
	snprintf(cgpath, sizeof(cgpath), "/%s/%s", ns, c.id);
	install_fixture(&c, "containerd-config.json", LC_ARGV("@NAMESPACE@", ns, "@ID@", c.id));
	lc_set_script(&c.t, CONTAINERD_VIEW);
	free(c.pidfile);
	c.pidfile = ctt_path(c.t.bundle, "init.pid");
	const char *const globals[] = {"--log", c.log, "--log-format", "json"};
	pid_t pid =
		client_create(&c, LC_ARGV(globals[0], globals[1], globals[2], globals[3], "create",
					  "--bundle", c.t.bundle, "--pid-file", c.pidfile, c.id));
	char *dir = cgt_root_dir("pids", cgpath);
	cr_expect(!dir || ctt_exists(dir), "no cgroup at %s", dir);
	lc_ok(&c.t, globals[0], globals[1], globals[2], globals[3], "start", c.id);
	free(ctt_wait_content(c.out, "ready\n"));
	assert_ps_json_has(&c, globals, pid);
	char *exec_out =
		client_exec_detached(&c, globals, "ls /proc/$$/fd; env | grep -c _OCI_; true");
	cr_expect_str_eq(exec_out, "0\n1\n2\n0\n", "the exec'd process's fds and _OCI_ variables");
	free(exec_out);
	lc_ok(&c.t, globals[0], globals[1], globals[2], globals[3], "kill", c.id, "15");
	cr_expect_eq(reap_init(&c, pid), 143);
	char *out = ctt_read_file(c.out);
	cr_expect_str_eq(out, containerd_want);
	/* the shim's delete, then delete --force of the deleted container */
	lc_ok(&c.t, globals[0], globals[1], globals[2], globals[3], "delete", c.id);
	lc_ok(&c.t, globals[0], globals[1], globals[2], globals[3], "delete", "--force", c.id);
	assert_log_empty(c.log);
	struct ctt_result r;
	lc_ctrun(&r, &c.t, globals[0], globals[1], globals[2], globals[3], "kill", c.id, "9");
	cr_expect_neq(r.status, 0);
	ctt_result_free(&r);
	char gone[200];
	snprintf(gone, sizeof(gone), "container \"%s\" does not exist", c.id);
	ctt_assert_log_one_error(c.log, gone);
	char *nsdir = cgt_root_dir("pids", ns);
	cr_expect(!dir || !ctt_exists(dir), "cgroup left: %s", dir);
	cr_expect(!nsdir || !ctt_exists(nsdir), "the namespace's cgroup left: %s", nsdir);
	lc_assert_nothing_left(&c.t);
	free(nsdir), free(out), free(dir);
}

/* conmon's create of a terminal container, every flag in the `--flag=value` form it uses
 * (--bundle=, --pid-file=, --console-socket=, --preserve-fds=): the pty master reaches the
 * socket; inside, a terminal on 0-2 and the preserved fd 3. */
Test(clients, conmon_tty_create_with_every_flag_as_flag_equals_value)
{
	struct client c;
	client_init(&c, "tty-");
	ctt_config_set(c.t.bundle, ".process.terminal", "true");
	lc_set_script(&c.t, "tty; ls -1 /proc/$$/fd; echo end");
	char *dir = ctt_tmpdir(), *sock = ctt_path(dir, "console.sock");
	char *tty_out = ctt_path(dir, "tty.out");
	pid_t receiver = lc_console_receiver(&c.t, sock, tty_out, NULL);
	char bundle_flag[4200], pid_flag[4200], sock_flag[4200];
	snprintf(bundle_flag, sizeof(bundle_flag), "--bundle=%s", c.t.bundle);
	snprintf(pid_flag, sizeof(pid_flag), "--pid-file=%s", c.pidfile);
	snprintf(sock_flag, sizeof(sock_flag), "--console-socket=%s", sock);
	pid_t pid = client_create(
		&c, LC_ARGV("create", bundle_flag, pid_flag, sock_flag, "--preserve-fds=1", c.id));
	lc_ok(&c.t, "start", c.id);
	cr_expect_eq(reap_init(&c, pid), 0);
	cr_expect_eq(lc_wait(receiver, 30000), 0, "console_receiver failed");
	char *text = ctt_read_file(tty_out);
	ctt_strip_cr(text);
	cr_expect_str_eq(text, "ready\n/dev/pts/0\n0\n1\n2\n3\nend\n");
	lc_ok(&c.t, "delete", c.id);
	lc_assert_nothing_left(&c.t);
	free(text), free(tty_out), free(sock), free(dir);
}
