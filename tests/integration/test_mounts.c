/* The root filesystem: every mount type and option of config-linux.md, devices,
 * masked and read-only paths, root.readonly and rootfsPropagation, each checked from inside
 * the container through /proc/self/mountinfo and by trying what the option forbids; the
 * fallbacks (no new mount API, no openat2, no fchmodat2, mknod refused) under the enosys
 * helper, whose mounts and devices must come out as without it; linux.mountLabel on a host
 * without SELinux; and bad input, id-mapped mounts among it. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(mounts, .fini = lc_cleanup);

#define ID "mnt"

/* A writable-root bundle: the options under test are the only read-only ones. */
static void mt_init(struct lc *t)
{
	lc_init(t);
	ctt_config_set(t->bundle, ".root.readonly", "false");
}

/* A host directory (under a new tmpdir) holding a file "f" with text "host". */
static char *host_dir(void)
{
	char *dir = ctt_tmpdir();
	char *f = ctt_path(dir, "f");
	ctt_write_file(f, "host");
	free(f);
	return dir;
}

/* A tmpfs on dir/sub: a bind source with a submount. */
static void host_submount(const char *dir)
{
	char *sub = ctt_path(dir, "sub");
	ctt_mkdir_p(sub);
	ctt_mount_tmpfs(sub, 0, "size=1m");
	free(sub);
}

/* mt_init(t) and a host_dir() with a submount, returned. */
static char *submount_bundle(struct lc *t)
{
	mt_init(t);
	char *dir = host_dir();
	host_submount(dir);
	return dir;
}

/* dir/name on the host holds want, what the container wrote there; why: else. */
static void expect_host_text(const char *dir, const char *name, const char *want, const char *why)
{
	char *path = ctt_path(dir, name), *text = ctt_read_file(path);
	cr_expect_str_eq(text, want, "%s", why);
	free(text);
	free(path);
}

/* ---- reading mountinfo ---- */

/* Field i (0-based, space-separated) of a mountinfo line, malloc'd ("" when absent). */
static char *field(const char *line, unsigned i)
{
	while (i-- && line)
		if ((line = strchr(line, ' ')))
			line++;
	if (!line)
		return strdup("");
	return strndup(line, strcspn(line, " \n"));
}

/* The line of mountinfo whose mount point is dest; the last one, the top of a stack. */
static char *mount_line(const char *mountinfo, const char *dest)
{
	char *found = NULL;
	for (const char *l = mountinfo; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
		char *point = field(l, 4);
		if (strcmp(point, dest) == 0) {
			free(found);
			found = strndup(l, strcspn(l, "\n"));
		}
		free(point);
	}
	return found;
}

/* Whether the line's per-mount options (field 5) have opt. */
static bool has_option(const char *line, const char *opt)
{
	char *opts = field(line, 5);
	bool found = ctt_in_list(opts, opt);
	free(opts);
	return found;
}

/* Whether an optional field (between field 5 and "-") starts with tag ("shared:"). */
static bool has_tag(const char *line, const char *tag)
{
	bool found = false, stop = false;
	for (unsigned i = 6; !found && !stop; i++) {
		char *f = field(line, i);
		stop = !*f || strcmp(f, "-") == 0;
		found = !stop && strncmp(f, tag, strlen(tag)) == 0;
		free(f);
	}
	return found;
}

/* What follows " - ": i = 0 the type, 1 the source, 2 the super options. */
static char *super_field(const char *line, unsigned i)
{
	const char *p = strstr(line, " - ");
	cr_assert_not_null(p, "no \" - \" in mountinfo line: %s", line);
	return field(p + 3, i);
}

/* The line of dest, which must be there with that fs type; malloc'd. */
static char *assert_mounted(const char *mountinfo, const char *dest, const char *type)
{
	char *line = mount_line(mountinfo, dest);
	cr_assert_not_null(line, "nothing mounted on %s:\n%s", dest, mountinfo);
	char *got = super_field(line, 0);
	cr_expect_str_eq(got, type, "%s: %s", dest, line);
	free(got);
	return line;
}

/* dest's line has what (by has()) or not, as want says. */
static void expect_line(const char *mountinfo, const char *dest, const char *what, bool want,
			bool (*has)(const char *, const char *))
{
	char *line = mount_line(mountinfo, dest);
	cr_assert_not_null(line, "nothing mounted on %s:\n%s", dest, mountinfo);
	cr_expect_eq(has(line, what), want, "%s %s \"%s\": %s", dest, want ? "lacks" : "has", what,
		     line);
	free(line);
}

static void assert_option(const char *mountinfo, const char *dest, const char *opt, bool want)
{
	expect_line(mountinfo, dest, opt, want, has_option);
}

static void expect_tag(const char *mountinfo, const char *dest, const char *tag, bool want)
{
	expect_line(mountinfo, dest, tag, want, has_tag);
}

static void expect_not_mounted(const char *mountinfo, const char *dest)
{
	char *line = mount_line(mountinfo, dest);
	cr_expect_null(line, "%s is mounted: %s", dest, line);
	free(line);
}

/* ---- trying things inside ---- */

/* Shell that prints "name=ok" or "name=fail" as cmd succeeds or not. */
#define TRY(name, cmd) \
	"if " cmd " 2>/dev/null; then echo " name "=ok; else echo " name "=fail; fi; "
#define MOUNTINFO "cat /proc/self/mountinfo; "

static void expect_result(const char *out, const char *name, bool ok)
{
	char re[128];
	snprintf(re, sizeof(re), "^%s=%s$", name, ok ? "ok" : "fail");
	cr_expect(ctt_matches(out, re), "expected %s=%s in:\n%s", name, ok ? "ok" : "fail", out);
}

/* An option or tag of dest's mountinfo line, there (yes) or not. */
struct want {
	const char *dest, *what;
	bool yes;
};

/* What a test adds, runs after MOUNTINFO, and expects; lists end at a NULL first member. */
struct mount_case {
	const char *tmpfs[6][2];   /* {destination, options}, added to the bundle first */
	const char *script;	   /* NULL: only MOUNTINFO */
	const char *mounted[4][2]; /* {destination, fs type} */
	struct want options[10], tags[10];
	struct {
		const char *name;
		bool ok;
	} results[6]; /* of TRY() in the script */
};

/* Runs c in t (a new mt_init() bundle when NULL); returns the output, malloc'd. */
static char *assert_case(struct lc *t, const struct mount_case *c)
{
	struct lc fresh;
	if (!t)
		mt_init(t = &fresh);
	for (size_t i = 0; i < 6 && c->tmpfs[i][0]; i++)
		lc_add_tmpfs(t, c->tmpfs[i][0], c->tmpfs[i][1]);
	char *script;
	cr_assert_geq(asprintf(&script, MOUNTINFO "%s", c->script ? c->script : ""), 0);
	char *out = lc_sh_output(t, script);
	free(script);
	for (size_t i = 0; i < 4 && c->mounted[i][0]; i++)
		free(assert_mounted(out, c->mounted[i][0], c->mounted[i][1]));
	for (const struct want *w = c->options; w < c->options + 10 && w->dest; w++)
		assert_option(out, w->dest, w->what, w->yes);
	for (const struct want *w = c->tags; w < c->tags + 10 && w->dest; w++)
		expect_tag(out, w->dest, w->what, w->yes);
	for (size_t i = 0; i < 6 && c->results[i].name; i++)
		expect_result(out, c->results[i].name, c->results[i].ok);
	return out;
}

/* ---- types ---- */

Test(mounts, bind_of_a_directory_and_of_a_file)
{
	struct lc t;
	mt_init(&t);
	char *dir = host_dir(), *file = ctt_path(dir, "f");
	lc_add_mount(&t, "/hostdir", "bind", dir, "bind");
	lc_add_mount(&t, "/etc/hostfile", "bind", file, "bind");
	char *out = lc_sh_output(&t, MOUNTINFO "cat /hostdir/f; echo; cat /etc/hostfile; echo; "
					       "echo inside > /hostdir/g");
	char *d = mount_line(out, "/hostdir"), *f = mount_line(out, "/etc/hostfile");
	cr_expect_not_null(d, "no /hostdir in:\n%s", out);
	cr_expect_not_null(f, "no /etc/hostfile in:\n%s", out);
	cr_expect(strstr(out, "\nhost\nhost\n"), "%s", out);
	expect_host_text(dir, "g", "inside\n", "the bind is not the host directory");
	free(d);
	free(f);
	free(out);
	free(file);
	free(dir);
}

/* Type "bind" is a bind without "bind" in the options, as config.md's examples write it
 * (runc 1.1.5 and crun 1.8.1 hand "bind" to mount(2) as a filesystem type: ENODEV). */
