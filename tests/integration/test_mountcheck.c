/* Mount verification (libct/verify/mountcheck.h): before READY the child compares the live mount
 * table with what config.json asked for. A container with every kind of mount passes it
 * with both back ends (statmount, and mountinfo under the enosys helper); a mount covered by
 * a later one (through a symlink in the image) is refused naming it, unless the global
 * --no-verify-mounts skips the check. The --debug log says which back end verified. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(mountcheck, .fini = lc_cleanup);

#define ID		 "mcheck"
#define RECEIVER_WAIT_MS 20000
#define VERIFIED	 "mounts verified with "

static const char *const no_statmount[] = {"statmount,listmount", NULL};
static const char *const statmount_eperm[] = {"--errno", "EPERM", "statmount,listmount", NULL};

/* A host directory with a file and a tmpfs submount "sub": a bind and rbind source. */
static char *source_with_submount(void)
{
	char *dir = ctt_tmpdir(), *f = ctt_path(dir, "f"), *sub = ctt_path(dir, "sub");
	ctt_write_file(f, "host");
	ctt_mkdir_p(sub);
	ctt_mount_tmpfs(sub, 0, "size=1m");
	free(sub);
	free(f);
	return dir;
}

/* Binds ro and rw, an rbind with rro, tmpfs with data and flags, every propagation, on top
 * of the default proc, sysfs, mqueue, devpts, cgroup, masked and read-only paths; a
 * read-only root and a terminal. */
static void every_kind(const struct lc *t, const char *dir)
{
	char *file = ctt_path(dir, "f");
	lc_add_option_mounts(t, dir);
	lc_add_mount(t, "/rw", "bind", dir, "bind,rw");
	lc_add_mount(t, "/file", "bind", file, "bind,ro");
	lc_add_mount(t, "/unbindable", "tmpfs", "tmpfs", "unbindable");
	lc_add_mount(t, "/private", "tmpfs", "tmpfs", "private");
	lc_config_append(t, ".linux.maskedPaths", "\"/etc/passwd\"");
	lc_config_append(t, ".linux.readonlyPaths", "\"/t\"");
	ctt_config_set(t->bundle, ".root.readonly", "true");
	ctt_config_set(t->bundle, ".process.terminal", "true");
	free(file);
}

/* What the container reports of its mounts, ending with "done". */
#define INSIDE                                                                  \
	"grep -c . /proc/self/mountinfo | sed 's/^/mounts /'; "                 \
	"grep -q ' /dev/console ' /proc/self/mountinfo && echo console-bound; " \
	"if touch /rro/sub/x 2>/dev/null; then echo rro-sub-writable; fi; "     \
	"if touch /x 2>/dev/null; then echo root-writable; fi; echo done"

/* `--debug run` of every_kind under enosys_args (NULL: none); returns ctrun's stderr and
 * what the container printed on its terminal (malloc'd). */
static char *run_every_kind(const char *const *enosys_args, char **inside)
{
	struct lc t;
	const char *argv[LC_WRAPPER_MAX];
	lc_init(&t);
	char *dir = source_with_submount();
	every_kind(&t, dir);
	lc_set_script(&t, INSIDE);
	char *tmp = ctt_tmpdir(), *sock = ctt_path(tmp, "console.sock");
	char *out = ctt_path(tmp, "receiver.out");
	pid_t receiver = lc_console_receiver(&t, sock, out, NULL);
	lc_wrap_enosys(&t, argv, enosys_args);
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "run", "--bundle", t.bundle, "--console-socket", sock, ID);
	cr_assert_eq(r.status, 0, "run: exit %d, stderr:\n%s", r.status, r.err);
	cr_expect_eq(lc_wait(receiver, RECEIVER_WAIT_MS), 0, "console_receiver failed");
	*inside = ctt_read_file(out);
	char *err = strdup(r.err);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
	free(out);
	free(sock);
	free(tmp);
	free(dir);
	return err;
}

/* The container ran as asked, its mounts verified with backend. */
static void assert_verified(const char *const *enosys_args, const char *backend)
{
	char *inside, *err = run_every_kind(enosys_args, &inside);
	char needle[64];
	/* every mount of the config is its own: none is extra */
	snprintf(needle, sizeof(needle), VERIFIED "%s: ", backend);
	cr_expect(strstr(err, " checked, 0 extra\n"), "extra mounts reported:\n%s", err);
	cr_expect(strstr(err, needle), "the debug log does not say \"%s\":\n%s", needle, err);
	cr_expect(strstr(inside, "console-bound"), "no mount on /dev/console:\n%s", inside);
	cr_expect_null(strstr(inside, "rro-sub-writable"), "rro missed the submount:\n%s", inside);
	cr_expect_null(strstr(inside, "root-writable"), "the root is writable:\n%s", inside);
	cr_expect(strstr(inside, "done"), "the container did not finish:\n%s", inside);
	free(inside);
	free(err);
}

