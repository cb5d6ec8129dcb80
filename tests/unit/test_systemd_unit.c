/* libct/cgroup/systemd_unit.h and systemd_props.h: cgroupsPath as runc reads it for systemd,
 * slices' places in the tree, and the values runc converts. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libct/cgroup/systemd_props.h"
#include "libct/cgroup/systemd_unit.h"
#include "libct/dbus/message.h"

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
		{"/a/b", "slice:prefix:name"},	     {"a:b", "slice:prefix:name"},
		{"a:b:c:d", "slice:prefix:name"},    {"x.slice:p:", "is empty"},
		{"x:p:n", "must be a slice"},	     {"-x.slice:p:n", "must be a slice"},
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

/* ---- the properties, read back with libct/dbus's reader ---- */

struct prop {
	char name[64], sig[64];
	union ct_dbus_value v; /* the first basic value in it */
	char text[512];	       /* its text, when that value is a string */
	size_t n_items;	       /* an array's elements */
};

struct props {
	struct prop items[64];
	size_t n;
	struct ct_dbus_writer w;
};

static void first_basic(struct ct_dbus_iter *it, struct prop *p)
{
	struct ct_error err;
	char t = ct_dbus_iter_type(it);
	if (!t)
		return;
	if (strchr("a({v", t)) {
		struct ct_dbus_iter sub;
		cr_assert_eq(ct_dbus_iter_enter(it, &sub, &err), 0, "%s", err.msg);
		if (t == 'a')
			for (struct ct_dbus_iter c = sub; ct_dbus_iter_type(&c); p->n_items++)
				cr_assert_eq(ct_dbus_iter_skip(&c, &err), 0, "%s", err.msg);
		first_basic(&sub, p);
		return;
	}
	cr_assert_eq(ct_dbus_iter_get(it, t, &p->v, &err), 0, "%s", err.msg);
	if (t == 's')
		snprintf(p->text, sizeof(p->text), "%s", p->v.s);
}

/* The a(sv) elements in p->w, read as the bus would. */
static void read_props(struct props *p)
{
	struct ct_dbus_writer body;
	ct_dbus_writer_init(&body);
	struct ct_dbus_array_mark m = ct_dbus_array_open(&body, '(');
	ct_dbus_put_raw(&body, p->w.buf, p->w.len);
	ct_dbus_array_close(&body, m);
	struct ct_dbus_msg msg = {.body = body.buf, .body_len = body.len, .signature = "a(sv)"};
	struct ct_dbus_iter it, arr, entry, variant;
	struct ct_error err = {0};
	ct_dbus_iter_body(&it, &msg);
	cr_assert_eq(ct_dbus_iter_enter(&it, &arr, &err), 0, "%s", err.msg);
	while (ct_dbus_iter_type(&arr)) {
		struct prop *pr = &p->items[p->n++];
		union ct_dbus_value name;
		cr_assert_eq(ct_dbus_iter_enter(&arr, &entry, &err), 0, "%s", err.msg);
		cr_assert_eq(ct_dbus_iter_get(&entry, 's', &name, &err), 0, "%s", err.msg);
		snprintf(pr->name, sizeof(pr->name), "%s", name.s);
		cr_assert_eq(ct_dbus_iter_enter(&entry, &variant, &err), 0, "%s", err.msg);
		ct_dbus_iter_signature(&variant, pr->sig, sizeof(pr->sig));
		first_basic(&variant, pr);
	}
	ct_dbus_writer_free(&body);
}

static const struct prop *find(const struct props *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->items[i].name, name) == 0)
			return &p->items[i];
	return NULL;
}

static void build_in(struct props *p, const struct ct_systemd_props_in *in)
{
	struct ct_error err = {0};
	memset(p, 0, sizeof(*p));
	ct_dbus_writer_init(&p->w);
	cr_assert_eq(ct_systemd_props_create(in, &p->w, &err), 0, "%s", err.msg);
	read_props(p);
}

static void build(struct props *p, const struct oci_resources *res, unsigned version)
{
	struct ct_systemd_props_in in = {.id = "web",
					 .slice = "system.slice",
					 .pid = 42,
					 .res = res,
					 .proc_devices =
						 "Character devices:\n136 pts\n\nBlock devices:\n",
					 .systemd_version = version};
	build_in(p, &in);
}

