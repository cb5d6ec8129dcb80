/* config-linux.md#mount-options: the option strings of a mount -> mount(2) flags, propagation,
 * bind and the filesystem data, without mounting anything. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/fs/mount_options.h"
#include "libct/base/syscalls.h"
#include "tests/unit/util_linux.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Parses a literal list; the caller frees out->data. */
#define PARSE(out, ...)                                                        \
	do {                                                                   \
		char *const opts_[] = {__VA_ARGS__};                           \
		cr_assert_eq(ct_mount_flags_parse(opts_, N(opts_), (out)), 0); \
	} while (0)

/* The per-mount options of config-linux.md (and mount(8)) that are mount(2) flags. Which
 * flag each one sets or clears is not restated here: util-linux's libmount, which mount(8)
 * parses its options with, says (see util_linux_flags). */
static const char *const flag_names[] = {
	"ro",	       "rw",	     "nosuid",	    "suid",	     "nodev",	 "dev",
	"noexec",      "exec",	     "sync",	    "async",	     "dirsync",	 "remount",
	"mand",	       "nomand",     "atime",	    "noatime",	     "diratime", "nodiratime",
	"relatime",    "norelatime", "strictatime", "nostrictatime", "silent",	 "loud",
	"nosymfollow",
};

static void expect_nothing_else(const struct ct_mount_flags *f, const char *name)
{
	cr_expect_eq(f->propagation, 0, "%s: no propagation", name);
	cr_expect_not(f->bind, "%s: not a bind", name);
	cr_expect_not(f->recursive_bind, "%s: not an rbind", name);
	cr_expect_null(f->data, "%s: not filesystem data (got \"%s\")", name, f->data);
}

/* The flags of option name given alone, which must be nothing but flags. */
static unsigned long flags_alone(const char *name)
{
	struct ct_mount_flags f;
	char *alone[] = {(char *)name};
	cr_assert_eq(ct_mount_flags_parse(alone, 1, &f), 0, "%s", name);
	expect_nothing_else(&f, name);
	free(f.data);
	return f.flags;
}

Test(mount_options, each_setting_option_sets_exactly_its_flag_as_mount8_does)
{
	for (size_t i = 0; i < N(flag_names); i++) {
		struct util_linux_flags want = util_linux_flags(flag_names[i]);
		unsigned long got = flags_alone(flag_names[i]);
		if (want.set)
			cr_expect_eq(got, want.set, "%s: flags %#lx, mount(8) sets %#lx",
				     flag_names[i], got, want.set);
	}
}

/* A clearing option alone leaves nothing set; after every setting option it removes the bit
 * mount(8) clears, and only that one. */
Test(mount_options, each_clearing_option_clears_exactly_its_flag_as_mount8_does)
{
	char *after[N(flag_names) + 1];
	unsigned long all = 0;
	size_t n = 0;
	for (size_t i = 0; i < N(flag_names); i++) {
		struct util_linux_flags u = util_linux_flags(flag_names[i]);
		if (u.set && strcmp(flag_names[i], "remount") != 0) {
			after[n++] = (char *)flag_names[i];
			all |= u.set;
		}
	}
	for (size_t i = 0; i < N(flag_names); i++) {
		struct util_linux_flags want = util_linux_flags(flag_names[i]);
		if (!want.clear)
			continue;
		unsigned long alone = flags_alone(flag_names[i]);
		cr_expect_eq(alone, 0, "%s alone: flags %#lx", flag_names[i], alone);

		struct ct_mount_flags f;
		after[n] = (char *)flag_names[i];
		cr_assert_eq(all & want.clear, want.clear, "%s: no option sets what it clears",
			     flag_names[i]);
		cr_assert_eq(ct_mount_flags_parse(after, n + 1, &f), 0);
		cr_expect_eq(f.flags, all & ~want.clear, "%s last: flags %#lx, expected %#lx",
			     flag_names[i], f.flags, all & ~want.clear);
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

/* The recursive options of config-linux.md: "r" before a per-mount option. What each does is
 * not restated as attribute bits: the kernel shows it (see recursive_option_result). */
static const char *const recursive_names[] = {
	"rro",	    "rrw",	    "rnosuid",	   "rsuid",	"rnodev",	"rdev",
	"rnoexec",  "rexec",	    "rnodiratime", "rdiratime", "rnosymfollow", "rsymfollow",
	"rnoatime", "rstrictatime", "rrelatime",   "ratime",	"rnorelatime",	"rnostrictatime",
};

/* The per-mount words of /proc/self/mountinfo (show_mnt_opts() and "ro"/"rw" in the kernel);
 * strictatime has none. A set of them is a bit mask over this list. */
static const char *const mountinfo_words[] = {"ro",	    "rw",	"nosuid",
					      "nodev",	    "noexec",	"noatime",
					      "nodiratime", "relatime", "nosymfollow"};

static unsigned word_bit(const char *word)
{
	for (size_t i = 0; i < N(mountinfo_words); i++)
		if (strcmp(mountinfo_words[i], word) == 0)
			return 1u << i;
	cr_assert_fail("mountinfo word \"%s\" is not one the test knows", word);
	return 0;
}

/* The per-mount options of the mount at dir, as a set of words. */
static unsigned mountinfo_options(const char *dir)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	cr_assert_not_null(f);
	char line[4096], point[4096], options[512];
	unsigned words = 0;
	bool found = false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %*s %*s %4095s %511s", point, options) == 2 &&
		    strcmp(point, dir) == 0) {
			found = true; /* the last one: the mount on top */
			words = 0;
			for (char *save, *w = strtok_r(options, ",", &save); w;
			     w = strtok_r(NULL, ",", &save))
				words |= word_bit(w);
		}
	fclose(f);
	cr_assert(found, "no mount at %s", dir);
	return words;
}

