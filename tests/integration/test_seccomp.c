/* linux.seccomp in real containers: what the process meets when a profile denies, kills,
 * compares arguments, answers with ENOSYS for clone3 or hands a syscall to an agent at
 * listenerPath; profiles that cannot be applied fail create with nothing left. Raw calls
 * are made by tests/helpers/sysprobe (static) copied into the rootfs. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(seccomp, .fini = lc_cleanup);

#define ID "sc"

/* Busybox creates directories with mkdir on x86_64; mkdirat is denied too so the test does
 * not depend on which one a build uses. */
#define DENY_MKDIR(action_and_more) \
	"{\"names\": [\"mkdir\", \"mkdirat\"], \"action\": " action_and_more "}"

/* The root is made writable so that mkdir has something to refuse. */
static void set_profile(const struct lc *t, const char *json)
{
	ctt_config_set(t->bundle, ".root.readonly", "false");
	ctt_config_set(t->bundle, ".linux.seccomp", json);
}

/* A profile allowing everything but the given rules (a JSON array's members). */
static void allow_but(const struct lc *t, const char *rules)
{
	char json[4096];
	snprintf(json, sizeof(json), "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [%s]}",
		 rules);
	set_profile(t, json);
}

/* `run` of sysprobe with the given probes; returns its stdout. */
static char *probe_output(const struct lc *t, const char *const *probes)
{
	const char *argv[16] = {"/bin/sysprobe"};
	size_t n = 1;
	for (; *probes; probes++)
		argv[n++] = *probes;
	argv[n] = NULL;
	lc_set_args(t, argv);
	return lc_run_output(t);
}

#define assert_probes(t, want, ...)                                                     \
	do {                                                                            \
		char *out_ = probe_output(t, (const char *const[]){__VA_ARGS__, NULL}); \
		cr_expect_str_eq(out_, want);                                           \
		free(out_);                                                             \
	} while (0)

Test(seccomp, errno_rule_denies_mkdir_only)
{
	struct lc t;
	lc_init(&t);
	allow_but(&t, DENY_MKDIR("\"SCMP_ACT_ERRNO\""));
	lc_assert_sh_output(
		&t, "mkdir /tmp/d 2>&1; echo rc=$?; touch /tmp/f && ls /tmp",
		"mkdir: can't create directory '/tmp/d': Operation not permitted\nrc=1\nf\n");
}

Test(seccomp, errno_ret_is_honoured)
{
	struct lc t;
	lc_init(&t);
	allow_but(&t, DENY_MKDIR("\"SCMP_ACT_ERRNO\", \"errnoRet\": 28"));
	lc_assert_sh_output(&t, "mkdir /tmp/d 2>&1; true",
			    "mkdir: can't create directory '/tmp/d': No space left on device\n");
}