Test(mounts, bind_type_without_a_bind_option)
{
	struct lc t;
	mt_init(&t);
	char *dir = host_dir();
	lc_add_mount(&t, "/typed", "bind", dir, NULL);
	char *out = lc_sh_output(&t, MOUNTINFO "cat /typed/f; echo; echo inside > /typed/g");
	char *line = mount_line(out, "/typed");
	cr_expect_not_null(line, "no /typed in:\n%s", out);
	cr_expect(strstr(out, "\nhost\n"), "%s", out);
	expect_host_text(dir, "g", "inside\n", "the bind is not the host directory");
	free(line);
	free(out);
	free(dir);
}

Test(mounts, rbind_brings_the_submounts_and_bind_does_not)
{
	static const struct mount_case c = {.mounted = {{"/r/sub", "tmpfs"}}};
	struct lc t;
	char *dir = submount_bundle(&t);
	lc_add_mount(&t, "/b", "bind", dir, "bind");
	lc_add_mount(&t, "/r", "bind", dir, "rbind");
	char *out = assert_case(&t, &c);
	char *b = mount_line(out, "/b");
	cr_expect_not_null(b, "no /b in:\n%s", out);
	expect_not_mounted(out, "/b/sub");
	free(b);
	free(out);
	free(dir);
}

/* A bind whose options name none of nosuid, nodev, noexec keeps those of its source, as under
 * runc: `docker run --ipc container:X` binds X's /dev/shm (a tmpfs mounted nosuid, nodev,
 * noexec) with "rbind", "rprivate" alone; crun 1.8.1 clears them (crun-bind-source-flags). */
