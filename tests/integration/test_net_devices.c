/* linux.netDevices (config-linux.md#configLinuxNetworkDevices): a device of the runtime's
 * network namespace moved into the container's, renamed, with its permanent global
 * addresses (IPv4 with its broadcast, IPv6) and its link up, checked from inside (sysfs,
 * busybox ip, /proc/net/if_inet6) and from outside (gone from the runtime's namespace);
 * a "%d" template numbered by the kernel; each refusal one line naming the JSON path, with
 * nothing left and the device where it was.
 *
 * Each test runs in a network namespace of its own, which is the runtime's for its ctrun:
 * the veth pair it moves from is made there, nothing of the machine's is touched. */
#include <criterion/criterion.h>
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(net_devices, .fini = lc_cleanup);

#define ID "nd"
#define MOVED "ctvb" /* the end moved into the container */
#define PEER "ctva"  /* the end left outside */

static int ip(const char *const *argv, char **err)
{
	struct ctt_result r;
	int status = ctt_run(&r, NULL, argv);
	if (err)
		*err = strdup(r.err);
	ctt_result_free(&r);
	return status;
}

static void ip_ok(const char *const *argv)
{
	char *err;
	cr_assert_eq(ip(argv, &err), 0, "%s %s %s: %s", argv[0], argv[1], argv[2], err);
	free(err);
}

/* The test's own network namespace with the veth pair PEER - MOVED, MOVED holding
 * 192.0.2.5/24 (broadcast 192.0.2.255) and 2001:db8::5/64. */
static void host_with_veth(void)
{
	if (unshare(CLONE_NEWNET) < 0)
		ctt_skip("no network namespace of the test's own: unshare: %s", strerror(errno));
	char *err = NULL;
	if (access("/sbin/ip", X_OK) != 0 && access("/usr/sbin/ip", X_OK) != 0 &&
	    access("/usr/bin/ip", X_OK) != 0)
		ctt_skip("no ip (install iproute2) to make the veth pair");
	if (ip(LC_ARGV("ip", "link", "add", PEER, "type", "veth", "peer", "name", MOVED), &err))
		ctt_skip("no veth pair in this kernel: %s", err);
	free(err);
	ip_ok(LC_ARGV("ip", "addr", "add", "192.0.2.5/24", "brd", "+", "dev", MOVED));
	ip_ok(LC_ARGV("ip", "-6", "addr", "add", "2001:db8::5/64", "dev", MOVED, "nodad"));
}

static void set_net_devices(const struct lc *t, const char *json)
{
	ctt_config_set(t->bundle, ".linux.netDevices", json);
}

static bool host_has(const char *name)
{
	return if_nametoindex(name) != 0;
}

/* What the container sees of device name: its flags, its IPv4 addresses, its IPv6 ones. */
static char *inside_script(const char *name)
{
	char *script;
	cr_assert(asprintf(&script,
			   "echo flags=$(( $(cat /sys/class/net/%s/flags) & 1 )); "
			   "ip -o -4 addr show dev %s; grep ' %s$' /proc/net/if_inet6",
			   name, name, name) > 0);
	return script;
}

static void assert_moved_as(const char *out, const char *name)
{
	cr_expect(strstr(out, "flags=1"), "%s not up: %s", name, out);
	cr_expect(strstr(out, "inet 192.0.2.5/24 brd 192.0.2.255"), "no IPv4 address: %s", out);
	cr_expect(strstr(out, "20010db8000000000000000000000005"), "no IPv6 address: %s", out);
	cr_expect(strstr(out, " 40 "), "IPv6 prefix length not 64: %s", out);
}

/* The moved end goes with the container's namespace, and its peer with it (veth). */
static void assert_pair_destroyed(void)
{
	for (int i = 0; i < 1000 && host_has(PEER); i++)
		usleep(10000);
	cr_expect_not(host_has(PEER), "the veth's peer outlived the container's namespace");
	cr_expect_not(host_has(MOVED));
}

Test(net_devices, moved_renamed_addressed_and_up)
{
	struct lc t;
	lc_init(&t);
	host_with_veth();
	set_net_devices(&t, "{\"" MOVED "\": {\"name\": \"ctr0\"}}");
	char *script = inside_script("ctr0"), *full;
	cr_assert(asprintf(&full, "(%s) > /tmp/out 2>&1", script) > 0);
	lc_set_script(&t, full);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	/* created: the device has left the runtime's namespace, its peer is still there */
	cr_expect_not(host_has(MOVED), MOVED " still in the runtime's network namespace");
	cr_expect(host_has(PEER));
	lc_ok(&t, "start", ID);
	lc_wait_status(&t, ID, "stopped");
	char *out = ctt_read_file(lc_rootfs_path(&t, "tmp/out"));
	assert_moved_as(out, "ctr0");
	lc_ok(&t, "delete", ID);
	assert_pair_destroyed();
	free(out);
	free(full);
	free(script);
}

