/* The pure parts of libct/cgroup: layout detection from mountinfo and /proc/self/cgroup
 * text, cgroupsPath resolution, the v1 <-> v2 conversions and value formatters. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/cgroup/cgroup.h"
#include "libct/cgroup/convert.h"

/* This machine's hybrid layout: v1 hierarchies, name=systemd, cgroup2 on unified. */
static const char hybrid_mountinfo[] =
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n"
	"34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	"41 22 0:38 / /mnt/other rw - cgroup cgroup rw,pids\n";
static const char hybrid_cgroup[] = "9:name=systemd:/user.slice\n"
				    "4:memory:/process_api/abc\n"
				    "2:cpu,cpuacct:/\n"
				    "0::/user.slice\n";

/* The v1 hierarchy i of l has key (its controllers) and the caller's cgroup in it. */
static void expect_hierarchy(const struct ct_cgroup_layout *l, size_t i, const char *key,
			     const char *caller_path)
{
	cr_assert_lt(i, l->n_v1);
	cr_expect_str_eq(l->v1[i].key, key, "hierarchy %zu", i);
	cr_expect_str_eq(l->v1[i].caller_path, caller_path, "hierarchy %zu (%s)", i, key);
}

Test(cgroup_layout, hybrid_hierarchies_keys_and_caller_paths)
{
	struct ct_cgroup_layout l;
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_layout_parse(hybrid_mountinfo, hybrid_cgroup, &l, &err), 0, "%s",
		     err.msg);
	cr_expect_eq(l.mode, CT_CGROUP_MODE_HYBRID);
	cr_assert_eq(l.n_v1, 3, "the pids mount outside /sys/fs/cgroup does not count");
	expect_hierarchy(&l, 0, "cpu,cpuacct", "/");
	expect_hierarchy(&l, 1, "memory", "/process_api/abc");
	cr_expect_str_eq(l.v1[2].key, "name=systemd");
	cr_expect_str_eq(l.v1[2].mountpoint, "/sys/fs/cgroup/systemd");
	cr_expect_str_eq(l.v1[0].options, "cpu,cpuacct", "rw is not a hierarchy's option");
	cr_expect_str_eq(l.v1[2].options, "xattr,name=systemd");
	cr_expect_str_eq(l.unified_mount, "/sys/fs/cgroup/unified");
	cr_expect_str_eq(l.unified_caller_path, "/user.slice");
	cr_expect_str_eq(ct_cgroup_layout_find(&l, "cpuacct")->key, "cpu,cpuacct");
	cr_expect_null(ct_cgroup_layout_find(&l, "pids"));
	ct_cgroup_layout_free(&l);
}

/* The layout of a mountinfo and a /proc/self/cgroup text, which must parse. */
static void parse_layout(const char *mountinfo, const char *cgroup, struct ct_cgroup_layout *l)
{
	cr_assert_eq(ct_cgroup_layout_parse(mountinfo, cgroup, l, NULL), 0, "%s", mountinfo);
}

Test(cgroup_layout, unified_and_legacy_and_none)
{
	struct ct_cgroup_layout l;
	parse_layout("25 22 0:23 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "0::/init.scope\n",
		     &l);
	cr_expect_eq(l.mode, CT_CGROUP_MODE_UNIFIED);
	cr_expect_str_eq(l.unified_caller_path, "/init.scope");
	ct_cgroup_layout_free(&l);
	parse_layout("34 30 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup "
		     "rw,memory\n",
		     "4:memory:/\n", &l);
	cr_expect_eq(l.mode, CT_CGROUP_MODE_LEGACY);
	cr_expect_null(l.unified_mount);
	ct_cgroup_layout_free(&l);
	parse_layout("1 0 8:1 / / rw - ext4 /dev/sda1 rw\n", "", &l);
	cr_expect_eq(l.mode, CT_CGROUP_MODE_NONE);
	ct_cgroup_layout_free(&l);
}

/* An empty tmpfs over .../unified (how crun 1.8 is run on a hybrid host) leaves plain v1;
 * one over a v1 hierarchy hides that hierarchy alone. */
