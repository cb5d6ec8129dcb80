/* The enosys helper, which the spawn, mount and chmod fallback tests run ctrun under: it must
 * make exactly the named syscalls look missing to the whole command, and libct/base/kernel.c must
 * see them as missing. kernel_probe prints libct's probe results as `name=yes|no` lines. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/kernel.h"
#include "tests/lib/testlib.h"

/* Runs argv (NULL-terminated) and expects exit status 0. */
static void run_ok(struct ctt_result *r, const char *const *argv)
{
	ctt_run(r, NULL, argv);
	cr_assert_eq(r->status, 0, "%s exited %d\nstderr: %s", argv[0], r->status, r->err);
}

/* "yes" or "no" for feature in kernel_probe's output; fails when the line is absent. */
static const char *probe_value(const char *out, const char *feature)
{
	size_t len = strlen(feature);
	for (const char *line = out; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (strncmp(line, feature, len) == 0 && line[len] == '=') {
			const char *v = line + len + 1;
			if (strncmp(v, "yes\n", 4) == 0)
				return "yes";
			if (strncmp(v, "no\n", 3) == 0)
				return "no";
		}
	}
	cr_assert_fail("no \"%s=yes|no\" line in:\n%s", feature, out);
	return NULL;
}

/* kernel_probe's output without any filter: the baseline others are compared with. */
static void probe_unfiltered(struct ctt_result *r)
{
	const char *argv[] = {ctt_helper("kernel_probe"), NULL};
	run_ok(r, argv);
	cr_assert_eq(ctt_count_lines(r->out), CT_KF_COUNT, "output:\n%s", r->out);
}

static void skip_unless_present(const char *baseline, const char *feature)
{
	if (strcmp(probe_value(baseline, feature), "yes") != 0)
		cr_skip("this kernel lacks %s", feature);
}

Test(enosys, probe_without_filter_finds_clone3_and_pidfd)
{
	struct ctt_result base;
	probe_unfiltered(&base);
	cr_expect_str_eq(probe_value(base.out, "clone3"), "yes");
	cr_expect_str_eq(probe_value(base.out, "pidfd_open"), "yes");
	ctt_result_free(&base);
}

Test(enosys, named_syscalls_are_missing_and_no_others)
{
	struct ctt_result base, r;
	probe_unfiltered(&base);
	skip_unless_present(base.out, "fchmodat2");
	skip_unless_present(base.out, "statmount");

	const char *argv[] = {ctt_helper("enosys"), "clone3,fchmodat2,statmount", "--",
			      ctt_helper("kernel_probe"), NULL};
	run_ok(&r, argv);

	const char *blocked[] = {"clone3", "clone_into_cgroup", "fchmodat2", "statmount"};
	for (size_t i = 0; i < sizeof(blocked) / sizeof(blocked[0]); i++)
		cr_expect_str_eq(probe_value(r.out, blocked[i]), "no", "%s", blocked[i]);

	for (int f = 0; f < CT_KF_COUNT; f++) {
		const char *name = ct_kernel_feature_name(f);
		bool is_blocked = false;
		for (size_t i = 0; i < sizeof(blocked) / sizeof(blocked[0]); i++)
			is_blocked |= strcmp(name, blocked[i]) == 0;
		if (!is_blocked)
			cr_expect_str_eq(probe_value(r.out, name), probe_value(base.out, name),
					 "%s changed though not blocked", name);
	}
	ctt_result_free(&base);
	ctt_result_free(&r);
}

/* A seccomp profile that answers EPERM hides clone3 just as well as ENOSYS does. */
Test(enosys, eperm_from_seccomp_is_missing)
{
	struct ctt_result r;
	const char *argv[] = {ctt_helper("enosys"),	  "--errno", "EPERM", "clone3", "--",
			      ctt_helper("kernel_probe"), NULL};
	run_ok(&r, argv);
	cr_expect_str_eq(probe_value(r.out, "clone3"), "no");
	cr_expect_str_eq(probe_value(r.out, "clone_into_cgroup"), "no");
	cr_expect_str_eq(probe_value(r.out, "pidfd_open"), "yes");
	ctt_result_free(&r);
}

/* Syscall numbers work too, and the names libseccomp 2.5.4 lacks come from syscalls.h. */
Test(enosys, accepts_numbers_and_names_newer_than_libseccomp)
{
	struct ctt_result base, r1, r2;
	probe_unfiltered(&base);
	skip_unless_present(base.out, "fchmodat2");
	skip_unless_present(base.out, "listmount");

	const char *by_number[] = {ctt_helper("enosys"), "452", "--", ctt_helper("kernel_probe"),
				   NULL};
	run_ok(&r1, by_number);
	cr_expect_str_eq(probe_value(r1.out, "fchmodat2"), "no");

	const char *by_name[] = {ctt_helper("enosys"), "listmount", "--",
				 ctt_helper("kernel_probe"), NULL};
	run_ok(&r2, by_name);
	cr_expect_str_eq(probe_value(r2.out, "listmount"), "no");
	cr_expect_str_eq(probe_value(r2.out, "statmount"), probe_value(base.out, "statmount"));
	ctt_result_free(&base);
	ctt_result_free(&r1);
	ctt_result_free(&r2);
}

/* The status of `cat /proc/self/status` under enosys with flag (NULL: none) shows a seccomp
 * filter (mode 2) and no_new_privs as nnp says. */
