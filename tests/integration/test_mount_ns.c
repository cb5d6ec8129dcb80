/* Mounts without a mount namespace of the container's own (config-linux.md#namespaces: an
 * absent namespace is inherited, a path is joined; config.md#mounts: the mounts are made in
 * order). runc and crun make them there; so does ctrun, in a private bind of the rootfs that
 * delete detaches (libct/state/shared_root.h), where runc and crun leave them behind.
 *
 * An inherited namespace is the test's own (the integration run's private one: nothing here
 * reaches the machine's), checked from outside through /proc/self/mountinfo; a joined one is
 * another container's, checked through `exec` into that container. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/container.h"

TestSuite(mount_ns, .fini = lc_cleanup);

/* Two tmpfs mounts, the second inside the first (it exists only if they came in order),
 * then a bind of a host directory inside the second. */
static char *add_nested_mounts(const struct lc *t)
{
	char *host = ctt_tmpdir();
	char *f = ctt_path(host, "f");
	ctt_write_file(f, "from-host\n");
	free(f);
	lc_add_mount(t, "/outer", "tmpfs", "tmpfs", "size=1m");
	lc_add_mount(t, "/outer/inner", "tmpfs", "tmpfs", "size=2m");
	lc_add_mount(t, "/outer/inner/host", "bind", host, "rbind,ro");
	return host;
}

/* What the container prints: its mount namespace and its view of the three mounts. */
#define NESTED_SCRIPT                                                                         \
	"readlink /proc/self/ns/mnt; "                                                        \
	"awk '$5 ~ /^\\/outer/ { print $5 }' /proc/self/mountinfo; cat /outer/inner/host/f; " \
	"touch /outer/inner/host/g 2>/dev/null || echo host-ro"

static void expect_nested_output(const char *out, const char *mnt_ns)
{
	char want[512];
	snprintf(want, sizeof(want),
		 "%s\n/outer\n/outer/inner\n/outer/inner/host\nfrom-host\nhost-ro\n", mnt_ns);
	cr_expect_str_eq(out, want);
}

/* A container with no mount namespace of its own: it inherits ours. */
static void init_in_our_namespace(struct lc *t)
{
	lc_init(t);
	lc_namespace_set(t, "mount", NULL);
}

/* Lines of mountinfo (this process's) whose mount point is under dir. */
static unsigned mounts_under(const char *mountinfo_file, const char *dir)
{
	char *mi = ctt_read_file(mountinfo_file);
	unsigned n = 0;
	size_t len = strlen(dir);
	for (char *line = strtok(mi, "\n"); line; line = strtok(NULL, "\n")) {
		char point[4096];
		if (sscanf(line, "%*s %*s %*s %*s %4095s", point) == 1 &&
		    strncmp(point, dir, len) == 0 && (point[len] == '/' || !point[len]))
			n++;
	}
	free(mi);
	return n;
}

Test(mount_ns, inherited_namespace_gets_the_mounts_in_order_and_delete_removes_them)
{
	struct lc t;
	init_in_our_namespace(&t);
	char *host = add_nested_mounts(&t);
	char *out = ctt_tmp_path("out");
	lc_set_script(&t, NESTED_SCRIPT);
	pid_t create = lc_spawn(
		&t, lc_ctrun_argv(&t, LC_ARGV("create", "--bundle", t.bundle, "inh")), out, -1);
	cr_assert_eq(lc_wait(create, 30000), 0, "create: %s", ctt_read_file(out));

	/* made in this namespace: the rootfs's bind and, in it, proc, sysfs, /dev... and ours */
	char *rootfs = ctt_path(t.bundle, "rootfs");
	cr_expect_geq(mounts_under("/proc/self/mountinfo", rootfs), 4, "not in this namespace");
	char *outer = lc_rootfs_path(&t, "outer/inner/host");
	cr_expect_eq(mounts_under("/proc/self/mountinfo", outer), 1);
	/* nor beyond it: the machine's namespace (pid 1's) has none */
	cr_expect_eq(mounts_under("/proc/1/mountinfo", rootfs), 0, "leaked to pid 1's namespace");

	lc_ok(&t, "start", "inh");
	char *mnt_ns = ctt_ns_link("self", "mnt");
	char *text = ctt_wait_content(out, "host-ro\n");
	expect_nested_output(text, mnt_ns);
	lc_wait_status(&t, "inh", "stopped");
	lc_ok(&t, "delete", "inh");
	cr_expect_eq(mounts_under("/proc/self/mountinfo", rootfs), 0, "delete left mounts");
	lc_assert_nothing_left(&t);
	free(text);
	free(mnt_ns);
	free(outer);
	free(rootfs);
	free(out);
	free(host);
}

/* run (create, start, wait, delete in one) leaves nothing either; the masks apply as in a
 * namespace of the container's own (runc refuses masks without one). */
Test(mount_ns, inherited_namespace_with_run_and_masks)
{
	struct lc t;
	init_in_our_namespace(&t);
	char *secret = lc_rootfs_file(&t, "etc/secret", "secret\n");
	lc_config_append(&t, ".linux.maskedPaths", "\"/etc/secret\"");
	char *out = lc_sh_output(&t, "wc -c </etc/secret; touch /x 2>/dev/null || echo root-ro");
	cr_expect_str_eq(out, "0\nroot-ro\n");
	ctt_assert_file_text(secret, "secret\n");
	lc_assert_nothing_left(&t);
	free(out);
	free(secret);
}

