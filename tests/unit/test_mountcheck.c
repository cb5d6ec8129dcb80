/* libct/verify/mountcheck.c: ct_mountcheck_compare() of synthetic expectations and mounts (each
 * field that can differ, with the exact message, and agreement), and ct_mountcheck_plan() on
 * built plans: labels, what each kind of mount is expected to be, the cgroup v1
 * hierarchies, masked and read-only paths, the terminal and the root, and shadowing. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "libct/verify/mountcheck.h"
#include "libct/fs/safefs.h"
#include "libct/plan/plan.h"
#include "libct/base/syscalls.h"
#include "tests/unit/plan_fixture.h"
#include "libct/plan/mount_expect.h"
#include "libct/parent/mountcheck_plan.h"
#include "tests/unit/util_linux.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- compare ---- */

/* A private rw tmpfs with relatime, device 0:42, at target. */
static struct ct_mount tmpfs_at(char *target)
{
	return (struct ct_mount){
		.target = target,
		.fstype = "tmpfs",
		.source = "tmpfs",
		.dev_major = 0,
		.dev_minor = 42,
		.propagation = MS_PRIVATE,
	};
}

static void assert_agree(const struct ct_mount_expect *e, const struct ct_mount *m,
			 const struct ct_mount *const *below, size_t n_below)
{
	char buf[256] = "";
	cr_assert_eq(ct_mountcheck_compare(e, m, below, n_below, buf, sizeof(buf)), 0,
		     "a difference: %s", buf);
}

static void assert_differ(const struct ct_mount_expect *e, const struct ct_mount *m,
			  const struct ct_mount *const *below, size_t n_below, const char *msg)
{
	char buf[256] = "";
	cr_assert_eq(ct_mountcheck_compare(e, m, below, n_below, buf, sizeof(buf)), -1,
		     "no difference, expected: %s", msg);
	cr_assert_str_eq(buf, msg);
}

Test(mountcheck_compare, empty_expectation_agrees_with_any_mount)
{
	struct ct_mount_expect e = {0};
	struct ct_mount m = tmpfs_at("/t");
	m.attr = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOATIME;
	m.propagation = MS_SHARED;
	assert_agree(&e, &m, NULL, 0);
}

Test(mountcheck_compare, every_field_as_asked_agrees)
{
	struct ct_mount_expect e = {
		.fstype = "tmpfs",
		.source = "tmpfs",
		.check_dev = true,
		.dev_minor = 42,
		.attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
		.attr_clear = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOEXEC,
		.check_atime = true,
		.atime = MOUNT_ATTR_NOATIME,
		.propagation = MS_PRIVATE,
	};
	struct ct_mount m = tmpfs_at("/t");
	m.attr = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOATIME;
	assert_agree(&e, &m, NULL, 0);
}

Test(mountcheck_compare, type)
{
	struct ct_mount_expect e = {.fstype = "tmpfs"};
	struct ct_mount m = tmpfs_at("/p");
	m.fstype = "proc";
	assert_differ(&e, &m, NULL, 0, "asked type tmpfs, the kernel has proc");
}

Test(mountcheck_compare, source)
{
	struct ct_mount_expect e = {.fstype = "tmpfs", .source = "shm"};
	struct ct_mount m = tmpfs_at("/dev/shm");
	assert_differ(&e, &m, NULL, 0, "asked source \"shm\", the kernel has \"tmpfs\"");
}

/* A bind has no type of its own to compare: its source's superblock is what tells. */
Test(mountcheck_compare, bind_device)
{
	struct ct_mount_expect e = {.check_dev = true, .dev_major = 8, .dev_minor = 1};
	struct ct_mount m = tmpfs_at("/data");
	assert_differ(&e, &m, NULL, 0, "asked a bind of device 8:1, the kernel has device 0:42");
	m.dev_major = 8;
	m.dev_minor = 1;
	assert_agree(&e, &m, NULL, 0);
	e.check_dev = false;
	m.dev_minor = 2;
	assert_agree(&e, &m, NULL, 0);
}

/* The first difference is told: the type before the source, the source before the flags. */
Test(mountcheck_compare, first_difference_is_told)
{
	struct ct_mount_expect e = {
		.fstype = "tmpfs", .source = "shm", .attr_set = MOUNT_ATTR_RDONLY};
	struct ct_mount m = tmpfs_at("/x");
	m.fstype = "ramfs";
	assert_differ(&e, &m, NULL, 0, "asked type tmpfs, the kernel has ramfs");
	m.fstype = "tmpfs";
	assert_differ(&e, &m, NULL, 0, "asked source \"shm\", the kernel has \"tmpfs\"");
}

