/* Hostile images: symlinks and ".." in the rootfs pointing at the host, and a
 * directory swapped for such a symlink while containers are created. Each test owns a host
 * victim (a directory and a file with known content, mode and owner, under its tmpdir) and
 * proves, after the containers are gone, that it is unchanged: same content, mode, owner,
 * nothing created in it, and no mount on it in the test's own mountinfo. Where the image
 * holds a copy of the victim at the same path, what the config asked for happens to that
 * copy inside the rootfs, which the container shows. A root.path that is itself a symlink
 * is refused outright. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(hostile, .fini = lc_cleanup);

#define ID "hostile"

struct victim {
	char *top;  /* the test's host directory */
	char *dir;  /* top/victim-dir, holding "v" */
	char *file; /* top/victim-file */
};

static void write_with_mode(const char *path, const char *text, mode_t mode)
{
	ctt_write_file(path, text);
	cr_assert_eq(chmod(path, mode), 0, "chmod %s: %s", path, strerror(errno));
}

static void victim_make(struct victim *v)
{
	v->top = ctt_tmpdir();
	v->dir = ctt_path(v->top, "victim-dir");
	v->file = ctt_path(v->top, "victim-file");
	ctt_mkdir_p(v->dir);
	cr_assert_eq(chmod(v->dir, 0750), 0);
	char *inner = ctt_path(v->dir, "v");
	write_with_mode(inner, "victim", 0640);
	write_with_mode(v->file, "victim", 0600);
	free(inner);
}

static void expect_node(const char *path, mode_t type_mode, const char *text)
{
	struct stat st;
	cr_assert_eq(lstat(path, &st), 0, "lstat %s: %s", path, strerror(errno));
	cr_expect_eq(st.st_mode, type_mode, "%s: mode %o, not %o", path, st.st_mode, type_mode);
	cr_expect(st.st_uid == 0 && st.st_gid == 0, "%s: owner %u:%u", path, st.st_uid, st.st_gid);
	if (text) {
		char *got = ctt_read_file(path);
		cr_expect_str_eq(got, text, "%s changed", path);
		free(got);
	}
}

/* Content, mode, owner as made; nothing new in the top directory or in victim-dir; no
 * mount on or below it in our mount namespace. */
static void assert_victim_intact(const struct victim *v)
{
	expect_node(v->dir, S_IFDIR | 0750, NULL);
	char *inner = ctt_path(v->dir, "v");
	expect_node(inner, S_IFREG | 0640, "victim");
	expect_node(v->file, S_IFREG | 0600, "victim");
	cr_expect_eq(ctt_count_entries(v->dir), 1, "something was created in %s", v->dir);
	cr_expect_eq(ctt_count_entries(v->top), 2, "something was created in %s", v->top);
	char *mounts = ctt_read_file("/proc/self/mountinfo");
	cr_expect_null(strstr(mounts, v->top), "a mount on the victim:\n%s", mounts);
	free(mounts);
	free(inner);
}

/* The victim intact and nothing of t left. */
static void assert_untouched(const struct lc *t, const struct victim *v)
{
	assert_victim_intact(v);
	lc_assert_nothing_left(t);
}

/* A container with a writable root, and its victim on the host. */
static struct victim hs_init(struct lc *t)
{
	lc_init(t);
	ctt_config_set(t->bundle, ".root.readonly", "false");
	struct victim v;
	victim_make(&v);
	return v;
}

/* A symlink at rootfs/rel (parents made) pointing at target. */
static void image_symlink(const struct lc *t, const char *rel, const char *target)
{
	char *link = lc_rootfs_path(t, rel);
	char *slash = strrchr(link, '/');
	*slash = '\0';
	ctt_mkdir_p(link);
	*slash = '/';
	cr_assert_eq(symlink(target, link), 0, "symlink %s: %s", link, strerror(errno));
	free(link);
}

/* The image's own copy of the victim at the same absolute path, so that a symlink to it
 * leads somewhere inside; text marks it. */
