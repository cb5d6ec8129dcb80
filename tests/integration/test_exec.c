/* `ctrun exec` (runc's command): a process joins a running container. Checked from outside
 * (exit codes, output, pid file, `state`) and from inside (id, pwd, env, the Cap, NoNewPrivs
 * and Seccomp lines of /proc/self/status, namespaces by inode against the init's, the open
 * fds), plus --process documents, the terminal, concurrency and the spawn fallbacks. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(exec, .fini = lc_cleanup);

#define ID	"ex"
#define WAIT_MS 20000

/* A running container whose init sleeps, with a writable root for markers. */
static void ex_start(struct lc *t)
{
	lc_init(t);
	ctt_config_set(t->bundle, ".root.readonly", "false");
	lc_set_args(t, LC_ARGV("sleep", "1000"));
	lc_ok(t, "run", "--detach", "--bundle", t->bundle, ID);
}

/* `exec ID args...` (after the flags in args): its result. */
static void ex_run(struct ctt_result *r, const struct lc *t, const char *const *args)
{
	const char *argv[32] = {"exec"};
	size_t n = 1;
	for (; args[n - 1]; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	lc_ctrunv(r, t, argv);
}

/* exec succeeds; its stdout (malloc'd). */
static char *ex_output(const struct lc *t, const char *const *args)
{
	struct ctt_result r;
	ex_run(&r, t, args);
	cr_assert_eq(r.status, 0, "exec: exit %d\nstdout: %s\nstderr: %s", r.status, r.out, r.err);
	char *out = strdup(r.out);
	ctt_result_free(&r);
	return out;
}

/* exec succeeds and writes nothing on its own stdout (the process's output goes elsewhere). */
static void assert_exec_quiet(const struct lc *t, const char *const *args)
{
	char *out = ex_output(t, args);
	cr_expect_str_empty(out, "exec wrote on its stdout");
	free(out);
}

/* The exit status of a spawned ctrun is want; what it wrote to the file out (malloc'd). */
static char *waited_output(pid_t ctrun, const char *out, int want)
{
	int status = lc_wait(ctrun, WAIT_MS);
	cr_expect_eq(status, want, "ctrun exec exited %d", status);
	return ctt_read_file(out);
}

static void assert_exec_status(const struct lc *t, const char *const *args, int want,
			       const char *err_needle)
{
	struct ctt_result r;
	ex_run(&r, t, args);
	cr_expect_eq(r.status, want, "exec %s: exit %d, stderr: %s", args[1], r.status, r.err);
	if (err_needle)
		ctt_assert_error(&r, err_needle);
	ctt_result_free(&r);
}

Test(exec, joins_every_namespace_and_the_root_of_the_init)
{
	struct lc t;
	ex_start(&t);
	char *marker = lc_rootfs_file(&t, "in-the-rootfs", "");
	char *out = ex_output(&t, LC_ARGV(ID, "sh", "-c",
					  "echo; for n in mnt pid net ipc uts cgroup user; do echo "
					  "\"$n $(readlink /proc/self/ns/$n)\"; done; "
					  "echo \"init $(cat /proc/1/cmdline | tr '\\0' ' ')\"; "
					  "echo \"me $$\"; ls /"));
	pid_t init = lc_pid(&t, ID);
	static const char *const names[] = {"mnt", "pid", "net", "ipc", "uts", "cgroup", "user"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[64], target[128] = "", want[160];
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", init, names[i]);
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		cr_assert_gt(n, 0, "readlink %s", path);
		snprintf(want, sizeof(want), "\n%s %s\n", names[i], target);
		cr_expect(strstr(out, want), "no \"%s\" in:\n%s", want, out);
	}
	ctt_assert_line(out, "^init sleep 1000 $");
	cr_expect_not(ctt_matches(out, "^me 1$"), "the exec'd process is not the init:\n%s", out);
	ctt_assert_line(out, "^in-the-rootfs$");
	lc_assert_status(&t, ID, "running");
	free(out);
	free(marker);
}

Test(exec, exit_codes_as_runc_and_podman_expect)
{
	struct lc t;
	ex_start(&t);
	char *plain = lc_rootfs_file(&t, "not-executable", "echo never\n");
	chmod(plain, 0644);
	assert_exec_status(&t, LC_ARGV(ID, "true"), 0, NULL);
	assert_exec_status(&t, LC_ARGV(ID, "sh", "-c", "exit 3"), 3, NULL);
	assert_exec_status(&t, LC_ARGV(ID, "sh", "-c", "kill -9 $$"), 137, NULL);
	assert_exec_status(&t, LC_ARGV(ID, "no-such-command"), 127,
			   "executable file not found in $PATH");
	assert_exec_status(&t, LC_ARGV(ID, "/no/such/file"), 127, "no such file or directory");
	assert_exec_status(&t, LC_ARGV(ID, "/not-executable"), 126, "permission denied");
	assert_exec_status(&t, LC_ARGV(ID, "/tmp"), 126, "exec \"/tmp\": permission denied");
	assert_exec_status(&t, LC_ARGV("--cwd", "/no-such-dir", ID, "true"), 255, "/no-such-dir");
	free(plain);
	char *status = lc_status(&t, ID);
	cr_expect_str_eq(status, "running", "a failed exec leaves the container as it was");
	free(status);
}

Test(exec, user_groups_cwd_and_env_flags)
{
	struct lc t;
	ex_start(&t);
	char *out = ex_output(&t, LC_ARGV("--user", "1000:1001", "-g", "5", "--additional-gids=6",
					  "--cwd", "/tmp", "-e", "FOO=bar", "--env=TERM=dumb", ID,
					  "sh", "-c", "id; pwd; env"));
	ctt_assert_line(out, "^uid=1000 gid=1001 groups=5[^,]*,6$");
	ctt_assert_line(out, "^/tmp$");
	ctt_assert_line(out, "^FOO=bar$");
	ctt_assert_line(out, "^TERM=dumb$"); /* config.json's TERM=xterm replaced */
	cr_expect_not(ctt_matches(out, "^TERM=xterm$"), "TERM twice:\n%s", out);
	ctt_assert_line(out, "^CTT_MARK="); /* the rest of config.json's env */
	free(out);
	out = ex_output(&t, LC_ARGV("-u", "7", ID, "id"));
	ctt_assert_line(out, "^uid=7 gid=0"); /* the config's gid stays */
	free(out);
}

/* runc 1.1.5 refuses --env FOO ("invalid environment variable", 255); crun 1.8.1 drops it
 * (and the config's env with it); ctrun passed "FOO" on, which shells read as unset. Now a
 * usage error before anything runs. A name given twice keeps the last value, in its place. */
Test(exec, env_flag_without_name_value_is_refused_and_twice_keeps_the_last)
{
	struct lc t;
	ex_start(&t);
	char *ran = lc_rootfs_path(&t, "ran");
	static const char *const bad[] = {"FOO", "=x"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];
		snprintf(want, sizeof(want), "--env: \"%s\" is not NAME=VALUE", bad[i]);
		assert_exec_status(&t, LC_ARGV("--env", bad[i], ID, "touch", "/ran"), 1, want);
		cr_expect(!ctt_exists(ran), "the process ran with --env %s", bad[i]);
	}
	lc_assert_status(&t, ID, "running");
	char *out = ex_output(&t, LC_ARGV("-e", "A=1", "-e", "B=1", "-e", "A=2", ID, "env"));
	cr_expect(ctt_matches(out, "^A=2\nB=1$"), "A not replaced in its place:\n%s", out);
	cr_expect_not(ctt_matches(out, "^A=1$"), "A twice:\n%s", out);
	free(out);
	free(ran);
}

