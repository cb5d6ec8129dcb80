/* libct/seccomp/seccomp.c: the OCI names -> libseccomp actions, operators, arches and flags; the
 * profile errors naming their JSON path; the compiled program judged by the kernel (loaded
 * in a forked child with no_new_privs); the container process state for the agent. */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yajl/yajl_tree.h>

#include "libct/seccomp/seccomp.h"
#include "tests/unit/seccomp_fixture.h"

#define JSON(...) #__VA_ARGS__

Test(seccomp_names, actions)
{
	uint32_t a;
	cr_expect_eq(ct_seccomp_action(OCI_SCMP_ACT_ERRNO, false, 0, &a), 0);
	cr_expect_eq(a, SCMP_ACT_ERRNO(EPERM), "the default errno is EPERM");
	cr_expect_eq(ct_seccomp_action(OCI_SCMP_ACT_ERRNO, true, ENOSYS, &a), 0);
	cr_expect_eq(a, SCMP_ACT_ERRNO(ENOSYS));
	cr_expect_eq(ct_seccomp_action(OCI_SCMP_ACT_TRACE, true, 7, &a), 0);
	cr_expect_eq(a, SCMP_ACT_TRACE(7));
	static const struct {
		int oci;
		uint32_t want;
	} plain[] = {
		{OCI_SCMP_ACT_KILL, SCMP_ACT_KILL},
		{OCI_SCMP_ACT_KILL_PROCESS, SCMP_ACT_KILL_PROCESS},
		{OCI_SCMP_ACT_KILL_THREAD, SCMP_ACT_KILL_THREAD},
		{OCI_SCMP_ACT_TRAP, SCMP_ACT_TRAP},
		{OCI_SCMP_ACT_ALLOW, SCMP_ACT_ALLOW},
		{OCI_SCMP_ACT_LOG, SCMP_ACT_LOG},
		{OCI_SCMP_ACT_NOTIFY, SCMP_ACT_NOTIFY},
	};
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		cr_expect_eq(ct_seccomp_action(plain[i].oci, false, 0, &a), 0);
		cr_expect_eq(a, plain[i].want, "%s", oci_seccomp_action_names[plain[i].oci]);
		cr_expect_eq(ct_seccomp_action(plain[i].oci, true, 1, &a), -1, "%s takes no errno",
			     oci_seccomp_action_names[plain[i].oci]);
	}
}

Test(seccomp_names, operators)
{
	static const int want[] = {SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE,	SCMP_CMP_EQ,
				   SCMP_CMP_GE, SCMP_CMP_GT, SCMP_CMP_MASKED_EQ};
	for (int i = 0; oci_seccomp_op_names[i]; i++)
		cr_expect_eq(ct_seccomp_op(i), want[i], "%s", oci_seccomp_op_names[i]);
}

static int arch_index(const char *name)
{
	for (int i = 0; oci_seccomp_arch_names[i]; i++)
		if (strcmp(oci_seccomp_arch_names[i], name) == 0)
			return i;
	cr_assert_fail("no arch %s", name);
	return -1;
}

Test(seccomp_names, architectures)
{
	cr_expect_eq(ct_seccomp_arch_token(arch_index("SCMP_ARCH_X86_64")), SCMP_ARCH_X86_64);
	cr_expect_eq(ct_seccomp_arch_token(arch_index("SCMP_ARCH_X86")), SCMP_ARCH_X86);
	cr_expect_eq(ct_seccomp_arch_token(arch_index("SCMP_ARCH_X32")), SCMP_ARCH_X32);
	cr_expect_eq(ct_seccomp_arch_token(arch_index("SCMP_ARCH_AARCH64")), SCMP_ARCH_AARCH64);
	cr_expect_eq(ct_seccomp_arch_token(arch_index("SCMP_ARCH_MIPSEL64N32")),
		     SCMP_ARCH_MIPSEL64N32);
	cr_expect_eq(ct_seccomp_arch_token(arch_index("SCMP_ARCH_RISCV64")), SCMP_ARCH_RISCV64);
}

