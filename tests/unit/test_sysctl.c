/* libct/child/sysctl.c: which linux.sysctl keys a container may set, by the namespaces it has. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "libct/child/sysctl.h"

static const struct ct_sysctl_namespaces all = {.ipc = true, .net = true, .uts = true};
static const struct ct_sysctl_namespaces none = {0};

static void assert_allowed(const char *key, const struct ct_sysctl_namespaces *ns)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_sysctl_check(key, ns, &err), 0, "%s refused: %s", key, err.msg);
}

static void assert_refused(const char *key, const struct ct_sysctl_namespaces *ns, const char *msg)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_sysctl_check(key, ns, &err), -1, "%s allowed", key);
	cr_assert_str_eq(err.msg, msg);
}

Test(sysctl, namespaced_keys_with_their_namespace)
{
	const char *keys[] = {"kernel.msgmax",
			      "kernel.msgmnb",
			      "kernel.msgmni",
			      "kernel.sem",
			      "kernel.shmall",
			      "kernel.shmmax",
			      "kernel.shmmni",
			      "kernel.shm_rmid_forced",
			      "fs.mqueue.msg_max",
			      "net.ipv4.ip_forward",
			      "net/ipv4/ping_group_range",
			      "kernel.domainname"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_allowed(keys[i], &all);
}

Test(sysctl, namespaced_keys_without_their_namespace)
{
	assert_refused("kernel.shmmax", &none,
		       "config.json: .linux.sysctl[\"kernel.shmmax\"]: needs the container's own "
		       "ipc namespace");
	assert_refused("net.ipv4.ip_forward", &(struct ct_sysctl_namespaces){.ipc = true},
		       "config.json: .linux.sysctl[\"net.ipv4.ip_forward\"]: needs the "
		       "container's own network namespace");
	assert_refused("kernel.domainname", &(struct ct_sysctl_namespaces){.net = true},
		       "config.json: .linux.sysctl[\"kernel.domainname\"]: needs the container's "
		       "own uts namespace");
}

/* runc 1.1.5 and crun 1.8.1 refuse it in every form: .hostname sets it */
Test(sysctl, hostname_is_refused_for_the_hostname_field)
{
	static const char *const keys[] = {"kernel.hostname", "kernel/hostname"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char msg[256];
		snprintf(msg, sizeof(msg),
			 "config.json: .linux.sysctl[\"%s\"]: conflicts with .hostname, which sets it",
			 keys[i]);
		assert_refused(keys[i], &all, msg);
	}
}

Test(sysctl, host_wide_keys_are_refused)
{
	const char *keys[] = {"vm.swappiness", "kernel.pid_max", "kernel.shmmaxx", "fs.file-max",
			      "kernel.sem_x",  "netx.a",	 "fs.mqueue"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char msg[256];
		snprintf(msg, sizeof(msg),
			 "config.json: .linux.sysctl[\"%s\"]: not a namespaced sysctl: it would "
			 "change the host",
			 keys[i]);
		assert_refused(keys[i], &all, msg);
	}
}

Test(sysctl, names_that_climb_out_of_proc_sys_are_refused)
{
	const char *keys[] = {"net/../../vm/swappiness", "net..x", "", ".net", "net.", "net/./x"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct ct_error err = {0};
		cr_expect_eq(ct_sysctl_check(keys[i], &all, &err), -1, "\"%s\" allowed", keys[i]);
	}
}

Test(sysctl, path_under_proc_sys)
{
	char buf[64];
	cr_assert_eq(ct_sysctl_path("net.ipv4.ip_forward", buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "/proc/sys/net/ipv4/ip_forward");
	cr_assert_eq(ct_sysctl_path("fs/mqueue/msg_max", buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "/proc/sys/fs/mqueue/msg_max");
	cr_assert_eq(ct_sysctl_path("net.ipv4.a_very_long_name_indeed", buf, 20), -1);
}