static char *image_copy(const struct lc *t, const char *host_path, bool dir, const char *text)
{
	char *copy = lc_rootfs_path(t, host_path + 1);
	if (dir) {
		ctt_mkdir_p(copy);
		char *f = ctt_path(copy, "v");
		ctt_write_file(f, text);
		free(f);
	} else {
		char *parent = strdup(copy);
		*strrchr(parent, '/') = '\0';
		ctt_mkdir_p(parent);
		ctt_write_file(copy, text);
		free(parent);
	}
	return copy;
}

/* Runs `sh -c script`, expecting success, and returns its output. */
static char *run_sh(const struct lc *t, const char *fmt, const char *arg)
{
	char *script;
	cr_assert_geq(asprintf(&script, fmt, arg, arg, arg), 0);
	char *out = lc_sh_output(t, script);
	free(script);
	return out;
}

/* The container's mountinfo has a tmpfs on path. */
static void expect_tmpfs_inside(const char *out, const char *path)
{
	char re[512];
	snprintf(re, sizeof(re), "^[0-9]+ [0-9]+ [0-9:]+ / %s [^ ]+ .*- tmpfs ", path);
	cr_expect(ctt_matches(out, re), "no tmpfs on %s inside:\n%s", path, out);
}

/* ---- mount destinations ---- */

/* rootfs/evil -> HOST/victim-dir, a tmpfs on /evil: it lands on the path inside. */
Test(hostile, mount_on_a_symlink_to_a_host_directory)
{
	struct lc t;
	struct victim v = hs_init(&t);
	image_symlink(&t, "evil", v.dir);
	lc_add_tmpfs(&t, "/evil", NULL);
	char *out = run_sh(&t, "cat /proc/self/mountinfo; ls -A %s", v.dir);
	expect_tmpfs_inside(out, v.dir);
	assert_untouched(&t, &v);
	free(out);
}

/* rootfs/root -> "/", a tmpfs on /root/HOST/victim-dir. */
Test(hostile, mount_below_a_symlink_to_the_root)
{
	struct lc t;
	struct victim v = hs_init(&t);
	image_symlink(&t, "hostroot", "/");
	char dest[4096];
	snprintf(dest, sizeof(dest), "/hostroot%s", v.dir);
	lc_add_tmpfs(&t, dest, NULL);
	char *out = run_sh(&t, "cat /proc/self/mountinfo", NULL);
	expect_tmpfs_inside(out, v.dir);
	assert_untouched(&t, &v);
	free(out);
}

/* CVE-2024-45310: mount points made for file binds below a symlink that climbs out of the
 * root: one of the image's, and one on a volume (a directory of the host's, bound at /vol,
 * where another container sharing it could plant or swap it). The empty file and the
 * directories on the way are made inside the rootfs, never in the host's victim-dir. */
Test(hostile, mount_points_made_below_a_symlink_that_climbs_out)
{
	struct lc t;
	struct victim v = hs_init(&t);
	char target[4096];
	snprintf(target, sizeof(target), "/../../../../..%s", v.dir);
	image_symlink(&t, "up", target);
	char *volume = ctt_tmpdir();
	char *planted = ctt_path(volume, "up");
	cr_assert_eq(symlink(target, planted), 0, "symlink %s: %s", planted, strerror(errno));
	lc_add_mount(&t, "/vol", "bind", volume, "rbind");
	lc_add_mount(&t, "/up/made-dir/made-file", "bind", v.file, "bind");
	lc_add_mount(&t, "/vol/up/vol-dir/vol-file", "bind", v.file, "bind");
	char *out = run_sh(&t, "cat %s/made-dir/made-file %s/vol-dir/vol-file", v.dir);
	cr_expect_str_eq(out, "victimvictim", "the binds are not where the config asked");
	char *inside = lc_rootfs_path(&t, v.dir + 1);
	char *file = ctt_path(inside, "made-dir/made-file"),
	     *vol_file = ctt_path(inside, "vol-dir/vol-file");
	cr_expect(ctt_exists(file) && ctt_exists(vol_file),
		  "the mount points are not in the rootfs");
	assert_untouched(&t, &v);
	cr_expect_eq(ctt_count_entries(volume), 1, "something was created in the volume");
	free(vol_file);
	free(file);
	free(inside);
	free(out);
	free(planted);
	free(volume);
}