static char *status_lines(const struct lc *t, const char *const *flags)
{
	const char *args[16];
	size_t n = 0;
	for (; flags && flags[n]; n++)
		args[n] = flags[n];
	args[n++] = ID;
	args[n++] = "grep";
	args[n++] = "-E";
	args[n++] = "^(Cap|NoNewPrivs|Seccomp:)";
	args[n++] = "/proc/self/status";
	args[n] = NULL;
	return ex_output(t, args);
}

Test(exec, capabilities_no_new_privs_and_seccomp_of_the_config)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".linux.seccomp",
		       "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"mkdir\","
		       "\"mkdirat\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":1}]}");
	ctt_config_set(t.bundle, ".process.rlimits",
		       "[{\"type\":\"RLIMIT_NOFILE\",\"soft\":777,\"hard\":778}]");
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	char *out = status_lines(&t, NULL);
	/* `ctrun spec`: AUDIT_WRITE, KILL, NET_BIND_SERVICE; noNewPrivileges true */
	ctt_assert_line(out, "^CapEff:\t0000000020000420$");
	ctt_assert_line(out, "^CapBnd:\t0000000020000420$");
	ctt_assert_line(out, "^NoNewPrivs:\t1$");
	ctt_assert_line(out, "^Seccomp:\t2$");
	free(out);
	out = status_lines(
		&t, LC_ARGV("--cap", "CAP_SYS_ADMIN", "-c", "net_raw", "--no-new-privs=false"));
	ctt_assert_line(out, "^CapEff:\t0000000020202420$");
	ctt_assert_line(out, "^CapPrm:\t0000000020202420$");
	ctt_assert_line(out, "^CapBnd:\t0000000020202420$");
	ctt_assert_line(out, "^NoNewPrivs:\t0$");
	ctt_assert_line(out, "^Seccomp:\t2$");
	free(out);
	out = ex_output(&t, LC_ARGV(ID, "sh", "-c",
				    "ulimit -n; ulimit -Hn; mkdir /tmp/x || echo "
				    "refused"));
	ctt_assert_line(out, "^777$");
	ctt_assert_line(out, "^778$");
	ctt_assert_line(out, "^refused$");
	free(out);
	assert_exec_status(&t, LC_ARGV("--cap", "CAP_NOPE", ID, "true"), 1, "CAP_NOPE");
}

/* A --process document without capabilities gets the container's (runc's and crun's rule),
 * not the runtime's own: those are the host root's, CAP_SYS_ADMIN among them. */
