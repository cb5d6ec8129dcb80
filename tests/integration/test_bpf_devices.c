/* The cgroup v2 device filter (libct/cgroup/bpf_devices.c) on this kernel: the devcg_check
 * helper makes a cgroup under its own in the cgroup2 hierarchy, installs the filter built
 * from a resources document and runs a child there that opens and mknods devices. What the
 * child gets must be what the rules say; an update replaces the program (one stays); bpf()
 * refused gives a clear error; the cgroup is gone afterwards. */
#include <criterion/criterion.h>
#include <string.h>

#include "tests/lib/testlib.h"

#define DENY_ALL "{\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]}"
#define KMSG_READ                                                                        \
	"{\"devices\": [{\"allow\": false}, {\"allow\": true, \"type\": \"c\", \"major\": 1, " \
	"\"minor\": 11, \"access\": \"r\"}]}"

TestSuite(bpf_devices, .fini = ctt_cleanup);

/* Runs devcg_check with args (NULL-terminated) and expects `want` as its whole output. */
static void assert_devcg_output(const char *const *args, const char *want)
{
	const char *argv[16] = {ctt_helper("devcg_check")};
	size_t n = 1;
	while (args[n - 1] && n < 15) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	struct ctt_result r;
	ctt_run(&r, NULL, argv);
	if (r.status == 77)
		ctt_skip("%s", r.out);
	cr_assert_eq(r.status, 0, "devcg_check exited %d\nstdout: %s\nstderr: %s", r.status, r.out,
		     r.err);
	cr_expect_str_eq(r.out, want);
	cr_expect_str_empty(r.err, "the cgroup must be removed: %s", r.err);
	ctt_result_free(&r);
}

/* runc's standard devices; any node may be made (c *:* m, b *:* m), and opened only as the
 * rules allow. */
Test(bpf_devices, deny_all_keeps_the_standard_devices)
{
	const char *args[] = {DENY_ALL,
			      "r:/dev/null w:/dev/full rw:/dev/zero r:/dev/urandom r:/dev/kmsg "
			      "w:/dev/kmsg m:c:1:3 m:c:1:11 m:b:7:0 mr:b:7:0 mr:c:1:11 mr:c:5:1",
			      NULL};
	assert_devcg_output(args, "programs 1\n"
				  "r /dev/null ok\n"
				  "w /dev/full ok\n"
				  "rw /dev/zero ok\n"
				  "r /dev/urandom ok\n"
				  "r /dev/kmsg Operation not permitted\n"
				  "w /dev/kmsg Operation not permitted\n"
				  "m c:1:3 ok\n"
				  "m c:1:11 ok\n"
				  "m b:7:0 ok\n"
				  "mr b:7:0 made, open Operation not permitted\n"
				  "mr c:1:11 made, open Operation not permitted\n"
				  "mr c:5:1 made, open Operation not permitted\n");
}

Test(bpf_devices, an_allowed_access_is_only_that_access)
{
	const char *args[] = {KMSG_READ, "r:/dev/kmsg w:/dev/kmsg rw:/dev/kmsg m:c:1:11", NULL};
	assert_devcg_output(args, "programs 1\n"
				  "r /dev/kmsg ok\n"
				  "w /dev/kmsg Operation not permitted\n"
				  "rw /dev/kmsg Operation not permitted\n"
				  "m c:1:11 ok\n"); /* mknod of any node, as runc */
}

Test(bpf_devices, allow_all_then_deny_one)
{
	const char *args[] = {"{\"devices\": [{\"allow\": true}, {\"allow\": false, \"type\": "
			      "\"c\", \"major\": 1, \"minor\": 11, \"access\": \"w\"}]}",
			      "r:/dev/kmsg w:/dev/kmsg m:b:7:0", NULL};
	assert_devcg_output(args, "programs 1\n"
				  "r /dev/kmsg ok\n"
				  "w /dev/kmsg Operation not permitted\n"
				  "m b:7:0 ok\n");
}

Test(bpf_devices, update_replaces_the_program)
{
	const char *args[] = {DENY_ALL, "r:/dev/kmsg", KMSG_READ, "r:/dev/kmsg w:/dev/kmsg",
			      DENY_ALL, "r:/dev/kmsg r:/dev/null", NULL};
	assert_devcg_output(args, "programs 1\n"
				  "r /dev/kmsg Operation not permitted\n"
				  "programs 1\n"
				  "r /dev/kmsg ok\n"
				  "w /dev/kmsg Operation not permitted\n"
				  "programs 1\n"
				  "r /dev/kmsg Operation not permitted\n"
				  "r /dev/null ok\n");
}

static void assert_refused_bpf(const char *errno_name, const char *want)
{
	const char *argv[] = {ctt_helper("enosys"), "--errno", errno_name, "bpf", "--",
			      ctt_helper("devcg_check"), DENY_ALL, "r:/dev/null", NULL};
	struct ctt_result r;
	ctt_run(&r, NULL, argv);
	if (r.status == 77)
		ctt_skip("%s", r.out);
	cr_expect_eq(r.status, 1, "stdout: %s\nstderr: %s", r.out, r.err);
	cr_expect_str_eq(r.err, want);
	ctt_result_free(&r);
}

Test(bpf_devices, refused_bpf_says_why)
{
	assert_refused_bpf("ENOSYS", "devcg_check: bpf(BPF_PROG_LOAD) of the cgroup device "
				     "filter: this kernel has no bpf() (needs CONFIG_BPF_SYSCALL)\n");
	assert_refused_bpf("EPERM", "devcg_check: bpf(BPF_PROG_LOAD) of the cgroup device filter: "
				    "Operation not permitted: bpf() is refused to this process (it "
				    "needs CAP_SYS_ADMIN or CAP_BPF, and no seccomp rule against "
				    "bpf)\n");
}