/* ctrun without openat2: its paths go through the O_NOFOLLOW walk. */
static void without_openat2(struct lc *t)
{
	static const char *argv[4];
	argv[0] = strdup(ctt_helper("enosys"));
	argv[1] = "openat2";
	argv[2] = "--";
	t->wrapper = argv;
}

/* A relative symlink climbing far above the root, and ".." in the destination itself. */
static void assert_dotdot_stays_inside(bool walk)
{
	struct lc t;
	struct victim v = hs_init(&t);
	if (walk)
		without_openat2(&t);
	char target[4096], dest[4096];
	snprintf(target, sizeof(target), "../../../../../../../..%s", v.dir);
	image_symlink(&t, "a/b/dots", target);
	lc_add_tmpfs(&t, "/a/b/dots", NULL);
	snprintf(dest, sizeof(dest), "/../../../..%s/../victim-file-dir", v.dir);
	lc_add_tmpfs(&t, dest, NULL);
	char *out = run_sh(&t, "cat /proc/self/mountinfo", NULL);
	expect_tmpfs_inside(out, v.dir);
	char *other = ctt_path(v.top, "victim-file-dir");
	expect_tmpfs_inside(out, other);
	free(other);
	assert_untouched(&t, &v);
	free(out);
}

Test(hostile, dotdot_chains_stay_in_the_root)
{
	assert_dotdot_stays_inside(false);
}

Test(hostile, dotdot_chains_stay_in_the_root_without_openat2)
{
	assert_dotdot_stays_inside(true);
}

/* ---- devices, masked and read-only paths ---- */

/* A char device 1:minor at path, mode 0666, owned by 1000:1000. */
static void add_char_device(const struct lc *t, const char *path, int minor)
{
	char json[256];
	snprintf(json, sizeof(json),
		 "{\"path\":\"%s\",\"type\":\"c\",\"major\":1,\"minor\":%d,"
		 "\"fileMode\":438,\"uid\":1000,\"gid\":1000}",
		 path, minor);
	lc_config_append(t, ".linux.devices", json);
}

/* /evildev -> HOST/victim-file and /devdir -> HOST (a node made in it): the image's
 * symlink is replaced by the node, the host file is neither replaced nor chmod'ed nor
 * chown'ed, and nothing is made in the host directory. */
Test(hostile, device_path_symlinked_to_a_host_file)
{
	struct lc t;
	struct victim v = hs_init(&t);
	image_symlink(&t, "evildev", v.file);
	image_symlink(&t, "devdir", v.top);
	add_char_device(&t, "/evildev", 3);
	add_char_device(&t, "/devdir/node", 5);
	char *out = run_sh(&t, "ls -ln /evildev %s/node", v.top);
	ctt_assert_line(out, "^crw-rw-rw- +1 +1000 +1000 +1, +3 .*/evildev$");
	ctt_assert_line(out, "^crw-rw-rw- +1 +1000 +1000 +1, +5 .*/node$");
	assert_untouched(&t, &v);
	free(out);
}

/* /etc/evil -> HOST/victim-file: with no such file in the image it is not masked at all;
 * with the image's own copy there, that copy is masked. The host file, never. */
Test(hostile, masked_path_symlinked_to_a_host_file)
{
	struct lc t;
	struct victim v = hs_init(&t);
	image_symlink(&t, "etc/evil", v.file);
	image_symlink(&t, "etc/evil-dangling", "/nowhere/../../victim");
	lc_config_append(&t, ".linux.maskedPaths", "\"/etc/evil\"");
	lc_config_append(&t, ".linux.maskedPaths", "\"/etc/evil-dangling\"");
	char *out = run_sh(&t, "echo \"dangling=$(cat /etc/evil 2>&1 | grep -c victim)\"", NULL);
	cr_expect(ctt_matches(out, "^dangling=0$"), "the host file is seen inside: %s", out);
	free(out);
	char *copy = image_copy(&t, v.file, false, "image copy");
	out = run_sh(&t, "echo \"size=$(cat /etc/evil | wc -c)\"; grep ' %s ' /proc/self/mountinfo",
		     v.file);
	cr_expect(ctt_matches(out, "^size=0$"), "the image's copy is not masked: %s", out);
	char *text = ctt_read_file(copy);
	cr_expect_str_eq(text, "image copy");
	assert_untouched(&t, &v);
	free(text);
	free(copy);
	free(out);
}