Test(exec, process_document_without_capabilities_gets_the_containers)
{
	struct lc t;
	ex_start(&t);
	char *path = ctt_write_tmp("process.json",
				   "{\"args\":[\"grep\",\"Cap\",\"/proc/self/status\"],\"cwd\":\"/\"}");
	char *out = ex_output(&t, LC_ARGV("--process", path, ID));
	/* `ctrun spec`: AUDIT_WRITE, KILL, NET_BIND_SERVICE */
	ctt_assert_line(out, "^CapEff:\t0000000020000420$");
	ctt_assert_line(out, "^CapPrm:\t0000000020000420$");
	ctt_assert_line(out, "^CapBnd:\t0000000020000420$");
	free(out);
	free(path);
	lc_ok(&t, "kill", ID, "KILL");
	lc_wait_status(&t, ID, "stopped");
	lc_ok(&t, "delete", ID);
	lc_assert_nothing_left(&t);
}

/* `exec [--preserve-fds N] ID sh -c script` with fd 3 open on a file (not close-on-exec, as
 * a caller passes it); the output. */
static char *fds_seen(const struct lc *t, const char *log, int fd3, const char *preserve)
{
	/* no pipe or substitution: the shell would hold fds of its own */
	const char *script = "ls -l /proc/$$/fd; cat <&3 2>/dev/null || echo no-fd-3";
	const char *args[16] = {"--log", log, "exec"};
	size_t n = 3;
	if (preserve) {
		args[n++] = "--preserve-fds";
		args[n++] = preserve;
	}
	const char *tail[] = {ID, "sh", "-c", script, NULL};
	memcpy(args + n, tail, sizeof(tail));
	int status;
	char *out = lc_spawn_output(t, lc_ctrun_argv(t, args), fd3, &status);
	cr_expect_eq(status, 0, "%s", out);
	cr_expect_not(strstr(out, ctt_ctrun_path()), "an fd names the runtime:\n%s", out);
	return out;
}

/* Only 0-2 and the fds asked for; none of ctrun's own, even in the preserved range: its
 * --log file, opened first, takes the lowest free fd, 3 when the caller passes none. */
static void assert_only_stdio_and_preserved_fds(struct lc *t)
{
	char *dir = ctt_tmpdir();
	char *log = ctt_path(dir, "ctrun.log");
	char *file = ctt_path(dir, "passed");
	ctt_write_file(file, "through fd 3\n");
	int fd = open(file, O_RDONLY); /* inheritable: only --preserve-fds lets it in */
	cr_assert_geq(fd, 0);
	char *out = fds_seen(t, log, fd, NULL);
	ctt_assert_line(out, " 2 -> ");
	cr_expect_not(ctt_matches(out, " [3-9] -> | [0-9][0-9]+ -> "), "%s", out);
	ctt_assert_line(out, "^no-fd-3$");
	free(out);
	out = fds_seen(t, log, fd, "1");
	ctt_assert_line(out, " 3 -> .*/passed$");
	cr_expect_not(ctt_matches(out, " [4-9] -> | [0-9][0-9]+ -> "), "%s", out);
	ctt_assert_line(out, "^through fd 3$");
	free(out);
	out = fds_seen(t, log, -1, "1");
	cr_expect_not(ctt_matches(out, "ctrun.log"), "ctrun's own fd passed on:\n%s", out);
	free(out);
	close(fd);
	free(log);
	free(file);
	free(dir);
}

Test(exec, only_stdio_and_preserved_fds_reach_the_process)
{
	struct lc t;
	ex_start(&t);
	assert_only_stdio_and_preserved_fds(&t);
}

Test(exec, only_stdio_and_preserved_fds_without_close_range)
{
	struct lc t;
	const char *wrapper[LC_WRAPPER_MAX];
	ex_start(&t);
	lc_wrap_enosys(&t, wrapper, LC_ARGV("close_range"));
	assert_only_stdio_and_preserved_fds(&t);
}

/* The test process plays conmon: a subreaper, which the detached process goes to once
 * ctrun has exited. */
Test(exec, detach_writes_the_pid_file_and_leaves_the_process_running)
{
	struct lc t;
	ex_start(&t);
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	char *dir = ctt_tmpdir();
	char *pidfile = ctt_path(dir, "exec.pid");
	assert_exec_quiet(&t, LC_ARGV("--detach", "--pid-file", pidfile, ID, "sh", "-c",
				      "echo $$ > /detached; exec sleep 1000"));
	char *text = ctt_read_file(pidfile);
	pid_t pid = atoi(text);
	cr_assert(ctt_alive(pid), "the detached process %d is gone", pid);
	char *where = lc_rootfs_path(&t, "detached");
	char *inner = ctt_wait_content(where, "\n");
	free(where);
	cr_expect_neq(atoi(inner), 1);
	cr_expect_neq(atoi(inner), pid, "the pid inside is the container's own");
	/* sh wrote the file before its exec of sleep: wait for that */
	ctt_wait_count_in_pidns(lc_pid(&t, ID), "sleep 1000", 2);
	char status_path[64];
	snprintf(status_path, sizeof(status_path), "/proc/%d/status", pid);
	char *status = ctt_read_file(status_path);
	char ppid[32];
	snprintf(ppid, sizeof(ppid), "^PPid:\t%d$", getpid());
	cr_expect(ctt_matches(status, ppid), "not reparented to the subreaper %d:\n%s", getpid(),
		  status);
	free(status);
	cr_expect_eq(kill(pid, SIGKILL), 0);
	cr_expect_eq(waitpid(pid, NULL, 0), pid, "the subreaper reaps it");
	free(inner);
	free(text);
	free(pidfile);
	free(dir);
}