/* What mount(8) says "r"+option does to a mount whose words are from: the option's own word
 * appears ("nosuid"), or its "no" form goes ("suid"); ro and rw replace each other; the atime
 * options choose one mode: noatime, strictatime (no word) or the default, relatime. */
static unsigned recursive_option_result(const char *name, unsigned from)
{
	const char *option = name + 1;
	unsigned atime = word_bit("noatime") | word_bit("relatime");
	if (strcmp(option, "ro") == 0 || strcmp(option, "rw") == 0)
		return (from & ~(word_bit("ro") | word_bit("rw"))) | word_bit(option);
	if (strstr(option, "atime") && !strstr(option, "diratime")) {
		if (strcmp(option, "noatime") == 0)
			return (from & ~atime) | word_bit("noatime");
		if (strcmp(option, "strictatime") == 0)
			return from & ~atime;
		return (from & ~atime) | word_bit("relatime");
	}
	if (strncmp(option, "no", 2) == 0)
		return from | word_bit(option);
	char negated[64];
	snprintf(negated, sizeof(negated), "no%s", option);
	return from & ~word_bit(negated);
}

/* Sets the whole tree at dir to attributes set (clearing what clear names). */
static void set_tree(const char *dir, uint64_t set, uint64_t clear)
{
	struct mount_attr attr = {.attr_set = set, .attr_clr = clear};
	cr_assert_eq(ct_mount_setattr(AT_FDCWD, dir, AT_RECURSIVE, &attr, sizeof(attr)), 0,
		     "mount_setattr %s: %s", dir, strerror(errno));
}

/* A tmpfs at dir with another at dir/sub, in a private mount namespace of the test's
 * process; skips unless it may mount. */
static void make_tree(char *dir, char *sub, size_t size)
{
	if (unshare(CLONE_NEWNS) != 0)
		cr_skip("no mount namespace of our own: %s", strerror(errno));
	cr_assert_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	cr_assert_eq(mount("tmpfs", dir, "tmpfs", 0, NULL), 0, "tmpfs: %s", strerror(errno));
	snprintf(sub, size, "%s/sub", dir);
	cr_assert_eq(mkdir(sub, 0755), 0);
	cr_assert_eq(mount("tmpfs", sub, "tmpfs", 0, NULL), 0, "tmpfs: %s", strerror(errno));
}

/* Each recursive option, parsed and applied with mount_setattr(AT_RECURSIVE) as ctrun does,
 * from a mount with every attribute clear and from one with every attribute set: the mount
 * below changes as mount(8) says the option changes a mount. */
Test(mount_options, recursive_options_do_to_the_kernel_what_mount8_says)
{
	char dir[] = "/tmp/ctrun-mount-options.XXXXXX", sub[64];
	make_tree(dir, sub, sizeof(sub));
	const uint64_t all = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			     MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NODIRATIME | MOUNT_ATTR_NOSYMFOLLOW;
	const struct {
		uint64_t set, clear;
	} starts[] = {{MOUNT_ATTR_RELATIME, all | MOUNT_ATTR__ATIME},
		      {all | MOUNT_ATTR_NOATIME, MOUNT_ATTR__ATIME}};
	for (size_t i = 0; i < N(recursive_names); i++)
		for (size_t k = 0; k < N(starts); k++) {
			const char *name = recursive_names[i];
			set_tree(dir, starts[k].set, starts[k].clear);
			unsigned from = mountinfo_options(sub);
			struct ct_mount_flags f;
			char *opts[] = {(char *)name};
			cr_assert_eq(ct_mount_flags_parse(opts, 1, &f), 0);
			cr_expect_eq(f.flags, 0, "%s: not a per-mount flag", name);
			expect_nothing_else(&f, name);
			set_tree(dir, f.rec_set, f.rec_clear);
			unsigned got = mountinfo_options(sub),
				 want = recursive_option_result(name, from);
			cr_expect_eq(got, want,
				     "%s from %#x: mountinfo words %#x, mount(8) says %#x", name,
				     from, got, want);
			free(f.data);
		}
	umount2(dir, MNT_DETACH);
	rmdir(dir);
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

Test(mount_options, own_options_of_a_new_filesystem_win_over_recursive_ones)
{
	struct ct_mount_flags f;
	PARSE(&f, "ro", "rrw", "noatime", "rrelatime", "rnosuid");
	cr_expect_eq(f.flags, MS_RDONLY | MS_NOATIME);
	cr_expect_eq(f.rec_clear, 0, "rrw and rrelatime yield to ro and noatime");
	cr_expect_eq(f.rec_set, MOUNT_ATTR_NOSUID);
	free(f.data);

	PARSE(&f, "rbind", "ro", "rrw");
	cr_expect_eq(f.rec_clear, MOUNT_ATTR_RDONLY, "a bind's recursive options come after");
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
