/* libct/fs/fsinfo.c: the mountinfo parser on fixtures (suite fsinfo_parse), and both back ends
 * on the live mount table of a private mount namespace each test makes for itself, with
 * mounts chosen to be awkward: odd names, every flag, propagation, a deleted root, stacked
 * mounts (suite fsinfo_live). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/fs/fsinfo.h"
#include "libct/base/kernel.h"
#include "libct/base/syscalls.h"
#include "tests/unit/block_syscall.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- parser fixtures ---------------------------------------------------------------- */

/* Parses text that must be valid and holds n mounts. */
static void parse_ok(const char *text, struct ct_mount_table *t, size_t n)
{
	struct ct_error err = {0};
	int r = ct_mountinfo_parse(text, t, &err);
	cr_assert_eq(r, 0, "parse failed: %s\ntext: %s", err.msg, text);
	cr_assert_eq(t->n, n, "%zu mounts, expected %zu", t->n, n);
	cr_assert_eq(t->backend, CT_MOUNTS_MOUNTINFO);
}

/* Parses text that must be refused with an error containing want. */
static void assert_parse_fails(const char *text, const char *want)
{
	struct ct_mount_table t;
	struct ct_error err = {0};
	cr_assert_eq(ct_mountinfo_parse(text, &t, &err), -1, "accepted: %s", text);
	cr_expect_eq(err.errnum, EINVAL, "%s", err.msg);
	cr_expect(strstr(err.msg, want), "error \"%s\" lacks \"%s\" (text: %s)", err.msg, want,
		  text);
	cr_expect_eq(t.n, 0, "a failed parse leaves an empty table");
	cr_expect_null(t.v);
}

/* One line with the given fields around fixed, valid ones. */
static char *line_with(const char *mount_opts, const char *optional, const char *super)
{
	char *s;
	cr_assert_geq(asprintf(&s, "36 35 98:0 / /mnt %s %s%s- ext4 /dev/vda %s\n", mount_opts,
			       optional, *optional ? " " : "", super),
		      0);
	return s;
}

Test(fsinfo_parse, every_field_of_a_typical_line)
{
	struct ct_mount_table t;
	parse_ok("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root "
		 "rw,errors=continue\n",
		 &t, 1);
	const struct ct_mount *m = &t.v[0];
	cr_expect_eq(m->mnt_id, 36);
	cr_expect_eq(m->parent_mnt_id, 35);
	cr_expect_eq(m->id, 0, "mountinfo has no unique ids");
	cr_expect_eq(m->parent_id, 0);
	cr_expect_eq(m->dev_major, 98);
	cr_expect_eq(m->dev_minor, 0);
	cr_expect_str_eq(m->root, "/mnt1");
	cr_expect_not(m->root_deleted);
	cr_expect_str_eq(m->target, "/mnt2");
	cr_expect_eq(m->attr, MOUNT_ATTR_NOATIME);
	cr_expect_eq(m->propagation, MS_SLAVE);
	cr_expect_eq(m->master, 1);
	cr_expect_eq(m->peer_group, 0);
	cr_expect_eq(m->propagate_from, 0);
	cr_expect_str_eq(m->fstype, "ext3");
	cr_expect_str_eq(m->source, "/dev/root");
	cr_expect_str_eq(m->fs_options, "errors=continue");
	cr_expect_eq(m->sb_flags, 0);
	cr_expect_not(m->sb_readonly);
	ct_mount_table_free(&t);
	cr_expect_eq(t.n, 0);
}

Test(fsinfo_parse, lines_in_order_last_without_newline)
{
	struct ct_mount_table t;
	parse_ok("1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
		 "2 1 0:5 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n"
		 "3 1 0:6 / /dev rw,nosuid - devtmpfs udev rw,size=10k,mode=755",
		 &t, 3);
	cr_expect_str_eq(t.v[0].target, "/");
	cr_expect_str_eq(t.v[1].target, "/proc");
	cr_expect_str_eq(t.v[2].target, "/dev");
	cr_expect_eq(t.v[2].dev_minor, 6);
	cr_expect_str_eq(t.v[2].fs_options, "size=10k,mode=755");
	ct_mount_table_free(&t);
}

Test(fsinfo_lookup, find_by_id_gives_the_mount_with_that_reusable_id)
{
	struct ct_mount_table t;
	parse_ok("21 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
		 "35 21 0:5 / /proc rw - proc proc rw\n",
		 &t, 2);
	cr_expect_eq(ct_mount_find_by_id(&t, 35), &t.v[1]);
	cr_expect_eq(ct_mount_find_by_id(&t, 21), &t.v[0]);
	cr_expect_null(ct_mount_find_by_id(&t, 22));
	cr_expect_null(ct_mount_find_by_id(&t, 35ULL << 32 | 35), "the id is not cut to 32 bits");
	ct_mount_table_free(&t);
}

Test(fsinfo_parse, empty_input_is_an_empty_table)
{
	struct ct_mount_table t;
	memset(&t, 0xa5, sizeof(t)); /* the parser must not rely on a zeroed output */
	parse_ok("", &t, 0);
	cr_expect_null(t.v);
	ct_mount_table_free(&t);
}

/* mangle() escapes space, tab, newline and backslash in paths, the type and the source. */
Test(fsinfo_parse, octal_escapes_in_names)
{
	struct ct_mount_table t;
	parse_ok("40 1 0:30 /sub\\040dir /mnt/a\\040b\\011c\\012d\\134e\\134 rw - "
		 "fuse\\040x.sshfs user@host:/with\\040space rw,user_id=0\n",
		 &t, 1);
	const struct ct_mount *m = &t.v[0];
	cr_expect_str_eq(m->root, "/sub dir");
	cr_expect_str_eq(m->target, "/mnt/a b\tc\nd\\e\\");
	cr_expect_str_eq(m->fstype, "fuse x.sshfs");
	cr_expect_str_eq(m->source, "user@host:/with space");
	ct_mount_table_free(&t);
}

/* Values in the super options stay escaped, as statmount's mnt_opts has them: a ',' inside
 * a value must not look like the end of an option. */
Test(fsinfo_parse, super_options_stay_escaped)
{
	struct ct_mount_table t;
	parse_ok("40 1 0:30 / /o rw - overlay overlay rw,lowerdir=/a\\054b:/c\\040d,xino=off\n", &t,
		 1);
	cr_expect_str_eq(t.v[0].fs_options, "lowerdir=/a\\054b:/c\\040d,xino=off");
	ct_mount_table_free(&t);
}