Test(exec, refuses_stopped_and_unknown_containers_but_runs_in_a_created_one)
{
	struct lc t;
	lc_init(&t);
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	char *out = ex_output(&t, LC_ARGV(ID, "echo", "in-created"));
	ctt_assert_line(out, "^in-created$");
	free(out);
	lc_assert_status(&t, ID, "created");
	lc_ok(&t, "kill", ID, "KILL");
	lc_wait_status(&t, ID, "stopped");
	assert_exec_status(&t, LC_ARGV(ID, "true"), 255, "cannot exec in a stopped container");
	assert_exec_status(&t, LC_ARGV("nope", "true"), 255, "container \"nope\" does not exist");
	assert_exec_status(&t, LC_ARGV(ID), 1, "missing the command");
	lc_ok(&t, "delete", ID);
	lc_assert_nothing_left(&t);
}

Test(exec, process_json_as_containerd_sends_it)
{
	struct lc t;
	ex_start(&t);
	char *path = ctt_write_tmp(
		"process.json",
		"{\"args\":[\"sh\",\"-c\",\"echo $A; pwd; id; grep NoNewPrivs /proc/self/status\"],"
		"\"cwd\":\"/tmp\",\"env\":[\"A=from-json\",\"PATH=/bin\"],"
		"\"user\":{\"uid\":1001,\"gid\":1002,\"additionalGids\":[9]},"
		"\"noNewPrivileges\":false,\"terminal\":false}");
	char *out = ex_output(&t, LC_ARGV("--process", path, ID));
	ctt_assert_line(out, "^from-json$");
	ctt_assert_line(out, "^/tmp$");
	ctt_assert_line(out, "^uid=1001 gid=1002 groups=9$");
	ctt_assert_line(out, "^NoNewPrivs:\t0$");
	free(out);
	free(path);
	path = ctt_write_tmp("process.json",
			     "{\"args\":[\"true\"],\"cwd\":\"/\",\"user\":{\"uid\":\"root\"}}");
	struct ctt_result r;
	ex_run(&r, &t, LC_ARGV("-p", path, ID));
	cr_expect_eq(r.status, 255);
	ctt_assert_error(&r, path, ".user.uid", "expected");
	ctt_result_free(&r);
	free(path);
	path = ctt_write_tmp("process.json", "{\"cwd\":\"/\"}");
	assert_exec_status(&t, LC_ARGV("--process", path, ID), 255, ".args");
	free(path);
}

/* A container of `runc spec`'s process capabilities: ambient ones without inheritable ones. */
static void ex_start_runc_spec_caps(struct lc *t)
{
	lc_init(t);
	char *caps = lc_shared_config_value("runc-1.1.5-spec.json", ".process.capabilities");
	ctt_config_set(t->bundle, ".process.capabilities", caps);
	free(caps);
	lc_set_args(t, LC_ARGV("sleep", "1000"));
	lc_ok(t, "run", "--detach", "--bundle", t->bundle, ID);
}

/* The sets runc 1.1.5 gives the same execs: the ambient capabilities the kernel refuses
 * (not inheritable) are skipped, for the container's process, --cap and --process alike. */
Test(exec, ambient_without_inheritable_as_runc_does)
{
	struct lc t;
	ex_start_runc_spec_caps(&t);
	char *out = status_lines(&t, NULL);
	ctt_assert_line(out, "^CapPrm:\t0000000020000420$");
	ctt_assert_line(out, "^CapAmb:\t0000000000000000$");
	free(out);
	out = status_lines(&t, LC_ARGV("--cap", "CAP_SYS_ADMIN"));
	ctt_assert_line(out, "^CapEff:\t0000000020200420$");
	ctt_assert_line(out, "^CapPrm:\t0000000020200420$");
	ctt_assert_line(out, "^CapBnd:\t0000000020200420$");
	ctt_assert_line(out, "^CapInh:\t0000000000000000$");
	ctt_assert_line(out, "^CapAmb:\t0000000000000000$");
	free(out);
	out = status_lines(&t, LC_ARGV("--user", "1000", "--cap", "CAP_SYS_ADMIN"));
	ctt_assert_line(out, "^CapPrm:\t0000000000000000$");
	ctt_assert_line(out, "^CapBnd:\t0000000020200420$");
	ctt_assert_line(out, "^CapAmb:\t0000000000000000$");
	free(out);
	char *process = lc_shared_config_value("runc-1.1.5-spec.json", ".process");
	char *path = ctt_write_tmp("process.json", process);
	ctt_json_edit_file(path, ".args", "[\"grep\", \"^Cap\", \"/proc/self/status\"]");
	ctt_json_edit_file(path, ".terminal", "false");
	out = ex_output(&t, LC_ARGV("--process", path, ID));
	ctt_assert_line(out, "^CapEff:\t0000000020000420$");
	ctt_assert_line(out, "^CapAmb:\t0000000000000000$");
	free(out);
	free(path);
	free(process);
}