Test(mounts, bind_keeps_the_flags_of_its_source)
{
	static const char *const kept[] = {"nosuid", "nodev", "noexec"};
	struct lc t;
	mt_init(&t);
	char *dir = ctt_tmpdir();
	ctt_mount_tmpfs(dir, MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=1m");
	lc_add_mount(&t, "/shm", "bind", dir, "rbind,rprivate");
	char *out = lc_sh_output(&t, MOUNTINFO "echo inside > /shm/g");
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		assert_option(out, "/shm", kept[i], true);
	expect_host_text(dir, "g", "inside\n", "the bind is not the host's tmpfs");
	struct statfs host;
	cr_assert_eq(statfs(dir, &host), 0, "statfs %s: %s", dir, strerror(errno));
	cr_expect_eq(host.f_flags & (ST_NOSUID | ST_NODEV | ST_NOEXEC),
		     ST_NOSUID | ST_NODEV | ST_NOEXEC, "the host's mount lost its flags");
	free(out);
	free(dir);
}

Test(mounts, tmpfs_takes_its_data_options)
{
	static const struct mount_case c = {
		.tmpfs = {{"/t", "size=1m,mode=0711"}},
		.script = "stat -c 'mode=%a' /t",
		.mounted = {{"/t", "tmpfs"}},
	};
	char *out = assert_case(NULL, &c);
	char *line = mount_line(out, "/t"), *super = super_field(line, 2);
	cr_expect(ctt_in_list(super, "size=1024k") && ctt_in_list(super, "mode=711"), "%s", line);
	ctt_assert_line(out, "^mode=711$");
	free(super);
	free(line);
	free(out);
}

/* The default config's proc, sysfs, devpts (newinstance, ptmxmode=0666) and mqueue. */
Test(mounts, proc_sysfs_devpts_and_mqueue_at_their_destinations)
{
	struct lc t;
	mt_init(&t);
	char *out = lc_sh_output(&t, MOUNTINFO "ls -ln /dev/pts/ptmx; readlink /dev/ptmx; "
					       "cat /proc/self/comm");
	static const char *const want[][2] = {{"/proc", "proc"},
					      {"/sys", "sysfs"},
					      {"/dev/pts", "devpts"},
					      {"/dev/mqueue", "mqueue"},
					      {"/dev/shm", "tmpfs"}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		free(assert_mounted(out, want[i][0], want[i][1]));
	char *pts = mount_line(out, "/dev/pts"), *super = super_field(pts, 2);
	cr_expect(ctt_in_list(super, "ptmxmode=666"), "%s", pts);
	ctt_assert_line(out, "^crw-rw-rw- .* 5, +2 .*/dev/pts/ptmx$");
	ctt_assert_line(out, "^pts/ptmx$");
	cr_expect(ctt_matches(out, "^cat$"), "proc is not the container's: %s", out);
	free(super);
	free(pts);
	free(out);
}

/* Host mountinfo entries below /sys/fs/cgroup, as "dir type" lines. */
static char *host_cgroup_dirs(void)
{
	char *mi = ctt_read_file("/proc/self/mountinfo");
	char *list = calloc(1, strlen(mi) + 1);
	cr_assert_not_null(list);
	for (char *l = strtok(mi, "\n"); l; l = strtok(NULL, "\n")) {
		char *point = field(l, 4), *type = super_field(l, 0);
		if (strncmp(point, "/sys/fs/cgroup/", 15) == 0)
			sprintf(list + strlen(list), "%s %s\n", point, type);
		free(point);
		free(type);
	}
	free(mi);
	return list;
}

/* A v1/v2 hybrid host: a read-only tmpfs with one mount per hierarchy, cgroup2 at unified. */
Test(mounts, cgroup_shows_the_hosts_hierarchies)
{
	struct lc t;
	mt_init(&t);
	char *host = host_cgroup_dirs();
	if (!*host)
		ctt_skip("the host has no cgroup hierarchy below /sys/fs/cgroup");
	char *out = lc_sh_output(&t, MOUNTINFO TRY("write", "touch /sys/fs/cgroup/x"));
	char *top = assert_mounted(out, "/sys/fs/cgroup", "tmpfs");
	cr_expect(has_option(top, "ro"), "%s", top);
	for (char *l = strtok(host, "\n"); l; l = strtok(NULL, "\n")) {
		char *sp = strchr(l, ' ');
		*sp = '\0';
		char *line = assert_mounted(out, l, sp + 1);
		cr_expect(has_option(line, "ro") && has_option(line, "nosuid"), "%s", line);
		free(line);
	}
	expect_result(out, "write", false);
	free(top);
	free(out);
	free(host);
}

Test(mounts, overlay_of_bundle_directories)
{
	struct lc t;
	mt_init(&t);
	char *lower = ctt_path(t.bundle, "lower"), *upper = ctt_path(t.bundle, "upper");
	char *work = ctt_path(t.bundle, "work"), *lf = ctt_path(lower, "l");
	ctt_mkdir_p(upper);
	ctt_mkdir_p(work);
	ctt_mkdir_p(lower);
	ctt_write_file(lf, "lower");
	char *opts;
	cr_assert_geq(asprintf(&opts, "lowerdir=%s,upperdir=%s,workdir=%s", lower, upper, work), 0);
	lc_add_mount(&t, "/ov", "overlay", "overlay", opts);
	char *out = lc_sh_output(&t, MOUNTINFO "cat /ov/l; echo; echo new > /ov/n");
	free(assert_mounted(out, "/ov", "overlay"));
	ctt_assert_line(out, "^lower$");
	expect_host_text(upper, "n", "new\n", "the write did not go to the upper directory");
	free(out);
	free(opts);
	free(lf);
	free(work);
	free(upper);
	free(lower);
}

/* ---- options ---- */

Test(mounts, ro_refuses_writes)
{
	static const struct mount_case c = {
		.tmpfs = {{"/ro", "ro"}, {"/rw", "rw"}},
		.script = TRY("ro", "touch /ro/x") TRY("rw", "touch /rw/x"),
		.options = {{"/ro", "ro", true}, {"/rw", "rw", true}},
		.results = {{"ro", false}, {"rw", true}},
	};
	free(assert_case(NULL, &c));
}

Test(mounts, nosuid_is_shown)
{
	static const struct mount_case c = {
		.tmpfs = {{"/ns", "nosuid"}, {"/s", "suid"}},
		.options = {{"/ns", "nosuid", true}, {"/s", "nosuid", false}},
	};
	free(assert_case(NULL, &c));
}

/* The same device node (made by linux.devices) on a nodev mount and on a dev one. */
Test(mounts, nodev_refuses_opening_a_device)
{
	static const struct mount_case c = {
		.tmpfs = {{"/nd", "nodev"}, {"/d", "dev"}},
		.script = TRY("nodev", "cat /nd/null") TRY("dev", "cat /d/null") "ls -ln /nd/null",
		.options = {{"/nd", "nodev", true}, {"/d", "nodev", false}},
		.results = {{"nodev", false}, {"dev", true}},
	};
	struct lc t;
	mt_init(&t);
	lc_config_append(&t, ".linux.devices",
			 "{\"path\":\"/nd/null\",\"type\":\"c\",\"major\":1,\"minor\":3}");
	lc_config_append(&t, ".linux.devices",
			 "{\"path\":\"/d/null\",\"type\":\"c\",\"major\":1,\"minor\":3}");
	char *out = assert_case(&t, &c);
	cr_expect(ctt_matches(out, "^crw.* 1, +3 .*/nd/null$"), "the node is not there: %s", out);
	free(out);
}

/* A script and a binary copied onto a noexec mount do not run; on an exec one they do. */
Test(mounts, noexec_refuses_exec)
{
	/* busybox runs the applet its name says: "true" */
	static const struct mount_case c = {
		.tmpfs = {{"/nx", "noexec"}, {"/x", "exec"}},
		.script = "for d in /nx /x; do cp /bin/busybox $d/true; "
			  "printf '#!/bin/sh\\necho ran\\n' > $d/s; chmod 755 $d/s $d/true; "
			  "done; " TRY("nx_bin", "/nx/true") TRY("nx_script", "/nx/s")
				  TRY("x_bin", "/x/true") TRY("x_script", "/x/s"),
		.options = {{"/nx", "noexec", true}, {"/x", "noexec", false}},
		.results = {{"nx_bin", false},
			    {"nx_script", false},
			    {"x_bin", true},
			    {"x_script", true}},
	};
	free(assert_case(NULL, &c));
}

Test(mounts, atime_modes_are_shown)
{
	static const struct mount_case c = {
		.tmpfs = {{"/noatime", "noatime"},
			  {"/strict", "strictatime"},
			  {"/relatime", "relatime"},
			  {"/nodiratime", "nodiratime"}},
		.options = {{"/noatime", "noatime", true},
			    {"/strict", "relatime", false},
			    {"/strict", "noatime", false},
			    {"/relatime", "relatime", true},
			    {"/nodiratime", "nodiratime", true},
			    {"/noatime", "nodiratime", false}},
	};
	free(assert_case(NULL, &c));
}

Test(mounts, nosymfollow_refuses_following_a_symlink)
{
	static const struct mount_case c = {
		.tmpfs = {{"/nsf", "nosymfollow"}, {"/sf", NULL}},
		.script = "for d in /nsf /sf; do echo t > $d/f; ln -s f $d/l; done; " TRY(
			"nsf", "cat /nsf/l") TRY("sf", "cat /sf/l")
			TRY("readlink", "readlink /nsf/l"),
		.options = {{"/nsf", "nosymfollow", true}},
		.results = {{"nsf", false}, {"sf", true}, {"readlink", true}},
	};
	free(assert_case(NULL, &c));
}

/* ro on a bind needs a remount: the container cannot write, the host directory still can. */
Test(mounts, ro_bind_is_read_only_inside_only)
{
	static const struct mount_case c = {
		.script = TRY("write", "touch /hostdir/x") "cat /hostdir/f",
		.options = {{"/hostdir", "ro", true}},
		.results = {{"write", false}},
	};
	struct lc t;
	mt_init(&t);
	char *dir = host_dir();
	lc_add_mount(&t, "/hostdir", "bind", dir, "bind,ro");
	char *out = assert_case(&t, &c);
	cr_expect(strstr(out, "\nhost"), "%s", out);
	char *x = ctt_path(dir, "x");
	cr_expect(!ctt_exists(x));
	ctt_write_file(x, "still writable");
	free(x);
	free(out);
	free(dir);
}

/* "ro" makes the top of an rbind read-only, "rro" the submount too. */
Test(mounts, rro_reaches_the_submounts_and_ro_does_not)
{
	static const struct mount_case c = {
		.script = TRY("ro_top", "touch /ro/x") TRY("ro_sub", "touch /ro/sub/x")
			TRY("rro_top", "touch /rro/x") TRY("rro_sub", "touch /rro/sub/y"),
		.options = {{"/ro", "ro", true},
			    {"/ro/sub", "rw", true},
			    {"/rro", "ro", true},
			    {"/rro/sub", "ro", true}},
		.results = {{"ro_top", false},
			    {"ro_sub", true},
			    {"rro_top", false},
			    {"rro_sub", false}},
	};
	struct lc t;
	char *dir = submount_bundle(&t);
	lc_add_mount(&t, "/ro", "bind", dir, "rbind,ro");
	lc_add_mount(&t, "/rro", "bind", dir, "rbind,rro");
	free(assert_case(&t, &c));
	free(dir);
}

/* A recursive option on a mount of its own (no bind) applies to that mount, as crun does;
 * the mount check expects it there instead of refusing the container. */
Test(mounts, recursive_flags_on_a_tmpfs_apply_to_it)
{
	static const struct mount_case c = {
		.tmpfs = {{"/rro", "rro"}, {"/rflags", "rnosuid,rnodev,rnoexec"}},
		.script = TRY("rro", "touch /rro/x") TRY("rflags", "touch /rflags/x"),
		.mounted = {{"/rro", "tmpfs"}, {"/rflags", "tmpfs"}},
		.options = {{"/rro", "ro", true},
			    {"/rflags", "rw", true},
			    {"/rflags", "nosuid", true},
			    {"/rflags", "nodev", true},
			    {"/rflags", "noexec", true}},
		.results = {{"rro", false}, {"rflags", true}},
	};
	free(assert_case(NULL, &c));
}

/* A tmpfs's own options win over its recursive ones on the same bits, as under runc 1.1.5
 * and crun 1.8.1: ["ro","rrw"] stays read-only (it showed rw, its superblock ro), and
 * ["noatime","rrelatime"] keeps noatime (the mount check refused it). */
Test(mounts, own_options_of_a_tmpfs_win_over_its_recursive_ones)
{
	static const struct mount_case c = {
		.tmpfs = {{"/rorrw", "ro,rrw"}, {"/noatime", "noatime,rrelatime"}},
		.script = TRY("rorrw", "touch /rorrw/x") TRY("noatime", "touch /noatime/x"),
		.mounted = {{"/rorrw", "tmpfs"}, {"/noatime", "tmpfs"}},
		.options = {{"/rorrw", "ro", true},
			    {"/rorrw", "rw", false},
			    {"/noatime", "noatime", true},
			    {"/noatime", "relatime", false}},
		.results = {{"rorrw", false}, {"noatime", true}},
	};
	free(assert_case(NULL, &c));
}

Test(mounts, recursive_flags_reach_the_submounts)
{
	struct lc t;
	char *dir = submount_bundle(&t);
	lc_add_mount(&t, "/r", "bind", dir, "rbind,rnosuid,rnodev,rnoexec,rnoatime");
	lc_add_mount(&t, "/p", "bind", dir, "rbind,nosuid,nodev,noexec,noatime");
	char *out = lc_sh_output(&t, MOUNTINFO);
	static const char *const flags[] = {"nosuid", "nodev", "noexec", "noatime"};
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		assert_option(out, "/r", flags[i], true);
		assert_option(out, "/r/sub", flags[i], true);
		assert_option(out, "/p", flags[i], true);
		assert_option(out, "/p/sub", flags[i], false);
	}
	free(out);
	free(dir);
}

/* A shared tmpfs, binds of it made slaves of it, and the other propagation types. */
Test(mounts, propagation_options_are_shown)
{
	static const struct mount_case c = {
		.tmpfs = {{"/rshared", "rshared"},
			  {"/unbindable", "unbindable"},
			  {"/private", "private"}},
		.tags = {{"/shared", "shared:", true},
			 {"/rshared", "shared:", true},
			 {"/slave", "master:", true},
			 {"/slave", "shared:", false},
			 {"/rslave", "master:", true},
			 {"/unbindable", "unbindable", true},
			 {"/private", "shared:", false},
			 {"/private", "master:", false}},
	};
	struct lc t;
	mt_init(&t);
	lc_add_tmpfs(&t, "/shared", "shared");
	lc_add_mount(&t, "/slave", "bind", "rootfs/shared", "bind,slave");
	lc_add_mount(&t, "/rslave", "bind", "rootfs/shared", "rbind,rslave");
	free(assert_case(&t, &c));
}

/* ---- order and destinations ---- */

Test(mounts, a_mount_inside_an_earlier_one)
{
	static const struct mount_case c = {.script = "cat /a/b/f", .mounted = {{"/a", "tmpfs"}}};
	struct lc t;
	mt_init(&t);
	char *dir = host_dir();
	lc_add_tmpfs(&t, "/a", NULL);
	lc_add_mount(&t, "/a/b", "bind", dir, "bind");
	char *out = assert_case(&t, &c);
	char *b = mount_line(out, "/a/b");
	cr_expect_not_null(b, "no /a/b in:\n%s", out);
	cr_expect(strstr(out, "\nhost"), "%s", out);
	char *in_image = lc_rootfs_path(&t, "a/b");
	cr_expect(!ctt_exists(in_image), "/a/b was made in the image, not in the tmpfs");
	free(in_image);
	free(b);
	free(out);
	free(dir);
}

Test(mounts, relative_destination_is_below_the_root)
{
	static const struct mount_case c = {
		.tmpfs = {{"data", NULL}},
		.mounted = {{"/data", "tmpfs"}},
	};
	free(assert_case(NULL, &c));
}

/* A "." at the end or in the middle of a destination names the directory before it, as
 * under runc and crun; the directories are made in the image, not outside it. */
Test(mounts, destination_with_dot_components)
{
	static const struct mount_case c = {
		.tmpfs = {{"/dotted/.", NULL}, {"/made/./deep/.", NULL}},
		.mounted = {{"/dotted", "tmpfs"}, {"/made/deep", "tmpfs"}},
	};
	struct lc t;
	mt_init(&t);
	char *out = assert_case(&t, &c);
	char *made = lc_rootfs_path(&t, "made/deep");
	struct stat st;
	cr_expect(stat(made, &st) == 0 && S_ISDIR(st.st_mode), "/made/deep was not made in the image");
	free(made);
	free(out);
}

/* /link -> /inside (absolute, so the host's /inside were it followed on the host). */
Test(mounts, symlink_destination_resolves_inside_the_rootfs)
{
	static const struct mount_case c = {
		.tmpfs = {{"/link", NULL}, {"/rel", NULL}},
		.mounted = {{"/inside", "tmpfs"}, {"/inside2", "tmpfs"}},
	};
	struct lc t;
	mt_init(&t);
	char *link = lc_rootfs_path(&t, "link"), *rel = lc_rootfs_path(&t, "rel");
	cr_assert_eq(symlink("/inside", link), 0);
	cr_assert_eq(symlink("../../inside2", rel), 0);
	free(assert_case(&t, &c));
	cr_expect(!ctt_exists("/inside") && !ctt_exists("/inside2"), "made on the host");
	free(rel);
	free(link);
}

/* ---- devices ---- */

/* A device of .linux.devices: its path, its entry and the line `ls -ln` must show of it. */
struct device_row {
	const char *path, *json, *line;
};

/* The devices of rows (n) are made as their lines say, all in one container; script then
 * prints a line matching then_line. */
static void assert_devices_made(const struct device_row *rows, size_t n, const char *then,
				const char *then_line)
{
	struct lc t;
	mt_init(&t);
	char script[512] = "ls -ln";
	for (size_t i = 0; i < n; i++) {
		lc_config_append(&t, ".linux.devices", rows[i].json);
		snprintf(script + strlen(script), sizeof(script) - strlen(script), " %s",
			 rows[i].path);
	}
	snprintf(script + strlen(script), sizeof(script) - strlen(script), "; %s", then);
	char *out = lc_sh_output(&t, script);
	for (size_t i = 0; i < n; i++)
		cr_expect(ctt_matches(out, rows[i].line), "%s: %s", rows[i].path, out);
	cr_expect(ctt_matches(out, then_line), "`%s`: %s", then, out);
	free(out);
}

Test(mounts, linux_devices_with_type_numbers_mode_and_owner)
{
	static const struct device_row rows[] = {
		{"/dev/mychar",
		 "{\"path\":\"/dev/mychar\",\"type\":\"c\",\"major\":1,\"minor\":5,"
		 "\"fileMode\":416,\"uid\":1000,\"gid\":1001}",
		 "^crw-r----- +1 +1000 +1001 +1, +5 .*/dev/mychar$"},
		{"/dev/myblock",
		 "{\"path\":\"/dev/myblock\",\"type\":\"b\",\"major\":7,\"minor\":3,"
		 "\"fileMode\":384}",
		 "^brw------- +1 +0 +0 +7, +3 .*/dev/myblock$"},
		{"/dev/myfifo", "{\"path\":\"/dev/myfifo\",\"type\":\"p\"}",
		 "^prw-rw-rw- +1 +0 +0 .*/dev/myfifo$"},
		{"/dev/sub/dev",
		 "{\"path\":\"/dev/sub/dev\",\"type\":\"c\",\"major\":1,\"minor\":3}",
		 "^crw-rw-rw- +1 +0 +0 +1, +3 .*/dev/sub/dev$"},
	};
	assert_devices_made(rows, sizeof(rows) / sizeof(rows[0]), "echo made", "^made$");
}

/* A path listed twice (the second time spelt "/dev/./twice"): the first entry is made and
 * the second left out, as under runc and crun, where the later mknod finds the first. */
Test(mounts, device_listed_twice_is_made_by_its_first_entry)
{
	struct lc t;
	mt_init(&t);
	lc_config_append(&t, ".linux.devices",
			 "{\"path\":\"/dev/twice\",\"type\":\"c\",\"major\":1,\"minor\":3}");
	lc_config_append(&t, ".linux.devices",
			 "{\"path\":\"/dev/./twice\",\"type\":\"c\",\"major\":1,\"minor\":5,"
			 "\"fileMode\":384}");
	char *out = lc_sh_output(&t, "ls -ln /dev/twice; echo read=$(head -c 3 /dev/twice | wc -c)");
	cr_expect(ctt_matches(out, "^crw-rw-rw- +1 +0 +0 +1, +3 .*/dev/twice$"), "%s", out);
	cr_expect(ctt_matches(out, "^read=0$"), "the null device reads nothing: %s", out);
	free(out);
}

/* Podman writes a device's fileMode as the host node's st_mode, type bits included
 * (8624 is S_IFCHR | 0660, 25008 S_IFBLK | 0660); the char device reads. */
Test(mounts, device_file_mode_may_carry_its_own_type_bits)
{
	static const struct device_row rows[] = {
		{"/dev/podchar",
		 "{\"path\":\"/dev/podchar\",\"type\":\"c\",\"major\":1,\"minor\":5,"
		 "\"fileMode\":8624}",
		 "^crw-rw---- +1 +0 +0 +1, +5 .*/dev/podchar$"},
		{"/dev/podblock",
		 "{\"path\":\"/dev/podblock\",\"type\":\"b\",\"major\":7,\"minor\":3,"
		 "\"fileMode\":25008}",
		 "^brw-rw---- +1 +0 +0 +7, +3 .*/dev/podblock$"},
	};
	assert_devices_made(rows, sizeof(rows) / sizeof(rows[0]), "head -c 3 /dev/podchar | wc -c",
			    "^3$");
}

/* A type in fileMode that is not the device's own is refused before anything is made. */
Test(mounts, device_file_mode_with_another_type_is_refused)
{
	struct lc t;
	mt_init(&t);
	lc_config_append(&t, ".linux.devices",
			 "{\"path\":\"/dev/podchar\",\"type\":\"c\",\"major\":1,\"minor\":5,"
			 "\"fileMode\":25008}"); /* S_IFBLK | 0660 */
	static const char *const needles[] = {
		".linux.devices[0].fileMode",
		"the file type bits 060000 are not those of type \"c\"", NULL};
	lc_assert_create_refused(&t, "podmode", needles);
}

#define DEFAULT_DEVICES                                                                        \
	"ls -ln /dev/ | awk '{ if ($1 ~ /^l/) print $1, $(NF-2), $NF; else print $1, $3, $4, " \
	"$5, $6, $NF }'"

/* The /dev mounts of the default config removed: /dev is the image's own directory. */
static void remove_dev_mounts(const struct lc *t)
{
	static const char *const dev[] = {"/dev/pts", "/dev/shm", "/dev/mqueue", "/dev"};
	for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
		lc_remove_mount(t, dev[i]);
}

/* "crw-rw-rw-" of a mode, as ls -l writes it. */
static void mode_text(mode_t mode, char out[11])
{
	out[0] = S_ISCHR(mode) ? 'c' : S_ISBLK(mode) ? 'b' : S_ISFIFO(mode) ? 'p' : '-';
	for (int i = 0; i < 9; i++)
		out[1 + i] = (mode & (0400 >> i)) ? "rwxrwxrwx"[i] : '-';
	out[10] = '\0';
}

/* The default devices of config-linux.md, as DEFAULT_DEVICES lists them: each node the type,
 * numbers and mode of the host's own node of that name (the kernel's numbers, not a table
 * of ctrun's), owned by the container's root; the symlinks of config-linux.md's default
 * filesystems. */
static void expect_default_nodes(const char *out)
{
	static const char *const nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		char host[32], mode[11], re[128];
		snprintf(host, sizeof(host), "/dev/%s", nodes[i]);
		struct stat st;
		cr_assert_eq(stat(host, &st), 0, "stat %s: %s", host, strerror(errno));
		mode_text(st.st_mode, mode);
		snprintf(re, sizeof(re), "^%s 0 0 %u, %u %s$", mode, major(st.st_rdev),
			 minor(st.st_rdev), nodes[i]);
		cr_expect(ctt_matches(out, re), "no %s in:\n%s", re, out);
	}
	static const char *const links[] = {
		"^lrwxrwxrwx ptmx pts/ptmx$",	       "^lrwxrwxrwx fd /proc/self/fd$",
		"^lrwxrwxrwx stdin /proc/self/fd/0$",  "^lrwxrwxrwx stdout /proc/self/fd/1$",
		"^lrwxrwxrwx stderr /proc/self/fd/2$",
	};
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		cr_expect(ctt_matches(out, links[i]), "no %s in:\n%s", links[i], out);
}