Test(fsinfo_parse, bad_escapes_name_the_line)
{
	static const char *const bad[] = {
		"/a\\04", "/a\\0", "/a\\", "/a\\8aa", "/a\\400", "/a\\000", "/a\\x41",
	};
	for (size_t i = 0; i < N(bad); i++) {
		char *text;
		cr_assert_geq(asprintf(&text,
				       "1 0 8:1 / / rw - ext4 a rw\n"
				       "2 1 8:1 / %s rw - ext4 a rw\n",
				       bad[i]),
			      0);
		assert_parse_fails(text, "mountinfo line 2: bad escape in mount point");
		free(text);
	}
	assert_parse_fails("2 1 8:1 /\\9 /x rw - ext4 a rw\n", "line 1: bad escape in root");
	assert_parse_fails("2 1 8:1 / /x rw - ext\\4 a rw\n", "line 1: bad escape in type");
	assert_parse_fails("2 1 8:1 / /x rw - ext4 a\\ rw\n", "line 1: bad escape in source");
}

/* A source may be the empty string: two spaces in a row are an empty field. */
Test(fsinfo_parse, empty_source_field)
{
	struct ct_mount_table t;
	parse_ok("50 1 0:40 / /e rw - tmpfs  rw\n", &t, 1);
	cr_expect_str_eq(t.v[0].source, "");
	cr_expect_str_eq(t.v[0].fstype, "tmpfs");
	ct_mount_table_free(&t);
}

/* A bind of a file that was unlinked afterwards: dentry_path() appends "//deleted". */
Test(fsinfo_parse, deleted_roots)
{
	struct ct_mount_table t;
	parse_ok("60 1 0:40 /gone//deleted /x rw - tmpfs t rw\n"
		 "61 1 0:40 /deleted /y rw - tmpfs t rw\n"
		 "62 1 0:40 /a\\040b//deleted /z rw - tmpfs t rw\n"
		 "63 1 0:40 / /w rw - tmpfs t rw\n",
		 &t, 4);
	cr_expect_str_eq(t.v[0].root, "/gone");
	cr_expect(t.v[0].root_deleted);
	cr_expect_str_eq(t.v[1].root, "/deleted", "a file named deleted is not deleted");
	cr_expect_not(t.v[1].root_deleted);
	cr_expect_str_eq(t.v[2].root, "/a b");
	cr_expect(t.v[2].root_deleted);
	cr_expect_str_eq(t.v[3].root, "/");
	cr_expect_not(t.v[3].root_deleted);
	ct_mount_table_free(&t);
}

struct optional_case {
	const char *fields;
	uint64_t propagation, peer_group, master, propagate_from;
};

/* Zero to several optional fields, in any order, with tags a newer kernel may add. */
static const struct optional_case optional_cases[] = {
	{"", MS_PRIVATE, 0, 0, 0},
	{"shared:5", MS_SHARED, 5, 0, 0},
	{"master:3", MS_SLAVE, 0, 3, 0},
	{"master:3 propagate_from:2", MS_SLAVE, 0, 3, 2},
	{"propagate_from:2 master:3", MS_SLAVE, 0, 3, 2},
	{"master:3 propagate_from:3", MS_SLAVE, 0, 3, 0},
	{"shared:7 master:3", MS_SHARED | MS_SLAVE, 7, 3, 0},
	{"unbindable", MS_UNBINDABLE, 0, 0, 0},
	{"shared:1 master:2 propagate_from:4 unbindable", MS_SHARED | MS_SLAVE | MS_UNBINDABLE, 1,
	 2, 4},
	{"future:9 shared:18446744073709551615 newtag", MS_SHARED, UINT64_MAX, 0, 0},
	{"a:1 b:2 c:3 d:4 e:5 f:6 g:7 h:8 master:1", MS_SLAVE, 0, 1, 0},
};

Test(fsinfo_parse, optional_fields_any_number_any_order)
{
	for (size_t i = 0; i < N(optional_cases); i++) {
		const struct optional_case *c = &optional_cases[i];
		_cleanup_free_ char *text = line_with("rw", c->fields, "rw");
		struct ct_mount_table t;
		parse_ok(text, &t, 1);
		const struct ct_mount *m = &t.v[0];
		cr_expect_eq(m->propagation, c->propagation, "\"%s\": propagation %#" PRIx64,
			     c->fields, m->propagation);
		cr_expect_eq(m->peer_group, c->peer_group, "\"%s\": peer group", c->fields);
		cr_expect_eq(m->master, c->master, "\"%s\": master", c->fields);
		cr_expect_eq(m->propagate_from, c->propagate_from, "\"%s\"", c->fields);
		cr_expect_str_eq(m->fstype, "ext4", "\"%s\": the fields after - are found",
				 c->fields);
		ct_mount_table_free(&t);
	}
}

Test(fsinfo_parse, bad_optional_fields)
{
	static const char *const bad[] = {
		"shared:",	"shared:x",  "shared:-1",	"master",
		"unbindable:1", "shared:1x", "propagate_from:", "master:18446744073709551616",
	};
	for (size_t i = 0; i < N(bad); i++) {
		_cleanup_free_ char *text = line_with("rw", bad[i], "rw");
		assert_parse_fails(text, "mountinfo line 1: bad optional field");
	}
}

Test(fsinfo_parse, missing_separator_names_the_line)
{
	assert_parse_fails("1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
			   "2 1 0:5 / /proc rw shared:1 proc proc rw\n"
			   "3 1 0:6 / /dev rw - devtmpfs udev rw\n",
			   "mountinfo line 2: no \" - \" separator");
}

struct malformed_case {
	const char *text;
	const char *error;
};

static const struct malformed_case malformed_cases[] = {
	{"1 0 8:1 / /\n", "line 1: too few fields"},
	{"x 0 8:1 / / rw - ext4 a rw\n", "line 1: bad mount id \"x\""},
	{"4294967296 0 8:1 / / rw - ext4 a rw\n", "bad mount id"},
	{"1 -1 8:1 / / rw - ext4 a rw\n", "line 1: bad parent id \"-1\""},
	{"1 0 8 / / rw - ext4 a rw\n", "line 1: bad device number \"8\""},
	{"1 0 8:x / / rw - ext4 a rw\n", "bad device number"},
	{"1 0 :1 / / rw - ext4 a rw\n", "bad device number"},
	{"1 0 8:1 / / rw - ext4 a\n", "line 1: too few fields after \" - \""},
	{"1 0 8:1 / / rw - ext4\n", "too few fields after"},
	{"1 0 8:1 / / rw - ext4 a rw extra\n", "line 1: unexpected field after the super"},
	{"1 0 8:1 / / rw - ext4 a rw \n", "unexpected field after the super"},
	{"1 0 8:1 / / rw - ext4 a rw\n\n2 1 8:1 / /x rw - ext4 a rw\n", "line 2: empty line"},
	{"\n", "line 1: empty line"},
	{"1 0 8:1 / / rw,fancy - ext4 a rw\n", "line 1: unknown mount option \"fancy\""},
	{"1 0 8:1 / / rw,,nodev - ext4 a rw\n", "unknown mount option \"\""},
	{"1 0 8:1 / / nosuid,rw - ext4 a rw\n", "mount options do not start with ro or rw"},
	{"1 0 8:1 / / rwx - ext4 a rw\n", "mount options do not start with ro or rw"},
	{"1 0 8:1 / / rw - ext4 a size=1k\n", "super options do not start with ro or rw"},
	{"1 0 8:1 / / rw - ext4 a \n", "super options do not start with ro or rw"},
	{"1  0 8:1 / / rw - ext4 a rw\n", "bad parent id \"\""},
};