static void assert_killed_by_mkdir(const char *action)
{
	struct lc t;
	lc_init(&t);
	char rule[256];
	snprintf(rule, sizeof(rule), DENY_MKDIR("\"%s\""), action);
	allow_but(&t, rule);
	struct ctt_result r;
	lc_run_sh(&r, &t, ID, "echo before; exec mkdir /tmp/d");
	cr_expect_eq(r.status, 128 + SIGSYS, "%s: status %d, stderr %s", action, r.status, r.err);
	cr_expect_str_eq(r.out, "before\n", "%s", action);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

Test(seccomp, kill_kills_the_process)
{
	assert_killed_by_mkdir("SCMP_ACT_KILL");
}

Test(seccomp, kill_process_kills_the_process)
{
	assert_killed_by_mkdir("SCMP_ACT_KILL_PROCESS");
}

/* One comparison (personality(0xffffffff) only), then two in one rule (AND), MASKED_EQ. */
Test(seccomp, argument_comparisons)
{
	struct lc t;
	lc_init(&t);
	lc_install_sysprobe(&t);
	allow_but(&t, "{\"names\": [\"personality\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": "
		      "[{\"index\": 0, \"value\": 4294967295, \"op\": \"SCMP_CMP_EQ\"}]},"
		      "{\"names\": [\"getppid\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 33,"
		      " \"args\": [{\"index\": 0, \"value\": 65280, \"valueTwo\": 2048, \"op\": "
		      "\"SCMP_CMP_MASKED_EQ\"}, {\"index\": 1, \"value\": 5, \"op\": "
		      "\"SCMP_CMP_GT\"}]}");
	assert_probes(&t,
		      "personality=EPERM\npersonality=ok\ngetppid=EDOM\ngetppid=ok\ngetppid=ok\n",
		      "personality:0xffffffff", "personality:0", "getppid:0x0812,6",
		      "getppid:0x0812,5", "getppid:0x0912,6");
}

/* The default errno profile of old container hosts: clone3 gets ENOSYS (so a libc falls back
 * to clone), everything else not listed the default EPERM. */
#define STATIC_START                                                                       \
	"\"execve\", \"brk\", \"arch_prctl\", \"set_tid_address\", \"set_robust_list\", "  \
	"\"rseq\", \"prlimit64\", \"readlinkat\", \"getrandom\", \"mprotect\", \"mmap\", " \
	"\"munmap\", \"write\", \"writev\", \"exit_group\", \"newfstatat\", \"fstat\", "   \
	"\"ioctl\", \"uname\", \"futex\""

Test(seccomp, default_errno_gives_clone3_enosys)
{
	struct lc t;
	lc_init(&t);
	lc_install_sysprobe(&t);
	set_profile(&t, "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": "
			"[" STATIC_START ", \"getpid\"], \"action\": \"SCMP_ACT_ALLOW\"}]}");
	assert_probes(&t, "clone3=ENOSYS\nmkdir=EPERM\ngetpid=ok\n", "clone3", "mkdir", "getpid");
}

/* A profile that names clone3 has the last word on it. */
Test(seccomp, clone3_named_by_the_profile_keeps_its_rule)
{
	struct lc t;
	lc_init(&t);
	lc_install_sysprobe(&t);
	set_profile(&t, "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": "
			"[" STATIC_START ", \"clone3\"], \"action\": \"SCMP_ACT_ALLOW\"}]}");
	assert_probes(&t, "clone3=EINVAL\nmkdir=EPERM\n", "clone3", "mkdir");
}

Test(seccomp, unknown_syscall_name_is_skipped)
{
	struct lc t;
	lc_init(&t);
	allow_but(&t, "{\"names\": [\"no_such_syscall\", \"mkdir\", \"mkdirat\"], \"action\": "
		      "\"SCMP_ACT_ERRNO\"}");
	struct ctt_result r;
	lc_debug_run_sh(&r, &t, ID, "mkdir /tmp/d 2>&1; echo rc=$?");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_str_eq(r.out,
			 "mkdir: can't create directory '/tmp/d': Operation not permitted\nrc=1\n");
	cr_expect(strstr(r.err, ".linux.seccomp.syscalls[0].names[0]: \"no_such_syscall\" "
				"unknown to libseccomp"),
		  "%s", r.err);
	ctt_result_free(&r);
}

/* Without noNewPrivileges and without CAP_SYS_ADMIN in the process's sets the filter must
 * go in while the init still has CAP_SYS_ADMIN; it still holds in the process. */
Test(seccomp, applies_without_no_new_privileges)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.noNewPrivileges", "false");
	ctt_config_set(t.bundle, ".process.user", "{\"uid\": 1000, \"gid\": 1000}");
	allow_but(&t, DENY_MKDIR("\"SCMP_ACT_ERRNO\", \"errnoRet\": 28"));
	lc_assert_sh_output(
		&t, "grep NoNewPrivs /proc/self/status; id -u; mkdir /tmp/d 2>&1; true",
		"NoNewPrivs:\t0\n1000\nmkdir: can't create directory '/tmp/d': No space left "
		"on device\n");
}

Test(seccomp, log_flag_is_applied)
{
	struct lc t;
	lc_init(&t);
	set_profile(&t, "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"flags\": "
			"[\"SECCOMP_FILTER_FLAG_LOG\", \"SECCOMP_FILTER_FLAG_SPEC_ALLOW\"], "
			"\"syscalls\": [" DENY_MKDIR("\"SCMP_ACT_ERRNO\"") "]}");
	lc_assert_sh_output(
		&t, "grep -c '^Seccomp:.2' /proc/self/status; mkdir /tmp/d 2>/dev/null; echo $?",
		"1\n1\n");
}