Test(cgroup_layout, a_mount_over_a_hierarchy_hides_it)
{
	struct ct_cgroup_layout l;
	parse_layout("30 22 0:26 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
		     "31 22 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
		     "32 22 0:28 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n"
		     "90 30 0:60 / /sys/fs/cgroup/unified rw - tmpfs none rw\n"
		     "91 32 0:61 / /sys/fs/cgroup/pids rw - tmpfs none rw\n",
		     "5:pids:/\n4:memory:/m\n0::/\n", &l);
	cr_expect_eq(l.mode, CT_CGROUP_MODE_LEGACY);
	cr_expect_null(l.unified_mount);
	cr_assert_eq(l.n_v1, 1);
	cr_expect_str_eq(l.v1[0].key, "memory");
	ct_cgroup_layout_free(&l);
	parse_layout("25 22 0:23 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
		     "90 25 0:60 / /sys/fs/cgroup rw - tmpfs none rw\n",
		     "0::/\n", &l);
	cr_expect_eq(l.mode, CT_CGROUP_MODE_NONE);
	ct_cgroup_layout_free(&l);
}

/* The mountinfo fields as the kernel spaces them and as a hand-written line may: optional
 * fields before the separator, runs of spaces, no newline at the end; and lines that are
 * no hierarchy: too few fields, no separator, nothing after it. */
Test(cgroup_layout, fields_found_however_spaced)
{
	struct ct_cgroup_layout l;
	parse_layout("31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw shared:9 master:2 - "
		     "cgroup cgroup rw,cpu,cpuacct\n"
		     "34 30 0:31 /sub /sys/fs/cgroup/memory rw - cgroup cgroup "
		     "rw,memory",
		     "4:memory:/m\n2:cpu,cpuacct:/c\n", &l);
	cr_expect_eq(l.mode, CT_CGROUP_MODE_LEGACY);
	cr_assert_eq(l.n_v1, 2);
	expect_hierarchy(&l, 0, "cpu,cpuacct", "/c");
	cr_expect_str_eq(l.v1[1].mount_root, "/sub");
	cr_expect_str_eq(l.v1[1].mountpoint, "/sys/fs/cgroup/memory");
	cr_expect_str_eq(l.v1[1].caller_path, "/m");
	cr_expect_str_eq(l.v1[1].options, "memory");
	ct_cgroup_layout_free(&l);
	cr_assert_eq(ct_cgroup_layout_parse("34 30 0:31 / /sys/fs/cgroup/memory\n"
					    "35 30 0:32 / /sys/fs/cgroup/pids rw cgroup cgroup rw\n"
					    "36 30 0:33 / /sys/fs/cgroup/blkio rw - cgroup cgroup\n"
					    "37 30 0:34 / /sys/fs/cgroup/cpuset rw -\n",
					    "1:memory:/\n2:pids:/\n3:blkio:/\n4:cpuset:/\n", &l,
					    NULL),
		     0);
	cr_expect_eq(l.mode, CT_CGROUP_MODE_NONE);
	cr_expect_eq(l.n_v1, 0);
	ct_cgroup_layout_free(&l);
}

/* A hierarchy is the /proc/self/cgroup line whose controllers are all in the mount's
 * options, not one sharing a prefix; lines without two colons are passed over. */
Test(cgroup_layout, caller_line_matches_whole_controllers)
{
	struct ct_cgroup_layout l;
	cr_assert_eq(ct_cgroup_layout_parse(
			     "31 30 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n",
			     "garbage\n7::/x\n5:cpu,cpuacct:/both\n3:cpuset:/set\n2:cpu:/mine", &l,
			     NULL),
		     0);
	cr_assert_eq(l.n_v1, 1);
	expect_hierarchy(&l, 0, "cpu", "/mine");
	ct_cgroup_layout_free(&l);
}

/* A field longer than a path can be is no hierarchy ctrun could use: the line is skipped. */
Test(cgroup_layout, overlong_field_skips_the_line)
{
	static char mountinfo[3000];
	char root[1100];
	memset(root, 'r', sizeof(root) - 1);
	root[0] = '/';
	root[sizeof(root) - 1] = '\0';
	snprintf(mountinfo, sizeof(mountinfo),
		 "34 30 0:31 %s /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
		 "35 30 0:32 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n",
		 root);
	struct ct_cgroup_layout l;
	cr_assert_eq(ct_cgroup_layout_parse(mountinfo, "1:memory:/\n2:pids:/\n", &l, NULL), 0);
	cr_assert_eq(l.n_v1, 1);
	cr_expect_str_eq(l.v1[0].key, "pids");
	ct_cgroup_layout_free(&l);
}