Test(fsinfo_parse, malformed_lines_are_errors_naming_the_line)
{
	for (size_t i = 0; i < N(malformed_cases); i++)
		assert_parse_fails(malformed_cases[i].text, malformed_cases[i].error);
}

struct attr_case {
	const char *options;
	uint64_t attr;
};

/* Per-mount options -> the MOUNT_ATTR_* bits statmount reports for the same mount. The
 * kernel shows no atime option for strictatime, so its absence is STRICTATIME. */
static const struct attr_case attr_cases[] = {
	{"rw", MOUNT_ATTR_STRICTATIME},
	{"ro", MOUNT_ATTR_RDONLY | MOUNT_ATTR_STRICTATIME},
	{"rw,relatime", MOUNT_ATTR_RELATIME},
	{"rw,noatime", MOUNT_ATTR_NOATIME},
	{"rw,strictatime", MOUNT_ATTR_STRICTATIME},
	{"rw,nodiratime,relatime", MOUNT_ATTR_NODIRATIME | MOUNT_ATTR_RELATIME},
	{"rw,nosuid", MOUNT_ATTR_NOSUID | MOUNT_ATTR_STRICTATIME},
	{"rw,nodev", MOUNT_ATTR_NODEV | MOUNT_ATTR_STRICTATIME},
	{"rw,noexec", MOUNT_ATTR_NOEXEC | MOUNT_ATTR_STRICTATIME},
	{"rw,nosymfollow", MOUNT_ATTR_NOSYMFOLLOW | MOUNT_ATTR_STRICTATIME},
	{"ro,idmapped", MOUNT_ATTR_RDONLY | MOUNT_ATTR_IDMAP | MOUNT_ATTR_STRICTATIME},
	{"ro,nosuid,nodev,noexec,noatime,nodiratime",
	 MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC |
		 MOUNT_ATTR_NOATIME | MOUNT_ATTR_NODIRATIME},
};

Test(fsinfo_parse, mount_options_map_to_statmount_attr_bits)
{
	for (size_t i = 0; i < N(attr_cases); i++) {
		_cleanup_free_ char *text = line_with(attr_cases[i].options, "", "rw");
		struct ct_mount_table t;
		parse_ok(text, &t, 1);
		cr_expect_eq(t.v[0].attr, attr_cases[i].attr,
			     "\"%s\": attr %#" PRIx64 ", expected %#" PRIx64, attr_cases[i].options,
			     t.v[0].attr, attr_cases[i].attr);
		ct_mount_table_free(&t);
	}
}

struct super_case {
	const char *options;
	uint32_t sb_flags;
	const char *fs_options;
};

static const struct super_case super_cases[] = {
	{"rw", 0, ""},
	{"ro", CT_SB_RDONLY, ""},
	{"rw,size=1k,mode=755", 0, "size=1k,mode=755"},
	{"ro,sync,dirsync,lazytime",
	 CT_SB_RDONLY | CT_SB_SYNCHRONOUS | CT_SB_DIRSYNC | CT_SB_LAZYTIME, ""},
	{"rw,seclabel,sync,size=1k,lazytime,mode=700", CT_SB_SYNCHRONOUS | CT_SB_LAZYTIME,
	 "seclabel,size=1k,mode=700"},
	{"rw,errors=remount-ro", 0, "errors=remount-ro"},
};

Test(fsinfo_parse, super_options_split_into_sb_flags_and_fs_options)
{
	for (size_t i = 0; i < N(super_cases); i++) {
		const struct super_case *c = &super_cases[i];
		_cleanup_free_ char *text = line_with("rw", "", c->options);
		struct ct_mount_table t;
		parse_ok(text, &t, 1);
		cr_expect_eq(t.v[0].sb_flags, c->sb_flags, "\"%s\": sb_flags %#x", c->options,
			     t.v[0].sb_flags);
		cr_expect_eq(t.v[0].sb_readonly, (c->sb_flags & CT_SB_RDONLY) != 0, "\"%s\"",
			     c->options);
		cr_expect_str_eq(t.v[0].fs_options, c->fs_options, "\"%s\"", c->options);
		ct_mount_table_free(&t);
	}
}

/* ro on the mount and ro on the superblock are different things. */
Test(fsinfo_parse, mount_readonly_is_not_superblock_readonly)
{
	struct ct_mount_table t;
	parse_ok("1 0 8:1 / /a ro - ext4 a rw\n2 0 8:1 / /b rw - ext4 a ro\n", &t, 2);
	cr_expect(t.v[0].attr & MOUNT_ATTR_RDONLY);
	cr_expect_not(t.v[0].sb_readonly);
	cr_expect_not(t.v[1].attr & MOUNT_ATTR_RDONLY);
	cr_expect(t.v[1].sb_readonly);
	ct_mount_table_free(&t);
}

Test(fsinfo_parse, find_by_target_takes_the_top_of_a_stack)
{
	struct ct_mount_table t;
	/* 12 is mounted on 11 at /s, 13 on 12: 13 is what /s shows. Listed out of order. */
	parse_ok("1 0 8:1 / / rw - ext4 root rw\n"
		 "13 12 0:3 / /s rw - tmpfs top rw\n"
		 "11 1 0:1 / /s rw - tmpfs bottom rw\n"
		 "14 13 0:4 / /s/in rw - tmpfs inner rw\n"
		 "12 11 0:2 / /s rw - tmpfs middle rw\n",
		 &t, 5);
	const struct ct_mount *m = ct_mount_find_by_target(&t, "/s");
	cr_assert_not_null(m);
	cr_expect_str_eq(m->source, "top");
	m = ct_mount_find_by_target(&t, "/s/in");
	cr_assert_not_null(m);
	cr_expect_str_eq(m->source, "inner");
	cr_expect_null(ct_mount_find_by_target(&t, "/nothing"));
	cr_expect_null(ct_mount_find_by_target(&t, "/s/"), "targets are compared exactly");
	ct_mount_table_free(&t);
}