Test(exec, signals_are_forwarded_in_the_foreground)
{
	struct lc t;
	ex_start(&t);
	char *out = ctt_tmp_path("out");
	pid_t ctrun =
		lc_spawn(&t,
			 lc_ctrun_argv(&t, LC_ARGV("exec", ID, "sh", "-c",
						   "trap 'echo got-TERM; exit 7' TERM; "
						   "touch /ready; while :; do sleep 0.1; done")),
			 out, -1);
	char *ready = lc_rootfs_path(&t, "ready");
	ctt_wait_file(ready);
	cr_assert_eq(kill(ctrun, SIGTERM), 0);
	char *text = waited_output(ctrun, out, 7);
	ctt_assert_line(text, "^got-TERM$");
	free(text);
	free(ready);
	free(out);
}

Test(exec, tty_through_the_console_socket)
{
	struct lc t;
	ex_start(&t);
	char *dir = ctt_tmpdir();
	char *sock = ctt_path(dir, "console.sock");
	char *out = ctt_path(dir, "receiver.out");
	pid_t receiver = lc_console_receiver(&t, sock, out, NULL);
	assert_exec_quiet(
		&t, LC_ARGV("--tty", "--console-socket", sock, ID, "sh", "-c",
			    "t=$(tty) && echo \"tty $t\"; [ -t 0 ] && [ -t 1 ] && echo on-pty"));
	cr_expect_eq(lc_wait(receiver, WAIT_MS), 0);
	char *text = ctt_read_file(out);
	cr_expect(strstr(text, "tty /dev/pts/"), "receiver saw:\n%s", text);
	cr_expect(strstr(text, "on-pty"), "receiver saw:\n%s", text);
	free(text);
	assert_exec_status(&t, LC_ARGV("-d", "-t", ID, "true"), 255, "--console-socket");
	assert_exec_status(&t, LC_ARGV("--console-socket", sock, ID, "true"), 255, "--tty");
	free(out);
	free(sock);
	free(dir);
}

#define N_CONCURRENT 20

/* exec #i: `echo exec-<i*3>`, computed by the shell. */
static void numbered_exec(const struct lc *t, size_t i, const char **args, char *buf, size_t size)
{
	(void)t;
	snprintf(buf, size, "echo \"exec-$((%zu * 3))\"", i);
	const char *cmd[] = {"exec", ID, "sh", "-c", buf, NULL};
	memcpy(args, cmd, sizeof(cmd));
}

Test(exec, twenty_concurrent_execs_all_succeed)
{
	struct lc t;
	ex_start(&t);
	char **outs = lc_run_concurrently(&t, N_CONCURRENT, numbered_exec, WAIT_MS);
	for (int i = 0; i < N_CONCURRENT; i++) {
		char want[32];
		snprintf(want, sizeof(want), "exec-%d\n", i * 3);
		cr_expect_str_eq(outs[i], want, "exec #%d", i);
		free(outs[i]);
	}
	free(outs);
}

Test(exec, exec_cpu_affinity_initial_and_final)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		cr_skip("execCPUAffinity needs two CPUs to tell initial from final");
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.execCPUAffinity", "{\"initial\":\"0\",\"final\":\"1\"}");
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	char *out = ex_output(&t, LC_ARGV(ID, "grep", "Cpus_allowed_list", "/proc/self/status"));
	ctt_assert_line(out, "^Cpus_allowed_list:\t1$");
	free(out);
	/* the init is not touched by it (config.md) */
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", lc_pid(&t, ID));
	char *init = ctt_read_file(path);
	cr_expect_not(ctt_matches(init, "^Cpus_allowed_list:\t1$"), "%s", init);
	free(init);
	char *proc = ctt_write_tmp(
		"process.json", "{\"args\":[\"grep\",\"Cpus_allowed_list\",\"/proc/self/"
				"status\"],\"cwd\":\"/\",\"execCPUAffinity\":{\"initial\":\"1\"}}");
	out = ex_output(&t, LC_ARGV("--process", proc, ID));
	ctt_assert_line(out, "^Cpus_allowed_list:\t1$");
	free(out);
	free(proc);
}

Test(exec, cwd_is_resolved_inside_the_container)
{
	struct lc t;
	ex_start(&t);
	char *link = lc_rootfs_path(&t, "up");
	cr_assert_eq(symlink("../../../../../../..", link), 0);
	char *marker = lc_rootfs_file(&t, "in-the-rootfs", "");
	char *out = ex_output(&t, LC_ARGV("--cwd", "/up", ID, "sh", "-c", "pwd; ls"));
	ctt_assert_line(out, "^/$");
	ctt_assert_line(out, "^in-the-rootfs$");
	free(out);
	out = ex_output(&t, LC_ARGV("--cwd", "/../../..", ID, "ls"));
	ctt_assert_line(out, "^in-the-rootfs$");
	free(out);
	/* CVE-2024-21626: a host directory passed as fd 3, named through the container's /proc */
	char *dir = ctt_tmpdir();
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	cr_assert_geq(fd, 0);
	int status;
	out = lc_spawn_output(&t,
			      lc_ctrun_argv(&t, LC_ARGV("exec", "--preserve-fds", "1", "--cwd",
							"/proc/self/fd/3", ID, "pwd")),
			      fd, &status);
	cr_expect_eq(status, 255, "%s", out);
	cr_expect(strstr(out, "chdir to cwd \"/proc/self/fd/3\""), "%s", out);
	close(fd);
	free(out);
	free(dir);
	free(marker);
	free(link);
}

/* Only the init's cwd is made when missing (runc and crun: the same); an exec that names a
 * missing one fails, creating nothing. */