static void assert_u64(const struct props *p, const char *name, uint64_t v)
{
	const struct prop *pr = find(p, name);
	cr_assert_not_null(pr, "%s missing", name);
	cr_expect_str_eq(pr->sig, "t", "%s", name);
	cr_expect_eq(pr->v.t, v, "%s: %llu, want %llu", name, (unsigned long long)pr->v.t,
		     (unsigned long long)v);
}

Test(systemd_props, resources_map_to_systemds_properties)
{
	struct oci_resources res = {.has_memory = true, .has_cpu = true, .has_pids = true};
	res.memory = (struct oci_memory){.limit = 1 << 30,
					 .has_limit = true,
					 .reservation = 1 << 20,
					 .has_reservation = true,
					 .swap = (1 << 30) + (1 << 29),
					 .has_swap = true};
	res.cpu = (struct oci_cpu){.shares = 1024,
				   .has_shares = true,
				   .quota = 50000,
				   .has_quota = true,
				   .period = 100000,
				   .has_period = true,
				   .cpus = "0-1",
				   .mems = "0"};
	res.pids.limit = 100;
	struct props p;
	build(&p, &res, 252);
	assert_u64(&p, "MemoryMax", 1 << 30);
	assert_u64(&p, "MemoryLow", 1 << 20);
	assert_u64(&p, "MemorySwapMax", 1 << 29);
	assert_u64(&p, "CPUWeight", 39);
	assert_u64(&p, "CPUQuotaPerSecUSec", 500000);
	assert_u64(&p, "CPUQuotaPeriodUSec", 100000);
	assert_u64(&p, "TasksMax", 100);
	const struct prop *cpus = find(&p, "AllowedCPUs");
	cr_assert_not_null(cpus);
	cr_expect_str_eq(cpus->sig, "ay");
	cr_expect_eq(cpus->v.y, 0x03);
	const struct prop *pids = find(&p, "PIDs");
	cr_assert_not_null(pids);
	cr_expect_str_eq(pids->sig, "au");
	cr_expect_eq(pids->v.u, 42);
	cr_expect_not_null(find(&p, "Delegate"));
	cr_expect_null(find(&p, "OOMPolicy"), "no OOMPolicy without memory.oom.group");
	ct_dbus_writer_free(&p.w);
}

Test(systemd_props, unlimited_values_are_infinity)
{
	struct oci_resources res = {.has_memory = true, .has_cpu = true, .has_pids = true};
	res.memory = (struct oci_memory){.limit = -1, .has_limit = true};
	res.cpu = (struct oci_cpu){.quota = -1, .has_quota = true};
	res.pids.limit = -1;
	struct props p;
	build(&p, &res, 0);
	assert_u64(&p, "MemoryMax", UINT64_MAX);
	assert_u64(&p, "CPUQuotaPerSecUSec", UINT64_MAX);
	assert_u64(&p, "TasksMax", UINT64_MAX);
	ct_dbus_writer_free(&p.w);
}

Test(systemd_props, oom_group_is_oom_policy_where_scopes_take_it)
{
	struct oci_kv kv = {.key = "memory.oom.group", .value = "1"};
	struct oci_resources res = {0};
	res.unified.items = &kv;
	res.unified.len = 1;
	struct props p;
	build(&p, &res, 253);
	const struct prop *oom = find(&p, "OOMPolicy");
	cr_expect_not_null(oom, "systemd 253 takes OOMPolicy for a scope");
	ct_dbus_writer_free(&p.w);
	build(&p, &res, 252);
	cr_expect_null(find(&p, "OOMPolicy"), "systemd 252 does not: the file alone");
	ct_dbus_writer_free(&p.w);
}

/* The caller reads the manager's version and /proc/devices only for the properties that
 * depend on them: OOMPolicy (memory.oom.group), and a strict device policy that allows a
 * major whole (the standard rules allow the pty slaves, 136:*, so). */