Test(seccomp_names, flags)
{
	cr_expect_eq(ct_seccomp_flag(0), SECCOMP_FILTER_FLAG_TSYNC);
	cr_expect_eq(ct_seccomp_flag(1), SECCOMP_FILTER_FLAG_LOG);
	cr_expect_eq(ct_seccomp_flag(2), SECCOMP_FILTER_FLAG_SPEC_ALLOW);
	cr_expect_eq(ct_seccomp_flag(3), 0u, "libseccomp 2.5.4 has no WAIT_KILLABLE_RECV");
}

/* ---- compiling a profile from config.json text ---- */

static struct oci_config *parse(const char *seccomp)
{
	return seccomp_fixture_parse(seccomp);
}

static void assert_compile_error(const char *seccomp, const char *msg)
{
	struct oci_config *c = parse(seccomp);
	struct ct_seccomp_prog p;
	struct ct_error err = {0};
	cr_expect_eq(ct_seccomp_compile(&c->linux_.seccomp, NULL, &p, &err), -1, "%s", seccomp);
	cr_expect_str_eq(err.msg, msg);
	cr_expect_null(p.insns, "nothing kept on failure");
	oci_config_free(c);
}

Test(seccomp_compile, errors_name_the_json_path)
{
	assert_compile_error(JSON({"defaultAction" : "SCMP_ACT_KILL", "defaultErrnoRet" : 1}),
			     "config.json: .linux.seccomp.defaultErrnoRet: SCMP_ACT_KILL takes no "
			     "errno");
	assert_compile_error(JSON({"defaultAction" : "SCMP_ACT_NOTIFY"}),
			     "config.json: .linux.seccomp.defaultAction: SCMP_ACT_NOTIFY would "
			     "notify the runtime's own syscalls");
	assert_compile_error(
		JSON({"defaultAction" : "SCMP_ACT_ALLOW", "listenerMetadata" : "x"}),
		"config.json: .linux.seccomp.listenerMetadata: needs .linux.seccomp.listenerPath");
	assert_compile_error(
		JSON({
			"defaultAction" : "SCMP_ACT_ALLOW",
			"syscalls" : [
				{"names" : ["getpid"], "action" : "SCMP_ACT_ERRNO"},
				{"names" : ["getppid"], "action" : "SCMP_ACT_LOG"},
				{"names" : ["read"], "action" : "SCMP_ACT_ERRNO"},
				{"names" : ["mkdir"], "action" : "SCMP_ACT_TRAP", "errnoRet" : 2}
			]
		}),
		"config.json: .linux.seccomp.syscalls[3].errnoRet: SCMP_ACT_TRAP takes no errno");
	assert_compile_error(
		JSON({
			"defaultAction" : "SCMP_ACT_ALLOW",
			"syscalls" : [ {"names" : ["mkdir"], "action" : "SCMP_ACT_NOTIFY"} ]
		}),
		"config.json: .linux.seccomp.syscalls[0].action: SCMP_ACT_NOTIFY "
		"needs .linux.seccomp.listenerPath");
	assert_compile_error(
		JSON({
			"defaultAction" : "SCMP_ACT_ALLOW",
			"syscalls" : [ {
				"names" : ["mkdir"],
				"action" : "SCMP_ACT_ERRNO",
				"args" : [ {"index" : 6, "value" : 1, "op" : "SCMP_CMP_EQ"} ]
			} ]
		}),
		"config.json: .linux.seccomp.syscalls[0].args[0].index: 6: arguments "
		"are numbered 0 to 5");
}

/* assert_compile_error() with want_fmt's three %u the running libseccomp's version. */
static void assert_libseccomp_error(const char *json, const char *want_fmt)
{
	char want[256];
	const struct scmp_version *v = seccomp_version();
	snprintf(want, sizeof(want), want_fmt, v->major, v->minor, v->micro);
	assert_compile_error(json, want);
}