Test(exec, missing_cwd_is_not_made)
{
	struct lc t;
	ex_start(&t);
	assert_exec_status(&t, LC_ARGV("--cwd", "/nonexistent", ID, "pwd"), 255,
			   "chdir to cwd \"/nonexistent\"");
	char *dir = lc_rootfs_path(&t, "nonexistent");
	cr_expect(!ctt_exists(dir), "exec made %s", dir);
	char *out = ex_output(&t, LC_ARGV(ID, "sh", "-c", "ls -d /nonexistent || echo absent"));
	cr_expect_str_eq(out, "absent\n");
	free(out);
	free(dir);
}

/* ex_start() under the enosys wrapper of enosys_args (NULL: none), built in wrapper; the
 * path of a --log file in a fresh directory. */
static char *ex_start_logged(struct lc *t, const char **wrapper, const char *const *enosys_args)
{
	ex_start(t);
	lc_wrap_enosys(t, wrapper, enosys_args);
	return ctt_tmp_path("ctrun.log");
}

static void assert_log_has(const char *log, const char *needle)
{
	char *text = ctt_read_file(log);
	cr_expect(strstr(text, needle), "no \"%s\" in the log:\n%s", needle, text);
	free(text);
}

/* The spawn fallbacks: ctrun under tests/helpers/enosys; the debug log says what was
 * used. */
static void assert_exec_under(const char *const *enosys_args, const char *needle)
{
	struct lc t;
	const char *wrapper[LC_WRAPPER_MAX];
	char *log = ex_start_logged(&t, wrapper, enosys_args);
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "--log", log, "exec", ID, "sh", "-c",
		 "readlink /proc/self/ns/mnt; exit 5");
	cr_expect_eq(r.status, 5, "stderr: %s", r.err);
	char path[64], target[128] = "";
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", lc_pid(&t, ID));
	cr_assert_gt(readlink(path, target, sizeof(target) - 1), 0);
	cr_expect(strstr(r.out, target), "not in the init's mount namespace: %s", r.out);
	ctt_result_free(&r);
	assert_log_has(log, needle);
	free(log);
}

Test(exec, works_when_clone3_is_enosys)
{
	assert_exec_under(LC_ARGV("clone3"), "spawned with clone, joined by pidfd");
}

Test(exec, works_without_clone_pidfd)
{
	assert_exec_under(LC_ARGV("--clone-pidfd-einval", "clone3"),
			  "spawned with clone+pidfd_open, joined by pidfd");
}

Test(exec, joins_through_ns_files_without_pidfd_open)
{
	assert_exec_under(LC_ARGV("pidfd_open"), "spawned with clone3, joined by nsfd");
}

Test(exec, tty_in_the_foreground_is_relayed_as_runc_does)
{
	struct lc t;
	ex_start(&t);
	struct ctt_result r;
	lc_ctrun_input(&r, &t, "typed\n", "exec", "--tty", ID, "sh", "-c",
		       "read x; echo \"got-$x\"; tty; [ -t 0 ] && [ -t 1 ] && echo on-pty; exit 4");
	cr_expect_eq(r.status, 4, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "got-typed"), "stdout: %s", r.out);
	cr_expect(strstr(r.out, "/dev/pts/"), "stdout: %s", r.out);
	cr_expect(strstr(r.out, "on-pty"), "stdout: %s", r.out);
	ctt_result_free(&r);
	/* the exec's pty is its own: the container's /dev/console stays as it was (runc) */
	ex_run(&r, &t, LC_ARGV(ID, "grep", "-c", " /dev/console ", "/proc/self/mountinfo"));
	cr_expect_str_eq(r.out, "0\n", "a mount on /dev/console after exec --tty: %s", r.out);
	ctt_result_free(&r);
}

Test(exec, lsm_labels_are_refused_where_the_lsm_does_not_run)
{
	struct lc t;
	ex_start(&t);
	if (ctt_exists("/sys/module/apparmor/parameters/enabled") ||
	    ctt_exists("/sys/fs/selinux/enforce"))
		cr_skip("AppArmor or SELinux runs here: the refusal is not what happens");
	assert_exec_status(&t, LC_ARGV("--apparmor", "ctrun-test", ID, "true"), 255,
			   "AppArmor is not enabled");
	assert_exec_status(&t, LC_ARGV("--process-label", "system_u:system_r:t:s0", ID, "true"),
			   255, "SELinux is not enabled");
	char *dir = ctt_tmpdir();
	char *path = ctt_path(dir, "p.json");
	ctt_write_file(path, "{\"args\":[\"true\"],\"cwd\":\"/\",\"apparmorProfile\":\"x\"}");
	struct ctt_result r;
	ex_run(&r, &t, LC_ARGV("--process", path, ID));
	ctt_assert_error(&r, path, ".apparmorProfile");
	ctt_result_free(&r);
	free(path);
	free(dir);
}

/* CVE-2025-52881 for exec: the container's root (CAP_SYS_ADMIN) hid /proc under a tmpfs
 * with a fake self/oom_score_adj. The exec'd process's oomScoreAdj goes through a procfs
 * of ctrun's own all the same: the host sees 100 on it, the fake file is untouched. */
