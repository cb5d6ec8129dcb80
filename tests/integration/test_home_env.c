/* HOME for a process.env without one, as runc 1.1.5 sets it (and crun 1.8.1 where they
 * agree): the home of process.user.uid in the container's /etc/passwd, "/" without the file
 * or the entry; for run, create + start, exec, exec --user and exec --process. The file is
 * the one the container sees (a config bind over it counts), read inside its root: a
 * symlink to a host path is looked up inside; a FIFO, a directory or a masked path counts
 * as no file and is never opened; an oversized file is refused with one error. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(home_env, .fini = lc_cleanup);

#define ID "home"
#define PASSWD                                     \
	"root:x:0:0:root:/var/root:/bin/sh\n"      \
	"alice:x:1000:1000::/home/alice:/bin/sh\n" \
	"nobody:x:65534:65534:nobody:/nonexistent:/bin/false\n"
#define SHOW_HOME      "echo \"HOME=[${HOME-unset}]\""
#define SHOW_HOME_JSON "echo \\\"HOME=[${HOME-unset}]\\\"" /* in a JSON string */

/* A bundle whose env has no HOME, whose /etc/passwd is PASSWD, run as uid. */
static void home_init(struct lc *t, unsigned uid)
{
	lc_init(t);
	ctt_config_set(t->bundle, ".root.readonly", "false");
	ctt_config_set(t->bundle, ".process.env", "[\"PATH=/bin:/usr/bin\"]");
	char user[64];
	snprintf(user, sizeof(user), "{\"uid\": %u, \"gid\": %u}", uid, uid);
	ctt_config_set(t->bundle, ".process.user", user);
	char *passwd = lc_rootfs_file(t, "etc/passwd", PASSWD);
	free(passwd);
}

/* `run` of SHOW_HOME: its line. */
static void assert_run_home(const struct lc *t, const char *want, const char *why)
{
	char *out = lc_sh_output(t, SHOW_HOME);
	cr_expect_str_eq(out, want, "%s", why);
	free(out);
}

static void set_env(const struct lc *t, const char *json)
{
	ctt_config_set(t->bundle, ".process.env", json);
}

Test(home_env, run_takes_the_home_of_the_uid_or_slash)
{
	struct lc t;
	home_init(&t, 1000);
	assert_run_home(&t, "HOME=[/home/alice]\n", "uid 1000 has an entry");
	set_env(&t, "[\"PATH=/bin\", \"HOME=\"]");
	assert_run_home(&t, "HOME=[/home/alice]\n", "an empty HOME is none (runc)");
	set_env(&t, "[\"PATH=/bin\", \"HOME=/given\"]");
	assert_run_home(&t, "HOME=[/given]\n", "process.env's HOME stays");
	set_env(&t, "[\"PATH=/bin\"]");
	ctt_config_set(t.bundle, ".process.user", "{\"uid\": 2000, \"gid\": 2000}");
	assert_run_home(&t, "HOME=[/]\n", "uid 2000 has no entry");
	char *passwd = lc_rootfs_path(&t, "etc/passwd");
	cr_assert_eq(unlink(passwd), 0);
	ctt_config_set(t.bundle, ".process.user", "{\"uid\": 1000, \"gid\": 1000}");
	assert_run_home(&t, "HOME=[/]\n", "no /etc/passwd");
	free(passwd);
	lc_assert_nothing_left(&t);
}

/* create + start: the same, read by the init before the start (root's entry here). */
Test(home_env, create_and_start_take_it_too)
{
	struct lc t;
	home_init(&t, 0);
	lc_set_script(&t, SHOW_HOME " > /out");
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	lc_ok(&t, "start", ID);
	lc_assert_rootfs_content(&t, "out", "HOME=[/var/root]\n");
	lc_wait_status(&t, ID, "stopped");
	lc_ok(&t, "delete", ID);
	lc_assert_nothing_left(&t);
}

/* The file the container sees: a config mount bound over the image's /etc/passwd. */
Test(home_env, a_bind_over_etc_passwd_is_what_counts)
{
	struct lc t;
	home_init(&t, 1000);
	char *bound = ctt_write_tmp("passwd", "alice:x:1000:1000::/from-the-bind:/bin/sh\n");
	lc_add_mount(&t, "/etc/passwd", "bind", bound, "bind,ro");
	assert_run_home(&t, "HOME=[/from-the-bind]\n", "the bound file");
	free(bound);
}

/* A running container of uid 0 whose env has no HOME, for execs. */
static void exec_start(struct lc *t)
{
	home_init(t, 0);
	lc_set_args(t, LC_ARGV("sleep", "1000"));
	lc_ok(t, "run", "--detach", "--bundle", t->bundle, ID);
}

static void expect_exec_home(const struct lc *t, const char *const *args, const char *want)
{
	struct ctt_result r;
	lc_ctrunv(&r, t, args);
	cr_expect_eq(r.status, 0, "exec: exit %d, stderr: %s", r.status, r.err);
	cr_expect_str_eq(r.out, want, "exec %s", args[1]);
	ctt_result_free(&r);
}