/* /etc/ro -> HOST/victim-dir, the image holding its own copy: that copy is read-only inside,
 * the host directory still writable by the host. */
Test(hostile, readonly_path_symlinked_to_a_host_directory)
{
	struct lc t;
	struct victim v = hs_init(&t);
	image_symlink(&t, "etc/ro", v.dir);
	char *copy = image_copy(&t, v.dir, true, "image copy");
	lc_config_append(&t, ".linux.readonlyPaths", "\"/etc/ro\"");
	char *out = run_sh(&t,
			   "cat /etc/ro/v; echo; if touch %s/x 2>/dev/null; then echo written; "
			   "else echo refused; fi",
			   v.dir);
	ctt_assert_line(out, "^image copy$");
	cr_expect(ctt_matches(out, "^refused$"), "the copy is writable inside: %s", out);
	assert_victim_intact(&v);
	char *probe = ctt_path(v.dir, "probe");
	ctt_write_file(probe, "host can write");
	cr_expect_eq(unlink(probe), 0);
	lc_assert_nothing_left(&t);
	free(probe);
	free(copy);
	free(out);
}

/* ---- the root itself ---- */

/* root.path a symlink (relative, absolute) to a real rootfs: refused naming the path, so
 * an image cannot choose where the root is. */
Test(hostile, root_path_that_is_a_symlink_is_refused)
{
	struct lc t;
	lc_init(&t);
	char *real = ctt_path(t.bundle, "rootfs"), *rel = ctt_path(t.bundle, "rel-link");
	char *abs = ctt_path(t.bundle, "abs-link");
	cr_assert_eq(symlink("rootfs", rel), 0);
	cr_assert_eq(symlink(real, abs), 0);
	const char *const links[][2] = {{"\"rel-link\"", rel}, {NULL, abs}};
	for (size_t i = 0; i < 2; i++) {
		char *q = ctt_json_quote(links[i][1]), *named;
		ctt_config_set(t.bundle, ".root.path", links[i][0] ? links[i][0] : q);
		cr_assert_geq(asprintf(&named, "\"%s\" is a symlink", links[i][1]), 0);
		lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID), ".root.path",
				named);
		lc_assert_nothing_left(&t);
		free(named);
		free(q);
	}
	ctt_config_set(t.bundle, ".root.path", "\"rootfs\"");
	char *out = lc_sh_output(&t, "echo ran");
	cr_expect_str_eq(out, "ran\n", "the directory itself is fine");
	lc_assert_nothing_left(&t);
	free(out);
	free(abs);
	free(rel);
	free(real);
}

/* A process with a mount namespace of its own where bundle is bound at dir/b, under a tmpfs
 * that hides it from ours: dir/b is nothing here. */
static pid_t bind_elsewhere(const char *bundle, const char *dir)
{
	int ready[2];
	cr_assert_eq(pipe(ready), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		char *b = ctt_path(dir, "b");
		char ok = unshare(CLONE_NEWNS) == 0 &&
				  mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
				  mount("ctt", dir, "tmpfs", 0, NULL) == 0 && mkdir(b, 0700) == 0 &&
				  mount(bundle, b, NULL, MS_BIND | MS_REC, NULL) == 0
			  ? 'y'
			  : 'n';
		if (write(ready[1], &ok, 1) != 1 || ok != 'y')
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	char ok = 'n';
	cr_assert_eq(read(ready[0], &ok, 1), 1);
	close(ready[0]);
	cr_assert_eq(ok, 'y', "a mount namespace with the bundle bound");
	return pid;
}

/* A bundle, or a root.path, reached through /proc/PID/root of another mount namespace: the
 * kernel names it as seen from there ("<dir>/b"), which here is another file (none at all):
 * refused naming the path, never read or mounted through the host's name. */
Test(hostile, bundle_and_root_through_another_mount_namespace_refused)
{
	struct lc t;
	lc_init(&t);
	char *dir = ctt_tmpdir(), *via;
	pid_t pid = bind_elsewhere(t.bundle, dir);
	cr_assert_geq(asprintf(&via, "/proc/%d/root%s/b", (int)pid, dir), 0);
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", via, ID), via, "Cross-device link");
	lc_assert_nothing_left(&t);
	char *root = ctt_path(via, "rootfs"), *q = ctt_json_quote(root);
	ctt_config_set(t.bundle, ".root.path", q);
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID), ".root.path",
			"Cross-device link");
	lc_assert_nothing_left(&t);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	free(q);
	free(root);
	free(via);
	free(dir);
}