/* The per-mount flags a config can ask for: each attribute with its mount(2) flag, the
 * kernel's two names for one thing. */
static const struct {
	uint64_t attr;
	unsigned long ms;
} attr_flags[] = {
	{MOUNT_ATTR_RDONLY, MS_RDONLY},		{MOUNT_ATTR_NOSUID, MS_NOSUID},
	{MOUNT_ATTR_NODEV, MS_NODEV},		{MOUNT_ATTR_NOEXEC, MS_NOEXEC},
	{MOUNT_ATTR_NODIRATIME, MS_NODIRATIME}, {MOUNT_ATTR_NOSYMFOLLOW, MS_NOSYMFOLLOW},
};

/* How the mount check names a flag set or clear: as mount(8) names the option (libmount's
 * table, not ctrun's), "ro" and "rw" spelled out. */
static const char *flag_word(unsigned long ms, bool set)
{
	const char *option = util_linux_option(ms, set);
	if (strcmp(option, "ro") == 0)
		return "read-only";
	if (strcmp(option, "rw") == 0)
		return "read-write";
	return option;
}

/* A flag asked (set, or clear) that the kernel has the other way is told in mount(8)'s
 * words; the same flag as asked agrees. */
static void assert_flag_told(size_t i, bool asked_set)
{
	struct ct_mount_expect e = {0};
	*(asked_set ? &e.attr_set : &e.attr_clear) = attr_flags[i].attr;
	struct ct_mount m = tmpfs_at("/t");
	m.attr = asked_set ? 0 : attr_flags[i].attr;
	char msg[128];
	snprintf(msg, sizeof(msg), "asked %s, the kernel has it %s",
		 flag_word(attr_flags[i].ms, asked_set), flag_word(attr_flags[i].ms, !asked_set));
	assert_differ(&e, &m, NULL, 0, msg);
	m.attr = asked_set ? attr_flags[i].attr : 0;
	assert_agree(&e, &m, NULL, 0);
}

Test(mountcheck_compare, each_flag_asked_set_but_clear)
{
	for (size_t i = 0; i < ARRAY_SIZE(attr_flags); i++)
		assert_flag_told(i, true);
}

Test(mountcheck_compare, each_flag_asked_clear_but_set)
{
	for (size_t i = 0; i < ARRAY_SIZE(attr_flags); i++)
		assert_flag_told(i, false);
}

Test(mountcheck_compare, flags_not_asked_about_are_free)
{
	struct ct_mount_expect e = {.attr_set = MOUNT_ATTR_NOSUID};
	struct ct_mount m = tmpfs_at("/t");
	m.attr = MOUNT_ATTR_NOSUID | MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOEXEC;
	assert_agree(&e, &m, NULL, 0);
}

/* The mode asked, the mode the kernel has, and the mismatch reported (NULL: they agree). */
struct verdict_row {
	uint64_t want, have;
	const char *msg;
};

/* Each row as an atime mode (propagation false) or a propagation type. */
static void assert_verdicts(const struct verdict_row *rows, size_t n, bool propagation)
{
	for (size_t i = 0; i < n; i++) {
		struct ct_mount_expect e = {0};
		struct ct_mount m = tmpfs_at("/t");
		if (propagation) {
			e.propagation = rows[i].want;
			m.propagation = rows[i].have;
		} else {
			e.check_atime = true;
			e.atime = rows[i].want;
			m.attr = rows[i].have | MOUNT_ATTR_NOSUID;
		}
		if (rows[i].msg)
			assert_differ(&e, &m, NULL, 0, rows[i].msg);
		else
			assert_agree(&e, &m, NULL, 0);
	}
}

Test(mountcheck_compare, atime_mode)
{
	static const struct verdict_row rows[] = {
		{MOUNT_ATTR_NOATIME, MOUNT_ATTR_RELATIME, "asked noatime, the kernel has relatime"},
		{MOUNT_ATTR_STRICTATIME, MOUNT_ATTR_NOATIME,
		 "asked strictatime, the kernel has noatime"},
		{MOUNT_ATTR_RELATIME, MOUNT_ATTR_STRICTATIME,
		 "asked relatime, the kernel has strictatime"},
		{MOUNT_ATTR_STRICTATIME, MOUNT_ATTR_STRICTATIME, NULL},
		{MOUNT_ATTR_RELATIME, MOUNT_ATTR_RELATIME, NULL},
	};
	assert_verdicts(rows, ARRAY_SIZE(rows), false);
}