static void assert_refused(const struct lc *t, const char *const *needles)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "create", "--bundle", t->bundle, ID);
	ctt_assert_error_line(&r, needles);
	ctt_result_free(&r);
	lc_assert_nothing_left(t);
}

Test(seccomp, bad_action_name_is_refused)
{
	struct lc t;
	lc_init(&t);
	allow_but(&t, DENY_MKDIR("\"SCMP_ACT_ERRNO\"") ", {\"names\": [\"getpid\"], \"action\": "
						       "\"SCMP_ACT_BOGUS\"}");
	assert_refused(&t, (const char *const[]){"config.json: .linux.seccomp.syscalls[1].action",
						 "SCMP_ACT_BOGUS", NULL});
}

Test(seccomp, errno_ret_on_kill_is_refused)
{
	struct lc t;
	lc_init(&t);
	allow_but(&t, DENY_MKDIR("\"SCMP_ACT_KILL\", \"errnoRet\": 1"));
	assert_refused(&t, (const char *const[]){"config.json: .linux.seccomp.syscalls[0]"
						 ".errnoRet: SCMP_ACT_KILL takes no errno",
						 NULL});
}

/* Two comparisons of one argument in a rule: libseccomp takes one per argument, and runc's
 * way out (a rule per comparison) would make the rule's AND an OR. Refused naming both. */
Test(seccomp, two_comparisons_of_one_argument_are_refused)
{
	struct lc t;
	lc_init(&t);
	allow_but(&t, "{\"names\": [\"umask\"], \"action\": \"SCMP_ACT_ERRNO\", \"args\": ["
		      "{\"index\": 0, \"value\": 10, \"op\": \"SCMP_CMP_GT\"}, "
		      "{\"index\": 0, \"value\": 100, \"op\": \"SCMP_CMP_LT\"}]}");
	assert_refused(&t, (const char *const[]){"config.json: .linux.seccomp.syscalls[0].args[1]"
						 ".index: argument 0 is compared by args[0] "
						 "already",
						 NULL});
}

Test(seccomp, flag_libseccomp_cannot_apply_is_refused)
{
	struct lc t;
	lc_init(&t);
	set_profile(&t, "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"flags\": "
			"[\"SECCOMP_FILTER_FLAG_TSYNC\", "
			"\"SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV\"]}");
	assert_refused(&t, (const char *const[]){"config.json: .linux.seccomp.flags[1]: "
						 "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV",
						 NULL});
}

/* ---- SCMP_ACT_NOTIFY with listenerPath ---- */

static void notify_mkdir(const struct lc *t, const char *sock)
{
	char json[4096];
	char *quoted = ctt_json_quote(sock);
	snprintf(json, sizeof(json),
		 "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"listenerPath\": %s, "
		 "\"listenerMetadata\": \"agent-data 1\", \"syscalls\": [" DENY_MKDIR(
			 "\"SCMP_ACT_NOTIFY\"") "]}",
		 quoted);
	free(quoted);
	set_profile(t, json);
}

/* An agent listening at dir/agent.sock, answering notified calls with `answer`, and the
 * container's profile sending mkdir to it. */
struct agent {
	char *dir, *sock, *state, *out;
	pid_t pid;
};

static void agent_start(const struct lc *t, struct agent *a, const char *answer)
{
	a->dir = ctt_tmpdir();
	a->sock = ctt_path(a->dir, "agent.sock");
	a->state = ctt_path(a->dir, "state.json");
	a->out = ctt_path(a->dir, "agent.out");
	a->pid = lc_seccomp_listener(t, a->sock, a->state, a->out, answer, false);
	notify_mkdir(t, a->sock);
}

/* A container t whose notify fd goes to an agent a that answers errno_answer. */
static void agent_init(struct lc *t, struct agent *a, const char *errno_answer)
{
	lc_init(t);
	agent_start(t, a, errno_answer);
}