Test(seccomp_compile, unknown_arch_and_flag_name_the_entry)
{
	assert_libseccomp_error(
		JSON({
			"defaultAction" : "SCMP_ACT_ALLOW",
			"flags" : [
				"SECCOMP_FILTER_FLAG_LOG", "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"
			]
		}),
		"config.json: .linux.seccomp.flags[1]: SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV: "
		"libseccomp %u.%u.%u cannot apply it");
	if (ct_seccomp_arch_token(arch_index("SCMP_ARCH_LOONGARCH64")))
		return; /* a libseccomp newer than 2.5 knows it */
	assert_libseccomp_error(
		JSON({
			"defaultAction" : "SCMP_ACT_ALLOW",
			"architectures" : [ "SCMP_ARCH_X86", "SCMP_ARCH_LOONGARCH64" ]
		}),
		"config.json: .linux.seccomp.architectures[1]: SCMP_ARCH_LOONGARCH64: not known "
		"to libseccomp %u.%u.%u");
}

static char last_notice[512];
static void keep_notice(const char *msg)
{
	snprintf(last_notice, sizeof(last_notice), "%s", msg);
}

static struct ct_seccomp_prog compile_ok(const char *seccomp)
{
	struct oci_config *c = parse(seccomp);
	struct ct_seccomp_prog p;
	struct ct_error err = {0};
	cr_assert_eq(ct_seccomp_compile(&c->linux_.seccomp, keep_notice, &p, &err), 0, "%s: %s",
		     seccomp, err.msg);
	oci_config_free(c);
	return p;
}

Test(seccomp_compile, program_and_flags)
{
	struct ct_seccomp_prog p = compile_ok(JSON({
		"defaultAction" : "SCMP_ACT_ALLOW",
		"architectures" : [ "SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32" ],
		"flags" : [
			"SECCOMP_FILTER_FLAG_TSYNC", "SECCOMP_FILTER_FLAG_LOG",
			"SECCOMP_FILTER_FLAG_SPEC_ALLOW"
		],
		"syscalls" : [ {"names" : ["mkdir"], "action" : "SCMP_ACT_ERRNO"} ]
	}));
	cr_expect_not_null(p.insns);
	cr_expect_gt(p.len, 4);
	cr_expect_eq(p.flags, SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_LOG |
				      SECCOMP_FILTER_FLAG_SPEC_ALLOW);
	cr_expect_not(p.notify);
	ct_seccomp_prog_free(&p);
	cr_expect_null(p.insns);
}

/* defaultErrnoRet 38 (Podman's) already answers clone3 with ENOSYS: no rule of ctrun's */
Test(seccomp_compile, enosys_default_needs_no_clone3_rule)
{
	struct ct_seccomp_prog p =
		compile_ok(JSON({"defaultAction" : "SCMP_ACT_ERRNO", "defaultErrnoRet" : 38}));
	cr_expect_not_null(p.insns);
	ct_seccomp_prog_free(&p);
}

Test(seccomp_compile, unknown_name_is_skipped_with_a_notice)
{
	last_notice[0] = '\0';
	struct ct_seccomp_prog p = compile_ok(JSON({
		"defaultAction" : "SCMP_ACT_ALLOW",
		"syscalls" :
			[ {"names" : [ "mkdir", "not_a_syscall" ], "action" : "SCMP_ACT_ERRNO"} ]
	}));
	cr_expect(strstr(last_notice, "seccomp: .linux.seccomp.syscalls[0].names[1]: "
				      "\"not_a_syscall\" unknown to libseccomp"),
		  "%s", last_notice);
	ct_seccomp_prog_free(&p);
}

/* ---- the program as the kernel runs it ---- */

/* In a child: no_new_privs, load, then getppid(a0, a1) (getppid ignores its arguments, the
 * filter sees them). Returns the errno it got, 0 for success. */
static int errno_of_getppid(const struct ct_seccomp_prog *p, unsigned long a0, unsigned long a1)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int listener;
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    ct_seccomp_load(p, &listener, NULL) < 0)
			_exit(255);
		_exit(syscall(SYS_getppid, a0, a1) < 0 ? errno : 0);
	}
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status), "status %#x", status);
	cr_assert_neq(WEXITSTATUS(status), 255, "load failed");
	return WEXITSTATUS(status);
}