Test(mountcheck_compare, atime_not_asked_is_free)
{
	struct ct_mount_expect e = {.atime = MOUNT_ATTR_NOATIME};
	struct ct_mount m = tmpfs_at("/t");
	m.attr = MOUNT_ATTR_STRICTATIME;
	assert_agree(&e, &m, NULL, 0);
}

/* A slave without a master is private: "slave" accepts that, nothing else does. */
Test(mountcheck_compare, propagation)
{
	static const struct verdict_row rows[] = {
		{MS_SHARED, MS_SHARED, NULL},
		{MS_SHARED, MS_SHARED | MS_SLAVE, NULL},
		{MS_SHARED, MS_PRIVATE, "asked shared propagation, the kernel has private"},
		{MS_PRIVATE, MS_PRIVATE, NULL},
		{MS_PRIVATE, MS_SHARED, "asked private propagation, the kernel has shared"},
		{MS_PRIVATE, MS_SLAVE, "asked private propagation, the kernel has slave"},
		{MS_SLAVE, MS_SLAVE, NULL},
		{MS_SLAVE, MS_PRIVATE, NULL},
		{MS_SLAVE, MS_SHARED, "asked slave propagation, the kernel has shared"},
		{MS_SLAVE, MS_UNBINDABLE, "asked slave propagation, the kernel has unbindable"},
		{MS_UNBINDABLE, MS_UNBINDABLE, NULL},
		{MS_UNBINDABLE, MS_PRIVATE, "asked unbindable propagation, the kernel has private"},
	};
	assert_verdicts(rows, ARRAY_SIZE(rows), true);
}

/* An rbind at /r with a submount at /r/sub (and /r/sub/deep below it). */
struct tree {
	struct ct_mount top, sub, deep;
	const struct ct_mount *below[2];
};

static void tree_make(struct tree *t, uint64_t top_attr, uint64_t sub_attr, uint64_t deep_attr)
{
	t->top = tmpfs_at("/r");
	t->sub = tmpfs_at("/r/sub");
	t->deep = tmpfs_at("/r/sub/deep");
	t->top.attr = top_attr;
	t->sub.attr = sub_attr;
	t->deep.attr = deep_attr;
	t->below[0] = &t->sub;
	t->below[1] = &t->deep;
}

Test(mountcheck_compare, recursive_set_names_the_submount_that_lacks_it)
{
	struct tree t;
	struct ct_mount_expect e = {.rec_set = MOUNT_ATTR_RDONLY};
	tree_make(&t, MOUNT_ATTR_RDONLY, 0, MOUNT_ATTR_RDONLY);
	assert_differ(&e, &t.top, t.below, 2,
		      "asked read-only recursively (\"/r/sub\"), the kernel has it read-write");
	tree_make(&t, MOUNT_ATTR_RDONLY, MOUNT_ATTR_RDONLY, 0);
	assert_differ(
		&e, &t.top, t.below, 2,
		"asked read-only recursively (\"/r/sub/deep\"), the kernel has it read-write");
	tree_make(&t, MOUNT_ATTR_RDONLY, MOUNT_ATTR_RDONLY, MOUNT_ATTR_RDONLY);
	assert_agree(&e, &t.top, t.below, 2);
}

Test(mountcheck_compare, recursive_set_on_the_mount_itself)
{
	struct tree t;
	struct ct_mount_expect e = {.rec_set = MOUNT_ATTR_NOEXEC};
	tree_make(&t, 0, MOUNT_ATTR_NOEXEC, MOUNT_ATTR_NOEXEC);
	assert_differ(&e, &t.top, t.below, 2,
		      "asked noexec recursively (\"/r\"), the kernel has it exec");
}

Test(mountcheck_compare, recursive_clear_names_the_submount_that_has_it)
{
	struct tree t;
	struct ct_mount_expect e = {.rec_clear = MOUNT_ATTR_NOSUID};
	tree_make(&t, 0, 0, MOUNT_ATTR_NOSUID);
	assert_differ(&e, &t.top, t.below, 2,
		      "asked suid recursively (\"/r/sub/deep\"), the kernel has it nosuid");
	tree_make(&t, 0, 0, 0);
	assert_agree(&e, &t.top, t.below, 2);
}

