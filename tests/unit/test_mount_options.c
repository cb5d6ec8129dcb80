/* config-linux.md#mount-options: the option strings of a mount -> mount(2) flags, propagation,
 * bind and the filesystem data, without mounting anything. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "libct/fs/mount_options.h"
#include "libct/base/syscalls.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Parses a literal list; the caller frees out->data. */
#define PARSE(out, ...)                                                        \
	do {                                                                   \
		char *const opts_[] = {__VA_ARGS__};                           \
		cr_assert_eq(ct_mount_flags_parse(opts_, N(opts_), (out)), 0); \
	} while (0)

struct flag_case {
	const char *name;
	unsigned long set;   /* bit the option turns on, 0 when it only clears */
	unsigned long clear; /* bit the option turns off, 0 when it only sets */
};

/* Every flag row of the table in libct/fs/mount_options.c. */
static const struct flag_case flag_cases[] = {
	{"ro", MS_RDONLY, 0},
	{"rw", 0, MS_RDONLY},
	{"nosuid", MS_NOSUID, 0},
	{"suid", 0, MS_NOSUID},
	{"nodev", MS_NODEV, 0},
	{"dev", 0, MS_NODEV},
	{"noexec", MS_NOEXEC, 0},
	{"exec", 0, MS_NOEXEC},
	{"sync", MS_SYNCHRONOUS, 0},
	{"async", 0, MS_SYNCHRONOUS},
	{"dirsync", MS_DIRSYNC, 0},
	{"remount", MS_REMOUNT, 0},
	{"mand", MS_MANDLOCK, 0},
	{"nomand", 0, MS_MANDLOCK},
	{"atime", 0, MS_NOATIME},
	{"noatime", MS_NOATIME, 0},
	{"diratime", 0, MS_NODIRATIME},
	{"nodiratime", MS_NODIRATIME, 0},
	{"relatime", MS_RELATIME, 0},
	{"norelatime", 0, MS_RELATIME},
	{"strictatime", MS_STRICTATIME, 0},
	{"nostrictatime", 0, MS_STRICTATIME},
	{"silent", MS_SILENT, 0},
	{"loud", 0, MS_SILENT},
	{"nosymfollow", MS_NOSYMFOLLOW, 0},
};

static void expect_nothing_else(const struct ct_mount_flags *f, const char *name)
{
	cr_expect_eq(f->propagation, 0, "%s: no propagation", name);
	cr_expect_not(f->bind, "%s: not a bind", name);
	cr_expect_not(f->recursive_bind, "%s: not an rbind", name);
	cr_expect_null(f->data, "%s: not filesystem data (got \"%s\")", name, f->data);
}

Test(mount_options, each_setting_option_sets_exactly_its_flag)
{
	for (size_t i = 0; i < N(flag_cases); i++) {
		const struct flag_case *c = &flag_cases[i];
		if (!c->set)
			continue;
		struct ct_mount_flags f;
		char *opts[] = {(char *)c->name};
		cr_assert_eq(ct_mount_flags_parse(opts, 1, &f), 0);
		cr_expect_eq(f.flags, c->set, "%s: flags %#lx, expected %#lx", c->name, f.flags,
			     c->set);
		expect_nothing_else(&f, c->name);
		free(f.data);
	}
}