/* The device keeps its own name without "name"; a user namespace's root moves it too. */
Test(net_devices, own_name_in_a_user_namespace)
{
	struct lc t;
	lc_init(&t);
	host_with_veth();
	lc_map_root(&t, 100000, 65536);
	set_net_devices(&t, "{\"" MOVED "\": {}}");
	char *script = inside_script(MOVED);
	char *out = lc_sh_output(&t, script);
	assert_moved_as(out, MOVED);
	free(out);
	free(script);
}

/* "eth%d": the kernel gives the lowest free number in the container's namespace. */
Test(net_devices, template_numbered_by_the_kernel)
{
	struct lc t;
	lc_init(&t);
	host_with_veth();
	set_net_devices(&t, "{\"" MOVED "\": {\"name\": \"eth%d\"}}");
	char *script = inside_script("eth0"), *full;
	cr_assert(asprintf(&full, "ls /sys/class/net | tr '\\n' ' '; echo; %s", script) > 0);
	char *out = lc_sh_output(&t, full);
	cr_expect(strstr(out, "eth0 lo"), "devices: %s", out);
	assert_moved_as(out, "eth0");
	free(out);
	free(full);
	free(script);
}

/* A create that fails after the move (a createRuntime hook) leaves nothing: the namespace
 * goes with the init, and the moved veth with it (network_namespaces(7), as config-linux.md
 * says; nothing is moved back). */
Test(net_devices, create_failing_after_the_move_leaves_nothing)
{
	struct lc t;
	lc_init(&t);
	host_with_veth();
	set_net_devices(&t, "{\"" MOVED "\": {\"name\": \"ctr0\"}}");
	ctt_config_set(t.bundle, ".hooks", "{\"createRuntime\": [{\"path\": \"/bin/false\"}]}");
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID), "createRuntime");
	lc_assert_nothing_left(&t);
	assert_pair_destroyed();
}

/* runtime.md#errors: a name the container's namespace has is an error (no template), before
 * the device leaves: it stays where it was, with its addresses. */
Test(net_devices, name_taken_in_the_container_refused)
{
	struct lc t;
	lc_init(&t);
	host_with_veth();
	set_net_devices(&t, "{\"" MOVED "\": {\"name\": \"lo\"}}");
	lc_assert_create_refused(&t, ID,
				 LC_ARGV("config.json: .linux.netDevices." MOVED ": ",
					 "the name \"lo\" is taken in the container's network "
					 "namespace"));
	cr_expect(host_has(MOVED), "the device left the runtime's namespace");
	char *err;
	cr_expect_eq(ip(LC_ARGV("ip", "-4", "addr", "show", "dev", MOVED, "to", "192.0.2.5"), &err),
		     0, "%s", err);
	free(err);
}

Test(net_devices, missing_device_refused)
{
	struct lc t;
	lc_init(&t);
	host_with_veth();
	set_net_devices(&t, "{\"ctnone0\": {}}");
	lc_assert_create_refused(&t, ID,
				 LC_ARGV("config.json: .linux.netDevices.ctnone0: ",
					 "no network device \"ctnone0\" in the runtime's network "
					 "namespace"));
	cr_expect(host_has(MOVED));
}

/* Without a network namespace of the container's, a device would be "moved" into the
 * runtime's own: refused before anything is made, also where the path joined is the
 * runtime's own namespace. */
Test(net_devices, no_network_namespace_refused)
{
	struct lc t;
	lc_init(&t);
	host_with_veth();
	set_net_devices(&t, "{\"" MOVED "\": {}}");
	static const char *const needles[] = {"config.json: .linux.netDevices: moving network "
					      "devices needs a network namespace of the "
					      "container's",
					      NULL};
	lc_namespace_set(&t, "network", "{\"type\": \"network\", \"path\": \"/proc/self/ns/net\"}");
	lc_assert_create_refused(&t, ID, needles);
	lc_namespace_set(&t, "network", NULL);
	lc_assert_create_refused(&t, ID, needles);
	cr_expect(host_has(MOVED));
}