/* The agent got its connection and exited 0. */
static void assert_agent_exited(const struct agent *a)
{
	cr_expect_eq(lc_wait(a->pid, 20000), 0, "the agent at %s", a->sock);
}

static void agent_free(struct agent *a)
{
	free(a->sock);
	free(a->state);
	free(a->out);
	free(a->dir);
}

static void assert_agent_got_process_state(const struct lc *t, const char *state_file)
{
	yajl_val st = ctt_json_load(state_file);
	cr_expect_str_eq(ctt_json_get_string(st, ".ociVersion"), "1.3.0");
	cr_expect_eq(ctt_json_len(st, ".fds"), 1);
	cr_expect(ctt_json_array_has(st, ".fds", "seccompFd"));
	cr_expect_str_eq(ctt_json_get_string(st, ".metadata"), "agent-data 1");
	long long pid = ctt_json_get_int(st, ".pid");
	cr_expect_gt(pid, 1);
	cr_expect_eq(ctt_json_get_int(st, ".state.pid"), pid);
	cr_expect_str_eq(ctt_json_get_string(st, ".state.id"), "sh"); /* lc_sh_output's id */
	cr_expect_str_eq(ctt_json_get_string(st, ".state.status"), "creating");
	cr_expect_str_eq(ctt_json_get_string(st, ".state.bundle"), t->bundle);
	yajl_tree_free(st);
}

/* The agent answers mkdir with a success it did not perform: only an answer from the agent
 * makes mkdir succeed and leave no directory. */
Test(seccomp, notify_goes_to_the_listener)
{
	struct lc t;
	struct agent a;
	agent_init(&t, &a, "0");
	lc_assert_sh_output(
		&t, "mkdir /tmp/d && echo made; test -d /tmp/d || echo absent; touch /tmp/f",
		"made\nabsent\n");
	assert_agent_exited(&a);
	char *log = ctt_read_file(a.out);
	cr_expect(strstr(log, "answered mkdir"), "%s", log);
	free(log);
	assert_agent_got_process_state(&t, a.state);
	agent_free(&a);
}

Test(seccomp, notify_errno_from_the_listener)
{
	struct lc t;
	lc_init(&t);
	struct agent a;
	agent_start(&t, &a, "122"); /* EDQUOT */
	lc_assert_sh_output(&t, "mkdir /tmp/d 2>&1; true",
			    "mkdir: can't create directory '/tmp/d': Disk quota "
			    "exceeded\n");
	assert_agent_exited(&a);
	agent_free(&a);
}

/* A listenerPath longer than sun_path holds (agents put their sockets in deep directories)
 * still gets the fd. The agent binds through a short symlink to the same directory. */
Test(seccomp, notify_reaches_a_listener_in_a_deep_directory)
{
	struct lc t;
	lc_init(&t);
	struct agent a = {.dir = ctt_tmpdir()};
	char deep[512];
	snprintf(deep, sizeof(deep), "%s/%0120d", a.dir, 0);
	cr_assert_eq(mkdir(deep, 0700), 0, "mkdir %s: %s", deep, strerror(errno));
	char *link = ctt_path(a.dir, "l"), *via_link = ctt_path(link, "agent.sock");
	cr_assert_eq(symlink(deep, link), 0, "symlink: %s", strerror(errno));
	a.sock = ctt_path(deep, "agent.sock");
	cr_assert_gt(strlen(a.sock), sizeof(((struct sockaddr_un *)0)->sun_path));
	a.state = ctt_path(a.dir, "state.json");
	a.out = ctt_path(a.dir, "agent.out");
	a.pid = lc_seccomp_listener(&t, via_link, a.state, a.out, "0", false);
	notify_mkdir(&t, a.sock);
	lc_assert_sh_output(&t, "mkdir /tmp/d && echo made; test -d /tmp/d || echo absent",
			    "made\nabsent\n");
	assert_agent_exited(&a);
	assert_agent_got_process_state(&t, a.state);
	free(via_link);
	free(link);
	agent_free(&a);
}