static char *resolved(const char *given, const char *caller, const char *id)
{
	char *out = NULL;
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_resolve_path(given, caller, id, &out, &err), 0, "%s", err.msg);
	return out;
}

static void assert_resolves(const char *given, const char *caller, const char *want)
{
	char *got = resolved(given, caller, "web");
	cr_expect_str_eq(got, want, "\"%s\" under \"%s\"", given ? given : "(null)", caller);
	free(got);
}

Test(cgroup_path, absolute_relative_and_default)
{
	/* cgroupsPath, the caller's cgroup, where the container goes */
	static const char *const rows[][3] = {
		{"/machine/web", "/user.slice", "/machine/web"},
		{"/machine//web/", "/", "/machine/web"},
		{"pod/web", "/process_api/abc", "/process_api/abc/pod/web"},
		{"pod/web", "/", "/pod/web"},
		{"", "/process_api/abc", "/process_api/abc/ctrun/web"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_resolves(rows[i][0], rows[i][1], rows[i][2]);
	assert_resolves(NULL, "/", "/ctrun/web");
}

static void assert_path_refused(const char *given, int errnum, const char *needle)
{
	char *out = NULL;
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_resolve_path(given, "/", "web", &out, &err), -1, "%s", given);
	cr_expect_eq(err.errnum, errnum, "%s: %s", given, err.msg);
	cr_expect(strstr(err.msg, ".linux.cgroupsPath"), "%s", err.msg);
	cr_expect(strstr(err.msg, needle), "%s", err.msg);
	cr_expect_null(out);
}

/* 4095 characters is the longest path resolved, whether from the caller's path and a
 * relative cgroupsPath together or from an absolute one. */
Test(cgroup_path, longest_path)
{
	static char given[4200], caller[4200], want[4200];
	memset(given, 'a', 4094);
	given[0] = '/';
	given[4094] = '\0';
	assert_resolves(given, "/", given);
	memset(caller, 'c', 4000);
	caller[0] = '/';
	caller[4000] = '\0';
	memset(given, 'g', 94);
	given[94] = '\0';
	snprintf(want, sizeof(want), "%s/%s", caller, given);
	assert_resolves(given, caller, want);
	given[94] = 'g';
	given[95] = '\0';
	char *out = NULL;
	struct ct_error err = {0};
	cr_expect_eq(ct_cgroup_resolve_path(given, caller, "web", &out, &err), -1);
	cr_expect_eq(err.errnum, ENAMETOOLONG, "%s", err.msg);
	cr_expect_null(out);
}

Test(cgroup_path, refused_forms)
{
	assert_path_refused("system.slice:ctrun:web", ENOTSUP, "systemd");
	assert_path_refused("/a/../b", EINVAL, "\"..\"");
	assert_path_refused("a/./b", EINVAL, "\".\"");
	assert_path_refused("/", EINVAL, "root of the hierarchy");
	cr_expect(ct_cgroup_path_is_systemd("user.slice:podman:abc"));
	cr_expect_not(ct_cgroup_path_is_systemd("/a:b:c"));
	cr_expect_not(ct_cgroup_path_is_systemd("a:b"));
	cr_expect_not(ct_cgroup_path_is_systemd("a:b:c:d"));
}

Test(cgroup_path, directory_under_the_mount_root)
{
	char *dir = NULL;
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_dir_for("/sys/fs/cgroup/memory", "/", "/a/b", &dir, &err), 0);
	cr_expect_str_eq(dir, "/sys/fs/cgroup/memory/a/b");
	free(dir);
	cr_assert_eq(ct_cgroup_dir_for("/sys/fs/cgroup/memory", "/", "/", &dir, &err), 0);
	cr_expect_str_eq(dir, "/sys/fs/cgroup/memory");
	free(dir);
	cr_assert_eq(ct_cgroup_dir_for("/sys/fs/cgroup", "/ns", "/ns/a", &dir, &err), 0);
	cr_expect_str_eq(dir, "/sys/fs/cgroup/a");
	free(dir);
	cr_expect_eq(ct_cgroup_dir_for("/sys/fs/cgroup", "/ns", "/nsx/a", &dir, &err), -1);
	cr_expect_eq(err.errnum, EXDEV);
}