/* A small tree: / ; /dev (on /) ; /dev/pts (on /dev) ; /sys (on /) ; /sys/fs/cgroup (on /sys)
 * ; /sys/fs/cgroup/cpu (on the cgroup tmpfs). */
#define REACHED_BASE                                      \
	"1 0 8:1 / / rw - ext4 root rw\n"                 \
	"2 1 0:2 / /dev rw - tmpfs dev rw\n"              \
	"3 2 0:3 / /dev/pts rw - devpts devpts rw\n"      \
	"4 1 0:4 / /sys rw - sysfs sysfs rw\n"            \
	"5 4 0:5 / /sys/fs/cgroup rw - tmpfs cgroup rw\n" \
	"6 5 0:6 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw\n"

/* Whether the mount with reusable id mnt_id in text is reached by path. */
static bool reached(const char *text, size_t n, uint32_t mnt_id, const char *path)
{
	struct ct_mount_table t;
	parse_ok(text, &t, n);
	const struct ct_mount *m = NULL;
	for (size_t i = 0; i < t.n; i++)
		if (t.v[i].mnt_id == mnt_id)
			m = &t.v[i];
	cr_assert_not_null(m, "no mount %u", mnt_id);
	bool r = ct_mount_reached_by(&t, m, path);
	ct_mount_table_free(&t);
	return r;
}

Test(fsinfo_parse, reached_by_walks_down_the_parents)
{
	cr_expect(reached(REACHED_BASE, 6, 1, "/"));
	cr_expect(reached(REACHED_BASE, 6, 3, "/dev/pts"));
	cr_expect(reached(REACHED_BASE, 6, 6, "/sys/fs/cgroup/cpu"));
	cr_expect_not(reached(REACHED_BASE, 6, 3, "/dev"), "another mount's path");
	cr_expect_not(reached(REACHED_BASE, 6, 3, "/dev/pts/"), "the path comes normalised");
	/* a sibling whose name only starts like a directory on the way does not divert */
	cr_expect(reached(REACHED_BASE "7 4 0:7 / /sys/f rw - tmpfs f rw\n"
				       "8 1 0:8 / /device rw - tmpfs d rw\n",
			  8, 6, "/sys/fs/cgroup/cpu"));
	/* mounts below the one looked for are not on the way */
	cr_expect(reached(REACHED_BASE "7 3 0:7 / /dev/pts/x rw - tmpfs x rw\n", 7, 3, "/dev/pts"));
}

Test(fsinfo_parse, reached_by_refuses_a_covered_or_bypassed_mount)
{
	/* stacked on /dev/pts: the lookup ends on 7 */
	cr_expect_not(
		reached(REACHED_BASE "7 3 0:7 / /dev/pts rw - tmpfs over rw\n", 7, 3, "/dev/pts"));
	cr_expect(
		reached(REACHED_BASE "7 3 0:7 / /dev/pts rw - tmpfs over rw\n", 7, 7, "/dev/pts"));
	/* /dev covered: /dev/pts hangs off the hidden /dev */
	cr_expect_not(
		reached(REACHED_BASE "7 2 0:7 / /dev rw - tmpfs over rw\n", 7, 3, "/dev/pts"));
	/* a mount on a directory on the way (/sys/fs) bypasses the cgroup mounts below it */
	cr_expect_not(reached(REACHED_BASE "7 4 0:7 / /sys/fs rw - tmpfs over rw\n", 7, 6,
			      "/sys/fs/cgroup/cpu"));
	cr_expect_not(reached(REACHED_BASE "7 4 0:7 / /sys/fs rw - tmpfs over rw\n", 7, 5,
			      "/sys/fs/cgroup"));
	/* a mount on the root itself */
	cr_expect_not(reached(REACHED_BASE "7 1 0:7 / / rw - tmpfs over rw\n", 7, 3, "/dev/pts"));
}

Test(fsinfo_parse, reached_by_needs_a_chain_up_to_the_root)
{
	/* the parent of 3 is not in the table: where it hangs is unknown */
	cr_expect_not(reached("1 0 8:1 / / rw - ext4 root rw\n"
			      "3 2 0:3 / /dev/pts rw - devpts devpts rw\n",
			      2, 3, "/dev/pts"));
	/* parents in a loop */
	cr_expect_not(reached("2 3 0:2 / /a rw - tmpfs a rw\n"
			      "3 2 0:3 / /a/b rw - tmpfs b rw\n",
			      2, 3, "/a/b"));
	/* a root that is its own parent, as statmount reports it */
	cr_expect(reached("1 1 8:1 / / rw - ext4 root rw\n"
			  "2 1 0:2 / /dev rw - tmpfs dev rw\n",
			  2, 2, "/dev"));
}

Test(fsinfo_parse, backend_names)
{
	cr_expect_str_eq(ct_mounts_backend_name(CT_MOUNTS_AUTO), "auto");
	cr_expect_str_eq(ct_mounts_backend_name(CT_MOUNTS_STATMOUNT), "statmount");
	cr_expect_str_eq(ct_mounts_backend_name(CT_MOUNTS_MOUNTINFO), "mountinfo");
	cr_expect_str_eq(ct_mounts_backend_name((enum ct_mounts_backend)42), "unknown");
}

/* ---- the live table -------------------------------------------------------------------
 *
 * Each test unshares its mount namespace (Criterion runs it in its own process), makes the
 * whole tree private so that nothing mounted elsewhere on the machine can change the table
 * between two reads, and mounts a tmpfs on a fresh directory under /tmp for its own mounts.
 * The namespace, and every mount in it, ends with the test's process; the fini removes the
 * directory, which the host sees empty. */

static char live_base[] = "/tmp/ctrun-fsinfo-XXXXXX";
static bool live_ready;

static void live_setup(void)
{
	if (geteuid() != 0)
		cr_skip_test("needs root: mounts in a private mount namespace");
	if (unshare(CLONE_NEWNS) < 0)
		cr_skip_test("unshare(CLONE_NEWNS): %s", strerror(errno));
	cr_assert_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0, "%s", strerror(errno));
	cr_assert_not_null(mkdtemp(live_base), "mkdtemp: %s", strerror(errno));
	live_ready = true;
	cr_assert_eq(mount("fsinfo-base", live_base, "tmpfs", 0, "size=1m"), 0, "%s",
		     strerror(errno));
}

static void live_teardown(void)
{
	if (!live_ready)
		return;
	umount2(live_base, MNT_DETACH);
	rmdir(live_base);
}

TestSuite(fsinfo_live, .init = live_setup, .fini = live_teardown);

/* live_base/name, malloc'd. */
static char *in_base(const char *name)
{
	char *p;
	cr_assert_geq(asprintf(&p, "%s/%s", live_base, name), 0);
	return p;
}