Test(mountcheck, every_kind_of_mount_passes_with_statmount)
{
	assert_verified(NULL, "statmount");
}

Test(mountcheck, every_kind_of_mount_passes_with_mountinfo_when_statmount_is_enosys)
{
	assert_verified(no_statmount, "mountinfo");
}

Test(mountcheck, every_kind_of_mount_passes_with_mountinfo_when_statmount_is_eperm)
{
	assert_verified(statmount_eperm, "mountinfo");
}

/* ---- a mount that is not what was planned ---- */

static void covered_config(struct lc *t)
{
	lc_init(t);
	lc_covered_mounts(t);
}

static void assert_covered_refused(const char *const *enosys_args)
{
	struct lc t;
	const char *argv[LC_WRAPPER_MAX];
	covered_config(&t);
	lc_wrap_enosys(&t, argv, enosys_args);
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID), LC_COVERED_REFUSAL);
	lc_assert_nothing_left(&t);
}

Test(mountcheck, mount_covered_by_a_later_one_is_refused)
{
	assert_covered_refused(NULL);
}

Test(mountcheck, mount_covered_by_a_later_one_is_refused_with_mountinfo)
{
	assert_covered_refused(no_statmount);
}

/* A symlink in the image: rootfs/link -> /real. */
static void image_link_to_real(const struct lc *t)
{
	char *real = lc_rootfs_path(t, "real"), *link = lc_rootfs_path(t, "link");
	ctt_mkdir_p(real);
	cr_assert_eq(symlink("/real", link), 0, "symlink %s", link);
	free(real);
	free(link);
}

/* The image's /real and /other, plainly. */
static void image_real_and_other(const struct lc *t)
{
	char *real = lc_rootfs_path(t, "real"), *other = lc_rootfs_path(t, "other");
	ctt_mkdir_p(real);
	ctt_mkdir_p(other);
	free(real);
	free(other);
}

/* A read-only tmpfs at a destination that is not written as the table shows it (through a
 * symlink of the image, or with "." and ".."): the mount is at /real/t, and the check asks
 * the kernel where the configured destination leads. */
static void assert_destination_verified(void (*make_image)(const struct lc *), const char *dest,
					const char *const *enosys_args, const char *backend)
{
	struct lc t;
	const char *argv[LC_WRAPPER_MAX];
	lc_init(&t);
	make_image(&t);
	lc_add_mount(&t, dest, "tmpfs", "tmpfs", "ro");
	lc_set_script(&t, "grep -c ' /real/t ' /proc/self/mountinfo; "
			  "if touch /real/t/f 2>/dev/null; then echo writable; fi");
	lc_wrap_enosys(&t, argv, enosys_args);
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "run", "--bundle", t.bundle, ID);
	char needle[64];
	snprintf(needle, sizeof(needle), VERIFIED "%s: ", backend);
	cr_expect_eq(r.status, 0, "run: exit %d, stderr:\n%s", r.status, r.err);
	cr_expect(strstr(r.err, needle), "the debug log does not say \"%s\":\n%s", needle, r.err);
	cr_expect_str_eq(r.out, "1\n", "the read-only tmpfs is not (only) at /real/t");
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

Test(mountcheck, destination_through_a_symlink_is_verified)
{
	assert_destination_verified(image_link_to_real, "/link/t", NULL, "statmount");
}

Test(mountcheck, destination_through_a_symlink_is_verified_with_mountinfo)
{
	assert_destination_verified(image_link_to_real, "/link/t", no_statmount, "mountinfo");
}

Test(mountcheck, destination_with_dot_dot_is_verified)
{
	assert_destination_verified(image_real_and_other, "/other/../real/./t", NULL, "statmount");
}

Test(mountcheck, destination_with_dot_dot_is_verified_with_mountinfo)
{
	assert_destination_verified(image_real_and_other, "/other/../real/./t", no_statmount,
				    "mountinfo");
}

/* A later mount through the symlink lands on /real, a directory above the earlier
 * /real/t: that one is still mounted, but no path leads to it any more. */