Test(mounts, default_devices_and_symlinks)
{
	struct lc t;
	mt_init(&t);
	char *out = lc_sh_output(&t, DEFAULT_DEVICES);
	expect_default_nodes(out);
	cr_expect_eq(ctt_matches(out, "^lrwxrwxrwx core /proc/kcore$"), ctt_exists("/proc/kcore"),
		     "/dev/core and /proc/kcore:\n%s", out);
	free(out);
}

/* config-linux.md#default-devices whatever is mounted on /dev: without a /dev mount they are
 * made in the image's directory (as runc makes them), and the default masks bind that
 * /dev/null. */
Test(mounts, default_devices_in_the_image_dev_without_a_dev_mount)
{
	struct lc t;
	mt_init(&t);
	remove_dev_mounts(&t);
	char *masked = lc_rootfs_file(&t, "etc/masked", "secret\n");
	lc_config_append(&t, ".linux.maskedPaths", "\"/etc/masked\"");
	char *out = lc_sh_output(&t, DEFAULT_DEVICES "; stat -c 'masked=%F %t:%T' /etc/masked; "
						     "echo \"read=$(wc -c </etc/masked)\"");
	expect_default_nodes(out);
	ctt_assert_line(out, "^masked=character special file 1:3$");
	ctt_assert_line(out, "^read=0$");
	/* made in the image, where runc makes them too */
	char *null = lc_rootfs_path(&t, "dev/null");
	struct stat st;
	cr_assert_eq(lstat(null, &st), 0, "%s: %s", null, strerror(errno));
	cr_expect(S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3), "%s is not char 1:3", null);
	ctt_assert_file_text(masked, "secret\n");
	free(null);
	free(out);
	free(masked);
}