static void assert_filtered_status(const char *flag, const char *nnp)
{
	struct ctt_result r;
	const char *argv[8] = {ctt_helper("enosys")};
	size_t n = 1;
	if (flag)
		argv[n++] = flag;
	const char *rest[] = {"clone3", "--", "cat", "/proc/self/status", NULL};
	memcpy(argv + n, rest, sizeof(rest));
	run_ok(&r, argv);
	char want[32];
	snprintf(want, sizeof(want), "\nNoNewPrivs:\t%s\n", nnp);
	cr_expect_not_null(strstr(r.out, "\nSeccomp:\t2\n"), "status:\n%s", r.out);
	cr_expect_not_null(strstr(r.out, want), "status:\n%s", r.out);
	ctt_result_free(&r);
}

Test(enosys, command_runs_filtered_with_no_new_privs)
{
	assert_filtered_status(NULL, "1");
}

Test(enosys, no_nnp_leaves_no_new_privs_clear)
{
	if (geteuid() != 0)
		cr_skip("--no-nnp needs CAP_SYS_ADMIN");
	assert_filtered_status("--no-nnp", "0");
}

Test(enosys, passes_arguments_and_exit_status_through)
{
	struct ctt_result r;
	const char *argv[] = {ctt_helper("enosys"),  "clone3", "--",	  "sh", "-c",
			      "echo \"$1\"; exit 7", "sh",     "--errno", NULL};
	ctt_run(&r, NULL, argv);
	cr_expect_eq(r.status, 7, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, "--errno\n");
	ctt_result_free(&r);
}

/* Misuse of the helper: its arguments (after its path), exit status and a word of its
 * message. */
static const struct {
	const char *args[4];
	int status;
	const char *says;
} misuses[] = {
	/* an unknown syscall is a usage error */
	{{"clone3,no_such_call", "--", "true"}, 2, "no_such_call"},
	/* so is a missing separator */
	{{"clone3", "true"}, 2, "usage"},
	/* a command that cannot run exits 127 */
	{{"clone3", "--", "/nonexistent/cmd"}, 127, "/nonexistent/cmd"},
};

Test(enosys, misuse_is_refused_naming_it)
{
	for (size_t i = 0; i < sizeof(misuses) / sizeof(misuses[0]); i++) {
		const char *argv[6] = {ctt_helper("enosys")};
		memcpy(argv + 1, misuses[i].args, sizeof(misuses[i].args));
		struct ctt_result r;
		ctt_run(&r, NULL, argv);
		cr_expect_eq(r.status, misuses[i].status, "enosys %s: exit %d", misuses[i].args[0],
			     r.status);
		cr_expect_not_null(strstr(r.err, misuses[i].says), "stderr: %s", r.err);
		ctt_result_free(&r);
	}
}

/* Makes clone(flags, 0, &pidfd) in a python3 child and prints what came back: "pidfd" or
 * the error; then the same without CLONE_PIDFD ("plain"), as fork() does it. */
static const char clone_script[] = "import ctypes, os\n"
				   "libc = ctypes.CDLL(None, use_errno=True)\n"
				   "for name, flags in (('pidfd', 0x1000 | 17), ('plain', 17)):\n"
				   "    fd = ctypes.c_int(-1)\n"
				   "    pid = libc.syscall(56, flags, 0, ctypes.byref(fd), 0, 0)\n"
				   "    if pid == 0:\n"
				   "        os._exit(0)\n"
				   "    if pid < 0:\n"
				   "        print(name, os.strerror(ctypes.get_errno()))\n"
				   "    else:\n"
				   "        os.waitpid(pid, 0)\n"
				   "        print(name, 'ok')\n";

static void run_clone_script(struct ctt_result *r, bool filtered)
{
	if (access("/usr/bin/python3", X_OK) != 0)
		cr_skip("python3 is not installed");
	const char *plain[] = {"python3", "-c", clone_script, NULL};
	const char *wrapped[] = {ctt_helper("enosys"),
				 "--clone-pidfd-einval",
				 "--",
				 "python3",
				 "-c",
				 clone_script,
				 NULL};
	run_ok(r, filtered ? wrapped : plain);
}

/* A kernel before 5.2 refuses CLONE_PIDFD with EINVAL; everything else still clones. */
Test(enosys, clone_pidfd_einval_refuses_only_clone_with_a_pidfd)
{
	struct ctt_result base, r;
	run_clone_script(&base, false);
	cr_expect_str_eq(base.out, "pidfd ok\nplain ok\n", "stderr: %s", base.err);
	run_clone_script(&r, true);
	cr_expect_str_eq(r.out, "pidfd Invalid argument\nplain ok\n", "stderr: %s", r.err);
	ctt_result_free(&base);
	ctt_result_free(&r);
}

/* The option combines with a syscall list, and clone3 is then blocked as before. */
Test(enosys, clone_pidfd_einval_combines_with_a_list)
{
	struct ctt_result r;
	const char *argv[] = {ctt_helper("enosys"),
			      "--clone-pidfd-einval",
			      "clone3",
			      "--",
			      ctt_helper("kernel_probe"),
			      NULL};
	run_ok(&r, argv);
	cr_expect_str_eq(probe_value(r.out, "clone3"), "no");
	cr_expect_str_eq(probe_value(r.out, "pidfd_open"), "yes");
	ctt_result_free(&r);
}

Test(enosys, empty_list_without_clone_option_is_a_usage_error)
{
	struct ctt_result r;
	const char *argv[] = {ctt_helper("enosys"), "--", "true", NULL};
	ctt_run(&r, NULL, argv);
	cr_expect_eq(r.status, 2);
	cr_expect_not_null(strstr(r.err, "usage"), "stderr: %s", r.err);
	ctt_result_free(&r);
}