/* Flags of the mount alone do not reach the mounts below. */
Test(mountcheck_compare, per_mount_flags_ignore_the_submounts)
{
	struct tree t;
	struct ct_mount_expect e = {.attr_set = MOUNT_ATTR_RDONLY, .attr_clear = MOUNT_ATTR_NODEV};
	tree_make(&t, MOUNT_ATTR_RDONLY, MOUNT_ATTR_NODEV, MOUNT_ATTR_NODEV);
	assert_agree(&e, &t.top, t.below, 2);
}

/* ---- plan ---- */

TestSuite(mountcheck_plan, .init = plan_bundle_make, .fini = plan_bundle_remove);

/* No /dev mount in these documents: the default devices are made in the image's /dev, each
 * with the place of its bind from the host (where mknod is refused) ahead of the masks. */
#define DEFAULT_NODES 6

/* A document with a mount namespace, the given mounts (a JSON array) and extra members of
 * .linux ("" or `, "key": value`), root.readonly as given. */
static const char *mounts_doc(const char *mounts, const char *linux_extra, bool readonly)
{
	static char members[6000];
	int n = snprintf(members, sizeof(members),
			 "\"linux\": {\"namespaces\": [{\"type\": \"mount\"}]%s}, "
			 "\"mounts\": %s",
			 linux_extra, mounts);
	cr_assert_lt((size_t)n, sizeof(members));
	const char *text = plan_doc(members), *at = strstr(text, "\"rootfs\"}");
	cr_assert_not_null(at);
	at += strlen("\"rootfs\"");
	static char out[8192];
	snprintf(out, sizeof(out), "%.*s%s%s", (int)(at - text), text,
		 readonly ? ", \"readonly\": true" : "", at);
	return out;
}

/* e's label, in a static buffer that the next call overwrites. */
static const char *label_of(const struct ct_mount_expect *e)
{
	static char buf[256];
	return ct_mountcheck_label(e, buf, sizeof(buf));
}

static void expect_label(const struct ct_mount_expect *e, const char *label, const char *path)
{
	cr_expect_str_eq(label_of(e), label);
	cr_assert_not_null(e->path, "%s: no path", label);
	cr_expect_str_eq(e->path, path, "%s", label);
}

#define PER_MOUNT (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC)

Test(mountcheck_plan, each_mount_is_labelled_by_its_index_and_destination)
{
	struct plan_fixture f;
	plan_build_ok(
		&f,
		mounts_doc(JSON([
				   {"destination" : "/proc", "type" : "proc"},
				   {"destination" : "/dev/shm", "type" : "tmpfs", "source" : "shm"},
				   {"destination" : "data", "type" : "tmpfs"}
			   ]),
			   "", false));
	const struct ct_mount_expect *e = f.plan.verify.expect;
	expect_label(&e[0], "mount #0 \"/proc\"", "/proc");
	expect_label(&e[1], "mount #1 \"/dev/shm\"", "/dev/shm");
	expect_label(&e[2], "mount #2 \"data\"", "data");
	cr_expect_str_eq(e[0].fstype, "proc");
	cr_expect_str_eq(e[0].source, "proc", "no source: the type");
	cr_expect_str_eq(e[1].fstype, "tmpfs");
	cr_expect_str_eq(e[1].source, "shm");
	cr_expect_not(e[1].check_dev);
	for (size_t i = 0; i < f.plan.verify.n_expect; i++)
		cr_expect_eq(e[i].mounted_id, 0, "#%zu: nothing is mounted in the parent", i);
	plan_done(&f);
}