/* A clearing option alone leaves nothing set; after its opposite it removes that bit only. */
Test(mount_options, each_clearing_option_clears_exactly_its_flag)
{
	for (size_t i = 0; i < N(flag_cases); i++) {
		const struct flag_case *c = &flag_cases[i];
		if (!c->clear)
			continue;
		struct ct_mount_flags f;
		char *alone[] = {(char *)c->name};
		cr_assert_eq(ct_mount_flags_parse(alone, 1, &f), 0);
		cr_expect_eq(f.flags, 0, "%s alone: flags %#lx", c->name, f.flags);
		expect_nothing_else(&f, c->name);
		free(f.data);

		char *after[] = {"nosuid",   "nodev",	    "noexec",  "ro",
				 "sync",     "mand",	    "noatime", "nodiratime",
				 "relatime", "strictatime", "silent",  (char *)c->name};
		unsigned long all = MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY | MS_SYNCHRONOUS |
				    MS_MANDLOCK | MS_NOATIME | MS_NODIRATIME | MS_RELATIME |
				    MS_STRICTATIME | MS_SILENT;
		cr_assert_eq(all & c->clear, c->clear, "%s: test list lacks its opposite", c->name);
		cr_assert_eq(ct_mount_flags_parse(after, N(after), &f), 0);
		cr_expect_eq(f.flags, all & ~c->clear, "%s last: flags %#lx, expected %#lx",
			     c->name, f.flags, all & ~c->clear);
		free(f.data);
	}
}

Test(mount_options, later_option_overrides_earlier)
{
	struct ct_mount_flags f;
	PARSE(&f, "ro", "rw");
	cr_expect_eq(f.flags & MS_RDONLY, 0, "ro then rw is writable");
	free(f.data);

	PARSE(&f, "rw", "ro");
	cr_expect_eq(f.flags & MS_RDONLY, MS_RDONLY, "rw then ro is read-only");
	free(f.data);

	PARSE(&f, "nosuid", "suid", "nosuid", "exec", "noexec", "dev");
	cr_expect_eq(f.flags, MS_NOSUID | MS_NOEXEC);
	free(f.data);
}

Test(mount_options, typical_proc_and_tmpfs_options)
{
	struct ct_mount_flags f;
	PARSE(&f, "nosuid", "noexec", "nodev", "ro");
	cr_expect_eq(f.flags, MS_NOSUID | MS_NOEXEC | MS_NODEV | MS_RDONLY);
	expect_nothing_else(&f, "proc");
	free(f.data);

	PARSE(&f, "nosuid", "strictatime", "mode=755", "size=65536k");
	cr_expect_eq(f.flags, MS_NOSUID | MS_STRICTATIME);
	cr_assert_not_null(f.data);
	cr_expect_str_eq(f.data, "mode=755,size=65536k");
	free(f.data);
}

struct propagation_case {
	const char *name;
	unsigned long propagation;
};

static const struct propagation_case propagation_cases[] = {
	{"private", MS_PRIVATE},       {"rprivate", MS_PRIVATE | MS_REC},
	{"shared", MS_SHARED},	       {"rshared", MS_SHARED | MS_REC},
	{"slave", MS_SLAVE},	       {"rslave", MS_SLAVE | MS_REC},
	{"unbindable", MS_UNBINDABLE}, {"runbindable", MS_UNBINDABLE | MS_REC},
};

Test(mount_options, propagation_options_go_to_propagation_not_flags)
{
	for (size_t i = 0; i < N(propagation_cases); i++) {
		const struct propagation_case *c = &propagation_cases[i];
		struct ct_mount_flags f;
		char *opts[] = {(char *)c->name};
		cr_assert_eq(ct_mount_flags_parse(opts, 1, &f), 0);
		cr_expect_eq(f.propagation, c->propagation, "%s: propagation %#lx, expected %#lx",
			     c->name, f.propagation, c->propagation);
		cr_expect_eq(f.flags, 0, "%s: flags %#lx", c->name, f.flags);
		cr_expect_not(f.bind, "%s", c->name);
		cr_expect_null(f.data, "%s: data \"%s\"", c->name, f.data);
		free(f.data);
	}
}

Test(mount_options, last_propagation_wins)
{
	struct ct_mount_flags f;
	PARSE(&f, "rshared", "private");
	cr_expect_eq(f.propagation, MS_PRIVATE, "no MS_REC left over from rshared");
	free(f.data);

	PARSE(&f, "slave", "rprivate", "ro");
	cr_expect_eq(f.propagation, MS_PRIVATE | MS_REC);
	cr_expect_eq(f.flags, MS_RDONLY);
	free(f.data);
}