Test(exec, oom_score_adj_not_redirected_by_a_fake_proc)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	for (const char *const *set = LC_ARGV("bounding", "effective", "permitted"); *set; set++) {
		char path[64];
		snprintf(path, sizeof(path), ".process.capabilities.%s", *set);
		lc_config_append(&t, path, "\"CAP_SYS_ADMIN\"");
	}
	lc_set_script(&t, "mount -t tmpfs fake /proc && mkdir /proc/self && "
			  "echo fake > /proc/self/oom_score_adj && touch /ready; sleep 1000");
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	char *ready = lc_rootfs_path(&t, "ready");
	ctt_wait_file(ready);
	char *pid_file = ctt_tmp_path("exec.pid");
	char *process =
		ctt_write_tmp("process.json", "{\"args\":[\"sleep\",\"1000\"],\"cwd\":\"/\","
					      "\"oomScoreAdj\":100,\"terminal\":false}");
	char *out = ex_output(
		&t, LC_ARGV("--detach", "--pid-file", pid_file, "--process", process, ID));
	free(out);
	char *pid_text = ctt_read_file(pid_file);
	char path[96];
	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", atoi(pid_text));
	ctt_assert_file_text(path, "100\n");
	snprintf(path, sizeof(path), "/proc/%d/root/proc/self/oom_score_adj", (int)lc_pid(&t, ID));
	ctt_assert_file_text(path, "fake\n");
	lc_ok(&t, "delete", "--force", ID);
	lc_assert_nothing_left(&t);
	free(pid_text);
	free(process);
	free(pid_file);
	free(ready);
}

/* Without a mount namespace the init is only chroot()ed to the rootfs: joining its
 * namespaces gives the host's root, so exec takes the init's own (/proc/PID/root). */
Test(exec, root_of_a_container_without_mount_namespace_is_the_inits)
{
	struct lc t;
	lc_init(&t);
	lc_namespace_set(&t, "mount", NULL);
	ctt_config_set(t.bundle, ".mounts", "[]");
	ctt_config_set(t.bundle, ".linux.maskedPaths", "[]");
	ctt_config_set(t.bundle, ".linux.readonlyPaths", "[]");
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	char *marker = lc_rootfs_file(&t, "in-the-rootfs", "");
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	char *out = ex_output(&t, LC_ARGV(ID, "ls", "/"));
	ctt_assert_line(out, "^in-the-rootfs$");
	free(out);
	free(marker);
}

/* The exec'd process is in the init's cgroup, every hierarchy: born there in the cgroup2
 * directory with clone3(CLONE_INTO_CGROUP), put there by cgroup.procs under the clone()
 * fallback. Its cgroup is compared with the init's from the host. */
static void assert_exec_joins_the_cgroup(const char *const *enosys_args, const char *needle)
{
	struct lc t;
	const char *wrapper[LC_WRAPPER_MAX];
	char *log = ex_start_logged(&t, wrapper, enosys_args);
	char *pidfile = ctt_tmp_path("exec.pid");
	lc_ok(&t, "--debug", "--log", log, "exec", "--detach", "--pid-file", pidfile, ID, "sleep",
	      "1000");
	char *pidtext = ctt_read_file(pidfile);
	char mine[64], init[64];
	snprintf(mine, sizeof(mine), "/proc/%d/cgroup", atoi(pidtext));
	snprintf(init, sizeof(init), "/proc/%d/cgroup", lc_pid(&t, ID));
	char *a = ctt_read_file(mine), *b = ctt_read_file(init);
	cr_expect_str_eq(a, b, "the exec'd process's cgroups differ from the init's");
	cr_expect(strstr(b, "/ctrun/" ID), "the init is not in its own cgroup:\n%s", b);
	assert_log_has(log, needle);
	free(a);
	free(b);
	free(pidtext);
	free(pidfile);
	free(log);
}

Test(exec, joins_the_containers_cgroup)
{
	if (!ctt_exists("/sys/fs/cgroup/unified/cgroup.procs") &&
	    !ctt_exists("/sys/fs/cgroup/cgroup.procs"))
		cr_skip("no cgroup2 hierarchy here to be born into");
	assert_exec_joins_the_cgroup(NULL, "spawned with clone3, joined by pidfd, born in its "
					   "cgroup");
}

Test(exec, joins_the_containers_cgroup_without_clone3)
{
	assert_exec_joins_the_cgroup(LC_ARGV("clone3"), "spawned with clone, joined by pidfd\"");
}

/* runc's rule: a paused container is refused unless --ignore-paused; then the process
 * joins the frozen cgroup and runs once the container is resumed. */
Test(exec, paused_container_needs_ignore_paused)
{
	struct lc t;
	ex_start(&t);
	lc_ok(&t, "pause", ID);
	assert_exec_status(&t, LC_ARGV(ID, "true"), 255, "cannot exec in a paused container");
	char *dir = ctt_tmpdir();
	char *out = ctt_path(dir, "out");
	pid_t ctrun = lc_spawn(
		&t, lc_ctrun_argv(&t, LC_ARGV("exec", "--ignore-paused", ID, "echo", "thawed")),
		out, -1);
	lc_ok(&t, "resume", ID);
	char *text = waited_output(ctrun, out, 0);
	cr_expect_str_eq(text, "thawed\n");
	free(text);
	free(out);
	free(dir);
}

/* exec is refused with one line naming the container and CAP_MKNOD, and starts nothing:
 * the container holds its init alone. */