static char *make_dir(const char *name)
{
	char *p = in_base(name);
	cr_assert_eq(mkdir(p, 0755), 0, "mkdir \"%s\": %s", p, strerror(errno));
	return p;
}

static void must_mount(const char *src, const char *dst, const char *type, unsigned long flags,
		       const char *data)
{
	cr_assert_eq(mount(src, dst, type, flags, data), 0, "mount %s on \"%s\": %s",
		     src ? src : type, dst, strerror(errno));
}

/* The names of the odd mounts, relative to live_base. */
#define ODD_NAME     "sp ace\ttab\nnl\\bs"
#define BIND_RO_NAME "bind-ro"
#define SHARED_NAME  "shared"
#define SLAVE_NAME   "slave"
#define UNBIND_NAME  "unbindable"
#define STACK_NAME   "stack"
#define GONE_NAME    "gone-target"
#define SYNC_NAME    "sync"

/* tmpfs, read-only (mount and superblock), nosuid, nodev, noexec, noatime, under a name
 * with every character mountinfo escapes, with a source holding a space. */
static void mount_odd(void)
{
	_cleanup_free_ char *p = make_dir(ODD_NAME);
	must_mount("odd source", p, "tmpfs",
		   MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME, "size=1m,mode=700");
}

/* A bind remounted read-only with strictatime and nodiratime: the mount is read-only, its
 * superblock (the base tmpfs) is not. */
static void mount_bind_ro(void)
{
	_cleanup_free_ char *src = make_dir("bind-src");
	_cleanup_free_ char *p = make_dir(BIND_RO_NAME);
	must_mount(src, p, NULL, MS_BIND, NULL);
	must_mount(NULL, p, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_STRICTATIME | MS_NODIRATIME,
		   NULL);
}

/* A shared tmpfs, a bind of it made a slave, and an unbindable tmpfs. */
static void mount_propagation(void)
{
	_cleanup_free_ char *shared = make_dir(SHARED_NAME);
	_cleanup_free_ char *slave = make_dir(SLAVE_NAME);
	_cleanup_free_ char *unbind = make_dir(UNBIND_NAME);
	must_mount("shared-src", shared, "tmpfs", 0, "size=1m");
	must_mount(NULL, shared, NULL, MS_SHARED, NULL);
	must_mount(shared, slave, NULL, MS_BIND, NULL);
	must_mount(NULL, slave, NULL, MS_SLAVE, NULL);
	must_mount("unbind-src", unbind, "tmpfs", 0, "size=1m");
	must_mount(NULL, unbind, NULL, MS_UNBINDABLE, NULL);
}

/* Two tmpfs on one directory: "upper" hides "lower". */
static void mount_stack(void)
{
	_cleanup_free_ char *p = make_dir(STACK_NAME);
	must_mount("lower", p, "tmpfs", 0, "size=1m");
	must_mount("upper", p, "tmpfs", 0, "size=2m");
}

/* A file bound on another, then unlinked: the mount's root is deleted. */
static void mount_deleted_root(void)
{
	_cleanup_free_ char *src = in_base("gone-source");
	_cleanup_free_ char *dst = in_base(GONE_NAME);
	for (const char *f = src; f; f = f == src ? dst : NULL) {
		int fd = open(f, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		cr_assert_geq(fd, 0, "create \"%s\": %s", f, strerror(errno));
		close(fd);
	}
	must_mount(src, dst, NULL, MS_BIND, NULL);
	cr_assert_eq(unlink(src), 0, "%s", strerror(errno));
}

/* Superblock flags beyond ro; and a source that is the empty string, which statmount
 * leaves out of its answer and mountinfo shows as an empty field. */
static void mount_sync(void)
{
	_cleanup_free_ char *p = make_dir(SYNC_NAME);
	must_mount("", p, "tmpfs", MS_SYNCHRONOUS | MS_DIRSYNC | MS_LAZYTIME, "size=1m");
}

static void make_odd_mounts(void)
{
	mount_odd();
	mount_bind_ro();
	mount_propagation();
	mount_stack();
	mount_deleted_root();
	mount_sync();
}

static void read_table(struct ct_mount_table *t, enum ct_mounts_backend want)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_mounts_read(t, want, &err), 0, "read with %s: %s",
		     ct_mounts_backend_name(want), err.msg);
	cr_assert_gt(t->n, 0);
}

static void require_statmount(void)
{
	if (!ct_kernel_has(CT_KF_STATMOUNT) || !ct_kernel_has(CT_KF_LISTMOUNT))
		cr_skip_test("this kernel lacks statmount/listmount (Linux 6.8)");
}

/* The lines of /proc/self/mountinfo, counted without the parser. */
static size_t mountinfo_lines(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/self/mountinfo", "re");
	cr_assert_not_null(f);
	size_t n = 0;
	for (int c; (c = fgetc(f)) != EOF;)
		n += c == '\n';
	return n;
}

/* The mount at live_base/name, which must exist. */
static const struct ct_mount *find_in_base(const struct ct_mount_table *t, const char *name)
{
	_cleanup_free_ char *p = in_base(name);
	const struct ct_mount *m = ct_mount_find_by_target(t, p);
	cr_assert_not_null(m, "%s: no mount at \"%s\"", ct_mounts_backend_name(t->backend), p);
	return m;
}

Test(fsinfo_live, auto_takes_statmount_on_this_kernel)
{
	require_statmount();
	struct ct_mount_table t;
	read_table(&t, CT_MOUNTS_AUTO);
	cr_expect_eq(t.backend, CT_MOUNTS_STATMOUNT, "backend %s",
		     ct_mounts_backend_name(t.backend));
	for (size_t i = 0; i < t.n; i++) {
		cr_expect_neq(t.v[i].id, 0, "%s: no unique id", t.v[i].target);
		cr_expect_neq(t.v[i].parent_id, 0, "%s: no unique parent id", t.v[i].target);
	}
	cr_expect_eq(t.n, mountinfo_lines());
	ct_mount_table_free(&t);
}

Test(fsinfo_live, forced_mountinfo_reads_every_line)
{
	make_odd_mounts();
	struct ct_mount_table t;
	read_table(&t, CT_MOUNTS_MOUNTINFO);
	cr_expect_eq(t.backend, CT_MOUNTS_MOUNTINFO);
	cr_expect_eq(t.n, mountinfo_lines());
	for (size_t i = 0; i < t.n; i++)
		cr_expect_eq(t.v[i].id, 0, "mountinfo has no unique ids");
	ct_mount_table_free(&t);
}