/* The image's /dev a symlink to a host directory: resolved in the rootfs, the nodes go to
 * the image's directory of that name, never to the host's. */
Test(mounts, default_devices_never_made_outside_the_rootfs)
{
	struct lc t;
	mt_init(&t);
	remove_dev_mounts(&t);
	char *host = ctt_tmpdir();
	char *dev = lc_rootfs_path(&t, "dev");
	cr_assert_eq(rmdir(dev), 0, "rmdir %s: %s", dev, strerror(errno));
	cr_assert_eq(symlink(host, dev), 0, "symlink %s: %s", dev, strerror(errno));
	char *out = lc_sh_output(&t, DEFAULT_DEVICES);
	expect_default_nodes(out);
	char *in_image = lc_rootfs_path(&t, host + 1);
	char *null = ctt_path(in_image, "null");
	struct stat st;
	cr_expect(lstat(null, &st) == 0 && S_ISCHR(st.st_mode), "no node at %s", null);
	char *host_null = ctt_path(host, "null");
	cr_expect_not(ctt_exists(host_null), "a node was made in the host's %s", host);
	lc_assert_nothing_left(&t);
	free(host_null);
	free(null);
	free(in_image);
	free(out);
	free(dev);
	free(host);
}

/* /devlink -> /dev in the image: a tmpfs there covers ctrun's /dev tmpfs, whose mount
 * points ctrun makes directly (libct/fs/mountpoint.h). What follows in /dev, a mount and the
 * default nodes and links, must go where /dev leads now, the covering tmpfs. The check would
 * refuse the covered /dev/pts: it is off. */
Test(mounts, dev_covered_through_a_symlink_gets_the_later_mounts_and_nodes)
{
	struct lc t;
	mt_init(&t);
	char *link = lc_rootfs_path(&t, "devlink");
	cr_assert_eq(symlink("/dev", link), 0, "symlink %s: %s", link, strerror(errno));
	lc_add_tmpfs(&t, "/devlink", "mode=0711");
	lc_add_tmpfs(&t, "/dev/late", "size=1m");
	lc_set_script(&t, MOUNTINFO "stat -c 'dev=%a' /dev; " DEFAULT_DEVICES);
	struct ctt_result r;
	lc_ctrun(&r, &t, "--no-verify-mounts", "run", "--bundle", t.bundle, ID);
	cr_assert_eq(r.status, 0, "run: exit %d, stderr:\n%s", r.status, r.err);
	cr_expect(ctt_matches(r.out, "^dev=711$"), "/dev is not the covering tmpfs:\n%s", r.out);
	char *late = assert_mounted(r.out, "/dev/late", "tmpfs");
	char *opts = super_field(late, 2);
	cr_expect(ctt_in_list(opts, "size=1024k"), "%s", late);
	static const char *const want[] = {"^crw-rw-rw- 0 0 1, 3 null$",
					   "^crw-rw-rw- 0 0 5, 0 tty$",
					   "^lrwxrwxrwx fd /proc/self/fd$"};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_expect(ctt_matches(r.out, want[i]), "no %s in the visible /dev:\n%s", want[i],
			  r.out);
	free(opts);
	free(late);
	free(link);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

/* ---- masked and read-only paths ---- */

Test(mounts, masked_file_reads_empty_and_keeps_nothing)
{
	struct lc t;
	mt_init(&t);
	char *secret = lc_rootfs_file(&t, "etc/secret", "secret");
	lc_config_append(&t, ".linux.maskedPaths", "\"/etc/secret\"");
	char *out = lc_sh_output(&t, MOUNTINFO "echo x > /etc/secret; "
					       "echo \"size=$(cat /etc/secret | wc -c)\"");
	assert_option(out, "/etc/secret", "ro", true);
	ctt_assert_line(out, "^size=0$");
	char *text = ctt_read_file(secret);
	cr_expect_str_eq(text, "secret", "the image's file changed");
	free(text);
	free(out);
	free(secret);
}

Test(mounts, masked_directory_is_an_empty_read_only_tmpfs)
{
	struct lc t;
	mt_init(&t);
	char *dir = lc_rootfs_path(&t, "secretdir"), *f = ctt_path(dir, "f");
	ctt_mkdir_p(dir);
	ctt_write_file(f, "secret");
	lc_config_append(&t, ".linux.maskedPaths", "\"/secretdir\"");
	char *out = lc_sh_output(&t, MOUNTINFO "echo \"n=$(ls -A /secretdir | wc -l)\"; " TRY(
					     "write", "touch /secretdir/x"));
	char *line = assert_mounted(out, "/secretdir", "tmpfs");
	cr_expect(has_option(line, "ro"), "%s", line);
	ctt_assert_line(out, "^n=0$");
	expect_result(out, "write", false);
	free(line);
	free(out);
	free(f);
	free(dir);
}

/* Two masked files and two masked directories (the second of each kind is a copy of the
 * first mask's mount), each second one named through an image symlink: an absolute one to a
 * host path (/etc/hostlink -> the host's secret file; inside the rootfs there is no such
 * path, so nothing is masked there) and one climbing with ".." (it stays in the root). */
Test(mounts, masked_paths_of_each_kind_through_symlinks_stay_in_the_rootfs)
{
	struct lc t;
	mt_init(&t);
	char *host = host_dir(), *host_f = ctt_path(host, "f");
	char *s1 = lc_rootfs_path(&t, "etc/s1"), *s2 = lc_rootfs_path(&t, "etc/s2");
	char *d1 = lc_rootfs_path(&t, "d1/x"), *d2 = lc_rootfs_path(&t, "d2/x");
	char *up = lc_rootfs_path(&t, "etc/up"), *hostlink = lc_rootfs_path(&t, "etc/hostlink");
	char *dup = lc_rootfs_path(&t, "dup");
	ctt_write_file(s1, "one");
	ctt_write_file(s2, "two");
	ctt_mkdir_p(d1);
	ctt_mkdir_p(d2);
	cr_assert_eq(symlink("../../../../../etc/s2", up), 0);
	cr_assert_eq(symlink(host_f, hostlink), 0);
	cr_assert_eq(symlink("../../../../d2", dup), 0);
	const char *masked[] = {"/etc/s1", "/etc/up", "/etc/hostlink", "/d1", "/dup"};
	for (size_t i = 0; i < sizeof(masked) / sizeof(masked[0]); i++) {
		char *q = ctt_json_quote(masked[i]);
		lc_config_append(&t, ".linux.maskedPaths", q);
		free(q);
	}
	char *out =
		lc_sh_output(&t, MOUNTINFO "for f in /etc/s1 /etc/s2; do echo \"$f=$(cat $f | "
					   "wc -c)\"; done; for d in /d1 /d2; do echo \"$d=$(ls "
					   "-A $d | wc -l)\"; done; " TRY("write", "touch /d2/y"));
	cr_expect(ctt_matches(out, "^/etc/s1=0$") && ctt_matches(out, "^/etc/s2=0$"), "%s", out);
	cr_expect(ctt_matches(out, "^/d1=0$") && ctt_matches(out, "^/d2=0$"), "%s", out);
	expect_result(out, "write", false);
	assert_option(out, "/etc/s2", "ro", true);
	char *line = assert_mounted(out, "/d2", "tmpfs");
	cr_expect(has_option(line, "ro"), "%s", line);
	expect_not_mounted(out, host_f);
	expect_host_text(host, "f", "host", "the host's file changed");
	char *text = ctt_read_file(s2);
	cr_expect_str_eq(text, "two", "the image's file changed");
	free(text);
	free(line);
	free(out);
	free(dup);
	free(hostlink);
	free(up);
	free(d2);
	free(d1);
	free(s2);
	free(s1);
	free(host_f);
	free(host);
}

/* A read-only path named through a symlink: /rel -> ../../data (stays in the root, the
 * image's /data is read-only then), /abs -> a host directory (no such path in the rootfs:
 * nothing done). */
Test(mounts, readonly_paths_through_symlinks_stay_in_the_rootfs)
{
	struct lc t;
	mt_init(&t);
	char *host = host_dir();
	char *rel = lc_rootfs_path(&t, "rel"), *abs = lc_rootfs_path(&t, "abs");
	char *data = lc_rootfs_path(&t, "data");
	ctt_mkdir_p(data);
	cr_assert_eq(symlink("../../data", rel), 0);
	cr_assert_eq(symlink(host, abs), 0);
	lc_config_append(&t, ".linux.readonlyPaths", "\"/rel\"");
	lc_config_append(&t, ".linux.readonlyPaths", "\"/abs\"");
	char *out = lc_sh_output(&t, MOUNTINFO TRY("data", "touch /data/x"));
	expect_result(out, "data", false);
	assert_option(out, "/data", "ro", true);
	expect_not_mounted(out, host);
	free(out);
	free(data);
	free(abs);
	free(rel);
	free(host);
}

/* A read-only path over a rw tmpfs with a rw submount: both end up read-only. */
Test(mounts, readonly_paths_are_read_only_recursively)
{
	static const struct mount_case c = {
		.tmpfs = {{"/data", NULL}, {"/data/sub", NULL}},
		.script = TRY("top", "touch /data/x") TRY("sub", "touch /data/sub/x"),
		.options = {{"/data", "ro", true}, {"/data/sub", "ro", true}},
		.results = {{"top", false}, {"sub", false}},
	};
	struct lc t;
	mt_init(&t);
	lc_config_append(&t, ".linux.readonlyPaths", "\"/data\"");
	free(assert_case(&t, &c));
}

/* ---- the root ---- */

Test(mounts, readonly_root)
{
	static const struct mount_case c = {
		.script = TRY("root", "touch /x") TRY("dev", "touch /dev/x"),
		.options = {{"/", "ro", true}},
		.results = {{"root", false}, {"dev", true}},
	};
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".root.readonly", "true");
	free(assert_case(&t, &c));
}