/* exec: the exec'd process has the filter too, and its notify fd goes to the agent at
 * listenerPath with the running container's state and the process's pid. The agent of the
 * init took its connection and left; a second one listens for exec. The exec's program
 * comes from the cache the run filled (libct/seccomp/seccomp_cache.h), loaded with a listener as a
 * fresh one is. */
Test(seccomp, notify_of_an_exec_goes_to_the_listener)
{
	struct lc t;
	lc_init(&t);
	char *dir = ctt_tmpdir();
	char *sock = ctt_path(dir, "agent.sock"), *state = ctt_path(dir, "state.json");
	char *state2 = ctt_path(dir, "state2.json"), *out = ctt_path(dir, "agent.out");
	/* the second agent's own output file: the first one's "ready" is already in out */
	char *out2 = ctt_path(dir, "agent2.out");
	pid_t agent = lc_seccomp_listener(&t, sock, state, out, "0", false);
	notify_mkdir(&t, sock);
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, "sh");
	ctt_wait_file(state);
	lc_wait_listener_taken(sock);
	pid_t agent2 = lc_seccomp_listener(&t, sock, state2, out2, "0", false);
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "exec", "sh", "sh", "-c",
		 "mkdir /tmp/d && echo made; test -d /tmp/d || echo absent; echo $$ > /tmp/me");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, "made\nabsent\n");
	cr_expect(strstr(r.err, "seccomp: filter loaded from the cache"), "%s", r.err);
	ctt_result_free(&r);
	cr_expect_eq(lc_wait(agent2, 20000), 0);
	yajl_val st = ctt_json_load(state2);
	cr_expect_str_eq(ctt_json_get_string(st, ".state.status"), "running");
	cr_expect_str_eq(ctt_json_get_string(st, ".state.id"), "sh");
	cr_expect_neq(ctt_json_get_int(st, ".pid"), lc_pid(&t, "sh"), "the init's pid, not exec's");
	yajl_tree_free(st);
	lc_ok(&t, "delete", "--force", "sh");
	cr_expect_eq(lc_wait(agent, 20000), 0);
	free(sock);
	free(state);
	free(state2);
	free(out);
	free(out2);
	free(dir);
}

/* The notify fd goes to the agent while the init sets up, and handing it on can fail: `run`
 * then keeps START for after READY, not sent with the set-up (libct/parent/spawn.c). */
Test(seccomp, notify_keeps_start_until_the_agent_has_the_fd)
{
	struct lc t;
	struct agent a;
	agent_init(&t, &a, "0");
	lc_assert_start_with_setup(&t, ID, false);
	assert_agent_exited(&a);
	lc_assert_nothing_left(&t);
	agent_free(&a);
}

/* A container t whose mkdir notifies a listener at a socket no agent listens on, in a new
 * directory (*dir): the socket's path. */
static char *init_without_listener(struct lc *t, char **dir)
{
	lc_init(t);
	*dir = ctt_tmpdir();
	char *sock = ctt_path(*dir, "nobody.sock");
	notify_mkdir(t, sock);
	return sock;
}

/* No agent listens: `run` fails and the container's program never ran (it would have left
 * its file in the bind-mounted directory). */
Test(seccomp, notify_without_listener_runs_nothing)
{
	struct lc t;
	char *dir, *sock = init_without_listener(&t, &dir), *ran = ctt_path(dir, "ran");
	lc_add_mount(&t, dir, "bind", dir, "rbind,rw");
	char *script;
	cr_assert_geq(asprintf(&script, "touch %s", ran), 0);
	lc_set_script(&t, script);
	for (int i = 0; i < 5; i++) {
		lc_assert_fails(&t, LC_ARGV("run", "--bundle", t.bundle, ID),
				"connect to the seccomp listener");
		lc_assert_nothing_left(&t);
		cr_expect_neq(access(ran, F_OK), 0, "run %d: the program ran", i);
	}
	free(script);
	free(ran);
	free(sock);
	free(dir);
}

Test(seccomp, notify_without_listener_fails_create)
{
	struct lc t;
	char *dir, *sock = init_without_listener(&t, &dir);
	assert_refused(&t, (const char *const[]){"connect to the seccomp listener", sock, NULL});
	free(sock);
	free(dir);
}