static void expect_same_mount(const struct ct_mount *s, const struct ct_mount *i)
{
	const char *at = i->target;
	cr_expect_eq(s->parent_mnt_id, i->parent_mnt_id, "%s: parent", at);
	cr_expect_eq(s->dev_major, i->dev_major, "%s: major", at);
	cr_expect_eq(s->dev_minor, i->dev_minor, "%s: minor", at);
	cr_expect_str_eq(s->target, i->target, "%s: target", at);
	cr_expect_str_eq(s->root, i->root, "%s: root", at);
	cr_expect_eq(s->root_deleted, i->root_deleted, "%s: root deleted", at);
	cr_expect_str_eq(s->fstype, i->fstype, "%s: type", at);
	cr_expect_str_eq(s->source, i->source, "%s: source", at);
	cr_expect_str_eq(s->fs_options, i->fs_options, "%s: fs options", at);
	cr_expect_eq(s->attr, i->attr, "%s: attr %#" PRIx64 " vs %#" PRIx64, at, s->attr, i->attr);
	cr_expect_eq(s->sb_flags, i->sb_flags, "%s: sb flags %#x vs %#x", at, s->sb_flags,
		     i->sb_flags);
	cr_expect_eq(s->sb_readonly, i->sb_readonly, "%s: sb read-only", at);
	cr_expect_eq(s->propagation, i->propagation, "%s: propagation", at);
	cr_expect_eq(s->peer_group, i->peer_group, "%s: peer group", at);
	cr_expect_eq(s->master, i->master, "%s: master", at);
	cr_expect_eq(s->propagate_from, i->propagate_from, "%s: propagate_from", at);
}

/* statmount's parent_id is the unique id of the mount mountinfo names as the parent. */
static void expect_parent_ids_agree(const struct ct_mount_table *sm)
{
	for (size_t k = 0; k < sm->n; k++) {
		const struct ct_mount *m = &sm->v[k];
		const struct ct_mount *parent = ct_mount_find_by_id(sm, m->parent_mnt_id);
		if (parent)
			cr_expect_eq(m->parent_id, parent->id, "%s: parent id", m->target);
	}
}

Test(fsinfo_live, backends_agree_field_by_field)
{
	require_statmount();
	make_odd_mounts();
	struct ct_mount_table sm, mi;
	read_table(&sm, CT_MOUNTS_STATMOUNT);
	read_table(&mi, CT_MOUNTS_MOUNTINFO);
	cr_expect_eq(sm.n, mi.n, "statmount sees %zu mounts, mountinfo %zu", sm.n, mi.n);
	for (size_t k = 0; k < mi.n; k++) {
		const struct ct_mount *s = ct_mount_find_by_id(&sm, mi.v[k].mnt_id);
		cr_expect_not_null(s, "mount %u (%s) missing from statmount's table",
				   mi.v[k].mnt_id, mi.v[k].target);
		if (s)
			expect_same_mount(s, &mi.v[k]);
	}
	expect_parent_ids_agree(&sm);
	ct_mount_table_free(&sm);
	ct_mount_table_free(&mi);
}

static void expect_odd_mount(const struct ct_mount_table *t)
{
	const struct ct_mount *m = find_in_base(t, ODD_NAME);
	cr_expect_str_eq(m->fstype, "tmpfs");
	cr_expect_str_eq(m->source, "odd source");
	cr_expect_str_eq(m->root, "/");
	cr_expect_eq(m->attr,
		     MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC |
			     MOUNT_ATTR_NOATIME,
		     "attr %#" PRIx64, m->attr);
	cr_expect(m->sb_readonly, "MS_RDONLY on a new mount makes the superblock read-only");
	cr_expect(strstr(m->fs_options, "size=1024k"), "fs options \"%s\"", m->fs_options);
	cr_expect(strstr(m->fs_options, "mode=700"), "fs options \"%s\"", m->fs_options);
	cr_expect_not(strstr(m->fs_options, "ro"), "ro is not a filesystem option");
}

static void expect_bind_ro(const struct ct_mount_table *t)
{
	const struct ct_mount *m = find_in_base(t, BIND_RO_NAME);
	const struct ct_mount *base = ct_mount_find_by_target(t, live_base);
	cr_assert_not_null(base);
	cr_expect_str_eq(m->root, "/bind-src", "a bind's root is its source in the filesystem");
	cr_expect_str_eq(m->source, "fsinfo-base");
	cr_expect_eq(m->attr, MOUNT_ATTR_RDONLY | MOUNT_ATTR_STRICTATIME | MOUNT_ATTR_NODIRATIME,
		     "attr %#" PRIx64, m->attr);
	cr_expect_not(m->sb_readonly, "a read-only bind leaves the superblock writable");
	cr_expect_eq(m->dev_minor, base->dev_minor, "same superblock as the base");
	cr_expect_eq(base->attr, MOUNT_ATTR_RELATIME, "base attr %#" PRIx64, base->attr);
}

static void expect_propagation(const struct ct_mount_table *t)
{
	const struct ct_mount *shared = find_in_base(t, SHARED_NAME);
	const struct ct_mount *slave = find_in_base(t, SLAVE_NAME);
	const struct ct_mount *unbind = find_in_base(t, UNBIND_NAME);
	cr_expect_eq(shared->propagation, MS_SHARED);
	cr_expect_neq(shared->peer_group, 0);
	cr_expect_eq(slave->propagation, MS_SLAVE);
	cr_expect_eq(slave->master, shared->peer_group, "the slave's master is the peer group");
	cr_expect_eq(slave->peer_group, 0);
	cr_expect_eq(unbind->propagation, MS_UNBINDABLE);
	cr_expect_eq(find_in_base(t, STACK_NAME)->propagation, MS_PRIVATE);
}

static void expect_stack_deleted_sync(const struct ct_mount_table *t)
{
	cr_expect_str_eq(find_in_base(t, STACK_NAME)->source, "upper");
	const struct ct_mount *gone = find_in_base(t, GONE_NAME);
	cr_expect(gone->root_deleted);
	cr_expect_str_eq(gone->root, "/gone-source");
	const struct ct_mount *sync = find_in_base(t, SYNC_NAME);
	cr_expect_eq(sync->sb_flags, CT_SB_SYNCHRONOUS | CT_SB_DIRSYNC | CT_SB_LAZYTIME,
		     "sb flags %#x", sync->sb_flags);
	cr_expect_not(sync->sb_readonly);
	cr_expect_str_eq(sync->source, "");
	cr_expect_not(strstr(sync->fs_options, "sync"), "fs options \"%s\"", sync->fs_options);
}

/* Each back end, on its own, sees the odd mounts as they were made. */
static void assert_odd_mounts(enum ct_mounts_backend want)
{
	struct ct_mount_table t;
	read_table(&t, want);
	cr_assert_eq(t.backend, want);
	expect_odd_mount(&t);
	expect_bind_ro(&t);
	expect_propagation(&t);
	expect_stack_deleted_sync(&t);
	ct_mount_table_free(&t);
}

