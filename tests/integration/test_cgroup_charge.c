/* Where a container's kernel memory is charged on cgroup v1, whose memory hierarchy the init
 * joins itself: without a memory limit first of all, so what its set-up makes and keeps (its
 * network namespace above all) is the container's, not the caller's; under a limit once set
 * up (the set-up must not crowd it out: test_cgroup.c). Checked from outside (the kernel
 * memory of the container's memory cgroup) and inside (/proc/self/cgroup). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/cgroup.h"
#include "tests/lib/container.h"

TestSuite(cgroup_charge, .fini = cgt_cleanup);

/* The kernel memory charged to the memory cgroup of container id (created, not started). */
static long long container_kmem(const char *id)
{
	char rel[64];
	snprintf(rel, sizeof(rel), "ctrun/%s", id);
	char *dir = cgt_dir("memory", rel);
	char *text = cgt_read(dir, "memory.kmem.usage_in_bytes");
	long long n = atoll(text);
	free(text), free(dir);
	return n;
}

/* Two containers alike but for a network namespace of their own: the one with it holds the
 * namespace's kernel memory in its own cgroup (it was charged to the caller, both read the
 * same); inside, the memory line reads "/" as the others, the cgroup namespace being made
 * once the init is in its memory cgroup. */
Test(cgroup_charge, an_unlimited_containers_network_namespace_is_its_own)
{
	struct lc t;
	lc_init(&t);
	char *memory = cgt_dir("memory", "");
	if (!memory)
		ctt_skip("no cgroup v1 memory hierarchy (on cgroup v2 the init is born in it)");
	free(memory);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	lc_set_script(&t, "grep -E '^[0-9]+:(memory|pids):' /proc/self/cgroup > /out");
	lc_ok(&t, "create", "--bundle", t.bundle, "net");
	lc_namespace_set(&t, "network", NULL);
	lc_ok(&t, "create", "--bundle", t.bundle, "nonet");
	long long with = container_kmem("net"), without = container_kmem("nonet");
	cr_expect_gt(with, without, "network namespace not charged to the container: %lld <= %lld",
		     with, without);
	lc_ok(&t, "start", "net");
	char *out = lc_rootfs_path(&t, "out");
	char *text = ctt_wait_content(out, "memory");
	cr_expect(ctt_matches(text, "^[0-9]+:memory:/$"), "inside:\n%s", text);
	cr_expect(ctt_matches(text, "^[0-9]+:pids:/$"), "inside:\n%s", text);
	free(text), free(out);
	lc_ok(&t, "delete", "--force", "net");
	lc_ok(&t, "delete", "--force", "nonet");
	lc_assert_nothing_left(&t);
}