Test(mountcheck_plan, flags_become_attributes_to_set_and_clear)
{
	struct plan_fixture f;
	plan_build_ok(&f,
		      mounts_doc(JSON([
					 {
						 "destination" : "/a",
						 "type" : "tmpfs",
						 "options" : [ "nosuid", "noexec", "strictatime" ]
					 },
					 {
						 "destination" : "/b",
						 "type" : "tmpfs",
						 "options" : [ "ro", "nodiratime", "shared" ]
					 },
					 {
						 "destination" : "/c",
						 "type" : "tmpfs",
						 "options" : [ "rslave", "noatime" ]
					 }
				 ]),
				 "", false));
	const struct ct_mount_expect *e = f.plan.verify.expect;
	cr_expect_eq(e[0].attr_set, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	cr_expect_eq(e[0].attr_clear, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODEV);
	cr_expect(e[0].check_atime);
	cr_expect_eq(e[0].atime, MOUNT_ATTR_STRICTATIME);
	cr_expect_eq(e[0].propagation, 0);
	cr_expect_eq(e[1].attr_set, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODIRATIME);
	cr_expect_eq(e[1].attr_clear, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	cr_expect_not(e[1].check_atime, "no atime option: the kernel's default is free");
	cr_expect_eq(e[1].propagation, MS_SHARED);
	cr_expect_eq(e[2].propagation, MS_SLAVE, "MS_REC is not a propagation type");
	cr_expect_eq(e[2].atime, MOUNT_ATTR_NOATIME);
	plan_done(&f);
}

/* A bind is checked by its source's device; without options its flags are its source's. */
Test(mountcheck_plan, binds_are_checked_by_device)
{
	struct plan_fixture f;
	plan_build_ok(
		&f, mounts_doc(JSON([
				       {
					       "destination" : "/h",
					       "type" : "bind",
					       "source" : "/etc/hosts",
					       "options" : ["bind"]
				       },
				       {
					       "destination" : "/r",
					       "type" : "bind",
					       "source" : "rootfs",
					       "options" : [ "rbind", "ro" ]
				       },
				       {
					       "destination" : "/rr",
					       "type" : "bind",
					       "source" : "rootfs",
					       "options" : [ "rbind", "rro", "rnosuid", "rnoatime" ]
				       }
			       ]),
			       "", false));
	const struct ct_mount_expect *e = f.plan.verify.expect;
	struct stat hosts;
	cr_assert_eq(stat("/etc/hosts", &hosts), 0);
	cr_expect_null(e[0].fstype);
	cr_expect_null(e[0].source);
	cr_expect_not(e[0].check_dev, "a bind's device is the child's to record, as it binds");
	ct_expect_bind_source(&f.plan.verify, 0, &hosts);
	cr_expect(e[0].check_dev);
	cr_expect_eq(e[0].dev_major, major(hosts.st_dev));
	cr_expect_eq(e[0].dev_minor, minor(hosts.st_dev));
	cr_expect_eq(e[0].attr_set, 0);
	cr_expect_eq(e[0].attr_clear, 0);
	cr_expect_eq(e[1].attr_set, MOUNT_ATTR_RDONLY);
	cr_expect_eq(e[1].attr_clear, PER_MOUNT & ~(uint64_t)MOUNT_ATTR_RDONLY);
	cr_expect_eq(e[1].rec_set, 0);
	cr_expect_eq(e[2].rec_set, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
		     "the recursive atime mode is not checked");
	cr_expect_eq(e[2].rec_clear, 0);
	plan_done(&f);
}

/* The groups after the mounts: masked, read-only, /dev/console, the root. */
Test(mountcheck_plan, masked_readonly_console_and_root)
{
	struct plan_fixture f;
	plan_build_ok(&f, mounts_doc(JSON([ {"destination" : "/proc", "type" : "proc"} ]),
				     JSON(, "maskedPaths"
					  : [ "/proc/kcore", "/sys/firmware" ], "readonlyPaths"
					  : ["/proc/sys"]),
				     true));
	const struct ct_init_plan *p = &f.plan;
	cr_assert_eq(p->verify.expect_masked, 1 + DEFAULT_NODES);
	cr_assert_eq(p->verify.expect_readonly, 3 + DEFAULT_NODES);
	cr_assert_eq(p->verify.expect_console, 4 + DEFAULT_NODES);
	cr_assert_eq(p->verify.expect_root, 5 + DEFAULT_NODES);
	cr_assert_eq(p->verify.n_expect, 6 + DEFAULT_NODES);
	const struct ct_mount_expect *e = p->verify.expect + DEFAULT_NODES;
	expect_label(&e[1], "masked path \"/proc/kcore\"", "/proc/kcore");
	expect_label(&e[2], "masked path \"/sys/firmware\"", "/sys/firmware");
	expect_label(&e[3], "read-only path \"/proc/sys\"", "/proc/sys");
	expect_label(&e[4], "terminal \"/dev/console\"", "/dev/console");
	expect_label(&e[5], "root \"/\"", "/");
	for (size_t i = 1; i < 4; i++)
		cr_expect_eq(e[i].attr_set, MOUNT_ATTR_RDONLY, "%s", label_of(&e[i]));
	cr_expect_eq(e[4].attr_set, 0);
	cr_expect_eq(e[5].attr_set, MOUNT_ATTR_RDONLY);
	e = p->verify.expect;
	for (size_t i = 0; i < p->verify.n_expect; i++)
		cr_expect_not(e[i].shadowed, "%s is shadowed", label_of(&e[i]));
	plan_done(&f);
}

Test(mountcheck_plan, writable_root_asks_nothing)
{
	struct plan_fixture f;
	plan_build_ok(&f, mounts_doc("[]", "", false));
	cr_assert_eq(f.plan.verify.n_expect, DEFAULT_NODES + 2,
		     "the nodes, the terminal and the root");
	cr_expect_eq(f.plan.verify.expect[f.plan.verify.expect_root].attr_set, 0);
	cr_expect_eq(f.plan.verify.expect[f.plan.verify.expect_root].attr_clear, 0);
	plan_done(&f);
}

/* ---- cgroup ---- */

/* Re-plans f as on a host with the given layout: v1 hierarchies (NULL-terminated, may be
 * empty), cgroup2 at unified, or a pure cgroup2 host. */
static void replan_cgroups(struct plan_fixture *f, const char *const *v1, bool unified,
			   bool cgroup2_host)
{
	struct ct_init_plan *p = &f->plan;
	for (size_t i = 0; i < p->rootfs.n_cgroup_v1; i++) {
		free(p->rootfs.cgroup_v1[i].dir);
		free(p->rootfs.cgroup_v1[i].options);
	}
	free(p->rootfs.cgroup_v1);
	free(p->verify.expect);
	size_t n = 0;
	while (v1[n])
		n++;
	p->rootfs.cgroup_v1 = calloc(n + 1, sizeof(*p->rootfs.cgroup_v1));
	cr_assert_not_null(p->rootfs.cgroup_v1);
	for (size_t i = 0; i < n; i++) {
		p->rootfs.cgroup_v1[i].dir = strdup(v1[i]);
		p->rootfs.cgroup_v1[i].options = strdup(v1[i]);
	}
	p->rootfs.n_cgroup_v1 = n;
	p->rootfs.have_cgroup2_unified = unified;
	p->rootfs.cgroup2_host = cgroup2_host;
	struct ct_error err = {0};
	cr_assert_eq(ct_mountcheck_plan(p, &err), 0, "%s", err.msg);
}

#define CGROUP_AT_1                                           \
	JSON([                                                \
		{"destination" : "/sys", "type" : "sysfs"}, { \
			"destination" : "/sys/fs/cgroup",     \
			"type" : "cgroup",                    \
			"options" : [ "ro", "nosuid" ]        \
		},                                            \
		{"destination" : "/other", "type" : "tmpfs"}  \
	])

static const char *const cpu_memory[] = {"cpu", "memory", NULL};

/* A v1 host: a tmpfs, then one cgroup per hierarchy and cgroup2 at unified, each with the
 * mount's flags and labelled by the mount's index. */
Test(mountcheck_plan, cgroup_on_a_v1_host_expects_each_hierarchy)
{
	struct plan_fixture f;
	plan_build_ok(&f, mounts_doc(CGROUP_AT_1, "", false));
	replan_cgroups(&f, cpu_memory, true, false);
	const struct ct_init_plan *p = &f.plan;
	const struct ct_mount_expect *e = p->verify.expect;
	cr_expect_str_eq(e[1].fstype, "tmpfs");
	cr_expect_eq(e[1].attr_set, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID);
	size_t h = p->rootfs.mounts[1].expect_hierarchies;
	cr_assert_eq(h, 3, "the hierarchies follow the mounts");
	cr_assert_eq(p->verify.expect_masked, 6 + DEFAULT_NODES);
	static const char *const want[][3] = {
		{"mount #1 \"/sys/fs/cgroup/cpu\"", "/sys/fs/cgroup/cpu", "cgroup"},
		{"mount #1 \"/sys/fs/cgroup/memory\"", "/sys/fs/cgroup/memory", "cgroup"},
		{"mount #1 \"/sys/fs/cgroup/unified\"", "/sys/fs/cgroup/unified", "cgroup2"},
	};
	for (size_t i = 0; i < 3; i++) {
		expect_label(&e[h + i], want[i][0], want[i][1]);
		cr_expect_str_eq(e[h + i].fstype, want[i][2]);
		cr_expect_eq(e[h + i].attr_set, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID);
		cr_expect_not(e[h + i].shadowed, "%s", label_of(&e[h + i]));
	}
	cr_expect_not(e[1].shadowed);
	plan_done(&f);
}

Test(mountcheck_plan, cgroup_on_a_v1_host_without_unified)
{
	struct plan_fixture f;
	plan_build_ok(&f, mounts_doc(CGROUP_AT_1, "", false));
	replan_cgroups(&f, cpu_memory, false, false);
	cr_expect_eq(f.plan.verify.expect_masked, 5 + DEFAULT_NODES);
	cr_expect_str_eq(label_of(&f.plan.verify.expect[4]), "mount #1 \"/sys/fs/cgroup/memory\"");
	plan_done(&f);
}

Test(mountcheck_plan, cgroup_on_a_cgroup2_host_is_one_cgroup2)
{
	struct plan_fixture f;
	plan_build_ok(&f, mounts_doc(CGROUP_AT_1, "", false));
	replan_cgroups(&f, (const char *const[]){NULL}, false, true);
	cr_expect_str_eq(f.plan.verify.expect[1].fstype, "cgroup2");
	cr_expect_eq(f.plan.verify.expect_masked, 3 + DEFAULT_NODES, "no hierarchies");
	plan_done(&f);
}

/* A later mount on an ancestor covers the hierarchies, made right after their cgroup mount
 * though listed after all the mounts; one on a hierarchy covers that one alone. */
Test(mountcheck_plan, later_mounts_shadow_the_hierarchies)
{
	struct plan_fixture f;
	plan_build_ok(
		&f, mounts_doc(JSON([
				       {"destination" : "/sys/fs/cgroup", "type" : "cgroup"},
				       {"destination" : "/sys/fs/cgroup/memory", "type" : "tmpfs"},
				       {"destination" : "/sys", "type" : "sysfs"}
			       ]),
			       "", false));
	replan_cgroups(&f, cpu_memory, false, false);
	const struct ct_mount_expect *e = f.plan.verify.expect;
	cr_expect(e[0].shadowed, "the cgroup tmpfs under /sys");
	cr_expect(e[1].shadowed, "the tmpfs under /sys");
	cr_expect_not(e[2].shadowed);
	cr_expect(e[3].shadowed, "%s", label_of(&e[3]));
	cr_expect(e[4].shadowed, "%s", label_of(&e[4]));
	plan_done(&f);

	plan_build_ok(&f,
		      mounts_doc(JSON([
					 {"destination" : "/sys/fs/cgroup", "type" : "cgroup"},
					 {"destination" : "/sys/fs/cgroup/memory", "type" : "tmpfs"}
				 ]),
				 "", false));
	replan_cgroups(&f, cpu_memory, false, false);
	e = f.plan.verify.expect;
	cr_expect_not(e[0].shadowed);
	cr_expect_not(e[2].shadowed, "%s", label_of(&e[2]));
	cr_expect(e[3].shadowed, "%s", label_of(&e[3]));
	plan_done(&f);
}

/* ---- shadowing ---- */

/* Mounts at dests (NULL-terminated, tmpfs each); shadowed[i] must match. */
static void assert_shadowing(const char *const *dests, const bool *shadowed)
{
	char mounts[2048] = "[";
	for (size_t i = 0; dests[i]; i++)
		snprintf(mounts + strlen(mounts), sizeof(mounts) - strlen(mounts),
			 "%s{\"destination\": \"%s\", \"type\": \"tmpfs\"}", i ? "," : "",
			 dests[i]);
	strcat(mounts, "]");
	struct plan_fixture f;
	plan_build_ok(&f, mounts_doc(mounts, "", false));
	for (size_t i = 0; dests[i]; i++)
		cr_expect_eq(f.plan.verify.expect[i].shadowed, shadowed[i],
			     "%s is %sshadowed in %s", label_of(&f.plan.verify.expect[i]),
			     shadowed[i] ? "not " : "", mounts);
	plan_done(&f);
}

Test(mountcheck_plan, later_mount_on_the_same_destination_shadows)
{
	assert_shadowing((const char *const[]){"/a", "/b", "/a", NULL},
			 (const bool[]){true, false, false});
}

Test(mountcheck_plan, later_mount_on_an_ancestor_shadows)
{
	assert_shadowing((const char *const[]){"/a/b/c", "/a", NULL}, (const bool[]){true, false});
}

Test(mountcheck_plan, later_mount_below_does_not_shadow)
{
	assert_shadowing((const char *const[]){"/a", "/a/b", NULL}, (const bool[]){false, false});
}

Test(mountcheck_plan, a_sibling_with_a_common_prefix_does_not_shadow)
{
	assert_shadowing((const char *const[]){"/a/b", "/ab", "/a/bc", NULL},
			 (const bool[]){false, false, false});
}

/* Compared lexically: "a", "/a/", "/x/../a" and "/./a" are one place. */
Test(mountcheck_plan, destinations_are_compared_normalized)
{
	assert_shadowing((const char *const[]){"/a", "a/", NULL}, (const bool[]){true, false});
	assert_shadowing((const char *const[]){"/a/b", "/x/../a", NULL},
			 (const bool[]){true, false});
	assert_shadowing((const char *const[]){"a//b", "/./a/b/", NULL},
			 (const bool[]){true, false});
}

/* A mount on "/" would lie under the root: refused before anything is planned to shadow. */
Test(mountcheck_plan, a_mount_on_the_root_is_refused)
{
	struct plan_fixture f;
	plan_build(&f, mounts_doc("[{\"destination\": \"/a\", \"type\": \"tmpfs\"},"
				  "{\"destination\": \"/\", \"type\": \"tmpfs\"}]",
				  "", false));
	cr_assert_eq(f.ret, -1, "a mount on \"/\" was planned");
	cr_expect_eq(f.err.errnum, EINVAL);
	cr_expect(strstr(f.err.msg, ".mounts[1].destination: \"/\" is the container's root"),
		  "%s", f.err.msg);
	plan_done(&f);
}

/* A read-only path is a bind over itself: it covers a mount at its path, not one below. */
Test(mountcheck_plan, readonly_path_shadows_a_mount_at_its_path)
{
	struct plan_fixture f;
	plan_build_ok(&f, mounts_doc(JSON([
					     {"destination" : "/data", "type" : "tmpfs"},
					     {"destination" : "/data/sub", "type" : "tmpfs"},
					     {"destination" : "/proc", "type" : "proc"}
				     ]),
				     JSON(, "readonlyPaths"
					  : ["/data/sub"], "maskedPaths"
					  : ["/proc/kcore"]),
				     false));
	const struct ct_mount_expect *e = f.plan.verify.expect;
	cr_expect_not(e[0].shadowed);
	cr_expect(e[1].shadowed);
	cr_expect_not(e[2].shadowed, "a masked path below does not cover /proc");
	cr_expect_not(e[f.plan.verify.expect_masked].shadowed);
	cr_expect_not(e[f.plan.verify.expect_readonly].shadowed);
	plan_done(&f);
}

/* ---- normal paths ---- */

Test(mountcheck_paths, a_normal_path_is_taken_as_it_is)
{
	const char *normal[] = {"/", "/proc", "/dev/pts", "/a/.b/c..", "/...", "/x y/z"};
	char buf[64];
	for (size_t i = 0; i < ARRAY_SIZE(normal); i++)
		cr_expect_eq(ct_mountcheck_normal_path(normal[i], buf, sizeof(buf)), normal[i],
			     "\"%s\" was copied", normal[i]);
}

/* Whatever the fast path decides, the result is ct_path_normalize's. */
Test(mountcheck_paths, anything_else_is_what_ct_path_normalize_makes_of_it)
{
	const char *paths[] = {"",	   "proc",   "/proc/",	  "//proc", "/dev//pts",
			       "/./dev",   "/dev/.", "/dev/../x", "/..",    "/a/b/..",
			       "/proc/.x", "/a/...", "./a",	  "/",	    "/dev/pts"};
	char buf[64], want[64];
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		ct_path_normalize(paths[i], want, sizeof(want));
		cr_expect_str_eq(ct_mountcheck_normal_path(paths[i], buf, sizeof(buf)), want,
				 "\"%s\"", paths[i]);
	}
}

Test(mountcheck_paths, a_path_too_long_for_the_buffer_is_cut_as_ct_path_normalize_cuts_it)
{
	const char *path = "/aaaa/bbbb/cccc";
	char buf[15], want[15];
	ct_path_normalize(path, want, sizeof(want));
	cr_expect_str_eq(ct_mountcheck_normal_path(path, buf, sizeof(buf)), want);
}