Test(fsinfo_live, mountinfo_sees_the_mounts_as_made)
{
	make_odd_mounts();
	assert_odd_mounts(CT_MOUNTS_MOUNTINFO);
}

Test(fsinfo_live, statmount_sees_the_mounts_as_made)
{
	require_statmount();
	make_odd_mounts();
	assert_odd_mounts(CT_MOUNTS_STATMOUNT);
}

/* A tmpfs at up/down, then one at up: the first is still mounted, but cut off. */
static void mount_cut_off(void)
{
	_cleanup_free_ char *up = make_dir("up");
	_cleanup_free_ char *down = make_dir("up/down");
	must_mount("down", down, "tmpfs", 0, "size=1m");
	must_mount("over-up", up, "tmpfs", 0, "size=1m");
}

static const struct ct_mount *find_by_source(const struct ct_mount_table *t, const char *source)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->v[i].source, source) == 0)
			return &t->v[i];
	cr_assert_fail("no mount of \"%s\"", source);
	return NULL;
}

/* Wherever ct_mount_reached_by says a mount's target leads to it, a lookup of the target
 * ends on that mount; the covered and the cut-off mounts are not reached. */
static void assert_reached_by_agrees_with_lookups(enum ct_mounts_backend want)
{
	make_odd_mounts();
	mount_cut_off();
	struct ct_mount_table t;
	read_table(&t, want);
	size_t reached = 0;
	for (size_t i = 0; i < t.n; i++) {
		const struct ct_mount *m = &t.v[i];
		if (strncmp(m->target, live_base, strlen(live_base)) != 0 ||
		    !ct_mount_reached_by(&t, m, m->target))
			continue;
		_cleanup_close_ int fd = open(m->target, O_PATH | O_CLOEXEC);
		struct ct_error err = {0};
		uint64_t id;
		cr_assert_geq(fd, 0, "open \"%s\": %s", m->target, strerror(errno));
		cr_assert_eq(ct_fd_mount_id(fd, false, &id, &err), 0, "%s", err.msg);
		cr_expect_eq(id, m->mnt_id,
			     "\"%s\": reached by the table, but a lookup ends on %" PRIu64,
			     m->target, id);
		reached++;
	}
	cr_expect_geq(reached, 8, "only %zu mounts reached", reached);
	cr_expect(ct_mount_reached_by(&t, find_by_source(&t, "upper"),
				      find_by_source(&t, "upper")->target));
	cr_expect_not(ct_mount_reached_by(&t, find_by_source(&t, "lower"),
					  find_by_source(&t, "lower")->target),
		      "the covered mount");
	cr_expect_not(ct_mount_reached_by(&t, find_by_source(&t, "down"),
					  find_by_source(&t, "down")->target),
		      "the cut-off mount");
	ct_mount_table_free(&t);
}

Test(fsinfo_live, reached_by_agrees_with_lookups_with_statmount)
{
	require_statmount();
	assert_reached_by_agrees_with_lookups(CT_MOUNTS_STATMOUNT);
}

Test(fsinfo_live, reached_by_agrees_with_lookups_with_mountinfo)
{
	assert_reached_by_agrees_with_lookups(CT_MOUNTS_MOUNTINFO);
}

/* The brief read has every field of the full one but the two strings it leaves out. */
Test(fsinfo_live, brief_read_leaves_out_root_and_fs_options_only)
{
	require_statmount();
	make_odd_mounts();
	struct ct_mount_table full, brief;
	struct ct_error err = {0};
	read_table(&full, CT_MOUNTS_STATMOUNT);
	cr_assert_eq(ct_mounts_read_brief(&brief, CT_MOUNTS_STATMOUNT, &err), 0, "%s", err.msg);
	cr_expect_eq(brief.backend, CT_MOUNTS_STATMOUNT);
	cr_assert_eq(brief.n, full.n);
	for (size_t k = 0; k < full.n; k++) {
		struct ct_mount f = full.v[k];
		const struct ct_mount *b = ct_mount_find_by_id(&brief, f.mnt_id);
		cr_assert_not_null(b, "%s missing from the brief table", f.target);
		cr_expect_str_eq(b->root, "", "%s: root", f.target);
		cr_expect_str_eq(b->fs_options, "", "%s: fs options", f.target);
		f.root = b->root;
		f.root_deleted = b->root_deleted;
		f.fs_options = b->fs_options;
		expect_same_mount(&f, b);
	}
	ct_mount_table_free(&full);
	ct_mount_table_free(&brief);
}

/* mountinfo prints root and options anyway: the brief read keeps them. */
Test(fsinfo_live, brief_mountinfo_read_is_the_full_one)
{
	make_odd_mounts();
	struct ct_mount_table full, brief;
	struct ct_error err = {0};
	read_table(&full, CT_MOUNTS_MOUNTINFO);
	cr_assert_eq(ct_mounts_read_brief(&brief, CT_MOUNTS_MOUNTINFO, &err), 0, "%s", err.msg);
	cr_assert_eq(brief.n, full.n);
	for (size_t k = 0; k < full.n; k++)
		expect_same_mount(&brief.v[k], &full.v[k]);
	expect_stack_deleted_sync(&brief);
	ct_mount_table_free(&full);
	ct_mount_table_free(&brief);
}

/* More mounts than one listmount call takes (256): the ids are read in pages, to the end. */
Test(fsinfo_live, statmount_reads_more_mounts_than_one_listmount_page)
{
	require_statmount();
	_cleanup_free_ char *p = make_dir("many");
	for (int i = 0; i < 300; i++)
		must_mount("", p, "tmpfs", 0, "size=4k");
	struct ct_mount_table t;
	read_table(&t, CT_MOUNTS_STATMOUNT);
	cr_expect_eq(t.n, mountinfo_lines());
	cr_expect_gt(t.n, 300);
	ct_mount_table_free(&t);
}