Test(home_env, exec_takes_the_home_of_its_user)
{
	struct lc t;
	exec_start(&t);
	expect_exec_home(&t, LC_ARGV("exec", ID, "sh", "-c", SHOW_HOME), "HOME=[/var/root]\n");
	expect_exec_home(&t, LC_ARGV("exec", "--user", "1000", ID, "sh", "-c", SHOW_HOME),
			 "HOME=[/home/alice]\n");
	expect_exec_home(&t, LC_ARGV("exec", "--user", "2000:2000", ID, "sh", "-c", SHOW_HOME),
			 "HOME=[/]\n");
	expect_exec_home(&t, LC_ARGV("exec", "--env", "HOME=/e", ID, "sh", "-c", SHOW_HOME),
			 "HOME=[/e]\n");
	char *path = ctt_write_tmp("process.json",
				   "{\"args\":[\"sh\",\"-c\",\"" SHOW_HOME_JSON "\"],\"cwd\":\"/\","
				   "\"env\":[\"PATH=/bin\"],\"user\":{\"uid\":1000,\"gid\":1000}}");
	expect_exec_home(&t, LC_ARGV("exec", "--process", path, ID), "HOME=[/home/alice]\n");
	free(path);
	path = ctt_write_tmp(
		"process.json",
		"{\"args\":[\"sh\",\"-c\",\"" SHOW_HOME_JSON "\"],\"cwd\":\"/\","
		"\"env\":[\"PATH=/bin\",\"HOME=/pp\"],\"user\":{\"uid\":0,\"gid\":0}}");
	expect_exec_home(&t, LC_ARGV("exec", "--process", path, ID), "HOME=[/pp]\n");
	free(path);
	/* the container's own change of the file is what a later exec reads */
	expect_exec_home(&t,
			 LC_ARGV("exec", ID, "sh", "-c",
				 "echo 'root:x:0:0::/changed:/bin/sh' > /etc/passwd"),
			 "");
	expect_exec_home(&t, LC_ARGV("exec", ID, "sh", "-c", SHOW_HOME), "HOME=[/changed]\n");
	lc_ok(&t, "delete", "--force", ID);
	lc_assert_nothing_left(&t);
}

/* A symlink to a host path, absolute or climbing with "..", is looked up in the root: the
 * host file (a passwd of its own here) is never read. */
Test(home_env, a_symlink_out_of_the_rootfs_stays_inside)
{
	struct lc t;
	home_init(&t, 1000);
	char *host = ctt_write_tmp("host-passwd", "alice:x:1000:1000::/host-secret:/bin/sh\n");
	char *passwd = lc_rootfs_path(&t, "etc/passwd");
	cr_assert_eq(unlink(passwd), 0);
	cr_assert_eq(symlink(host, passwd), 0);
	assert_run_home(&t, "HOME=[/]\n", "absolute link to a host path: missing inside");
	char *climb;
	cr_assert_geq(asprintf(&climb, "../../../../../../../../..%s", host), 0);
	cr_assert_eq(unlink(passwd), 0);
	cr_assert_eq(symlink(climb, passwd), 0);
	assert_run_home(&t, "HOME=[/]\n", "\"..\" past the root: missing inside");
	/* the same link resolves inside once the path exists in the rootfs */
	char *inside = lc_rootfs_file(&t, host + 1, "alice:x:1000:1000::/inside:/bin/sh\n");
	assert_run_home(&t, "HOME=[/inside]\n", "the link's target inside the rootfs");
	free(inside);
	free(climb);
	free(passwd);
	free(host);
}

/* What a hostile image may put at /etc/passwd: a FIFO (never opened, so never waited on)
 * or a directory counts as no file, as a masked /etc/passwd (/dev/null) does under runc;
 * an oversized file fails create and run with one line naming it and leaves nothing. */
Test(home_env, a_fifo_directory_masked_or_huge_passwd)
{
	struct lc t;
	home_init(&t, 1000);
	char *passwd = lc_rootfs_path(&t, "etc/passwd");
	cr_assert_eq(unlink(passwd), 0);
	cr_assert_eq(mkfifo(passwd, 0644), 0);
	assert_run_home(&t, "HOME=[/]\n", "a FIFO: not opened, none");
	cr_assert_eq(unlink(passwd), 0);
	cr_assert_eq(mkdir(passwd, 0755), 0);
	assert_run_home(&t, "HOME=[/]\n", "a directory: none");
	cr_assert_eq(rmdir(passwd), 0);
	ctt_write_file(passwd, PASSWD);
	lc_config_append(&t, ".linux.maskedPaths", "\"/etc/passwd\"");
	assert_run_home(&t, "HOME=[/]\n", "masked: /dev/null, none (runc)");
	ctt_config_set(t.bundle, ".linux.maskedPaths", "[]");
	int fd = open(passwd, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
	cr_assert_geq(fd, 0);
	cr_assert_eq(ftruncate(fd, (16 << 20) + 1), 0); /* sparse: nothing written */
	close(fd);
	lc_assert_create_refused(&t, ID,
				 LC_ARGV("HOME", "\"/etc/passwd\" is larger than 16 MiB",
					 "set HOME in process.env"));
	set_env(&t, "[\"PATH=/bin\", \"HOME=/given\"]");
	assert_run_home(&t, "HOME=[/given]\n", "a HOME given: the file is not looked at");
	free(passwd);
}

/* An exec into a container whose process made /etc/passwd a FIFO does not wait on it. */
Test(home_env, exec_never_waits_on_a_fifo_made_by_the_container)
{
	struct lc t;
	exec_start(&t);
	expect_exec_home(
		&t, LC_ARGV("exec", ID, "sh", "-c", "rm /etc/passwd && mkfifo /etc/passwd"), "");
	expect_exec_home(&t, LC_ARGV("exec", ID, "sh", "-c", SHOW_HOME), "HOME=[/]\n");
	lc_assert_status(&t, ID, "running");
	lc_ok(&t, "delete", "--force", ID);
	lc_assert_nothing_left(&t);
}