static struct ct_seccomp_prog getppid_rule(const char *op, unsigned long v1, unsigned long v2)
{
	char json[1024];
	snprintf(
		json, sizeof(json),
		"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"getppid\"], "
		"\"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": %d, \"args\": [{\"index\": 1, "
		"\"value\": %lu, \"valueTwo\": %lu, \"op\": \"%s\"}]}]}",
		EDOM, v1, v2, op);
	return compile_ok(json);
}

Test(seccomp_kernel, every_operator)
{
	static const struct {
		const char *op;
		unsigned long value, value_two, arg;
		bool denied;
	} cases[] = {
		{"SCMP_CMP_NE", 5, 0, 5, false},
		{"SCMP_CMP_NE", 5, 0, 6, true},
		{"SCMP_CMP_LT", 5, 0, 4, true},
		{"SCMP_CMP_LT", 5, 0, 5, false},
		{"SCMP_CMP_LE", 5, 0, 5, true},
		{"SCMP_CMP_LE", 5, 0, 6, false},
		{"SCMP_CMP_EQ", 5, 0, 5, true},
		{"SCMP_CMP_EQ", 5, 0, 4, false},
		{"SCMP_CMP_GE", 5, 0, 5, true},
		{"SCMP_CMP_GE", 5, 0, 4, false},
		{"SCMP_CMP_GT", 5, 0, 6, true},
		{"SCMP_CMP_GT", 5, 0, 5, false},
		{"SCMP_CMP_MASKED_EQ", 0xf0, 0x30, 0x35, true},
		{"SCMP_CMP_MASKED_EQ", 0xf0, 0x30, 0x45, false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ct_seccomp_prog p =
			getppid_rule(cases[i].op, cases[i].value, cases[i].value_two);
		cr_expect_eq(errno_of_getppid(&p, 0, cases[i].arg), cases[i].denied ? EDOM : 0,
			     "%s %lu/%lu on %lu", cases[i].op, cases[i].value, cases[i].value_two,
			     cases[i].arg);
		ct_seccomp_prog_free(&p);
	}
}

/* Two comparisons in one rule: both must hold. */
Test(seccomp_kernel, args_of_one_rule_are_anded)
{
	struct ct_seccomp_prog p = compile_ok(
		"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"getppid\"], "
		"\"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 33, \"args\": [{\"index\": 0, "
		"\"value\": 1, \"op\": \"SCMP_CMP_EQ\"}, {\"index\": 1, \"value\": 2, \"op\": "
		"\"SCMP_CMP_EQ\"}]}]}");
	cr_expect_eq(errno_of_getppid(&p, 1, 2), EDOM);
	cr_expect_eq(errno_of_getppid(&p, 1, 3), 0);
	cr_expect_eq(errno_of_getppid(&p, 0, 2), 0);
	ct_seccomp_prog_free(&p);
}

/* ---- the agent's view ---- */

Test(seccomp_state, container_process_state)
{
	struct oci_kv kv = {.key = "k", .value = "v"};
	oci_string_map ann = {.items = &kv, .len = 1};
	struct ct_seccomp_state st = {
		.id = "web", .bundle = "/b", .metadata = "m", .pid = 42, .annotations = &ann};
	char *json = ct_seccomp_state_json(&st, NULL);
	cr_assert_not_null(json);
	cr_expect_str_eq(json, "{\"ociVersion\":\"1.3.0\",\"fds\":[\"seccompFd\"],\"pid\":42,"
			       "\"metadata\":\"m\",\"state\":{\"ociVersion\":\"1.3.0\",\"id\":"
			       "\"web\",\"status\":\"creating\",\"pid\":42,\"bundle\":\"/b\","
			       "\"annotations\":{\"k\":\"v\"}}}");
	free(json);
	st.metadata = NULL;
	st.annotations = NULL;
	json = ct_seccomp_state_json(&st, NULL);
	cr_expect_str_eq(json, "{\"ociVersion\":\"1.3.0\",\"fds\":[\"seccompFd\"],\"pid\":42,"
			       "\"state\":{\"ociVersion\":\"1.3.0\",\"id\":\"web\",\"status\":"
			       "\"creating\",\"pid\":42,\"bundle\":\"/b\"}}");
	free(json);
}