/* A mount made by fd with no "source" parameter: the kernel names its source "none". */
Test(fsinfo_live, mount_without_source_is_none)
{
	if (!ct_kernel_has(CT_KF_NEW_MOUNT_API))
		cr_skip_test("this kernel lacks the new mount API");
	_cleanup_free_ char *p = make_dir("nosource");
	_cleanup_close_ int fs = ct_fsopen("tmpfs", FSOPEN_CLOEXEC);
	cr_assert_geq(fs, 0, "fsopen: %s", strerror(errno));
	cr_assert_eq(ct_fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0), 0, "%s", strerror(errno));
	_cleanup_close_ int mnt = ct_fsmount(fs, FSMOUNT_CLOEXEC, 0);
	cr_assert_geq(mnt, 0, "fsmount: %s", strerror(errno));
	cr_assert_eq(ct_move_mount(mnt, "", AT_FDCWD, p, MOVE_MOUNT_F_EMPTY_PATH), 0, "%s",
		     strerror(errno));
	for (int b = CT_MOUNTS_STATMOUNT; b <= CT_MOUNTS_MOUNTINFO; b++) {
		if (b == CT_MOUNTS_STATMOUNT && !ct_kernel_has(CT_KF_STATMOUNT))
			continue;
		struct ct_mount_table t;
		read_table(&t, b);
		cr_expect_str_eq(find_in_base(&t, "nosource")->source, "none", "%s",
				 ct_mounts_backend_name(b));
		ct_mount_table_free(&t);
	}
}

/* What an old kernel or a container host's seccomp profile does to ctrun: AUTO falls back
 * to mountinfo and reads the same mounts; asking for statmount alone fails, saying why. */
static void assert_fallback(int nr, int errnum)
{
	require_statmount();
	make_odd_mounts();
	size_t lines = mountinfo_lines();
	block_syscall(nr, errnum);
	ct_kernel_forget();

	struct ct_mount_table t;
	read_table(&t, CT_MOUNTS_AUTO);
	cr_expect_eq(t.backend, CT_MOUNTS_MOUNTINFO, "backend %s",
		     ct_mounts_backend_name(t.backend));
	cr_expect_eq(t.n, lines);
	expect_odd_mount(&t);
	ct_mount_table_free(&t);

	struct ct_error err = {0};
	cr_expect_eq(ct_mounts_read(&t, CT_MOUNTS_STATMOUNT, &err), -1);
	cr_expect_eq(err.errnum, errnum, "%s", err.msg);
	cr_expect(strstr(err.msg, "mount"), "error names the call: %s", err.msg);
	cr_expect_eq(t.n, 0);
	cr_expect_null(t.v);
}

Test(fsinfo_live, statmount_enosys_falls_back_to_mountinfo)
{
	assert_fallback(__NR_statmount, ENOSYS);
}

Test(fsinfo_live, listmount_eperm_falls_back_to_mountinfo)
{
	assert_fallback(__NR_listmount, EPERM);
}

/* An O_PATH fd on the directory live_base/name. */
static int open_in_base(const char *name)
{
	_cleanup_free_ char *p = in_base(name);
	int fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open \"%s\": %s", p, strerror(errno));
	return fd;
}

/* The mount an fd is on, by the kind of id each back end knows. */
static void assert_fd_mounts(enum ct_mounts_backend want)
{
	struct ct_mount_table t;
	read_table(&t, want);
	static const char *const names[] = {ODD_NAME, STACK_NAME, SLAVE_NAME, "bind-src"};
	for (size_t k = 0; k < N(names); k++) {
		_cleanup_close_ int fd = open_in_base(names[k]);
		struct ct_error err = {0};
		const struct ct_mount *m = ct_mount_find_by_fd(&t, fd, &err);
		cr_assert_not_null(m, "%s: %s", ct_mounts_backend_name(want), err.msg);
		/* bind-src is a plain directory: it is on the base tmpfs. */
		const char *want_target = k == 3 ? live_base : NULL;
		_cleanup_free_ char *p = in_base(names[k]);
		cr_expect_str_eq(m->target, want_target ? want_target : p, "%s: fd on \"%s\"",
				 ct_mounts_backend_name(want), p);
	}
	_cleanup_close_ int fd = open_in_base(STACK_NAME);
	struct ct_error err = {0};
	cr_expect_str_eq(ct_mount_find_by_fd(&t, fd, &err)->source, "upper",
			 "the fd is on the top of the stack");
	ct_mount_table_free(&t);
}

Test(fsinfo_live, find_by_fd_with_each_backend)
{
	make_odd_mounts();
	assert_fd_mounts(CT_MOUNTS_MOUNTINFO);
	if (ct_kernel_has(CT_KF_STATMOUNT) && ct_kernel_has(CT_KF_LISTMOUNT))
		assert_fd_mounts(CT_MOUNTS_STATMOUNT);
}

/* The ids statx gives are the ones statmount reports. */
Test(fsinfo_live, fd_mount_ids_match_statmount)
{
	require_statmount();
	make_odd_mounts();
	struct ct_mount_table t;
	read_table(&t, CT_MOUNTS_STATMOUNT);
	const struct ct_mount *odd = find_in_base(&t, ODD_NAME);
	_cleanup_close_ int fd = open_in_base(ODD_NAME);
	uint64_t unique = 0, old = 0;
	struct ct_error err = {0};
	cr_assert_eq(ct_fd_mount_id(fd, true, &unique, &err), 0, "%s", err.msg);
	cr_assert_eq(ct_fd_mount_id(fd, false, &old, &err), 0, "%s", err.msg);
	cr_expect_eq(unique, odd->id);
	cr_expect_eq(old, odd->mnt_id);
	ct_mount_table_free(&t);
}

/* Without statx (before 5.8, or filtered), the reusable id comes from fdinfo and the unique
 * one is refused rather than made up. */
Test(fsinfo_live, fd_mount_id_without_statx)
{
	make_odd_mounts();
	_cleanup_close_ int fd = open_in_base(ODD_NAME);
	uint64_t before = 0, after = 0;
	struct ct_error err = {0};
	cr_assert_eq(ct_fd_mount_id(fd, false, &before, &err), 0, "%s", err.msg);
	block_syscall(__NR_statx, ENOSYS);
	cr_assert_eq(ct_fd_mount_id(fd, false, &after, &err), 0, "%s", err.msg);
	cr_expect_eq(after, before, "fdinfo gives the id statx gave");
	cr_expect_eq(ct_fd_mount_id(fd, true, &after, &err), -1);
	cr_expect_eq(err.errnum, EOPNOTSUPP, "%s", err.msg);

	struct ct_mount_table t;
	read_table(&t, CT_MOUNTS_MOUNTINFO);
	const struct ct_mount *m = ct_mount_find_by_fd(&t, fd, &err);
	cr_assert_not_null(m, "%s", err.msg);
	_cleanup_free_ char *p = in_base(ODD_NAME);
	cr_expect_str_eq(m->target, p);
	ct_mount_table_free(&t);
}

Test(fsinfo_live, find_by_fd_of_a_bad_fd_fails)
{
	struct ct_mount_table t;
	read_table(&t, CT_MOUNTS_MOUNTINFO);
	struct ct_error err = {0};
	cr_expect_null(ct_mount_find_by_fd(&t, 12345, &err));
	cr_expect_eq(err.errnum, EBADF, "%s", err.msg);
	ct_mount_table_free(&t);
}