/* mountinfo of "/" with rootfsPropagation prop (NULL: unset); ctrun runs under wrapper. A
 * shared tmpfs mounted too must stay shared. */
static char *root_line(const char *prop, const char *const *wrapper)
{
	struct lc t;
	mt_init(&t);
	t.wrapper = wrapper;
	if (prop) {
		char *q = ctt_json_quote(prop);
		ctt_config_set(t.bundle, ".linux.rootfsPropagation", q);
		free(q);
	}
	lc_add_tmpfs(&t, "/keep", "shared");
	char *out = lc_sh_output(&t, MOUNTINFO);
	char *line = mount_line(out, "/");
	cr_assert_not_null(line, "no / in:\n%s", out);
	/* the root's propagation is the root's: a mount's own option stays */
	expect_tag(out, "/keep", "shared:", true);
	free(out);
	return line;
}

Test(mounts, rootfs_propagation_shared_and_unbindable)
{
	char *shared = root_line("shared", NULL), *unbindable = root_line("unbindable", NULL);
	cr_expect(has_tag(shared, "shared:"), "%s", shared);
	cr_expect(has_tag(unbindable, "unbindable"), "%s", unbindable);
	free(unbindable);
	free(shared);
}

/* Under a host whose mounts are shared (a new mount namespace of unshare), the default and
 * "slave" make "/" a slave of the host's, "private" cuts it off. */
Test(mounts, rootfs_propagation_slave_and_private)
{
	static const char *const shared_host[] = {"unshare", "-m", "--propagation", "shared", NULL};
	char *dflt = root_line(NULL, shared_host), *slave = root_line("slave", shared_host);
	char *private = root_line("private", shared_host);
	cr_expect(has_tag(dflt, "master:"), "%s", dflt);
	cr_expect(has_tag(slave, "master:"), "%s", slave);
	cr_expect(!has_tag(private, "master:") && !has_tag(private, "shared:"), "%s", private);
	free(private);
	free(slave);
	free(dflt);
}

/* The r forms (runc's; Podman writes "rslave"): "rslave" is a slave of the host's like
 * "slave", "rprivate" cuts the whole namespace off; a mount's own option stays either way. */
Test(mounts, rootfs_propagation_recursive_forms)
{
	static const char *const shared_host[] = {"unshare", "-m", "--propagation", "shared", NULL};
	char *rslave = root_line("rslave", shared_host),
	     *rprivate = root_line("rprivate", shared_host);
	char *rshared = root_line("rshared", NULL);
	cr_expect(has_tag(rslave, "master:"), "%s", rslave);
	cr_expect(!has_tag(rprivate, "master:") && !has_tag(rprivate, "shared:"), "%s", rprivate);
	cr_expect(has_tag(rshared, "shared:"), "%s", rshared);
	free(rshared);
	free(rprivate);
	free(rslave);
}

/* The /vol line inside of a plain bind of a private host mount, under rootfsPropagation prop. */
static char *private_source_bind_line(const char *prop)
{
	char *host = ctt_tmpdir();
	cr_assert_eq(mount(host, host, NULL, MS_BIND, NULL), 0, "bind %s: %m", host);
	cr_assert_eq(mount(NULL, host, NULL, MS_PRIVATE, NULL), 0, "make %s private: %m", host);
	struct lc t;
	mt_init(&t);
	char *q = ctt_json_quote(prop);
	ctt_config_set(t.bundle, ".linux.rootfsPropagation", q);
	lc_add_mount(&t, "/vol", "bind", host, "bind");
	char *out = lc_sh_output(&t, "grep ' /vol ' /proc/self/mountinfo");
	umount2(host, MNT_DETACH);
	free(q);
	free(host);
	return out;
}

/* "shared" makes the namespace's root shared, not its other mounts, as runc 1.1.5 (MS_SHARED
 * without MS_REC): a bind of a private host mount stays private; "rshared" shares them all,
 * and the bind joins its source's peer group. */
Test(mounts, shared_root_propagation_is_not_recursive)
{
	char *shared = private_source_bind_line("shared");
	cr_expect(!has_tag(shared, "shared:") && !has_tag(shared, "master:"), "%s", shared);
	char *rshared = private_source_bind_line("rshared");
	cr_expect(has_tag(rshared, "shared:"), "%s", rshared);
	free(rshared);
	free(shared);
}

/* Kubernetes' Bidirectional volume (containerd: rootfsPropagation "rshared", the bind
 * "rshared"): the bind is a peer of its shared host source, not a slave of it, so that a mount
 * made inside reaches the host (a CSI node plugin's); nothing of the container's own (its /proc,
 * its rootfs's bind) reaches the host. */