/* ---- a directory swapped for a symlink during create ---- */

#define SWAP_RUNS 200

/* Forks a child that exchanges a and b until killed (also when the test process dies). */
static pid_t start_swapper(const char *a, const char *b)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		for (;;)
			renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
	}
	return pid;
}

/* rootfs/swap is a directory or a symlink to HOST/victim-dir, exchanged in a loop while 200
 * containers bind a host directory onto /swap/sub. Each run works (whichever it met) or is
 * refused by the mount check, which sees that what /swap/sub leads to changed after the
 * mount; and the victim never gets the mount or the "sub" directory. */
#define MAPPED_ROOT 100000

/* The swap again inside a user namespace (0 -> MAPPED_ROOT) under a seccomp profile: the
 * mapped root owns the rootfs and may search the bundle and the bind source. */
static void confine(const struct lc *t, const char *src)
{
	lc_map_root(t, MAPPED_ROOT, 65536);
	ctt_config_set(t->bundle, ".linux.seccomp",
		       "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": "
		       "[\"kexec_load\"], \"action\": \"SCMP_ACT_ERRNO\"}]}");
	ctt_make_searchable(src);
}

static void assert_swap_harmless(bool walk, bool confined)
{
	struct lc t;
	struct victim v = hs_init(&t);
	if (walk)
		without_openat2(&t);
	lc_set_script(&t, "true");
	char *src = ctt_tmpdir();
	char *srcf = ctt_path(src, "f");
	ctt_write_file(srcf, "bound");
	lc_add_mount(&t, "/swap/sub", "bind", src, "bind");
	char *dir = lc_rootfs_path(&t, "swap"), *link = lc_rootfs_path(&t, "swaplink");
	ctt_mkdir_p(dir);
	cr_assert_eq(symlink(v.dir, link), 0);
	if (confined)
		confine(&t, src);
	pid_t swapper = start_swapper(dir, link);
	int failures = 0, refused = 0;
	char first_error[512] = "";
	for (int i = 0; i < SWAP_RUNS; i++) {
		struct ctt_result r;
		lc_ctrun(&r, &t, "run", "--bundle", t.bundle, ID);
		if (r.status != 0 && strstr(r.err, "mount #7 \"/swap/sub\": "))
			refused++;
		else if (r.status != 0 && !failures++)
			snprintf(first_error, sizeof(first_error), "%s", r.err);
		ctt_result_free(&r);
	}
	kill(swapper, SIGKILL);
	waitpid(swapper, NULL, 0);
	cr_expect_eq(failures, 0,
		     "%d of %d runs failed otherwise than by the mount check, the "
		     "first: %s",
		     failures, SWAP_RUNS, first_error);
	cr_expect_lt(refused, SWAP_RUNS, "every run was refused");
	cr_log_info("swap: %d of %d runs refused by the mount check", refused, SWAP_RUNS);
	/* the symlink was met at least once: its target was made inside the rootfs */
	char *inside = lc_rootfs_path(&t, v.dir + 1), *sub = ctt_path(inside, "sub");
	cr_expect(ctt_exists(sub), "no run met the symlink");
	assert_untouched(&t, &v);
	free(sub);
	free(inside);
	free(link);
	free(dir);
	free(srcf);
	free(src);
}

Test(hostile, directory_swapped_for_a_symlink_during_create)
{
	assert_swap_harmless(false, false);
}

Test(hostile, directory_swapped_for_a_symlink_during_create_without_openat2)
{
	assert_swap_harmless(true, false);
}

Test(hostile, directory_swapped_in_a_user_namespace_under_seccomp)
{
	assert_swap_harmless(false, true);
}