/* No mount of ours is left on or below t's rootfs. */
static void assert_no_mount_in_rootfs(const struct lc *t)
{
	char *rootfs = ctt_path(t->bundle, "rootfs");
	cr_expect_eq(mounts_under("/proc/self/mountinfo", rootfs), 0, "a mount is left in %s",
		     rootfs);
	free(rootfs);
}

/* A set-up that fails after the rootfs's bind (a bind source that is not there) takes the
 * bind and what was mounted in it along. */
Test(mount_ns, inherited_namespace_failed_create_leaves_no_mount)
{
	struct lc t;
	init_in_our_namespace(&t);
	lc_add_mount(&t, "/early", "tmpfs", "tmpfs", NULL);
	char *missing = ctt_tmp_path("missing");
	lc_add_mount(&t, "/late", "bind", missing, "bind");
	lc_assert_create_refused(&t, "failing",
				 (const char *const[]){"\"/late\"", "No such file", NULL});
	assert_no_mount_in_rootfs(&t);
	free(missing);
}

/* A failure after the init gave up the capabilities that could detach the bind (a command
 * that is not in the rootfs, found at the end of the set-up): create detaches it. */
Test(mount_ns, inherited_namespace_late_failure_leaves_no_mount)
{
	struct lc t;
	init_in_our_namespace(&t);
	ctt_config_set(t.bundle, ".process.user", "{\"uid\": 1000, \"gid\": 1000}");
	lc_set_args(&t, (const char *const[]){"/no/such/command", NULL});
	lc_assert_create_refused(&t, "late", (const char *const[]){"/no/such/command", NULL});
	assert_no_mount_in_rootfs(&t);
}

/* Container B joins container A's mount namespace by path: its rootfs path and bind sources
 * are looked up there, as runc looks them up (A holds copies of B's bundle and of the bind
 * source at the same paths; B's cgroup mount, bound from the host's hierarchies, is left
 * out), its mounts are made there in order, A sees them, and deleting B takes them out of
 * A's namespace again. */
Test(mount_ns, joined_namespace_of_another_container)
{
	struct lc a, b;
	lc_init(&a);
	lc_init(&b);
	char *copy = lc_rootfs_path(&a, b.bundle + 1);
	ctt_bundle_make(copy);
	ctt_config_set(a.bundle, ".root.readonly", "false"); /* B's mount points are made there */
	lc_set_script(&a, "sleep 1000");
	lc_ok(&a, "run", "--detach", "--bundle", a.bundle, "a");
	char ns[64];
	snprintf(ns, sizeof(ns), "{\"type\":\"mount\",\"path\":\"/proc/%d/ns/mnt\"}",
		 (int)lc_pid(&a, "a"));
	lc_namespace_set(&b, "mount", ns);
	lc_remove_mount(&b, "/sys/fs/cgroup");
	char *host = add_nested_mounts(&b);
	char *host_copy = lc_rootfs_path(&a, host + 1), *f = ctt_path(host_copy, "f");
	ctt_mkdir_p(host_copy);
	ctt_write_file(f, "from-host\n");
	char *out = ctt_tmp_path("out");
	lc_set_script(&b, NESTED_SCRIPT "; sleep 1000");
	pid_t create =
		lc_spawn(&b, lc_ctrun_argv(&b, LC_ARGV("run", "--bundle", b.bundle, "b")), out, -1);
	char pid_text[16];
	snprintf(pid_text, sizeof(pid_text), "%d", (int)lc_pid(&a, "a"));
	char *a_mnt = ctt_ns_link(pid_text, "mnt");
	char *text = ctt_wait_content(out, "host-ro\n");
	expect_nested_output(text, a_mnt);

	/* A sees them at B's rootfs path */
	char *seen_from_a = ctt_tmp_path("a-mountinfo");
	struct ctt_result r;
	lc_ctrun(&r, &a, "exec", "a", "cat", "/proc/self/mountinfo");
	cr_assert_eq(r.status, 0, "exec: %s", r.err);
	ctt_write_file(seen_from_a, r.out);
	ctt_result_free(&r);
	char *b_rootfs = ctt_path(b.bundle, "rootfs/outer/inner/host");
	cr_expect_eq(mounts_under(seen_from_a, b_rootfs), 1, "A does not see B's mounts");
	cr_expect_eq(mounts_under("/proc/self/mountinfo", b.bundle), 0,
		     "B's mounts are in the caller's namespace");

	lc_ok(&b, "delete", "--force", "b");
	lc_wait(create, 30000);
	lc_ctrun(&r, &a, "exec", "a", "cat", "/proc/self/mountinfo");
	cr_assert_eq(r.status, 0, "exec: %s", r.err);
	ctt_write_file(seen_from_a, r.out);
	ctt_result_free(&r);
	cr_expect_eq(mounts_under(seen_from_a, b.bundle), 0, "B's delete left mounts in A");
	lc_ok(&a, "delete", "--force", "a");
	free(b_rootfs);
	free(f);
	free(host_copy);
	free(seen_from_a);
	free(text);
	free(a_mnt);
	free(out);
	free(host);
	free(copy);
}