static void assert_mknod_refused(const struct lc *t, const char *const *args)
{
	struct ctt_result r;
	ex_run(&r, t, args);
	cr_expect_eq(r.status, 255, "exit %d, stderr: %s", r.status, r.err);
	ctt_assert_error(&r, "exec in container \"" ID "\"", "no device filter", "CAP_MKNOD");
	ctt_result_free(&r);
	pid_t init = lc_pid(t, ID);
	cr_expect_eq(ctt_count_in_pidns(init, "sleep 1000"), 1, "a process was left");
	cr_expect_eq(ctt_count_in_pidns(init, "mknod /dev/host-mem c 1 1"), 0);
}

/* --cgroup-manager disabled took the container's device rules only because its process
 * cannot make nodes (no CAP_MKNOD, no user namespace): state.json says no device filter
 * stands, and exec must not give CAP_MKNOD back (--cap, a --process document's sets), or
 * mknod could reach any host device. An exec without it still runs (a --process document
 * without capabilities gets the container's), and mknod is refused inside. */
Test(exec, refuses_cap_mknod_where_no_device_filter_stands)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".linux.resources",
		       "{\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]}");
	ctt_config_set(t.bundle, ".process.capabilities",
		       "{\"bounding\": [\"CAP_KILL\"], \"effective\": [\"CAP_KILL\"],"
		       " \"permitted\": [\"CAP_KILL\"]}");
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "--cgroup-manager", "disabled", "run", "--detach", "--bundle", t.bundle, ID);
	/* run --detach returns once the init is started, maybe before its execve */
	ctt_wait_count_in_pidns(lc_pid(&t, ID), "sleep 1000", 1);
	char *file = lc_state_file(&t, ID);
	char *state = ctt_read_file(file);
	free(file);
	cr_expect(ctt_matches(state, "\"noDeviceFilter\": *true"), "state.json: %s", state);
	free(state);
	const char *mknod[] = {"mknod", "/dev/host-mem", "c", "1", "1", NULL};
	assert_mknod_refused(&t, LC_ARGV("--cap", "CAP_MKNOD", ID, mknod[0], mknod[1], mknod[2],
					 mknod[3], mknod[4]));
	char *path = ctt_write_tmp(
		"process.json", "{\"args\":[\"mknod\",\"/dev/host-mem\",\"c\",\"1\",\"1\"],"
				"\"cwd\":\"/\",\"capabilities\":{\"bounding\":[\"CAP_MKNOD\"]}}");
	assert_mknod_refused(&t, LC_ARGV("--process", path, ID));
	free(path);
	path = ctt_write_tmp("process.json",
			     "{\"args\":[\"sh\",\"-c\",\"mknod /dev/host-mem c 1 1 2>&1 | "
			     "grep -o 'Operation not permitted'\"],\"cwd\":\"/\"}");
	struct ctt_result plain;
	ex_run(&plain, &t, LC_ARGV("--process", path, ID));
	cr_expect_eq(plain.status, 0, "exit %d, stderr: %s", plain.status, plain.err);
	cr_expect_str_eq(plain.out, "Operation not permitted\n");
	ctt_result_free(&plain);
	free(path);
	/* root's permitted set after execve is rebuilt from inheritable and ambient too */
	path = ctt_write_tmp("process.json",
			     "{\"args\":[\"mknod\",\"/dev/host-mem\",\"c\",\"1\",\"1\"],"
			     "\"cwd\":\"/\",\"capabilities\":{\"bounding\":[\"CAP_KILL\"],"
			     "\"inheritable\":[\"CAP_MKNOD\"],\"ambient\":[\"CAP_MKNOD\"]}}");
	assert_mknod_refused(&t, LC_ARGV("--process", path, ID));
	free(path);
	struct ctt_result r;
	ex_run(&r, &t,
	       LC_ARGV("--cap", "CAP_KILL", ID, "sh", "-c",
		       "mknod /dev/host-mem c 1 1 2>&1 | grep -o 'Operation not permitted'"));
	cr_expect_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
	cr_expect_str_eq(r.out, "Operation not permitted\n");
	ctt_result_free(&r);
	lc_ok(&t, "delete", "--force", ID);
	lc_assert_nothing_left(&t);
}

/* With a cgroup the device filter stands: exec may grant CAP_MKNOD (state.json says
 * nothing of it); the node of /dev/mem can be made, as runc's rules allow, and the filter,
 * not a missing capability, refuses to open it. */
Test(exec, grants_cap_mknod_where_a_device_filter_stands)
{
	struct lc t;
	ex_start(&t);
	char *file = lc_state_file(&t, ID);
	char *state = ctt_read_file(file);
	free(file);
	cr_expect_null(strstr(state, "noDeviceFilter"), "state.json: %s", state);
	free(state);
	char *out =
		ex_output(&t, LC_ARGV("--cap", "CAP_MKNOD", ID, "sh", "-c",
				      "echo mknod=$(( 0x$(sed -n 's/^CapEff:\t//p' "
				      "/proc/self/status) >> 27 & 1 ));"
				      "mknod /dev/host-mem c 1 1 && echo made;"
				      "head -c 1 /dev/host-mem 2>&1 | grep -o 'not permitted'"));
	cr_expect_str_eq(out, "mknod=1\nmade\nnot permitted\n");
	free(out);
}
