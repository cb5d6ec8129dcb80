/* libct/cgroup/systemd_unit.h and systemd_props.h: cgroupsPath as runc reads it for systemd,
 * slices' places in the tree, and the values runc converts. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "libct/cgroup/systemd_props.h"
#include "libct/cgroup/systemd_unit.h"

static struct ct_systemd_unit parse_ok(const char *path, bool rootless)
{
	struct ct_systemd_unit u;
	struct ct_error err = {0};
	cr_assert_eq(ct_systemd_unit_parse(path, "web", rootless, &u, &err), 0, "%s: %s", path,
		     err.msg);
	return u;
}

Test(systemd_unit, scopes_slices_and_defaults)
{
	struct ct_systemd_unit u = parse_ok("machine.slice:libpod:abc", false);
	cr_expect_str_eq(u.slice, "machine.slice");
	cr_expect_str_eq(u.name, "libpod-abc.scope");
	cr_expect_not(u.is_slice);
	u = parse_ok(":cri-containerd:x", false);
	cr_expect_str_eq(u.slice, "system.slice");
	cr_expect_str_eq(u.name, "cri-containerd-x.scope");
	u = parse_ok("::x", true);
	cr_expect_str_eq(u.slice, "user.slice");
	cr_expect_str_eq(u.name, "x.scope");
	u = parse_ok("", false);
	cr_expect_str_eq(u.name, "ctrun-web.scope");
	u = parse_ok(NULL, false);
	cr_expect_str_eq(u.name, "ctrun-web.scope");
	u = parse_ok("kubepods.slice:ignored:kubepods-burstable.slice", false);
	cr_expect(u.is_slice);
	cr_expect_str_eq(u.name, "kubepods-burstable.slice");
}

Test(systemd_unit, bad_paths_name_the_rule)
{
	static const char *const bad[][2] = {
		{"/a/b", "slice:prefix:name"},	{"a:b", "slice:prefix:name"},
		{"a:b:c:d", "slice:prefix:name"}, {"x.slice:p:", "is empty"},
		{"x:p:n", "must be a slice"},	{"-x.slice:p:n", "must be a slice"},
		{"x-.slice:p:n", "must be a slice"}, {"x.slice:p:a b", "not one systemd takes"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ct_systemd_unit u;
		struct ct_error err = {0};
		cr_expect_eq(ct_systemd_unit_parse(bad[i][0], "web", false, &u, &err), -1, "%s",
			     bad[i][0]);
		cr_expect(strstr(err.msg, ".linux.cgroupsPath") && strstr(err.msg, bad[i][1]),
			  "%s: %s", bad[i][0], err.msg);
	}
}

Test(systemd_unit, nested_slices)
{
	char path[256];
	cr_assert(ct_systemd_slice_path("a-b-c.slice", path, sizeof(path)));
	cr_expect_str_eq(path, "/a.slice/a-b.slice/a-b-c.slice");
	cr_assert(ct_systemd_slice_path("system.slice", path, sizeof(path)));
	cr_expect_str_eq(path, "/system.slice");
	cr_assert(ct_systemd_slice_path("-.slice", path, sizeof(path)));
	cr_expect_str_eq(path, "");
	cr_expect_not(ct_systemd_slice_path("a--b.slice", path, sizeof(path)));
	cr_expect_not(ct_systemd_slice_path("a.scope", path, sizeof(path)));
}

Test(systemd_props, cpu_quota_rounds_up_to_whole_percents)
{
	cr_expect_eq(ct_systemd_cpu_quota_per_sec(50000, 100000), 500000);
	cr_expect_eq(ct_systemd_cpu_quota_per_sec(1234, 100000), 20000);
	cr_expect_eq(ct_systemd_cpu_quota_per_sec(50000, 0), 500000);
	cr_expect_eq(ct_systemd_cpu_quota_per_sec(-1, 100000), UINT64_MAX);
}

Test(systemd_props, cpuset_masks)
{
	uint8_t mask[16];
	size_t n;
	cr_assert(ct_systemd_cpuset_mask("0-3,9", mask, sizeof(mask), &n));
	cr_expect_eq(n, 2);
	cr_expect_eq(mask[0], 0x0f);
	cr_expect_eq(mask[1], 0x02);
	cr_expect_not(ct_systemd_cpuset_mask("3-1", mask, sizeof(mask), &n));
	cr_expect_not(ct_systemd_cpuset_mask("1,,2", mask, sizeof(mask), &n));
	cr_expect_not(ct_systemd_cpuset_mask("200", mask, sizeof(mask), &n));
}