static void assert_bypassed_refused(const char *const *enosys_args)
{
	struct lc t;
	const char *argv[LC_WRAPPER_MAX];
	lc_init(&t);
	image_link_to_real(&t);
	lc_add_mount(&t, "/real/t", "tmpfs", "tmpfs", "ro");
	lc_add_mount(&t, "/link", "tmpfs", "tmpfs", "rw");
	lc_wrap_enosys(&t, argv, enosys_args);
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID), "mount #7 \"/real/t\"",
			"the path no longer leads to a mount");
	lc_assert_nothing_left(&t);
}

Test(mountcheck, mount_cut_off_by_a_later_one_above_it_is_refused)
{
	assert_bypassed_refused(NULL);
}

Test(mountcheck, mount_cut_off_by_a_later_one_above_it_is_refused_with_mountinfo)
{
	assert_bypassed_refused(no_statmount);
}

/* The same config runs without the check: /x is then the later, writable tmpfs. */
Test(mountcheck, no_verify_mounts_lets_the_covered_mount_run)
{
	struct lc t;
	covered_config(&t);
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "--no-verify-mounts", "run", "--bundle", t.bundle, ID);
	cr_assert_eq(r.status, 0, "run: exit %d, stderr:\n%s", r.status, r.err);
	cr_expect(ctt_matches(r.out, "^x-writable$"), "/x is not the rw tmpfs:\n%s", r.out);
	cr_expect(ctt_matches(r.out, " /x rw,.* - tmpfs "), "no rw tmpfs on /x:\n%s", r.out);
	cr_expect_null(strstr(r.err, VERIFIED), "verified all the same:\n%s", r.err);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

Test(mountcheck, no_verify_mounts_gives_no_verified_line)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "echo ran");
	struct ctt_result with, without;
	lc_ctrun(&with, &t, "--debug", "run", "--bundle", t.bundle, ID);
	lc_ctrun(&without, &t, "--debug", "--no-verify-mounts", "run", "--bundle", t.bundle, ID);
	cr_assert_eq(with.status, 0, "run: %s", with.err);
	cr_assert_eq(without.status, 0, "run --no-verify-mounts: %s", without.err);
	cr_expect(strstr(with.err, VERIFIED "statmount"), "no verified line:\n%s", with.err);
	cr_expect_null(strstr(without.err, VERIFIED), "%s", without.err);
	cr_expect_str_eq(without.out, "ran\n");
	ctt_result_free(&with);
	ctt_result_free(&without);
	lc_assert_nothing_left(&t);
}

/* ---- later mounts over or below earlier ones, as asked: not a difference ---- */

/* A later sysfs on /sys covers the default cgroup mount and its hierarchies. */
Test(mountcheck, later_mount_over_the_cgroup_hierarchies_is_accepted)
{
	struct lc t;
	lc_init(&t);
	lc_add_mount(&t, "/sys", "sysfs", "sysfs", "ro");
	struct ctt_result r;
	lc_run_sh(&r, &t, ID, "grep ' /sys' /proc/self/mountinfo");
	cr_expect_eq(r.status, 0, "run: exit %d, stderr:\n%s", r.status, r.err);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

/* rro applies to what is below the bind when it is made; a tmpfs mounted there later is
 * rw as asked. */
Test(mountcheck, later_rw_mount_below_an_rro_bind_is_accepted)
{
	struct lc t;
	lc_init(&t);
	char *dir = source_with_submount(), *point = ctt_path(dir, "sub/later");
	ctt_mkdir_p(point); /* the rro bind cannot have it made */
	free(point);
	lc_add_mount(&t, "/rro", "bind", dir, "rbind,rro");
	lc_add_mount(&t, "/rro/sub/later", "tmpfs", "tmpfs", "rw");
	lc_assert_sh_output(&t, "touch /rro/sub/later/x && echo later-writable",
			    "later-writable\n");
	lc_assert_nothing_left(&t);
	free(dir);
}

/* A bind source in the rootfs under an earlier mount of the container: the bind is of what
 * covers it (the tmpfs), as the child sees the path when it binds it. */
Test(mountcheck, bind_of_a_source_under_an_earlier_mount_is_accepted)
{
	struct lc t;
	lc_init(&t);
	char *dir = lc_rootfs_path(&t, "shared");
	ctt_mkdir_p(dir); /* the parent sees it, on the bundle's file system */
	free(dir);
	lc_add_mount(&t, "/shared", "tmpfs", "tmpfs", "size=1m");
	lc_add_mount(&t, "/seen", "bind", "rootfs/shared", "bind");
	lc_assert_sh_output(&t, "touch /shared/f && ls /seen", "f\n");
	lc_assert_nothing_left(&t);
}