Test(mount_options, bind_and_rbind)
{
	struct ct_mount_flags f;
	PARSE(&f, "bind");
	cr_expect(f.bind);
	cr_expect_not(f.recursive_bind);
	cr_expect_eq(f.flags, 0, "MS_BIND is not mixed into the remount flags");
	cr_expect_null(f.data);
	free(f.data);

	PARSE(&f, "rbind");
	cr_expect(f.bind, "rbind is a bind");
	cr_expect(f.recursive_bind);
	cr_expect_eq(f.flags, 0);
	cr_expect_null(f.data);
	free(f.data);

	PARSE(&f, "rbind", "ro", "rprivate");
	cr_expect(f.bind);
	cr_expect(f.recursive_bind);
	cr_expect_eq(f.flags, MS_RDONLY);
	cr_expect_eq(f.propagation, MS_PRIVATE | MS_REC);
	free(f.data);
}

Test(mount_options, unknown_options_become_data_in_order)
{
	struct ct_mount_flags f;
	PARSE(&f, "size=64k", "nosuid", "mode=755");
	cr_assert_not_null(f.data);
	cr_expect_str_eq(f.data, "size=64k,mode=755");
	cr_expect_eq(f.flags, MS_NOSUID);
	free(f.data);

	PARSE(&f, "newinstance");
	cr_assert_not_null(f.data);
	cr_expect_str_eq(f.data, "newinstance");
	free(f.data);

	PARSE(&f, "ptmxmode=0666", "mode=0620", "gid=5");
	cr_assert_not_null(f.data);
	cr_expect_str_eq(f.data, "ptmxmode=0666,mode=0620,gid=5");
	free(f.data);
}

Test(mount_options, empty_list_is_all_zero)
{
	struct ct_mount_flags f;
	memset(&f, 0xa5, sizeof(f)); /* the parser must not rely on a zeroed output */
	cr_assert_eq(ct_mount_flags_parse(NULL, 0, &f), 0);
	cr_expect_eq(f.flags, 0);
	cr_expect_eq(f.propagation, 0);
	cr_expect_not(f.bind);
	cr_expect_not(f.recursive_bind);
	cr_expect_null(f.data);
}

Test(mount_options, option_names_are_case_sensitive)
{
	/* mount(8) spells them in lower case; "RO" is not an option, so it is passed on as data
	 * for the filesystem to judge rather than silently meaning read-only. */
	struct ct_mount_flags f;
	PARSE(&f, "RO");
	cr_expect_eq(f.flags, 0);
	cr_assert_not_null(f.data);
	cr_expect_str_eq(f.data, "RO");
	free(f.data);
}

struct recursive_case {
	const char *name;
	unsigned set, clear;
};