Test(systemd_props, only_what_a_property_depends_on_is_read)
{
	struct ct_systemd_props_needs none = ct_systemd_props_needs(NULL);
	cr_expect_not(none.version || none.proc_devices, "no resources: nothing to read");
	struct oci_resources res = {0};
	struct ct_systemd_props_needs n = ct_systemd_props_needs(&res);
	cr_expect_not(n.version, "no memory.oom.group");
	cr_expect_not(n.proc_devices, "no deny-all first: the policy is auto, no names");
	struct oci_kv kv = {.key = "memory.oom.group", .value = "1"};
	res.unified = (oci_string_map){.items = &kv, .len = 1};
	cr_expect(ct_systemd_props_needs(&res).version, "OOMPolicy depends on the version");
	struct oci_device_cgroup rules[] = {
		{.allow = false, .access = "rwm"},
		{.allow = false, .type = "c", .major = 1, .has_major = true, .access = "rw"},
	};
	res.devices.items = rules;
	res.devices.len = 1;
	cr_expect(ct_systemd_props_needs(&res).proc_devices, "deny-all, then 136:* allowed");
	res.devices.len = 2;
	cr_expect_not(ct_systemd_props_needs(&res).proc_devices,
		      "a deny after the deny-all: the policy is auto, no names");
}

/* ---- the create's token on its unit ---- */

Test(systemd_unit, tokens_are_sixteen_lowercase_hex_digits)
{
	cr_expect(ct_systemd_token_valid("0123456789abcdef"));
	cr_expect_not(ct_systemd_token_valid(""));
	cr_expect_not(ct_systemd_token_valid("0123456789abcde"));
	cr_expect_not(ct_systemd_token_valid("0123456789abcdef0"));
	cr_expect_not(ct_systemd_token_valid("0123456789ABCDEF"));
	cr_expect_not(ct_systemd_token_valid("0123456789abcdeg"));
}

/* The Descriptions of props, in order, into out (at most max); their count. */
static size_t descriptions(const struct props *p, const char **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n && n < max; i++)
		if (strcmp(p->items[i].name, "Description") == 0) {
			cr_expect_str_eq(p->items[i].sig, "s");
			out[n++] = p->items[i].text;
		}
	return n;
}

/* ctrun's Description is runc's with "ctrun" for "libcontainer", then the token; one an
 * annotation gives (systemd keeps the last) keeps the token too. */
Test(systemd_props, every_description_ends_with_the_creates_token)
{
	static const char token[] = "0123456789abcdef";
	struct oci_kv kv = {.key = "org.systemd.property.Description", .value = "'my pod'"};
	oci_string_map annotations = {.items = &kv, .len = 1};
	struct ct_systemd_props_in in = {
		.id = "web", .token = token, .slice = "system.slice", .pid = 42};
	struct props p;
	const char *d[4];
	build_in(&p, &in);
	cr_assert_eq(descriptions(&p, d, 4), 1);
	cr_expect_str_eq(d[0], "ctrun container web (create 0123456789abcdef)");
	cr_expect(ct_systemd_description_marked(d[0], token));
	ct_dbus_writer_free(&p.w);
	in.annotations = &annotations;
	build_in(&p, &in);
	cr_assert_eq(descriptions(&p, d, 4), 2);
	cr_expect_str_eq(d[1], "my pod (create 0123456789abcdef)");
	cr_expect(ct_systemd_description_marked(d[1], token));
	ct_dbus_writer_free(&p.w);
	in.token = NULL;
	in.annotations = NULL;
	build_in(&p, &in);
	cr_assert_eq(descriptions(&p, d, 4), 1);
	cr_expect_str_eq(d[0], "ctrun container web", "no token: runc's words alone");
	ct_dbus_writer_free(&p.w);
}

/* Only the token at the end, whole, marks a unit as the create's. */
Test(systemd_props, a_description_is_marked_only_by_that_token_at_its_end)
{
	static const char token[] = "0123456789abcdef";
	cr_expect(ct_systemd_description_marked("x (create 0123456789abcdef)", token));
	cr_expect(ct_systemd_description_marked(" (create 0123456789abcdef)", token));
	cr_expect_not(ct_systemd_description_marked("x (create 0123456789abcdee)", token));
	cr_expect_not(ct_systemd_description_marked("x (create 0123456789abcdef) ", token));
	cr_expect_not(ct_systemd_description_marked("x (create 0123456789abcdef)y", token));
	cr_expect_not(ct_systemd_description_marked("(create 0123456789abcdef)", token));
	cr_expect_not(ct_systemd_description_marked("libcontainer container x", token));
	cr_expect_not(ct_systemd_description_marked("ctrun-x.scope", token));
	cr_expect_not(ct_systemd_description_marked("x (create )", ""), "an empty token");
	cr_expect_not(ct_systemd_description_marked("", ""));
}