Test(mounts, rshared_bind_under_rshared_root_propagates_to_the_host)
{
	char *host = ctt_tmpdir();
	cr_assert_eq(mount(host, host, NULL, MS_BIND, NULL), 0, "bind %s: %m", host);
	cr_assert_eq(mount(NULL, host, NULL, MS_SHARED, NULL), 0, "make %s shared: %m", host);
	char *sub = ctt_path(host, "sub");
	ctt_mkdir_p(sub);
	struct lc t;
	mt_init(&t);
	ctt_config_set(t.bundle, ".linux.rootfsPropagation", "\"rshared\"");
	for (const char *const *set = (const char *const[]){"bounding", "effective", "permitted", NULL};
	     *set; set++) {
		char *path;
		cr_assert_geq(asprintf(&path, ".process.capabilities.%s", *set), 0);
		ctt_config_set(t.bundle, path, "[\"CAP_SYS_ADMIN\"]");
		free(path);
	}
	lc_add_mount(&t, "/vol", "bind", host, "rbind,rshared");
	char *out = lc_sh_output(&t, "mount -t tmpfs -o size=4k ctrun-bidirectional /vol/sub && "
				     "grep ' /vol ' /proc/self/mountinfo");
	char *mine = ctt_read_file("/proc/self/mountinfo");
	char *rootfs = lc_rootfs_path(&t, "");
	bool reached = strstr(mine, " - tmpfs ctrun-bidirectional ") != NULL;
	bool leaked = strstr(mine, rootfs) != NULL;
	umount2(sub, MNT_DETACH);
	umount2(host, MNT_DETACH);
	cr_expect(has_tag(out, "shared:") && !has_tag(out, "master:"), "/vol inside: %s", out);
	cr_expect(reached, "the mount made in /vol/sub did not reach the host:\n%s", mine);
	cr_expect(!leaked, "a mount of the container's reached the host:\n%s", mine);
	free(rootfs);
	free(mine);
	free(out);
	free(sub);
	free(host);
}

/* --no-pivot moves the rootfs onto the namespace's root, which "rshared" leaves a peer of the
 * host's when the rootfs has a mount of its own: the move stacked the rootfs, and the
 * container's /proc, /dev, /sys and masks, on the host's root. The test's namespace's root is
 * made shared for the run. */
Test(mounts, no_pivot_under_rshared_root_reaches_nothing_of_the_host)
{
	struct lc t;
	mt_init(&t);
	ctt_config_set(t.bundle, ".linux.rootfsPropagation", "\"rshared\"");
	lc_set_script(&t, "true");
	char *before = ctt_read_file("/proc/self/mountinfo");
	char *root_before = mount_line(before, "/");
	char *rootfs = lc_rootfs_path(&t, "");
	/* a rootfs on a mount of its own (an overlay's): / keeps its sharing in the container */
	cr_assert_eq(mount(rootfs, rootfs, NULL, MS_BIND, NULL), 0, "bind %s: %m", rootfs);
	cr_assert_eq(mount(NULL, "/", NULL, MS_SHARED, NULL), 0, "make / shared: %m");
	struct ctt_result r;
	lc_ctrun(&r, &t, "run", "--no-pivot", "--bundle", t.bundle, ID);
	char *mine = ctt_read_file("/proc/self/mountinfo");
	char *root_after = mount_line(mine, "/");
	umount2(rootfs, MNT_DETACH);
	/* the mount ids: the tags change with the sharing */
	bool leaked = strstr(mine, rootfs) != NULL || strtol(root_after, NULL, 10) !=
							     strtol(root_before, NULL, 10);
	cr_assert_eq(mount(NULL, "/", NULL, MS_PRIVATE, NULL), 0, "make / private again: %m");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(!leaked, "a mount of the container's reached the host:\n%s", mine);
	ctt_result_free(&r);
	free(rootfs);
	free(root_after);
	free(mine);
	free(root_before);
	free(before);
}

/* ---- linux.mountLabel ---- */

#define SELINUX_MAGIC 0xf97cff8cU

/* Without SELinux the label means nothing: the container runs, no mount gets a context=
 * option, and the debug log says the label was ignored. */
Test(mounts, mount_label_without_selinux_is_ignored)
{
	struct statfs sfs;
	if (statfs("/sys/fs/selinux", &sfs) == 0 && (unsigned)sfs.f_type == SELINUX_MAGIC)
		ctt_skip("SELinux is enabled on this host");
	struct lc t;
	mt_init(&t);
	ctt_config_set(t.bundle, ".linux.mountLabel",
		       "\"system_u:object_r:container_file_t:s0:c1,c2\"");
	lc_add_tmpfs(&t, "/t", NULL);
	struct ctt_result r;
	lc_debug_run_sh(&r, &t, ID, MOUNTINFO "echo ran");
	cr_assert_eq(r.status, 0, "run: exit %d, stderr:\n%s", r.status, r.err);
	cr_expect(ctt_matches(r.out, "^ran$"), "%s", r.out);
	free(assert_mounted(r.out, "/t", "tmpfs"));
	cr_expect_null(strstr(r.out, "context="), "a label was given:\n%s", r.out);
	cr_expect(strstr(r.err, "linux.mountLabel ignored: SELinux is not enabled"),
		  "the debug log does not say it was ignored:\n%s", r.err);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

/* ---- the fallbacks ---- */

#define NEW_MOUNT_API "fsopen,fsmount,fsconfig,open_tree,move_mount"

/* Something of every kind: binds (ro, of a file, rbind), tmpfs options, an atime mode, a
 * device, a masked file and directory, the default read-only paths. */
static void varied_config(const struct lc *t, const char *dir)
{
	char *file = ctt_path(dir, "f");
	lc_add_mount(t, "/ro", "bind", dir, "bind,ro,nosuid");
	lc_add_mount(t, "/file", "bind", file, "bind");
	lc_add_mount(t, "/r", "bind", dir, "rbind,nodev");
	lc_add_tmpfs(t, "/t", "size=1m,mode=0700,noatime");
	lc_add_tmpfs(t, "/t/a/b", "strictatime,noexec");
	lc_config_append(t, ".linux.devices",
			 "{\"path\":\"/dev/kmsg\",\"type\":\"c\",\"major\":1,\"minor\":11,"
			 "\"fileMode\":420}");
	lc_config_append(t, ".linux.maskedPaths", "\"/etc/passwd\"");
	lc_config_append(t, ".linux.maskedPaths", "\"/t/a\"");
	/* a second of each kind: a copy of the first mask */
	lc_config_append(t, ".linux.maskedPaths", "\"/etc/group\"");
	lc_config_append(t, ".linux.maskedPaths", "\"/r\"");
	free(file);
}

#define VIEW_MOUNTS "awk '{ $1 = $2 = $3 = \"\"; print }' /proc/self/mountinfo; echo ==; "

/* The container's mounts (without ids) and /dev, under enosys_args; then the same without
 * the helper must be equal. */
static void assert_same_view(const char *const *enosys_args, bool compare_mounts)
{
	struct lc t;
	mt_init(&t);
	char *dir = host_dir();
	varied_config(&t, dir);
	const char *argv[LC_WRAPPER_MAX];
	lc_wrap_enosys(&t, argv, enosys_args);
	char *with = lc_sh_output(&t, VIEW_MOUNTS DEFAULT_DEVICES);
	lc_wrap_enosys(&t, argv, NULL);
	char *without = lc_sh_output(&t, VIEW_MOUNTS DEFAULT_DEVICES);
	char *devs_with = strstr(with, "==\n"), *devs_without = strstr(without, "==\n");
	cr_assert(devs_with && devs_without);
	cr_expect_str_eq(devs_with, devs_without, "/dev differs");
	if (compare_mounts) {
		*devs_with = *devs_without = '\0';
		cr_expect_str_eq(with, without, "the mounts differ");
	}
	lc_assert_nothing_left(&t);
	free(without);
	free(with);
	free(dir);
}

Test(mounts, same_mounts_without_the_new_mount_api)
{
	assert_same_view((const char *const[]){NEW_MOUNT_API ",mount_setattr", NULL}, true);
}

/* Linux 5.2 to 5.11: fsopen, open_tree and move_mount without mount_setattr. */
Test(mounts, same_mounts_without_mount_setattr_alone)
{
	assert_same_view((const char *const[]){"mount_setattr", NULL}, true);
}

/* Linux 6.1 to 6.14: open_tree and mount_setattr for a bind, not open_tree_attr. */
Test(mounts, same_mounts_without_open_tree_attr)
{
	assert_same_view((const char *const[]){"open_tree_attr", NULL}, true);
}

Test(mounts, same_mounts_without_openat2)
{
	assert_same_view((const char *const[]){"openat2", NULL}, true);
}

Test(mounts, same_mounts_without_fchmodat2)
{
	assert_same_view((const char *const[]){"fchmodat2", NULL}, true);
}

/* How many mounts the check of a run compared; it must have found none extra. */
static size_t mounts_checked(const struct lc *t)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "--debug", "run", "--bundle", t->bundle, "checked");
	cr_assert_eq(r.status, 0, "run: %s", r.err);
	const char *line = strstr(r.err, "mounts verified with ");
	size_t n = 0;
	int end = 0;
	cr_assert(line && sscanf(strchr(line, ':') + 1, " %zu checked, 0 extra%n", &n, &end) == 1 &&
			  end > 0,
		  "no check, or extra mounts:\n%s", r.err);
	ctt_result_free(&r);
	return n;
}