/* The recursive options of config-linux.md, as mount_setattr() wants them. */
static const struct recursive_case recursive_cases[] = {
	{"rro", MOUNT_ATTR_RDONLY, 0},
	{"rrw", 0, MOUNT_ATTR_RDONLY},
	{"rnosuid", MOUNT_ATTR_NOSUID, 0},
	{"rsuid", 0, MOUNT_ATTR_NOSUID},
	{"rnodev", MOUNT_ATTR_NODEV, 0},
	{"rdev", 0, MOUNT_ATTR_NODEV},
	{"rnoexec", MOUNT_ATTR_NOEXEC, 0},
	{"rexec", 0, MOUNT_ATTR_NOEXEC},
	{"rnodiratime", MOUNT_ATTR_NODIRATIME, 0},
	{"rdiratime", 0, MOUNT_ATTR_NODIRATIME},
	{"rnosymfollow", MOUNT_ATTR_NOSYMFOLLOW, 0},
	{"rsymfollow", 0, MOUNT_ATTR_NOSYMFOLLOW},
	{"rnoatime", MOUNT_ATTR_NOATIME, MOUNT_ATTR__ATIME},
	{"rstrictatime", MOUNT_ATTR_STRICTATIME, MOUNT_ATTR__ATIME},
	{"rrelatime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME},
	{"ratime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME},
};

Test(mount_options, recursive_options_become_mount_attributes)
{
	for (size_t i = 0; i < N(recursive_cases); i++) {
		const struct recursive_case *c = &recursive_cases[i];
		struct ct_mount_flags f;
		char *opts[] = {(char *)c->name};
		cr_assert_eq(ct_mount_flags_parse(opts, 1, &f), 0);
		cr_expect_eq(f.rec_set, c->set, "%s: set %#x, expected %#x", c->name, f.rec_set,
			     c->set);
		cr_expect_eq(f.rec_clear, c->clear, "%s: clear %#x, expected %#x", c->name,
			     f.rec_clear, c->clear);
		cr_expect_eq(f.flags, 0, "%s: not a per-mount flag", c->name);
		expect_nothing_else(&f, c->name);
		free(f.data);
	}
}

Test(mount_options, later_recursive_option_wins)
{
	struct ct_mount_flags f;
	PARSE(&f, "rro", "rnosuid", "rrw");
	cr_expect_eq(f.rec_set, MOUNT_ATTR_NOSUID);
	cr_expect_eq(f.rec_clear, MOUNT_ATTR_RDONLY);
	free(f.data);

	PARSE(&f, "rnoatime", "rstrictatime", "ro");
	cr_expect_eq(f.rec_set, MOUNT_ATTR_STRICTATIME, "one atime mode, the last");
	cr_expect_eq(f.rec_clear, MOUNT_ATTR__ATIME);
	cr_expect_eq(f.flags, MS_RDONLY, "ro stays a per-mount flag");
	free(f.data);
}

Test(mount_options, idmap_is_noted_not_passed_as_data)
{
	struct ct_mount_flags f;
	PARSE(&f, "bind", "idmap");
	cr_expect(f.idmap);
	cr_expect_not(f.ridmap);
	cr_expect_eq(f.idmap_tree, -1, "no mount made yet");
	cr_expect_null(f.data);
	free(f.data);
}

Test(mount_options, ridmap_is_a_recursive_idmap)
{
	struct ct_mount_flags f;
	PARSE(&f, "rbind", "ridmap");
	cr_expect(f.idmap);
	cr_expect(f.ridmap);
	cr_expect(f.recursive_bind);
	cr_expect_null(f.data);
	free(f.data);
}

static void assert_split(const char *data, const char *const *want)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", data);
	char *cursor = buf, *opt;
	size_t i = 0;
	while ((opt = ct_mount_data_next(&cursor))) {
		cr_assert_not_null(want[i], "\"%s\": extra option \"%s\"", data, opt);
		cr_expect_str_eq(opt, want[i], "\"%s\": option %zu", data, i);
		i++;
	}
	cr_expect_null(want[i], "\"%s\": option \"%s\" missing", data, want[i]);
}

Test(mount_options, data_split_keeps_quoted_commas)
{
	assert_split("size=64k,mode=755", (const char *const[]){"size=64k", "mode=755", NULL});
	assert_split(
		"context=\"system_u:object_r:container_file_t:s0:c1,c2\",mode=755",
		(const char *const[]){"context=\"system_u:object_r:container_file_t:s0:c1,c2\"",
				      "mode=755", NULL});
	assert_split(",,a,,b,", (const char *const[]){"a", "b", NULL});
	assert_split("", (const char *const[]){NULL});
	assert_split("flag", (const char *const[]){"flag", NULL});
}

/* "tmpcopyup" is a runtime action, never filesystem data (tmpfs would refuse it). */
Test(mount_options, tmpcopyup_is_a_flag_not_data)
{
	struct ct_mount_flags f;
	PARSE(&f, "tmpcopyup", "nosuid", "size=1m");
	cr_expect(f.tmpcopyup);
	cr_expect_eq(f.flags, MS_NOSUID);
	cr_assert_not_null(f.data);
	cr_expect_str_eq(f.data, "size=1m");
	free(f.data);

	PARSE(&f, "nosuid", "size=1m");
	cr_expect_not(f.tmpcopyup);
	free(f.data);
}