Test(cgroup_convert, shares_to_weight_as_runc)
{
	cr_expect_eq(ct_cgroup_shares_to_weight(0), 0);
	cr_expect_eq(ct_cgroup_shares_to_weight(2), 1);
	cr_expect_eq(ct_cgroup_shares_to_weight(1024), 39);
	cr_expect_eq(ct_cgroup_shares_to_weight(262144), 10000);
	cr_expect_eq(ct_cgroup_shares_to_weight(1), 1, "below the range: the minimum");
}

Test(cgroup_convert, blkio_weight_to_io_weight)
{
	cr_expect_eq(ct_cgroup_blkio_to_io_weight(0), 0);
	cr_expect_eq(ct_cgroup_blkio_to_io_weight(10), 1);
	cr_expect_eq(ct_cgroup_blkio_to_io_weight(500), 4950);
	cr_expect_eq(ct_cgroup_blkio_to_io_weight(1000), 10000);
}

Test(cgroup_convert, swap_is_memory_plus_swap)
{
	int64_t v;
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_swap_to_v2(300, true, 100, &v, &err), 0);
	cr_expect_eq(v, 200);
	cr_assert_eq(ct_cgroup_swap_to_v2(-1, true, 100, &v, &err), 0);
	cr_expect_eq(v, -1);
	cr_expect_eq(ct_cgroup_swap_to_v2(50, true, 100, &v, &err), -1);
	cr_expect(strstr(err.msg, ".memory.swap"), "%s", err.msg);
	cr_expect_eq(ct_cgroup_swap_to_v2(50, false, 0, &v, &err), -1);
}

Test(cgroup_format, limits_cpu_max_and_device_numbers)
{
	char buf[64];
	ct_cgroup_format_limit(-1, false, buf, sizeof(buf));
	cr_expect_str_eq(buf, "-1");
	ct_cgroup_format_limit(-1, true, buf, sizeof(buf));
	cr_expect_str_eq(buf, "max");
	ct_cgroup_format_limit(524288, true, buf, sizeof(buf));
	cr_expect_str_eq(buf, "524288");
	ct_cgroup_format_cpu_max(true, 50000, true, 100000, buf, sizeof(buf));
	cr_expect_str_eq(buf, "50000 100000");
	ct_cgroup_format_cpu_max(true, -1, false, 0, buf, sizeof(buf));
	cr_expect_str_eq(buf, "max");
	ct_cgroup_format_cpu_max(false, 0, true, 20000, buf, sizeof(buf));
	cr_expect_str_eq(buf, "max 20000");
	cr_expect_eq(ct_cgroup_format_devnum(false, 0, buf), 1);
	cr_expect_str_eq(buf, "*");
	cr_expect_eq(ct_cgroup_format_devnum(true, 136, buf), 3);
	cr_expect_str_eq(buf, "136");
	cr_expect_eq(ct_cgroup_format_devnum(true, -2, buf), 1);
	cr_expect_str_eq(buf, "*", "a negative number matches any");
}

Test(cgroup_format, device_rules_as_the_kernel_reads_them)
{
	const struct {
		struct ct_dev_rule rule;
		const char *want;
	} cases[] = {
		{{true, 'a', CT_DEV_ANY, CT_DEV_ANY, CT_DEV_ACC_ALL}, "a *:* rwm"},
		{{true, 'c', 1, 3, CT_DEV_ACC_READ | CT_DEV_ACC_WRITE}, "c 1:3 rw"},
		{{false, 'b', 8, CT_DEV_ANY, CT_DEV_ACC_MKNOD}, "b 8:* m"},
		{{true, 'c', 136, 0, CT_DEV_ACC_WRITE | CT_DEV_ACC_MKNOD}, "c 136:0 wm"},
		{{true, 'c', INT64_MAX, INT64_MAX, CT_DEV_ACC_ALL},
		 "c 9223372036854775807:9223372036854775807 rwm"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[CT_DEV_RULE_MAX];
		ct_cgroup_format_dev_rule(&cases[i].rule, buf);
		cr_expect_str_eq(buf, cases[i].want);
	}
}