/* Nodes are bound from the host instead: /dev looks the same, each node being a bind. */
Test(mounts, same_devices_when_mknod_is_refused)
{
	assert_same_view((const char *const[]){"--errno", "EPERM", "mknodat,mknod", NULL}, false);
	struct lc t;
	mt_init(&t);
	const char *argv[LC_WRAPPER_MAX];
	lc_wrap_enosys(&t, argv, (const char *const[]){"--errno", "EPERM", "mknodat,mknod", NULL});
	char *out = lc_sh_output(&t, MOUNTINFO);
	static const char *const nodes[] = {"/dev/null",   "/dev/zero",	   "/dev/full",
					    "/dev/random", "/dev/urandom", "/dev/tty"};
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		char *line = mount_line(out, nodes[i]);
		cr_expect_not_null(line, "%s is no bind of the host's:\n%s", nodes[i], out);
		free(line);
	}
	free(out);
	/* each node's bind is one ctrun made: checked like the rest, none of them extra */
	lc_set_args(&t, (const char *const[]){"/bin/true", NULL});
	size_t bound = mounts_checked(&t);
	t.wrapper = NULL;
	cr_expect_eq(bound, mounts_checked(&t) + sizeof(nodes) / sizeof(nodes[0]),
		     "the bound nodes are not checked");
	lc_assert_nothing_left(&t);
}

/* Where mknod is refused the host's node is bound, and only when it is the device asked. */
Test(mounts, host_node_of_another_device_is_not_bound)
{
	struct lc t;
	mt_init(&t);
	lc_config_append(&t, ".linux.devices",
			 "{\"path\":\"/dev/kmsg\",\"type\":\"c\",\"major\":1,\"minor\":12}");
	const char *argv[LC_WRAPPER_MAX];
	lc_wrap_enosys(&t, argv, (const char *const[]){"--errno", "EPERM", "mknodat,mknod", NULL});
	lc_assert_fails(&t, LC_ARGV("run", "--bundle", t.bundle, "badnode"), "\"/dev/kmsg\"",
			"not the device asked for (1:12)");
	lc_assert_nothing_left(&t);
}

/* An rbind with rro of a source with a submount, ctrun under enosys_args. */
static void rro_setup(struct lc *t, const char **argv, const char *const *enosys_args)
{
	char *dir = submount_bundle(t);
	lc_add_mount(t, "/rro", "bind", dir, "rbind,rro");
	lc_wrap_enosys(t, argv, enosys_args);
	free(dir);
}

Test(mounts, rro_without_the_new_mount_api_uses_mount_setattr)
{
	static const struct mount_case c = {
		.script = TRY("sub", "touch /rro/sub/x"),
		.options = {{"/rro", "ro", true}, {"/rro/sub", "ro", true}},
		.results = {{"sub", false}},
	};
	struct lc t;
	const char *argv[LC_WRAPPER_MAX];
	rro_setup(&t, argv, (const char *const[]){NEW_MOUNT_API, NULL});
	free(assert_case(&t, &c));
}

Test(mounts, rro_without_mount_setattr_is_a_clear_error)
{
	struct lc t;
	const char *argv[LC_WRAPPER_MAX];
	rro_setup(&t, argv, (const char *const[]){NEW_MOUNT_API ",mount_setattr", NULL});
	struct ctt_result r;
	lc_run_sh(&r, &t, ID, "true");
	ctt_assert_error(&r, "mount #7 \"/rro\"", "mount_setattr");
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

/* ---- bad input ---- */

/* `run` fails with one line naming what (and the kernel's reason). */
static void assert_run_error(const struct lc *t, const char *what, const char *reason)
{
	lc_set_script(t, "true");
	lc_assert_fails(t, LC_ARGV("run", "--bundle", t->bundle, ID), what, reason);
	lc_assert_nothing_left(t);
}

/* The default config has 7 mounts: the one a test adds is #7. */
Test(mounts, unknown_mount_option_is_an_error_naming_the_mount)
{
	struct lc t;
	mt_init(&t);
	lc_add_tmpfs(&t, "/data", "bogus=1");
	assert_run_error(&t, "mount #7 \"/data\"", "bogus");
}

/* runc 1.1.5 and crun 1.8.1 fail with EINVAL on ["bind","remount","ro"] (mount(2) remounts
 * what is not mounted yet); ctrun made a read-only bind of it. Now refused before anything
 * is made, a bind and a tmpfs alike. */
Test(mounts, remount_option_is_refused_naming_the_options)
{
	static const char *const options[] = {"bind,remount,ro", "rbind,ro,remount"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		struct lc t;
		mt_init(&t);
		char *dir = host_dir();
		lc_add_mount(&t, "/hostdir", "bind", dir, options[i]);
		assert_run_error(&t, ".mounts[7].options", "\"remount\" is not supported");
		free(dir);
	}
	struct lc t;
	mt_init(&t);
	lc_add_tmpfs(&t, "/data", "remount,ro");
	assert_run_error(&t, ".mounts[7].options", "\"remount\" is not supported");
}

Test(mounts, missing_bind_source_is_an_error_naming_the_mount)
{
	struct lc t;
	mt_init(&t);
	char *dir = ctt_tmpdir(), *missing = ctt_path(dir, "missing");
	lc_add_mount(&t, "/data", "bind", missing, "bind");
	assert_run_error(&t, "mount #7 \"/data\"", missing);
	free(missing);
	free(dir);
}

Test(mounts, unknown_filesystem_type_is_an_error_naming_the_mount)
{
	struct lc t;
	mt_init(&t);
	lc_add_mount(&t, "/data", "nosuchfs", "none", NULL);
	assert_run_error(&t, "mount #7 \"/data\"", "nosuchfs");
}

/* The config parser refuses it, naming the field. */
Test(mounts, device_of_an_invalid_type_is_an_error)
{
	struct lc t;
	mt_init(&t);
	lc_config_append(&t, ".linux.devices",
			 "{\"path\":\"/dev/x\",\"type\":\"q\",\"major\":1,\"minor\":3}");
	assert_run_error(&t, ".linux.devices[0].type", "\"q\"");
}

/* config.md "idmap": without mappings of its own and without a user namespace to take
 * them from, an id-mapped mount is an error (runtime.md#errors). */
Test(mounts, idmap_without_any_mapping_is_an_error)
{
	static const char *const options[] = {"bind,idmap", "rbind,ridmap"};
	for (size_t i = 0; i < 2; i++) {
		struct lc t;
		mt_init(&t);
		char *dir = host_dir();
		lc_add_mount(&t, "/data", "bind", dir, options[i]);
		assert_run_error(&t, "config.json: .mounts[7]: an id-mapped mount needs",
				 "uidMappings and gidMappings, or a user namespace");
		free(dir);
	}
}

/* A config's mount on a default node's path stands, as under runc 1.1.5 and crun 1.8.1
 * (their mknod finds it there): ctrun bound the host's node over it. The null device that
 * masks files must be the null device: a mount over /dev/null is then refused. */
Test(mounts, config_mount_on_a_default_device_stands)
{
	struct lc t;
	mt_init(&t);
	lc_add_mount(&t, "/dev/full", "bind", "/dev/zero", "bind");
	lc_assert_sh_output(&t,
			    "stat -c '%t:%T' /dev/full; head -c 2 /dev/full | od -An -tx1; "
			    "grep -c ' /dev/full ' /proc/self/mountinfo",
			    "1:5\n 00 00\n1\n");
	lc_assert_nothing_left(&t);
	mt_init(&t);
	lc_add_mount(&t, "/dev/null", "bind", "/dev/zero", "bind");
	assert_run_error(&t, "mask \"/proc/", "\"/dev/null\" is not the null device");
}
